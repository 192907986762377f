//! Task queues shared by the policies: a FIFO, and a priority queue that stays a FIFO for
//! the (common) tasks of default priority.
//!
//! Idle workers poll them (`len`, `is_empty`) without taking any lock.

use crate::task::{Task, TaskRef};
use crossbeam_queue::SegQueue;
use std::collections::BinaryHeap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// What the central policies need of a queue.
pub trait TaskQueue: Send + Sync {
    /// Queues tasks in order.
    fn push_many(&self, ts: impl IntoIterator<Item = TaskRef>)
    where
        Self: Sized;
    /// The task to run next among those `can_run` accepts.
    fn pop_best(&self, can_run: &dyn Fn(&Task) -> bool) -> Option<TaskRef>;
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl TaskQueue for FifoQueue {
    fn push_many(&self, ts: impl IntoIterator<Item = TaskRef>) {
        FifoQueue::push_many(self, ts)
    }
    fn pop_best(&self, can_run: &dyn Fn(&Task) -> bool) -> Option<TaskRef> {
        self.pop_front(can_run)
    }
    fn len(&self) -> usize {
        FifoQueue::len(self)
    }
}

impl TaskQueue for PrioQueue {
    fn push_many(&self, ts: impl IntoIterator<Item = TaskRef>) {
        PrioQueue::push_many(self, ts)
    }
    fn pop_best(&self, can_run: &dyn Fn(&Task) -> bool) -> Option<TaskRef> {
        self.pop(can_run)
    }
    fn len(&self) -> usize {
        PrioQueue::len(self)
    }
}

/// A FIFO of tasks, lock-free (the submitting thread and the workers never wait for each
/// other on it).
#[derive(Default)]
pub struct FifoQueue {
    q: SegQueue<TaskRef>,
}

impl FifoQueue {
    pub fn push(&self, t: TaskRef) {
        self.q.push(t);
    }

    /// Appends tasks in order.
    pub fn push_many(&self, ts: impl IntoIterator<Item = TaskRef>) {
        ts.into_iter().for_each(|t| self.q.push(t));
    }

    /// The oldest task, if `can_run` accepts it; one it refuses goes to the back, for
    /// another worker.
    pub fn pop_front(&self, can_run: &dyn Fn(&Task) -> bool) -> Option<TaskRef> {
        let t = self.q.pop()?;
        if can_run(&t) {
            Some(t)
        } else {
            self.q.push(t);
            None
        }
    }

    pub fn len(&self) -> usize {
        self.q.len()
    }

    pub fn is_empty(&self) -> bool {
        self.q.is_empty()
    }
}

/// A task in a priority heap: higher priority first, then first queued first.
pub(crate) struct Ranked {
    pub(crate) priority: i32,
    /// Order of insertion, for FIFO among equal priorities.
    pub(crate) seq: u64,
    pub(crate) task: TaskRef,
}

impl PartialEq for Ranked {
    fn eq(&self, o: &Self) -> bool {
        self.priority == o.priority && self.seq == o.seq
    }
}
impl Eq for Ranked {}
impl PartialOrd for Ranked {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Ranked {
    /// Higher priority first; among equals, the older (smaller seq) first.
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        self.priority
            .cmp(&o.priority)
            .then_with(|| o.seq.cmp(&self.seq))
    }
}

#[derive(Default)]
struct Heap {
    tasks: BinaryHeap<Ranked>,
    seq: u64,
}

/// A queue ordered by task priority, FIFO within a priority. Tasks of the default
/// priority (nearly all, in most programs) go through a lock-free FIFO; the others
/// through a heap under a lock, consulted only when it holds something.
#[derive(Default)]
pub struct PrioQueue {
    normal: FifoQueue,
    ranked: Mutex<Heap>,
    nranked: AtomicUsize,
}

impl PrioQueue {
    pub fn push(&self, t: TaskRef) {
        if t.priority() == 0 {
            self.normal.push(t);
        } else {
            self.rank(vec![t]);
        }
    }

    /// Inserts tasks. Within a batch, higher priorities are made visible first (positive,
    /// then default, then negative), so a worker popping while the batch goes in never
    /// takes a task before a better one of the same batch.
    pub fn push_many(&self, ts: impl IntoIterator<Item = TaskRef>) {
        let (mut above, mut zero, mut below) = (Vec::new(), Vec::new(), Vec::new());
        for t in ts {
            match t.priority() {
                0 => zero.push(t),
                p if p > 0 => above.push(t),
                _ => below.push(t),
            }
        }
        self.rank(above);
        self.normal.push_many(zero);
        self.rank(below);
    }

    fn rank(&self, ts: Vec<TaskRef>) {
        if ts.is_empty() {
            return;
        }
        let mut h = lock(&self.ranked);
        for task in ts {
            h.seq += 1;
            let seq = h.seq;
            h.tasks.push(Ranked {
                priority: task.priority(),
                seq,
                task,
            });
        }
        self.nranked.store(h.tasks.len(), Ordering::Release);
    }

    /// The best task, if `can_run` accepts it (else it goes back, for another worker).
    pub fn pop(&self, can_run: &dyn Fn(&Task) -> bool) -> Option<TaskRef> {
        if self.nranked.load(Ordering::Acquire) == 0 {
            return self.normal.pop_front(can_run);
        }
        let mut h = lock(&self.ranked);
        let top_first = match h.tasks.peek() {
            Some(top) => top.priority > 0 || self.normal.is_empty(),
            None => false,
        };
        if !top_first {
            drop(h);
            return self.normal.pop_front(can_run);
        }
        let r = h.tasks.pop().expect("peeked");
        if can_run(&r.task) {
            self.nranked.store(h.tasks.len(), Ordering::Release);
            Some(r.task)
        } else {
            h.tasks.push(r);
            None
        }
    }

    pub fn len(&self) -> usize {
        self.normal.len() + self.nranked.load(Ordering::Acquire)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::task::{Task, TaskSpec};

    fn task(priority: i32) -> TaskRef {
        let t = Task::new();
        assert!(t.install_spec(TaskSpec {
            priority,
            ..Default::default()
        }));
        t
    }

    #[test]
    fn prio_queue_orders_by_priority_then_arrival() {
        let q = PrioQueue::default();
        let ts: Vec<TaskRef> = [0, 5, -1, 5, 0, 2].iter().map(|&p| task(p)).collect();
        for t in &ts {
            q.push(t.clone());
        }
        let order: Vec<u64> = std::iter::from_fn(|| q.pop(&|_| true))
            .map(|t| t.id())
            .collect();
        let expect: Vec<u64> = [1, 3, 5, 0, 4, 2].iter().map(|&i| ts[i].id()).collect();
        assert_eq!(order, expect);
        assert!(q.is_empty());
    }

    #[test]
    fn fifo_hands_a_refused_task_to_another_worker() {
        let q = FifoQueue::default();
        let (a, b) = (task(0), task(0));
        q.push(a.clone());
        q.push(b.clone());
        let bid = b.id();
        assert!(q.pop_front(&|t| t.id() == bid).is_none(), "a is refused");
        assert_eq!(q.len(), 2, "and stays queued");
        assert_eq!(q.pop_front(&|_| true).unwrap().id(), bid);
        assert_eq!(q.pop_front(&|_| true).unwrap().id(), a.id());
    }
}
