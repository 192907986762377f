//! `starpu.mpi` (builds with the `mpi` feature): StarPU-MPI over Open MPI, through the
//! starpu-mpi crate. Processes started by `mpirun` each run their own runtime; data is
//! registered on every process with a tag and an owner rank, every process inserts the
//! same tasks (`starpu.mpi.task_submit`), the owner of the data a task writes runs it and
//! the crate moves the data it reads there.
//!
//! Everything that may wait (for MPI, or for tasks) releases the GIL: the tasks it waits
//! for may be Python functions.

use crate::errors::{self, IntoPy};
use crate::handle::{self, HandleState};
use crate::options::Options;
use crate::runtime;
use crate::task::submit_through;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use starpu_core::{AccessMode, DataHandle, Error};
use starpu_mpi::{DataAccess, ExecuteOn, Mpi, StartOptions, Transfer, CURRENT_POLICY};
use std::sync::Arc;

fn mpi(py: Python<'_>) -> PyResult<Arc<Mpi>> {
    starpu_mpi::global().py(py)
}

/// The data registered for `obj` (a `starpu.Handle`, or a buffer object registered on
/// first use). Only memory moves between processes: the value of a `starpu.Handle` of
/// another Python object lives in this interpreter, so it is refused rather than
/// "sent" without its value.
fn data_of(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<Arc<HandleState>> {
    let state = handle::of_object(py, obj, true)?;
    if !state.is_buffer() {
        return Err(errors::invalid(
            py,
            "starpu.mpi moves the memory of buffer objects (numpy arrays, bytes, bytearray, \
             array.array, memoryview); this Handle holds a Python object, which has no \
             memory to send (pickle it into a bytearray)",
        ));
    }
    Ok(state)
}

/// `starpu.mpi.init` (the runtime running): starts StarPU-MPI, and MPI with it unless
/// the application started it (`initialize_mpi=False`, `MPI_THREAD_SERIALIZED` or
/// better).
#[pyfunction]
pub(crate) fn mpi_init(py: Python<'_>, initialize_mpi: bool) -> PyResult<()> {
    let rt = runtime::runtime(py)?;
    let opts = StartOptions {
        initialize_mpi,
        comm: None,
    };
    py.detach(|| starpu_mpi::init(rt, opts)).py(py).map(drop)
}

/// Waits for every communication and task, stops StarPU-MPI (and MPI if it started it).
#[pyfunction]
pub(crate) fn mpi_shutdown(py: Python<'_>) -> PyResult<()> {
    py.detach(starpu_mpi::shutdown).py(py)
}

#[pyfunction]
pub(crate) fn mpi_is_initialized() -> bool {
    starpu_mpi::is_initialized()
}

/// This process's rank in `MPI_COMM_WORLD`.
#[pyfunction]
pub(crate) fn mpi_comm_rank(py: Python<'_>) -> PyResult<i32> {
    Ok(mpi(py)?.world_rank())
}

#[pyfunction]
pub(crate) fn mpi_comm_size(py: Python<'_>) -> PyResult<i32> {
    Ok(mpi(py)?.world_size())
}

/// Gives `obj`'s data its tag and owner rank (every process registers the same data alike).
#[pyfunction]
pub(crate) fn mpi_data_register(
    py: Python<'_>,
    obj: &Bound<'_, PyAny>,
    tag: i64,
    rank: i32,
) -> PyResult<()> {
    let m = mpi(py)?;
    let state = data_of(py, obj)?;
    m.data_register(&state.data, tag, rank, m.world()).py(py)
}

#[pyfunction]
pub(crate) fn mpi_data_get_rank(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<Option<i32>> {
    Ok(mpi(py)?.data_rank(&data_of(py, obj)?.data))
}

#[pyfunction]
pub(crate) fn mpi_data_get_tag(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<Option<i64>> {
    Ok(mpi(py)?.data_tag(&data_of(py, obj)?.data))
}

/// Runs `f` on StarPU-MPI and the data of `obj`, without the GIL.
fn on_data<R: Send>(
    py: Python<'_>,
    obj: &Bound<'_, PyAny>,
    f: impl FnOnce(&Mpi, &DataHandle) -> starpu_core::Result<R> + Send,
) -> PyResult<R> {
    let m = mpi(py)?;
    let state = data_of(py, obj)?;
    py.detach(|| f(&m, &state.data)).py(py)
}

/// A point-to-point transfer of `obj`'s data with process `$peer` and tag `$tag`, as a
/// Python function `$name(obj, $peer, $tag)`: `$call` with the crate, the data and a
/// default `Transfer` as `m`, `h`, `t`.
macro_rules! p2p {
    ($(#[$doc:meta])* $name:ident($peer:ident, $tag:ident) => |$m:ident, $h:ident, $t:ident| $call:expr) => {
        $(#[$doc])*
        #[pyfunction]
        pub(crate) fn $name(py: Python<'_>, obj: &Bound<'_, PyAny>, $peer: i32, $tag: i64) -> PyResult<()> {
            on_data(py, obj, |$m, $h| {
                let $t = &Transfer::default();
                $call
            })
        }
    };
}

p2p! {
    /// Sends `obj`'s data to `dest` with `tag`; returns once the data may be changed again.
    mpi_send(dest, tag) => |m, h, t| m.send(h, dest, tag, t)
}

p2p! {
    /// Receives into `obj`'s data from `source` with `tag`, and waits for it.
    mpi_recv(source, tag) => |m, h, t| m.recv(h, source, tag, t).map(drop)
}

p2p! {
    /// Sends `obj`'s data once the tasks before it have written it, without waiting: it
    /// takes its place in the task graph as a reading task does.
    mpi_isend_detached(dest, tag) => |m, h, t| m.isend_detached(h, dest, tag, t, None)
}

p2p! {
    /// Receives into `obj`'s data without waiting: later tasks on it wait for the data.
    mpi_irecv_detached(source, tag) => |m, h, t| m.irecv_detached(h, source, tag, t, None)
}

/// Brings `obj`'s value to process `node` (every process calls it).
#[pyfunction]
pub(crate) fn mpi_get_data_on_node(
    py: Python<'_>,
    obj: &Bound<'_, PyAny>,
    node: i32,
) -> PyResult<()> {
    on_data(py, obj, |m, h| m.get_data_on_node(m.world(), h, node))
}

/// Reduces the contributions to `obj`'s data (tasks that accessed it in REDUX mode on
/// several processes) at its owner (every process calls it).
#[pyfunction]
pub(crate) fn mpi_redux_data(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<()> {
    on_data(py, obj, |m, h| m.redux_data(m.world(), h, 0))
}

#[pyfunction]
pub(crate) fn mpi_barrier(py: Python<'_>) -> PyResult<()> {
    let m = mpi(py)?;
    py.detach(|| m.barrier(m.world())).py(py)
}

/// Waits for every task and communication of this process.
#[pyfunction]
pub(crate) fn mpi_wait_for_all(py: Python<'_>) -> PyResult<()> {
    let m = mpi(py)?;
    py.detach(|| m.wait_for_all()).py(py)
}

/// What `starpu.mpi.task_submit(**options)` returns: call it with the function and its
/// arguments on every process.
#[pyclass(frozen, module = "starpu.mpi", name = "TaskSubmitter")]
pub(crate) struct MpiSubmitter {
    opts: Options,
    execute_on_node: Option<i32>,
    execute_on_data: Option<Py<PyAny>>,
    policy: i32,
}

#[pymethods]
impl MpiSubmitter {
    /// Inserts `func(*args, **kwargs)` on this process: the task's future where it runs,
    /// None on the other processes.
    #[pyo3(signature = (func, *args, **kwargs))]
    fn __call__(
        &self,
        py: Python<'_>,
        func: &Bound<'_, PyAny>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<PyAny>> {
        let m = mpi(py)?;
        let execute_on = match (&self.execute_on_node, &self.execute_on_data) {
            (Some(n), _) => Some(ExecuteOn::Node(*n)),
            (None, Some(obj)) => Some(ExecuteOn::Data(data_of(py, obj.bind(py))?.data.clone())),
            (None, None) => None,
        };
        let mut insert = |py: Python<'_>,
                          data: &[(DataHandle, AccessMode)],
                          submit: &mut dyn FnMut() -> PyResult<()>|
         -> PyResult<bool> {
            let data: Vec<_> = data.iter().map(|(h, m)| DataAccess::new(h, *m)).collect();
            let mut failed = None;
            let placed = m.task_insert(
                m.world(),
                &data,
                execute_on.as_ref(),
                self.policy,
                self.opts.priority,
                || {
                    submit().map_err(|e| {
                        failed = Some(e);
                        Error::invalid("the task could not be submitted")
                    })
                },
            );
            if let Some(e) = failed {
                return Err(e);
            }
            Ok(placed.py(py)?.do_execute)
        };
        submit_through(py, &self.opts, func, args, kwargs, &mut insert)
    }
}

/// Options `starpu.mpi.task_submit` takes besides `starpu.task_submit`'s.
const MPI_OPTIONS: &[&str] = &[
    "execute_on_node",
    "execute_on_data",
    "node_selection_policy",
];

/// `starpu.mpi.task_submit(**options)`: `starpu.task_submit`'s options (but `ret_handle`
/// and `ret_param`) and `execute_on_node=rank`, `execute_on_data=obj`,
/// `node_selection_policy=n`.
#[pyfunction]
#[pyo3(signature = (**options))]
pub(crate) fn mpi_task_submit(
    py: Python<'_>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<MpiSubmitter> {
    let rest = PyDict::new(py);
    let mut s = MpiSubmitter {
        opts: Options::default(),
        execute_on_node: None,
        execute_on_data: None,
        policy: CURRENT_POLICY,
    };
    for (k, v) in options.into_iter().flat_map(|o| o.iter()) {
        match k.extract::<String>()?.as_str() {
            "execute_on_node" => s.execute_on_node = v.extract()?,
            "execute_on_data" => s.execute_on_data = (!v.is_none()).then(|| v.unbind()),
            "node_selection_policy" => {
                s.policy = v.extract::<Option<i32>>()?.unwrap_or(CURRENT_POLICY)
            }
            _ => rest.set_item(k, v)?,
        }
    }
    s.opts = Options::parse("starpu.mpi.task_submit", Some(&rest), MPI_OPTIONS)?;
    if s.opts.ret_handle || s.opts.ret_param {
        return Err(errors::invalid(
            py,
            "starpu.mpi.task_submit: ret_handle and ret_param are not supported (the result \
             would exist on one process only): give the task a registered array to write",
        ));
    }
    Ok(s)
}

/// Adds `starpu.mpi`'s functions to the extension module (as `mpi_*`; `starpu/mpi.py`
/// names them as StarPU does).
pub(crate) fn add_to(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<MpiSubmitter>()?;
    m.add_function(wrap_pyfunction!(mpi_init, m)?)?;
    m.add_function(wrap_pyfunction!(mpi_shutdown, m)?)?;
    m.add_function(wrap_pyfunction!(mpi_is_initialized, m)?)?;
    m.add_function(wrap_pyfunction!(mpi_comm_rank, m)?)?;
    m.add_function(wrap_pyfunction!(mpi_comm_size, m)?)?;
    m.add_function(wrap_pyfunction!(mpi_data_register, m)?)?;
    m.add_function(wrap_pyfunction!(mpi_data_get_rank, m)?)?;
    m.add_function(wrap_pyfunction!(mpi_data_get_tag, m)?)?;
    m.add_function(wrap_pyfunction!(mpi_send, m)?)?;
    m.add_function(wrap_pyfunction!(mpi_recv, m)?)?;
    m.add_function(wrap_pyfunction!(mpi_isend_detached, m)?)?;
    m.add_function(wrap_pyfunction!(mpi_irecv_detached, m)?)?;
    m.add_function(wrap_pyfunction!(mpi_get_data_on_node, m)?)?;
    m.add_function(wrap_pyfunction!(mpi_redux_data, m)?)?;
    m.add_function(wrap_pyfunction!(mpi_barrier, m)?)?;
    m.add_function(wrap_pyfunction!(mpi_wait_for_all, m)?)?;
    m.add_function(wrap_pyfunction!(mpi_task_submit, m)?)?;
    Ok(())
}
