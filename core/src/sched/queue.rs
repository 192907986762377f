//! Task queues shared by the policies: a FIFO, and a priority queue that stays a FIFO for
//! the (common) tasks of default priority.
//!
//! Each keeps its length in an atomic so idle workers can poll without taking the lock.

use crate::task::{Task, TaskRef};
use std::collections::{BinaryHeap, VecDeque};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// What the central policies need of a queue.
pub trait TaskQueue: Send + Sync {
    /// Queues tasks, all under one lock.
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

/// How many queued tasks a pop looks at for one its worker can run, before giving up.
const SCAN_LIMIT: usize = 64;

#[derive(Default)]
pub struct FifoQueue {
    q: Mutex<VecDeque<TaskRef>>,
    len: AtomicUsize,
}

impl FifoQueue {
    pub fn push(&self, t: TaskRef) {
        self.push_many(std::iter::once(t));
    }

    /// Appends tasks in order, under one lock.
    pub fn push_many(&self, ts: impl IntoIterator<Item = TaskRef>) {
        let mut q = lock(&self.q);
        q.extend(ts);
        self.len.store(q.len(), Ordering::Release);
    }

    /// The oldest task `can_run` accepts.
    pub fn pop_front(&self, can_run: &dyn Fn(&Task) -> bool) -> Option<TaskRef> {
        if self.is_empty() {
            return None;
        }
        let mut q = lock(&self.q);
        let i = q.iter().take(SCAN_LIMIT).position(|t| can_run(t))?;
        let t = q.remove(i);
        self.len.store(q.len(), Ordering::Release);
        t
    }

    /// The newest task `can_run` accepts (what a thief takes).
    pub fn pop_back(&self, can_run: &dyn Fn(&Task) -> bool) -> Option<TaskRef> {
        if self.is_empty() {
            return None;
        }
        let mut q = lock(&self.q);
        let n = q.len();
        let i = q.iter().rev().take(SCAN_LIMIT).position(|t| can_run(t))?;
        let t = q.remove(n - 1 - i);
        self.len.store(q.len(), Ordering::Release);
        t
    }

    pub fn len(&self) -> usize {
        self.len.load(Ordering::Acquire)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

struct Ranked {
    priority: i32,
    seq: u64,
    task: TaskRef,
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
struct PrioInner {
    /// Tasks of priority 0, in arrival order.
    normal: VecDeque<TaskRef>,
    /// Every other task, best first.
    ranked: BinaryHeap<Ranked>,
    seq: u64,
}

impl PrioInner {
    fn len(&self) -> usize {
        self.normal.len() + self.ranked.len()
    }

    /// Removes the best task: ranked ones above 0 beat the FIFO, those below lose to it.
    fn take_best(&mut self) -> Option<TaskRef> {
        let ranked_first = match self.ranked.peek() {
            Some(top) => top.priority > 0 || self.normal.is_empty(),
            None => false,
        };
        if ranked_first {
            self.ranked.pop().map(|r| r.task)
        } else {
            self.normal.pop_front()
        }
    }

    fn put_back(&mut self, t: TaskRef) {
        let p = t.priority();
        if p == 0 {
            self.normal.push_front(t);
        } else {
            // Back in front of its equals: it was the best before being skipped.
            self.ranked.push(Ranked {
                priority: p,
                seq: 0,
                task: t,
            });
        }
    }
}

/// A queue ordered by task priority, FIFO within a priority.
#[derive(Default)]
pub struct PrioQueue {
    q: Mutex<PrioInner>,
    len: AtomicUsize,
}

impl PrioQueue {
    pub fn push(&self, t: TaskRef) {
        self.push_many(std::iter::once(t));
    }

    /// Inserts tasks under one lock.
    pub fn push_many(&self, ts: impl IntoIterator<Item = TaskRef>) {
        let mut q = lock(&self.q);
        for t in ts {
            let p = t.priority();
            if p == 0 {
                q.normal.push_back(t);
            } else {
                q.seq += 1;
                let seq = q.seq;
                q.ranked.push(Ranked {
                    priority: p,
                    seq,
                    task: t,
                });
            }
        }
        self.len.store(q.len(), Ordering::Release);
    }

    /// The best task `can_run` accepts.
    pub fn pop(&self, can_run: &dyn Fn(&Task) -> bool) -> Option<TaskRef> {
        if self.is_empty() {
            return None;
        }
        let mut q = lock(&self.q);
        let mut skipped = Vec::new();
        let mut found = None;
        while let Some(t) = q.take_best() {
            if can_run(&t) {
                found = Some(t);
                break;
            }
            skipped.push(t);
            if skipped.len() >= SCAN_LIMIT {
                break;
            }
        }
        for t in skipped.into_iter().rev() {
            q.put_back(t);
        }
        self.len.store(q.len(), Ordering::Release);
        found
    }

    pub fn len(&self) -> usize {
        self.len.load(Ordering::Acquire)
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
    fn fifo_skips_tasks_the_worker_cannot_run() {
        let q = FifoQueue::default();
        let (a, b) = (task(0), task(0));
        q.push(a.clone());
        q.push(b.clone());
        let bid = b.id();
        let got = q.pop_front(&|t| t.id() == bid).unwrap();
        assert_eq!(got.id(), bid);
        assert_eq!(q.len(), 1);
        assert_eq!(q.pop_back(&|_| true).unwrap().id(), a.id());
    }
}
