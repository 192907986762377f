//! Partitioning (`starpu_data_filters.h`): the C filter struct, synchronous partitioning,
//! the built-in interface ops tables filters name their children with. The standard
//! filter functions are in `standard.rs`, partition plans in `plans.rs`.

mod plans;
mod standard;

use crate::abi::*;
use crate::ffi::{self, c_handle, handle, int_call, value_call};
use libc::{c_int, c_uint, c_void};
use starpu_core::data::interfaces::{self as ifaces, Interface};
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
    // StarPU's own filter functions become the core's filters: their errors (a part that
    // does not exist, a position outside the data) fail the call instead of a child.
    if let Some(build) = standard::builder(func) {
        let mut filter = build(fr, n)?;
        if fr.get_nchildren.is_some() || fr.nchildren != 0 || filter.count.is_none() {
            filter.nchildren = n;
            filter.count = None;
        }
        return Ok(filter);
    }
    let faddr = f as usize;
    let mut filter = Filter::raw(n, move |parent, child, id, nparts| {
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
                Some(crate::custom_interface::core_ops(o)?)
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
