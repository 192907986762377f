//! What a Fortran kernel reads from its `buffers` argument: `fstarpu_vector_get_ptr(buffers,
//! i)` and friends, the Fortran face of C's `STARPU_VECTOR_GET_PTR(buffers[i])` macros.
//!
//! `buffers` is the array of interface descriptions StarPU passes a kernel; `i` counts
//! from 0 as in C. Each description starts with its interface id, so a getter used on the
//! wrong kind of buffer (a matrix getter on a vector) is reported instead of reading
//! unrelated fields.

use super::report;
use libc::{c_int, c_void};
use starpu_core::data::interfaces::{
    BlockInterface, Interface, MatrixInterface, NdimInterface, TensorInterface, VariableInterface,
    VectorInterface,
};

/// Buffer `i` of `buffers` as a `T`, or `None` after saying why not.
///
/// # Safety
/// `buffers` is NULL or the array a kernel received, with more than `i` entries.
unsafe fn buffer<'a, T: Interface>(
    routine: &str,
    buffers: *const *mut c_void,
    i: c_int,
) -> Option<&'a T> {
    if buffers.is_null() || i < 0 {
        report(
            routine,
            format_args!("no buffer {i} (buffers is NULL or the index negative)"),
        );
        return None;
    }
    let iface = *buffers.add(i as usize);
    if iface.is_null() {
        report(routine, format_args!("buffer {i} is NULL"));
        return None;
    }
    // Every built-in interface description starts with its id (an i32).
    let id = *(iface as *const i32);
    if id != T::ID {
        report(
            routine,
            format_args!("buffer {i} is not a {} (interface id {id})", T::NAME),
        );
        return None;
    }
    Some(&*(iface as *const T))
}

/// Defines `fstarpu_KIND_get_FIELD(buffers, i)` getters returning a field of buffer `i`.
macro_rules! getters {
    ($iface:ty: $($name:ident -> $ret:ty => |$b:ident| $value:expr, $fallback:expr;)*) => {$(
        #[doc = concat!("`", stringify!($name), "(buffers, i)`.")]
        ///
        /// # Safety
        /// `buffers` is a kernel's buffer array with more than `i` entries.
        #[no_mangle]
        pub unsafe extern "C" fn $name(buffers: *const *mut c_void, i: c_int) -> $ret {
            match buffer::<$iface>(stringify!($name), buffers, i) {
                Some($b) => $value,
                None => $fallback,
            }
        }
    )*};
}

/// The address a `ptr` field (uintptr_t) holds.
fn addr(p: usize) -> *mut c_void {
    p as *mut c_void
}

const NULL: *mut c_void = std::ptr::null_mut();

getters! { VariableInterface:
    fstarpu_variable_get_ptr -> *mut c_void => |b| addr(b.ptr), NULL;
    fstarpu_variable_get_dev_handle -> *mut c_void => |b| addr(b.dev_handle), NULL;
    fstarpu_variable_get_offset -> usize => |b| b.offset, 0;
}

getters! { VectorInterface:
    fstarpu_vector_get_ptr -> *mut c_void => |b| addr(b.ptr), NULL;
    fstarpu_vector_get_nx -> c_int => |b| b.nx as c_int, 0;
    fstarpu_vector_get_dev_handle -> *mut c_void => |b| addr(b.dev_handle), NULL;
    fstarpu_vector_get_offset -> usize => |b| b.offset, 0;
}

getters! { MatrixInterface:
    fstarpu_matrix_get_ptr -> *mut c_void => |b| addr(b.ptr), NULL;
    fstarpu_matrix_get_dev_handle -> *mut c_void => |b| addr(b.dev_handle), NULL;
    fstarpu_matrix_get_offset -> usize => |b| b.offset, 0;
    fstarpu_matrix_get_ld -> c_int => |b| b.ld as c_int, 0;
    fstarpu_matrix_get_nx -> c_int => |b| b.nx as c_int, 0;
    fstarpu_matrix_get_ny -> c_int => |b| b.ny as c_int, 0;
}

