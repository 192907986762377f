//! `starpu_data_interfaces.h`: what a data interface is (`starpu_data_interface_ops`) and how it
//! copies between nodes. The built-in interfaces' own structs (`starpu_vector_interface`
//! ...) are the core's, which reads them in codelets; they are re-exported here.

use super::*;
use libc::{c_char, c_int, c_uint, c_void, size_t};
pub use starpu_core::data::interfaces::{
    BcsrInterface, BlockInterface, CooInterface, CsrInterface, MatrixInterface,
    MultiformatInterface, MultiformatOps, NdimInterface, TensorInterface, VariableInterface,
    VectorInterface, VoidInterface,
};

/// `struct starpu_data_copy_methods`: how a custom interface copies between nodes.
#[repr(C)]
pub struct starpu_data_copy_methods {
    pub can_copy:
        Option<unsafe extern "C" fn(*mut c_void, c_uint, *mut c_void, c_uint, c_uint) -> c_int>,
    pub ram_to_ram: starpu_copy_func_t,
    pub ram_to_cuda: starpu_copy_func_t,
    pub ram_to_hip: starpu_copy_func_t,
    pub ram_to_opencl: starpu_copy_func_t,
    pub ram_to_max_fpga: starpu_copy_func_t,
    pub cuda_to_ram: starpu_copy_func_t,
    pub cuda_to_cuda: starpu_copy_func_t,
    pub hip_to_ram: starpu_copy_func_t,
    pub hip_to_hip: starpu_copy_func_t,
    pub opencl_to_ram: starpu_copy_func_t,
    pub opencl_to_opencl: starpu_copy_func_t,
    pub max_fpga_to_ram: starpu_copy_func_t,
    pub ram_to_cuda_async: *mut c_void,
    pub cuda_to_ram_async: *mut c_void,
    pub cuda_to_cuda_async: *mut c_void,
    pub ram_to_hip_async: *mut c_void,
    pub hip_to_ram_async: *mut c_void,
    pub hip_to_hip_async: *mut c_void,
    pub ram_to_opencl_async: *mut c_void,
    pub opencl_to_ram_async: *mut c_void,
    pub opencl_to_opencl_async: *mut c_void,
    pub ram_to_max_fpga_async: *mut c_void,
    pub max_fpga_to_ram_async: *mut c_void,
    pub any_to_any: Option<
        unsafe extern "C" fn(*mut c_void, c_uint, *mut c_void, c_uint, *mut c_void) -> c_int,
    >,
}

pub type starpu_copy_func_t =
    Option<unsafe extern "C" fn(*mut c_void, c_uint, *mut c_void, c_uint) -> c_int>;

/// `struct starpu_data_interface_ops`: what an interface is. The built-in ones are exported
/// as `starpu_interface_*_ops`; `interfaceid` and `interface_size` identify them.
#[repr(C)]
pub struct starpu_data_interface_ops {
    pub register_data_handle:
        Option<unsafe extern "C" fn(starpu_data_handle_t, c_int, *mut c_void)>,
    pub unregister_data_handle: Option<unsafe extern "C" fn(starpu_data_handle_t)>,
    pub allocate_data_on_node: Option<unsafe extern "C" fn(*mut c_void, c_uint) -> starpu_ssize_t>,
    pub free_data_on_node: Option<unsafe extern "C" fn(*mut c_void, c_uint)>,
    pub cache_data_on_node: Option<unsafe extern "C" fn(*mut c_void, *mut c_void, c_uint)>,
    pub reuse_data_on_node: Option<unsafe extern "C" fn(*mut c_void, *const c_void, c_uint)>,
    pub map_data: Option<unsafe extern "C" fn(*mut c_void, c_uint, *mut c_void, c_uint) -> c_int>,
    pub unmap_data: Option<unsafe extern "C" fn(*mut c_void, c_uint, *mut c_void, c_uint) -> c_int>,
    pub update_map: Option<unsafe extern "C" fn(*mut c_void, c_uint, *mut c_void, c_uint) -> c_int>,
    pub init: Option<unsafe extern "C" fn(*mut c_void)>,
    pub copy_methods: *const starpu_data_copy_methods,
    pub handle_to_pointer:
        Option<unsafe extern "C" fn(starpu_data_handle_t, c_uint) -> *mut c_void>,
    pub to_pointer: Option<unsafe extern "C" fn(*mut c_void, c_uint) -> *mut c_void>,
    pub pointer_is_inside: Option<unsafe extern "C" fn(*mut c_void, c_uint, *mut c_void) -> c_int>,
    pub get_size: Option<unsafe extern "C" fn(starpu_data_handle_t) -> size_t>,
    pub get_alloc_size: Option<unsafe extern "C" fn(starpu_data_handle_t) -> size_t>,
    pub get_max_size: Option<unsafe extern "C" fn(starpu_data_handle_t) -> size_t>,
    pub footprint: Option<unsafe extern "C" fn(starpu_data_handle_t) -> u32>,
    pub alloc_footprint: Option<unsafe extern "C" fn(starpu_data_handle_t) -> u32>,
    pub compare: Option<unsafe extern "C" fn(*mut c_void, *mut c_void) -> c_int>,
    pub alloc_compare: Option<unsafe extern "C" fn(*mut c_void, *mut c_void) -> c_int>,
    pub display: Option<unsafe extern "C" fn(starpu_data_handle_t, *mut libc::FILE)>,
    pub describe: Option<unsafe extern "C" fn(*mut c_void, *mut c_char, size_t) -> starpu_ssize_t>,
    pub interfaceid: starpu_data_interface_id,
    pub interface_size: size_t,
    pub is_multiformat: c_char,
    pub dontcache: c_char,
    pub get_mf_ops: Option<unsafe extern "C" fn(*mut c_void) -> *mut c_void>,
    pub pack_data: Option<
        unsafe extern "C" fn(
            starpu_data_handle_t,
            c_uint,
            *mut *mut c_void,
            *mut starpu_ssize_t,
        ) -> c_int,
    >,
    pub peek_data:
        Option<unsafe extern "C" fn(starpu_data_handle_t, c_uint, *mut c_void, size_t) -> c_int>,
    pub unpack_data:
        Option<unsafe extern "C" fn(starpu_data_handle_t, c_uint, *mut c_void, size_t) -> c_int>,
    pub pack_meta:
        Option<unsafe extern "C" fn(*mut c_void, *mut *mut c_void, *mut starpu_ssize_t) -> c_int>,
    pub unpack_meta:
        Option<unsafe extern "C" fn(*mut *mut c_void, *mut c_void, *mut starpu_ssize_t) -> c_int>,
    pub free_meta: Option<unsafe extern "C" fn(*mut c_void) -> c_int>,
    pub name: *const c_char,
}
