//! `struct starpu_vector_interface`: `nx` elements of `elemsize` bytes, contiguous.

use super::Interface;
use crate::error::Result;
use crate::hash::crc32c_be;
use crate::memory::{Copier, Loc, Node};
use libc::size_t;

#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct VectorInterface {
    pub id: i32,
    pub ptr: usize,
    pub dev_handle: usize,
    pub offset: size_t,
    pub nx: u32,
    pub elemsize: size_t,
    /// Index of the first element, for vectors cut out of a bigger one.
    pub slice_base: u32,
    /// Bytes actually allocated (may exceed `nx * elemsize`).
    pub allocsize: size_t,
}

impl VectorInterface {
    pub fn new(ptr: usize, nx: u32, elemsize: usize) -> Self {
        VectorInterface {
            id: Self::ID,
            ptr,
            dev_handle: ptr,
            offset: 0,
            nx,
            elemsize,
            slice_base: 0,
            allocsize: nx as usize * elemsize,
        }
    }
}

impl VectorInterface {
    /// Where the elements are, for copies.
    pub fn loc(&self) -> Loc {
        Loc::new(self.ptr, self.dev_handle, self.offset)
    }
}

impl Interface for VectorInterface {
    const ID: i32 = super::id::VECTOR;
    const NAME: &'static str = "STARPU_VECTOR_INTERFACE";

    fn data_size(&self) -> usize {
        self.nx as usize * self.elemsize
    }
    fn alloc_size(&self) -> usize {
        self.allocsize.max(self.data_size())
    }
    fn footprint(&self) -> u32 {
        // StarPU's footprint, so model files move between StarPU and this runtime.
        crc32c_be(self.nx, 0)
    }
    fn describe(&self) -> String {
        format!("vector nx={} elemsize={}", self.nx, self.elemsize)
    }
    dense_buffers!(pack: |_| ());
    fn copy_to(&self, dst: &Self, c: &mut dyn Copier) -> Result<()> {
        c.copy(self.loc(), dst.loc(), self.data_size())
    }
}
