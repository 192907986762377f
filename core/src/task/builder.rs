//! Building and submitting a task: the Rust form of `starpu_task_insert`, with the meaning
//! of each of its keys.
//!
//! ```
//! use starpu_core::{AccessMode, Codelet, Config, Runtime};
//! use std::sync::{Arc, atomic::{AtomicBool, Ordering}};
//! let rt = Runtime::start(Config { ncpus: Some(2), silent: true, ..Config::default() })?;
//! let v = rt.register_vector(vec![1.0f64, 2.0, 3.0])?;
//! let scal = Arc::new(Codelet::new("scal").modes([AccessMode::RW]).cpu(|call| {
//!     let k = *call.arg::<f64>(0)?;
//!     call.vector_mut::<f64>(0)?.iter_mut().for_each(|x| *x *= k);
//!     Ok(())
//! }));
//! let called = Arc::new(AtomicBool::new(false));
//! let c = called.clone();
//! let t = rt
//!     .task(&scal)
//!     .buffer(&v, AccessMode::RW)
//!     .arg(10.0f64)
//!     .priority(1)
//!     .name("scale by 10")
//!     .callback(move |_| c.store(true, Ordering::SeqCst))
//!     .detach(false)
//!     .submit()?;
//! rt.wait(&t)?;
//! assert!(called.load(Ordering::SeqCst));
//! assert_eq!(rt.unregister_take::<Vec<f64>>(&v)?, vec![10.0, 20.0, 30.0]);
//! rt.shutdown();
//! # Ok::<(), starpu_core::Error>(())
//! ```

use super::args::TaskArgs;
use super::{Access, Codelet, Task, TaskHooks, TaskKind, TaskRef, TaskSpec};
use crate::data::{AccessMode, DataHandle};
use crate::error::{Error, Result};
use crate::runtime::Runtime;
use std::any::Any;
use std::sync::Arc;

/// A task being described; `submit` hands it to the runtime. Errors found while building
/// (a buffer the codelet does not declare, a mode that differs from the declared one) are
/// kept and returned by `submit`, which then submits nothing.
#[must_use = "a task is only submitted by `submit`"]
pub struct TaskBuilder<'rt> {
    rt: &'rt Runtime,
    task: TaskRef,
    spec: TaskSpec,
    sequential: bool,
    transaction: Option<super::Transaction>,
    error: Option<Error>,
}

