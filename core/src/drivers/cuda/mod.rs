//! The CUDA driver: devices (`device.rs`), each a memory node (`node.rs`) and one or more
//! workers, each with its own stream, that run codelets' CUDA implementations; modules of
//! PTX or CUDA C source compiled by NVRTC (`module.rs`); the kernel-side API of Rust
//! codelets (`kernel.rs`); cuBLAS and cuSOLVER handles per worker (`libs.rs`); pinned host
//! memory (`pinned.rs`); the tasks queued on a worker's stream (`pipeline.rs`,
//! `STARPU_CUDA_PIPELINE`).
//!
//! Everything is loaded at run time through cudarc (`libcuda.so.1`, NVRTC, cuBLAS,
//! cuSOLVER): without a driver, or with `STARPU_NCUDA=0`, a runtime has no CUDA worker and
//! starts all the same; nothing here calls CUDA before `device::driver_present()` said
//! the driver loads.
//!
//! This path was written and built on machines without a GPU: the tests of CI check the
//! answers without one; `scripts/gpu-check.sh` runs the GPU scenarios and benchmarks on a
//! machine with one.
//!
//! No CUDA type leaves this module: the memory side sees a `NodeDriver`, the C face raw
//! pointers.

mod device;
mod error;
mod kernel;
pub mod libs;
mod module;
mod node;
pub mod pinned;
pub(crate) mod pipeline;
pub mod raw;

pub use device::{all, driver_present, Device};
pub use error::{cu_error, error_string};
pub use kernel::{Cuda, DeviceBuffer, Launch};
pub use module::Module;

use crate::config::Config;
use crate::error::{Error, Result};
use crate::task::Queued;
use cudarc::driver::sys::{self, CUstream};
use pipeline::{Completion, Drain, Pipeline};
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

/// The devices a runtime configured by `config` uses, in order (StarPU's `devid`s): those
/// `STARPU_WORKERS_CUDAID` lists (all otherwise), at most `ncuda` of them and what the
/// node table holds (`max_nodes`).
pub fn select(config: &Config, max_nodes: usize) -> Vec<Arc<Device>> {
    let max = config.ncuda.unwrap_or(usize::MAX).min(max_nodes);
    // STARPU_NCUDA=0 never loads the driver.
    if max == 0 || !driver_present() {
        return Vec::new();
    }
    let devices = all();
    let chosen: Vec<Arc<Device>> = match &config.cuda.devices {
        Some(list) => list
            .iter()
            .filter_map(|&o| devices.iter().find(|d| d.ordinal == o).cloned())
            .collect(),
        None => devices.to_vec(),
    };
    let mut out: Vec<Arc<Device>> = Vec::new();
    for d in chosen {
        if out.len() < max && !out.iter().any(|o| o.ordinal == d.ordinal) {
            out.push(d);
        }
    }
    out
}

/// What a CUDA worker thread holds: its device, its stream, its library handles.
pub struct WorkerContext {
    /// The device number among the runtime's CUDA devices (StarPU's `devid`).
    pub devid: usize,
    pub device: Arc<Device>,
    /// The worker's stream (`starpu_cuda_get_local_stream`).
    pub(crate) stream: CUstream,
    pub(crate) libs: libs::Handles,
    /// The tasks queued on the stream (`STARPU_CUDA_PIPELINE`).
    queued: RefCell<Pipeline<Queued, StreamEvent>>,
}

/// An event recorded on a worker's stream after a task's kernels.
pub(crate) struct StreamEvent(sys::CUevent);

impl StreamEvent {
    /// A new event, recorded now on `stream` (of the current context).
    fn record(stream: CUstream) -> Result<StreamEvent> {
        let mut e: sys::CUevent = std::ptr::null_mut();
        let flags = sys::CUevent_flags::CU_EVENT_DISABLE_TIMING as u32;
        // SAFETY: a context is current on a worker thread.
        error::check(
            unsafe { sys::cuEventCreate(&mut e, flags) },
            "cuEventCreate",
        )?;
        let event = StreamEvent(e);
        // SAFETY: the worker's stream and a new event of the same context.
        error::check(
            unsafe { sys::cuEventRecord(event.0, stream) },
            "cuEventRecord",
        )?;
        Ok(event)
    }
}

