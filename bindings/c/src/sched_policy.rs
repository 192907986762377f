//! Scheduling policies written by the application (`struct starpu_sched_policy`, given
//! as `conf.sched_policy` or `STARPU_SCHED_CTX_POLICY_STRUCT`), adapted to the core's
//! `Policy` trait, and the calls such policies make (`starpu_push_task_end`,
//! `starpu_wake_worker_*`, `starpu_worker_get_sched_condition`,
//! `starpu_worker_can_execute_task*`).
//!
//! The core decides when to push, pop and wake; the C functions decide the order. Tasks
//! the runtime makes for itself (reductions, partition switches) have no C struct: they
//! wait in a queue of the adapter and are handed out before the policy is asked.
//! `init_sched` runs once the context exists (for the global context: once `starpu_init`
//! has made the runtime reachable); until then workers find nothing to pop.

use crate::abi::*;
use crate::ffi::{self, report};
use crate::job::CTask;
use crate::sched_ctx;
use libc::{c_int, c_uint};
use starpu_core::sched::{Policy, PolicyFactory, SchedView};
use starpu_core::task::{Task, TaskRef};
use starpu_core::Error;
use std::collections::{HashSet, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// The function pointers of the application's struct, copied at creation.
#[derive(Clone, Copy)]
struct Table {
    init_sched: Option<unsafe extern "C" fn(c_uint)>,
    deinit_sched: Option<unsafe extern "C" fn(c_uint)>,
    push_task: unsafe extern "C" fn(*mut starpu_task) -> c_int,
    pop_task: unsafe extern "C" fn(c_uint) -> *mut starpu_task,
    pre_exec_hook: Option<unsafe extern "C" fn(*mut starpu_task, c_uint)>,
    post_exec_hook: Option<unsafe extern "C" fn(*mut starpu_task, c_uint)>,
    add_workers: Option<unsafe extern "C" fn(c_uint, *mut c_int, c_uint)>,
    remove_workers: Option<unsafe extern "C" fn(c_uint, *mut c_int, c_uint)>,
    do_schedule: Option<unsafe extern "C" fn(c_uint)>,
}

struct Adapter {
    table: Table,
    ctx: u32,
    name: &'static str,
    started: AtomicBool,
    stopped: AtomicBool,
    /// Tasks pushed to the C policy and not popped yet.
    queued: AtomicUsize,
    /// Runtime tasks without a C struct.
    internal: Mutex<VecDeque<TaskRef>>,
}

// SAFETY: the table holds C function pointers the application made for use from any
// thread, as StarPU calls them.
unsafe impl Send for Adapter {}
unsafe impl Sync for Adapter {}

/// Adapters not started yet, by context (the global one is started by `starpu_init`).
static PENDING: Mutex<Vec<(u32, Arc<Adapter>)>> = Mutex::new(Vec::new());

/// A policy name as a `'static` string: names are kept once per distinct name.
fn intern(name: String) -> &'static str {
    static NAMES: Mutex<Option<HashSet<&'static str>>> = Mutex::new(None);
    let mut g = NAMES.lock().unwrap_or_else(|e| e.into_inner());
    let set = g.get_or_insert_with(HashSet::new);
    if let Some(&s) = set.get(name.as_str()) {
        return s;
    }
    let s: &'static str = Box::leak(name.into_boxed_str());
    set.insert(s);
    s
}

