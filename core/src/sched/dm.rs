//! The deque-model family (StarPU's dm, dmda, dmdas, dmdar, and heft, which StarPU 1.4
//! makes an alias of dmda): one queue per worker, each with the time its queued work is
//! expected to end. A task goes to the worker, and the implementation, that should finish
//! it first: the worker's expected end + the data transfer (the "da" variants) + the
//! task's expected length there.
//!
//! A task whose model is not calibrated for some worker and implementation goes where it
//! calibrates the model fastest, as in StarPU: to the uncalibrated (worker, implementation)
//! whose worker has the fewest queued tasks, the first one on ties. Implementation 0 is
//! then calibrated first, then implementation 1, and so on. A codelet without any model is
//! placed the same way (fewest queued tasks), which spreads such tasks over the workers.
//!
//! Workers only take tasks from their own queue (no stealing: the placement is the
//! decision). dmdas and dmdap keep each queue ordered by priority; dmdar takes first the
//! queued task whose data is already in the worker's memory node. dmdasd (StarPU's
//! "sorted decision") is dmdas whose placement counts, on each worker, only the queued
//! work that will run before the task: the tasks of the same or a higher priority, since
//! the task is inserted ahead of the lower-priority ones. A high-priority task thus goes
//! to a worker whose queue holds only low-priority work, and meets its "deadline" sooner.

use super::expected::WorkerQueue;
use super::view::{Expected, SchedView};
use super::Policy;
use crate::memory::NodeId;
use crate::task::{Task, TaskRef};
use crate::worker::Worker;
use std::time::Instant;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    Dm,
    Dmda,
    Dmdas,
    Dmdap,
    Dmdasd,
    Dmdar,
    Heft,
}

impl Variant {
    fn name(self) -> &'static str {
        match self {
            Variant::Dm => "dm",
            Variant::Dmda => "dmda",
            Variant::Dmdas => "dmdas",
            Variant::Dmdap => "dmdap",
            Variant::Dmdasd => "dmdasd",
            Variant::Dmdar => "dmdar",
            Variant::Heft => "heft",
        }
    }

    /// Whether data transfers count in the placement ("data aware").
    fn data_aware(self) -> bool {
        self != Variant::Dm
    }

    /// Whether each worker's queue is kept ordered by priority.
    fn sorted(self) -> bool {
        matches!(self, Variant::Dmdas | Variant::Dmdap | Variant::Dmdasd)
    }
}

pub struct Dm {
    variant: Variant,
    queues: Vec<WorkerQueue>,
    start: Instant,
}

/// The best place found so far for a task.
struct Choice {
    worker: usize,
    nimpl: usize,
    /// Expected end for calibrated choices; queued task count for calibrating ones.
    score: f64,
    predicted: f64,
}

impl Dm {
    pub fn new(variant: Variant, workers: &[Worker]) -> Dm {
        Dm {
            variant,
            queues: workers.iter().map(|w| WorkerQueue::new(w.node)).collect(),
            start: Instant::now(),
        }
    }

    fn now(&self) -> f64 {
        self.start.elapsed().as_secs_f64() * 1e6
    }

