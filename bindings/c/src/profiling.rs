//! `starpu_profiling.h`: the profiling status, per-task and per-worker information, bus
//! information (this build has one memory node, hence no bus), and the summaries StarPU
//! prints (`starpu_profiling_worker_helper_display_summary`, `starpu_codelet_display_stats`,
//! ...). The core collects everything (`starpu_core::profiling`); this file converts it to
//! StarPU's structs and text.

use crate::abi::{starpu_codelet, starpu_profiling_task_info, starpu_task, timespec};
use crate::abi::{starpu_profiling_bus_info, starpu_profiling_worker_info};
use crate::ffi::{self, int_call};
use libc::{c_int, c_longlong};
use starpu_core::profiling::now_ns;
use starpu_core::Task;
use std::sync::atomic::{AtomicBool, Ordering};

/// The status asked for while no runtime runs: `starpu_init` starts with it.
static STATUS_BEFORE_INIT: AtomicBool = AtomicBool::new(false);

/// Whether profiling was turned on before `starpu_init` (read by init).
pub(crate) fn requested_before_init() -> bool {
    STATUS_BEFORE_INIT.load(Ordering::Relaxed)
}

fn ts(ns: u64) -> timespec {
    timespec {
        tv_sec: (ns / 1_000_000_000) as libc::time_t,
        tv_nsec: (ns % 1_000_000_000) as libc::c_long,
    }
}

/// `starpu_timing_now`: microseconds on the monotonic clock the profiling times use.
#[no_mangle]
pub extern "C" fn starpu_timing_now() -> f64 {
    now_ns() as f64 / 1e3
}

/// `starpu_profiling_status_set`: turns profiling on (`STARPU_PROFILING_ENABLE`) or off;
/// returns the previous status. Turning it on restarts the workers' counters.
#[no_mangle]
pub extern "C" fn starpu_profiling_status_set(status: c_int) -> c_int {
    let on = status != 0;
    match ffi::runtime() {
        Ok(rt) => rt.set_profiling(on) as c_int,
        Err(_) => STATUS_BEFORE_INIT.swap(on, Ordering::Relaxed) as c_int,
    }
}

/// `starpu_profiling_status_get`.
#[no_mangle]
pub extern "C" fn starpu_profiling_status_get() -> c_int {
    match ffi::runtime() {
        Ok(rt) => rt.profiling() as c_int,
        Err(_) => STATUS_BEFORE_INIT.load(Ordering::Relaxed) as c_int,
    }
}

/// `starpu_profiling_init`: restarts the workers' counters, and turns profiling on when
/// `STARPU_PROFILING` is a positive number.
#[no_mangle]
pub extern "C" fn starpu_profiling_init() {
    let env_on = starpu_core::config::env_int("STARPU_PROFILING")
        .ok()
        .flatten()
        .is_some_and(|v| v > 0);
    match ffi::runtime() {
        Ok(rt) => {
            for w in 0..rt.workers().len() {
                let _ = rt.take_worker_profile(w);
            }
            if env_on {
                rt.set_profiling(true);
            }
        }
        Err(_) => STATUS_BEFORE_INIT.store(
            env_on || STATUS_BEFORE_INIT.load(Ordering::Relaxed),
            Ordering::Relaxed,
        ),
    }
}

/// `starpu_profiling_set_id`: names FxT trace files, which this build does not write;
/// accepted and ignored.
#[no_mangle]
pub extern "C" fn starpu_profiling_set_id(_new_id: c_int) {}

/// `starpu_profiling_worker_get_info`: worker `workerid`'s activity since the previous
/// call (or since profiling was turned on), then restarts its counters; with a NULL
/// `worker_info` only restarts them. 0, or `-EINVAL` for a worker that does not exist.
///
/// # Safety
/// `worker_info` is NULL or points to writable memory for the struct.
#[no_mangle]
pub unsafe extern "C" fn starpu_profiling_worker_get_info(
    workerid: c_int,
    worker_info: *mut starpu_profiling_worker_info,
) -> c_int {
    int_call("starpu_profiling_worker_get_info", || {
        let rt = ffi::runtime()?;
        let p = usize::try_from(workerid)
            .ok()
            .and_then(|w| rt.take_worker_profile(w))
            .ok_or_else(|| {
                starpu_core::Error::invalid(format!("worker {workerid} does not exist"))
            })?;
        if let Some(out) = worker_info.as_mut() {
            *out = starpu_profiling_worker_info {
                start_time: ts(p.start_ns),
                total_time: ts(p.total_ns),
                executing_time: ts(p.executing_ns),
                sleeping_time: ts(p.sleeping_ns),
                executed_tasks: p.executed_tasks as c_int,
                used_cycles: 0,
                stall_cycles: 0,
                energy_consumed: 0.0,
                flops: p.flops,
            };
        }
        Ok(())
    })
}

