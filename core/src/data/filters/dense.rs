//! Every dense interface (variable, vector, matrix, block, tensor, ndim) seen the same way,
//! so that each standard filter is one generic operation: cut along an axis, or pick one
//! index of an axis (or one element).
//!
//! Along axis `i` there are `dims[i]` elements, consecutive ones `strides[i]` elements
//! apart; axis 0 is the contiguous one (x).

use super::{chunk, shift};
use crate::data::interfaces::{
    BlockInterface, Interface, MatrixInterface, NdimInterface, TensorInterface, VariableInterface,
    VectorInterface,
};
use crate::error::{Error, Result};

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Dense {
    pub ptr: usize,
    pub dev_handle: usize,
    pub offset: usize,
    pub dims: Vec<u32>,
    pub strides: Vec<u32>,
    pub elemsize: usize,
}

impl Dense {
    /// The part of the array `first..first + len` along `axis`.
    fn slice(&self, axis: usize, first: u32, len: u32) -> Dense {
        let bytes = first as usize * self.strides[axis] as usize * self.elemsize;
        let mut d = self.moved(bytes);
        d.dims[axis] = len;
        d
    }

    /// This array's origin moved `bytes` further (null pointers stay null: a replica not
    /// allocated has no address yet).
    fn moved(&self, bytes: usize) -> Dense {
        Dense {
            ptr: shift(self.ptr, bytes),
            offset: self.offset + bytes,
            ..self.clone()
        }
    }

    /// Part `id` of `nparts` along `axis`, each part overlapping its neighbours by `shadow`
    /// elements on both sides (StarPU's `*_filter_*block[_shadow]`).
    pub fn split(&self, axis: usize, id: usize, nparts: usize, shadow: u32) -> Result<Dense> {
        let total = self.dims[axis];
        let inner = total.checked_sub(2 * shadow).ok_or_else(|| {
            Error::invalid(format!(
                "a shadow of {shadow} on each side does not fit in {total} elements"
            ))
        })?;
        if nparts == 0 || nparts > inner as usize {
            return Err(Error::invalid(format!(
                "cannot split {inner} elements in {nparts} parts"
            )));
        }
        if id >= nparts {
            return Err(Error::invalid(format!("no part {id} of {nparts}")));
        }
        let (len, first) = chunk(inner, nparts, id);
        Ok(self.slice(axis, first, len + 2 * shadow))
    }

    /// Part `id` when `axis` is cut into consecutive parts of `lengths` elements, which must
    /// cover the axis exactly (StarPU's block filters given chunk sizes in
    /// `filter_arg_ptr`, as starpupy's numpy partitioning does).
    pub fn part_of_list(&self, axis: usize, id: usize, lengths: &[u32]) -> Result<Dense> {
        let total: u64 = lengths.iter().map(|&l| u64::from(l)).sum();
        if total != u64::from(self.dims[axis]) {
            return Err(Error::invalid(format!(
                "the part lengths add up to {total}, the data has {} elements along \
                 dimension {axis}",
                self.dims[axis]
            )));
        }
        let len = *lengths.get(id).ok_or_else(|| {
            Error::invalid(format!("no length for part {id} ({} given)", lengths.len()))
        })?;
        let first: u32 = lengths[..id].iter().sum();
        Ok(self.slice(axis, first, len))
    }

    /// Index `index` along `axis`, that axis removed (StarPU's `*_filter_pick_*`).
    pub fn pick(&self, axis: usize, index: u64) -> Result<Dense> {
        if index >= self.dims[axis] as u64 {
            return Err(Error::invalid(format!(
                "index {index} is outside the {} elements along dimension {axis}",
                self.dims[axis]
            )));
        }
        let bytes = index as usize * self.strides[axis] as usize * self.elemsize;
        let mut d = self.moved(bytes);
        d.dims.remove(axis);
        d.strides.remove(axis);
        Ok(d)
    }

