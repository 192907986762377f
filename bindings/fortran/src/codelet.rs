//! Building the C structs Fortran cannot lay out itself: `struct starpu_conf`,
//! `struct starpu_codelet`, `struct starpu_perfmodel`.
//!
//! Each is allocated here and filled through setters. Strings are copied (a Fortran
//! `C_CHAR_"name"//C_NULL_CHAR` may be a temporary) and freed with their struct.

use super::capi;
use super::{non_null, report};
use crate::consts::STARPU_VARIABLE_NBUFFERS;
use crate::types::{
    starpu_codelet, starpu_conf, starpu_cpu_func_t, starpu_perfmodel, STARPU_MAXIMPLEMENTATIONS,
    STARPU_NMAXBUFS, STARPU_NMAXWORKERS,
};
use libc::{c_char, c_int, c_uint, c_void};

/// A zeroed `T` from `calloc` (freed with `free`), NULL when memory is exhausted.
unsafe fn calloc<T>(routine: &str) -> *mut T {
    let p = libc::calloc(1, std::mem::size_of::<T>()) as *mut T;
    if p.is_null() {
        report(routine, "out of memory");
    }
    p
}

/// Replaces the string `slot` owns by a copy of `s`.
unsafe fn set_string(slot: &mut *const c_char, s: *const c_char) {
    libc::free(*slot as *mut c_void);
    *slot = if s.is_null() {
        std::ptr::null()
    } else {
        libc::strdup(s)
    };
}

// ---------------------------------------------------------------------------------------
// struct starpu_conf

/// `fstarpu_conf_allocate`: a conf with StarPU's defaults (`starpu_conf_init`).
#[no_mangle]
pub unsafe extern "C" fn fstarpu_conf_allocate() -> *mut starpu_conf {
    let conf = calloc::<starpu_conf>("fstarpu_conf_allocate");
    if !conf.is_null() {
        capi::starpu_conf_init(conf);
        // The policy name is ours to free; starpu_conf_init may have pointed it at a
        // string of its own.
        (*conf).sched_policy_name = std::ptr::null();
    }
    conf
}

/// `fstarpu_conf_free`.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_conf_free(conf: *mut starpu_conf) {
    if let Some(c) = conf.as_mut() {
        set_string(&mut c.sched_policy_name, std::ptr::null());
        libc::free(conf as *mut c_void);
    }
}

/// `fstarpu_conf_set_sched_policy_name`.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_conf_set_sched_policy_name(
    conf: *mut starpu_conf,
    name: *const c_char,
) {
    if let Some(c) = non_null("fstarpu_conf_set_sched_policy_name", conf, "conf") {
        set_string(&mut c.sched_policy_name, name);
    }
}

/// A worker count for `conf`, checked against StarPU's bounds (-1 means "default").
unsafe fn set_count(
    routine: &str,
    conf: *mut starpu_conf,
    n: c_int,
    field: fn(&mut starpu_conf) -> &mut c_int,
) {
    if let Some(c) = non_null(routine, conf, "conf") {
        if n < -1 || n > STARPU_NMAXWORKERS as c_int {
            report(
                routine,
                format_args!("{n} workers: expected -1 (default) to {STARPU_NMAXWORKERS}"),
            );
        } else {
            *field(c) = n;
        }
    }
}

/// `fstarpu_conf_set_ncpu`.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_conf_set_ncpu(conf: *mut starpu_conf, n: c_int) {
    set_count("fstarpu_conf_set_ncpu", conf, n, |c| &mut c.ncpus);
}

/// `fstarpu_conf_set_ncuda`.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_conf_set_ncuda(conf: *mut starpu_conf, n: c_int) {
    set_count("fstarpu_conf_set_ncuda", conf, n, |c| &mut c.ncuda);
}

/// `fstarpu_conf_set_nopencl`.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_conf_set_nopencl(conf: *mut starpu_conf, n: c_int) {
    set_count("fstarpu_conf_set_nopencl", conf, n, |c| &mut c.nopencl);
}

/// `fstarpu_conf_set_min_prio`.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_conf_set_min_prio(conf: *mut starpu_conf, prio: c_int) {
    if let Some(c) = non_null("fstarpu_conf_set_min_prio", conf, "conf") {
        c.global_sched_ctx_min_priority = prio;
    }
}

/// `fstarpu_conf_set_max_prio`.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_conf_set_max_prio(conf: *mut starpu_conf, prio: c_int) {
    if let Some(c) = non_null("fstarpu_conf_set_max_prio", conf, "conf") {
        c.global_sched_ctx_max_priority = prio;
    }
}

