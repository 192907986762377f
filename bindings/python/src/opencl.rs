//! OpenCL implementations of Python codelets (`starpu.Codelet(f, opencl=g)`), through the
//! core's OpenCL driver: `g` runs on an OpenCL worker with the task's arguments, each
//! data argument as a `starpu.opencl.Buffer` (the data's copy on the device), and
//! launches kernels of a `starpu.opencl.Program` (OpenCL C source, built for each device
//! the first time it is used there) with `program.launch(name, global_size, *args)`.
//!
//! What it shares with the CUDA implementations (the call running on the thread, buffers'
//! geometry, typed scalars) is in `device_call`.

use crate::device_call::{self, DeviceData, DeviceKind};
use crate::errors::IntoPy;
use crate::handle::HandleState;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use starpu_core::drivers::opencl::{DeviceBuffer, Program as CoreProgram};
use starpu_core::KernelCall;
use std::sync::Arc;

/// The device copy of data argument `i` of an OpenCL call, as its function sees it.
pub(crate) fn buffer(
    py: Python<'_>,
    call: &KernelCall,
    serial: u64,
    i: usize,
    state: &HandleState,
) -> PyResult<Py<PyAny>> {
    let dev = call.opencl().and_then(|cl| cl.buffer(i)).py(py)?;
    let sub = Buffer {
        mem: dev.mem as usize,
        first: dev.first(),
        offset: dev.offset,
    };
    device_call::buffer(py, call, (serial, i), state, (dev.len(), dev.elemsize), sub)
}

/// `starpu.opencl.Buffer`: a task's data on the OpenCL device, as the OpenCL
/// implementation receives it. Passed to `Program.launch`, it is the kernel's `__global`
/// pointer to the whole device buffer: the data starts `first` elements in (the piece of
/// a partitioned array) and element `(i, j)` of a 2-D array is at
/// `first + i * strides[0] + j * strides[1]`.
#[pyclass(frozen, extends = DeviceData, module = "starpu.opencl", name = "Buffer")]
pub(crate) struct Buffer {
    /// The `cl_mem`.
    mem: usize,
    first: usize,
    offset: usize,
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

    /// The `cl_mem` handle, as an integer (for OpenCL libraries called from the function).
    #[getter]
    fn mem(&self) -> usize {
        self.mem
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
    if let Ok(b) = arg.cast::<Buffer>() {
        b.as_super().get().check_call(arg.py(), pos, serial)?;
        return Ok(KernelArg::Mem(b.get().mem));
    }
    if let Ok(l) = arg.cast::<Local>() {
        return Ok(KernelArg::Local(l.get().nbytes));
    }
    match device_call::scalar_bytes(arg)? {
        Some(b) => Ok(KernelArg::Bytes(b)),
        None => Err(device_call::bad_argument(
            arg,
            pos,
            "no OpenCL type: give a starpu.opencl.Buffer, a numpy scalar of the kernel's type \
             (numpy.int32(n) for int, numpy.float32(x) for float, numpy.int64(n) for long...), \
             bytes, or starpu.opencl.Local(nbytes)",
        )),
    }
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
        let global = device_call::sizes("global_size", global_size)?;
        let local = local_size
            .map(|l| device_call::sizes("local_size", l))
            .transpose()?;
        let program = &self.core;
        device_call::launch(py, DeviceKind::OpenCl, args, kernel_arg, |call, args| {
            let cl = call.opencl()?;
            let mut k = cl.kernel(program, kernel)?;
            for a in args {
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
    }

    fn __repr__(&self) -> String {
        format!("<starpu.opencl.{:?}>", self.core)
    }
}
