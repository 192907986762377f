//! The last error of the calling thread, readable by the program (this project's extension
//! to StarPU's API, in the style of sqlite's `sqlite3_errmsg`): StarPU's calls return only
//! a negative errno, and the cause went to stderr, where a program cannot read it.
//!
//! Every error a C entry point reports is recorded here (`ffi::report`) before it returns.
//! A successful call does not clear it: read it right after the call that failed, or clear
//! it first with `starpu_rs_clear_last_error`.

use libc::{c_char, c_int};
use starpu_core::{Error, ErrorKind};
use std::cell::RefCell;
use std::ffi::CString;

struct Last {
    /// "call: message", as C reads it.
    text: CString,
    kind: ErrorKind,
}

thread_local! {
    static LAST: RefCell<Option<Last>> = const { RefCell::new(None) };
}

/// Records `e`, reported by entry point `call`, as this thread's last error.
pub(crate) fn record(call: &str, e: &Error) {
    // A message with a NUL byte would be cut there; the rest is still a useful cause.
    let text = format!("{call}: {}", e.message).replace('\0', " ");
    let text = CString::new(text).unwrap_or_default();
    LAST.with(|l| {
        if let Ok(mut l) = l.try_borrow_mut() {
            *l = Some(Last { text, kind: e.kind });
        }
    });
}

fn with_last<R>(f: impl FnOnce(Option<&Last>) -> R) -> R {
    LAST.with(|l| match l.try_borrow() {
        Ok(l) => f(l.as_ref()),
        Err(_) => f(None),
    })
}

/// `starpu_rs_last_error`: the last error of this thread, "function: cause", or NULL if
/// none. The string stays valid until this thread's next failing call or
/// `starpu_rs_clear_last_error`.
#[no_mangle]
pub extern "C" fn starpu_rs_last_error() -> *const c_char {
    with_last(|l| l.map_or(std::ptr::null(), |l| l.text.as_ptr()))
}

/// `starpu_rs_last_error_code`: the (negative) code the last failing call returned on this
/// thread, or 0 if none.
#[no_mangle]
pub extern "C" fn starpu_rs_last_error_code() -> c_int {
    with_last(|l| l.map_or(0, |l| -l.kind.errno()))
}

/// `starpu_rs_last_error_kind`: the stable name of the last error's kind
/// (`"InvalidArgument"`, `"Deadlock"`, ...; the same names Python and Java use), or NULL.
#[no_mangle]
pub extern "C" fn starpu_rs_last_error_kind() -> *const c_char {
    with_last(|l| match l {
        None => std::ptr::null(),
        Some(l) => KIND_NAMES
            .iter()
            .find(|(k, _)| *k == l.kind)
            .map_or(std::ptr::null(), |(_, n)| n.as_ptr() as *const c_char),
    })
}

/// `starpu_rs_clear_last_error`: forgets this thread's last error.
#[no_mangle]
pub extern "C" fn starpu_rs_clear_last_error() {
    LAST.with(|l| {
        if let Ok(mut l) = l.try_borrow_mut() {
            *l = None;
        }
    });
}

/// The kinds' names as C strings, built once from the core's list.
static KIND_NAMES: std::sync::LazyLock<Vec<(ErrorKind, CString)>> =
    std::sync::LazyLock::new(|| {
        ErrorKind::ALL
            .into_iter()
            .map(|k| (k, CString::new(k.name()).expect("kind names have no NUL")))
            .collect()
    });

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::CStr;

    #[test]
    fn the_last_error_is_readable_and_clearable() {
        starpu_rs_clear_last_error();
        assert!(starpu_rs_last_error().is_null());
        assert_eq!(starpu_rs_last_error_code(), 0);
        record("starpu_task_submit", &Error::deadlock("from a task"));
        let text = unsafe { CStr::from_ptr(starpu_rs_last_error()) };
        assert_eq!(text.to_str().unwrap(), "starpu_task_submit: from a task");
        assert_eq!(starpu_rs_last_error_code(), -libc::EDEADLK);
        let kind = unsafe { CStr::from_ptr(starpu_rs_last_error_kind()) };
        assert_eq!(kind.to_str().unwrap(), "Deadlock");
        starpu_rs_clear_last_error();
        assert!(starpu_rs_last_error_kind().is_null());
    }
}
