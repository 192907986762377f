//! Partitioning (`starpu_data_filters.h`): the C filter struct, the standard filter
//! functions, and the built-in interface ops tables filters name their children with.

use crate::ffi::{self, c_handle, handle, int_call, value_call};
use crate::types::*;
use libc::{c_int, c_uint, c_void, uintptr_t};
use starpu_core::data::filters::{block, matrix, vector};
use starpu_core::data::interfaces::{self as ifaces, Interface, InterfaceOps};
use starpu_core::data::{sub_data, Filter};
use starpu_core::Error;

/// A built-in interface's ops table, as C sees it.
const fn ops_table<T: Interface>(name: &'static [u8]) -> starpu_data_interface_ops {
    // SAFETY: all fields are nullable pointers or integers.
    let mut o: starpu_data_interface_ops = unsafe { std::mem::zeroed() };
    o.interfaceid = T::ID;
    o.interface_size = std::mem::size_of::<T>();
    o.name = name.as_ptr() as *const libc::c_char;
    o
}

/// `starpu_interface_variable_ops`: identifies the STARPU_VARIABLE_INTERFACE interface.
#[no_mangle]
pub static mut starpu_interface_variable_ops: starpu_data_interface_ops =
    ops_table::<ifaces::VariableInterface>(b"STARPU_VARIABLE_INTERFACE\0");

/// `starpu_interface_vector_ops`: identifies the STARPU_VECTOR_INTERFACE interface.
#[no_mangle]
pub static mut starpu_interface_vector_ops: starpu_data_interface_ops =
    ops_table::<ifaces::VectorInterface>(b"STARPU_VECTOR_INTERFACE\0");

/// `starpu_interface_matrix_ops`: identifies the STARPU_MATRIX_INTERFACE interface.
#[no_mangle]
pub static mut starpu_interface_matrix_ops: starpu_data_interface_ops =
    ops_table::<ifaces::MatrixInterface>(b"STARPU_MATRIX_INTERFACE\0");

/// `starpu_interface_block_ops`: identifies the STARPU_BLOCK_INTERFACE interface.
#[no_mangle]
pub static mut starpu_interface_block_ops: starpu_data_interface_ops =
    ops_table::<ifaces::BlockInterface>(b"STARPU_BLOCK_INTERFACE\0");

/// `starpu_interface_tensor_ops`: identifies the STARPU_TENSOR_INTERFACE interface.
#[no_mangle]
pub static mut starpu_interface_tensor_ops: starpu_data_interface_ops =
    ops_table::<ifaces::TensorInterface>(b"STARPU_TENSOR_INTERFACE\0");

/// `starpu_interface_ndim_ops`: identifies the STARPU_NDIM_INTERFACE interface.
#[no_mangle]
pub static mut starpu_interface_ndim_ops: starpu_data_interface_ops =
    ops_table::<ifaces::NdimInterface>(b"STARPU_NDIM_INTERFACE\0");

/// `starpu_interface_csr_ops`: identifies the STARPU_CSR_INTERFACE interface.
#[no_mangle]
pub static mut starpu_interface_csr_ops: starpu_data_interface_ops =
    ops_table::<ifaces::CsrInterface>(b"STARPU_CSR_INTERFACE\0");

/// `starpu_interface_bcsr_ops`: identifies the STARPU_BCSR_INTERFACE interface.
#[no_mangle]
pub static mut starpu_interface_bcsr_ops: starpu_data_interface_ops =
    ops_table::<ifaces::BcsrInterface>(b"STARPU_BCSR_INTERFACE\0");

/// `starpu_interface_coo_ops`: identifies the STARPU_COO_INTERFACE interface.
#[no_mangle]
pub static mut starpu_interface_coo_ops: starpu_data_interface_ops =
    ops_table::<ifaces::CooInterface>(b"STARPU_COO_INTERFACE\0");

/// `starpu_interface_void_ops`: identifies the STARPU_VOID_INTERFACE interface.
#[no_mangle]
pub static mut starpu_interface_void_ops: starpu_data_interface_ops =
    ops_table::<ifaces::VoidInterface>(b"STARPU_VOID_INTERFACE\0");

