//! `starpu.Future`: the result of a task, usable from plain code (`fut.result()`, which
//! waits with the GIL released) and from asyncio (`await fut`).
//!
//! A task's kernel completes its future while it holds the GIL anyway (it has just run the
//! Python function): the value is stored, threads blocked in `result()` are woken through
//! a condition variable, and coroutines awaiting it through their event loop
//! (`call_soon_threadsafe`). A task that ends without running its kernel (it failed
//! before, or kernels are disabled) completes it from its end-of-task hook instead.

use crate::errors;
use pyo3::exceptions::{PyStopIteration, PyTimeoutError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use starpu_core::TaskRef;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How a task ended, as its future reports it.
pub(crate) enum Outcome {
    /// The function's return value.
    Value(Py<PyAny>),
    /// The task ended without a value (no kernel ran, or a native kernel): `None`.
    Nothing,
    /// The Python exception the function raised (its traceback included).
    Raised(PyErr),
    /// The runtime failed the task (e.g. a native kernel or a dependency failed).
    Failed(starpu_core::Error),
}

impl Outcome {
    pub(crate) fn to_py(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        match self {
            Outcome::Value(v) => Ok(v.clone_ref(py)),
            Outcome::Nothing => Ok(py.None()),
            Outcome::Raised(e) => Err(e.clone_ref(py)),
            Outcome::Failed(e) => Err(errors::to_py(py, e)),
        }
    }
}

#[derive(Default)]
struct Inner {
    outcome: Option<Outcome>,
    /// The task that will produce the outcome, until it has ended: a later task given this
    /// future as an argument depends on it.
    task: Option<TaskRef>,
    /// Threads blocked in `result()`.
    sleepers: usize,
    /// Coroutines awaiting: (event loop, asyncio future to complete).
    wakers: Vec<(Py<PyAny>, Py<PyAny>)>,
    /// `add_done_callback` functions.
    callbacks: Vec<Py<PyAny>>,
}

/// The shared state of a future, held by the Python object and by the task.
#[derive(Default)]
pub(crate) struct FutState {
    done: AtomicBool,
    inner: Mutex<Inner>,
    cond: Condvar,
}

fn lock(m: &Mutex<Inner>) -> MutexGuard<'_, Inner> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Python helpers the futures call (`starpu._support`).
fn support<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
    static MODULE: PyOnceLock<Py<PyModule>> = PyOnceLock::new();
    let m = MODULE.get_or_try_init(py, || -> PyResult<_> {
        Ok(py.import("starpu._support")?.unbind())
    })?;
    m.bind(py).getattr(name)
}

impl FutState {
    pub(crate) fn new(task: Option<TaskRef>) -> Arc<FutState> {
        Arc::new(FutState {
            done: AtomicBool::new(false),
            inner: Mutex::new(Inner {
                task,
                ..Inner::default()
            }),
            cond: Condvar::new(),
        })
    }

    pub(crate) fn is_done(&self) -> bool {
        self.done.load(Ordering::Acquire)
    }

    /// The task producing the outcome, while it has not ended.
    pub(crate) fn pending_task(&self) -> Option<TaskRef> {
        if self.is_done() {
            return None;
        }
        lock(&self.inner).task.clone()
    }

    /// Forgets the task (it has ended; nothing can depend on it any more).
    pub(crate) fn task_ended(&self) {
        lock(&self.inner).task = None;
    }

    /// Sets the outcome (the first one wins) and wakes everyone waiting. Needs the GIL only
    /// when coroutines or callbacks wait; `py` is `None` when the caller does not hold it,
    /// and they are then woken from a short GIL section taken here.
    pub(crate) fn complete(self: &Arc<Self>, py: Option<Python<'_>>, outcome: Outcome) {
        let (wakers, callbacks) = {
            let mut g = lock(&self.inner);
            if g.outcome.is_some() {
                return;
            }
            g.outcome = Some(outcome);
            self.done.store(true, Ordering::Release);
            if g.sleepers > 0 {
                self.cond.notify_all();
            }
            (
                std::mem::take(&mut g.wakers),
                std::mem::take(&mut g.callbacks),
            )
        };
        if wakers.is_empty() && callbacks.is_empty() {
            return;
        }
        let run = |py: Python<'_>| self.notify(py, wakers, callbacks);
        match py {
            Some(py) => run(py),
            None => {
                crate::gil::try_attach(run);
            }
        }
    }

    fn notify(
        self: &Arc<Self>,
        py: Python<'_>,
        wakers: Vec<(Py<PyAny>, Py<PyAny>)>,
        callbacks: Vec<Py<PyAny>>,
    ) {
        for (event_loop, afut) in wakers {
            let woken = support(py, "wake").and_then(|wake| {
                event_loop
                    .bind(py)
                    .call_method1("call_soon_threadsafe", (wake, afut))
            });
            // The loop may be closed already: nobody awaits then.
            if let Err(e) = woken {
                if !e.is_instance_of::<pyo3::exceptions::PyRuntimeError>(py) {
                    e.print(py);
                }
            }
        }
        if !callbacks.is_empty() {
            let fut = Future {
                state: self.clone(),
            };
            if let Ok(fut) = Py::new(py, fut) {
                for cb in callbacks {
                    if let Err(e) = cb.bind(py).call1((fut.clone_ref(py),)) {
                        e.print(py);
                    }
                }
            }
        }
    }

