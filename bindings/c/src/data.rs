//! Data handles as a whole (`starpu_data.h`): unregistering, acquiring, naming,
//! consistency flags, copies. Per-interface registration and getters are in interfaces.rs.

use crate::abi::*;
use crate::ffi::{self, c_handle, handle, int_call, value_call};
use libc::{c_char, c_int, c_uint, c_void, size_t};
use starpu_core::data::{registry, AcquireNode};
use starpu_core::{AccessMode, Error};

/// Sends a C callback and its argument to another thread.
struct Callback(unsafe extern "C" fn(*mut c_void), *mut c_void);
// SAFETY: the application hands the callback to StarPU to be called from any thread.
unsafe impl Send for Callback {}

impl Callback {
    fn boxed(self) -> Box<dyn FnOnce() + Send> {
        Box::new(move || {
            let cb = self;
            // SAFETY: a C callback with the argument the application gave for it.
            unsafe { (cb.0)(cb.1) }
        })
    }
}

fn acquire_node(node: c_int) -> starpu_core::Result<AcquireNode> {
    match node {
        n if n < 0 => Ok(AcquireNode::None),
        n if (n as usize) < crate::nodes::count() => Ok(AcquireNode::Node(n as usize)),
        n => Err(Error::invalid(format!("memory node {n} does not exist"))),
    }
}

fn mode(m: c_uint) -> starpu_core::Result<AccessMode> {
    AccessMode::from_bits(m)
}

/// `starpu_data_unregister`: waits for the tasks using the data, brings it home.
#[no_mangle]
pub extern "C" fn starpu_data_unregister(h: starpu_data_handle_t) {
    let _ = int_call("starpu_data_unregister", || {
        ffi::runtime()?.unregister(&handle(h)?, true)
    });
}

/// `starpu_data_unregister_no_coherency`: same, without bringing the value home.
#[no_mangle]
pub extern "C" fn starpu_data_unregister_no_coherency(h: starpu_data_handle_t) {
    let _ = int_call("starpu_data_unregister_no_coherency", || {
        ffi::runtime()?.unregister(&handle(h)?, false)
    });
}

/// `starpu_data_unregister_submit`: unregisters once submitted tasks are done, at once.
#[no_mangle]
pub extern "C" fn starpu_data_unregister_submit(h: starpu_data_handle_t) {
    let _ = int_call("starpu_data_unregister_submit", || {
        ffi::runtime()?.unregister_submit(&handle(h)?)
    });
}

/// `starpu_data_invalidate`.
#[no_mangle]
pub extern "C" fn starpu_data_invalidate(h: starpu_data_handle_t) {
    let _ = int_call("starpu_data_invalidate", || {
        ffi::runtime()?.invalidate(&handle(h)?)
    });
}

/// `starpu_data_invalidate_submit`.
#[no_mangle]
pub extern "C" fn starpu_data_invalidate_submit(h: starpu_data_handle_t) {
    let _ = int_call("starpu_data_invalidate_submit", || {
        ffi::runtime()?.invalidate_submit(&handle(h)?)
    });
}

/// `starpu_data_acquire`: blocks until the application may access the data in `mode`.
/// `-EDEADLK` from a task or a callback.
#[no_mangle]
pub extern "C" fn starpu_data_acquire(h: starpu_data_handle_t, m: c_uint) -> c_int {
    starpu_data_acquire_on_node(h, crate::consts::STARPU_MAIN_RAM, m)
}

/// `starpu_data_acquire_on_node`.
#[no_mangle]
pub extern "C" fn starpu_data_acquire_on_node(
    h: starpu_data_handle_t,
    node: c_int,
    m: c_uint,
) -> c_int {
    int_call("starpu_data_acquire", || {
        let rt = ffi::runtime()?;
        let h = handle(h)?;
        rt.acquire(&h, acquire_node(node)?, mode(m)?)
    })
}

/// `starpu_data_acquire_cb`: `callback(arg)` runs once the data may be accessed.
#[no_mangle]
pub extern "C" fn starpu_data_acquire_cb(
    h: starpu_data_handle_t,
    m: c_uint,
    callback: Option<unsafe extern "C" fn(*mut c_void)>,
    arg: *mut c_void,
) -> c_int {
    starpu_data_acquire_on_node_cb(h, crate::consts::STARPU_MAIN_RAM, m, callback, arg)
}

/// `starpu_data_acquire_on_node_cb`.
#[no_mangle]
pub extern "C" fn starpu_data_acquire_on_node_cb(
    h: starpu_data_handle_t,
    node: c_int,
    m: c_uint,
    callback: Option<unsafe extern "C" fn(*mut c_void)>,
    arg: *mut c_void,
) -> c_int {
    int_call("starpu_data_acquire_cb", || {
        let rt = ffi::runtime()?;
        let h = handle(h)?;
        let cb = callback.ok_or_else(|| Error::invalid("callback is NULL"))?;
        rt.acquire_cb(&h, acquire_node(node)?, mode(m)?, Callback(cb, arg).boxed())
    })
}

