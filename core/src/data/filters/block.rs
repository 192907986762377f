//! Block (3-D) filters: along x ("block"), y ("vertical block") or z ("depth block").

use super::{chunk, shift};
use crate::data::interfaces::{BlockInterface, Interface, MatrixInterface};

#[derive(Clone, Copy)]
enum Axis {
    X,
    Y,
    Z,
}

fn sub(parent: &BlockInterface, child: &mut BlockInterface, axis: Axis, first: u32, len: u32) {
    let (stride, dims) = match axis {
        Axis::X => (1, [len, parent.ny, parent.nz]),
        Axis::Y => (parent.ldy as usize, [parent.nx, len, parent.nz]),
        Axis::Z => (parent.ldz as usize, [parent.nx, parent.ny, len]),
    };
    let bytes = first as usize * stride * parent.elemsize;
    *child = BlockInterface {
        id: BlockInterface::ID,
        ptr: shift(parent.ptr, bytes),
        dev_handle: parent.dev_handle,
        offset: parent.offset + bytes,
        nx: dims[0],
        ny: dims[1],
        nz: dims[2],
        ldy: parent.ldy,
        ldz: parent.ldz,
        elemsize: parent.elemsize,
    };
}

fn extent(parent: &BlockInterface, axis: Axis) -> u32 {
    match axis {
        Axis::X => parent.nx,
        Axis::Y => parent.ny,
        Axis::Z => parent.nz,
    }
}

fn split(
    parent: &BlockInterface,
    child: &mut BlockInterface,
    axis: Axis,
    id: usize,
    nparts: usize,
    shadow: u32,
) {
    let (len, first) = chunk(extent(parent, axis).saturating_sub(2 * shadow), nparts, id);
    sub(parent, child, axis, first, len + 2 * shadow);
}

/// `starpu_block_filter_block`: split along x.
pub fn block(p: &BlockInterface, c: &mut BlockInterface, id: usize, nparts: usize) {
    split(p, c, Axis::X, id, nparts, 0);
}

/// `starpu_block_filter_block_shadow`.
pub fn block_shadow(
    p: &BlockInterface,
    c: &mut BlockInterface,
    id: usize,
    nparts: usize,
    shadow: u32,
) {
    split(p, c, Axis::X, id, nparts, shadow);
}

/// `starpu_block_filter_vertical_block`: split along y.
pub fn vertical_block(p: &BlockInterface, c: &mut BlockInterface, id: usize, nparts: usize) {
    split(p, c, Axis::Y, id, nparts, 0);
}

/// `starpu_block_filter_vertical_block_shadow`.
pub fn vertical_block_shadow(
    p: &BlockInterface,
    c: &mut BlockInterface,
    id: usize,
    nparts: usize,
    shadow: u32,
) {
    split(p, c, Axis::Y, id, nparts, shadow);
}

/// `starpu_block_filter_depth_block`: split along z.
pub fn depth_block(p: &BlockInterface, c: &mut BlockInterface, id: usize, nparts: usize) {
    split(p, c, Axis::Z, id, nparts, 0);
}

/// `starpu_block_filter_depth_block_shadow`.
pub fn depth_block_shadow(
    p: &BlockInterface,
    c: &mut BlockInterface,
    id: usize,
    nparts: usize,
    shadow: u32,
) {
    split(p, c, Axis::Z, id, nparts, shadow);
}

/// `starpu_block_filter_pick_matrix_z`: child `id` is plane z = `first + id`.
pub fn pick_matrix_z(p: &BlockInterface, c: &mut MatrixInterface, id: usize, first: u32) {
    let bytes = (first as usize + id) * p.ldz as usize * p.elemsize;
    *c = MatrixInterface {
        id: MatrixInterface::ID,
        ptr: shift(p.ptr, bytes),
        dev_handle: p.dev_handle,
        offset: p.offset + bytes,
        nx: p.nx,
        ny: p.ny,
        ld: p.ldy,
        elemsize: p.elemsize,
        allocsize: p.nx as usize * p.ny as usize * p.elemsize,
    };
}

/// `starpu_block_filter_pick_matrix_y`: child `id` is the x-z plane at y = `first + id`.
pub fn pick_matrix_y(p: &BlockInterface, c: &mut MatrixInterface, id: usize, first: u32) {
    let bytes = (first as usize + id) * p.ldy as usize * p.elemsize;
    *c = MatrixInterface {
        id: MatrixInterface::ID,
        ptr: shift(p.ptr, bytes),
        dev_handle: p.dev_handle,
        offset: p.offset + bytes,
        nx: p.nx,
        ny: p.nz,
        ld: p.ldz,
        elemsize: p.elemsize,
        allocsize: p.nx as usize * p.nz as usize * p.elemsize,
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_blocks_move_by_planes() {
        let p = BlockInterface::new(0x1000, 4, 12, 4, 3, 6, 8);
        let mut c = BlockInterface::default();
        depth_block(&p, &mut c, 1, 3);
        assert_eq!((c.nx, c.ny, c.nz, c.ptr), (4, 3, 2, 0x1000 + 2 * 12 * 8));
        vertical_block(&p, &mut c, 2, 3);
        assert_eq!((c.ny, c.ptr), (1, 0x1000 + 2 * 4 * 8));
        block(&p, &mut c, 1, 2);
        assert_eq!((c.nx, c.ptr), (2, 0x1000 + 16));
        let mut m = MatrixInterface::default();
        pick_matrix_z(&p, &mut m, 0, 5);
        assert_eq!((m.nx, m.ny, m.ld, m.ptr), (4, 3, 4, 0x1000 + 5 * 12 * 8));
    }
}