/// `fstarpu_conf_set_calibrate`.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_conf_set_calibrate(conf: *mut starpu_conf, calibrate: c_int) {
    if let Some(c) = non_null("fstarpu_conf_set_calibrate", conf, "conf") {
        c.calibrate = calibrate;
    }
}

/// `fstarpu_conf_set_bus_calibrate`.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_conf_set_bus_calibrate(conf: *mut starpu_conf, calibrate: c_int) {
    if let Some(c) = non_null("fstarpu_conf_set_bus_calibrate", conf, "conf") {
        c.bus_calibrate = calibrate;
    }
}

// ---------------------------------------------------------------------------------------
// struct starpu_codelet

/// `fstarpu_codelet_allocate`: an empty codelet (`starpu_codelet_init`).
#[no_mangle]
pub unsafe extern "C" fn fstarpu_codelet_allocate() -> *mut starpu_codelet {
    let cl = calloc::<starpu_codelet>("fstarpu_codelet_allocate");
    if !cl.is_null() {
        capi::starpu_codelet_init(cl);
    }
    cl
}

/// `fstarpu_codelet_free`: the codelet and what its setters allocated.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_codelet_free(cl: *mut starpu_codelet) {
    if let Some(c) = cl.as_mut() {
        set_string(&mut c.name, std::ptr::null());
        libc::free(c.dyn_modes as *mut c_void);
        libc::free(cl as *mut c_void);
    }
}

/// `fstarpu_codelet_set_name`.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_codelet_set_name(cl: *mut starpu_codelet, name: *const c_char) {
    if let Some(c) = non_null("fstarpu_codelet_set_name", cl, "codelet") {
        set_string(&mut c.name, name);
    }
}

/// `fstarpu_codelet_set_color`.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_codelet_set_color(cl: *mut starpu_codelet, color: c_int) {
    if let Some(c) = non_null("fstarpu_codelet_set_color", cl, "codelet") {
        if color < 0 {
            report(
                "fstarpu_codelet_set_color",
                format_args!("color {color} is negative"),
            );
        } else {
            c.color = color as c_uint;
        }
    }
}

/// `fstarpu_codelet_set_model`.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_codelet_set_model(
    cl: *mut starpu_codelet,
    model: *mut starpu_perfmodel,
) {
    if let Some(c) = non_null("fstarpu_codelet_set_model", cl, "codelet") {
        c.model = model;
    }
}

/// `fstarpu_codelet_set_energy_model`.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_codelet_set_energy_model(
    cl: *mut starpu_codelet,
    model: *mut starpu_perfmodel,
) {
    if let Some(c) = non_null("fstarpu_codelet_set_energy_model", cl, "codelet") {
        c.energy_model = model;
    }
}

/// Puts `f` in the first free slot of `slots` (one implementation more).
fn add_func(routine: &str, slots: &mut [starpu_cpu_func_t], f: *mut c_void) {
    if f.is_null() {
        report(
            routine,
            "the function is NULL (C_FUNLOC of a bind(C) subroutine expected)",
        );
        return;
    }
    match slots.iter_mut().find(|s| s.is_none()) {
        // SAFETY: f is C_FUNLOC of a `subroutine(buffers, cl_args) bind(C)`, StarPU's
        // kernel signature.
        Some(slot) => *slot = unsafe { std::mem::transmute::<*mut c_void, starpu_cpu_func_t>(f) },
        None => report(
            routine,
            format_args!("at most {STARPU_MAXIMPLEMENTATIONS} implementations"),
        ),
    }
}

/// `fstarpu_codelet_add_cpu_func`.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_codelet_add_cpu_func(cl: *mut starpu_codelet, f: *mut c_void) {
    if let Some(c) = non_null("fstarpu_codelet_add_cpu_func", cl, "codelet") {
        add_func("fstarpu_codelet_add_cpu_func", &mut c.cpu_funcs, f);
    }
}

/// `fstarpu_codelet_add_cuda_func`.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_codelet_add_cuda_func(cl: *mut starpu_codelet, f: *mut c_void) {
    if let Some(c) = non_null("fstarpu_codelet_add_cuda_func", cl, "codelet") {
        add_func("fstarpu_codelet_add_cuda_func", &mut c.cuda_funcs, f);
    }
}

/// `fstarpu_codelet_add_opencl_func`.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_codelet_add_opencl_func(cl: *mut starpu_codelet, f: *mut c_void) {
    if let Some(c) = non_null("fstarpu_codelet_add_opencl_func", cl, "codelet") {
        add_func("fstarpu_codelet_add_opencl_func", &mut c.opencl_funcs, f);
    }
}

