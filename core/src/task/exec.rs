//! Running a task on a worker and ending it: data fetch, kernel, data release, callback,
//! successors, waiters. The order follows StarPU: the callback runs before the tasks that
//! depend on this one are released.

use super::{state, KernelCall, ReadyList, TaskKind, TaskRef, TaskSpec};
use crate::data::interfaces::Description;
use crate::error::{Error, ErrorKind, Result};
use crate::runtime::Runtime;
use crate::worker;
use smallvec::SmallVec;
use std::cell::RefCell;
use std::ffi::c_void;
use std::sync::atomic::Ordering;

thread_local! {
    /// The task whose kernel runs on this thread (`starpu_task_get_current`).
    static CURRENT_TASK: RefCell<Option<TaskRef>> = const { RefCell::new(None) };
}

/// The task whose kernel is running on the calling thread.
pub fn current_task() -> Option<TaskRef> {
    CURRENT_TASK.with(|c| c.borrow().clone())
}

/// Runs a task popped by `worker`, then ends it.
pub(crate) fn execute(rt: &'static Runtime, worker_id: usize, task: TaskRef) {
    let spec = task.spec().expect("scheduled tasks were submitted");
    task.set_state(state::RUNNING);
    if let Some(h) = spec.hooks {
        worker::as_callback(|| h.popped(&task, worker_id));
    }
    let node = rt.workers[worker_id].node;
    if let Err(e) = run_kernel(rt, worker_id, node, &task, spec) {
        let name = task.name().unwrap_or_else(|| "(unnamed)".into());
        rt.warn(&format!("task {name} failed: {e}"));
        task.set_failure(e);
    }
    rt.workers[worker_id]
        .executed
        .fetch_add(1, Ordering::Relaxed);
    let mut ready = ReadyList::new();
    complete(rt, &task, &mut ready);
    rt.schedule(ready);
}

fn run_kernel(
    rt: &Runtime,
    worker_id: usize,
    node: usize,
    task: &TaskRef,
    spec: &TaskSpec,
) -> Result<()> {
    let mut buffers: SmallVec<[*mut c_void; 8]> = SmallVec::with_capacity(spec.accesses.len());
    let mut scratch: SmallVec<[(usize, Description); 1]> = SmallVec::new();
    for (i, a) in spec.accesses.iter().enumerate() {
        if a.mode.is_scratch() {
            let d = a.handle.scratch(node)?;
            buffers.push(d.ptr() as *mut c_void);
            scratch.push((i, d));
        } else {
            buffers.push(a.handle.fetch(node, a.mode)?);
        }
    }
    let result = match &spec.codelet {
        Some(cl) if !rt.config.disable_kernels => {
            let nimpl = rt.choose_impl(task, worker_id).unwrap_or(0);
            let call = KernelCall {
                buffers: &buffers,
                task,
                worker: worker_id,
                nimpl,
            };
            CURRENT_TASK.with(|c| *c.borrow_mut() = Some(task.clone()));
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                (cl.cpu_funcs[nimpl])(&call)
            }));
            CURRENT_TASK.with(|c| *c.borrow_mut() = None);
            match r {
                Ok(Ok(())) => Ok(()),
                Ok(Err(e)) => Err(Error::new(ErrorKind::TaskFailed, e.0)),
                Err(p) => Err(Error::new(
                    ErrorKind::TaskFailed,
                    format!("kernel panicked: {}", panic_message(&p)),
                )),
            }
        }
        _ => Ok(()),
    };
    for a in spec.accesses.iter().filter(|a| !a.mode.is_scratch()) {
        a.handle.after_access(node, a.mode);
    }
    for (i, d) in scratch {
        spec.accesses[i].handle.free_scratch(d, node);
    }
    result
}

fn panic_message(p: &Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".into()
    }
}

/// The task's work is over (kernel ran, or there was none): callback, then its end unless
/// end dependencies hold it.
pub(crate) fn complete(rt: &'static Runtime, task: &TaskRef, ready: &mut ReadyList) {
    let spec = task.spec().expect("completed tasks were submitted");
    if let Some(h) = spec.hooks {
        worker::as_callback(|| h.completed(task));
    }
    if spec.kind == TaskKind::Normal {
        if let Some(f) = task.take_callback() {
            worker::as_callback(f);
        }
    }
    if task.end_pending.fetch_sub(1, Ordering::AcqRel) == 1 {
        terminate(rt, task, ready);
    }
}

/// Ends a task that has nothing to run (no codelet, or `STARPU_NOWHERE`).
pub(crate) fn finish_without_running(rt: &'static Runtime, task: &TaskRef, ready: &mut ReadyList) {
    task.set_state(state::RUNNING);
    complete(rt, task, ready);
}

/// Releases one end dependency of `task` (`starpu_task_end_dep_release`).
pub fn end_dep_release(rt: &'static Runtime, task: &TaskRef) {
    if task.end_pending.fetch_sub(1, Ordering::AcqRel) == 1 {
        let mut ready = ReadyList::new();
        terminate(rt, task, &mut ready);
        rt.schedule(ready);
    }
}

/// Last step: release successors and tag, update counters, wake waiters.
fn terminate(rt: &'static Runtime, task: &TaskRef, ready: &mut ReadyList) {
    let spec = task.spec().expect("terminated tasks were submitted");
    task.set_state(state::DONE);
    let ends = task.release_successors(ready);
    let mut ring_tasks = !spec.detached || spec.synchronous;
    if let Some(tag) = spec.tag {
        rt.tags.notify(tag, ready);
        ring_tasks = true;
    }
    let mut data_idle = false;
    for a in &spec.accesses {
        data_idle |= a.handle.0.in_flight.fetch_sub(1, Ordering::SeqCst) == 1;
    }
    // The binding's last look at the task comes before waiters are woken: a waiter may
    // free the binding's task object as soon as it returns.
    if let Some(h) = spec.hooks {
        worker::as_callback(|| h.terminated(task));
    }
    task.set_terminated();
    let left = rt.submitted.fetch_sub(1, Ordering::SeqCst) - 1;
    if left <= rt.watermark.load(Ordering::SeqCst) {
        rt.all_bell.ring();
    }
    if ring_tasks {
        rt.task_bell.ring();
    }
    if data_idle {
        rt.data_bell.ring();
    }
    for t in ends {
        if t.end_pending.fetch_sub(1, Ordering::AcqRel) == 1 {
            terminate(rt, &t, ready);
        }
    }
}
