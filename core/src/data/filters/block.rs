//! Block (3-D) filters: along x ("block"), y ("vertical block") or z ("depth block"),
//! and picks of one plane or one element.

use super::dense::apply;
use crate::data::interfaces::{BlockInterface, MatrixInterface, VariableInterface};
use crate::error::Result;

/// Split along `axis` (0: x, 1: y, 2: z), with `shadow` extra elements on each side.
pub fn split(
    p: &BlockInterface,
    c: &mut BlockInterface,
    axis: usize,
    id: usize,
    nparts: usize,
    shadow: u32,
) -> Result<()> {
    apply(p, c, |d| d.split(axis, id, nparts, shadow))
}

/// `starpu_block_filter_block`: split along x.
pub fn block(p: &BlockInterface, c: &mut BlockInterface, id: usize, nparts: usize) -> Result<()> {
    split(p, c, 0, id, nparts, 0)
}

/// `starpu_block_filter_vertical_block`: split along y.
pub fn vertical_block(
    p: &BlockInterface,
    c: &mut BlockInterface,
    id: usize,
    nparts: usize,
) -> Result<()> {
    split(p, c, 1, id, nparts, 0)
}

/// `starpu_block_filter_depth_block`: split along z.
pub fn depth_block(
    p: &BlockInterface,
    c: &mut BlockInterface,
    id: usize,
    nparts: usize,
) -> Result<()> {
    split(p, c, 2, id, nparts, 0)
}

/// `starpu_block_filter_pick_matrix_z`: child `id` is the x-y plane at z = `first + id`.
pub fn pick_matrix_z(
    p: &BlockInterface,
    c: &mut MatrixInterface,
    id: usize,
    first: u64,
) -> Result<()> {
    apply(p, c, |d| d.pick(2, first + id as u64))
}

/// `starpu_block_filter_pick_matrix_y`: child `id` is the x-z plane at y = `first + id`.
pub fn pick_matrix_y(
    p: &BlockInterface,
    c: &mut MatrixInterface,
    id: usize,
    first: u64,
) -> Result<()> {
    apply(p, c, |d| d.pick(1, first + id as u64))
}

/// `starpu_block_filter_pick_variable`: the element at `pos` = (x, y, z).
pub fn pick_variable(p: &BlockInterface, c: &mut VariableInterface, pos: [u32; 3]) -> Result<()> {
    apply(p, c, |d| d.element(&pos))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_blocks_move_by_planes() {
        let p = BlockInterface::new(0x1000, 4, 12, 4, 3, 6, 8);
        let mut c = BlockInterface::default();
        depth_block(&p, &mut c, 1, 3).unwrap();
        assert_eq!((c.nx, c.ny, c.nz, c.ptr), (4, 3, 2, 0x1000 + 2 * 12 * 8));
        vertical_block(&p, &mut c, 2, 3).unwrap();
        assert_eq!((c.ny, c.ptr), (1, 0x1000 + 2 * 4 * 8));
        block(&p, &mut c, 1, 2).unwrap();
        assert_eq!((c.nx, c.ptr), (2, 0x1000 + 16));
        let mut m = MatrixInterface::default();
        pick_matrix_z(&p, &mut m, 0, 5).unwrap();
        assert_eq!((m.nx, m.ny, m.ld, m.ptr), (4, 3, 4, 0x1000 + 5 * 12 * 8));
        pick_matrix_y(&p, &mut m, 1, 1).unwrap();
        assert_eq!((m.nx, m.ny, m.ld, m.ptr), (4, 6, 12, 0x1000 + 2 * 4 * 8));
        assert!(pick_matrix_z(&p, &mut m, 1, 5).is_err());
        let mut v = VariableInterface::default();
        pick_variable(&p, &mut v, [1, 2, 3]).unwrap();
        assert_eq!(v.ptr, 0x1000 + (1 + 2 * 4 + 3 * 12) * 8);
    }
}
