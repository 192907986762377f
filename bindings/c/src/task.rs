//! `struct starpu_task` and its life cycle: create, submit, wait, destroy.
//!
//! Each submission of a C task is a core task built from the struct's fields, with the
//! struct (`job::CTask`) as its payload and hooks: that is how kernels find `cl_arg`,
//! callbacks `callback_func`, and how the struct is kept alive while the core uses it
//! (see job.rs). The rules (when a task may be submitted again, waited for, regenerated)
//! are the core's; this file reads and writes the struct.

use crate::abi::*;
use crate::codelet;
use crate::consts;
use crate::ffi::{self, int_call, report};
use crate::job::{self, job, CTask, Destroyed};
use libc::{c_int, c_uint};
use smallvec::SmallVec;
use starpu_core::task::{Access, Task, TaskHooks, TaskRef, TaskSpec};
use starpu_core::{AccessMode, Codelet, Error};
use std::cell::Cell;
use std::sync::Arc;

/// The core task the next submission of `t` uses (see `TaskSlot::prepare`).
///
/// # Safety
/// `t` points to a live task.
pub(crate) unsafe fn next_core(t: *mut starpu_task) -> starpu_core::Result<TaskRef> {
    job(t).slot.prepare()
}

/// The core task of `t`'s current submission, if any.
///
/// # Safety
/// `t` points to a live task.
pub(crate) unsafe fn current_core(t: *mut starpu_task) -> Option<TaskRef> {
    job::existing_job(t)?.slot.current()
}

/// `starpu_task_create`: a task with defaults and `destroy` set, released after it ends.
#[no_mangle]
pub extern "C" fn starpu_task_create() -> *mut starpu_task {
    ffi::guard("starpu_task_create", std::ptr::null_mut(), job::create)
}

/// `starpu_task_init`: defaults for a task the application allocated.
///
/// # Safety
/// `task` points to writable memory for a task.
#[no_mangle]
pub unsafe extern "C" fn starpu_task_init(task: *mut starpu_task) {
    if !task.is_null() {
        std::ptr::write_bytes(task, 0, 1);
        job::set_defaults(&mut *task);
    }
}

/// `starpu_task_clean`: releases what the task owns and forgets its submissions, so the
/// structure can be reused.
///
/// # Safety
/// `task` is NULL or a live task not currently submitted.
#[no_mangle]
pub unsafe extern "C" fn starpu_task_clean(task: *mut starpu_task) {
    if !task.is_null() {
        job::clean(task);
    }
}

/// `starpu_task_destroy`: ends the application's ownership of a task made by
/// `starpu_task_create`. On a task still running, the release happens when it ends (as
/// StarPU does for detached tasks); destroying a task twice is reported and ignored.
///
/// # Safety
/// `task` is NULL or a task made by `starpu_task_create` (or initialised by
/// `starpu_task_init`, whose job is then freed).
#[no_mangle]
pub unsafe extern "C" fn starpu_task_destroy(task: *mut starpu_task) {
    if task.is_null() {
        return;
    }
    if let Destroyed::Twice = job::destroy(task) {
        report(
            "starpu_task_destroy",
            &Error::invalid("the task was destroyed already (destroyed twice?)"),
        );
    }
}

impl TaskHooks for CTask {
    fn ready(&self, _task: &Task) {
        let t = self.ptr();
        // SAFETY: the struct lives as long as this submission (see job.rs).
        unsafe {
            (*t).status = consts::STATUS_READY;
            if let Some(f) = (*t).prologue_callback_func {
                f((*t).prologue_callback_arg);
            }
        }
    }

    fn popped(&self, _task: &Task, _worker: usize) {
        let t = self.ptr();
        unsafe {
            (*t).status = consts::STATUS_RUNNING;
            if let Some(f) = (*t).prologue_callback_pop_func {
                f((*t).prologue_callback_pop_arg);
            }
        }
    }

    fn completed(&self, task: &Task) {
        let t = self.ptr();
        unsafe {
            crate::profiling::fill_task_info(t, task);
            (*t).status = consts::STATUS_FINISHED;
            (*t).failed = task.has_failed() as u32;
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
            crate::profiling::callback_ended(t);
        }
    }

    fn terminated(&self, task: &Task) {
        let t = self.ptr();
        unsafe {
            let j = job(t);
            // Destroyed meanwhile, or submitted again from its callback: the struct belongs
            // to the application or to the new submission.
            if j.is_destroyed() || !j.slot.is_current(task) {
                return;
            }
            if (*t).regenerate == 0
                && (*t).detach != 0
                && (*t).synchronous == 0
                // Atomic: `starpu_task_set_destroy` may set it while the task ends.
                && std::sync::atomic::AtomicU32::from_ptr(std::ptr::addr_of_mut!((*t).destroy))
                    .load(std::sync::atomic::Ordering::SeqCst)
                    != 0
            {
                job::destroy(t);
            }
        }
    }

