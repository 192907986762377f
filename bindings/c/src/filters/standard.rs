//! StarPU's standard filter functions (`starpu_vector_filter_block` and the 50 others),
//! each the core's `Filter` of the same name with its arguments read from the C struct
//! (`nchildren`, `filter_arg`, `filter_arg_ptr`, as StarPU documents each), and the
//! `*_child_ops` functions naming the interface of the children of pick filters.
//!
//! Partitioning with one of these functions uses the core filter directly (`builder`), so
//! that a bad argument fails the call; called from C (inside an application's own filter),
//! a function reports its error on stderr and leaves the child untouched.

use super::{
    starpu_interface_block_ops, starpu_interface_matrix_ops, starpu_interface_tensor_ops,
    starpu_interface_variable_ops, starpu_interface_vector_ops,
};
use crate::abi::*;
use crate::ffi;
use libc::{c_long, c_uint, c_void};
use starpu_core::data::filters::ndim;
use starpu_core::data::interfaces::{NdimInterface, VariableInterface};
use starpu_core::data::Filter;
use starpu_core::{Error, Result};

/// A C filter function.
pub(super) type CFilter =
    unsafe extern "C" fn(*mut c_void, *mut c_void, *mut starpu_data_filter, c_uint, c_uint);

/// Makes the core filter of a standard function from the C struct and the number of
/// children.
pub(super) type Build = fn(&starpu_data_filter, usize) -> Result<Filter>;

struct Standard {
    name: &'static str,
    func: CFilter,
    build: Build,
}

/// The core filter builder for `func`, if it is one of the standard functions.
pub(super) fn builder(func: CFilter) -> Option<Build> {
    lookup(func).map(|s| s.build)
}

fn lookup(func: CFilter) -> Option<&'static Standard> {
    STANDARD.iter().find(|s| s.func as usize == func as usize)
}

/// `(uintptr_t) filter_arg_ptr`: a shadow width.
fn shadow(f: &starpu_data_filter) -> Result<u32> {
    u32::try_from(f.filter_arg_ptr as usize).map_err(|_| {
        Error::invalid(format!(
            "the shadow width (filter_arg_ptr) {} is too large",
            f.filter_arg_ptr as usize
        ))
    })
}

/// `(size_t) filter_arg_ptr`: the first index a pick filter takes.
fn first(f: &starpu_data_filter) -> u64 {
    f.filter_arg_ptr as usize as u64
}

/// `filter_arg`: the dimension an ndim filter works along.
fn dim(f: &starpu_data_filter) -> usize {
    f.filter_arg as usize
}

/// The `N` coordinates `(uint32_t *) filter_arg_ptr` points to.
fn pos<const N: usize>(f: &starpu_data_filter) -> Result<[u32; N]> {
    let p = f.filter_arg_ptr as *const u32;
    if p.is_null() {
        return Err(Error::invalid(format!(
            "filter_arg_ptr must point to the {N} coordinates of the element to pick"
        )));
    }
    // SAFETY: StarPU's contract for this filter: filter_arg_ptr points to N uint32_t.
    Ok(std::array::from_fn(|i| unsafe { *p.add(i) }))
}

/// The `n` lengths `filter_arg_ptr` points to, of C type `T`.
fn lengths<T: Copy>(f: &starpu_data_filter, n: usize) -> Result<Vec<T>> {
    let p = f.filter_arg_ptr as *const T;
    if p.is_null() {
        return Err(Error::invalid(
            "filter_arg_ptr must point to the length of each part",
        ));
    }
    // SAFETY: StarPU's contract for list filters: one length per child.
    Ok((0..n).map(|i| unsafe { *p.add(i) }).collect())
}

fn list_u32(f: &starpu_data_filter, n: usize) -> Result<Vec<u32>> {
    lengths::<u32>(f, n)
}

// `long` is 32 bits on some platforms.
#[allow(clippy::useless_conversion)]
fn list_long(f: &starpu_data_filter, n: usize) -> Result<Vec<i64>> {
    Ok(lengths::<c_long>(f, n)?
        .into_iter()
        .map(i64::from)
        .collect())
}

/// `starpu_ndim_filter_pick_variable`: the position has one coordinate per dimension of
/// the parent, so it is read when the filter is applied.
fn ndim_pick_variable(f: &starpu_data_filter, n: usize) -> Result<Filter> {
    let at = f.filter_arg_ptr as usize;
    Ok(Filter::checked::<NdimInterface, VariableInterface>(
        n,
        move |p, c, _, _| {
            if at == 0 {
                return Err(Error::invalid(
                    "filter_arg_ptr must point to the coordinates of the element to pick",
                ));
            }
            // SAFETY: StarPU's contract: one uint32_t coordinate per dimension.
            let pos: Vec<u32> = (0..p.ndim)
                .map(|i| unsafe { *(at as *const u32).add(i) })
                .collect();
            ndim::pick_variable(p, c, &pos)
        },
    ))
}

