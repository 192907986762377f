//! The public C structs and typedefs, with StarPU's names and field names so that
//! programs written for StarPU (designated initializers included) compile unchanged.
//!
//! cbindgen turns these definitions into `starpu.h`; the layout test compares them with
//! what a C compiler makes of that header. Field order and types follow StarPU 1.4 where
//! programs rely on them; the binary layout is ours (we are source-, not binary-compatible).

#![allow(non_camel_case_types)]

use libc::{c_char, c_int, c_long, c_uchar, c_uint, c_ulong, c_void, size_t};

/// `STARPU_NMAXBUFS`: buffers a task holds inline before needing `dyn_handles`.
/// cbindgen:ignore
pub const STARPU_NMAXBUFS: usize = 8;
/// `STARPU_MAXIMPLEMENTATIONS`: implementations per kind of worker.
/// cbindgen:ignore
pub const STARPU_MAXIMPLEMENTATIONS: usize = 4;
/// `STARPU_NMAXWORKERS`.
/// cbindgen:ignore
pub const STARPU_NMAXWORKERS: usize = 64;

/// `enum starpu_data_access_mode` (the enum itself is written in the header's prelude).
/// cbindgen:ignore
pub type starpu_data_access_mode = c_uint;
/// `enum starpu_codelet_type`.
/// cbindgen:ignore
pub type starpu_codelet_type = c_uint;
/// `enum starpu_perfmodel_type`.
/// cbindgen:ignore
pub type starpu_perfmodel_type = c_uint;
/// `enum starpu_task_status`.
/// cbindgen:ignore
pub type starpu_task_status = c_uint;
/// `enum starpu_worker_archtype`.
/// cbindgen:ignore
pub type starpu_worker_archtype = c_uint;
/// `enum starpu_data_interface_id`.
/// cbindgen:ignore
pub type starpu_data_interface_id = c_int;
/// `enum starpu_node_kind`.
/// cbindgen:ignore
pub type starpu_node_kind = c_uint;
/// `enum starpu_worker_collection_type`.
/// cbindgen:ignore
pub type starpu_worker_collection_type = c_uint;
/// `struct timespec` from `<time.h>`.
/// cbindgen:ignore
pub type timespec = libc::timespec;

pub type starpu_tag_t = u64;
pub type starpu_ssize_t = isize;

/// The data behind a handle is the core's; C only ever holds its address.
pub enum _starpu_data_state {}
pub type starpu_data_handle_t = *mut _starpu_data_state;

pub enum _starpu_task_bundle {}
pub type starpu_task_bundle_t = *mut _starpu_task_bundle;

pub type starpu_cpu_func_t = Option<unsafe extern "C" fn(*mut *mut c_void, *mut c_void)>;
pub type starpu_cuda_func_t = Option<unsafe extern "C" fn(*mut *mut c_void, *mut c_void)>;
pub type starpu_opencl_func_t = Option<unsafe extern "C" fn(*mut *mut c_void, *mut c_void)>;
pub type starpu_hip_func_t = Option<unsafe extern "C" fn(*mut *mut c_void, *mut c_void)>;
pub type starpu_sycl_func_t = Option<unsafe extern "C" fn(*mut *mut c_void, *mut c_void)>;
pub type starpu_max_fpga_func_t = Option<unsafe extern "C" fn(*mut *mut c_void, *mut c_void)>;
pub type starpu_callback_func_t = Option<unsafe extern "C" fn(*mut c_void)>;

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

/// `struct starpu_perfmodel_arch` (a set of devices).
#[repr(C)]
pub struct starpu_perfmodel_arch {
    pub ndevices: c_int,
    pub devices: *mut crate::perfmodel::starpu_perfmodel_device,
}

