//! Tasks: one submission of a codelet on some data, and its life cycle
//! (created -> submitted -> waiting for its dependencies -> ready -> running -> completed
//! -> done).
//!
//! A `Task` exists before it is submitted so that other tasks can declare dependencies on it
//! (`starpu_task_declare_deps` may name tasks not yet submitted). Its description, a
//! `TaskSpec`, is handed over once, at submission, and never changes afterwards, so workers
//! read it without locks. Build both with [`TaskBuilder`] (`Runtime::task`).

pub(crate) mod acquire;
pub mod args;
pub mod bell;
mod builder;
pub mod codelet;
mod completion;
mod exec;
mod graph;
pub(crate) mod graveyard;
mod hooks;
pub mod kernel;
pub mod multiformat;
pub(crate) mod partition;
pub(crate) mod reduction;
pub(crate) mod registry;
mod slot;
mod spec_cell;
pub mod tags;
pub mod times;
pub(crate) mod transaction;

pub use builder::TaskBuilder;
pub use codelet::{
    where_mask, CanExecute, Codelet, CodeletType, CpuKernel, CudaKernel, KernelError, KernelResult,
    OpenClKernel, CUDA_ASYNC, OPENCL_ASYNC,
};
pub use completion::CompletionQueue;
pub(crate) use exec::{complete, execute, finish_without_running, guarded, guarded_current};
pub use exec::{current_task, end_dep_release};
#[cfg(feature = "cuda")]
pub(crate) use exec::{end_queued, Queued};
pub(crate) use graph::Successors;
pub use hooks::Hooks;
pub use kernel::KernelCall;
pub use slot::TaskSlot;
pub use times::TaskTimes;
pub use transaction::{StartFn, Transaction};

use crate::data::{AccessMode, AcquireNode, DataHandle};
use crate::error::Error;
use args::TaskArgs;
use smallvec::SmallVec;
use std::any::Any;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicU8, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

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

/// What a face wants to hear about its tasks, owned by the task (C uses it to run
/// `callback_func`, free the `struct starpu_task`, and so on). Every method is called as
/// application code: a panic in it fails the task, never the worker.
pub trait TaskHooks: Send + Sync {
    /// The task's dependencies are met and it goes to the scheduler (`prologue_callback_func`).
    fn ready(&self, _task: &Task) {}
    /// A worker took the task and is about to run it (`prologue_callback_pop_func`).
    fn popped(&self, _task: &Task, _worker: usize) {}
    /// The kernel ran (or the task needed none); successors are not released yet
    /// (`callback_func`).
    fn completed(&self, _task: &Task) {}
    /// Everything is over: successors released, waiters about to be woken. Last call for
    /// this submission.
    fn terminated(&self, _task: &Task) {}
    /// Asked once the task has ended: whether `regenerate` should be called.
    fn will_regenerate(&self, _task: &Task) -> bool {
        false
    }
    /// When `will_regenerate` said so: the next submission of the same task (a task from
    /// its `TaskSlot`) and its description, to submit at once (StarPU's `regenerate`), or
    /// `None`.
    fn regenerate(&self, _task: &Task) -> Option<Result<(TaskRef, TaskSpec), Error>> {
        None
    }
    /// A name for messages and traces, when the spec has none.
    fn name(&self, _task: &Task) -> Option<String> {
        None
    }
    /// Lends the task's name and colour (`0xRRGGBB`, 0 for none) to `f`, for traces,
    /// which record them for every task: a face that holds them can lend them without
    /// copying. The default asks [`TaskHooks::name`].
    fn with_trace_label(&self, task: &Task, f: &mut dyn FnMut(Option<&str>, u32)) {
        f(self.name(task).as_deref(), 0)
    }
    /// The hooks object itself as the task's payload, for a face whose hooks object is
    /// also its per-task state (it then needs no separate `payload`).
    fn payload(&self) -> Option<&(dyn Any + Send + Sync)> {
        None
    }
    /// The runtime dropped its last reference to this submission (after `terminated`,
    /// once no dependency bookkeeping refers to it either): a face that keeps its own
    /// object alive for the runtime's sake may release it now.
    fn dropped(&self, _task: &Task) {}
}

