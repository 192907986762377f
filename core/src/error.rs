//! The one error vocabulary of the runtime: what went wrong (`ErrorKind`, each with a
//! stable name, the errno StarPU returns for it and a one-line summary), why (the message),
//! and, for a failed task, the foreign object that made it fail (a Python exception, a Java
//! `Throwable`), so a face can hand the very object back to its program.
//!
//! Every fallible entry point of the core returns `Result<T, Error>`. Faces never keep their
//! own tables: C returns `-kind.errno()` and records the error for `starpu_rs_last_error`,
//! Python raises the class named after `kind.name()`, Java throws the `StarPUException`
//! subclass of that name. Their lists are generated from [`ErrorKind::ALL`] (or checked
//! against it by a test that fails on drift).

use std::any::Any;
use std::fmt;
use std::sync::Arc;

/// What went wrong, in the categories every face maps to its own error types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// Bad argument: unknown handle, wrong mode, too many buffers, unknown key...
    InvalidArgument,
    /// No worker can run the task, or no worker at all.
    NoDevice,
    /// The call would wait for itself, e.g. `starpu_data_acquire` inside a task.
    Deadlock,
    /// The runtime is not running: call before init or after shutdown (StarPU's programs
    /// already test for `-ENODEV` to skip when no worker is available).
    NotInitialized,
    /// A feature this build does not implement.
    Unsupported,
    /// Out of memory while allocating data.
    OutOfMemory,
    /// The thing asked for does not exist or was never submitted.
    NotFound,
    /// A task failed: its kernel returned an error or raised, or a callback panicked.
    TaskFailed,
    /// A wait with a time limit ran out before the thing waited for happened.
    Timeout,
}

impl ErrorKind {
    /// Every kind, in a fixed order (faces generate their error types from this list).
    pub const ALL: [ErrorKind; 9] = [
        ErrorKind::InvalidArgument,
        ErrorKind::NoDevice,
        ErrorKind::Deadlock,
        ErrorKind::NotInitialized,
        ErrorKind::Unsupported,
        ErrorKind::OutOfMemory,
        ErrorKind::NotFound,
        ErrorKind::TaskFailed,
        ErrorKind::Timeout,
    ];