/// Fills the task's `profiling_info` (if it has one) from what the core recorded; called
/// when the task completes, before its callback, whose start it records.
///
/// # Safety
/// `t` points to a live task.
pub(crate) unsafe fn fill_task_info(t: *mut starpu_task, task: &Task) {
    let Some(info) = (*t).profiling_info.as_mut() else {
        return;
    };
    let Some(mut times) = task.profiling_times() else {
        return;
    };
    if times.start_ns == 0 {
        // A task with nothing to run ends where it would have started.
        let now = now_ns();
        times.start_ns = now;
        times.end_ns = now;
    }
    info.submit_time = ts(times.submit_ns);
    // Pushing and popping are not timed apart: the task is handed to the scheduler at
    // submission (or when its dependencies are met) and taken when it starts.
    info.push_start_time = ts(times.submit_ns);
    info.push_end_time = ts(times.submit_ns);
    info.pop_start_time = ts(times.start_ns);
    info.pop_end_time = ts(times.start_ns);
    info.acquire_data_start_time = ts(times.start_ns);
    info.acquire_data_end_time = ts(times.start_ns);
    info.start_time = ts(times.start_ns);
    info.end_time = ts(times.end_ns);
    info.release_data_start_time = ts(times.end_ns);
    info.release_data_end_time = ts(times.end_ns);
    info.callback_start_time = ts(now_ns());
    info.workerid = times.worker.map_or(-1, |w| w as c_int);
}

/// Records the end of the task's callback in its `profiling_info`.
///
/// # Safety
/// `t` points to a live task.
pub(crate) unsafe fn callback_ended(t: *mut starpu_task) {
    if let Some(info) = (*t).profiling_info.as_mut() {
        info.callback_end_time = ts(now_ns());
    }
}

/// `starpu_profiling_worker_helper_display_summary`: each worker's tasks and times on
/// stderr, since its counters were last read (this restarts them, as in StarPU), in
/// StarPU's words.
#[no_mangle]
pub extern "C" fn starpu_profiling_worker_helper_display_summary() {
    match ffi::runtime() {
        Ok(rt) => eprint!("{}", rt.worker_stats_text()),
        Err(_) => eprintln!("[starpu] worker statistics: the runtime is not initialized"),
    }
}

/// The buses: every ordered pair of distinct memory nodes (the core's numbering).
fn buses() -> Vec<(usize, usize)> {
    crate::nodes::memory().stats.buses()
}

/// `starpu_bus_get_count`: one bus per ordered pair of distinct memory nodes (none with
/// main memory alone).
#[no_mangle]
pub extern "C" fn starpu_bus_get_count() -> c_int {
    buses().len() as c_int
}

/// `starpu_bus_get_id`: the bus from `src` to `dst`, -1 if none.
#[no_mangle]
pub extern "C" fn starpu_bus_get_id(src: c_int, dst: c_int) -> c_int {
    buses()
        .iter()
        .position(|&(s, d)| s as c_int == src && d as c_int == dst)
        .map_or(-1, |i| i as c_int)
}

fn bus(busid: c_int) -> Option<(usize, usize)> {
    buses().get(usize::try_from(busid).ok()?).copied()
}

/// `starpu_bus_get_src`: the source node of bus `busid`, -1 if none.
#[no_mangle]
pub extern "C" fn starpu_bus_get_src(busid: c_int) -> c_int {
    bus(busid).map_or(-1, |b| b.0 as c_int)
}

/// `starpu_bus_get_dst`: the destination node of bus `busid`, -1 if none.
#[no_mangle]
pub extern "C" fn starpu_bus_get_dst(busid: c_int) -> c_int {
    bus(busid).map_or(-1, |b| b.1 as c_int)
}

/// `starpu_bus_get_direct`: 1 when the bus copies without going through main RAM.
#[no_mangle]
pub extern "C" fn starpu_bus_get_direct(busid: c_int) -> c_int {
    bus(busid).is_some_and(|(s, d)| crate::nodes::memory().direct_path(s, d)) as c_int
}

/// `starpu_bus_set_direct`: StarPU's topology detection may mark GPU-GPU buses direct;
/// here the drivers tell which copies are direct, so the call changes nothing.
#[no_mangle]
pub extern "C" fn starpu_bus_set_direct(_busid: c_int, _direct: c_int) {}