/// The core's ops for a C ops table of a built-in interface.
///
/// # Safety
/// `ops` points to a `struct starpu_data_interface_ops`.
pub unsafe fn core_ops(
    ops: *const starpu_data_interface_ops,
) -> starpu_core::Result<&'static dyn InterfaceOps> {
    use ifaces::*;
    let o = &*ops;
    let core = match o.interfaceid {
        id::VARIABLE => ops_of::<VariableInterface>(),
        id::VECTOR => ops_of::<VectorInterface>(),
        id::MATRIX => ops_of::<MatrixInterface>(),
        id::BLOCK => ops_of::<BlockInterface>(),
        id::TENSOR => ops_of::<TensorInterface>(),
        id::NDIM => ops_of::<NdimInterface>(),
        id::CSR => ops_of::<CsrInterface>(),
        id::BCSR => ops_of::<BcsrInterface>(),
        id::COO => ops_of::<CooInterface>(),
        id::VOID => ops_of::<VoidInterface>(),
        other => {
            return Err(Error::unsupported(format!(
                "interface {} (id {other}) is not a built-in interface; application-defined \
                 interfaces are not supported yet",
                ffi::string(o.name).unwrap_or_default()
            )))
        }
    };
    if o.interface_size != 0 && o.interface_size != core.size() {
        return Err(Error::invalid(format!(
            "interface size {} does not match {} ({} bytes)",
            o.interface_size,
            core.name(),
            core.size()
        )));
    }
    Ok(core)
}

/// The core filter for a C `struct starpu_data_filter` applied to `h`.
unsafe fn core_filter(
    f: *mut starpu_data_filter,
    h: starpu_data_handle_t,
) -> starpu_core::Result<Filter> {
    ffi::non_null(f, "filter")?;
    let fr = &*f;
    let func = fr
        .filter_func
        .ok_or_else(|| Error::invalid("filter->filter_func is NULL"))?;
    let n = match fr.get_nchildren {
        Some(g) => g(f, h),
        None => fr.nchildren,
    } as usize;
    let faddr = f as usize;
    let mut filter = Filter::new(n, move |parent, child, id, nparts| {
        // SAFETY: the C filter stays alive during the partition call that uses it.
        unsafe {
            func(
                parent as *mut c_void,
                child as *mut c_void,
                faddr as *mut starpu_data_filter,
                id as c_uint,
                nparts as c_uint,
            )
        }
    });
    if let Some(get_ops) = fr.get_child_ops {
        let mut table = Vec::with_capacity(n);
        for id in 0..n {
            let o = get_ops(f, id as c_uint);
            table.push(if o.is_null() {
                None
            } else {
                Some(core_ops(o)?)
            });
        }
        filter.child_ops = Some(Box::new(move |id| table.get(id).copied().flatten()));
    }
    Ok(filter)
}

/// `starpu_data_partition`: cuts `h` with filter `f` once the tasks using it are done.
///
/// # Safety
/// `f` points to a filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_data_partition(
    h: starpu_data_handle_t,
    f: *mut starpu_data_filter,
) {
    let _ = int_call("starpu_data_partition", || {
        let filter = core_filter(f, h)?;
        ffi::runtime()?.partition(&handle(h)?, &filter).map(|_| ())
    });
}

/// `starpu_data_unpartition`: gathers the children back into `h` on `gathering_node`.
#[no_mangle]
pub extern "C" fn starpu_data_unpartition(h: starpu_data_handle_t, gathering_node: c_uint) {
    let _ = int_call("starpu_data_unpartition", || {
        ffi::runtime()?.unpartition(&handle(h)?, gathering_node as usize)
    });
}

/// `starpu_data_map_filters_parray`: partitions recursively, one filter per level.
///
/// # Safety
/// `filters` holds `nfilters` filter pointers.
#[no_mangle]
pub unsafe extern "C" fn starpu_data_map_filters_parray(
    root: starpu_data_handle_t,
    nfilters: c_int,
    filters: *mut *mut starpu_data_filter,
) {
    let fs: Vec<_> = (0..nfilters.max(0) as usize)
        .map(|i| *filters.add(i))
        .collect();
    let _ = int_call("starpu_data_map_filters", || map(root, &fs));
}

/// `starpu_data_map_filters_array`.
///
/// # Safety
/// `filters` holds `nfilters` filters.
#[no_mangle]
pub unsafe extern "C" fn starpu_data_map_filters_array(
    root: starpu_data_handle_t,
    nfilters: c_int,
    filters: *mut starpu_data_filter,
) {
    let fs: Vec<_> = (0..nfilters.max(0) as usize)
        .map(|i| filters.add(i))
        .collect();
    let _ = int_call("starpu_data_map_filters", || map(root, &fs));
}

unsafe fn map(
    root: starpu_data_handle_t,
    filters: &[*mut starpu_data_filter],
) -> starpu_core::Result<()> {
    let Some((&f, rest)) = filters.split_first() else {
        return Ok(());
    };
    let h = handle(root)?;
    ffi::runtime()?.partition(&h, &core_filter(f, root)?)?;
    for child in h.children() {
        map(c_handle(&child), rest)?;
    }
    Ok(())
}

