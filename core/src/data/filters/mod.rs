//! The standard filters: how StarPU's built-in `starpu_*_filter_*` functions cut vectors,
//! matrices, blocks, tensors, n-dimension arrays and sparse matrices. Each takes the
//! parent's description and fills one child's, or says why it cannot (too many parts, a
//! position outside the data...).
//!
//! The dense ones are one generic operation each (`dense.rs`): cut along an axis, or pick
//! one index of an axis.

pub mod block;
pub(crate) mod dense;
pub mod matrix;
pub mod ndim;
pub mod sparse;
pub mod tensor;
pub mod vector;

/// Size and first index of part `id` when `n` elements are split in `nparts` parts as
/// evenly as possible, the first `n % nparts` parts getting one more element (StarPU's
/// `starpu_filter_nparts_compute_chunk_size_and_offset`).
pub fn chunk(n: u32, nparts: usize, id: usize) -> (u32, u32) {
    let nparts = nparts.max(1) as u32;
    let id = id as u32;
    let base = n / nparts;
    let rem = n % nparts;
    let size = base + u32::from(id < rem);
    let first = id * base + id.min(rem);
    (size, first)
}

/// Moves a child's pointers `bytes` further into the parent's buffer (pointers of an
/// unallocated replica stay null).
fn shift(ptr: usize, bytes: usize) -> usize {
    if ptr == 0 {
        0
    } else {
        ptr + bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_cover_everything_once() {
        assert_eq!(chunk(10, 3, 0), (4, 0));
        assert_eq!(chunk(10, 3, 1), (3, 4));
        assert_eq!(chunk(10, 3, 2), (3, 7));
        let total: u32 = (0..7).map(|i| chunk(100, 7, i).0).sum();
        assert_eq!(total, 100);
    }
}
