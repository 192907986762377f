//! StarPU's model-based modular policies (`src/sched_policies/modular_heft.c`,
//! `modular_heft2.c`, `modular_heft_prio.c`). StarPU builds each with
//! `starpu_sched_component_initialize_simple_scheduler` and the flags `PERFMODEL |
//! FIFO_ABOVE_PRIO | FIFOS_BELOW_PRIO | FIFOS_BELOW_READY | IMPL`:
//!
//! ```text
//!                          window (prio queue)
//!                                 |
//!   decision <-- perfmodel_select --> eager_calibration, eager (no model)
//!      |                                  |                  |
//!  per-worker prio queue (expected end)   |                  |
//!      |                                  |                  |
//!  best_implementation <------------------+------------------'
//!      |
//!    worker
//! ```
//!
//! This file is that tree as one policy, each part doing what its component does
//! ([`super::predict`] holds the predictions):
//!
//! - the window holds what could not go further yet, by priority (FIFO among equals);
//! - perfmodel_select ([`predict::route`]) sends a task whose model is not calibrated
//!   somewhere to the first worker (and implementation) to calibrate, a task without a
//!   model to the eager part, and the others to the decision;
//! - the decision is `mct` (`modular-heft`): the worker of least expected completion
//!   time (its queued work's expected end, plus the transfer, plus the task's length
//!   with its best implementation there), or `heft` (`modular-heft2`), which looks at
//!   up to 5 tasks of the window's first priority and places first the one that gains
//!   most from a good placement (latest minus earliest expected end);
//! - each worker's queue is sorted by priority and keeps its expected end
//!   (`sched/expected.rs`): a placed task adds its predicted length, a task
//!   taken starts the running one's, and its end resets it. A queue refuses tasks past
//!   30 (`STARPU_NTASKS_THRESHOLD`, StarPU's default for these trees) or past an
//!   expected length of 1e9 us (`STARPU_EXP_LEN_THRESHOLD`); the refused task waits in
//!   the window and is placed when a worker takes a task, with the predictions of then.
//!
//! `modular-heft-prio` decides per memory node: with one memory node (every worker is
//! on main RAM in this build), StarPU's layout has a single choice and uses an eager
//! decision (`modular_ez.c`), so its calibrated tasks wait in the priority window and
//! the first worker to ask takes the first one it may run, with its best
//! implementation.
//!
//! A task without a model waits in the window for a worker that asks (StarPU's eager
//! component hands it to the worker whose pull triggered the push); StarPU, when no
//! worker asks, gives it to the first worker able to run it, which here would queue
//! every task without a model on worker 0.

use super::predict::{self, Mct, Route};
use crate::env::{env_float, env_int};
use crate::error::{Error, Result};
use crate::sched::expected::WorkerQueue;
use crate::sched::{Policy, SchedView};
use crate::task::{Task, TaskRef};
use crate::worker::Worker;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::Instant;

/// The decision component below perfmodel_select.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// `starpu_sched_component_mct_create`: one task at a time.
    Mct,
    /// `starpu_sched_component_heft_create`: the best of a few tasks of one priority.
    Heft,
    /// One choice only (one memory node): workers take calibrated tasks as eager does.
    Eager,
}

/// Tasks the heft decision compares at once (StarPU's `NTASKS`).
const HEFT_LOOKAHEAD: usize = 5;
/// Most tasks a worker's queue holds (StarPU's `_STARPU_SCHED_NTASKS_THRESHOLD_HEFT`),
/// unless `STARPU_NTASKS_THRESHOLD` says otherwise (0: no bound).
const NTASKS_THRESHOLD: usize = 30;
/// Most predicted work a worker's queue holds, in us
/// (`_STARPU_SCHED_EXP_LEN_THRESHOLD_DEFAULT`; `STARPU_EXP_LEN_THRESHOLD`; 0: no bound).
const EXP_LEN_THRESHOLD: f64 = 1e9;

