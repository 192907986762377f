//! Data filters for Fortran: `struct starpu_data_filter` built through setters, and the
//! two partition calls StarPU's C API only offers as variadic functions
//! (`starpu_data_get_sub_data`, `starpu_data_map_filters`), here with arrays.

use super::capi::{self, FilterFunc};
use super::{non_null, report};
use crate::types::{starpu_data_filter, starpu_data_handle_t, starpu_data_interface_ops};
use libc::{c_int, c_uint, c_void};

/// `get_nchildren` of a filter.
type NChildren = unsafe extern "C" fn(*mut starpu_data_filter, starpu_data_handle_t) -> c_uint;
/// `get_child_ops` of a filter.
type ChildOps =
    unsafe extern "C" fn(*mut starpu_data_filter, c_uint) -> *mut starpu_data_interface_ops;

/// `fstarpu_data_filter_allocate`: an empty filter (set its function and children).
#[no_mangle]
pub unsafe extern "C" fn fstarpu_data_filter_allocate() -> *mut starpu_data_filter {
    let f = libc::calloc(1, std::mem::size_of::<starpu_data_filter>()) as *mut starpu_data_filter;
    if f.is_null() {
        report("fstarpu_data_filter_allocate", "out of memory");
    }
    f
}

/// `fstarpu_data_filter_free`.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_data_filter_free(f: *mut starpu_data_filter) {
    libc::free(f as *mut c_void);
}

/// Defines `fstarpu_df_alloc_NAME()`: a filter whose function is `starpu_NAME`.
macro_rules! preset_filters {
    ($($alloc:ident => $func:ident,)*) => {$(
        #[doc = concat!("`", stringify!($alloc), "`: a filter using `", stringify!($func), "`.")]
        #[no_mangle]
        pub unsafe extern "C" fn $alloc() -> *mut starpu_data_filter {
            let f = fstarpu_data_filter_allocate();
            if !f.is_null() {
                (*f).filter_func = Some(capi::$func as FilterFunc);
            }
            f
        }
    )*};
}

preset_filters! {
    fstarpu_df_alloc_vector_filter_block => starpu_vector_filter_block,
    fstarpu_df_alloc_vector_filter_block_shadow => starpu_vector_filter_block_shadow,
    fstarpu_df_alloc_vector_filter_list => starpu_vector_filter_list,
    fstarpu_df_alloc_vector_filter_divide_in_2 => starpu_vector_filter_divide_in_2,
    fstarpu_df_alloc_matrix_filter_block => starpu_matrix_filter_block,
    fstarpu_df_alloc_matrix_filter_block_shadow => starpu_matrix_filter_block_shadow,
    fstarpu_df_alloc_matrix_filter_vertical_block => starpu_matrix_filter_vertical_block,
    fstarpu_df_alloc_matrix_filter_vertical_block_shadow => starpu_matrix_filter_vertical_block_shadow,
    fstarpu_df_alloc_block_filter_block => starpu_block_filter_block,
    fstarpu_df_alloc_block_filter_block_shadow => starpu_block_filter_block_shadow,
    fstarpu_df_alloc_block_filter_vertical_block => starpu_block_filter_vertical_block,
    fstarpu_df_alloc_block_filter_vertical_block_shadow => starpu_block_filter_vertical_block_shadow,
    fstarpu_df_alloc_csr_filter_vertical_block => starpu_csr_filter_vertical_block,
}

/// `fstarpu_df_alloc_bcsr_filter_canonical_block`: one dense matrix child per stored
/// block. The count and the children's interface come from the matrix itself, so the
/// filter carries the two functions C sets beside `starpu_bcsr_filter_canonical_block`
/// (the module offers no way to name them).
#[no_mangle]
pub unsafe extern "C" fn fstarpu_df_alloc_bcsr_filter_canonical_block() -> *mut starpu_data_filter {
    let f = fstarpu_data_filter_allocate();
    if let Some(d) = f.as_mut() {
        d.filter_func = Some(capi::starpu_bcsr_filter_canonical_block as FilterFunc);
        d.get_nchildren = Some(capi::starpu_bcsr_filter_canonical_block_get_nchildren as NChildren);
        d.get_child_ops = Some(capi::starpu_bcsr_filter_canonical_block_child_ops as ChildOps);
    }
    f
}

/// `fstarpu_data_filter_set_filter_func`: `f` is `C_FUNLOC` of a filter function.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_data_filter_set_filter_func(
    filter: *mut starpu_data_filter,
    f: *mut c_void,
) {
    let Some(d) = non_null("fstarpu_data_filter_set_filter_func", filter, "filter") else {
        return;
    };
    if f.is_null() {
        report(
            "fstarpu_data_filter_set_filter_func",
            "the function is NULL",
        );
        return;
    }
    d.filter_func = Some(std::mem::transmute::<*mut c_void, FilterFunc>(f));
}

