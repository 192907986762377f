//! Registration and getters of the built-in data interfaces (`starpu_data_interfaces.h`).

use crate::abi::*;
use crate::ffi::{self, c_handle, handle, int_call, value_call};
use libc::{c_int, c_uint, c_void, size_t, uintptr_t};
use starpu_core::data::interfaces::*;
use starpu_core::data::Origin;
use starpu_core::task::multiformat;
use starpu_core::Error;

/// Registers `iface` and stores the new handle in `*out` (NULL on error).
unsafe fn register<I: Interface>(
    call: &str,
    out: *mut starpu_data_handle_t,
    home: c_int,
    iface: I,
) {
    let h = value_call(call, std::ptr::null_mut(), || {
        ffi::non_null(out, "handle pointer")?;
        let desc = Description::new(iface);
        // SAFETY: the application registers its buffers, as StarPU's API lets it.
        let h = ffi::with_runtime(|rt| unsafe {
            rt.register_description(ffi::home_node(home)?, desc, Origin::default())
        })?;
        Ok(c_handle(&h))
    });
    if !out.is_null() {
        *out = h;
    }
}

/// Reads the description of `h` as a `T`: on this thread's node if `local`, else on the
/// data's home (main RAM for data without home).
fn read<T: Interface, R: Clone>(
    call: &str,
    h: starpu_data_handle_t,
    local: bool,
    fallback: R,
    f: impl FnOnce(&T) -> R,
) -> R {
    value_call(call, fallback, || {
        let h = handle(h)?;
        let node = if local {
            crate::workers::starpu_worker_get_local_memory_node() as usize
        } else {
            h.home_node().unwrap_or(starpu_core::memory::MAIN_RAM)
        };
        let d: T = h.interface(node).ok_or_else(|| {
            Error::invalid(format!(
                "data {} is not a {} ({})",
                h.label(),
                T::NAME,
                h.describe()
            ))
        })?;
        Ok(f(&d))
    })
}

/// `starpu_void_data_register`.
///
/// # Safety
/// `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn starpu_void_data_register(out: *mut starpu_data_handle_t) {
    register("starpu_void_data_register", out, -1, VoidInterface::new());
}

/// `starpu_variable_data_register`.
///
/// # Safety
/// `out` is writable; `ptr` holds `size` bytes on `home`.
#[no_mangle]
pub unsafe extern "C" fn starpu_variable_data_register(
    out: *mut starpu_data_handle_t,
    home: c_int,
    ptr: uintptr_t,
    size: size_t,
) {
    register(
        "starpu_variable_data_register",
        out,
        home,
        VariableInterface::new(ptr, size),
    );
}

/// `starpu_vector_data_register`.
///
/// # Safety
/// `out` is writable; `ptr` holds `nx * elemsize` bytes on `home`.
#[no_mangle]
pub unsafe extern "C" fn starpu_vector_data_register(
    out: *mut starpu_data_handle_t,
    home: c_int,
    ptr: uintptr_t,
    nx: u32,
    elemsize: size_t,
) {
    register(
        "starpu_vector_data_register",
        out,
        home,
        VectorInterface::new(ptr, nx, elemsize),
    );
}

/// `starpu_vector_data_register_allocsize`.
///
/// # Safety
/// As `starpu_vector_data_register`, with `allocsize` bytes at `ptr`.
#[no_mangle]
pub unsafe extern "C" fn starpu_vector_data_register_allocsize(
    out: *mut starpu_data_handle_t,
    home: c_int,
    ptr: uintptr_t,
    nx: u32,
    elemsize: size_t,
    allocsize: size_t,
) {
    let mut v = VectorInterface::new(ptr, nx, elemsize);
    v.allocsize = allocsize;
    register("starpu_vector_data_register_allocsize", out, home, v);
}

/// `starpu_matrix_data_register`: `ny` columns of `nx` elements, `ld` elements apart.
///
/// # Safety
/// `out` is writable; `ptr` holds the matrix on `home`.
#[no_mangle]
pub unsafe extern "C" fn starpu_matrix_data_register(
    out: *mut starpu_data_handle_t,
    home: c_int,
    ptr: uintptr_t,
    ld: u32,
    nx: u32,
    ny: u32,
    elemsize: size_t,
) {
    register(
        "starpu_matrix_data_register",
        out,
        home,
        MatrixInterface::new(ptr, ld, nx, ny, elemsize),
    );
}

