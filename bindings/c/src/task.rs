//! `struct starpu_task` and its life cycle: create, submit, wait, destroy.
//!
//! Each C task gets a binding-private `Job` (in `starpu_private`), holding the core task of
//! its current submission. The core task refers back to the C struct through its user
//! word, which is how kernels find `cl_arg` and callbacks find `callback_func`.

use crate::codelet;
use crate::consts::{self, MAGIC};
use crate::ffi::{self, int_call, report};
use crate::types::*;
use libc::{c_int, c_uint, c_void};
use smallvec::SmallVec;
use starpu_core::task::{Access, Task, TaskHooks, TaskRef, TaskSpec};
use starpu_core::{AccessMode, Error};
use std::sync::atomic::{AtomicBool, Ordering};

/// What the binding keeps about a C task.
pub(crate) struct Job {
    /// The core task of the current (or next) submission.
    core: Option<TaskRef>,
    /// The struct comes from `starpu_task_create` (it and this job share one allocation).
    boxed: bool,
    /// `dyn_handles` / `dyn_modes` were allocated by `starpu_task_insert`.
    pub(crate) owns_dyn: bool,
    /// The kernel of the current submission has run: the task may be submitted again from
    /// its own callback.
    completed: AtomicBool,
}

/// A task from `starpu_task_create`: the C struct and its job in one allocation.
#[repr(C)]
struct Owned {
    task: starpu_task,
    job: Job,
}

/// Sets StarPU's defaults (what `starpu_task_init` produces) on a zeroed task.
fn set_defaults(t: &mut starpu_task) {
    t.r#where = -1;
    t.sequential_consistency = 1;
    t.detach = 1;
    t.magic = MAGIC;
    t.sched_ctx = 10; // STARPU_NMAX_SCHED_CTXS: "not set"
    t.predicted = f64::NAN;
    t.predicted_transfer = f64::NAN;
    t.predicted_start = f64::NAN;
}

/// The job of `t`, created if the task has none (tasks initialised by the application).
///
/// # Safety
/// `t` points to a live task.
pub(crate) unsafe fn job<'a>(t: *mut starpu_task) -> &'a mut Job {
    if (*t).starpu_private.is_null() {
        let j = Box::new(Job {
            core: None,
            boxed: false,
            owns_dyn: false,
            completed: AtomicBool::new(false),
        });
        (*t).starpu_private = Box::into_raw(j) as *mut c_void;
    }
    &mut *((*t).starpu_private as *mut Job)
}

/// The core task the next submission of `t` will use: the pending one if dependencies were
/// declared on it, else a fresh one. Fails while the previous submission is not over.
///
/// # Safety
/// `t` points to a live task.
pub(crate) unsafe fn next_core(t: *mut starpu_task) -> starpu_core::Result<TaskRef> {
    let j = job(t);
    match &j.core {
        Some(c) if !c.is_submitted() => return Ok(c.clone()),
        Some(c) if !(c.is_terminated() || j.completed.load(Ordering::Acquire)) => {
            return Err(Error::invalid(
                "task submitted again before its previous submission ended \
                 (use another task structure, or wait for it)",
            ))
        }
        _ => {}
    }
    let c = Task::new();
    j.core = Some(c.clone());
    j.completed.store(false, Ordering::Release);
    Ok(c)
}

/// The core task of `t`'s current submission, if any.
///
/// # Safety
/// `t` points to a live task.
pub(crate) unsafe fn current_core(t: *mut starpu_task) -> Option<TaskRef> {
    if (*t).starpu_private.is_null() {
        return None;
    }
    job(t).core.clone()
}

/// `starpu_task_create`: a task with defaults and `destroy` set, freed after it ends.
#[no_mangle]
pub extern "C" fn starpu_task_create() -> *mut starpu_task {
    ffi::guard("starpu_task_create", std::ptr::null_mut(), || {
        // Built in place: the struct is large and zero is the right value for most of it
        // (pointers, flags, counters, and `None` for the job's core task).
        let layout = std::alloc::Layout::new::<Owned>();
        // SAFETY: the layout is non-zero; an all-zero Owned is a valid value.
        unsafe {
            let owned = std::alloc::alloc_zeroed(layout) as *mut Owned;
            if owned.is_null() {
                std::alloc::handle_alloc_error(layout);
            }
            set_defaults(&mut (*owned).task);
            (*owned).task.destroy = 1;
            (*owned).job.boxed = true;
            (*owned).task.starpu_private = &mut (*owned).job as *mut Job as *mut c_void;
            &mut (*owned).task
        }
    })
}