/// `fstarpu_data_filter_set_nchildren`.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_data_filter_set_nchildren(
    filter: *mut starpu_data_filter,
    n: c_int,
) {
    let Some(d) = non_null("fstarpu_data_filter_set_nchildren", filter, "filter") else {
        return;
    };
    match c_uint::try_from(n) {
        Ok(n) => d.nchildren = n,
        Err(_) => report(
            "fstarpu_data_filter_set_nchildren",
            format_args!("{n} children"),
        ),
    }
}

/// `fstarpu_data_filter_set_get_nchildren_func`.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_data_filter_set_get_nchildren_func(
    filter: *mut starpu_data_filter,
    f: *mut c_void,
) {
    if let Some(d) = non_null(
        "fstarpu_data_filter_set_get_nchildren_func",
        filter,
        "filter",
    ) {
        d.get_nchildren = std::mem::transmute::<*mut c_void, Option<NChildren>>(f);
    }
}

/// `fstarpu_data_filter_set_get_child_ops_func`.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_data_filter_set_get_child_ops_func(
    filter: *mut starpu_data_filter,
    f: *mut c_void,
) {
    if let Some(d) = non_null(
        "fstarpu_data_filter_set_get_child_ops_func",
        filter,
        "filter",
    ) {
        d.get_child_ops = std::mem::transmute::<*mut c_void, Option<ChildOps>>(f);
    }
}

/// `fstarpu_data_filter_set_filter_arg` (C's field is unsigned; Fortran has no unsigned).
#[no_mangle]
pub unsafe extern "C" fn fstarpu_data_filter_set_filter_arg(
    filter: *mut starpu_data_filter,
    arg: c_int,
) {
    let Some(d) = non_null("fstarpu_data_filter_set_filter_arg", filter, "filter") else {
        return;
    };
    match c_uint::try_from(arg) {
        Ok(a) => d.filter_arg = a,
        Err(_) => report(
            "fstarpu_data_filter_set_filter_arg",
            format_args!("{arg} is negative"),
        ),
    }
}

/// `fstarpu_data_filter_set_filter_arg_ptr`.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_data_filter_set_filter_arg_ptr(
    filter: *mut starpu_data_filter,
    p: *mut c_void,
) {
    if let Some(d) = non_null("fstarpu_data_filter_set_filter_arg_ptr", filter, "filter") {
        d.filter_arg_ptr = p;
    }
}

/// Child `i` of `h`, or NULL after saying why.
unsafe fn child(routine: &str, h: starpu_data_handle_t, i: c_int) -> starpu_data_handle_t {
    let n = capi::starpu_data_get_nb_children(h);
    if i < 0 || i >= n {
        report(
            routine,
            format_args!("no child {i}: the handle has {n} children"),
        );
        return std::ptr::null_mut();
    }
    capi::starpu_data_get_child(h, i as c_uint)
}

/// `fstarpu_data_get_sub_data(root, depth, indices)`: the handle `depth` levels down,
/// following `indices(1..depth)` (C's `starpu_data_get_sub_data(root, depth, i1, ...)`).
///
/// # Safety
/// `indices` holds `depth` integers.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_data_get_sub_data(
    root: starpu_data_handle_t,
    depth: c_int,
    indices: *const c_int,
) -> starpu_data_handle_t {
    const ROUTINE: &str = "fstarpu_data_get_sub_data";
    if depth > 0 && indices.is_null() {
        report(ROUTINE, "indices is NULL");
        return std::ptr::null_mut();
    }
    let mut h = root;
    for level in 0..depth.max(0) as usize {
        h = child(ROUTINE, h, *indices.add(level));
        if h.is_null() {
            return h;
        }
    }
    h
}

/// Partitions `h` with `filters[0]`, then each child with the remaining filters.
unsafe fn map(h: starpu_data_handle_t, filters: &[*mut starpu_data_filter]) {
    let Some((&first, rest)) = filters.split_first() else {
        return;
    };
    capi::starpu_data_partition(h, first);
    if rest.is_empty() {
        return;
    }
    for i in 0..capi::starpu_data_get_nb_children(h).max(0) {
        map(capi::starpu_data_get_child(h, i as c_uint), rest);
    }
}

/// `fstarpu_data_map_filters(root, nfilters, filters)`: C's `starpu_data_map_filters`
/// with the filters in an array.
///
/// # Safety
/// `filters` holds `nfilters` filters.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_data_map_filters(
    root: starpu_data_handle_t,
    nfilters: c_int,
    filters: *const *mut starpu_data_filter,
) {
    if nfilters <= 0 {
        return;
    }
    if filters.is_null() {
        report("fstarpu_data_map_filters", "filters is NULL");
        return;
    }
    let list = std::slice::from_raw_parts(filters, nfilters as usize);
    if let Some(k) = list.iter().position(|f| f.is_null()) {
        report(
            "fstarpu_data_map_filters",
            format_args!("filter {} is NULL", k + 1),
        );
        return;
    }
    map(root, list);
}
