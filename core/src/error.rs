//! Errors a user of the runtime can cause, with the errno StarPU returns for each.
//!
//! Every fallible entry point of the core returns `Result<T, Error>`; the bindings turn an
//! `Error` into what their language expects (a negative errno and a stderr line for C, an
//! exception for Python and Java). The message names the cause; the binding names the call.

use std::fmt;

/// What went wrong, in the categories the bindings map to their own error types.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// Bad argument: unknown handle, wrong mode, too many buffers, unknown key... (`EINVAL`)
    InvalidArgument,
    /// No worker can run the task, or no worker at all (`ENODEV`).
    NoDevice,
    /// The call would wait for itself, e.g. `starpu_data_acquire` inside a task (`EDEADLK`).
    Deadlock,
    /// The runtime is not running: call before init or after shutdown (`ENODEV`, what
    /// StarPU programs already test for to skip when no worker is available).
    NotInitialized,
    /// A feature this build does not implement yet (`ENOSYS`).
    Unsupported,
    /// Out of memory while allocating data (`ENOMEM`).
    OutOfMemory,
    /// The thing waited for does not exist or was never submitted (`ENOENT`).
    NotFound,
    /// A kernel failed (an exception in a Python or Java codelet) (`ECANCELED`).
    TaskFailed,
}

/// An error with its category and a one-line, human-readable cause.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    pub kind: ErrorKind,
    pub message: String,
}

pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error {
            kind,
            message: message.into(),
        }
    }

    pub fn invalid(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::InvalidArgument, message)
    }

    pub fn no_device(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::NoDevice, message)
    }

    pub fn not_initialized() -> Self {
        Self::new(
            ErrorKind::NotInitialized,
            "the runtime is not running (not initialised yet, or shut down already)",
        )
    }

    pub fn deadlock(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Deadlock, message)
    }

    pub fn unsupported(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Unsupported, message)
    }

    /// The positive errno value of this error (C returns its negation).
    pub fn errno(&self) -> i32 {
        match self.kind {
            ErrorKind::InvalidArgument => libc::EINVAL,
            ErrorKind::NoDevice => libc::ENODEV,
            ErrorKind::Deadlock => libc::EDEADLK,
            ErrorKind::NotInitialized => libc::ENODEV,
            ErrorKind::Unsupported => libc::ENOSYS,
            ErrorKind::OutOfMemory => libc::ENOMEM,
            ErrorKind::NotFound => libc::ENOENT,
            ErrorKind::TaskFailed => libc::ECANCELED,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errno_follows_starpu_codes() {
        assert_eq!(Error::invalid("x").errno(), libc::EINVAL);
        assert_eq!(Error::no_device("x").errno(), libc::ENODEV);
        assert_eq!(Error::deadlock("x").errno(), libc::EDEADLK);
        assert_eq!(Error::not_initialized().errno(), libc::ENODEV);
        assert_eq!(Error::invalid("bad mode").to_string(), "bad mode");
    }
}
