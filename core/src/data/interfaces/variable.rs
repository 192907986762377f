//! `struct starpu_variable_interface`: one element of `elemsize` bytes.

use super::Interface;
use crate::data::hash::crc32c_be;
use crate::error::Result;
use crate::memory::{self, NodeId};
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
    fn data_ptr(&self) -> usize {
        self.ptr
    }
    fn allocate(&mut self, node: NodeId) -> Result<()> {
        let p = memory::alloc(node, self.elemsize)?;
        (self.ptr, self.dev_handle, self.offset) = (p, p, 0);
        Ok(())
    }
    fn free(&mut self, node: NodeId) {
        memory::free(node, self.dev_handle);
        *self = self.without_buffers();
    }
    unsafe fn copy_from(&self, src: &Self) {
        super::copy_2d(src.ptr, 0, self.ptr, 0, self.elemsize, 1);
    }
    fn without_buffers(&self) -> Self {
        VariableInterface {
            ptr: 0,
            dev_handle: 0,
            offset: 0,
            ..*self
        }
    }
}
