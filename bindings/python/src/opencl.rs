//! OpenCL implementations of Python codelets (`starpu.Codelet(f, opencl=g)`), through the
//! core's OpenCL driver: `g` runs on an OpenCL worker with the task's arguments, each
//! data argument as a `starpu.opencl.Buffer` (the data's copy on the device), and
//! launches kernels of a `starpu.opencl.Program` (OpenCL C source, built for each device
//! the first time it is used there) with `program.launch(name, global_size, *args)`.
//!
//! A launch works on the device of the OpenCL implementation running on the calling
//! thread (`CURRENT`), so `g` keeps the CPU function's signature; a buffer is valid for the
//! call that received it only. Scalars are passed typed (numpy scalars, or raw bytes), so
//! that a Python `int` never silently becomes a kernel's `float`.

use crate::errors::{self, IntoPy};
use crate::handle::HandleState;
use crate::views::ArrayKind;
use pyo3::exceptions::PyTypeError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyTuple};
use starpu_core::drivers::opencl::{DeviceBuffer, Program as CoreProgram};
use starpu_core::KernelCall;
use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

thread_local! {
    /// The OpenCL implementation running on this thread: its call (type-erased address)
    /// and serial number.
    static CURRENT: Cell<Option<(usize, u64)>> = const { Cell::new(None) };
}

/// Numbers the calls, so that a buffer kept past its call is recognised.
static SERIAL: AtomicU64 = AtomicU64::new(1);

/// Runs `f` as the OpenCL implementation `call` on this thread: launches in `f` go to
/// `call`'s device. `f` gets the call's serial number, for its buffers.
pub(crate) fn run_as_current<R>(call: &KernelCall, f: impl FnOnce(u64) -> R) -> R {
    struct Restore(Option<(usize, u64)>);
    impl Drop for Restore {
        fn drop(&mut self) {
            CURRENT.with(|c| c.set(self.0));
        }
    }
    let serial = SERIAL.fetch_add(1, Ordering::Relaxed);
    let addr = call as *const KernelCall as usize;
    let _restore = Restore(CURRENT.with(|c| c.replace(Some((addr, serial)))));
    f(serial)
}

/// Runs `f` with the OpenCL call running on this thread, if there is one.
fn with_current<R>(f: impl FnOnce(&KernelCall, u64) -> R) -> Option<R> {
    let (addr, serial) = CURRENT.with(Cell::get)?;
    // SAFETY: `addr` is the address of the `KernelCall` that `run_as_current` is running
    // on this thread: it outlives the closure given to `run_as_current`, and CURRENT is
    // restored before that returns, so the call is alive whenever CURRENT names it.
    let call = unsafe { &*(addr as *const KernelCall) };
    Some(f(call, serial))
}

/// The device copy of data argument `i` of an OpenCL call, as its function sees it.
pub(crate) fn buffer(
    py: Python<'_>,
    call: &KernelCall,
    serial: u64,
    i: usize,
    state: &HandleState,
) -> PyResult<Py<PyAny>> {
    let dev = call.opencl().and_then(|cl| cl.buffer(i)).py(py)?;
    let mem = dev.mem as usize;
    let kind = ArrayKind::of(py, state)?;
    let (shape, strides, dtype) = match kind.as_ref().and_then(|k| Some((k, k.geometry(call, i)?)))
    {
        Some((k, g)) => (g.shape, g.strides, k.dtype().clone_ref(py)),
        None => (vec![dev.len()], vec![1], py.None()),
    };
    Ok(Py::new(
        py,
        Buffer {
            mem,
            first: dev.first(),
            offset: dev.offset,
            itemsize: dev.elemsize,
            shape,
            strides,
            dtype,
            serial,
        },
    )?
    .into_any())
}

/// `starpu.opencl.Buffer`: a task's data on the OpenCL device, as the OpenCL
/// implementation receives it. Passed to `Program.launch`, it is the kernel's `__global`
/// pointer to the whole device buffer: the data starts `first` elements in (the piece of
/// a partitioned array) and element `(i, j)` of a 2-D array is at
/// `first + i * strides[0] + j * strides[1]`.
#[pyclass(frozen, module = "starpu.opencl", name = "Buffer")]
pub(crate) struct Buffer {
    /// The `cl_mem`.
    mem: usize,
    first: usize,
    offset: usize,
    itemsize: usize,
    shape: Vec<usize>,
    strides: Vec<usize>,
    dtype: Py<PyAny>,
    serial: u64,
}

#[pymethods]
impl Buffer {
    /// Index (in elements) of the data's first element in the device buffer.
    #[getter]
    fn first(&self) -> usize {
        self.first
    }

    /// Byte offset of the data in the device buffer (StarPU's `offset`).
    #[getter]
    fn offset(&self) -> usize {
        self.offset
    }

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

    /// The `cl_mem` handle, as an integer (for OpenCL libraries called from the function).
    #[getter]
    fn mem(&self) -> usize {
        self.mem
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "<starpu.opencl.Buffer shape={} first={}>",
            self.shape(py)?.repr()?,
            self.first
        ))
    }
}

