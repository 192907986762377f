//! `struct starpu_csr_interface`: a compressed-sparse-row matrix (values, column indices,
//! row pointers).

use super::sparse::{self, SparseArrays};
use super::{footprint_of, Interface};
use crate::error::Result;
use crate::memory::{Copier, Node};
use libc::size_t;

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct CsrInterface {
    pub id: i32,
    pub nnz: u32,
    pub nrow: u32,
    pub nzval: usize,
    pub colind: *mut u32,
    pub rowptr: *mut u32,
    pub firstentry: u32,
    pub elemsize: size_t,
}

// SAFETY: plain description of buffers; access is serialised by the data handle.
unsafe impl Send for CsrInterface {}
unsafe impl Sync for CsrInterface {}

impl CsrInterface {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        nnz: u32,
        nrow: u32,
        nzval: usize,
        colind: *mut u32,
        rowptr: *mut u32,
        firstentry: u32,
        elemsize: usize,
    ) -> Self {
        CsrInterface {
            id: Self::ID,
            nnz,
            nrow,
            nzval,
            colind,
            rowptr,
            firstentry,
            elemsize,
        }
    }
}

impl Interface for CsrInterface {
    const ID: i32 = super::id::CSR;
    const NAME: &'static str = "STARPU_CSR_INTERFACE";

    fn data_size(&self) -> usize {
        self.nnz as usize * (self.elemsize + 4) + (self.nrow as usize + 1) * 4
    }
    fn footprint(&self) -> u32 {
        footprint_of(&[self.nnz as u64, self.nrow as u64])
    }
    fn describe(&self) -> String {
        format!(
            "csr nnz={} nrow={} elemsize={}",
            self.nnz, self.nrow, self.elemsize
        )
    }
    sparse_buffers!();
}

impl SparseArrays for CsrInterface {
    fn arrays(&self) -> [usize; 3] {
        [self.nzval, self.colind as usize, self.rowptr as usize]
    }
    fn array_bytes(&self) -> [usize; 3] {
        let n = self.nnz as usize;
        [n * self.elemsize, n * 4, (self.nrow as usize + 1) * 4]
    }
    fn set_arrays(&mut self, a: [usize; 3]) {
        (self.nzval, self.colind, self.rowptr) = (a[0], a[1] as *mut u32, a[2] as *mut u32);
    }
}
