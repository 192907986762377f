//! C calls whose arguments Fortran passes differently: enums carried in a `c_ptr`
//! (worker types, access modes, as the module's constants are), a `FILE *`, a variadic
//! argument list.

use super::capi;
use super::report;
use crate::types::{starpu_data_handle_t, starpu_task};
use libc::{c_char, c_int, c_uint, size_t};

/// An enum value carried by a `c_ptr` constant, or `None` after saying it is not one.
fn enum_value(routine: &str, v: isize, what: &str) -> Option<c_uint> {
    let r = c_uint::try_from(v).ok();
    if r.is_none() {
        report(routine, format_args!("{v:#x} is not {what}"));
    }
    r
}

/// `fstarpu_worker_get_type(id)`: the worker's type, as FSTARPU_CPU_WORKER etc. compare.
#[no_mangle]
pub extern "C" fn fstarpu_worker_get_type(id: c_int) -> isize {
    // SAFETY: a plain query.
    unsafe { capi::starpu_worker_get_type(id) as isize }
}

/// `fstarpu_worker_get_count_by_type(FSTARPU_CPU_WORKER)`.
#[no_mangle]
pub extern "C" fn fstarpu_worker_get_count_by_type(kind: isize) -> c_int {
    match enum_value("fstarpu_worker_get_count_by_type", kind, "a worker type") {
        // SAFETY: a plain query.
        Some(k) => unsafe { capi::starpu_worker_get_count_by_type(k) },
        None => -libc::EINVAL,
    }
}

/// `fstarpu_worker_get_ids_by_type(type, workerids, maxsize)`.
///
/// # Safety
/// `ids` has room for `maxsize` integers.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_worker_get_ids_by_type(
    kind: isize,
    ids: *mut c_int,
    maxsize: c_int,
) -> c_int {
    match enum_value("fstarpu_worker_get_ids_by_type", kind, "a worker type") {
        Some(k) => capi::starpu_worker_get_ids_by_type(k, ids, maxsize) as c_int,
        None => 0,
    }
}

/// `fstarpu_worker_get_by_type(type, num)`.
#[no_mangle]
pub extern "C" fn fstarpu_worker_get_by_type(kind: isize, num: c_int) -> c_int {
    match enum_value("fstarpu_worker_get_by_type", kind, "a worker type") {
        // SAFETY: a plain query.
        Some(k) => unsafe { capi::starpu_worker_get_by_type(k, num) },
        None => -1,
    }
}

/// `fstarpu_worker_get_by_devid(type, devid)`.
#[no_mangle]
pub extern "C" fn fstarpu_worker_get_by_devid(kind: isize, devid: c_int) -> c_int {
    match enum_value("fstarpu_worker_get_by_devid", kind, "a worker type") {
        // SAFETY: a plain query.
        Some(k) => unsafe { capi::starpu_worker_get_by_devid(k, devid) },
        None => -1,
    }
}

/// `fstarpu_worker_get_type_as_string(type, dst, maxlen)`: the name, NUL-terminated and
/// cut to `maxlen` bytes.
///
/// # Safety
/// `dst` has room for `maxlen` bytes.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_worker_get_type_as_string(
    kind: isize,
    dst: *mut c_char,
    maxlen: size_t,
) {
    if dst.is_null() || maxlen == 0 {
        return;
    }
    let name = match enum_value("fstarpu_worker_get_type_as_string", kind, "a worker type") {
        Some(k) => capi::starpu_worker_get_type_as_string(k),
        None => std::ptr::null(),
    };
    let bytes = if name.is_null() {
        &[][..]
    } else {
        std::ffi::CStr::from_ptr(name).to_bytes()
    };
    let n = bytes.len().min(maxlen - 1);
    std::ptr::copy_nonoverlapping(bytes.as_ptr() as *const c_char, dst, n);
    *dst.add(n) = 0;
}

/// `fstarpu_topology_print()`: the machine's topology on stderr.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_topology_print() {
    capi::starpu_topology_print(capi::stderr);
}

/// `fstarpu_data_acquire_ret(dh, mode)`: `starpu_data_acquire` with the mode a module
/// constant carries; 0 or StarPU's negative error code.
#[no_mangle]
pub extern "C" fn fstarpu_data_acquire_ret(h: starpu_data_handle_t, mode: isize) -> c_int {
    match enum_value("fstarpu_data_acquire", mode, "an access mode") {
        // SAFETY: the C call checks the handle.
        Some(m) => unsafe { capi::starpu_data_acquire(h, m) },
        None => -libc::EINVAL,
    }
}

/// `fstarpu_data_acquire(dh, mode)`: StarPU's subroutine, which has no return code (an
/// error is reported on stderr; `fstarpu_data_acquire_ret` returns it).
#[no_mangle]
pub extern "C" fn fstarpu_data_acquire(h: starpu_data_handle_t, mode: isize) {
    fstarpu_data_acquire_ret(h, mode);
}

/// `fstarpu_task_declare_deps(task, ndeps, dep)`: C's variadic `starpu_task_declare_deps`
/// with the one dependency the Fortran interface passes.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_task_declare_deps(
    task: *mut starpu_task,
    ndeps: c_int,
    dep: *mut starpu_task,
) {
    let mut deps = [dep];
    match ndeps {
        0 => {}
        1 => capi::starpu_task_declare_deps_array(task, 1, deps.as_mut_ptr()),
        n => report(
            "fstarpu_task_declare_deps",
            format_args!(
                "{n} dependencies but one task given; use fstarpu_task_declare_deps_array"
            ),
        ),
    }
}

/// `fstarpu_getenv_number(name)`: the integer in environment variable `name`, -1 when it
/// is unset or not an integer.
///
/// # Safety
/// `name` is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_getenv_number(name: *const c_char) -> c_int {
    if name.is_null() {
        return -1;
    }
    let Ok(name) = std::ffi::CStr::from_ptr(name).to_str() else {
        return -1;
    };
    std::env::var(name)
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(-1)
}

/// `fstarpu_task_set_detach(task, detach)`: whether the runtime frees the task when it
/// ends (1, StarPU's default) or `fstarpu_task_wait` must be called on it (0). Fortran
/// cannot set a task's fields itself.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_task_set_detach(task: *mut starpu_task, detach: c_int) {
    if let Some(t) = super::non_null("fstarpu_task_set_detach", task, "task") {
        t.detach = (detach != 0) as c_uint;
    }
}
