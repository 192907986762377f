//! `starpu_scheduler.h`, `starpu_sched_ctx.h`, `starpu_worker.h`: a policy written by the
//! application, and the worker collections and iterators it walks.

use super::*;
use libc::{c_char, c_int, c_uint, c_void};

/// `struct starpu_sched_policy`: a scheduling policy written by the application.
#[repr(C)]
pub struct starpu_sched_policy {
    pub init_sched: Option<unsafe extern "C" fn(c_uint)>,
    pub deinit_sched: Option<unsafe extern "C" fn(c_uint)>,
    pub push_task: Option<unsafe extern "C" fn(*mut starpu_task) -> c_int>,
    pub simulate_push_task: Option<unsafe extern "C" fn(*mut starpu_task) -> f64>,
    pub push_task_notify: Option<unsafe extern "C" fn(*mut starpu_task, c_int, c_int, c_uint)>,
    pub pop_task: Option<unsafe extern "C" fn(c_uint) -> *mut starpu_task>,
    pub submit_hook: Option<unsafe extern "C" fn(*mut starpu_task)>,
    pub pre_exec_hook: Option<unsafe extern "C" fn(*mut starpu_task, c_uint)>,
    pub post_exec_hook: Option<unsafe extern "C" fn(*mut starpu_task, c_uint)>,
    pub do_schedule: Option<unsafe extern "C" fn(c_uint)>,
    pub add_workers: Option<unsafe extern "C" fn(c_uint, *mut c_int, c_uint)>,
    pub remove_workers: Option<unsafe extern "C" fn(c_uint, *mut c_int, c_uint)>,
    pub prefetches: c_int,
    pub policy_name: *const c_char,
    pub policy_description: *const c_char,
    pub worker_type: starpu_worker_collection_type,
}

/// `struct starpu_sched_ctx_iterator` (StarPU 1.4 layout).
#[repr(C)]
pub struct starpu_sched_ctx_iterator {
    pub cursor: c_int,
    pub value: *mut c_void,
    pub possible_value: *mut c_void,
    pub visited: [c_char; STARPU_NMAXWORKERS],
    pub possibly_parallel: c_int,
}

/// `struct starpu_worker_collection` (StarPU 1.4 layout): a list of the context's
/// workers, refreshed when its members change.
#[repr(C)]
pub struct starpu_worker_collection {
    pub workerids: *mut c_int,
    pub collection_private: *mut c_void,
    pub nworkers: c_uint,
    pub unblocked_workers: *mut c_void,
    pub nunblocked_workers: c_uint,
    pub masters: *mut c_void,
    pub nmasters: c_uint,
    pub present: [c_char; STARPU_NMAXWORKERS],
    pub is_unblocked: [c_char; STARPU_NMAXWORKERS],
    pub is_master: [c_char; STARPU_NMAXWORKERS],
    pub r#type: starpu_worker_collection_type,
    pub has_next: Option<
        unsafe extern "C" fn(
            *mut starpu_worker_collection,
            *mut starpu_sched_ctx_iterator,
        ) -> c_uint,
    >,
    pub get_next: Option<
        unsafe extern "C" fn(
            *mut starpu_worker_collection,
            *mut starpu_sched_ctx_iterator,
        ) -> c_int,
    >,
    pub add: Option<unsafe extern "C" fn(*mut starpu_worker_collection, c_int) -> c_int>,
    pub remove: Option<unsafe extern "C" fn(*mut starpu_worker_collection, c_int) -> c_int>,
    pub init: Option<unsafe extern "C" fn(*mut starpu_worker_collection)>,
    pub deinit: Option<unsafe extern "C" fn(*mut starpu_worker_collection)>,
    pub init_iterator:
        Option<unsafe extern "C" fn(*mut starpu_worker_collection, *mut starpu_sched_ctx_iterator)>,
    pub init_iterator_for_parallel_tasks: Option<
        unsafe extern "C" fn(
            *mut starpu_worker_collection,
            *mut starpu_sched_ctx_iterator,
            *mut starpu_task,
        ),
    >,
}