    /// The outcome as a Python value or exception (the future must be done).
    pub(crate) fn outcome(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let g = lock(&self.inner);
        match &g.outcome {
            Some(o) => o.to_py(py),
            None => Err(errors::invalid(py, "the future has no result yet")),
        }
    }

    /// Blocks (without the GIL) until done or `deadline`; true if done.
    fn wait(&self, deadline: Option<Instant>) -> bool {
        let mut g = lock(&self.inner);
        g.sleepers += 1;
        while g.outcome.is_none() {
            let slice = Duration::from_millis(100);
            let timeout = match deadline {
                Some(d) => {
                    let now = Instant::now();
                    if now >= d {
                        break;
                    }
                    (d - now).min(slice)
                }
                None => slice,
            };
            g = self
                .cond
                .wait_timeout(g, timeout)
                .unwrap_or_else(|e| e.into_inner())
                .0;
            if deadline.is_none() && g.outcome.is_none() {
                // Returns to the caller every slice so that it can check for signals.
                break;
            }
        }
        g.sleepers -= 1;
        g.outcome.is_some()
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
}

#[pymethods]
impl Future {
    /// Waits for the task and returns its value (re-raises its exception). `timeout` in
    /// seconds; `TimeoutError` when it runs out.
    #[pyo3(signature = (timeout=None))]
    fn result(&self, py: Python<'_>, timeout: Option<f64>) -> PyResult<Py<PyAny>> {
        self.wait_done(py, timeout)?;
        self.state.outcome(py)
    }

    /// The task's exception (None if it returned a value), after waiting like `result`.
    #[pyo3(signature = (timeout=None))]
    fn exception(&self, py: Python<'_>, timeout: Option<f64>) -> PyResult<Option<Py<PyAny>>> {
        self.wait_done(py, timeout)?;
        match self.state.outcome(py) {
            Ok(_) => Ok(None),
            Err(e) => Ok(Some(e.value(py).clone().into_any().unbind())),
        }
    }

    /// Whether the task has produced its result.
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

    /// Calls `fn(future)` once the task has its result (at once if it has it already), on
    /// the thread that completes the future.
    fn add_done_callback(slf: &Bound<'_, Self>, callback: Py<PyAny>) -> PyResult<()> {
        let py = slf.py();
        {
            let mut g = lock(&slf.get().state.inner);
            if g.outcome.is_none() {
                g.callbacks.push(callback);
                return Ok(());
            }
        }
        callback.bind(py).call1((slf.clone(),))?;
        Ok(())
    }

    fn __await__(slf: Py<Self>) -> Awaiting {
        Awaiting {
            future: slf,
            waiting: std::sync::atomic::AtomicBool::new(false),
        }
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

impl Future {
    fn wait_done(&self, py: Python<'_>, timeout: Option<f64>) -> PyResult<()> {
        if self.state.is_done() {
            return Ok(());
        }
        if !starpu_core::worker::may_block() {
            return Err(errors::deadlock(
                py,
                "Future.result: waiting for a task from a task or a callback could wait \
                 for itself; pass the future to the task instead",
            ));
        }
        let deadline = match timeout {
            Some(t) if t < 0.0 => Some(Instant::now()),
            Some(t) => Some(Instant::now() + Duration::from_secs_f64(t)),
            None => None,
        };
        loop {
            let state = &self.state;
            if py.detach(|| state.wait(deadline)) {
                return Ok(());
            }
            if deadline.is_some_and(|d| Instant::now() >= d) {
                return Err(PyTimeoutError::new_err("the task did not end in time"));
            }
            // Ctrl-C while waiting raises KeyboardInterrupt here.
            py.check_signals()?;
        }
    }
}

/// The iterator `await fut` drives: first yields an asyncio future that the task completes
/// through the event loop, then returns the value.
#[pyclass(module = "starpu")]
pub(crate) struct Awaiting {
    future: Py<Future>,
    waiting: std::sync::atomic::AtomicBool,
}

#[pymethods]
impl Awaiting {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let state = &self.future.get().state;
        if !state.is_done() && !self.waiting.swap(true, Ordering::AcqRel) {
            let event_loop = support(py, "running_loop")?.call0()?;
            let afut = event_loop.call_method0("create_future")?;
            {
                let mut g = lock(&state.inner);
                if g.outcome.is_none() {
                    g.wakers
                        .push((event_loop.clone().unbind(), afut.clone().unbind()));
                    drop(g);
                    // What asyncio's Task expects of the futures a coroutine yields.
                    afut.setattr("_asyncio_future_blocking", true)?;
                    return Ok(afut.unbind());
                }
            }
        }
        if !state.is_done() {
            // Resumed before the task ended (the asyncio future was cancelled): wait here.
            self.future.get().wait_done(py, None)?;
        }
        let value = state.outcome(py)?;
        Err(PyStopIteration::new_err((value,)))
    }

    /// Coroutines resume iterators with `send(None)`.
    fn send(&self, py: Python<'_>, _value: Py<PyAny>) -> PyResult<Py<PyAny>> {
        self.__next__(py)
    }
}
