//! What the C face keeps about a `struct starpu_task`: its job (the core's record of its
//! submissions, and who still needs the struct), and how the core sees it.
//!
//! Ownership. A task made by `starpu_task_create` lives in one allocation with its job.
//! The struct stays valid while anyone needs it: the application (until
//! `starpu_task_destroy`, or the automatic destruction of a detached task) and each
//! submission the core still holds (the core tells, with `TaskHooks::dropped`, when it
//! lets go of one). So `starpu_task_destroy` on a task that is still running defers the
//! release to the task's end, as StarPU documents for detached tasks, and a worker never
//! touches freed memory. The object the core holds for each submission (`CTask`, its
//! payload and hooks) is made once per allocation and shared by all its submissions, so
//! a submission costs no allocation of its own. Released structs go to a bounded FIFO pool and are handed out
//! again by `starpu_task_create` (after a burst of tasks only the pool's worth of memory
//! stays): a struct destroyed twice is still in the pool when the second call comes in
//! all but pathological cases, and the second call is reported instead of freeing twice.
//!
//! Tasks the application allocated itself (`starpu_task_init`) get a job of their own in
//! `starpu_private`, freed by `starpu_task_clean`.

use crate::abi::starpu_task;
use crate::consts::MAGIC;
use crossbeam_queue::ArrayQueue;
use libc::c_void;
use starpu_core::task::{Hooks, TaskSlot};
use std::sync::atomic::{AtomicU32, AtomicU8, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

/// Job states.
const LIVE: u8 = 0;
const DESTROYED: u8 = 1;

pub(crate) struct Job {
    /// The core tasks of this struct's submissions, one after the other.
    pub(crate) slot: TaskSlot,
    /// The core's view of a task the application allocated (created tasks have theirs in
    /// their `Owned`).
    face: Option<Arc<CTask>>,
    /// `dyn_handles` / `dyn_modes` were allocated by `starpu_task_insert`.
    pub(crate) owns_dyn: bool,
    /// `profiling_info` was allocated by the library (profiling was on at submission).
    pub(crate) owns_profiling_info: bool,
    /// Made by `starpu_task_create` (lives in an `Owned`).
    created: bool,
    /// For created tasks: the application's reference (until destroy) plus one per
    /// submission the core still holds.
    refs: AtomicU32,
    state: AtomicU8,
}

impl Job {
    fn new(created: bool) -> Job {
        Job {
            slot: TaskSlot::default(),
            face: None,
            owns_dyn: false,
            owns_profiling_info: false,
            created,
            refs: AtomicU32::new(1),
            state: AtomicU8::new(LIVE),
        }
    }

    pub(crate) fn is_destroyed(&self) -> bool {
        self.state.load(Ordering::Acquire) == DESTROYED
    }
}

/// A task from `starpu_task_create`: the C struct, its job and the core's view of it in
/// one allocation.
#[repr(C)]
struct Owned {
    task: starpu_task,
    job: Job,
    /// Points to `task`; handed to the core without reference counting, since the job's
    /// references keep the whole allocation alive while the core holds a submission.
    face: CTask,
}

/// Released structs kept for reuse.
const POOL_SIZE: usize = 4096;

/// Structs freed because the pool was full, since memory was last given back.
static FREED: AtomicUsize = AtomicUsize::new(0);

/// After a burst of tasks (more released than the pool keeps), asks the allocator to give
/// the freed memory back to the system: a long-running application (a Python or Java
/// session) should not keep the peak of a burst for ever. Called when the application
/// waits for all its tasks; cheap otherwise.
pub(crate) fn return_memory_after_burst() {
    if FREED.load(Ordering::Relaxed) > POOL_SIZE {
        FREED.store(0, Ordering::Relaxed);
        crate::alloc::give_back_free_memory();
    }
}

fn pool() -> &'static ArrayQueue<usize> {
    static POOL: OnceLock<ArrayQueue<usize>> = OnceLock::new();
    POOL.get_or_init(|| ArrayQueue::new(POOL_SIZE))
}

/// Sets StarPU's defaults (what `starpu_task_init` produces) on a zeroed task.
pub(crate) fn set_defaults(t: &mut starpu_task) {
    t.r#where = -1;
    t.sequential_consistency = 1;
    t.detach = 1;
    t.magic = MAGIC;
    t.sched_ctx = 10; // STARPU_NMAX_SCHED_CTXS: "not set"
    t.predicted = f64::NAN;
    t.predicted_transfer = f64::NAN;
    t.predicted_start = f64::NAN;
}

