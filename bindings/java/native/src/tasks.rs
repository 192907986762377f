//! Codelets, tasks, waits and tags for Java. A Java `Task` object owns a boxed `TaskRef`
//! (so that other tasks may depend on it before it is submitted, and waiting for it follows
//! the core's rules); `StarPU.submitTask` submits without one, as `starpu_task_insert`
//! does. Tasks submitted with detach off are kept by the core for `StarPU.waitForTasks`.

use crate::codelets::{self, JavaTask, Signature};
use crate::jvm::GlobalObj;
use crate::natives::{check, fail, handle, ints, longs, native, runtime, string};
use crate::protocol;
use jni::objects::{JIntArray, JLongArray, JObject, JString};
use jni::sys::{jboolean, jint, jlong};
use starpu_core::{Error, Runtime, TaskRef};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The task a Java `Task` object owns (`Native.taskCreate`).
///
/// # Safety
/// `p` was returned by `taskCreate` and not freed yet (the Java object keeps it alive).
unsafe fn task_at<'a>(p: jlong) -> Result<&'a TaskRef, Error> {
    (p as *const TaskRef)
        .as_ref()
        .ok_or_else(|| Error::invalid("no task"))
}

native!(Java_fr_labri_hpccloud_starpu_internal_Native_codelet(env,
    name: JString<'local>, modes: JIntArray<'local>, kind: jint, max_parallelism: jint,
    where_: jint) -> jlong {
    let sig = Signature {
        name: string(env, &name)?.unwrap_or_else(|| "codelet".into()),
        modes: ints(env, &modes)?.map(|m| m.into_iter().map(|b| b as u32).collect()),
        kind,
        max_parallelism,
        where_,
    };
    check(env, codelets::codelet(sig))
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_taskCreate(_env) -> jlong {
    Ok(Box::into_raw(Box::new(starpu_core::Task::new())) as jlong)
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_taskFree(_env, task: jlong) -> () {
    if task != 0 {
        // SAFETY: made by taskCreate; the Java object's cleaner frees it once.
        drop(unsafe { Box::from_raw(task as *mut TaskRef) });
    }
    Ok(())
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_taskId(env, task: jlong) -> jlong {
    // SAFETY: a live task of a Java Task object.
    let t = check(env, unsafe { task_at(task) })?;
    Ok(t.id() as jlong)
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_taskDeclareDeps(env,
    task: jlong, preds: JLongArray<'local>, end: jboolean) -> () {
    // SAFETY: live tasks of Java Task objects (the caller keeps them alive).
    let me = check(env, unsafe { task_at(task) })?.clone();
    for p in longs(env, &preds)? {
        let pred = check(env, unsafe { task_at(p) })?;
        if end {
            me.add_end_dependency(pred);
        } else {
            check(env, me.add_dependency(pred))?;
        }
    }
    Ok(())
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_taskWait(env, task: jlong, timeout_nanos: jlong) -> () {
    let rt = check(env, runtime())?;
    // SAFETY: a live task of a Java Task object.
    let t = check(env, unsafe { task_at(task) })?;
    let r = match u64::try_from(timeout_nanos) {
        Ok(n) => rt.wait_until(t, Instant::now() + Duration::from_nanos(n)),
        Err(_) => rt.wait(t),
    };
    check(env, r)
});

/// What a submission asks for besides its buffers.
struct Options {
    flags: i32,
    priority: i32,
    name: Option<String>,
    tag: u64,
    context: i32,
    transaction: jlong,
}

/// Submits the Java task `payload` as `task` (or a new task); returns its id.
fn submit(
    rt: &Runtime,
    task: Option<TaskRef>,
    codelet: i64,
    handles: &[i64],
    modes: &[i32],
    payload: Arc<JavaTask>,
    o: Options,
) -> Result<u64, Error> {
    let cl = codelets::codelet_at(codelet)?;
    let mut b = match task {
        Some(t) => rt.task_for(t, Some(cl)),
        None => rt.task(&cl),
    };
    b = b.payload(payload.clone()).priority(o.priority);
    for (i, &addr) in handles.iter().enumerate() {
        let h = handle(addr)
            .map_err(|e| Error::invalid(format!("task submission: buffer {i}: {e}")))?;
        let mode = crate::jvm::mode_of(modes.get(i).copied().unwrap_or(0))?;
        b = b.buffer(&h, mode);
    }
    if let Some(n) = o.name {
        b = b.name(n);
    }
    if !payload.callback.is_null() {
        b = b.callback(move |_| codelets::run_callback(&payload));
    }
    if o.flags & protocol::TAGGED != 0 {
        b = b.tag(o.tag);
    }
    if let Ok(ctx) = u32::try_from(o.context) {
        b = b.sched_ctx(ctx);
    }
    if o.transaction != 0 {
        // SAFETY: a live transaction of a Java Transaction object (kept alive by the caller).
        let trs = unsafe { crate::sched::transaction_at(o.transaction) }?;
        b = b.transaction(trs);
    }
    let keep = o.flags & protocol::NODETACH != 0;
    let t = b
        .synchronous(o.flags & protocol::SYNC != 0)
        .detach(!keep)
        .submit()?;
    if keep {
        rt.keep_for_wait(&t);
    }
    Ok(t.id())
}

native!(Java_fr_labri_hpccloud_starpu_internal_Native_submit(env,
    task: jlong, codelet: jlong, invocation: JObject<'local>, handles: JLongArray<'local>,
    modes: JIntArray<'local>, flags: jint, priority: jint, name: JString<'local>,
    callback: JObject<'local>, tag: jlong, context: jint, transaction: jlong) -> jlong {
    let addrs = longs(env, &handles)?;
    let modes = ints(env, &modes)?.unwrap_or_default();
    let name = string(env, &name)?;
    let task = if task == 0 {
        None
    } else {
        // SAFETY: a live task of a Java Task object (kept alive by the caller).
        Some(check(env, unsafe { task_at(task) })?.clone())
    };
    let raw = env.get_raw();
    // SAFETY: this thread's environment; the references are this call's arguments.
    let payload = Arc::new(unsafe {
        JavaTask {
            invocation: GlobalObj::new(raw, invocation.as_raw()),
            callback: GlobalObj::new(raw, callback.as_raw()),
        }
    });
    let o = Options { flags, priority, name, tag: tag as u64, context, transaction };
    // The process-wide runtime without cloning its `Arc` (a counter every worker touches).
    let r = starpu_core::runtime::with_global(|rt| {
        submit(rt, task, codelet, &addrs, &modes, payload, o)
    });
    match r.and_then(|r| r) {
        Ok(id) => Ok(id as jlong),
        Err(e) => fail(env, &e),
    }
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_waitTasks(env, ids: JLongArray<'local>) -> () {
    let ids: Vec<u64> = longs(env, &ids)?.into_iter().map(|i| i as u64).collect();
    let rt = check(env, runtime())?;
    check(env, rt.wait_ids(&ids))
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_waitForAll(env) -> () {
    let rt = check(env, runtime())?;
    check(env, rt.wait_for_all())
});

fn tags(env: &mut jni::Env, a: &JLongArray) -> crate::natives::JResult<Vec<u64>> {
    Ok(longs(env, a)?.into_iter().map(|t| t as u64).collect())
}

native!(Java_fr_labri_hpccloud_starpu_internal_Native_tagDeclareDeps(env, tag: jlong, deps: JLongArray<'local>) -> () {
    let deps = tags(env, &deps)?;
    let rt = check(env, runtime())?;
    check(env, rt.tags.declare_deps(tag as u64, &deps))
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_tagNotify(env, tag: jlong) -> () {
    let rt = check(env, runtime())?;
    rt.tag_notify(tag as u64);
    Ok(())
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_tagWait(env, wanted: JLongArray<'local>) -> () {
    let wanted = tags(env, &wanted)?;
    let rt = check(env, runtime())?;
    check(env, rt.tag_wait(&wanted))
});
