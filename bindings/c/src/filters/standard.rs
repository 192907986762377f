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

/// Defines each standard function as C calls it (`apply` with its own index) and the
/// table of their core filters, from one list. cbindgen does not expand macros: starpu.h
/// declares these functions by hand (include/epilogue.h).
macro_rules! standard_filters {
    ($($name:ident => $build:expr,)*) => {
        /// Each function's index in `STANDARD`.
        #[allow(non_camel_case_types)]
        enum Which {
            $($name,)*
        }

        $(
            crate::declared::assert_declared!($name);
            #[doc = concat!("`", stringify!($name), "`: StarPU's standard filter function.")]
            ///
            /// # Safety
            /// `father` and `child` are interface descriptions of the filter's types; `f` is
            /// the filter.
            #[no_mangle]
            pub unsafe extern "C" fn $name(
                father: *mut c_void,
                child: *mut c_void,
                f: *mut starpu_data_filter,
                id: c_uint,
                nparts: c_uint,
            ) {
                apply(Which::$name as usize, father, child, f, id, nparts)
            }
        )*

        /// Every standard function and its core filter.
        static STANDARD: &[Standard] = &[
            $(Standard { name: stringify!($name), func: $name, build: $build },)*
        ];
    };
}

standard_filters! {
    starpu_vector_filter_block => |_f, n| Ok(Filter::vector_block(n)),
    starpu_vector_filter_block_shadow => |f, n| Ok(Filter::vector_block_shadow(n, shadow(f)?)),
    starpu_vector_filter_list_long => |f, n| Ok(Filter::vector_list_long(list_long(f, n)?)),
    starpu_vector_filter_list => |f, n| Ok(Filter::vector_list(list_u32(f, n)?)),
    starpu_vector_filter_divide_in_2 => |f, _| Ok(Filter::vector_divide_in_2(f.filter_arg)),
    starpu_vector_filter_pick_variable => |f, n| Ok(Filter::vector_pick_variable(n, first(f))),
    starpu_matrix_filter_block => |_f, n| Ok(Filter::matrix_block(n)),
    starpu_matrix_filter_block_shadow => |f, n| Ok(Filter::matrix_block_shadow(n, shadow(f)?)),
    starpu_matrix_filter_vertical_block => |_f, n| Ok(Filter::matrix_vertical_block(n)),
    starpu_matrix_filter_vertical_block_shadow => |f, n| Ok(Filter::matrix_vertical_block_shadow(n, shadow(f)?)),
    starpu_matrix_filter_pick_vector_y => |f, n| Ok(Filter::matrix_pick_vector_y(n, first(f))),
    starpu_matrix_filter_pick_variable => |f, n| Ok(Filter::matrix_pick_variable(n, pos::<2>(f)?)),
    starpu_block_filter_block => |_f, n| Ok(Filter::block_block(n)),
    starpu_block_filter_block_shadow => |f, n| Ok(Filter::block_block_shadow(n, shadow(f)?)),
    starpu_block_filter_vertical_block => |_f, n| Ok(Filter::block_vertical_block(n)),
    starpu_block_filter_vertical_block_shadow => |f, n| Ok(Filter::block_vertical_block_shadow(n, shadow(f)?)),
    starpu_block_filter_depth_block => |_f, n| Ok(Filter::block_depth_block(n)),
    starpu_block_filter_depth_block_shadow => |f, n| Ok(Filter::block_depth_block_shadow(n, shadow(f)?)),
    starpu_block_filter_pick_matrix_z => |f, n| Ok(Filter::block_pick_matrix_z(n, first(f))),
    starpu_block_filter_pick_matrix_y => |f, n| Ok(Filter::block_pick_matrix_y(n, first(f))),
    starpu_block_filter_pick_variable => |f, n| Ok(Filter::block_pick_variable(n, pos::<3>(f)?)),
    starpu_tensor_filter_block => |_f, n| Ok(Filter::tensor_split(n, 0, 0)),
    starpu_tensor_filter_block_shadow => |f, n| Ok(Filter::tensor_split(n, 0, shadow(f)?)),
    starpu_tensor_filter_vertical_block => |_f, n| Ok(Filter::tensor_split(n, 1, 0)),
    starpu_tensor_filter_vertical_block_shadow => |f, n| Ok(Filter::tensor_split(n, 1, shadow(f)?)),
    starpu_tensor_filter_depth_block => |_f, n| Ok(Filter::tensor_split(n, 2, 0)),
    starpu_tensor_filter_depth_block_shadow => |f, n| Ok(Filter::tensor_split(n, 2, shadow(f)?)),
    starpu_tensor_filter_time_block => |_f, n| Ok(Filter::tensor_split(n, 3, 0)),
    starpu_tensor_filter_time_block_shadow => |f, n| Ok(Filter::tensor_split(n, 3, shadow(f)?)),
    starpu_tensor_filter_pick_block_t => |f, n| Ok(Filter::tensor_pick_block(n, 3, first(f))),
    starpu_tensor_filter_pick_block_z => |f, n| Ok(Filter::tensor_pick_block(n, 2, first(f))),
    starpu_tensor_filter_pick_block_y => |f, n| Ok(Filter::tensor_pick_block(n, 1, first(f))),
    starpu_tensor_filter_pick_variable => |f, n| Ok(Filter::tensor_pick_variable(n, pos::<4>(f)?)),
    starpu_ndim_filter_block => |f, n| Ok(Filter::ndim_block(n, dim(f), 0)),
    starpu_ndim_filter_block_shadow => |f, n| Ok(Filter::ndim_block(n, dim(f), shadow(f)?)),
    starpu_ndim_filter_to_tensor => |f, n| Ok(Filter::ndim_to_tensor(n, dim(f))),
    starpu_ndim_filter_to_block => |f, n| Ok(Filter::ndim_to_block(n, dim(f))),
    starpu_ndim_filter_to_matrix => |f, n| Ok(Filter::ndim_to_matrix(n, dim(f))),
    starpu_ndim_filter_to_vector => |_f, n| Ok(Filter::ndim_to_vector(n)),
    starpu_ndim_filter_to_variable => |_f, _| Ok(Filter::ndim_to_variable()),
    starpu_ndim_filter_pick_ndim => |f, n| Ok(Filter::ndim_pick_ndim(n, dim(f), first(f))),
    starpu_ndim_filter_5d_pick_tensor => |f, n| Ok(Filter::ndim_pick_tensor(n, dim(f), first(f))),
    starpu_ndim_filter_4d_pick_block => |f, n| Ok(Filter::ndim_pick_block(n, dim(f), first(f))),
    starpu_ndim_filter_3d_pick_matrix => |f, n| Ok(Filter::ndim_pick_matrix(n, dim(f), first(f))),
    starpu_ndim_filter_2d_pick_vector => |f, n| Ok(Filter::ndim_pick_vector(n, dim(f), first(f))),
    starpu_ndim_filter_1d_pick_variable => |f, n| Ok(Filter::ndim_1d_pick_variable(n, first(f))),
    starpu_ndim_filter_pick_variable => |f, n| ndim_pick_variable(f, n),
    starpu_csr_filter_vertical_block => |_f, n| Ok(Filter::csr_vertical_block(n)),
    starpu_bcsr_filter_vertical_block => |_f, n| Ok(Filter::bcsr_vertical_block(n)),
    starpu_bcsr_filter_canonical_block => |_f, _| Ok(Filter::bcsr_canonical_block()),
}

