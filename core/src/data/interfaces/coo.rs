//! `struct starpu_coo_interface`: a sparse matrix as (row, column, value) triplets.

use super::sparse::{self, SparseArrays};
use super::{footprint_of, Interface};
use crate::error::Result;
use crate::memory::{Copier, Node};
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
    sparse_buffers!();
}

impl SparseArrays for CooInterface {
    fn arrays(&self) -> [usize; 3] {
        [self.values, self.columns as usize, self.rows as usize]
    }
    fn array_bytes(&self) -> [usize; 3] {
        let n = self.n_values as usize;
        [n * self.elemsize, n * 4, n * 4]
    }
    fn set_arrays(&mut self, a: [usize; 3]) {
        (self.values, self.columns, self.rows) = (a[0], a[1] as *mut u32, a[2] as *mut u32);
    }
}