/// Runs standard function `STANDARD[which]` on one child, as C calls it. (Each function
/// passes its index: functions with identical code may share an address once linked.)
unsafe fn apply(
    which: usize,
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    ffi::guard("starpu_*_filter_*", (), || {
        let Some(s) = STANDARD.get(which) else { return };
        let run = || -> Result<()> {
            ffi::non_null(father, "father_interface")?;
            ffi::non_null(child, "child_interface")?;
            ffi::non_null(f, "filter")?;
            let filter = (s.build)(&*f, nparts as usize)?;
            if let Some(want) = filter.parent_id {
                let got = *(father as *const i32);
                if got != want {
                    return Err(Error::invalid(format!(
                        "applied to a description of interface id {got}, not {want}"
                    )));
                }
            }
            (filter.apply)(
                father as *const u8,
                child as *mut u8,
                id as usize,
                nparts as usize,
            )
        };
        if let Err(e) = run() {
            ffi::report(s.name, &e);
        }
    })
}

/// `starpu_vector_filter_block`: `n` contiguous, nearly equal parts.
///
/// # Safety
/// `father` and `child` are interface descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_vector_filter_block(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    apply(0, father, child, f, id, nparts)
}

/// `starpu_vector_filter_block_shadow`: parts overlapping by `(uintptr_t) filter_arg_ptr` elements on each side.
///
/// # Safety
/// `father` and `child` are interface descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_vector_filter_block_shadow(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    apply(1, father, child, f, id, nparts)
}

/// `starpu_vector_filter_list_long`: parts of the `long` lengths `filter_arg_ptr` points to.
///
/// # Safety
/// `father` and `child` are interface descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_vector_filter_list_long(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    apply(2, father, child, f, id, nparts)
}

/// `starpu_vector_filter_list`: parts of the `uint32_t` lengths `filter_arg_ptr` points to.
///
/// # Safety
/// `father` and `child` are interface descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_vector_filter_list(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    apply(3, father, child, f, id, nparts)
}

/// `starpu_vector_filter_divide_in_2`: the first `filter_arg` elements, then the rest.
///
/// # Safety
/// `father` and `child` are interface descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_vector_filter_divide_in_2(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    apply(4, father, child, f, id, nparts)
}

/// `starpu_vector_filter_pick_variable`: variables from element `(size_t) filter_arg_ptr`.
///
/// # Safety
/// `father` and `child` are interface descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_vector_filter_pick_variable(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    apply(5, father, child, f, id, nparts)
}

/// `starpu_matrix_filter_block`: parts along x.
///
/// # Safety
/// `father` and `child` are interface descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_matrix_filter_block(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    apply(6, father, child, f, id, nparts)
}

/// `starpu_matrix_filter_block_shadow`: parts along x with a shadow of `(uintptr_t) filter_arg_ptr`.
///
/// # Safety
/// `father` and `child` are interface descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_matrix_filter_block_shadow(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    apply(7, father, child, f, id, nparts)
}

/// `starpu_matrix_filter_vertical_block`: parts along y.
///
/// # Safety
/// `father` and `child` are interface descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_matrix_filter_vertical_block(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    apply(8, father, child, f, id, nparts)
}

/// `starpu_matrix_filter_vertical_block_shadow`: parts along y with a shadow of `(uintptr_t) filter_arg_ptr`.
///
/// # Safety
/// `father` and `child` are interface descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_matrix_filter_vertical_block_shadow(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    apply(9, father, child, f, id, nparts)
}

/// `starpu_matrix_filter_pick_vector_y`: vectors (columns) from y = `(size_t) filter_arg_ptr`.
///
/// # Safety
/// `father` and `child` are interface descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_matrix_filter_pick_vector_y(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    apply(10, father, child, f, id, nparts)
}

/// `starpu_matrix_filter_pick_variable`: the element at the (x, y) `filter_arg_ptr` points to.
///
/// # Safety
/// `father` and `child` are interface descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_matrix_filter_pick_variable(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    apply(11, father, child, f, id, nparts)
}

/// `starpu_block_filter_block`: parts along x.
///
/// # Safety
/// `father` and `child` are interface descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_block_filter_block(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    apply(12, father, child, f, id, nparts)
}

/// `starpu_block_filter_block_shadow`: parts along x with a shadow of `(uintptr_t) filter_arg_ptr`.
///
/// # Safety
/// `father` and `child` are interface descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_block_filter_block_shadow(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    apply(13, father, child, f, id, nparts)
}

/// `starpu_block_filter_vertical_block`: parts along y.
///
/// # Safety
/// `father` and `child` are interface descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_block_filter_vertical_block(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    apply(14, father, child, f, id, nparts)
}

