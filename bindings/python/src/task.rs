//! Submitting Python work: `starpu.task_submit(**options)(func, *args, **kwargs)`, the
//! `Task` class, and the kernel that runs Python functions on the workers.
//!
//! Arguments are sorted at submission:
//! - a `starpu.Future` makes the task wait for the task that produces it, and the function
//!   receives its value;
//! - a `starpu.Handle` (or a child of a partition) is data: the task accesses it in the mode
//!   given (`@starpu.access`, `modes=`), R by default, and the function receives its object;
//! - a buffer object (numpy array, bytes, bytearray, array.array, memoryview) is registered
//!   zero-copy the first time it is seen (unless `arg_handle=False`) and is data likewise:
//!   the task orders itself after earlier tasks on the same object, and the function works
//!   on the caller's memory;
//! - anything else is passed as it is.
//!
//! The function runs on a CPU worker, holding the GIL only while Python code runs; its
//! return value (or exception) goes to the task's future, or to a result handle.

use crate::codelet::Codelet;
use crate::device_call::{self, DeviceCall, DeviceKind};
use crate::errors::PyCause;
use crate::errors::{self, IntoPy};
use crate::future::{FutState, Future};
use crate::handle::{self, Handle, HandleState, Slot};
use crate::native::NativeKernel;
use crate::options::{lookup_mode, Modes, Options};
use crate::perf;
use crate::runtime;
use crate::views::ArrayKind;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyString, PyTuple};
use starpu_core::task::{KernelError, KernelResult, TaskHooks};
use starpu_core::{AccessMode, KernelCall, Runtime, TaskRef};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

/// One argument of the function, as the kernel rebuilds it.
enum Arg {
    Value(Py<PyAny>),
    /// The object of data argument `i` (`PyTask::buffers[i]`).
    Data(usize),
    /// The value of a future (its task ended before this one starts).
    Future(Arc<FutState>),
}

/// Where the function's result goes.
enum Out {
    Dropped,
    Future(Arc<FutState>),
    /// Into the value handle of data argument `i`.
    Slot(usize),
}

/// What runs.
enum Kernel {
    /// Python functions: a codelet has a CPU one, an OpenCL one (see `opencl`), a CUDA
    /// one (see `cuda`), or several.
    Python {
        cpu: Option<Py<PyAny>>,
        opencl: Option<Py<PyAny>>,
        cuda: Option<Py<PyAny>>,
    },
    /// A native kernel: the codelet calls it, nothing here.
    Native,
}

impl Kernel {
    /// The function that says what the task is (its name, its `@starpu.access` modes).
    fn main_function(&self) -> Option<&Py<PyAny>> {
        match self {
            Kernel::Python { cpu, opencl, cuda } => {
                cpu.as_ref().or(opencl.as_ref()).or(cuda.as_ref())
            }
            Kernel::Native => None,
        }
    }
}

/// A submitted Python task: the face's state, owned by the runtime's task (as its hooks
/// and payload) until the task is gone.
pub(crate) struct PyTask {
    kernel: Kernel,
    args: Vec<Arg>,
    kwargs: Vec<(Py<PyString>, Arg)>,
    buffers: Vec<Arc<HandleState>>,
    out: Out,
    callback: Option<Py<PyAny>>,
    perf: Option<(Arc<perf::Model>, usize)>,
    /// The function's name, found when a message needs it.
    label: OnceLock<String>,
}

impl PyTask {
    /// The `sizebase=` of a task with a `perfmodel=`.
    pub(crate) fn size_base(&self) -> Option<usize> {
        self.perf.as_ref().map(|p| p.1)
    }

