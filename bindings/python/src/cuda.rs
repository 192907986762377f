//! CUDA implementations of Python codelets (`starpu.Codelet(f, cuda=g)`), through the
//! core's CUDA driver: `g` runs on a CUDA worker with the task's arguments, each data
//! argument as a `starpu.cuda.Buffer` (the data's copy on the GPU), and launches kernels
//! of a `starpu.cuda.Program` (CUDA C source compiled by NVRTC for each device the first
//! time it is used there, or PTX) with `program.launch(name, grid, block, *args)` on the
//! worker's stream. The worker waits for its stream when `g` returns: the task is over
//! when its kernels are, and a kernel's error fails it.
//!
//! What it shares with the OpenCL implementations (the call running on the thread,
//! buffers' geometry, typed scalars) is in `device_call`. Written without a GPU: without
//! one there is no CUDA worker, and a CUDA-only codelet's tasks are refused with
//! `NoDeviceError`; `scripts/gpu-check.sh` runs the GPU tests.

use crate::device_call::{self, DeviceData, DeviceKind};
use crate::errors::{self, IntoPy};
use crate::handle::HandleState;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use starpu_core::drivers::cuda::{DeviceBuffer, Module};
use starpu_core::KernelCall;
use std::sync::Arc;

/// The device copy of data argument `i` of a CUDA call, as its function sees it.
pub(crate) fn buffer(
    py: Python<'_>,
    call: &KernelCall,
    serial: u64,
    i: usize,
    state: &HandleState,
) -> PyResult<Py<PyAny>> {
    let dev = call.cuda().and_then(|c| c.buffer(i)).py(py)?;
    let sub = Buffer { ptr: dev.ptr };
    device_call::buffer(py, call, (serial, i), state, (dev.len(), dev.elemsize), sub)
}

/// `starpu.cuda.Buffer`: a task's data on the GPU, as the CUDA implementation receives
/// it. Passed to `Program.launch`, it is the kernel's pointer to the data's first element
/// (a piece of a partitioned array starts there too); element `(i, j)` of a 2-D array is
/// at `i * strides[0] + j * strides[1]`.
#[pyclass(frozen, extends = DeviceData, module = "starpu.cuda", name = "Buffer")]
pub(crate) struct Buffer {
    ptr: u64,
}

#[pymethods]
impl Buffer {
    /// The device address of the first element (a `CUdeviceptr`, for CUDA libraries
    /// called from the function: CuPy's `UnownedMemory`, ...).
    #[getter]
    fn ptr(&self) -> u64 {
        self.ptr
    }
}

/// One kernel argument, read from Python before the launch.
enum KernelArg {
    /// A buffer's device address.
    Ptr(u64),
    Bytes(Vec<u8>),
}

fn kernel_arg(arg: &Bound<'_, PyAny>, pos: usize, serial: u64) -> PyResult<KernelArg> {
    if let Ok(b) = arg.cast::<Buffer>() {
        b.as_super().get().check_call(arg.py(), pos, serial)?;
        return Ok(KernelArg::Ptr(b.get().ptr));
    }
    match device_call::scalar_bytes(arg)? {
        Some(b) => Ok(KernelArg::Bytes(b)),
        None => Err(device_call::bad_argument(
            arg,
            pos,
            "no CUDA type: give a starpu.cuda.Buffer, a numpy scalar of the kernel's type \
             (numpy.int32(n) for int, numpy.float32(x) for float, numpy.uint64(n) for size_t...) \
             or bytes",
        )),
    }
}

/// A launch geometry as CUDA takes it: 1 to 3 sizes, the missing ones 1.
fn dim3(what: &str, v: &Bound<'_, PyAny>) -> PyResult<(u32, u32, u32)> {
    let s = device_call::sizes(what, v)?;
    let get = |i: usize| -> PyResult<u32> {
        u32::try_from(s.get(i).copied().unwrap_or(1))
            .map_err(|_| errors::invalid(v.py(), format!("{what}: {} is too large", s[i])))
    };
    Ok((get(0)?, get(1)?, get(2)?))
}

/// `starpu.cuda.Program(source, options=())`: CUDA C source, compiled by NVRTC for each
/// GPU the first time a kernel of it is launched there (kernels declared `extern "C"`
/// keep their names; `options` as NVRTC takes them: `["-DN=4", "--use_fast_math"]`, or
/// one string of them). `Program.from_ptx(ptx)` takes PTX instead. A source that does not
/// compile fails the launch, and so the task, with NVRTC's log in the message.
#[pyclass(frozen, module = "starpu.cuda", name = "Program")]
pub(crate) struct Program {
    core: Arc<Module>,
}

#[pymethods]
impl Program {
    #[new]
    #[pyo3(signature = (source, options=None))]
    fn new(source: String, options: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let options: Vec<String> = match options {
            None => Vec::new(),
            Some(o) => match o.extract::<String>() {
                Ok(s) => s.split_whitespace().map(str::to_string).collect(),
                Err(_) => o.extract::<Vec<String>>().map_err(|_| {
                    pyo3::exceptions::PyTypeError::new_err(
                        "options: a string or a sequence of strings (NVRTC's options)",
                    )
                })?,
            },
        };
        Ok(Program {
            core: Arc::new(Module::from_source(source).with_options(options)),
        })
    }

    /// A program of PTX text (what `nvcc --ptx` writes), loaded on each GPU on first use.
    #[staticmethod]
    fn from_ptx(ptx: String) -> Self {
        Program {
            core: Arc::new(Module::from_ptx(ptx)),
        }
    }

    /// Queues kernel `kernel` of this program on the worker's stream over `grid` blocks of
    /// `block` threads (each an int or 1 to 3 ints), with `shared_mem` bytes of dynamic
    /// shared memory, and `args` (buffers, numpy scalars, bytes) in the kernel's order.
    /// Only from the CUDA implementation of a codelet, on its GPU; the task ends when its
    /// kernels are done.
    #[pyo3(signature = (kernel, grid, block, *args, shared_mem=0))]
    fn launch(
        &self,
        py: Python<'_>,
        kernel: &str,
        grid: &Bound<'_, PyAny>,
        block: &Bound<'_, PyAny>,
        args: &Bound<'_, PyTuple>,
        shared_mem: u32,
    ) -> PyResult<()> {
        let (grid, block) = (dim3("grid", grid)?, dim3("block", block)?);
        let module = &self.core;
        device_call::launch(py, DeviceKind::Cuda, args, kernel_arg, |call, args| {
            let cuda = call.cuda()?;
            let mut l = cuda.launch(module, kernel)?;
            for a in args {
                match a {
                    KernelArg::Ptr(p) => l.arg_buffer(&DeviceBuffer {
                        ptr: *p,
                        bytes: 0,
                        elemsize: 1,
                    }),
                    KernelArg::Bytes(b) => l.arg_bytes(b),
                };
            }
            l.run(grid, block, shared_mem)
        })
    }

    fn __repr__(&self) -> String {
        format!("<starpu.cuda.{:?}>", self.core)
    }
}
