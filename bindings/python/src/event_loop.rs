//! asyncio: tasks' ends reach the event loop in batches.
//!
//! Each event loop gets one `LoopBridge`: a core `CompletionQueue` of the done callbacks
//! asyncio added to starpu futures from that loop (`asyncio.gather`'s, an awaiting Task's
//! wake-up), and a socket pair whose read end the loop watches (`loop.add_reader`). A
//! task's end pushes its callbacks into the queue on the worker, without the GIL; only the
//! first end of a batch writes a byte to wake the loop. The loop then reads the byte and
//! runs every callback of the batch in one go, so ten thousand tasks ending while the loop
//! is busy cost a handful of wake-ups, not ten thousand `call_soon_threadsafe`.

use crate::future::{DoneCallback, Future};
use pyo3::exceptions::PyStopIteration;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyCFunction;
use starpu_core::task::CompletionQueue;
use starpu_core::TaskRef;
use std::io::{Read, Write};
use std::os::fd::AsRawFd;
use std::os::unix::net::UnixStream;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// The completions of one event loop.
#[pyclass(frozen, module = "starpu")]
pub(crate) struct LoopBridge {
    queue: Arc<CompletionQueue<DoneCallback>>,
    reader: UnixStream,
    /// How many times the loop woke up to drain (for tests: batches, not tasks).
    wakeups: AtomicUsize,
}

impl LoopBridge {
    fn new(event_loop: &Bound<'_, PyAny>) -> PyResult<Py<LoopBridge>> {
        let py = event_loop.py();
        let (reader, writer) = UnixStream::pair()?;
        reader.set_nonblocking(true)?;
        writer.set_nonblocking(true)?;
        let queue = CompletionQueue::new(move || {
            // A full socket already holds a wake-up; a closed loop has nobody to wake.
            let _ = (&writer).write(&[1]);
        });
        let fd = reader.as_raw_fd();
        let bridge = Py::new(
            py,
            LoopBridge {
                queue,
                reader,
                wakeups: AtomicUsize::new(0),
            },
        )?;
        let b = bridge.clone_ref(py);
        let drain = PyCFunction::new_closure(py, None, None, move |args, _| {
            b.get().drain(args.py());
        })?;
        event_loop.call_method1("add_reader", (fd, drain))?;
        Ok(bridge)
    }

    /// Runs `call` in the loop once `task` has ended (soon, if it has already).
    pub(crate) fn watch(&self, task: &TaskRef, call: DoneCallback) {
        self.queue.watch(task, call);
    }

    /// Runs the callbacks of every task ended since the last drain (loop's thread).
    fn drain(&self, py: Python<'_>) {
        self.wakeups.fetch_add(1, Ordering::Relaxed);
        // The byte first, then the queue: an end after this read writes a new byte.
        let mut bytes = [0u8; 64];
        while matches!((&self.reader).read(&mut bytes), Ok(n) if n > 0) {}
        for call in self.queue.drain() {
            call.run(py);
        }
    }
}

/// The bridges, by event loop, in a `WeakKeyDictionary`: a closed and collected loop
/// takes its bridge along.
fn bridges(py: Python<'_>) -> PyResult<&Bound<'_, PyAny>> {
    static BRIDGES: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    Ok(BRIDGES
        .get_or_try_init(py, || -> PyResult<_> {
            Ok(py
                .import("weakref")?
                .call_method0("WeakKeyDictionary")?
                .unbind())
        })?
        .bind(py))
}

/// The bridge found last, with a weak reference to its loop: the common case (one loop)
/// skips the dictionary.
static LAST: Mutex<Option<(Py<PyAny>, Py<LoopBridge>)>> = Mutex::new(None);

fn lookup<'py>(event_loop: &Bound<'py, PyAny>) -> PyResult<Option<Bound<'py, LoopBridge>>> {
    let py = event_loop.py();
    // Python code runs only without the lock: during it another thread may take the GIL
    // and then wait for this lock.
    let last = LAST
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .as_ref()
        .map(|(weak, bridge)| (weak.clone_ref(py), bridge.clone_ref(py)));
    if let Some((weak, bridge)) = last {
        if weak.bind(py).call0()?.is(event_loop) {
            return Ok(Some(bridge.into_bound(py)));
        }
    }
    let found = bridges(py)?.call_method1("get", (event_loop,))?;
    let Ok(bridge) = found.cast_into::<LoopBridge>() else {
        return Ok(None);
    };
    let weak = py.import("weakref")?.getattr("ref")?.call1((event_loop,))?;
    let old = LAST
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .replace((weak.unbind(), bridge.clone().unbind()));
    drop(old);
    Ok(Some(bridge))
}

/// The bridge of `event_loop`, made on first use.
pub(crate) fn bridge_of<'py>(event_loop: &Bound<'py, PyAny>) -> PyResult<Bound<'py, LoopBridge>> {
    if let Some(b) = lookup(event_loop)? {
        return Ok(b);
    }
    let py = event_loop.py();
    let b = LoopBridge::new(event_loop)?.into_bound(py);
    bridges(py)?.set_item(event_loop, &b)?;
    Ok(b)
}

/// How many times `event_loop` woke up to run starpu futures' callbacks (None before any
/// was added from it): `starpu._core._loop_wakeups(loop)`, for tests.
#[pyfunction]
pub(crate) fn _loop_wakeups(event_loop: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
    Ok(lookup(event_loop)?.map(|b| b.get().wakeups.load(Ordering::Relaxed)))
}

/// The event loop running in this thread, if any (`asyncio._get_running_loop`).
pub(crate) fn running_loop(py: Python<'_>) -> PyResult<Option<Bound<'_, PyAny>>> {
    static GET: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let lp = GET
        .get_or_try_init(py, || -> PyResult<_> {
            Ok(py
                .import("asyncio.events")?
                .getattr("_get_running_loop")?
                .unbind())
        })?
        .bind(py)
        .call0()?;
    Ok((!lp.is_none()).then_some(lp))
}

/// The iterator `await fut` drives, as asyncio's own futures do: yields the future itself
/// while its task runs (the awaiting Task adds its wake-up as a done callback), then
/// returns the value (or raises the exception).
#[pyclass(module = "starpu")]
pub(crate) struct Awaiting {
    future: Py<Future>,
    yielded: AtomicBool,
}

impl Awaiting {
    pub(crate) fn new(future: Py<Future>) -> Awaiting {
        Awaiting {
            future,
            yielded: AtomicBool::new(false),
        }
    }
}

#[pymethods]
impl Awaiting {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let fut = self.future.get();
        if !fut.state.is_done() && !self.yielded.swap(true, Ordering::AcqRel) {
            fut.set_blocking(true);
            return Ok(self.future.clone_ref(py).into_any());
        }
        // Resumed before the task ended (the awaiting Task was cancelled): wait here.
        fut.state.wait(py, None)?;
        let value = fut.state.outcome(py)?;
        Err(PyStopIteration::new_err((value,)))
    }

    /// Coroutines resume iterators with `send(None)`.
    fn send(&self, py: Python<'_>, _value: Py<PyAny>) -> PyResult<Py<PyAny>> {
        self.__next__(py)
    }
}
