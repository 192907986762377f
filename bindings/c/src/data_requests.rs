//! Requests about where a handle's data should be (`starpu_data.h`): fetches and prefetches
//! at a priority or when idle, allocation requests, eviction advice, and where the value
//! is. The core orders each fetch after the tasks submitted before on the data and runs
//! the transfer through the target node's request queue. A handle that is not registered,
//! or a node that does not exist, is refused with a message (`-EINVAL` where the call
//! returns an int).

use crate::abi::*;
use crate::ffi::{self, handle, int_call, value_call};
use crate::nodes::check as check_node;
use libc::{c_int, c_uint};
use starpu_core::memory::Level;

/// Checks `h` and `node`.
fn check(h: starpu_data_handle_t, node: c_uint) -> starpu_core::Result<()> {
    handle(h)?;
    check_node(node as usize)
}

/// A fetch or prefetch of `h` to `node` at `level`.
fn prefetch(
    call: &str,
    h: starpu_data_handle_t,
    node: c_uint,
    asynchronous: c_uint,
    level: Level,
    prio: c_int,
) -> c_int {
    int_call(call, || {
        check(h, node)?;
        ffi::runtime()?.prefetch(&handle(h)?, node as usize, level, prio, asynchronous != 0)
    })
}

/// `starpu_data_fetch_on_node`: brings the value to `node` (waits unless `async`).
#[no_mangle]
pub extern "C" fn starpu_data_fetch_on_node(
    h: starpu_data_handle_t,
    node: c_uint,
    asynchronous: c_uint,
) -> c_int {
    prefetch(
        "starpu_data_fetch_on_node",
        h,
        node,
        asynchronous,
        Level::Fetch,
        0,
    )
}

/// `starpu_data_prefetch_on_node`.
#[no_mangle]
pub extern "C" fn starpu_data_prefetch_on_node(
    h: starpu_data_handle_t,
    node: c_uint,
    asynchronous: c_uint,
) -> c_int {
    starpu_data_prefetch_on_node_prio(h, node, asynchronous, 0)
}

/// `starpu_data_prefetch_on_node_prio`: a prefetch ordered by `prio` among the node's
/// prefetches.
#[no_mangle]
pub extern "C" fn starpu_data_prefetch_on_node_prio(
    h: starpu_data_handle_t,
    node: c_uint,
    asynchronous: c_uint,
    prio: c_int,
) -> c_int {
    prefetch(
        "starpu_data_prefetch_on_node",
        h,
        node,
        asynchronous,
        Level::Prefetch,
        prio,
    )
}

/// `starpu_data_idle_prefetch_on_node`: a prefetch started only when the node has
/// nothing else to do.
#[no_mangle]
pub extern "C" fn starpu_data_idle_prefetch_on_node(
    h: starpu_data_handle_t,
    node: c_uint,
    asynchronous: c_uint,
) -> c_int {
    starpu_data_idle_prefetch_on_node_prio(h, node, asynchronous, 0)
}

/// `starpu_data_idle_prefetch_on_node_prio`.
#[no_mangle]
pub extern "C" fn starpu_data_idle_prefetch_on_node_prio(
    h: starpu_data_handle_t,
    node: c_uint,
    asynchronous: c_uint,
    prio: c_int,
) -> c_int {
    prefetch(
        "starpu_data_idle_prefetch_on_node",
        h,
        node,
        asynchronous,
        Level::Idle,
        prio,
    )
}

/// `starpu_data_request_allocation`: room for the data on `node`, without its value.
#[no_mangle]
pub extern "C" fn starpu_data_request_allocation(h: starpu_data_handle_t, node: c_uint) -> c_int {
    int_call("starpu_data_request_allocation", || {
        check(h, node)?;
        ffi::runtime()?.request_allocation(&handle(h)?, node as usize)
    })
}

/// `starpu_data_wont_use`: the value goes home when the bus is idle and its device copies
/// are evicted first.
#[no_mangle]
pub extern "C" fn starpu_data_wont_use(h: starpu_data_handle_t) {
    let _ = int_call("starpu_data_wont_use", || {
        ffi::runtime()?.wont_use(&handle(h)?)
    });
}

/// `starpu_data_is_on_node`: 1 when `node` holds the current value or a transfer is
/// bringing it there, else 0; 0 for a bad handle or node.
#[no_mangle]
pub extern "C" fn starpu_data_is_on_node(h: starpu_data_handle_t, node: c_uint) -> c_uint {
    let call = "starpu_data_is_on_node";
    value_call(call, 0, || {
        check(h, node)?;
        let h = handle(h)?;
        let s = h.status(node as usize);
        Ok((s.valid || s.loading) as c_uint)
    })
}

/// Writes the status of `h` on `node` through the pointers given.
unsafe fn query(call: &str, h: starpu_data_handle_t, node: c_int, outs: [*mut c_int; 4]) {
    let _ = int_call(call, || {
        let n = usize::try_from(node).map_err(|_| starpu_core::Error::invalid("negative node"))?;
        check(h, n as c_uint)?;
        let s = handle(h)?.status(n);
        for (out, v) in outs
            .into_iter()
            .zip([s.allocated, s.valid, s.loading, s.requested])
        {
            if let Some(o) = out.as_mut() {
                *o = v as c_int;
            }
        }
        Ok(())
    });
}

/// `starpu_data_query_status2`: whether `node` has a buffer, the value, a transfer
/// bringing it, a request for it (NULL pointers are skipped).
///
/// # Safety
/// Each pointer is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn starpu_data_query_status2(
    h: starpu_data_handle_t,
    memory_node: c_int,
    is_allocated: *mut c_int,
    is_valid: *mut c_int,
    is_loading: *mut c_int,
    is_requested: *mut c_int,
) {
    let outs = [is_allocated, is_valid, is_loading, is_requested];
    query("starpu_data_query_status2", h, memory_node, outs);
}

/// `starpu_data_query_status`: `starpu_data_query_status2` without `is_loading`.
///
/// # Safety
/// Each pointer is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn starpu_data_query_status(
    h: starpu_data_handle_t,
    memory_node: c_int,
    is_allocated: *mut c_int,
    is_valid: *mut c_int,
    is_requested: *mut c_int,
) {
    let outs = [is_allocated, is_valid, std::ptr::null_mut(), is_requested];
    query("starpu_data_query_status", h, memory_node, outs);
}

/// `starpu_data_advise_as_important`: asks the memory manager to keep the data rather
/// than evict it. Eviction here takes the least recently used data first, which data in
/// use is not; the advice is accepted and the handle checked.
#[no_mangle]
pub extern "C" fn starpu_data_advise_as_important(h: starpu_data_handle_t, _is_important: c_uint) {
    let call = "starpu_data_advise_as_important";
    let _ = int_call(call, || handle(h).map(|_| ()));
}

/// `starpu_memchunk_tidy`: frees the buffers `memory_node` keeps for reuse, and writes
/// back data until `STARPU_TARGET_CLEAN_BUFFERS`% of its buffers are clean when fewer
/// than `STARPU_MINIMUM_CLEAN_BUFFERS`% are.
#[no_mangle]
pub extern "C" fn starpu_memchunk_tidy(memory_node: c_uint) {
    let call = "starpu_memchunk_tidy";
    let _ = int_call(call, || crate::nodes::memory().tidy(memory_node as usize));
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