    /// The one element at `pos` (one coordinate per axis), as a 0-dimension array.
    pub fn element(&self, pos: &[u32]) -> Result<Dense> {
        if pos.len() != self.dims.len() {
            return Err(Error::invalid(format!(
                "a position needs {} coordinates, not {}",
                self.dims.len(),
                pos.len()
            )));
        }
        let mut d = self.clone();
        for (axis, &p) in pos.iter().enumerate().rev() {
            d = d.pick(axis, p as u64)?;
        }
        Ok(d)
    }

    /// Checks this array has `n` dimensions and contiguous elements along x (what the
    /// fixed-dimension interfaces need).
    fn expect_dims(&self, n: usize, what: &str) -> Result<()> {
        if self.dims.len() != n {
            return Err(Error::invalid(format!(
                "a {what} needs {n} dimensions, this part has {}",
                self.dims.len()
            )));
        }
        if n > 0 && self.strides[0] != 1 && self.ptr != 0 {
            return Err(Error::invalid(format!(
                "a {what} needs contiguous elements along x (ldn[0] is {})",
                self.strides[0]
            )));
        }
        Ok(())
    }
}

/// A dense interface, as a `Dense` and back.
pub(crate) trait AsDense: Interface + Sized {
    fn to_dense(&self) -> Dense;
    fn from_dense(d: &Dense) -> Result<Self>;
}

impl AsDense for VariableInterface {
    fn to_dense(&self) -> Dense {
        Dense {
            ptr: self.ptr,
            dev_handle: self.dev_handle,
            offset: self.offset,
            dims: vec![],
            strides: vec![],
            elemsize: self.elemsize,
        }
    }
    fn from_dense(d: &Dense) -> Result<Self> {
        d.expect_dims(0, "variable")?;
        Ok(VariableInterface {
            id: Self::ID,
            ptr: d.ptr,
            dev_handle: d.dev_handle,
            offset: d.offset,
            elemsize: d.elemsize,
        })
    }
}

impl AsDense for VectorInterface {
    fn to_dense(&self) -> Dense {
        Dense {
            ptr: self.ptr,
            dev_handle: self.dev_handle,
            offset: self.offset,
            dims: vec![self.nx],
            strides: vec![1],
            elemsize: self.elemsize,
        }
    }
    fn from_dense(d: &Dense) -> Result<Self> {
        d.expect_dims(1, "vector")?;
        Ok(VectorInterface {
            id: Self::ID,
            ptr: d.ptr,
            dev_handle: d.dev_handle,
            offset: d.offset,
            nx: d.dims[0],
            elemsize: d.elemsize,
            slice_base: 0,
            allocsize: d.dims[0] as usize * d.elemsize,
        })
    }
}

/// `AsDense` for a fixed-dimension interface whose elements are contiguous along x: its
/// sizes along each axis (`dims`), the leading dimensions of the other axes (`lds`), and
/// any further field of a part computed from the `Dense`.
macro_rules! as_dense {
    ($t:ident, $what:literal, [$($dim:ident),+], [$($ld:ident),+] $(, $field:ident = $value:expr)?) => {
        impl AsDense for $t {
            fn to_dense(&self) -> Dense {
                Dense {
                    ptr: self.ptr,
                    dev_handle: self.dev_handle,
                    offset: self.offset,
                    dims: vec![$(self.$dim),+],
                    strides: vec![1, $(self.$ld),+],
                    elemsize: self.elemsize,
                }
            }
            fn from_dense(d: &Dense) -> Result<Self> {
                d.expect_dims([$(stringify!($dim)),+].len(), $what)?;
                let (&[$($dim),+], &[_, $($ld),+]) = (d.dims.as_slice(), d.strides.as_slice())
                else {
                    return Err(Error::invalid(format!(
                        "a {} needs one stride per dimension",
                        $what
                    )));
                };
                Ok($t {
                    id: Self::ID,
                    ptr: d.ptr,
                    dev_handle: d.dev_handle,
                    offset: d.offset,
                    $($dim,)+
                    $($ld,)+
                    elemsize: d.elemsize,
                    $($field: ($value)(d),)?
                })
            }
        }
    };
}

