//! `starpu_bound.h`: the theoretical lower bound on execution time. The core records the
//! tasks run between `starpu_bound_start` and `starpu_bound_stop` and builds the linear
//! program (`starpu_core::bound`); this file writes it out and reads its optimum.
//!
//! What differs from StarPU: task lengths are the measured mean durations (StarPU reads its
//! performance models); the integer program is not solved (no MIP solver: `integer_res`
//! is 0, as StarPU without GLPK answers); dependencies are not recorded (with `deps`, the
//! bound is 0, as in StarPU, and `starpu_bound_print_dot` has no graph to draw).

use crate::ffi;
use crate::unavailable::say_once;
use libc::{c_int, FILE};
use std::ffi::CString;

/// `starpu_bound_start`: records the tasks that run from now on (forgetting earlier ones);
/// `deps`: dependencies too (not recorded by this build, which says so once).
#[no_mangle]
pub extern "C" fn starpu_bound_start(deps: c_int, _prio: c_int) {
    if deps != 0 {
        say_once(
            "bound deps",
            "starpu_bound_start",
            "task dependencies are not recorded by this build: the bound with dependencies is 0",
        );
    }
    if let Ok(rt) = ffi::runtime() {
        rt.bound_start(deps != 0);
    }
}

/// `starpu_bound_stop`: stops recording.
#[no_mangle]
pub extern "C" fn starpu_bound_stop() {
    if let Ok(rt) = ffi::runtime() {
        rt.bound_stop();
    }
}

/// `starpu_bound_compute`: the bound in ms in `*res` (0 without a runtime, without tasks,
/// or with dependencies); `*integer_res` (asked with `integer`) is 0: the integer program
/// is not solved.
///
/// # Safety
/// `res` and `integer_res` are NULL or point to doubles.
#[no_mangle]
pub unsafe extern "C" fn starpu_bound_compute(
    res: *mut f64,
    integer_res: *mut f64,
    integer: c_int,
) {
    let bound = ffi::runtime().map_or(0.0, |rt| rt.bound_problem().relaxed_optimum_ms());
    if let Some(r) = res.as_mut() {
        *r = bound;
    }
    if integer != 0 {
        say_once(
            "bound integer",
            "starpu_bound_compute",
            "the integer bound is not available in this build (no MIP solver): integer_res is 0",
        );
        if let Some(r) = integer_res.as_mut() {
            *r = 0.0;
        }
    }
}

/// Writes `text` on `output` (a C stream), if there is one.
pub(crate) unsafe fn write(output: *mut FILE, text: &str) {
    if output.is_null() {
        return;
    }
    if let Ok(c) = CString::new(text) {
        libc::fputs(c.as_ptr(), output);
    }
}

/// The recorded program, or `None` without a runtime.
fn problem() -> Option<starpu_core::bound::BoundProblem> {
    ffi::runtime().ok().map(|rt| rt.bound_problem())
}

/// `starpu_bound_print`: the bound and the spread of each kind of task over the workers
/// that reaches it, as StarPU prints them.
///
/// # Safety
/// `output` is NULL or an open stream.
#[no_mangle]
pub unsafe extern "C" fn starpu_bound_print(output: *mut FILE, integer: c_int) {
    let Some(p) = problem() else { return };
    if integer != 0 {
        say_once(
            "bound integer",
            "starpu_bound_print",
            "the integer bound is not available in this build (no MIP solver): the relaxed one \
             is printed",
        );
    }
    let mut text = format!(
        "Theoretical minimum execution time: {:.6} ms\n",
        p.relaxed_optimum_ms()
    );
    for (t, (kind, n, _)) in p.kinds.iter().enumerate() {
        text.push_str(&format!("{kind}\n"));
        for w in 0..p.nworkers {
            text.push_str(&format!("\tw{w}t{t}n {:.6}", *n as f64 / p.nworkers as f64));
        }
        text.push('\n');
    }
    write(output, &text);
}

/// `starpu_bound_print_lp`: the linear program in LP format.
///
/// # Safety
/// `output` is NULL or an open stream.
#[no_mangle]
pub unsafe extern "C" fn starpu_bound_print_lp(output: *mut FILE) {
    if let Some(p) = problem() {
        write(output, &p.to_lp());
    }
}

/// `starpu_bound_print_mps`: the linear program in MPS format.
///
/// # Safety
/// `output` is NULL or an open stream.
#[no_mangle]
pub unsafe extern "C" fn starpu_bound_print_mps(output: *mut FILE) {
    if let Some(p) = problem() {
        write(output, &p.to_mps());
    }
}

/// `starpu_bound_print_dot`: the recorded task graph. Dependencies are not recorded, so
/// there is none: StarPU's answer without them ("Not supported").
///
/// # Safety
/// `output` is NULL or an open stream.
#[no_mangle]
pub unsafe extern "C" fn starpu_bound_print_dot(output: *mut FILE) {
    say_once(
        "bound dot",
        "starpu_bound_print_dot",
        "task dependencies are not recorded by this build: there is no graph to print",
    );
    write(output, "Not supported\n");
}
