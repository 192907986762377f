//! `starpu.Transaction`: StarPU 1.4's transactions. Tasks submitted with
//! `transaction=trs` belong to its current epoch; each epoch's start decides, when the
//! epoch begins, whether its tasks run (a cancelled epoch's tasks still end, their
//! kernels skipped). The core keeps the epochs; this object holds the core's transaction.

use crate::errors::IntoPy;
use crate::runtime::with_runtime;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

/// `starpu.Transaction(start=True)`: opens a transaction and its first epoch
/// (`starpu_transaction_open`). `start` is a bool, or a function called with no argument
/// when the epoch begins (on a worker) whose truth says whether the epoch's tasks run.
#[pyclass(frozen, module = "starpu", name = "Transaction")]
pub(crate) struct Transaction {
    pub(crate) core: starpu_core::task::Transaction,
}

/// The core's start function for `start`.
fn start_fn(start: Option<&Bound<'_, PyAny>>) -> PyResult<Box<dyn FnOnce() -> bool + Send>> {
    let Some(start) = start else {
        return Ok(Box::new(|| true));
    };
    if let Ok(flag) = start.extract::<bool>() {
        return Ok(Box::new(move || flag));
    }
    if !start.is_callable() {
        return Err(PyTypeError::new_err(
            "a transaction's start is a bool or a function returning one",
        ));
    }
    let f = start.clone().unbind();
    Ok(Box::new(move || {
        crate::gil::attach(|py| match f.bind(py).call0().and_then(|r| r.is_truthy()) {
            Ok(run) => run,
            Err(e) => {
                // Nobody else would see it: the epoch is cancelled, as if it said no.
                e.print(py);
                false
            }
        })
    }))
}

#[pymethods]
impl Transaction {
    #[new]
    #[pyo3(signature = (start=None))]
    fn new(py: Python<'_>, start: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let start = start_fn(start)?;
        let core = with_runtime(py, |rt| rt.transaction_open(start).py(py))?;
        Ok(Transaction { core })
    }

    /// Ends the current epoch and opens the next (`starpu_transaction_next_epoch`), whose
    /// tasks run if `start` says so.
    #[pyo3(signature = (start=None))]
    fn next_epoch(&self, py: Python<'_>, start: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        let start = start_fn(start)?;
        with_runtime(py, |rt| self.core.next_epoch(rt, start).py(py))
    }

    /// Ends the last epoch and the transaction (`starpu_transaction_close`).
    fn close(&self, py: Python<'_>) -> PyResult<()> {
        with_runtime(py, |rt| self.core.close(rt).py(py))
    }
}
