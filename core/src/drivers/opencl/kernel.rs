//! What the OpenCL implementation of a Rust codelet works with: its worker's device and
//! queue, the task's buffers as device buffers, and kernels of a [`Program`] to launch.
//!
//! ```no_run
//! use starpu_core::drivers::opencl::Program;
//! use starpu_core::{AccessMode, Codelet};
//! use std::sync::Arc;
//!
//! let program = Arc::new(Program::from_source(
//!     "__kernel void scale(__global float *v, unsigned offset, unsigned n, float k) {
//!          const size_t i = get_global_id(0);
//!          if (i < n) v[offset + i] *= k;
//!      }",
//! ));
//! let scale = Codelet::new("scale").modes([AccessMode::RW]).opencl(move |call| {
//!     let k = *call.arg::<f32>(0)?;
//!     let cl = call.opencl()?;
//!     let v = cl.buffer_of::<f32>(0)?;
//!     let mut kernel = cl.kernel(&program, "scale")?;
//!     kernel.arg_buffer(&v)?.arg(v.first() as u32)?.arg(v.len() as u32)?.arg(k)?;
//!     kernel.launch(&[v.len()], None)?;
//!     Ok(())
//! });
//! ```

use super::device::Device;
use super::error::cl_error;
use super::program::Program;
use crate::data::Element;
use crate::drivers::dense;
use crate::error::{Error, Result};
use crate::task::KernelCall;
use cl3::types::{cl_command_queue, cl_kernel};
use std::ffi::c_void;
use std::sync::Arc;

/// The OpenCL side of a kernel call (see `KernelCall::opencl`).
pub struct OpenCl<'a> {
    call: &'a KernelCall<'a>,
    devid: usize,
    device: Arc<Device>,
}

impl KernelCall<'_> {
    /// The device, queue and device buffers of an OpenCL implementation; an error in a
    /// CPU implementation.
    pub fn opencl(&self) -> Result<OpenCl<'_>> {
        let (devid, device) = super::current().ok_or_else(|| {
            Error::invalid("call.opencl(): this kernel does not run on an OpenCL worker")
        })?;
        Ok(OpenCl {
            call: self,
            devid,
            device,
        })
    }
}

/// A task's buffer on the device: the `cl_mem` and where the data starts in it (kernels
/// get both, as StarPU's OpenCL kernels get `dev_handle` and `offset`).
#[derive(Debug, Clone, Copy)]
pub struct DeviceBuffer {
    /// The `cl_mem`.
    pub mem: *mut c_void,
    /// Byte offset of the data in `mem`.
    pub offset: usize,
    /// Bytes of data (the whole extent for a strided matrix or block).
    pub bytes: usize,
    /// Bytes per element.
    pub elemsize: usize,
}

impl DeviceBuffer {
    fn at(d: dense::Dense) -> DeviceBuffer {
        DeviceBuffer {
            mem: d.handle as *mut c_void,
            offset: d.offset,
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

    /// Index (in elements) of the first element in `mem`: what kernels add to their
    /// indices when the data is a piece of a partitioned buffer.
    pub fn first(&self) -> usize {
        self.offset.checked_div(self.elemsize).unwrap_or(0)
    }
}

impl OpenCl<'_> {
    /// The device number among the runtime's OpenCL devices (StarPU's `devid`).
    pub fn devid(&self) -> usize {
        self.devid
    }

    pub fn device(&self) -> &Device {
        &self.device
    }

    /// The raw `cl_command_queue` kernels go to (`starpu_opencl_get_current_queue`).
    pub fn queue_raw(&self) -> *mut c_void {
        self.device.queue_raw()
    }

    /// The raw `cl_context`.
    pub fn context_raw(&self) -> *mut c_void {
        self.device.context_raw()
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

    /// Kernel `name` of `program` for this device (the program is built on first use; a
    /// build error is returned with the compiler's log).
    pub fn kernel(&self, program: &Program, name: &str) -> Result<Kernel> {
        let p = program.for_device(&self.device)?;
        Ok(Kernel {
            kernel: super::program::create_kernel(p, name)? as cl_kernel,
            queue: self.device.opened()?.queue,
            next: 0,
        })
    }
}

/// A kernel with its arguments being set, launched on the worker's queue.
pub struct Kernel {
    kernel: cl_kernel,
    queue: cl_command_queue,
    next: u32,
}

impl Kernel {
    fn set(&mut self, size: usize, value: *const c_void) -> Result<&mut Kernel> {
        // SAFETY: value points to `size` readable bytes (or is null for a `__local`
        // argument, which OpenCL takes as a size only); OpenCL checks the size against
        // the kernel's argument and answers an error when it does not match.
        unsafe { cl3::kernel::set_kernel_arg(self.kernel, self.next, size, value) }
            .map_err(|e| cl_error(e, &format!("clSetKernelArg({})", self.next)))?;
        self.next += 1;
        Ok(self)
    }

    /// Sets the next argument to a device buffer's `cl_mem`.
    pub fn arg_buffer(&mut self, b: &DeviceBuffer) -> Result<&mut Kernel> {
        let mem = b.mem;
        self.set(
            std::mem::size_of::<*mut c_void>(),
            &mem as *const _ as *const c_void,
        )
    }

    /// Sets the next argument to a plain value (a number, a struct the kernel declares
    /// the same way).
    pub fn arg<T: Copy>(&mut self, v: T) -> Result<&mut Kernel> {
        self.set(std::mem::size_of::<T>(), &v as *const T as *const c_void)
    }

    /// Sets the next argument to raw bytes: a value whose type the kernel declares and
    /// the caller only knows as bytes (the Python face's numpy scalars, OpenCL vector
    /// types, structs). OpenCL refuses a size that does not match.
    pub fn arg_bytes(&mut self, bytes: &[u8]) -> Result<&mut Kernel> {
        self.set(bytes.len(), bytes.as_ptr() as *const c_void)
    }

    /// Sets the next argument, a `__local` pointer, to `bytes` of work-group local memory
    /// (each work group gets its own).
    pub fn arg_local(&mut self, bytes: usize) -> Result<&mut Kernel> {
        self.set(bytes, std::ptr::null())
    }

    /// Runs the kernel over `global` work items (1 to 3 dimensions), in work groups of
    /// `local` if given, and waits until it is over.
    pub fn launch(&mut self, global: &[usize], local: Option<&[usize]>) -> Result<()> {
        if global.is_empty() || global.len() > 3 || local.is_some_and(|l| l.len() != global.len()) {
            return Err(Error::invalid(
                "kernel launch: 1 to 3 global sizes, and as many local sizes if any",
            ));
        }
        if global.contains(&0) {
            return Ok(());
        }
        // SAFETY: the kernel's arguments are set; the sizes arrays have work_dim entries.
        let ev = unsafe {
            cl3::command_queue::enqueue_nd_range_kernel(
                self.queue,
                self.kernel,
                global.len() as u32,
                std::ptr::null(),
                global.as_ptr(),
                local.map_or(std::ptr::null(), |l| l.as_ptr()),
                0,
                std::ptr::null(),
            )
        }
        .map_err(|e| cl_error(e, "clEnqueueNDRangeKernel"))?;
        let ev = super::node::ClEvent(ev);
        crate::memory::Completion::wait(&ev)
    }
}

impl Drop for Kernel {
    fn drop(&mut self) {
        let _ = super::program::release_kernel(self.kernel as usize);
    }
}
