//! The OpenCL driver: devices (`device.rs`), each a memory node (`node.rs`) and a worker
//! that runs codelets' OpenCL implementations; programs built from source for the devices
//! (`program.rs`); the kernel-side API of Rust codelets (`kernel.rs`).
//!
//! `libOpenCL.so.1` is loaded at run time (the `cl3` crate's dynamic mode): without it, or
//! without a device of the kinds asked for, a runtime has no OpenCL worker and starts all
//! the same. As in StarPU, only GPUs and accelerators are taken unless
//! `STARPU_OPENCL_ON_CPUS=1` (CPU devices too, e.g. PoCL) or
//! `STARPU_OPENCL_ONLY_ON_CPUS=1` (CPU devices alone).
//!
//! No OpenCL type leaves this module: the memory side sees a `NodeDriver`, the C face raw
//! pointers.

mod cl;
mod device;
mod error;
mod kernel;
mod node;
pub mod program;
pub mod raw;

pub use device::{all, Device, DeviceType};
pub use error::{cl_error, error_string};
pub use kernel::{DeviceBuffer, Kernel, OpenCl};
pub use program::{locate_source, Program, Programs};

use crate::config::Config;
use std::cell::RefCell;
use std::sync::Arc;

/// The devices a runtime configured by `config` uses, in order (StarPU's `devid`s):
/// of the kinds asked for, that can be opened, at most `nopencl` (and the `max_nodes`
/// the node table has room for).
pub fn select(config: &Config, max_nodes: usize) -> Vec<Arc<Device>> {
    let max = config.nopencl.unwrap_or(usize::MAX).min(max_nodes);
    if max == 0 {
        return Vec::new();
    }
    let wanted = |d: &Device| match d.kind {
        DeviceType::Cpu => config.opencl_on_cpus || config.opencl_only_on_cpus,
        _ => !config.opencl_only_on_cpus,
    };
    all()
        .iter()
        .filter(|d| wanted(d) && d.usable())
        .take(max)
        .cloned()
        .collect()
}

thread_local! {
    /// The device of the OpenCL worker running on this thread.
    static CURRENT: RefCell<Option<(usize, Arc<Device>)>> = const { RefCell::new(None) };
}

/// Makes this thread the worker of device `devid` (`starpu_opencl_get_current_*`).
pub(crate) fn set_current(devid: usize, device: Arc<Device>) {
    CURRENT.with(|c| *c.borrow_mut() = Some((devid, device)));
}

/// The device (and its `devid`) of the OpenCL worker running on this thread.
pub fn current() -> Option<(usize, Arc<Device>)> {
    CURRENT.with(|c| c.borrow().clone())
}