/// `starpu_block_filter_vertical_block_shadow`: parts along y with a shadow of `(uintptr_t) filter_arg_ptr`.
///
/// # Safety
/// `father` and `child` are interface descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_block_filter_vertical_block_shadow(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    apply(15, father, child, f, id, nparts)
}

/// `starpu_block_filter_depth_block`: parts along z.
///
/// # Safety
/// `father` and `child` are interface descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_block_filter_depth_block(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    apply(16, father, child, f, id, nparts)
}

/// `starpu_block_filter_depth_block_shadow`: parts along z with a shadow of `(uintptr_t) filter_arg_ptr`.
///
/// # Safety
/// `father` and `child` are interface descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_block_filter_depth_block_shadow(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    apply(17, father, child, f, id, nparts)
}

/// `starpu_block_filter_pick_matrix_z`: x-y planes from z = `(size_t) filter_arg_ptr`.
///
/// # Safety
/// `father` and `child` are interface descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_block_filter_pick_matrix_z(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    apply(18, father, child, f, id, nparts)
}

/// `starpu_block_filter_pick_matrix_y`: x-z planes from y = `(size_t) filter_arg_ptr`.
///
/// # Safety
/// `father` and `child` are interface descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_block_filter_pick_matrix_y(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    apply(19, father, child, f, id, nparts)
}

/// `starpu_block_filter_pick_variable`: the element at the (x, y, z) `filter_arg_ptr` points to.
///
/// # Safety
/// `father` and `child` are interface descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_block_filter_pick_variable(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    apply(20, father, child, f, id, nparts)
}

/// `starpu_tensor_filter_block`: parts along x.
///
/// # Safety
/// `father` and `child` are interface descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_tensor_filter_block(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    apply(21, father, child, f, id, nparts)
}

/// `starpu_tensor_filter_block_shadow`: parts along x with a shadow of `(uintptr_t) filter_arg_ptr`.
///
/// # Safety
/// `father` and `child` are interface descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_tensor_filter_block_shadow(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    apply(22, father, child, f, id, nparts)
}

/// `starpu_tensor_filter_vertical_block`: parts along y.
///
/// # Safety
/// `father` and `child` are interface descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_tensor_filter_vertical_block(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    apply(23, father, child, f, id, nparts)
}

/// `starpu_tensor_filter_vertical_block_shadow`: parts along y with a shadow of `(uintptr_t) filter_arg_ptr`.
///
/// # Safety
/// `father` and `child` are interface descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_tensor_filter_vertical_block_shadow(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    apply(24, father, child, f, id, nparts)
}

/// `starpu_tensor_filter_depth_block`: parts along z.
///
/// # Safety
/// `father` and `child` are interface descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_tensor_filter_depth_block(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    apply(25, father, child, f, id, nparts)
}

/// `starpu_tensor_filter_depth_block_shadow`: parts along z with a shadow of `(uintptr_t) filter_arg_ptr`.
///
/// # Safety
/// `father` and `child` are interface descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_tensor_filter_depth_block_shadow(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    apply(26, father, child, f, id, nparts)
}

/// `starpu_tensor_filter_time_block`: parts along t.
///
/// # Safety
/// `father` and `child` are interface descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_tensor_filter_time_block(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    apply(27, father, child, f, id, nparts)
}

/// `starpu_tensor_filter_time_block_shadow`: parts along t with a shadow of `(uintptr_t) filter_arg_ptr`.
///
/// # Safety
/// `father` and `child` are interface descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_tensor_filter_time_block_shadow(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    apply(28, father, child, f, id, nparts)
}

/// `starpu_tensor_filter_pick_block_t`: blocks from t = `(size_t) filter_arg_ptr`.
///
/// # Safety
/// `father` and `child` are interface descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_tensor_filter_pick_block_t(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    apply(29, father, child, f, id, nparts)
}

/// `starpu_tensor_filter_pick_block_z`: blocks from z = `(size_t) filter_arg_ptr`.
///
/// # Safety
/// `father` and `child` are interface descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_tensor_filter_pick_block_z(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    apply(30, father, child, f, id, nparts)
}

/// `starpu_tensor_filter_pick_block_y`: blocks from y = `(size_t) filter_arg_ptr`.
///
/// # Safety
/// `father` and `child` are interface descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_tensor_filter_pick_block_y(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    apply(31, father, child, f, id, nparts)
}

/// `starpu_tensor_filter_pick_variable`: the element at the (x, y, z, t) `filter_arg_ptr` points to.
///
/// # Safety
/// `father` and `child` are interface descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_tensor_filter_pick_variable(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    apply(32, father, child, f, id, nparts)
}

