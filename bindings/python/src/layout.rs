//! How a Python buffer (numpy array, bytes, bytearray, array.array, memoryview) becomes
//! StarPU data without a copy: its memory described by one of StarPU's interfaces, which
//! native kernels read through the usual `STARPU_*_GET_*` macros.
//!
//! The buffer's axes are ordered by stride, smallest first, so that StarPU's dimension 0
//! is the contiguous one: a C-ordered numpy array of shape `(ny, nx)` is a matrix with
//! `nx` contiguous elements per row, `ld` apart; a Fortran-ordered one also works. 0, 1, 2,
//! 3 and 4 dimensions become a variable, vector, matrix, block and tensor; more become an
//! ndim. Layouts no StarPU interface describes (negative or overlapping strides, a
//! non-contiguous innermost axis) are registered without a description: Python tasks
//! still get the object itself, native kernels refuse it.

use pyo3::ffi;
use pyo3::prelude::*;
use starpu_core::data::interfaces::{
    BlockInterface, MatrixInterface, NdimInterface, TensorInterface, VariableInterface,
    VectorInterface,
};
use starpu_core::data::{DataHandle, ElemKind};
use starpu_core::Runtime;

/// A buffer's memory as StarPU sees it.
#[derive(Clone, Debug)]
pub(crate) struct Layout {
    pub(crate) ptr: usize,
    pub(crate) itemsize: usize,
    pub(crate) readonly: bool,
    pub(crate) elem: ElemKind,
    /// StarPU's dimensions, contiguous first: (extent, distance in elements between
    /// consecutive indices). Empty for a 0-dimensional buffer.
    pub(crate) dims: Vec<(u32, u32)>,
    /// The buffer's axis (numpy's numbering) of each StarPU dimension.
    pub(crate) axes: Vec<usize>,
    /// Whether a StarPU interface describes it (else it is registered as opaque data).
    pub(crate) described: bool,
}

/// What the buffer protocol says about `obj`, or an error if it has no buffer.
pub(crate) fn describe(obj: &Bound<'_, PyAny>) -> PyResult<Layout> {
    let py = obj.py();
    let mut view = ffi::Py_buffer::new();
    // SAFETY: `view` is a valid Py_buffer to fill; on success it is released below.
    let rc = unsafe { ffi::PyObject_GetBuffer(obj.as_ptr(), &mut view, ffi::PyBUF_RECORDS_RO) };
    if rc != 0 {
        return Err(PyErr::fetch(py));
    }
    // SAFETY: the fields of a filled Py_buffer are valid until it is released: `ndim`
    // entries in `shape` and `strides` (always given with PyBUF_STRIDES), `format` a C
    // string (given with PyBUF_FORMAT).
    let layout = unsafe {
        let nd = view.ndim.max(0) as usize;
        let shape: Vec<isize> = (0..nd).map(|k| *view.shape.add(k)).collect();
        let strides: Vec<isize> = (0..nd).map(|k| *view.strides.add(k)).collect();
        let format = if view.format.is_null() {
            "B".to_string()
        } else {
            std::ffi::CStr::from_ptr(view.format)
                .to_string_lossy()
                .into_owned()
        };
        from_parts(
            view.buf as usize,
            view.itemsize.max(1) as usize,
            view.readonly != 0,
            &format,
            &shape,
            &strides,
        )
    };
    // SAFETY: the view was filled by PyObject_GetBuffer above.
    unsafe { ffi::PyBuffer_Release(&mut view) };
    Ok(layout)
}

/// The element type a buffer format names (`struct` module syntax), `Unknown` when it is
/// not one of the plain numbers (views then check sizes only).
fn elem_of(format: &str, itemsize: usize) -> ElemKind {
    let f = format.trim_start_matches(['@', '=', '<']);
    if format.starts_with(['>', '!']) && itemsize > 1 {
        return ElemKind::Unknown; // byte-swapped data
    }
    let kind = match f {
        "b" => ElemKind::I8,
        "B" => ElemKind::U8,
        "h" => ElemKind::I16,
        "H" => ElemKind::U16,
        "i" => ElemKind::I32,
        "I" => ElemKind::U32,
        "l" | "q" => ElemKind::I64,
        "L" | "Q" => ElemKind::U64,
        "n" => ElemKind::Isize,
        "N" => ElemKind::Usize,
        "f" => ElemKind::F32,
        "d" => ElemKind::F64,
        _ => return ElemKind::Unknown,
    };
    let size = match kind {
        ElemKind::I8 | ElemKind::U8 => 1,
        ElemKind::I16 | ElemKind::U16 => 2,
        ElemKind::I32 | ElemKind::U32 | ElemKind::F32 => 4,
        _ => 8,
    };
    if size == itemsize {
        kind
    } else {
        ElemKind::Unknown
    }
}

