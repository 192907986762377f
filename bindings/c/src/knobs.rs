//! `starpu_perf_steering.h`: performance knobs. The core lists the knobs and acts on them
//! (`starpu_core::knobs`); this file converts ids, names and C strings, and reports refused
//! values (the setters return nothing in StarPU: a refused value leaves the knob as it was).

use crate::ffi::{self, report};
use libc::{c_char, c_int, c_uint};
use starpu_core::knobs::{self, KnobScope, KnobType, Target};
use starpu_core::Error;

/// `starpu_perf_knob_scope_name_to_id`: -1 for an unknown name.
///
/// # Safety
/// `name` is NULL or a C string.
#[no_mangle]
pub unsafe extern "C" fn starpu_perf_knob_scope_name_to_id(name: *const c_char) -> c_int {
    ffi::str_ref(name)
        .and_then(KnobScope::from_name)
        .map_or(-1, |s| s as c_int)
}

/// `starpu_perf_knob_scope_id_to_name`: NULL for an unknown scope.
#[no_mangle]
pub extern "C" fn starpu_perf_knob_scope_id_to_name(scope: c_int) -> *const c_char {
    KnobScope::from_id(scope).map_or(std::ptr::null(), |s| ffi::interned_c_str(s.name()))
}

/// `starpu_perf_knob_type_name_to_id`: -1 for an unknown name.
///
/// # Safety
/// `name` is NULL or a C string.
#[no_mangle]
pub unsafe extern "C" fn starpu_perf_knob_type_name_to_id(name: *const c_char) -> c_int {
    ffi::str_ref(name)
        .and_then(KnobType::from_name)
        .map_or(-1, |t| t as c_int)
}

/// `starpu_perf_knob_type_id_to_name`: NULL for an unknown type.
#[no_mangle]
pub extern "C" fn starpu_perf_knob_type_id_to_name(ty: c_int) -> *const c_char {
    KnobType::from_id(ty).map_or(std::ptr::null(), |t| ffi::interned_c_str(t.name()))
}

/// `starpu_perf_knob_nb`: how many knobs `scope` has (0 for an unknown scope).
#[no_mangle]
pub extern "C" fn starpu_perf_knob_nb(scope: c_int) -> c_int {
    KnobScope::from_id(scope).map_or(0, |s| knobs::count(s) as c_int)
}

/// `starpu_perf_knob_name_to_id`: -1 for an unknown knob.
///
/// # Safety
/// `name` is NULL or a C string.
#[no_mangle]
pub unsafe extern "C" fn starpu_perf_knob_name_to_id(scope: c_int, name: *const c_char) -> c_int {
    match (KnobScope::from_id(scope), ffi::str_ref(name)) {
        (Some(s), Some(n)) => knobs::id_of(s, n).unwrap_or(-1),
        _ => -1,
    }
}

/// `starpu_perf_knob_nth_to_id`: -1 past the last knob of `scope`.
#[no_mangle]
pub extern "C" fn starpu_perf_knob_nth_to_id(scope: c_int, nth: c_int) -> c_int {
    match (KnobScope::from_id(scope), usize::try_from(nth)) {
        (Some(s), Ok(n)) => knobs::nth_id(s, n).unwrap_or(-1),
        _ => -1,
    }
}

/// `starpu_perf_knob_id_to_name`: NULL for an unknown id.
#[no_mangle]
pub extern "C" fn starpu_perf_knob_id_to_name(id: c_int) -> *const c_char {
    knobs::def(id).map_or(std::ptr::null(), |d| ffi::interned_c_str(d.name))
}

/// `starpu_perf_knob_get_type_id`: -1 for an unknown id.
#[no_mangle]
pub extern "C" fn starpu_perf_knob_get_type_id(id: c_int) -> c_int {
    knobs::def(id).map_or(-1, |d| d.ty as c_int)
}

/// `starpu_perf_knob_get_help_string`: NULL for an unknown id.
#[no_mangle]
pub extern "C" fn starpu_perf_knob_get_help_string(id: c_int) -> *const c_char {
    knobs::def(id).map_or(std::ptr::null(), |d| ffi::interned_c_str(d.help))
}

