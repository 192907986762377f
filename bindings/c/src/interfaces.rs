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

/// `starpu_variable_get_elemsize`.
#[no_mangle]
pub extern "C" fn starpu_variable_get_elemsize(h: starpu_data_handle_t) -> size_t {
    read::<VariableInterface, size_t>("starpu_variable_get_elemsize", h, false, 0, |d| d.elemsize)
}

/// `starpu_variable_get_local_ptr`.
#[no_mangle]
pub extern "C" fn starpu_variable_get_local_ptr(h: starpu_data_handle_t) -> uintptr_t {
    read::<VariableInterface, uintptr_t>("starpu_variable_get_local_ptr", h, true, 0, |d| d.ptr)
}

/// `starpu_vector_get_nx`.
#[no_mangle]
pub extern "C" fn starpu_vector_get_nx(h: starpu_data_handle_t) -> u32 {
    read::<VectorInterface, u32>("starpu_vector_get_nx", h, false, 0, |d| d.nx)
}

/// `starpu_vector_get_elemsize`.
#[no_mangle]
pub extern "C" fn starpu_vector_get_elemsize(h: starpu_data_handle_t) -> size_t {
    read::<VectorInterface, size_t>("starpu_vector_get_elemsize", h, false, 0, |d| d.elemsize)
}

/// `starpu_vector_get_allocsize`.
#[no_mangle]
pub extern "C" fn starpu_vector_get_allocsize(h: starpu_data_handle_t) -> size_t {
    read::<VectorInterface, size_t>("starpu_vector_get_allocsize", h, false, 0, |d| d.allocsize)
}

/// `starpu_vector_get_local_ptr`.
#[no_mangle]
pub extern "C" fn starpu_vector_get_local_ptr(h: starpu_data_handle_t) -> uintptr_t {
    read::<VectorInterface, uintptr_t>("starpu_vector_get_local_ptr", h, true, 0, |d| d.ptr)
}

/// `starpu_matrix_get_nx`.
#[no_mangle]
pub extern "C" fn starpu_matrix_get_nx(h: starpu_data_handle_t) -> u32 {
    read::<MatrixInterface, u32>("starpu_matrix_get_nx", h, false, 0, |d| d.nx)
}

/// `starpu_matrix_get_ny`.
#[no_mangle]
pub extern "C" fn starpu_matrix_get_ny(h: starpu_data_handle_t) -> u32 {
    read::<MatrixInterface, u32>("starpu_matrix_get_ny", h, false, 0, |d| d.ny)
}

/// `starpu_matrix_get_local_ld`.
#[no_mangle]
pub extern "C" fn starpu_matrix_get_local_ld(h: starpu_data_handle_t) -> u32 {
    read::<MatrixInterface, u32>("starpu_matrix_get_local_ld", h, true, 0, |d| d.ld)
}

/// `starpu_matrix_get_local_ptr`.
#[no_mangle]
pub extern "C" fn starpu_matrix_get_local_ptr(h: starpu_data_handle_t) -> uintptr_t {
    read::<MatrixInterface, uintptr_t>("starpu_matrix_get_local_ptr", h, true, 0, |d| d.ptr)
}

/// `starpu_matrix_get_elemsize`.
#[no_mangle]
pub extern "C" fn starpu_matrix_get_elemsize(h: starpu_data_handle_t) -> size_t {
    read::<MatrixInterface, size_t>("starpu_matrix_get_elemsize", h, false, 0, |d| d.elemsize)
}

/// `starpu_matrix_get_allocsize`.
#[no_mangle]
pub extern "C" fn starpu_matrix_get_allocsize(h: starpu_data_handle_t) -> size_t {
    read::<MatrixInterface, size_t>("starpu_matrix_get_allocsize", h, false, 0, |d| d.allocsize)
}

/// `starpu_block_get_nx`.
#[no_mangle]
pub extern "C" fn starpu_block_get_nx(h: starpu_data_handle_t) -> u32 {
    read::<BlockInterface, u32>("starpu_block_get_nx", h, false, 0, |d| d.nx)
}

/// `starpu_block_get_ny`.
#[no_mangle]
pub extern "C" fn starpu_block_get_ny(h: starpu_data_handle_t) -> u32 {
    read::<BlockInterface, u32>("starpu_block_get_ny", h, false, 0, |d| d.ny)
}

/// `starpu_block_get_nz`.
#[no_mangle]
pub extern "C" fn starpu_block_get_nz(h: starpu_data_handle_t) -> u32 {
    read::<BlockInterface, u32>("starpu_block_get_nz", h, false, 0, |d| d.nz)
}

