//! Questions about a task's state and late changes to its ownership (`starpu_task.h`):
//! `starpu_task_finished`, `starpu_task_set_destroy`, `starpu_task_get_current_data_node`,
//! and `starpu_task_dup`.

use crate::abi::starpu_task;
use crate::ffi;
use crate::job::{self, job};
use crate::task::current_core;
use libc::{c_int, c_uint};

/// `starpu_task_finished`: 1 once the task's current submission has ended (callbacks
/// run, successors released), 0 before or if it was never submitted.
///
/// # Safety
/// `task` is NULL or a live task.
#[no_mangle]
pub unsafe extern "C" fn starpu_task_finished(task: *mut starpu_task) -> c_int {
    if task.is_null() {
        return 0;
    }
    current_core(task).is_some_and(|t| t.is_submitted() && t.is_terminated()) as c_int
}

/// `starpu_task_set_destroy`: the task is freed once it ends, as if `destroy` had been set
/// before submission; a detached task that has ended already is freed now.
///
/// # Safety
/// `task` is NULL or a task made by `starpu_task_create`, not freed yet.
#[no_mangle]
pub unsafe extern "C" fn starpu_task_set_destroy(task: *mut starpu_task) {
    if !task.is_null() {
        job::set_destroy(task);
    }
}

/// `starpu_task_get_current_data_node`: the memory node where buffer `i` of the task
/// running on this thread is, -1 outside a task or past its buffers.
#[no_mangle]
pub extern "C" fn starpu_task_get_current_data_node(i: c_uint) -> c_int {
    let Some(t) = starpu_core::task::current_task() else {
        return -1;
    };
    let nbuffers = t.spec().map_or(0, |s| s.accesses.len());
    if i as usize >= nbuffers {
        return -1;
    }
    let worker = starpu_core::worker::current_worker_id();
    ffi::with_runtime(|rt| Ok(worker.and_then(|w| rt.worker(w)).map(|w| w.node)))
        .ok()
        .flatten()
        .map_or(-1, |n| n as c_int)
}

/// A `malloc`ed copy of the `n` elements at `p` (NULL stays NULL).
unsafe fn copy_array<T>(p: *mut T, n: usize) -> *mut T {
    if p.is_null() {
        return p;
    }
    ffi::malloc_copy(std::slice::from_raw_parts(
        p as *const u8,
        n * std::mem::size_of::<T>(),
    )) as *mut T
}

/// `starpu_task_dup`: a new task (as from `starpu_task_create`) with every field of
/// `task`, never submitted. What StarPU frees with a task is copied so that each task
/// frees its own: the arrays `starpu_task_insert` allocated, and `cl_arg` when
/// `cl_arg_free` is set. Callback arguments with a `*_arg_free` flag stay the original's
/// to free (their size is unknown): the copy's flags are cleared. Profiling information
/// is not copied.
///
/// # Safety
/// `task` is NULL or a live task.
#[no_mangle]
pub unsafe extern "C" fn starpu_task_dup(task: *mut starpu_task) -> *mut starpu_task {
    if task.is_null() {
        return std::ptr::null_mut();
    }
    let dup = job::create();
    let private = (*dup).starpu_private;
    std::ptr::copy_nonoverlapping(task as *const starpu_task, dup, 1);
    let d = &mut *dup;
    d.starpu_private = private;
    d.profiling_info = std::ptr::null_mut();
    d.status = 0;
    d.prev = std::ptr::null_mut();
    d.next = std::ptr::null_mut();
    if job::existing_job(task).is_some_and(|j| j.owns_dyn) {
        let n = d.nbuffers.max(0) as usize;
        d.dyn_handles = copy_array(d.dyn_handles, n);
        d.dyn_modes = copy_array(d.dyn_modes, n);
        job(dup).owns_dyn = true;
    }
    if d.cl_arg_free != 0 && !d.cl_arg.is_null() {
        d.cl_arg = ffi::malloc_copy(std::slice::from_raw_parts(
            d.cl_arg as *const u8,
            d.cl_arg_size,
        ));
    }
    d.callback_arg_free = 0;
    d.prologue_callback_arg_free = 0;
    d.prologue_callback_pop_arg_free = 0;
    d.epilogue_callback_arg_free = 0;
    d.soon_callback_arg_free = 0;
    dup
}

/// `starpu_task_get_implementation`: the implementation of the codelet chosen for the
/// task's current submission (by the policy, or by the worker that ran it); 0 before one
/// was chosen or when `task` was never submitted.
///
/// # Safety
/// `task` is NULL or a live task.
#[no_mangle]
pub unsafe extern "C" fn starpu_task_get_implementation(task: *mut starpu_task) -> c_uint {
    if task.is_null() {
        return 0;
    }
    current_core(task).map_or(0, |t| t.implementation() as c_uint)
}

/// `starpu_task_set_implementation`: for scheduling policies, the implementation the
/// worker will run (if it may run it; otherwise the worker picks). Refused, with a message,
/// for a task that is not submitted.
///
/// # Safety
/// `task` is NULL or a live task.
#[no_mangle]
pub unsafe extern "C" fn starpu_task_set_implementation(task: *mut starpu_task, nimpl: c_uint) {
    let call = "starpu_task_set_implementation";
    let _ = ffi::int_call(call, || {
        ffi::non_null(task, "the task")?;
        let t = current_core(task).ok_or_else(|| {
            starpu_core::Error::invalid("the task is not submitted: no implementation to choose")
        })?;
        t.set_sched_impl(nimpl as usize);
        Ok(())
    });
}