/// `struct starpu_perfmodel`.
#[repr(C)]
pub struct starpu_perfmodel {
    pub r#type: starpu_perfmodel_type,
    pub cost_function: Option<unsafe extern "C" fn(*mut starpu_task, c_uint) -> f64>,
    pub arch_cost_function:
        Option<unsafe extern "C" fn(*mut starpu_task, *mut starpu_perfmodel_arch, c_uint) -> f64>,
    pub worker_cost_function: Option<unsafe extern "C" fn(*mut starpu_task, c_uint, c_uint) -> f64>,
    pub size_base: Option<unsafe extern "C" fn(*mut starpu_task, c_uint) -> size_t>,
    pub footprint: Option<unsafe extern "C" fn(*mut starpu_task) -> u32>,
    pub symbol: *const c_char,
    pub path: *const c_char,
    pub is_loaded: c_uint,
    pub benchmarking: c_uint,
    pub is_init: c_uint,
    pub parameters: Option<unsafe extern "C" fn(*mut starpu_task, *mut f64)>,
    pub parameters_names: *mut *const c_char,
    pub nparameters: c_uint,
    pub combinations: *mut *mut c_uint,
    pub ncombinations: c_uint,
    pub state: *mut c_void,
    pub footprint_per_level: *mut c_void,
    pub recursive_graphs: *mut c_void,
    pub is_recorded_recursive: c_int,
}

/// `struct starpu_data_filter`.
#[repr(C)]
pub struct starpu_data_filter {
    pub filter_func: Option<
        unsafe extern "C" fn(
            father_interface: *mut c_void,
            child_interface: *mut c_void,
            f: *mut starpu_data_filter,
            id: c_uint,
            nparts: c_uint,
        ),
    >,
    pub nchildren: c_uint,
    pub get_nchildren:
        Option<unsafe extern "C" fn(*mut starpu_data_filter, starpu_data_handle_t) -> c_uint>,
    pub get_child_ops: Option<
        unsafe extern "C" fn(*mut starpu_data_filter, c_uint) -> *mut starpu_data_interface_ops,
    >,
    pub filter_arg: c_uint,
    pub filter_arg_ptr: *mut c_void,
}

/// `struct starpu_data_copy_methods`: how a custom interface copies between nodes.
#[repr(C)]
pub struct starpu_data_copy_methods {
    pub can_copy:
        Option<unsafe extern "C" fn(*mut c_void, c_uint, *mut c_void, c_uint, c_uint) -> c_int>,
    pub ram_to_ram: starpu_copy_func_t,
    pub ram_to_cuda: starpu_copy_func_t,
    pub ram_to_hip: starpu_copy_func_t,
    pub ram_to_opencl: starpu_copy_func_t,
    pub ram_to_max_fpga: starpu_copy_func_t,
    pub cuda_to_ram: starpu_copy_func_t,
    pub cuda_to_cuda: starpu_copy_func_t,
    pub hip_to_ram: starpu_copy_func_t,
    pub hip_to_hip: starpu_copy_func_t,
    pub opencl_to_ram: starpu_copy_func_t,
    pub opencl_to_opencl: starpu_copy_func_t,
    pub max_fpga_to_ram: starpu_copy_func_t,
    pub ram_to_cuda_async: *mut c_void,
    pub cuda_to_ram_async: *mut c_void,
    pub cuda_to_cuda_async: *mut c_void,
    pub ram_to_hip_async: *mut c_void,
    pub hip_to_ram_async: *mut c_void,
    pub hip_to_hip_async: *mut c_void,
    pub ram_to_opencl_async: *mut c_void,
    pub opencl_to_ram_async: *mut c_void,
    pub opencl_to_opencl_async: *mut c_void,
    pub ram_to_max_fpga_async: *mut c_void,
    pub max_fpga_to_ram_async: *mut c_void,
    pub any_to_any: Option<
        unsafe extern "C" fn(*mut c_void, c_uint, *mut c_void, c_uint, *mut c_void) -> c_int,
    >,
}

pub type starpu_copy_func_t =
    Option<unsafe extern "C" fn(*mut c_void, c_uint, *mut c_void, c_uint) -> c_int>;