/// `starpu_block_get_local_ldy`.
#[no_mangle]
pub extern "C" fn starpu_block_get_local_ldy(h: starpu_data_handle_t) -> u32 {
    read::<BlockInterface, u32>("starpu_block_get_local_ldy", h, true, 0, |d| d.ldy)
}

/// `starpu_block_get_local_ldz`.
#[no_mangle]
pub extern "C" fn starpu_block_get_local_ldz(h: starpu_data_handle_t) -> u32 {
    read::<BlockInterface, u32>("starpu_block_get_local_ldz", h, true, 0, |d| d.ldz)
}

/// `starpu_block_get_local_ptr`.
#[no_mangle]
pub extern "C" fn starpu_block_get_local_ptr(h: starpu_data_handle_t) -> uintptr_t {
    read::<BlockInterface, uintptr_t>("starpu_block_get_local_ptr", h, true, 0, |d| d.ptr)
}

/// `starpu_block_get_elemsize`.
#[no_mangle]
pub extern "C" fn starpu_block_get_elemsize(h: starpu_data_handle_t) -> size_t {
    read::<BlockInterface, size_t>("starpu_block_get_elemsize", h, false, 0, |d| d.elemsize)
}

/// `starpu_tensor_get_nx`.
#[no_mangle]
pub extern "C" fn starpu_tensor_get_nx(h: starpu_data_handle_t) -> u32 {
    read::<TensorInterface, u32>("starpu_tensor_get_nx", h, false, 0, |d| d.nx)
}

/// `starpu_tensor_get_ny`.
#[no_mangle]
pub extern "C" fn starpu_tensor_get_ny(h: starpu_data_handle_t) -> u32 {
    read::<TensorInterface, u32>("starpu_tensor_get_ny", h, false, 0, |d| d.ny)
}

/// `starpu_tensor_get_nz`.
#[no_mangle]
pub extern "C" fn starpu_tensor_get_nz(h: starpu_data_handle_t) -> u32 {
    read::<TensorInterface, u32>("starpu_tensor_get_nz", h, false, 0, |d| d.nz)
}

/// `starpu_tensor_get_nt`.
#[no_mangle]
pub extern "C" fn starpu_tensor_get_nt(h: starpu_data_handle_t) -> u32 {
    read::<TensorInterface, u32>("starpu_tensor_get_nt", h, false, 0, |d| d.nt)
}

/// `starpu_tensor_get_local_ldy`.
#[no_mangle]
pub extern "C" fn starpu_tensor_get_local_ldy(h: starpu_data_handle_t) -> u32 {
    read::<TensorInterface, u32>("starpu_tensor_get_local_ldy", h, true, 0, |d| d.ldy)
}

/// `starpu_tensor_get_local_ldz`.
#[no_mangle]
pub extern "C" fn starpu_tensor_get_local_ldz(h: starpu_data_handle_t) -> u32 {
    read::<TensorInterface, u32>("starpu_tensor_get_local_ldz", h, true, 0, |d| d.ldz)
}

/// `starpu_tensor_get_local_ldt`.
#[no_mangle]
pub extern "C" fn starpu_tensor_get_local_ldt(h: starpu_data_handle_t) -> u32 {
    read::<TensorInterface, u32>("starpu_tensor_get_local_ldt", h, true, 0, |d| d.ldt)
}

/// `starpu_tensor_get_local_ptr`.
#[no_mangle]
pub extern "C" fn starpu_tensor_get_local_ptr(h: starpu_data_handle_t) -> uintptr_t {
    read::<TensorInterface, uintptr_t>("starpu_tensor_get_local_ptr", h, true, 0, |d| d.ptr)
}

/// `starpu_tensor_get_elemsize`.
#[no_mangle]
pub extern "C" fn starpu_tensor_get_elemsize(h: starpu_data_handle_t) -> size_t {
    read::<TensorInterface, size_t>("starpu_tensor_get_elemsize", h, false, 0, |d| d.elemsize)
}

/// `starpu_ndim_get_nn`.
#[no_mangle]
pub extern "C" fn starpu_ndim_get_nn(h: starpu_data_handle_t) -> *mut u32 {
    read::<NdimInterface, *mut u32>("starpu_ndim_get_nn", h, false, std::ptr::null_mut(), |d| {
        d.nn
    })
}

/// `starpu_ndim_get_local_ldn`.
#[no_mangle]
pub extern "C" fn starpu_ndim_get_local_ldn(h: starpu_data_handle_t) -> *mut u32 {
    read::<NdimInterface, *mut u32>(
        "starpu_ndim_get_local_ldn",
        h,
        true,
        std::ptr::null_mut(),
        |d| d.ldn,
    )
}

