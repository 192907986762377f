//! The tasks of one scheduling context (`starpu_task.h`, `starpu_sched_ctx.h`): waiting
//! for them, and what runs when the context is closed after its last one. The counts and
//! the closing live in the core (`runtime/ctx_wait.rs`).

use crate::ffi::{self, int_call};
use crate::sched_ctx::ctx_index;
use libc::{c_int, c_uint, c_void};
use std::sync::Arc;

/// A C close callback and its argument, called from the worker that ends the context's
/// last task.
struct Close(unsafe extern "C" fn(c_uint, *mut c_void), *mut c_void);
// SAFETY: the application hands the callback to StarPU to be called from any thread.
unsafe impl Send for Close {}
unsafe impl Sync for Close {}

impl Close {
    fn call(&self, id: u32) {
        // SAFETY: the application's callback with the argument it gave for it.
        unsafe { (self.0)(id as c_uint, self.1) }
    }
}

/// `starpu_task_wait_for_all_in_ctx`: waits until every task submitted to context `ctx`
/// has terminated. `-EINVAL` for a context that does not exist, `-EDEADLK` from a task or
/// a callback.
#[no_mangle]
pub extern "C" fn starpu_task_wait_for_all_in_ctx(ctx: c_uint) -> c_int {
    int_call("starpu_task_wait_for_all_in_ctx", || {
        ffi::with_runtime(|rt| rt.wait_for_all_in_context(ctx))
    })
}

/// `starpu_task_wait_for_n_submitted_in_ctx`: waits until at most `n` tasks submitted to
/// context `ctx` remain.
#[no_mangle]
pub extern "C" fn starpu_task_wait_for_n_submitted_in_ctx(ctx: c_uint, n: c_uint) -> c_int {
    int_call("starpu_task_wait_for_n_submitted_in_ctx", || {
        ffi::with_runtime(|rt| rt.wait_until_at_most_in_context(ctx, n as usize))
    })
}

/// `starpu_sched_ctx_register_close_callback`: `close_callback(ctx, args)` runs when the
/// context is closed: after `starpu_sched_ctx_finished_submit`, once its last task has
/// ended, if it has an inheritor (its workers then join the inheritor). A NULL callback
/// removes the previous one.
///
/// # Safety
/// `close_callback` is NULL or a function that may be called from any thread with `args`.
#[no_mangle]
pub unsafe extern "C" fn starpu_sched_ctx_register_close_callback(
    ctx: c_uint,
    close_callback: Option<unsafe extern "C" fn(c_uint, *mut c_void)>,
    args: *mut c_void,
) {
    let _ = int_call("starpu_sched_ctx_register_close_callback", || {
        let rt = ffi::runtime()?;
        let id = ctx_index(ctx)?;
        let f: starpu_core::runtime::CloseCallback = match close_callback {
            Some(cb) => {
                let close = Close(cb, args);
                Arc::new(move |id| close.call(id))
            }
            None => Arc::new(|_| {}),
        };
        rt.set_context_close_callback(id, f)
    });
}
