//! Requests about where a handle's data should be (`starpu_data.h`): prefetches at a
//! priority or when idle, allocation requests, importance advice, and whether a node holds
//! the value. Main RAM is the only memory node of this build, and every handle's value
//! lives there: each request is satisfied as soon as it is checked. The checks are real:
//! a handle that is not registered, or a node that does not exist, is refused with a
//! message (`-EINVAL` where the call returns an int).

use crate::ffi::{self, handle, int_call, value_call};
use crate::nodes::check as check_node;
use crate::types::*;
use libc::{c_int, c_uint};

/// Checks `h` and `node`.
fn check(h: starpu_data_handle_t, node: c_uint) -> starpu_core::Result<()> {
    handle(h)?;
    check_node(node as usize)
}

/// `starpu_data_prefetch_on_node_prio`: a prefetch ordered by `prio` among the node's
/// requests; with the value already on main RAM there is nothing to order.
#[no_mangle]
pub extern "C" fn starpu_data_prefetch_on_node_prio(
    h: starpu_data_handle_t,
    node: c_uint,
    _asynchronous: c_uint,
    _prio: c_int,
) -> c_int {
    int_call("starpu_data_prefetch_on_node_prio", || check(h, node))
}

/// `starpu_data_idle_prefetch_on_node`: a prefetch done only when the bus is idle.
#[no_mangle]
pub extern "C" fn starpu_data_idle_prefetch_on_node(
    h: starpu_data_handle_t,
    node: c_uint,
    _asynchronous: c_uint,
) -> c_int {
    int_call("starpu_data_idle_prefetch_on_node", || check(h, node))
}

/// `starpu_data_idle_prefetch_on_node_prio`.
#[no_mangle]
pub extern "C" fn starpu_data_idle_prefetch_on_node_prio(
    h: starpu_data_handle_t,
    node: c_uint,
    _asynchronous: c_uint,
    _prio: c_int,
) -> c_int {
    int_call("starpu_data_idle_prefetch_on_node_prio", || check(h, node))
}

/// `starpu_data_request_allocation`: room for the data on `node`; main RAM always holds
/// the handle's buffer.
#[no_mangle]
pub extern "C" fn starpu_data_request_allocation(h: starpu_data_handle_t, node: c_uint) -> c_int {
    int_call("starpu_data_request_allocation", || check(h, node))
}

/// `starpu_data_is_on_node`: 1 when `node` holds the current value (or it is on its way
/// there: transfers do not exist in this build), else 0; 0 for a bad handle or node.
#[no_mangle]
pub extern "C" fn starpu_data_is_on_node(h: starpu_data_handle_t, node: c_uint) -> c_uint {
    let call = "starpu_data_is_on_node";
    value_call(call, 0, || {
        check(h, node)?;
        Ok(handle(h)?.is_valid_on(node as usize) as c_uint)
    })
}

/// `starpu_data_advise_as_important`: asks the memory manager to keep the data rather
/// than evict it. Nothing is ever evicted from main RAM, so the advice has nothing to
/// change; the handle is checked.
#[no_mangle]
pub extern "C" fn starpu_data_advise_as_important(h: starpu_data_handle_t, _is_important: c_uint) {
    let call = "starpu_data_advise_as_important";
    let _ = int_call(call, || handle(h).map(|_| ()));
}

/// `starpu_memchunk_tidy`: frees cached buffers of `memory_node` down to the
/// `STARPU_MINIMUM_CLEAN_BUFFERS` target. This build keeps no buffer cache (a buffer the
/// runtime allocated is freed when its handle no longer needs it), so there is nothing to
/// tidy; the node is checked.
#[no_mangle]
pub extern "C" fn starpu_memchunk_tidy(memory_node: c_uint) {
    let call = "starpu_memchunk_tidy";
    let _ = int_call(call, || check_node(memory_node as usize));
}

/// `starpu_data_deinitialize`: waits for the tasks using `h`, then forgets its value on
/// every node and keeps the buffers: the handle is as if registered without data.
#[no_mangle]
pub extern "C" fn starpu_data_deinitialize(h: starpu_data_handle_t) {
    let _ = int_call("starpu_data_deinitialize", || {
        ffi::runtime()?.deinitialize(&handle(h)?)
    });
}

/// `starpu_data_deinitialize_submit`: deinitializes `h` once the tasks submitted so far
/// are done, without waiting.
#[no_mangle]
pub extern "C" fn starpu_data_deinitialize_submit(h: starpu_data_handle_t) {
    let _ = int_call("starpu_data_deinitialize_submit", || {
        ffi::runtime()?.deinitialize_submit(&handle(h)?)
    });
}