    /// Where `task` should go: (worker, implementation, predicted length).
    fn place(&self, task: &Task, view: &dyn SchedView) -> Option<(usize, usize, f64)> {
        let now = self.now();
        let mut best: Option<Choice> = None;
        let mut calibrating: Option<Choice> = None;
        for (w, wq) in self.queues.iter().enumerate() {
            if !view.can_run(task, w) {
                continue;
            }
            let (end, ntasks) = {
                let q = wq.lock();
                if self.variant == Variant::Dmdasd {
                    let (end, n) = q.expected_start_at_priority(now, task.priority());
                    (end, (n + q.running as usize) as f64)
                } else {
                    (
                        q.expected_end(now),
                        (q.tasks.len() + q.running as usize) as f64,
                    )
                }
            };
            let transfer = if self.variant.data_aware() {
                view.expected_transfer(task, w)
            } else {
                0.0
            };
            for nimpl in 0..view.nimpls(task, w).max(1) {
                if !view.can_run_impl(task, w, nimpl) {
                    continue;
                }
                match view.expected_length(task, w, nimpl) {
                    Expected::Length(len) => {
                        let finish = end + transfer + len;
                        if best.as_ref().is_none_or(|b| finish < b.score) {
                            best = Some(Choice {
                                worker: w,
                                nimpl,
                                score: finish,
                                predicted: len,
                            });
                        }
                    }
                    Expected::Uncalibrated | Expected::NoModel => {
                        if calibrating.as_ref().is_none_or(|b| ntasks < b.score) {
                            calibrating = Some(Choice {
                                worker: w,
                                nimpl,
                                score: ntasks,
                                predicted: 0.0,
                            });
                        }
                    }
                }
            }
        }
        calibrating
            .or(best)
            .map(|c| (c.worker, c.nimpl, c.predicted))
    }

    fn enqueue(&self, w: usize, task: TaskRef, predicted: f64) {
        let wq = &self.queues[w];
        let mut q = wq.lock();
        q.insert(
            task,
            predicted,
            self.variant.sorted(),
            self.variant == Variant::Dmdasd,
        );
        wq.publish(&q);
    }
}

/// Whether every buffer of `task` that it reads is valid on `node` already.
fn data_ready(task: &Task, node: NodeId) -> bool {
    task.spec().is_none_or(|s| {
        s.accesses
            .iter()
            .all(|a| !a.mode.reads() || a.handle.is_valid_on(node))
    })
}

impl Policy for Dm {
    fn name(&self) -> &'static str {
        self.variant.name()
    }

    fn push(&self, task: TaskRef, _from: Option<usize>, view: &dyn SchedView) -> Option<usize> {
        let (w, nimpl, predicted) = self.place(&task, view).unwrap_or((0, 0, 0.0));
        task.set_sched_impl(nimpl);
        view.prefetch(&task, w);
        self.enqueue(w, task, predicted);
        Some(w)
    }

    fn pop(&self, worker: usize, can_run: &dyn Fn(&Task) -> bool) -> Option<TaskRef> {
        let wq = &self.queues[worker];
        if wq.len() == 0 {
            return None;
        }
        let mut q = wq.lock();
        let ready_first = match self.variant {
            Variant::Dmdar => q
                .tasks
                .iter()
                .position(|(t, _)| can_run(t) && data_ready(t, wq.node)),
            // StarPU's dmdas and dmdasd pop, among the tasks of the first one's priority,
            // the first whose data is there (the queue is sorted).
            Variant::Dmdas | Variant::Dmdasd => {
                let first = q
                    .tasks
                    .iter()
                    .find(|(t, _)| can_run(t))
                    .map(|(t, _)| t.priority());
                first.and_then(|p| {
                    q.tasks.iter().position(|(t, _)| {
                        t.priority() == p && can_run(t) && data_ready(t, wq.node)
                    })
                })
            }
            _ => None,
        };
        let at = ready_first.or_else(|| q.tasks.iter().position(|(t, _)| can_run(t)))?;
        let task = q.take(at, self.now(), self.variant == Variant::Dmdasd);
        wq.publish(&q);
        task
    }

    fn task_done(&self, worker: usize, _task: &Task, _measured: Option<f64>) {
        if let Some(wq) = self.queues.get(worker) {
            wq.lock().done(self.now());
        }
    }

    fn has_work(&self, worker: usize) -> bool {
        self.queues[worker].len() > 0
    }

    fn ntasks(&self) -> usize {
        self.queues.iter().map(|q| q.len()).sum()
    }

    fn priority_range(&self) -> (i32, i32) {
        (i32::MIN, i32::MAX)
    }
}
