//! cuBLAS and cuSOLVER handles, one per CUDA worker and bound to its stream (StarPU's
//! `starpu_cublas_get_local_handle`, `starpu_cusolverDn_get_local_handle`): created the
//! first time a worker asks (or when `starpu_cublas_init` asks every worker), destroyed
//! when the worker stops. The libraries load at run time; without them the handle is an
//! error saying which library is missing.

use super::{current, not_a_worker};
use crate::error::{Error, ErrorKind, Result};
use cudarc::{cublas, cusolver};
use std::cell::Cell;
use std::ffi::c_void;

/// A worker's handles (null until created).
#[derive(Default)]
pub(crate) struct Handles {
    cublas: Cell<usize>,
    cusolver: Cell<usize>,
}

impl Handles {
    /// Destroys the handles (the worker's context is current).
    pub(crate) fn destroy(&self) {
        // SAFETY: each handle was created by this worker and is destroyed once.
        unsafe {
            if let h @ 1.. = self.cublas.replace(0) {
                let _ = cublas::sys::cublasDestroy_v2(h as cublas::sys::cublasHandle_t);
            }
            if let h @ 1.. = self.cusolver.replace(0) {
                let _ = cusolver::sys::cusolverDnDestroy(h as cusolver::sys::cusolverDnHandle_t);
            }
        }
    }
}

fn missing(lib: &str) -> Error {
    Error::new(
        ErrorKind::NoDevice,
        format!("{lib} cannot be loaded (is the CUDA toolkit's library on LD_LIBRARY_PATH?)"),
    )
}

fn library_error(call: &str, status: u32) -> Error {
    Error::new(
        ErrorKind::TaskFailed,
        format!("{call} failed with status {status}"),
    )
}

/// The calling CUDA worker's cuBLAS handle, on its stream (created on first use).
pub fn cublas_handle() -> Result<*mut c_void> {
    let w = current().ok_or_else(|| not_a_worker("the cuBLAS handle"))?;
    if let h @ 1.. = w.libs.cublas.get() {
        return Ok(h as *mut c_void);
    }
    // SAFETY: only tries to load the library.
    if !unsafe { cublas::sys::is_culib_present() } {
        return Err(missing("libcublas"));
    }
    w.device.bind()?;
    let mut h: cublas::sys::cublasHandle_t = std::ptr::null_mut();
    use cublas::sys::cublasStatus_t::CUBLAS_STATUS_SUCCESS as OK;
    // SAFETY: the worker's context is current; the stream belongs to it.
    unsafe {
        let s = cublas::sys::cublasCreate_v2(&mut h);
        if s != OK {
            return Err(library_error("cublasCreate", s as u32));
        }
        let s = cublas::sys::cublasSetStream_v2(h, w.stream as cublas::sys::cudaStream_t);
        if s != OK {
            let _ = cublas::sys::cublasDestroy_v2(h);
            return Err(library_error("cublasSetStream", s as u32));
        }
    }
    w.libs.cublas.set(h as usize);
    Ok(h as *mut c_void)
}

/// The calling CUDA worker's cuSOLVER dense handle, on its stream (created on first use).
pub fn cusolver_handle() -> Result<*mut c_void> {
    let w = current().ok_or_else(|| not_a_worker("the cuSOLVER handle"))?;
    if let h @ 1.. = w.libs.cusolver.get() {
        return Ok(h as *mut c_void);
    }
    // SAFETY: only tries to load the library.
    if !unsafe { cusolver::sys::is_culib_present() } {
        return Err(missing("libcusolver"));
    }
    w.device.bind()?;
    let mut h: cusolver::sys::cusolverDnHandle_t = std::ptr::null_mut();
    use cusolver::sys::cusolverStatus_t::CUSOLVER_STATUS_SUCCESS as OK;
    // SAFETY: the worker's context is current; the stream belongs to it.
    unsafe {
        let s = cusolver::sys::cusolverDnCreate(&mut h);
        if s != OK {
            return Err(library_error("cusolverDnCreate", s as u32));
        }
        let s = cusolver::sys::cusolverDnSetStream(h, w.stream as cusolver::sys::cudaStream_t);
        if s != OK {
            let _ = cusolver::sys::cusolverDnDestroy(h);
            return Err(library_error("cusolverDnSetStream", s as u32));
        }
    }
    w.libs.cusolver.set(h as usize);
    Ok(h as *mut c_void)
}
