//! Data handles for Python objects: `starpu.Handle`, the registry of the objects the face
//! registered, and the module-level `acquire` / `release` / `unregister` on objects.
//!
//! Two kinds of content:
//! - buffer objects (numpy arrays, bytes, bytearray, array.array, memoryview) are
//!   registered zero-copy: the handle describes the object's own memory (see `layout`),
//!   tasks receive the object itself and change the caller's memory;
//! - any other object is held by the handle as a Python value (StarPU's "pyobject"
//!   interface): tasks read it, a task's return value may be written into it
//!   (`ret_handle`, `ret_param`). The runtime orders those accesses through a data handle
//!   without content.
//!
//! A mutable object is registered once (StarPU refuses a second registration of the same
//! object); immutable values (int, str, tuple...) may be registered any number of times.

use crate::errors::{self, IntoPy};
use crate::layout::{self, Layout};
use crate::modes;
use crate::runtime;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyByteArray, PyBytes, PyMemoryView, PySlice, PyTuple, PyType};
use starpu_core::data::AcquireNode;
use starpu_core::memory::MAIN_RAM;
use starpu_core::{AccessMode, DataHandle, Runtime};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, Weak};

/// What a `starpu.Handle` manages.
pub(crate) enum Content {
    /// A buffer object registered zero-copy, and how its memory is laid out.
    Buffer { obj: Py<PyAny>, layout: Layout },
    /// A Python value (or the exception of the task that was to produce it).
    Object { slot: Mutex<Slot> },
}

pub(crate) enum Slot {
    Value(Py<PyAny>),
    /// The exception of the task that was to write it.
    Raised(PyErr),
    /// The runtime failed that task before its function ran.
    Failed(starpu_core::Error),
}