/// `struct starpu_data_interface_ops`: what an interface is. The built-in ones are exported
/// as `starpu_interface_*_ops`; `interfaceid` and `interface_size` identify them.
#[repr(C)]
pub struct starpu_data_interface_ops {
    pub register_data_handle:
        Option<unsafe extern "C" fn(starpu_data_handle_t, c_int, *mut c_void)>,
    pub unregister_data_handle: Option<unsafe extern "C" fn(starpu_data_handle_t)>,
    pub allocate_data_on_node: Option<unsafe extern "C" fn(*mut c_void, c_uint) -> starpu_ssize_t>,
    pub free_data_on_node: Option<unsafe extern "C" fn(*mut c_void, c_uint)>,
    pub cache_data_on_node: Option<unsafe extern "C" fn(*mut c_void, *mut c_void, c_uint)>,
    pub reuse_data_on_node: Option<unsafe extern "C" fn(*mut c_void, *const c_void, c_uint)>,
    pub map_data: Option<unsafe extern "C" fn(*mut c_void, c_uint, *mut c_void, c_uint) -> c_int>,
    pub unmap_data: Option<unsafe extern "C" fn(*mut c_void, c_uint, *mut c_void, c_uint) -> c_int>,
    pub update_map: Option<unsafe extern "C" fn(*mut c_void, c_uint, *mut c_void, c_uint) -> c_int>,
    pub init: Option<unsafe extern "C" fn(*mut c_void)>,
    pub copy_methods: *const starpu_data_copy_methods,
    pub handle_to_pointer:
        Option<unsafe extern "C" fn(starpu_data_handle_t, c_uint) -> *mut c_void>,
    pub to_pointer: Option<unsafe extern "C" fn(*mut c_void, c_uint) -> *mut c_void>,
    pub pointer_is_inside: Option<unsafe extern "C" fn(*mut c_void, c_uint, *mut c_void) -> c_int>,
    pub get_size: Option<unsafe extern "C" fn(starpu_data_handle_t) -> size_t>,
    pub get_alloc_size: Option<unsafe extern "C" fn(starpu_data_handle_t) -> size_t>,
    pub get_max_size: Option<unsafe extern "C" fn(starpu_data_handle_t) -> size_t>,
    pub footprint: Option<unsafe extern "C" fn(starpu_data_handle_t) -> u32>,
    pub alloc_footprint: Option<unsafe extern "C" fn(starpu_data_handle_t) -> u32>,
    pub compare: Option<unsafe extern "C" fn(*mut c_void, *mut c_void) -> c_int>,
    pub alloc_compare: Option<unsafe extern "C" fn(*mut c_void, *mut c_void) -> c_int>,
    pub display: Option<unsafe extern "C" fn(starpu_data_handle_t, *mut libc::FILE)>,
    pub describe: Option<unsafe extern "C" fn(*mut c_void, *mut c_char, size_t) -> starpu_ssize_t>,
    pub interfaceid: starpu_data_interface_id,
    pub interface_size: size_t,
    pub is_multiformat: c_char,
    pub dontcache: c_char,
    pub get_mf_ops: Option<unsafe extern "C" fn(*mut c_void) -> *mut c_void>,
    pub pack_data: Option<
        unsafe extern "C" fn(
            starpu_data_handle_t,
            c_uint,
            *mut *mut c_void,
            *mut starpu_ssize_t,
        ) -> c_int,
    >,
    pub peek_data:
        Option<unsafe extern "C" fn(starpu_data_handle_t, c_uint, *mut c_void, size_t) -> c_int>,
    pub unpack_data:
        Option<unsafe extern "C" fn(starpu_data_handle_t, c_uint, *mut c_void, size_t) -> c_int>,
    pub pack_meta:
        Option<unsafe extern "C" fn(*mut c_void, *mut *mut c_void, *mut starpu_ssize_t) -> c_int>,
    pub unpack_meta:
        Option<unsafe extern "C" fn(*mut *mut c_void, *mut c_void, *mut starpu_ssize_t) -> c_int>,
    pub free_meta: Option<unsafe extern "C" fn(*mut c_void) -> c_int>,
    pub name: *const c_char,
}