    /// The value of argument `a` for the function; `device`: the device call running it,
    /// if it is a device implementation.
    fn value(
        &self,
        py: Python<'_>,
        call: &KernelCall,
        a: &Arg,
        device: Option<DeviceCall>,
    ) -> PyResult<Py<PyAny>> {
        match a {
            Arg::Value(v) => Ok(v.clone_ref(py)),
            Arg::Data(i) if device.is_some() && self.buffers[*i].is_buffer() => {
                let (state, dc) = (&self.buffers[*i], device.expect("checked"));
                match dc.kind {
                    DeviceKind::OpenCl => crate::opencl::buffer(py, call, dc.serial, *i, state),
                    DeviceKind::Cuda => crate::cuda::buffer(py, call, dc.serial, *i, state),
                }
            }
            Arg::Data(i) => {
                // SCRATCH and REDUX work on a buffer of the worker's, not the data.
                let mode = call.mode(*i).py(py)?;
                if mode.is_scratch() || mode.is_redux() {
                    let kind = ArrayKind::of(py, &self.buffers[*i])?.ok_or_else(|| {
                        errors::invalid(py, "SCRATCH and REDUX data must be numpy arrays")
                    })?;
                    return kind.view(py, call, *i);
                }
                self.buffers[*i].object(py)
            }
            Arg::Future(f) => f.outcome(py),
        }
    }

    /// Runs the Python function (on a worker, GIL held) and delivers its result. An
    /// exception fails the task with that exception as the failure's cause, marked with
    /// the task's name. `device`: the device call, when a device function runs.
    fn run(&self, py: Python<'_>, call: &KernelCall, device: Option<DeviceCall>) -> KernelResult {
        let task = call.task();
        let func = match (&self.kernel, device.map(|d| d.kind)) {
            (Kernel::Python { opencl, .. }, Some(DeviceKind::OpenCl)) => opencl,
            (Kernel::Python { cuda, .. }, Some(DeviceKind::Cuda)) => cuda,
            (Kernel::Python { cpu, .. }, None) => cpu,
            (Kernel::Native, _) => return Ok(()),
        };
        let Some(func) = func else {
            return Err("this codelet has no Python function for this kind of worker".into());
        };
        let called = (|| -> PyResult<Py<PyAny>> {
            let mut args = Vec::with_capacity(self.args.len());
            for a in &self.args {
                args.push(self.value(py, call, a, device)?);
            }
            let args = PyTuple::new(py, args)?;
            let kwargs = if self.kwargs.is_empty() {
                None
            } else {
                let d = PyDict::new(py);
                for (k, a) in &self.kwargs {
                    d.set_item(k.bind(py), self.value(py, call, a, device)?)?;
                }
                Some(d)
            };
            let start = self.perf.as_ref().map(|_| Instant::now());
            let r = func.bind(py).call(args, kwargs.as_ref());
            if let (Some((model, size)), Some(t0)) = (&self.perf, start) {
                model.record(*size, t0.elapsed());
            }
            Ok(r?.unbind())
        })();
        match called {
            Ok(v) => {
                match &self.out {
                    Out::Future(f) => f.set_value(v),
                    Out::Slot(i) => self.buffers[*i].store(Slot::Value(v)),
                    Out::Dropped => {}
                }
                Ok(())
            }
            Err(e) => {
                let _ = self.label.set(function_name(func.bind(py)));
                match &self.out {
                    Out::Slot(i) => self.buffers[*i].store(Slot::Raised(e.clone_ref(py))),
                    // Nobody may ever look at it otherwise (StarPU prints it too).
                    Out::Dropped => e.clone_ref(py).print(py),
                    Out::Future(_) => {}
                }
                Err(failure(py, e, task))
            }
        }
    }
}

/// The failure a Python exception makes of `task`: the exception itself is the cause
/// (every wait raises that very object again), marked with the task's name.
pub(crate) fn failure(py: Python<'_>, e: PyErr, task: &starpu_core::Task) -> KernelError {
    mark_with_task(py, &e, &task.label());
    KernelError::with_cause(e.to_string(), Arc::new(PyCause(e)))
}