fn from_parts(
    ptr: usize,
    itemsize: usize,
    readonly: bool,
    format: &str,
    shape: &[isize],
    strides: &[isize],
) -> Layout {
    let elem = elem_of(format, itemsize);
    let nd = shape.len();
    // Innermost first: by increasing stride; among equal strides (axes of extent 1), the
    // later axis is the inner one, as in C order.
    let mut axes: Vec<usize> = (0..nd).collect();
    axes.sort_by_key(|&k| (strides[k], std::cmp::Reverse(k)));
    let mut dims = Vec::with_capacity(nd);
    let mut described = true;
    let empty = shape.contains(&0);
    let mut extent: u64 = 1; // elements spanned by the dimensions inside the current one
    for (i, &k) in axes.iter().enumerate() {
        let (n, s) = (shape[k], strides[k]);
        let ld = if s >= 0 && (s as usize).is_multiple_of(itemsize) {
            (s as usize / itemsize) as u64
        } else {
            described = false;
            0
        };
        let fits = u32::try_from(n).is_ok() && u32::try_from(ld).is_ok();
        let inner_ok = i > 0 || ld == 1 || empty || n <= 1;
        if !fits || !inner_ok || (!empty && i > 0 && ld < extent && n > 1) {
            described = false;
        }
        extent = ld.max(1) * n.max(0) as u64;
        // A dimension of one element may have any stride: give it the span of the ones
        // inside it, which every interface accepts.
        let ld = if n <= 1 && i > 0 {
            extent.max(1)
        } else {
            ld.max(1)
        };
        dims.push((n.max(0) as u32, ld.min(u32::MAX as u64) as u32));
    }
    Layout {
        ptr,
        itemsize,
        readonly,
        elem,
        dims,
        axes,
        described,
    }
}

impl Layout {
    /// Registers this memory with the runtime, `owner` keeping it alive.
    pub(crate) fn register(
        &self,
        rt: &Runtime,
        owner: Box<dyn std::any::Any + Send + Sync>,
    ) -> starpu_core::Result<DataHandle> {
        if !self.described {
            return rt.register_void();
        }
        let (p, es, e) = (self.ptr, self.itemsize, self.elem);
        let n = |i: usize| self.dims[i].0;
        let ld = |i: usize| self.dims[i].1;
        // SAFETY: the buffer protocol gave this memory and shape; `owner` holds an export
        // of the buffer (a memoryview), so it stays valid and is not resized while the
        // handle exists.
        unsafe {
            match self.dims.len() {
                0 => rt.register_foreign(VariableInterface::new(p, es), e, Some(owner)),
                1 => rt.register_foreign(VectorInterface::new(p, n(0), es), e, Some(owner)),
                2 => rt.register_foreign(
                    MatrixInterface::new(p, ld(1), n(0), n(1), es),
                    e,
                    Some(owner),
                ),
                3 => rt.register_foreign(
                    BlockInterface::new(p, ld(1), ld(2), n(0), n(1), n(2), es),
                    e,
                    Some(owner),
                ),
                4 => rt.register_foreign(
                    TensorInterface::new(p, [ld(1), ld(2), ld(3)], [n(0), n(1), n(2), n(3)], es),
                    e,
                    Some(owner),
                ),
                _ => {
                    let nn: Vec<u32> = self.dims.iter().map(|d| d.0).collect();
                    let mut ldn: Vec<u32> = self.dims.iter().map(|d| d.1).collect();
                    ldn[0] = 1;
                    rt.register_foreign(NdimInterface::new(p, &nn, &ldn, es), e, Some(owner))
                }
            }
        }
    }

    /// The StarPU dimension of buffer axis `axis`.
    pub(crate) fn dim_of_axis(&self, axis: usize) -> Option<usize> {
        self.axes.iter().position(|&a| a == axis)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn c_and_fortran_orders() {
        // (3, 4) int64, C order: rows of 4 contiguous elements.
        let c = from_parts(1000, 8, false, "l", &[3, 4], &[32, 8]);
        assert!(c.described);
        assert_eq!(c.dims, vec![(4, 1), (3, 4)]);
        assert_eq!(c.axes, vec![1, 0]);
        let f = from_parts(1000, 8, false, "d", &[3, 4], &[8, 24]);
        assert_eq!(f.dims, vec![(3, 1), (4, 3)]);
        assert_eq!(f.axes, vec![0, 1]);
        assert_eq!(f.elem, ElemKind::F64);
    }

    #[test]
    fn strided_views() {
        // Every other column of a (3, 8) array: inner stride 2 elements -> not described.
        let v = from_parts(0x10, 8, false, "l", &[3, 4], &[64, 16]);
        assert!(!v.described);
        // A column block of a (20, 10) array: rows of 3 elements, ld 10.
        let b = from_parts(0x10, 8, false, "l", &[20, 3], &[80, 8]);
        assert!(b.described);
        assert_eq!(b.dims, vec![(3, 1), (20, 10)]);
        // Negative strides are not described.
        assert!(!from_parts(0x10, 8, false, "l", &[4], &[-8]).described);
    }
}
