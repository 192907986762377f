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
//! # Layers
//!
//! The top-level modules form layers; a module uses modules of lower layers only, so each
//! subsystem reads (and tests) with what lies below it, and only `runtime` knows them all.
//! Lowest first:
//!
//! 1. `error`, `clock`, `hash`: errors, the monotonic clock, StarPU's CRC hash; `env`:
//!    StarPU's environment variables.
//! 2. `config`, `topology`: what the application asked for, what the machine has.
//! 3. `memory`: memory nodes, replicas' storage, transfers; `worker`: the worker table (kinds,
//!    nodes, thread roles), not the threads.
//! 4. `perfmodel`: performance models (by footprint and architecture).
//! 5. `data`: handles, interfaces, replicas' coherency, filters. No task in it: where data
//!    must wait for or start tasks, the task layer does it.
//! 6. `task`: tasks, their graph, tags, implicit dependencies, acquisitions as tasks,
//!    partition switching.
//! 7. `bound`, then the observers `profiling`, `counters`, `trace`: they read tasks.
//! 8. `sched`, `knobs`: policies and contexts, which see workers and tasks through
//!    [`sched::SchedView`] (contexts see their runtime through `ContextHost`); then
//!    `parallel` (combined workers, parallel tasks).
//! 9. `drivers`, then `runtime`: worker threads, composition, life cycle, the process-wide
//!    instance, and the API methods of [`Runtime`].
//!
//! Where a lower layer must call up (a policy needs the runtime's counters), it defines a
//! small trait that a higher layer implements. `tests/layering.rs` enforces the order; its
//! `KNOWN` table lists the edges against it that remain to be removed.
//!
//! The crate's README (below) is its face's page: an example (run as a doctest) and the
//! error table.
#![doc = include_str!("../README.md")]

pub mod bound;
pub mod clock;
pub mod config;
pub mod counters;
pub mod data;
pub mod drivers;
pub mod env;
pub mod error;
pub mod hash;
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
