//! Scheduling contexts (`starpu_sched_ctx.h`): the C calls over the core's contexts
//! (`starpu_core::sched::contexts`), the worker collections policies iterate, and the
//! per-context pointers the application and its policies keep (`policy_data`,
//! `user_data`).
//!
//! Options of `starpu_sched_ctx_create` (walked in csrc/varargs.c, decoded here):
//! `POLICY_NAME`, `POLICY_STRUCT`, `POLICY_MIN_PRIO`, `POLICY_MAX_PRIO`, `POLICY_INIT`
//! (called with the new context's id once its policy is in place) and `USER_DATA` act as
//! in StarPU. Accepted and without effect in this CPU-only build, as in a StarPU built
//! without the feature: `HIERARCHY_LEVEL` and `NESTED` (kept, returned by
//! `starpu_sched_ctx_get_hierarchy_level`; there is no hierarchical scheduling),
//! `AWAKE_WORKERS` (workers always sleep when idle here), `CUDA_NSMS` (no CUDA) and
//! `SUB_CTXS` (nested contexts are not scheduled hierarchically).

/// The path the Fortran helpers (compiled into this library) import it by.
pub use crate::abi::_starpu_sched_ctx_options;
use crate::abi::*;
use crate::ffi::{self, int_call, value_call};
use crate::sched_policy;
use libc::{c_char, c_int, c_uint, c_void};
use starpu_core::sched::contexts::{self, ContextOptions};
use starpu_core::Error;
use std::sync::atomic::{AtomicPtr, AtomicU32, Ordering};
use std::sync::{Mutex, OnceLock};

/// `STARPU_NMAX_SCHED_CTXS`: also the "no context" answer.
pub(crate) const NMAX: c_uint = contexts::MAX_CONTEXTS as c_uint;

pub const STARPU_SCHED_CTX_POLICY_NAME: c_int = 1 << 16;
pub const STARPU_SCHED_CTX_POLICY_STRUCT: c_int = 2 << 16;
pub const STARPU_SCHED_CTX_POLICY_MIN_PRIO: c_int = 3 << 16;
pub const STARPU_SCHED_CTX_POLICY_MAX_PRIO: c_int = 4 << 16;
pub const STARPU_SCHED_CTX_HIERARCHY_LEVEL: c_int = 5 << 16;
pub const STARPU_SCHED_CTX_NESTED: c_int = 6 << 16;
pub const STARPU_SCHED_CTX_AWAKE_WORKERS: c_int = 7 << 16;
pub const STARPU_SCHED_CTX_POLICY_INIT: c_int = 8 << 16;
pub const STARPU_SCHED_CTX_USER_DATA: c_int = 9 << 16;
pub const STARPU_SCHED_CTX_CUDA_NSMS: c_int = 10 << 16;
pub const STARPU_SCHED_CTX_SUB_CTXS: c_int = 11 << 16;
/// The global context's id.
pub const STARPU_GLOBAL_SCHED_CTX: c_uint = 0;

/// A collection and the id array it points into.
struct Collection {
    c: starpu_worker_collection,
    ids: [c_int; STARPU_NMAXWORKERS],
}

// SAFETY: the collection is written under COLLECTIONS' lock (membership changes, from the
// application) and read by policies, as StarPU's are.
unsafe impl Send for Collection {}

static COLLECTIONS: [OnceLock<Mutex<Box<Collection>>>; contexts::MAX_CONTEXTS] =
    [const { OnceLock::new() }; contexts::MAX_CONTEXTS];
static POLICY_DATA: [AtomicPtr<c_void>; contexts::MAX_CONTEXTS] =
    [const { AtomicPtr::new(std::ptr::null_mut()) }; contexts::MAX_CONTEXTS];
static USER_DATA: [AtomicPtr<c_void>; contexts::MAX_CONTEXTS] =
    [const { AtomicPtr::new(std::ptr::null_mut()) }; contexts::MAX_CONTEXTS];
static HIERARCHY: [AtomicU32; contexts::MAX_CONTEXTS] =
    [const { AtomicU32::new(0) }; contexts::MAX_CONTEXTS];