/// Bytes of a packed array of `d`'s shape (a matrix part's `allocsize`).
fn packed_bytes(d: &Dense) -> usize {
    d.dims.iter().map(|&n| n as usize).product::<usize>() * d.elemsize
}

as_dense!(
    MatrixInterface,
    "matrix",
    [nx, ny],
    [ld],
    allocsize = packed_bytes
);
as_dense!(BlockInterface, "block", [nx, ny, nz], [ldy, ldz]);
as_dense!(TensorInterface, "tensor", [nx, ny, nz, nt], [ldy, ldz, ldt]);

impl AsDense for NdimInterface {
    fn to_dense(&self) -> Dense {
        Dense {
            ptr: self.ptr,
            dev_handle: self.dev_handle,
            offset: self.offset,
            dims: self.dims().to_vec(),
            strides: self.strides().to_vec(),
            elemsize: self.elemsize,
        }
    }
    /// A new description with arrays of its own (`nn` and `ldn` are not shared with the
    /// parent's).
    fn from_dense(d: &Dense) -> Result<Self> {
        let mut n = NdimInterface::new(d.ptr, &d.dims, &d.strides, d.elemsize);
        n.dev_handle = d.dev_handle;
        n.offset = d.offset;
        Ok(n)
    }
}

/// Applies `op` to the parent seen as a `Dense` and stores the result as the child.
pub(crate) fn apply<P: AsDense, C: AsDense>(
    parent: &P,
    child: &mut C,
    op: impl FnOnce(&Dense) -> Result<Dense>,
) -> Result<()> {
    *child = C::from_dense(&op(&parent.to_dense())?)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_pick_and_element_move_by_strides() {
        // A 4 x 3 x 2 block with padded lines and planes.
        let b = BlockInterface::new(0x1000, 5, 20, 4, 3, 2, 8).to_dense();
        let s = b.split(1, 1, 2, 0).unwrap();
        assert_eq!((s.dims.clone(), s.ptr), (vec![4, 1, 2], 0x1000 + 2 * 5 * 8));
        let p = b.pick(2, 1).unwrap();
        assert_eq!(
            (p.dims.clone(), p.strides.clone()),
            (vec![4, 3], vec![1, 5])
        );
        assert_eq!(p.ptr, 0x1000 + 20 * 8);
        let e = b.element(&[1, 2, 1]).unwrap();
        assert_eq!(e.ptr, 0x1000 + (1 + 2 * 5 + 20) * 8);
        assert!(e.dims.is_empty());
        assert!(b.pick(0, 4).is_err());
        assert!(b.split(0, 0, 5, 0).is_err());
        assert!(b.split(0, 0, 1, 3).is_err());
    }

    #[test]
    fn parts_of_a_list_cover_the_axis() {
        // A 6 x 4 matrix (ld 8) cut along y into 1, 3 and 0 rows.
        let m = MatrixInterface::new(0x1000, 8, 6, 4, 8).to_dense();
        let lens = [1, 3, 0];
        let p = m.part_of_list(1, 1, &lens).unwrap();
        assert_eq!((p.dims.clone(), p.ptr), (vec![6, 3], 0x1000 + 8 * 8));
        assert_eq!(m.part_of_list(1, 2, &lens).unwrap().dims, vec![6, 0]);
        assert!(m.part_of_list(1, 0, &[1, 2]).is_err());
        assert!(m.part_of_list(1, 3, &lens).is_err());
    }

    #[test]
    fn unallocated_parts_keep_null_pointers() {
        let v = VectorInterface::new(0, 10, 4).to_dense();
        let s = v.split(0, 2, 3, 0).unwrap();
        assert_eq!((s.ptr, s.offset, s.dims[0]), (0, 7 * 4, 3));
    }
}
