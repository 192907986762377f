//! What every C entry point shares: no panic crosses into C, errors become StarPU's
//! negative errno plus one line on stderr naming the call and the cause.

use libc::{c_char, c_int};
use starpu_core::data::registry;
use starpu_core::{DataHandle, Error, Runtime};
use std::ffi::CStr;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use crate::abi::starpu_data_handle_t;

/// Prints `[starpu][call] cause` on stderr and keeps the error as the thread's last one
/// (`starpu_rs_last_error`).
pub fn report(call: &str, e: &Error) {
    eprintln!("[starpu][{call}] {}", e.message);
    crate::last_error::record(call, e);
}

/// Runs `f` for C entry point `call`. A panic (a bug in this library) is reported and
/// `fallback` returned instead of unwinding into C.
pub fn guard<R>(call: &str, fallback: R, f: impl FnOnce() -> R) -> R {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(p) => {
            let msg = p
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            report(call, &Error::invalid(format!("internal error: {msg}")));
            fallback
        }
    }
}

/// Runs a fallible entry point returning StarPU's `int` convention: 0 or `-errno`.
pub fn int_call(call: &str, f: impl FnOnce() -> starpu_core::Result<()>) -> c_int {
    guard(call, -libc::EINVAL, || match f() {
        Ok(()) => 0,
        Err(e) => {
            report(call, &e);
            -e.errno()
        }
    })
}

/// Runs an entry point whose C signature has no error return (`void`, a count, a
/// pointer): errors are reported and `fallback` returned.
pub fn value_call<R>(call: &str, fallback: R, f: impl FnOnce() -> starpu_core::Result<R>) -> R
where
    R: Clone,
{
    let fb = fallback.clone();
    guard(call, fallback, || match f() {
        Ok(v) => v,
        Err(e) => {
            report(call, &e);
            fb
        }
    })
}

/// The running runtime (a new reference; `with_runtime` avoids that on hot paths).
pub fn runtime() -> starpu_core::Result<Arc<Runtime>> {
    starpu_core::runtime::global()
}

/// Runs `f` with the running runtime.
pub fn with_runtime<R>(
    f: impl FnOnce(&Arc<Runtime>) -> starpu_core::Result<R>,
) -> starpu_core::Result<R> {
    starpu_core::runtime::with_global(f)?
}

/// The registered handle behind a C handle value.
pub fn handle(h: starpu_data_handle_t) -> starpu_core::Result<DataHandle> {
    registry::resolve(h as usize)
}

/// The C handle value of a core handle.
pub fn c_handle(h: &DataHandle) -> starpu_data_handle_t {
    h.as_ptr() as starpu_data_handle_t
}

/// The C string at `p` lent as `&str`, without copying; `None` for NULL or text that is
/// not UTF-8.
///
/// # Safety
/// `p` is NULL or a NUL-terminated string that lives as long as `'a`.
pub unsafe fn str_ref<'a>(p: *const c_char) -> Option<&'a str> {
    if p.is_null() {
        return None;
    }
    CStr::from_ptr(p).to_str().ok()
}

/// A C string of `text` that lives as long as the library: one allocation per distinct
/// text (for the names the core keeps as Rust strings, which C callers do not free).
pub fn interned_c_str(text: &str) -> *const c_char {
    use std::collections::HashMap;
    use std::ffi::CString;
    use std::sync::Mutex;
    static TEXTS: Mutex<Option<HashMap<String, CString>>> = Mutex::new(None);
    let mut texts = TEXTS.lock().unwrap_or_else(|e| e.into_inner());
    texts
        .get_or_insert_with(HashMap::new)
        .entry(text.to_string())
        .or_insert_with(|| CString::new(text).unwrap_or_default())
        .as_ptr()
}

/// An owned copy of a C string, `None` for NULL.
///
/// # Safety
/// `p` is NULL or a NUL-terminated string.
pub unsafe fn string(p: *const c_char) -> Option<String> {
    (!p.is_null()).then(|| CStr::from_ptr(p).to_string_lossy().into_owned())
}

/// `Err` for a NULL pointer argument named `what`.
pub fn non_null<T>(p: *const T, what: &str) -> starpu_core::Result<()> {
    if p.is_null() {
        Err(Error::invalid(format!("{what} is NULL")))
    } else {
        Ok(())
    }
}

/// StarPU's home node convention: -1 means "no home, allocate on first use".
pub fn home_node(node: c_int) -> starpu_core::Result<Option<usize>> {
    match node {
        -1 => Ok(None),
        n if n >= 0 && (n as usize) < crate::nodes::count() => Ok(Some(n as usize)),
        n => Err(Error::invalid(format!("memory node {n} does not exist"))),
    }
}

/// A `malloc`ed copy of `bytes` (the application, or StarPU's `*_free` flags, frees it with
/// `free`); NULL if memory is exhausted.
pub fn malloc_copy(bytes: &[u8]) -> *mut libc::c_void {
    // SAFETY: malloc returns at least max(len, 1) writable bytes or NULL.
    unsafe {
        let buf = libc::malloc(bytes.len().max(1));
        if !buf.is_null() {
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), buf as *mut u8, bytes.len());
        }
        buf
    }
}
