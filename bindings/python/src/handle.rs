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
use crate::partition::Cut;
use crate::runtime;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyByteArray, PyBytes, PyMemoryView, PyTuple, PyType};
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
        let state = HandleState::new(data, content, key, needs_mode, retval)?;
        track(&state);
        Ok(state)
    }

    /// A fresh value handle for a task's return value (`ret_handle`).
    pub(crate) fn for_result(py: Python<'_>, rt: &Runtime) -> PyResult<Arc<HandleState>> {
        let data = rt.register_void().py(py)?;
        let content = Content::Object {
            slot: Mutex::new(Slot::Value(py.None())),
        };
        let state = HandleState::new(data, content, None, false, true)?;
        track(&state);
        Ok(state)
    }

    pub(crate) fn new(
        data: DataHandle,
        content: Content,
        key: Option<usize>,
        needs_mode: bool,
        retval: bool,
    ) -> PyResult<Arc<HandleState>> {
        Ok(Arc::new(HandleState {
            data,
            content,
            key,
            needs_mode,
            retval,
        }))
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
            // The old value goes after the lock: freeing it may run Python code, which may
            // let another thread take the GIL and then wait for this lock.
            let old = std::mem::replace(&mut *lock(slot), value);
            drop(old);
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
        py.detach(|| rt.acquire(data, AcquireNode::Node(MAIN_RAM), mode))
            .py(py)?;
        self.object(py)
    }

    fn release(&self, py: Python<'_>) -> PyResult<()> {
        let rt = runtime::runtime(py)?;
        let data = &self.data;
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
        for h in live.iter().filter(|h| h.data.is_registered()) {
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
    drop(live);
}

/// The children of a partition plan, as the plan switches take them.
type Kids = Vec<Py<Handle>>;

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
    pub(crate) fn wrap(state: Arc<HandleState>) -> Handle {
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
        let mode = modes::parse(py, mode)?;
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
    /// the axis' length) or as equal as possible, as a partition plan (StarPU's Python
    /// `partition`): returns the children's handles, usable at once; tasks on the children
    /// and on this handle are ordered, the runtime gathering and cutting as they need. No
    /// data is copied: each child is a view of the array. `unpartition` forgets the plan.
    /// With `synchronous=True` it is C's `starpu_data_partition` instead: it waits for the
    /// tasks using the array, which may not be used itself until `unpartition()`.
    #[pyo3(signature = (nchildren, dim=0, chunks_list=None, *, synchronous=false))]
    fn partition(
        &self,
        py: Python<'_>,
        nchildren: usize,
        dim: usize,
        chunks_list: Option<Vec<i64>>,
        synchronous: bool,
    ) -> PyResult<Vec<Py<Handle>>> {
        let how = if synchronous { Cut::Sync } else { Cut::Plan };
        self.state.cut(py, nchildren, dim, chunks_list, how)
    }

    /// The number of elements of each handle of `handle_list` (children of a partition).
    fn get_partition_size(&self, handle_list: Vec<Py<Handle>>) -> Vec<usize> {
        handle_list
            .iter()
            .map(|h| {
                let s = &h.get().state;
                s.data.size() / s.layout().map_or(1, |l| l.itemsize.max(1))
            })
            .collect()
    }

    /// Ends a partitioning: a synchronous one is gathered back (waiting for its tasks);
    /// a plan (the children `handle_list`) is forgotten, its children unregistered once
    /// their tasks are done. `nchildren`, StarPU's argument, must match `handle_list`.
    #[pyo3(signature = (handle_list=None, nchildren=None))]
    fn unpartition(
        &self,
        py: Python<'_>,
        handle_list: Option<Vec<Py<Handle>>>,
        nchildren: Option<usize>,
    ) -> PyResult<()> {
        if let (Some(l), Some(n)) = (&handle_list, nchildren) {
            if l.len() != n {
                return Err(errors::invalid(
                    py,
                    format!("unpartition: {} handles given for nchildren={n}", l.len()),
                ));
            }
        }
        self.state.uncut(py, handle_list.as_deref())
    }

    /// `starpu_data_partition_clean`: forgets the plan whose children are `c`.
    fn partition_clean(&self, py: Python<'_>, c: Kids) -> PyResult<()> {
        self.state
            .switch(py, &c, |rt, p, c| rt.partition_clean(p, c, None))
    }

    /// `starpu_data_partition_submit`: switches to the plan of `c`, read-write.
    fn partition_submit(&self, py: Python<'_>, c: Kids) -> PyResult<()> {
        self.state.switch(py, &c, Runtime::partition_submit)
    }

    /// `starpu_data_partition_readonly_submit`: makes the plan of `c` readable too.
    fn partition_readonly_submit(&self, py: Python<'_>, c: Kids) -> PyResult<()> {
        self.state
            .switch(py, &c, Runtime::partition_readonly_submit)
    }

    /// `starpu_data_partition_readwrite_upgrade_submit`: the read-only plan of `c` becomes
    /// the read-write view.
    fn partition_readwrite_upgrade_submit(&self, py: Python<'_>, c: Kids) -> PyResult<()> {
        self.state
            .switch(py, &c, Runtime::partition_readwrite_upgrade_submit)
    }

    /// `starpu_data_partition_readonly_downgrade_submit`: the read-write plan of `c`
    /// becomes read-only (the whole data readable again).
    fn partition_readonly_downgrade_submit(&self, py: Python<'_>, c: Kids) -> PyResult<()> {
        self.state
            .switch(py, &c, Runtime::partition_readonly_downgrade_submit)
    }

    /// `starpu_data_unpartition_submit`: gathers the plan of `c` back.
    fn unpartition_submit(&self, py: Python<'_>, c: Kids) -> PyResult<()> {
        self.state.switch(py, &c, Runtime::unpartition_submit)
    }

    /// `starpu_data_unpartition_readonly_submit`: gathers the plan of `c` back, leaving it
    /// readable.
    fn unpartition_readonly_submit(&self, py: Python<'_>, c: Kids) -> PyResult<()> {
        self.state
            .switch(py, &c, Runtime::unpartition_readonly_submit)
    }

    /// Sets how REDUX contributions to this numpy array are made and combined
    /// (`starpu_data_set_reduction_methods`): `init(a)` sets a contribution `a` to the
    /// neutral element, `redux(a, b)` folds `b` into `a`. Each is a Python function (given
    /// numpy arrays like this one, over the runtime's buffers), a `starpu.Codelet` or a
    /// native kernel.
    fn set_reduction_methods(
        &self,
        py: Python<'_>,
        redux: &Bound<'_, PyAny>,
        init: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        self.state.set_reduction_methods(py, redux, init)
    }

    /// How many partition plans are made on this data (`starpu_data_partition_get_nplans`).
    #[getter]
    fn nplans(&self) -> usize {
        self.state.data.nplans()
    }

    /// Whether the data is partitioned synchronously (`partition(..., synchronous=True)`).
    #[getter]
    fn partitioned(&self) -> bool {
        self.state.data.is_partitioned()
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
    let mode = modes::parse(py, mode)?;
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
