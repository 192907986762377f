//! Whether asynchronous copies are disabled (`starpu.h`): what the program asked for with
//! `STARPU_DISABLE_ASYNCHRONOUS_*COPY` or the `starpu_conf` fields, as the core's
//! configuration holds it. Before `starpu_init` the answer is 0 (with a message).

use crate::ffi::{self, value_call};
use libc::c_int;
use starpu_core::config::AsyncCopyDisabled;

fn disabled(call: &str, which: fn(&AsyncCopyDisabled) -> bool) -> c_int {
    value_call(call, 0, || {
        Ok(which(&ffi::runtime()?.config.async_copy_disabled) as c_int)
    })
}

/// `starpu_asynchronous_copy_disabled`: 1 when every asynchronous copy is disabled.
#[no_mangle]
pub extern "C" fn starpu_asynchronous_copy_disabled() -> c_int {
    disabled("starpu_asynchronous_copy_disabled", |d| d.all)
}

/// `starpu_asynchronous_cuda_copy_disabled`: 1 when copies to and from CUDA devices are
/// synchronous.
#[no_mangle]
pub extern "C" fn starpu_asynchronous_cuda_copy_disabled() -> c_int {
    disabled("starpu_asynchronous_cuda_copy_disabled", |d| d.cuda)
}

/// `starpu_asynchronous_opencl_copy_disabled`: 1 when copies to and from OpenCL devices
/// are synchronous.
#[no_mangle]
pub extern "C" fn starpu_asynchronous_opencl_copy_disabled() -> c_int {
    disabled("starpu_asynchronous_opencl_copy_disabled", |d| d.opencl)
}