/// `starpu_matrix_data_register_allocsize`.
///
/// # Safety
/// As `starpu_matrix_data_register`.
#[no_mangle]
pub unsafe extern "C" fn starpu_matrix_data_register_allocsize(
    out: *mut starpu_data_handle_t,
    home: c_int,
    ptr: uintptr_t,
    ld: u32,
    nx: u32,
    ny: u32,
    elemsize: size_t,
    allocsize: size_t,
) {
    let mut m = MatrixInterface::new(ptr, ld, nx, ny, elemsize);
    m.allocsize = allocsize;
    register("starpu_matrix_data_register_allocsize", out, home, m);
}

/// `starpu_block_data_register`.
///
/// # Safety
/// `out` is writable; `ptr` holds the block on `home`.
#[no_mangle]
pub unsafe extern "C" fn starpu_block_data_register(
    out: *mut starpu_data_handle_t,
    home: c_int,
    ptr: uintptr_t,
    ldy: u32,
    ldz: u32,
    nx: u32,
    ny: u32,
    nz: u32,
    elemsize: size_t,
) {
    register(
        "starpu_block_data_register",
        out,
        home,
        BlockInterface::new(ptr, ldy, ldz, nx, ny, nz, elemsize),
    );
}

/// `starpu_tensor_data_register`.
///
/// # Safety
/// `out` is writable; `ptr` holds the tensor on `home`.
#[no_mangle]
pub unsafe extern "C" fn starpu_tensor_data_register(
    out: *mut starpu_data_handle_t,
    home: c_int,
    ptr: uintptr_t,
    ldy: u32,
    ldz: u32,
    ldt: u32,
    nx: u32,
    ny: u32,
    nz: u32,
    nt: u32,
    elemsize: size_t,
) {
    let t = TensorInterface::new(ptr, [ldy, ldz, ldt], [nx, ny, nz, nt], elemsize);
    register("starpu_tensor_data_register", out, home, t);
}

/// `starpu_ndim_data_register`: `nn[i]` elements along dimension `i`, `ldn[i]` apart.
///
/// # Safety
/// `ldn` and `nn` hold `ndim` entries; `ptr` holds the array on `home`.
#[no_mangle]
pub unsafe extern "C" fn starpu_ndim_data_register(
    out: *mut starpu_data_handle_t,
    home: c_int,
    ptr: uintptr_t,
    ldn: *mut u32,
    nn: *mut u32,
    ndim: size_t,
    elemsize: size_t,
) {
    if ndim > 0 && (ldn.is_null() || nn.is_null()) {
        crate::ffi::report(
            "starpu_ndim_data_register",
            &Error::invalid("nn or ldn is NULL"),
        );
        return;
    }
    let (nn, ldn) = if ndim == 0 {
        (&[][..], &[][..])
    } else {
        (
            std::slice::from_raw_parts(nn, ndim),
            std::slice::from_raw_parts(ldn, ndim),
        )
    };
    register(
        "starpu_ndim_data_register",
        out,
        home,
        NdimInterface::new(ptr, nn, ldn, elemsize),
    );
}

/// `starpu_csr_data_register`.
///
/// # Safety
/// The arrays hold `nnz` values / indices and `nrow + 1` row pointers on `home`.
#[no_mangle]
pub unsafe extern "C" fn starpu_csr_data_register(
    out: *mut starpu_data_handle_t,
    home: c_int,
    nnz: u32,
    nrow: u32,
    nzval: uintptr_t,
    colind: *mut u32,
    rowptr: *mut u32,
    firstentry: u32,
    elemsize: size_t,
) {
    let c = CsrInterface::new(nnz, nrow, nzval, colind, rowptr, firstentry, elemsize);
    register("starpu_csr_data_register", out, home, c);
}

