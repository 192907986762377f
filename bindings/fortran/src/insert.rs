//! `fstarpu_task_insert((/ cl, KEY, value..., ..., C_NULL_PTR /))`.
//!
//! Fortran has no variadic calls, so a task's arguments come as one array of `c_ptr`: the
//! codelet, then keys each followed by their values, then `C_NULL_PTR`. This module reads
//! that array, element by element, into the C face's argument records and hands them to
//! `_starpu_task_insert_args`, the one decoder of every key (the C walker of
//! `starpu_task_insert`'s variadic list does the same). What is Fortran's own is decided
//! here: how many elements each key takes and which of them are `c_loc(variable)` (read
//! here) rather than a value carried in the pointer itself (StarPU's convention, kept).
//!
//! The Fortran wrapper passes the array's length, so a missing terminator is an error
//! naming the array's end instead of a read past it. Every error names the element
//! (1-based, as Fortran counts) and nothing is submitted.

use super::constants::key_name;
use super::report;
use crate::consts::*;
use crate::insert::{
    _starpu_insert_arg, _starpu_insert_value, _starpu_task_insert_args, _STARPU_INSERT_BUILD,
    _STARPU_INSERT_SUBMIT,
};
use crate::types::{starpu_codelet, starpu_data_descr, starpu_data_handle_t, starpu_task};
use libc::{c_int, c_void};
use starpu_core::data::registry;

/// Reads the array; positions in messages are Fortran's (element 1 is the codelet).
struct Reader<'a> {
    list: &'a [*mut c_void],
    /// Index of the element read last.
    at: usize,
}

type Result<T> = std::result::Result<T, String>;

impl Reader<'_> {
    /// The next element, a value of the key at `key_at`.
    fn value(&mut self, key_at: usize) -> Result<*mut c_void> {
        self.at += 1;
        self.list.get(self.at).copied().ok_or_else(|| {
            format!(
                "element {}: {} expects more values, but the array ends at element {} \
                 (is a value or the C_NULL_PTR terminator missing?)",
                key_at + 1,
                name(self.list[key_at] as c_int),
                self.list.len()
            )
        })
    }

    /// The variable of type `T` that the next element points to (`c_loc(variable)`).
    fn deref<T: Copy>(&mut self, key_at: usize) -> Result<T> {
        let p = self.value(key_at)?;
        if p.is_null() {
            return Err(format!(
                "element {}: {} expects c_loc(a variable), not C_NULL_PTR",
                self.at + 1,
                name(self.list[key_at] as c_int)
            ));
        }
        // SAFETY: the caller's convention for this key is a pointer to a T.
        Ok(unsafe { std::ptr::read_unaligned(p as *const T) })
    }
}

fn name(key: c_int) -> String {
    key_name(key).map_or_else(|| format!("key {key:#x}"), str::to_string)
}

/// Err when `h` (element `at`, 0-based) is not a registered data handle.
fn check_handle(h: *mut c_void, what: &dyn Fn() -> String) -> Result<()> {
    registry::resolve(h as usize)
        .map(|_| ())
        .map_err(|_| match h.is_null() {
            true => format!("{}: the data handle is C_NULL_PTR", what()),
            false => format!("{}: {h:p} is not a registered data handle", what()),
        })
}

fn record(key: c_int, a: _starpu_insert_value, b: _starpu_insert_value) -> _starpu_insert_arg {
    _starpu_insert_arg { key, a, b }
}

fn p(p: *mut c_void) -> _starpu_insert_value {
    _starpu_insert_value { p }
}

fn i(i: i64) -> _starpu_insert_value {
    _starpu_insert_value { i }
}

fn u(u: u64) -> _starpu_insert_value {
    _starpu_insert_value { u }
}

const NONE: _starpu_insert_value = _starpu_insert_value { u: 0 };

/// The codelet and the argument records of `list`. With `check_handles`, every data
/// handle must be registered (a task being submitted); a task only built is checked when
/// it is submitted, as C's `starpu_task_build` is.
///
/// # Safety
/// Elements hold what StarPU's Fortran convention says for their key.
#[cfg(test)]
unsafe fn translate(
    list: &[*mut c_void],
    check_handles: bool,
) -> Result<(*mut starpu_codelet, Vec<_starpu_insert_arg>)> {
    translate_for(list, check_handles, false)
}