/// `starpu_task_init`: defaults for a task the application allocated.
///
/// # Safety
/// `task` points to writable memory for a task.
#[no_mangle]
pub unsafe extern "C" fn starpu_task_init(task: *mut starpu_task) {
    if !task.is_null() {
        std::ptr::write_bytes(task, 0, 1);
        set_defaults(&mut *task);
    }
}

/// Frees what StarPU owns in a task: the arguments it was told to free and the arrays
/// `starpu_task_insert` allocated.
unsafe fn release_owned(t: *mut starpu_task) {
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
    if !t.starpu_private.is_null() {
        let j = &mut *(t.starpu_private as *mut Job);
        if j.owns_dyn {
            libc::free(t.dyn_handles as *mut c_void);
            libc::free(t.dyn_modes as *mut c_void);
            t.dyn_handles = std::ptr::null_mut();
            t.dyn_modes = std::ptr::null_mut();
            j.owns_dyn = false;
        }
    }
}

/// `starpu_task_clean`: releases what the task owns and forgets its submissions, so the
/// structure can be reused.
///
/// # Safety
/// `task` is NULL or a live task not currently submitted.
#[no_mangle]
pub unsafe extern "C" fn starpu_task_clean(task: *mut starpu_task) {
    if task.is_null() {
        return;
    }
    release_owned(task);
    let p = (*task).starpu_private as *mut Job;
    if !p.is_null() {
        if (*p).boxed {
            (*p).core = None;
        } else {
            drop(Box::from_raw(p));
            (*task).starpu_private = std::ptr::null_mut();
        }
    }
}

/// `starpu_task_destroy`: frees a task made by `starpu_task_create`.
///
/// # Safety
/// `task` is NULL or a live task, not used afterwards.
#[no_mangle]
pub unsafe extern "C" fn starpu_task_destroy(task: *mut starpu_task) {
    if task.is_null() {
        return;
    }
    let boxed = !(*task).starpu_private.is_null() && (*((*task).starpu_private as *mut Job)).boxed;
    starpu_task_clean(task);
    if boxed {
        // SAFETY: `Owned` starts with the task; it came from Box::into_raw in task_create.
        drop(Box::from_raw(task as *mut Owned));
    }
}

/// How the core tells this binding about its C tasks.
pub(crate) struct CHooks;

pub(crate) static C_HOOKS: CHooks = CHooks;

impl TaskHooks for CHooks {
    fn ready(&self, task: &Task) {
        let t = task.user() as *mut starpu_task;
        // SAFETY: the C struct outlives its core task's life cycle.
        unsafe {
            (*t).status = consts::STATUS_READY;
            if let Some(f) = (*t).prologue_callback_func {
                f((*t).prologue_callback_arg);
            }
        }
    }

    fn popped(&self, task: &Task, _worker: usize) {
        let t = task.user() as *mut starpu_task;
        unsafe {
            (*t).status = consts::STATUS_RUNNING;
            if let Some(f) = (*t).prologue_callback_pop_func {
                f((*t).prologue_callback_pop_arg);
            }
        }
    }

    fn completed(&self, task: &Task) {
        let t = task.user() as *mut starpu_task;
        unsafe {
            (*t).status = consts::STATUS_FINISHED;
            (*t).failed = task.has_failed() as u32;
            job(t).completed.store(true, Ordering::Release);
            if let Some(f) = (*t).epilogue_callback_func {
                f((*t).epilogue_callback_arg);
            }
            // The task's callback replaces the codelet's.
            let cb = (*t)
                .callback_func
                .or_else(|| (*t).cl.as_ref().and_then(|cl| cl.callback_func));
            if let Some(f) = cb {
                f((*t).callback_arg);
            }
        }
    }