/// `starpu_data_get_nb_children`.
#[no_mangle]
pub extern "C" fn starpu_data_get_nb_children(h: starpu_data_handle_t) -> c_int {
    value_call("starpu_data_get_nb_children", 0, || {
        Ok(handle(h)?.nchildren() as c_int)
    })
}

/// `starpu_data_get_child`.
#[no_mangle]
pub extern "C" fn starpu_data_get_child(
    h: starpu_data_handle_t,
    i: c_uint,
) -> starpu_data_handle_t {
    value_call("starpu_data_get_child", std::ptr::null_mut(), || {
        let c = sub_data(&handle(h)?, &[i as usize])?;
        Ok(c_handle(&c))
    })
}

/// Walks `depth` levels of children (the C walker of `starpu_data_get_sub_data`).
///
/// # Safety
/// `path` holds `depth` indices.
#[no_mangle]
pub unsafe extern "C" fn _starpu_data_get_sub_data_path(
    root: starpu_data_handle_t,
    depth: c_uint,
    path: *const c_uint,
) -> starpu_data_handle_t {
    value_call("starpu_data_get_sub_data", std::ptr::null_mut(), || {
        if path.is_null() && depth > 0 {
            return Err(Error::invalid(format!("depth {depth} is too deep")));
        }
        let p: Vec<usize> = (0..depth as usize).map(|i| *path.add(i) as usize).collect();
        Ok(c_handle(&sub_data(&handle(root)?, &p)?))
    })
}

/// Runs a typed filter on the C descriptions (checking both are of the expected types).
unsafe fn typed<P: Interface, C: Interface>(
    call: &str,
    father: *mut c_void,
    child: *mut c_void,
    f: impl FnOnce(&P, &mut C),
) {
    let pid = *(father as *const i32);
    if pid != P::ID {
        eprintln!(
            "[starpu][{call}] applied to a {} description (interface id {pid}), not a {}",
            P::NAME,
            P::NAME
        );
        return;
    }
    let p = &*(father as *const P);
    let c = &mut *(child as *mut C);
    f(p, c);
}

/// `filter_arg_ptr` read as a number (shadow sizes are passed that way).
unsafe fn arg_ptr_usize(f: *mut starpu_data_filter) -> u32 {
    f.as_ref()
        .map_or(0, |f| f.filter_arg_ptr as uintptr_t as u32)
}

/// `*(uint32_t *)filter_arg_ptr` (first index of pick filters), 0 when NULL.
unsafe fn arg_ptr_u32(f: *mut starpu_data_filter) -> u32 {
    f.as_ref()
        .and_then(|f| (f.filter_arg_ptr as *const u32).as_ref().copied())
        .unwrap_or(0)
}

type FilterFn =
    unsafe extern "C" fn(*mut c_void, *mut c_void, *mut starpu_data_filter, c_uint, c_uint);

use ifaces::{
    BlockInterface as B, MatrixInterface as M, VariableInterface as Var, VectorInterface as V,
};

/// `starpu_vector_filter_block`.
///
/// # Safety
/// `father` and `child` are descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_vector_filter_block(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    let (id, n) = (id as usize, nparts as usize);
    let _ = (f, n);
    typed::<V, V>("starpu_vector_filter_block", father, child, |p, c| {
        vector::block(p, c, id, n)
    });
}
const _: FilterFn = starpu_vector_filter_block;

/// `starpu_vector_filter_block_shadow`.
///
/// # Safety
/// `father` and `child` are descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_vector_filter_block_shadow(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    let (id, n) = (id as usize, nparts as usize);
    let _ = (f, n);
    typed::<V, V>(
        "starpu_vector_filter_block_shadow",
        father,
        child,
        |p, c| vector::block_shadow(p, c, id, n, arg_ptr_usize(f)),
    );
}
const _: FilterFn = starpu_vector_filter_block_shadow;

/// `starpu_vector_filter_divide_in_2`.
///
/// # Safety
/// `father` and `child` are descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_vector_filter_divide_in_2(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    let (id, n) = (id as usize, nparts as usize);
    let _ = (f, n);
    typed::<V, V>("starpu_vector_filter_divide_in_2", father, child, |p, c| {
        vector::divide_in_2(p, c, id, (*f).filter_arg)
    });
}
const _: FilterFn = starpu_vector_filter_divide_in_2;

