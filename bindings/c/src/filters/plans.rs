//! Partition plans (StarPU's asynchronous partitioning API): the C calls over the core's
//! `Runtime::partition_plan` and the `*_submit` switches. Every rule (which views may be
//! active, what a switch orders, implicit switches) is the core's; these functions convert
//! arguments and report errors (the C calls return `void`, as in StarPU).

use super::core_filter;
use crate::abi::*;
use crate::ffi::{self, c_handle, handle, int_call, value_call};
use libc::{c_int, c_uint, c_void};
use starpu_core::data::SwitchOptions;
use starpu_core::{DataHandle, Error, Result};

/// The `n` handles of a C `children` array.
unsafe fn children(children: *mut starpu_data_handle_t, n: c_uint) -> Result<Vec<DataHandle>> {
    ffi::non_null(children, "children")?;
    (0..n as usize).map(|i| handle(*children.add(i))).collect()
}

/// StarPU's gathering node argument: -1 means the default (the parent's home node).
fn gathering(node: c_int) -> Result<Option<usize>> {
    match node {
        -1 => Ok(None),
        n if n >= 0 => Ok(Some(n as usize)),
        n => Err(Error::invalid(format!("gathering node {n} does not exist"))),
    }
}

/// Runs a plan call that returns nothing to C.
fn call(name: &str, f: impl FnOnce() -> Result<()>) {
    let _ = int_call(name, f);
}

/// `starpu_data_partition_plan`: plans a way to cut `h`; its children are written to
/// `children` (as many as the filter makes).
///
/// # Safety
/// `f` points to a filter; `children` has room for the children.
#[no_mangle]
pub unsafe extern "C" fn starpu_data_partition_plan(
    h: starpu_data_handle_t,
    f: *mut starpu_data_filter,
    children: *mut starpu_data_handle_t,
) {
    call("starpu_data_partition_plan", || {
        ffi::non_null(children, "children")?;
        let filter = core_filter(f, h)?;
        let kids = ffi::runtime()?.partition_plan(&handle(h)?, &filter)?;
        for (i, k) in kids.iter().enumerate() {
            *children.add(i) = c_handle(k);
        }
        Ok(())
    });
}

/// `starpu_data_partition_submit`: switches `h` to its children, read-write.
///
/// # Safety
/// `children` holds `nparts` handles.
#[no_mangle]
pub unsafe extern "C" fn starpu_data_partition_submit(
    h: starpu_data_handle_t,
    nparts: c_uint,
    children_: *mut starpu_data_handle_t,
) {
    call("starpu_data_partition_submit", || {
        ffi::runtime()?.partition_submit(&handle(h)?, &children(children_, nparts)?)
    });
}

/// `starpu_data_partition_submit_sequential_consistency`: `starpu_data_partition_submit`,
/// the parent's access ordered with other tasks only if `sequential_consistency`.
///
/// # Safety
/// `children` holds `nparts` handles.
#[no_mangle]
pub unsafe extern "C" fn starpu_data_partition_submit_sequential_consistency(
    h: starpu_data_handle_t,
    nparts: c_uint,
    children_: *mut starpu_data_handle_t,
    sequential_consistency: c_int,
) {
    call(
        "starpu_data_partition_submit_sequential_consistency",
        || {
            let opts = SwitchOptions {
                sequential_consistency: Some(sequential_consistency != 0),
                ..SwitchOptions::default()
            };
            ffi::runtime()?.partition_submit_with(&handle(h)?, &children(children_, nparts)?, opts)
        },
    );
}

/// `starpu_data_partition_readonly_submit`: adds a read-only view of `h`.
///
/// # Safety
/// `children` holds `nparts` handles.
#[no_mangle]
pub unsafe extern "C" fn starpu_data_partition_readonly_submit(
    h: starpu_data_handle_t,
    nparts: c_uint,
    children_: *mut starpu_data_handle_t,
) {
    call("starpu_data_partition_readonly_submit", || {
        ffi::runtime()?.partition_readonly_submit(&handle(h)?, &children(children_, nparts)?)
    });
}

