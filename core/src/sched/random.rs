//! random: each ready task goes to the queue of a worker drawn at random among those that
//! can run it; workers only take from their own queue.

use super::queue::FifoQueue;
use super::{Policy, SchedView};
use crate::task::{Task, TaskRef};
use std::cell::Cell;

pub struct Random {
    queues: Vec<FifoQueue>,
}

impl Random {
    pub fn new(nworkers: usize) -> Self {
        Random {
            queues: (0..nworkers).map(|_| FifoQueue::default()).collect(),
        }
    }
}

thread_local! {
    // Seeded from the thread-local's own address, which differs between threads.
    static SEED: Cell<u64> = const { Cell::new(0) };
}

/// xorshift64*: cheap, per thread, good enough to spread tasks.
pub(crate) fn next_random() -> u64 {
    SEED.with(|s| {
        let mut x = s.get();
        if x == 0 {
            x = (s as *const Cell<u64> as u64) | 1;
        }
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        s.set(x);
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    })
}

impl Policy for Random {
    fn name(&self) -> &'static str {
        "random"
    }
    fn push(&self, task: TaskRef, _from: Option<usize>, view: &dyn SchedView) -> Option<usize> {
        let n = self.queues.len();
        let start = (next_random() % n as u64) as usize;
        let w = (0..n)
            .map(|i| (start + i) % n)
            .find(|&w| view.can_run(&task, w))
            .unwrap_or(start);
        self.queues[w].push(task);
        Some(w)
    }
    fn pop(&self, worker: usize, can_run: &dyn Fn(&Task) -> bool) -> Option<TaskRef> {
        self.queues[worker].pop_front(can_run)
    }
    fn has_work(&self, worker: usize) -> bool {
        !self.queues[worker].is_empty()
    }
    fn ntasks(&self) -> usize {
        self.queues.iter().map(|q| q.len()).sum()
    }
}
