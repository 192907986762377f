//! The GIL on the runtime's worker threads.
//!
//! Python code (codelets, callbacks) runs on worker threads that Python did not create.
//! Attaching such a thread with `PyGILState_Ensure` and detaching it again makes and
//! destroys a Python thread state each time, which costs microseconds per task and loses
//! thread-local Python state between tasks. So the first time a worker needs Python it
//! creates its thread state once and keeps it (the GIL released); every later attach only
//! takes the GIL. The thread state is left to the interpreter's teardown: workers are
//! stopped and joined before the interpreter finalizes (see `runtime::shutdown_all`,
//! called from an `atexit` hook).

use pyo3::prelude::*;
use std::cell::Cell;

thread_local! {
    static KEPT: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f` holding the GIL, from any thread; on a worker thread, with the thread state the
/// worker keeps. The GIL is held only for the duration of `f`.
pub(crate) fn attach<R>(f: impl for<'py> FnOnce(Python<'py>) -> R) -> R {
    if !KEPT.with(Cell::get) && starpu_core::worker::current_worker_id().is_some() {
        // SAFETY: the interpreter is running (this module is loaded and workers are joined
        // before it finalizes). Ensure creates this thread's state and takes the GIL;
        // SaveThread gives the GIL back but keeps the state (its counter stays at one), so
        // later PyGILState_Ensure calls (Python::attach) reuse it.
        unsafe {
            pyo3::ffi::PyGILState_Ensure();
            pyo3::ffi::PyEval_SaveThread();
        }
        KEPT.with(|k| k.set(true));
    }
    Python::attach(f)
}

/// Like `attach`, but does nothing (returns `None`) when the interpreter is finalizing or
/// not running: for the runtime's completion paths, which may in theory run late.
pub(crate) fn try_attach<R>(f: impl for<'py> FnOnce(Python<'py>) -> R) -> Option<R> {
    if starpu_core::worker::current_worker_id().is_some() && !KEPT.with(Cell::get) {
        // SAFETY: Py_IsInitialized is safe to call at any time.
        if unsafe { pyo3::ffi::Py_IsInitialized() } == 0 {
            return None;
        }
        return Some(attach(f));
    }
    Python::try_attach(f)
}
