//! `starpu_heteroprio_*` (schedulers/starpu_heteroprio.h): configuring the `heteroprio`
//! policy of a context, usually from its init hook (`conf.sched_policy_init`). The policy
//! lives in the core (`starpu_core::sched::heteroprio`); these calls convert and report.

use crate::abi::starpu_worker_archtype;
use crate::ffi::{self, value_call};
use libc::{c_float, c_uint, FILE};
use starpu_core::sched::heteroprio::Heteroprio;

fn configure(call: &str, ctx: c_uint, f: impl FnOnce(&Heteroprio) -> starpu_core::Result<()>) {
    value_call(call, (), || ffi::runtime()?.with_heteroprio(ctx, f))
}

/// `starpu_heteroprio_set_nb_prios`: architecture `arch` has `max_prio` priority levels.
#[no_mangle]
pub extern "C" fn starpu_heteroprio_set_nb_prios(
    sched_ctx_id: c_uint,
    arch: starpu_worker_archtype,
    max_prio: c_uint,
) {
    configure("starpu_heteroprio_set_nb_prios", sched_ctx_id, |h| {
        h.set_nb_prios(arch, max_prio as usize)
    })
}

/// `starpu_heteroprio_set_mapping`: level `source_prio` of `arch` takes from bucket
/// `dest_bucket_id`.
#[no_mangle]
pub extern "C" fn starpu_heteroprio_set_mapping(
    sched_ctx_id: c_uint,
    arch: starpu_worker_archtype,
    source_prio: c_uint,
    dest_bucket_id: c_uint,
) {
    configure("starpu_heteroprio_set_mapping", sched_ctx_id, |h| {
        h.set_mapping(arch, source_prio as usize, dest_bucket_id as usize)
    })
}

/// `starpu_heteroprio_set_faster_arch`: `arch` runs the tasks of `bucket_id` fastest.
#[no_mangle]
pub extern "C" fn starpu_heteroprio_set_faster_arch(
    sched_ctx_id: c_uint,
    arch: starpu_worker_archtype,
    bucket_id: c_uint,
) {
    configure("starpu_heteroprio_set_faster_arch", sched_ctx_id, |h| {
        h.set_faster_arch(arch, bucket_id as usize)
    })
}

/// `starpu_heteroprio_set_arch_slow_factor`: how much slower `arch` is than the fastest
/// for the tasks of `bucket_id`.
#[no_mangle]
pub extern "C" fn starpu_heteroprio_set_arch_slow_factor(
    sched_ctx_id: c_uint,
    arch: starpu_worker_archtype,
    bucket_id: c_uint,
    slow_factor: c_float,
) {
    configure(
        "starpu_heteroprio_set_arch_slow_factor",
        sched_ctx_id,
        |h| h.set_arch_slow_factor(arch, bucket_id as usize, slow_factor),
    )
}

/// `starpu_heteroprio_set_use_locality`: turns heteroprio's locality-aware mode on (1) or
/// off (0), from the init hook (refused once tasks are queued).
#[no_mangle]
pub extern "C" fn starpu_heteroprio_set_use_locality(sched_ctx_id: c_uint, use_locality: c_uint) {
    configure(
        "starpu_heteroprio_set_use_locality",
        sched_ctx_id,
        |h| match use_locality {
            0 | 1 => h.set_use_locality(use_locality == 1),
            v => Err(starpu_core::Error::invalid(format!(
                "use_locality is {v}, not 0 or 1"
            ))),
        },
    )
}

/// `starpu_heteroprio_map_wgroup_memory_nodes`: one worker group per memory node, and
/// their access orders made again (locality-aware mode only).
#[no_mangle]
pub extern "C" fn starpu_heteroprio_map_wgroup_memory_nodes(sched_ctx_id: c_uint) {
    configure(
        "starpu_heteroprio_map_wgroup_memory_nodes",
        sched_ctx_id,
        |h| h.map_wgroup_memory_nodes(),
    )
}

/// `starpu_heteroprio_print_wgroups`: the locality-aware mode's groups and access orders,
/// written on `stream`.
///
/// # Safety
/// `stream` is a C stream open for writing, or null (nothing is written).
#[no_mangle]
pub unsafe extern "C" fn starpu_heteroprio_print_wgroups(stream: *mut FILE, sched_ctx_id: c_uint) {
    let text = value_call("starpu_heteroprio_print_wgroups", None, || {
        ffi::runtime()?
            .with_heteroprio(sched_ctx_id, |h| h.wgroups_report())
            .map(Some)
    });
    if let Some(t) = text {
        // SAFETY: the caller passes a writable stream or null.
        unsafe { crate::bound::write(stream, &t) };
    }
}
