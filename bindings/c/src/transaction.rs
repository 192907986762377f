//! Transactions (`starpu_transaction_open`, `_next_epoch`, `_close`, and
//! `STARPU_TRANSACTION` in `starpu_task_insert`): the epochs and their rules are the
//! core's (`starpu_core::task::Transaction`); this file adapts the C start function.

use crate::ffi::{self, value_call};
use libc::{c_int, c_void};
use starpu_core::task::{TaskRef, TaskSpec, Transaction};
use starpu_core::Error;

/// `int (*do_start_func)(void *buffer, void *arg)`: nonzero confirms the epoch.
type StartFunc = Option<unsafe extern "C" fn(*mut c_void, *mut c_void) -> c_int>;

/// What C holds: `struct starpu_transaction *` points to one, from `_open` to `_close`.
pub struct starpu_transaction {
    trs: Transaction,
    start: StartFunc,
}

/// One epoch's call of the start function, with that epoch's argument.
struct StartCall {
    f: StartFunc,
    arg: *mut c_void,
}

// SAFETY: the argument is the application's, handed back to its own function on a worker,
// as StarPU does.
unsafe impl Send for StartCall {}

impl StartCall {
    fn into_closure(self) -> impl FnOnce() -> bool + Send + 'static {
        move || {
            let call = self;
            match call.f {
                // There is no synchronisation buffer in this API (NULL, as in StarPU).
                // SAFETY: the application's function, with its own argument.
                Some(f) => unsafe { f(std::ptr::null_mut(), call.arg) != 0 },
                None => true,
            }
        }
    }
}

/// `starpu_transaction_open`: NULL when the transaction cannot start.
///
/// # Safety
/// `do_start_func`, if set, may be called with `do_start_arg` from a worker.
#[no_mangle]
pub unsafe extern "C" fn starpu_transaction_open(
    do_start_func: Option<unsafe extern "C" fn(*mut c_void, *mut c_void) -> c_int>,
    do_start_arg: *mut c_void,
) -> *mut starpu_transaction {
    value_call("starpu_transaction_open", std::ptr::null_mut(), || {
        let start = StartCall {
            f: do_start_func,
            arg: do_start_arg,
        };
        let trs = ffi::with_runtime(|rt| rt.transaction_open(start.into_closure()))?;
        Ok(Box::into_raw(Box::new(starpu_transaction {
            trs,
            start: do_start_func,
        })))
    })
}

/// `starpu_transaction_next_epoch`.
///
/// # Safety
/// `p_trs` is NULL or an open transaction.
#[no_mangle]
pub unsafe extern "C" fn starpu_transaction_next_epoch(
    p_trs: *mut starpu_transaction,
    do_start_arg: *mut c_void,
) {
    let _ = ffi::int_call("starpu_transaction_next_epoch", || {
        let t = p_trs
            .as_ref()
            .ok_or_else(|| Error::invalid("the transaction is NULL"))?;
        let start = StartCall {
            f: t.start,
            arg: do_start_arg,
        };
        ffi::with_runtime(|rt| t.trs.next_epoch(rt, start.into_closure()))
    });
}

/// `starpu_transaction_close`: the pointer is freed (tasks already submitted keep the
/// transaction alive in the core).
///
/// # Safety
/// `p_trs` is NULL or an open transaction; it is not used afterwards.
#[no_mangle]
pub unsafe extern "C" fn starpu_transaction_close(p_trs: *mut starpu_transaction) {
    let _ = ffi::int_call("starpu_transaction_close", || {
        if p_trs.is_null() {
            return Err(Error::invalid("the transaction is NULL"));
        }
        let t = Box::from_raw(p_trs);
        ffi::with_runtime(|rt| t.trs.close(rt))
    });
}

/// Makes the task being submitted one of `p_trs`'s current epoch (`task->transaction`).
///
/// # Safety
/// `p_trs` is NULL or an open transaction.
pub(crate) unsafe fn enlist(
    p_trs: *mut starpu_transaction,
    task: &TaskRef,
    spec: &mut TaskSpec,
) -> starpu_core::Result<()> {
    match p_trs.as_ref() {
        None => Ok(()),
        Some(t) => t.trs.enlist(task, spec),
    }
}