/// The core factory for the application's `policy` (checked: `push_task` and `pop_task`
/// are required). `ctx_hint` is unused: the core tells the context id.
///
/// # Safety
/// `policy` points to a valid `struct starpu_sched_policy` that outlives its contexts.
pub(crate) unsafe fn factory(
    policy: *mut starpu_sched_policy,
    ctx_hint: Option<u32>,
) -> starpu_core::Result<PolicyFactory> {
    let _ = ctx_hint;
    let p = &*policy;
    let (Some(push_task), Some(pop_task)) = (p.push_task, p.pop_task) else {
        return Err(Error::invalid(
            "application scheduling policy: push_task and pop_task are required",
        ));
    };
    let table = Table {
        init_sched: p.init_sched,
        deinit_sched: p.deinit_sched,
        push_task,
        pop_task,
        pre_exec_hook: p.pre_exec_hook,
        post_exec_hook: p.post_exec_hook,
        add_workers: p.add_workers,
        remove_workers: p.remove_workers,
        do_schedule: p.do_schedule,
    };
    let name = intern(ffi::string(p.policy_name).unwrap_or_else(|| "application".into()));
    Ok(PolicyFactory::new(move |ctx, _workers| {
        let a = Arc::new(Adapter {
            table,
            ctx,
            name,
            started: AtomicBool::new(false),
            stopped: AtomicBool::new(false),
            queued: AtomicUsize::new(0),
            internal: Mutex::new(VecDeque::new()),
        });
        PENDING
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((ctx, a.clone()));
        Box::new(Shared(a)) as Box<dyn Policy>
    }))
}

/// Starts the application policy of `ctx`, if it has one waiting: `init_sched`, then
/// `add_workers` with the context's workers.
pub(crate) fn start(ctx: u32) {
    let a = {
        let mut g = PENDING.lock().unwrap_or_else(|e| e.into_inner());
        let Some(i) = g.iter().position(|(c, _)| *c == ctx) else {
            return;
        };
        g.swap_remove(i).1
    };
    sched_ctx::refresh_collection(ctx);
    // SAFETY: the application's functions, called as StarPU calls them.
    unsafe {
        if let Some(init) = a.table.init_sched {
            init(ctx);
        }
        let mut ws: Vec<c_int> = ffi::runtime()
            .ok()
            .and_then(|rt| rt.context_workers(ctx).ok())
            .unwrap_or_default()
            .into_iter()
            .map(|w| w as c_int)
            .collect();
        if let Some(add) = a.table.add_workers {
            add(ctx, ws.as_mut_ptr(), ws.len() as c_uint);
        }
    }
    a.started.store(true, Ordering::SeqCst);
}

/// Drops adapters never started (their runtime failed to start).
pub(crate) fn clear_pending() {
    PENDING.lock().unwrap_or_else(|e| e.into_inner()).clear();
}

struct Shared(Arc<Adapter>);

fn c_ptr(task: &Task) -> Option<*mut starpu_task> {
    task.payload::<CTask>().map(CTask::ptr)
}