/// `translate`; with `mpi`, StarPU-MPI's convention (`fstarpu_mpi_task_insert`): the rank
/// of `FSTARPU_EXECUTE_ON_NODE` and the policy of `FSTARPU_NODE_SELECTION_POLICY` are
/// `c_loc(an integer(c_int))`.
///
/// # Safety
/// As `translate`.
pub(crate) unsafe fn translate_for(
    list: &[*mut c_void],
    check_handles: bool,
    mpi: bool,
) -> Result<(*mut starpu_codelet, Vec<_starpu_insert_arg>)> {
    let check = |h: *mut c_void, what: &dyn Fn() -> String| match check_handles {
        true => check_handle(h, what),
        false => Ok(()),
    };
    let cl = match list.first() {
        None => return Err("the array is empty (it must start with the codelet)".into()),
        Some(c) if c.is_null() => {
            return Err(
                "element 1: the codelet is C_NULL_PTR (the array must start with the codelet)"
                    .into(),
            )
        }
        Some(&c) => c as *mut starpu_codelet,
    };
    let mut r = Reader { list, at: 0 };
    let mut args = Vec::new();
    loop {
        r.at += 1;
        let Some(&element) = list.get(r.at) else {
            return Err(format!(
                "no C_NULL_PTR terminator within the {} elements of the array",
                list.len()
            ));
        };
        if element.is_null() {
            return Ok((cl, args));
        }
        let at = r.at;
        let raw = element as isize;
        let key = c_int::try_from(raw).unwrap_or(-1);
        if key <= 0 {
            return Err(unknown(at, raw));
        }
        if key < STARPU_VALUE {
            // An access mode (maybe OR-ed with FSTARPU_COMMUTE, ...): a data handle follows.
            let h = r.value(at)?;
            check(h, &|| format!("element {}", r.at + 1))?;
            args.push(record(key, p(h), NONE));
            continue;
        }
        let arg = match key {
            STARPU_VALUE | STARPU_CL_ARGS | STARPU_CL_ARGS_NFREE => {
                let ptr = r.value(at)?;
                // The size is carried by the pointer itself (FSTARPU_SZ_*, or a
                // fstarpu_csizet_to_cptr).
                let size = r.value(at)? as usize;
                record(key, p(ptr), u(size as u64))
            }
            STARPU_CALLBACK_WITH_ARG | STARPU_CALLBACK_WITH_ARG_NFREE => {
                let f = r.value(at)?;
                record(key, p(f), p(r.value(at)?))
            }
            STARPU_CALLBACK
            | STARPU_CALLBACK_ARG
            | STARPU_CALLBACK_ARG_NFREE
            | STARPU_PROLOGUE_CALLBACK
            | STARPU_PROLOGUE_CALLBACK_ARG
            | STARPU_PROLOGUE_CALLBACK_ARG_NFREE
            | STARPU_PROLOGUE_CALLBACK_POP
            | STARPU_PROLOGUE_CALLBACK_POP_ARG
            | STARPU_PROLOGUE_CALLBACK_POP_ARG_NFREE
            | STARPU_EPILOGUE_CALLBACK
            | STARPU_EPILOGUE_CALLBACK_ARG
            | STARPU_SOON_CALLBACK
            | STARPU_SOON_CALLBACK_ARG
            | STARPU_SOON_CALLBACK_ARG_NFREE
            | STARPU_NAME
            | STARPU_TASK_FILE
            | STARPU_TASK_PROFILING_INFO
            | STARPU_TASK_SCHED_DATA
            | STARPU_TRANSACTION
            | STARPU_HANDLES_SEQUENTIAL_CONSISTENCY
            | STARPU_EXECUTE_ON_DATA
            | STARPU_RECURSIVE_TASK_FUNC
            | STARPU_RECURSIVE_TASK_FUNC_ARG
            | STARPU_RECURSIVE_TASK_GEN_DAG_FUNC
            | STARPU_RECURSIVE_TASK_GEN_DAG_FUNC_ARG
            | STARPU_RECURSIVE_TASK_PARENT => record(key, p(r.value(at)?), NONE),
            STARPU_EXECUTE_ON_NODE | STARPU_NODE_SELECTION_POLICY if mpi => {
                record(key, i(r.deref::<c_int>(at)? as i64), NONE)
            }
            // Values carried by the pointer itself.
            STARPU_EXECUTE_WHERE | STARPU_EXECUTE_ON_NODE | STARPU_NODE_SELECTION_POLICY => {
                record(key, u(r.value(at)? as u64), NONE)
            }
            // c_loc of an integer(c_int).
            STARPU_PRIORITY
            | STARPU_EXECUTE_ON_WORKER
            | STARPU_HYPERVISOR_TAG
            | STARPU_TASK_COLOR
            | STARPU_TASK_SYNCHRONOUS
            | STARPU_TASK_END_DEP
            | STARPU_TASK_LINE => record(key, i(r.deref::<c_int>(at)? as i64), NONE),
            // c_loc of an integer(c_int) read as C's unsigned.
            STARPU_SCHED_CTX
            | STARPU_WORKER_ORDER
            | STARPU_POSSIBLY_PARALLEL
            | STARPU_SEQUENTIAL_CONSISTENCY
            | STARPU_TASK_NO_SUBMITORDER => record(key, u(r.deref::<u32>(at)? as u64), NONE),
            // c_loc of an integer(c_int64_t) (starpu_tag_t).
            STARPU_TAG | STARPU_TAG_ONLY => record(key, u(r.deref::<u64>(at)?), NONE),
            STARPU_FLOPS => record(
                key,
                _starpu_insert_value {
                    d: r.deref::<f64>(at)?,
                },
                NONE,
            ),
            // An array, then c_loc(its length).
            STARPU_DATA_ARRAY => {
                let hs = r.value(at)? as *const starpu_data_handle_t;
                let n = r.deref::<c_int>(at)?;
                for k in 0..n.max(0) as usize {
                    check(*hs.add(k) as *mut c_void, &|| {
                        format!(
                            "element {}: handle {} of the FSTARPU_DATA_ARRAY",
                            at + 1,
                            k + 1
                        )
                    })?;
                }
                record(key, p(hs as *mut c_void), i(n as i64))
            }
            STARPU_DATA_MODE_ARRAY => {
                let ds = r.value(at)? as *const starpu_data_descr;
                let n = r.deref::<c_int>(at)?;
                for k in 0..n.max(0) as usize {
                    check((*ds.add(k)).handle as *mut c_void, &|| {
                        format!(
                            "element {}: descriptor {} of the FSTARPU_DATA_MODE_ARRAY",
                            at + 1,
                            k + 1
                        )
                    })?;
                }
                record(key, p(ds as *mut c_void), i(n as i64))
            }
            // c_loc(the count), then the array (StarPU's order for these keys).
            STARPU_TASK_DEPS_ARRAY | STARPU_TASK_END_DEPS_ARRAY | STARPU_TASK_WORKERIDS => {
                let n = r.deref::<u32>(at)?;
                record(key, p(r.value(at)?), u(n as u64))
            }
            _ => return Err(unknown(at, raw)),
        };
        args.push(arg);
    }
}