/// `starpu_ndim_get_ndim`.
#[no_mangle]
pub extern "C" fn starpu_ndim_get_ndim(h: starpu_data_handle_t) -> size_t {
    read::<NdimInterface, size_t>("starpu_ndim_get_ndim", h, false, 0, |d| d.ndim)
}

/// `starpu_ndim_get_local_ptr`.
#[no_mangle]
pub extern "C" fn starpu_ndim_get_local_ptr(h: starpu_data_handle_t) -> uintptr_t {
    read::<NdimInterface, uintptr_t>("starpu_ndim_get_local_ptr", h, true, 0, |d| d.ptr)
}

/// `starpu_ndim_get_elemsize`.
#[no_mangle]
pub extern "C" fn starpu_ndim_get_elemsize(h: starpu_data_handle_t) -> size_t {
    read::<NdimInterface, size_t>("starpu_ndim_get_elemsize", h, false, 0, |d| d.elemsize)
}

/// `starpu_csr_get_nnz`.
#[no_mangle]
pub extern "C" fn starpu_csr_get_nnz(h: starpu_data_handle_t) -> u32 {
    read::<CsrInterface, u32>("starpu_csr_get_nnz", h, false, 0, |d| d.nnz)
}

/// `starpu_csr_get_nrow`.
#[no_mangle]
pub extern "C" fn starpu_csr_get_nrow(h: starpu_data_handle_t) -> u32 {
    read::<CsrInterface, u32>("starpu_csr_get_nrow", h, false, 0, |d| d.nrow)
}

/// `starpu_csr_get_firstentry`.
#[no_mangle]
pub extern "C" fn starpu_csr_get_firstentry(h: starpu_data_handle_t) -> u32 {
    read::<CsrInterface, u32>("starpu_csr_get_firstentry", h, false, 0, |d| d.firstentry)
}

/// `starpu_csr_get_local_nzval`.
#[no_mangle]
pub extern "C" fn starpu_csr_get_local_nzval(h: starpu_data_handle_t) -> uintptr_t {
    read::<CsrInterface, uintptr_t>("starpu_csr_get_local_nzval", h, true, 0, |d| d.nzval)
}

/// `starpu_csr_get_local_colind`.
#[no_mangle]
pub extern "C" fn starpu_csr_get_local_colind(h: starpu_data_handle_t) -> *mut u32 {
    read::<CsrInterface, *mut u32>(
        "starpu_csr_get_local_colind",
        h,
        true,
        std::ptr::null_mut(),
        |d| d.colind,
    )
}

/// `starpu_csr_get_local_rowptr`.
#[no_mangle]
pub extern "C" fn starpu_csr_get_local_rowptr(h: starpu_data_handle_t) -> *mut u32 {
    read::<CsrInterface, *mut u32>(
        "starpu_csr_get_local_rowptr",
        h,
        true,
        std::ptr::null_mut(),
        |d| d.rowptr,
    )
}

/// `starpu_csr_get_elemsize`.
#[no_mangle]
pub extern "C" fn starpu_csr_get_elemsize(h: starpu_data_handle_t) -> size_t {
    read::<CsrInterface, size_t>("starpu_csr_get_elemsize", h, false, 0, |d| d.elemsize)
}

/// `starpu_bcsr_get_nnz`.
#[no_mangle]
pub extern "C" fn starpu_bcsr_get_nnz(h: starpu_data_handle_t) -> u32 {
    read::<BcsrInterface, u32>("starpu_bcsr_get_nnz", h, false, 0, |d| d.nnz)
}

/// `starpu_bcsr_get_nrow`.
#[no_mangle]
pub extern "C" fn starpu_bcsr_get_nrow(h: starpu_data_handle_t) -> u32 {
    read::<BcsrInterface, u32>("starpu_bcsr_get_nrow", h, false, 0, |d| d.nrow)
}

/// `starpu_bcsr_get_firstentry`.
#[no_mangle]
pub extern "C" fn starpu_bcsr_get_firstentry(h: starpu_data_handle_t) -> u32 {
    read::<BcsrInterface, u32>("starpu_bcsr_get_firstentry", h, false, 0, |d| d.firstentry)
}

/// `starpu_bcsr_get_local_nzval`.
#[no_mangle]
pub extern "C" fn starpu_bcsr_get_local_nzval(h: starpu_data_handle_t) -> uintptr_t {
    read::<BcsrInterface, uintptr_t>("starpu_bcsr_get_local_nzval", h, true, 0, |d| d.nzval)
}

