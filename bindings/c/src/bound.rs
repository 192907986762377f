//! `starpu_bound.h`: the theoretical lower bound on execution time. StarPU computes it by
//! solving a linear program over recorded tasks and calibrated performance models (with
//! GLPK). This build records nothing and has no LP solver: the calls answer as StarPU
//! built without GLPK does (a bound of 0) and say once that the bound is not available.

use crate::unavailable::say_once;
use libc::{c_int, FILE};

const NOT_AVAILABLE: &str =
    "the theoretical bound (starpu_bound_*) is not available in this build: no task is \
     recorded and no linear program is solved";

/// `starpu_bound_start`: not available (says so once).
#[no_mangle]
pub extern "C" fn starpu_bound_start(_deps: c_int, _prio: c_int) {
    say_once("bound", "starpu_bound_start", NOT_AVAILABLE);
}

/// `starpu_bound_stop`: not available (says so once).
#[no_mangle]
pub extern "C" fn starpu_bound_stop() {
    say_once("bound", "starpu_bound_stop", NOT_AVAILABLE);
}

/// `starpu_bound_compute`: 0 in `*res` (and `*integer_res`), StarPU's answer without an
/// LP solver.
///
/// # Safety
/// `res` and `integer_res` are NULL or point to doubles.
#[no_mangle]
pub unsafe extern "C" fn starpu_bound_compute(
    res: *mut f64,
    integer_res: *mut f64,
    integer: c_int,
) {
    say_once("bound", "starpu_bound_compute", NOT_AVAILABLE);
    if let Some(r) = res.as_mut() {
        *r = 0.0;
    }
    if integer != 0 {
        if let Some(r) = integer_res.as_mut() {
            *r = 0.0;
        }
    }
}

/// Writes `text` on `output` (a C stream), if there is one.
unsafe fn write(output: *mut FILE, text: &std::ffi::CStr) {
    if !output.is_null() {
        libc::fputs(text.as_ptr(), output);
    }
}

/// `starpu_bound_print`: writes that the bound is not available on `output`.
///
/// # Safety
/// `output` is NULL or an open stream.
#[no_mangle]
pub unsafe extern "C" fn starpu_bound_print(output: *mut FILE, _integer: c_int) {
    say_once("bound", "starpu_bound_print", NOT_AVAILABLE);
    write(
        output,
        c"The theoretical bound is not available in this build.\n",
    );
}

/// `starpu_bound_print_lp`: an LP-format comment saying the bound is not available.
///
/// # Safety
/// `output` is NULL or an open stream.
#[no_mangle]
pub unsafe extern "C" fn starpu_bound_print_lp(output: *mut FILE) {
    say_once("bound", "starpu_bound_print_lp", NOT_AVAILABLE);
    write(
        output,
        c"\\ no task was recorded: the bound is not available in this build\n",
    );
}

/// `starpu_bound_print_mps`: an MPS-format comment saying the bound is not available.
///
/// # Safety
/// `output` is NULL or an open stream.
#[no_mangle]
pub unsafe extern "C" fn starpu_bound_print_mps(output: *mut FILE) {
    say_once("bound", "starpu_bound_print_mps", NOT_AVAILABLE);
    write(
        output,
        c"* no task was recorded: the bound is not available in this build\n",
    );
}

/// `starpu_bound_print_dot`: an empty graph with a comment saying why.
///
/// # Safety
/// `output` is NULL or an open stream.
#[no_mangle]
pub unsafe extern "C" fn starpu_bound_print_dot(output: *mut FILE) {
    say_once("bound", "starpu_bound_print_dot", NOT_AVAILABLE);
    write(
        output,
        c"/* no task was recorded: the bound is not available in this build */\ndigraph G {\n}\n",
    );
}