/// Tells the exception which task it failed: `exc.starpu_task` and a note (shown under its
/// traceback). An exception met again (a failed future given to a later task) keeps the
/// first task's.
fn mark_with_task(py: Python<'_>, e: &PyErr, name: &str) {
    let value = e.value(py);
    if value.hasattr(intern!(py, "starpu_task")).unwrap_or(true) {
        return;
    }
    // An exception class that refuses attributes (slots) just stays unmarked.
    if value.setattr(intern!(py, "starpu_task"), name).is_ok() {
        let _ = value.call_method1(
            intern!(py, "add_note"),
            (format!("raised by the StarPU task {name:?}"),),
        );
    }
}

pub(crate) fn function_name(func: &Bound<'_, PyAny>) -> String {
    func.getattr(intern!(func.py(), "__qualname__"))
        .or_else(|_| func.getattr(intern!(func.py(), "__name__")))
        .and_then(|n| n.extract::<String>())
        .unwrap_or_else(|_| "python function".into())
}

impl TaskHooks for PyTask {
    fn completed(&self, _task: &starpu_core::Task) {
        if let Some(cb) = &self.callback {
            crate::gil::attach(|py| {
                if let Err(e) = cb.bind(py).call0() {
                    e.print(py);
                }
            });
        }
    }

    fn terminated(&self, task: &starpu_core::Task) {
        // The kernel fills a result handle when it runs; a task that ended without running
        // it (it failed before, or kernels are disabled, or its kernel is native) leaves
        // its failure there instead. A future asks the core how its task ended.
        if let Out::Slot(i) = &self.out {
            if let Some(e) = task.failure() {
                if matches!(self.kernel, Kernel::Native) || !task.is_completed() {
                    self.buffers[*i].store(Slot::Failed(e));
                }
            }
        }
    }

    fn name(&self, _task: &starpu_core::Task) -> Option<String> {
        self.label.get().cloned()
    }

    fn payload(&self) -> Option<&(dyn std::any::Any + Send + Sync)> {
        Some(self)
    }
}

/// The CPU implementation of every Python codelet.
pub(crate) fn python_kernel(call: &KernelCall) -> KernelResult {
    let task = call
        .payload::<PyTask>()
        .ok_or("a Python codelet ran a task the Python face did not submit")?;
    crate::gil::attach(|py| task.run(py, call, None))
}

/// The OpenCL implementation of Python codelets given `opencl=` (see `opencl`).
pub(crate) fn python_opencl_kernel(call: &KernelCall) -> KernelResult {
    python_device_kernel(call, DeviceKind::OpenCl)
}

/// The CUDA implementation of Python codelets given `cuda=` (see `cuda`).
pub(crate) fn python_cuda_kernel(call: &KernelCall) -> KernelResult {
    python_device_kernel(call, DeviceKind::Cuda)
}

fn python_device_kernel(call: &KernelCall, kind: DeviceKind) -> KernelResult {
    let task = call
        .payload::<PyTask>()
        .ok_or("a Python codelet ran a task the Python face did not submit")?;
    device_call::run_as_current(call, kind, |dc| {
        crate::gil::attach(|py| task.run(py, call, Some(dc)))
    })
}

/// The codelet running plain Python functions (any number of data arguments).
fn python_codelet() -> &'static Arc<starpu_core::Codelet> {
    static CL: OnceLock<Arc<starpu_core::Codelet>> = OnceLock::new();
    CL.get_or_init(|| {
        Arc::new(
            starpu_core::Codelet::new("python")
                .variable_buffers()
                .cpu(python_kernel),
        )
    })
}

/// What `func` is.
enum Target {
    Function(Py<PyAny>),
    Codelet(Py<Codelet>),
    Native(Py<NativeKernel>),
}

/// A function given by name, as StarPU accepts it: `"module.function"`, or a name looked
/// up in `__main__` (then in the builtins).
fn resolve_name(py: Python<'_>, name: &str) -> PyResult<Py<PyAny>> {
    if let Some((module, attr)) = name.rsplit_once('.') {
        return Ok(py.import(module)?.getattr(attr)?.unbind());
    }
    let main = py.import("__main__")?;
    if let Ok(f) = main.getattr(name) {
        return Ok(f.unbind());
    }
    py.import("builtins")?
        .getattr(name)
        .map(Bound::unbind)
        .map_err(|_| {
            PyValueError::new_err(format!(
                "task_submit: no function named {name:?} in __main__ (give \"module.function\" \
                 or the function itself)"
            ))
        })
}

