//! What the OpenCL (`opencl`) and CUDA (`cuda`) implementations of Python codelets share:
//! the device call running on this thread, the task's data as a device array
//! (`DeviceData`, the base class of `starpu.opencl.Buffer` and `starpu.cuda.Buffer`), and
//! the reading of kernel arguments and launch sizes.
//!
//! A launch works on the device of the implementation running on the calling thread
//! (`CURRENT`), so a device function keeps the CPU function's signature; a buffer is valid
//! for the call that received it only (each call has a serial number, and so has each
//! buffer). Scalars are passed typed (numpy scalars, or raw bytes), so that a Python `int`
//! never silently becomes a kernel's `float`.

use crate::errors::{self, IntoPy};
use crate::handle::HandleState;
use crate::views::ArrayKind;
use pyo3::exceptions::PyTypeError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyTuple};
use starpu_core::KernelCall;
use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};

/// The kinds of device a Python codelet may have an implementation for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DeviceKind {
    OpenCl,
    Cuda,
}

/// The device implementation running on this thread: its kind and serial number.
#[derive(Debug, Clone, Copy)]
pub(crate) struct DeviceCall {
    pub(crate) kind: DeviceKind,
    pub(crate) serial: u64,
}

thread_local! {
    /// The device implementation running on this thread: its call (type-erased address)
    /// and what it is.
    static CURRENT: Cell<Option<(usize, DeviceCall)>> = const { Cell::new(None) };
}

/// Numbers the calls, so that a buffer kept past its call is recognised.
static SERIAL: AtomicU64 = AtomicU64::new(1);

/// Runs `f` as the `kind` implementation `call` on this thread: launches in `f` go to
/// `call`'s device.
pub(crate) fn run_as_current<R>(
    call: &KernelCall,
    kind: DeviceKind,
    f: impl FnOnce(DeviceCall) -> R,
) -> R {
    struct Restore(Option<(usize, DeviceCall)>);
    impl Drop for Restore {
        fn drop(&mut self) {
            CURRENT.with(|c| c.set(self.0));
        }
    }
    let dc = DeviceCall {
        kind,
        serial: SERIAL.fetch_add(1, Ordering::Relaxed),
    };
    let addr = call as *const KernelCall as usize;
    let _restore = Restore(CURRENT.with(|c| c.replace(Some((addr, dc)))));
    f(dc)
}

/// Runs `f` with the `kind` call running on this thread, if there is one.
pub(crate) fn with_current<R>(
    kind: DeviceKind,
    f: impl FnOnce(&KernelCall, u64) -> R,
) -> Option<R> {
    let (addr, dc) = CURRENT.with(Cell::get).filter(|(_, dc)| dc.kind == kind)?;
    // SAFETY: `addr` is the address of the `KernelCall` that `run_as_current` is running
    // on this thread: it outlives the closure given to `run_as_current`, and CURRENT is
    // restored before that returns, so the call is alive whenever CURRENT names it.
    let call = unsafe { &*(addr as *const KernelCall) };
    Some(f(call, dc.serial))
}

/// The device copy of data argument `i` of a device call, as its function sees it:
/// the device's own buffer class (`sub`) over a `DeviceData` with the array's geometry
/// (`(elements, itemsize)` of the device buffer for data that is not a numpy array).
pub(crate) fn buffer<T: pyo3::PyClass<BaseType = DeviceData>>(
    py: Python<'_>,
    call: &KernelCall,
    (serial, i): (u64, usize),
    state: &HandleState,
    (elements, itemsize): (usize, usize),
    sub: T,
) -> PyResult<Py<PyAny>> {
    let kind = ArrayKind::of(py, state)?;
    let (shape, strides, dtype) = match kind.as_ref().and_then(|k| Some((k, k.geometry(call, i)?)))
    {
        Some((k, g)) => (g.shape, g.strides, k.dtype().clone_ref(py)),
        None => (vec![elements], vec![1], py.None()),
    };
    let base = DeviceData {
        itemsize,
        shape,
        strides,
        dtype,
        serial,
    };
    Ok(Py::new(py, pyo3::PyClassInitializer::from(base).add_subclass(sub))?.into_any())
}

/// A task's data on a device, as a device implementation receives it: the geometry of
/// the numpy array (the base of `starpu.opencl.Buffer` and `starpu.cuda.Buffer`).
#[pyclass(frozen, subclass, module = "starpu", name = "DeviceData")]
pub(crate) struct DeviceData {
    itemsize: usize,
    shape: Vec<usize>,
    strides: Vec<usize>,
    dtype: Py<PyAny>,
    serial: u64,
}

