//! `struct starpu_variable_interface`: one element of `elemsize` bytes.

use super::Interface;
use crate::error::Result;
use crate::hash::crc32c_be;
use crate::memory::{Copier, Loc, Node};
use libc::size_t;

#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct VariableInterface {
    pub id: i32,
    pub ptr: usize,
    pub dev_handle: usize,
    pub offset: size_t,
    pub elemsize: size_t,
}

impl VariableInterface {
    pub fn new(ptr: usize, elemsize: usize) -> Self {
        VariableInterface {
            id: Self::ID,
            ptr,
            dev_handle: ptr,
            offset: 0,
            elemsize,
        }
    }
}

impl Interface for VariableInterface {
    const ID: i32 = super::id::VARIABLE;
    const NAME: &'static str = "STARPU_VARIABLE_INTERFACE";

    fn data_size(&self) -> usize {
        self.elemsize
    }
    fn footprint(&self) -> u32 {
        // StarPU's footprint, so model files move between StarPU and this runtime.
        crc32c_be(self.elemsize as u32, 0)
    }
    fn describe(&self) -> String {
        format!("variable elemsize={}", self.elemsize)
    }
    dense_buffers!();
    fn allocate(&mut self, node: &Node) -> Result<()> {
        let h = node.alloc(self.elemsize)?;
        // StarPU's variable keeps the device's handle in `ptr` too (OpenCL kernels read
        // their cl_mem with STARPU_VARIABLE_GET_PTR).
        (self.ptr, self.dev_handle, self.offset) = (h, h, 0);
        Ok(())
    }
    fn copy_to(&self, dst: &Self, c: &mut dyn Copier) -> Result<()> {
        let at = |v: &Self| Loc::new(v.ptr, v.dev_handle, v.offset);
        c.copy(at(self), at(dst), self.elemsize)
    }
}