fn target_of(func: &Bound<'_, PyAny>) -> PyResult<Target> {
    let py = func.py();
    if let Ok(c) = func.cast::<Codelet>() {
        return Ok(Target::Codelet(c.clone().unbind()));
    }
    if let Ok(n) = func.cast::<NativeKernel>() {
        return Ok(Target::Native(n.clone().unbind()));
    }
    if let Ok(s) = func.cast::<PyString>() {
        let f = resolve_name(py, &s.to_cow()?)?;
        return target_of(f.bind(py));
    }
    if func.is_callable() {
        return Ok(Target::Function(func.clone().unbind()));
    }
    Err(PyTypeError::new_err(format!(
        "task_submit: expected a function (or its name, a starpu.Codelet, a native kernel), \
         not {}",
        func.get_type().name()?
    )))
}

/// `{id(arg): mode}` from the function's `starpu_access` annotations
/// (`@starpu.access(a="RW")`), computed by `starpu._support.access_modes`.
fn annotated_modes(
    py: Python<'_>,
    func: &Bound<'_, PyAny>,
    args: &Bound<'_, PyTuple>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<Option<Py<PyDict>>> {
    // SAFETY: both pointers are valid objects; PyObject_HasAttr never raises.
    let has = unsafe {
        pyo3::ffi::PyObject_HasAttr(func.as_ptr(), intern!(py, "starpu_access").as_ptr())
    };
    if has == 0 {
        return Ok(None);
    }
    static HELPER: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let helper = HELPER.get_or_try_init(py, || -> PyResult<_> {
        Ok(py
            .import("starpu._support")?
            .getattr("access_modes")?
            .unbind())
    })?;
    let d = helper.bind(py).call1((func, args, kwargs))?;
    Ok(Some(d.cast_into::<PyDict>()?.unbind()))
}

/// Sorts the arguments and submits the task. `prepared`: the task object and detach flag
/// of a `starpu.Task` (else a fresh, detached task).
fn submit(
    py: Python<'_>,
    opts: &Options,
    func: &Bound<'_, PyAny>,
    args: &Bound<'_, PyTuple>,
    kwargs: Option<&Bound<'_, PyDict>>,
    prepared: Option<(TaskRef, bool)>,
) -> PyResult<Py<PyAny>> {
    runtime::with_runtime(py, |rt| {
        submit_on(py, rt, opts, func, args, kwargs, prepared, None)
    })
}

/// Another way for a sorted task to reach the runtime than being submitted here: given
/// the task's data and their modes, and the function that submits it, calls that function
/// if this process runs the task and says whether it did (StarPU-MPI inserts a task on
/// every process and submits it on one, see `mpi`).
pub(crate) type Insert<'a> = &'a mut dyn FnMut(
    Python<'_>,
    &[(starpu_core::DataHandle, AccessMode)],
    &mut dyn FnMut() -> PyResult<()>,
) -> PyResult<bool>;

/// `submit` through `insert`: the task's future (or result) where it runs, None elsewhere.
#[cfg(feature = "mpi")]
pub(crate) fn submit_through(
    py: Python<'_>,
    opts: &Options,
    func: &Bound<'_, PyAny>,
    args: &Bound<'_, PyTuple>,
    kwargs: Option<&Bound<'_, PyDict>>,
    insert: Insert<'_>,
) -> PyResult<Py<PyAny>> {
    runtime::with_runtime(py, |rt| {
        submit_on(py, rt, opts, func, args, kwargs, None, Some(insert))
    })
}