/// What the task is for. Faces submit `Normal` tasks; the runtime makes the others.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum TaskKind {
    /// Runs its codelet (or nothing, for a codelet-less task) on a worker.
    #[default]
    Normal,
    /// Stands for an application's acquisition of data: once its dependencies are met it
    /// hands the data over (on that node) and stays "running" until released.
    Acquire(AcquireNode),
}

/// The description of a task, fixed at submission.
#[derive(Default)]
pub struct TaskSpec {
    pub codelet: Option<Arc<Codelet>>,
    pub accesses: SmallVec<[Access; 4]>,
    /// Arguments for the kernel: owned values, or StarPU's packed bytes (boxed: most
    /// tasks of the C face carry theirs in the C struct instead).
    pub args: Option<Box<TaskArgs>>,
    pub priority: i32,
    /// Overrides the codelet's `where` when set.
    pub where_mask: Option<u32>,
    /// `execute_on_a_specific_worker`.
    pub worker: Option<usize>,
    /// `use_tag` / `tag_id`: the tag this task notifies when it ends.
    pub tag: Option<u64>,
    /// Submission returns only once the task has ended.
    pub synchronous: bool,
    /// Nobody will `wait` for this task (StarPU's default): waiting for it is an error.
    pub detached: bool,
    pub flops: f64,
    pub name: Option<Arc<str>>,
    /// The scheduling context the task is submitted to (`None`: the global one).
    pub sched_ctx: Option<u32>,
    pub kind: TaskKind,
    /// The face's view of the task's life cycle.
    pub hooks: Option<Hooks>,
    /// Face-owned state that lives as long as the task (a C task pointer, a Python
    /// callable and its arguments...); kernels reach it through [`KernelCall::payload`].
    pub payload: Option<Arc<dyn Any + Send + Sync>>,
}

impl TaskSpec {
    /// The face's payload (`payload`, else the hooks object's) if it is a `T`.
    pub fn payload_as<T: Any>(&self) -> Option<&T> {
        match &self.payload {
            Some(p) => p.downcast_ref::<T>(),
            None => self.hooks.as_ref()?.payload()?.downcast_ref::<T>(),
        }
    }
}

/// Task states, in order.
pub mod state {
    pub const CREATED: u8 = 0;
    pub const SUBMITTED: u8 = 1;
    pub const READY: u8 = 2;
    pub const RUNNING: u8 = 3;
    /// The kernel ran; callbacks run and successors are about to be released. The task
    /// may be submitted again from its callback from here on.
    pub const COMPLETED: u8 = 4;
    pub const DONE: u8 = 5;
}

/// A closure run once with the task, when it completes or ends.
pub type TaskClosure = Box<dyn FnOnce(&Task) + Send>;

/// Application closures attached to a task, each run at most once.
#[derive(Default)]
struct Closures {
    prologue: Option<Box<dyn FnOnce() + Send>>,
    callback: Option<TaskClosure>,
    on_end: Vec<TaskClosure>,
}

pub struct Task {
    id: u64,
    spec: spec_cell::SpecCell,
    /// Unmet dependencies, plus one held while the submission is in progress.
    pub(crate) pending: AtomicU32,
    pub(crate) successors: Mutex<Successors>,
    state: AtomicU8,
    /// The task's end waits for this many `end_dep_release` calls, plus its own completion.
    pub(crate) end_pending: AtomicU32,
    /// Set once everything about the task is over; `wait` watches it.
    terminated: AtomicBool,
    /// Set once the completion closures (`on_terminated`) have run too: what `wait`
    /// watches, so that a failure they cause is known when it returns.
    settled: AtomicBool,
    /// Set with `failure`, so the completion path checks a flag instead of a lock.
    failed: AtomicBool,
    /// Which closures were ever set (`has::*`): the common task has none, and its path
    /// through the runtime then takes no lock for them.
    has: AtomicU8,
    /// The implementation the scheduling policy chose, then the one that ran (`NO_IMPL`:
    /// none yet, the worker picks).
    sched_impl: AtomicU8,
    /// What most tasks never need (a failure, closures), allocated on first use so that
    /// the common task stays small.
    extra: OnceLock<Box<Extra>>,
    /// A stand-in used to ask `can_execute` before submission: never submitted, and its
    /// face does not hear of its drop.
    probe: bool,
}