/// Puts `flags` in the first unset slot of `slots`.
fn add_flags(routine: &str, slots: &mut [c_char], flags: isize) {
    match slots.iter_mut().find(|s| **s == 0) {
        Some(slot) => *slot = flags as c_char,
        None => report(
            routine,
            format_args!("at most {STARPU_MAXIMPLEMENTATIONS} implementations"),
        ),
    }
}

/// `fstarpu_codelet_add_cuda_flags`.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_codelet_add_cuda_flags(cl: *mut starpu_codelet, flags: isize) {
    if let Some(c) = non_null("fstarpu_codelet_add_cuda_flags", cl, "codelet") {
        add_flags("fstarpu_codelet_add_cuda_flags", &mut c.cuda_flags, flags);
    }
}

/// `fstarpu_codelet_add_opencl_flags`.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_codelet_add_opencl_flags(cl: *mut starpu_codelet, flags: isize) {
    if let Some(c) = non_null("fstarpu_codelet_add_opencl_flags", cl, "codelet") {
        add_flags(
            "fstarpu_codelet_add_opencl_flags",
            &mut c.opencl_flags,
            flags,
        );
    }
}

/// `fstarpu_codelet_add_buffer`: one buffer more, accessed in `mode`. Past
/// STARPU_NMAXBUFS the modes move to `dyn_modes` (StarPU's layout for many buffers).
#[no_mangle]
pub unsafe extern "C" fn fstarpu_codelet_add_buffer(cl: *mut starpu_codelet, mode: isize) {
    const ROUTINE: &str = "fstarpu_codelet_add_buffer";
    let Some(c) = non_null(ROUTINE, cl, "codelet") else {
        return;
    };
    if mode <= 0 || mode >= crate::consts::STARPU_VALUE as isize {
        report(
            ROUTINE,
            format_args!("{mode:#x} is not an access mode (FSTARPU_R, FSTARPU_W, FSTARPU_RW, ...)"),
        );
        return;
    }
    if c.nbuffers < 0 {
        report(
            ROUTINE,
            "the codelet has a variable number of buffers: tasks give their modes",
        );
        return;
    }
    let n = c.nbuffers as usize;
    if n < STARPU_NMAXBUFS && c.dyn_modes.is_null() {
        c.modes[n] = mode as u32;
    } else {
        let modes = libc::realloc(
            c.dyn_modes as *mut c_void,
            (n + 1) * std::mem::size_of::<u32>(),
        ) as *mut u32;
        if modes.is_null() {
            report(ROUTINE, "out of memory");
            return;
        }
        if c.dyn_modes.is_null() {
            std::ptr::copy_nonoverlapping(c.modes.as_ptr(), modes, n);
        }
        *modes.add(n) = mode as u32;
        c.dyn_modes = modes;
    }
    c.nbuffers += 1;
}

/// `fstarpu_codelet_set_variable_nbuffers`: each task gives its number of buffers.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_codelet_set_variable_nbuffers(cl: *mut starpu_codelet) {
    if let Some(c) = non_null("fstarpu_codelet_set_variable_nbuffers", cl, "codelet") {
        c.nbuffers = STARPU_VARIABLE_NBUFFERS;
    }
}

/// `fstarpu_codelet_set_nbuffers` (the modes then come from each task).
#[no_mangle]
pub unsafe extern "C" fn fstarpu_codelet_set_nbuffers(cl: *mut starpu_codelet, n: c_int) {
    if let Some(c) = non_null("fstarpu_codelet_set_nbuffers", cl, "codelet") {
        if n < 0 {
            report("fstarpu_codelet_set_nbuffers", format_args!("{n} buffers"));
        } else {
            c.nbuffers = n;
        }
    }
}

/// `fstarpu_codelet_set_flags`.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_codelet_set_flags(cl: *mut starpu_codelet, flags: isize) {
    if let Some(c) = non_null("fstarpu_codelet_set_flags", cl, "codelet") {
        c.flags = flags as c_int;
    }
}

/// `fstarpu_codelet_set_where` (FSTARPU_CPU, FSTARPU_CPU.ior.FSTARPU_CUDA, ...).
#[no_mangle]
pub unsafe extern "C" fn fstarpu_codelet_set_where(cl: *mut starpu_codelet, r#where: isize) {
    if let Some(c) = non_null("fstarpu_codelet_set_where", cl, "codelet") {
        match u32::try_from(r#where) {
            Ok(w) => c.r#where = w,
            Err(_) => report(
                "fstarpu_codelet_set_where",
                format_args!("{where:#x} is not a where mask"),
            ),
        }
    }
}