/// `starpu_vector_filter_list`.
///
/// # Safety
/// `father` and `child` are descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_vector_filter_list(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    let (id, n) = (id as usize, nparts as usize);
    let _ = (f, n);
    typed::<V, V>("starpu_vector_filter_list", father, child, |p, c| {
        let lengths = std::slice::from_raw_parts((*f).filter_arg_ptr as *const u32, n);
        vector::list(p, c, id, lengths)
    });
}
const _: FilterFn = starpu_vector_filter_list;

/// `starpu_vector_filter_list_long`.
///
/// # Safety
/// `father` and `child` are descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_vector_filter_list_long(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    let (id, n) = (id as usize, nparts as usize);
    let _ = (f, n);
    typed::<V, V>("starpu_vector_filter_list_long", father, child, |p, c| {
        let lengths: Vec<u32> =
            std::slice::from_raw_parts((*f).filter_arg_ptr as *const libc::c_long, n)
                .iter()
                .map(|&l| l as u32)
                .collect();
        vector::list(p, c, id, &lengths)
    });
}
const _: FilterFn = starpu_vector_filter_list_long;

/// `starpu_vector_filter_pick_variable`.
///
/// # Safety
/// `father` and `child` are descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_vector_filter_pick_variable(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    let (id, n) = (id as usize, nparts as usize);
    let _ = (f, n);
    typed::<V, Var>(
        "starpu_vector_filter_pick_variable",
        father,
        child,
        |p, c| vector::pick_variable(p, c, id, arg_ptr_u32(f)),
    );
}
const _: FilterFn = starpu_vector_filter_pick_variable;

/// `starpu_matrix_filter_block`.
///
/// # Safety
/// `father` and `child` are descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_matrix_filter_block(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    let (id, n) = (id as usize, nparts as usize);
    let _ = (f, n);
    typed::<M, M>("starpu_matrix_filter_block", father, child, |p, c| {
        matrix::block(p, c, id, n)
    });
}
const _: FilterFn = starpu_matrix_filter_block;

/// `starpu_matrix_filter_block_shadow`.
///
/// # Safety
/// `father` and `child` are descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_matrix_filter_block_shadow(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    let (id, n) = (id as usize, nparts as usize);
    let _ = (f, n);
    typed::<M, M>(
        "starpu_matrix_filter_block_shadow",
        father,
        child,
        |p, c| matrix::block_shadow(p, c, id, n, arg_ptr_usize(f)),
    );
}
const _: FilterFn = starpu_matrix_filter_block_shadow;

/// `starpu_matrix_filter_vertical_block`.
///
/// # Safety
/// `father` and `child` are descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_matrix_filter_vertical_block(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    let (id, n) = (id as usize, nparts as usize);
    let _ = (f, n);
    typed::<M, M>(
        "starpu_matrix_filter_vertical_block",
        father,
        child,
        |p, c| matrix::vertical_block(p, c, id, n),
    );
}
const _: FilterFn = starpu_matrix_filter_vertical_block;

/// `starpu_matrix_filter_vertical_block_shadow`.
///
/// # Safety
/// `father` and `child` are descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_matrix_filter_vertical_block_shadow(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    let (id, n) = (id as usize, nparts as usize);
    let _ = (f, n);
    typed::<M, M>(
        "starpu_matrix_filter_vertical_block_shadow",
        father,
        child,
        |p, c| matrix::vertical_block_shadow(p, c, id, n, arg_ptr_usize(f)),
    );
}
const _: FilterFn = starpu_matrix_filter_vertical_block_shadow;

/// `starpu_matrix_filter_pick_vector_y`.
///
/// # Safety
/// `father` and `child` are descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_matrix_filter_pick_vector_y(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    let (id, n) = (id as usize, nparts as usize);
    let _ = (f, n);
    typed::<M, V>(
        "starpu_matrix_filter_pick_vector_y",
        father,
        child,
        |p, c| matrix::pick_vector_y(p, c, id, arg_ptr_u32(f)),
    );
}
const _: FilterFn = starpu_matrix_filter_pick_vector_y;

/// `starpu_block_filter_block`.
///
/// # Safety
/// `father` and `child` are descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_block_filter_block(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    let (id, n) = (id as usize, nparts as usize);
    let _ = (f, n);
    typed::<B, B>("starpu_block_filter_block", father, child, |p, c| {
        block::block(p, c, id, n)
    });
}
const _: FilterFn = starpu_block_filter_block;

/// `starpu_block_filter_block_shadow`.
///
/// # Safety
/// `father` and `child` are descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_block_filter_block_shadow(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    let (id, n) = (id as usize, nparts as usize);
    let _ = (f, n);
    typed::<B, B>("starpu_block_filter_block_shadow", father, child, |p, c| {
        block::block_shadow(p, c, id, n, arg_ptr_usize(f))
    });
}
const _: FilterFn = starpu_block_filter_block_shadow;

