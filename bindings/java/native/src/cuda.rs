//! CUDA implementations of Java codelets: `Codelet.runCUDA(CudaCall)` runs on a CUDA
//! worker, and the `CudaCall` it gets asks this module for the task's buffers on the GPU
//! and launches kernels of `cuda.Program`s (CUDA C compiled by NVRTC, or PTX) on the
//! worker's stream, through the core's kernel API (`KernelCall::cuda`). Java never holds
//! a device address: a kernel argument names a buffer by its index, resolved here
//! against the running call. The worker waits for its stream when `runCUDA` returns.
//!
//! What it shares with the OpenCL implementations (the running call, buffers, kernel
//! arguments) is in `device_call.rs`. Written without a GPU: without one there is no CUDA
//! worker and a CUDA-only codelet's tasks are refused (`NoDeviceException`);
//! `scripts/gpu-check.sh` runs the GPU tests.

use crate::device_call::{self, Arg, JavaEntry};
use crate::natives::{check, fail, ints, long_array, longs, native, string};
use jni::objects::{JIntArray, JLongArray, JString};
use jni::sys::{jboolean, jint, jlong};
use starpu_core::drivers::cuda::Module;
use starpu_core::task::KernelResult;
use starpu_core::{Error, KernelCall};

/// The call a `CudaCall` names, if this thread is running it.
fn running<'a>(address: jlong) -> Result<&'a KernelCall<'a>, Error> {
    device_call::running(address, "CudaCall", "runCUDA")
}

/// The CUDA implementation of every Java codelet that has one: calls `Invocation.runCUDA`
/// with a new `CudaCall` for this call.
pub(crate) fn java_cuda_kernel(call: &KernelCall) -> KernelResult {
    device_call::run_java(call, |ids| JavaEntry {
        class: ids.cuda_call_class,
        new: ids.cuda_call_new,
        run: ids.invocation_run_cuda,
        what: "the Java CUDA codelet",
    })
}

native!(Java_fr_labri_hpccloud_starpu_internal_Native_cudaProgramCreate(env,
    text: JString<'local>, options: JString<'local>, ptx: jboolean) -> jlong {
    let (Some(text), options) = (string(env, &text)?, string(env, &options)?) else {
        return fail(env, &Error::invalid("a CUDA program needs its source (or PTX)"));
    };
    let module = if ptx {
        Module::from_ptx(text)
    } else {
        let options = options.unwrap_or_default();
        Module::from_source(text).with_options(options.split_whitespace())
    };
    Ok(device_call::own_program(module))
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_cudaProgramFree(_env, p: jlong) -> () {
    // SAFETY: made by cudaProgramCreate; the Java object's cleaner frees it once.
    unsafe { device_call::free_program::<Module>(p) };
    Ok(())
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_cudaDevice(env, call: jlong) -> jint {
    let c = check(env, running(call))?;
    Ok(check(env, c.cuda())?.devid() as jint)
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_cudaDeviceName(env, call: jlong) -> JString<'local> {
    let c = check(env, running(call))?;
    let name = check(env, c.cuda())?.device().name.clone();
    env.new_string(name)
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_cudaBuffer(env, call: jlong, i: jint) -> JLongArray<'local> {
    let c = check(env, running(call))?;
    let i = check(env, device_call::buffer_index(c, i.into()))?;
    // A CUDA kernel gets the address of the data's first element: it starts at 0.
    let b = check(env, c.cuda().and_then(|cuda| cuda.buffer(i)))?;
    let shape = check(env, device_call::buffer_entries(c, i, 0, b.elemsize, "CUDA"))?;
    long_array(env, &shape)
});

/// A launch geometry as CUDA takes it: 1 to 3 sizes, the missing ones 1.
fn dim3(what: &str, v: &[i64]) -> Result<(u32, u32, u32), Error> {
    if v.is_empty() || v.len() > 3 {
        return Err(Error::invalid(format!(
            "{what}: 1 to 3 sizes, not {}",
            v.len()
        )));
    }
    let s: Vec<u32> = device_call::sizes(what, v)?;
    let get = |i: usize| s.get(i).copied().unwrap_or(1);
    Ok((get(0), get(1), get(2)))
}

/// Queues kernel `name` of `module` on the worker's stream of `call`, with its arguments.
fn launch(
    call: &KernelCall,
    module: &Module,
    name: &str,
    args: &[Arg],
    (grid, block, shared): ((u32, u32, u32), (u32, u32, u32), u32),
) -> Result<(), Error> {
    let cuda = call.cuda()?;
    let mut l = cuda.launch(module, name)?;
    for (n, a) in args.iter().enumerate() {
        match *a {
            Arg::Buffer(i) => l.arg_buffer(&cuda.buffer(i)?),
            Arg::I8(v) => l.arg(v),
            Arg::I16(v) => l.arg(v),
            Arg::I32(v) => l.arg(v),
            Arg::I64(v) => l.arg(v),
            Arg::F32(v) => l.arg(v),
            Arg::F64(v) => l.arg(v),
            Arg::Local(_) => {
                return Err(Error::invalid(format!(
                    "kernel argument {n}: CUDA kernels have no __local arguments (give \
                     dynamic shared memory to launch instead)"
                )))
            }
        };
    }
    l.run(grid, block, shared)
}

native!(Java_fr_labri_hpccloud_starpu_internal_Native_cudaLaunch(env,
    call: jlong, program: jlong, name: JString<'local>, kinds: JIntArray<'local>,
    values: JLongArray<'local>, grid: JLongArray<'local>, block: JLongArray<'local>,
    shared: jint) -> () {
    let c = check(env, running(call))?;
    // SAFETY: a live module of a cuda.Program object (an argument of the Java caller).
    let m = check(env, unsafe { device_call::program_at::<Module>(program, "CUDA") })?;
    let Some(name) = string(env, &name)? else {
        return fail(env, &Error::invalid("a kernel needs a name"));
    };
    let kinds = ints(env, &kinds)?.unwrap_or_default();
    let args = check(env, device_call::args(c, &kinds, &longs(env, &values)?))?;
    let grid = check(env, dim3("grid", &longs(env, &grid)?))?;
    let block = check(env, dim3("block", &longs(env, &block)?))?;
    let Ok(shared) = u32::try_from(shared) else {
        return fail(env, &Error::invalid(format!("{shared} bytes of shared memory")));
    };
    check(env, launch(c, &m, &name, &args, (grid, block, shared)))
});