/// The application's policy struct of each context (null: a built-in policy).
static POLICY_STRUCT: [AtomicPtr<starpu_sched_policy>; contexts::MAX_CONTEXTS] =
    [const { AtomicPtr::new(std::ptr::null_mut()) }; contexts::MAX_CONTEXTS];

pub(crate) unsafe extern "C" fn list_has_next(
    w: *mut starpu_worker_collection,
    it: *mut starpu_sched_ctx_iterator,
) -> c_uint {
    ((*it).cursor >= 0 && ((*it).cursor as c_uint) < (*w).nworkers) as c_uint
}

pub(crate) unsafe extern "C" fn list_get_next(
    w: *mut starpu_worker_collection,
    it: *mut starpu_sched_ctx_iterator,
) -> c_int {
    let i = (*it).cursor;
    if i < 0 || i as c_uint >= (*w).nworkers {
        return -1;
    }
    (*it).cursor += 1;
    *(*w).workerids.add(i as usize)
}

pub(crate) unsafe extern "C" fn list_add(w: *mut starpu_worker_collection, worker: c_int) -> c_int {
    if !(0..STARPU_NMAXWORKERS as c_int).contains(&worker) || (*w).present[worker as usize] != 0 {
        return -1;
    }
    *(*w).workerids.add((*w).nworkers as usize) = worker;
    (*w).nworkers += 1;
    (*w).present[worker as usize] = 1;
    (*w).is_unblocked[worker as usize] = 1;
    worker
}

pub(crate) unsafe extern "C" fn list_remove(
    w: *mut starpu_worker_collection,
    worker: c_int,
) -> c_int {
    if !(0..STARPU_NMAXWORKERS as c_int).contains(&worker) || (*w).present[worker as usize] == 0 {
        return -1;
    }
    let n = (*w).nworkers as usize;
    let ids = std::slice::from_raw_parts_mut((*w).workerids, n);
    if let Some(pos) = ids.iter().position(|&x| x == worker) {
        ids.copy_within(pos + 1.., pos);
        (*w).nworkers -= 1;
    }
    (*w).present[worker as usize] = 0;
    (*w).is_unblocked[worker as usize] = 0;
    worker
}

unsafe extern "C" fn list_init(_w: *mut starpu_worker_collection) {}
unsafe extern "C" fn list_deinit(_w: *mut starpu_worker_collection) {}

pub(crate) unsafe extern "C" fn list_init_iterator(
    _w: *mut starpu_worker_collection,
    it: *mut starpu_sched_ctx_iterator,
) {
    (*it).cursor = 0;
    (*it).value = std::ptr::null_mut();
    (*it).possible_value = std::ptr::null_mut();
    (*it).possibly_parallel = -1;
}

pub(crate) unsafe extern "C" fn list_init_iterator_for_parallel_tasks(
    w: *mut starpu_worker_collection,
    it: *mut starpu_sched_ctx_iterator,
    _task: *mut starpu_task,
) {
    list_init_iterator(w, it);
}

fn collection(ctx: usize) -> &'static Mutex<Box<Collection>> {
    COLLECTIONS[ctx].get_or_init(|| {
        // SAFETY: all-zero is a valid value of every field (null pointers, None).
        let mut b: Box<Collection> = Box::new(unsafe { std::mem::zeroed() });
        b.c.r#type = 1; // STARPU_WORKER_LIST
        b.c.has_next = Some(list_has_next);
        b.c.get_next = Some(list_get_next);
        b.c.add = Some(list_add);
        b.c.remove = Some(list_remove);
        b.c.init = Some(list_init);
        b.c.deinit = Some(list_deinit);
        b.c.init_iterator = Some(list_init_iterator);
        b.c.init_iterator_for_parallel_tasks = Some(list_init_iterator_for_parallel_tasks);
        Mutex::new(b)
    })
}

/// Rewrites context `ctx`'s collection from the core's members.
pub(crate) fn refresh_collection(ctx: u32) {
    let workers = ffi::runtime()
        .ok()
        .and_then(|rt| rt.context_workers(ctx).ok())
        .unwrap_or_default();
    let mut g = collection(ctx as usize)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    let b = &mut **g;
    b.ids = [0; STARPU_NMAXWORKERS];
    b.c.present = [0; STARPU_NMAXWORKERS];
    b.c.is_unblocked = [0; STARPU_NMAXWORKERS];
    for (i, &w) in workers.iter().enumerate() {
        b.ids[i] = w as c_int;
        b.c.present[w] = 1;
        b.c.is_unblocked[w] = 1;
    }
    b.c.nworkers = workers.len() as c_uint;
    b.c.workerids = b.ids.as_mut_ptr();
}

