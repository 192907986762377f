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
    #[cfg_attr(not(feature = "cuda"), allow(dead_code))]
    Queued,
}

/// Ends the tasks CUDA worker `worker_id` (the calling thread) queued on its stream that
/// `drain` asks for: their data is released, and a kernel's error fails its task.
#[cfg(feature = "cuda")]
pub(crate) fn end_queued(
    rt: &Runtime,
    worker_id: usize,
    drain: crate::drivers::cuda::pipeline::Drain,
) {
    let node = rt.workers[worker_id].node;
    for ((task, started), r) in crate::drivers::cuda::take_ended(drain) {
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
            let queue = may_queue(kind, cl, nimpl, team.is_some());
            let _ = started; // (read where the task is queued: builds with CUDA)
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
                #[cfg(feature = "cuda")]
                Ok(Ok(())) if queue => {
                    return match crate::drivers::cuda::queue((task.clone(), started)) {
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
    kind: worker::WorkerKind,
    cl: &crate::task::Codelet,
    nimpl: usize,
    team: bool,
) -> bool {
    #[cfg(feature = "cuda")]
    {
        kind == worker::WorkerKind::Cuda
            && !team
            && cl.model.is_none()
            && cl
                .cuda_flags
                .get(nimpl)
                .is_some_and(|f| f & crate::task::CUDA_ASYNC != 0)
            && crate::drivers::cuda::may_queue()
    }
    #[cfg(not(feature = "cuda"))]
    {
        let _ = (kind, cl, nimpl, team);
        false
    }
}