/// `starpu_ndim_filter_block`: parts along dimension `filter_arg`.
///
/// # Safety
/// `father` and `child` are interface descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_ndim_filter_block(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    apply(33, father, child, f, id, nparts)
}

/// `starpu_ndim_filter_block_shadow`: parts along dimension `filter_arg` with a shadow of `(uintptr_t) filter_arg_ptr`.
///
/// # Safety
/// `father` and `child` are interface descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_ndim_filter_block_shadow(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    apply(34, father, child, f, id, nparts)
}

/// `starpu_ndim_filter_to_tensor`: a 4-dimension array cut along `filter_arg` into tensors.
///
/// # Safety
/// `father` and `child` are interface descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_ndim_filter_to_tensor(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    apply(35, father, child, f, id, nparts)
}

/// `starpu_ndim_filter_to_block`: a 3-dimension array cut along `filter_arg` into blocks.
///
/// # Safety
/// `father` and `child` are interface descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_ndim_filter_to_block(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    apply(36, father, child, f, id, nparts)
}

/// `starpu_ndim_filter_to_matrix`: a 2-dimension array cut along `filter_arg` into matrices.
///
/// # Safety
/// `father` and `child` are interface descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_ndim_filter_to_matrix(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    apply(37, father, child, f, id, nparts)
}

/// `starpu_ndim_filter_to_vector`: a 1-dimension array cut into vectors.
///
/// # Safety
/// `father` and `child` are interface descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_ndim_filter_to_vector(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    apply(38, father, child, f, id, nparts)
}

/// `starpu_ndim_filter_to_variable`: a 0-dimension array as a variable.
///
/// # Safety
/// `father` and `child` are interface descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_ndim_filter_to_variable(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    apply(39, father, child, f, id, nparts)
}

/// `starpu_ndim_filter_pick_ndim`: (n-1)-dimension arrays from index `(size_t) filter_arg_ptr` of dimension `filter_arg`.
///
/// # Safety
/// `father` and `child` are interface descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_ndim_filter_pick_ndim(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    apply(40, father, child, f, id, nparts)
}

/// `starpu_ndim_filter_5d_pick_tensor`: tensors from index `(size_t) filter_arg_ptr` of dimension `filter_arg` of a 5-dimension array.
///
/// # Safety
/// `father` and `child` are interface descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_ndim_filter_5d_pick_tensor(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    apply(41, father, child, f, id, nparts)
}

/// `starpu_ndim_filter_4d_pick_block`: blocks from index `(size_t) filter_arg_ptr` of dimension `filter_arg` of a 4-dimension array.
///
/// # Safety
/// `father` and `child` are interface descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_ndim_filter_4d_pick_block(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    apply(42, father, child, f, id, nparts)
}

/// `starpu_ndim_filter_3d_pick_matrix`: matrices from index `(size_t) filter_arg_ptr` of dimension `filter_arg` of a 3-dimension array.
///
/// # Safety
/// `father` and `child` are interface descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_ndim_filter_3d_pick_matrix(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    apply(43, father, child, f, id, nparts)
}

/// `starpu_ndim_filter_2d_pick_vector`: vectors from index `(size_t) filter_arg_ptr` of dimension `filter_arg` of a 2-dimension array.
///
/// # Safety
/// `father` and `child` are interface descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_ndim_filter_2d_pick_vector(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    apply(44, father, child, f, id, nparts)
}

/// `starpu_ndim_filter_1d_pick_variable`: variables from element `(size_t) filter_arg_ptr` of a 1-dimension array.
///
/// # Safety
/// `father` and `child` are interface descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_ndim_filter_1d_pick_variable(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    apply(45, father, child, f, id, nparts)
}

/// `starpu_ndim_filter_pick_variable`: the element at the position (one coordinate per dimension) `filter_arg_ptr` points to.
///
/// # Safety
/// `father` and `child` are interface descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_ndim_filter_pick_variable(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    apply(46, father, child, f, id, nparts)
}

/// `starpu_csr_filter_vertical_block`: bands of consecutive rows.
///
/// # Safety
/// `father` and `child` are interface descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_csr_filter_vertical_block(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    apply(47, father, child, f, id, nparts)
}

/// `starpu_bcsr_filter_vertical_block`: bands of consecutive block rows.
///
/// # Safety
/// `father` and `child` are interface descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_bcsr_filter_vertical_block(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    apply(48, father, child, f, id, nparts)
}

/// `starpu_bcsr_filter_canonical_block`: one dense matrix per stored block.
///
/// # Safety
/// `father` and `child` are interface descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_bcsr_filter_canonical_block(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    apply(49, father, child, f, id, nparts)
}