/// `starpu_data_acquire_cb_sequential_consistency`.
#[no_mangle]
pub extern "C" fn starpu_data_acquire_cb_sequential_consistency(
    h: starpu_data_handle_t,
    m: c_uint,
    callback: Option<unsafe extern "C" fn(*mut c_void)>,
    arg: *mut c_void,
    sequential_consistency: c_int,
) -> c_int {
    int_call("starpu_data_acquire_cb", || {
        let hd = handle(h)?;
        let previous = hd.sequential_consistency();
        hd.set_sequential_consistency(sequential_consistency != 0);
        let r = starpu_data_acquire_cb(h, m, callback, arg);
        hd.set_sequential_consistency(previous);
        match r {
            0 => Ok(()),
            e => Err(Error::new(
                starpu_core::ErrorKind::InvalidArgument,
                format!("acquire failed ({e})"),
            )),
        }
    })
}

/// `starpu_data_release`: ends the application's access.
#[no_mangle]
pub extern "C" fn starpu_data_release(h: starpu_data_handle_t) {
    let _ = int_call("starpu_data_release", || {
        ffi::runtime()?.release(&handle(h)?)
    });
}

/// `starpu_data_release_on_node`.
#[no_mangle]
pub extern "C" fn starpu_data_release_on_node(h: starpu_data_handle_t, node: c_int) {
    let _ = node;
    starpu_data_release(h);
}

/// `starpu_data_set_name`.
///
/// # Safety
/// `name` is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn starpu_data_set_name(h: starpu_data_handle_t, name: *const c_char) {
    let _ = int_call("starpu_data_set_name", || {
        handle(h)?.set_name(ffi::string(name));
        Ok(())
    });
}

/// `starpu_data_set_coordinates_array`.
///
/// # Safety
/// `dims` holds `dimensions` ints.
#[no_mangle]
pub unsafe extern "C" fn starpu_data_set_coordinates_array(
    h: starpu_data_handle_t,
    dimensions: c_uint,
    dims: *mut c_int,
) {
    let _ = int_call("starpu_data_set_coordinates", || {
        let d = if dimensions == 0 {
            &[][..]
        } else {
            std::slice::from_raw_parts(dims, dimensions as usize)
        };
        handle(h)?.set_coordinates(d);
        Ok(())
    });
}

/// `starpu_data_get_coordinates_array`: fills up to `dimensions` coordinates, returns how
/// many the data has.
///
/// # Safety
/// `dims` has room for `dimensions` ints.
#[no_mangle]
pub unsafe extern "C" fn starpu_data_get_coordinates_array(
    h: starpu_data_handle_t,
    dimensions: c_uint,
    dims: *mut c_int,
) -> c_uint {
    value_call("starpu_data_get_coordinates_array", 0, || {
        let c = handle(h)?.coordinates();
        for (i, v) in c.iter().take(dimensions as usize).enumerate() {
            *dims.add(i) = *v;
        }
        Ok(c.len() as c_uint)
    })
}

/// `starpu_data_set_user_data`.
#[no_mangle]
pub extern "C" fn starpu_data_set_user_data(h: starpu_data_handle_t, user_data: *mut c_void) {
    let _ = int_call("starpu_data_set_user_data", || {
        handle(h)?.set_user_data(user_data as usize);
        Ok(())
    });
}

/// `starpu_data_get_user_data`.
#[no_mangle]
pub extern "C" fn starpu_data_get_user_data(h: starpu_data_handle_t) -> *mut c_void {
    value_call(
        "starpu_data_get_user_data",
        0,
        || Ok(handle(h)?.user_data()),
    ) as *mut c_void
}

/// `starpu_data_lookup`: the handle registered with home buffer `ptr`, NULL if none.
#[no_mangle]
pub extern "C" fn starpu_data_lookup(ptr: *const c_void) -> starpu_data_handle_t {
    registry::lookup_data(ptr as usize).map_or(std::ptr::null_mut(), |h| c_handle(&h))
}

/// `starpu_data_set_sequential_consistency_flag`.
#[no_mangle]
pub extern "C" fn starpu_data_set_sequential_consistency_flag(
    h: starpu_data_handle_t,
    flag: c_uint,
) {
    let _ = int_call("starpu_data_set_sequential_consistency_flag", || {
        handle(h)?.set_sequential_consistency(flag != 0);
        Ok(())
    });
}

/// `starpu_data_get_sequential_consistency_flag`.
#[no_mangle]
pub extern "C" fn starpu_data_get_sequential_consistency_flag(h: starpu_data_handle_t) -> c_uint {
    value_call("starpu_data_get_sequential_consistency_flag", 0, || {
        Ok(handle(h)?.sequential_consistency() as c_uint)
    })
}

/// `starpu_data_set_default_sequential_consistency_flag`: for handles registered later.
#[no_mangle]
pub extern "C" fn starpu_data_set_default_sequential_consistency_flag(flag: c_uint) {
    if let Ok(rt) = ffi::runtime() {
        rt.set_default_sequential_consistency(flag != 0);
    }
}

/// `starpu_data_get_default_sequential_consistency_flag`.
#[no_mangle]
pub extern "C" fn starpu_data_get_default_sequential_consistency_flag() -> c_uint {
    ffi::runtime().map_or(1, |rt| rt.default_sequential_consistency() as c_uint)
}