/// A registered Python object.
pub(crate) struct HandleState {
    pub(crate) data: DataHandle,
    pub(crate) content: Content,
    /// `id(obj)` in the registry of mutable objects.
    key: Option<usize>,
    /// A `HandleNumpy`: its content is meant to be written, so tasks must say how.
    pub(crate) needs_mode: bool,
    retval: bool,
    /// Children made by `partition`, while it holds.
    children: Mutex<Vec<Py<Handle>>>,
    /// Acquisitions of a partitioned handle, made through its children (see `acquire`).
    through_children: Mutex<usize>,
    /// A child of a partition (owned by its parent's partition, not by the registry).
    child: bool,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Mutable objects registered, by `id(obj)`.
static REGISTRY: Mutex<Option<HashMap<usize, Arc<HandleState>>>> = Mutex::new(None);
/// Every handle the face registered, for `shutdown` to unregister what is left.
static LIVE: Mutex<Vec<Weak<HandleState>>> = Mutex::new(Vec::new());

fn registry_get(key: usize) -> Option<Arc<HandleState>> {
    lock(&REGISTRY).as_ref()?.get(&key).cloned()
}

fn track(state: &Arc<HandleState>) {
    let mut live = lock(&LIVE);
    // Drop the entries of handles gone, once in a while, so that the list stays small.
    if live.len() >= 64 && live.len().is_power_of_two() {
        live.retain(|w| w.strong_count() > 0);
    }
    live.push(Arc::downgrade(state));
}

/// The buffer types StarPU registers zero-copy: exact builtins, and numpy arrays and
/// `array.array` (and their subclasses) once their modules are imported.
pub(crate) fn is_buffer_object(obj: &Bound<'_, PyAny>) -> bool {
    obj.is_exact_instance_of::<PyBytes>()
        || obj.is_exact_instance_of::<PyByteArray>()
        || obj.is_exact_instance_of::<PyMemoryView>()
        || is_ndarray(obj)
        || is_instance_of_cached(obj, &ARRAY_TYPE, "array", "array")
}

static NDARRAY_TYPE: PyOnceLock<Option<Py<PyType>>> = PyOnceLock::new();
static ARRAY_TYPE: PyOnceLock<Option<Py<PyType>>> = PyOnceLock::new();

pub(crate) fn is_ndarray(obj: &Bound<'_, PyAny>) -> bool {
    is_instance_of_cached(obj, &NDARRAY_TYPE, "numpy", "ndarray")
}

/// `isinstance(obj, module.name)`, without importing `module` when it is not imported
/// (then nothing can be an instance of it yet).
fn is_instance_of_cached(
    obj: &Bound<'_, PyAny>,
    cache: &PyOnceLock<Option<Py<PyType>>>,
    module: &str,
    name: &str,
) -> bool {
    let py = obj.py();
    let ty = match cache.get(py) {
        Some(t) => t,
        None => {
            let imported = py
                .import("sys")
                .and_then(|sys| sys.getattr("modules"))
                .and_then(|m| m.get_item(module))
                .ok();
            let Some(m) = imported else {
                return false;
            };
            let ty = m
                .getattr(name)
                .ok()
                .and_then(|t| t.cast_into::<PyType>().ok());
            cache.get_or_init(py, || ty.map(Bound::unbind))
        }
    };
    ty.as_ref()
        .is_some_and(|t| obj.is_instance(t.bind(py)).unwrap_or(false))
}

/// Values that are the same whatever refers to them: StarPU lets them be registered
/// several times.
fn is_immutable(obj: &Bound<'_, PyAny>) -> bool {
    use pyo3::types::{PyBool, PyComplex, PyFloat, PyInt, PyRange, PyString};
    obj.is_none()
        || obj.is_exact_instance_of::<PyInt>()
        || obj.is_exact_instance_of::<PyFloat>()
        || obj.is_exact_instance_of::<PyString>()
        || obj.is_exact_instance_of::<PyBool>()
        || obj.is_exact_instance_of::<PyTuple>()
        || obj.is_exact_instance_of::<PyRange>()
        || obj.is_exact_instance_of::<PyComplex>()
        || obj
            .get_type()
            .fully_qualified_name()
            .is_ok_and(|n| n.to_string_lossy() == "decimal.Decimal")
}

/// Keeps a buffer exported (a memoryview of it) while its handle exists: the memory stays
/// valid and a bytearray cannot be resized under a task. Dropped without the GIL, the
/// reference is released the next time the GIL is taken.
struct Pin(#[allow(dead_code)] Py<PyAny>);

impl HandleState {
    /// Registers `obj` as new data.
    fn register(
        py: Python<'_>,
        rt: &Runtime,
        obj: &Bound<'_, PyAny>,
        retval: bool,
        needs_mode: bool,
    ) -> PyResult<Arc<HandleState>> {
        let (data, content) = if is_buffer_object(obj) {
            let layout = layout::describe(obj)?;
            let pin = PyMemoryView::from(obj)?.into_any().unbind();
            let data = layout.register(rt, Box::new(Pin(pin))).py(py)?;
            (
                data,
                Content::Buffer {
                    obj: obj.clone().unbind(),
                    layout,
                },
            )
        } else {
            let data = rt.register_void().py(py)?;
            (
                data,
                Content::Object {
                    slot: Mutex::new(Slot::Value(obj.clone().unbind())),
                },
            )
        };
        let key = (!is_immutable(obj)).then(|| obj.as_ptr() as usize);
        let state = Arc::new(HandleState {
            data,
            content,
            key,
            needs_mode,
            retval,
            children: Mutex::new(Vec::new()),
            through_children: Mutex::new(0),
            child: false,
        });
        track(&state);
        Ok(state)
    }

    /// A fresh value handle for a task's return value (`ret_handle`).
    pub(crate) fn for_result(py: Python<'_>, rt: &Runtime) -> PyResult<Arc<HandleState>> {
        let data = rt.register_void().py(py)?;
        let state = Arc::new(HandleState {
            data,
            content: Content::Object {
                slot: Mutex::new(Slot::Value(py.None())),
            },
            key: None,
            needs_mode: false,
            retval: true,
            children: Mutex::new(Vec::new()),
            through_children: Mutex::new(0),
            child: false,
        });
        track(&state);
        Ok(state)
    }

    pub(crate) fn is_buffer(&self) -> bool {
        matches!(self.content, Content::Buffer { .. })
    }

    pub(crate) fn layout(&self) -> Option<&Layout> {
        match &self.content {
            Content::Buffer { layout, .. } => Some(layout),
            Content::Object { .. } => None,
        }
    }

    /// The object a task (or the application, once it acquired the data) works on: the
    /// registered buffer object itself, or the value held.
    pub(crate) fn object(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        match &self.content {
            Content::Buffer { obj, .. } => Ok(obj.clone_ref(py)),
            Content::Object { slot } => match &*lock(slot) {
                Slot::Value(v) => Ok(v.clone_ref(py)),
                Slot::Raised(e) => Err(e.clone_ref(py)),
                Slot::Failed(e) => Err(errors::to_py(py, e)),
            },
        }
    }

    /// Stores a task's result (value or exception) in a value handle.
    pub(crate) fn store(&self, value: Slot) {
        if let Content::Object { slot } = &self.content {
            *lock(slot) = value;
        }
    }

    /// Refuses writing modes on read-only memory (bytes, read-only arrays).
    pub(crate) fn check_mode(&self, py: Python<'_>, mode: AccessMode) -> PyResult<()> {
        if let Content::Buffer { layout, .. } = &self.content {
            if layout.readonly && mode.writes() {
                return Err(errors::invalid(
                    py,
                    format!(
                        "this buffer is read-only: it cannot be accessed in mode {mode:?} \
                         (use R, or a writable copy such as a bytearray or a numpy array)"
                    ),
                ));
            }
        }
        Ok(())
    }

    fn forget(&self) {
        if let Some(key) = self.key {
            // Only this state's own entry: the same id may now be another object's.
            let mut reg = lock(&REGISTRY);
            if let Some(map) = reg.as_mut() {
                if map.get(&key).is_some_and(|s| std::ptr::eq(&**s, self)) {
                    let gone = map.remove(&key);
                    drop(reg);
                    drop(gone);
                }
            }
        }
    }

    fn acquire(&self, py: Python<'_>, mode: AccessMode) -> PyResult<Py<PyAny>> {
        self.check_mode(py, mode)?;
        let rt = runtime::runtime(py)?;
        let data = &self.data;
        if data.is_partitioned() {
            return self.acquire_through_children(py, &rt, mode);
        }
        py.detach(|| rt.acquire(data, AcquireNode::Node(MAIN_RAM), mode))
            .py(py)?;
        self.object(py)
    }

    /// StarPU's Python module partitions with partition plans, which leave the parent
    /// usable: acquiring it waits for the children's tasks. The core's partitioning is
    /// synchronous (the parent is unusable while partitioned), so the face acquires every
    /// child instead: the children are views of the parent's memory, which is then up to
    /// date, and tasks on the children wait for the release.
    // CORE-NEEDED: asynchronous partition plans (starpu_data_partition_plan / _submit /
    // unpartition_submit) with a parent that stays usable.
    fn acquire_through_children(
        &self,
        py: Python<'_>,
        rt: &Arc<Runtime>,
        mode: AccessMode,
    ) -> PyResult<Py<PyAny>> {
        let kids: Vec<Arc<HandleState>> = lock(&self.children)
            .iter()
            .map(|k| k.get().state.clone())
            .collect();
        for (i, k) in kids.iter().enumerate() {
            let r = py.detach(|| rt.acquire(&k.data, AcquireNode::Node(MAIN_RAM), mode));
            if let Err(e) = r {
                for done in &kids[..i] {
                    let _ = rt.release(&done.data);
                }
                return Err(errors::to_py(py, &e));
            }
        }
        *lock(&self.through_children) += 1;
        self.object(py)
    }

    fn release(&self, py: Python<'_>) -> PyResult<()> {
        let rt = runtime::runtime(py)?;
        let data = &self.data;
        {
            let mut through = lock(&self.through_children);
            if *through > 0 && data.is_partitioned() {
                *through -= 1;
                drop(through);
                let kids: Vec<Arc<HandleState>> = lock(&self.children)
                    .iter()
                    .map(|k| k.get().state.clone())
                    .collect();
                for k in &kids {
                    py.detach(|| rt.release(&k.data)).py(py)?;
                }
                return Ok(());
            }
        }
        py.detach(|| rt.release(data)).py(py)
    }

    fn unregister(&self, py: Python<'_>, coherent: bool) -> PyResult<()> {
        let rt = runtime::runtime(py)?;
        let data = &self.data;
        py.detach(|| rt.unregister(data, coherent)).py(py)?;
        self.forget();
        Ok(())
    }

    fn unregister_submit(&self, py: Python<'_>) -> PyResult<()> {
        let rt = runtime::runtime(py)?;
        rt.unregister_submit(&self.data).py(py)?;
        self.forget();
        Ok(())
    }
}

/// The handle of `obj`: the one it was registered with, or (when `register`) a new one.
pub(crate) fn of_object(
    py: Python<'_>,
    obj: &Bound<'_, PyAny>,
    register: bool,
) -> PyResult<Arc<HandleState>> {
    if let Ok(h) = obj.cast::<Handle>() {
        return Ok(h.get().state.clone());
    }
    let key = obj.as_ptr() as usize;
    if let Some(state) = registry_get(key) {
        return Ok(state);
    }
    if !register {
        return Err(errors::invalid(
            py,
            "Argument does not have registered handle (register it with starpu.Handle, or \
             pass it to a task or to starpu.acquire first)",
        ));
    }
    let rt = runtime::runtime(py)?;
    let state = HandleState::register(py, &rt, obj, false, false)?;
    if state.key.is_some() {
        lock(&REGISTRY)
            .get_or_insert_with(HashMap::new)
            .insert(key, state.clone());
    }
    Ok(state)
}

/// Unregisters everything the face registered and the application left registered, at
/// the last `shutdown`: writes buffers back and releases the Python objects.
pub(crate) fn unregister_all(py: Python<'_>, rt: &Arc<Runtime>) {
    let live: Vec<Arc<HandleState>> = std::mem::take(&mut *lock(&LIVE))
        .into_iter()
        .filter_map(|w| w.upgrade())
        .collect();
    py.detach(|| {
        for h in live.iter().filter(|h| h.data.is_partitioned()) {
            let _ = rt.unpartition(&h.data, MAIN_RAM);
        }
        for h in live.iter().filter(|h| !h.child && h.data.is_registered()) {
            while h.data.is_acquired() {
                rt.warn(&format!(
                    "shutdown: data {} is still acquired: released",
                    h.data.label()
                ));
                if rt.release(&h.data).is_err() {
                    break;
                }
            }
            if let Err(e) = rt.unregister(&h.data, true) {
                rt.warn(&format!("shutdown: {}", e.message));
            }
        }
    });
    let registry = lock(&REGISTRY).take();
    drop(registry);
    for h in &live {
        lock(&h.children).clear();
    }
    drop(live);
}

/// A mode given as a string, or an error naming the valid ones.
fn acquisition_mode(mode: &str) -> PyResult<AccessMode> {
    modes::parse_plain(mode)
}

/// `starpu.Handle(obj, retval=False)`: registers `obj` with the runtime.
///
/// A buffer object (numpy array, bytes, bytearray, array.array, memoryview) is registered
/// zero-copy: tasks receive the object itself and work on its memory. Any other object is
/// held as a value that tasks read (and that `ret_param` tasks write). Registering the
/// same mutable object twice raises `starpu.error`.
#[pyclass(subclass, frozen, module = "starpu", name = "Handle")]
pub(crate) struct Handle {
    pub(crate) state: Arc<HandleState>,
}

impl Handle {
    fn wrap(state: Arc<HandleState>) -> Handle {
        Handle { state }
    }
}

#[pymethods]
impl Handle {
    #[new]
    #[pyo3(signature = (obj, retval=false, *, _needs_mode=false))]
    fn new(
        py: Python<'_>,
        obj: &Bound<'_, PyAny>,
        retval: bool,
        _needs_mode: bool,
    ) -> PyResult<Self> {
        let key = obj.as_ptr() as usize;
        if !is_immutable(obj) && registry_get(key).is_some() {
            return Err(errors::invalid(
                py,
                "Should not register the same mutable python object once more.",
            ));
        }
        let rt = runtime::runtime(py)?;
        let state = HandleState::register(py, &rt, obj, retval, _needs_mode)?;
        if state.key.is_some() {
            lock(&REGISTRY)
                .get_or_insert_with(HashMap::new)
                .insert(key, state.clone());
        }
        Ok(Handle::wrap(state))
    }

    /// The object's current value: waits for the tasks writing it, as `acquire("R")`
    /// followed by `release()`. For a task's result handle, re-raises the task's exception.
    fn get(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let value = self.state.acquire(py, AccessMode::R);
        self.state.release(py)?;
        value
    }

    /// Waits until the application may use the data in `mode` ("R", "W" or "RW") and
    /// returns the object; tasks using it wait until `release()`.
    #[pyo3(signature = (mode="R"))]
    fn acquire(&self, py: Python<'_>, mode: &str) -> PyResult<Py<PyAny>> {
        let mode = acquisition_mode(mode)?;
        self.state.acquire(py, mode)
    }

    /// Ends the latest `acquire`.
    fn release(&self, py: Python<'_>) -> PyResult<()> {
        self.state.release(py)
    }

    /// Waits for the tasks using the data and unregisters it (the object keeps its latest
    /// value). The handle cannot be used afterwards.
    fn unregister(&self, py: Python<'_>) -> PyResult<()> {
        self.state.unregister(py, true)
    }

    /// Unregisters the data once the tasks submitted so far are done, without waiting.
    fn unregister_submit(&self, py: Python<'_>) -> PyResult<()> {
        self.state.unregister_submit(py)
    }

    /// Unregisters without bringing the latest value back to the object
    /// (`starpu_data_unregister_no_coherency`).
    fn unregister_no_coherency(&self, py: Python<'_>) -> PyResult<()> {
        self.state.unregister(py, false)
    }

    /// Forgets the data's value on every memory node (`starpu_data_invalidate`), once the
    /// tasks using it are done.
    fn invalidate(&self, py: Python<'_>) -> PyResult<()> {
        let rt = runtime::runtime(py)?;
        let data = &self.state.data;
        py.detach(|| rt.invalidate(data)).py(py)
    }

    /// Whether tasks using this data are ordered by their submission order (default True;
    /// `starpu_data_set_sequential_consistency_flag`).
    fn set_sequential_consistency(&self, flag: bool) {
        self.state.data.set_sequential_consistency(flag);
    }

    /// Splits a numpy array into `nchildren` sub-arrays along axis `dim` (0: rows of a
    /// matrix, 1: its columns, ...), of the sizes in `chunks_list` (which must add up to
    /// the axis' length) or as equal as possible. Returns the children's handles; tasks use
    /// them instead of this handle until `unpartition`. No data is copied: each child is a
    /// view of the array.
    #[pyo3(signature = (nchildren, dim=0, chunks_list=None))]
    fn partition(
        &self,
        py: Python<'_>,
        nchildren: usize,
        dim: usize,
        chunks_list: Option<Vec<i64>>,
    ) -> PyResult<Vec<Py<Handle>>> {
        let Content::Buffer { obj, layout } = &self.state.content else {
            return Err(errors::invalid(py, "only numpy arrays can be partitioned"));
        };
        let obj = obj.bind(py);
        if !is_ndarray(obj) {
            return Err(errors::invalid(py, "only numpy arrays can be partitioned"));
        }
        if !layout.described {
            return Err(errors::invalid(
                py,
                "this array's strides have no StarPU description: partition \
                 numpy.ascontiguousarray(array) instead",
            ));
        }
        let nd = layout.axes.len();
        if dim >= nd {
            return Err(PyValueError::new_err(format!(
                "dim {dim} does not exist: the array has {nd} dimension(s)"
            )));
        }
        if nchildren == 0 {
            return Err(PyValueError::new_err("nchildren must be at least 1"));
        }
        let d = layout.dim_of_axis(dim).expect("every axis has a dimension");
        let total = layout.dims[d].0;
        let lens: Vec<u32> = match chunks_list.filter(|c| !c.is_empty()) {
            None => layout::even_parts(total, nchildren),
            Some(c) => {
                let ok = c.len() == nchildren
                    && c.iter().all(|&x| x >= 0)
                    && c.iter().sum::<i64>() == total as i64;
                if !ok {
                    return Err(PyValueError::new_err(format!(
                        "chunks_list must hold {nchildren} non-negative sizes adding up to \
                         {total} (the length of axis {dim}), not {c:?}"
                    )));
                }
                c.iter().map(|&x| x as u32).collect()
            }
        };
        let filter = layout
            .filter(d, lens.clone())
            .ok_or_else(|| errors::invalid(py, "a 0-dimensional array cannot be partitioned"))?;
        let rt = runtime::runtime(py)?;
        let parent = &self.state.data;
        let kids = py.detach(|| rt.partition(parent, &filter)).py(py)?;
        let mut out = Vec::with_capacity(kids.len());
        let mut first = 0u32;
        for (kid, &len) in kids.into_iter().zip(&lens) {
            let mut index: Vec<Bound<'_, PyAny>> = Vec::with_capacity(nd);
            for axis in 0..nd {
                index.push(if axis == dim {
                    PySlice::new(py, first as isize, (first + len) as isize, 1).into_any()
                } else {
                    PySlice::full(py).into_any()
                });
            }
            let view = obj.get_item(PyTuple::new(py, index)?)?;
            let state = Arc::new(HandleState {
                data: kid,
                content: Content::Buffer {
                    obj: view.unbind(),
                    layout: layout.part(d, first, len),
                },
                key: None,
                needs_mode: self.state.needs_mode,
                retval: false,
                children: Mutex::new(Vec::new()),
                through_children: Mutex::new(0),
                child: true,
            });
            out.push(Py::new(py, Handle::wrap(state))?);
            first += len;
        }
        *lock(&self.state.children) = out.iter().map(|h| h.clone_ref(py)).collect();
        Ok(out)
    }

    /// The number of elements of each handle of `handle_list` (children of a partition).
    fn get_partition_size(&self, handle_list: Vec<Py<Handle>>) -> Vec<usize> {
        handle_list
            .iter()
            .map(|h| h.get().state.layout().map_or(1, Layout::len))
            .collect()
    }

    /// Gathers the children back (waiting for their tasks) and forgets them.
    fn unpartition(
        &self,
        py: Python<'_>,
        handle_list: Vec<Py<Handle>>,
        nchildren: usize,
    ) -> PyResult<()> {
        let known = lock(&self.state.children).len();
        if !self.state.data.is_partitioned() {
            return Err(errors::invalid(
                py,
                "unpartition: the data is not partitioned",
            ));
        }
        if nchildren != known || handle_list.len() != known {
            return Err(PyValueError::new_err(format!(
                "unpartition: the data has {known} children ({} handles and nchildren={nchildren} \
                 given)",
                handle_list.len()
            )));
        }
        let rt = runtime::runtime(py)?;
        let parent = &self.state.data;
        py.detach(|| rt.unpartition(parent, MAIN_RAM)).py(py)?;
        let children = std::mem::take(&mut *lock(&self.state.children));
        drop(children);
        Ok(())
    }

    /// `id()` of the registered object (StarPU's `get_obj_id`).
    fn get_obj_id(&self, py: Python<'_>) -> PyResult<usize> {
        Ok(self
            .state
            .object(py)
            .map(|o| o.as_ptr() as usize)
            .unwrap_or(0))
    }

    /// Whether this handle holds a task's return value.
    fn get_retval(&self) -> bool {
        self.state.retval
    }

    /// StarPU's handles carry a capsule; here the handle stands for itself.
    fn get_capsule(slf: Py<Self>) -> Py<Self> {
        slf
    }

    /// The registered object (for a value handle, its value as last stored, without
    /// waiting for tasks).
    #[getter]
    fn obj(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        self.state.object(py)
    }

    /// Whether the handle is still registered.
    #[getter]
    fn registered(&self) -> bool {
        self.state.data.is_registered()
    }

    fn __repr__(&self) -> String {
        format!(
            "<starpu.Handle {} {}>",
            self.state.data.describe(),
            if self.state.data.is_registered() {
                "registered"
            } else {
                "unregistered"
            }
        )
    }
}

/// `starpu.acquire(obj, mode="R")`: acquires the data registered for `obj` (registering
/// it first if needed) and returns `obj`.
#[pyfunction]
#[pyo3(signature = (obj, mode="R"))]
pub(crate) fn acquire(py: Python<'_>, obj: &Bound<'_, PyAny>, mode: &str) -> PyResult<Py<PyAny>> {
    let mode = acquisition_mode(mode)?;
    of_object(py, obj, true)?.acquire(py, mode)
}

/// `starpu.release(obj)`: ends the latest acquisition of `obj`'s data.
#[pyfunction]
pub(crate) fn release(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<()> {
    of_object(py, obj, false)?.release(py)
}

/// `starpu.unregister(obj)`: waits for the tasks using `obj` and unregisters it.
#[pyfunction]
pub(crate) fn unregister(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<()> {
    of_object(py, obj, false)?.unregister(py, true)
}

/// `starpu.unregister_submit(obj)`: unregisters `obj` once its tasks are done, at once.
#[pyfunction]
pub(crate) fn unregister_submit(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<()> {
    of_object(py, obj, false)?.unregister_submit(py)
}

/// Wraps a handle state into a new Python `Handle` object.
pub(crate) fn new_py_handle(py: Python<'_>, state: Arc<HandleState>) -> PyResult<Py<Handle>> {
    Py::new(py, Handle::wrap(state))
}

/// The handle `obj` is registered with, or None (for `starpu.joblib`).
#[pyfunction]
pub(crate) fn _handle_of(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<Option<Py<Handle>>> {
    match registry_get(obj.as_ptr() as usize) {
        Some(state) => Ok(Some(new_py_handle(py, state)?)),
        None => Ok(None),
    }
}
