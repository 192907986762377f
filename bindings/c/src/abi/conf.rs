//! `starpu.h`, `starpu_driver.h`: what `starpu_init` is asked for, and the drivers a program
//! runs itself.

use super::*;
use libc::{c_char, c_int, c_uint, c_void};

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