fn unknown(at: usize, raw: isize) -> String {
    format!(
        "element {}: unknown key {raw:#x} (is a value missing before it, or the C_NULL_PTR \
         terminator?)",
        at + 1
    )
}

/// `translate_for`, its error (or a panic) reported for `routine`, followed by
/// `consequence` ("no task was submitted").
///
/// # Safety
/// As `translate`.
pub(crate) unsafe fn translate_reported(
    routine: &str,
    list: &[*mut c_void],
    check_handles: bool,
    mpi: bool,
    consequence: &str,
) -> Option<(*mut starpu_codelet, Vec<_starpu_insert_arg>)> {
    match std::panic::catch_unwind(|| translate_for(list, check_handles, mpi)) {
        Ok(Ok(t)) => Some(t),
        Ok(Err(message)) => {
            report(routine, format_args!("{message}; {consequence}"));
            None
        }
        Err(_) => {
            report(routine, "internal error while reading the argument array");
            None
        }
    }
}

/// Translates then decodes; `routine` names the Fortran routine in messages.
///
/// # Safety
/// `list` holds `n` elements following StarPU's Fortran convention.
unsafe fn insert(
    routine: &str,
    action: c_int,
    list: *const *mut c_void,
    n: c_int,
    out: *mut *mut starpu_task,
) -> c_int {
    if list.is_null() || n < 0 {
        report(routine, "the argument array is missing");
        return -libc::EINVAL;
    }
    let list = std::slice::from_raw_parts(list, n as usize);
    let check_handles = action == _STARPU_INSERT_SUBMIT;
    let Some((cl, args)) =
        translate_reported(routine, list, check_handles, false, "no task was submitted")
    else {
        return -libc::EINVAL;
    };
    _starpu_task_insert_args(
        action,
        std::ptr::null_mut(),
        cl,
        args.as_ptr(),
        args.len() as c_int,
        out,
    )
}

/// Submits the task the array describes; 0 or StarPU's negative error code.
/// (`fstarpu_task_insert` in the module stops the program on an error, as StarPU's does;
/// `fstarpu_task_insert_ret` returns the code.)
///
/// # Safety
/// `list` holds `n` elements following StarPU's Fortran convention.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_task_insert_array(list: *const *mut c_void, n: c_int) -> c_int {
    insert(
        "fstarpu_task_insert",
        _STARPU_INSERT_SUBMIT,
        list,
        n,
        std::ptr::null_mut(),
    )
}