/// `starpu_data_partition_readonly_submit_sequential_consistency`.
///
/// # Safety
/// `children` holds `nparts` handles.
#[no_mangle]
pub unsafe extern "C" fn starpu_data_partition_readonly_submit_sequential_consistency(
    h: starpu_data_handle_t,
    nparts: c_uint,
    children_: *mut starpu_data_handle_t,
    sequential_consistency: c_int,
) {
    call(
        "starpu_data_partition_readonly_submit_sequential_consistency",
        || {
            let opts = SwitchOptions {
                sequential_consistency: Some(sequential_consistency != 0),
                ..SwitchOptions::default()
            };
            ffi::runtime()?.partition_readonly_submit_with(
                &handle(h)?,
                &children(children_, nparts)?,
                opts,
            )
        },
    );
}

/// `starpu_data_partition_readwrite_upgrade_submit`: the only read-only view of `h`
/// becomes read-write.
///
/// # Safety
/// `children` holds `nparts` handles.
#[no_mangle]
pub unsafe extern "C" fn starpu_data_partition_readwrite_upgrade_submit(
    h: starpu_data_handle_t,
    nparts: c_uint,
    children_: *mut starpu_data_handle_t,
) {
    call("starpu_data_partition_readwrite_upgrade_submit", || {
        ffi::runtime()?
            .partition_readwrite_upgrade_submit(&handle(h)?, &children(children_, nparts)?)
    });
}

/// `starpu_data_partition_readonly_downgrade_submit`: the read-write view of `h` becomes
/// read-only, `h` readable again.
///
/// # Safety
/// `children` holds `nparts` handles.
#[no_mangle]
pub unsafe extern "C" fn starpu_data_partition_readonly_downgrade_submit(
    h: starpu_data_handle_t,
    nparts: c_uint,
    children_: *mut starpu_data_handle_t,
) {
    call("starpu_data_partition_readonly_downgrade_submit", || {
        ffi::runtime()?
            .partition_readonly_downgrade_submit(&handle(h)?, &children(children_, nparts)?)
    });
}

/// `starpu_data_unpartition_submit`: gathers the children back into `h`.
///
/// # Safety
/// `children` holds `nparts` handles.
#[no_mangle]
pub unsafe extern "C" fn starpu_data_unpartition_submit(
    h: starpu_data_handle_t,
    nparts: c_uint,
    children_: *mut starpu_data_handle_t,
    gathering_node: c_int,
) {
    call("starpu_data_unpartition_submit", || {
        let opts = SwitchOptions {
            gathering_node: gathering(gathering_node)?,
            ..SwitchOptions::default()
        };
        ffi::runtime()?.unpartition_submit_with(&handle(h)?, &children(children_, nparts)?, opts)
    });
}

/// `starpu_data_unpartition_submit_sequential_consistency`.
///
/// # Safety
/// `children` holds `nparts` handles.
#[no_mangle]
pub unsafe extern "C" fn starpu_data_unpartition_submit_sequential_consistency(
    h: starpu_data_handle_t,
    nparts: c_uint,
    children_: *mut starpu_data_handle_t,
    gathering_node: c_int,
    sequential_consistency: c_int,
) {
    starpu_data_unpartition_submit_sequential_consistency_cb(
        h,
        nparts,
        children_,
        gathering_node,
        sequential_consistency,
        None,
        std::ptr::null_mut(),
    );
}