/// Every standard function and its core filter.
static STANDARD: &[Standard] = &[
    Standard {
        name: "starpu_vector_filter_block",
        func: starpu_vector_filter_block,
        build: |_f, n| Ok(Filter::vector_block(n)),
    },
    Standard {
        name: "starpu_vector_filter_block_shadow",
        func: starpu_vector_filter_block_shadow,
        build: |f, n| Ok(Filter::vector_block_shadow(n, shadow(f)?)),
    },
    Standard {
        name: "starpu_vector_filter_list_long",
        func: starpu_vector_filter_list_long,
        build: |f, n| Ok(Filter::vector_list_long(list_long(f, n)?)),
    },
    Standard {
        name: "starpu_vector_filter_list",
        func: starpu_vector_filter_list,
        build: |f, n| Ok(Filter::vector_list(list_u32(f, n)?)),
    },
    Standard {
        name: "starpu_vector_filter_divide_in_2",
        func: starpu_vector_filter_divide_in_2,
        build: |f, _| Ok(Filter::vector_divide_in_2(f.filter_arg)),
    },
    Standard {
        name: "starpu_vector_filter_pick_variable",
        func: starpu_vector_filter_pick_variable,
        build: |f, n| Ok(Filter::vector_pick_variable(n, first(f))),
    },
    Standard {
        name: "starpu_matrix_filter_block",
        func: starpu_matrix_filter_block,
        build: |_f, n| Ok(Filter::matrix_block(n)),
    },
    Standard {
        name: "starpu_matrix_filter_block_shadow",
        func: starpu_matrix_filter_block_shadow,
        build: |f, n| Ok(Filter::matrix_block_shadow(n, shadow(f)?)),
    },
    Standard {
        name: "starpu_matrix_filter_vertical_block",
        func: starpu_matrix_filter_vertical_block,
        build: |_f, n| Ok(Filter::matrix_vertical_block(n)),
    },
    Standard {
        name: "starpu_matrix_filter_vertical_block_shadow",
        func: starpu_matrix_filter_vertical_block_shadow,
        build: |f, n| Ok(Filter::matrix_vertical_block_shadow(n, shadow(f)?)),
    },
    Standard {
        name: "starpu_matrix_filter_pick_vector_y",
        func: starpu_matrix_filter_pick_vector_y,
        build: |f, n| Ok(Filter::matrix_pick_vector_y(n, first(f))),
    },
    Standard {
        name: "starpu_matrix_filter_pick_variable",
        func: starpu_matrix_filter_pick_variable,
        build: |f, n| Ok(Filter::matrix_pick_variable(n, pos::<2>(f)?)),
    },
    Standard {
        name: "starpu_block_filter_block",
        func: starpu_block_filter_block,
        build: |_f, n| Ok(Filter::block_block(n)),
    },
    Standard {
        name: "starpu_block_filter_block_shadow",
        func: starpu_block_filter_block_shadow,
        build: |f, n| Ok(Filter::block_block_shadow(n, shadow(f)?)),
    },
    Standard {
        name: "starpu_block_filter_vertical_block",
        func: starpu_block_filter_vertical_block,
        build: |_f, n| Ok(Filter::block_vertical_block(n)),
    },
    Standard {
        name: "starpu_block_filter_vertical_block_shadow",
        func: starpu_block_filter_vertical_block_shadow,
        build: |f, n| Ok(Filter::block_vertical_block_shadow(n, shadow(f)?)),
    },
    Standard {
        name: "starpu_block_filter_depth_block",
        func: starpu_block_filter_depth_block,
        build: |_f, n| Ok(Filter::block_depth_block(n)),
    },
    Standard {
        name: "starpu_block_filter_depth_block_shadow",
        func: starpu_block_filter_depth_block_shadow,
        build: |f, n| Ok(Filter::block_depth_block_shadow(n, shadow(f)?)),
    },
    Standard {
        name: "starpu_block_filter_pick_matrix_z",
        func: starpu_block_filter_pick_matrix_z,
        build: |f, n| Ok(Filter::block_pick_matrix_z(n, first(f))),
    },
    Standard {
        name: "starpu_block_filter_pick_matrix_y",
        func: starpu_block_filter_pick_matrix_y,
        build: |f, n| Ok(Filter::block_pick_matrix_y(n, first(f))),
    },
    Standard {
        name: "starpu_block_filter_pick_variable",
        func: starpu_block_filter_pick_variable,
        build: |f, n| Ok(Filter::block_pick_variable(n, pos::<3>(f)?)),
    },
    Standard {
        name: "starpu_tensor_filter_block",
        func: starpu_tensor_filter_block,
        build: |_f, n| Ok(Filter::tensor_split(n, 0, 0)),
    },
    Standard {
        name: "starpu_tensor_filter_block_shadow",
        func: starpu_tensor_filter_block_shadow,
        build: |f, n| Ok(Filter::tensor_split(n, 0, shadow(f)?)),
    },
    Standard {
        name: "starpu_tensor_filter_vertical_block",
        func: starpu_tensor_filter_vertical_block,
        build: |_f, n| Ok(Filter::tensor_split(n, 1, 0)),
    },
    Standard {
        name: "starpu_tensor_filter_vertical_block_shadow",
        func: starpu_tensor_filter_vertical_block_shadow,
        build: |f, n| Ok(Filter::tensor_split(n, 1, shadow(f)?)),
    },
    Standard {
        name: "starpu_tensor_filter_depth_block",
        func: starpu_tensor_filter_depth_block,
        build: |_f, n| Ok(Filter::tensor_split(n, 2, 0)),
    },
    Standard {
        name: "starpu_tensor_filter_depth_block_shadow",
        func: starpu_tensor_filter_depth_block_shadow,
        build: |f, n| Ok(Filter::tensor_split(n, 2, shadow(f)?)),
    },
    Standard {
        name: "starpu_tensor_filter_time_block",
        func: starpu_tensor_filter_time_block,
        build: |_f, n| Ok(Filter::tensor_split(n, 3, 0)),
    },
    Standard {
        name: "starpu_tensor_filter_time_block_shadow",
        func: starpu_tensor_filter_time_block_shadow,
        build: |f, n| Ok(Filter::tensor_split(n, 3, shadow(f)?)),
    },
    Standard {
        name: "starpu_tensor_filter_pick_block_t",
        func: starpu_tensor_filter_pick_block_t,
        build: |f, n| Ok(Filter::tensor_pick_block(n, 3, first(f))),
    },
    Standard {
        name: "starpu_tensor_filter_pick_block_z",
        func: starpu_tensor_filter_pick_block_z,
        build: |f, n| Ok(Filter::tensor_pick_block(n, 2, first(f))),
    },
    Standard {
        name: "starpu_tensor_filter_pick_block_y",
        func: starpu_tensor_filter_pick_block_y,
        build: |f, n| Ok(Filter::tensor_pick_block(n, 1, first(f))),
    },
    Standard {
        name: "starpu_tensor_filter_pick_variable",
        func: starpu_tensor_filter_pick_variable,
        build: |f, n| Ok(Filter::tensor_pick_variable(n, pos::<4>(f)?)),
    },
    Standard {
        name: "starpu_ndim_filter_block",
        func: starpu_ndim_filter_block,
        build: |f, n| Ok(Filter::ndim_block(n, dim(f), 0)),
    },
    Standard {
        name: "starpu_ndim_filter_block_shadow",
        func: starpu_ndim_filter_block_shadow,
        build: |f, n| Ok(Filter::ndim_block(n, dim(f), shadow(f)?)),
    },
    Standard {
        name: "starpu_ndim_filter_to_tensor",
        func: starpu_ndim_filter_to_tensor,
        build: |f, n| Ok(Filter::ndim_to_tensor(n, dim(f))),
    },
    Standard {
        name: "starpu_ndim_filter_to_block",
        func: starpu_ndim_filter_to_block,
        build: |f, n| Ok(Filter::ndim_to_block(n, dim(f))),
    },
    Standard {
        name: "starpu_ndim_filter_to_matrix",
        func: starpu_ndim_filter_to_matrix,
        build: |f, n| Ok(Filter::ndim_to_matrix(n, dim(f))),
    },
    Standard {
        name: "starpu_ndim_filter_to_vector",
        func: starpu_ndim_filter_to_vector,
        build: |_f, n| Ok(Filter::ndim_to_vector(n)),
    },
    Standard {
        name: "starpu_ndim_filter_to_variable",
        func: starpu_ndim_filter_to_variable,
        build: |_f, _| Ok(Filter::ndim_to_variable()),
    },
    Standard {
        name: "starpu_ndim_filter_pick_ndim",
        func: starpu_ndim_filter_pick_ndim,
        build: |f, n| Ok(Filter::ndim_pick_ndim(n, dim(f), first(f))),
    },
    Standard {
        name: "starpu_ndim_filter_5d_pick_tensor",
        func: starpu_ndim_filter_5d_pick_tensor,
        build: |f, n| Ok(Filter::ndim_pick_tensor(n, dim(f), first(f))),
    },
    Standard {
        name: "starpu_ndim_filter_4d_pick_block",
        func: starpu_ndim_filter_4d_pick_block,
        build: |f, n| Ok(Filter::ndim_pick_block(n, dim(f), first(f))),
    },
    Standard {
        name: "starpu_ndim_filter_3d_pick_matrix",
        func: starpu_ndim_filter_3d_pick_matrix,
        build: |f, n| Ok(Filter::ndim_pick_matrix(n, dim(f), first(f))),
    },
    Standard {
        name: "starpu_ndim_filter_2d_pick_vector",
        func: starpu_ndim_filter_2d_pick_vector,
        build: |f, n| Ok(Filter::ndim_pick_vector(n, dim(f), first(f))),
    },
    Standard {
        name: "starpu_ndim_filter_1d_pick_variable",
        func: starpu_ndim_filter_1d_pick_variable,
        build: |f, n| Ok(Filter::ndim_1d_pick_variable(n, first(f))),
    },
    Standard {
        name: "starpu_ndim_filter_pick_variable",
        func: starpu_ndim_filter_pick_variable,
        build: |f, n| ndim_pick_variable(f, n),
    },
    Standard {
        name: "starpu_csr_filter_vertical_block",
        func: starpu_csr_filter_vertical_block,
        build: |_f, n| Ok(Filter::csr_vertical_block(n)),
    },
    Standard {
        name: "starpu_bcsr_filter_vertical_block",
        func: starpu_bcsr_filter_vertical_block,
        build: |_f, n| Ok(Filter::bcsr_vertical_block(n)),
    },
    Standard {
        name: "starpu_bcsr_filter_canonical_block",
        func: starpu_bcsr_filter_canonical_block,
        build: |_f, _| Ok(Filter::bcsr_canonical_block()),
    },
];

