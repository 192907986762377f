//! `starpu_profiling.h`: what profiling reports per task, per worker and per bus.

use super::*;
use libc::{c_int, c_longlong};

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

/// `struct starpu_profiling_worker_info`: a worker's activity since its information was
/// last read.
#[repr(C)]
pub struct starpu_profiling_worker_info {
    pub start_time: timespec,
    pub total_time: timespec,
    pub executing_time: timespec,
    pub sleeping_time: timespec,
    pub executed_tasks: c_int,
    pub used_cycles: u64,
    pub stall_cycles: u64,
    pub energy_consumed: f64,
    pub flops: f64,
}

/// `struct starpu_profiling_bus_info`.
#[repr(C)]
pub struct starpu_profiling_bus_info {
    pub start_time: timespec,
    pub total_time: timespec,
    pub transferred_bytes: c_longlong,
    pub transfer_count: c_int,
}