#[allow(clippy::too_many_arguments)]
fn submit_on(
    py: Python<'_>,
    rt: &Arc<Runtime>,
    opts: &Options,
    func: &Bound<'_, PyAny>,
    args: &Bound<'_, PyTuple>,
    kwargs: Option<&Bound<'_, PyDict>>,
    prepared: Option<(TaskRef, bool)>,
    insert: Option<Insert<'_>>,
) -> PyResult<Py<PyAny>> {
    let target = target_of(func)?;
    let (codelet, kernel, declared) = match &target {
        Target::Function(f) => {
            let cl = match &opts.perfmodel {
                Some(m) => m.codelet(python_codelet()),
                None => python_codelet().clone(),
            };
            let kernel = Kernel::Python {
                cpu: Some(f.clone_ref(py)),
                opencl: None,
                cuda: None,
            };
            (cl, kernel, false)
        }
        Target::Codelet(c) => {
            let c = c.get();
            let kernel = Kernel::Python {
                cpu: c.func.as_ref().map(|f| f.clone_ref(py)),
                opencl: c.opencl.as_ref().map(|f| f.clone_ref(py)),
                cuda: c.cuda.as_ref().map(|f| f.clone_ref(py)),
            };
            (c.core.clone(), kernel, true)
        }
        Target::Native(n) => (n.get().codelet.clone(), Kernel::Native, true),
    };
    let native = matches!(kernel, Kernel::Native);
    if (opts.ret_param || opts.ret_handle) && !matches!(target, Target::Function(_)) {
        return Err(errors::invalid(
            py,
            "ret_handle and ret_param need a plain Python function (a codelet declares its \
             data arguments itself)",
        ));
    }
    let by_id = match &opts.modes {
        Modes::ById(d) => Some(d.bind(py).clone()),
        _ => None,
    };
    let positional = match &opts.modes {
        Modes::Positional(v) => Some(v.as_slice()),
        _ => None,
    };
    let annotated = match kernel.main_function() {
        Some(f) => annotated_modes(py, f.bind(py), args, kwargs)?,
        None => None,
    };
    let arg_handle = opts.arg_handle.unwrap_or(true);

    let mut buffers: Vec<Arc<HandleState>> = Vec::new();
    let mut buf_modes: Vec<AccessMode> = Vec::new();
    let mut deps: Vec<TaskRef> = Vec::new();
    let mut packed = native.then(starpu_core::task::args::ArgPacker::new);

    // The result handle is the first data argument, written (as in StarPU).
    let mut out = Out::Dropped;
    let mut result_handle: Option<Arc<HandleState>> = None;
    if opts.ret_param {
        let first = args.get_item(0).map_err(|_| {
            errors::invalid(
                py,
                "ret_param: the first argument must be the result's Handle",
            )
        })?;
        let h = first.cast::<Handle>().map_err(|_| {
            errors::invalid(
                py,
                "ret_param: the first argument must be the result's Handle",
            )
        })?;
        let state = h.get().state.clone();
        if state.is_buffer() {
            return Err(errors::invalid(
                py,
                "Return value as parameter should not be the Python object supporting buffer \
                 protocol",
            ));
        }
        buffers.push(state);
        buf_modes.push(AccessMode::W);
        out = Out::Slot(0);
    } else if opts.ret_handle {
        let state = HandleState::for_result(py, rt)?;
        buffers.push(state.clone());
        buf_modes.push(AccessMode::W);
        result_handle = Some(state);
        out = Out::Slot(0);
    }

    // Data arguments are counted after the result handle, if any.
    let first_data = buffers.len();
    let mut classify = |arg: &Bound<'_, PyAny>| -> PyResult<Arg> {
        if let Ok(f) = arg.cast::<Future>() {
            let state = f.get().state.clone();
            if let Some(t) = state.pending_task() {
                deps.push(t);
            }
            if native {
                return Err(errors::invalid(
                    py,
                    "a native kernel cannot take a future: give its value",
                ));
            }
            return Ok(Arg::Future(state));
        }
        let data = if let Ok(h) = arg.cast::<Handle>() {
            Some(h.get().state.clone())
        } else if arg_handle && handle::is_buffer_object(arg) {
            Some(handle::of_object(py, arg, true)?)
        } else {
            None
        };
        let Some(state) = data else {
            if let Some(p) = packed.as_mut() {
                p.push(&native_bytes(arg)?);
                return Ok(Arg::Value(py.None()));
            }
            return Ok(Arg::Value(arg.clone().unbind()));
        };
        let i = buffers.len();
        let given = match (&by_id, positional, &annotated) {
            (_, Some(p), _) => p.get(i - first_data).copied(),
            (Some(d), _, _) => lookup_mode(d, arg)?,
            _ => None,
        };
        let given = match (given, &annotated) {
            (None, Some(a)) => lookup_mode(a.bind(py), arg)?,
            (g, _) => g,
        };
        let mode = match given {
            Some(m) => m,
            None if state.needs_mode => {
                return Err(errors::invalid(
                    py,
                    "a HandleNumpy argument needs an access mode (W or RW): set it with \
                     @starpu.access, starpu.set_access or modes=",
                ))
            }
            None if declared => AccessMode::NONE,
            None => AccessMode::R,
        };
        state.check_mode(py, mode)?;
        if native && !state.layout().is_some_and(|l| l.described) {
            return Err(errors::invalid(
                py,
                "a native kernel needs data StarPU can describe (a numpy array, bytes, \
                 bytearray, array.array or memoryview with a regular layout)",
            ));
        }
        buffers.push(state);
        buf_modes.push(mode);
        Ok(Arg::Data(i))
    };

    let skip = usize::from(opts.ret_param);
    let mut call_args = Vec::with_capacity(args.len());
    for arg in args.iter().skip(skip) {
        call_args.push(classify(&arg)?);
    }
    let mut call_kwargs = Vec::new();
    if let Some(kw) = kwargs {
        for (k, v) in kw.iter() {
            call_kwargs.push((k.cast_into::<PyString>()?.unbind(), classify(&v)?));
        }
    }

    let want_future = opts.ret_fut.unwrap_or(true) && !opts.ret_handle && !opts.ret_param;
    let (task, detach) = match prepared {
        Some((t, d)) => (Some(t), d),
        None => (None, true),
    };
    let fut_state = if want_future {
        let t = task.clone().unwrap_or_else(starpu_core::Task::new);
        let s = FutState::new(t.clone());
        out = Out::Future(s.clone());
        Some((s, t))
    } else {
        None
    };
    let size = opts.perfmodel.as_ref().map(|_| {
        opts.sizebase
            .unwrap_or_else(|| buffers.iter().map(|b| b.data.size()).sum())
    });
    let payload = Arc::new(PyTask {
        kernel,
        args: call_args,
        kwargs: call_kwargs,
        buffers: buffers.clone(),
        out,
        callback: opts.callback.as_ref().map(|c| c.clone_ref(py)),
        perf: opts.perfmodel.clone().zip(size),
        label: OnceLock::new(),
    });

    let task_ref = match (&fut_state, task) {
        (Some((_, t)), _) => Some(t.clone()),
        (None, t) => t,
    };
    let mut b = match task_ref {
        Some(t) => rt.task_for(t, Some(codelet)),
        None => rt.task(&codelet),
    };
    for (h, m) in buffers.iter().zip(&buf_modes) {
        b = b.buffer(&h.data, *m);
    }
    for d in deps.iter().chain(&opts.after) {
        b = b.after(d);
    }
    for d in &opts.end_after {
        b = b.end_after(d);
    }
    if let Some(c) = opts.sched_ctx {
        b = b.sched_ctx(c);
    }
    if let Some(t) = &opts.transaction {
        b = b.transaction(&t.get().core);
    }
    if opts.priority != 0 {
        b = b.priority(opts.priority);
    }
    if let Some(n) = &opts.name {
        b = b.name(n.clone());
    }
    if let Some(f) = opts.flops {
        b = b.flops(f);
    }
    if let Some(t) = opts.tag {
        b = b.tag(t);
    }
    if let Some(p) = packed {
        b = b.packed_args(p.finish());
    }
    b = b
        .detach(detach)
        .synchronous(opts.synchronous)
        .hooks(payload as Arc<dyn TaskHooks>);
    // Submission blocks when synchronous or throttled: without the GIL then, since the
    // tasks it waits for may need it.
    let blocks = opts.synchronous || rt.config.limit_max_submitted.is_some();
    let mut builder = Some(b);
    let mut submit_here = || -> PyResult<()> {
        let Some(b) = builder.take() else {
            return Err(errors::invalid(py, "a task can be submitted once only"));
        };
        if blocks {
            py.detach(|| b.submit()).py(py).map(drop)
        } else {
            b.submit().py(py).map(drop)
        }
    };
    let submitted = match insert {
        None => submit_here().map(|()| true)?,
        Some(insert) => {
            let data: Vec<_> = buffers
                .iter()
                .map(|h| h.data.clone())
                .zip(buf_modes.iter().copied())
                .collect();
            insert(py, &data, &mut submit_here)?
        }
    };
    if !submitted {
        return Ok(py.None());
    }

    if let Some(h) = result_handle {
        return Ok(handle::new_py_handle(py, h)?.into_any());
    }
    match fut_state {
        Some((s, _)) => Ok(Py::new(py, Future::new(s))?.into_any()),
        None => Ok(py.None()),
    }
}