impl Completion for StreamEvent {
    fn is_over(&self) -> bool {
        // SAFETY: an event this worker recorded; anything but "not ready" is over.
        unsafe { sys::cuEventQuery(self.0) != sys::CUresult::CUDA_ERROR_NOT_READY }
    }

    fn wait(&self) -> Result<()> {
        // SAFETY: as above.
        error::check(
            unsafe { sys::cuEventSynchronize(self.0) },
            "the CUDA kernel",
        )
    }
}

impl Drop for StreamEvent {
    fn drop(&mut self) {
        // SAFETY: created once by `record`, destroyed once.
        unsafe {
            let _ = sys::cuEventDestroy_v2(self.0);
        }
    }
}

impl WorkerContext {
    /// The worker's stream as a raw `CUstream` / `cudaStream_t`.
    pub fn stream_raw(&self) -> *mut std::ffi::c_void {
        self.stream as *mut std::ffi::c_void
    }
}

impl Drop for WorkerContext {
    fn drop(&mut self) {
        if self.device.bind().is_ok() {
            self.libs.destroy();
            // SAFETY: the worker's own stream, destroyed once when its thread ends.
            unsafe {
                let _ = sys::cuStreamDestroy_v2(self.stream);
            }
        }
    }
}

thread_local! {
    /// The CUDA worker running on this thread.
    static CURRENT: RefCell<Option<Rc<WorkerContext>>> = const { RefCell::new(None) };
}

/// Makes this thread a worker of device `devid`: binds its context and creates the
/// worker's stream, on which up to `pipeline` asynchronous tasks may be queued.
pub(crate) fn set_current(devid: usize, device: Arc<Device>, pipeline: usize) -> Result<()> {
    device.bind()?;
    let stream = device::new_stream()?;
    let ctx = WorkerContext {
        devid,
        device,
        stream,
        libs: libs::Handles::default(),
        queued: RefCell::new(Pipeline::new(pipeline)),
    };
    CURRENT.with(|c| *c.borrow_mut() = Some(Rc::new(ctx)));
    Ok(())
}

/// The CUDA worker running on this thread, if it is one.
pub fn current() -> Option<Rc<WorkerContext>> {
    CURRENT.with(|c| c.borrow().clone())
}

/// Waits for what the kernel of the task that just ran queued: the worker's stream, and
/// the legacy default stream (kernels launched without a stream go there). A kernel's
/// launch or execution error comes back here.
pub(crate) fn finish_current() -> Result<()> {
    let Some(w) = current() else {
        return Ok(());
    };
    w.device.bind()?;
    // SAFETY: the worker's stream and the default stream of the bound context.
    unsafe {
        error::check(sys::cuStreamSynchronize(w.stream), "the CUDA kernel")?;
        error::check(
            sys::cuStreamSynchronize(std::ptr::null_mut()),
            "the CUDA kernel (default stream)",
        )
    }
}

/// Whether the CUDA worker on this thread may queue a task on its stream
/// (`STARPU_CUDA_PIPELINE` above 0).
pub(crate) fn may_queue() -> bool {
    current().is_some_and(|w| w.queued.borrow().enabled())
}

/// Queues `task`, whose kernels the worker's stream holds, to end once they are over. The
/// caller made room (`take_ended(Drain::MakeRoom)` before taking the task).
pub(crate) fn queue(task: Queued) -> Result<()> {
    let w = current().ok_or_else(|| not_a_worker("queuing a task"))?;
    let event = StreamEvent::record(w.stream)?;
    w.queued.borrow_mut().push(task, event);
    Ok(())
}

/// The queued tasks of this thread's CUDA worker to end now (see `Drain`), in order, each
/// with its kernels' outcome. Nothing on other threads.
pub(crate) fn take_ended(drain: Drain) -> Vec<(Queued, Result<()>)> {
    match current() {
        Some(w) if !w.queued.borrow().is_empty() => w.queued.borrow_mut().take(drain),
        _ => Vec::new(),
    }
}

/// The error of a CUDA call made outside a CUDA worker.
pub(crate) fn not_a_worker(what: &str) -> Error {
    Error::invalid(format!("{what}: this code does not run on a CUDA worker"))
}
