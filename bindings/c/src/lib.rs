//! libstarpu: StarPU's C API over starpu-core.
//!
//! Every `#[no_mangle] extern "C"` function here has StarPU's name, arguments and return
//! convention (0 or a negative errno). Errors print one line on stderr naming the call and
//! the cause; no panic crosses into C. `starpu.h` is generated from these definitions.

#![allow(non_camel_case_types)]
#![allow(clippy::missing_safety_doc)] // each unsafe entry point documents its contract

pub mod codelet;
pub mod consts;
pub mod data;
pub mod ffi;
pub mod filters;
pub mod init;
pub mod insert;
pub mod interfaces;
pub mod memory;
pub mod misc;
pub mod pack;
pub mod tags;
pub mod task;
pub mod types;
pub mod varargs;
pub mod workers;

/// Tasks are allocated by the submitting thread and freed by workers; mimalloc handles
/// those cross-thread frees without the arena lock contention glibc's malloc shows here.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;
