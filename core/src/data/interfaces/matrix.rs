//! `struct starpu_matrix_interface`: `ny` columns of `nx` contiguous elements, column `j`
//! starting `ld` elements after column `j-1` (column-major with a leading dimension).

use super::Interface;
use crate::error::Result;
use crate::hash::crc32c_be;
use crate::memory::{Copier, Loc, Node};
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
    dense_buffers!(pack: |m| m.ld = m.nx);
    fn copy_to(&self, dst: &Self, c: &mut dyn Copier) -> Result<()> {
        let e = self.elemsize;
        let at = |m: &Self| Loc::new(m.ptr, m.dev_handle, m.offset);
        c.copy2d(
            at(self),
            at(dst),
            self.nx as usize * e,
            self.ny as usize,
            self.ld as usize * e,
            dst.ld as usize * e,
        )
    }
}
