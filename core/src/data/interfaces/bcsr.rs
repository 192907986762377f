//! `struct starpu_bcsr_interface`: block compressed-sparse-row, each nonzero being an
//! `r` x `c` dense block.

use super::sparse::{self, SparseArrays};
use super::{footprint_of, Interface};
use crate::error::Result;
use crate::memory::{Copier, Node};
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
    sparse_buffers!();
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

impl SparseArrays for BcsrInterface {
    fn arrays(&self) -> [usize; 3] {
        [self.nzval, self.colind as usize, self.rowptr as usize]
    }
    fn array_bytes(&self) -> [usize; 3] {
        let n = self.nnz as usize;
        [n * self.block_bytes(), n * 4, (self.nrow as usize + 1) * 4]
    }
    fn set_arrays(&mut self, a: [usize; 3]) {
        (self.nzval, self.colind, self.rowptr) = (a[0], a[1] as *mut u32, a[2] as *mut u32);
    }
}
