//! The theoretical lower bound on execution time (StarPU's `starpu_bound_*`): between
//! `start` and `stop`, the runtime records how many tasks of each kind (codelet) ran and
//! how long they took; the bound is the optimum of the linear program that spreads those
//! tasks over the workers so that the busiest one finishes first.
//!
//! StarPU builds the program from its performance models and solves it with GLPK. Here the
//! lengths are the measured mean durations, and every worker is a CPU worker of the same
//! speed, so the relaxed program has a closed-form optimum: the total work divided by the
//! number of workers (giving each worker `1/W` of every kind of task reaches it, and no
//! assignment does better since the workers' loads add up to the total work). The program
//! itself is written out in LP and MPS formats for any solver. With dependencies recorded
//! (`deps`), StarPU's bound needs the task graph; this build does not record it, and, like
//! StarPU in that mode, answers 0.

use std::collections::BTreeMap;
use std::fmt::Write as _;

/// What was recorded between `start` and `stop`.
#[derive(Debug, Clone, Default)]
pub struct BoundRecord {
    /// Dependencies were asked for (`starpu_bound_start(deps = 1, ...)`).
    pub deps: bool,
    /// Per kind of task (codelet name): how many ran, and their total duration in ns.
    pub kinds: BTreeMap<String, (u64, u64)>,
}

/// The linear program of a record, for `nworkers` identical workers.
#[derive(Debug, Clone)]
pub struct BoundProblem {
    pub nworkers: usize,
    /// (kind, number of tasks, mean length in ms)
    pub kinds: Vec<(String, u64, f64)>,
    pub deps: bool,
}

impl BoundRecord {
    pub(crate) fn add(&mut self, kind: &str, ns: u64) {
        let e = self.kinds.entry(kind.to_string()).or_default();
        e.0 += 1;
        e.1 += ns;
    }

    pub fn problem(&self, nworkers: usize) -> BoundProblem {
        BoundProblem {
            nworkers,
            kinds: self
                .kinds
                .iter()
                .map(|(k, &(n, ns))| (k.clone(), n, ns as f64 / n.max(1) as f64 / 1e6))
                .collect(),
            deps: self.deps,
        }
    }
}

impl BoundProblem {
    /// The optimum of the relaxed program, in ms; 0 with dependencies (not modelled) or
    /// without any task or worker.
    pub fn relaxed_optimum_ms(&self) -> f64 {
        if self.deps || self.nworkers == 0 {
            return 0.0;
        }
        let work: f64 = self.kinds.iter().map(|(_, n, ms)| *n as f64 * ms).sum();
        work / self.nworkers as f64
    }

    /// Column name of "tasks of kind `t` on worker `w`" (StarPU's naming).
    fn var(w: usize, t: usize) -> String {
        format!("w{w}t{t}n")
    }

    /// The program in LP format (lp_solve's, as StarPU writes it).
    pub fn to_lp(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "/* StarPU-model lower bound: {} workers */",
            self.nworkers
        );
        for (t, (kind, n, ms)) in self.kinds.iter().enumerate() {
            let _ = writeln!(out, "/* kind t{t}: {kind}, {n} tasks of {ms:.6} ms */");
        }
        let _ = writeln!(out, "/* minimize the time of the busiest worker (ms) */");
        let _ = writeln!(out, "min: tmax;\n");
        let _ = writeln!(out, "/* each worker's tasks take at most tmax */");
        for w in 0..self.nworkers {
            let terms: Vec<String> = (0..self.kinds.len())
                .map(|t| format!("{:.6} {}", self.kinds[t].2, Self::var(w, t)))
                .collect();
            let lhs = if terms.is_empty() {
                "0".to_string()
            } else {
                terms.join(" + ")
            };
            let _ = writeln!(out, "c{w}: {lhs} - tmax <= 0;");
        }
        let _ = writeln!(out, "\n/* every task runs somewhere */");
        for (t, (_, n, _)) in self.kinds.iter().enumerate() {
            let vars: Vec<String> = (0..self.nworkers).map(|w| Self::var(w, t)).collect();
            let _ = writeln!(out, "t{t}: {} = {n};", vars.join(" + "));
        }
        out
    }

    /// The program in (fixed) MPS format.
    pub fn to_mps(&self) -> String {
        let mut out = String::from("NAME          StarPU\nROWS\n N  TMAX\n");
        for w in 0..self.nworkers {
            let _ = writeln!(out, " L  W{w}");
        }
        for t in 0..self.kinds.len() {
            let _ = writeln!(out, " E  T{t}");
        }
        out.push_str("COLUMNS\n");
        for (t, (_, _, ms)) in self.kinds.iter().enumerate() {
            for w in 0..self.nworkers {
                let v = Self::var(w, t);
                let _ = writeln!(out, "    {v:<8}  W{w:<8}  {ms:.6}");
                let _ = writeln!(out, "    {v:<8}  T{t:<8}  1");
            }
        }
        let _ = writeln!(out, "    TMAX      TMAX      1");
        for w in 0..self.nworkers {
            let _ = writeln!(out, "    TMAX      W{w:<8}  -1");
        }
        out.push_str("RHS\n");
        for (t, (_, n, _)) in self.kinds.iter().enumerate() {
            let _ = writeln!(out, "    RHS       T{t:<8}  {n}");
        }
        out.push_str("ENDATA\n");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_relaxed_optimum_spreads_the_work_evenly() {
        let mut r = BoundRecord::default();
        for _ in 0..4 {
            r.add("a", 2_000_000); // 2 ms each
        }
        r.add("b", 6_000_000);
        let p = r.problem(2);
        assert_eq!(p.relaxed_optimum_ms(), (4.0 * 2.0 + 6.0) / 2.0);
        let lp = p.to_lp();
        assert!(lp.contains("min: tmax;"), "{lp}");
        assert!(lp.contains("t0: w0t0n + w1t0n = 4;"), "{lp}");
        assert!(
            lp.contains("c1: 2.000000 w1t0n + 6.000000 w1t1n - tmax <= 0;"),
            "{lp}"
        );
        let mps = p.to_mps();
        assert!(
            mps.starts_with("NAME") && mps.ends_with("ENDATA\n"),
            "{mps}"
        );
        r.deps = true;
        assert_eq!(r.problem(2).relaxed_optimum_ms(), 0.0);
    }
}
