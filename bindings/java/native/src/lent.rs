//! Memory the runtime lends a Java codelet instead of the registered Java buffer: a
//! worker's contribution to a reduction (STARPU_REDUX), scratch buffers (STARPU_SCRATCH),
//! and the replica of data registered without a home buffer. The codelet sees it through a
//! handle of the registered handle's class (`DataHandle.lentView`) over a direct
//! `ByteBuffer` on that memory, valid for the call. Reduction codelets (`setReductionMethods`) run on such views only: the runtime
//! makes their tasks, with no Java invocation behind them.

use crate::jvm::{self, jni_raw, GlobalObj};
use jni::sys::{self, jobject, jobjectArray};
use starpu_core::data::ReductionMethods;
use starpu_core::task::{KernelError, KernelResult};
use starpu_core::{AccessMode, Codelet, KernelCall};
use std::ffi::c_void;
use std::ptr;
use std::sync::Arc;

/// Whether buffer `i` of `call` is lent memory rather than the registered Java buffer.
pub(crate) fn is_lent(call: &KernelCall, i: usize) -> bool {
    call.mode(i).is_ok_and(|m| m.is_redux() || m.is_scratch())
        || call.handle(i).is_ok_and(|h| h.home_node().is_none())
}

/// The address and size in bytes of buffer `i` of `call`.
fn memory_of(call: &KernelCall, i: usize) -> Result<(usize, usize), KernelError> {
    let l = crate::data::Layout::of_buffer(call, i).ok_or_else(|| {
        KernelError::new(format!(
            "buffer {i}: only variables, vectors and matrices can be lent to a Java codelet"
        ))
    })?;
    Ok((l.address, l.span()))
}

/// A Java `ByteBuffer[nbuffers]` holding, for each buffer `i` that `pick(i)` selects, a
/// direct buffer over its memory (null elsewhere). A local reference the caller deletes.
///
/// # Safety
/// `env` is the calling thread's environment, inside the kernel call.
unsafe fn lent_buffers(
    env: *mut sys::JNIEnv,
    ids: &jvm::Ids,
    call: &KernelCall,
    pick: impl Fn(usize) -> bool,
) -> Result<jobjectArray, KernelError> {
    let n = call.nbuffers();
    let array = jni_raw!(
        env,
        NewObjectArray,
        n as sys::jsize,
        ids.byte_buffer_class,
        ptr::null_mut()
    );
    if array.is_null() {
        return Err(pending(env));
    }
    for i in (0..n).filter(|&i| pick(i)) {
        let made = memory_of(call, i).and_then(|(addr, len)| {
            let b = jni_raw!(
                env,
                NewDirectByteBuffer,
                addr as *mut c_void,
                len as sys::jlong
            );
            if b.is_null() {
                Err(pending(env))
            } else {
                Ok(b)
            }
        });
        let b = match made {
            Ok(b) => b,
            Err(e) => {
                jni_raw!(env, DeleteLocalRef, array);
                return Err(e);
            }
        };
        jni_raw!(env, SetObjectArrayElement, array, i as sys::jsize, b);
        // Worker threads never return to Java: local references must be deleted by hand.
        jni_raw!(env, DeleteLocalRef, b);
    }
    Ok(array)
}

/// The Java exception pending on this thread, cleared, as a kernel error.
unsafe fn pending(env: *mut sys::JNIEnv) -> KernelError {
    if jni_raw!(env, ExceptionCheck) {
        crate::codelets::failure(env, "lending memory to a Java codelet")
    } else {
        KernelError::new("lending memory to a Java codelet failed")
    }
}

/// Runs `invocation` (a task's `Invocation`) with views of its lent buffers.
///
/// # Safety
/// `env` is the calling thread's environment, `invocation` a live reference.
pub(crate) unsafe fn run_invocation(
    env: *mut sys::JNIEnv,
    ids: &jvm::Ids,
    invocation: jobject,
    call: &KernelCall,
) -> KernelResult {
    let lent = lent_buffers(env, ids, call, |i| is_lent(call, i))?;
    let args = [sys::jvalue { l: lent }];
    jni_raw!(
        env,
        CallVoidMethodA,
        invocation,
        ids.invocation_run_lent,
        args.as_ptr()
    );
    jni_raw!(env, DeleteLocalRef, lent);
    Ok(())
}

/// One of a handle's reduction codelets: the Java codelet and the handle whose class
/// shapes the views.
struct ReductionCodelet {
    codelet: GlobalObj,
    shape: GlobalObj,
}

impl ReductionCodelet {
    fn run(&self, call: &KernelCall) -> KernelResult {
        let ids =
            jvm::ids_ready().ok_or_else(|| KernelError::from("StarPU.init was not called"))?;
        let env = jvm::env().map_err(KernelError::from)?;
        // SAFETY: this thread's environment; the references are live global ones, and
        // `runReduction` is the static method the ids name.
        unsafe {
            let lent = lent_buffers(env, ids, call, |_| true)?;
            let args = [
                sys::jvalue {
                    l: self.codelet.raw(),
                },
                sys::jvalue {
                    l: self.shape.raw(),
                },
                sys::jvalue { l: lent },
            ];
            jni_raw!(
                env,
                CallStaticVoidMethodA,
                ids.invocation_class,
                ids.run_reduction,
                args.as_ptr()
            );
            jni_raw!(env, DeleteLocalRef, lent);
            if jni_raw!(env, ExceptionCheck) {
                return Err(crate::codelets::failure(env, "the Java reduction codelet"));
            }
        }
        Ok(())
    }
}

/// The core's reduction methods for Java handle `shape`: `redux` folds buffer 1 into
/// buffer 0 (modes RW, R), `init` sets buffer 0 to the neutral element (mode W).
///
/// # Safety
/// `env` is the calling (Java) thread's environment; the objects are live references.
pub(crate) unsafe fn reduction_methods(
    env: *mut sys::JNIEnv,
    shape: jobject,
    redux: jobject,
    init: jobject,
) -> ReductionMethods {
    let make = |name: &str, codelet: jobject, modes: &[AccessMode]| {
        let up = Arc::new(ReductionCodelet {
            codelet: GlobalObj::new(env, codelet),
            shape: GlobalObj::new(env, shape),
        });
        Arc::new(
            Codelet::new(name)
                .cpu(move |call| up.run(call))
                .modes(modes.iter().copied()),
        )
    };
    ReductionMethods {
        redux: make("java_redux", redux, &[AccessMode::RW, AccessMode::R]),
        init: make("java_redux_init", init, &[AccessMode::W]),
    }
}
