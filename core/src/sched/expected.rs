//! A worker's queue of placed tasks with the time its work is expected to end: what the
//! model-based policies (the dm family, and the expected-end queues of the modular heft
//! trees) compare when they place a task. Times are microseconds on the policy's clock.

use crate::memory::NodeId;
use crate::task::TaskRef;
use std::collections::{BTreeMap, VecDeque};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

/// The tasks placed on one worker and their predicted lengths.
#[derive(Default)]
pub(crate) struct Queue {
    /// Tasks with the length predicted when they were placed (0 when unknown).
    pub(crate) tasks: VecDeque<(TaskRef, f64)>,
    /// Sum of the queued tasks' predicted lengths.
    pub(crate) queued: f64,
    /// When the task now running is expected to end.
    running_end: f64,
    /// A task taken from this queue is running.
    pub(crate) running: bool,
    /// Queued predicted length and task count per priority (kept when asked), so that
    /// the work ahead of a new task is summed over priorities, not over queued tasks (a
    /// burst of 200,000 tasks would make that quadratic).
    by_priority: BTreeMap<i32, (f64, usize)>,
}

impl Queue {
    /// When the queued work is expected to end, seen at `now`.
    pub(crate) fn expected_end(&self, now: f64) -> f64 {
        self.running_end.max(now) + self.queued
    }

    /// When a task of priority `prio` inserted now would start, and how many tasks run
    /// before it: the running task, then the queued ones of the same or a higher
    /// priority (the queue is sorted, FIFO within a priority). Needs `by_priority`
    /// bookkeeping (`insert` and `take` with `account`).
    pub(crate) fn expected_start_at_priority(&self, now: f64, prio: i32) -> (f64, usize) {
        let (len, n) = self
            .by_priority
            .range(prio..)
            .fold((0.0, 0), |(l, n), (_, (pl, pn))| (l + pl, n + pn));
        (self.running_end.max(now) + len.max(0.0), n)
    }

    /// Counts (`sign` 1) or discounts (-1) a queued task in `by_priority`.
    fn account(&mut self, prio: i32, predicted: f64, sign: i8) {
        let e = self.by_priority.entry(prio).or_insert((0.0, 0));
        if sign > 0 {
            e.0 += predicted;
            e.1 += 1;
        } else {
            e.0 -= predicted;
            e.1 = e.1.saturating_sub(1);
            if e.1 == 0 {
                self.by_priority.remove(&prio);
            }
        }
    }

    /// Queues `task`, predicted to take `predicted`: at the back, or (`sorted`) after
    /// every task of its priority or higher. `account`: keep `by_priority`.
    pub(crate) fn insert(&mut self, task: TaskRef, predicted: f64, sorted: bool, account: bool) {
        self.queued += predicted;
        if account {
            self.account(task.priority(), predicted, 1);
        }
        if sorted {
            let p = task.priority();
            // The queue is sorted by decreasing priority: search from the back, so that a
            // burst of tasks of one priority is queued in constant time each.
            let at = self
                .tasks
                .iter()
                .rposition(|(t, _)| t.priority() >= p)
                .map_or(0, |i| i + 1);
            self.tasks.insert(at, (task, predicted));
        } else {
            self.tasks.push_back((task, predicted));
        }
    }

    /// Takes the task at `at`, which starts running at `now`.
    pub(crate) fn take(&mut self, at: usize, now: f64, account: bool) -> Option<TaskRef> {
        let (task, predicted) = self.tasks.remove(at)?;
        self.queued = (self.queued - predicted).max(0.0);
        if account {
            self.account(task.priority(), predicted, -1);
        }
        self.running_end = now + predicted;
        self.running = true;
        Some(task)
    }

    /// The running task ended at `now`.
    pub(crate) fn done(&mut self, now: f64) {
        self.running_end = now;
        self.running = false;
    }
}

/// A [`Queue`] behind a lock, with its length readable without it.
pub(crate) struct WorkerQueue {
    q: Mutex<Queue>,
    len: AtomicUsize,
    /// The memory node of the worker.
    pub(crate) node: NodeId,
}

impl WorkerQueue {
    pub(crate) fn new(node: NodeId) -> WorkerQueue {
        WorkerQueue {
            q: Mutex::new(Queue::default()),
            len: AtomicUsize::new(0),
            node,
        }
    }

    pub(crate) fn lock(&self) -> MutexGuard<'_, Queue> {
        self.q.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Queued tasks, without the lock (as of the last `publish`).
    pub(crate) fn len(&self) -> usize {
        self.len.load(Ordering::Acquire)
    }

    /// Makes `q`'s length (this queue's, locked) visible to `len`.
    pub(crate) fn publish(&self, q: &Queue) {
        self.len.store(q.tasks.len(), Ordering::Release);
    }
}
