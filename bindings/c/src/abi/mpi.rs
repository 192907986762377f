//! `starpu_mpi.h` (written by hand, like the rest of StarPU-MPI's header): the exchange
//! parameters of an MPI task.

use libc::c_int;

/// `struct starpu_mpi_task_exchange_params`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct starpu_mpi_task_exchange_params {
    pub do_execute: c_int,
    pub xrank: c_int,
    pub priority: c_int,
}
