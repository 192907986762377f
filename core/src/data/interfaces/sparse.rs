//! What the sparse interfaces (CSR, BCSR, COO) share: three arrays (values and two index
//! arrays) allocated, freed and copied together.

use crate::error::Result;
use crate::memory::{self, NodeId};

/// A sparse description seen as its three arrays.
pub(super) trait SparseArrays {
    /// Addresses of the three arrays.
    fn arrays(&self) -> [usize; 3];
    /// Sizes in bytes of the three arrays.
    fn array_bytes(&self) -> [usize; 3];
    fn set_arrays(&mut self, arrays: [usize; 3]);
}

/// Points `d` at three fresh arrays on `node`.
pub(super) fn allocate<S: SparseArrays>(d: &mut S, node: NodeId) -> Result<()> {
    let mut got = [0usize; 3];
    for (i, bytes) in d.array_bytes().into_iter().enumerate() {
        match memory::alloc(node, bytes) {
            Ok(p) => got[i] = p,
            Err(e) => {
                got.iter().for_each(|&p| memory::free(node, p));
                return Err(e);
            }
        }
    }
    d.set_arrays(got);
    Ok(())
}

/// Frees the three arrays and forgets them.
pub(super) fn free<S: SparseArrays>(d: &mut S, node: NodeId) {
    d.arrays().into_iter().for_each(|p| memory::free(node, p));
    d.set_arrays([0; 3]);
}

/// Copies the three arrays of `src` into those of `dst`.
///
/// # Safety
/// Both descriptions point to live arrays of the same sizes.
pub(super) unsafe fn copy<S: SparseArrays>(src: &S, dst: &S) {
    for ((s, d), bytes) in src
        .arrays()
        .into_iter()
        .zip(dst.arrays())
        .zip(dst.array_bytes())
    {
        super::copy_2d(s, 0, d, 0, bytes, 1);
    }
}

/// `d` without its arrays.
pub(super) fn without_arrays<S: SparseArrays + Copy>(d: &S) -> S {
    let mut out = *d;
    out.set_arrays([0; 3]);
    out
}

#[cfg(test)]
mod tests {
    use super::super::{CsrInterface, Interface};

    #[test]
    fn csr_replica_gets_its_own_copy_of_the_three_arrays() {
        let mut vals = [1.0f64, 2.0, 3.0];
        let mut cols = [0u32, 2, 1];
        let mut rows = [0u32, 2, 3];
        let src = CsrInterface::new(
            3,
            2,
            vals.as_mut_ptr() as usize,
            cols.as_mut_ptr(),
            rows.as_mut_ptr(),
            0,
            8,
        );
        assert_eq!(src.data_size(), 3 * 8 + 3 * 4 + 3 * 4);
        let mut dst = src.without_buffers();
        assert_eq!(dst.nzval, 0);
        dst.allocate(0).unwrap();
        unsafe { dst.copy_from(&src) };
        let v = unsafe { std::slice::from_raw_parts(dst.nzval as *const f64, 3) };
        let c = unsafe { std::slice::from_raw_parts(dst.colind, 3) };
        let r = unsafe { std::slice::from_raw_parts(dst.rowptr, 3) };
        assert_eq!((v, c, r), (&vals[..], &cols[..], &rows[..]));
        assert_ne!(dst.nzval, src.nzval);
        dst.free(0);
        assert!(dst.colind.is_null());
    }
}
