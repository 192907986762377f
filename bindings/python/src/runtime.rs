//! The process-wide runtime as Python sees it: `init`, `shutdown` (also at interpreter
//! exit), pause/resume, waiting for all tasks, priorities, worker counts, tags.
//!
//! Every call that may block (waiting for tasks, shutting down, waiting for tags) releases
//! the GIL first: the tasks it waits for may need the GIL to run their Python code.

use crate::errors::{self, IntoPy};
use crate::handle;
use pyo3::prelude::*;
use starpu_core::worker::WorkerKind;
use starpu_core::{Config, Runtime};
use std::sync::Arc;

/// Runs `f` with the running runtime, or raises `NotInitializedError` when there is none.
pub(crate) fn with_runtime<R>(
    py: Python<'_>,
    f: impl FnOnce(&Arc<Runtime>) -> PyResult<R>,
) -> PyResult<R> {
    match starpu_core::runtime::with_global(|rt| f(rt)) {
        Ok(r) => r,
        Err(_) => Err(errors::not_running(py)),
    }
}

/// The running runtime (a new reference), or `NotInitializedError`.
pub(crate) fn runtime(py: Python<'_>) -> PyResult<Arc<Runtime>> {
    starpu_core::runtime::global().map_err(|_| errors::not_running(py))
}

/// `starpu.init(ncpus=None, sched_policy_name=None, silent=None, nopencl=None,
/// ncuda=None)`: starts the runtime.
///
/// StarPU's `starpu.init()` takes no argument; the keyword arguments are the fields of
/// `struct starpu_conf` a Python program most often sets (`nopencl`: at most that many
/// OpenCL workers, 0 for none; a CPU OpenCL device such as PoCL counts only with
/// `STARPU_OPENCL_ON_CPUS=1`; `ncuda`: at most that many CUDA GPUs). StarPU's environment
/// variables
/// (`STARPU_NCPU`, `STARPU_SCHED`, ...) apply over them, as in StarPU. Calls nest: each
/// `init` needs its `shutdown`.
#[pyfunction]
#[pyo3(signature = (*, ncpus=None, sched_policy_name=None, silent=None, nopencl=None, ncuda=None))]
pub(crate) fn init(
    py: Python<'_>,
    ncpus: Option<i64>,
    sched_policy_name: Option<String>,
    silent: Option<bool>,
    nopencl: Option<usize>,
    ncuda: Option<usize>,
) -> PyResult<()> {
    let ncpus = match ncpus {
        None | Some(-1) => None,
        Some(n) if n >= 0 => Some(n as usize),
        Some(n) => {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "ncpus must be -1 (one worker per core) or at least 0, not {n}"
            )))
        }
    };
    let mut config = Config {
        ncpus,
        nopencl,
        ncuda,
        sched_policy: sched_policy_name,
        ..Config::default()
    };
    if let Some(s) = silent {
        config.silent = s;
    }
    config.apply_env().py(py)?;
    py.detach(|| starpu_core::init(config)).py(py)?;
    Ok(())
}

/// `starpu.shutdown()`: ends one `init`. The last one waits for every task, unregisters the
/// data the face registered (writing it back to the Python objects), and stops the
/// workers.
#[pyfunction]
pub(crate) fn shutdown(py: Python<'_>) -> PyResult<()> {
    if starpu_core::runtime::init_count() == 1 && starpu_core::worker::may_block() {
        // The last one: the face's data goes back to its Python objects first.
        let rt = runtime(py)?;
        let _ = py.detach(|| rt.wait_for_all());
        handle::unregister_all(py, &rt);
    }
    py.detach(starpu_core::shutdown).py(py)
}

/// Shuts the runtime down completely, whatever the number of pending `init` calls. Called
/// at interpreter exit, before finalization, so that no worker thread still runs Python
/// code while the interpreter goes away.
#[pyfunction]
pub(crate) fn _shutdown_at_exit(py: Python<'_>) {
    while starpu_core::runtime::init_count() > 0 {
        if let Err(e) = shutdown(py) {
            e.print(py);
            break;
        }
    }
}

/// `starpu.is_initialized()`: whether the runtime runs.
#[pyfunction]
pub(crate) fn is_initialized() -> bool {
    starpu_core::runtime::is_initialized()
}

/// `starpu.task_wait_for_all()`: waits until every submitted task has ended.
///
/// When tasks failed since the previous call, raises the first failure: the very exception
/// its Python function raised (or `TaskFailedError`). Called from a task it raises
/// `DeadlockError`.
#[pyfunction]
pub(crate) fn task_wait_for_all(py: Python<'_>) -> PyResult<()> {
    let rt = runtime(py)?;
    py.detach(|| rt.wait_for_all()).py(py)
}

/// `starpu.task_nsubmitted()`: tasks submitted and not yet ended.
#[pyfunction]
pub(crate) fn task_nsubmitted(py: Python<'_>) -> PyResult<usize> {
    with_runtime(py, |rt| Ok(rt.nsubmitted()))
}

