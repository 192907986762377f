//! `starpu.SchedCtx`: scheduling contexts, sets of workers with their own policy that
//! tasks are submitted to (`sched_ctx=` task option). The core owns them; this object only
//! carries the context's id.

use crate::errors::IntoPy;
use crate::runtime::with_runtime;
use pyo3::prelude::*;
use starpu_core::sched::contexts::ContextOptions;

/// `starpu.SchedCtx(workers, name="", *, policy=None, min_priority=None,
/// max_priority=None)`: a scheduling context over the workers `workers` (ids), scheduled by
/// the policy named `policy` (the default policy when None): StarPU's
/// `starpu_sched_ctx_create`. `SchedCtx.GLOBAL` is the context every task goes to by
/// default (id 0). Tasks go to a context with `task_submit(sched_ctx=ctx)`.
#[pyclass(frozen, eq, module = "starpu", name = "SchedCtx")]
#[derive(PartialEq)]
pub(crate) struct SchedCtx {
    pub(crate) id: u32,
}

#[pymethods]
impl SchedCtx {
    #[new]
    #[pyo3(signature = (workers, name=String::new(), *, policy=None, min_priority=None, max_priority=None))]
    fn new(
        py: Python<'_>,
        workers: Vec<usize>,
        name: String,
        policy: Option<String>,
        min_priority: Option<i32>,
        max_priority: Option<i32>,
    ) -> PyResult<Self> {
        let mut options = ContextOptions::named(&name);
        options.policy = policy;
        options.min_priority = min_priority;
        options.max_priority = max_priority;
        let id = with_runtime(py, |rt| rt.create_context(&workers, options).py(py))?;
        Ok(SchedCtx { id })
    }

    /// The global context (id 0), which holds every worker at start.
    #[classattr]
    #[pyo3(name = "GLOBAL")]
    fn global() -> SchedCtx {
        SchedCtx { id: 0 }
    }

    /// The context's id (`unsigned sched_ctx_id` in C).
    #[getter]
    fn id(&self) -> u32 {
        self.id
    }

    /// The workers of the context.
    #[getter]
    fn workers(&self, py: Python<'_>) -> PyResult<Vec<usize>> {
        with_runtime(py, |rt| rt.context_workers(self.id).py(py))
    }

    /// The context's name.
    #[getter]
    fn name(&self, py: Python<'_>) -> PyResult<String> {
        with_runtime(py, |rt| rt.context_name(self.id).py(py))
    }

    /// `starpu_sched_ctx_add_workers`.
    fn add_workers(&self, py: Python<'_>, workers: Vec<usize>) -> PyResult<()> {
        with_runtime(py, |rt| rt.add_context_workers(self.id, &workers).py(py))
    }

    /// `starpu_sched_ctx_remove_workers`.
    fn remove_workers(&self, py: Python<'_>, workers: Vec<usize>) -> PyResult<()> {
        with_runtime(py, |rt| rt.remove_context_workers(self.id, &workers).py(py))
    }

    /// `starpu_sched_ctx_set_inheritor`: `heir` gets this context's workers and waiting
    /// tasks when it is deleted.
    fn set_inheritor(&self, py: Python<'_>, heir: PyRef<'_, SchedCtx>) -> PyResult<()> {
        with_runtime(py, |rt| rt.set_context_inheritor(self.id, heir.id).py(py))
    }

    /// `starpu_sched_ctx_delete`: its workers and waiting tasks go to the inheritor (or
    /// the global context). Submitting to a deleted context is an `InvalidArgumentError`.
    fn delete(&self, py: Python<'_>) -> PyResult<()> {
        let id = self.id;
        with_runtime(py, |rt| py.detach(|| rt.delete_context(id)).py(py))
    }

    fn __repr__(&self) -> String {
        format!("<starpu.SchedCtx {}>", self.id)
    }
}
