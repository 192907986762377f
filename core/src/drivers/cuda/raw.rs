//! CUDA operations for StarPU's CUDA C API (`starpu_cuda_copy_async_sync` and its 2D and
//! 3D forms, `starpu_cuda_get_device_properties`, `starpu_cuda_set_device`, error
//! texts of the runtime API): raw pointers and status codes in, core errors out.

use super::error::check;
use super::{all, current};
use crate::error::{Error, Result};
use crate::memory::driver::Region;
use cudarc::driver::sys;
use std::ffi::{c_char, c_int, c_void};
use std::sync::OnceLock;

/// Binds the context copies of the calling thread go through: its worker's device, else
/// the first device (unified addressing lets any context copy between any two buffers).
fn bind_for_copy() -> Result<()> {
    if let Some(w) = current() {
        return w.device.bind();
    }
    match all().first() {
        Some(d) => d.bind(),
        None => Err(Error::no_device("no CUDA device")),
    }
}

/// Copies `r` from `src` to `dst` (host or device addresses). With a stream the copy is
/// queued on it and `Ok(true)` comes back at once; without one (null) the copy is over
/// when `Ok(false)` comes back.
///
/// # Safety
/// Both sides are valid for `r` until the copy is over; the stream, if any, belongs to a
/// context of this process.
pub unsafe fn copy(src: usize, dst: usize, r: Region, stream: *mut c_void) -> Result<bool> {
    bind_for_copy()?;
    let device = match current() {
        Some(w) => w.device.clone(),
        None => all()
            .first()
            .cloned()
            .ok_or_else(|| Error::no_device("no CUDA device"))?,
    };
    let s = stream as sys::CUstream;
    device.queue_copy(src, dst, r, s)?;
    if stream.is_null() {
        check(sys::cuStreamSynchronize(s), "a synchronous CUDA copy")?;
        return Ok(false);
    }
    Ok(true)
}

/// CUDA's runtime library (`libcudart`), if it loads.
fn cudart() -> Option<&'static libloading::Library> {
    static LIB: OnceLock<Option<libloading::Library>> = OnceLock::new();
    LIB.get_or_init(|| {
        [
            "libcudart.so.12",
            "libcudart.so",
            "libcudart.so.11.0",
            "libcudart.so.13",
        ]
        .iter()
        // SAFETY: loading CUDA's runtime library runs its initialisers only.
        .find_map(|&n| unsafe { libloading::Library::new(n) }.ok())
    })
    .as_ref()
}

/// The runtime API's text for `status` (`cudaGetErrorString`), or a plain one without
/// the runtime library.
pub fn runtime_error_string(status: c_int) -> String {
    if status == 0 {
        return "no error".into();
    }
    let text = cudart().and_then(|lib| {
        // SAFETY: cudaGetErrorString(int) returns a static string, or NULL.
        unsafe {
            let f = lib
                .get::<unsafe extern "C" fn(c_int) -> *const c_char>(b"cudaGetErrorString\0")
                .ok()?;
            let p = f(status);
            (!p.is_null()).then(|| std::ffi::CStr::from_ptr(p).to_string_lossy().into_owned())
        }
    });
    text.unwrap_or_else(|| format!("CUDA error {status}"))
}

/// Bytes kept for one `struct cudaDeviceProp` (1032 in CUDA 12; room for growth).
const PROP_BYTES: usize = 4096;

/// `struct cudaDeviceProp` of device `ordinal`, as `cudaGetDeviceProperties` fills it
/// (kept for the process); `None` without the runtime library or the device.
pub fn device_properties(ordinal: usize) -> Option<*const c_void> {
    static PROPS: OnceLock<Vec<Option<Box<[u64]>>>> = OnceLock::new();
    let props = PROPS.get_or_init(|| {
        all()
            .iter()
            .map(|d| {
                let lib = cudart()?;
                let mut buf = vec![0u64; PROP_BYTES / 8].into_boxed_slice();
                // SAFETY: cudaGetDeviceProperties_v2 writes one cudaDeviceProp, smaller than
                // the buffer.
                unsafe {
                    type F = unsafe extern "C" fn(*mut c_void, c_int) -> c_int;
                    let f = lib
                        .get::<F>(b"cudaGetDeviceProperties_v2\0")
                        .or_else(|_| lib.get::<F>(b"cudaGetDeviceProperties\0"))
                        .ok()?;
                    (f(buf.as_mut_ptr() as *mut c_void, d.ordinal as c_int) == 0).then_some(buf)
                }
            })
            .collect()
    });
    let i = all().iter().position(|d| d.ordinal == ordinal)?;
    props.get(i)?.as_ref().map(|b| b.as_ptr() as *const c_void)
}

/// Makes device `ordinal`'s context current on the calling thread (`cudaSetDevice`).
pub fn set_device(ordinal: usize) -> Result<()> {
    all()
        .iter()
        .find(|d| d.ordinal == ordinal)
        .ok_or_else(|| Error::no_device(format!("no CUDA device {ordinal}")))?
        .bind()
}