/// `starpu.pause()`: workers stop taking new tasks (running ones finish).
#[pyfunction]
pub(crate) fn pause(py: Python<'_>) -> PyResult<()> {
    with_runtime(py, |rt| {
        rt.pause();
        Ok(())
    })
}

/// `starpu.resume()`: undoes one `pause()`.
#[pyfunction]
pub(crate) fn resume(py: Python<'_>) -> PyResult<()> {
    with_runtime(py, |rt| {
        rt.resume();
        Ok(())
    })
}

/// `starpu.sched_get_min_priority()`: the lowest priority of the scheduling policy.
#[pyfunction]
pub(crate) fn sched_get_min_priority(py: Python<'_>) -> PyResult<i32> {
    with_runtime(py, |rt| Ok(rt.priority_range().0))
}

/// `starpu.sched_get_max_priority()`: the highest priority of the scheduling policy.
#[pyfunction]
pub(crate) fn sched_get_max_priority(py: Python<'_>) -> PyResult<i32> {
    with_runtime(py, |rt| Ok(rt.priority_range().1))
}

/// `starpu.worker_get_count()`: every worker (0 when the runtime does not run).
#[pyfunction]
pub(crate) fn worker_get_count() -> usize {
    starpu_core::runtime::with_global(|rt| rt.workers().len()).unwrap_or(0)
}

/// `starpu.cpu_worker_get_count()`: CPU workers (0 when the runtime does not run).
#[pyfunction]
pub(crate) fn cpu_worker_get_count() -> usize {
    count_of(Some(WorkerKind::Cpu))
}

/// `starpu.cuda_worker_get_count()`: CUDA workers (0 when the runtime does not run).
#[pyfunction]
pub(crate) fn cuda_worker_get_count() -> usize {
    count_of(Some(WorkerKind::Cuda))
}

/// `starpu.opencl_worker_get_count()`: OpenCL workers (0 when the runtime does not run).
#[pyfunction]
pub(crate) fn opencl_worker_get_count() -> usize {
    count_of(Some(WorkerKind::OpenCl))
}

fn count_of(kind: Option<WorkerKind>) -> usize {
    starpu_core::runtime::with_global(|rt| rt.worker_ids(kind).len()).unwrap_or(0)
}

/// `starpu.worker_get_count_by_type(type)`: workers of `type` (`starpu.STARPU_CPU_WORKER`,
/// ..., `STARPU_ANY_WORKER`). Kinds this build has no driver for count 0.
#[pyfunction]
pub(crate) fn worker_get_count_by_type(py: Python<'_>, kind: i64) -> PyResult<usize> {
    const NARCH: i64 = 8;
    const ANY: i64 = 255;
    if kind == ANY {
        return Ok(count_of(None));
    }
    if !(0..=NARCH).contains(&kind) {
        return Err(errors::invalid(
            py,
            format!("worker type {kind} is invalid"),
        ));
    }
    Ok(match WorkerKind::from_starpu_id(kind as u32) {
        Some(k) => count_of(Some(k)),
        None => 0,
    })
}

/// `starpu.tag_declare_deps(tag, *deps)`: tag `tag` is not done before every tag of `deps`.
#[pyfunction]
#[pyo3(signature = (tag, *deps))]
pub(crate) fn tag_declare_deps(py: Python<'_>, tag: u64, deps: Vec<u64>) -> PyResult<()> {
    with_runtime(py, |rt| rt.tags.declare_deps(tag, &deps).py(py))
}

/// `starpu.tag_notify_from_apps(tag)`: marks `tag` done from the application.
#[pyfunction]
pub(crate) fn tag_notify_from_apps(py: Python<'_>, tag: u64) -> PyResult<()> {
    let rt = runtime(py)?;
    py.detach(|| rt.tag_notify(tag));
    Ok(())
}

/// `starpu.tag_wait(*tags)`: waits until every tag given is done.
#[pyfunction]
#[pyo3(signature = (*tags))]
pub(crate) fn tag_wait(py: Python<'_>, tags: Vec<u64>) -> PyResult<()> {
    let rt = runtime(py)?;
    py.detach(|| rt.tag_wait(&tags)).py(py)
}

/// `starpu.tag_remove(tag)`: forgets `tag`.
#[pyfunction]
pub(crate) fn tag_remove(py: Python<'_>, tag: u64) -> PyResult<()> {
    with_runtime(py, |rt| {
        rt.tags.remove(tag);
        Ok(())
    })
}

/// `starpu.worker_get_id()`: the worker running the calling task, -1 outside tasks.
#[pyfunction]
pub(crate) fn worker_get_id() -> i64 {
    starpu_core::worker::current_worker_id().map_or(-1, |w| w as i64)
}

/// `starpu.combined_worker_get_size()`: how many workers run the calling parallel task
/// together (1 for a sequential task).
#[pyfunction]
pub(crate) fn combined_worker_get_size() -> u32 {
    starpu_core::parallel::combined_size()
}

/// `starpu.combined_worker_get_rank()`: the calling worker's rank among them (0 for a
/// sequential task).
#[pyfunction]
pub(crate) fn combined_worker_get_rank() -> u32 {
    starpu_core::parallel::combined_rank()
}
