//! The native methods of `fr.labri.hpccloud.starpu.internal.Native`: argument conversion,
//! a call into the core, errors thrown as `StarPUException`. Every entry point runs inside
//! `EnvUnowned::with_env`, which catches panics, so nothing unwinds into the JVM.

use crate::jvm;
use crate::tasks::{self, Failure, Submission};
use jni::errors::{Error as JniError, ThrowRuntimeExAndDefault};
use jni::objects::{JByteBuffer, JClass, JIntArray, JLongArray, JObject, JString};
use jni::sys::{jboolean, jint, jlong};
use jni::{Env, EnvUnowned};
use starpu_core::data::interfaces::{VariableInterface, VectorInterface};
use starpu_core::data::{registry, AcquireNode};
use starpu_core::memory::MAIN_RAM;
use starpu_core::{Config, DataHandle, ElemKind, Error, Runtime};
use std::sync::Arc;

type JResult<T> = Result<T, JniError>;

/// Throws the failure as a `StarPUException` and returns the error that tells `with_env`
/// an exception is pending.
fn fail<T>(env: &mut Env, f: Failure) -> JResult<T> {
    jvm::throw(env, &f.error.message, f.cause.as_ref(), f.error.errno());
    Err(JniError::JavaException)
}

fn check<T>(env: &mut Env, r: Result<T, Error>) -> JResult<T> {
    r.or_else(|e| fail(env, e.into()))
}

/// The running runtime, or the error a call before `init` (or after `shutdown`) gets.
fn runtime() -> Result<Arc<Runtime>, Error> {
    starpu_core::runtime::global()
}

fn handle(addr: jlong) -> Result<DataHandle, Error> {
    registry::resolve(addr as usize)
}

fn string(env: &Env, s: &JString) -> JResult<Option<String>> {
    if s.is_null() {
        return Ok(None);
    }
    Ok(Some(s.try_to_string(env)?))
}

fn longs(env: &Env, a: &JLongArray) -> JResult<Vec<jlong>> {
    if a.is_null() {
        return Ok(Vec::new());
    }
    let mut v = vec![0; a.len(env)?];
    a.get_region(env, 0, &mut v)?;
    Ok(v)
}

fn ints(env: &Env, a: &JIntArray) -> JResult<Option<Vec<u32>>> {
    if a.is_null() {
        return Ok(None);
    }
    let mut v = vec![0; a.len(env)?];
    a.get_region(env, 0, &mut v)?;
    Ok(Some(v.into_iter().map(|m| m as u32).collect()))
}

macro_rules! native {
    ($name:ident ($env:ident $(, $arg:ident : $ty:ty)*) -> $ret:ty $body:block) => {
        #[unsafe(no_mangle)]
        pub extern "system" fn $name<'local>(
            mut unowned: EnvUnowned<'local>,
            _class: JClass<'local>,
            $($arg: $ty),*
        ) -> $ret {
            unowned
                .with_env(|$env: &mut Env<'local>| -> JResult<$ret> {
                    $body
                })
                .resolve::<ThrowRuntimeExAndDefault>()
        }
    };
}