/// The bytes a native kernel receives for a scalar argument (StarPU's packed form):
/// int -> int64, float -> double, bool -> int, bytes as they are, numpy scalars and other
/// buffers as their memory.
fn native_bytes(arg: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    use pyo3::types::{PyBool, PyBytes, PyFloat, PyInt};
    if arg.is_instance_of::<PyBool>() {
        return Ok((arg.extract::<bool>()? as i32).to_ne_bytes().to_vec());
    }
    if arg.is_instance_of::<PyInt>() {
        return Ok(arg.extract::<i64>()?.to_ne_bytes().to_vec());
    }
    if arg.is_instance_of::<PyFloat>() {
        return Ok(arg.extract::<f64>()?.to_ne_bytes().to_vec());
    }
    if let Ok(b) = arg.cast::<PyBytes>() {
        return Ok(b.as_bytes().to_vec());
    }
    if let Ok(t) = arg.call_method0(intern!(arg.py(), "tobytes")) {
        if let Ok(b) = t.cast::<PyBytes>() {
            return Ok(b.as_bytes().to_vec());
        }
    }
    Err(PyTypeError::new_err(format!(
        "a native kernel's arguments are data or numbers (int, float, bool, bytes, numpy \
         scalars), not {}",
        arg.get_type().name()?
    )))
}