/// Forgets the per-context pointers of `ctx` (deleted, or the runtime stopped).
pub(crate) fn forget(ctx: u32) {
    let i = ctx as usize;
    POLICY_DATA[i].store(std::ptr::null_mut(), Ordering::SeqCst);
    USER_DATA[i].store(std::ptr::null_mut(), Ordering::SeqCst);
    HIERARCHY[i].store(0, Ordering::SeqCst);
    POLICY_STRUCT[i].store(std::ptr::null_mut(), Ordering::SeqCst);
}

/// Resets every context's pointers and collections at `starpu_init`.
pub(crate) fn reset_all(global_policy: *mut starpu_sched_policy) {
    for c in 0..NMAX {
        forget(c);
    }
    POLICY_STRUCT[0].store(global_policy, Ordering::SeqCst);
    refresh_collection(0);
}

pub(crate) unsafe fn worker_list(
    workerids: *const c_int,
    n: c_int,
) -> starpu_core::Result<Vec<usize>> {
    if workerids.is_null() || n <= 0 {
        if n > 0 {
            return Err(Error::invalid(format!(
                "{n} workers announced but the worker array is NULL"
            )));
        }
        return Ok(Vec::new());
    }
    std::slice::from_raw_parts(workerids, n as usize)
        .iter()
        .map(|&w| usize::try_from(w).map_err(|_| Error::invalid(format!("invalid worker id {w}"))))
        .collect()
}

pub(crate) fn ctx_index(ctx: c_uint) -> starpu_core::Result<u32> {
    if ctx >= NMAX {
        return Err(Error::invalid(format!(
            "scheduling context {ctx} does not exist (ids are below STARPU_NMAX_SCHED_CTXS={NMAX})"
        )));
    }
    Ok(ctx)
}

/// The body of `starpu_sched_ctx_create` once its options are read (called by the
/// variadic walker). `nworkers == -1` or a NULL array with it means every worker.
///
/// # Safety
/// `workerids` holds `nworkers` ids; `name` is NULL or a C string; `o` is valid.
#[no_mangle]
pub unsafe extern "C" fn _starpu_sched_ctx_create_with(
    workerids: *const c_int,
    nworkers: c_int,
    name: *const c_char,
    o: *const _starpu_sched_ctx_options,
) -> c_uint {
    value_call("starpu_sched_ctx_create", NMAX, || {
        let o = &*o;
        if o.bad_key != 0 {
            return Err(Error::invalid(format!(
                "unknown option {:#x} (is the list terminated by 0?)",
                o.bad_key
            )));
        }
        let rt = ffi::runtime()?;
        let workers = if nworkers == -1 || (workerids.is_null() && nworkers < 0) {
            rt.worker_ids(None)
        } else {
            worker_list(workerids, nworkers)?
        };
        let mut opts = ContextOptions::named(&ffi::string(name).unwrap_or_default());
        opts.policy = ffi::string(o.policy_name);
        if o.min_prio_set != 0 {
            opts.min_priority = Some(o.min_prio);
        }
        if o.max_prio_set != 0 {
            opts.max_priority = Some(o.max_prio);
        }
        if !o.policy.is_null() {
            opts.custom_policy = Some(sched_policy::factory(o.policy, None)?);
        }
        let id = rt.create_context(&workers, opts)?;
        let i = id as usize;
        USER_DATA[i].store(o.user_data, Ordering::SeqCst);
        HIERARCHY[i].store(o.hierarchy_level, Ordering::SeqCst);
        POLICY_STRUCT[i].store(o.policy, Ordering::SeqCst);
        refresh_collection(id);
        // An application policy is started with its collection in place.
        sched_policy::start(id);
        if let Some(init) = o.init_sched {
            init(id);
        }
        Ok(id)
    })
}

