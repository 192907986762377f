//! Running a task on a worker and ending it: data fetch, kernel, data release, callback,
//! successors, waiters. The order follows StarPU: the callback runs before the tasks that
//! depend on this one are released.
//!
//! Every call into application or face code (kernel, hooks, callbacks, closures) goes
//! through `worker::as_callback`, which catches a panic: the task is marked failed with
//! the message and the worker carries on, so nothing waiting for the task hangs.

use super::{state, KernelCall, ReadyList, Task, TaskKind, TaskRef, TaskSpec, TaskTimes};
use crate::error::{Error, Result};
use crate::runtime::Runtime;
use crate::worker;
use smallvec::SmallVec;
use std::ffi::c_void;
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

/// Runs a task popped by `worker`, then ends it.
pub(crate) fn execute(rt: &Runtime, worker_id: usize, task: TaskRef) {
    let spec = task.spec().expect("scheduled tasks were submitted");
    task.set_state(state::RUNNING);
    if let Some(h) = &spec.hooks {
        // As in StarPU, the task is the current one during its prologue pop callback
        // (the OpenMP prologue of parallel workers reads `possibly_parallel` there).
        guarded_current(rt, &task, "the prologue pop callback", || {
            h.popped(&task, worker_id)
        });
    }
    rt.with_task_policy(&task, |p| p.task_starting(worker_id, &task));
    let node = rt.workers[worker_id].node;
    let started = rt.task_starts(&task, worker_id);
    let measured = match run_kernel(rt, worker_id, node, &task, spec, started) {
        Ok(Ran::Over(times)) => times.map(|t| t.micros()),
        // Its kernels are still running on the CUDA worker's stream: it ends in `end_queued`.
        Ok(Ran::Queued) => return,
        Err(e) => {
            fail(rt, &task, e);
            None
        }
    };
    end_run(rt, worker_id, &task, started, measured);
}

/// What became of a task's kernel.
enum Ran {
    /// It is over (timed when the codelet has a model).
    Over(Option<TaskTimes>),
    /// Queued on a CUDA worker's stream, data still held (`STARPU_CUDA_PIPELINE`).
    Queued,
}

/// A task queued on a device's stream: the task, and when it started (profiling).
pub(crate) type Queued = (TaskRef, Option<u64>);

/// Ends tasks CUDA worker `worker_id` had queued on its stream (`Runtime::queue_device_task`)
/// and whose kernels are over, each with its kernels' outcome: their data is released, and
/// a kernel's error fails its task.
#[cfg_attr(not(feature = "cuda"), allow(dead_code))]
pub(crate) fn end_queued(rt: &Runtime, worker_id: usize, ended: Vec<(Queued, Result<()>)>) {
    let node = rt.workers[worker_id].node;
    for ((task, started), r) in ended {
        let spec = task.spec().expect("queued tasks were submitted");
        for a in spec.accesses.iter() {
            a.handle.end_access(worker_id, node, a.mode);
        }
        if let Err(e) = r {
            fail(rt, &task, e);
        }
        end_run(rt, worker_id, &task, started, None);
    }
}

/// The end of a task's run on `worker_id`: profiling, the policy, then its completion.
fn end_run(
    rt: &Runtime,
    worker_id: usize,
    task: &TaskRef,
    started: Option<u64>,
    measured: Option<f64>,
) {
    rt.task_ran(task, worker_id, started);
    rt.with_task_policy(task, |p| p.task_done(worker_id, task, measured));
    rt.workers[worker_id]
        .executed
        .fetch_add(1, Ordering::Relaxed);
    let mut ready = ReadyList::new();
    complete(rt, task, &mut ready);
    rt.schedule(ready);
}

