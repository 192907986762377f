//! `starpu_fxt.h`: the options and records of trace generation.

use super::*;
use libc::{c_char, c_int, c_long};

/// `STARPU_FXT_MAX_FILES` (also in `starpu_config.h`).
/// cbindgen:ignore
pub const STARPU_FXT_MAX_FILES: usize = 64;

/// `struct starpu_fxt_codelet_event` (StarPU 1.4's layout).
#[repr(C)]
pub struct starpu_fxt_codelet_event {
    pub symbol: [c_char; 2048],
    pub workerid: c_int,
    pub perfmodel_archname: [c_char; 256],
    pub hash: u32,
    pub size: usize,
    pub time: f32,
}

/// `struct starpu_fxt_mpi_offset` (StarPU 1.4's layout).
#[repr(C)]
pub struct starpu_fxt_mpi_offset {
    pub local_time_start: u64,
    pub offset_start: i64,
    pub local_time_end: u64,
    pub offset_end: i64,
    pub nb_barriers: c_int,
}

/// `struct starpu_fxt_options`, StarPU 1.4's layout, so that `starpu_fxt_tool`-like
/// programs fill it as they do for StarPU. The paths are `malloc`ed strings, freed by
/// `starpu_fxt_options_shutdown`. Not filled here: `worker_archtypes`,
/// `dumped_codelets` (the plot tool reads `distrib.data` instead), and the MPI merge
/// fields (one input file is read).
#[repr(C)]
pub struct starpu_fxt_options {
    pub per_task_colour: u32,
    pub no_events: u32,
    pub no_counter: u32,
    pub no_bus: u32,
    pub no_flops: u32,
    pub ninputfiles: u32,
    pub no_smooth: u32,
    pub no_acquire: u32,
    pub memory_states: u32,
    pub internal: u32,
    pub label_deps: u32,
    pub use_task_color: u32,
    pub filenames: [*mut c_char; STARPU_FXT_MAX_FILES],
    pub out_paje_path: *mut c_char,
    pub distrib_time_path: *mut c_char,
    pub activity_path: *mut c_char,
    pub sched_tasks_path: *mut c_char,
    pub dag_path: *mut c_char,
    pub tasks_path: *mut c_char,
    pub data_path: *mut c_char,
    pub papi_path: *mut c_char,
    pub comms_path: *mut c_char,
    pub number_events_path: *mut c_char,
    pub anim_path: *mut c_char,
    pub states_path: *mut c_char,
    pub dir: *mut c_char,
    pub worker_names: [[c_char; 256]; STARPU_NMAXWORKERS],
    pub nworkers: c_int,
    pub worker_archtypes: [starpu_perfmodel_arch; STARPU_NMAXWORKERS],
    pub file_prefix: *mut c_char,
    pub file_offset: starpu_fxt_mpi_offset,
    pub file_rank: c_int,
    pub dumped_codelets: *mut *mut starpu_fxt_codelet_event,
    pub dumped_codelets_count: c_long,
}
