//! `struct starpu_block_interface`: a 3-D array, `nx` contiguous elements per line,
//! lines `ldy` elements apart, planes `ldz` elements apart.

use super::Interface;
use crate::error::Result;
use crate::hash::crc32c_be;
use crate::memory::{Copier, Loc, Node};
use libc::size_t;

#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct BlockInterface {
    pub id: i32,
    pub ptr: usize,
    pub dev_handle: usize,
    pub offset: size_t,
    pub nx: u32,
    pub ny: u32,
    pub nz: u32,
    pub ldy: u32,
    pub ldz: u32,
    pub elemsize: size_t,
}

impl BlockInterface {
    #[allow(clippy::too_many_arguments)]
    pub fn new(ptr: usize, ldy: u32, ldz: u32, nx: u32, ny: u32, nz: u32, elemsize: usize) -> Self {
        BlockInterface {
            id: Self::ID,
            ptr,
            dev_handle: ptr,
            offset: 0,
            nx,
            ny,
            nz,
            ldy,
            ldz,
            elemsize,
        }
    }
}

impl Interface for BlockInterface {
    const ID: i32 = super::id::BLOCK;
    const NAME: &'static str = "STARPU_BLOCK_INTERFACE";

    fn data_size(&self) -> usize {
        self.nx as usize * self.ny as usize * self.nz as usize * self.elemsize
    }
    fn footprint(&self) -> u32 {
        // StarPU's footprint, so model files move between StarPU and this runtime.
        crc32c_be(self.nz, crc32c_be(self.ny, crc32c_be(self.nx, 0)))
    }
    fn describe(&self) -> String {
        format!(
            "block nx={} ny={} nz={} ldy={} ldz={} elemsize={}",
            self.nx, self.ny, self.nz, self.ldy, self.ldz, self.elemsize
        )
    }
    dense_buffers!(pack: |b| (b.ldy, b.ldz) = (b.nx, b.nx * b.ny));
    fn copy_to(&self, dst: &Self, c: &mut dyn Copier) -> Result<()> {
        let e = self.elemsize;
        let at = |b: &Self| Loc::new(b.ptr, b.dev_handle, b.offset);
        let row = self.nx as usize * e;
        if self.ldz == self.nx * self.ny && dst.ldz == self.ldz && self.ldy == self.nx {
            // Both packed: one run.
            return c.copy(at(self), at(dst), self.data_size());
        }
        for z in 0..self.nz as usize {
            c.copy2d(
                at(self).at(z * self.ldz as usize * e),
                at(dst).at(z * dst.ldz as usize * e),
                row,
                self.ny as usize,
                self.ldy as usize * e,
                dst.ldy as usize * e,
            )?;
        }
        Ok(())
    }
}
