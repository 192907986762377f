//! What the sparse interfaces (CSR, BCSR, COO) share: three arrays (values and two index
//! arrays) allocated, freed and copied together.

use crate::error::Result;
use crate::memory::{Copier, Loc, Node};

/// A sparse description seen as its three arrays.
pub(super) trait SparseArrays {
    /// Addresses of the three arrays.
    fn arrays(&self) -> [usize; 3];
    /// Sizes in bytes of the three arrays.
    fn array_bytes(&self) -> [usize; 3];
    fn set_arrays(&mut self, arrays: [usize; 3]);
}

/// Points `d` at three fresh arrays on `node`.
/// (On a device the arrays are the device's buffers, as in StarPU.)
pub(super) fn allocate<S: SparseArrays>(d: &mut S, node: &Node) -> Result<()> {
    let sizes = d.array_bytes();
    let mut got = [0usize; 3];
    for (i, bytes) in sizes.into_iter().enumerate() {
        match node.alloc(bytes) {
            Ok(p) => got[i] = p,
            Err(e) => {
                for (p, b) in got.into_iter().zip(sizes) {
                    node.free(p, b);
                }
                return Err(e);
            }
        }
    }
    d.set_arrays(got);
    Ok(())
}

/// Frees the three arrays and forgets them.
pub(super) fn free<S: SparseArrays>(d: &mut S, node: &Node) {
    for (p, b) in d.arrays().into_iter().zip(d.array_bytes()) {
        node.free(p, b);
    }
    d.set_arrays([0; 3]);
}

/// Copies the three arrays of `src` into those of `dst`.
pub(super) fn copy<S: SparseArrays>(src: &S, dst: &S, c: &mut dyn Copier) -> Result<()> {
    for ((s, d), bytes) in src
        .arrays()
        .into_iter()
        .zip(dst.arrays())
        .zip(dst.array_bytes())
    {
        c.copy(Loc::ptr(s), Loc::ptr(d), bytes)?;
    }
    Ok(())
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
        let mem = crate::memory::Memory::ram_only();
        let ram = mem.node(crate::memory::MAIN_RAM).unwrap();
        dst.allocate(ram).unwrap();
        unsafe { super::super::copy_in_ram(&src, &dst) }.unwrap();
        let v = unsafe { std::slice::from_raw_parts(dst.nzval as *const f64, 3) };
        let c = unsafe { std::slice::from_raw_parts(dst.colind, 3) };
        let r = unsafe { std::slice::from_raw_parts(dst.rowptr, 3) };
        assert_eq!((v, c, r), (&vals[..], &cols[..], &rows[..]));
        assert_ne!(dst.nzval, src.nzval);
        dst.free(ram);
        assert!(dst.colind.is_null());
    }
}
