//! OpenCL implementations of Java codelets: `Codelet.runOpenCL(OpenCLCall)` runs on an
//! OpenCL worker, and the `OpenCLCall` it gets asks this module for the task's buffers on
//! the device and launches kernels of `opencl.Program`s (OpenCL C source) on them, through
//! the core's kernel API (`KernelCall::opencl`). Java never holds a `cl_mem`: a kernel
//! argument names a buffer by its index, resolved here against the running call.
//!
//! An `OpenCLCall` carries the address of its `KernelCall`, which lives only while the
//! kernel runs, on its worker's thread. Every native method here checks that address
//! against the call this thread is running, so that a call kept past its codelet, used
//! from another thread, or made up, is an error instead of a dangling pointer.

use crate::codelets::{failure, JavaTask};
use crate::jvm::{self, jni_raw};
use crate::natives::{check, fail, ints, long_array, longs, native, string};
use crate::protocol;
use jni::objects::{JIntArray, JLongArray, JString};
use jni::sys::{self, jint, jlong};
use starpu_core::drivers::opencl::{program::read_source, Program};
use starpu_core::task::{KernelError, KernelResult};
use starpu_core::{Error, KernelCall};
use std::cell::Cell;
use std::sync::Arc;

thread_local! {
    /// The address of the `KernelCall` whose Java OpenCL implementation this thread runs.
    static RUNNING: Cell<usize> = const { Cell::new(0) };
}

/// Marks `call` as the one this thread runs until dropped (and restores the previous one).
struct Running(usize);

impl Running {
    fn enter(call: &KernelCall) -> Running {
        Running(RUNNING.with(|r| r.replace(call as *const KernelCall as usize)))
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        RUNNING.with(|r| r.set(self.0));
    }
}