impl<'rt> TaskBuilder<'rt> {
    pub(crate) fn new(
        rt: &'rt Runtime,
        codelet: Option<Arc<Codelet>>,
        task: TaskRef,
    ) -> TaskBuilder<'rt> {
        TaskBuilder {
            rt,
            task,
            spec: TaskSpec {
                codelet,
                detached: true,
                ..Default::default()
            },
            sequential: true,
            transaction: None,
            error: None,
        }
    }

    fn keep(&mut self, r: Result<()>) {
        if let (Err(e), None) = (r, &self.error) {
            self.error = Some(e);
        }
    }

    /// Makes the task one of `trs`'s current epoch (`STARPU_TRANSACTION`): it runs after
    /// the epoch began, and only if its start function confirmed it.
    pub fn transaction(mut self, trs: &super::Transaction) -> Self {
        self.transaction = Some(trs.clone());
        self
    }

    /// The task being built (other tasks may depend on it before it is submitted).
    pub fn task(&self) -> &TaskRef {
        &self.task
    }

    /// Adds a buffer: `handle` in `mode` (`STARPU_R`, `STARPU_RW`... in `task_insert`).
    /// `AccessMode::NONE` takes the codelet's declared mode. The mode must be the one the
    /// codelet declares for this buffer, if it declares one (checked at submission).
    pub fn buffer(mut self, handle: &DataHandle, mode: AccessMode) -> Self {
        let i = self.spec.accesses.len();
        if self.spec.codelet.is_none() {
            self.keep(Err(Error::invalid(format!(
                "buffer {i} given to a task without codelet"
            ))));
            return self;
        }
        self.spec.accesses.push(Access {
            handle: handle.clone(),
            mode,
            sequential: true,
        });
        self
    }

    /// Adds several buffers with the codelet's declared modes (`STARPU_DATA_ARRAY`).
    pub fn buffers<'h>(mut self, handles: impl IntoIterator<Item = &'h DataHandle>) -> Self {
        for h in handles {
            self = self.buffer(h, AccessMode::NONE);
        }
        self
    }

    /// Opts the last buffer added out of implicit dependencies
    /// (`STARPU_HANDLES_SEQUENTIAL_CONSISTENCY`).
    pub fn without_implicit_deps_on_last(mut self) -> Self {
        if let Some(a) = self.spec.accesses.last_mut() {
            a.sequential = false;
        }
        self
    }

    /// Whether this task takes part in implicit data dependencies at all
    /// (`STARPU_SEQUENTIAL_CONSISTENCY`, default true).
    pub fn sequential_consistency(mut self, on: bool) -> Self {
        self.sequential = on;
        self
    }

    /// Adds an owned argument, read by the kernel with `KernelCall::arg::<T>(i)`.
    pub fn arg<T: Any + Send + Sync>(mut self, value: T) -> Self {
        self.spec
            .args
            .get_or_insert_with(Box::default)
            .values
            .push(Box::new(value));
        self
    }

    /// Sets the packed arguments (`STARPU_CL_ARGS`, or the bytes `STARPU_VALUE` packs).
    pub fn packed_args(mut self, bytes: impl Into<Box<[u8]>>) -> Self {
        self.spec.args.get_or_insert_with(Box::default).packed = Some(bytes.into());
        self
    }

    /// Sets all arguments at once.
    pub fn args(mut self, args: TaskArgs) -> Self {
        self.spec.args = Some(Box::new(args));
        self
    }

    /// `STARPU_PRIORITY`: higher runs first with policies that honour priorities.
    pub fn priority(mut self, p: i32) -> Self {
        self.spec.priority = p;
        self
    }

    /// `STARPU_NAME`.
    pub fn name(mut self, name: impl Into<Arc<str>>) -> Self {
        self.spec.name = Some(name.into());
        self
    }

    /// `STARPU_TAG`: the task notifies tag `id` when it ends; tasks and tags depending on
    /// the tag wait for it.
    pub fn tag(mut self, id: u64) -> Self {
        self.spec.tag = Some(id);
        self
    }

    /// `STARPU_CALLBACK`: runs when the kernel is done, before dependent tasks are released.
    pub fn callback(self, f: impl FnOnce(&Task) + Send + 'static) -> Self {
        self.task.set_callback(f);
        self
    }

    /// `STARPU_PROLOGUE_CALLBACK`: runs when the task's dependencies are met.
    pub fn prologue(self, f: impl FnOnce() + Send + 'static) -> Self {
        self.task.set_prologue(f);
        self
    }

    /// Runs `f` once the task has ended (successors released). A way for a face to
    /// complete a future without a thread waiting.
    pub fn on_terminated(self, f: impl FnOnce(&Task) + Send + 'static) -> Self {
        self.task.on_terminated(f);
        self
    }

    /// `STARPU_TASK_SYNCHRONOUS`: `submit` returns once the task has ended.
    pub fn synchronous(mut self, on: bool) -> Self {
        self.spec.synchronous = on;
        self
    }

    /// Whether nobody will wait for the task (default true, as in StarPU). Only a task
    /// submitted with `detach(false)` may be waited for with `Runtime::wait`.
    pub fn detach(mut self, on: bool) -> Self {
        self.spec.detached = on;
        self
    }

    /// `STARPU_TASK_DEPS_ARRAY`: the task starts only after `pred` has ended.
    pub fn after(mut self, pred: &TaskRef) -> Self {
        let r = self.task.add_dependency(pred);
        self.keep(r);
        self
    }

    /// `STARPU_TASK_END_DEPS_ARRAY`: the task does not end before `pred` has ended.
    pub fn end_after(self, pred: &TaskRef) -> Self {
        self.task.add_end_dependency(pred);
        self
    }

    /// `STARPU_TASK_END_DEP`: the task ends only after `n` calls of `end_dep_release`.
    pub fn end_deps(self, n: u32) -> Self {
        self.task.end_dep_add(n);
        self
    }

    /// `STARPU_EXECUTE_ON_WORKER`: run on that worker only.
    pub fn worker(mut self, worker: usize) -> Self {
        self.spec.worker = Some(worker);
        self
    }

    /// `STARPU_EXECUTE_WHERE`: overrides the codelet's `where`.
    pub fn where_mask(mut self, mask: u32) -> Self {
        self.spec.where_mask = Some(mask);
        self
    }

    /// `STARPU_FLOPS`: the work the task does, for statistics and performance models.
    pub fn flops(mut self, flops: f64) -> Self {
        self.spec.flops = flops;
        self
    }

    /// `STARPU_SCHED_CTX`: the scheduling context to submit to.
    pub fn sched_ctx(mut self, ctx: u32) -> Self {
        self.spec.sched_ctx = Some(ctx);
        self
    }

    /// The face's view of the task's life cycle.
    pub fn hooks(mut self, hooks: Arc<dyn TaskHooks>) -> Self {
        self.spec.hooks = Some(super::Hooks::shared(hooks));
        self
    }

    /// Face-owned state kernels reach with `KernelCall::payload`.
    pub fn payload(mut self, payload: Arc<dyn Any + Send + Sync>) -> Self {
        self.spec.payload = Some(payload);
        self
    }

    /// The description as built so far, and the task it is for, without submitting;
    /// `Runtime::submit(task, spec)` submits it.
    pub fn build(mut self) -> Result<(TaskRef, TaskSpec)> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        // Its buffer comes last, as in StarPU.
        if let Some(trs) = self.transaction.take() {
            trs.enlist(&self.task, &mut self.spec)?;
        }
        for a in self.spec.accesses.iter_mut() {
            a.sequential &= self.sequential && a.handle.sequential_consistency();
        }
        self.spec.kind = TaskKind::Normal;
        Ok((self.task, self.spec))
    }

    /// Submits the task. On error nothing is submitted and nothing changed.
    pub fn submit(self) -> Result<TaskRef> {
        let rt = self.rt;
        let (task, spec) = self.build()?;
        rt.submit(&task, spec)?;
        Ok(task)
    }
}
