//! The plumbing of the native methods of `fr.labri.hpccloud.starpu.internal.Native`
//! (argument conversion, errors thrown as the `StarPUException` subclass of their kind),
//! and the runtime's own methods. Every entry point runs inside `EnvUnowned::with_env`,
//! which catches panics, so nothing unwinds into the JVM. The other methods live with what
//! they do: tasks.rs, data.rs, sched.rs.

use crate::jvm;
use jni::errors::Error as JniError;
use jni::objects::{JIntArray, JLongArray, JString};
use jni::sys::{jboolean, jint};
use jni::Env;
use starpu_core::data::registry;
use starpu_core::{Config, DataHandle, Error, Runtime};
use std::sync::Arc;

pub(crate) type JResult<T> = Result<T, JniError>;

/// Throws `e` as the exception of its kind and returns the error that tells `with_env` an
/// exception is pending.
pub(crate) fn fail<T>(env: &mut Env, e: &Error) -> JResult<T> {
    jvm::throw_error(env, e);
    Err(JniError::JavaException)
}

pub(crate) fn check<T>(env: &mut Env, r: Result<T, Error>) -> JResult<T> {
    r.or_else(|e| fail(env, &e))
}

/// The running runtime, or the error a call before `init` (or after `shutdown`) gets.
pub(crate) fn runtime() -> Result<Arc<Runtime>, Error> {
    starpu_core::runtime::global()
}

/// The registered handle whose value Java holds (0 is C's NULL handle).
pub(crate) fn handle(addr: i64) -> Result<DataHandle, Error> {
    registry::resolve(addr as usize)
}

pub(crate) fn string(env: &Env, s: &JString) -> JResult<Option<String>> {
    if s.is_null() {
        return Ok(None);
    }
    Ok(Some(s.try_to_string(env)?))
}

pub(crate) fn longs(env: &Env, a: &JLongArray) -> JResult<Vec<i64>> {
    if a.is_null() {
        return Ok(Vec::new());
    }
    let mut v = vec![0; a.len(env)?];
    a.get_region(env, 0, &mut v)?;
    Ok(v)
}

pub(crate) fn ints(env: &Env, a: &JIntArray) -> JResult<Option<Vec<i32>>> {
    if a.is_null() {
        return Ok(None);
    }
    let mut v = vec![0; a.len(env)?];
    a.get_region(env, 0, &mut v)?;
    Ok(Some(v))
}

/// Worker ids as the core takes them.
pub(crate) fn workers(env: &mut Env, a: &JIntArray) -> JResult<Vec<usize>> {
    let ids = ints(env, a)?.unwrap_or_default();
    let r = ids
        .iter()
        .map(|&w| usize::try_from(w).map_err(|_| Error::invalid(format!("no worker {w}"))))
        .collect();
    check(env, r)
}

/// A Java `long[]` holding `values` (a local reference returned to Java).
pub(crate) fn long_array<'local>(
    env: &mut Env<'local>,
    values: &[i64],
) -> JResult<JLongArray<'local>> {
    let a = JLongArray::new(env, values.len())?;
    a.set_region(env, 0, values)?;
    Ok(a)
}

/// Defines `Java_fr_labri_hpccloud_starpu_internal_Native_<name>`.
macro_rules! native {
    ($name:ident ($env:ident $(, $arg:ident : $ty:ty)*) -> $ret:ty $body:block) => {
        #[unsafe(no_mangle)]
        pub extern "system" fn $name<'local>(
            mut unowned: jni::EnvUnowned<'local>,
            _class: jni::objects::JClass<'local>,
            $($arg: $ty),*
        ) -> $ret {
            unowned
                .with_env(|$env: &mut jni::Env<'local>| -> $crate::natives::JResult<$ret> {
                    $body
                })
                .resolve::<jni::errors::ThrowRuntimeExAndDefault>()
        }
    };
}
pub(crate) use native;

native!(Java_fr_labri_hpccloud_starpu_internal_Native_setenv(env,
    name: JString<'local>, value: JString<'local>, overwrite: jboolean) -> () {
    let (Some(name), Some(value)) = (string(env, &name)?, string(env, &value)?) else {
        return fail(env, &Error::invalid("setenv: the name and the value must not be null"));
    };
    if name.is_empty() || name.contains('=') || name.contains('\0') || value.contains('\0') {
        return fail(env, &Error::invalid(format!("setenv: bad variable name {name:?}")));
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
    check(env, starpu_core::shutdown())
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_isInitialized(_env) -> jboolean {
    Ok(starpu_core::runtime::is_initialized())
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_workerCount(env) -> jint {
    let rt = check(env, runtime())?;
    Ok(rt.workers().len() as jint)
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_workerCountOf(env, where_: jint) -> jint {
    use starpu_core::worker::WorkerKind;
    let kind = match where_ {
        crate::protocol::WHERE_CPU => WorkerKind::Cpu,
        crate::protocol::WHERE_OPENCL => WorkerKind::OpenCl,
        crate::protocol::WHERE_CUDA => WorkerKind::Cuda,
        _ => return fail(env, &Error::invalid(format!("unknown worker type {where_}"))),
    };
    let rt = check(env, runtime())?;
    Ok(rt.worker_ids(Some(kind)).len() as jint)
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_workerId(_env) -> jint {
    Ok(starpu_core::worker::current_worker_id().map_or(-1, |w| w as jint))
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_combinedWorkerSize(_env) -> jint {
    Ok(starpu_core::parallel::combined_size() as jint)
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_combinedWorkerRank(_env) -> jint {
    Ok(starpu_core::parallel::combined_rank() as jint)
});