fn run_kernel(
    rt: &Runtime,
    worker_id: usize,
    node: usize,
    task: &TaskRef,
    spec: &TaskSpec,
    started: Option<u64>,
) -> Result<Ran> {
    let mut buffers: SmallVec<[*mut c_void; 8]> = SmallVec::with_capacity(spec.accesses.len());
    // Multiformat data in the other format is converted first (on this worker).
    super::multiformat::prepare(worker_id, node, spec)?;
    if node != crate::memory::MAIN_RAM {
        // Every transfer starts before the first is waited for: they overlap.
        for a in spec.accesses.iter().filter(|a| a.mode.reads()) {
            if !a.mode.is_scratch() && !a.mode.is_redux() {
                let _ = a
                    .handle
                    .request(node, crate::memory::Level::Fetch, task.priority());
            }
        }
    }
    for (i, a) in spec.accesses.iter().enumerate() {
        match a.handle.fetch_for(worker_id, node, a.mode) {
            Ok(b) => buffers.push(b),
            Err(e) => {
                // The buffers fetched so far are released.
                for a in &spec.accesses[..i] {
                    a.handle.end_access(worker_id, node, a.mode);
                }
                return Err(e);
            }
        }
    }
    let kind = rt.workers[worker_id].kind;
    // The combined worker a parallel-aware policy chose for a parallel task.
    let team = match &spec.codelet {
        Some(cl) if cl.kind != super::CodeletType::Seq => rt.parallel.take_assigned(worker_id),
        _ => None,
    };
    let result = match &spec.codelet {
        // A task failed before it ran (its can_execute panicked) skips its kernel, and so
        // does a task of a cancelled transaction epoch.
        Some(cl)
            if !rt.config.disable_kernels && !task.has_failed() && !task.in_cancelled_epoch() =>
        {
            // The implementation the policy chose, if it chose one and it still may run.
            let nimpl = task
                .sched_impl()
                .filter(|&i| rt.impl_allowed(task, worker_id, i))
                .or_else(|| rt.choose_impl(task, worker_id))
                .filter(|&i| i < cl.funcs(kind).len())
                .ok_or_else(|| {
                    Error::no_device(format!(
                        "codelet {} has no implementation for worker {} ({})",
                        cl.display_name(),
                        worker_id,
                        rt.workers[worker_id].name
                    ))
                });
            let nimpl = match nimpl {
                Ok(i) => i,
                Err(e) => {
                    for a in spec.accesses.iter() {
                        a.handle.end_access(worker_id, node, a.mode);
                    }
                    return Err(e);
                }
            };
            task.set_sched_impl(nimpl);
            let queue = may_queue(rt, kind, cl, nimpl, team.is_some());
            let call = KernelCall::new(&buffers, task, spec, worker_id, nimpl)
                .on_device(node != crate::memory::MAIN_RAM);
            let run = || match &team {
                None => worker::as_callback(
                    "the kernel",
                    Some(task.clone() as worker::CurrentTask),
                    || {
                        let r = (cl.funcs(kind)[nimpl])(&call);
                        if queue && r.is_ok() {
                            // Its kernels end the task later (`end_queued`).
                            return r;
                        }
                        // Kernels a device implementation queued (asynchronously or not) are
                        // part of the task.
                        match rt.finish_device_kernels(worker_id) {
                            Err(e) if r.is_ok() => Err(e.into()),
                            _ => r,
                        }
                    },
                ),
                Some(c) => crate::parallel::run_team(rt, c, worker_id, task, cl, &buffers, nimpl),
            };
            // Only tasks with a model are timed: the others do not pay for the clock.
            let (r, times) = match &cl.model {
                Some(_) => {
                    let (r, t) = TaskTimes::measure(run);
                    (r, Some(t))
                }
                None => (run(), None),
            };
            match r {
                Ok(Ok(())) if queue => {
                    return match rt.queue_device_task(task.clone(), started) {
                        Ok(()) => Ok(Ran::Queued),
                        Err(e) => {
                            // Not queued: the stream is waited for here.
                            let r = rt.finish_device_kernels(worker_id).and(Err(e));
                            for a in spec.accesses.iter() {
                                a.handle.end_access(worker_id, node, a.mode);
                            }
                            r
                        }
                    };
                }
                Ok(Ok(())) => {
                    if let (Some(model), Some(t)) = (&cl.model, &times) {
                        let arch = match &team {
                            Some(c) => c.arch(),
                            None => crate::perfmodel::PerfArch::of_worker(&rt.workers, worker_id),
                        };
                        crate::perfmodel::record(model, spec, &arch, nimpl, t.micros());
                    }
                    Ok(Ran::Over(times))
                }
                Ok(Err(e)) => Err(e.into_error()),
                Err(e) => Err(e),
            }
        }
        _ => Ok(Ran::Over(None)),
    };
    if team.is_some() {
        rt.parallel.team_done();
    }
    for a in spec.accesses.iter() {
        a.handle.end_access(worker_id, node, a.mode);
    }
    result
}

/// Whether the kernel of implementation `nimpl` of `cl` on a worker of `kind` may end
/// after it returns (`STARPU_CUDA_PIPELINE`): an asynchronous CUDA implementation
/// (`STARPU_CUDA_ASYNC`) of a sequential task, on a worker whose pipeline is on. Tasks
/// with a performance model wait for their kernels: their time is measured around them.
fn may_queue(
    rt: &Runtime,
    kind: worker::WorkerKind,
    cl: &super::Codelet,
    nimpl: usize,
    team: bool,
) -> bool {
    kind == worker::WorkerKind::Cuda
        && !team
        && cl.model.is_none()
        && cl
            .cuda_flags
            .get(nimpl)
            .is_some_and(|f| f & super::CUDA_ASYNC != 0)
        && rt.may_queue_device_task()
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