#[derive(Default)]
struct Extra {
    failure: Mutex<Option<Error>>,
    closures: Mutex<Closures>,
    /// Filled while profiling is on.
    times: crate::profiling::TaskTimes,
    /// The transaction epoch the task belongs to (`transaction.rs`).
    epoch: OnceLock<Arc<transaction::Epoch>>,
}

mod has {
    pub const PROLOGUE: u8 = 1;
    pub const CALLBACK: u8 = 2;
    pub const ON_END: u8 = 4;
    pub const EPOCH: u8 = 8;
}

static NEXT_TASK_ID: AtomicU64 = AtomicU64::new(1);

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Task {
    pub fn new() -> TaskRef {
        Task::make(false)
    }

    /// A stand-in for a task about to be submitted, to ask questions about it.
    pub(crate) fn probe() -> TaskRef {
        Task::make(true)
    }

    fn make(probe: bool) -> TaskRef {
        let mut task = Arc::<Task>::new_uninit();
        let p = Arc::get_mut(&mut task)
            .expect("a new Arc is unshared")
            .as_mut_ptr();
        // Written field by field, in place: a `Task` built on the stack and moved into
        // the `Arc` copies the description's few hundred (still empty) bytes each time.
        // SAFETY: `p` points to the new, unshared allocation; every field is written once
        // (`every_field_is_written` fails to compile when a field is added), and the
        // description stays uninitialised behind its EMPTY state.
        unsafe {
            std::ptr::addr_of_mut!((*p).id).write(NEXT_TASK_ID.fetch_add(1, Ordering::Relaxed));
            spec_cell::SpecCell::init_empty(std::ptr::addr_of_mut!((*p).spec));
            std::ptr::addr_of_mut!((*p).pending).write(AtomicU32::new(1));
            std::ptr::addr_of_mut!((*p).successors).write(Mutex::new(Successors::default()));
            std::ptr::addr_of_mut!((*p).state).write(AtomicU8::new(state::CREATED));
            std::ptr::addr_of_mut!((*p).end_pending).write(AtomicU32::new(1));
            std::ptr::addr_of_mut!((*p).terminated).write(AtomicBool::new(false));
            std::ptr::addr_of_mut!((*p).settled).write(AtomicBool::new(false));
            std::ptr::addr_of_mut!((*p).failed).write(AtomicBool::new(false));
            std::ptr::addr_of_mut!((*p).has).write(AtomicU8::new(0));
            std::ptr::addr_of_mut!((*p).sched_impl).write(AtomicU8::new(NO_IMPL));
            std::ptr::addr_of_mut!((*p).extra).write(OnceLock::new());
            std::ptr::addr_of_mut!((*p).probe).write(probe);
            task.assume_init()
        }
    }

    /// Names every field of `Task` with no `..`: adding a field breaks the build here,
    /// as a reminder that `make` must write it.
    #[allow(dead_code)]
    fn every_field_is_written(t: Task) {
        let Task {
            id: _,
            spec: _,
            pending: _,
            successors: _,
            state: _,
            end_pending: _,
            terminated: _,
            settled: _,
            failed: _,
            has: _,
            sched_impl: _,
            extra: _,
            probe: _,
        } = t;
    }

    /// Whether some task was given `id` (ids are handed out in increasing order).
    pub(crate) fn id_was_issued(id: u64) -> bool {
        id != 0 && id < NEXT_TASK_ID.load(Ordering::Relaxed)
    }

    /// A number identifying this task (`starpu_task_get_job_id`).
    pub fn id(&self) -> u64 {
        self.id
    }

    /// The description given at submission; `None` before.
    pub fn spec(&self) -> Option<&TaskSpec> {
        self.spec.get()
    }

    /// Sets the description; false if the task already had one.
    #[inline]
    pub(crate) fn install_spec(&self, spec: TaskSpec) -> bool {
        self.spec.set(spec)
    }

    fn extra(&self) -> &Extra {
        self.extra.get_or_init(Box::default)
    }

    /// The task's profiling record (allocates the task's extras).
    pub(crate) fn times(&self) -> &crate::profiling::TaskTimes {
        &self.extra().times
    }

    /// When the task was submitted, started and ended, and on which worker, as far as
    /// profiling recorded it (`task->profiling_info`); `None` if it recorded nothing.
    pub fn profiling_times(&self) -> Option<crate::profiling::TaskTimesSnapshot> {
        let s = self.extra.get()?.times.snapshot();
        (s.submit_ns != 0 || s.start_ns != 0).then_some(s)
    }

    fn closures(&self) -> MutexGuard<'_, Closures> {
        lock(&self.extra().closures)
    }

    /// The face's payload, if it is a `T`.
    pub fn payload<T: Any>(&self) -> Option<&T> {
        self.spec()?.payload_as::<T>()
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

    /// Whether the kernel has run (the task may be submitted again from its callback).
    pub fn is_completed(&self) -> bool {
        self.state() >= state::COMPLETED
    }

    /// Whether the task has ended, callbacks and successors included.
    pub fn is_terminated(&self) -> bool {
        self.terminated.load(Ordering::SeqCst)
    }

    /// Whether the task has ended and its completion closures have run.
    pub(crate) fn is_settled(&self) -> bool {
        self.settled.load(Ordering::SeqCst)
    }

    pub(crate) fn mark_settled(&self) {
        self.settled.store(true, Ordering::SeqCst);
    }

    /// The error that ended the task, if its kernel (or a callback) failed.
    pub fn failure(&self) -> Option<Error> {
        if !self.has_failed() {
            return None;
        }
        lock(&self.extra().failure).clone()
    }

    /// Whether the task failed (without fetching the error).
    /// Makes the task one of `epoch`'s.
    fn join_epoch(&self, epoch: Arc<transaction::Epoch>) {
        let _ = self.extra().epoch.set(epoch);
        self.has.fetch_or(has::EPOCH, Ordering::Release);
    }

    /// Whether the task belongs to a cancelled transaction epoch: its kernel is skipped.
    pub(crate) fn in_cancelled_epoch(&self) -> bool {
        self.has(has::EPOCH) && self.extra().epoch.get().is_some_and(|e| e.cancelled())
    }

    pub fn has_failed(&self) -> bool {
        self.failed.load(Ordering::Acquire)
    }

    /// Records `e` as the task's failure (the first one is kept). True if it is the first.
    pub(crate) fn set_failure(&self, e: Error) -> bool {
        let mut f = lock(&self.extra().failure);
        if f.is_some() {
            return false;
        }
        *f = Some(e);
        self.failed.store(true, Ordering::Release);
        true
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
        if self.reaches(pred) {
            return Err(Error::deadlock(format!(
                "task {} cannot wait for task {}: that task waits for it already (a cycle \
                 of dependencies would wait forever)",
                self.label(),
                pred.label()
            )));
        }
        crate::trace::dependency(pred, self);
        pred.add_successor(self);
        Ok(())
    }

    /// Delays the task's end until `n` more calls to `end_dep_release`.
    pub fn end_dep_add(&self, n: u32) {
        self.end_pending.fetch_add(n, Ordering::AcqRel);
    }

    /// Runs `f` when the task completes, before its successors are released (StarPU's
    /// `callback_func`). For an acquisition: when access is granted. Replaces an earlier one.
    pub fn set_callback(&self, f: impl FnOnce(&Task) + Send + 'static) {
        self.closures().callback = Some(Box::new(f));
        self.has.fetch_or(has::CALLBACK, Ordering::Release);
    }

    fn has(&self, what: u8) -> bool {
        self.has.load(Ordering::Acquire) & what != 0
    }

    /// Whether a callback closure was set (traces mark the end of callbacks).
    pub(crate) fn has_callback(&self) -> bool {
        self.has(has::CALLBACK)
    }

    pub(crate) fn take_callback(&self) -> Option<TaskClosure> {
        if !self.has(has::CALLBACK) {
            return None;
        }
        self.closures().callback.take()
    }

    /// Runs `f` when the task's dependencies are met, before it is queued
    /// (`prologue_callback_func`).
    pub fn set_prologue(&self, f: impl FnOnce() + Send + 'static) {
        self.closures().prologue = Some(Box::new(f));
        self.has.fetch_or(has::PROLOGUE, Ordering::Release);
    }

    pub(crate) fn take_prologue(&self) -> Option<Box<dyn FnOnce() + Send>> {
        if !self.has(has::PROLOGUE) {
            return None;
        }
        self.closures().prologue.take()
    }

    /// Runs `f` once the task has ended (successors released), or now, on this thread, if
    /// it has ended already. Several may be registered; they run in that order. This is how
    /// a face completes a future without a polling thread.
    pub fn on_terminated(&self, f: impl FnOnce(&Task) + Send + 'static) {
        let mut c = self.closures();
        // The bit first, then the check (see `finish`).
        self.has.fetch_or(has::ON_END, Ordering::SeqCst);
        if !self.is_terminated() {
            c.on_end.push(Box::new(f));
            return;
        }
        drop(c);
        f(self);
    }

    /// Marks the task ended and returns what must run now that it is.
    pub(crate) fn finish(&self) -> Vec<TaskClosure> {
        self.terminated.store(true, Ordering::SeqCst);
        // Pairs with on_terminated, which sets the bit before checking `terminated`: either
        // it sees the task ended (and runs its closure itself) or this sees the bit.
        if self.has.load(Ordering::SeqCst) & has::ON_END == 0 {
            return Vec::new();
        }
        std::mem::take(&mut self.closures().on_end)
    }

    /// The task's name: the one given at submission, the face's, or its codelet's.
    pub fn name(&self) -> Option<String> {
        let spec = self.spec()?;
        if let Some(n) = &spec.name {
            return Some(n.to_string());
        }
        if let Some(n) = spec.hooks.as_ref().and_then(|h| h.name(self)) {
            return Some(n);
        }
        spec.codelet.as_ref().and_then(|c| c.name.clone())
    }

    /// The name, or `(unnamed)`, for messages.
    pub fn label(&self) -> String {
        self.name().unwrap_or_else(|| "(unnamed)".into())
    }

    pub fn priority(&self) -> i32 {
        self.spec().map_or(0, |s| s.priority)
    }

    /// Records the implementation a policy chose for this task
    /// (`starpu_task_set_implementation`); the worker runs it if it may.
    pub fn set_sched_impl(&self, nimpl: usize) {
        let v = u8::try_from(nimpl).unwrap_or(NO_IMPL);
        self.sched_impl.store(v, Ordering::Relaxed);
    }

    /// The implementation chosen for this task's current submission, if any: the one a
    /// policy chose, then the one that ran (kept after the task ended).
    pub(crate) fn sched_impl(&self) -> Option<usize> {
        let v = self.sched_impl.load(Ordering::Relaxed);
        (v != NO_IMPL).then_some(v as usize)
    }

    /// `starpu_task_get_implementation`: the implementation chosen for the task (0, the
    /// first, before any was).
    pub fn implementation(&self) -> usize {
        self.sched_impl().unwrap_or(0)
    }

    /// Forgets the previous submission's choice.
    pub(crate) fn clear_sched_impl(&self) {
        self.sched_impl.store(NO_IMPL, Ordering::Relaxed);
    }
}

/// `Task::sched_impl` when no policy chose.
const NO_IMPL: u8 = u8::MAX;

impl Drop for Task {
    fn drop(&mut self) {
        if self.probe {
            return;
        }
        if let Some(h) = self.spec().and_then(|s| s.hooks.as_ref()) {
            // Drops run on any thread, in the middle of the runtime's work: a panicking
            // face must not unwind through them.
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| h.dropped(self)));
            if let Err(p) = r {
                eprintln!(
                    "[starpu] warning: task {}: the face's drop hook panicked: {}",
                    self.id,
                    crate::worker::panic_message(&*p)
                );
            }
        }
    }
}

impl std::fmt::Debug for Task {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Task#{}({})", self.id, self.name().unwrap_or_default())
    }
}
