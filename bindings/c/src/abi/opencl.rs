//! `starpu_opencl.h`: the per-device program table (declared by hand in that header: its
//! functions use OpenCL's types).

use libc::c_void;

/// `STARPU_MAXOPENCLDEVS`: entries of `struct starpu_opencl_program`.
pub const STARPU_MAXOPENCLDEVS: usize = 8;

/// `struct starpu_opencl_program`: one `cl_program` per device.
/// cbindgen:ignore
#[repr(C)]
pub struct starpu_opencl_program {
    pub programs: [*mut c_void; STARPU_MAXOPENCLDEVS],
}