    fn will_regenerate(&self, _task: &Task) -> bool {
        let t = self.ptr();
        // SAFETY: as above; a regenerated task is not destroyed by `terminated`.
        unsafe { (*t).regenerate != 0 && !job(t).is_destroyed() }
    }

    fn regenerate(&self, _task: &Task) -> Option<starpu_core::Result<(TaskRef, TaskSpec)>> {
        let t = self.ptr();
        // SAFETY: as above.
        unsafe { Some(spec_of(t, None).and_then(|spec| Ok((next_core(t)?, spec)))) }
    }

    fn name(&self, _task: &Task) -> Option<String> {
        let t = self.ptr();
        unsafe {
            ffi::string((*t).name).or_else(|| (*t).cl.as_ref().and_then(|cl| ffi::string(cl.name)))
        }
    }

    fn with_trace_label(&self, _task: &Task, f: &mut dyn FnMut(Option<&str>, u32)) {
        let t = self.ptr();
        // SAFETY: as above; the strings are lent for the call only, not copied.
        unsafe {
            let name = ffi::str_ref((*t).name)
                .or_else(|| (*t).cl.as_ref().and_then(|cl| ffi::str_ref(cl.name)));
            f(name, (*t).color)
        }
    }

    fn dropped(&self, _task: &Task) {
        self.submission_dropped();
    }

    fn payload(&self) -> Option<&(dyn std::any::Any + Send + Sync)> {
        Some(self)
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

/// The data accesses of `t`, read from its handles and modes: a mode the codelet declares
/// is the buffer's mode (StarPU reads `task->modes` only for codelets that leave it to
/// the task).
pub(crate) unsafe fn accesses(
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
        // Where StarPU reads a mode from the task (STARPU_TASK_GET_MODE): a codelet with
        // variable buffers, `dyn_modes` set, or a codelet that declares none. Otherwise the
        // task gives none. The core resolves given and declared modes, for this path and
        // for starpu_task_insert alike (`Codelet::check_buffer`).
        let given = if variable || !t.dyn_modes.is_null() || codelet::mode_of(cl, i) == 0 {
            task_mode
        } else {
            0
        };
        let sequential = sequential(t, i, &handle);
        out.push(Access {
            handle,
            mode: AccessMode::from_bits_retain(given),
            sequential,
        });
    }
    Ok(out)
}

/// Whether buffer `i` of `t` takes part in implicit dependencies: its handle's, the task's
/// and the buffer's own sequential consistency must all be on.
///
/// # Safety
/// `handles_sequential_consistency` is NULL or has an entry for buffer `i`.
unsafe fn sequential(t: &starpu_task, i: usize, handle: &starpu_core::DataHandle) -> bool {
    let per_buffer =
        t.handles_sequential_consistency.is_null() || *t.handles_sequential_consistency.add(i) != 0;
    handle.sequential_consistency() && t.sequential_consistency != 0 && per_buffer
}

/// What `starpu_task_insert` decoded before submitting: the codelet's conversion and the
/// buffers as given (a mode left empty is the codelet's; the core checks each against the
/// codelet at submission, once).
pub(crate) struct Decoded {
    pub codelet: Arc<Codelet>,
    pub accesses: SmallVec<[Access; 4]>,
}

/// Builds the core description of C task `t`; `decoded` is what `starpu_task_insert`
/// read from its arguments already.
#[inline(always)]
unsafe fn spec_of(t: *mut starpu_task, decoded: Option<Decoded>) -> starpu_core::Result<TaskSpec> {
    let tr = &*t;
    let (codelet, accesses) = match (tr.cl.as_ref(), decoded) {
        (None, _) => (None, SmallVec::new()),
        (Some(_), Some(mut d)) => {
            for (i, a) in d.accesses.iter_mut().enumerate() {
                a.sequential = sequential(tr, i, &a.handle);
            }
            (Some(d.codelet), d.accesses)
        }
        (Some(cl), None) => (Some(codelet::lookup(tr.cl)), accesses(tr, cl)?),
    };
    let synchronous = tr.synchronous != 0;
    let c = job::for_submission(t);
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
        sched_ctx: crate::sched_ctx::of_task(tr),
        hooks: Some(c),
        ..Default::default()
    })
}

