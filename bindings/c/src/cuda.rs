//! StarPU's CUDA C API (`starpu_cuda.h`, `starpu_cublas.h`, `starpu_cublas_v2.h`,
//! `starpu_cusolver.h` of StarPU 1.4) over the core's CUDA driver.
//!
//! The calls with CUDA types in their signatures (`cudaStream_t`, `cublasHandle_t`...)
//! are declared by the hand-written headers, and only where the library was built with
//! CUDA's headers present (`STARPU_USE_CUDA` in starpu_config.h), as in StarPU; the
//! symbols are always there, answering "no device" without one. One difference with
//! StarPU: `STARPU_CUDA_REPORT_ERROR` (and the cuBLAS / cuSOLVER ones) inside a task's
//! kernel fails that task (its wait reports it) instead of aborting the process; elsewhere
//! it aborts, as in StarPU.
//!
//! The GPU path was written on machines without a GPU: `scripts/gpu-check.sh` runs it.

use crate::ffi::{self, int_call, value_call};
use libc::{c_char, c_int, c_uint, c_void, size_t};
use starpu_core::worker::WorkerKind;
use starpu_core::Error;
use std::cell::Cell;

/// `starpu_cuda_worker_get_count`.
#[no_mangle]
pub extern "C" fn starpu_cuda_worker_get_count() -> c_uint {
    ffi::runtime().map_or(0, |rt| {
        rt.worker_ids(Some(WorkerKind::Cuda)).len() as c_uint
    })
}

thread_local! {
    /// The status a CUDA kernel reported on this thread (`STARPU_CUDA_REPORT_ERROR`).
    static KERNEL_FAILURE: Cell<Option<(&'static str, c_int)>> = const { Cell::new(None) };
}

/// The failure the CUDA kernel that just ran on this thread reported (cleared): what
/// failed its task.
pub(crate) fn take_kernel_failure() -> starpu_core::task::KernelResult {
    match KERNEL_FAILURE.with(|f| f.take()) {
        None => Ok(()),
        Some((lib, status)) => Err(format!(
            "the CUDA kernel reported {lib} error {status} ({})",
            status_text(lib, status)
        )
        .into()),
    }
}

fn status_text(lib: &str, status: c_int) -> String {
    match lib {
        "CUDA" => cuda_error_text(status),
        "cuBLAS" => cublas_status(status).into(),
        _ => cusolver_status(status).into(),
    }
}

#[cfg(feature = "cuda")]
fn cuda_error_text(status: c_int) -> String {
    starpu_core::drivers::cuda::raw::runtime_error_string(status)
}

#[cfg(not(feature = "cuda"))]
fn cuda_error_text(status: c_int) -> String {
    format!("CUDA error {status}")
}

/// cuBLAS's name for a status (`cublasStatus_t`).
fn cublas_status(status: c_int) -> &'static str {
    match status {
        0 => "CUBLAS_STATUS_SUCCESS",
        1 => "CUBLAS_STATUS_NOT_INITIALIZED",
        3 => "CUBLAS_STATUS_ALLOC_FAILED",
        7 => "CUBLAS_STATUS_INVALID_VALUE",
        8 => "CUBLAS_STATUS_ARCH_MISMATCH",
        11 => "CUBLAS_STATUS_MAPPING_ERROR",
        13 => "CUBLAS_STATUS_EXECUTION_FAILED",
        14 => "CUBLAS_STATUS_INTERNAL_ERROR",
        15 => "CUBLAS_STATUS_NOT_SUPPORTED",
        16 => "CUBLAS_STATUS_LICENSE_ERROR",
        _ => "unknown cuBLAS status",
    }
}

/// cuSOLVER's name for a status (`cusolverStatus_t`).
fn cusolver_status(status: c_int) -> &'static str {
    match status {
        0 => "CUSOLVER_STATUS_SUCCESS",
        1 => "CUSOLVER_STATUS_NOT_INITIALIZED",
        2 => "CUSOLVER_STATUS_ALLOC_FAILED",
        3 => "CUSOLVER_STATUS_INVALID_VALUE",
        4 => "CUSOLVER_STATUS_ARCH_MISMATCH",
        5 => "CUSOLVER_STATUS_MAPPING_ERROR",
        6 => "CUSOLVER_STATUS_EXECUTION_FAILED",
        7 => "CUSOLVER_STATUS_INTERNAL_ERROR",
        8 => "CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED",
        9 => "CUSOLVER_STATUS_NOT_SUPPORTED",
        _ => "unknown cuSOLVER status",
    }
}