/// `starpu_block_filter_vertical_block`.
///
/// # Safety
/// `father` and `child` are descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_block_filter_vertical_block(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    let (id, n) = (id as usize, nparts as usize);
    let _ = (f, n);
    typed::<B, B>(
        "starpu_block_filter_vertical_block",
        father,
        child,
        |p, c| block::vertical_block(p, c, id, n),
    );
}
const _: FilterFn = starpu_block_filter_vertical_block;

/// `starpu_block_filter_vertical_block_shadow`.
///
/// # Safety
/// `father` and `child` are descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_block_filter_vertical_block_shadow(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    let (id, n) = (id as usize, nparts as usize);
    let _ = (f, n);
    typed::<B, B>(
        "starpu_block_filter_vertical_block_shadow",
        father,
        child,
        |p, c| block::vertical_block_shadow(p, c, id, n, arg_ptr_usize(f)),
    );
}
const _: FilterFn = starpu_block_filter_vertical_block_shadow;

/// `starpu_block_filter_depth_block`.
///
/// # Safety
/// `father` and `child` are descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_block_filter_depth_block(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    let (id, n) = (id as usize, nparts as usize);
    let _ = (f, n);
    typed::<B, B>("starpu_block_filter_depth_block", father, child, |p, c| {
        block::depth_block(p, c, id, n)
    });
}
const _: FilterFn = starpu_block_filter_depth_block;

/// `starpu_block_filter_depth_block_shadow`.
///
/// # Safety
/// `father` and `child` are descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_block_filter_depth_block_shadow(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    let (id, n) = (id as usize, nparts as usize);
    let _ = (f, n);
    typed::<B, B>(
        "starpu_block_filter_depth_block_shadow",
        father,
        child,
        |p, c| block::depth_block_shadow(p, c, id, n, arg_ptr_usize(f)),
    );
}
const _: FilterFn = starpu_block_filter_depth_block_shadow;

/// `starpu_block_filter_pick_matrix_z`.
///
/// # Safety
/// `father` and `child` are descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_block_filter_pick_matrix_z(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    let (id, n) = (id as usize, nparts as usize);
    let _ = (f, n);
    typed::<B, M>(
        "starpu_block_filter_pick_matrix_z",
        father,
        child,
        |p, c| block::pick_matrix_z(p, c, id, arg_ptr_u32(f)),
    );
}
const _: FilterFn = starpu_block_filter_pick_matrix_z;

/// `starpu_block_filter_pick_matrix_y`.
///
/// # Safety
/// `father` and `child` are descriptions of the filter's types; `f` is the filter.
#[no_mangle]
pub unsafe extern "C" fn starpu_block_filter_pick_matrix_y(
    father: *mut c_void,
    child: *mut c_void,
    f: *mut starpu_data_filter,
    id: c_uint,
    nparts: c_uint,
) {
    let (id, n) = (id as usize, nparts as usize);
    let _ = (f, n);
    typed::<B, M>(
        "starpu_block_filter_pick_matrix_y",
        father,
        child,
        |p, c| block::pick_matrix_y(p, c, id, arg_ptr_u32(f)),
    );
}
const _: FilterFn = starpu_block_filter_pick_matrix_y;

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

/// `starpu_block_filter_pick_matrix_child_ops`: the children are of `starpu_interface_matrix_ops`.
#[no_mangle]
pub extern "C" fn starpu_block_filter_pick_matrix_child_ops(
    f: *mut starpu_data_filter,
    child: c_uint,
) -> *mut starpu_data_interface_ops {
    let _ = (f, child);
    std::ptr::addr_of_mut!(starpu_interface_matrix_ops)
}

/// `starpu_filter_nparts_compute_chunk_size_and_offset`: part `id` of `n` elements cut in
/// `nparts`: its size, and its offset in bytes given the elements' `elemsize` and the
/// distance `ld` (in elements) between consecutive ones along the cut dimension.
///
/// # Safety
/// `chunk_size` and `offset` are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn starpu_filter_nparts_compute_chunk_size_and_offset(
    n: c_uint,
    nparts: c_uint,
    elemsize: libc::size_t,
    id: c_uint,
    ld: c_uint,
    chunk_size: *mut c_uint,
    offset: *mut libc::size_t,
) {
    let (size, first) = starpu_core::data::filters::chunk(n, nparts as usize, id as usize);
    if !chunk_size.is_null() {
        *chunk_size = size;
    }
    if !offset.is_null() {
        *offset = first as usize * ld as usize * elemsize;
    }
}