    /// The kind's stable name: `InvalidArgument`, `Deadlock`... Python's exception
    /// classes are this name + `Error`, Java's this name + `Exception`.
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::InvalidArgument => "InvalidArgument",
            ErrorKind::NoDevice => "NoDevice",
            ErrorKind::Deadlock => "Deadlock",
            ErrorKind::NotInitialized => "NotInitialized",
            ErrorKind::Unsupported => "Unsupported",
            ErrorKind::OutOfMemory => "OutOfMemory",
            ErrorKind::NotFound => "NotFound",
            ErrorKind::TaskFailed => "TaskFailed",
            ErrorKind::Timeout => "Timeout",
        }
    }

    /// The kind named `name` (the inverse of [`ErrorKind::name`]).
    pub fn from_name(name: &str) -> Option<ErrorKind> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The positive errno StarPU returns for this kind (C returns its negation).
    pub fn errno(self) -> i32 {
        match self {
            ErrorKind::InvalidArgument => libc::EINVAL,
            ErrorKind::NoDevice | ErrorKind::NotInitialized => libc::ENODEV,
            ErrorKind::Deadlock => libc::EDEADLK,
            ErrorKind::Unsupported => libc::ENOSYS,
            ErrorKind::OutOfMemory => libc::ENOMEM,
            ErrorKind::NotFound => libc::ENOENT,
            ErrorKind::TaskFailed => libc::ECANCELED,
            ErrorKind::Timeout => libc::ETIMEDOUT,
        }
    }

    /// The symbolic name of [`ErrorKind::errno`]: `EINVAL`, `ENODEV`...
    pub fn errno_name(self) -> &'static str {
        match self {
            ErrorKind::InvalidArgument => "EINVAL",
            ErrorKind::NoDevice | ErrorKind::NotInitialized => "ENODEV",
            ErrorKind::Deadlock => "EDEADLK",
            ErrorKind::Unsupported => "ENOSYS",
            ErrorKind::OutOfMemory => "ENOMEM",
            ErrorKind::NotFound => "ENOENT",
            ErrorKind::TaskFailed => "ECANCELED",
            ErrorKind::Timeout => "ETIMEDOUT",
        }
    }

    /// The name of a positive errno value that some kind returns; `None` for any other.
    pub fn name_of_errno(errno: i32) -> Option<&'static str> {
        Self::ALL
            .into_iter()
            .find(|k| k.errno() == errno)
            .map(|k| k.errno_name())
    }

    /// One line saying what the kind means, for documentation and generated code.
    pub fn summary(self) -> &'static str {
        match self {
            ErrorKind::InvalidArgument => {
                "an argument is wrong (handle, mode, buffer count, key...)"
            }
            ErrorKind::NoDevice => "no worker can run the task",
            ErrorKind::Deadlock => "the call would wait for itself (from a task or a callback)",
            ErrorKind::NotInitialized => "the runtime is not running",
            ErrorKind::Unsupported => "this build does not implement the feature",
            ErrorKind::OutOfMemory => "memory for data is exhausted",
            ErrorKind::NotFound => "the thing asked for does not exist",
            ErrorKind::TaskFailed => "a task failed (its kernel raised or returned an error)",
            ErrorKind::Timeout => "a wait ran out of time",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The foreign object behind a failure: a face's own exception (a Python exception
/// instance, a global reference to a Java `Throwable`), kept as it was raised.
pub type Cause = Arc<dyn Any + Send + Sync>;

/// An error: its kind, a one-line human-readable cause, and for a failed task the foreign
/// object that made it fail and the task's name.
#[derive(Clone)]
pub struct Error {
    pub kind: ErrorKind,
    pub message: String,
    cause: Option<Cause>,
    task: Option<String>,
}

pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error {
            kind,
            message: message.into(),
            cause: None,
            task: None,
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

    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::NotFound, message)
    }

    pub fn timeout(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Timeout, message)
    }

    /// The positive errno value of this error (C returns its negation).
    pub fn errno(&self) -> i32 {
        self.kind.errno()
    }

    /// This error, carrying `cause` (the foreign object that made a task fail).
    pub fn with_cause(mut self, cause: Option<Cause>) -> Self {
        self.cause = cause;
        self
    }

    /// The foreign object that made the task fail, as the face gave it.
    pub fn cause(&self) -> Option<&Cause> {
        self.cause.as_ref()
    }

    /// The cause, if it is a `T`.
    pub fn cause_as<T: Any>(&self) -> Option<&T> {
        self.cause.as_deref()?.downcast_ref::<T>()
    }

    /// This error, naming the task it is about.
    pub fn for_task(mut self, name: impl Into<String>) -> Self {
        self.task = Some(name.into());
        self
    }

    /// The name (or label) of the failed task this error is about.
    pub fn task_name(&self) -> Option<&str> {
        self.task.as_deref()
    }
}

impl PartialEq for Error {
    /// Same kind, same message, and the same cause object (or none on both sides).
    fn eq(&self, other: &Self) -> bool {
        self.kind == other.kind
            && self.message == other.message
            && self.task == other.task
            && match (&self.cause, &other.cause) {
                (None, None) => true,
                (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                _ => false,
            }
    }
}

impl Eq for Error {}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("Error");
        d.field("kind", &self.kind).field("message", &self.message);
        if let Some(t) = &self.task {
            d.field("task", t);
        }
        if self.cause.is_some() {
            d.field("cause", &"<foreign object>");
        }
        d.finish()
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

    #[test]
    fn names_are_stable_and_round_trip() {
        for k in ErrorKind::ALL {
            assert_eq!(ErrorKind::from_name(k.name()), Some(k));
            assert_eq!(ErrorKind::name_of_errno(k.errno()), Some(k.errno_name()));
        }
        assert_eq!(ErrorKind::name_of_errno(libc::ECANCELED), Some("ECANCELED"));
        assert_eq!(ErrorKind::name_of_errno(libc::EPERM), None);
    }

    #[test]
    fn a_cause_travels_with_the_error() {
        let cause: Cause = Arc::new(String::from("the exception"));
        let e = Error::new(ErrorKind::TaskFailed, "boom")
            .with_cause(Some(cause.clone()))
            .for_task("t1");
        assert_eq!(e.cause_as::<String>().unwrap(), "the exception");
        assert!(Arc::ptr_eq(e.cause().unwrap(), &cause));
        assert_eq!(e.task_name(), Some("t1"));
        assert_eq!(e.clone(), e);
        assert_ne!(e, Error::new(ErrorKind::TaskFailed, "boom").for_task("t1"));
    }
}