/// Builds the task the array describes without submitting it (C's `starpu_task_build`);
/// NULL on error.
///
/// # Safety
/// `list` holds `n` elements following StarPU's Fortran convention.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_task_build_array(
    list: *const *mut c_void,
    n: c_int,
) -> *mut starpu_task {
    let mut task = std::ptr::null_mut();
    match insert(
        "fstarpu_task_build",
        _STARPU_INSERT_BUILD,
        list,
        n,
        &mut task,
    ) {
        0 => task,
        _ => std::ptr::null_mut(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(k: c_int) -> *mut c_void {
        k as isize as *mut c_void
    }

    fn fake_codelet() -> *mut c_void {
        16usize as *mut c_void
    }

    #[test]
    fn values_callbacks_and_pointed_to_options_become_records() {
        let prio: c_int = 7;
        let tag: u64 = 1 << 40;
        let flops: f64 = 2.5;
        let x: f64 = 1.0;
        let list = [
            fake_codelet(),
            key(STARPU_VALUE),
            &x as *const f64 as *mut c_void,
            8usize as *mut c_void,
            key(STARPU_PRIORITY),
            &prio as *const c_int as *mut c_void,
            key(STARPU_TAG),
            &tag as *const u64 as *mut c_void,
            key(STARPU_FLOPS),
            &flops as *const f64 as *mut c_void,
            key(STARPU_EXECUTE_WHERE),
            STARPU_CPU as usize as *mut c_void,
            std::ptr::null_mut(),
        ];
        let (cl, args) = unsafe { translate(&list, true) }.unwrap();
        assert_eq!(cl as usize, 16);
        let keys: Vec<c_int> = args.iter().map(|a| a.key).collect();
        assert_eq!(
            keys,
            [
                STARPU_VALUE,
                STARPU_PRIORITY,
                STARPU_TAG,
                STARPU_FLOPS,
                STARPU_EXECUTE_WHERE
            ]
        );
        unsafe {
            assert_eq!(args[0].a.p, &x as *const f64 as *mut c_void);
            assert_eq!(args[0].b.u, 8);
            assert_eq!(args[1].a.i, 7);
            assert_eq!(args[2].a.u, 1 << 40);
            assert_eq!(args[3].a.d, 2.5);
            assert_eq!(args[4].a.u, STARPU_CPU);
        }
    }

    #[test]
    fn deps_arrays_take_the_count_first() {
        let n: u32 = 2;
        let tasks = [8usize as *mut c_void, 24usize as *mut c_void];
        let list = [
            fake_codelet(),
            key(STARPU_TASK_DEPS_ARRAY),
            &n as *const u32 as *mut c_void,
            tasks.as_ptr() as *mut c_void,
            std::ptr::null_mut(),
        ];
        let (_, args) = unsafe { translate(&list, true) }.unwrap();
        unsafe {
            assert_eq!(args[0].b.u, 2);
            assert_eq!(args[0].a.p, tasks.as_ptr() as *mut c_void);
        }
    }

    fn error_of(list: &[*mut c_void]) -> String {
        match unsafe { translate(list, true) } {
            Ok(_) => panic!("accepted"),
            Err(e) => e,
        }
    }

    #[test]
    fn an_unknown_key_is_named_with_its_position() {
        let list = [
            fake_codelet(),
            key(1000 << STARPU_MODE_SHIFT),
            std::ptr::null_mut(),
        ];
        let e = error_of(&list);
        assert!(e.starts_with("element 2: unknown key 0x7d00000"), "{e}");
    }

    #[test]
    fn a_missing_terminator_is_found_within_the_array() {
        let prio: c_int = 1;
        let list = [
            fake_codelet(),
            key(STARPU_PRIORITY),
            &prio as *const c_int as *mut c_void,
        ];
        assert_eq!(
            error_of(&list),
            "no C_NULL_PTR terminator within the 3 elements of the array"
        );
        let cut = [fake_codelet(), key(STARPU_PRIORITY)];
        let e = error_of(&cut);
        assert!(
            e.starts_with(
                "element 2: FSTARPU_PRIORITY expects more values, but the array ends at element 2"
            ),
            "{e}"
        );
    }

    #[test]
    fn unregistered_and_null_handles_are_refused_with_their_position() {
        let bogus = 0x1234_5678usize as *mut c_void;
        let list = [fake_codelet(), key(1), bogus, std::ptr::null_mut()];
        assert_eq!(
            error_of(&list),
            "element 3: 0x12345678 is not a registered data handle"
        );
        let list = [
            fake_codelet(),
            key(3),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
        ];
        assert_eq!(error_of(&list), "element 3: the data handle is C_NULL_PTR");
    }

    #[test]
    fn a_null_pointer_for_a_pointed_to_option_is_refused() {
        let list = [
            fake_codelet(),
            key(STARPU_PRIORITY),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
        ];
        assert_eq!(
            error_of(&list),
            "element 3: FSTARPU_PRIORITY expects c_loc(a variable), not C_NULL_PTR"
        );
    }

    #[test]
    fn the_codelet_comes_first() {
        assert!(
            error_of(&[std::ptr::null_mut()]).starts_with("element 1: the codelet is C_NULL_PTR")
        );
        assert!(error_of(&[]).starts_with("the array is empty"));
    }
}
