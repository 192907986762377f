//! The scalar typedefs, enum types, opaque handles and function-pointer types every header
//! shares (`starpu_util.h`, `starpu_task.h`, `starpu_data.h`), and the array bounds the
//! structs use.

use libc::{c_int, c_uint, c_void};

/// `STARPU_NMAXBUFS`: buffers a task holds inline before needing `dyn_handles`.
/// cbindgen:ignore
pub const STARPU_NMAXBUFS: usize = 8;
/// `STARPU_MAXIMPLEMENTATIONS`: implementations per kind of worker.
/// cbindgen:ignore
pub const STARPU_MAXIMPLEMENTATIONS: usize = 4;
/// `STARPU_NMAXWORKERS`.
/// cbindgen:ignore
pub const STARPU_NMAXWORKERS: usize = 64;

/// `enum starpu_data_access_mode` (the enum itself is written in the header's prelude).
/// cbindgen:ignore
pub type starpu_data_access_mode = c_uint;
/// `enum starpu_codelet_type`.
/// cbindgen:ignore
pub type starpu_codelet_type = c_uint;
/// `enum starpu_perfmodel_type`.
/// cbindgen:ignore
pub type starpu_perfmodel_type = c_uint;
/// `enum starpu_task_status`.
/// cbindgen:ignore
pub type starpu_task_status = c_uint;
/// `enum starpu_worker_archtype`.
/// cbindgen:ignore
pub type starpu_worker_archtype = c_uint;
/// `enum starpu_data_interface_id`.
/// cbindgen:ignore
pub type starpu_data_interface_id = c_int;
/// `enum starpu_node_kind`.
/// cbindgen:ignore
pub type starpu_node_kind = c_uint;
/// `enum starpu_worker_collection_type`.
/// cbindgen:ignore
pub type starpu_worker_collection_type = c_uint;
/// `struct timespec` from `<time.h>`.
/// cbindgen:ignore
pub type timespec = libc::timespec;

pub type starpu_tag_t = u64;
pub type starpu_ssize_t = isize;

/// The data behind a handle is the core's; C only ever holds its address.
pub enum _starpu_data_state {}
pub type starpu_data_handle_t = *mut _starpu_data_state;

pub enum _starpu_task_bundle {}
pub type starpu_task_bundle_t = *mut _starpu_task_bundle;

pub type starpu_cpu_func_t = Option<unsafe extern "C" fn(*mut *mut c_void, *mut c_void)>;
pub type starpu_cuda_func_t = Option<unsafe extern "C" fn(*mut *mut c_void, *mut c_void)>;
pub type starpu_opencl_func_t = Option<unsafe extern "C" fn(*mut *mut c_void, *mut c_void)>;
pub type starpu_hip_func_t = Option<unsafe extern "C" fn(*mut *mut c_void, *mut c_void)>;
pub type starpu_sycl_func_t = Option<unsafe extern "C" fn(*mut *mut c_void, *mut c_void)>;
pub type starpu_max_fpga_func_t = Option<unsafe extern "C" fn(*mut *mut c_void, *mut c_void)>;
pub type starpu_callback_func_t = Option<unsafe extern "C" fn(*mut c_void)>;
