//! The Python face of starpu-rs: the extension module `starpu._core`, wrapped by the
//! pure-Python package `starpu` (bindings/python/python/starpu), which gives StarPU's
//! Python interface (`import starpu`).
//!
//! It binds the core's Rust API (`starpu_core`): this crate converts Python objects, maps
//! errors to exceptions and manages the GIL; the runtime's rules live in the core.
//!
//! Modules: `runtime` (init, shutdown, waits, tags, worker queries), `task` (submission,
//! codelets, the Python kernel), `future` (`starpu.Future`), `handle` (data handles of
//! Python objects), `layout` (buffer memory as StarPU interfaces), `partition` (numpy
//! arrays cut through the core's filters and plans), `views` (numpy views of the runtime's
//! SCRATCH and REDUX buffers), `redux` (reduction methods), `sched_ctx`
//! (`starpu.SchedCtx`), `transaction` (`starpu.Transaction`), `native` (C kernels),
//! `opencl` and `cuda` (OpenCL and CUDA implementations of codelets, sharing
//! `device_call`), `mpi` (`starpu.mpi`, with the `mpi`
//! feature), `perf` (performance-model symbols), `gil` (worker threads and the GIL),
//! `errors` (the core's error kinds as exception classes), `event_loop` (asyncio
//! completions in batches).

mod codelet;
mod cuda;
mod device_call;
mod errors;
mod event_loop;
mod future;
mod gil;
mod handle;
mod layout;
mod modes;
#[cfg(feature = "mpi")]
mod mpi;
mod native;
mod opencl;
mod options;
mod partition;
mod perf;
mod redux;
mod runtime;
mod sched_ctx;
mod task;
mod transaction;
mod views;

use pyo3::prelude::*;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::add_to(m)?;
    m.add_class::<future::Future>()?;
    m.add_class::<handle::Handle>()?;
    m.add_class::<task::Submitter>()?;
    m.add_class::<codelet::Codelet>()?;
    m.add_class::<task::Task>()?;
    m.add_class::<native::NativeKernel>()?;
    m.add_class::<sched_ctx::SchedCtx>()?;
    m.add_class::<transaction::Transaction>()?;
    m.add_class::<opencl::Program>()?;
    m.add_class::<opencl::Buffer>()?;
    m.add_class::<opencl::Local>()?;
    m.add_class::<device_call::DeviceData>()?;
    // Named apart from OpenCL's classes here; `starpu.cuda` gives them their own names.
    m.add("CudaProgram", m.py().get_type::<cuda::Program>())?;
    m.add("CudaBuffer", m.py().get_type::<cuda::Buffer>())?;
    #[cfg(feature = "mpi")]
    mpi::add_to(m)?;
    m.add_function(wrap_pyfunction!(runtime::init, m)?)?;
    m.add_function(wrap_pyfunction!(runtime::shutdown, m)?)?;
    m.add_function(wrap_pyfunction!(runtime::_shutdown_at_exit, m)?)?;
    m.add_function(wrap_pyfunction!(runtime::is_initialized, m)?)?;
    m.add_function(wrap_pyfunction!(runtime::task_wait_for_all, m)?)?;
    m.add_function(wrap_pyfunction!(runtime::task_nsubmitted, m)?)?;
    m.add_function(wrap_pyfunction!(runtime::pause, m)?)?;
    m.add_function(wrap_pyfunction!(runtime::resume, m)?)?;
    m.add_function(wrap_pyfunction!(runtime::sched_get_min_priority, m)?)?;
    m.add_function(wrap_pyfunction!(runtime::sched_get_max_priority, m)?)?;
    m.add_function(wrap_pyfunction!(runtime::worker_get_count, m)?)?;
    m.add_function(wrap_pyfunction!(runtime::cpu_worker_get_count, m)?)?;
    m.add_function(wrap_pyfunction!(runtime::opencl_worker_get_count, m)?)?;
    m.add_function(wrap_pyfunction!(runtime::cuda_worker_get_count, m)?)?;
    m.add_function(wrap_pyfunction!(runtime::worker_get_count_by_type, m)?)?;
    m.add_function(wrap_pyfunction!(runtime::worker_get_id, m)?)?;
    m.add_function(wrap_pyfunction!(runtime::combined_worker_get_size, m)?)?;
    m.add_function(wrap_pyfunction!(runtime::combined_worker_get_rank, m)?)?;
    m.add_function(wrap_pyfunction!(runtime::tag_declare_deps, m)?)?;
    m.add_function(wrap_pyfunction!(runtime::tag_notify_from_apps, m)?)?;
    m.add_function(wrap_pyfunction!(runtime::tag_wait, m)?)?;
    m.add_function(wrap_pyfunction!(runtime::tag_remove, m)?)?;
    m.add_function(wrap_pyfunction!(task::task_submit, m)?)?;
    m.add_function(wrap_pyfunction!(handle::acquire, m)?)?;
    m.add_function(wrap_pyfunction!(handle::release, m)?)?;
    m.add_function(wrap_pyfunction!(handle::unregister, m)?)?;
    m.add_function(wrap_pyfunction!(handle::unregister_submit, m)?)?;
    m.add_function(wrap_pyfunction!(handle::_handle_of, m)?)?;
    m.add_function(wrap_pyfunction!(native::native_kernel, m)?)?;
    m.add_function(wrap_pyfunction!(perf::_perfmodel_samples, m)?)?;
    m.add_function(wrap_pyfunction!(perf::_perfmodel_history, m)?)?;
    m.add_function(wrap_pyfunction!(event_loop::_loop_wakeups, m)?)?;
    Ok(())
}
