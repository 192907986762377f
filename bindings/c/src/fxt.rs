//! `starpu_fxt.h`: FxT execution traces. This build does not record FxT traces; the calls
//! do nothing, as in a StarPU built without FxT, and say so once.

use crate::unavailable::say_once;
use libc::{c_char, c_int, c_ulong};

const NOT_AVAILABLE: &str = "FxT traces are not available in this build: nothing is recorded";

/// `starpu_fxt_start_profiling`: not available (says so once).
#[no_mangle]
pub extern "C" fn starpu_fxt_start_profiling() {
    say_once("fxt", "starpu_fxt_start_profiling", NOT_AVAILABLE);
}

/// `starpu_fxt_stop_profiling`: not available (says so once).
#[no_mangle]
pub extern "C" fn starpu_fxt_stop_profiling() {
    say_once("fxt", "starpu_fxt_stop_profiling", NOT_AVAILABLE);
}

/// `starpu_fxt_autostart_profiling`: not available (says so once).
#[no_mangle]
pub extern "C" fn starpu_fxt_autostart_profiling(_autostart: c_int) {
    say_once("fxt", "starpu_fxt_autostart_profiling", NOT_AVAILABLE);
}

/// `starpu_fxt_write_data_trace`: not available (says so once).
#[no_mangle]
pub extern "C" fn starpu_fxt_write_data_trace(_filename_in: *mut c_char) {
    say_once("fxt", "starpu_fxt_write_data_trace", NOT_AVAILABLE);
}

/// `starpu_fxt_trace_user_event`: user events go to FxT traces; not available.
#[no_mangle]
pub extern "C" fn starpu_fxt_trace_user_event(_code: c_ulong) {
    say_once("fxt", "starpu_fxt_trace_user_event", NOT_AVAILABLE);
}

/// `starpu_fxt_trace_user_event_string`: not available (says so once).
#[no_mangle]
pub extern "C" fn starpu_fxt_trace_user_event_string(_s: *const c_char) {
    say_once("fxt", "starpu_fxt_trace_user_event_string", NOT_AVAILABLE);
}

/// `starpu_trace_user_event` (the name of recent StarPU): not available (says so once).
#[no_mangle]
pub extern "C" fn starpu_trace_user_event(_code: c_ulong) {
    say_once("fxt", "starpu_trace_user_event", NOT_AVAILABLE);
}

/// `struct starpu_fxt_options`: the options of trace generation. Opaque here: this build
/// has no FxT, so nothing reads them (a program that declares the struct itself, rather
/// than a pointer to it, does not compile against this header).
pub struct starpu_fxt_options {
    _opaque: [u8; 0],
}

/// `starpu_fxt_options_init`: not available (says so once); `options` is left as is.
#[no_mangle]
pub extern "C" fn starpu_fxt_options_init(options: *mut starpu_fxt_options) {
    let _ = options;
    say_once("fxt", "starpu_fxt_options_init", NOT_AVAILABLE);
}

/// `starpu_fxt_generate_trace`: there is no FxT trace to convert; says so once, as a
/// StarPU built without FxT does.
#[no_mangle]
pub extern "C" fn starpu_fxt_generate_trace(options: *mut starpu_fxt_options) {
    let _ = options;
    say_once("fxt", "starpu_fxt_generate_trace", NOT_AVAILABLE);
}