/// `starpu_sched_ctx_create_inside_interval`: a context over `min_ncpus`..`max_ncpus`
/// CPU workers (the most available); GPUs are not in this build.
///
/// # Safety
/// `policy_name` and `name` are NULL or C strings.
#[no_mangle]
pub unsafe extern "C" fn starpu_sched_ctx_create_inside_interval(
    policy_name: *const c_char,
    name: *const c_char,
    min_ncpus: c_int,
    max_ncpus: c_int,
    _min_ngpus: c_int,
    _max_ngpus: c_int,
    _allow_overlap: c_uint,
) -> c_uint {
    value_call("starpu_sched_ctx_create_inside_interval", NMAX, || {
        let rt = ffi::runtime()?;
        let all = rt.worker_ids(None);
        if min_ncpus as usize > all.len() {
            return Err(Error::invalid(format!(
                "{min_ncpus} CPU workers asked for at least, there are {}",
                all.len()
            )));
        }
        let n = (max_ncpus.max(min_ncpus).max(0) as usize).min(all.len());
        let mut opts = ContextOptions::named(&ffi::string(name).unwrap_or_default());
        opts.policy = ffi::string(policy_name);
        let id = rt.create_context(&all[..n], opts)?;
        refresh_collection(id);
        Ok(id)
    })
}

/// `starpu_sched_ctx_delete`: its workers go to the inheritor (if set), its tasks to
/// the inheritor or the global context.
#[no_mangle]
pub extern "C" fn starpu_sched_ctx_delete(ctx: c_uint) {
    value_call("starpu_sched_ctx_delete", (), || {
        let rt = ffi::runtime()?;
        let id = ctx_index(ctx)?;
        let heir = rt.context_inheritor(id)?;
        rt.delete_context(id)?;
        forget(id);
        refresh_collection(id);
        if let Some(h) = heir {
            refresh_collection(h);
        }
        Ok(())
    })
}

/// `starpu_sched_ctx_add_workers`.
///
/// # Safety
/// `workerids` holds `nworkers` ids.
#[no_mangle]
pub unsafe extern "C" fn starpu_sched_ctx_add_workers(
    workerids: *mut c_int,
    nworkers: c_uint,
    ctx: c_uint,
) {
    value_call("starpu_sched_ctx_add_workers", (), || {
        let ws = worker_list(workerids, nworkers as c_int)?;
        let id = ctx_index(ctx)?;
        ffi::runtime()?.add_context_workers(id, &ws)?;
        refresh_collection(id);
        Ok(())
    })
}

/// `starpu_sched_ctx_remove_workers`.
///
/// # Safety
/// `workerids` holds `nworkers` ids.
#[no_mangle]
pub unsafe extern "C" fn starpu_sched_ctx_remove_workers(
    workerids: *mut c_int,
    nworkers: c_uint,
    ctx: c_uint,
) {
    value_call("starpu_sched_ctx_remove_workers", (), || {
        let ws = worker_list(workerids, nworkers as c_int)?;
        let id = ctx_index(ctx)?;
        ffi::runtime()?.remove_context_workers(id, &ws)?;
        refresh_collection(id);
        Ok(())
    })
}

/// `starpu_sched_ctx_set_inheritor`.
#[no_mangle]
pub extern "C" fn starpu_sched_ctx_set_inheritor(ctx: c_uint, inheritor: c_uint) {
    value_call("starpu_sched_ctx_set_inheritor", (), || {
        ffi::runtime()?.set_context_inheritor(ctx_index(ctx)?, ctx_index(inheritor)?)
    })
}

/// `starpu_sched_ctx_get_inheritor`: `STARPU_NMAX_SCHED_CTXS` when none is set.
#[no_mangle]
pub extern "C" fn starpu_sched_ctx_get_inheritor(ctx: c_uint) -> c_uint {
    value_call("starpu_sched_ctx_get_inheritor", NMAX, || {
        Ok(ffi::runtime()?
            .context_inheritor(ctx_index(ctx)?)?
            .unwrap_or(NMAX))
    })
}

/// `starpu_sched_ctx_get_hierarchy_level`: what `STARPU_SCHED_CTX_HIERARCHY_LEVEL` said
/// (no hierarchical scheduling here).
#[no_mangle]
pub extern "C" fn starpu_sched_ctx_get_hierarchy_level(ctx: c_uint) -> c_uint {
    HIERARCHY
        .get(ctx as usize)
        .map_or(0, |h| h.load(Ordering::SeqCst))
}