/// StarPU's report of a failed CUDA-library call: the message, then (in a task's kernel
/// on a CUDA worker) the task fails when the kernel returns, or (elsewhere) the process
/// aborts, as in StarPU.
unsafe fn report(
    lib: &'static str,
    func: *const c_char,
    file: *const c_char,
    line: c_int,
    status: c_int,
) {
    eprintln!(
        "[starpu] oops in {} ({}:{}): {lib} error {status}: {}",
        ffi::string(func).unwrap_or_default(),
        ffi::string(file).unwrap_or_default(),
        line,
        status_text(lib, status)
    );
    if !in_cuda_kernel() {
        std::process::abort();
    }
    KERNEL_FAILURE.with(|f| f.set(Some((lib, status))));
}

/// Whether the calling thread runs a task's kernel on a CUDA worker (where a failure
/// report fails that task: `c_cuda_kernel` reads it when the kernel returns).
fn in_cuda_kernel() -> bool {
    #[cfg(feature = "cuda")]
    return starpu_core::drivers::cuda::current().is_some()
        && starpu_core::task::current_task().is_some();
    #[cfg(not(feature = "cuda"))]
    false
}

/// `starpu_cuda_report_error` (`STARPU_CUDA_REPORT_ERROR`).
///
/// # Safety
/// `func` and `file` are NULL or C strings.
/// cbindgen:ignore
#[no_mangle]
pub unsafe extern "C" fn starpu_cuda_report_error(
    func: *const c_char,
    file: *const c_char,
    line: c_int,
    status: c_int,
) {
    report("CUDA", func, file, line, status)
}

/// `starpu_cublas_report_error` (`STARPU_CUBLAS_REPORT_ERROR`).
///
/// # Safety
/// `func` and `file` are NULL or C strings.
/// cbindgen:ignore
#[no_mangle]
pub unsafe extern "C" fn starpu_cublas_report_error(
    func: *const c_char,
    file: *const c_char,
    line: c_int,
    status: c_int,
) {
    report("cuBLAS", func, file, line, status)
}

/// `starpu_cusolver_report_error` (`STARPU_CUSOLVER_REPORT_ERROR`).
///
/// # Safety
/// `func` and `file` are NULL or C strings.
/// cbindgen:ignore
#[no_mangle]
pub unsafe extern "C" fn starpu_cusolver_report_error(
    func: *const c_char,
    file: *const c_char,
    line: c_int,
    status: c_int,
) {
    report("cuSOLVER", func, file, line, status)
}

/// `starpu_cuda_get_local_stream`: the calling CUDA worker's stream (`cudaStream_t`);
/// NULL elsewhere.
/// cbindgen:ignore
#[no_mangle]
pub extern "C" fn starpu_cuda_get_local_stream() -> *mut c_void {
    #[cfg(feature = "cuda")]
    if let Some(w) = starpu_core::drivers::cuda::current() {
        return w.stream_raw();
    }
    std::ptr::null_mut()
}

/// `starpu_cuda_get_device_properties`: the `struct cudaDeviceProp` of CUDA worker
/// `workerid`'s device; NULL for another worker or without CUDA's runtime library.
/// cbindgen:ignore
#[no_mangle]
pub extern "C" fn starpu_cuda_get_device_properties(workerid: c_uint) -> *const c_void {
    value_call(
        "starpu_cuda_get_device_properties",
        std::ptr::null(),
        || {
            let rt = ffi::runtime()?;
            let w = rt
                .worker(workerid as usize)
                .filter(|w| w.kind == WorkerKind::Cuda)
                .ok_or_else(|| Error::invalid(format!("worker {workerid} is not a CUDA worker")))?;
            device_properties(&rt, w.devid)
        },
    )
}

#[cfg(feature = "cuda")]
fn device_properties(
    rt: &starpu_core::Runtime,
    devid: usize,
) -> starpu_core::Result<*const c_void> {
    let d = rt
        .devices()
        .cuda
        .get(devid)
        .ok_or_else(|| Error::no_device(format!("no CUDA device {devid}")))?;
    starpu_core::drivers::cuda::raw::device_properties(d.ordinal)
        .ok_or_else(|| Error::no_device("CUDA's runtime library (libcudart) cannot be loaded"))
}

#[cfg(not(feature = "cuda"))]
fn device_properties(_: &starpu_core::Runtime, _: usize) -> starpu_core::Result<*const c_void> {
    Err(Error::no_device("this library is built without CUDA"))
}

/// `starpu_cuda_set_device`: makes CUDA device `devid` current on the calling thread.
/// cbindgen:ignore
#[no_mangle]
pub extern "C" fn starpu_cuda_set_device(devid: c_uint) {
    let _ = int_call("starpu_cuda_set_device", || {
        #[cfg(feature = "cuda")]
        return starpu_core::drivers::cuda::raw::set_device(devid as usize);
        #[cfg(not(feature = "cuda"))]
        Err(Error::no_device(format!(
            "no CUDA device {devid}: built without CUDA"
        )))
    });
}