/// `starpu_data_unpartition_submit_sequential_consistency_cb`: the unpartitioning, then
/// `callback_func(callback_arg)` once it is done.
///
/// # Safety
/// `children` holds `nparts` handles; the callback may be called from any thread.
#[no_mangle]
pub unsafe extern "C" fn starpu_data_unpartition_submit_sequential_consistency_cb(
    h: starpu_data_handle_t,
    nparts: c_uint,
    children_: *mut starpu_data_handle_t,
    gathering_node: c_int,
    sequential_consistency: c_int,
    callback_func: Option<unsafe extern "C" fn(*mut c_void)>,
    callback_arg: *mut c_void,
) {
    call(
        "starpu_data_unpartition_submit_sequential_consistency",
        || {
            let arg = callback_arg as usize;
            let opts = SwitchOptions {
                sequential_consistency: Some(sequential_consistency != 0),
                gathering_node: gathering(gathering_node)?,
                callback: callback_func.map(|f| {
                    Box::new(move || unsafe { f(arg as *mut c_void) }) as Box<dyn FnOnce() + Send>
                }),
            };
            ffi::runtime()?.unpartition_submit_with(
                &handle(h)?,
                &children(children_, nparts)?,
                opts,
            )
        },
    );
}

/// `starpu_data_unpartition_readonly_submit`: gathers the children into `h`, both staying
/// readable.
///
/// # Safety
/// `children` holds `nparts` handles.
#[no_mangle]
pub unsafe extern "C" fn starpu_data_unpartition_readonly_submit(
    h: starpu_data_handle_t,
    nparts: c_uint,
    children_: *mut starpu_data_handle_t,
    gathering_node: c_int,
) {
    call("starpu_data_unpartition_readonly_submit", || {
        let opts = SwitchOptions {
            gathering_node: gathering(gathering_node)?,
            ..SwitchOptions::default()
        };
        ffi::runtime()?.unpartition_readonly_submit_with(
            &handle(h)?,
            &children(children_, nparts)?,
            opts,
        )
    });
}

/// `starpu_data_unpartition_submit_r`: gathers every active view of `h` and below.
#[no_mangle]
pub extern "C" fn starpu_data_unpartition_submit_r(h: starpu_data_handle_t, gathering_node: c_int) {
    call("starpu_data_unpartition_submit_r", || {
        ffi::runtime()?.unpartition_submit_all(&handle(h)?, gathering(gathering_node)?)
    });
}

/// `starpu_data_partition_clean`: forgets a plan (gathering it if active); its children
/// are unregistered once the tasks using them are done.
///
/// # Safety
/// `children` holds `nparts` handles.
#[no_mangle]
pub unsafe extern "C" fn starpu_data_partition_clean(
    h: starpu_data_handle_t,
    nparts: c_uint,
    children_: *mut starpu_data_handle_t,
) {
    call("starpu_data_partition_clean", || {
        ffi::runtime()?.partition_clean(&handle(h)?, &children(children_, nparts)?, None)
    });
}

/// `starpu_data_partition_clean_node`: `starpu_data_partition_clean`, gathering on
/// `gathering_node`.
///
/// # Safety
/// `children` holds `nparts` handles.
#[no_mangle]
pub unsafe extern "C" fn starpu_data_partition_clean_node(
    h: starpu_data_handle_t,
    nparts: c_uint,
    children_: *mut starpu_data_handle_t,
    gathering_node: c_int,
) {
    call("starpu_data_partition_clean_node", || {
        ffi::runtime()?.partition_clean(
            &handle(h)?,
            &children(children_, nparts)?,
            gathering(gathering_node)?,
        )
    });
}

/// `starpu_data_partition_get_nplans`: how many plans are made on `h`.
#[no_mangle]
pub extern "C" fn starpu_data_partition_get_nplans(h: starpu_data_handle_t) -> c_int {
    value_call("starpu_data_partition_get_nplans", 0, || {
        Ok(handle(h)?.nplans() as c_int)
    })
}

/// `starpu_data_partition_not_automatic`: tasks using `h` no longer switch its views by
/// themselves; the application submits the switches.
#[no_mangle]
pub extern "C" fn starpu_data_partition_not_automatic(h: starpu_data_handle_t) {
    call("starpu_data_partition_not_automatic", || {
        ffi::runtime()?.set_partition_automatic(&handle(h)?, false);
        Ok(())
    });
}
