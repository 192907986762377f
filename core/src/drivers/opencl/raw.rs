//! OpenCL operations on raw objects (`cl_mem`, `cl_event` as pointers), for StarPU's
//! OpenCL C API (`starpu_opencl_copy_*`, `starpu_opencl_allocate_memory`...): errors are
//! the OpenCL status codes the C API returns.

use super::device::Device;
use crate::memory::driver::{Direction, Region};
use crate::memory::Loc;
use cl3::types::cl_event;
use std::ffi::c_void;

/// An OpenCL call's result: its status code on failure.
pub type Status<T> = std::result::Result<T, i32>;

/// A new buffer of `size` bytes with OpenCL `flags` on `device`.
pub fn create_buffer(device: &Device, size: usize, flags: u64) -> Status<*mut c_void> {
    let ctx = device.opened_status()?.context;
    // SAFETY: no host pointer is given.
    unsafe { cl3::memory::create_buffer(ctx, flags, size.max(1), std::ptr::null_mut()) }
}

/// Finishes `ev` if `blocking`, else hands it out; null when nothing is to be waited for.
fn settle(ev: cl_event, blocking: bool) -> Status<*mut c_void> {
    if blocking {
        let r = cl3::event::wait_for_events(&[ev]);
        release_event(ev);
        r.map(|()| std::ptr::null_mut())
    } else {
        Ok(ev)
    }
}

/// Copies `size` bytes from `src` to `dst` going in `dir` (the RAM side an address, the
/// device side a buffer and offset), on that direction's transfer queue; waits unless
/// `blocking` is false (the event is then returned).
///
/// # Safety
/// The RAM side holds `size` bytes (until the event completes), the buffers belong to the
/// device and hold their ranges.
pub unsafe fn copy(
    device: &Device,
    dir: Direction,
    src: Loc,
    dst: Loc,
    size: usize,
    blocking: bool,
) -> Status<*mut c_void> {
    let ev = device
        .enqueue_copy(dir, src, dst, Region::contiguous(size))
        .map_err(|(e, _)| e)?;
    settle(ev, blocking)
}

/// Releases an event these functions returned.
pub fn release_event(ev: *mut c_void) {
    if !ev.is_null() {
        // SAFETY: the event came from an enqueue call; the caller releases it once.
        unsafe {
            let _ = cl3::event::release_event(ev as cl_event);
        }
    }
}

/// Waits for an event.
pub fn wait_event(ev: *mut c_void) -> Status<()> {
    cl3::event::wait_for_events(&[ev as cl_event])
}

/// Nanoseconds from start to end of a finished command (queues are made with profiling).
pub fn event_duration_ns(ev: *mut c_void) -> Option<u64> {
    let at = |p: u32| {
        cl3::event::get_event_profiling_data(ev as cl_event, p)
            .ok()
            .and_then(|b| {
                b.get(..8)
                    .map(|s| u64::from_ne_bytes(s.try_into().unwrap_or([0; 8])))
            })
    };
    let (s, e) = (
        at(super::cl::CL_PROFILING_COMMAND_START)?,
        at(super::cl::CL_PROFILING_COMMAND_END)?,
    );
    Some(e.saturating_sub(s))
}

/// Sets argument `index` of a kernel (`clSetKernelArg`).
///
/// # Safety
/// `value` points to `size` readable bytes (or is NULL for a local-memory argument).
pub unsafe fn set_kernel_arg(
    kernel: *mut c_void,
    index: u32,
    size: usize,
    value: *const c_void,
) -> Status<()> {
    cl3::kernel::set_kernel_arg(kernel as cl3::types::cl_kernel, index, size, value)
}