/// A region copy: `Ok(true)` when it was queued on `stream`, `Ok(false)` when it is over.
fn copy_region(
    src: usize,
    dst: usize,
    region: starpu_core::memory::driver::Region,
    stream: *mut c_void,
) -> starpu_core::Result<bool> {
    #[cfg(feature = "cuda")]
    // SAFETY: the caller gives buffers valid for the region (StarPU's contract).
    return unsafe { starpu_core::drivers::cuda::raw::copy(src, dst, region, stream) };
    #[cfg(not(feature = "cuda"))]
    {
        let _ = (src, dst, region, stream);
        Err(Error::no_device("this library is built without CUDA"))
    }
}

/// StarPU's answer for a copy: `-EAGAIN` once queued on the stream, 0 once done.
fn copy_answer(call: &str, r: starpu_core::Result<bool>) -> c_int {
    match r {
        Ok(true) => -libc::EAGAIN,
        Ok(false) => 0,
        Err(e) => {
            ffi::report(call, &e);
            -e.errno()
        }
    }
}

/// `starpu_cuda_copy_async_sync`: copies `ssize` bytes (host or device addresses; the
/// nodes and `kind` are not needed with unified addressing): queued on `stream` when it
/// is not NULL (`-EAGAIN`), else done before returning (0).
/// cbindgen:ignore
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn starpu_cuda_copy_async_sync(
    src_ptr: *mut c_void,
    _src_node: c_uint,
    dst_ptr: *mut c_void,
    _dst_node: c_uint,
    ssize: size_t,
    stream: *mut c_void,
    _kind: c_int,
) -> c_int {
    let region = starpu_core::memory::driver::Region {
        blocksize: ssize,
        numblocks: 1,
        ld_src: ssize,
        ld_dst: ssize,
    };
    copy_call(
        "starpu_cuda_copy_async_sync",
        src_ptr,
        dst_ptr,
        region,
        1,
        0,
        0,
        stream,
    )
}

/// A copy call: `groups` copies of `region`, `ld2_src` / `ld2_dst` bytes apart.
#[allow(clippy::too_many_arguments)]
fn copy_call(
    call: &str,
    src: *mut c_void,
    dst: *mut c_void,
    region: starpu_core::memory::driver::Region,
    groups: usize,
    ld2_src: usize,
    ld2_dst: usize,
    stream: *mut c_void,
) -> c_int {
    ffi::guard(call, -libc::EINVAL, || {
        let mut queued = Ok(false);
        for i in 0..groups {
            let (s, d) = (src as usize + i * ld2_src, dst as usize + i * ld2_dst);
            queued = copy_region(s, d, region, stream);
            if queued.is_err() {
                break;
            }
        }
        copy_answer(call, queued)
    })
}

/// `starpu_cuda_copy2d_async_sync`: `numblocks` blocks of `blocksize` bytes, `ld_src` and
/// `ld_dst` bytes apart.
/// cbindgen:ignore
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn starpu_cuda_copy2d_async_sync(
    src_ptr: *mut c_void,
    _src_node: c_uint,
    dst_ptr: *mut c_void,
    _dst_node: c_uint,
    blocksize: size_t,
    numblocks: size_t,
    ld_src: size_t,
    ld_dst: size_t,
    stream: *mut c_void,
    _kind: c_int,
) -> c_int {
    let region = starpu_core::memory::driver::Region {
        blocksize,
        numblocks,
        ld_src,
        ld_dst,
    };
    copy_call(
        "starpu_cuda_copy2d_async_sync",
        src_ptr,
        dst_ptr,
        region,
        1,
        0,
        0,
        stream,
    )
}

/// `starpu_cuda_copy3d_async_sync`: `numblocks_2` groups, `ld2_src` / `ld2_dst` bytes
/// apart, of `numblocks_1` blocks of `blocksize` bytes, `ld1_src` / `ld1_dst` apart.
/// cbindgen:ignore
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn starpu_cuda_copy3d_async_sync(
    src_ptr: *mut c_void,
    _src_node: c_uint,
    dst_ptr: *mut c_void,
    _dst_node: c_uint,
    blocksize: size_t,
    numblocks_1: size_t,
    ld1_src: size_t,
    ld1_dst: size_t,
    numblocks_2: size_t,
    ld2_src: size_t,
    ld2_dst: size_t,
    stream: *mut c_void,
    _kind: c_int,
) -> c_int {
    let region = starpu_core::memory::driver::Region {
        blocksize,
        numblocks: numblocks_1,
        ld_src: ld1_src,
        ld_dst: ld1_dst,
    };
    let call = "starpu_cuda_copy3d_async_sync";
    copy_call(
        call,
        src_ptr,
        dst_ptr,
        region,
        numblocks_2,
        ld2_src,
        ld2_dst,
        stream,
    )
}

