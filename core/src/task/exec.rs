//! Ending a task: callbacks, data release, successors, waiters. The order follows StarPU:
//! the callback runs before the tasks that depend on this one are released. Running it on
//! a worker (data fetch, kernel) is the runtime's (`runtime/execute.rs`).
//!
//! Every call into application or face code (kernel, hooks, callbacks, closures) goes
//! through `worker::as_callback`, which catches a panic: the task is marked failed with
//! the message and the worker carries on, so nothing waiting for the task hangs.

use super::{state, ReadyList, Task, TaskKind, TaskRef};
use crate::error::Error;
use crate::runtime::Runtime;
use crate::worker;
use std::sync::atomic::Ordering;

/// The task whose kernel is running on the calling thread (`starpu_task_get_current`).
pub fn current_task() -> Option<TaskRef> {
    worker::current_task_any()?.downcast::<Task>().ok()
}

/// Records `e` as `task`'s failure, says so once, and counts it for `wait_for_all`.
pub(crate) fn fail(rt: &Runtime, task: &Task, e: Error) {
    let name = task.label();
    let msg = format!("task {name} failed: {}", e.message);
    let e = e.for_task(name);
    if task.set_failure(e.clone()) {
        rt.warn(&msg);
        rt.failures.record(&e);
    }
}

/// Runs application code for `task`; a panic fails the task.
pub(crate) fn guarded<R>(
    rt: &Runtime,
    task: &Task,
    what: &str,
    f: impl FnOnce() -> R,
) -> Option<R> {
    match worker::as_callback(what, None, f) {
        Ok(r) => Some(r),
        Err(e) => {
            fail(rt, task, e);
            None
        }
    }
}

/// `guarded`, with `task` as the current task meanwhile (`starpu_task_get_current`), as
/// StarPU does for prologue callbacks.
pub(crate) fn guarded_current(rt: &Runtime, task: &TaskRef, what: &str, f: impl FnOnce()) {
    if let Err(e) = worker::as_callback(what, Some(task.clone() as worker::CurrentTask), f) {
        fail(rt, task, e);
    }
}

/// The task's work is over (kernel ran, or there was none): callbacks, then its end unless
/// end dependencies hold it.
pub(crate) fn complete(rt: &Runtime, task: &TaskRef, ready: &mut ReadyList) {
    let spec = task.spec().expect("completed tasks were submitted");
    task.set_state(state::COMPLETED);
    if let Some(h) = &spec.hooks {
        guarded(rt, task, "the callback", || h.completed(task));
    }
    if matches!(spec.kind, TaskKind::Normal) {
        if let Some(f) = task.take_callback() {
            guarded(rt, task, "the callback", || f(task));
        }
    }
    rt.trace.callbacks_done(task);
    // The data is free from here on, even if end dependencies delay the task's end.
    crate::data::commute::release(task, ready);
    task.release_data_successors(ready);
    let mut data_idle = false;
    for a in &spec.accesses {
        forget_if_last_writer(task, a);
        data_idle |= a.handle.0.in_flight.fetch_sub(1, Ordering::SeqCst) == 1;
    }
    if data_idle {
        rt.data_bell.ring();
    }
    if task.end_pending.fetch_sub(1, Ordering::AcqRel) == 1 {
        terminate(rt, task, ready);
    }
}

/// Takes a completed plain writer out of its handle's implicit dependencies when it is
/// still the last writer, so that the task is freed by the thread ending it rather than by
/// the application thread submitting the next writer (whose submission path is the
/// bottleneck of small tasks). Only when the handle is free: a busy one keeps the task,
/// which is then dropped by the next writer, as before.
fn forget_if_last_writer(task: &Task, a: &crate::task::Access) {
    if !a.sequential || !a.mode.writes() || a.mode.is_commute() || a.mode.is_redux() {
        return;
    }
    // Stored under the dependency lock by the submission that registered the last access:
    // a stale value only costs a look under the lock, or leaves the task to the next writer.
    if a.handle.0.last_writer_hint.load(Ordering::Relaxed) != task.id() {
        return;
    }
    let forgotten = match a.handle.0.deps.try_lock() {
        Ok(mut deps) => deps.forget_completed_writer(task),
        Err(_) => None,
    };
    drop(forgotten);
}

/// Ends a task that has nothing to run (no codelet, or `STARPU_NOWHERE`).
pub(crate) fn finish_without_running(rt: &Runtime, task: &TaskRef, ready: &mut ReadyList) {
    task.set_state(state::RUNNING);
    complete(rt, task, ready);
}

/// Releases one end dependency of `task` (`starpu_task_end_dep_release`).
pub fn end_dep_release(rt: &Runtime, task: &TaskRef) {
    if task.end_pending.fetch_sub(1, Ordering::AcqRel) == 1 {
        let mut ready = ReadyList::new();
        terminate(rt, task, &mut ready);
        rt.schedule(ready);
    }
}

/// Last step: release successors and tag, update counters, wake waiters, and resubmit the
/// task if its face asks for it (`regenerate`).
fn terminate(rt: &Runtime, task: &TaskRef, ready: &mut ReadyList) {
    let spec = task.spec().expect("terminated tasks were submitted");
    task.set_state(state::DONE);
    let ends = task.release_successors(ready);
    let mut ring_tasks = !spec.detached || spec.synchronous;
    if let Some(tag) = spec.tag {
        rt.tags.notify(tag, ready);
        ring_tasks = true;
    }
    // The face's last look at the task comes before waiters are woken: a waiter may free
    // the face's task object as soon as it returns.
    let next = spec.hooks.as_ref().and_then(|h| {
        let again = guarded(rt, task, "the end-of-task hook", || {
            h.terminated(task);
            h.will_regenerate(task)
        });
        if again == Some(true) {
            guarded(rt, task, "the regenerate hook", || h.regenerate(task)).flatten()
        } else {
            None
        }
    });
    rt.watch_ended(task);
    let on_end = task.finish();
    for f in on_end {
        guarded(rt, task, "a completion closure", || f(task));
    }
    task.mark_settled();
    // An acquisition left the count when it was granted (see `Runtime::grant`).
    if !matches!(spec.kind, TaskKind::Acquire(_)) {
        rt.context_task_left(spec.sched_ctx);
        rt.task_left();
    }
    if ring_tasks {
        rt.task_bell.ring();
    }
    for t in ends {
        if t.end_pending.fetch_sub(1, Ordering::AcqRel) == 1 {
            terminate(rt, &t, ready);
        }
    }
    if let Some(next) = next {
        if let Err(e) = next.and_then(|(t, spec)| rt.submit(&t, spec)) {
            rt.warn(&format!(
                "task {}: regenerating it failed: {}",
                task.label(),
                e.message
            ));
        }
    }
}
