//! libstarpu: StarPU's C API over starpu-core.
//!
//! Every `#[no_mangle] extern "C"` function here has StarPU's name, arguments and return
//! convention (0 or a negative errno). Errors print one line on stderr naming the call and
//! the cause, and are kept for `starpu_rs_last_error` (last_error.rs); no panic crosses
//! into C. `starpu.h` is generated from these definitions.

#![allow(non_camel_case_types)]
#![allow(clippy::missing_safety_doc)] // each unsafe entry point documents its contract

pub mod abi;
mod alloc;
pub mod arbiter;
pub mod async_copy;
pub mod bound;
pub mod bus;
pub mod codelet;
pub mod consts;
pub mod ctx_wait;
pub mod cuda;
pub mod custom_interface;
pub mod data;
pub mod data_requests;
mod declared;
pub mod ffi;
pub mod filters;
pub mod fxt;
pub mod heteroprio;
pub mod init;
pub mod insert;
pub mod interface_copy;
pub mod interfaces;
pub mod job;
pub mod knobs;
pub mod last_error;
pub mod memory;
pub mod misc;
/// cbindgen:ignore
#[cfg(feature = "mpi")]
pub mod mpi;
pub mod nodes;
#[cfg(feature = "opencl")]
pub mod opencl;
pub mod pack;
pub mod parallel;
pub mod parallel_workers;
pub mod perf_counters;
pub mod perfmodel;
pub mod perfmodel_per_arch;
pub mod profiling;
pub mod redux;
pub mod sched_component;
pub mod sched_component_builtin;
pub mod sched_component_tree;
pub mod sched_ctx;
pub mod sched_ctx_priority;
pub mod sched_policy;
pub mod tags;
pub mod task;
pub mod task_state;
pub mod transaction;
/// The ABI structs' former path, which the Fortran helpers below still use.
pub use abi as types;
mod unavailable;
pub mod varargs;
pub mod worker_collections;
pub mod worker_state;
pub mod workers;

// The Fortran face's C-ABI helpers (fstarpu_*) are compiled into this library, so that a
// Fortran program links with `pkg-config --libs starpu-1.4` alone.
#[path = "../../fortran/src/lib.rs"]
pub mod fortran;