/// Runs `f` on every CUDA worker (on its thread, its device current) and waits.
fn on_cuda_workers(call: &str, f: fn() -> starpu_core::Result<*mut c_void>) {
    let _ = int_call(call, || {
        let rt = ffi::runtime()?;
        if rt.worker_ids(Some(WorkerKind::Cuda)).is_empty() {
            return Ok(());
        }
        let failed = std::sync::Arc::new(std::sync::Mutex::new(None));
        let record = failed.clone();
        rt.execute_on_workers_of(
            WorkerKind::Cuda.where_bit(),
            std::sync::Arc::new(move |_| {
                if let Err(e) = f() {
                    *record.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
                }
            }),
        )?;
        let e = failed.lock().unwrap_or_else(|p| p.into_inner()).take();
        e.map_or(Ok(()), Err)
    });
}

#[cfg(feature = "cuda")]
fn cublas_handle() -> starpu_core::Result<*mut c_void> {
    starpu_core::drivers::cuda::libs::cublas_handle()
}

#[cfg(feature = "cuda")]
fn cusolver_handle() -> starpu_core::Result<*mut c_void> {
    starpu_core::drivers::cuda::libs::cusolver_handle()
}

#[cfg(not(feature = "cuda"))]
fn cublas_handle() -> starpu_core::Result<*mut c_void> {
    Err(Error::no_device("this library is built without CUDA"))
}

#[cfg(not(feature = "cuda"))]
fn cusolver_handle() -> starpu_core::Result<*mut c_void> {
    cublas_handle()
}

/// `starpu_cublas_init`: creates the cuBLAS handle of every CUDA worker, on its stream
/// (nothing to do without CUDA workers).
#[no_mangle]
pub extern "C" fn starpu_cublas_init() {
    on_cuda_workers("starpu_cublas_init", cublas_handle);
}

/// `starpu_cublas_set_stream`: each CUDA worker's handle is bound to its stream when it
/// is created; nothing is left to do.
#[no_mangle]
pub extern "C" fn starpu_cublas_set_stream() {}

/// `starpu_cublas_shutdown`: the handles go when their workers stop (at
/// `starpu_shutdown`).
#[no_mangle]
pub extern "C" fn starpu_cublas_shutdown() {}

/// `starpu_cusolver_init`: creates the cuSOLVER dense handle of every CUDA worker.
#[no_mangle]
pub extern "C" fn starpu_cusolver_init() {
    on_cuda_workers("starpu_cusolver_init", cusolver_handle);
}

/// `starpu_cusolver_shutdown`: the handles go when their workers stop.
#[no_mangle]
pub extern "C" fn starpu_cusolver_shutdown() {}

/// `starpu_cublas_get_local_handle`: the calling CUDA worker's `cublasHandle_t`, on its
/// stream (created on first use); NULL elsewhere.
/// cbindgen:ignore
#[no_mangle]
pub extern "C" fn starpu_cublas_get_local_handle() -> *mut c_void {
    value_call(
        "starpu_cublas_get_local_handle",
        std::ptr::null_mut(),
        cublas_handle,
    )
}

/// `starpu_cusolverDn_get_local_handle`: the calling CUDA worker's `cusolverDnHandle_t`,
/// on its stream (created on first use); NULL elsewhere.
/// cbindgen:ignore
#[no_mangle]
pub extern "C" fn starpu_cusolverDn_get_local_handle() -> *mut c_void {
    value_call(
        "starpu_cusolverDn_get_local_handle",
        std::ptr::null_mut(),
        cusolver_handle,
    )
}

/// `starpu_cusolverSp_get_local_handle`: not provided (NULL, with a message): the
/// sparse and refactorization handles are not made by this library.
/// cbindgen:ignore
#[no_mangle]
pub extern "C" fn starpu_cusolverSp_get_local_handle() -> *mut c_void {
    value_call(
        "starpu_cusolverSp_get_local_handle",
        std::ptr::null_mut(),
        || {
            Err(Error::unsupported(
                "cuSOLVER sparse handles are not provided",
            ))
        },
    )
}

/// `starpu_cusolverRf_get_local_handle`: not provided (NULL, with a message).
/// cbindgen:ignore
#[no_mangle]
pub extern "C" fn starpu_cusolverRf_get_local_handle() -> *mut c_void {
    value_call(
        "starpu_cusolverRf_get_local_handle",
        std::ptr::null_mut(),
        || {
            Err(Error::unsupported(
                "cuSOLVER refactorization handles are not provided",
            ))
        },
    )
}