/// The call an `OpenCLCall` names, if this thread is running it.
fn running<'a>(address: jlong) -> Result<&'a KernelCall<'a>, Error> {
    let current = RUNNING.with(|r| r.get());
    if address == 0 || address as usize != current {
        return Err(Error::invalid(
            "this OpenCLCall is over (or used from another thread): use it inside \
             Codelet.runOpenCL only, on the worker that called it",
        ));
    }
    // SAFETY: the address is the call this thread is inside of (`java_opencl_kernel` set
    // it and clears it before the call ends), so the reference lives during this method.
    Ok(unsafe { &*(current as *const KernelCall<'a>) })
}

/// The OpenCL implementation of every Java codelet that has one: calls
/// `Invocation.runOpenCL` with a new `OpenCLCall` for this call.
pub(crate) fn java_opencl_kernel(call: &KernelCall) -> KernelResult {
    let task = call
        .payload::<JavaTask>()
        .ok_or_else(|| KernelError::from("a Java codelet ran without its Java task"))?;
    let ids = jvm::ids_ready().ok_or_else(|| KernelError::from("StarPU.init was not called"))?;
    let env = jvm::env().map_err(KernelError::from)?;
    let _running = Running::enter(call);
    // SAFETY: env is this thread's environment, the invocation a live global reference;
    // the constructor and method ids are those `jvm::ids` looked up, with these arguments.
    // Worker threads never return to Java, so the local reference is deleted by hand.
    unsafe {
        let args = [
            sys::jvalue {
                j: call as *const KernelCall as jlong,
            },
            sys::jvalue {
                l: task.invocation.raw(),
            },
        ];
        let c = jni_raw!(
            env,
            NewObjectA,
            ids.opencl_call_class,
            ids.opencl_call_new,
            args.as_ptr()
        );
        if !c.is_null() {
            let args = [sys::jvalue { l: c }];
            jni_raw!(
                env,
                CallVoidMethodA,
                task.invocation.raw(),
                ids.invocation_run_opencl,
                args.as_ptr()
            );
            jni_raw!(env, DeleteLocalRef, c);
        }
        if jni_raw!(env, ExceptionCheck) {
            return Err(failure(env, "the Java OpenCL codelet"));
        }
    }
    Ok(())
}

/// A program Java owns (`opencl.Program`): the core's, shared with the kernels being built.
type JavaProgram = Arc<Program>;

/// The program of a live `opencl.Program` object.
///
/// # Safety
/// `p` was returned by `programCreate` and not freed (the Java object keeps it alive).
unsafe fn program_at<'a>(p: jlong) -> Result<&'a JavaProgram, Error> {
    (p as *const JavaProgram)
        .as_ref()
        .ok_or_else(|| Error::invalid("no OpenCL program"))
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
    let p: JavaProgram = Arc::new(Program::from_source(source).with_options(options));
    Ok(Box::into_raw(Box::new(p)) as jlong)
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_programFree(_env, p: jlong) -> () {
    if p != 0 {
        // SAFETY: made by programCreate; the Java object's cleaner frees it once.
        drop(unsafe { Box::from_raw(p as *mut JavaProgram) });
    }
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
    let l = crate::data::Layout::of_buffer(call, i).ok_or_else(|| {
        Error::invalid(format!(
            "buffer {i}: only variables, vectors and matrices have an OpenCL form in Java"
        ))
    })?;
    let mut out = [0i64; 5];
    out[protocol::BUFFER_FIRST] = b.first() as i64;
    out[protocol::BUFFER_NX] = l.nx as i64;
    out[protocol::BUFFER_NY] = l.ny as i64;
    out[protocol::BUFFER_LD] = l.ld as i64;
    out[protocol::BUFFER_ELEMSIZE] = b.elemsize as i64;
    Ok(out)
}

native!(Java_fr_labri_hpccloud_starpu_internal_Native_openclBuffer(env, call: jlong, i: jint) -> JLongArray<'local> {
    let c = check(env, running(call))?;
    let Some(i) = usize::try_from(i).ok().filter(|&i| i < c.nbuffers()) else {
        return fail(env, &Error::invalid(format!(
            "the task has {} buffers: there is no buffer {i}", c.nbuffers())));
    };
    let shape = check(env, buffer_shape(c, i))?;
    long_array(env, &shape)
});

/// A size list of Java's (`long[]`) as OpenCL takes it.
fn sizes(what: &str, v: &[i64]) -> Result<Vec<usize>, Error> {
    v.iter()
        .map(|&n| usize::try_from(n).map_err(|_| Error::invalid(format!("{what} size {n}"))))
        .collect()
}

/// Builds kernel `name` of `program` on the device of `call`, sets its arguments (kinds
/// `ARG_*` with their values) and runs it over `global` (in work groups of `local`).
fn launch(
    call: &KernelCall,
    program: &Program,
    name: &str,
    kinds: &[i32],
    values: &[i64],
    global: &[usize],
    local: Option<&[usize]>,
) -> Result<(), Error> {
    if kinds.len() != values.len() {
        return Err(Error::invalid("kernel arguments: as many values as kinds"));
    }
    let cl = call.opencl()?;
    let mut k = cl.kernel(program, name)?;
    for (n, (&kind, &v)) in kinds.iter().zip(values).enumerate() {
        match kind {
            protocol::ARG_BUFFER => {
                let i = usize::try_from(v)
                    .ok()
                    .filter(|&i| i < call.nbuffers())
                    .ok_or_else(|| Error::invalid(format!("kernel argument {n}: no buffer {v}")))?;
                k.arg_buffer(&cl.buffer(i)?)?
            }
            // Java's numbers arrive as the bits of a long; each kind takes its own width.
            protocol::ARG_BYTE => k.arg(v as i8)?,
            protocol::ARG_SHORT => k.arg(v as i16)?,
            protocol::ARG_INT => k.arg(v as i32)?,
            protocol::ARG_LONG => k.arg(v)?,
            protocol::ARG_FLOAT => k.arg(f32::from_bits(v as u32))?,
            protocol::ARG_DOUBLE => k.arg(f64::from_bits(v as u64))?,
            protocol::ARG_LOCAL => {
                let bytes = usize::try_from(v).map_err(|_| {
                    Error::invalid(format!("kernel argument {n}: {v} bytes of local memory"))
                })?;
                k.arg_local(bytes)?
            }
            _ => return Err(Error::invalid(format!("kernel argument {n}: kind {kind}"))),
        };
    }
    k.launch(global, local)
}

native!(Java_fr_labri_hpccloud_starpu_internal_Native_openclLaunch(env,
    call: jlong, program: jlong, name: JString<'local>, kinds: JIntArray<'local>,
    values: JLongArray<'local>, global: JLongArray<'local>, local: JLongArray<'local>) -> () {
    let c = check(env, running(call))?;
    // SAFETY: a live program of an opencl.Program object (an argument of the Java caller).
    let p = check(env, unsafe { program_at(program) })?.clone();
    let Some(name) = string(env, &name)? else {
        return fail(env, &Error::invalid("a kernel needs a name"));
    };
    let kinds = ints(env, &kinds)?.unwrap_or_default();
    let values = longs(env, &values)?;
    let global = check(env, sizes("global", &longs(env, &global)?))?;
    let local = if local.is_null() {
        None
    } else {
        Some(check(env, sizes("local", &longs(env, &local)?))?)
    };
    check(env, launch(c, &p, &name, &kinds, &values, &global, local.as_deref()))
});
