//! Running a task popped by a worker: its prologue, the data fetch, the kernel (alone or
//! with a team of a combined worker), the measure for its performance model, then its end
//! (`task::complete`). Every call into application code goes through
//! `worker::as_callback`, which turns a panic into the task's failure.

use super::{ReadyList, Runtime};
use crate::error::{Error, Result};
use crate::task::{
    complete, fail, guarded_current, state, CodeletType, KernelCall, TaskRef, TaskSpec, TaskTimes,
};
use crate::worker;
use smallvec::SmallVec;
use std::ffi::c_void;
use std::sync::atomic::Ordering;

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
    let measured = match run_kernel(rt, worker_id, node, &task, spec) {
        Ok(times) => times.map(|t| t.micros()),
        Err(e) => {
            fail(rt, &task, e);
            None
        }
    };
    rt.task_ran(&task, worker_id, started);
    rt.with_task_policy(&task, |p| p.task_done(worker_id, &task, measured));
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
) -> Result<Option<TaskTimes>> {
    let mut buffers: SmallVec<[*mut c_void; 8]> = SmallVec::with_capacity(spec.accesses.len());
    // Multiformat data in the other format is converted first (on this worker).
    crate::task::multiformat::prepare(worker_id, node, spec)?;
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
        Some(cl) if cl.kind != CodeletType::Seq => rt.parallel.take_assigned(worker_id),
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
            let call = KernelCall::new(&buffers, task, spec, worker_id, nimpl)
                .on_device(node != crate::memory::MAIN_RAM);
            let run = || match &team {
                None => worker::as_callback(
                    "the kernel",
                    Some(task.clone() as worker::CurrentTask),
                    || {
                        let r = (cl.funcs(kind)[nimpl])(&call);
                        // Kernels an OpenCL implementation queued (asynchronously or not) are
                        // part of the task.
                        match rt.finish_device_kernels(worker_id) {
                            Err(e) if r.is_ok() => Err(e.into()),
                            _ => r,
                        }
                    },
                ),
                Some(c) => {
                    rt.parallel
                        .run_team(&rt.workers, &rt.topology, c, task, &buffers, nimpl)
                }
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
                Ok(Ok(())) => {
                    if let (Some(model), Some(t)) = (&cl.model, &times) {
                        let arch = match &team {
                            Some(c) => c.arch(),
                            None => crate::perfmodel::PerfArch::of_worker(&rt.workers, worker_id),
                        };
                        crate::perfmodel::record(model, spec, &arch, nimpl, t.micros());
                    }
                    Ok(times)
                }
                Ok(Err(e)) => Err(e.into_error()),
                Err(e) => Err(e),
            }
        }
        _ => Ok(None),
    };
    if team.is_some() {
        rt.parallel.team_done();
    }
    for a in spec.accesses.iter() {
        a.handle.end_access(worker_id, node, a.mode);
    }
    result
}
