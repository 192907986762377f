//! The JVM side of the face: the VM pointer, JNI environments for the runtime's worker
//! threads, the classes and method ids the face calls, Java exceptions in and out.
//!
//! Worker threads are started by the core, not by Java. The first time one needs JNI (to
//! run a Java codelet, or to drop a reference a task held) it attaches itself to the JVM
//! once, for good, as a daemon thread: the JVM may exit while the runtime still runs (an
//! application that forgets `StarPU.shutdown()` must not hang at exit). A thread-local
//! guard detaches it when the core stops the worker at shutdown.
//!
//! The task path (submission, the kernel upcall, global references) calls the JNI function
//! table directly through `jni::sys`: the per-call checks of the `jni` crate's `Env` cost
//! more than a tiny Java codelet itself. Everything else goes through `jni::Env`.

use jni::sys::{self, jclass, jint, jmethodID, jobject};
use jni::{jni_sig, jni_str, Env};
use starpu_core::Error;
use std::ffi::{c_void, CStr};
use std::ptr;
use std::sync::atomic::{AtomicPtr, Ordering};
use std::sync::OnceLock;

/// Calls JNI function `$name` of the function table of `$env` (a `*mut sys::JNIEnv`).
macro_rules! jni_raw {
    ($env:expr, $name:ident $(, $arg:expr)*) => {{
        let env: *mut jni::sys::JNIEnv = $env;
        ((**env).v1_4.$name)(env $(, $arg)*)
    }};
}
pub(crate) use jni_raw;

static VM: AtomicPtr<sys::JavaVM> = AtomicPtr::new(ptr::null_mut());

/// Called by the JVM when it loads the library.
pub(crate) fn on_load(vm: *mut sys::JavaVM) {
    VM.store(vm, Ordering::Release);
    // SAFETY: the JVM hands a valid VM pointer to JNI_OnLoad; the crate keeps it as its
    // singleton (used by `Global` drops and attachment helpers).
    let _ = unsafe { jni::JavaVM::from_raw(vm) };
}

/// Detaches the worker thread when it ends (the core joins its workers at shutdown).
struct Attachment;

impl Drop for Attachment {
    fn drop(&mut self) {
        let vm = VM.load(Ordering::Acquire);
        if !vm.is_null() {
            // SAFETY: the thread was attached by `env()` and runs no Java code any more.
            unsafe { ((**vm).v1_4.DetachCurrentThread)(vm) };
        }
    }
}

thread_local! {
    static ATTACHED: std::cell::Cell<*mut sys::JNIEnv> = const { std::cell::Cell::new(ptr::null_mut()) };
    static GUARD: std::cell::RefCell<Option<Attachment>> = const { std::cell::RefCell::new(None) };
}

/// The JNI environment of the calling thread, attaching it (as a daemon, for good) if it
/// is a thread the JVM does not know yet.
pub(crate) fn env() -> Result<*mut sys::JNIEnv, String> {
    let cached = ATTACHED.with(|a| a.get());
    if !cached.is_null() {
        return Ok(cached);
    }
    let vm = VM.load(Ordering::Acquire);
    if vm.is_null() {
        return Err("the StarPU JNI library is not loaded by a JVM".into());
    }
    let mut env: *mut c_void = ptr::null_mut();
    // SAFETY: a valid VM; GetEnv only reads the thread's state.
    let rc = unsafe { ((**vm).v1_4.GetEnv)(vm, &mut env, sys::JNI_VERSION_1_8) };
    if rc == sys::JNI_OK {
        // A Java thread: its attachment is the JVM's business, not cached (it may detach).
        return Ok(env as *mut sys::JNIEnv);
    }
    let name = std::thread::current()
        .name()
        .map(|n| format!("{n}\0"))
        .unwrap_or_else(|| "starpu-worker\0".into());
    let mut args = sys::JavaVMAttachArgs {
        version: sys::JNI_VERSION_1_8,
        name: name.as_ptr() as *mut _,
        group: ptr::null_mut(),
    };
    // SAFETY: a valid VM and attach arguments that live across the call.
    let rc = unsafe {
        ((**vm).v1_4.AttachCurrentThreadAsDaemon)(vm, &mut env, &mut args as *mut _ as *mut c_void)
    };
    if rc != sys::JNI_OK {
        return Err(format!(
            "cannot attach the worker thread to the JVM (JNI error {rc})"
        ));
    }
    let env = env as *mut sys::JNIEnv;
    ATTACHED.with(|a| a.set(env));
    GUARD.with(|g| *g.borrow_mut() = Some(Attachment));
    Ok(env)
}

