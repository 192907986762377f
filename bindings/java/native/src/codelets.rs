//! Java codelets as core codelets: the codelet table, the per-task payload, the one kernel
//! that calls back into Java, and completion callbacks.
//!
//! A Java `Codelet` becomes a core `Codelet` once per (name, access modes, type, where):
//! all of them share one CPU kernel, which calls `Invocation.run()` on the task's payload,
//! and one OpenCL kernel (opencl.rs). The payload
//! holds a global reference to the Java `Invocation` (the codelet object and the
//! `DataHandle[]` it runs on) so that neither is collected while the task is pending; it is
//! released when the core drops the task. A Java exception fails the task with the
//! exception itself as the failure's cause: every wait hands that very object back.

use crate::jvm::{self, jni_raw, GlobalObj};
use crate::lent;
use crate::protocol;
use starpu_core::task::{KernelError, KernelResult};
use starpu_core::{AccessMode, Codelet, CodeletType, Error, KernelCall};
use std::collections::HashMap;
use std::ptr;
use std::sync::{Arc, RwLock};

/// What a Java task carries: the invocation to run and its optional completion callback.
pub(crate) struct JavaTask {
    pub invocation: GlobalObj,
    pub callback: GlobalObj,
}

/// The task failure a Java exception pending on this thread makes: `what` threw it, and it
/// travels as the failure's cause.
///
/// # Safety
/// `env` is the calling thread's environment and an exception is pending.
pub(crate) unsafe fn failure(env: *mut jni::sys::JNIEnv, what: &str) -> KernelError {
    let (text, thrown) = jvm::take_exception(env);
    KernelError::with_cause(format!("{what} threw {text}"), Arc::new(thrown))
}

/// The one kernel of every Java codelet.
fn java_kernel(call: &KernelCall) -> KernelResult {
    let task = call
        .payload::<JavaTask>()
        .ok_or_else(|| KernelError::from("a Java codelet ran without its Java task"))?;
    let ids = jvm::ids_ready().ok_or_else(|| KernelError::from("StarPU.init was not called"))?;
    let env = jvm::env().map_err(KernelError::from)?;
    // SAFETY: env is this thread's environment; the invocation is a live global reference
    // and `run()V` takes no argument.
    unsafe {
        if (0..call.nbuffers()).any(|i| lent::is_lent(call, i)) {
            lent::run_invocation(env, ids, task.invocation.raw(), call)?;
        } else {
            jni_raw!(
                env,
                CallVoidMethodA,
                task.invocation.raw(),
                ids.invocation_run,
                ptr::null()
            );
        }
        if jni_raw!(env, ExceptionCheck) {
            return Err(failure(env, "the Java codelet"));
        }
    }
    Ok(())
}

/// Runs a Java `Runnable` given as a task's completion callback. A throwing callback fails
/// the task (through the core's panic guard around callbacks).
pub(crate) fn run_callback(task: &JavaTask) {
    if task.callback.is_null() {
        return;
    }
    let (Some(ids), Ok(env)) = (jvm::ids_ready(), jvm::env()) else {
        panic!("the Java callback cannot run: no JVM environment on this thread");
    };
    // SAFETY: as in `java_kernel`, for `Runnable.run()V`.
    unsafe {
        jni_raw!(
            env,
            CallVoidMethodA,
            task.callback.raw(),
            ids.runnable_run,
            ptr::null()
        );
        if jni_raw!(env, ExceptionCheck) {
            let (text, _) = jvm::take_exception(env);
            panic!("the Java callback threw {text}");
        }
    }
}

/// What makes two Java codelets the same core codelet.
#[derive(PartialEq, Eq, Hash, Clone)]
pub(crate) struct Signature {
    pub name: String,
    /// `None`: each task gives its own buffers and modes (`STARPU_VARIABLE_NBUFFERS`).
    pub modes: Option<Vec<u32>>,
    /// `protocol::TYPE_*`.
    pub kind: i32,
    pub max_parallelism: i32,
    /// `protocol::WHERE_*` bits: the implementations the Java codelet has.
    pub where_: i32,
}

/// Codelets by index (the `long` a Java `Codelet` keeps), and the index of each signature
/// already made. Entries live as long as the process: a program has few distinct codelet
/// signatures, and an index must never dangle.
#[derive(Default)]
struct CodeletTable {
    list: Vec<Arc<Codelet>>,
    index: HashMap<Signature, usize>,
}

static CODELETS: RwLock<Option<CodeletTable>> = RwLock::new(None);

fn make(sig: &Signature) -> Result<Codelet, Error> {
    let mut cl = Codelet::new(sig.name.clone());
    if sig.where_ & protocol::WHERE_CPU != 0 {
        cl = cl.cpu(java_kernel);
    }
    if sig.where_ & protocol::WHERE_OPENCL != 0 {
        cl = cl.opencl(crate::opencl::java_opencl_kernel);
    }
    if sig.where_ & protocol::WHERE_CUDA != 0 {
        cl = cl.cuda(crate::cuda::java_cuda_kernel);
    }
    cl = match &sig.modes {
        Some(m) => {
            let modes = m
                .iter()
                .enumerate()
                .map(|(i, &bits)| {
                    AccessMode::from_bits(bits).map_err(|e| {
                        Error::invalid(format!("codelet {}: access mode {i}: {e}", sig.name))
                    })
                })
                .collect::<Result<Vec<_>, _>>()?;
            cl.modes(modes)
        }
        None => cl.variable_buffers(),
    };
    let kind = match sig.kind {
        protocol::TYPE_SEQ => CodeletType::Seq,
        protocol::TYPE_SPMD => CodeletType::Spmd,
        protocol::TYPE_FORKJOIN => CodeletType::ForkJoin,
        k => return Err(Error::invalid(format!("codelet {}: type {k}", sig.name))),
    };
    if kind != CodeletType::Seq {
        cl = cl.parallel(kind, sig.max_parallelism);
    }
    Ok(cl)
}

/// The index of the core codelet for a Java codelet of this signature.
pub(crate) fn codelet(sig: Signature) -> Result<i64, Error> {
    if let Some(t) = CODELETS.read().unwrap_or_else(|e| e.into_inner()).as_ref() {
        if let Some(&i) = t.index.get(&sig) {
            return Ok(i as i64);
        }
    }
    let cl = make(&sig)?;
    let mut g = CODELETS.write().unwrap_or_else(|e| e.into_inner());
    let t = g.get_or_insert_with(CodeletTable::default);
    let i = *t.index.entry(sig).or_insert_with(|| {
        t.list.push(Arc::new(cl));
        t.list.len() - 1
    });
    Ok(i as i64)
}

pub(crate) fn codelet_at(i: i64) -> Result<Arc<Codelet>, Error> {
    let g = CODELETS.read().unwrap_or_else(|e| e.into_inner());
    g.as_ref()
        .and_then(|t| t.list.get(usize::try_from(i).ok()?).cloned())
        .ok_or_else(|| Error::invalid(format!("codelet {i} does not exist")))
}
