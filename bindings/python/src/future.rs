//! `starpu.Future`: the result of a task, usable from plain code (`fut.result()`, which
//! waits through the core with the GIL released) and from asyncio (`await fut`, see
//! `event_loop`).
//!
//! The core knows whether and how the task ended (its failure carries the exception the
//! Python function raised); the future only keeps the function's return value, which the
//! kernel stores while it holds the GIL anyway.
//!
//! A `starpu.Future` is also a future-like object in asyncio's sense (`asyncio.isfuture`
//! is true: it has `_asyncio_future_blocking`, `get_loop` and `add_done_callback(fn,
//! context=)`), so `asyncio.gather`, `wait_for` and `await` take it as it is, without
//! wrapping each one in an asyncio Task; callbacks added from an event loop's thread run in
//! that loop, delivered in batches (`event_loop`).

use crate::errors::{self, IntoPy};
use crate::event_loop::{self, Awaiting};
use crate::runtime;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use starpu_core::{ErrorKind, TaskRef};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// The shared state of a future: the task producing it, the value slot, and the done
/// callbacks not called yet (so that `remove_done_callback` can take one back).
pub(crate) struct FutState {
    pub(crate) task: TaskRef,
    value: Mutex<Option<Py<PyAny>>>,
    callbacks: Mutex<Vec<Py<PyAny>>>,
}

/// A done callback on its way: `func(future)`, in `context` when asyncio gave one.
pub(crate) struct DoneCallback {
    func: Py<PyAny>,
    future: Py<Future>,
    context: Option<Py<PyAny>>,
}