/// A JNI global reference the face owns; deleted on drop, from whatever thread drops it.
pub(crate) struct GlobalObj(jobject);

// SAFETY: global references are valid on every thread.
unsafe impl Send for GlobalObj {}
unsafe impl Sync for GlobalObj {}

impl GlobalObj {
    /// A new global reference to `obj` (null stays null).
    ///
    /// # Safety
    /// `env` is the calling thread's environment and `obj` a live reference or null.
    pub(crate) unsafe fn new(env: *mut sys::JNIEnv, obj: jobject) -> GlobalObj {
        if obj.is_null() {
            return GlobalObj(ptr::null_mut());
        }
        GlobalObj(jni_raw!(env, NewGlobalRef, obj))
    }

    pub(crate) fn raw(&self) -> jobject {
        self.0
    }

    pub(crate) fn is_null(&self) -> bool {
        self.0.is_null()
    }
}

impl Drop for GlobalObj {
    fn drop(&mut self) {
        if self.0.is_null() {
            return;
        }
        if let Ok(env) = env() {
            // SAFETY: a global reference this object owns, deleted once.
            unsafe { jni_raw!(env, DeleteGlobalRef, self.0) };
        }
    }
}

/// Classes and method ids the face calls from native code, looked up once from a Java
/// thread (with the class loader of the face's own classes).
pub(crate) struct Ids {
    pub invocation_run: jmethodID,
    /// `Invocation.runLent(ByteBuffer[])` and the static `Invocation.runReduction` (lent.rs).
    pub invocation_run_lent: jmethodID,
    pub invocation_class: jclass,
    pub run_reduction: jmethodID,
    pub byte_buffer_class: jclass,
    /// `Invocation.runOpenCL(OpenCLCall)`, and `OpenCLCall`'s constructor
    /// `(long call, Invocation)` (opencl.rs).
    pub invocation_run_opencl: jmethodID,
    pub opencl_call_class: jclass,
    pub opencl_call_new: jmethodID,
    /// `Invocation.runCUDA(CudaCall)`, and `CudaCall`'s constructor (cuda.rs).
    pub invocation_run_cuda: jmethodID,
    pub cuda_call_class: jclass,
    pub cuda_call_new: jmethodID,
    pub runnable_run: jmethodID,
    /// `BooleanSupplier.getAsBoolean()`: a transaction epoch's start function.
    pub supplier_get: jmethodID,
    pub exception_class: jclass,
    /// The static `StarPUException.of(kind, message, cause, task)`.
    pub exception_of: jmethodID,
    pub throwable_to_string: jmethodID,
}

// SAFETY: method ids and global class references are valid on every thread.
unsafe impl Send for Ids {}
unsafe impl Sync for Ids {}

static IDS: OnceLock<Ids> = OnceLock::new();

/// A new global reference to a class found by a lookup.
fn global_class(env: &mut Env, class: &jni::objects::JClass) -> jclass {
    // SAFETY: env is this thread's environment; the class reference is live.
    unsafe { jni_raw!(env.get_raw(), NewGlobalRef, class.as_raw()) }
}

