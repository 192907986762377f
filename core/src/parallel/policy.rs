//! The parallel-task policies `peager` (parallel eager) and `pheft` (parallel HEFT).
//!
//! Both keep two central FIFO queues: sequential tasks (and parallel tasks no master may
//! run), which any worker takes, and parallel tasks, which only *masters* take. Each
//! worker's master is the first member of the largest combined worker containing it (as
//! in StarPU's peager); a master uses the combined workers whose members all have it as
//! master, so a worker only ever receives team parts from one master.
//!
//! When a master takes a parallel task it picks a combined worker for it:
//! - `peager`: the largest one the task accepts (`max_parallelism`, `can_execute`);
//! - `pheft`: the one its performance model expects to finish it first, among the master
//!   alone and its combined workers; sizes not calibrated yet are tried first, smallest
//!   first, so every size gets measured (StarPU: "it will automatically try the various
//!   available combined worker sizes"). Without a model, the largest, as `peager`.
//!   Sequential tasks are taken greedily (no per-worker expected-end queues).

use super::Parallel;
use super::{combine, combined_can_execute, is_parallel, CombineSettings, CombinedWorker};
use crate::config::Config;
use crate::error::Result;
use crate::perfmodel::{self, PerfArch};
use crate::sched::queue::FifoQueue;
use crate::sched::{Policy, SchedView};
use crate::task::{Task, TaskRef};
use crate::topology::Topology;
use crate::worker::Worker;
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// The policy, when it is a parallel one, and the combined workers.
type Built = (Option<Box<dyn Policy>>, Arc<Parallel>);

/// Builds the runtime's combined workers, and the policy when `name` is a parallel one
/// (`None`: the ordinary policies, which see no combined worker).
pub(crate) fn create(
    name: &str,
    workers: &[Worker],
    topology: &Topology,
    config: &Config,
) -> Result<Built> {
    let which: Option<&'static str> = match name {
        "peager" => Some("peager"),
        "pheft" => Some("pheft"),
        _ => None,
    };
    let groups = match which {
        // Combined workers group CPU workers (the first ones) only.
        Some(_) => {
            let ncpus = workers
                .iter()
                .take_while(|w| w.kind == crate::worker::WorkerKind::Cpu)
                .count();
            combine::combinations(&workers[..ncpus], topology, &CombineSettings::from_env()?)
        }
        None => Vec::new(),
    };
    let parallel = Arc::new(Parallel::new(
        workers.len(),
        groups,
        config.single_combined_worker,
    ));
    let policy =
        which.map(|name| Box::new(ParallelPolicy::new(name, parallel.clone())) as Box<dyn Policy>);
    Ok((policy, parallel))
}

struct ParallelPolicy {
    name: &'static str,
    /// `pheft`: choose the combined worker by the performance model.
    model_based: bool,
    seq: FifoQueue,
    par: FifoQueue,
    master_of: Vec<usize>,
    /// Per master, the combined workers it uses, largest first.
    teams: Vec<Vec<CombinedWorker>>,
    parallel: Arc<Parallel>,
}

impl ParallelPolicy {
    fn new(name: &'static str, parallel: Arc<Parallel>) -> ParallelPolicy {
        let n = parallel.nworkers;
        let combined = parallel.combined_workers();
        let mut best: Vec<(usize, usize)> = (0..n).map(|w| (1, w)).collect();
        for c in &combined {
            for &m in &c.members {
                if c.size() > best[m].0 {
                    best[m] = (c.size(), c.members[0]);
                }
            }
        }
        let master_of: Vec<usize> = best.iter().map(|b| b.1).collect();
        let mut teams: Vec<Vec<CombinedWorker>> = vec![Vec::new(); n];
        for c in combined {
            let m = c.members[0];
            if c.members.iter().all(|&x| master_of[x] == m) {
                teams[m].push(c);
            }
        }
        for t in &mut teams {
            t.sort_by_key(|c| std::cmp::Reverse(c.size()));
        }
        ParallelPolicy {
            name,
            model_based: name == "pheft",
            seq: FifoQueue::default(),
            par: FifoQueue::default(),
            master_of,
            teams,
            parallel,
        }
    }

    fn is_master(&self, w: usize) -> bool {
        self.master_of[w] == w
    }

    /// The combined workers of master `w` that may run `task`, largest first.
    fn candidates(&self, w: usize, task: &Task) -> Vec<&CombinedWorker> {
        let nimpls = task
            .spec()
            .and_then(|s| s.codelet.as_ref())
            .map_or(0, |cl| cl.cpu_funcs.len());
        self.teams[w]
            .iter()
            .filter(|c| (0..nimpls).any(|i| combined_can_execute(c, task, i)))
            .collect()
    }

    /// pheft's choice: `None` is the master alone.
    fn by_model<'a>(
        &self,
        task: &Task,
        teams: &[&'a CombinedWorker],
    ) -> Option<&'a CombinedWorker> {
        let spec = task.spec()?;
        let Some(model) = spec.codelet.as_ref().and_then(|c| c.model.as_ref()) else {
            return teams.first().copied();
        };
        // Smallest first: the master alone, then the teams by increasing size.
        let mut options: Vec<(Option<&'a CombinedWorker>, PerfArch)> =
            vec![(None, PerfArch::cpu())];
        options.extend(teams.iter().rev().map(|c| (Some(*c), c.arch())));
        let lengths: Vec<f64> = options
            .iter()
            .map(|(_, arch)| perfmodel::expected_length(model, spec, arch, 0))
            .collect();
        if let Some(i) = lengths.iter().position(|l| l.is_nan()) {
            return options[i].0;
        }
        let best = (0..options.len())
            .min_by(|&a, &b| lengths[a].total_cmp(&lengths[b]))
            .unwrap_or(0);
        options[best].0
    }

    /// Picks the combined worker for `task`, popped by master `w`, and records it.
    fn place(&self, w: usize, task: &Task) {
        let teams = self.candidates(w, task);
        let chosen = if self.model_based {
            self.by_model(task, &teams)
        } else {
            teams.first().copied()
        };
        if let Some(c) = chosen {
            // With a single combined worker at a time, a master that lost the race for
            // it runs the task alone.
            if self.parallel.single
                && self
                    .parallel
                    .busy
                    .compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed)
                    .is_err()
            {
                return;
            }
            self.parallel.set_assigned(w, c.id);
        }
    }
}

impl Policy for ParallelPolicy {
    fn name(&self) -> &'static str {
        self.name
    }

    fn push(&self, task: TaskRef, _from: Option<usize>, view: &dyn SchedView) -> Option<usize> {
        if is_parallel(&task) {
            let master =
                (0..self.master_of.len()).find(|&m| self.is_master(m) && view.can_run(&task, m));
            if let Some(m) = master {
                self.par.push(task);
                return Some(m);
            }
        }
        self.seq.push(task);
        None
    }

    fn pop(&self, worker: usize, can_run: &dyn Fn(&Task) -> bool) -> Option<TaskRef> {
        if self.is_master(worker)
            && !self.par.is_empty()
            && !(self.parallel.single && self.parallel.busy.load(Ordering::Acquire))
        {
            if let Some(t) = self.par.pop_front(can_run) {
                self.place(worker, &t);
                return Some(t);
            }
        }
        self.seq.pop_front(can_run)
    }

    fn has_work(&self, worker: usize) -> bool {
        !self.seq.is_empty()
            || (self.is_master(worker)
                && !self.par.is_empty()
                && !(self.parallel.single && self.parallel.busy.load(Ordering::Relaxed)))
    }

    fn ntasks(&self) -> usize {
        self.seq.len() + self.par.len()
    }
}
