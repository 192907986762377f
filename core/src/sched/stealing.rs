//! ws and lws: one priority queue per worker. A task released by a worker goes to that
//! worker's queue (its data is likely in cache there); tasks from the application are dealt
//! round-robin. An idle worker first empties its own queue, then steals: ws from the most
//! loaded worker, lws from its neighbours in order (locality).

use super::queue::PrioQueue;
use super::{Policy, SchedView};
use crate::task::{Task, TaskRef};
use std::sync::atomic::{AtomicUsize, Ordering};

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Victim {
    MostLoaded,
    Neighbour,
}

pub struct Stealing {
    queues: Vec<PrioQueue>,
    next: AtomicUsize,
    victim: Victim,
}

impl Stealing {
    pub fn new(nworkers: usize, victim: Victim) -> Self {
        Stealing {
            queues: (0..nworkers).map(|_| PrioQueue::default()).collect(),
            next: AtomicUsize::new(0),
            victim,
        }
    }

    fn steal(&self, worker: usize, can_run: &dyn Fn(&Task) -> bool) -> Option<TaskRef> {
        let n = self.queues.len();
        match self.victim {
            Victim::Neighbour => (1..n)
                .map(|i| (worker + i) % n)
                .find_map(|v| self.queues[v].pop(can_run)),
            Victim::MostLoaded => {
                let mut order: Vec<usize> = (0..n).filter(|&v| v != worker).collect();
                order.sort_by_key(|&v| std::cmp::Reverse(self.queues[v].len()));
                order.into_iter().find_map(|v| self.queues[v].pop(can_run))
            }
        }
    }
}

impl Policy for Stealing {
    fn name(&self) -> &'static str {
        match self.victim {
            Victim::MostLoaded => "ws",
            Victim::Neighbour => "lws",
        }
    }
    fn push(&self, task: TaskRef, from: Option<usize>, view: &dyn SchedView) -> Option<usize> {
        let n = self.queues.len();
        let w = match from {
            Some(w) if view.can_run(&task, w) => w,
            _ => {
                let start = self.next.fetch_add(1, Ordering::Relaxed) % n;
                (0..n)
                    .map(|i| (start + i) % n)
                    .find(|&w| view.can_run(&task, w))
                    .unwrap_or(start)
            }
        };
        self.queues[w].push(task);
        Some(w)
    }
    fn pop(&self, worker: usize, can_run: &dyn Fn(&Task) -> bool) -> Option<TaskRef> {
        self.queues[worker]
            .pop(can_run)
            .or_else(|| self.steal(worker, can_run))
    }
    fn has_work(&self, _worker: usize) -> bool {
        self.queues.iter().any(|q| !q.is_empty())
    }
    fn ntasks(&self) -> usize {
        self.queues.iter().map(|q| q.len()).sum()
    }
    fn priority_range(&self) -> (i32, i32) {
        (i32::MIN, i32::MAX)
    }
}
