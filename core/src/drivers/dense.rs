//! A task's buffer in a device's memory, as the kernels of every device driver see it:
//! the dense interfaces (variable, vector, matrix, block, tensor, ndim) give where their
//! data is (StarPU's `ptr`, `dev_handle`, `offset`) and how many bytes it spans.

use crate::data::interfaces::{
    BlockInterface, Interface, MatrixInterface, NdimInterface, TensorInterface, VariableInterface,
    VectorInterface,
};
use crate::data::Element;
use crate::error::{Error, Result};
use crate::task::KernelCall;

/// Where buffer `i` of a task is, and its extent.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Dense {
    /// The device's buffer (`dev_handle`).
    pub handle: usize,
    /// The address of the first element, where the device has addresses (0 otherwise).
    pub ptr: usize,
    /// Byte offset of the data in `handle`.
    pub offset: usize,
    /// Bytes of data (the whole extent for a strided matrix or block).
    pub bytes: usize,
    /// Bytes per element.
    pub elemsize: usize,
}

/// Buffer `i` of `call`, of a dense interface.
pub(crate) fn dense(call: &KernelCall, i: usize) -> Result<Dense> {
    let d = |handle: usize, ptr: usize, offset: usize, bytes: usize, elemsize: usize| Dense {
        handle,
        ptr,
        offset,
        bytes,
        elemsize,
    };
    let b = if let Some(v) = call.interface::<VectorInterface>(i) {
        d(v.dev_handle, v.ptr, v.offset, v.data_size(), v.elemsize)
    } else if let Some(v) = call.interface::<VariableInterface>(i) {
        d(v.dev_handle, v.ptr, v.offset, v.elemsize, v.elemsize)
    } else if let Some(m) = call.interface::<MatrixInterface>(i) {
        let extent =
            (m.ld as usize * (m.ny as usize).saturating_sub(1) + m.nx as usize) * m.elemsize;
        d(m.dev_handle, m.ptr, m.offset, extent, m.elemsize)
    } else if let Some(b) = call.interface::<BlockInterface>(i) {
        d(b.dev_handle, b.ptr, b.offset, b.data_size(), b.elemsize)
    } else if let Some(t) = call.interface::<TensorInterface>(i) {
        d(t.dev_handle, t.ptr, t.offset, t.data_size(), t.elemsize)
    } else if let Some(n) = call.interface::<NdimInterface>(i) {
        d(n.dev_handle, n.ptr, n.offset, n.data_size(), n.elemsize)
    } else {
        return Err(Error::invalid(format!(
            "buffer {i} is not a dense interface (variable, vector, matrix, block, tensor \
             or ndim): read its description with call.interface()"
        )));
    };
    if b.handle == 0 && b.bytes > 0 {
        return Err(Error::invalid(format!("buffer {i} has no device buffer")));
    }
    Ok(b)
}

/// Buffer `i` of `call` as a driver describes it to kernels (`make` turns the place into
/// the driver's buffer type), checked to hold `T`s when `T` is given.
pub(crate) fn device_buffer<T: Element, B>(
    call: &KernelCall,
    i: usize,
    check: bool,
    make: impl FnOnce(Dense) -> B,
) -> Result<B> {
    let d = dense(call, i)?;
    if check {
        check_elements::<T>(call, i, d.elemsize)?;
    }
    Ok(make(d))
}

/// Checks that buffer `i` of `call`, of elements of `elemsize` bytes, holds `T`s.
pub(crate) fn check_elements<T: Element>(
    call: &KernelCall,
    i: usize,
    elemsize: usize,
) -> Result<()> {
    let kind = call.handle(i)?.elem_kind();
    if elemsize != std::mem::size_of::<T>() || !kind.accepts::<T>() {
        return Err(Error::invalid(format!(
            "buffer {i} holds elements of {elemsize} bytes ({kind:?}), not {}",
            std::any::type_name::<T>()
        )));
    }
    Ok(())
}
