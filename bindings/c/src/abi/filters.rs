//! `starpu_data_filters.h`: how a partition cuts a handle.

use super::*;
use libc::{c_uint, c_void};

/// `struct starpu_data_filter`.
#[repr(C)]
pub struct starpu_data_filter {
    pub filter_func: Option<
        unsafe extern "C" fn(
            father_interface: *mut c_void,
            child_interface: *mut c_void,
            f: *mut starpu_data_filter,
            id: c_uint,
            nparts: c_uint,
        ),
    >,
    pub nchildren: c_uint,
    pub get_nchildren:
        Option<unsafe extern "C" fn(*mut starpu_data_filter, starpu_data_handle_t) -> c_uint>,
    pub get_child_ops: Option<
        unsafe extern "C" fn(*mut starpu_data_filter, c_uint) -> *mut starpu_data_interface_ops,
    >,
    pub filter_arg: c_uint,
    pub filter_arg_ptr: *mut c_void,
}