/// What `task_submit(**options)` returns: call it with the function and its arguments.
#[pyclass(frozen, module = "starpu", name = "TaskSubmitter")]
pub(crate) struct Submitter {
    opts: Options,
}

#[pymethods]
impl Submitter {
    #[pyo3(signature = (func, *args, **kwargs))]
    fn __call__(
        &self,
        py: Python<'_>,
        func: &Bound<'_, PyAny>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<PyAny>> {
        submit(py, &self.opts, func, args, kwargs, None)
    }
}

/// `starpu.task_submit(**options)`: returns the function that submits `func(*args,
/// **kwargs)` as a task. Options: `name`, `synchronous`, `priority`, `color`, `flops`,
/// `perfmodel`, `sizebase`, `ret_handle`, `ret_fut`, `ret_param`, `arg_handle`, `modes`,
/// and beyond StarPU's Python module `tag` (the task notifies that tag) and `callback`
/// (called with no argument once the function has run). An unknown option is a
/// `TypeError`.
#[pyfunction]
#[pyo3(signature = (**options))]
pub(crate) fn task_submit(options: Option<&Bound<'_, PyDict>>) -> PyResult<Submitter> {
    Ok(Submitter {
        opts: Options::parse("task_submit", options, &[])?,
    })
}

/// `starpu.Task(func, *args, **options)`: a task described now and submitted later with
/// `submit()` (StarPU's `starpu_task_create` ... `starpu_task_submit`), so that other tasks
/// may be declared to depend on it first. Options are `task_submit`'s plus `detach`
/// (default True; a task submitted with `detach=False` may be waited for with `wait()`).
#[pyclass(module = "starpu", name = "Task")]
pub(crate) struct Task {
    pub(crate) task: TaskRef,
    opts: Options,
    func: Py<PyAny>,
    args: Py<PyTuple>,
    result: Option<Py<PyAny>>,
}

