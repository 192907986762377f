//! numpy views of buffers the runtime allocates itself: a worker's SCRATCH buffer, its
//! REDUX contribution, the buffers of a reduction's init and fold. Python functions get
//! them as numpy arrays shaped and typed like the registered array, over the runtime's
//! memory (valid for the call only).
//!
//! The buffer's StarPU description (dimensions, strides in elements, contiguous first) is
//! turned back into numpy's axes with the same axis mapping as at registration (`layout`);
//! OpenCL implementations get the same geometry for their device buffers (`opencl`).

use crate::handle::{Content, HandleState};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use starpu_core::data::interfaces::{
    BlockInterface, MatrixInterface, NdimInterface, TensorInterface, VariableInterface,
    VectorInterface,
};
use starpu_core::KernelCall;

/// What a view needs to know of the registered array: its dtype and axis mapping.
pub(crate) struct ArrayKind {
    dtype: Py<PyAny>,
    axes: Vec<usize>,
}

impl ArrayKind {
    /// The kind of a registered buffer; `None` for a handle holding a Python value.
    pub(crate) fn of(py: Python<'_>, state: &HandleState) -> PyResult<Option<ArrayKind>> {
        let Content::Buffer { obj, layout } = &state.content else {
            return Ok(None);
        };
        let dtype = py
            .import("numpy")?
            .call_method1("asarray", (obj,))?
            .getattr("dtype")?
            .unbind();
        Ok(Some(ArrayKind {
            dtype,
            axes: layout.axes.clone(),
        }))
    }

    /// The dtype of the registered array.
    pub(crate) fn dtype(&self) -> &Py<PyAny> {
        &self.dtype
    }

    /// Where buffer `i` of `call` is and how it is laid out, in numpy's axis order.
    pub(crate) fn geometry(&self, call: &KernelCall, i: usize) -> Option<Geometry> {
        let (ptr, dims, strides, elemsize) = describe(call, i)?;
        let nd = self.axes.len().min(dims.len());
        let mut g = Geometry {
            ptr,
            shape: vec![0; nd],
            strides: vec![0; nd],
            elemsize,
            span: 0,
        };
        // StarPU dimension d is numpy axis axes[d].
        for (d, &axis) in self.axes.iter().take(nd).enumerate() {
            g.shape[axis] = dims[d];
            g.strides[axis] = strides[d];
        }
        if !dims.contains(&0) {
            let last = dims.iter().zip(&strides).map(|(n, s)| (n - 1) * s);
            g.span = (last.sum::<usize>() + 1) * elemsize;
        }
        Some(g)
    }

    /// Buffer `i` of `call` as a numpy array of this kind.
    pub(crate) fn view(&self, py: Python<'_>, call: &KernelCall, i: usize) -> PyResult<Py<PyAny>> {
        let g = self.geometry(call, i).ok_or_else(|| {
            crate::errors::invalid(py, format!("buffer {i} is not an array the face can view"))
        })?;
        let byte_strides: Vec<isize> = g
            .strides
            .iter()
            .map(|s| (s * g.elemsize) as isize)
            .collect();
        static ARRAY_AT: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
        let array_at = ARRAY_AT.get_or_try_init(py, || -> PyResult<_> {
            Ok(py.import("starpu._support")?.getattr("array_at")?.unbind())
        })?;
        Ok(array_at
            .bind(py)
            .call1((g.ptr, g.span, g.shape, byte_strides, &self.dtype))?
            .unbind())
    }
}

/// A buffer's place and layout: numpy's shape, strides in elements, bytes it spans from
/// its first element to its last.
pub(crate) struct Geometry {
    pub(crate) ptr: usize,
    pub(crate) shape: Vec<usize>,
    pub(crate) strides: Vec<usize>,
    pub(crate) elemsize: usize,
    pub(crate) span: usize,
}

/// Buffer `i`'s address, dimensions and strides (elements, contiguous first) and element
/// size, for the dense interfaces.
fn describe(call: &KernelCall, i: usize) -> Option<(usize, Vec<usize>, Vec<usize>, usize)> {
    let u = |v: &[u32]| v.iter().map(|&x| x as usize).collect::<Vec<_>>();
    if let Some(v) = call.interface::<VariableInterface>(i) {
        return Some((v.ptr, vec![], vec![], v.elemsize));
    }
    if let Some(v) = call.interface::<VectorInterface>(i) {
        return Some((v.ptr, u(&[v.nx]), vec![1], v.elemsize));
    }
    if let Some(m) = call.interface::<MatrixInterface>(i) {
        return Some((m.ptr, u(&[m.nx, m.ny]), u(&[1, m.ld]), m.elemsize));
    }
    if let Some(b) = call.interface::<BlockInterface>(i) {
        return Some((
            b.ptr,
            u(&[b.nx, b.ny, b.nz]),
            u(&[1, b.ldy, b.ldz]),
            b.elemsize,
        ));
    }
    if let Some(t) = call.interface::<TensorInterface>(i) {
        return Some((
            t.ptr,
            u(&[t.nx, t.ny, t.nz, t.nt]),
            u(&[1, t.ldy, t.ldz, t.ldt]),
            t.elemsize,
        ));
    }
    let n = call.interface::<NdimInterface>(i)?;
    Some((n.ptr, u(n.dims()), u(n.strides()), n.elemsize))
}
