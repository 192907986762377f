//! `starpu_sched_component.h`: modular schedulers' components and trees, field for field as
//! StarPU 1.4's.

use super::*;
use libc::{c_char, c_int, c_uint, c_ulong, c_void};

/// `struct starpu_bitmap` (StarPU 1.4: a plain struct, embedded in the components).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct starpu_bitmap {
    /// One word: `STARPU_NMAXWORKERS` is 64 here.
    pub bits: [c_ulong; 1],
    pub cardinal: c_int,
}

pub(crate) type Comp = starpu_sched_component;

/// `struct starpu_sched_component`, field for field as StarPU 1.4's.
#[repr(C)]
pub struct starpu_sched_component {
    pub tree: *mut starpu_sched_tree,
    pub workers: starpu_bitmap,
    pub workers_in_ctx: starpu_bitmap,
    pub data: *mut c_void,
    pub name: *mut c_char,
    pub nchildren: c_uint,
    pub children: *mut *mut starpu_sched_component,
    pub nparents: c_uint,
    pub parents: *mut *mut starpu_sched_component,
    pub add_child: Option<unsafe extern "C" fn(*mut Comp, *mut Comp)>,
    pub remove_child: Option<unsafe extern "C" fn(*mut Comp, *mut Comp)>,
    pub add_parent: Option<unsafe extern "C" fn(*mut Comp, *mut Comp)>,
    pub remove_parent: Option<unsafe extern "C" fn(*mut Comp, *mut Comp)>,
    pub push_task: Option<unsafe extern "C" fn(*mut Comp, *mut starpu_task) -> c_int>,
    pub pull_task: Option<unsafe extern "C" fn(*mut Comp, *mut Comp) -> *mut starpu_task>,
    pub can_push: Option<unsafe extern "C" fn(*mut Comp, *mut Comp) -> c_int>,
    pub can_pull: Option<unsafe extern "C" fn(*mut Comp) -> c_int>,
    pub notify: Option<unsafe extern "C" fn(*mut Comp, c_int, *mut c_void) -> c_int>,
    pub estimated_load: Option<unsafe extern "C" fn(*mut Comp) -> f64>,
    pub estimated_end: Option<unsafe extern "C" fn(*mut Comp) -> f64>,
    pub deinit_data: Option<unsafe extern "C" fn(*mut Comp)>,
    pub notify_change_workers: Option<unsafe extern "C" fn(*mut Comp)>,
    pub properties: c_int,
    /// StarPU's `hwloc_obj_t obj` (a pointer); unused here.
    pub obj: *mut c_void,
}

/// `struct starpu_sched_tree`, field for field as StarPU 1.4's.
#[repr(C)]
pub struct starpu_sched_tree {
    pub root: *mut starpu_sched_component,
    pub workers: starpu_bitmap,
    pub sched_ctx_id: c_uint,
    pub lock: libc::pthread_mutex_t,
}

/// `typedef struct starpu_sched_component *(*starpu_sched_component_create_t)(struct
/// starpu_sched_tree *tree, void *data)`.
pub type starpu_sched_component_create_t = Option<
    unsafe extern "C" fn(*mut starpu_sched_tree, *mut c_void) -> *mut starpu_sched_component,
>;

/// `struct starpu_sched_component_fifo_data`: parameters of the fifo component.
#[repr(C)]
pub struct starpu_sched_component_fifo_data {
    pub ntasks_threshold: c_uint,
    pub exp_len_threshold: f64,
    pub ready: c_int,
    pub exp: c_int,
}

/// `struct starpu_sched_component_prio_data`: parameters of the prio component.
#[repr(C)]
pub struct starpu_sched_component_prio_data {
    pub ntasks_threshold: c_uint,
    pub exp_len_threshold: f64,
    pub ready: c_int,
    pub exp: c_int,
}
