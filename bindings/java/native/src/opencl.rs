//! OpenCL implementations of Java codelets: `Codelet.runOpenCL(OpenCLCall)` runs on an
//! OpenCL worker, and the `OpenCLCall` it gets asks this module for the task's buffers on
//! the device and launches kernels of `opencl.Program`s (OpenCL C source) on them, through
//! the core's kernel API (`KernelCall::opencl`). Java never holds a `cl_mem`: a kernel
//! argument names a buffer by its index, resolved here against the running call.
//!
//! What it shares with the CUDA implementations (the running call, buffers, kernel
//! arguments) is in `device_call.rs`.

use crate::device_call::{self, Arg, JavaEntry};
use crate::natives::{check, fail, ints, long_array, longs, native, string};
use jni::objects::{JIntArray, JLongArray, JString};
use jni::sys::{jint, jlong};
use starpu_core::drivers::opencl::{program::read_source, Program};
use starpu_core::task::KernelResult;
use starpu_core::{Error, KernelCall};

/// The call an `OpenCLCall` names, if this thread is running it.
fn running<'a>(address: jlong) -> Result<&'a KernelCall<'a>, Error> {
    device_call::running(address, "OpenCLCall", "runOpenCL")
}

/// The OpenCL implementation of every Java codelet that has one: calls
/// `Invocation.runOpenCL` with a new `OpenCLCall` for this call.
pub(crate) fn java_opencl_kernel(call: &KernelCall) -> KernelResult {
    device_call::run_java(call, |ids| JavaEntry {
        class: ids.opencl_call_class,
        new: ids.opencl_call_new,
        run: ids.invocation_run_opencl,
        what: "the Java OpenCL codelet",
    })
}

native!(Java_fr_labri_hpccloud_starpu_internal_Native_programCreate(env,
    text: JString<'local>, options: JString<'local>, file: jni::sys::jboolean) -> jlong {
    let (Some(text), options) = (string(env, &text)?, string(env, &options)?) else {
        return fail(env, &Error::invalid("an OpenCL program needs its source (or file name)"));
    };
    let options = options.unwrap_or_default();
    // A file is found now, as StarPU's starpu_opencl_load_opencl_from_file does (as given,
    // then under STARPU_OPENCL_PROGRAM_DIR; its directory joins the include path).
    let (source, options) = if file {
        check(env, read_source(&text, &options))?
    } else {
        (text, options)
    };
    Ok(device_call::own_program(Program::from_source(source).with_options(options)))
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_programFree(_env, p: jlong) -> () {
    // SAFETY: made by programCreate; the Java object's cleaner frees it once.
    unsafe { device_call::free_program::<Program>(p) };
    Ok(())
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_openclDevice(env, call: jlong) -> jint {
    let c = check(env, running(call))?;
    let cl = check(env, c.opencl())?;
    Ok(cl.devid() as jint)
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_openclDeviceName(env, call: jlong) -> JString<'local> {
    let c = check(env, running(call))?;
    let name = check(env, c.opencl())?.device().name.clone();
    env.new_string(name)
});

/// Where buffer `i` of `call` lies on the device: `BUFFER_*` entries, in elements.
fn buffer_shape(call: &KernelCall, i: usize) -> Result<[i64; 5], Error> {
    let b = call.opencl()?.buffer(i)?;
    device_call::buffer_entries(call, i, b.first(), b.elemsize, "OpenCL")
}

native!(Java_fr_labri_hpccloud_starpu_internal_Native_openclBuffer(env, call: jlong, i: jint) -> JLongArray<'local> {
    let c = check(env, running(call))?;
    let i = check(env, device_call::buffer_index(c, i.into()))?;
    let shape = check(env, buffer_shape(c, i))?;
    long_array(env, &shape)
});

/// Builds kernel `name` of `program` on the device of `call`, sets its arguments and runs
/// it over `global` (in work groups of `local`).
fn launch(
    call: &KernelCall,
    program: &Program,
    name: &str,
    args: &[Arg],
    global: &[usize],
    local: Option<&[usize]>,
) -> Result<(), Error> {
    let cl = call.opencl()?;
    let mut k = cl.kernel(program, name)?;
    for a in args {
        match *a {
            Arg::Buffer(i) => k.arg_buffer(&cl.buffer(i)?)?,
            Arg::I8(v) => k.arg(v)?,
            Arg::I16(v) => k.arg(v)?,
            Arg::I32(v) => k.arg(v)?,
            Arg::I64(v) => k.arg(v)?,
            Arg::F32(v) => k.arg(v)?,
            Arg::F64(v) => k.arg(v)?,
            Arg::Local(bytes) => k.arg_local(bytes)?,
        };
    }
    k.launch(global, local)
}

native!(Java_fr_labri_hpccloud_starpu_internal_Native_openclLaunch(env,
    call: jlong, program: jlong, name: JString<'local>, kinds: JIntArray<'local>,
    values: JLongArray<'local>, global: JLongArray<'local>, local: JLongArray<'local>) -> () {
    let c = check(env, running(call))?;
    // SAFETY: a live program of an opencl.Program object (an argument of the Java caller).
    let p = check(env, unsafe { device_call::program_at::<Program>(program, "OpenCL") })?;
    let Some(name) = string(env, &name)? else {
        return fail(env, &Error::invalid("a kernel needs a name"));
    };
    let kinds = ints(env, &kinds)?.unwrap_or_default();
    let args = check(env, device_call::args(c, &kinds, &longs(env, &values)?))?;
    let global = check(env, device_call::sizes("global", &longs(env, &global)?))?;
    let local = if local.is_null() {
        None
    } else {
        Some(check(env, device_call::sizes("local", &longs(env, &local)?))?)
    };
    check(env, launch(c, &p, &name, &args, &global, local.as_deref()))
});
