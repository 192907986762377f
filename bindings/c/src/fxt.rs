//! `starpu_fxt.h`: execution traces. The core records them (`starpu_core::trace`), with
//! no FxT library: `STARPU_FXT_TRACE=1` turns recording on, the raw file is written at
//! shutdown, and `starpu_fxt_generate_trace` (what `starpu_fxt_tool` runs) turns it into
//! `paje.trace`, `dag.dot`, `tasks.rec` and the other views.

use crate::abi::starpu_fxt_options;
use crate::abi::STARPU_NMAXWORKERS;
use crate::ffi::{self, guard, value_call};
use libc::{c_char, c_int, c_ulong};
use starpu_core::trace::export;
use std::path::PathBuf;

/// The option fields holding file paths, with the view each names.
fn path_fields(o: &mut starpu_fxt_options) -> [(&'static str, &mut *mut c_char); 12] {
    [
        ("paje.trace", &mut o.out_paje_path),
        ("distrib.data", &mut o.distrib_time_path),
        ("activity.data", &mut o.activity_path),
        ("sched_tasks.rec", &mut o.sched_tasks_path),
        ("dag.dot", &mut o.dag_path),
        ("tasks.rec", &mut o.tasks_path),
        ("data.rec", &mut o.data_path),
        ("number_events.data", &mut o.number_events_path),
        ("trace.html", &mut o.anim_path),
        ("trace.rec", &mut o.states_path),
        // Files this build does not write (no PAPI counters, no MPI communications).
        ("papi.rec", &mut o.papi_path),
        ("comms.rec", &mut o.comms_path),
    ]
}

/// `starpu_fxt_options_init`: every flag off, the default file names.
///
/// # Safety
/// `options` is NULL or points to a writable `struct starpu_fxt_options`.
#[no_mangle]
pub unsafe extern "C" fn starpu_fxt_options_init(options: *mut starpu_fxt_options) {
    guard("starpu_fxt_options_init", (), || {
        if options.is_null() {
            return ffi::report(
                "starpu_fxt_options_init",
                &starpu_core::Error::invalid("options is NULL"),
            );
        }
        std::ptr::write_bytes(options, 0, 1);
        for (name, field) in path_fields(&mut *options) {
            if name != "number_events.data" {
                *field = ffi::malloc_copy(format!("{name}\0").as_bytes()) as *mut c_char;
            }
        }
    })
}

/// `starpu_fxt_options_shutdown`: frees the paths `starpu_fxt_options_init` made.
///
/// # Safety
/// `options` is NULL or was set up by `starpu_fxt_options_init`; the paths in it are
/// NULL or `malloc`ed.
#[no_mangle]
pub unsafe extern "C" fn starpu_fxt_options_shutdown(options: *mut starpu_fxt_options) {
    guard("starpu_fxt_options_shutdown", (), || {
        let Some(o) = options.as_mut() else { return };
        for (_, field) in path_fields(o) {
            libc::free(*field as *mut libc::c_void);
            *field = std::ptr::null_mut();
        }
    })
}

/// The core's export options from `o`.
unsafe fn export_options(o: &mut starpu_fxt_options) -> export::Options {
    let mut e = export::Options {
        per_task_colour: o.per_task_colour != 0,
        no_events: o.no_events != 0,
        no_counter: o.no_counter != 0,
        no_bus: o.no_bus != 0,
        no_flops: o.no_flops != 0,
        no_smooth: o.no_smooth != 0,
        no_acquire: o.no_acquire != 0,
        memory_states: o.memory_states != 0,
        internal: o.internal != 0,
        label_deps: o.label_deps != 0,
        use_task_color: o.use_task_color != 0,
        dir: ffi::str_ref(o.dir).map(PathBuf::from),
        ..Default::default()
    };
    for (name, field) in path_fields(o) {
        if export::FILES.contains(&name) {
            e.outputs
                .insert(name.to_string(), ffi::str_ref(*field).map(PathBuf::from));
        }
    }
    e
}

/// `starpu_fxt_generate_trace`: writes the views of the trace file `filenames[0]`.
/// Traces of several processes (StarPU-MPI) are not merged: a second file is reported.
///
/// # Safety
/// `options` is NULL or set up by `starpu_fxt_options_init` and filled as StarPU's.
#[no_mangle]
pub unsafe extern "C" fn starpu_fxt_generate_trace(options: *mut starpu_fxt_options) {
    value_call("starpu_fxt_generate_trace", (), || {
        let o = options
            .as_mut()
            .ok_or_else(|| starpu_core::Error::invalid("options is NULL"))?;
        if o.ninputfiles == 0 {
            return Err(starpu_core::Error::invalid(
                "no input file (ninputfiles is 0)",
            ));
        }
        if o.ninputfiles > 1 {
            return Err(starpu_core::Error::invalid(
                "merging the traces of several processes is not supported: give one file",
            ));
        }
        let input = ffi::str_ref(o.filenames[0])
            .ok_or_else(|| starpu_core::Error::invalid("filenames[0] is NULL or not UTF-8"))?;
        let t = starpu_core::trace::file::read(std::path::Path::new(input))?;
        export::generate(&t, &export_options(o)).map_err(|e| {
            starpu_core::Error::invalid(format!("cannot write the trace views: {e}"))
        })?;
        o.nworkers = t.workers.len().min(STARPU_NMAXWORKERS) as c_int;
        for (w, slot) in t.workers.iter().zip(o.worker_names.iter_mut()) {
            let name = w.name.as_bytes();
            let n = name.len().min(255);
            for (d, s) in slot.iter_mut().zip(&name[..n]) {
                *d = *s as c_char;
            }
            slot[n] = 0;
        }
        Ok(())
    })
}

/// Runs `f` with the running runtime's recorder; before `starpu_init`, does nothing.
fn with_recorder(f: impl FnOnce(&starpu_core::trace::Recorder)) {
    let _ = starpu_core::runtime::with_global(|rt| f(rt.tracer()));
}

/// `starpu_fxt_start_profiling`: starts (or resumes) recording.
#[no_mangle]
pub extern "C" fn starpu_fxt_start_profiling() {
    guard("starpu_fxt_start_profiling", (), || {
        if starpu_core::runtime::is_initialized() {
            with_recorder(|r| {
                r.set_on(true);
            })
        } else {
            starpu_core::trace::set_autostart(true)
        }
    })
}

/// `starpu_fxt_stop_profiling`: stops recording; the trace so far is written at shutdown.
#[no_mangle]
pub extern "C" fn starpu_fxt_stop_profiling() {
    guard("starpu_fxt_stop_profiling", (), || {
        with_recorder(|r| {
            r.set_on(false);
        })
    })
}

/// `starpu_fxt_autostart_profiling`: whether `starpu_init` starts recording (1, the
/// default) or waits for `starpu_fxt_start_profiling` (0). Call it before `starpu_init`.
#[no_mangle]
pub extern "C" fn starpu_fxt_autostart_profiling(autostart: c_int) {
    starpu_core::trace::set_autostart(autostart != 0);
}

/// `starpu_fxt_is_enabled`: whether `STARPU_FXT_TRACE` asks for a trace.
#[no_mangle]
pub extern "C" fn starpu_fxt_is_enabled() -> c_int {
    guard("starpu_fxt_is_enabled", 0, || {
        starpu_core::config::env_int("STARPU_FXT_TRACE")
            .ok()
            .flatten()
            .is_some_and(|v| v != 0) as c_int
    })
}

/// `starpu_fxt_write_data_trace`: StarPU's per-codelet data-use plot of a trace is not
/// made here (the same facts are in `tasks.rec` and `data.rec`); says so once.
#[no_mangle]
pub extern "C" fn starpu_fxt_write_data_trace(_filename_in: *mut c_char) {
    crate::unavailable::say_once(
        "fxt_data_trace",
        "starpu_fxt_write_data_trace",
        "the data-use trace is not available in this build: tasks.rec and data.rec (from \
         starpu_fxt_tool) hold each task's data",
    );
}

/// `starpu_fxt_write_data_trace_in_dir`: see `starpu_fxt_write_data_trace`.
#[no_mangle]
pub extern "C" fn starpu_fxt_write_data_trace_in_dir(_filename_in: *mut c_char, _dir: *mut c_char) {
    starpu_fxt_write_data_trace(std::ptr::null_mut());
}

/// `starpu_fxt_trace_user_event`: a user event with `code` in the trace.
#[no_mangle]
pub extern "C" fn starpu_fxt_trace_user_event(code: c_ulong) {
    guard("starpu_fxt_trace_user_event", (), || {
        with_recorder(|r| r.user_event(code))
    })
}

/// `starpu_trace_user_event` (recent StarPU's name for `starpu_fxt_trace_user_event`).
#[no_mangle]
pub extern "C" fn starpu_trace_user_event(code: c_ulong) {
    starpu_fxt_trace_user_event(code);
}

/// `starpu_fxt_trace_user_event_string`: a user event with text `s` in the trace.
///
/// # Safety
/// `s` is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn starpu_fxt_trace_user_event_string(s: *const c_char) {
    guard("starpu_fxt_trace_user_event_string", (), || {
        if let Some(s) = ffi::str_ref(s) {
            with_recorder(|r| r.user_string(s, false))
        }
    })
}

/// `starpu_fxt_trace_user_meta_string`: as `_user_event_string`, recorded even while
/// recording is paused.
///
/// # Safety
/// `s` is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn starpu_fxt_trace_user_meta_string(s: *const c_char) {
    guard("starpu_fxt_trace_user_meta_string", (), || {
        if let Some(s) = ffi::str_ref(s) {
            with_recorder(|r| r.user_string(s, true))
        }
    })
}