    fn terminated(&self, task: &Task) {
        let t = task.user() as *mut starpu_task;
        unsafe {
            // Resubmitted from its callback: the struct belongs to the new submission.
            let j = job(t);
            if j.core.as_ref().is_some_and(|c| !std::ptr::eq(&**c, task)) {
                return;
            }
            if (*t).regenerate != 0 {
                let ret = submit(t, "starpu_task_submit");
                if ret != 0 {
                    report(
                        "starpu_task_submit",
                        &Error::invalid("regenerating task failed"),
                    );
                }
                return;
            }
            if (*t).detach != 0 && (*t).synchronous == 0 && (*t).destroy != 0 {
                starpu_task_destroy(t);
            }
        }
    }

    fn name(&self, task: &Task) -> Option<String> {
        let t = task.user() as *mut starpu_task;
        unsafe {
            ffi::string((*t).name).or_else(|| (*t).cl.as_ref().and_then(|cl| ffi::string(cl.name)))
        }
    }
}

/// Number of buffers of `t` and whether its codelet lets each task choose.
unsafe fn nbuffers(t: &starpu_task, cl: &starpu_codelet) -> starpu_core::Result<usize> {
    if cl.nbuffers == consts::STARPU_VARIABLE_NBUFFERS {
        if t.nbuffers < 0 {
            return Err(Error::invalid(
                "codelet has STARPU_VARIABLE_NBUFFERS but task->nbuffers is not set",
            ));
        }
        Ok(t.nbuffers as usize)
    } else if cl.nbuffers < 0 {
        Err(Error::invalid(format!(
            "codelet nbuffers is {}",
            cl.nbuffers
        )))
    } else {
        Ok(cl.nbuffers as usize)
    }
}

/// The data accesses of `t`, read from its handles and modes.
unsafe fn accesses(
    t: &starpu_task,
    cl: &starpu_codelet,
) -> starpu_core::Result<SmallVec<[Access; 4]>> {
    let n = nbuffers(t, cl)?;
    if n > STARPU_NMAXBUFS && t.dyn_handles.is_null() {
        return Err(Error::invalid(format!(
            "{n} buffers need task->dyn_handles (more than STARPU_NMAXBUFS={STARPU_NMAXBUFS})"
        )));
    }
    let variable = cl.nbuffers == consts::STARPU_VARIABLE_NBUFFERS;
    let mut out = SmallVec::with_capacity(n);
    for i in 0..n {
        let h = if t.dyn_handles.is_null() {
            t.handles[i]
        } else {
            *t.dyn_handles.add(i)
        };
        let handle =
            ffi::handle(h).map_err(|e| Error::invalid(format!("buffer {i}: {}", e.message)))?;
        let task_mode = if !t.dyn_modes.is_null() {
            *t.dyn_modes.add(i)
        } else if i < STARPU_NMAXBUFS {
            t.modes[i]
        } else {
            0
        };
        let cl_mode = if variable { 0 } else { codelet::mode_of(cl, i) };
        let bits = if cl_mode != 0 { cl_mode } else { task_mode };
        if bits == 0 {
            return Err(Error::invalid(format!(
                "buffer {i}: no access mode (set codelet modes[{i}] or task modes[{i}])"
            )));
        }
        let mode = AccessMode::from_bits(bits)
            .map_err(|e| Error::invalid(format!("buffer {i}: {}", e.message)))?;
        let per_buffer = t.handles_sequential_consistency.is_null()
            || *t.handles_sequential_consistency.add(i) != 0;
        let sequential =
            handle.sequential_consistency() && t.sequential_consistency != 0 && per_buffer;
        out.push(Access {
            handle,
            mode,
            sequential,
        });
    }
    Ok(out)
}

