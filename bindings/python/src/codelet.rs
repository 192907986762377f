//! `starpu.Codelet`: a Python function with declared data arguments and kind (sequential
//! or parallel), as StarPU's `struct starpu_codelet`.

use crate::errors;
use crate::modes;
use crate::task::{function_name, python_kernel};
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
#[pyclass(frozen, module = "starpu", name = "Codelet")]
pub(crate) struct Codelet {
    pub(crate) core: Arc<starpu_core::Codelet>,
    pub(crate) func: Py<PyAny>,
}

#[pymethods]
impl Codelet {
    #[new]
    #[pyo3(signature = (func, modes=None, *, name=None, r#type=None, max_parallelism=None))]
    fn new(
        func: &Bound<'_, PyAny>,
        modes: Option<Vec<String>>,
        name: Option<String>,
        r#type: Option<&str>,
        max_parallelism: Option<i32>,
    ) -> PyResult<Self> {
        if !func.is_callable() {
            return Err(PyTypeError::new_err("Codelet needs a callable"));
        }
        let name = match name {
            Some(n) => n,
            None => function_name(func),
        };
        let mut cl = starpu_core::Codelet::new(name).cpu(python_kernel);
        cl = match modes {
            Some(m) => cl.modes(
                m.iter()
                    .map(|s| modes::parse(func.py(), s))
                    .collect::<PyResult<Vec<_>>>()?,
            ),
            None => cl.variable_buffers(),
        };
        let kind = match r#type.unwrap_or("seq") {
            "seq" => CodeletType::Seq,
            "spmd" => CodeletType::Spmd,
            "forkjoin" => CodeletType::ForkJoin,
            other => {
                return Err(errors::invalid(
                    func.py(),
                    format!("codelet type {other:?}: expected 'seq', 'spmd' or 'forkjoin'"),
                ))
            }
        };
        if kind != CodeletType::Seq || max_parallelism.is_some() {
            cl = cl.parallel(kind, max_parallelism.unwrap_or(i32::MAX));
        }
        Ok(Codelet {
            core: Arc::new(cl),
            func: func.clone().unbind(),
        })
    }

    /// The Python function.
    #[getter]
    pub(crate) fn func(&self, py: Python<'_>) -> Py<PyAny> {
        self.func.clone_ref(py)
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