/// `starpu_vector_filter_pick_variable_child_ops`: the children are of `starpu_interface_variable_ops`.
#[no_mangle]
pub extern "C" fn starpu_vector_filter_pick_variable_child_ops(
    f: *mut starpu_data_filter,
    child: c_uint,
) -> *mut starpu_data_interface_ops {
    let _ = (f, child);
    std::ptr::addr_of_mut!(starpu_interface_variable_ops)
}

/// `starpu_matrix_filter_pick_vector_child_ops`: the children are of `starpu_interface_vector_ops`.
#[no_mangle]
pub extern "C" fn starpu_matrix_filter_pick_vector_child_ops(
    f: *mut starpu_data_filter,
    child: c_uint,
) -> *mut starpu_data_interface_ops {
    let _ = (f, child);
    std::ptr::addr_of_mut!(starpu_interface_vector_ops)
}

/// `starpu_matrix_filter_pick_variable_child_ops`: the children are of `starpu_interface_variable_ops`.
#[no_mangle]
pub extern "C" fn starpu_matrix_filter_pick_variable_child_ops(
    f: *mut starpu_data_filter,
    child: c_uint,
) -> *mut starpu_data_interface_ops {
    let _ = (f, child);
    std::ptr::addr_of_mut!(starpu_interface_variable_ops)
}

