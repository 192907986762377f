//! Scheduling contexts for Fortran: `fstarpu_sched_ctx_create`, whose options come as a
//! `c_ptr` array (C's `starpu_sched_ctx_create` is variadic), and
//! `fstarpu_sched_ctx_display_workers` (C's takes a `FILE *`).
//!
//! The array follows StarPU's Fortran convention: keys (`FSTARPU_SCHED_CTX_*`) each
//! followed by their value, then `C_NULL_PTR`. `POLICY_NAME` takes `c_loc` of a
//! NUL-terminated string (or `C_NULL_PTR`: the default policy), `POLICY_STRUCT`,
//! `POLICY_INIT` and `USER_DATA` the pointer itself, the integer options `c_loc` of an
//! `integer(c_int)`, `AWAKE_WORKERS` nothing. The options go to the C face's record, so
//! their meaning and checks stay with `starpu_sched_ctx_create`'s.

use super::capi;
use super::report;
use crate::sched_ctx::*;
use libc::{c_char, c_int, c_uint, c_void};

const ROUTINE: &str = "fstarpu_sched_ctx_create";

/// An empty option record (every field absent, as the C walker starts).
fn no_options() -> _starpu_sched_ctx_options {
    _starpu_sched_ctx_options {
        policy_name: std::ptr::null(),
        policy: std::ptr::null_mut(),
        min_prio: 0,
        min_prio_set: 0,
        max_prio: 0,
        max_prio_set: 0,
        hierarchy_level: 0,
        nested: 0,
        awake_workers: 0,
        init_sched: None,
        user_data: std::ptr::null_mut(),
        sub_ctxs: std::ptr::null_mut(),
        nsub_ctxs: 0,
        nsms: 0,
        bad_key: 0,
    }
}

/// Reads the NULL-terminated `list` into the option record; Err names the element
/// (1-based, as Fortran counts) that is wrong.
///
/// # Safety
/// `list` is NULL-terminated and its elements hold what the convention says.
unsafe fn read_options(list: *const *mut c_void) -> Result<_starpu_sched_ctx_options, String> {
    let mut o = no_options();
    if list.is_null() {
        return Ok(o);
    }
    let mut at = 0usize;
    // The value after the key at `key_at`, an integer read through its c_loc.
    let int_at = |at: usize, key_at: usize| -> Result<c_int, String> {
        let p = *list.add(at);
        if p.is_null() {
            return Err(format!(
                "element {}: the key at element {} expects c_loc(an integer), not C_NULL_PTR",
                at + 1,
                key_at + 1
            ));
        }
        Ok(std::ptr::read_unaligned(p as *const c_int))
    };
    loop {
        let element = *list.add(at);
        if element.is_null() {
            return Ok(o);
        }
        let key_at = at;
        let key = c_int::try_from(element as isize).unwrap_or(-1);
        match key {
            STARPU_SCHED_CTX_POLICY_NAME => {
                at += 1;
                o.policy_name = *list.add(at) as *const c_char;
            }
            STARPU_SCHED_CTX_POLICY_STRUCT => {
                at += 1;
                o.policy = *list.add(at) as *mut _;
            }
            STARPU_SCHED_CTX_POLICY_MIN_PRIO => {
                at += 1;
                o.min_prio = int_at(at, key_at)?;
                o.min_prio_set = 1;
            }
            STARPU_SCHED_CTX_POLICY_MAX_PRIO => {
                at += 1;
                o.max_prio = int_at(at, key_at)?;
                o.max_prio_set = 1;
            }
            STARPU_SCHED_CTX_HIERARCHY_LEVEL | STARPU_SCHED_CTX_NESTED => {
                at += 1;
                let v = c_uint::try_from(int_at(at, key_at)?)
                    .map_err(|_| format!("element {}: a negative level", at + 1))?;
                if key == STARPU_SCHED_CTX_NESTED {
                    o.nested = v;
                } else {
                    o.hierarchy_level = v;
                }
            }
            STARPU_SCHED_CTX_AWAKE_WORKERS => o.awake_workers = 1,
            STARPU_SCHED_CTX_POLICY_INIT => {
                at += 1;
                o.init_sched = std::mem::transmute::<
                    *mut c_void,
                    Option<unsafe extern "C" fn(c_uint)>,
                >(*list.add(at));
            }
            STARPU_SCHED_CTX_USER_DATA => {
                at += 1;
                o.user_data = *list.add(at);
            }
            STARPU_SCHED_CTX_SUB_CTXS => {
                at += 1;
                o.sub_ctxs = *list.add(at) as *mut c_int;
                at += 1;
                o.nsub_ctxs = int_at(at, key_at)?;
            }
            STARPU_SCHED_CTX_CUDA_NSMS => {
                at += 1;
                o.nsms = int_at(at, key_at)?;
            }
            _ => {
                return Err(format!(
                    "element {}: unknown key {:#x} (is a value missing before it, or the \
                     C_NULL_PTR terminator?)",
                    at + 1,
                    element as isize
                ))
            }
        }
        at += 1;
    }
}

