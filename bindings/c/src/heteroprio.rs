//! `starpu_heteroprio_*` (schedulers/starpu_heteroprio.h): configuring the `heteroprio`
//! policy of a context, usually from its init hook (`conf.sched_policy_init`). The policy
//! lives in the core (`starpu_core::sched::heteroprio`); these calls convert and report.

use crate::ffi::{self, value_call};
use crate::types::starpu_worker_archtype;
use libc::{c_float, c_uint};
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

/// `starpu_heteroprio_set_use_locality`: the locality-aware mode is not in this build;
/// 0 is accepted (the mode in use), 1 is reported as an error.
#[no_mangle]
pub extern "C" fn starpu_heteroprio_set_use_locality(sched_ctx_id: c_uint, use_locality: c_uint) {
    configure("starpu_heteroprio_set_use_locality", sched_ctx_id, |_| {
        if use_locality == 0 {
            Ok(())
        } else {
            Err(starpu_core::Error::invalid(
                "heteroprio's locality-aware mode is not implemented in this build",
            ))
        }
    })
}
