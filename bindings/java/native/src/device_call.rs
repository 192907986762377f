//! What the OpenCL (`opencl.rs`) and CUDA (`cuda.rs`) implementations of Java codelets
//! share: running `Invocation.runOpenCL` / `runCUDA` with a new call object, checking that
//! a call object Java gives back is the one this thread runs, describing a buffer to
//! Java, and reading kernel arguments.
//!
//! A call object (`OpenCLCall`, `CudaCall`) carries the address of its `KernelCall`,
//! which lives only while the kernel runs, on its worker's thread. Every native method
//! checks that address against the call this thread is running, so that a call kept past
//! its codelet, used from another thread, or made up, is an error instead of a dangling
//! pointer.

use crate::codelets::{failure, JavaTask};
use crate::jvm::{self, jni_raw};
use crate::protocol;
use jni::sys::{self, jclass, jlong, jmethodID};
use starpu_core::task::{KernelError, KernelResult};
use starpu_core::{Error, KernelCall};
use std::cell::Cell;
use std::sync::Arc;

thread_local! {
    /// The address of the `KernelCall` whose Java device implementation this thread runs.
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

/// The call a `class` object (`OpenCLCall`, `CudaCall`) names, if this thread is running
/// it (`method`: where Java may use it).
pub(crate) fn running<'a>(
    address: jlong,
    class: &str,
    method: &str,
) -> Result<&'a KernelCall<'a>, Error> {
    let current = RUNNING.with(|r| r.get());
    if address == 0 || address as usize != current {
        return Err(Error::invalid(format!(
            "this {class} is over (or used from another thread): use it inside \
             Codelet.{method} only, on the worker that called it"
        )));
    }
    // SAFETY: the address is the call this thread is inside of (`run_java` set it and
    // clears it before the call ends), so the reference lives during this method.
    Ok(unsafe { &*(current as *const KernelCall<'a>) })
}

/// Which Java method runs a device implementation, and the class of its call object.
pub(crate) struct JavaEntry {
    /// The call object's class and its constructor `(long call, Invocation)`.
    pub class: jclass,
    pub new: jmethodID,
    /// `Invocation.runOpenCL` / `runCUDA`.
    pub run: jmethodID,
    /// For messages: "the Java OpenCL codelet"...
    pub what: &'static str,
}

/// Runs the Java device implementation `entry` of the task of `call`, with a new call
/// object for this call.
pub(crate) fn run_java(
    call: &KernelCall,
    entry: impl FnOnce(&jvm::Ids) -> JavaEntry,
) -> KernelResult {
    let task = call
        .payload::<JavaTask>()
        .ok_or_else(|| KernelError::from("a Java codelet ran without its Java task"))?;
    let ids = jvm::ids_ready().ok_or_else(|| KernelError::from("StarPU.init was not called"))?;
    let e = entry(ids);
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
        let c = jni_raw!(env, NewObjectA, e.class, e.new, args.as_ptr());
        if !c.is_null() {
            let args = [sys::jvalue { l: c }];
            jni_raw!(
                env,
                CallVoidMethodA,
                task.invocation.raw(),
                e.run,
                args.as_ptr()
            );
            jni_raw!(env, DeleteLocalRef, c);
        }
        if jni_raw!(env, ExceptionCheck) {
            return Err(failure(env, e.what));
        }
    }
    Ok(())
}

/// A program of the core's (`T`: an OpenCL `Program`, a CUDA `Module`) that a Java object
/// owns, as the `long` it keeps: freed by `free_program` when the object is collected.
pub(crate) fn own_program<T>(program: T) -> jlong {
    Box::into_raw(Box::new(Arc::new(program))) as jlong
}

/// The program a Java object owns (a new reference, for a launch).
///
/// # Safety
/// `p` is 0 or was returned by `own_program::<T>` and not freed (the Java object keeps it
/// alive during the call).
pub(crate) unsafe fn program_at<T>(p: jlong, what: &str) -> Result<Arc<T>, Error> {
    (p as *const Arc<T>)
        .as_ref()
        .cloned()
        .ok_or_else(|| Error::invalid(format!("no {what} program")))
}

/// Frees what `own_program::<T>` gave.
///
/// # Safety
/// `p` is 0 or was returned by `own_program::<T>`, and is freed once (by the Java object's
/// cleaner).
pub(crate) unsafe fn free_program<T>(p: jlong) {
    if p != 0 {
        drop(Box::from_raw(p as *mut Arc<T>));
    }
}

/// Buffer `i` of `call` for Java: `BUFFER_*` entries, in elements (`first`: where the
/// data starts in the device buffer; `device`: the device's name for messages).
pub(crate) fn buffer_entries(
    call: &KernelCall,
    i: usize,
    first: usize,
    elemsize: usize,
    device: &str,
) -> Result<[i64; 5], Error> {
    let l = crate::data::Layout::of_buffer(call, i).ok_or_else(|| {
        Error::invalid(format!(
            "buffer {i}: only variables, vectors and matrices have an {device} form in Java"
        ))
    })?;
    let mut out = [0i64; 5];
    out[protocol::BUFFER_FIRST] = first as i64;
    out[protocol::BUFFER_NX] = l.nx as i64;
    out[protocol::BUFFER_NY] = l.ny as i64;
    out[protocol::BUFFER_LD] = l.ld as i64;
    out[protocol::BUFFER_ELEMSIZE] = elemsize as i64;
    Ok(out)
}

/// Index `i` of `call`'s buffers, checked.
pub(crate) fn buffer_index(call: &KernelCall, i: i64) -> Result<usize, Error> {
    usize::try_from(i)
        .ok()
        .filter(|&i| i < call.nbuffers())
        .ok_or_else(|| {
            Error::invalid(format!(
                "the task has {} buffers: there is no buffer {i}",
                call.nbuffers()
            ))
        })
}

/// A kernel argument as Java gave it (`Native.ARG_*` kinds).
pub(crate) enum Arg {
    /// A buffer of the task, by index.
    Buffer(usize),
    I8(i8),
    I16(i16),
    I32(i32),
    I64(i64),
    F32(f32),
    F64(f64),
    /// Bytes of OpenCL `__local` memory.
    Local(usize),
}

/// The arguments Java gave (a kind and the bits of a long each).
pub(crate) fn args(call: &KernelCall, kinds: &[i32], values: &[i64]) -> Result<Vec<Arg>, Error> {
    if kinds.len() != values.len() {
        return Err(Error::invalid("kernel arguments: as many values as kinds"));
    }
    let mut out = Vec::with_capacity(kinds.len());
    for (n, (&kind, &v)) in kinds.iter().zip(values).enumerate() {
        out.push(match kind {
            protocol::ARG_BUFFER => Arg::Buffer(
                buffer_index(call, v)
                    .map_err(|_| Error::invalid(format!("kernel argument {n}: no buffer {v}")))?,
            ),
            // Java's numbers arrive as the bits of a long; each kind takes its own width.
            protocol::ARG_BYTE => Arg::I8(v as i8),
            protocol::ARG_SHORT => Arg::I16(v as i16),
            protocol::ARG_INT => Arg::I32(v as i32),
            protocol::ARG_LONG => Arg::I64(v),
            protocol::ARG_FLOAT => Arg::F32(f32::from_bits(v as u32)),
            protocol::ARG_DOUBLE => Arg::F64(f64::from_bits(v as u64)),
            protocol::ARG_LOCAL => Arg::Local(usize::try_from(v).map_err(|_| {
                Error::invalid(format!("kernel argument {n}: {v} bytes of local memory"))
            })?),
            _ => return Err(Error::invalid(format!("kernel argument {n}: kind {kind}"))),
        });
    }
    Ok(out)
}

/// A size list of Java's (`long[]`), each fitting `T`.
pub(crate) fn sizes<T: TryFrom<i64>>(what: &str, v: &[i64]) -> Result<Vec<T>, Error> {
    v.iter()
        .map(|&n| T::try_from(n).map_err(|_| Error::invalid(format!("{what} size {n}"))))
        .collect()
}