#[pymethods]
impl Task {
    #[new]
    #[pyo3(signature = (func, *args, **options))]
    fn new(
        func: &Bound<'_, PyAny>,
        args: &Bound<'_, PyTuple>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        Ok(Task {
            task: starpu_core::Task::new(),
            opts: Options::parse("Task", options, &["detach"])?,
            func: func.clone().unbind(),
            args: args.clone().unbind(),
            result: None,
        })
    }

    /// Makes this task wait for the end of each task of `tasks` (before it is submitted).
    #[pyo3(signature = (*tasks))]
    fn declare_deps(&self, py: Python<'_>, tasks: Vec<PyRef<'_, Task>>) -> PyResult<()> {
        for t in tasks {
            self.task.add_dependency(&t.task).py(py)?;
        }
        Ok(())
    }

    /// Makes this task's end wait for the end of each task of `tasks`
    /// (`starpu_task_declare_end_deps`; before it is submitted).
    #[pyo3(signature = (*tasks))]
    fn declare_end_deps(&self, tasks: Vec<PyRef<'_, Task>>) {
        for t in tasks {
            self.task.add_end_dependency(&t.task);
        }
    }

    /// The task's end waits for `n` more `end_dep_release()` calls
    /// (`starpu_task_end_dep_add`).
    #[pyo3(signature = (n=1))]
    fn end_dep_add(&self, n: u32) {
        self.task.end_dep_add(n);
    }

    /// Releases one end dependency (`starpu_task_end_dep_release`).
    fn end_dep_release(&self, py: Python<'_>) -> PyResult<()> {
        runtime::with_runtime(py, |rt| {
            starpu_core::task::end_dep_release(rt, &self.task);
            Ok(())
        })
    }

    /// The task's number (`starpu_task_get_job_id`).
    #[getter]
    fn id(&self) -> u64 {
        self.task.id()
    }

    /// Submits the task; returns what `task_submit` would (its future by default).
    fn submit(&mut self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let detach = self.opts.detach.unwrap_or(true);
        let r = submit(
            py,
            &self.opts,
            self.func.bind(py),
            self.args.bind(py),
            None,
            Some((self.task.clone(), detach)),
        )?;
        self.result = Some(r.clone_ref(py));
        Ok(r)
    }

    /// Waits for the task to end (`starpu_task_wait`): only for a task submitted with
    /// `detach=False`; re-raises its failure (the very exception its function raised).
    /// `timeout` in seconds: `starpu.TimeoutError` when it runs out.
    #[pyo3(signature = (timeout=None))]
    fn wait(&self, py: Python<'_>, timeout: Option<f64>) -> PyResult<()> {
        let rt = runtime::runtime(py)?;
        let t = &self.task;
        match timeout {
            None => py.detach(|| rt.wait(t)).py(py),
            Some(s) => {
                let deadline = Instant::now() + Duration::from_secs_f64(s.max(0.0));
                py.detach(|| rt.wait_until(t, deadline)).py(py)
            }
        }
    }

    /// What `submit()` returned (None before).
    #[getter]
    fn future(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.result.as_ref().map(|r| r.clone_ref(py))
    }

    /// Whether the task has ended.
    #[getter]
    fn terminated(&self) -> bool {
        self.task.is_terminated()
    }
}