/// A new task with StarPU's defaults and `destroy` set, owned by the application.
pub(crate) fn create() -> *mut starpu_task {
    let owned = match pool().pop() {
        Some(p) => p as *mut Owned,
        None => {
            let layout = std::alloc::Layout::new::<Owned>();
            // SAFETY: the layout is not zero-sized.
            let p = unsafe { std::alloc::alloc(layout) } as *mut Owned;
            if p.is_null() {
                std::alloc::handle_alloc_error(layout);
            }
            // SAFETY: fresh allocation. `face` is written once, here: a released struct in
            // the pool keeps it, so the core's last use of it (`dropped`) never races with
            // a write when the struct is handed out again.
            unsafe { std::ptr::write(&mut (*p).face, CTask(&mut (*p).task)) };
            p
        }
    };
    // SAFETY: `owned` is an allocation of an Owned (fresh, or released and not in use);
    // zero is the right value for most of the struct (pointers, flags, counters).
    unsafe {
        std::ptr::write_bytes(&mut (*owned).task, 0, 1);
        std::ptr::write(&mut (*owned).job, Job::new(true));
        set_defaults(&mut (*owned).task);
        (*owned).task.destroy = 1;
        (*owned).task.starpu_private = &mut (*owned).job as *mut Job as *mut c_void;
        &mut (*owned).task
    }
}

/// The job of `t`, created if the task has none (tasks initialised by the application).
///
/// # Safety
/// `t` points to a live task.
pub(crate) unsafe fn job<'a>(t: *mut starpu_task) -> &'a mut Job {
    if (*t).starpu_private.is_null() {
        (*t).starpu_private = Box::into_raw(Box::new(Job::new(false))) as *mut c_void;
    }
    &mut *((*t).starpu_private as *mut Job)
}

/// The job of `t` if it has one.
///
/// # Safety
/// `t` points to a task.
pub(crate) unsafe fn existing_job<'a>(t: *mut starpu_task) -> Option<&'a Job> {
    ((*t).starpu_private as *const Job).as_ref()
}

/// Frees what StarPU owns in a task: the arguments it was told to free and the arrays
/// `starpu_task_insert` allocated.
///
/// # Safety
/// `t` points to a live task no submission uses any more.
pub(crate) unsafe fn release_owned(t: *mut starpu_task) {
    let t = &mut *t;
    for (free, p) in [
        (&mut t.cl_arg_free, &mut t.cl_arg),
        (&mut t.callback_arg_free, &mut t.callback_arg),
        (
            &mut t.prologue_callback_arg_free,
            &mut t.prologue_callback_arg,
        ),
        (
            &mut t.prologue_callback_pop_arg_free,
            &mut t.prologue_callback_pop_arg,
        ),
        (
            &mut t.epilogue_callback_arg_free,
            &mut t.epilogue_callback_arg,
        ),
        (&mut t.soon_callback_arg_free, &mut t.soon_callback_arg),
    ] {
        if *free != 0 && !p.is_null() {
            libc::free(*p);
            *p = std::ptr::null_mut();
        }
        *free = 0;
    }
    if let Some(j) = (t.starpu_private as *mut Job).as_mut() {
        if j.owns_dyn {
            libc::free(t.dyn_handles as *mut c_void);
            libc::free(t.dyn_modes as *mut c_void);
            t.dyn_handles = std::ptr::null_mut();
            t.dyn_modes = std::ptr::null_mut();
            j.owns_dyn = false;
        }
        if j.owns_profiling_info {
            libc::free(t.profiling_info as *mut c_void);
            t.profiling_info = std::ptr::null_mut();
            j.owns_profiling_info = false;
        }
    }
}

/// Drops one reference to created task `t`; the last one releases the struct.
///
/// # Safety
/// `t` is a created task and the caller holds one of its references.
unsafe fn unref(t: *mut starpu_task) {
    let j = &*((*t).starpu_private as *const Job);
    if j.refs.fetch_sub(1, Ordering::AcqRel) != 1 {
        return;
    }
    release_owned(t);
    let owned = t as *mut Owned;
    std::ptr::drop_in_place(&mut (*owned).job);
    if pool().push(owned as usize).is_err() {
        std::alloc::dealloc(owned as *mut u8, std::alloc::Layout::new::<Owned>());
        FREED.fetch_add(1, Ordering::Relaxed);
    }
}

