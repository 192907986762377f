//! Vector filters.

use super::{chunk, shift};
use crate::data::interfaces::{Interface, VariableInterface, VectorInterface};

fn slice(parent: &VectorInterface, child: &mut VectorInterface, first: u32, nx: u32) {
    let bytes = first as usize * parent.elemsize;
    *child = VectorInterface {
        id: VectorInterface::ID,
        ptr: shift(parent.ptr, bytes),
        dev_handle: parent.dev_handle,
        offset: parent.offset + bytes,
        nx,
        elemsize: parent.elemsize,
        slice_base: parent.slice_base + first,
        allocsize: nx as usize * parent.elemsize,
    };
}

/// `starpu_vector_filter_block`: `nparts` contiguous, (nearly) equal parts.
pub fn block(parent: &VectorInterface, child: &mut VectorInterface, id: usize, nparts: usize) {
    let (nx, first) = chunk(parent.nx, nparts, id);
    slice(parent, child, first, nx);
}

/// `starpu_vector_filter_block_shadow`: like `block`, each part extended by `shadow`
/// elements on both sides (the parent holds the outer shadows).
pub fn block_shadow(
    parent: &VectorInterface,
    child: &mut VectorInterface,
    id: usize,
    nparts: usize,
    shadow: u32,
) {
    let inner = parent.nx.saturating_sub(2 * shadow);
    let (nx, first) = chunk(inner, nparts, id);
    slice(parent, child, first, nx + 2 * shadow);
}

/// `starpu_vector_filter_list`: part `id` has `lengths[id]` elements.
pub fn list(parent: &VectorInterface, child: &mut VectorInterface, id: usize, lengths: &[u32]) {
    let first: u32 = lengths[..id].iter().sum();
    slice(parent, child, first, lengths[id]);
}

/// `starpu_vector_filter_divide_in_2`: the first `len_first` elements, then the rest.
pub fn divide_in_2(
    parent: &VectorInterface,
    child: &mut VectorInterface,
    id: usize,
    len_first: u32,
) {
    let len_first = len_first.min(parent.nx);
    if id == 0 {
        slice(parent, child, 0, len_first);
    } else {
        slice(parent, child, len_first, parent.nx - len_first);
    }
}

/// `starpu_vector_filter_pick_variable`: child `id` is element `first + id`, as a variable.
pub fn pick_variable(
    parent: &VectorInterface,
    child: &mut VariableInterface,
    id: usize,
    first: u32,
) {
    let bytes = (first as usize + id) * parent.elemsize;
    *child = VariableInterface {
        id: VariableInterface::ID,
        ptr: shift(parent.ptr, bytes),
        dev_handle: parent.dev_handle,
        offset: parent.offset + bytes,
        elemsize: parent.elemsize,
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_cuts_contiguous_parts() {
        let p = VectorInterface::new(1000, 10, 8);
        let mut c = VectorInterface::default();
        block(&p, &mut c, 1, 3);
        assert_eq!((c.nx, c.ptr, c.offset), (3, 1000 + 4 * 8, 32));
        block_shadow(&p, &mut c, 0, 2, 1);
        assert_eq!((c.nx, c.ptr), (6, 1000));
        list(&p, &mut c, 2, &[2, 3, 5]);
        assert_eq!((c.nx, c.ptr), (5, 1000 + 40));
        divide_in_2(&p, &mut c, 1, 4);
        assert_eq!((c.nx, c.ptr), (6, 1032));
        let mut v = VariableInterface::default();
        pick_variable(&p, &mut v, 2, 3);
        assert_eq!((v.ptr, v.elemsize), (1000 + 40, 8));
    }
}
