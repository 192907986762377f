//! What the CUDA implementation of a Rust codelet works with: its worker's device and
//! stream, the task's buffers as device addresses, kernels of a [`Module`] to launch on
//! the stream, and the worker's cuBLAS / cuSOLVER handles.
//!
//! ```no_run
//! use starpu_core::drivers::cuda::Module;
//! use starpu_core::{AccessMode, Codelet};
//! use std::sync::Arc;
//!
//! let module = Arc::new(Module::from_source(
//!     r#"extern "C" __global__ void scale(float *v, unsigned n, float k) {
//!          unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
//!          if (i < n) v[i] *= k;
//!      }"#,
//! ));
//! let scale = Codelet::new("scale").modes([AccessMode::RW]).cuda(move |call| {
//!     let k = *call.arg::<f32>(0)?;
//!     let cuda = call.cuda()?;
//!     let v = cuda.buffer_of::<f32>(0)?;
//!     let n = v.len() as u32;
//!     cuda.launch(&module, "scale")?
//!         .arg_buffer(&v)
//!         .arg(n)
//!         .arg(k)
//!         .run(((n + 255) / 256, 1, 1), (256, 1, 1), 0)?;
//!     Ok(())
//! });
//! ```
//!
//! The worker waits for its stream when the implementation returns: the task is over
//! when its kernels are.

use super::module::Module;
use super::{Device, WorkerContext};
use crate::data::Element;
use crate::drivers::dense;
use crate::error::{Error, Result};
use crate::task::KernelCall;
use cudarc::driver::sys::{self, CUfunction, CUstream};
use std::ffi::c_void;
use std::rc::Rc;

/// The CUDA side of a kernel call (see `KernelCall::cuda`).
pub struct Cuda<'a> {
    call: &'a KernelCall<'a>,
    worker: Rc<WorkerContext>,
}

impl KernelCall<'_> {
    /// The device, stream and device buffers of a CUDA implementation; an error in
    /// another implementation.
    pub fn cuda(&self) -> Result<Cuda<'_>> {
        let worker = super::current().ok_or_else(|| {
            Error::invalid("call.cuda(): this kernel does not run on a CUDA worker")
        })?;
        Ok(Cuda { call: self, worker })
    }
}

/// A task's buffer on the device: the address of its first element.
#[derive(Debug, Clone, Copy)]
pub struct DeviceBuffer {
    /// Device address of the first element (`CUdeviceptr`).
    pub ptr: u64,
    /// Bytes of data (the whole extent for a strided matrix or block).
    pub bytes: usize,
    /// Bytes per element.
    pub elemsize: usize,
}

impl DeviceBuffer {
    fn at(d: dense::Dense) -> DeviceBuffer {
        // Pieces of partitioned data have their own address (`ptr`); where the interface
        // gives only the buffer and an offset, the address is their sum.
        let ptr = if d.ptr != 0 {
            d.ptr
        } else {
            d.handle + d.offset
        };
        DeviceBuffer {
            ptr: ptr as u64,
            bytes: d.bytes,
            elemsize: d.elemsize,
        }
    }