/// Looks the ids up (first call) and returns them.
pub(crate) fn ids(env: &mut Env) -> jni::errors::Result<&'static Ids> {
    if let Some(ids) = IDS.get() {
        return Ok(ids);
    }
    let invocation = env.find_class(jni_str!("fr/labri/hpccloud/starpu/internal/Invocation"))?;
    let invocation_run = env.get_method_id(&invocation, jni_str!("run"), jni_sig!("()V"))?;
    let invocation_run_lent = env.get_method_id(
        &invocation,
        jni_str!("runLent"),
        jni_sig!("([Ljava/nio/ByteBuffer;)V"),
    )?;
    let run_reduction = env.get_static_method_id(
        &invocation,
        jni_str!("runReduction"),
        jni_sig!("(Lfr/labri/hpccloud/starpu/Codelet;Lfr/labri/hpccloud/starpu/data/DataHandle;[Ljava/nio/ByteBuffer;)V"),
    )?;
    let invocation_run_opencl = env.get_method_id(
        &invocation,
        jni_str!("runOpenCL"),
        jni_sig!("(Lfr/labri/hpccloud/starpu/opencl/OpenCLCall;)V"),
    )?;
    let opencl_call = env.find_class(jni_str!("fr/labri/hpccloud/starpu/opencl/OpenCLCall"))?;
    let opencl_call_new = env.get_method_id(
        &opencl_call,
        jni_str!("<init>"),
        jni_sig!("(JLfr/labri/hpccloud/starpu/internal/Invocation;)V"),
    )?;
    let invocation_run_cuda = env.get_method_id(
        &invocation,
        jni_str!("runCUDA"),
        jni_sig!("(Lfr/labri/hpccloud/starpu/cuda/CudaCall;)V"),
    )?;
    let cuda_call = env.find_class(jni_str!("fr/labri/hpccloud/starpu/cuda/CudaCall"))?;
    let cuda_call_new = env.get_method_id(
        &cuda_call,
        jni_str!("<init>"),
        jni_sig!("(JLfr/labri/hpccloud/starpu/internal/Invocation;)V"),
    )?;
    let byte_buffer = env.find_class(jni_str!("java/nio/ByteBuffer"))?;
    let runnable = env.find_class(jni_str!("java/lang/Runnable"))?;
    let runnable_run = env.get_method_id(&runnable, jni_str!("run"), jni_sig!("()V"))?;
    let supplier = env.find_class(jni_str!("java/util/function/BooleanSupplier"))?;
    let supplier_get = env.get_method_id(&supplier, jni_str!("getAsBoolean"), jni_sig!("()Z"))?;
    let exception = env.find_class(jni_str!("fr/labri/hpccloud/starpu/StarPUException"))?;
    let exception_of = env.get_static_method_id(
        &exception,
        jni_str!("of"),
        jni_sig!("(Ljava/lang/String;Ljava/lang/String;Ljava/lang/Throwable;Ljava/lang/String;)Lfr/labri/hpccloud/starpu/StarPUException;"),
    )?;
    let throwable = env.find_class(jni_str!("java/lang/Throwable"))?;
    let throwable_to_string = env.get_method_id(
        &throwable,
        jni_str!("toString"),
        jni_sig!("()Ljava/lang/String;"),
    )?;
    let ids = Ids {
        invocation_run: invocation_run.into_raw(),
        invocation_run_lent: invocation_run_lent.into_raw(),
        invocation_class: global_class(env, &invocation),
        run_reduction: run_reduction.into_raw(),
        byte_buffer_class: global_class(env, &byte_buffer),
        invocation_run_opencl: invocation_run_opencl.into_raw(),
        opencl_call_class: global_class(env, &opencl_call),
        opencl_call_new: opencl_call_new.into_raw(),
        invocation_run_cuda: invocation_run_cuda.into_raw(),
        cuda_call_class: global_class(env, &cuda_call),
        cuda_call_new: cuda_call_new.into_raw(),
        runnable_run: runnable_run.into_raw(),
        supplier_get: supplier_get.into_raw(),
        exception_class: global_class(env, &exception),
        exception_of: exception_of.into_raw(),
        throwable_to_string: throwable_to_string.into_raw(),
    };
    Ok(IDS.get_or_init(|| ids))
}

/// The ids, once a Java thread has looked them up (`StarPU.init` does).
pub(crate) fn ids_ready() -> Option<&'static Ids> {
    IDS.get()
}

/// Takes the Java exception pending on this thread (clearing it): its text
/// (`Throwable.toString()`) and a global reference to it.
///
/// # Safety
/// `env` is the calling thread's environment and an exception is pending.
pub(crate) unsafe fn take_exception(env: *mut sys::JNIEnv) -> (String, GlobalObj) {
    let thrown = jni_raw!(env, ExceptionOccurred);
    jni_raw!(env, ExceptionClear);
    let global = GlobalObj::new(env, thrown);
    let text = describe(env, thrown);
    jni_raw!(env, DeleteLocalRef, thrown);
    (text, global)
}

