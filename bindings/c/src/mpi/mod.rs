//! StarPU-MPI's C API (`starpu_mpi.h`) over the `starpu-mpi` crate.
//!
//! These entry points live in libstarpu-1.4.so itself, so that the runtime's globals
//! exist once per process; libstarpumpi-1.4.so is a thin library that depends on it (the
//! Makefile makes it), for programs linked with `-lstarpumpi-1.4`. As everywhere in this
//! library, misuse returns StarPU's negative errno and prints one line naming the call.

pub mod collective;
pub mod datatype;
pub mod init;
pub mod insert;
pub mod p2p;
pub mod registration;

use crate::abi::starpu_data_handle_t;
use crate::ffi;
use libc::{c_int, c_void};
use starpu_core::{DataHandle, Result};
use starpu_mpi::ffi::MPI_Comm;
use starpu_mpi::{Comm, Mpi};
use std::sync::Arc;

extern "C" {
    fn _starpu_mpi_c_task_insert();
    fn _starpu_mpi_c_task_build();
    fn _starpu_mpi_c_task_build_v();
    fn _starpu_mpi_c_task_post_build();
    fn _starpu_mpi_c_task_post_build_v();
}

// The C-variadic (and va_list) entry points: bodies in csrc/mpi_varargs.c.
crate::varargs::jump_exports! {
    starpu_mpi_task_insert => _starpu_mpi_c_task_insert,
    starpu_mpi_insert_task => _starpu_mpi_c_task_insert,
    starpu_mpi_task_build => _starpu_mpi_c_task_build,
    starpu_mpi_task_build_v => _starpu_mpi_c_task_build_v,
    starpu_mpi_task_post_build => _starpu_mpi_c_task_post_build,
    starpu_mpi_task_post_build_v => _starpu_mpi_c_task_post_build_v,
}

/// The running StarPU-MPI.
pub(crate) fn mpi() -> Result<Arc<Mpi>> {
    starpu_mpi::global()
}

pub(crate) fn comm(c: MPI_Comm) -> Comm {
    Comm::from_raw(c)
}

/// A C callback and its argument, run once from another thread.
pub(crate) struct Callback {
    f: unsafe extern "C" fn(*mut c_void),
    arg: *mut c_void,
}

// SAFETY: StarPU runs communication callbacks on its own thread; the application's
// argument is meant for that.
unsafe impl Send for Callback {}

impl Callback {
    pub(crate) fn new(
        f: Option<unsafe extern "C" fn(*mut c_void)>,
        arg: *mut c_void,
    ) -> Option<Callback> {
        f.map(|f| Callback { f, arg })
    }

    pub(crate) fn call(self) {
        // SAFETY: the application's callback with its own argument.
        unsafe { (self.f)(self.arg) }
    }

    /// As the end of a detached transfer.
    pub(crate) fn then(self) -> starpu_mpi::Then {
        Box::new(move |_| self.call())
    }

    pub(crate) fn boxed(self) -> Box<dyn FnOnce() + Send> {
        Box::new(move || self.call())
    }
}

/// Runs `f` with StarPU-MPI; an error names this process's rank (in a run of many
/// processes, the one that erred).
pub(crate) fn with_mpi<R>(f: impl FnOnce(&Arc<Mpi>) -> Result<R>) -> Result<R> {
    let m = mpi()?;
    f(&m).map_err(|mut e| {
        if !e.message.starts_with("rank ") {
            e.message = format!("rank {}: {}", m.world_rank(), e.message);
        }
        e
    })
}

/// An entry point of StarPU-MPI returning 0 or -errno, guarded like the others.
pub(crate) fn call(name: &str, f: impl FnOnce(&Arc<Mpi>) -> Result<()>) -> c_int {
    ffi::int_call(name, || with_mpi(f))
}

/// An entry point with no error return: errors are printed and `fallback` returned.
pub(crate) fn value<R: Clone>(
    name: &str,
    fallback: R,
    f: impl FnOnce(&Arc<Mpi>) -> Result<R>,
) -> R {
    ffi::value_call(name, fallback, || with_mpi(f))
}

/// The core handle behind a C handle.
pub(crate) fn handle(h: starpu_data_handle_t) -> Result<DataHandle> {
    ffi::handle(h)
}
