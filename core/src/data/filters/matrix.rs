//! Matrix filters. A matrix is `ny` columns of `nx` elements, `ld` apart: "block" cuts
//! along x (each part keeps every column, fewer rows), "vertical block" along y.

use super::{chunk, shift};
use crate::data::interfaces::{Interface, MatrixInterface, VectorInterface};

fn sub(parent: &MatrixInterface, child: &mut MatrixInterface, x0: u32, nx: u32, y0: u32, ny: u32) {
    let bytes = (x0 as usize + y0 as usize * parent.ld as usize) * parent.elemsize;
    *child = MatrixInterface {
        id: MatrixInterface::ID,
        ptr: shift(parent.ptr, bytes),
        dev_handle: parent.dev_handle,
        offset: parent.offset + bytes,
        nx,
        ny,
        ld: parent.ld,
        elemsize: parent.elemsize,
        allocsize: nx as usize * ny as usize * parent.elemsize,
    };
}

/// `starpu_matrix_filter_block`: split along x.
pub fn block(parent: &MatrixInterface, child: &mut MatrixInterface, id: usize, nparts: usize) {
    let (nx, x0) = chunk(parent.nx, nparts, id);
    sub(parent, child, x0, nx, 0, parent.ny);
}

/// `starpu_matrix_filter_block_shadow`: split along x with `shadow` extra rows each side.
pub fn block_shadow(
    parent: &MatrixInterface,
    child: &mut MatrixInterface,
    id: usize,
    nparts: usize,
    shadow: u32,
) {
    let (nx, x0) = chunk(parent.nx.saturating_sub(2 * shadow), nparts, id);
    sub(parent, child, x0, nx + 2 * shadow, 0, parent.ny);
}

/// `starpu_matrix_filter_vertical_block`: split along y.
pub fn vertical_block(
    parent: &MatrixInterface,
    child: &mut MatrixInterface,
    id: usize,
    nparts: usize,
) {
    let (ny, y0) = chunk(parent.ny, nparts, id);
    sub(parent, child, 0, parent.nx, y0, ny);
}

/// `starpu_matrix_filter_vertical_block_shadow`: split along y with `shadow` extra columns.
pub fn vertical_block_shadow(
    parent: &MatrixInterface,
    child: &mut MatrixInterface,
    id: usize,
    nparts: usize,
    shadow: u32,
) {
    let (ny, y0) = chunk(parent.ny.saturating_sub(2 * shadow), nparts, id);
    sub(parent, child, 0, parent.nx, y0, ny + 2 * shadow);
}

/// `starpu_matrix_filter_pick_vector_y`: child `id` is column `first + id`, as a vector.
pub fn pick_vector_y(parent: &MatrixInterface, child: &mut VectorInterface, id: usize, first: u32) {
    let y = first as usize + id;
    let bytes = y * parent.ld as usize * parent.elemsize;
    *child = VectorInterface {
        id: VectorInterface::ID,
        ptr: shift(parent.ptr, bytes),
        dev_handle: parent.dev_handle,
        offset: parent.offset + bytes,
        nx: parent.nx,
        elemsize: parent.elemsize,
        slice_base: 0,
        allocsize: parent.nx as usize * parent.elemsize,
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_keep_the_leading_dimension() {
        let p = MatrixInterface::new(0x1000, 10, 8, 6, 4);
        let mut c = MatrixInterface::default();
        block(&p, &mut c, 1, 2);
        assert_eq!((c.nx, c.ny, c.ld, c.ptr), (4, 6, 10, 0x1000 + 16));
        vertical_block(&p, &mut c, 1, 3);
        assert_eq!((c.nx, c.ny, c.ptr), (8, 2, 0x1000 + 2 * 10 * 4));
        let mut v = VectorInterface::default();
        pick_vector_y(&p, &mut v, 1, 2);
        assert_eq!((v.nx, v.ptr), (8, 0x1000 + 3 * 40));
    }
}