/// `fstarpu_sched_ctx_create(workerids, nworkers, name, (/ KEY, value, ..., C_NULL_PTR /))`:
/// the new context's id, or `STARPU_NMAX_SCHED_CTXS` when none is made (said on stderr).
///
/// # Safety
/// `workerids` holds `nworkers` ids; `name` is NULL or a C string; `arglist` is NULL or
/// a NULL-terminated array following the convention above.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_sched_ctx_create(
    workerids: *const c_int,
    nworkers: c_int,
    name: *const c_char,
    arglist: *const *mut c_void,
) -> c_int {
    match read_options(arglist) {
        Ok(o) => capi::_starpu_sched_ctx_create_with(workerids, nworkers, name, &o) as c_int,
        Err(e) => {
            report(ROUTINE, format_args!("{e}; no context was created"));
            NMAX as c_int
        }
    }
}

/// `fstarpu_sched_ctx_display_workers(ctx)`: the context's workers, on stderr.
#[no_mangle]
pub extern "C" fn fstarpu_sched_ctx_display_workers(ctx: c_int) {
    let Ok(ctx) = c_uint::try_from(ctx) else {
        report(
            "fstarpu_sched_ctx_display_workers",
            format_args!("{ctx} is not a context"),
        );
        return;
    };
    // SAFETY: stderr is the process's standard error stream.
    unsafe { capi::starpu_sched_ctx_display_workers(ctx, capi::stderr) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(k: c_int) -> *mut c_void {
        k as isize as *mut c_void
    }

    #[test]
    fn integer_options_are_read_through_their_address() {
        let (min, max) = (-3 as c_int, 7 as c_int);
        let name = b"eager\0";
        let list = [
            key(STARPU_SCHED_CTX_POLICY_NAME),
            name.as_ptr() as *mut c_void,
            key(STARPU_SCHED_CTX_POLICY_MIN_PRIO),
            &min as *const c_int as *mut c_void,
            key(STARPU_SCHED_CTX_AWAKE_WORKERS),
            key(STARPU_SCHED_CTX_POLICY_MAX_PRIO),
            &max as *const c_int as *mut c_void,
            std::ptr::null_mut(),
        ];
        // SAFETY: the list follows the convention and is terminated.
        let o = unsafe { read_options(list.as_ptr()) }.unwrap();
        assert_eq!(o.policy_name, name.as_ptr() as *const c_char);
        assert_eq!((o.min_prio, o.min_prio_set), (-3, 1));
        assert_eq!((o.max_prio, o.max_prio_set), (7, 1));
        assert_eq!(o.awake_workers, 1);
    }

    #[test]
    fn an_unknown_key_or_a_null_integer_is_named() {
        let list = [
            key(STARPU_SCHED_CTX_POLICY_MIN_PRIO),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
        ];
        // SAFETY: terminated list.
        let e = unsafe { read_options(list.as_ptr()) }
            .err()
            .expect("an error");
        assert!(e.starts_with("element 2:"), "{e}");
        let list = [key(0x7d), std::ptr::null_mut()];
        // SAFETY: terminated list.
        let e = unsafe { read_options(list.as_ptr()) }
            .err()
            .expect("an error");
        assert!(e.contains("unknown key 0x7d"), "{e}");
    }
}
