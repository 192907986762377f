//! `struct starpu_coo_interface`: a sparse matrix as (row, column, value) triplets.

use super::{footprint_of, Interface};
use crate::error::Result;
use crate::memory::{self, NodeId};
use libc::size_t;

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct CooInterface {
    pub id: i32,
    pub columns: *mut u32,
    pub rows: *mut u32,
    pub values: usize,
    pub nx: u32,
    pub ny: u32,
    pub n_values: u32,
    pub elemsize: size_t,
}

// SAFETY: plain description of buffers; access is serialised by the data handle.
unsafe impl Send for CooInterface {}
unsafe impl Sync for CooInterface {}

impl CooInterface {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        nx: u32,
        ny: u32,
        n_values: u32,
        columns: *mut u32,
        rows: *mut u32,
        values: usize,
        elemsize: usize,
    ) -> Self {
        CooInterface {
            id: Self::ID,
            columns,
            rows,
            values,
            nx,
            ny,
            n_values,
            elemsize,
        }
    }
}

impl Interface for CooInterface {
    const ID: i32 = super::id::COO;
    const NAME: &'static str = "STARPU_COO_INTERFACE";

    fn data_size(&self) -> usize {
        self.n_values as usize * (self.elemsize + 8)
    }
    fn footprint(&self) -> u32 {
        footprint_of(&[self.nx as u64, self.ny as u64, self.n_values as u64])
    }
    fn describe(&self) -> String {
        format!(
            "coo nx={} ny={} n_values={} elemsize={}",
            self.nx, self.ny, self.n_values, self.elemsize
        )
    }
    fn data_ptr(&self) -> usize {
        self.values
    }
    fn allocate(&mut self, node: NodeId) -> Result<()> {
        let n = self.n_values as usize;
        let (v, c, r) = super::csr::alloc_sparse(node, self.elemsize, n, n)?;
        (self.values, self.columns, self.rows) = (v, c as *mut u32, r as *mut u32);
        Ok(())
    }
    fn free(&mut self, node: NodeId) {
        memory::free(node, self.values);
        memory::free(node, self.columns as usize);
        memory::free(node, self.rows as usize);
        *self = self.without_buffers();
    }
    unsafe fn copy_from(&self, src: &Self) {
        let n = self.n_values as usize;
        super::copy_2d(src.values, 0, self.values, 0, n * self.elemsize, 1);
        super::copy_2d(src.columns as usize, 0, self.columns as usize, 0, n * 4, 1);
        super::copy_2d(src.rows as usize, 0, self.rows as usize, 0, n * 4, 1);
    }
    fn without_buffers(&self) -> Self {
        CooInterface {
            values: 0,
            columns: std::ptr::null_mut(),
            rows: std::ptr::null_mut(),
            ..*self
        }
    }
}
