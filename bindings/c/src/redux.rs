//! Reduction methods (`starpu_data_set_reduction_methods[_with_args]`): the C codelets
//! become core codelets whose kernels call the C function with the argument given here
//! (StarPU calls them with that argument, or NULL, as `cl_arg`).

use crate::abi::*;
use crate::codelet::cpu_functions;
use crate::ffi::{handle, int_call};
use libc::c_void;
use starpu_core::data::ReductionMethods;
use starpu_core::{AccessMode, Codelet, Error, KernelCall};
use std::ffi::CStr;
use std::sync::Arc;

/// The `cl_arg` a reduction kernel receives.
#[derive(Clone, Copy)]
struct Arg(*mut c_void);
// SAFETY: the application hands the argument to StarPU to be used from any worker.
unsafe impl Send for Arg {}
unsafe impl Sync for Arg {}

/// A core codelet running `cl`'s first CPU implementation (and first CUDA and OpenCL
/// ones, for reductions on those workers) on `modes` with `arg`.
///
/// # Safety
/// `cl` is null or points to a live `struct starpu_codelet`.
unsafe fn method(
    what: &str,
    cl: *mut starpu_codelet,
    arg: *mut c_void,
    modes: &[AccessMode],
) -> starpu_core::Result<Arc<Codelet>> {
    let Some(c) = cl.as_ref() else {
        return Err(Error::invalid(format!("the {what} codelet is NULL")));
    };
    let cpu = cpu_functions(c).first().copied();
    let opencl = crate::codelet::opencl_functions(c).first().map(|&(f, _)| f);
    let cuda = crate::codelet::cuda_functions(c).first().map(|&(f, _)| f);
    if cpu.is_none() && opencl.is_none() && cuda.is_none() {
        return Err(Error::invalid(format!(
            "the {what} codelet has no CPU, CUDA or OpenCL implementation"
        )));
    }
    let name = if c.name.is_null() {
        what.to_string()
    } else {
        CStr::from_ptr(c.name).to_string_lossy().into_owned()
    };
    let arg = Arg(arg);
    let run = move |f: unsafe extern "C" fn(*mut *mut c_void, *mut c_void), call: &KernelCall| {
        let a = arg;
        // SAFETY: a C kernel over the interface descriptions of its buffers, with the
        // argument the application gave for it.
        unsafe { f(call.buffers().as_ptr() as *mut *mut c_void, a.0) };
    };
    let mut codelet = Codelet::new(name).modes(modes.iter().copied());
    if let Some(f) = cpu {
        codelet = codelet.cpu(move |call| {
            run(f, call);
            Ok(())
        });
    }
    if let Some(f) = cuda {
        codelet = codelet.cuda(move |call| {
            run(f, call);
            crate::cuda::take_kernel_failure()
        });
    }
    if let Some(f) = opencl {
        codelet = codelet.opencl(move |call| {
            run(f, call);
            crate::codelet::opencl_kernel_failure()
        });
    }
    Ok(Arc::new(codelet))
}

/// `starpu_data_set_reduction_methods`: `redux_cl` folds buffer 1 into buffer 0 (RW, R),
/// `init_cl` sets buffer 0 to the neutral element (W).
#[no_mangle]
pub unsafe extern "C" fn starpu_data_set_reduction_methods(
    h: starpu_data_handle_t,
    redux_cl: *mut starpu_codelet,
    init_cl: *mut starpu_codelet,
) {
    starpu_data_set_reduction_methods_with_args(
        h,
        redux_cl,
        std::ptr::null_mut(),
        init_cl,
        std::ptr::null_mut(),
    );
}

/// `starpu_data_set_reduction_methods_with_args`: the same, each codelet called with its
/// own `cl_arg`.
#[no_mangle]
pub unsafe extern "C" fn starpu_data_set_reduction_methods_with_args(
    h: starpu_data_handle_t,
    redux_cl: *mut starpu_codelet,
    redux_cl_arg: *mut c_void,
    init_cl: *mut starpu_codelet,
    init_cl_arg: *mut c_void,
) {
    let _ = int_call("starpu_data_set_reduction_methods", || {
        let h = handle(h)?;
        let redux = method(
            "reduction",
            redux_cl,
            redux_cl_arg,
            &[AccessMode::RW, AccessMode::R],
        )?;
        let init = method("initialisation", init_cl, init_cl_arg, &[AccessMode::W])?;
        h.set_reduction_methods(ReductionMethods { redux, init })
    });
}

/// `starpu_data_set_reduction_scratch`: the reduction codelet gets `scratch` as a third
/// buffer, in SCRATCH mode (a per-worker work area shaped like it).
#[no_mangle]
pub unsafe extern "C" fn starpu_data_set_reduction_scratch(
    h: starpu_data_handle_t,
    scratch: starpu_data_handle_t,
) {
    let _ = int_call("starpu_data_set_reduction_scratch", || {
        handle(h)?.set_reduction_scratch(&handle(scratch)?)
    });
}