/// `starpu_block_filter_pick_matrix_child_ops`: the children are of `starpu_interface_matrix_ops`.
#[no_mangle]
pub extern "C" fn starpu_block_filter_pick_matrix_child_ops(
    f: *mut starpu_data_filter,
    child: c_uint,
) -> *mut starpu_data_interface_ops {
    let _ = (f, child);
    std::ptr::addr_of_mut!(starpu_interface_matrix_ops)
}

/// `starpu_block_filter_pick_variable_child_ops`: the children are of `starpu_interface_variable_ops`.
#[no_mangle]
pub extern "C" fn starpu_block_filter_pick_variable_child_ops(
    f: *mut starpu_data_filter,
    child: c_uint,
) -> *mut starpu_data_interface_ops {
    let _ = (f, child);
    std::ptr::addr_of_mut!(starpu_interface_variable_ops)
}

/// `starpu_tensor_filter_pick_block_child_ops`: the children are of `starpu_interface_block_ops`.
#[no_mangle]
pub extern "C" fn starpu_tensor_filter_pick_block_child_ops(
    f: *mut starpu_data_filter,
    child: c_uint,
) -> *mut starpu_data_interface_ops {
    let _ = (f, child);
    std::ptr::addr_of_mut!(starpu_interface_block_ops)
}

/// `starpu_tensor_filter_pick_variable_child_ops`: the children are of `starpu_interface_variable_ops`.
#[no_mangle]
pub extern "C" fn starpu_tensor_filter_pick_variable_child_ops(
    f: *mut starpu_data_filter,
    child: c_uint,
) -> *mut starpu_data_interface_ops {
    let _ = (f, child);
    std::ptr::addr_of_mut!(starpu_interface_variable_ops)
}

/// `starpu_ndim_filter_pick_tensor_child_ops`: the children are of `starpu_interface_tensor_ops`.
#[no_mangle]
pub extern "C" fn starpu_ndim_filter_pick_tensor_child_ops(
    f: *mut starpu_data_filter,
    child: c_uint,
) -> *mut starpu_data_interface_ops {
    let _ = (f, child);
    std::ptr::addr_of_mut!(starpu_interface_tensor_ops)
}