/// `starpu.opencl.Local(nbytes)`: a kernel's `__local` argument, `nbytes` of local memory
/// for each work group.
#[pyclass(frozen, module = "starpu.opencl", name = "Local")]
pub(crate) struct Local {
    #[pyo3(get)]
    nbytes: usize,
}

#[pymethods]
impl Local {
    #[new]
    fn new(nbytes: usize) -> Self {
        Local { nbytes }
    }
}

/// One kernel argument, read from Python before the launch.
enum KernelArg {
    /// A device buffer's `cl_mem`.
    Mem(usize),
    Bytes(Vec<u8>),
    Local(usize),
}

fn kernel_arg(arg: &Bound<'_, PyAny>, pos: usize, serial: u64) -> PyResult<KernelArg> {
    let py = arg.py();
    if let Ok(b) = arg.cast::<Buffer>() {
        let b = b.get();
        if b.serial != serial {
            return Err(errors::invalid(
                py,
                format!(
                    "kernel argument {pos}: this buffer belongs to another task's call (a \
                     buffer is valid in the call that received it only)"
                ),
            ));
        }
        return Ok(KernelArg::Mem(b.mem));
    }
    if let Ok(l) = arg.cast::<Local>() {
        return Ok(KernelArg::Local(l.get().nbytes));
    }
    if let Ok(b) = arg.cast::<PyBytes>() {
        return Ok(KernelArg::Bytes(b.as_bytes().to_vec()));
    }
    let is_numpy_scalar = arg
        .get_type()
        .getattr(intern!(py, "__module__"))
        .is_ok_and(|m| m.extract::<String>().is_ok_and(|m| m == "numpy"))
        && arg.hasattr(intern!(py, "dtype")).unwrap_or(false);
    if is_numpy_scalar {
        let bytes = arg.call_method0(intern!(py, "tobytes"))?;
        return Ok(KernelArg::Bytes(
            bytes.cast::<PyBytes>()?.as_bytes().to_vec(),
        ));
    }
    Err(PyTypeError::new_err(format!(
        "kernel argument {pos}: a {} has no OpenCL type: give a starpu.opencl.Buffer, a numpy \
         scalar of the kernel's type (numpy.int32(n) for int, numpy.float32(x) for float, \
         numpy.int64(n) for long...), bytes, or starpu.opencl.Local(nbytes)",
        arg.get_type().name()?
    )))
}

/// A work size: an int or 1 to 3 ints.
fn sizes(what: &str, v: &Bound<'_, PyAny>) -> PyResult<Vec<usize>> {
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

/// `starpu.opencl.Program(source, options="")`: OpenCL C source, built for each device
/// the first time a kernel of it is launched there (options as for `clBuildProgram`:
/// `"-D N=4"`...). A source that does not build fails the launch, and so the task, with
/// the compiler's log in the message.
#[pyclass(frozen, module = "starpu.opencl", name = "Program")]
pub(crate) struct Program {
    core: Arc<CoreProgram>,
}

#[pymethods]
impl Program {
    #[new]
    #[pyo3(signature = (source, options=""))]
    fn new(source: String, options: &str) -> Self {
        Program {
            core: Arc::new(CoreProgram::from_source(source).with_options(options)),
        }
    }

    /// Launches kernel `kernel` of this program over `global_size` work items (an int, or
    /// 1 to 3 ints), in work groups of `local_size` if given, with `args` (buffers, numpy
    /// scalars, bytes, `Local`s) in the kernel's order, and waits for it (without the
    /// GIL). Only from the OpenCL implementation of a codelet, on its device.
    #[pyo3(signature = (kernel, global_size, *args, local_size=None))]
    fn launch(
        &self,
        py: Python<'_>,
        kernel: &str,
        global_size: &Bound<'_, PyAny>,
        args: &Bound<'_, PyTuple>,
        local_size: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let global = sizes("global_size", global_size)?;
        let local = local_size.map(|l| sizes("local_size", l)).transpose()?;
        let outside = || {
            errors::invalid(
                py,
                "Program.launch: only from the OpenCL implementation of a codelet, while it runs",
            )
        };
        let Some(serial) = with_current(|_, serial| serial) else {
            return Err(outside());
        };
        let kargs = args
            .iter()
            .enumerate()
            .map(|(pos, a)| kernel_arg(&a, pos, serial))
            .collect::<PyResult<Vec<_>>>()?;
        let program = &self.core;
        // Building (the first time) and running take a while: without the GIL, which the
        // other workers' Python tasks need. The closure runs on this thread.
        py.detach(|| {
            with_current(|call, _| {
                let cl = call.opencl()?;
                let mut k = cl.kernel(program, kernel)?;
                for a in &kargs {
                    match a {
                        KernelArg::Mem(m) => k.arg_buffer(&DeviceBuffer {
                            mem: *m as *mut std::ffi::c_void,
                            offset: 0,
                            bytes: 0,
                            elemsize: 1,
                        })?,
                        KernelArg::Bytes(b) => k.arg_bytes(b)?,
                        KernelArg::Local(n) => k.arg_local(*n)?,
                    };
                }
                k.launch(&global, local.as_deref())
            })
        })
        .ok_or_else(outside)?
        .py(py)
    }

    fn __repr__(&self) -> String {
        format!("<starpu.opencl.{:?}>", self.core)
    }
}