impl Policy for Shared {
    fn name(&self) -> &'static str {
        self.0.name
    }

    fn push(&self, task: TaskRef, _from: Option<usize>, _view: &dyn SchedView) -> Option<usize> {
        let a = &self.0;
        let Some(p) = c_ptr(&task) else {
            a.internal
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push_back(task);
            return None;
        };
        a.queued.fetch_add(1, Ordering::SeqCst);
        // SAFETY: the C struct lives while its submission does; the policy reads
        // `task->sched_ctx` to find its data, as in StarPU.
        unsafe {
            (*p).sched_ctx = a.ctx;
            let r = (a.table.push_task)(p);
            if r < 0 {
                report(
                    "push_task",
                    &Error::invalid(format!(
                        "the application policy '{}' refused a task ({r}); it is kept for it",
                        a.name
                    )),
                );
            }
        }
        None
    }

    fn pop(&self, _worker: usize, can_run: &dyn Fn(&Task) -> bool) -> Option<TaskRef> {
        let a = &self.0;
        if let Some(t) = a
            .internal
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .pop_front()
        {
            return Some(t);
        }
        if !a.started.load(Ordering::SeqCst) || a.queued.load(Ordering::SeqCst) == 0 {
            return None;
        }
        // SAFETY: the application's pop function; a task it returns is one it was pushed.
        unsafe {
            let p = (a.table.pop_task)(a.ctx);
            if p.is_null() {
                return None;
            }
            let Some(t) = crate::task::current_core(p) else {
                report(
                    "pop_task",
                    &Error::invalid(format!(
                        "the application policy '{}' returned a task that was not pushed to it",
                        a.name
                    )),
                );
                return None;
            };
            a.queued.fetch_sub(1, Ordering::SeqCst);
            if !can_run(&t) {
                // Not for this worker (where, can_execute): back to the policy.
                a.queued.fetch_add(1, Ordering::SeqCst);
                (a.table.push_task)(p);
                return None;
            }
            Some(t)
        }
    }

    fn task_starting(&self, _worker: usize, task: &Task) {
        if let (Some(h), Some(p)) = (self.0.table.pre_exec_hook, c_ptr(task)) {
            // SAFETY: the running task's struct is alive.
            unsafe { h(p, self.0.ctx) }
        }
    }

    fn task_done(&self, _worker: usize, task: &Task, _measured: Option<f64>) {
        if let (Some(h), Some(p)) = (self.0.table.post_exec_hook, c_ptr(task)) {
            // SAFETY: as above.
            unsafe { h(p, self.0.ctx) }
        }
    }

    fn workers_added(&self, workers: &[usize]) {
        let a = &self.0;
        if !a.started.load(Ordering::SeqCst) {
            return; // `start` tells the initial workers
        }
        sched_ctx::refresh_collection(a.ctx);
        if let Some(add) = a.table.add_workers {
            let mut ws: Vec<c_int> = workers.iter().map(|&w| w as c_int).collect();
            // SAFETY: the application's function.
            unsafe { add(a.ctx, ws.as_mut_ptr(), ws.len() as c_uint) }
        }
    }

    fn workers_removed(&self, workers: &[usize]) {
        let a = &self.0;
        if !a.started.load(Ordering::SeqCst) {
            return;
        }
        sched_ctx::refresh_collection(a.ctx);
        if let Some(rm) = a.table.remove_workers {
            let mut ws: Vec<c_int> = workers.iter().map(|&w| w as c_int).collect();
            // SAFETY: the application's function.
            unsafe { rm(a.ctx, ws.as_mut_ptr(), ws.len() as c_uint) }
        }
    }

    fn do_schedule(&self) -> bool {
        let a = &self.0;
        match a.table.do_schedule {
            Some(d) if a.started.load(Ordering::SeqCst) => {
                // SAFETY: the application's function.
                unsafe { d(a.ctx) };
                // What it let go is not known here: workers look again.
                true
            }
            _ => false,
        }
    }

    fn deinit(&self) {
        let a = &self.0;
        if a.started.load(Ordering::SeqCst) && !a.stopped.swap(true, Ordering::SeqCst) {
            if let Some(d) = a.table.deinit_sched {
                // SAFETY: the application's function.
                unsafe { d(a.ctx) }
            }
        }
    }

    fn has_work(&self, _worker: usize) -> bool {
        let a = &self.0;
        (a.started.load(Ordering::SeqCst) && a.queued.load(Ordering::SeqCst) > 0)
            || !a
                .internal
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .is_empty()
    }

    fn ntasks(&self) -> usize {
        self.0.queued.load(Ordering::SeqCst)
            + self
                .0
                .internal
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .len()
    }
}

/// `starpu_push_task_end`: the policy finished pushing `task`. The core accounts for
/// pushed tasks itself; nothing is left to do.
#[no_mangle]
pub extern "C" fn starpu_push_task_end(_task: *mut starpu_task) -> c_int {
    0
}

fn wake(workerid: c_int) -> c_int {
    ffi::runtime().is_ok_and(|rt| usize::try_from(workerid).is_ok_and(|w| rt.wake_worker(w)))
        as c_int
}

/// `starpu_wake_worker_no_relax`: wakes `workerid` if it sleeps; 1 if it did.
#[no_mangle]
pub extern "C" fn starpu_wake_worker_no_relax(workerid: c_int) -> c_int {
    wake(workerid)
}

/// `starpu_wake_worker_relax`.
#[no_mangle]
pub extern "C" fn starpu_wake_worker_relax(workerid: c_int) -> c_int {
    wake(workerid)
}

/// `starpu_wake_worker_relax_light`.
#[no_mangle]
pub extern "C" fn starpu_wake_worker_relax_light(workerid: c_int) -> c_int {
    wake(workerid)
}

/// `starpu_wake_worker_locked`.
#[no_mangle]
pub extern "C" fn starpu_wake_worker_locked(workerid: c_int) -> c_int {
    wake(workerid)
}

