//! A worker's priority in a scheduling context (`starpu_sched_ctx.h`, the calls the
//! hypervisor uses): the order in which a worker that belongs to several contexts looks
//! for work in them. The order lives in the core (`sched/contexts/priority.rs`).

use crate::ffi::{self, value_call};
use crate::sched_ctx::{ctx_index, worker_list};
use libc::{c_int, c_uint};

/// `starpu_sched_ctx_set_priority`: each of the `nworkers` workers of `workerids` looks
/// for work in context `ctx` before its contexts of lower priority. `nworkers == -1` does
/// nothing, as in StarPU; ids of combined workers are passed over.
///
/// # Safety
/// `workerids` holds `nworkers` ids.
#[no_mangle]
pub unsafe extern "C" fn starpu_sched_ctx_set_priority(
    workerids: *mut c_int,
    nworkers: c_int,
    ctx: c_uint,
    priority: c_uint,
) {
    value_call("starpu_sched_ctx_set_priority", (), || {
        let ws = worker_list(workerids, nworkers)?;
        let id = ctx_index(ctx)?;
        ffi::runtime()?.set_context_worker_priority(id, &ws, priority)
    })
}

/// `starpu_sched_ctx_get_priority`: worker `workerid`'s priority in context `ctx` (0 until
/// set). For a worker that is not in the context the error is reported and 0 returned.
#[no_mangle]
pub extern "C" fn starpu_sched_ctx_get_priority(workerid: c_int, ctx: c_uint) -> c_uint {
    value_call("starpu_sched_ctx_get_priority", 0, || {
        let w = usize::try_from(workerid)
            .map_err(|_| starpu_core::Error::invalid(format!("invalid worker id {workerid}")))?;
        ffi::runtime()?.context_worker_priority(w, ctx_index(ctx)?)
    })
}
