//! Tags (`starpu_task_dep.h`).

use crate::ffi::{self, int_call};
use crate::types::starpu_tag_t;
use libc::{c_int, c_uint};
use starpu_core::Error;

/// `starpu_tag_declare_deps_array`: tag `id` waits for the tags in `array`.
///
/// # Safety
/// `array` holds `ndeps` tags.
#[no_mangle]
pub unsafe extern "C" fn starpu_tag_declare_deps_array(
    id: starpu_tag_t,
    ndeps: c_uint,
    array: *mut starpu_tag_t,
) {
    let _ = int_call("starpu_tag_declare_deps_array", || {
        let rt = ffi::runtime()?;
        if array.is_null() && ndeps > 0 {
            return Err(Error::invalid("array is NULL"));
        }
        let deps = if ndeps == 0 {
            &[][..]
        } else {
            std::slice::from_raw_parts(array, ndeps as usize)
        };
        rt.tags.declare_deps(id, deps)
    });
}

/// `starpu_tag_wait`.
#[no_mangle]
pub extern "C" fn starpu_tag_wait(id: starpu_tag_t) -> c_int {
    int_call("starpu_tag_wait", || ffi::runtime()?.tag_wait(&[id]))
}

/// `starpu_tag_wait_array`.
///
/// # Safety
/// `ids` holds `ntags` tags.
#[no_mangle]
pub unsafe extern "C" fn starpu_tag_wait_array(ntags: c_uint, ids: *mut starpu_tag_t) -> c_int {
    int_call("starpu_tag_wait_array", || {
        if ids.is_null() && ntags > 0 {
            return Err(Error::invalid("ids is NULL"));
        }
        let ids = if ntags == 0 {
            &[][..]
        } else {
            std::slice::from_raw_parts(ids, ntags as usize)
        };
        ffi::runtime()?.tag_wait(ids)
    })
}

/// `starpu_tag_notify_from_apps`: marks tag `id` done, releasing what waits for it.
#[no_mangle]
pub extern "C" fn starpu_tag_notify_from_apps(id: starpu_tag_t) {
    let _ = int_call("starpu_tag_notify_from_apps", || {
        ffi::runtime()?.tag_notify(id);
        Ok(())
    });
}

/// `starpu_tag_remove`.
#[no_mangle]
pub extern "C" fn starpu_tag_remove(id: starpu_tag_t) {
    if let Ok(rt) = ffi::runtime() {
        rt.tags.remove(id);
    }
}

/// `starpu_tag_restart`: the tag may be waited for again.
#[no_mangle]
pub extern "C" fn starpu_tag_restart(id: starpu_tag_t) {
    if let Ok(rt) = ffi::runtime() {
        rt.tags.restart(id);
    }
}
