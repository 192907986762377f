//! Tensor (4-D) filters: along x, y ("vertical"), z ("depth") or t ("time"), and picks of
//! one block or one element.

use super::dense::apply;
use crate::data::interfaces::{BlockInterface, TensorInterface, VariableInterface};
use crate::error::Result;

/// Split along `axis` (0: x, 1: y, 2: z, 3: t), with `shadow` extra elements on each side
/// (`starpu_tensor_filter_block`, `_vertical_block`, `_depth_block`, `_time_block` and
/// their `_shadow` forms).
pub fn split(
    p: &TensorInterface,
    c: &mut TensorInterface,
    axis: usize,
    id: usize,
    nparts: usize,
    shadow: u32,
) -> Result<()> {
    apply(p, c, |d| d.split(axis, id, nparts, shadow))
}

/// `starpu_tensor_filter_pick_block_t` (axis 3), `_z` (axis 2), `_y` (axis 1): child `id`
/// is the block at index `first + id` of that axis, the other axes kept in order.
pub fn pick_block(
    p: &TensorInterface,
    c: &mut BlockInterface,
    axis: usize,
    id: usize,
    first: u64,
) -> Result<()> {
    apply(p, c, |d| d.pick(axis, first + id as u64))
}

/// `starpu_tensor_filter_pick_variable`: the element at `pos` = (x, y, z, t).
pub fn pick_variable(p: &TensorInterface, c: &mut VariableInterface, pos: [u32; 4]) -> Result<()> {
    apply(p, c, |d| d.element(&pos))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_blocks_and_picks() {
        // 2 x 3 x 4 x 5, packed.
        let p = TensorInterface::new(0x1000, [2, 6, 24], [2, 3, 4, 5], 4);
        let mut c = TensorInterface::default();
        split(&p, &mut c, 3, 1, 2, 0).unwrap();
        assert_eq!((c.nt, c.ptr, c.ldt), (2, 0x1000 + 3 * 24 * 4, 24));
        split(&p, &mut c, 2, 0, 2, 1).unwrap();
        assert_eq!(c.nz, 3);
        let mut b = BlockInterface::default();
        pick_block(&p, &mut b, 2, 1, 2).unwrap();
        assert_eq!((b.nx, b.ny, b.nz, b.ldy, b.ldz), (2, 3, 5, 2, 24));
        assert_eq!(b.ptr, 0x1000 + 3 * 6 * 4);
        pick_block(&p, &mut b, 1, 0, 1).unwrap();
        assert_eq!((b.ny, b.nz, b.ldy, b.ldz), (4, 5, 6, 24));
        let mut v = VariableInterface::default();
        pick_variable(&p, &mut v, [1, 1, 1, 1]).unwrap();
        assert_eq!(v.ptr, 0x1000 + (1 + 2 + 6 + 24) * 4);
        assert!(pick_variable(&p, &mut v, [0, 0, 0, 5]).is_err());
    }
}
