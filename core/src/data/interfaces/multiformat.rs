//! `struct starpu_multiformat_interface`: `nx` objects that have one layout per kind of
//! processing unit (an array of structures on CPUs, a structure of arrays on GPUs, say),
//! described by the application's `struct starpu_multiformat_data_interface_ops`: the
//! element size of each format and the codelets that convert between them.
//!
//! As in StarPU, every replica holds every format (`cpu_ptr`, `cuda_ptr`, `opencl_ptr`;
//! a format whose element size is 0 has no buffer), and a copy moves them all: which one holds the current value is the handle's business
//! (`task::multiformat` runs the conversion codelets when a task needs the other one).

use super::Interface;
use crate::error::{Error, Result};
use crate::hash::crc32c_be;
use crate::memory::{Copier, Loc, Node};
use libc::size_t;
use std::ffi::c_void;

/// `struct starpu_multiformat_data_interface_ops` (StarPU 1.4): the formats' element
/// sizes and conversion codelets (opaque here: codelets belong to the face).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct MultiformatOps {
    pub cpu_elemsize: size_t,
    pub opencl_elemsize: size_t,
    pub cpu_to_opencl_cl: *mut c_void,
    pub opencl_to_cpu_cl: *mut c_void,
    pub cuda_elemsize: size_t,
    pub cpu_to_cuda_cl: *mut c_void,
    pub cuda_to_cpu_cl: *mut c_void,
}

#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct MultiformatInterface {
    pub id: i32,
    pub cpu_ptr: usize,
    pub cuda_ptr: usize,
    pub opencl_ptr: usize,
    pub nx: u32,
    /// The application's `MultiformatOps` (an address: it must outlive the handle, as in
    /// StarPU, which keeps the pointer too).
    pub ops: usize,
}

impl MultiformatInterface {
    /// `nx` objects in the CPU format at `cpu_ptr`, described by `ops`.
    ///
    /// # Safety
    /// `ops` points to a `MultiformatOps` that lives as long as the data.
    pub unsafe fn new(cpu_ptr: usize, nx: u32, ops: *const MultiformatOps) -> Result<Self> {
        let o = ops
            .as_ref()
            .ok_or_else(|| Error::invalid("multiformat ops are NULL"))?;
        if o.cpu_elemsize == 0 {
            return Err(Error::invalid(
                "multiformat ops have cpu_elemsize 0 (the CPU format is the one this build uses)",
            ));
        }
        Ok(MultiformatInterface {
            id: Self::ID,
            cpu_ptr,
            cuda_ptr: 0,
            opencl_ptr: 0,
            nx,
            ops: ops as usize,
        })
    }

    fn ops(&self) -> Option<&MultiformatOps> {
        // SAFETY: `new` checked the pointer, which the application keeps alive.
        unsafe { (self.ops as *const MultiformatOps).as_ref() }
    }

    /// Bytes of one object in the CPU format.
    pub fn cpu_elemsize(&self) -> usize {
        self.ops().map_or(0, |o| o.cpu_elemsize)
    }

    /// Bytes of all the objects in the OpenCL format.
    pub fn opencl_size(&self) -> usize {
        self.nx as usize * self.ops().map_or(0, |o| o.opencl_elemsize)
    }

    /// Bytes of all the objects in the CUDA format.
    pub fn cuda_size(&self) -> usize {
        self.nx as usize * self.ops().map_or(0, |o| o.cuda_elemsize)
    }

    /// The device formats' buffers and sizes.
    fn device_formats(&mut self) -> [(&mut usize, usize); 2] {
        let (opencl, cuda) = (self.opencl_size(), self.cuda_size());
        [(&mut self.opencl_ptr, opencl), (&mut self.cuda_ptr, cuda)]
    }
}

impl Interface for MultiformatInterface {
    const ID: i32 = super::id::MULTIFORMAT;
    const NAME: &'static str = "STARPU_MULTIFORMAT_INTERFACE";

    fn data_size(&self) -> usize {
        self.nx as usize * self.cpu_elemsize()
    }
    fn alloc_size(&self) -> usize {
        self.data_size() + self.opencl_size() + self.cuda_size()
    }
    fn footprint(&self) -> u32 {
        // StarPU's: the object count only.
        crc32c_be(self.nx, 0)
    }
    fn describe(&self) -> String {
        format!(
            "multiformat nx={} cpu_elemsize={}",
            self.nx,
            self.cpu_elemsize()
        )
    }
    fn data_ptr(&self) -> usize {
        self.cpu_ptr
    }
    fn allocate(&mut self, node: &Node) -> Result<()> {
        // (On a device, `node.alloc`'s answer is the buffer object, as in StarPU's.)
        self.cpu_ptr = node.alloc(self.data_size())?;
        let sizes = [self.opencl_size(), self.cuda_size()];
        for (i, size) in sizes.into_iter().enumerate().filter(|(_, s)| *s != 0) {
            match node.alloc(size) {
                Ok(p) => *self.device_formats()[i].0 = p,
                Err(e) => {
                    self.free(node);
                    return Err(e);
                }
            }
        }
        Ok(())
    }
    fn free(&mut self, node: &Node) {
        if self.cpu_ptr != 0 {
            node.free(self.cpu_ptr, self.data_size());
        }
        for (ptr, size) in self.device_formats() {
            if *ptr != 0 {
                node.free(*ptr, size);
            }
        }
        *self = self.without_buffers();
    }
    fn copy_to(&self, dst: &Self, c: &mut dyn Copier) -> Result<()> {
        c.copy(
            Loc::ptr(self.cpu_ptr),
            Loc::ptr(dst.cpu_ptr),
            self.data_size(),
        )?;
        for (src, dst, size) in [
            (self.opencl_ptr, dst.opencl_ptr, self.opencl_size()),
            (self.cuda_ptr, dst.cuda_ptr, self.cuda_size()),
        ] {
            if src != 0 && dst != 0 && size != 0 {
                c.copy(Loc::ptr(src), Loc::ptr(dst), size)?;
            }
        }
        Ok(())
    }
    fn without_buffers(&self) -> Self {
        MultiformatInterface {
            cpu_ptr: 0,
            cuda_ptr: 0,
            opencl_ptr: 0,
            ..*self
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_come_from_the_cpu_format() {
        let ops = MultiformatOps {
            cpu_elemsize: 12,
            opencl_elemsize: 4,
            cpu_to_opencl_cl: std::ptr::null_mut(),
            opencl_to_cpu_cl: std::ptr::null_mut(),
            cuda_elemsize: 4,
            cpu_to_cuda_cl: std::ptr::null_mut(),
            cuda_to_cpu_cl: std::ptr::null_mut(),
        };
        let mut data = vec![0u8; 120];
        let m = unsafe { MultiformatInterface::new(data.as_mut_ptr() as usize, 10, &ops) }.unwrap();
        assert_eq!(m.data_size(), 120);
        // Every replica holds the three formats.
        assert_eq!(
            (m.opencl_size(), m.cuda_size(), m.alloc_size()),
            (40, 40, 200)
        );
        assert_eq!(m.footprint(), crc32c_be(10, 0));
        assert_eq!(m.describe(), "multiformat nx=10 cpu_elemsize=12");
        let bad = MultiformatOps {
            cpu_elemsize: 0,
            ..ops
        };
        assert!(unsafe { MultiformatInterface::new(0, 10, &bad) }.is_err());
        assert!(unsafe { MultiformatInterface::new(0, 10, std::ptr::null()) }.is_err());
    }
}
