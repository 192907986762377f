//! Heteroprio's per-worker queues (outside the locality-aware mode): a worker that looks
//! for work first tops its own queue up to `STARPU_HETEROPRIO_MAX_PREFETCH` tasks from the
//! buckets, then runs the oldest task of its queue; a worker whose queue is empty, with
//! the buckets giving it nothing, steals the newest task of another worker's queue of the
//! same architecture, looking at the workers after itself first, circularly. StarPU
//! queues tasks this way so that their data can be fetched while the worker runs the task
//! before; this build's CPU workers compute in main memory, where nothing needs fetching,
//! so the queue only decides which worker a task is promised to.

use super::NARCH;
use crate::task::{Task, TaskRef};
use std::collections::VecDeque;

/// How many tasks a worker's queue holds at most (`STARPU_HETEROPRIO_MAX_PREFETCH`).
pub const MAX_PREFETCH: usize = 2;

/// A queued task with the bucket it came from (where it goes back if its worker leaves).
pub type Queued = (TaskRef, usize);

pub struct WorkerQueues {
    queues: Vec<VecDeque<Queued>>,
    arch_of: Vec<usize>,
    /// Tasks queued per architecture (`nb_prefetched_tasks_per_arch_index`).
    per_arch: [usize; NARCH],
}

impl WorkerQueues {
    pub fn new(arch_of: &[usize]) -> Self {
        WorkerQueues {
            queues: vec![VecDeque::new(); arch_of.len()],
            arch_of: arch_of.to_vec(),
            per_arch: [0; NARCH],
        }
    }

    pub fn len(&self, w: usize) -> usize {
        self.queues[w].len()
    }

    /// Tasks queued for workers of `arch`.
    pub fn for_arch(&self, arch: usize) -> usize {
        self.per_arch[arch]
    }

    pub fn total(&self) -> usize {
        self.per_arch.iter().sum()
    }

    /// How many tasks `w` should take from the buckets, `remaining` being the tasks its
    /// architecture could take there and `nworkers` the context's workers: enough to fill
    /// its queue, but when tasks are fewer than workers, one only into an empty queue, so
    /// that every worker gets one.
    pub fn wanted(&self, w: usize, remaining: usize, nworkers: usize) -> usize {
        let have = self.queues[w].len();
        if remaining < nworkers {
            return usize::from(have == 0);
        }
        MAX_PREFETCH.saturating_sub(have).min(remaining)
    }

    pub fn push(&mut self, w: usize, task: TaskRef, bucket: usize) {
        self.queues[w].push_back((task, bucket));
        self.per_arch[self.arch_of[w]] += 1;
    }

    fn take(&mut self, victim: usize, i: usize) -> Option<Queued> {
        let q = self.queues[victim].remove(i)?;
        self.per_arch[self.arch_of[victim]] -= 1;
        Some(q)
    }

    /// The oldest task of `w`'s own queue that `w` can run.
    pub fn pop_own(&mut self, w: usize, can_run: &dyn Fn(&Task) -> bool) -> Option<Queued> {
        let i = self.queues[w].iter().position(|(t, _)| can_run(t))?;
        self.take(w, i)
    }

    /// The newest task `w` can run in the queue of another worker of its architecture,
    /// trying the workers after `w` first (StarPU's circular victim search).
    pub fn steal(&mut self, w: usize, can_run: &dyn Fn(&Task) -> bool) -> Option<Queued> {
        let n = self.queues.len();
        let arch = self.arch_of[w];
        if self.per_arch[arch] == 0 {
            return None;
        }
        for k in 1..n {
            let victim = (w + k) % n;
            if self.arch_of[victim] != arch {
                continue;
            }
            if let Some(i) = self.queues[victim].iter().rposition(|(t, _)| can_run(t)) {
                return self.take(victim, i);
            }
        }
        None
    }

    /// Empties `w`'s queue (the worker left the context), oldest first.
    pub fn drain(&mut self, w: usize) -> Vec<Queued> {
        let out: Vec<Queued> = self.queues[w].drain(..).collect();
        self.per_arch[self.arch_of[w]] -= out.len();
        out
    }
}
