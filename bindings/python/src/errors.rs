//! The core's errors as Python exceptions: `starpu.StarPUError` (alias `starpu.error`,
//! StarPU's own name) and one subclass per `ErrorKind`, named `<kind name>Error`, made at
//! module init from `ErrorKind::ALL` so the list cannot drift from the core's. Each class
//! also derives from the builtin exception a Python program would catch for that kind of
//! mistake (`except ValueError` catches a bad argument) and carries `errno` (StarPU's
//! positive errno), `code` (its name) and `kind` (the core's stable name), as class and
//! instance attributes.
//!
//! A failed task's error carries the exception its Python function raised (`PyCause`): that
//! very object is raised again, not a copy.

use pyo3::exceptions::{
    PyLookupError, PyMemoryError, PyNotImplementedError, PyRuntimeError, PyTimeoutError,
    PyValueError,
};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyTuple, PyType};
use starpu_core::{Error, ErrorKind};

pyo3::create_exception!(
    starpu,
    StarPUError,
    pyo3::exceptions::PyException,
    "A StarPU runtime error. Each kind of error is a subclass (`starpu.InvalidArgumentError`, \
     `starpu.DeadlockError`, ...) carrying `errno` (the positive errno StarPU's C API returns \
     for the same mistake), `code` (its name, `EINVAL`) and `kind` (`InvalidArgument`)."
);

/// The exception a Python codelet raised, kept as the cause of its task's failure.
pub(crate) struct PyCause(pub(crate) PyErr);

/// The builtin exception each kind also derives from.
fn builtin(py: Python<'_>, kind: ErrorKind) -> Bound<'_, PyType> {
    match kind {
        ErrorKind::InvalidArgument => py.get_type::<PyValueError>(),
        ErrorKind::NotFound => py.get_type::<PyLookupError>(),
        ErrorKind::Timeout => py.get_type::<PyTimeoutError>(),
        ErrorKind::Unsupported => py.get_type::<PyNotImplementedError>(),
        ErrorKind::OutOfMemory => py.get_type::<PyMemoryError>(),
        ErrorKind::NoDevice
        | ErrorKind::Deadlock
        | ErrorKind::NotInitialized
        | ErrorKind::TaskFailed => py.get_type::<PyRuntimeError>(),
    }
}

/// The class of each kind, in `ErrorKind::ALL`'s order.
static CLASSES: PyOnceLock<Vec<Py<PyType>>> = PyOnceLock::new();

fn make_classes(py: Python<'_>) -> PyResult<Vec<Py<PyType>>> {
    let base = py.get_type::<StarPUError>();
    for attr in ["errno", "code", "kind"] {
        base.setattr(attr, py.None())?;
    }
    let type_ = py.get_type::<PyType>();
    ErrorKind::ALL
        .iter()
        .map(|&kind| {
            let attrs = PyDict::new(py);
            attrs.set_item("__module__", "starpu")?;
            attrs.set_item(
                "__doc__",
                format!("{} ({}).", kind.summary(), kind.errno_name()),
            )?;
            attrs.set_item("errno", kind.errno())?;
            attrs.set_item("code", kind.errno_name())?;
            attrs.set_item("kind", kind.name())?;
            let bases = PyTuple::new(py, [base.clone(), builtin(py, kind)])?;
            let name = format!("{}Error", kind.name());
            let class = type_.call1((name, bases, attrs))?;
            Ok(class.cast_into::<PyType>()?.unbind())
        })
        .collect()
}

/// Adds `StarPUError`, `error` and the class of every kind to the module.
pub(crate) fn add_to(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    let base = py.get_type::<StarPUError>();
    m.add("StarPUError", &base)?;
    m.add("error", &base)?;
    let classes = CLASSES.get_or_try_init(py, || make_classes(py))?;
    for class in classes {
        let class = class.bind(py);
        m.add(class.name()?, class)?;
    }
    Ok(())
}

/// The class of `kind`.
fn class_of(py: Python<'_>, kind: ErrorKind) -> PyResult<&Bound<'_, PyType>> {
    let classes = CLASSES.get_or_try_init(py, || make_classes(py))?;
    let i = ErrorKind::ALL
        .iter()
        .position(|&k| k == kind)
        .expect("every kind is in ErrorKind::ALL");
    Ok(classes[i].bind(py))
}

/// The core's error as a Python exception: the very exception a Python function raised
/// when it is the cause, else a new instance of the kind's class.
pub(crate) fn to_py(py: Python<'_>, e: &Error) -> PyErr {
    if let Some(cause) = e.cause_as::<PyCause>() {
        return cause.0.clone_ref(py);
    }
    let made = class_of(py, e.kind).and_then(|class| {
        let exc = class.call1((e.message.clone(),))?;
        // Instance attributes too: OSError (TimeoutError's base) has its own `errno` slot.
        exc.setattr("errno", e.errno())?;
        exc.setattr("code", e.kind.errno_name())?;
        exc.setattr("kind", e.kind.name())?;
        if let Some(task) = e.task_name() {
            exc.setattr("task", task)?;
        }
        Ok(PyErr::from_value(exc))
    });
    made.unwrap_or_else(|err| err)
}

/// `InvalidArgumentError` for misuse the face itself detects (a rule of this face, not the
/// core's).
pub(crate) fn invalid(py: Python<'_>, message: impl Into<String>) -> PyErr {
    to_py(py, &Error::invalid(message))
}

/// `NotInitializedError`: the runtime is not running.
pub(crate) fn not_running(py: Python<'_>) -> PyErr {
    to_py(py, &Error::not_initialized())
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
