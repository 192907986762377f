//! Sparse matrix filters: CSR and BCSR cut into bands of consecutive rows (the children
//! keep pointing into the parent's three arrays), and BCSR cut into its dense blocks.

use super::chunk;
use crate::data::interfaces::{BcsrInterface, CsrInterface, Interface, MatrixInterface};
use crate::error::{Error, Result};

/// Rows `first..first + n` of a row-pointer array of `nrow + 1` entries, as indexes into
/// the value arrays (row pointers count from `firstentry`).
fn band(
    rowptr: *const u32,
    nrow: u32,
    firstentry: u32,
    id: usize,
    nparts: usize,
) -> Result<(u32, u32, u32, u32)> {
    if nparts == 0 || nparts > nrow as usize {
        return Err(Error::invalid(format!(
            "cannot split {nrow} rows in {nparts} parts"
        )));
    }
    if rowptr.is_null() {
        return Err(Error::invalid("the sparse matrix has no row pointers here"));
    }
    let (n, first) = chunk(nrow, nparts, id);
    // SAFETY: a CSR/BCSR description's rowptr holds nrow + 1 entries.
    let (start, end) = unsafe {
        (
            *rowptr.add(first as usize),
            *rowptr.add((first + n) as usize),
        )
    };
    let (start, end) = (start.checked_sub(firstentry), end.checked_sub(firstentry));
    match (start, end) {
        (Some(s), Some(e)) if s <= e => Ok((first, n, s, e)),
        _ => Err(Error::invalid(
            "the row pointers are not increasing from firstentry",
        )),
    }
}

/// `starpu_csr_filter_vertical_block`: child `id` is a band of consecutive rows.
pub fn csr_vertical_block(
    p: &CsrInterface,
    c: &mut CsrInterface,
    id: usize,
    nparts: usize,
) -> Result<()> {
    let (first, nrow, start, end) = band(p.rowptr, p.nrow, p.firstentry, id, nparts)?;
    // SAFETY (pointer arithmetic only): the band lies inside the parent's arrays.
    *c = CsrInterface {
        id: CsrInterface::ID,
        nnz: end - start,
        nrow,
        nzval: if p.nzval == 0 {
            0
        } else {
            p.nzval + start as usize * p.elemsize
        },
        colind: p.colind.wrapping_add(start as usize),
        rowptr: p.rowptr.wrapping_add(first as usize),
        // As StarPU: the band's row pointers keep the parent's numbering, and its
        // firstentry is where the band starts in the parent's value array.
        firstentry: start,
        elemsize: p.elemsize,
    };
    Ok(())
}

/// `starpu_bcsr_filter_vertical_block`: child `id` is a band of consecutive block rows.
pub fn bcsr_vertical_block(
    p: &BcsrInterface,
    c: &mut BcsrInterface,
    id: usize,
    nparts: usize,
) -> Result<()> {
    let (first, nrow, start, end) = band(p.rowptr, p.nrow, p.firstentry, id, nparts)?;
    let block = p.r as usize * p.c as usize * p.elemsize;
    *c = BcsrInterface {
        nnz: end - start,
        nrow,
        nzval: if p.nzval == 0 {
            0
        } else {
            p.nzval + start as usize * block
        },
        colind: p.colind.wrapping_add(start as usize),
        rowptr: p.rowptr.wrapping_add(first as usize),
        firstentry: start + p.firstentry,
        ..*p
    };
    Ok(())
}

/// `starpu_bcsr_filter_canonical_block`: child `id` is the `id`-th stored block, an
/// `r` x `c` dense matrix (`c` contiguous elements per line).
pub fn bcsr_canonical_block(p: &BcsrInterface, c: &mut MatrixInterface, id: usize) -> Result<()> {
    if id >= p.nnz as usize {
        return Err(Error::invalid(format!(
            "the matrix stores {} blocks, there is no block {id}",
            p.nnz
        )));
    }
    let bytes = id * p.r as usize * p.c as usize * p.elemsize;
    let ptr = if p.nzval == 0 { 0 } else { p.nzval + bytes };
    *c = MatrixInterface::new(ptr, p.c, p.c, p.r, p.elemsize);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csr_bands_share_the_parent_arrays() {
        // 4 rows: [a b . .] [. c . .] [. . . .] [d . e f]
        let mut vals = [1.0f64, 2.0, 3.0, 4.0, 5.0, 6.0];
        let mut cols = [0u32, 1, 1, 0, 2, 3];
        let mut rows = [0u32, 2, 3, 3, 6];
        let p = CsrInterface::new(
            6,
            4,
            vals.as_mut_ptr() as usize,
            cols.as_mut_ptr(),
            rows.as_mut_ptr(),
            0,
            8,
        );
        let mut c = p;
        csr_vertical_block(&p, &mut c, 1, 2).unwrap();
        assert_eq!((c.nrow, c.nnz, c.firstentry), (2, 3, 3));
        assert_eq!(c.nzval, vals.as_ptr() as usize + 3 * 8);
        // Row pointers keep counting from the parent: 3, 3, 6 minus firstentry 3.
        let r = unsafe { std::slice::from_raw_parts(c.rowptr, 3) };
        assert_eq!(r, &[3, 3, 6]);
        assert!(csr_vertical_block(&p, &mut c, 0, 5).is_err());
    }

    #[test]
    fn bcsr_blocks_are_dense_matrices() {
        let mut vals = [0u8; 3 * 2 * 2 * 4];
        let mut cols = [0u32, 1, 1];
        let mut rows = [0u32, 2, 3];
        let p = BcsrInterface::new(
            3,
            2,
            vals.as_mut_ptr() as usize,
            cols.as_mut_ptr(),
            rows.as_mut_ptr(),
            0,
            2,
            2,
            4,
        );
        let mut m = MatrixInterface::default();
        bcsr_canonical_block(&p, &mut m, 2).unwrap();
        assert_eq!((m.nx, m.ny, m.ld), (2, 2, 2));
        assert_eq!(m.ptr, vals.as_ptr() as usize + 2 * 16);
        assert!(bcsr_canonical_block(&p, &mut m, 3).is_err());
        let mut b = p;
        bcsr_vertical_block(&p, &mut b, 1, 2).unwrap();
        assert_eq!((b.nrow, b.nnz, b.firstentry), (1, 1, 2));
        assert_eq!(b.nzval, vals.as_ptr() as usize + 2 * 16);
    }
}
