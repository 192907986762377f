//! The C-ABI helpers behind `fstarpu_mod.f90`, StarPU's native Fortran module.
//!
//! Most of the module's routines are `bind(C)` interfaces straight to StarPU's C API in
//! libstarpu. What Fortran cannot do through those alone lives here: building and
//! freeing the C structs (codelet, conf, perfmodel, filter, descriptor arrays), reading a
//! kernel's buffers, the constants `fstarpu_init` fills, packing and unpacking task
//! arguments, and translating `fstarpu_task_insert`'s `c_ptr` array for the C face's one
//! decoder of every key.
//!
//! These sources are compiled as a module of the C crate (see bindings/c/src/lib.rs), so
//! the helpers end up in libstarpu-1.4.so and a Fortran program links with
//! `pkg-config --libs starpu-1.4` alone. They use only the C face's exported symbols
//! (declared in `capi`), its C types and constants, and its argument records for
//! `_starpu_task_insert_args`.
//!
//! Every helper checks what a Fortran caller can get wrong (a NULL struct, an index out of
//! range, a key it does not know) and says so on stderr, naming the routine; none panics.

mod args;
mod buffers;
mod capi;
mod codelet;
mod constants;
mod filters;
mod insert;
mod misc;
#[cfg(feature = "mpi")]
mod mpi;
mod sched_ctx;

/// Reports a Fortran caller's mistake as the C face reports its own (one line on stderr,
/// and the thread's last error, `fstarpu_rs_last_error`).
fn report(routine: &str, message: impl std::fmt::Display) {
    crate::ffi::report(routine, &starpu_core::Error::invalid(message.to_string()));
}

/// `None` (after saying so) when a struct a routine works on is NULL.
///
/// # Safety
/// `p` is NULL or points to a valid `T`.
unsafe fn non_null<'a, T>(routine: &str, p: *mut T, what: &str) -> Option<&'a mut T> {
    let r = p.as_mut();
    if r.is_none() {
        report(routine, format_args!("{what} is NULL"));
    }
    r
}
