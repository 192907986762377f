//! N-dimension array filters: cut along one dimension (keeping an ndim array, or turning
//! it into the fixed-dimension interface of the same rank), pick one index of a dimension
//! (one rank less), or pick one element.

use super::dense::{apply, AsDense};
use crate::data::interfaces::{
    BlockInterface, MatrixInterface, NdimInterface, TensorInterface, VariableInterface,
    VectorInterface,
};
use crate::error::{Error, Result};

/// The dimension a filter works along: `dim` for arrays of 2 dimensions or more, 0 for a
/// 1-dimension array whatever `dim` says (StarPU reads `filter_arg` only when `ndim > 1`).
fn axis(p: &NdimInterface, dim: usize) -> Result<usize> {
    let ndim = p.ndim;
    if ndim == 0 {
        return Err(Error::invalid("a 0-dimension array cannot be cut"));
    }
    let dim = if ndim > 1 { dim } else { 0 };
    if dim >= ndim {
        return Err(Error::invalid(format!(
            "dimension {dim} does not exist in a {ndim}-dimension array"
        )));
    }
    Ok(dim)
}

fn expect_rank(p: &NdimInterface, rank: usize) -> Result<()> {
    if p.ndim != rank {
        return Err(Error::invalid(format!(
            "this filter applies to {rank}-dimension arrays, not {}-dimension ones",
            p.ndim
        )));
    }
    Ok(())
}

fn cut<C: AsDense>(
    p: &NdimInterface,
    c: &mut C,
    dim: usize,
    id: usize,
    nparts: usize,
    shadow: u32,
) -> Result<()> {
    let axis = axis(p, dim)?;
    apply(p, c, |d| d.split(axis, id, nparts, shadow))
}

fn pick<C: AsDense>(p: &NdimInterface, c: &mut C, dim: usize, index: u64) -> Result<()> {
    let axis = axis(p, dim)?;
    apply(p, c, |d| d.pick(axis, index))
}

/// `starpu_ndim_filter_block` / `_block_shadow`: split along `dim`.
pub fn block(
    p: &NdimInterface,
    c: &mut NdimInterface,
    dim: usize,
    id: usize,
    nparts: usize,
    shadow: u32,
) -> Result<()> {
    cut(p, c, dim, id, nparts, shadow)
}

/// `starpu_ndim_filter_to_tensor`: a 4-dimension array split along `dim` into tensors.
pub fn to_tensor(
    p: &NdimInterface,
    c: &mut TensorInterface,
    dim: usize,
    id: usize,
    nparts: usize,
) -> Result<()> {
    expect_rank(p, 4)?;
    cut(p, c, dim, id, nparts, 0)
}

/// `starpu_ndim_filter_to_block`: a 3-dimension array split along `dim` into blocks.
pub fn to_block(
    p: &NdimInterface,
    c: &mut BlockInterface,
    dim: usize,
    id: usize,
    nparts: usize,
) -> Result<()> {
    expect_rank(p, 3)?;
    cut(p, c, dim, id, nparts, 0)
}

/// `starpu_ndim_filter_to_matrix`: a 2-dimension array split along `dim` into matrices.
pub fn to_matrix(
    p: &NdimInterface,
    c: &mut MatrixInterface,
    dim: usize,
    id: usize,
    nparts: usize,
) -> Result<()> {
    expect_rank(p, 2)?;
    cut(p, c, dim, id, nparts, 0)
}

/// `starpu_ndim_filter_to_vector`: a 1-dimension array split into vectors.
pub fn to_vector(
    p: &NdimInterface,
    c: &mut VectorInterface,
    id: usize,
    nparts: usize,
) -> Result<()> {
    expect_rank(p, 1)?;
    cut(p, c, 0, id, nparts, 0)
}

/// `starpu_ndim_filter_to_variable`: a 0-dimension array seen as a variable (one child).
pub fn to_variable(
    p: &NdimInterface,
    c: &mut VariableInterface,
    id: usize,
    nparts: usize,
) -> Result<()> {
    expect_rank(p, 0)?;
    if id != 0 || nparts != 1 {
        return Err(Error::invalid(
            "a 0-dimension array makes exactly one variable",
        ));
    }
    apply(p, c, |d| Ok(d.clone()))
}

/// `starpu_ndim_filter_pick_ndim`: child `id` is the (n-1)-dimension array at index
/// `first + id` of `dim`.
pub fn pick_ndim(
    p: &NdimInterface,
    c: &mut NdimInterface,
    dim: usize,
    id: usize,
    first: u64,
) -> Result<()> {
    pick(p, c, dim, first + id as u64)
}