/// `starpu_ndim_filter_pick_block_child_ops`: the children are of `starpu_interface_block_ops`.
#[no_mangle]
pub extern "C" fn starpu_ndim_filter_pick_block_child_ops(
    f: *mut starpu_data_filter,
    child: c_uint,
) -> *mut starpu_data_interface_ops {
    let _ = (f, child);
    std::ptr::addr_of_mut!(starpu_interface_block_ops)
}

/// `starpu_ndim_filter_pick_matrix_child_ops`: the children are of `starpu_interface_matrix_ops`.
#[no_mangle]
pub extern "C" fn starpu_ndim_filter_pick_matrix_child_ops(
    f: *mut starpu_data_filter,
    child: c_uint,
) -> *mut starpu_data_interface_ops {
    let _ = (f, child);
    std::ptr::addr_of_mut!(starpu_interface_matrix_ops)
}

/// `starpu_ndim_filter_pick_vector_child_ops`: the children are of `starpu_interface_vector_ops`.
#[no_mangle]
pub extern "C" fn starpu_ndim_filter_pick_vector_child_ops(
    f: *mut starpu_data_filter,
    child: c_uint,
) -> *mut starpu_data_interface_ops {
    let _ = (f, child);
    std::ptr::addr_of_mut!(starpu_interface_vector_ops)
}

/// `starpu_ndim_filter_pick_variable_child_ops`: the children are of `starpu_interface_variable_ops`.
#[no_mangle]
pub extern "C" fn starpu_ndim_filter_pick_variable_child_ops(
    f: *mut starpu_data_filter,
    child: c_uint,
) -> *mut starpu_data_interface_ops {
    let _ = (f, child);
    std::ptr::addr_of_mut!(starpu_interface_variable_ops)
}

/// `starpu_ndim_filter_to_tensor_child_ops`: the children are of `starpu_interface_tensor_ops`.
#[no_mangle]
pub extern "C" fn starpu_ndim_filter_to_tensor_child_ops(
    f: *mut starpu_data_filter,
    child: c_uint,
) -> *mut starpu_data_interface_ops {
    let _ = (f, child);
    std::ptr::addr_of_mut!(starpu_interface_tensor_ops)
}

/// `starpu_ndim_filter_to_block_child_ops`: the children are of `starpu_interface_block_ops`.
#[no_mangle]
pub extern "C" fn starpu_ndim_filter_to_block_child_ops(
    f: *mut starpu_data_filter,
    child: c_uint,
) -> *mut starpu_data_interface_ops {
    let _ = (f, child);
    std::ptr::addr_of_mut!(starpu_interface_block_ops)
}

/// `starpu_ndim_filter_to_matrix_child_ops`: the children are of `starpu_interface_matrix_ops`.
#[no_mangle]
pub extern "C" fn starpu_ndim_filter_to_matrix_child_ops(
    f: *mut starpu_data_filter,
    child: c_uint,
) -> *mut starpu_data_interface_ops {
    let _ = (f, child);
    std::ptr::addr_of_mut!(starpu_interface_matrix_ops)
}

/// `starpu_ndim_filter_to_vector_child_ops`: the children are of `starpu_interface_vector_ops`.
#[no_mangle]
pub extern "C" fn starpu_ndim_filter_to_vector_child_ops(
    f: *mut starpu_data_filter,
    child: c_uint,
) -> *mut starpu_data_interface_ops {
    let _ = (f, child);
    std::ptr::addr_of_mut!(starpu_interface_vector_ops)
}

/// `starpu_ndim_filter_to_variable_child_ops`: the children are of `starpu_interface_variable_ops`.
#[no_mangle]
pub extern "C" fn starpu_ndim_filter_to_variable_child_ops(
    f: *mut starpu_data_filter,
    child: c_uint,
) -> *mut starpu_data_interface_ops {
    let _ = (f, child);
    std::ptr::addr_of_mut!(starpu_interface_variable_ops)
}

/// `starpu_bcsr_filter_canonical_block_child_ops`: the children are of `starpu_interface_matrix_ops`.
#[no_mangle]
pub extern "C" fn starpu_bcsr_filter_canonical_block_child_ops(
    f: *mut starpu_data_filter,
    child: c_uint,
) -> *mut starpu_data_interface_ops {
    let _ = (f, child);
    std::ptr::addr_of_mut!(starpu_interface_matrix_ops)
}

/// `starpu_bcsr_filter_canonical_block_get_nchildren`: one child per stored block.
#[no_mangle]
pub extern "C" fn starpu_bcsr_filter_canonical_block_get_nchildren(
    f: *mut starpu_data_filter,
    h: starpu_data_handle_t,
) -> c_uint {
    let _ = f;
    ffi::value_call(
        "starpu_bcsr_filter_canonical_block_get_nchildren",
        0,
        || {
            let h = ffi::handle(h)?;
            Filter::bcsr_canonical_block()
                .nchildren_for(&h)
                .map(|n| n as c_uint)
        },
    )
}
