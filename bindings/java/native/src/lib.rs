//! starpu-java: StarPU's Java interface (`fr.labri.hpccloud.starpu`) over starpu-core.
//!
//! This library is the native half of `starpu-java.jar`: the Java classes call the native
//! methods of `fr.labri.hpccloud.starpu.internal.Native`, which convert their arguments,
//! call the core's Rust API, and throw its errors as the `StarPUException` subclass of their
//! kind. Java codelets run on the core's CPU workers through one kernel that calls back
//! into the JVM (and on OpenCL and CUDA workers: `opencl.rs`, `cuda.rs`). The face keeps no rule of its own: waits, failures, partitions and modes
//! are the core's.

mod codelets;
mod cuda;
mod data;
mod device_call;
mod jvm;
mod lent;
mod natives;
mod opencl;
mod protocol;
mod sched;
mod tasks;

#[cfg(test)]
mod codegen;

use jni::sys::{jint, JavaVM, JNI_VERSION_1_8};
use std::ffi::c_void;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Called by the JVM when `System.load` loads this library.
#[unsafe(no_mangle)]
pub extern "system" fn JNI_OnLoad(vm: *mut JavaVM, _reserved: *mut c_void) -> jint {
    jvm::on_load(vm);
    JNI_VERSION_1_8
}