/// `starpu_task_set_destroy`: sets `destroy` on a task that may be running, and frees it
/// now if it is detached and has ended already.
///
/// # Safety
/// `t` is a live task.
pub(crate) unsafe fn set_destroy(t: *mut starpu_task) {
    let j = job(t);
    // Held while looking at the task: its end may free it meanwhile.
    if j.created {
        j.refs.fetch_add(1, Ordering::AcqRel);
    }
    // Atomic: the worker ending the task may read the flag at this very moment.
    std::sync::atomic::AtomicU32::from_ptr(std::ptr::addr_of_mut!((*t).destroy))
        .store(1, Ordering::SeqCst);
    // The end of a task reads `destroy` before it marks the task terminated: either it
    // sees the flag and frees the task, or this sees the task terminated and frees it
    // (`destroy` acts once, whoever calls it first).
    std::sync::atomic::fence(Ordering::SeqCst);
    let ended = j
        .slot
        .current()
        .is_some_and(|c| c.is_submitted() && c.is_terminated());
    if ended && (*t).detach != 0 {
        destroy(t);
    }
    if j.created {
        unref(t);
    }
}

/// What `destroy` did.
pub(crate) enum Destroyed {
    Now,
    /// Destroyed already: nothing done.
    Twice,
}

/// Ends the application's ownership of `t` (`starpu_task_destroy`, or the automatic
/// destruction of a detached task). A created task is released once no submission uses
/// it; a task the application allocated gets its job freed, the struct stays theirs.
///
/// # Safety
/// `t` points to a task (a released created task still is, in the pool).
pub(crate) unsafe fn destroy(t: *mut starpu_task) -> Destroyed {
    let Some(j) = ((*t).starpu_private as *mut Job).as_mut() else {
        return Destroyed::Now;
    };
    if j.state.swap(DESTROYED, Ordering::AcqRel) == DESTROYED {
        return Destroyed::Twice;
    }
    // The slot holds the last submission, whose payload refers back to this struct.
    j.slot.reset();
    if j.created {
        unref(t);
    } else {
        release_owned(t);
        drop(Box::from_raw(j as *mut Job));
        (*t).starpu_private = std::ptr::null_mut();
    }
    Destroyed::Now
}

/// `starpu_task_clean`: releases what the task owns and forgets its submissions.
///
/// # Safety
/// `t` points to a live task not currently submitted.
pub(crate) unsafe fn clean(t: *mut starpu_task) {
    release_owned(t);
    if let Some(j) = ((*t).starpu_private as *mut Job).as_mut() {
        j.slot.reset();
        if !j.created {
            drop(Box::from_raw(j as *mut Job));
            (*t).starpu_private = std::ptr::null_mut();
        }
    }
}

/// The C struct as the core holds it for each submission (its payload and hooks).
pub(crate) struct CTask(*mut starpu_task);

// SAFETY: the struct is handed to the runtime to be used from any thread, as in StarPU;
// the references counted in its job keep it alive while the core uses it.
unsafe impl Send for CTask {}
unsafe impl Sync for CTask {}

impl CTask {
    /// A stand-in naming `t` for questions asked about it outside a submission.
    pub(crate) fn probe(t: *mut starpu_task) -> CTask {
        CTask(t)
    }

    pub(crate) fn ptr(&self) -> *mut starpu_task {
        self.0
    }

    /// The core gave up a submission of this struct (`TaskHooks::dropped`).
    pub(crate) fn submission_dropped(&self) {
        // SAFETY: each submission of a created task holds a reference (`for_submission`);
        // application tasks outlive their submissions.
        unsafe {
            if existing_job(self.0).is_some_and(|j| j.created) {
                unref(self.0);
            }
        }
    }
}

/// The hooks the core holds for one more submission of `t`: for a created task, its
/// `CTask` without reference counting (the submission counts as a reference of the job
/// until the core says it dropped it); for an application's task, a shared one.
///
/// # Safety
/// `t` points to a live task.
pub(crate) unsafe fn for_submission(t: *mut starpu_task) -> Hooks {
    let j = job(t);
    if j.created {
        j.refs.fetch_add(1, Ordering::AcqRel);
        // SAFETY: the Owned outlives the submission: `unref` after `dropped` releases it.
        Hooks::borrowed(&(*(t as *mut Owned)).face)
    } else {
        Hooks::shared(j.face.get_or_insert_with(|| Arc::new(CTask(t))).clone())
    }
}
