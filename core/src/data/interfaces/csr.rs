//! `struct starpu_csr_interface`: a compressed-sparse-row matrix (values, column indices,
//! row pointers).

use super::{footprint_of, Interface};
use crate::error::Result;
use crate::memory::{self, NodeId};
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

/// Allocates the three arrays of a sparse matrix with `nnz` values of `value_bytes` bytes
/// each and `nptr` row pointers.
pub(super) fn alloc_sparse(
    node: NodeId,
    value_bytes: usize,
    nnz: usize,
    nptr: usize,
) -> Result<(usize, usize, usize)> {
    let vals = memory::alloc(node, nnz * value_bytes)?;
    let cols = memory::alloc(node, nnz * 4).inspect_err(|_| memory::free(node, vals))?;
    let rows = memory::alloc(node, nptr * 4).inspect_err(|_| {
        memory::free(node, vals);
        memory::free(node, cols);
    })?;
    Ok((vals, cols, rows))
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
    fn data_ptr(&self) -> usize {
        self.nzval
    }
    fn allocate(&mut self, node: NodeId) -> Result<()> {
        let (v, c, r) = alloc_sparse(
            node,
            self.elemsize,
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
        super::copy_2d(src.nzval, 0, self.nzval, 0, n * self.elemsize, 1);
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
        CsrInterface {
            nzval: 0,
            colind: std::ptr::null_mut(),
            rowptr: std::ptr::null_mut(),
            ..*self
        }
    }
}
