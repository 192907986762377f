//! Java codelets as runtime tasks: the codelet table, the per-task payload, the kernel that
//! calls back into Java, and the waits that turn failures into `StarPUException`s.
//!
//! A Java `Codelet` becomes a core `Codelet` once per (name, access modes): all of them
//! share one kernel, which calls `Invocation.run()` on the task's payload. The payload holds
//! a global reference to the Java `Invocation` (the codelet object and the `DataHandle[]`
//! it runs on) so that neither is collected while the task is pending; it is released when
//! the core drops the task.

use crate::jvm::{self, jni_raw, GlobalObj};
use crate::lent;
use starpu_core::task::{KernelError, KernelResult};
use starpu_core::{AccessMode, Codelet, DataHandle, Error, KernelCall, Runtime, TaskRef};
use std::collections::HashMap;
use std::ptr;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, RwLock};

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// What a Java task carries: the invocation to run, its optional completion callback, and
/// the exception its codelet threw, if it threw one.
pub(crate) struct JavaTask {
    invocation: GlobalObj,
    callback: GlobalObj,
    failure: OnceLock<GlobalObj>,
}

impl JavaTask {
    pub(crate) fn failure(&self) -> Option<&GlobalObj> {
        self.failure.get()
    }
}

/// The first exception thrown by a Java codelet since the last `taskWaitForAll`: the cause
/// of the exception that call throws (the core counts the failures, the face keeps the
/// Java object).
static FIRST_FAILURE: Mutex<Option<GlobalObj>> = Mutex::new(None);

pub(crate) fn take_first_failure() -> Option<GlobalObj> {
    lock(&FIRST_FAILURE).take()
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
        if (0..call.nbuffers()).any(|i| call.mode(i).is_ok_and(lent::is_lent)) {
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
        if !jni_raw!(env, ExceptionCheck) {
            return Ok(());
        }
        let (text, thrown) = jvm::take_exception(env);
        note_first_failure(env, &thrown);
        let _ = task.failure.set(thrown);
        Err(KernelError::new(format!("the Java codelet threw {text}")))
    }
}

/// Keeps `thrown` as the first failure since the last `taskWaitForAll`, if it is.
///
/// # Safety
/// `env` is the calling thread's environment.
pub(crate) unsafe fn note_first_failure(env: *mut jni::sys::JNIEnv, thrown: &GlobalObj) {
    let mut first = lock(&FIRST_FAILURE);
    if first.is_none() {
        *first = Some(GlobalObj::new(env, thrown.raw()));
    }
}