/// `struct starpu_profiling_task_info`.
#[repr(C)]
pub struct starpu_profiling_task_info {
    pub submit_time: timespec,
    pub push_start_time: timespec,
    pub push_end_time: timespec,
    pub pop_start_time: timespec,
    pub pop_end_time: timespec,
    pub acquire_data_start_time: timespec,
    pub acquire_data_end_time: timespec,
    pub start_time: timespec,
    pub end_time: timespec,
    pub release_data_start_time: timespec,
    pub release_data_end_time: timespec,
    pub callback_start_time: timespec,
    pub callback_end_time: timespec,
    pub workerid: c_int,
    pub used_cycles: u64,
    pub stall_cycles: u64,
    pub energy_consumed: f64,
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

/// `struct starpu_driver`'s id.
#[repr(C)]
#[derive(Clone, Copy)]
pub union starpu_driver_id {
    pub cpu_id: c_uint,
    pub cuda_id: c_uint,
    pub opencl_id: *mut c_void,
}

/// `struct starpu_driver`: a driver the application runs itself.
#[repr(C)]
pub struct starpu_driver {
    pub r#type: starpu_worker_archtype,
    pub id: starpu_driver_id,
}

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

/// `struct starpu_conf`: what `starpu_init` is asked for.
#[repr(C)]
pub struct starpu_conf {
    pub magic: c_int,
    pub will_use_mpi: c_int,
    pub sched_policy_name: *const c_char,
    pub sched_policy: *mut starpu_sched_policy,
    pub sched_policy_callback: Option<unsafe extern "C" fn(c_uint)>,
    pub sched_policy_init: Option<unsafe extern "C" fn(c_uint)>,
    pub precedence_over_environment_variables: c_int,
    pub ncpus: c_int,
    pub reserve_ncpus: c_int,
    pub ncuda: c_int,
    pub nopencl: c_int,
    pub nmax_fpga: c_int,
    pub nmpi_sc: c_int,
    pub ntcpip_sc: c_int,
    pub nhip: c_int,
    pub nsycl: c_int,
    /// StarPU 1.3 and 1.4 names of devices this build does not drive (master renamed
    /// `*_ms` to `*_sc`), kept so programs of every era compile; like the `_sc` fields,
    /// they ask for workers this build does not have.
    pub nmic: c_int,
    pub nmpi_ms: c_int,
    pub ntcpip_ms: c_int,
    pub use_explicit_workers_mpi_ms_deviceid: c_uint,
    pub workers_mpi_ms_deviceid: [c_uint; STARPU_NMAXWORKERS],
    pub disable_asynchronous_mpi_ms_copy: c_int,
    pub disable_asynchronous_tcpip_ms_copy: c_int,
    pub use_explicit_workers_bindid: c_uint,
    pub workers_bindid: [c_uint; STARPU_NMAXWORKERS],
    pub use_explicit_workers_cuda_gpuid: c_uint,
    pub workers_cuda_gpuid: [c_uint; STARPU_NMAXWORKERS],
    pub use_explicit_workers_opencl_gpuid: c_uint,
    pub workers_opencl_gpuid: [c_uint; STARPU_NMAXWORKERS],
    pub use_explicit_workers_hip_gpuid: c_uint,
    pub workers_hip_gpuid: [c_uint; STARPU_NMAXWORKERS],
    pub use_explicit_workers_sycl_gpuid: c_uint,
    pub workers_sycl_gpuid: [c_uint; STARPU_NMAXWORKERS],
    pub use_explicit_workers_max_fpga_deviceid: c_uint,
    pub workers_max_fpga_deviceid: [c_uint; STARPU_NMAXWORKERS],
    pub use_explicit_workers_mpi_sc_deviceid: c_uint,
    pub workers_mpi_sc_deviceid: [c_uint; STARPU_NMAXWORKERS],
    pub bus_calibrate: c_int,
    pub calibrate: c_int,
    pub single_combined_worker: c_int,
    pub disable_asynchronous_copy: c_int,
    pub disable_asynchronous_cuda_copy: c_int,
    pub disable_asynchronous_opencl_copy: c_int,
    pub disable_asynchronous_hip_copy: c_int,
    pub disable_asynchronous_sycl_copy: c_int,
    pub disable_asynchronous_max_fpga_copy: c_int,
    pub disable_asynchronous_mpi_sc_copy: c_int,
    pub disable_asynchronous_tcpip_sc_copy: c_int,
    pub enable_map: c_int,
    pub cuda_opengl_interoperability: *mut c_uint,
    pub n_cuda_opengl_interoperability: c_uint,
    pub not_launched_drivers: *mut starpu_driver,
    pub n_not_launched_drivers: c_uint,
    pub trace_buffer_size: u64,
    pub global_sched_ctx_min_priority: c_int,
    pub global_sched_ctx_max_priority: c_int,
    pub catch_signals: c_int,
    pub callback_worker_going_to_sleep: Option<unsafe extern "C" fn(c_uint)>,
    pub callback_worker_waking_up: Option<unsafe extern "C" fn(c_uint)>,
    pub start_perf_counter_collection: c_int,
    pub cuda_only_fast_alloc_other_memnodes: c_int,
    pub data_locality_enforce: c_int,
    pub max_fpga_load: c_int,
    pub driver_spinning_backoff_min: c_uint,
    pub driver_spinning_backoff_max: c_uint,
}