struct Condition {
    mutex: std::cell::UnsafeCell<libc::pthread_mutex_t>,
    cond: std::cell::UnsafeCell<libc::pthread_cond_t>,
}

// SAFETY: pthread objects are made to be shared between threads.
unsafe impl Sync for Condition {}

static CONDITIONS: [Condition; 64] = [const {
    Condition {
        mutex: std::cell::UnsafeCell::new(libc::PTHREAD_MUTEX_INITIALIZER),
        cond: std::cell::UnsafeCell::new(libc::PTHREAD_COND_INITIALIZER),
    }
}; 64];

/// `starpu_worker_get_sched_condition`: a mutex and condition variable per worker, for
/// policies that lock around their queues. Workers do not sleep on them here (they park
/// and are woken by the runtime or `starpu_wake_worker_*`).
///
/// # Safety
/// `mutex` and `cond` are NULL or valid pointers.
#[no_mangle]
pub unsafe extern "C" fn starpu_worker_get_sched_condition(
    workerid: c_int,
    mutex: *mut *mut libc::pthread_mutex_t,
    cond: *mut *mut libc::pthread_cond_t,
) {
    let Some(c) = usize::try_from(workerid)
        .ok()
        .and_then(|w| CONDITIONS.get(w))
    else {
        report(
            "starpu_worker_get_sched_condition",
            &Error::invalid(format!("worker {workerid} does not exist")),
        );
        return;
    };
    if !mutex.is_null() {
        *mutex = c.mutex.get();
    }
    if !cond.is_null() {
        *cond = c.cond.get();
    }
}

/// Whether worker `w` may run C task `t` (with implementation `nimpl`, or any).
unsafe fn can_execute(w: c_uint, t: *mut starpu_task, nimpl: Option<usize>) -> Option<usize> {
    let rt = ffi::runtime().ok()?;
    let core = crate::task::current_core(t)?;
    let w = w as usize;
    if w >= rt.workers().len() {
        return None;
    }
    match nimpl {
        Some(i) => rt.impl_allowed(&core, w, i).then_some(i),
        None => rt.choose_impl(&core, w),
    }
}

/// `starpu_worker_can_execute_task`: 1 if `workerid` may run implementation `nimpl` of
/// the submitted `task`.
///
/// # Safety
/// `task` is a submitted task.
#[no_mangle]
pub unsafe extern "C" fn starpu_worker_can_execute_task(
    workerid: c_uint,
    task: *mut starpu_task,
    nimpl: c_uint,
) -> c_int {
    can_execute(workerid, task, Some(nimpl as usize)).is_some() as c_int
}

/// `starpu_worker_can_execute_task_impl`: 1 if some implementation fits; `impl_mask`
/// gets one bit per implementation that does.
///
/// # Safety
/// `task` is a submitted task; `impl_mask` is NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn starpu_worker_can_execute_task_impl(
    workerid: c_uint,
    task: *mut starpu_task,
    impl_mask: *mut c_uint,
) -> c_int {
    let mut mask: c_uint = 0;
    for i in 0..8 {
        if can_execute(workerid, task, Some(i)).is_some() {
            mask |= 1 << i;
        }
    }
    if !impl_mask.is_null() {
        *impl_mask = mask;
    }
    (mask != 0) as c_int
}

/// `starpu_worker_can_execute_task_first_impl`: 1 if some implementation fits; `nimpl`
/// gets the first.
///
/// # Safety
/// As `starpu_worker_can_execute_task_impl`.
#[no_mangle]
pub unsafe extern "C" fn starpu_worker_can_execute_task_first_impl(
    workerid: c_uint,
    task: *mut starpu_task,
    nimpl: *mut c_uint,
) -> c_int {
    match can_execute(workerid, task, None) {
        Some(i) => {
            if !nimpl.is_null() {
                *nimpl = i as c_uint;
            }
            1
        }
        None => 0,
    }
}

/// `starpu_sched_ctx_worker_shares_tasks_lists`: a hint for StarPU's own queues; the
/// core's policies know whether they share queues.
#[no_mangle]
pub extern "C" fn starpu_sched_ctx_worker_shares_tasks_lists(_workerid: c_int, _ctx: c_int) {}
