//! `starpu_task.h`, `starpu_task_list.h`, `starpu_task_util.h`: the codelet, the task, and
//! the records programs build around them (data descriptors, task lists, packed arguments).

use super::*;
use libc::{c_char, c_int, c_long, c_uchar, c_uint, c_ulong, c_void, size_t};

/// `struct starpu_codelet`.
#[repr(C)]
pub struct starpu_codelet {
    pub r#where: u32,
    pub can_execute: Option<
        unsafe extern "C" fn(workerid: c_uint, task: *mut starpu_task, nimpl: c_uint) -> c_int,
    >,
    pub r#type: starpu_codelet_type,
    pub max_parallelism: c_int,
    pub cpu_func: starpu_cpu_func_t,
    pub cuda_func: starpu_cuda_func_t,
    pub opencl_func: starpu_opencl_func_t,
    pub cpu_funcs: [starpu_cpu_func_t; STARPU_MAXIMPLEMENTATIONS],
    pub cuda_funcs: [starpu_cuda_func_t; STARPU_MAXIMPLEMENTATIONS],
    pub cuda_flags: [c_char; STARPU_MAXIMPLEMENTATIONS],
    pub opencl_funcs: [starpu_opencl_func_t; STARPU_MAXIMPLEMENTATIONS],
    pub opencl_flags: [c_char; STARPU_MAXIMPLEMENTATIONS],
    pub hip_funcs: [starpu_hip_func_t; STARPU_MAXIMPLEMENTATIONS],
    pub hip_flags: [c_char; STARPU_MAXIMPLEMENTATIONS],
    pub sycl_funcs: [starpu_sycl_func_t; STARPU_MAXIMPLEMENTATIONS],
    pub sycl_flags: [c_char; STARPU_MAXIMPLEMENTATIONS],
    pub max_fpga_funcs: [starpu_max_fpga_func_t; STARPU_MAXIMPLEMENTATIONS],
    pub cpu_funcs_name: [*const c_char; STARPU_MAXIMPLEMENTATIONS],
    pub recursive_task_func: Option<unsafe extern "C" fn(*mut starpu_task, *mut c_void) -> c_int>,
    pub recursive_task_gen_dag_func: Option<unsafe extern "C" fn(*mut starpu_task, *mut c_void)>,
    pub nbuffers: c_int,
    pub modes: [starpu_data_access_mode; STARPU_NMAXBUFS],
    pub dyn_modes: *mut starpu_data_access_mode,
    pub specific_nodes: c_uint,
    pub nodes: [c_int; STARPU_NMAXBUFS],
    pub dyn_nodes: *mut c_int,
    pub model: *mut starpu_perfmodel,
    pub energy_model: *mut starpu_perfmodel,
    pub per_worker_stats: *mut c_ulong,
    pub name: *const c_char,
    pub color: c_uint,
    pub callback_func: starpu_callback_func_t,
    pub flags: c_int,
    pub perf_counter_sample: *mut c_void,
    pub perf_counter_values: *mut c_void,
    pub checked: c_int,
}

/// `struct starpu_task`.
#[repr(C)]
pub struct starpu_task {
    pub name: *const c_char,
    pub file: *const c_char,
    pub line: c_int,
    pub cl: *mut starpu_codelet,
    pub cl_ret: *mut c_void,
    pub cl_ret_size: c_int,
    pub r#where: i32,
    pub nbuffers: c_int,
    pub dyn_handles: *mut starpu_data_handle_t,
    pub dyn_interfaces: *mut *mut c_void,
    pub dyn_modes: *mut starpu_data_access_mode,
    pub dyn_nodes: *mut c_int,
    pub handles: [starpu_data_handle_t; STARPU_NMAXBUFS],
    pub interfaces: [*mut c_void; STARPU_NMAXBUFS],
    pub modes: [starpu_data_access_mode; STARPU_NMAXBUFS],
    pub nodes: [c_int; STARPU_NMAXBUFS],
    pub handles_sequential_consistency: *mut c_uchar,
    pub cl_arg: *mut c_void,
    pub cl_arg_size: size_t,
    pub callback_func: starpu_callback_func_t,
    pub callback_arg: *mut c_void,
    pub epilogue_callback_func: starpu_callback_func_t,
    pub epilogue_callback_arg: *mut c_void,
    pub prologue_callback_func: starpu_callback_func_t,
    pub prologue_callback_arg: *mut c_void,
    pub prologue_callback_pop_func: starpu_callback_func_t,
    pub prologue_callback_pop_arg: *mut c_void,
    pub soon_callback_func: starpu_callback_func_t,
    pub soon_callback_arg: *mut c_void,
    pub tag_id: starpu_tag_t,
    pub cl_arg_free: c_uint,
    pub callback_arg_free: c_uint,
    pub epilogue_callback_arg_free: c_uint,
    pub prologue_callback_arg_free: c_uint,
    pub prologue_callback_pop_arg_free: c_uint,
    pub soon_callback_arg_free: c_uint,
    pub use_tag: c_uint,
    pub sequential_consistency: c_uint,
    pub synchronous: c_uint,
    pub execute_on_a_specific_worker: c_uint,
    pub detach: c_uint,
    pub destroy: c_uint,
    pub regenerate: c_uint,
    pub no_submitorder: c_uint,
    pub failed: c_uint,
    pub mf_skip: c_uchar,
    pub scheduled: c_uchar,
    pub prefetched: c_uchar,
    pub workerid: c_uint,
    pub workerorder: c_uint,
    pub workerids: *mut u32,
    pub workerids_len: c_uint,
    pub priority: c_int,
    pub status: starpu_task_status,
    pub magic: c_int,
    pub r#type: c_uint,
    pub color: c_uint,
    pub sched_ctx: c_uint,
    pub hypervisor_tag: c_int,
    pub possibly_parallel: c_uint,
    pub bundle: starpu_task_bundle_t,
    pub profiling_info: *mut starpu_profiling_task_info,
    pub flops: f64,
    pub predicted: f64,
    pub predicted_transfer: f64,
    pub predicted_start: f64,
    pub prev: *mut starpu_task,
    pub next: *mut starpu_task,
    pub starpu_private: *mut c_void,
    pub omp_task: *mut c_void,
    pub nb_termination_call_required: c_uint,
    pub sched_data: *mut c_void,
    pub iterations: [c_long; 2],
    pub transaction: *mut c_void,
    pub trs_epoch: *mut c_void,
    pub recursive_task_func: Option<unsafe extern "C" fn(*mut starpu_task, *mut c_void) -> c_int>,
    pub recursive_task_func_arg: *mut c_void,
    pub recursive_task_gen_dag_func: Option<unsafe extern "C" fn(*mut starpu_task, *mut c_void)>,
    pub recursive_task_gen_dag_func_arg: *mut c_void,
    pub recursive_task_parent: *mut starpu_task,
}

/// `struct starpu_data_descr`: a handle with its access mode.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct starpu_data_descr {
    pub handle: starpu_data_handle_t,
    pub mode: starpu_data_access_mode,
}

/// `struct starpu_task_list`.
#[repr(C)]
pub struct starpu_task_list {
    pub head: *mut starpu_task,
    pub tail: *mut starpu_task,
}

/// `struct starpu_codelet_pack_arg_data`: state of an incremental pack or unpack.
#[repr(C)]
pub struct starpu_codelet_pack_arg_data {
    pub arg_buffer: *mut c_char,
    pub arg_buffer_size: size_t,
    pub current_offset: size_t,
    pub nargs: c_int,
}