/// Builds the core description of C task `t`.
unsafe fn spec_of(t: *mut starpu_task) -> starpu_core::Result<TaskSpec> {
    let tr = &*t;
    let (codelet, accesses) = match tr.cl.as_ref() {
        None => (None, SmallVec::new()),
        Some(cl) => (Some(codelet::lookup(tr.cl)), accesses(tr, cl)?),
    };
    let synchronous = tr.synchronous != 0;
    Ok(TaskSpec {
        codelet,
        accesses,
        priority: tr.priority,
        where_mask: (tr.r#where != -1 && tr.r#where != 0).then_some(tr.r#where as u32),
        worker: (tr.execute_on_a_specific_worker != 0).then_some(tr.workerid as usize),
        tag: (tr.use_tag != 0).then_some(tr.tag_id),
        synchronous,
        detached: tr.detach != 0 && !synchronous,
        flops: tr.flops,
        hooks: Some(&C_HOOKS),
        user: t as usize,
        ..Default::default()
    })
}

/// Submits C task `t`; the shared path of `starpu_task_submit` and `starpu_task_insert`
/// (`call` names the entry point in error messages).
///
/// # Safety
/// `t` is NULL or a live task.
pub(crate) unsafe fn submit(t: *mut starpu_task, call: &str) -> c_int {
    int_call(call, || {
        ffi::non_null(t, "task")?;
        let rt = ffi::runtime()?;
        let spec = spec_of(t)?;
        let core = next_core(t)?;
        (*t).status = consts::STATUS_BLOCKED;
        let synchronous = spec.synchronous;
        rt.submit(&core, spec)?;
        if synchronous && (*t).destroy != 0 {
            starpu_task_destroy(t);
        }
        Ok(())
    })
}

/// `starpu_task_submit`.
///
/// # Safety
/// `task` is NULL or a live task.
#[no_mangle]
pub unsafe extern "C" fn starpu_task_submit(task: *mut starpu_task) -> c_int {
    submit(task, "starpu_task_submit")
}

/// `starpu_task_submit_to_ctx`: contexts are not implemented; the global one is used.
///
/// # Safety
/// As `starpu_task_submit`.
#[no_mangle]
pub unsafe extern "C" fn starpu_task_submit_to_ctx(
    task: *mut starpu_task,
    sched_ctx_id: c_uint,
) -> c_int {
    if !task.is_null() {
        (*task).sched_ctx = sched_ctx_id;
    }
    submit(task, "starpu_task_submit_to_ctx")
}

/// `starpu_task_wait`: waits for a non-detached task, then destroys it if `destroy` is set.
///
/// # Safety
/// `task` is NULL or a live task.
#[no_mangle]
pub unsafe extern "C" fn starpu_task_wait(task: *mut starpu_task) -> c_int {
    int_call("starpu_task_wait", || {
        ffi::non_null(task, "task")?;
        let rt = ffi::runtime()?;
        let core = current_core(task)
            .filter(|c| c.is_submitted())
            .ok_or_else(|| Error::invalid("task was not submitted"))?;
        if (*task).detach != 0 {
            return Err(Error::invalid(
                "cannot wait for a detached task (set task->detach = 0 before submitting it)",
            ));
        }
        let r = rt.wait_task(&core);
        if (*task).destroy != 0 {
            starpu_task_destroy(task);
        }
        r
    })
}

/// `starpu_task_wait_array`.
///
/// # Safety
/// `tasks` holds `nb_tasks` live task pointers.
#[no_mangle]
pub unsafe extern "C" fn starpu_task_wait_array(
    tasks: *mut *mut starpu_task,
    nb_tasks: c_uint,
) -> c_int {
    if tasks.is_null() && nb_tasks > 0 {
        return int_call("starpu_task_wait_array", || {
            Err(Error::invalid("tasks is NULL"))
        });
    }
    for i in 0..nb_tasks as usize {
        let r = starpu_task_wait(*tasks.add(i));
        if r != 0 {
            return r;
        }
    }
    0
}

/// `starpu_task_wait_for_all`.
#[no_mangle]
pub extern "C" fn starpu_task_wait_for_all() -> c_int {
    int_call("starpu_task_wait_for_all", || {
        ffi::runtime()?.wait_for_all()
    })
}

/// `starpu_task_wait_for_n_submitted`.
#[no_mangle]
pub extern "C" fn starpu_task_wait_for_n_submitted(n: c_uint) -> c_int {
    int_call("starpu_task_wait_for_n_submitted", || {
        let rt = ffi::runtime()?;
        if !starpu_core::worker::may_block() {
            return Err(Error::deadlock(
                "starpu_task_wait_for_n_submitted cannot be called from a task or a callback",
            ));
        }
        rt.wait_for_n_submitted(n as usize);
        Ok(())
    })
}

/// `starpu_task_wait_for_no_ready`: waits until no task waits for a worker.
#[no_mangle]
pub extern "C" fn starpu_task_wait_for_no_ready() -> c_int {
    int_call("starpu_task_wait_for_no_ready", || {
        let rt = ffi::runtime()?;
        while rt.nready() > 0 {
            std::thread::sleep(std::time::Duration::from_micros(50));
        }
        Ok(())
    })
}

/// `starpu_task_nsubmitted`.
#[no_mangle]
pub extern "C" fn starpu_task_nsubmitted() -> c_int {
    ffi::runtime().map_or(0, |rt| rt.nsubmitted() as c_int)
}

/// `starpu_task_nready`.
#[no_mangle]
pub extern "C" fn starpu_task_nready() -> c_int {
    ffi::runtime().map_or(0, |rt| rt.nready() as c_int)
}

/// `starpu_task_get_current`: the task whose kernel runs on this thread.
#[no_mangle]
pub extern "C" fn starpu_task_get_current() -> *mut starpu_task {
    starpu_core::task::current_task().map_or(std::ptr::null_mut(), |t| t.user() as *mut starpu_task)
}

/// `starpu_task_get_name`.
///
/// # Safety
/// `task` is NULL or a live task.
#[no_mangle]
pub unsafe extern "C" fn starpu_task_get_name(task: *mut starpu_task) -> *const libc::c_char {
    match task.as_ref() {
        None => std::ptr::null(),
        Some(t) if !t.name.is_null() => t.name,
        Some(t) => t.cl.as_ref().map_or(std::ptr::null(), |cl| cl.name),
    }
}

/// The core task others depend on when they name C task `dep`: its current submission,
/// or the one it will make.
unsafe fn predecessor(dep: *mut starpu_task) -> starpu_core::Result<TaskRef> {
    ffi::non_null(dep, "dependency")?;
    match current_core(dep) {
        Some(c) => Ok(c),
        None => next_core(dep),
    }
}

/// `starpu_task_declare_deps_array`: `task` starts only after `tasks` ended. Call it
/// before submitting `task`; the dependencies may be submitted before or after.
///
/// # Safety
/// `tasks` holds `ndeps` live task pointers.
#[no_mangle]
pub unsafe extern "C" fn starpu_task_declare_deps_array(
    task: *mut starpu_task,
    ndeps: c_uint,
    tasks: *mut *mut starpu_task,
) {
    let _ = int_call("starpu_task_declare_deps_array", || {
        ffi::non_null(task, "task")?;
        let me = next_core(task)?;
        for i in 0..ndeps as usize {
            let pred = predecessor(*tasks.add(i))?;
            me.add_dependency(&pred)?;
        }
        Ok(())
    });
}

/// `starpu_task_declare_end_deps_array`: `task` does not end before `tasks` have.
///
/// # Safety
/// `tasks` holds `ndeps` live task pointers.
#[no_mangle]
pub unsafe extern "C" fn starpu_task_declare_end_deps_array(
    task: *mut starpu_task,
    ndeps: c_uint,
    tasks: *mut *mut starpu_task,
) {
    let _ = int_call("starpu_task_declare_end_deps_array", || {
        ffi::non_null(task, "task")?;
        let me = match current_core(task) {
            Some(c) if !c.is_terminated() => c,
            _ => next_core(task)?,
        };
        for i in 0..ndeps as usize {
            let pred = predecessor(*tasks.add(i))?;
            me.add_end_dependency(&pred);
        }
        Ok(())
    });
}

/// `starpu_task_end_dep_add`: `task` ends only after `nb_deps` more `end_dep_release` calls.
///
/// # Safety
/// `task` is a live task.
#[no_mangle]
pub unsafe extern "C" fn starpu_task_end_dep_add(task: *mut starpu_task, nb_deps: c_int) {
    let _ = int_call("starpu_task_end_dep_add", || {
        ffi::non_null(task, "task")?;
        let core = match current_core(task) {
            Some(c) if !c.is_terminated() => c,
            _ => next_core(task)?,
        };
        core.end_dep_add(nb_deps.max(0) as u32);
        Ok(())
    });
}

/// `starpu_task_end_dep_release`.
///
/// # Safety
/// `task` is a live task.
#[no_mangle]
pub unsafe extern "C" fn starpu_task_end_dep_release(task: *mut starpu_task) {
    let _ = int_call("starpu_task_end_dep_release", || {
        ffi::non_null(task, "task")?;
        let core =
            current_core(task).ok_or_else(|| Error::invalid("task has no end dependency"))?;
        starpu_core::task::end_dep_release(ffi::runtime()?, &core);
        Ok(())
    });
}