native!(Java_fr_labri_hpccloud_starpu_internal_Native_setenv(env,
    name: JString<'local>, value: JString<'local>, overwrite: jboolean) -> () {
    let (Some(name), Some(value)) = (string(env, &name)?, string(env, &value)?) else {
        return check(env, Err(Error::invalid("setenv: the name and the value must not be null")));
    };
    if name.is_empty() || name.contains('=') || name.contains('\0') || value.contains('\0') {
        return check(env, Err(Error::invalid(format!("setenv: bad variable name {name:?}"))));
    }
    if overwrite || std::env::var_os(&name).is_none() {
        // The runtime reads its configuration from the environment at init; Java threads
        // do not read the C environment concurrently.
        std::env::set_var(name, value);
    }
    Ok(())
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_init(env) -> () {
    jvm::ids(env)?;
    let mut config = Config::default();
    let r = config.apply_env().and_then(|()| starpu_core::init(config).map(|_| ()));
    check(env, r)
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_shutdown(env) -> () {
    let r = starpu_core::shutdown();
    if !starpu_core::runtime::is_initialized() {
        tasks::forget_tasks();
    }
    check(env, r)
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_isInitialized(_env) -> jboolean {
    Ok(starpu_core::runtime::is_initialized())
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_workerCount(env) -> jint {
    let rt = check(env, runtime())?;
    Ok(rt.workers().len() as jint)
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_waitForAll(env) -> () {
    let rt = check(env, runtime())?;
    match tasks::wait_for_all(&rt) {
        Ok(()) => Ok(()),
        Err(f) => fail(env, f),
    }
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_codelet(env,
    name: JString<'local>, modes: JIntArray<'local>) -> jlong {
    let name = string(env, &name)?.unwrap_or_else(|| "codelet".into());
    let modes = ints(env, &modes)?;
    check(env, tasks::codelet(name, modes))
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_submit(env,
    codelet: jlong, invocation: JObject<'local>, handles: JLongArray<'local>,
    modes: JIntArray<'local>, flags: jint, priority: jint, name: JString<'local>,
    callback: JObject<'local>) -> jlong {
    let addrs = longs(env, &handles)?;
    let modes = ints(env, &modes)?;
    let name = string(env, &name)?;
    let mut list = Vec::with_capacity(addrs.len());
    for (i, &a) in addrs.iter().enumerate() {
        let h = handle(a).map_err(|e| Error::invalid(format!("task submission: buffer {i}: {e}")));
        list.push(check(env, h)?);
    }
    let s = Submission { codelet, handles: list, modes, flags, priority, name };
    let raw = env.get_raw();
    // The process-wide runtime without cloning its `Arc` (a counter every worker touches).
    let r = starpu_core::runtime::with_global(|rt| {
        // SAFETY: this thread's environment; the references are this call's arguments.
        unsafe { tasks::submit(rt, raw, s, invocation.as_raw(), callback.as_raw()) }
    });
    match r {
        Ok(Ok(id)) => Ok(id as jlong),
        Ok(Err(f)) => fail(env, f),
        Err(e) => fail(env, e.into()),
    }
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_waitTasks(env, ids: JLongArray<'local>) -> () {
    let ids = longs(env, &ids)?;
    let rt = check(env, runtime())?;
    match tasks::wait_tasks(&rt, &ids) {
        Ok(()) => Ok(()),
        Err(f) => fail(env, f),
    }
});

/// Element kinds as Java names them (`Native.KIND_*`).
fn kind_of(code: jint) -> Result<(ElemKind, usize), Error> {
    Ok(match code {
        0 => (ElemKind::U8, 1),
        1 => (ElemKind::I32, 4),
        2 => (ElemKind::I64, 8),
        3 => (ElemKind::F32, 4),
        4 => (ElemKind::F64, 8),
        _ => return Err(Error::invalid(format!("unknown element kind {code}"))),
    })
}

/// Owns the Java buffer a handle was registered over, keeping it (and its memory) alive.
struct JavaBuffer(#[allow(dead_code)] jvm::GlobalObj);

native!(Java_fr_labri_hpccloud_starpu_internal_Native_registerBuffer(env,
    buffer: JByteBuffer<'local>, kind: jint, count: jint, variable: jboolean) -> jlong {
    let rt = check(env, runtime())?;
    let (elem, size) = check(env, kind_of(kind))?;
    if buffer.is_null() || count < 0 || (variable && count != 1) {
        return check(env, Err(Error::invalid(format!(
            "registration: a direct buffer and a valid element count are required (count {count})"))));
    }
    let addr = env.get_direct_buffer_address(&buffer)
        .map_err(|_| Error::invalid("registration: the buffer is not a direct buffer"));
    let addr = check(env, addr)? as usize;
    let capacity = check(env, env.get_direct_buffer_capacity(&buffer)
        .map_err(|_| Error::invalid("registration: the buffer is not a direct buffer")))?;
    let bytes = count as usize * size;
    if capacity < bytes {
        return check(env, Err(Error::invalid(format!(
            "registration: the buffer holds {capacity} bytes, {bytes} are needed"))));
    }
    // SAFETY: this thread's environment and a live local reference.
    let owner = JavaBuffer(unsafe { jvm::GlobalObj::new(env.get_raw(), buffer.as_raw()) });
    let owner: Option<Box<dyn std::any::Any + Send + Sync>> = Some(Box::new(owner));
    // SAFETY: the direct buffer's memory is valid for `bytes` bytes (capacity checked), of
    // elements of `elem`, and stays valid while the handle holds the buffer's owner.
    let h = unsafe {
        if variable {
            rt.register_foreign(VariableInterface::new(addr, size), elem, owner)
        } else {
            rt.register_foreign(VectorInterface::new(addr, count as u32, size), elem, owner)
        }
    };
    let h = check(env, h)?;
    Ok(h.as_ptr() as jlong)
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_registerObjects(env, count: jint) -> jlong {
    let rt = check(env, runtime())?;
    if count < 0 {
        return check(env, Err(Error::invalid(format!("registration: negative size {count}"))));
    }
    // The runtime orders accesses to a vector of Java objects through a byte vector of the
    // same length (partitioning cuts both the same way); the objects stay in Java.
    let h = check(env, rt.register_vector(vec![0u8; count as usize]))?;
    Ok(h.as_ptr() as jlong)
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_unregister(env, h: jlong, later: jboolean) -> () {
    let rt = check(env, runtime())?;
    let h = check(env, handle(h))?;
    let r = if later { rt.unregister_submit(&h) } else { rt.unregister(&h, true) };
    check(env, r)
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_acquire(env, h: jlong, mode: jint) -> () {
    let rt = check(env, runtime())?;
    let h = check(env, handle(h))?;
    check(env, rt.acquire(&h, AcquireNode::Node(MAIN_RAM), jvm::mode_of(mode)))
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_release(env, h: jlong) -> () {
    let rt = check(env, runtime())?;
    let h = check(env, handle(h))?;
    check(env, rt.release(&h))
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_partition(env, h: jlong, parts: jint) -> jlong {
    // Returns nothing itself: the children are read with `children`.
    let rt = check(env, runtime())?;
    let h = check(env, handle(h))?;
    if parts <= 0 {
        return check(env, Err(Error::invalid(format!("partitioning: {parts} parts asked for"))));
    }
    let f = starpu_core::data::Filter::vector_block(parts as usize);
    check(env, rt.partition(&h, &f))?;
    Ok(parts as jlong)
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_children(env, h: jlong) -> JLongArray<'local> {
    // [handle, first element, length] for each child of a partitioned vector.
    let h = check(env, handle(h))?;
    let base = h.interface::<VectorInterface>(MAIN_RAM);
    let mut out = Vec::new();
    for c in h.children() {
        let (Some(p), Some(ci)) = (base, c.interface::<VectorInterface>(MAIN_RAM)) else {
            return check(env, Err(Error::invalid("partitioning: only vectors have children here")));
        };
        let first = (ci.ptr - p.ptr) / p.elemsize.max(1);
        out.extend([c.as_ptr() as jlong, first as jlong, ci.nx as jlong]);
    }
    let a = JLongArray::new(env, out.len())?;
    a.set_region(env, 0, &out)?;
    Ok(a)
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_unpartition(env, h: jlong) -> () {
    let rt = check(env, runtime())?;
    let h = check(env, handle(h))?;
    check(env, rt.unpartition(&h, MAIN_RAM))
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_setReductionMethods(env,
    h: jlong, shape: JObject<'local>, redux: JObject<'local>, init: JObject<'local>) -> () {
    let h = check(env, handle(h))?;
    let raw = env.get_raw();
    // SAFETY: this thread's environment; the objects are this call's live arguments.
    let methods = unsafe {
        crate::lent::reduction_methods(raw, shape.as_raw(), redux.as_raw(), init.as_raw())
    };
    check(env, h.set_reduction_methods(methods))
});