/// `starpu_bcsr_get_local_colind`.
#[no_mangle]
pub extern "C" fn starpu_bcsr_get_local_colind(h: starpu_data_handle_t) -> *mut u32 {
    read::<BcsrInterface, *mut u32>(
        "starpu_bcsr_get_local_colind",
        h,
        true,
        std::ptr::null_mut(),
        |d| d.colind,
    )
}

/// `starpu_bcsr_get_local_rowptr`.
#[no_mangle]
pub extern "C" fn starpu_bcsr_get_local_rowptr(h: starpu_data_handle_t) -> *mut u32 {
    read::<BcsrInterface, *mut u32>(
        "starpu_bcsr_get_local_rowptr",
        h,
        true,
        std::ptr::null_mut(),
        |d| d.rowptr,
    )
}

/// `starpu_bcsr_get_r`.
#[no_mangle]
pub extern "C" fn starpu_bcsr_get_r(h: starpu_data_handle_t) -> u32 {
    read::<BcsrInterface, u32>("starpu_bcsr_get_r", h, false, 0, |d| d.r)
}

/// `starpu_bcsr_get_c`.
#[no_mangle]
pub extern "C" fn starpu_bcsr_get_c(h: starpu_data_handle_t) -> u32 {
    read::<BcsrInterface, u32>("starpu_bcsr_get_c", h, false, 0, |d| d.c)
}

/// `starpu_bcsr_get_elemsize`.
#[no_mangle]
pub extern "C" fn starpu_bcsr_get_elemsize(h: starpu_data_handle_t) -> size_t {
    read::<BcsrInterface, size_t>("starpu_bcsr_get_elemsize", h, false, 0, |d| d.elemsize)
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

/// `starpu_variable_ptr_register`.
#[no_mangle]
pub extern "C" fn starpu_variable_ptr_register(
    h: starpu_data_handle_t,
    node: c_uint,
    ptr: uintptr_t,
    dev_handle: uintptr_t,
    offset: size_t,
) {
    ptr_register(
        "starpu_variable_ptr_register",
        h,
        node,
        |d: &mut VariableInterface| {
            (d.ptr, d.dev_handle, d.offset) = (ptr, dev_handle, offset);
        },
    );
}

/// `starpu_vector_ptr_register`.
#[no_mangle]
pub extern "C" fn starpu_vector_ptr_register(
    h: starpu_data_handle_t,
    node: c_uint,
    ptr: uintptr_t,
    dev_handle: uintptr_t,
    offset: size_t,
) {
    ptr_register(
        "starpu_vector_ptr_register",
        h,
        node,
        |d: &mut VectorInterface| {
            (d.ptr, d.dev_handle, d.offset) = (ptr, dev_handle, offset);
        },
    );
}

/// `starpu_matrix_ptr_register`.
#[no_mangle]
pub extern "C" fn starpu_matrix_ptr_register(
    h: starpu_data_handle_t,
    node: c_uint,
    ptr: uintptr_t,
    dev_handle: uintptr_t,
    offset: size_t,
    ld: u32,
) {
    ptr_register(
        "starpu_matrix_ptr_register",
        h,
        node,
        |d: &mut MatrixInterface| {
            (d.ptr, d.dev_handle, d.offset, d.ld) = (ptr, dev_handle, offset, ld);
        },
    );
}

/// `starpu_block_ptr_register`.
#[no_mangle]
pub extern "C" fn starpu_block_ptr_register(
    h: starpu_data_handle_t,
    node: c_uint,
    ptr: uintptr_t,
    dev_handle: uintptr_t,
    offset: size_t,
    ldy: u32,
    ldz: u32,
) {
    ptr_register(
        "starpu_block_ptr_register",
        h,
        node,
        |d: &mut BlockInterface| {
            (d.ptr, d.dev_handle, d.offset, d.ldy, d.ldz) = (ptr, dev_handle, offset, ldy, ldz);
        },
    );
}

/// `starpu_tensor_ptr_register`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn starpu_tensor_ptr_register(
    h: starpu_data_handle_t,
    node: c_uint,
    ptr: uintptr_t,
    dev_handle: uintptr_t,
    offset: size_t,
    ldy: u32,
    ldz: u32,
    ldt: u32,
) {
    ptr_register(
        "starpu_tensor_ptr_register",
        h,
        node,
        |d: &mut TensorInterface| {
            (d.ptr, d.dev_handle, d.offset) = (ptr, dev_handle, offset);
            (d.ldy, d.ldz, d.ldt) = (ldy, ldz, ldt);
        },
    );
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
