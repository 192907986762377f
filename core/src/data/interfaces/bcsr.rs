//! `struct starpu_bcsr_interface`: block compressed-sparse-row, each nonzero being an
//! `r` x `c` dense block.

use super::{csr::alloc_sparse, footprint_of, Interface};
use crate::error::Result;
use crate::memory::{self, NodeId};
use libc::size_t;

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct BcsrInterface {
    pub id: i32,
    pub nnz: u32,
    pub nrow: u32,
    pub nzval: usize,
    pub colind: *mut u32,
    pub rowptr: *mut u32,
    pub firstentry: u32,
    pub r: u32,
    pub c: u32,
    pub elemsize: size_t,
}

// SAFETY: plain description of buffers; access is serialised by the data handle.
unsafe impl Send for BcsrInterface {}
unsafe impl Sync for BcsrInterface {}

impl BcsrInterface {
    fn block_bytes(&self) -> usize {
        self.r as usize * self.c as usize * self.elemsize
    }
}

impl Interface for BcsrInterface {
    const ID: i32 = super::id::BCSR;
    const NAME: &'static str = "STARPU_BCSR_INTERFACE";

    fn data_size(&self) -> usize {
        self.nnz as usize * (self.block_bytes() + 4) + (self.nrow as usize + 1) * 4
    }
    fn footprint(&self) -> u32 {
        footprint_of(&[
            self.nnz as u64,
            self.nrow as u64,
            self.r as u64,
            self.c as u64,
        ])
    }
    fn describe(&self) -> String {
        format!(
            "bcsr nnz={} nrow={} r={} c={} elemsize={}",
            self.nnz, self.nrow, self.r, self.c, self.elemsize
        )
    }
    fn data_ptr(&self) -> usize {
        self.nzval
    }
    fn allocate(&mut self, node: NodeId) -> Result<()> {
        let (v, c, r) = alloc_sparse(
            node,
            self.block_bytes(),
            self.nnz as usize,
            self.nrow as usize + 1,
        )?;
        (self.nzval, self.colind, self.rowptr) = (v, c as *mut u32, r as *mut u32);
        Ok(())
    }
    fn free(&mut self, node: NodeId) {
        memory::free(node, self.nzval);
        memory::free(node, self.colind as usize);
        memory::free(node, self.rowptr as usize);
        *self = self.without_buffers();
    }
    unsafe fn copy_from(&self, src: &Self) {
        let n = self.nnz as usize;
        super::copy_2d(src.nzval, 0, self.nzval, 0, n * self.block_bytes(), 1);
        super::copy_2d(src.colind as usize, 0, self.colind as usize, 0, n * 4, 1);
        super::copy_2d(
            src.rowptr as usize,
            0,
            self.rowptr as usize,
            0,
            (self.nrow as usize + 1) * 4,
            1,
        );
    }
    fn without_buffers(&self) -> Self {
        BcsrInterface {
            nzval: 0,
            colind: std::ptr::null_mut(),
            rowptr: std::ptr::null_mut(),
            ..*self
        }
    }
}

impl BcsrInterface {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        nnz: u32,
        nrow: u32,
        nzval: usize,
        colind: *mut u32,
        rowptr: *mut u32,
        firstentry: u32,
        r: u32,
        c: u32,
        elemsize: usize,
    ) -> Self {
        BcsrInterface {
            id: Self::ID,
            nnz,
            nrow,
            nzval,
            colind,
            rowptr,
            firstentry,
            r,
            c,
            elemsize,
        }
    }
}
