//! Reduction methods (`Handle.set_reduction_methods`): how REDUX contributions start
//! (`init`) and fold into each other (`redux`), as Python functions on numpy arrays or as
//! native kernels. The core runs the reduction; a Python method gets the runtime's
//! buffers as numpy arrays typed like the data (see `views`).

use crate::codelet::Codelet as PyCodelet;
use crate::errors::IntoPy;
use crate::handle::HandleState;
use crate::native::NativeKernel;
use crate::task;
use crate::views::ArrayKind;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use starpu_core::data::ReductionMethods;
use starpu_core::Codelet;
use std::sync::Arc;

impl HandleState {
    /// `starpu_data_set_reduction_methods`: `redux(a, b)` folds `b` into `a`, `init(a)`
    /// sets `a` to the neutral element.
    pub(crate) fn set_reduction_methods(
        &self,
        py: Python<'_>,
        redux: &Bound<'_, PyAny>,
        init: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let kind = ArrayKind::of(py, self)?.map(Arc::new).ok_or_else(|| {
            crate::errors::invalid(py, "reductions need data that is a numpy array")
        })?;
        let methods = ReductionMethods {
            redux: method(py, "redux", redux, &kind)?,
            init: method(py, "init", init, &kind)?,
        };
        self.data.set_reduction_methods(methods).py(py)
    }
}

/// The codelet of one method: a native kernel's own, or one calling the Python function
/// with the task's buffers as numpy arrays.
fn method(
    py: Python<'_>,
    name: &str,
    f: &Bound<'_, PyAny>,
    kind: &Arc<ArrayKind>,
) -> PyResult<Arc<Codelet>> {
    if let Ok(n) = f.cast::<NativeKernel>() {
        return Ok(n.get().codelet.clone());
    }
    let func = match f.cast::<PyCodelet>() {
        Ok(c) => c.get().func(py).ok_or_else(|| {
            PyTypeError::new_err(format!(
                "the {name} method: this starpu.Codelet has no Python (CPU) function"
            ))
        })?,
        Err(_) if f.is_callable() => f.clone().unbind(),
        Err(_) => {
            return Err(PyTypeError::new_err(format!(
                "the {name} method must be a function, a starpu.Codelet or a native kernel"
            )))
        }
    };
    let kind = kind.clone();
    let cl = Codelet::new(format!("python_{name}"))
        .variable_buffers()
        .cpu(move |call| {
            crate::gil::attach(|py| {
                let called = (0..call.nbuffers())
                    .map(|i| kind.view(py, call, i))
                    .collect::<PyResult<Vec<_>>>()
                    .and_then(|views| func.bind(py).call1(PyTuple::new(py, views)?));
                match called {
                    Ok(_) => Ok(()),
                    Err(e) => {
                        // The runtime's own reduction tasks have no future: show it here.
                        e.clone_ref(py).print(py);
                        Err(task::failure(py, e, call.task()))
                    }
                }
            })
        });
    Ok(Arc::new(cl))
}
