//! What a scheduling policy asks about a worker's part in parallel work
//! (`starpu_worker.h`): blocked for a parallel section, or subordinate to another worker.

use crate::ffi::{self, value_call};
use crate::sched_ctx::NMAX;
use libc::{c_int, c_uint};
use starpu_core::{Error, Runtime};

/// The worker `id` names, or an error.
fn worker(rt: &Runtime, id: c_int) -> starpu_core::Result<usize> {
    usize::try_from(id)
        .ok()
        .filter(|&w| w < rt.workers().len())
        .ok_or_else(|| Error::invalid(format!("worker {id} does not exist")))
}

/// `starpu_worker_is_blocked_in_parallel`: 1 while worker `workerid` is held for a
/// parallel section (a parallel worker's team or `starpu_sched_ctx_exec_parallel_code`)
/// and takes no task of its own, else 0 (also 0, with a message, for a bad id).
#[no_mangle]
pub extern "C" fn starpu_worker_is_blocked_in_parallel(workerid: c_int) -> c_uint {
    value_call("starpu_worker_is_blocked_in_parallel", 0, || {
        let rt = ffi::runtime()?;
        Ok(rt.worker_reserved(worker(&rt, workerid)?) as c_uint)
    })
}

/// `starpu_worker_is_slave_somewhere` (StarPU 1.4's name): 1 when worker `workerid` is a
/// member, other than the master, of a master-only context (a parallel worker's
/// context), else 0.
#[no_mangle]
pub extern "C" fn starpu_worker_is_slave_somewhere(workerid: c_int) -> c_uint {
    value_call("starpu_worker_is_slave_somewhere", 0, || {
        let rt = ffi::runtime()?;
        Ok(rt.worker_is_subordinate(worker(&rt, workerid)?) as c_uint)
    })
}

/// `starpu_sched_ctx_master_get_context` (StarPU 1.4's name): the master-only context
/// whose master is worker `masterid` (the parallel worker it runs tasks for), else
/// `STARPU_NMAX_SCHED_CTXS`.
#[no_mangle]
pub extern "C" fn starpu_sched_ctx_master_get_context(masterid: c_int) -> c_uint {
    value_call("starpu_sched_ctx_master_get_context", NMAX, || {
        let rt = ffi::runtime()?;
        Ok(rt.master_context_of(worker(&rt, masterid)?).unwrap_or(NMAX))
    })
}
