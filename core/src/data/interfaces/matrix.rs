//! `struct starpu_matrix_interface`: `ny` columns of `nx` contiguous elements, column `j`
//! starting `ld` elements after column `j-1` (column-major with a leading dimension).

use super::{copy_2d, Interface};
use crate::data::hash::crc32c_be;
use crate::error::Result;
use crate::memory::{self, NodeId};
use libc::size_t;

#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct MatrixInterface {
    pub id: i32,
    pub ptr: usize,
    pub dev_handle: usize,
    pub offset: size_t,
    pub nx: u32,
    pub ny: u32,
    pub ld: u32,
    pub elemsize: size_t,
    pub allocsize: size_t,
}

impl MatrixInterface {
    pub fn new(ptr: usize, ld: u32, nx: u32, ny: u32, elemsize: usize) -> Self {
        MatrixInterface {
            id: Self::ID,
            ptr,
            dev_handle: ptr,
            offset: 0,
            nx,
            ny,
            ld,
            elemsize,
            allocsize: nx as usize * ny as usize * elemsize,
        }
    }
}

impl Interface for MatrixInterface {
    const ID: i32 = super::id::MATRIX;
    const NAME: &'static str = "STARPU_MATRIX_INTERFACE";

    fn data_size(&self) -> usize {
        self.nx as usize * self.ny as usize * self.elemsize
    }
    fn alloc_size(&self) -> usize {
        self.allocsize.max(self.data_size())
    }
    fn footprint(&self) -> u32 {
        // StarPU's footprint, so model files move between StarPU and this runtime.
        crc32c_be(self.nx, self.ny)
    }
    fn describe(&self) -> String {
        format!(
            "matrix nx={} ny={} ld={} elemsize={}",
            self.nx, self.ny, self.ld, self.elemsize
        )
    }
    fn data_ptr(&self) -> usize {
        self.ptr
    }
    fn allocate(&mut self, node: NodeId) -> Result<()> {
        let p = memory::alloc(node, self.alloc_size())?;
        (self.ptr, self.dev_handle, self.offset, self.ld) = (p, p, 0, self.nx);
        Ok(())
    }
    fn free(&mut self, node: NodeId) {
        memory::free(node, self.dev_handle);
        *self = self.without_buffers();
    }
    unsafe fn copy_from(&self, src: &Self) {
        let e = self.elemsize;
        copy_2d(
            src.ptr,
            src.ld as usize * e,
            self.ptr,
            self.ld as usize * e,
            self.nx as usize * e,
            self.ny as usize,
        );
    }
    fn without_buffers(&self) -> Self {
        MatrixInterface {
            ptr: 0,
            dev_handle: 0,
            offset: 0,
            ..*self
        }
    }
}
