//! `starpu.error`: the one exception the face raises for runtime errors, with the errno
//! StarPU returns for the same mistake (`err.errno`, `err.code` such as `"EINVAL"`).
//!
//! The core says what went wrong (`starpu_core::Error`, a kind and a message); this module
//! only turns it into the Python exception. Misuse that Python already has words for stays
//! a `TypeError` / `ValueError` (raised where the face parses its arguments).

use pyo3::prelude::*;
use starpu_core::{Error, ErrorKind};

// StarPU's Python module calls its exception `error` (`starpupy.error`).
#[allow(non_camel_case_types)]
mod exception {
    pyo3::create_exception!(
        starpu,
        error,
        pyo3::exceptions::PyException,
        "A StarPU runtime error. `errno` is the (positive) errno StarPU's C API returns for the \
         same mistake and `code` its name (`EINVAL`, `ENODEV`, `EDEADLK`, ...)."
    );
}
pub(crate) use exception::error;

/// The symbolic name of a positive errno value, as the conformance suite prints it.
pub(crate) fn errno_name(errno: i32) -> &'static str {
    match errno {
        libc_consts::EINVAL => "EINVAL",
        libc_consts::ENODEV => "ENODEV",
        libc_consts::EDEADLK => "EDEADLK",
        libc_consts::ENOSYS => "ENOSYS",
        libc_consts::ENOMEM => "ENOMEM",
        libc_consts::ENOENT => "ENOENT",
        libc_consts::ECANCELED => "ECANCELED",
        _ => "EUNKNOWN",
    }
}

/// Linux errno values (the core's `Error::errno` gives these).
mod libc_consts {
    pub const ENOENT: i32 = 2;
    pub const ENOMEM: i32 = 12;
    pub const ENODEV: i32 = 19;
    pub const EINVAL: i32 = 22;
    pub const EDEADLK: i32 = 35;
    pub const ENOSYS: i32 = 38;
    pub const ECANCELED: i32 = 125;
}

/// A `starpu.error` with `message`, carrying `errno`.
pub(crate) fn new_error(py: Python<'_>, errno: i32, message: impl Into<String>) -> PyErr {
    let err = error::new_err(message.into());
    let value = err.value(py);
    // Setting attributes on a fresh exception instance cannot fail in practice; if it
    // did, the exception still says what went wrong.
    let _ = value.setattr("errno", errno);
    let _ = value.setattr("code", errno_name(errno));
    err
}

/// The core's error as `starpu.error`.
pub(crate) fn to_py(py: Python<'_>, e: &Error) -> PyErr {
    new_error(py, e.errno(), e.message.clone())
}

/// `EINVAL` error for misuse the face itself detects (a rule of this face, not the core's).
pub(crate) fn invalid(py: Python<'_>, message: impl Into<String>) -> PyErr {
    new_error(py, libc_consts::EINVAL, message)
}

/// `ENODEV` error: the runtime is not running.
pub(crate) fn not_running(py: Python<'_>) -> PyErr {
    to_py(py, &Error::not_initialized())
}

/// `EDEADLK` error: a blocking call from a task or a callback.
pub(crate) fn deadlock(py: Python<'_>, message: impl Into<String>) -> PyErr {
    to_py(py, &Error::new(ErrorKind::Deadlock, message))
}

/// Adds `.py(py)` to the core's results: `rt.submit(..).py(py)?`.
pub(crate) trait IntoPy<T> {
    fn py(self, py: Python<'_>) -> PyResult<T>;
}

impl<T> IntoPy<T> for starpu_core::Result<T> {
    fn py(self, py: Python<'_>) -> PyResult<T> {
        self.map_err(|e| to_py(py, &e))
    }
}
