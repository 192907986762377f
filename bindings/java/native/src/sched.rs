//! Scheduling contexts and transactions for Java. A Java `Transaction` owns a boxed core
//! `Transaction`; an epoch's start function is a Java `BooleanSupplier`, called on the
//! worker that begins the epoch.

use crate::jvm::{self, jni_raw, GlobalObj};
use crate::natives::{check, fail, native, runtime, string, workers};
use jni::objects::{JIntArray, JObject, JString};
use jni::sys::{jint, jlong};
use starpu_core::sched::contexts::ContextOptions;
use starpu_core::task::Transaction;
use starpu_core::Error;
use std::ptr;

fn context_id(ctx: jint) -> Result<u32, Error> {
    u32::try_from(ctx).map_err(|_| Error::invalid(format!("no scheduling context {ctx}")))
}

native!(Java_fr_labri_hpccloud_starpu_internal_Native_contextCreate(env,
    name: JString<'local>, policy: JString<'local>, ids: JIntArray<'local>) -> jint {
    let name = string(env, &name)?.unwrap_or_default();
    let mut options = ContextOptions::named(&name);
    if let Some(p) = string(env, &policy)? {
        options = options.policy(&p);
    }
    let ws = workers(env, &ids)?;
    let rt = check(env, runtime())?;
    let id = check(env, rt.create_context(&ws, options))?;
    Ok(id as jint)
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_contextAddWorkers(env, ctx: jint, ids: JIntArray<'local>) -> () {
    let ws = workers(env, &ids)?;
    let rt = check(env, runtime())?;
    check(env, context_id(ctx).and_then(|c| rt.add_context_workers(c, &ws)))
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_contextRemoveWorkers(env, ctx: jint, ids: JIntArray<'local>) -> () {
    let ws = workers(env, &ids)?;
    let rt = check(env, runtime())?;
    check(env, context_id(ctx).and_then(|c| rt.remove_context_workers(c, &ws)))
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_contextSetInheritor(env, ctx: jint, heir: jint) -> () {
    let rt = check(env, runtime())?;
    let r = context_id(ctx).and_then(|c| rt.set_context_inheritor(c, context_id(heir)?));
    check(env, r)
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_contextDelete(env, ctx: jint) -> () {
    let rt = check(env, runtime())?;
    check(env, context_id(ctx).and_then(|c| rt.delete_context(c)))
});

/// The transaction a Java `Transaction` object owns.
///
/// # Safety
/// `p` was returned by `transactionOpen` and not freed yet.
pub(crate) unsafe fn transaction_at<'a>(p: jlong) -> Result<&'a Transaction, Error> {
    (p as *const Transaction)
        .as_ref()
        .ok_or_else(|| Error::invalid("no transaction"))
}

/// An epoch's start function: asks the Java `BooleanSupplier`. One that throws (or that
/// cannot be called) answers no: the epoch's tasks do not run.
fn start_function(supplier: GlobalObj) -> impl FnOnce() -> bool + Send + 'static {
    move || {
        let (Some(ids), Ok(env)) = (jvm::ids_ready(), jvm::env()) else {
            return false;
        };
        // SAFETY: this thread's environment, a live global reference and the method id of
        // `BooleanSupplier.getAsBoolean()Z`.
        unsafe {
            let yes = jni_raw!(
                env,
                CallBooleanMethodA,
                supplier.raw(),
                ids.supplier_get,
                ptr::null()
            );
            if jni_raw!(env, ExceptionCheck) {
                let (text, _) = jvm::take_exception(env);
                let msg =
                    format!("a transaction's start function threw {text}: its epoch is cancelled");
                let _ = starpu_core::runtime::with_global(|rt| rt.warn(&msg));
                return false;
            }
            yes
        }
    }
}

/// A global reference to the start function Java gave (which must not be null).
fn supplier(env: &mut jni::Env, start: &JObject) -> Result<GlobalObj, Error> {
    if start.is_null() {
        return Err(Error::invalid("a transaction epoch needs a start function"));
    }
    // SAFETY: this thread's environment and a live local reference.
    Ok(unsafe { GlobalObj::new(env.get_raw(), start.as_raw()) })
}

native!(Java_fr_labri_hpccloud_starpu_internal_Native_transactionOpen(env, start: JObject<'local>) -> jlong {
    let start = supplier(env, &start);
    let start = check(env, start)?;
    let rt = check(env, runtime())?;
    let trs = check(env, rt.transaction_open(start_function(start)))?;
    Ok(Box::into_raw(Box::new(trs)) as jlong)
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_transactionNextEpoch(env, trs: jlong, start: JObject<'local>) -> () {
    let start = supplier(env, &start);
    let start = check(env, start)?;
    let rt = check(env, runtime())?;
    // SAFETY: a live transaction of a Java Transaction object (kept alive by the caller).
    let t = check(env, unsafe { transaction_at(trs) })?;
    check(env, t.next_epoch(&rt, start_function(start)))
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_transactionClose(env, trs: jlong) -> () {
    let rt = check(env, runtime())?;
    // SAFETY: as above.
    let t = check(env, unsafe { transaction_at(trs) })?;
    match t.close(&rt) {
        Ok(()) => Ok(()),
        Err(e) => fail(env, &e),
    }
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_transactionFree(_env, trs: jlong) -> () {
    if trs != 0 {
        // SAFETY: made by transactionOpen; the Java object's cleaner frees it once.
        drop(unsafe { Box::from_raw(trs as *mut Transaction) });
    }
    Ok(())
});
