//! StarPU's binary interface: every `#[repr(C)]` struct, union and typedef of the public
//! headers, with StarPU's names and field names so that programs written for StarPU
//! (designated initializers included) compile unchanged.
//!
//! They live together because they are one contract, kept apart from the code behind it:
//! cbindgen turns these definitions into `starpu.h` (committed as
//! `include/generated/starpu.h`, checked by `tests/header.rs`), and `tests/layout.rs`
//! compares every size and offset with what a C compiler makes of that header. Field order
//! and types follow StarPU 1.4 where programs rely on them; the binary layout is ours (we
//! are source-, not binary-compatible). One file per header or family of structs; the rest
//! of the face imports them from here (`use crate::abi::*`).

mod conf;
mod data_interfaces;
mod filters;
mod fxt;
/// cbindgen:ignore
#[cfg(feature = "mpi")]
mod mpi;
#[cfg(feature = "opencl")]
mod opencl;
mod perfmodel;
mod profiling;
mod sched_component;
mod scheduler;
mod task;
mod typedefs;
mod walkers;

pub use conf::*;
pub use data_interfaces::*;
pub use filters::*;
pub use fxt::*;
#[cfg(feature = "mpi")]
pub use mpi::*;
#[cfg(feature = "opencl")]
pub use opencl::*;
pub use perfmodel::*;
pub use profiling::*;
pub use sched_component::*;
pub use scheduler::*;
pub use task::*;
pub use typedefs::*;
pub use walkers::*;