impl DeviceData {
    /// Checks that this buffer belongs to the call `serial` (kernel argument `pos`).
    pub(crate) fn check_call(&self, py: Python<'_>, pos: usize, serial: u64) -> PyResult<()> {
        if self.serial == serial {
            return Ok(());
        }
        Err(errors::invalid(
            py,
            format!(
                "kernel argument {pos}: this buffer belongs to another task's call (a buffer \
                 is valid in the call that received it only)"
            ),
        ))
    }
}

#[pymethods]
impl DeviceData {
    /// Elements of the data.
    #[getter]
    fn size(&self) -> usize {
        self.shape.iter().product()
    }

    /// The data's shape, as the numpy array's.
    #[getter]
    fn shape<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, &self.shape)
    }

    /// Distance, in elements, between consecutive indices of each axis (numpy's strides
    /// divided by the item size).
    #[getter]
    fn strides<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, &self.strides)
    }

    #[getter]
    fn ndim(&self) -> usize {
        self.shape.len()
    }

    /// The numpy dtype of the elements (None for data that is not a numpy array).
    #[getter]
    fn dtype(&self, py: Python<'_>) -> Py<PyAny> {
        self.dtype.clone_ref(py)
    }

    #[getter]
    fn itemsize(&self) -> usize {
        self.itemsize
    }

    /// `<starpu.cuda.Buffer shape=(3, 5)>` (the device's class).
    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        let t = slf.get_type();
        Ok(format!(
            "<{}.{} shape={}>",
            t.module()?,
            t.qualname()?,
            slf.get().shape(slf.py())?.repr()?
        ))
    }
}

/// Launches a kernel from Python: reads `args` with `arg` (each checked against the `kind`
/// call running on this thread), then runs `launch` on that call without the GIL (a first
/// compilation takes a while, and the other workers' Python tasks need the GIL). Outside
/// such a call, an error says `Program.launch` belongs in the `kind` implementation.
pub(crate) fn launch<A: Send + Sync>(
    py: Python<'_>,
    kind: DeviceKind,
    args: &Bound<'_, PyTuple>,
    arg: impl Fn(&Bound<'_, PyAny>, usize, u64) -> PyResult<A>,
    launch: impl FnOnce(&KernelCall, &[A]) -> starpu_core::Result<()> + Send,
) -> PyResult<()> {
    let outside = || {
        let device = match kind {
            DeviceKind::OpenCl => "OpenCL",
            DeviceKind::Cuda => "CUDA",
        };
        errors::invalid(
            py,
            format!(
                "Program.launch: only from the {device} implementation of a codelet, while it runs"
            ),
        )
    };
    let Some(serial) = with_current(kind, |_, serial| serial) else {
        return Err(outside());
    };
    let args = args
        .iter()
        .enumerate()
        .map(|(pos, a)| arg(&a, pos, serial))
        .collect::<PyResult<Vec<_>>>()?;
    // The closure runs on this thread, in the call.
    py.detach(|| with_current(kind, |call, _| launch(call, &args)))
        .ok_or_else(outside)?
        .py(py)
}

/// A scalar kernel argument's bytes: raw `bytes`, or a numpy scalar (typed as the
/// kernel's parameter); `None` for anything else.
pub(crate) fn scalar_bytes(arg: &Bound<'_, PyAny>) -> PyResult<Option<Vec<u8>>> {
    let py = arg.py();
    if let Ok(b) = arg.cast::<PyBytes>() {
        return Ok(Some(b.as_bytes().to_vec()));
    }
    let is_numpy_scalar = arg
        .get_type()
        .getattr(intern!(py, "__module__"))
        .is_ok_and(|m| m.extract::<String>().is_ok_and(|m| m == "numpy"))
        && arg.hasattr(intern!(py, "dtype")).unwrap_or(false);
    if !is_numpy_scalar {
        return Ok(None);
    }
    let bytes = arg.call_method0(intern!(py, "tobytes"))?;
    Ok(Some(bytes.cast::<PyBytes>()?.as_bytes().to_vec()))
}

/// The error for a kernel argument of no device type (`hint`: what the face accepts).
pub(crate) fn bad_argument(arg: &Bound<'_, PyAny>, pos: usize, hint: &str) -> PyErr {
    let name = arg
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_default();
    PyTypeError::new_err(format!("kernel argument {pos}: a {name} has {hint}"))
}

/// A launch size: an int or 1 to 3 ints.
pub(crate) fn sizes(what: &str, v: &Bound<'_, PyAny>) -> PyResult<Vec<usize>> {
    let sizes = match v.extract::<usize>() {
        Ok(n) => vec![n],
        Err(_) => v.extract::<Vec<usize>>().map_err(|_| {
            PyTypeError::new_err(format!("{what}: an int or a sequence of 1 to 3 ints"))
        })?,
    };
    if sizes.is_empty() || sizes.len() > 3 {
        return Err(errors::invalid(
            v.py(),
            format!("{what}: 1 to 3 sizes, not {}", sizes.len()),
        ));
    }
    Ok(sizes)
}