/// `starpu_bcsr_data_register`.
///
/// # Safety
/// The arrays hold `nnz` blocks / indices and `nrow + 1` row pointers on `home`.
#[no_mangle]
pub unsafe extern "C" fn starpu_bcsr_data_register(
    out: *mut starpu_data_handle_t,
    home: c_int,
    nnz: u32,
    nrow: u32,
    nzval: uintptr_t,
    colind: *mut u32,
    rowptr: *mut u32,
    firstentry: u32,
    r: u32,
    c: u32,
    elemsize: size_t,
) {
    let b = BcsrInterface::new(nnz, nrow, nzval, colind, rowptr, firstentry, r, c, elemsize);
    register("starpu_bcsr_data_register", out, home, b);
}

/// `starpu_coo_data_register`.
///
/// # Safety
/// The arrays hold `n_values` entries on `home`.
#[no_mangle]
pub unsafe extern "C" fn starpu_coo_data_register(
    out: *mut starpu_data_handle_t,
    home: c_int,
    nx: u32,
    ny: u32,
    n_values: u32,
    columns: *mut u32,
    rows: *mut u32,
    values: uintptr_t,
    elemsize: size_t,
) {
    let c = CooInterface::new(nx, ny, n_values, columns, rows, values, elemsize);
    register("starpu_coo_data_register", out, home, c);
}

/// `starpu_data_register`: registers a description of a built-in interface (`ops` is one
/// of the `starpu_interface_*_ops`) or of an interface the application defines with its
/// own ops table (see custom_interface.rs).
///
/// # Safety
/// `data_interface` points to a description of the type `ops` names.
#[no_mangle]
pub unsafe extern "C" fn starpu_data_register(
    out: *mut starpu_data_handle_t,
    home: c_int,
    data_interface: *mut c_void,
    ops: *mut starpu_data_interface_ops,
) {
    let h = value_call("starpu_data_register", std::ptr::null_mut(), || {
        ffi::non_null(out, "handle pointer")?;
        let h = crate::custom_interface::register(home, data_interface, ops)?;
        Ok(c_handle(&h))
    });
    if !out.is_null() {
        *out = h;
    }
}

/// What a getter returns when it fails (it reports the error).
trait Fallback {
    const NONE: Self;
}

impl Fallback for u32 {
    const NONE: Self = 0;
}

impl Fallback for usize {
    const NONE: Self = 0;
}

impl Fallback for *mut u32 {
    const NONE: Self = std::ptr::null_mut();
}

/// Defines the getters `starpu_<interface>_get_<field>`: each reads one field of the
/// handle's description, on this thread's node for the `_get_local_` ones (StarPU's
/// naming), else on the data's home. cbindgen does not expand macros: starpu.h declares
/// them by hand (include/epilogue.h).
macro_rules! getters {
    ($($name:ident: $iface:ident -> $ret:ty = $f:expr;)*) => {
        $(
            crate::declared::assert_declared!($name);
            #[doc = concat!("`", stringify!($name), "`.")]
            #[no_mangle]
            pub extern "C" fn $name(h: starpu_data_handle_t) -> $ret {
                let local = stringify!($name).contains("_get_local_");
                read::<$iface, $ret>(stringify!($name), h, local, <$ret>::NONE, $f)
            }
        )*
    };
}