/// Runs a Java `Runnable` given as a task's completion callback. A throwing callback fails
/// the task (through the core's panic guard around callbacks).
fn run_callback(task: &JavaTask) {
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

/// Codelets by index (the `long` a Java `Codelet` keeps), and the index of each (name,
/// modes) already made. Entries live as long as the process: a program has few distinct
/// codelet signatures, and an index must never dangle.
#[derive(Default)]
struct CodeletTable {
    list: Vec<Arc<Codelet>>,
    index: HashMap<(String, Option<Vec<u32>>), usize>,
}

static CODELETS: RwLock<Option<CodeletTable>> = RwLock::new(None);

/// The index of the core codelet for a Java codelet named `name` with these buffer modes
/// (`None`: each task gives its own, `STARPU_VARIABLE_NBUFFERS`).
pub(crate) fn codelet(name: String, modes: Option<Vec<u32>>) -> Result<i64, Error> {
    if let Some(m) = &modes {
        for (i, &bits) in m.iter().enumerate() {
            AccessMode::from_bits(bits)
                .map_err(|e| Error::invalid(format!("codelet {name}: access mode {i}: {e}")))?;
        }
    }
    let key = (name, modes);
    if let Some(t) = CODELETS.read().unwrap_or_else(|e| e.into_inner()).as_ref() {
        if let Some(&i) = t.index.get(&key) {
            return Ok(i as i64);
        }
    }
    let mut g = CODELETS.write().unwrap_or_else(|e| e.into_inner());
    let t = g.get_or_insert_with(CodeletTable::default);
    if let Some(&i) = t.index.get(&key) {
        return Ok(i as i64);
    }
    let mut cl = Codelet::new(key.0.clone()).cpu(java_kernel);
    cl = match &key.1 {
        Some(m) => cl.modes(m.iter().map(|&b| AccessMode::from_bits_retain(b))),
        None => cl.variable_buffers(),
    };
    t.list.push(Arc::new(cl));
    let i = t.list.len() - 1;
    t.index.insert(key, i);
    Ok(i as i64)
}

fn codelet_at(i: i64) -> Result<Arc<Codelet>, Error> {
    let g = CODELETS.read().unwrap_or_else(|e| e.into_inner());
    g.as_ref()
        .and_then(|t| t.list.get(usize::try_from(i).ok()?).cloned())
        .ok_or_else(|| Error::invalid(format!("codelet {i} does not exist")))
}

/// Tasks submitted through `StarPU.submitTask_`, which Java may wait for by id with
/// `waitForTasks`. A task leaves when it ends well (waiting for an id no longer here
/// returns at once), when it is waited for, or, if it failed, when `taskWaitForAll`
/// reports it.
static WAITABLE: Mutex<Option<HashMap<u64, TaskRef>>> = Mutex::new(None);

pub(crate) const SYNC: i32 = 1;
pub(crate) const WAITABLE_FLAG: i32 = 2;

/// What a submission asks for.
pub(crate) struct Submission {
    pub codelet: i64,
    pub handles: Vec<DataHandle>,
    /// Per-buffer modes (a codelet with variable buffers needs them; others may omit them).
    pub modes: Option<Vec<u32>>,
    pub flags: i32,
    pub priority: i32,
    pub name: Option<String>,
}

/// A failed submission or wait: the core's error and, when a Java codelet threw, the
/// exception it threw.
pub(crate) struct Failure {
    pub error: Error,
    pub cause: Option<GlobalObj>,
}

impl From<Error> for Failure {
    fn from(error: Error) -> Self {
        Failure { error, cause: None }
    }
}

/// Copies the cause out of a task's payload (a second global reference: the task's goes
/// with the task).
fn cause_of(task: &JavaTask) -> Option<GlobalObj> {
    let f = task.failure()?;
    let env = jvm::env().ok()?;
    // SAFETY: this thread's environment and a live global reference.
    Some(unsafe { GlobalObj::new(env, f.raw()) })
}

/// Submits a Java task; returns its id.
///
/// # Safety
/// `env` is the calling (Java) thread's environment; `invocation` and `callback` are live
/// local references (callback may be null).
pub(crate) unsafe fn submit(
    rt: &Runtime,
    env: *mut jni::sys::JNIEnv,
    s: Submission,
    invocation: jni::sys::jobject,
    callback: jni::sys::jobject,
) -> Result<u64, Failure> {
    let cl = codelet_at(s.codelet)?;
    let payload = Arc::new(JavaTask {
        invocation: GlobalObj::new(env, invocation),
        callback: GlobalObj::new(env, callback),
        failure: OnceLock::new(),
    });
    let mut b = rt.task(&cl).payload(payload.clone()).priority(s.priority);
    for (i, h) in s.handles.iter().enumerate() {
        let mode = s
            .modes
            .as_ref()
            .and_then(|m| m.get(i))
            .map_or(AccessMode::NONE, |&bits| AccessMode::from_bits_retain(bits));
        b = b.buffer(h, mode);
    }
    if let Some(n) = s.name {
        b = b.name(n);
    }
    if !payload.callback.is_null() {
        let p = payload.clone();
        b = b.callback(move |_| run_callback(&p));
    }
    let sync = s.flags & SYNC != 0;
    let waitable = s.flags & WAITABLE_FLAG != 0;
    if sync {
        b = b.synchronous(true);
    }
    if waitable && !sync {
        b = b.detach(false).on_terminated(|t| {
            if !t.has_failed() {
                if let Some(m) = lock(&WAITABLE).as_mut() {
                    m.remove(&t.id());
                }
            }
        });
        let task = b.task().clone();
        lock(&WAITABLE)
            .get_or_insert_with(HashMap::new)
            .insert(task.id(), task.clone());
        return match b.submit() {
            Ok(t) => Ok(t.id()),
            Err(e) => {
                if let Some(m) = lock(&WAITABLE).as_mut() {
                    m.remove(&task.id());
                }
                Err(e.into())
            }
        };
    }
    match b.submit() {
        Ok(t) => Ok(t.id()),
        Err(error) => {
            let cause = cause_of(&payload);
            Err(Failure { error, cause })
        }
    }
}

/// Waits for the tasks `ids` (from `submitTask_`); the first failure among them is
/// returned after all have ended.
pub(crate) fn wait_tasks(rt: &Runtime, ids: &[i64]) -> Result<(), Failure> {
    let mut first: Option<Failure> = None;
    for &id in ids {
        let task = lock(&WAITABLE)
            .as_ref()
            .and_then(|m| m.get(&(id as u64)).cloned());
        let Some(task) = task else { continue };
        let r = rt.wait(&task);
        if let Some(m) = lock(&WAITABLE).as_mut() {
            m.remove(&task.id());
        }
        if let (Err(error), None) = (r, &first) {
            let cause = task.payload::<JavaTask>().and_then(cause_of);
            first = Some(Failure { error, cause });
        }
    }
    first.map_or(Ok(()), Err)
}

/// `taskWaitForAll`: every task, then the failures since the previous call.
pub(crate) fn wait_for_all(rt: &Runtime) -> Result<(), Failure> {
    let r = rt.wait_for_all();
    // Failed waitable tasks are reported now: forget them.
    if let Some(m) = lock(&WAITABLE).as_mut() {
        m.retain(|_, t| !t.is_terminated());
    }
    let cause = take_first_failure();
    match r {
        Ok(()) => Ok(()),
        Err(error) => Err(Failure { error, cause }),
    }
}

/// Forgets what belonged to a runtime that shut down.
pub(crate) fn forget_tasks() {
    *lock(&WAITABLE) = None;
    drop(take_first_failure());
}