/// Defines the `*_child_ops` functions of pick filters: each names the built-in interface
/// of the children (declared by hand in starpu.h, as above).
macro_rules! child_ops {
    ($($name:ident => $ops:ident,)*) => {
        $(
            crate::declared::assert_declared!($name);
            #[doc = concat!("`", stringify!($name), "`: the children are of `", stringify!($ops), "`.")]
            #[no_mangle]
            pub extern "C" fn $name(
                f: *mut starpu_data_filter,
                child: c_uint,
            ) -> *mut starpu_data_interface_ops {
                let _ = (f, child);
                std::ptr::addr_of_mut!($ops)
            }
        )*
    };
}

child_ops! {
    starpu_vector_filter_pick_variable_child_ops => starpu_interface_variable_ops,
    starpu_matrix_filter_pick_vector_child_ops => starpu_interface_vector_ops,
    starpu_matrix_filter_pick_variable_child_ops => starpu_interface_variable_ops,
    starpu_block_filter_pick_matrix_child_ops => starpu_interface_matrix_ops,
    starpu_block_filter_pick_variable_child_ops => starpu_interface_variable_ops,
    starpu_tensor_filter_pick_block_child_ops => starpu_interface_block_ops,
    starpu_tensor_filter_pick_variable_child_ops => starpu_interface_variable_ops,
    starpu_ndim_filter_pick_tensor_child_ops => starpu_interface_tensor_ops,
    starpu_ndim_filter_pick_block_child_ops => starpu_interface_block_ops,
    starpu_ndim_filter_pick_matrix_child_ops => starpu_interface_matrix_ops,
    starpu_ndim_filter_pick_vector_child_ops => starpu_interface_vector_ops,
    starpu_ndim_filter_pick_variable_child_ops => starpu_interface_variable_ops,
    starpu_ndim_filter_to_tensor_child_ops => starpu_interface_tensor_ops,
    starpu_ndim_filter_to_block_child_ops => starpu_interface_block_ops,
    starpu_ndim_filter_to_matrix_child_ops => starpu_interface_matrix_ops,
    starpu_ndim_filter_to_vector_child_ops => starpu_interface_vector_ops,
    starpu_ndim_filter_to_variable_child_ops => starpu_interface_variable_ops,
    starpu_bcsr_filter_canonical_block_child_ops => starpu_interface_matrix_ops,
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