/// `starpu_bus_get_ngpus`: how many GPUs share the bus (StarPU's NUMA hint): 1 for a bus
/// to or from a device, 0 otherwise.
#[no_mangle]
pub extern "C" fn starpu_bus_get_ngpus(busid: c_int) -> c_int {
    bus(busid).is_some_and(|(s, d)| s != 0 || d != 0) as c_int
}

/// `starpu_bus_set_ngpus`: accepted; it changes nothing here (see `starpu_bus_set_direct`).
#[no_mangle]
pub extern "C" fn starpu_bus_set_ngpus(_busid: c_int, _ngpus: c_int) {}

/// `starpu_bus_get_profiling_info`: the bytes and transfers that went over bus `busid`
/// and the time they took.
///
/// # Safety
/// `bus_info` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn starpu_bus_get_profiling_info(
    busid: c_int,
    bus_info: *mut starpu_profiling_bus_info,
) -> c_int {
    int_call("starpu_bus_get_profiling_info", || {
        let (s, d) = bus(busid)
            .ok_or_else(|| starpu_core::Error::invalid(format!("bus {busid} does not exist")))?;
        let i = crate::nodes::memory().stats.info(s, d).unwrap_or_default();
        if let Some(out) = bus_info.as_mut() {
            out.start_time = timespec {
                tv_sec: 0,
                tv_nsec: 0,
            };
            out.total_time = timespec {
                tv_sec: (i.micros / 1_000_000) as libc::time_t,
                tv_nsec: ((i.micros % 1_000_000) * 1000) as libc::c_long,
            };
            out.transferred_bytes = i.bytes as c_longlong;
            out.transfer_count = i.count as c_int;
        }
        Ok(())
    })
}

/// `starpu_profiling_bus_helper_display_summary`: the data transfers between memory
/// nodes, on stderr, in StarPU's words.
#[no_mangle]
pub extern "C" fn starpu_profiling_bus_helper_display_summary() {
    match ffi::runtime() {
        Ok(rt) => eprint!("{}", rt.bus_stats_text()),
        Err(_) => eprintln!("[starpu] bus statistics: the runtime is not initialized"),
    }
}

/// `starpu_data_display_memory_stats`: the data registered, their sizes and the nodes
/// holding them, on stderr.
#[no_mangle]
pub extern "C" fn starpu_data_display_memory_stats() {
    match ffi::runtime() {
        Ok(rt) => eprint!("{}", rt.memory_stats_text()),
        Err(_) => eprintln!("[starpu] memory statistics: the runtime is not initialized"),
    }
}

/// `starpu_display_stats`: the worker and bus summaries.
#[no_mangle]
pub extern "C" fn starpu_display_stats() {
    starpu_profiling_bus_helper_display_summary();
    starpu_profiling_worker_helper_display_summary();
}

/// `starpu_codelet_display_stats`: how many of the codelet's tasks each worker ran (counted
/// while profiling or `STARPU_WORKER_STATS` is on), on stderr.
///
/// # Safety
/// `cl` is NULL or a live codelet.
#[no_mangle]
pub unsafe extern "C" fn starpu_codelet_display_stats(cl: *mut starpu_codelet) {
    let Some(c) = cl.as_ref() else {
        return;
    };
    let name = ffi::string(c.name)
        .or_else(|| c.model.as_ref().and_then(|m| ffi::string(m.symbol)))
        .unwrap_or_else(|| "unknown".into());
    eprintln!("Statistics for codelet {name}");
    let Ok(rt) = ffi::runtime() else {
        return;
    };
    let counts = rt
        .codelet_counts(ffi::string(c.name).as_deref().unwrap_or("(unnamed)"))
        .unwrap_or_else(|| vec![0; rt.workers().len()]);
    let total: u64 = counts.iter().sum();
    for (w, n) in rt.workers().iter().zip(&counts) {
        let share = if total > 0 {
            100.0 * *n as f64 / total as f64
        } else {
            0.0
        };
        eprintln!("\t{} -> {n} / {total} ({share:2.2} %)", w.name);
    }
}

/// The struct StarPU allocates for a task submitted while profiling is on
/// (`task->profiling_info`); the task frees it when cleaned or destroyed.
pub(crate) fn new_task_info() -> *mut starpu_profiling_task_info {
    // SAFETY: calloc gives zeroed memory, a valid value of the struct (or NULL).
    unsafe {
        libc::calloc(1, std::mem::size_of::<starpu_profiling_task_info>())
            as *mut starpu_profiling_task_info
    }
}