/// How full a worker's queue may get.
#[derive(Debug, Clone, Copy)]
struct Bounds {
    ntasks: usize,
    exp_len: f64,
}

impl Bounds {
    fn full(&self, ntasks: usize, exp_len: f64) -> bool {
        (self.ntasks != 0 && ntasks >= self.ntasks)
            || (self.exp_len != 0.0 && exp_len >= self.exp_len)
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// A queue sorted by decreasing priority, FIFO among equals.
#[derive(Default)]
struct Window(VecDeque<TaskRef>);

impl Window {
    fn insert(&mut self, t: TaskRef) {
        let p = t.priority();
        let at = self
            .0
            .iter()
            .rposition(|o| o.priority() >= p)
            .map_or(0, |i| i + 1);
        self.0.insert(at, t);
    }

    fn remove(&mut self, t: &TaskRef) -> bool {
        match self.0.iter().position(|o| std::sync::Arc::ptr_eq(o, t)) {
            Some(i) => {
                self.0.remove(i);
                true
            }
            None => false,
        }
    }
}

/// The tree of a `modular-heft*` policy.
pub struct HeftTree {
    name: &'static str,
    decision: Decision,
    mct: Mct,
    bounds: Bounds,
    /// Tasks for the decision that no queue took yet (the window's part above the
    /// decision).
    placing: Mutex<Window>,
    /// Tasks for the eager part (no model; or any task when the decision is eager).
    eager: Mutex<Window>,
    /// Tasks in `placing` and `eager`.
    waiting: AtomicUsize,
    queues: Vec<WorkerQueue>,
    /// One decision at a time (StarPU's `scheduling_mutex`): a decision counts the
    /// tasks placed before it.
    deciding: Mutex<()>,
    ntasks: AtomicUsize,
    start: Instant,
}

impl HeftTree {
    /// The tree, with StarPU's environment variables for its parameters
    /// (`STARPU_SCHED_ALPHA`, `STARPU_SCHED_BETA`, `STARPU_NTASKS_THRESHOLD`,
    /// `STARPU_EXP_LEN_THRESHOLD`); a malformed value is an error.
    pub fn new(name: &'static str, decision: Decision, workers: &[Worker]) -> Result<HeftTree> {
        let d = Mct::default();
        let mct = Mct {
            alpha: env_float("STARPU_SCHED_ALPHA")?.unwrap_or(d.alpha),
            beta: env_float("STARPU_SCHED_BETA")?.unwrap_or(d.beta),
        };
        let ntasks = match env_int("STARPU_NTASKS_THRESHOLD")? {
            None => NTASKS_THRESHOLD,
            Some(n) => usize::try_from(n)
                .map_err(|_| Error::invalid(format!("STARPU_NTASKS_THRESHOLD={n} is negative")))?,
        };
        let bounds = Bounds {
            ntasks,
            exp_len: env_float("STARPU_EXP_LEN_THRESHOLD")?.unwrap_or(EXP_LEN_THRESHOLD),
        };
        Ok(HeftTree {
            name,
            decision,
            mct,
            bounds,
            placing: Mutex::new(Window::default()),
            eager: Mutex::new(Window::default()),
            waiting: AtomicUsize::new(0),
            queues: workers.iter().map(|w| WorkerQueue::new(w.node)).collect(),
            deciding: Mutex::new(()),
            ntasks: AtomicUsize::new(0),
            start: Instant::now(),
        })
    }

    fn now(&self) -> f64 {
        self.start.elapsed().as_secs_f64() * 1e6
    }

    fn workers(&self) -> std::ops::Range<usize> {
        0..self.queues.len()
    }

    /// Queues `task` on worker `w` with implementation `nimpl`, predicted to take
    /// `predicted`, unless (`bounded`) the queue is full. Gives the task back if full.
    fn place(
        &self,
        w: usize,
        task: TaskRef,
        nimpl: Option<usize>,
        predicted: f64,
        bounded: bool,
    ) -> std::result::Result<(), TaskRef> {
        let wq = &self.queues[w];
        let mut q = wq.lock();
        if bounded && self.bounds.full(q.tasks.len(), q.queued + predicted) {
            return Err(task);
        }
        if let Some(i) = nimpl {
            task.set_sched_impl(i);
        }
        q.insert(task, predicted, true, false);
        wq.publish(&q);
        Ok(())
    }

    fn wait_in(&self, w: &Mutex<Window>, task: TaskRef) {
        lock(w).insert(task);
        self.waiting.fetch_add(1, Ordering::SeqCst);
    }

    /// Takes `task` out of `w`, unless another worker did.
    fn take_from(&self, w: &Mutex<Window>, task: &TaskRef) -> bool {
        let took = lock(w).remove(task);
        if took {
            self.waiting.fetch_sub(1, Ordering::SeqCst);
        }
        took
    }

    /// Places the decision's waiting tasks while queues take them (StarPU's window
    /// pumping its tasks down): stops at the first refusal, so that the window's order
    /// holds. Returns the worker that got the last task.
    fn progress(&self, view: &dyn SchedView) -> Option<usize> {
        let _one = lock(&self.deciding);
        let mut last = None;
        loop {
            let lookahead = if self.decision == Decision::Heft {
                HEFT_LOOKAHEAD
            } else {
                1
            };
            let tasks: Vec<TaskRef> = {
                let win = lock(&self.placing);
                let Some(first) = win.0.front() else {
                    return last;
                };
                let p = first.priority();
                win.0
                    .iter()
                    .take(lookahead)
                    .take_while(|t| t.priority() == p)
                    .cloned()
                    .collect()
            };
            let now = self.now();
            let queued_end = |w: usize| self.queues[w].lock().expected_end(now);
            // Each task's candidates; the heft decision takes the task that gains most.
            let mut chosen: Option<(f64, TaskRef, Vec<predict::Candidate>)> = None;
            for t in tasks {
                let cands = self
                    .mct
                    .candidates(&t, self.workers(), now, queued_end, view);
                let gain = predict::benefit(&cands);
                if chosen.as_ref().is_none_or(|(g, _, _)| gain > *g) {
                    chosen = Some((gain, t, cands));
                }
            }
            let Some((_, task, cands)) = chosen else {
                return last;
            };
            let Some(best) = self.mct.best(&cands) else {
                // No worker predicts it any more (a model was reset): the eager part
                // runs it.
                if self.take_from(&self.placing, &task) {
                    self.wait_in(&self.eager, task);
                }
                continue;
            };
            if !self.take_from(&self.placing, &task) {
                continue;
            }
            let nimpl = predict::best_impl(&task, best.worker, view).map(|(i, _)| i);
            let placed = task.clone();
            match self.place(best.worker, task, nimpl, best.length, true) {
                Ok(()) => {
                    view.prefetch(&placed, best.worker);
                    last = Some(best.worker)
                }
                Err(task) => {
                    // Full: the task waits, first of its priority, for room.
                    let mut win = lock(&self.placing);
                    let p = task.priority();
                    let at = win.0.iter().position(|o| o.priority() <= p);
                    let at = at.unwrap_or(win.0.len());
                    win.0.insert(at, task);
                    self.waiting.fetch_add(1, Ordering::SeqCst);
                    return last;
                }
            }
        }
    }

    /// The eager part, for worker `w` asking: the first task of the eager window it
    /// may run, queued on `w` with its best implementation there.
    fn eager_to(&self, w: usize, can_run: &dyn Fn(&Task) -> bool, view: &dyn SchedView) {
        let task = {
            let mut win = lock(&self.eager);
            let Some(i) = win.0.iter().position(|t| can_run(t)) else {
                return;
            };
            win.0.remove(i)
        };
        let Some(task) = task else {
            return;
        };
        self.waiting.fetch_sub(1, Ordering::SeqCst);
        let (nimpl, predicted) = match predict::best_impl(&task, w, view) {
            Some((i, len)) => (Some(i), len),
            None => (None, 0.0),
        };
        // The asking worker runs it next: never refused.
        let _ = self.place(w, task, nimpl, predicted, false);
    }

    /// The first task of `w`'s queue that `can_run` accepts, now starting.
    fn take_own(&self, w: usize, can_run: &dyn Fn(&Task) -> bool) -> Option<TaskRef> {
        let wq = self.queues.get(w)?;
        if wq.len() == 0 {
            return None;
        }
        let mut q = wq.lock();
        let at = q.tasks.iter().position(|(t, _)| can_run(t))?;
        let t = q.take(at, self.now(), false);
        wq.publish(&q);
        t
    }

    fn popped(&self, t: Option<TaskRef>) -> Option<TaskRef> {
        if t.is_some() {
            self.ntasks.fetch_sub(1, Ordering::SeqCst);
        }
        t
    }
}

impl Policy for HeftTree {
    fn name(&self) -> &'static str {
        self.name
    }

    fn push(&self, task: TaskRef, _from: Option<usize>, view: &dyn SchedView) -> Option<usize> {
        self.ntasks.fetch_add(1, Ordering::SeqCst);
        match predict::route(&task, self.workers(), view) {
            Route::Calibrate { worker, nimpl } => {
                // eager_calibration pushes to the worker itself: no queue bound.
                let _ = self.place(worker, task, Some(nimpl), 0.0, false);
                Some(worker)
            }
            Route::Model if self.decision != Decision::Eager => {
                self.wait_in(&self.placing, task);
                // The task placed last is this one unless others waited for room.
                self.progress(view)
            }
            Route::Model | Route::NoModel => {
                self.wait_in(&self.eager, task);
                None
            }
        }
    }

    fn pop_in(
        &self,
        worker: usize,
        can_run: &dyn Fn(&Task) -> bool,
        view: &dyn SchedView,
    ) -> Option<TaskRef> {
        if self.ntasks.load(Ordering::SeqCst) == 0 {
            return None;
        }
        let t = self.take_own(worker, can_run).or_else(|| {
            if self.waiting.load(Ordering::SeqCst) == 0 {
                return None;
            }
            self.progress(view);
            self.eager_to(worker, can_run, view);
            self.take_own(worker, can_run)
        });
        if t.is_some() && self.waiting.load(Ordering::SeqCst) > 0 {
            // The queue has room again: tasks waiting for room are placed.
            self.progress(view);
        }
        self.popped(t)
    }

    /// Without the runtime's view (draining a context): the worker's queue, then the
    /// waiting tasks as they are.
    fn pop(&self, worker: usize, can_run: &dyn Fn(&Task) -> bool) -> Option<TaskRef> {
        if self.ntasks.load(Ordering::SeqCst) == 0 {
            return None;
        }
        let t = self.take_own(worker, can_run).or_else(|| {
            [&self.placing, &self.eager].into_iter().find_map(|w| {
                let mut win = lock(w);
                let i = win.0.iter().position(|t| can_run(t))?;
                let t = win.0.remove(i);
                self.waiting.fetch_sub(1, Ordering::SeqCst);
                t
            })
        });
        self.popped(t)
    }

    fn task_done(&self, worker: usize, _task: &Task, _measured: Option<f64>) {
        if let Some(wq) = self.queues.get(worker) {
            wq.lock().done(self.now());
        }
    }

    fn has_work(&self, worker: usize) -> bool {
        self.queues.get(worker).is_some_and(|q| q.len() > 0)
            || self.waiting.load(Ordering::SeqCst) > 0
    }

    fn ntasks(&self) -> usize {
        self.ntasks.load(Ordering::SeqCst)
    }

    fn priority_range(&self) -> (i32, i32) {
        (i32::MIN, i32::MAX)
    }
}
