//! starpu-core: a task runtime in the StarPU model.
//!
//! Applications describe codelets (kernels with one or more implementations), register data
//! as handles, and submit tasks that apply a codelet to handles in access modes. The runtime
//! orders tasks by their data accesses (and explicit dependencies and tags), schedules ready
//! tasks on workers with a policy, keeps data replicas coherent, and runs everything
//! asynchronously until the application waits.
//!
//! This crate is the one implementation behind every language face (C, Fortran, Python,
//! Java); it exposes a safe Rust API and no C types. Interface descriptions are
//! `#[repr(C)]` because kernels in every language read them in place.
//!
//! The crate's README (below) is its face's page: an example (run as a doctest) and the
//! error table.
#![doc = include_str!("../README.md")]

pub mod bound;
pub mod config;
pub mod counters;
pub mod data;
pub mod drivers;
pub mod error;
pub mod knobs;
pub mod memory;
pub mod parallel;
pub mod perfmodel;
pub mod profiling;
pub mod runtime;
pub mod sched;
pub mod task;
pub mod topology;
pub mod trace;
pub mod worker;

pub use config::Config;
pub use data::{AccessMode, DataHandle, ElemKind, Element, Filter};
pub use error::{Error, ErrorKind, Result};
pub use runtime::{init, shutdown, Runtime};
pub use task::{
    Access, Codelet, CodeletType, KernelCall, KernelError, KernelResult, Task, TaskBuilder,
    TaskRef, TaskSpec,
};
