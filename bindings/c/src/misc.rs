//! Helpers of `starpu_helper.h`, `starpu_util.h` and `starpu_profiling.h`: timespec
//! conversions, sleep, environment, iteration markers (profiling itself: profiling.rs).

use libc::{c_char, c_int};

/// `starpu_timing_timespec_delay_us`.
///
/// # Safety
/// Both pointers are valid timespecs.
#[no_mangle]
pub unsafe extern "C" fn starpu_timing_timespec_delay_us(
    start: *const libc::timespec,
    end: *const libc::timespec,
) -> f64 {
    starpu_timing_timespec_to_us(end) - starpu_timing_timespec_to_us(start)
}

/// `starpu_timing_timespec_to_us`.
///
/// # Safety
/// `ts` is a valid timespec.
#[no_mangle]
pub unsafe extern "C" fn starpu_timing_timespec_to_us(ts: *const libc::timespec) -> f64 {
    (*ts).tv_sec as f64 * 1e6 + (*ts).tv_nsec as f64 / 1e3
}

/// `starpu_sleep`: seconds.
#[no_mangle]
pub extern "C" fn starpu_sleep(nb_sec: f32) {
    std::thread::sleep(std::time::Duration::from_secs_f32(nb_sec.max(0.0)));
}

/// `starpu_usleep`: microseconds.
#[no_mangle]
pub extern "C" fn starpu_usleep(nb_micro_sec: f32) {
    std::thread::sleep(std::time::Duration::from_secs_f32(
        nb_micro_sec.max(0.0) / 1e6,
    ));
}

/// `starpu_getenv`: the environment variable, NULL when unset.
///
/// # Safety
/// `name` is a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn starpu_getenv(name: *const c_char) -> *mut c_char {
    if name.is_null() {
        return std::ptr::null_mut();
    }
    libc::getenv(name)
}

/// `starpu_iteration_push`: the tasks this thread submits next belong to `iteration`
/// (recorded in traces: `Iteration:` in `tasks.rec`).
#[no_mangle]
pub extern "C" fn starpu_iteration_push(iteration: libc::c_ulong) {
    let _ = starpu_core::runtime::with_global(|rt| rt.tracer().iteration_push(iteration));
}

/// `starpu_iteration_pop`.
#[no_mangle]
pub extern "C" fn starpu_iteration_pop() {
    let _ = starpu_core::runtime::with_global(|rt| rt.tracer().iteration_pop());
}

/// `starpu_get_version`: the StarPU API version this library implements (the
/// `STARPU_*_VERSION` macros of starpu_config.h).
///
/// # Safety
/// Each pointer is NULL or points to an int.
#[no_mangle]
pub unsafe extern "C" fn starpu_get_version(
    major: *mut c_int,
    minor: *mut c_int,
    release: *mut c_int,
) {
    for (p, v) in [(major, 1), (minor, 4), (release, 0)] {
        if let Some(p) = p.as_mut() {
            *p = v;
        }
    }
}

/// `starpu_do_schedule`: tells the scheduling policies that the tasks submitted so far are
/// all there is for now, so one that holds tasks back (`graph_test`, or an application's
/// policy with a `do_schedule` function) lets them go.
#[no_mangle]
pub extern "C" fn starpu_do_schedule() {
    if let Ok(rt) = crate::ffi::runtime() {
        rt.do_schedule();
    }
}

/// `starpu_reset_scheduler`: asks each context's policy to forget what it learned from
/// the tasks scheduled so far (StarPU calls the policy's optional reset method; its
/// graph-based policy drops its task graph). The policies here keep no such state beyond
/// their queues and performance models, which StarPU does not reset either: nothing to do.
#[no_mangle]
pub extern "C" fn starpu_reset_scheduler() {}