/// `starpu_data_get_size`: bytes of data.
#[no_mangle]
pub extern "C" fn starpu_data_get_size(h: starpu_data_handle_t) -> size_t {
    value_call("starpu_data_get_size", 0, || Ok(handle(h)?.size()))
}

/// `starpu_data_get_alloc_size`.
#[no_mangle]
pub extern "C" fn starpu_data_get_alloc_size(h: starpu_data_handle_t) -> size_t {
    value_call("starpu_data_get_alloc_size", 0, || {
        Ok(handle(h)?.alloc_size())
    })
}

/// `starpu_data_get_interface_id`.
#[no_mangle]
pub extern "C" fn starpu_data_get_interface_id(h: starpu_data_handle_t) -> c_int {
    value_call("starpu_data_get_interface_id", -1, || {
        Ok(handle(h)?.interface_id())
    })
}

/// `starpu_data_get_interface_on_node`: the interface description on `node`.
#[no_mangle]
pub extern "C" fn starpu_data_get_interface_on_node(
    h: starpu_data_handle_t,
    node: c_uint,
) -> *mut c_void {
    if let Some(desc) = crate::custom_interface::untag(h) {
        return desc;
    }
    value_call("starpu_data_get_interface_on_node", 0usize, || {
        let h = handle(h)?;
        Ok(crate::custom_interface::interface_on_node(&h, node as usize).map_or(0, |p| p as usize))
    }) as *mut c_void
}

/// `starpu_data_handle_to_pointer`: the data's buffer on `node`, NULL if none there.
#[no_mangle]
pub extern "C" fn starpu_data_handle_to_pointer(
    h: starpu_data_handle_t,
    node: c_uint,
) -> *mut c_void {
    value_call("starpu_data_handle_to_pointer", 0usize, || {
        let h = handle(h)?;
        if !h.is_allocated_on(node as usize) {
            return Ok(0);
        }
        let d = h
            .interface_on_node(node as usize)
            .ok_or_else(|| Error::invalid("no such node"))?;
        // SAFETY: the description belongs to h, of h's interface type.
        Ok(unsafe { h.ops().data_ptr(d as *const u8) })
    }) as *mut c_void
}

/// `starpu_data_get_local_ptr`: the buffer on this thread's memory node.
#[no_mangle]
pub extern "C" fn starpu_data_get_local_ptr(h: starpu_data_handle_t) -> *mut c_void {
    starpu_data_handle_to_pointer(h, crate::workers::starpu_worker_get_local_memory_node())
}

/// `starpu_data_get_home_node`: -1 for data registered without home.
#[no_mangle]
pub extern "C" fn starpu_data_get_home_node(h: starpu_data_handle_t) -> c_int {
    value_call("starpu_data_get_home_node", -1, || {
        Ok(handle(h)?.home_node().map_or(-1, |n| n as c_int))
    })
}

/// `starpu_data_test_if_allocated_on_node`.
#[no_mangle]
pub extern "C" fn starpu_data_test_if_allocated_on_node(
    h: starpu_data_handle_t,
    node: c_uint,
) -> c_uint {
    value_call("starpu_data_test_if_allocated_on_node", 0, || {
        Ok(handle(h)?.is_allocated_on(node as usize) as c_uint)
    })
}

/// `starpu_data_evict_from_node`: 0 if the buffer of `h` on `node` was freed, -1 if it
/// could not be (see the core's `evict_from_node`).
#[no_mangle]
pub extern "C" fn starpu_data_evict_from_node(h: starpu_data_handle_t, node: c_uint) -> c_int {
    let call = "starpu_data_evict_from_node";
    ffi::guard(call, -libc::EINVAL, || {
        match ffi::runtime().and_then(|rt| rt.evict_from_node(&handle(h)?, node as usize)) {
            Ok(true) => 0,
            Ok(false) => -1,
            Err(e) => {
                ffi::report(call, &e);
                -e.errno()
            }
        }
    })
}

/// `starpu_data_cpy`: copies `src` into `dst` with a task; `callback(arg)` once done.
#[no_mangle]
pub extern "C" fn starpu_data_cpy(
    dst: starpu_data_handle_t,
    src: starpu_data_handle_t,
    asynchronous: c_int,
    callback: Option<unsafe extern "C" fn(*mut c_void)>,
    arg: *mut c_void,
) -> c_int {
    int_call("starpu_data_cpy", || {
        let rt = ffi::runtime()?;
        let done = callback.map(|f| Callback(f, arg).boxed());
        rt.data_cpy(&handle(dst)?, &handle(src)?, asynchronous != 0, done)
    })
}

/// `starpu_data_set_wt_mask`: the nodes each write is copied through to (bit `n` for
/// memory node `n`): after a task writes the data, the value goes to those nodes too.
#[no_mangle]
pub extern "C" fn starpu_data_set_wt_mask(h: starpu_data_handle_t, wt_mask: u32) {
    let _ = int_call("starpu_data_set_wt_mask", || {
        handle(h).map(|h| h.set_wt_mask(wt_mask))
    });
}