/// `starpu_perf_knob_list_avail`: the knobs of `scope` on stdout, as StarPU lists them.
#[no_mangle]
pub extern "C" fn starpu_perf_knob_list_avail(scope: c_int) {
    let Some(scope) = KnobScope::from_id(scope) else {
        return;
    };
    for (nth, k) in knobs::in_scope(scope).enumerate() {
        let id = knobs::nth_id(scope, nth).unwrap_or(-1);
        println!("0x{id:08x}:{} [{}] - {}", k.name, k.ty.name(), k.help);
    }
}

/// `starpu_perf_knob_list_all_avail`: the knobs of every scope on stdout (StarPU ignores
/// the argument too).
#[no_mangle]
pub extern "C" fn starpu_perf_knob_list_all_avail(_scope: c_int) {
    for s in KnobScope::ALL {
        println!("scope: {}", s.name());
        starpu_perf_knob_list_avail(s as c_int);
    }
}

fn get(call: &str, id: c_int, target: Target) -> i32 {
    match ffi::with_runtime(|rt| rt.knob_value(id, target)) {
        Ok(v) => v,
        Err(e) => {
            report(call, &e);
            0
        }
    }
}

fn set(call: &str, id: c_int, target: Target, value: i32) {
    if let Err(e) = ffi::with_runtime(|rt| rt.set_knob(id, target, value)) {
        report(call, &e);
    }
}

/// `starpu_perf_knob_get_global_int32_value` (0, reported, for a wrong id).
#[no_mangle]
pub extern "C" fn starpu_perf_knob_get_global_int32_value(id: c_int) -> i32 {
    get(
        "starpu_perf_knob_get_global_int32_value",
        id,
        Target::Global,
    )
}

/// `starpu_perf_knob_set_global_int32_value`.
#[no_mangle]
pub extern "C" fn starpu_perf_knob_set_global_int32_value(id: c_int, value: i32) {
    set(
        "starpu_perf_knob_set_global_int32_value",
        id,
        Target::Global,
        value,
    )
}

/// `starpu_perf_knob_get_per_worker_int32_value`.
#[no_mangle]
pub extern "C" fn starpu_perf_knob_get_per_worker_int32_value(id: c_int, worker: c_uint) -> i32 {
    get(
        "starpu_perf_knob_get_per_worker_int32_value",
        id,
        Target::Worker(worker as usize),
    )
}

/// `starpu_perf_knob_set_per_worker_int32_value`.
#[no_mangle]
pub extern "C" fn starpu_perf_knob_set_per_worker_int32_value(
    id: c_int,
    worker: c_uint,
    value: i32,
) {
    set(
        "starpu_perf_knob_set_per_worker_int32_value",
        id,
        Target::Worker(worker as usize),
        value,
    )
}

fn policy_arg<'a>(call: &str, name: *const c_char) -> Option<&'a str> {
    // SAFETY: the caller passes NULL or a C string.
    let n = unsafe { ffi::str_ref(name) };
    if n.is_none() {
        report(call, &Error::invalid("no scheduling policy name"));
    }
    n
}

/// `starpu_perf_knob_get_per_scheduler_int32_value`.
///
/// # Safety
/// `policy` is NULL or a C string.
#[no_mangle]
pub unsafe extern "C" fn starpu_perf_knob_get_per_scheduler_int32_value(
    id: c_int,
    policy: *const c_char,
) -> i32 {
    let call = "starpu_perf_knob_get_per_scheduler_int32_value";
    policy_arg(call, policy).map_or(0, |p| get(call, id, Target::Scheduler(p)))
}

/// `starpu_perf_knob_set_per_scheduler_int32_value`.
///
/// # Safety
/// `policy` is NULL or a C string.
#[no_mangle]
pub unsafe extern "C" fn starpu_perf_knob_set_per_scheduler_int32_value(
    id: c_int,
    policy: *const c_char,
    value: i32,
) {
    let call = "starpu_perf_knob_set_per_scheduler_int32_value";
    if let Some(p) = policy_arg(call, policy) {
        set(call, id, Target::Scheduler(p), value)
    }
}
