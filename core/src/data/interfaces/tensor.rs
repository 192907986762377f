//! `struct starpu_tensor_interface`: a 4-D array with leading dimensions `ldy`, `ldz`, `ldt`.

use super::Interface;
use crate::error::Result;
use crate::hash::crc32c_be;
use crate::memory::{Copier, Loc, Node};
use libc::size_t;

#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct TensorInterface {
    pub id: i32,
    pub ptr: usize,
    pub dev_handle: usize,
    pub offset: size_t,
    pub nx: u32,
    pub ny: u32,
    pub nz: u32,
    pub nt: u32,
    pub ldy: u32,
    pub ldz: u32,
    pub ldt: u32,
    pub elemsize: size_t,
}

impl TensorInterface {
    /// `dims` is (nx, ny, nz, nt), `lds` is (ldy, ldz, ldt).
    pub fn new(ptr: usize, lds: [u32; 3], dims: [u32; 4], elemsize: usize) -> Self {
        TensorInterface {
            id: Self::ID,
            ptr,
            dev_handle: ptr,
            offset: 0,
            nx: dims[0],
            ny: dims[1],
            nz: dims[2],
            nt: dims[3],
            ldy: lds[0],
            ldz: lds[1],
            ldt: lds[2],
            elemsize,
        }
    }
}

impl Interface for TensorInterface {
    const ID: i32 = super::id::TENSOR;
    const NAME: &'static str = "STARPU_TENSOR_INTERFACE";

    fn data_size(&self) -> usize {
        [self.nx, self.ny, self.nz, self.nt]
            .iter()
            .map(|&n| n as usize)
            .product::<usize>()
            * self.elemsize
    }
    fn footprint(&self) -> u32 {
        // StarPU's footprint, so model files move between StarPU and this runtime.
        crc32c_be(
            self.nt,
            crc32c_be(self.nz, crc32c_be(self.ny, crc32c_be(self.nx, 0))),
        )
    }
    fn describe(&self) -> String {
        format!(
            "tensor nx={} ny={} nz={} nt={} elemsize={}",
            self.nx, self.ny, self.nz, self.nt, self.elemsize
        )
    }
    dense_buffers!(pack: |t| {
        t.ldy = t.nx;
        t.ldz = t.nx * t.ny;
        t.ldt = t.ldz * t.nz;
    });
    fn copy_to(&self, dst: &Self, c: &mut dyn Copier) -> Result<()> {
        let e = self.elemsize;
        let at = |v: &Self| Loc::new(v.ptr, v.dev_handle, v.offset);
        for t in 0..self.nt as usize {
            for z in 0..self.nz as usize {
                let plane = |v: &Self| (t * v.ldt as usize + z * v.ldz as usize) * e;
                c.copy2d(
                    at(self).at(plane(self)),
                    at(dst).at(plane(dst)),
                    self.nx as usize * e,
                    self.ny as usize,
                    self.ldy as usize * e,
                    dst.ldy as usize * e,
                )?;
            }
        }
        Ok(())
    }
}
