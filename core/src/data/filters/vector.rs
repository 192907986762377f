//! Vector filters.

use super::dense::{apply, AsDense};
use crate::data::interfaces::{VariableInterface, VectorInterface};
use crate::error::{Error, Result};

/// A sub-vector of `parent`: `nx` elements from index `first`.
fn slice(parent: &VectorInterface, child: &mut VectorInterface, first: u32, nx: u32) {
    let bytes = first as usize * parent.elemsize;
    let shift = |p: usize| if p == 0 { 0 } else { p + bytes };
    *child = VectorInterface {
        ptr: shift(parent.ptr),
        offset: parent.offset + bytes,
        nx,
        slice_base: parent.slice_base + first,
        allocsize: nx as usize * parent.elemsize,
        ..*parent
    };
}

/// `starpu_vector_filter_block`: `nparts` contiguous, nearly equal parts.
pub fn block(p: &VectorInterface, c: &mut VectorInterface, id: usize, nparts: usize) -> Result<()> {
    block_shadow(p, c, id, nparts, 0)
}

/// `starpu_vector_filter_block_shadow`: like `block`, each part extended by `shadow`
/// elements on both sides (the parent holds the outer shadows). Read-only use: nothing
/// keeps overlapping parts coherent.
pub fn block_shadow(
    p: &VectorInterface,
    c: &mut VectorInterface,
    id: usize,
    nparts: usize,
    shadow: u32,
) -> Result<()> {
    let part = p.to_dense().split(0, id, nparts, shadow)?;
    let first = (part.offset - p.offset) / p.elemsize.max(1);
    slice(p, c, first as u32, part.dims[0]);
    Ok(())
}

/// `starpu_vector_filter_list` / `_list_long`: part `id` has `lengths[id]` elements.
pub fn list(
    p: &VectorInterface,
    c: &mut VectorInterface,
    id: usize,
    lengths: &[u32],
) -> Result<()> {
    let total: u64 = lengths.iter().map(|&l| l as u64).sum();
    if total > p.nx as u64 {
        return Err(Error::invalid(format!(
            "the part lengths add up to {total}, the vector has {} elements",
            p.nx
        )));
    }
    let len = *lengths.get(id).ok_or_else(|| {
        Error::invalid(format!("no length for part {id} ({} given)", lengths.len()))
    })?;
    let first: u32 = lengths[..id].iter().sum();
    slice(p, c, first, len);
    Ok(())
}

/// `starpu_vector_filter_divide_in_2`: the first `len_first` elements, then the rest.
pub fn divide_in_2(
    p: &VectorInterface,
    c: &mut VectorInterface,
    id: usize,
    len_first: u32,
) -> Result<()> {
    if len_first >= p.nx {
        return Err(Error::invalid(format!(
            "the first part ({len_first} elements) must be shorter than the vector ({})",
            p.nx
        )));
    }
    match id {
        0 => slice(p, c, 0, len_first),
        1 => slice(p, c, len_first, p.nx - len_first),
        _ => {
            return Err(Error::invalid(format!(
                "divide_in_2 makes 2 parts, not part {id}"
            )))
        }
    }
    Ok(())
}

/// `starpu_vector_filter_pick_variable`: child `id` is element `first + id`.
pub fn pick_variable(
    p: &VectorInterface,
    c: &mut VariableInterface,
    id: usize,
    first: u64,
) -> Result<()> {
    apply(p, c, |d| d.pick(0, first + id as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_point_into_the_parent() {
        let p = VectorInterface::new(1000, 10, 8);
        let mut c = VectorInterface::default();
        block(&p, &mut c, 1, 3).unwrap();
        assert_eq!(
            (c.nx, c.ptr, c.offset, c.slice_base),
            (3, 1000 + 4 * 8, 32, 4)
        );
        block_shadow(&p, &mut c, 0, 2, 1).unwrap();
        assert_eq!((c.nx, c.ptr), (6, 1000));
        block_shadow(&p, &mut c, 1, 2, 1).unwrap();
        assert_eq!((c.nx, c.ptr), (6, 1000 + 4 * 8));
        list(&p, &mut c, 2, &[2, 3, 5]).unwrap();
        assert_eq!((c.nx, c.ptr), (5, 1000 + 40));
        divide_in_2(&p, &mut c, 1, 4).unwrap();
        assert_eq!((c.nx, c.ptr), (6, 1032));
        let mut v = VariableInterface::default();
        pick_variable(&p, &mut v, 2, 3).unwrap();
        assert_eq!((v.ptr, v.elemsize), (1000 + 40, 8));
    }

    #[test]
    fn impossible_cuts_are_errors() {
        let p = VectorInterface::new(1000, 4, 8);
        let mut c = VectorInterface::default();
        assert!(block(&p, &mut c, 0, 5).is_err());
        assert!(block_shadow(&p, &mut c, 0, 1, 3).is_err());
        assert!(list(&p, &mut c, 0, &[3, 2]).is_err());
        assert!(divide_in_2(&p, &mut c, 0, 4).is_err());
        let mut v = VariableInterface::default();
        assert!(pick_variable(&p, &mut v, 1, 3).is_err());
    }
}
