//! Tasks: one submission of a codelet on some data, and its life cycle
//! (created -> submitted -> waiting for its dependencies -> ready -> running -> done).
//!
//! A `Task` exists before it is submitted so that other tasks can declare dependencies on it
//! (`starpu_task_declare_deps` may name tasks not yet submitted). Its description, a
//! `TaskSpec`, is handed over once, at submission, and never changes afterwards, so workers
//! read it without locks.

pub mod args;
pub mod bell;
pub mod codelet;
mod exec;
mod graph;
pub mod tags;

pub use codelet::{
    where_mask, CanExecute, Codelet, CodeletType, CpuKernel, KernelCall, KernelError, KernelResult,
};
pub(crate) use exec::{complete, execute, finish_without_running};
pub use exec::{current_task, end_dep_release};
pub(crate) use graph::Successors;

use crate::data::{AccessMode, DataHandle};
use crate::error::Error;
use smallvec::SmallVec;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicU8, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

pub type TaskRef = Arc<Task>;

/// Tasks that just became ready; usually none or one, so kept inline.
pub type ReadyList = SmallVec<[TaskRef; 4]>;

/// One data access of a task.
#[derive(Clone)]
pub struct Access {
    pub handle: DataHandle,
    pub mode: AccessMode,
    /// Whether this access takes part in implicit dependencies (sequential consistency);
    /// `false` when the handle, the task or this buffer opted out.
    pub sequential: bool,
}

/// What a binding wants to hear about its tasks. C uses it to run `callback_func`, free the
/// `struct starpu_task`, and so on; the core keeps no language-specific state.
pub trait TaskHooks: Send + Sync {
    /// The task's dependencies are met and it goes to the scheduler (`prologue_callback_func`).
    fn ready(&self, _task: &Task) {}
    /// A worker took the task and is about to run it (`prologue_callback_pop_func`).
    fn popped(&self, _task: &Task, _worker: usize) {}
    /// The kernel ran (or the task needed none); successors are not released yet
    /// (`callback_func`).
    fn completed(&self, _task: &Task) {}
    /// Everything is over: successors released, waiters woken. Last call for this task.
    fn terminated(&self, _task: &Task) {}
    /// A name for messages and traces.
    fn name(&self, _task: &Task) -> Option<String> {
        None
    }
}

/// What the task is for.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum TaskKind {
    /// Runs its codelet (or nothing, for a codelet-less task) on a worker.
    #[default]
    Normal,
    /// Stands for an application's `starpu_data_acquire`: once its dependencies are met it
    /// signals the acquirer and stays "running" until released.
    Acquire,
}

/// The description of a task, fixed at submission.
#[derive(Default)]
pub struct TaskSpec {
    pub codelet: Option<Arc<Codelet>>,
    pub accesses: SmallVec<[Access; 4]>,
    pub priority: i32,
    /// Overrides the codelet's `where` when set.
    pub where_mask: Option<u32>,
    /// `execute_on_a_specific_worker`.
    pub worker: Option<usize>,
    /// `use_tag` / `tag_id`: the tag this task notifies when it ends.
    pub tag: Option<u64>,
    /// Submission returns only once the task has ended.
    pub synchronous: bool,
    /// Nobody will `wait` for this task: its end needs no bookkeeping for waiters.
    pub detached: bool,
    pub flops: f64,
    pub kind: TaskKind,
    pub hooks: Option<&'static dyn TaskHooks>,
    /// A word the binding interprets (C: the `struct starpu_task *`).
    pub user: usize,
}

/// Task states, in order.
pub mod state {
    pub const CREATED: u8 = 0;
    pub const SUBMITTED: u8 = 1;
    pub const READY: u8 = 2;
    pub const RUNNING: u8 = 3;
    pub const DONE: u8 = 4;
}

pub struct Task {
    id: u64,
    spec: OnceLock<TaskSpec>,
    /// Unmet dependencies, plus one held while the submission is in progress.
    pub(crate) pending: AtomicU32,
    pub(crate) successors: Mutex<Successors>,
    state: AtomicU8,
    /// The task's end waits for this many `end_dep_release` calls, plus its own completion.
    pub(crate) end_pending: AtomicU32,
    /// Set once everything about the task is over; `wait` watches it.
    terminated: AtomicBool,
    /// Set with `failure`, so the completion path checks a flag instead of a lock.
    failed: AtomicBool,
    failure: Mutex<Option<Error>>,
    /// A closure run when the task completes (for an acquisition: when it is granted),
    /// for bindings and core features that want a Rust callback.
    pub(crate) callback: Mutex<Option<Box<dyn FnOnce() + Send>>>,
}

