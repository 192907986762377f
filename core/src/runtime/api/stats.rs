//! The summaries StarPU prints at shutdown, in its words: `STARPU_WORKER_STATS` (tasks
//! per worker, and with profiling the split of each worker's time), `STARPU_BUS_STATS`
//! (bytes moved between memory nodes, per pair), `STARPU_MEMORY_STATS` (the data still
//! registered and where it lives), and `STARPU_STATS` (the data statistics).
//!
//! Transfers are counted by the memory subsystem (`memory/stats.rs`), whether tracing is
//! on or not; `STARPU_BUS_STATS` prints its summary.

use crate::runtime::Runtime;
use std::fmt::Write as _;

fn ms(ns: u64) -> f64 {
    ns as f64 / 1e6
}

const RULE: &str = "#---------------------";

impl Runtime {
    /// `STARPU_WORKER_STATS`'s summary (`starpu_profiling_worker_helper_display_summary`):
    /// each worker's tasks and, with profiling on, how its time split since the counters
    /// were last read (reading restarts them, as in StarPU).
    pub fn worker_stats_text(&self) -> String {
        let on = self.profiling();
        let mut out = format!("\n{RULE}\nWorker stats:\n");
        let (mut total, mut exec, mut sleep) = (0u64, 0u64, 0u64);
        for w in self.workers() {
            let p = self.take_worker_profile(w.id).unwrap_or_default();
            let _ = writeln!(out, "{:<32}", w.name);
            let ntasks = if on { p.executed_tasks } else { w.executed() };
            let _ = writeln!(out, "\t{ntasks} task(s)");
            if on {
                let overhead = p.total_ns.saturating_sub(p.executing_ns + p.sleeping_ns);
                let _ = writeln!(
                    out,
                    "\ttime split: total {:.2} ms = executing: {:.2} ms + callback: 0.00 ms + \
                     waiting: 0.00 ms + sleeping: {:.2} ms + scheduling: 0.00 ms + overhead \
                     {:.2} ms",
                    ms(p.total_ns),
                    ms(p.executing_ns),
                    ms(p.sleeping_ns),
                    ms(overhead)
                );
                if p.flops > 0.0 && p.total_ns > 0 {
                    let _ = writeln!(out, "\t{:.6} GFlop/s\n", p.flops / p.total_ns as f64);
                }
                total += p.total_ns;
                exec += p.executing_ns;
                sleep += p.sleeping_ns;
            }
        }
        if on && total > 0 {
            let pct = |x: u64| x as f64 * 100.0 / total as f64;
            let over = total.saturating_sub(exec + sleep);
            let _ = writeln!(
                out,
                "\nGlobal time split: total {:.2} ms = executing: {:.2} ms ({:.2}%) + callback: \
                 0.00 ms (0.00%) + waiting: 0.00 ms (0.00%) + sleeping: {:.2} ms ({:.2}%) + \
                 scheduling: 0.00 ms (0.00%) + overhead {:.2} ms ({:.2}%)",
                ms(total),
                ms(exec),
                pct(exec),
                ms(sleep),
                pct(sleep),
                ms(over),
                pct(over)
            );
        }
        out.push_str(RULE);
        out.push('\n');
        out
    }

    /// `STARPU_BUS_STATS`'s summary (`starpu_profiling_bus_helper_display_summary`):
    /// the bytes moved on each bus between memory nodes, from the memory subsystem's counts.
    pub fn bus_stats_text(&self) -> String {
        self.memory.stats.summary(|n| self.memory.nodes()[n].name())
    }

    /// `STARPU_MEMORY_STATS`'s summary (`starpu_data_display_memory_stats`): the data
    /// still registered, each with its size and the nodes holding its value.
    pub fn memory_stats_text(&self) -> String {
        let mut out = format!("\n{RULE}\nMemory stats:\n");
        let handles = crate::data::registry::all();
        for h in &handles {
            let nodes: Vec<String> = (0..self.memory.nodes().len())
                .filter(|&n| h.is_valid_on(n))
                .map(|n| self.memory.nodes()[n].name())
                .collect();
            let _ = writeln!(
                out,
                "#-----\nData : {}\nSize : {}\nValid on : {}\n",
                h.label(),
                h.size(),
                if nodes.is_empty() {
                    "(none)".to_string()
                } else {
                    nodes.join(", ")
                }
            );
        }
        let bytes: usize = handles.iter().map(|h| h.size()).sum();
        let _ = writeln!(
            out,
            "{} data registered, {:.2} MB\n{RULE}",
            handles.len(),
            bytes as f64 / 1e6
        );
        out
    }

    /// Prints the summaries the configuration asks for, on stderr, at shutdown.
    pub(crate) fn print_statistics(&self) {
        if self.config.stats {
            eprint!("{}", crate::profiling::data_summary());
        }
        if self.config.bus_stats {
            let summary = self.bus_stats_text();
            match crate::env::env_var("STARPU_BUS_STATS_FILE") {
                Some(f) => {
                    if let Err(e) = std::fs::write(&f, summary) {
                        self.warn(&format!("STARPU_BUS_STATS_FILE={f}: {e}"));
                    }
                }
                None => eprint!("{summary}"),
            }
        }
        if self.config.worker_stats {
            eprint!("{}", self.worker_stats_text());
        }
        if self.config.memory_stats {
            eprint!("{}", self.memory_stats_text());
        }
    }
}
