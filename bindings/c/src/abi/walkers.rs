//! The records the C walkers of the variadic calls (csrc/) fill for Rust to decode:
//! `starpu_task_insert`'s arguments, `starpu_sched_ctx_create`'s and the parallel workers'
//! options. Not StarPU's API, but the same binary contract between two compilers.

use super::*;
use libc::{c_char, c_int, c_uint, c_void};

/// One value of an argument record.
#[repr(C)]
#[derive(Clone, Copy)]
pub union _starpu_insert_value {
    pub p: *mut c_void,
    pub i: i64,
    pub u: u64,
    pub d: f64,
}

/// One `starpu_task_insert` argument: its key and up to two values.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct _starpu_insert_arg {
    pub key: c_int,
    pub a: _starpu_insert_value,
    pub b: _starpu_insert_value,
}

/// What the variadic walker read from `starpu_sched_ctx_create`'s options.
#[repr(C)]
pub struct _starpu_sched_ctx_options {
    pub policy_name: *const c_char,
    pub policy: *mut starpu_sched_policy,
    pub min_prio: c_int,
    pub min_prio_set: c_int,
    pub max_prio: c_int,
    pub max_prio_set: c_int,
    pub hierarchy_level: c_uint,
    pub nested: c_uint,
    pub awake_workers: c_int,
    pub init_sched: Option<unsafe extern "C" fn(c_uint)>,
    pub user_data: *mut c_void,
    pub sub_ctxs: *mut c_int,
    pub nsub_ctxs: c_int,
    pub nsms: c_int,
    /// A key the walker did not know (0: none).
    pub bad_key: c_int,
}

/// One option as the C walker copied it.
/// cbindgen:ignore
#[repr(C)]
pub struct _starpu_pw_option {
    pub(crate) key: c_int,
    pub(crate) value: c_int,
    pub(crate) ptr: *mut c_void,
}
