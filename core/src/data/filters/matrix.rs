//! Matrix filters. A matrix is `ny` columns of `nx` elements, `ld` apart: "block" cuts
//! along x (each part keeps every column, fewer rows), "vertical block" along y.

use super::dense::apply;
use crate::data::interfaces::{MatrixInterface, VariableInterface, VectorInterface};
use crate::error::Result;

/// `starpu_matrix_filter_block`: split along x.
pub fn block(p: &MatrixInterface, c: &mut MatrixInterface, id: usize, nparts: usize) -> Result<()> {
    apply(p, c, |d| d.split(0, id, nparts, 0))
}

/// `starpu_matrix_filter_block_shadow`: split along x with `shadow` extra elements on
/// each side (read-only use).
pub fn block_shadow(
    p: &MatrixInterface,
    c: &mut MatrixInterface,
    id: usize,
    nparts: usize,
    shadow: u32,
) -> Result<()> {
    apply(p, c, |d| d.split(0, id, nparts, shadow))
}

/// `starpu_matrix_filter_vertical_block`: split along y.
pub fn vertical_block(
    p: &MatrixInterface,
    c: &mut MatrixInterface,
    id: usize,
    nparts: usize,
) -> Result<()> {
    apply(p, c, |d| d.split(1, id, nparts, 0))
}

/// `starpu_matrix_filter_vertical_block_shadow`: split along y with `shadow` extra
/// columns on each side (read-only use).
pub fn vertical_block_shadow(
    p: &MatrixInterface,
    c: &mut MatrixInterface,
    id: usize,
    nparts: usize,
    shadow: u32,
) -> Result<()> {
    apply(p, c, |d| d.split(1, id, nparts, shadow))
}

/// `starpu_matrix_filter_pick_vector_y`: child `id` is column `first + id`, as a vector.
pub fn pick_vector_y(
    p: &MatrixInterface,
    c: &mut VectorInterface,
    id: usize,
    first: u64,
) -> Result<()> {
    apply(p, c, |d| d.pick(1, first + id as u64))
}

/// `starpu_matrix_filter_pick_variable`: the element at `pos` = (x, y), for every child.
pub fn pick_variable(p: &MatrixInterface, c: &mut VariableInterface, pos: [u32; 2]) -> Result<()> {
    apply(p, c, |d| d.element(&pos))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_keep_the_leading_dimension() {
        let p = MatrixInterface::new(0x1000, 10, 8, 6, 4);
        let mut c = MatrixInterface::default();
        block(&p, &mut c, 1, 2).unwrap();
        assert_eq!((c.nx, c.ny, c.ld, c.ptr), (4, 6, 10, 0x1000 + 16));
        vertical_block(&p, &mut c, 1, 3).unwrap();
        assert_eq!((c.nx, c.ny, c.ptr), (8, 2, 0x1000 + 2 * 10 * 4));
        vertical_block_shadow(&p, &mut c, 0, 2, 1).unwrap();
        assert_eq!((c.ny, c.ptr), (4, 0x1000));
        let mut v = VectorInterface::default();
        pick_vector_y(&p, &mut v, 1, 2).unwrap();
        assert_eq!((v.nx, v.ptr), (8, 0x1000 + 3 * 40));
        assert!(pick_vector_y(&p, &mut v, 4, 2).is_err());
        let mut x = VariableInterface::default();
        pick_variable(&p, &mut x, [3, 5]).unwrap();
        assert_eq!(x.ptr, 0x1000 + (3 + 5 * 10) * 4);
        assert!(pick_variable(&p, &mut x, [8, 0]).is_err());
    }
}