/// `starpu_sched_ctx_set_context`: the context this thread's tasks go to when they name
/// none (NULL: back to the global context).
///
/// # Safety
/// `ctx` is NULL or points to a context id.
#[no_mangle]
pub unsafe extern "C" fn starpu_sched_ctx_set_context(ctx: *mut c_uint) {
    let id = ctx.as_ref().copied().filter(|&c| c < NMAX);
    contexts::set_current_context(id);
}

/// `starpu_sched_ctx_get_context`: the thread's context, `STARPU_NMAX_SCHED_CTXS` if
/// none was set.
#[no_mangle]
pub extern "C" fn starpu_sched_ctx_get_context() -> c_uint {
    contexts::current_context().unwrap_or(NMAX)
}

/// `starpu_sched_ctx_stop_task_submission`: tasks of contexts without workers wait in
/// their context's queue here, there is no list to stop.
#[no_mangle]
pub extern "C" fn starpu_sched_ctx_stop_task_submission() {}

/// `starpu_sched_ctx_finished_submit`: the application submits no more tasks to `ctx`.
/// When its last task ends, a context with an inheritor is closed: its close callback
/// runs, then its workers join the inheritor.
#[no_mangle]
pub extern "C" fn starpu_sched_ctx_finished_submit(ctx: c_uint) {
    let _ = int_call("starpu_sched_ctx_finished_submit", || {
        ffi::runtime()?.context_finished_submit(ctx_index(ctx)?)
    });
}

/// `starpu_sched_ctx_get_workers_list`: a `malloc`ed array of the context's workers
/// (freed by the caller), and their number.
///
/// # Safety
/// `workerids` is a valid pointer.
#[no_mangle]
pub unsafe extern "C" fn starpu_sched_ctx_get_workers_list(
    ctx: c_uint,
    workerids: *mut *mut c_int,
) -> c_uint {
    value_call("starpu_sched_ctx_get_workers_list", 0, || {
        ffi::non_null(workerids, "workerids")?;
        let ws = ffi::runtime()?.context_workers(ctx_index(ctx)?)?;
        let p = libc::malloc(std::mem::size_of::<c_int>() * ws.len().max(1)) as *mut c_int;
        if p.is_null() {
            return Err(Error::invalid("out of memory"));
        }
        for (i, &w) in ws.iter().enumerate() {
            *p.add(i) = w as c_int;
        }
        *workerids = p;
        Ok(ws.len() as c_uint)
    })
}

/// `starpu_sched_ctx_get_workers_list_raw`: the collection's own array (not to be freed).
///
/// # Safety
/// `workerids` is a valid pointer.
#[no_mangle]
pub unsafe extern "C" fn starpu_sched_ctx_get_workers_list_raw(
    ctx: c_uint,
    workerids: *mut *mut c_int,
) -> c_uint {
    let c = starpu_sched_ctx_get_worker_collection(ctx);
    if c.is_null() || workerids.is_null() {
        return 0;
    }
    *workerids = (*c).workerids;
    (*c).nworkers
}

fn members(ctx: c_uint) -> Vec<usize> {
    ffi::runtime()
        .ok()
        .and_then(|rt| rt.context_workers(ctx).ok())
        .unwrap_or_default()
}

/// `starpu_sched_ctx_get_nworkers`.
#[no_mangle]
pub extern "C" fn starpu_sched_ctx_get_nworkers(ctx: c_uint) -> c_uint {
    members(ctx).len() as c_uint
}

/// `starpu_sched_ctx_get_nshared_workers`: workers in both contexts.
#[no_mangle]
pub extern "C" fn starpu_sched_ctx_get_nshared_workers(ctx: c_uint, ctx2: c_uint) -> c_uint {
    let b = members(ctx2);
    members(ctx).iter().filter(|w| b.contains(w)).count() as c_uint
}

/// `starpu_sched_ctx_contains_worker`.
#[no_mangle]
pub extern "C" fn starpu_sched_ctx_contains_worker(workerid: c_int, ctx: c_uint) -> c_uint {
    usize::try_from(workerid).is_ok_and(|w| members(ctx).contains(&w)) as c_uint
}