getters! {
    starpu_variable_get_elemsize: VariableInterface -> size_t = |d| d.elemsize;
    starpu_variable_get_local_ptr: VariableInterface -> uintptr_t = |d| d.ptr;
    starpu_vector_get_nx: VectorInterface -> u32 = |d| d.nx;
    starpu_vector_get_elemsize: VectorInterface -> size_t = |d| d.elemsize;
    starpu_vector_get_allocsize: VectorInterface -> size_t = |d| d.allocsize;
    starpu_vector_get_local_ptr: VectorInterface -> uintptr_t = |d| d.ptr;
    starpu_matrix_get_nx: MatrixInterface -> u32 = |d| d.nx;
    starpu_matrix_get_ny: MatrixInterface -> u32 = |d| d.ny;
    starpu_matrix_get_local_ld: MatrixInterface -> u32 = |d| d.ld;
    starpu_matrix_get_local_ptr: MatrixInterface -> uintptr_t = |d| d.ptr;
    starpu_matrix_get_elemsize: MatrixInterface -> size_t = |d| d.elemsize;
    starpu_matrix_get_allocsize: MatrixInterface -> size_t = |d| d.allocsize;
    starpu_block_get_nx: BlockInterface -> u32 = |d| d.nx;
    starpu_block_get_ny: BlockInterface -> u32 = |d| d.ny;
    starpu_block_get_nz: BlockInterface -> u32 = |d| d.nz;
    starpu_block_get_local_ldy: BlockInterface -> u32 = |d| d.ldy;
    starpu_block_get_local_ldz: BlockInterface -> u32 = |d| d.ldz;
    starpu_block_get_local_ptr: BlockInterface -> uintptr_t = |d| d.ptr;
    starpu_block_get_elemsize: BlockInterface -> size_t = |d| d.elemsize;
    starpu_tensor_get_nx: TensorInterface -> u32 = |d| d.nx;
    starpu_tensor_get_ny: TensorInterface -> u32 = |d| d.ny;
    starpu_tensor_get_nz: TensorInterface -> u32 = |d| d.nz;
    starpu_tensor_get_nt: TensorInterface -> u32 = |d| d.nt;
    starpu_tensor_get_local_ldy: TensorInterface -> u32 = |d| d.ldy;
    starpu_tensor_get_local_ldz: TensorInterface -> u32 = |d| d.ldz;
    starpu_tensor_get_local_ldt: TensorInterface -> u32 = |d| d.ldt;
    starpu_tensor_get_local_ptr: TensorInterface -> uintptr_t = |d| d.ptr;
    starpu_tensor_get_elemsize: TensorInterface -> size_t = |d| d.elemsize;
    starpu_ndim_get_nn: NdimInterface -> *mut u32 = |d| d.nn;
    starpu_ndim_get_local_ldn: NdimInterface -> *mut u32 = |d| d.ldn;
    starpu_ndim_get_ndim: NdimInterface -> size_t = |d| d.ndim;
    starpu_ndim_get_local_ptr: NdimInterface -> uintptr_t = |d| d.ptr;
    starpu_ndim_get_elemsize: NdimInterface -> size_t = |d| d.elemsize;
    starpu_csr_get_nnz: CsrInterface -> u32 = |d| d.nnz;
    starpu_csr_get_nrow: CsrInterface -> u32 = |d| d.nrow;
    starpu_csr_get_firstentry: CsrInterface -> u32 = |d| d.firstentry;
    starpu_csr_get_local_nzval: CsrInterface -> uintptr_t = |d| d.nzval;
    starpu_csr_get_local_colind: CsrInterface -> *mut u32 = |d| d.colind;
    starpu_csr_get_local_rowptr: CsrInterface -> *mut u32 = |d| d.rowptr;
    starpu_csr_get_elemsize: CsrInterface -> size_t = |d| d.elemsize;
    starpu_bcsr_get_nnz: BcsrInterface -> u32 = |d| d.nnz;
    starpu_bcsr_get_nrow: BcsrInterface -> u32 = |d| d.nrow;
    starpu_bcsr_get_firstentry: BcsrInterface -> u32 = |d| d.firstentry;
    starpu_bcsr_get_local_nzval: BcsrInterface -> uintptr_t = |d| d.nzval;
    starpu_bcsr_get_local_colind: BcsrInterface -> *mut u32 = |d| d.colind;
    starpu_bcsr_get_local_rowptr: BcsrInterface -> *mut u32 = |d| d.rowptr;
    starpu_bcsr_get_r: BcsrInterface -> u32 = |d| d.r;
    starpu_bcsr_get_c: BcsrInterface -> u32 = |d| d.c;
    starpu_bcsr_get_elemsize: BcsrInterface -> size_t = |d| d.elemsize;
}

/// `starpu_ndim_get_ni`: elements along dimension `i`.
#[no_mangle]
pub extern "C" fn starpu_ndim_get_ni(h: starpu_data_handle_t, i: size_t) -> u32 {
    read::<NdimInterface, u32>("starpu_ndim_get_ni", h, false, 0, |d| {
        d.dims().get(i).copied().unwrap_or(0)
    })
}

/// `starpu_ndim_get_local_ldi`: distance between consecutive elements along dimension `i`.
#[no_mangle]
pub extern "C" fn starpu_ndim_get_local_ldi(h: starpu_data_handle_t, i: size_t) -> u32 {
    read::<NdimInterface, u32>("starpu_ndim_get_local_ldi", h, true, 0, |d| {
        d.strides().get(i).copied().unwrap_or(0)
    })
}