/// Submits C task `t`; the shared path of `starpu_task_submit` and `starpu_task_insert`
/// (`call` names the entry point in error messages, `decoded` is what the insert call
/// decoded already).
///
/// # Safety
/// `t` is NULL or a live task.
pub(crate) unsafe fn submit(t: *mut starpu_task, call: &str, decoded: Option<Decoded>) -> c_int {
    int_call(call, || {
        ffi::non_null(t, "task")?;
        if job(t).is_destroyed() {
            return Err(Error::invalid("the task was destroyed"));
        }
        let synchronous = (*t).synchronous != 0;
        ffi::with_runtime(|rt| {
            // The description is built here, next to its one use: it is a few hundred
            // bytes, and every closure it crossed would copy it.
            let mut spec = spec_of(t, decoded)?;
            if (*t).sched_ctx == crate::sched_ctx::NMAX {
                // As StarPU does, the struct says which context the task went to.
                (*t).sched_ctx = rt.submission_context(None)?;
            }
            let core = next_core(t)?;
            crate::transaction::enlist((*t).transaction.cast(), &core, &mut spec)?;
            (*t).status = consts::STATUS_BLOCKED;
            if rt.profiling() && (*t).profiling_info.is_null() {
                (*t).profiling_info = crate::profiling::new_task_info();
                job(t).owns_profiling_info = true;
            }
            rt.submit(&core, spec)
        })?;
        if synchronous && (*t).destroy != 0 {
            job::destroy(t);
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
    submit(task, "starpu_task_submit", None)
}

/// `starpu_task_wait`: waits for a non-detached task, then destroys it if `destroy` is set.
///
/// # Safety
/// `task` is NULL or a task.
#[no_mangle]
pub unsafe extern "C" fn starpu_task_wait(task: *mut starpu_task) -> c_int {
    int_call("starpu_task_wait", || {
        ffi::non_null(task, "task")?;
        // Only the application writes `detach`; a released task still is a task (job.rs).
        if (*task).detach != 0 && (*task).synchronous == 0 {
            return Err(Error::invalid(
                "cannot wait for a detached task (set task->detach = 0 before submitting it)",
            ));
        }
        if job::existing_job(task).is_some_and(|j| j.is_destroyed()) {
            return Err(Error::invalid("the task was destroyed"));
        }
        let core = current_core(task)
            .filter(|c| c.is_submitted())
            .ok_or_else(|| Error::invalid("task was not submitted"))?;
        let r = ffi::with_runtime(|rt| rt.wait(&core));
        if (*task).destroy != 0 {
            job::destroy(task);
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
    let r = int_call("starpu_task_wait_for_all", || {
        ffi::with_runtime(|rt| rt.wait_for_all())
    });
    job::return_memory_after_burst();
    r
}

/// `starpu_task_wait_for_n_submitted`.
#[no_mangle]
pub extern "C" fn starpu_task_wait_for_n_submitted(n: c_uint) -> c_int {
    int_call("starpu_task_wait_for_n_submitted", || {
        ffi::with_runtime(|rt| rt.wait_until_at_most(n as usize))
    })
}

/// `starpu_task_wait_for_no_ready`: waits until no task waits for a worker.
#[no_mangle]
pub extern "C" fn starpu_task_wait_for_no_ready() -> c_int {
    int_call("starpu_task_wait_for_no_ready", || {
        ffi::with_runtime(|rt| rt.wait_for_no_ready())
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
    starpu_core::task::current_task()
        .and_then(|t| t.payload::<CTask>().map(CTask::ptr))
        .unwrap_or_else(|| STAND_IN.with(Cell::get))
}

thread_local! {
    /// The C task shown as current while the core runs application code in a task of its
    /// own, which has no C structure (`with_current_stand_in`).
    static STAND_IN: Cell<*mut starpu_task> = const { Cell::new(std::ptr::null_mut()) };
}

/// Runs `f` with `t` as what `starpu_task_get_current` answers on this thread (where no
/// C task is current), as it was before afterwards, even if `f` unwinds.
pub(crate) fn with_current_stand_in<R>(t: *mut starpu_task, f: impl FnOnce() -> R) -> R {
    struct Restore(*mut starpu_task);
    impl Drop for Restore {
        fn drop(&mut self) {
            STAND_IN.with(|s| s.set(self.0));
        }
    }
    let _restore = Restore(STAND_IN.with(|s| s.replace(t)));
    f()
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
    job(dep).slot.as_predecessor()
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
        let me = job(task).slot.current_or_next()?;
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
        let core = job(task).slot.current_or_next()?;
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
        ffi::with_runtime(|rt| {
            starpu_core::task::end_dep_release(rt, &core);
            Ok(())
        })
    });
}