getters! { BlockInterface:
    fstarpu_block_get_ptr -> *mut c_void => |b| addr(b.ptr), NULL;
    fstarpu_block_get_ldy -> c_int => |b| b.ldy as c_int, 0;
    fstarpu_block_get_ldz -> c_int => |b| b.ldz as c_int, 0;
    fstarpu_block_get_nx -> c_int => |b| b.nx as c_int, 0;
    fstarpu_block_get_ny -> c_int => |b| b.ny as c_int, 0;
    fstarpu_block_get_nz -> c_int => |b| b.nz as c_int, 0;
}

getters! { TensorInterface:
    fstarpu_tensor_get_ptr -> *mut c_void => |b| addr(b.ptr), NULL;
    fstarpu_tensor_get_ldy -> c_int => |b| b.ldy as c_int, 0;
    fstarpu_tensor_get_ldz -> c_int => |b| b.ldz as c_int, 0;
    fstarpu_tensor_get_ldt -> c_int => |b| b.ldt as c_int, 0;
    fstarpu_tensor_get_nx -> c_int => |b| b.nx as c_int, 0;
    fstarpu_tensor_get_ny -> c_int => |b| b.ny as c_int, 0;
    fstarpu_tensor_get_nz -> c_int => |b| b.nz as c_int, 0;
    fstarpu_tensor_get_nt -> c_int => |b| b.nt as c_int, 0;
}

getters! { NdimInterface:
    fstarpu_ndim_get_ptr -> *mut c_void => |b| addr(b.ptr), NULL;
    fstarpu_ndim_get_ndim -> c_int => |b| b.ndim as c_int, 0;
}

/// Size `d` (0-based) of an ndim buffer: `nn[d]`, or `ldn[d]` when `ld`.
unsafe fn ndim_dim(
    routine: &str,
    buffers: *const *mut c_void,
    i: c_int,
    d: c_int,
    ld: bool,
) -> c_int {
    let Some(b) = buffer::<NdimInterface>(routine, buffers, i) else {
        return 0;
    };
    if d < 0 || d as usize >= b.ndim {
        report(
            routine,
            format_args!("dimension {d} of a {}-dimension buffer", b.ndim),
        );
        return 0;
    }
    *(if ld { b.ldn } else { b.nn }).add(d as usize) as c_int
}

/// `fstarpu_ndim_get_nn(buffers, i, d)`: the number of elements along dimension `d`.
///
/// # Safety
/// `buffers` is a kernel's buffer array with more than `i` entries.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_ndim_get_nn(
    buffers: *const *mut c_void,
    i: c_int,
    d: c_int,
) -> c_int {
    ndim_dim("fstarpu_ndim_get_nn", buffers, i, d, false)
}

/// `fstarpu_ndim_get_ldn(buffers, i, d)`: the stride, in elements, of dimension `d`.
///
/// # Safety
/// `buffers` is a kernel's buffer array with more than `i` entries.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_ndim_get_ldn(
    buffers: *const *mut c_void,
    i: c_int,
    d: c_int,
) -> c_int {
    ndim_dim("fstarpu_ndim_get_ldn", buffers, i, d, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn getters_read_their_interface_and_refuse_another() {
        let mut data = [0.0f64; 6];
        let mut m = MatrixInterface::new(data.as_mut_ptr() as usize, 3, 2, 2, 8);
        let mut v = VectorInterface::new(data.as_mut_ptr() as usize, 6, 8);
        let buffers = [
            &mut m as *mut _ as *mut c_void,
            &mut v as *mut _ as *mut c_void,
        ];
        unsafe {
            assert_eq!(fstarpu_matrix_get_ld(buffers.as_ptr(), 0), 3);
            assert_eq!(fstarpu_matrix_get_ny(buffers.as_ptr(), 0), 2);
            assert_eq!(fstarpu_vector_get_nx(buffers.as_ptr(), 1), 6);
            assert_eq!(
                fstarpu_vector_get_ptr(buffers.as_ptr(), 1),
                data.as_mut_ptr() as *mut c_void
            );
            // A vector getter on the matrix, a negative index: reported, 0.
            assert_eq!(fstarpu_vector_get_nx(buffers.as_ptr(), 0), 0);
            assert_eq!(fstarpu_matrix_get_nx(buffers.as_ptr(), -1), 0);
        }
    }
}