impl DoneCallback {
    /// Calls it, unless it was removed meanwhile.
    pub(crate) fn run(self, py: Python<'_>) {
        if !self.future.get().state.take_callback(&self.func) {
            return;
        }
        let called = match &self.context {
            Some(c) => c.bind(py).call_method1("run", (&self.func, &self.future)),
            None => self.func.bind(py).call1((&self.future,)),
        };
        if let Err(e) = called {
            e.print(py);
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl FutState {
    pub(crate) fn new(task: TaskRef) -> Arc<FutState> {
        Arc::new(FutState {
            task,
            value: Mutex::new(None),
            callbacks: Mutex::new(Vec::new()),
        })
    }

    /// Takes `func` out of the callbacks to call; false if `remove_done_callback` took it.
    fn take_callback(&self, func: &Py<PyAny>) -> bool {
        let mut cbs = lock(&self.callbacks);
        match cbs.iter().position(|c| c.is(func)) {
            Some(i) => {
                cbs.swap_remove(i);
                true
            }
            None => false,
        }
    }

    pub(crate) fn is_done(&self) -> bool {
        self.task.is_terminated()
    }

    /// The task producing the outcome, while it has not ended (a later task given this
    /// future as an argument depends on it).
    pub(crate) fn pending_task(&self) -> Option<TaskRef> {
        (!self.is_done()).then(|| self.task.clone())
    }

    /// Stores the function's return value (from the kernel, GIL held).
    pub(crate) fn set_value(&self, value: Py<PyAny>) {
        *lock(&self.value) = Some(value);
    }

    /// The outcome of an ended task: its value (None if it had none), or its failure (the
    /// very exception its function raised).
    pub(crate) fn outcome(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        if let Some(e) = self.task.failure() {
            return Err(errors::to_py(py, &e));
        }
        Ok(lock(&self.value)
            .as_ref()
            .map_or_else(|| py.None(), |v| v.clone_ref(py)))
    }

    /// Waits (GIL released, through the core) until the task has ended or `timeout`
    /// seconds have passed (`TimeoutError`). Returns every 100 ms to let Ctrl-C through.
    pub(crate) fn wait(&self, py: Python<'_>, timeout: Option<f64>) -> PyResult<()> {
        if self.is_done() {
            return Ok(());
        }
        let rt = runtime::runtime(py)?;
        let deadline = timeout.map(|t| Instant::now() + Duration::from_secs_f64(t.max(0.0)));
        loop {
            let slice = Instant::now() + Duration::from_millis(100);
            let until = deadline.map_or(slice, |d| d.min(slice));
            let task = &self.task;
            match py.detach(|| rt.wait_held(task, Some(until))) {
                Err(e) if e.kind == ErrorKind::Timeout => {
                    if deadline.is_some_and(|d| Instant::now() >= d) {
                        return Err(e).py(py);
                    }
                    py.check_signals()?;
                }
                // Failed or not, it ended: `outcome` says how.
                Err(e) if e.kind == ErrorKind::TaskFailed => return Ok(()),
                r => return r.py(py),
            }
        }
    }
}

/// `starpu.Future`: the eventual result of a task.
///
/// `result(timeout=None)` waits (GIL released) and returns the value or raises the task's
/// exception; `await fut` does the same in a coroutine. `done()`, `exception()`,
/// `add_done_callback(fn)` behave as in `concurrent.futures`. A future given as an argument
/// to another task makes that task wait for this one and receive its value.
#[pyclass(frozen, module = "starpu", name = "Future")]
pub(crate) struct Future {
    pub(crate) state: Arc<FutState>,
    /// asyncio's protocol: set while a coroutine awaits this future.
    blocking: AtomicBool,
}

impl Future {
    pub(crate) fn new(state: Arc<FutState>) -> Future {
        Future {
            state,
            blocking: AtomicBool::new(false),
        }
    }

    /// For `Awaiting`: marks the future awaited (asyncio's Task checks it).
    pub(crate) fn set_blocking(&self, on: bool) {
        self.blocking.store(on, Ordering::Relaxed);
    }
}

#[pymethods]
impl Future {
    /// Waits for the task and returns its value (re-raises its exception: the very object
    /// the function raised). `timeout` in seconds; `starpu.TimeoutError` (a
    /// `TimeoutError`) when it runs out.
    #[pyo3(signature = (timeout=None))]
    fn result(&self, py: Python<'_>, timeout: Option<f64>) -> PyResult<Py<PyAny>> {
        self.state.wait(py, timeout)?;
        self.state.outcome(py)
    }

    /// The task's exception (None if it returned a value), after waiting like `result`.
    #[pyo3(signature = (timeout=None))]
    fn exception(&self, py: Python<'_>, timeout: Option<f64>) -> PyResult<Option<Py<PyAny>>> {
        self.state.wait(py, timeout)?;
        match self.state.outcome(py) {
            Ok(_) => Ok(None),
            Err(e) => Ok(Some(e.value(py).clone().into_any().unbind())),
        }
    }

    /// Whether the task has ended.
    fn done(&self) -> bool {
        self.state.is_done()
    }

    /// Tasks are never cancelled once submitted: always False.
    fn cancel(&self) -> bool {
        false
    }

    fn cancelled(&self) -> bool {
        false
    }

    /// Whether the result is still to come.
    fn running(&self) -> bool {
        !self.state.is_done()
    }

    /// Calls `fn(future)` once the task has ended. From an event loop's thread it runs in
    /// that loop (as asyncio's futures do, `context` as asyncio gives it); elsewhere on the
    /// thread that ends the task, or at once if it has ended.
    #[pyo3(signature = (func, *, context=None))]
    fn add_done_callback(
        slf: &Bound<'_, Self>,
        func: Py<PyAny>,
        context: Option<Py<PyAny>>,
    ) -> PyResult<()> {
        let py = slf.py();
        let state = &slf.get().state;
        lock(&state.callbacks).push(func.clone_ref(py));
        let call = DoneCallback {
            func,
            future: slf.clone().unbind(),
            context,
        };
        match event_loop::running_loop(py)? {
            Some(lp) => event_loop::bridge_of(&lp)?.get().watch(&state.task, call),
            None => state.task.on_terminated(move |_| {
                crate::gil::try_attach(|py| call.run(py));
            }),
        }
        Ok(())
    }

    /// Takes back every callback equal to `func` not called yet; returns how many.
    fn remove_done_callback(&self, func: &Bound<'_, PyAny>) -> PyResult<usize> {
        let py = func.py();
        // Compared without the lock (`==` is Python code, during which another thread may
        // take the GIL and then this lock), then taken out by identity.
        let registered: Vec<Py<PyAny>> = lock(&self.state.callbacks)
            .iter()
            .map(|c| c.clone_ref(py))
            .collect();
        let mut removed = 0;
        for c in registered {
            if c.bind(py).eq(func)? && self.state.take_callback(&c) {
                removed += 1;
            }
        }
        Ok(removed)
    }

    /// The running event loop (a starpu future belongs to no loop until awaited in one).
    fn get_loop(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        event_loop::running_loop(py)?
            .map(Bound::unbind)
            .ok_or_else(|| PyRuntimeError::new_err("no running event loop"))
    }

    #[getter]
    fn _asyncio_future_blocking(&self) -> bool {
        self.blocking.load(Ordering::Relaxed)
    }

    #[setter(_asyncio_future_blocking)]
    fn set_asyncio_future_blocking(&self, on: bool) {
        self.set_blocking(on);
    }

    fn __await__(slf: Py<Self>) -> Awaiting {
        Awaiting::new(slf)
    }

    fn __repr__(&self) -> String {
        format!(
            "<starpu.Future {}>",
            if self.state.is_done() {
                "done"
            } else {
                "pending"
            }
        )
    }
}