/// `fstarpu_codelet_set_type` (FSTARPU_SEQ, FSTARPU_SPMD, FSTARPU_FORKJOIN).
#[no_mangle]
pub unsafe extern "C" fn fstarpu_codelet_set_type(cl: *mut starpu_codelet, kind: isize) {
    if let Some(c) = non_null("fstarpu_codelet_set_type", cl, "codelet") {
        match kind {
            0..=2 => c.r#type = kind as u32,
            _ => report(
                "fstarpu_codelet_set_type",
                format_args!("{kind} is not FSTARPU_SEQ, FSTARPU_SPMD or FSTARPU_FORKJOIN"),
            ),
        }
    }
}

/// `fstarpu_codelet_set_max_parallelism`.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_codelet_set_max_parallelism(cl: *mut starpu_codelet, n: c_int) {
    if let Some(c) = non_null("fstarpu_codelet_set_max_parallelism", cl, "codelet") {
        if n < 1 {
            report(
                "fstarpu_codelet_set_max_parallelism",
                format_args!("{n}: expected at least 1"),
            );
        } else {
            c.max_parallelism = n;
        }
    }
}

// ---------------------------------------------------------------------------------------
// struct starpu_perfmodel

/// `fstarpu_perfmodel_allocate`.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_perfmodel_allocate() -> *mut starpu_perfmodel {
    calloc::<starpu_perfmodel>("fstarpu_perfmodel_allocate")
}

/// `fstarpu_perfmodel_free` (after `fstarpu_shutdown`, which may still write the model).
#[no_mangle]
pub unsafe extern "C" fn fstarpu_perfmodel_free(model: *mut starpu_perfmodel) {
    if let Some(m) = model.as_mut() {
        set_string(&mut m.symbol, std::ptr::null());
        libc::free(model as *mut c_void);
    }
}

/// `fstarpu_perfmodel_set_symbol`.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_perfmodel_set_symbol(
    model: *mut starpu_perfmodel,
    symbol: *const c_char,
) {
    if let Some(m) = non_null("fstarpu_perfmodel_set_symbol", model, "perfmodel") {
        set_string(&mut m.symbol, symbol);
    }
}

/// `fstarpu_perfmodel_set_type` (FSTARPU_HISTORY_BASED, ...).
#[no_mangle]
pub unsafe extern "C" fn fstarpu_perfmodel_set_type(model: *mut starpu_perfmodel, kind: isize) {
    if let Some(m) = non_null("fstarpu_perfmodel_set_type", model, "perfmodel") {
        match kind {
            1..=7 => m.r#type = kind as u32,
            _ => report(
                "fstarpu_perfmodel_set_type",
                format_args!("{kind} is not a performance model type"),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffers_past_nmaxbufs_move_to_dyn_modes() {
        unsafe {
            let cl = fstarpu_codelet_allocate();
            for i in 0..STARPU_NMAXBUFS + 2 {
                fstarpu_codelet_add_buffer(cl, if i % 2 == 0 { 1 } else { 3 });
            }
            let c = &*cl;
            assert_eq!(c.nbuffers as usize, STARPU_NMAXBUFS + 2);
            assert!(!c.dyn_modes.is_null());
            let modes: Vec<u32> = (0..STARPU_NMAXBUFS + 2)
                .map(|i| *c.dyn_modes.add(i))
                .collect();
            assert_eq!(
                modes,
                (0..STARPU_NMAXBUFS + 2)
                    .map(|i| if i % 2 == 0 { 1 } else { 3 })
                    .collect::<Vec<_>>()
            );
            fstarpu_codelet_free(cl);
        }
    }

    #[test]
    fn names_are_copied_and_bad_values_refused() {
        unsafe {
            let cl = fstarpu_codelet_allocate();
            let name = b"scal\0".to_vec();
            fstarpu_codelet_set_name(cl, name.as_ptr() as *const c_char);
            drop(name);
            assert_eq!(std::ffi::CStr::from_ptr((*cl).name).to_str(), Ok("scal"));
            fstarpu_codelet_add_buffer(cl, 1 << 20);
            fstarpu_codelet_set_type(cl, 7);
            assert_eq!((*cl).nbuffers, 0);
            assert_eq!((*cl).r#type, 0);
            fstarpu_codelet_free(cl);
        }
    }
}