/// `starpu_sched_ctx_contains_type_of_worker`: CPU workers only in this build.
#[no_mangle]
pub extern "C" fn starpu_sched_ctx_contains_type_of_worker(
    arch: starpu_worker_archtype,
    ctx: c_uint,
) -> c_uint {
    // STARPU_CPU_WORKER (0) and STARPU_ANY_WORKER (255) match CPU workers.
    ((arch == 0 || arch == 255) && !members(ctx).is_empty()) as c_uint
}

/// `starpu_sched_ctx_worker_get_id`: the calling worker's id if it belongs to `ctx`,
/// else -1.
#[no_mangle]
pub extern "C" fn starpu_sched_ctx_worker_get_id(ctx: c_uint) -> c_uint {
    match starpu_core::worker::current_worker_id() {
        Some(w) if members(ctx).contains(&w) => w as c_uint,
        _ => -1i32 as c_uint,
    }
}

/// `starpu_sched_ctx_get_ctx_for_task`: the context the task was submitted to.
///
/// # Safety
/// `task` is NULL or a task.
#[no_mangle]
pub unsafe extern "C" fn starpu_sched_ctx_get_ctx_for_task(task: *mut starpu_task) -> c_uint {
    match task.as_ref() {
        Some(t) if t.sched_ctx < NMAX => t.sched_ctx,
        _ => 0,
    }
}

/// `starpu_sched_ctx_overlapping_ctxs_on_worker`: whether the worker is in more than one
/// context.
#[no_mangle]
pub extern "C" fn starpu_sched_ctx_overlapping_ctxs_on_worker(workerid: c_int) -> c_uint {
    let n = ffi::runtime().map_or(0, |rt| {
        usize::try_from(workerid).map_or(0, |w| rt.worker_contexts(w).len())
    });
    (n > 1) as c_uint
}

/// `starpu_sched_ctx_get_user_data`.
#[no_mangle]
pub extern "C" fn starpu_sched_ctx_get_user_data(ctx: c_uint) -> *mut c_void {
    USER_DATA
        .get(ctx as usize)
        .map_or(std::ptr::null_mut(), |p| p.load(Ordering::SeqCst))
}

/// `starpu_sched_ctx_set_user_data`.
#[no_mangle]
pub extern "C" fn starpu_sched_ctx_set_user_data(ctx: c_uint, data: *mut c_void) {
    if let Some(p) = USER_DATA.get(ctx as usize) {
        p.store(data, Ordering::SeqCst);
    }
}

/// `starpu_sched_ctx_set_policy_data`: the policy's private data for `ctx`.
#[no_mangle]
pub extern "C" fn starpu_sched_ctx_set_policy_data(ctx: c_uint, data: *mut c_void) {
    if let Some(p) = POLICY_DATA.get(ctx as usize) {
        p.store(data, Ordering::SeqCst);
    }
}

/// `starpu_sched_ctx_get_policy_data`.
#[no_mangle]
pub extern "C" fn starpu_sched_ctx_get_policy_data(ctx: c_uint) -> *mut c_void {
    POLICY_DATA
        .get(ctx as usize)
        .map_or(std::ptr::null_mut(), |p| p.load(Ordering::SeqCst))
}

/// `starpu_sched_ctx_get_sched_policy`: the application's policy struct of `ctx`, NULL
/// for a built-in policy (they have no C struct here).
#[no_mangle]
pub extern "C" fn starpu_sched_ctx_get_sched_policy(ctx: c_uint) -> *mut starpu_sched_policy {
    POLICY_STRUCT
        .get(ctx as usize)
        .map_or(std::ptr::null_mut(), |p| p.load(Ordering::SeqCst))
}

/// `starpu_sched_ctx_get_worker_collection`: the context's workers, for policies to
/// iterate (`init_iterator`, `has_next`, `get_next`).
#[no_mangle]
pub extern "C" fn starpu_sched_ctx_get_worker_collection(
    ctx: c_uint,
) -> *mut starpu_worker_collection {
    if ctx >= NMAX {
        return std::ptr::null_mut();
    }
    let mut g = collection(ctx as usize)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if g.c.workerids.is_null() {
        drop(g);
        refresh_collection(ctx);
        g = collection(ctx as usize)
            .lock()
            .unwrap_or_else(|e| e.into_inner());
    }
    &mut g.c as *mut starpu_worker_collection
}