/// Sets the buffers of `h` on `node` (the `starpu_*_ptr_register` helpers): `set` fills
/// the node's description, which must be a `T`, and the replica counts as the
/// application's.
fn ptr_register<T: Interface>(
    call: &str,
    h: starpu_data_handle_t,
    node: c_uint,
    set: impl FnOnce(&mut T),
) {
    let _ = int_call(call, || {
        let h = handle(h)?;
        if h.interface_id() != T::ID {
            return Err(Error::invalid(format!(
                "data is a {}, not a {}",
                h.ops().name(),
                T::NAME
            )));
        }
        let p = h
            .interface_on_node(node as usize)
            .ok_or_else(|| Error::invalid(format!("memory node {node} does not exist")))?;
        // SAFETY: the description on that node is a T (checked), and the application
        // sets its buffers before using the data there, as StarPU requires.
        unsafe { set(&mut *(p as *mut T)) };
        h.mark_allocated(node as usize);
        Ok(())
    });
}

/// Defines `starpu_<interface>_ptr_register`: the buffer of a dense interface on a node,
/// then its leading dimensions `lds` (cbindgen does not expand macros: starpu.h declares
/// them by hand, include/epilogue.h).
macro_rules! ptr_registers {
    ($($name:ident: $iface:ident [$($ld:ident),*];)*) => {
        $(
            crate::declared::assert_declared!($name);
            #[doc = concat!("`", stringify!($name), "`.")]
            #[no_mangle]
            #[allow(clippy::too_many_arguments)]
            pub extern "C" fn $name(
                h: starpu_data_handle_t,
                node: c_uint,
                ptr: uintptr_t,
                dev_handle: uintptr_t,
                offset: size_t,
                $($ld: u32,)*
            ) {
                ptr_register(stringify!($name), h, node, |d: &mut $iface| {
                    (d.ptr, d.dev_handle, d.offset) = (ptr, dev_handle, offset);
                    $(d.$ld = $ld;)*
                });
            }
        )*
    };
}

ptr_registers! {
    starpu_variable_ptr_register: VariableInterface [];
    starpu_vector_ptr_register: VectorInterface [];
    starpu_matrix_ptr_register: MatrixInterface [ld];
    starpu_block_ptr_register: BlockInterface [ldy, ldz];
    starpu_tensor_ptr_register: TensorInterface [ldy, ldz, ldt];
}

/// `starpu_multiformat_data_register`: `nobjects` objects in the CPU format at `ptr`,
/// with `format_ops` giving each format's element size and conversion codelets, which
/// the core runs when a task needs the other format (`starpu_core::task::multiformat`).
///
/// # Safety
/// `out` is writable; `ptr` holds `nobjects * cpu_elemsize` bytes on `home`;
/// `format_ops` lives as long as the handle.
#[no_mangle]
pub unsafe extern "C" fn starpu_multiformat_data_register(
    out: *mut starpu_data_handle_t,
    home: c_int,
    ptr: *mut c_void,
    nobjects: u32,
    format_ops: *mut MultiformatOps,
) {
    let call = "starpu_multiformat_data_register";
    match MultiformatInterface::new(ptr as usize, nobjects, format_ops) {
        Ok(iface) => {
            register(call, out, home, iface);
            let ops = &*format_ops;
            let conversions = multiformat::Conversions {
                cpu_to_opencl: crate::codelet::conversion(ops.cpu_to_opencl_cl as *const _),
                opencl_to_cpu: crate::codelet::conversion(ops.opencl_to_cpu_cl as *const _),
                cpu_to_cuda: crate::codelet::conversion(ops.cpu_to_cuda_cl as *const _),
                cuda_to_cpu: crate::codelet::conversion(ops.cuda_to_cpu_cl as *const _),
            };
            if !out.is_null() && !(*out).is_null() {
                let set = handle(*out).and_then(|h| multiformat::set_conversions(&h, conversions));
                if let Err(e) = set {
                    ffi::report(call, &e);
                }
            }
        }
        Err(e) => {
            ffi::report(call, &e);
            if !out.is_null() {
                *out = std::ptr::null_mut();
            }
        }
    }
}