/// `starpu_ndim_filter_5d_pick_tensor`.
pub fn pick_tensor(
    p: &NdimInterface,
    c: &mut TensorInterface,
    dim: usize,
    id: usize,
    first: u64,
) -> Result<()> {
    expect_rank(p, 5)?;
    pick(p, c, dim, first + id as u64)
}

/// `starpu_ndim_filter_4d_pick_block`.
pub fn pick_block(
    p: &NdimInterface,
    c: &mut BlockInterface,
    dim: usize,
    id: usize,
    first: u64,
) -> Result<()> {
    expect_rank(p, 4)?;
    pick(p, c, dim, first + id as u64)
}

/// `starpu_ndim_filter_3d_pick_matrix`.
pub fn pick_matrix(
    p: &NdimInterface,
    c: &mut MatrixInterface,
    dim: usize,
    id: usize,
    first: u64,
) -> Result<()> {
    expect_rank(p, 3)?;
    pick(p, c, dim, first + id as u64)
}

/// `starpu_ndim_filter_2d_pick_vector`.
pub fn pick_vector(
    p: &NdimInterface,
    c: &mut VectorInterface,
    dim: usize,
    id: usize,
    first: u64,
) -> Result<()> {
    expect_rank(p, 2)?;
    pick(p, c, dim, first + id as u64)
}

/// `starpu_ndim_filter_1d_pick_variable`: child `id` is element `first + id`.
pub fn pick_variable_1d(
    p: &NdimInterface,
    c: &mut VariableInterface,
    id: usize,
    first: u64,
) -> Result<()> {
    expect_rank(p, 1)?;
    pick(p, c, 0, first + id as u64)
}

/// `starpu_ndim_filter_pick_variable`: the element at `pos` (one coordinate per
/// dimension).
pub fn pick_variable(p: &NdimInterface, c: &mut VariableInterface, pos: &[u32]) -> Result<()> {
    apply(p, c, |d| d.element(pos))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ndim_cuts_and_picks() {
        // 4 x 3 x 2, packed.
        let p = NdimInterface::new(0x1000, &[4, 3, 2], &[1, 4, 12], 8);
        let mut c = NdimInterface::new(0, &[], &[], 8);
        block(&p, &mut c, 1, 2, 3, 0).unwrap();
        assert_eq!((c.dims(), c.strides()), (&[4, 1, 2][..], &[1, 4, 12][..]));
        assert_eq!(c.ptr, 0x1000 + 2 * 4 * 8);
        assert_ne!(c.nn, p.nn, "the child has arrays of its own");
        let mut b = BlockInterface::default();
        to_block(&p, &mut b, 2, 1, 2).unwrap();
        assert_eq!((b.nz, b.ldz, b.ptr), (1, 12, 0x1000 + 12 * 8));
        let mut m = MatrixInterface::default();
        pick_matrix(&p, &mut m, 2, 1, 0).unwrap();
        assert_eq!((m.nx, m.ny, m.ld, m.ptr), (4, 3, 4, 0x1000 + 12 * 8));
        // Along x, what is left has no contiguous x: not a matrix.
        assert!(pick_matrix(&p, &mut m, 0, 1, 2).is_err());
        pick_ndim(&p, &mut c, 2, 0, 1).unwrap();
        assert_eq!(c.dims(), &[4, 3]);
        let mut v = VariableInterface::default();
        pick_variable(&p, &mut v, &[3, 2, 1]).unwrap();
        assert_eq!(v.ptr, 0x1000 + (3 + 8 + 12) * 8);
        assert!(
            to_matrix(&p, &mut m, 0, 0, 2).is_err(),
            "rank 3 is not a matrix"
        );
        assert!(block(&p, &mut c, 3, 0, 2, 0).is_err(), "no dimension 3");
        let line = NdimInterface::new(0x1000, &[6], &[1], 4);
        let mut vec = VectorInterface::default();
        to_vector(&line, &mut vec, 1, 2).unwrap();
        assert_eq!((vec.nx, vec.ptr), (3, 0x1000 + 12));
        // A 1-dimension array is cut along its only dimension, whatever `dim` says.
        block(&line, &mut c, 7, 0, 3, 0).unwrap();
        assert_eq!(c.dims(), &[2]);
    }
}