/// `starpu_sched_ctx_create_worker_collection`: the context's collection (one list per
/// context here, whatever the type asked).
#[no_mangle]
pub extern "C" fn starpu_sched_ctx_create_worker_collection(
    ctx: c_uint,
    _type: starpu_worker_collection_type,
) -> *mut starpu_worker_collection {
    starpu_sched_ctx_get_worker_collection(ctx)
}

/// `starpu_sched_ctx_delete_worker_collection`: the collection lives with the library.
#[no_mangle]
pub extern "C" fn starpu_sched_ctx_delete_worker_collection(_ctx: c_uint) {}

/// `starpu_sched_ctx_display_workers`: one line per worker of the context.
///
/// # Safety
/// `f` is a valid `FILE *`.
#[no_mangle]
pub unsafe extern "C" fn starpu_sched_ctx_display_workers(ctx: c_uint, f: *mut libc::FILE) {
    if f.is_null() {
        return;
    }
    let Ok(rt) = ffi::runtime() else { return };
    let name = rt.context_name(ctx).unwrap_or_default();
    let line = format!("[sched_ctx {ctx}]: {name}\n\0");
    libc::fputs(line.as_ptr() as *const c_char, f);
    for w in members(ctx) {
        if let Some(wk) = rt.worker(w) {
            let line = format!("\t{}\n\0", wk.name);
            libc::fputs(line.as_ptr() as *const c_char, f);
        }
    }
}

/// `starpu_sched_ctx_get_min_priority`.
#[no_mangle]
pub extern "C" fn starpu_sched_ctx_get_min_priority(ctx: c_uint) -> c_int {
    ffi::runtime()
        .ok()
        .and_then(|rt| rt.context_priority_range(ctx).ok())
        .map_or(0, |p| p.0)
}

/// `starpu_sched_ctx_get_max_priority`.
#[no_mangle]
pub extern "C" fn starpu_sched_ctx_get_max_priority(ctx: c_uint) -> c_int {
    ffi::runtime()
        .ok()
        .and_then(|rt| rt.context_priority_range(ctx).ok())
        .map_or(0, |p| p.1)
}

/// `starpu_sched_ctx_set_min_priority`.
#[no_mangle]
pub extern "C" fn starpu_sched_ctx_set_min_priority(ctx: c_uint, prio: c_int) -> c_int {
    ffi::int_call("starpu_sched_ctx_set_min_priority", || {
        ffi::runtime()?.set_context_min_priority(ctx, prio)
    })
}

/// `starpu_sched_ctx_set_max_priority`.
#[no_mangle]
pub extern "C" fn starpu_sched_ctx_set_max_priority(ctx: c_uint, prio: c_int) -> c_int {
    ffi::int_call("starpu_sched_ctx_set_max_priority", || {
        ffi::runtime()?.set_context_max_priority(ctx, prio)
    })
}

/// `starpu_sched_ctx_min_priority_is_set`: bounds always exist here (the policy's or
/// the ones given).
#[no_mangle]
pub extern "C" fn starpu_sched_ctx_min_priority_is_set(ctx: c_uint) -> c_int {
    ffi::runtime().is_ok_and(|rt| rt.context_exists(ctx)) as c_int
}

/// `starpu_sched_ctx_max_priority_is_set`.
#[no_mangle]
pub extern "C" fn starpu_sched_ctx_max_priority_is_set(ctx: c_uint) -> c_int {
    starpu_sched_ctx_min_priority_is_set(ctx)
}

/// `starpu_sched_set_min_priority`: the global context's.
#[no_mangle]
pub extern "C" fn starpu_sched_set_min_priority(prio: c_int) -> c_int {
    starpu_sched_ctx_set_min_priority(0, prio)
}

/// `starpu_sched_set_max_priority`: the global context's.
#[no_mangle]
pub extern "C" fn starpu_sched_set_max_priority(prio: c_int) -> c_int {
    starpu_sched_ctx_set_max_priority(0, prio)
}