    /// Elements in the buffer.
    pub fn len(&self) -> usize {
        self.bytes.checked_div(self.elemsize).unwrap_or(0)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Cuda<'_> {
    /// The device number among the runtime's CUDA devices (StarPU's `devid`).
    pub fn devid(&self) -> usize {
        self.worker.devid
    }

    pub fn device(&self) -> &Device {
        &self.worker.device
    }

    /// The worker's stream, as a raw `CUstream` / `cudaStream_t`
    /// (`starpu_cuda_get_local_stream`).
    pub fn stream_raw(&self) -> *mut c_void {
        self.worker.stream as *mut c_void
    }

    /// The worker's cuBLAS handle, on its stream (`starpu_cublas_get_local_handle`).
    pub fn cublas_raw(&self) -> Result<*mut c_void> {
        super::libs::cublas_handle()
    }

    /// The worker's cuSOLVER dense handle, on its stream
    /// (`starpu_cusolverDn_get_local_handle`).
    pub fn cusolver_raw(&self) -> Result<*mut c_void> {
        super::libs::cusolver_handle()
    }

    /// Buffer `i` of the task on the device (dense interfaces: variable, vector, matrix,
    /// block, tensor, ndim).
    pub fn buffer(&self, i: usize) -> Result<DeviceBuffer> {
        dense::device_buffer::<u8, _>(self.call, i, false, DeviceBuffer::at)
    }

    /// `buffer`, checked to hold elements of type `T`.
    pub fn buffer_of<T: Element>(&self, i: usize) -> Result<DeviceBuffer> {
        dense::device_buffer::<T, _>(self.call, i, true, DeviceBuffer::at)
    }

    /// Kernel `name` of `module` (compiled and loaded on this device on first use), to
    /// be given its arguments and run on the worker's stream.
    pub fn launch(&self, module: &Module, name: &str) -> Result<Launch> {
        Ok(Launch {
            function: module.function(&self.worker.device, name)?,
            stream: self.worker.stream,
            args: Vec::new(),
        })
    }
}

/// A kernel with its arguments being set.
pub struct Launch {
    function: CUfunction,
    stream: CUstream,
    /// Each argument's bytes, 8-byte aligned (what `cuLaunchKernel` points at).
    args: Vec<Box<[u64]>>,
}

impl Launch {
    /// Sets the next argument to a plain value (a number, a struct the kernel declares the
    /// same way).
    pub fn arg<T: Copy>(&mut self, v: T) -> &mut Launch {
        let words = std::mem::size_of::<T>().div_ceil(8).max(1);
        let mut b = vec![0u64; words].into_boxed_slice();
        // SAFETY: the box holds at least size_of::<T>() bytes, 8-byte aligned.
        unsafe { std::ptr::write(b.as_mut_ptr() as *mut T, v) };
        self.args.push(b);
        self
    }

    /// Sets the next argument to raw bytes laid out as the kernel's parameter type (what a
    /// face passes for a value it got typed from its language: a numpy scalar...).
    pub fn arg_bytes(&mut self, bytes: &[u8]) -> &mut Launch {
        let mut b = vec![0u64; bytes.len().div_ceil(8).max(1)].into_boxed_slice();
        // SAFETY: the box holds at least bytes.len() bytes.
        unsafe {
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), b.as_mut_ptr() as *mut u8, bytes.len())
        };
        self.args.push(b);
        self
    }

    /// Sets the next argument to a device buffer's address (a `T *` in the kernel).
    pub fn arg_buffer(&mut self, b: &DeviceBuffer) -> &mut Launch {
        self.arg(b.ptr)
    }

    /// Queues the kernel on the worker's stream over `grid` blocks of `block` threads,
    /// with `shared` bytes of dynamic shared memory.
    pub fn run(
        &mut self,
        grid: (u32, u32, u32),
        block: (u32, u32, u32),
        shared: u32,
    ) -> Result<()> {
        if [grid.0, grid.1, grid.2].contains(&0) {
            return Ok(());
        }
        let mut params: Vec<*mut c_void> = self
            .args
            .iter_mut()
            .map(|a| a.as_mut_ptr() as *mut c_void)
            .collect();
        // SAFETY: the function belongs to the worker's (current) context; each parameter
        // points to its argument's bytes, alive until the call returns (CUDA copies them).
        let r = unsafe {
            sys::cuLaunchKernel(
                self.function,
                grid.0,
                grid.1,
                grid.2,
                block.0,
                block.1,
                block.2,
                shared,
                self.stream,
                params.as_mut_ptr(),
                std::ptr::null_mut(),
            )
        };
        super::error::check(r, "cuLaunchKernel")
    }
}
