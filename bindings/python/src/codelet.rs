//! `starpu.Codelet`: a Python function with declared data arguments and kind (sequential
//! or parallel), as StarPU's `struct starpu_codelet`; optionally OpenCL and CUDA
//! implementations beside it, or instead of it (see `opencl`, `cuda`).

use crate::errors;
use crate::modes;
use crate::task::{function_name, python_cuda_kernel, python_kernel, python_opencl_kernel};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use starpu_core::CodeletType;
use std::sync::Arc;

/// `starpu.Codelet(func, modes=None, name=None)`: a Python function with declared data
/// arguments, as StarPU's `struct starpu_codelet`: `modes` lists the access mode of each
/// data argument in order (tasks must give exactly that many, in those modes); `None`
/// lets each task choose its number of data arguments and their modes
/// (`STARPU_VARIABLE_NBUFFERS`). Submit it like a function:
/// `task_submit(modes=[...])(codelet, *args)`.
///
/// `opencl=g` gives it an OpenCL implementation: `g` runs on OpenCL workers with the same
/// arguments, each data argument as a `starpu.opencl.Buffer`, and launches kernels of a
/// `starpu.opencl.Program`. `func` may then be None: the codelet runs on OpenCL workers
/// only (its tasks are refused with `NoDeviceError` where there is none). `cuda=h` gives it
/// a CUDA implementation the same way: `h` gets each data argument as a
/// `starpu.cuda.Buffer` and launches kernels of a `starpu.cuda.Program`.
#[pyclass(frozen, module = "starpu", name = "Codelet")]
pub(crate) struct Codelet {
    pub(crate) core: Arc<starpu_core::Codelet>,
    /// The CPU implementation.
    pub(crate) func: Option<Py<PyAny>>,
    /// The OpenCL implementation.
    pub(crate) opencl: Option<Py<PyAny>>,
    /// The CUDA implementation.
    pub(crate) cuda: Option<Py<PyAny>>,
}

#[pymethods]
impl Codelet {
    #[new]
    #[allow(clippy::too_many_arguments)] // Python's keyword arguments
    #[pyo3(signature = (func, modes=None, *, name=None, r#type=None, max_parallelism=None, opencl=None, cuda=None))]
    fn new(
        py: Python<'_>,
        func: Option<&Bound<'_, PyAny>>,
        modes: Option<Vec<String>>,
        name: Option<String>,
        r#type: Option<&str>,
        max_parallelism: Option<i32>,
        opencl: Option<&Bound<'_, PyAny>>,
        cuda: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let func = func.filter(|f| !f.is_none());
        let opencl = opencl.filter(|f| !f.is_none());
        let cuda = cuda.filter(|f| !f.is_none());
        let Some(main) = func.or(opencl).or(cuda) else {
            return Err(PyTypeError::new_err(
                "Codelet needs a function, an OpenCL function (opencl=), a CUDA function \
                 (cuda=), or several",
            ));
        };
        if func
            .into_iter()
            .chain(opencl)
            .chain(cuda)
            .any(|f| !f.is_callable())
        {
            return Err(PyTypeError::new_err("Codelet needs callables"));
        }
        let name = name.unwrap_or_else(|| function_name(main));
        let mut cl = starpu_core::Codelet::new(name);
        if func.is_some() {
            cl = cl.cpu(python_kernel);
        }
        if opencl.is_some() {
            cl = cl.opencl(python_opencl_kernel);
        }
        if cuda.is_some() {
            cl = cl.cuda(python_cuda_kernel);
        }
        cl = modes::declare(py, cl, modes.as_deref())?;
        let kind = match r#type.unwrap_or("seq") {
            "seq" => CodeletType::Seq,
            "spmd" => CodeletType::Spmd,
            "forkjoin" => CodeletType::ForkJoin,
            other => {
                return Err(errors::invalid(
                    py,
                    format!("codelet type {other:?}: expected 'seq', 'spmd' or 'forkjoin'"),
                ))
            }
        };
        if kind != CodeletType::Seq || max_parallelism.is_some() {
            cl = cl.parallel(kind, max_parallelism.unwrap_or(i32::MAX));
        }
        Ok(Codelet {
            core: Arc::new(cl),
            func: func.map(|f| f.clone().unbind()),
            opencl: opencl.map(|f| f.clone().unbind()),
            cuda: cuda.map(|f| f.clone().unbind()),
        })
    }

    /// The Python function (the CPU implementation; None for an OpenCL-only codelet).
    #[getter]
    pub(crate) fn func(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.func.as_ref().map(|f| f.clone_ref(py))
    }

    /// The OpenCL implementation, if any.
    #[getter]
    fn opencl(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.opencl.as_ref().map(|f| f.clone_ref(py))
    }

    /// The CUDA implementation, if any.
    #[getter]
    fn cuda(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.cuda.as_ref().map(|f| f.clone_ref(py))
    }

    /// The declared modes (`None`: each task chooses).
    #[getter]
    fn modes(&self) -> Option<Vec<String>> {
        self.core
            .nbuffers
            .map(|_| self.core.modes.iter().map(|m| format!("{m:?}")).collect())
    }

    fn __repr__(&self) -> String {
        format!("<starpu.Codelet {}>", self.core.display_name())
    }
}