/// `starpu_sched_ctx_get_nready_tasks`: tasks queued in the context's policy.
#[no_mangle]
pub extern "C" fn starpu_sched_ctx_get_nready_tasks(ctx: c_uint) -> c_int {
    ffi::runtime()
        .ok()
        .and_then(|rt| rt.context_nready(ctx).ok())
        .map_or(0, |n| n as c_int)
}

/// `starpu_task_submit_to_ctx`: submits `task` to context `ctx`.
///
/// # Safety
/// As `starpu_task_submit`.
#[no_mangle]
pub unsafe extern "C" fn starpu_task_submit_to_ctx(task: *mut starpu_task, ctx: c_uint) -> c_int {
    if !task.is_null() {
        (*task).sched_ctx = ctx;
    }
    crate::task::submit(task, "starpu_task_submit_to_ctx", None)
}

/// The context a C task names: `task->sched_ctx`, `STARPU_NMAX_SCHED_CTXS` meaning none.
pub(crate) fn of_task(t: &starpu_task) -> Option<u32> {
    (t.sched_ctx != NMAX).then_some(t.sched_ctx)
}

/// Writes `cpus` to a malloc'ed array the caller frees (StarPU's convention for
/// `starpu_sched_ctx_get_available_cpuids`).
///
/// # Safety
/// `out` and `n` are valid for writing.
pub(crate) unsafe fn write_cpuids(cpus: &[usize], out: *mut *mut c_int, n: *mut c_int) {
    let p = libc::malloc(std::mem::size_of::<c_int>() * cpus.len().max(1)) as *mut c_int;
    if p.is_null() {
        *out = std::ptr::null_mut();
        *n = 0;
        return;
    }
    for (i, &c) in cpus.iter().enumerate() {
        *p.add(i) = c as c_int;
    }
    *out = p;
    *n = cpus.len() as c_int;
}

/// `starpu_sched_ctx_get_available_cpuids`: the CPUs of context `ctx` the calling thread
/// may use (see `Runtime::available_cpuids`), in a malloc'ed array the caller frees. An
/// unknown context gives none (NULL, 0) and a message.
///
/// # Safety
/// `cpuids` and `ncpuids` are valid for writing.
#[no_mangle]
pub unsafe extern "C" fn starpu_sched_ctx_get_available_cpuids(
    ctx: c_uint,
    cpuids: *mut *mut c_int,
    ncpuids: *mut c_int,
) {
    if cpuids.is_null() || ncpuids.is_null() {
        return;
    }
    *cpuids = std::ptr::null_mut();
    *ncpuids = 0;
    value_call("starpu_sched_ctx_get_available_cpuids", (), || {
        let cpus = ffi::runtime()?.available_cpuids(ctx_index(ctx)?)?;
        write_cpuids(&cpus, cpuids, ncpuids);
        Ok(())
    })
}

/// `starpu_sched_ctx_bind_current_thread_to_cpuid`: binds the calling thread to logical
/// CPU `cpuid` (a bad one is reported and the binding left as it was).
#[no_mangle]
pub extern "C" fn starpu_sched_ctx_bind_current_thread_to_cpuid(cpuid: c_uint) {
    value_call("starpu_sched_ctx_bind_current_thread_to_cpuid", (), || {
        ffi::runtime()?.bind_current_thread_to_cpuid(cpuid as usize)
    })
}

/// `starpu_sched_ctx_exec_parallel_code`: runs `func(param)` while context `ctx`'s
/// workers are reserved (each finishes its task and takes no other meanwhile), and returns
/// what it returns; NULL (reported) for an unknown context or a NULL function.
///
/// # Safety
/// `func` is callable with `param`.
#[no_mangle]
pub unsafe extern "C" fn starpu_sched_ctx_exec_parallel_code(
    func: Option<unsafe extern "C" fn(*mut c_void) -> *mut c_void>,
    param: *mut c_void,
    ctx: c_uint,
) -> *mut c_void {
    let param = param as usize;
    value_call(
        "starpu_sched_ctx_exec_parallel_code",
        std::ptr::null_mut(),
        || {
            let f = func.ok_or_else(|| Error::invalid("the function is NULL"))?;
            let rt = ffi::runtime()?;
            let r = rt.exec_parallel_code(ctx_index(ctx)?, || f(param as *mut c_void) as usize)?;
            Ok(r as *mut c_void)
        },
    )
}
