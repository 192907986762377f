//! Tags (`starpu_task_dep.h`).

use crate::abi::{starpu_callback_func_t, starpu_tag_t, starpu_task};
use crate::ffi::{self, int_call};
use crate::job::{self, CTask};
use crate::task;
use libc::{c_int, c_uint, c_void};

/// The `n` tags at `p` (named `what` in errors); NULL is accepted for an empty list.
///
/// # Safety
/// `p` is NULL or holds `n` tags that outlive the slice.
unsafe fn tag_list<'a>(
    p: *const starpu_tag_t,
    n: c_uint,
    what: &str,
) -> starpu_core::Result<&'a [starpu_tag_t]> {
    if n == 0 {
        return Ok(&[]);
    }
    ffi::non_null(p, what)?;
    Ok(std::slice::from_raw_parts(p, n as usize))
}

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
        rt.tags.declare_deps(id, tag_list(array, ndeps, "array")?)
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
        ffi::runtime()?.tag_wait(tag_list(ids, ntags, "ids")?)
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

/// `starpu_tag_get_task`: the last task submitted with tag `id`, NULL when there is none
/// (or it was released since).
#[no_mangle]
pub extern "C" fn starpu_tag_get_task(id: starpu_tag_t) -> *mut starpu_task {
    ffi::runtime()
        .ok()
        .and_then(|rt| rt.tags.task_of(id))
        .and_then(|t| t.payload::<CTask>().map(CTask::ptr))
        .unwrap_or(std::ptr::null_mut())
}

/// `starpu_create_sync_task`: submits an empty task carrying tag `sync_tag`, which
/// waits for the `ndeps` tags of `deps` and then runs `callback(callback_arg)`.
///
/// # Safety
/// `deps` holds `ndeps` tags.
#[no_mangle]
pub unsafe extern "C" fn starpu_create_sync_task(
    sync_tag: starpu_tag_t,
    ndeps: c_uint,
    deps: *mut starpu_tag_t,
    callback: starpu_callback_func_t,
    callback_arg: *mut c_void,
) {
    let _ = int_call("starpu_create_sync_task", || {
        ffi::runtime()?
            .tags
            .declare_deps(sync_tag, tag_list(deps, ndeps, "deps")?)?;
        let t = job::create();
        (*t).use_tag = 1;
        (*t).tag_id = sync_tag;
        (*t).callback_func = callback;
        (*t).callback_arg = callback_arg;
        (*t).name = c"sync_task".as_ptr();
        match task::submit(t, "starpu_create_sync_task", None) {
            0 => Ok(()),
            _ => {
                // Reported by submit already; the task is the library's to free.
                job::destroy(t);
                Ok(())
            }
        }
    });
}