/// `obj.toString()` of a throwable, or a placeholder if that fails too.
///
/// # Safety
/// `env` is the calling thread's environment, `obj` a live throwable reference.
unsafe fn describe(env: *mut sys::JNIEnv, obj: jobject) -> String {
    let Some(ids) = IDS.get() else {
        return "a Java exception".into();
    };
    let s = jni_raw!(
        env,
        CallObjectMethodA,
        obj,
        ids.throwable_to_string,
        ptr::null()
    );
    if jni_raw!(env, ExceptionCheck) {
        jni_raw!(env, ExceptionClear);
        return "a Java exception (its toString() failed too)".into();
    }
    if s.is_null() {
        return "a Java exception".into();
    }
    let chars = jni_raw!(env, GetStringUTFChars, s, ptr::null_mut());
    let text = if chars.is_null() {
        jni_raw!(env, ExceptionClear);
        "a Java exception".to_string()
    } else {
        let t = CStr::from_ptr(chars).to_string_lossy().into_owned();
        jni_raw!(env, ReleaseStringUTFChars, s, chars);
        t
    };
    jni_raw!(env, DeleteLocalRef, s);
    text
}

/// A Java string of `text` (a local reference; null if the JVM could not make it, with an
/// exception pending).
///
/// # Safety
/// `env` is the calling thread's environment.
unsafe fn java_string(env: *mut sys::JNIEnv, text: &str) -> jobject {
    let text = std::ffi::CString::new(text.replace('\0', " ")).unwrap_or_default();
    jni_raw!(env, NewStringUTF, text.as_ptr())
}

/// The message a Java exception carries for `e`: the core's, naming the failed task when
/// the core's message does not already.
fn message_of(e: &Error) -> String {
    match e.task_name() {
        Some(t) if !e.message.contains(t) => format!("{} (task {t})", e.message),
        _ => e.message.clone(),
    }
}

/// Throws the exception of `e`'s kind on this thread (a native method's): the
/// `StarPUException` subclass named after the kind, with the Java exception that made the
/// task fail as its cause when there is one.
pub(crate) fn throw_error(env: &mut Env, e: &Error) {
    if env.exception_check() {
        return;
    }
    let Ok(ids) = ids(env) else {
        return; // the lookup left its own exception pending
    };
    let raw = env.get_raw();
    let cause = e
        .cause_as::<GlobalObj>()
        .map_or(ptr::null_mut(), |c| c.raw());
    // SAFETY: raw is this thread's environment, the class and method were looked up by
    // `ids`, the cause is a live global reference or null; every local reference made here
    // is deleted.
    unsafe {
        let kind = java_string(raw, e.kind.name());
        let msg = java_string(raw, &message_of(e));
        let task = e
            .task_name()
            .map_or(ptr::null_mut(), |t| java_string(raw, t));
        if !jni_raw!(raw, ExceptionCheck) {
            let args = [
                sys::jvalue { l: kind },
                sys::jvalue { l: msg },
                sys::jvalue { l: cause },
                sys::jvalue { l: task },
            ];
            let thrown = jni_raw!(
                raw,
                CallStaticObjectMethodA,
                ids.exception_class,
                ids.exception_of,
                args.as_ptr()
            );
            if !thrown.is_null() && !jni_raw!(raw, ExceptionCheck) {
                jni_raw!(raw, Throw, thrown);
            }
            jni_raw!(raw, DeleteLocalRef, thrown);
        }
        for r in [kind, msg, task] {
            if !r.is_null() {
                jni_raw!(raw, DeleteLocalRef, r);
            }
        }
    }
}

/// The core's mode for the bits Java gives (`DataHandle.AccessMode.bits()`; 0: the
/// codelet's mode).
pub(crate) fn mode_of(bits: jint) -> Result<starpu_core::AccessMode, Error> {
    starpu_core::AccessMode::given(bits as u32)
}