static NEXT_TASK_ID: AtomicU64 = AtomicU64::new(1);

impl Task {
    pub fn new() -> TaskRef {
        Arc::new(Task {
            id: NEXT_TASK_ID.fetch_add(1, Ordering::Relaxed),
            spec: OnceLock::new(),
            pending: AtomicU32::new(1),
            successors: Mutex::new(Successors::default()),
            state: AtomicU8::new(state::CREATED),
            end_pending: AtomicU32::new(1),
            terminated: AtomicBool::new(false),
            failed: AtomicBool::new(false),
            failure: Mutex::new(None),
            callback: Mutex::new(None),
        })
    }

    pub fn id(&self) -> u64 {
        self.id
    }

    /// The description given at submission; `None` before.
    pub fn spec(&self) -> Option<&TaskSpec> {
        self.spec.get()
    }

    /// Sets the description; false if the task already had one.
    pub(crate) fn install_spec(&self, spec: TaskSpec) -> bool {
        self.spec.set(spec).is_ok()
    }

    /// The word the binding attached at submission (0 before).
    pub fn user(&self) -> usize {
        self.spec().map_or(0, |s| s.user)
    }

    pub fn state(&self) -> u8 {
        self.state.load(Ordering::Acquire)
    }

    pub(crate) fn set_state(&self, s: u8) {
        self.state.store(s, Ordering::Release);
    }

    /// Moves CREATED -> SUBMITTED; fails if the task was submitted already.
    pub(crate) fn mark_submitted(&self) -> bool {
        self.state
            .compare_exchange(
                state::CREATED,
                state::SUBMITTED,
                Ordering::AcqRel,
                Ordering::Acquire,
            )
            .is_ok()
    }

    pub fn is_submitted(&self) -> bool {
        self.state() >= state::SUBMITTED
    }

    /// Whether the task has ended, callbacks and successors included.
    pub fn is_terminated(&self) -> bool {
        self.terminated.load(Ordering::SeqCst)
    }

    pub(crate) fn set_terminated(&self) {
        self.terminated.store(true, Ordering::SeqCst);
    }

    /// The error that ended the task, if its kernel failed.
    pub fn failure(&self) -> Option<Error> {
        if !self.has_failed() {
            return None;
        }
        self.failure
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Whether the task failed (without fetching the error).
    pub fn has_failed(&self) -> bool {
        self.failed.load(Ordering::Acquire)
    }

    pub(crate) fn set_failure(&self, e: Error) {
        *self.failure.lock().unwrap_or_else(|e| e.into_inner()) = Some(e);
        self.failed.store(true, Ordering::Release);
    }

    /// Makes this task wait for `pred` (`starpu_task_declare_deps`). Only before this task
    /// is submitted; `pred` may be submitted or not.
    pub fn add_dependency(self: &Arc<Self>, pred: &TaskRef) -> Result<(), Error> {
        if self.is_submitted() {
            return Err(Error::invalid(
                "dependencies must be declared before the task is submitted",
            ));
        }
        if Arc::ptr_eq(self, pred) {
            return Err(Error::invalid("a task cannot depend on itself"));
        }
        pred.add_successor(self);
        Ok(())
    }

    /// Delays the task's end until `n` more calls to `end_dep_release`.
    pub fn end_dep_add(&self, n: u32) {
        self.end_pending.fetch_add(n, Ordering::AcqRel);
    }

    /// Runs `f` when the task completes, before its successors are released (like
    /// `callback_func`). For an acquisition: when access is granted.
    pub fn set_callback(&self, f: Box<dyn FnOnce() + Send>) {
        *self.callback.lock().unwrap_or_else(|e| e.into_inner()) = Some(f);
    }

    pub(crate) fn take_callback(&self) -> Option<Box<dyn FnOnce() + Send>> {
        self.callback
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
    }

    pub fn name(&self) -> Option<String> {
        let spec = self.spec()?;
        if let Some(n) = spec.hooks.and_then(|h| h.name(self)) {
            return Some(n);
        }
        spec.codelet.as_ref().and_then(|c| c.name.clone())
    }

    pub fn priority(&self) -> i32 {
        self.spec().map_or(0, |s| s.priority)
    }
}

impl std::fmt::Debug for Task {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Task#{}({})", self.id, self.name().unwrap_or_default())
    }
}
