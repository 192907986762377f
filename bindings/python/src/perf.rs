//! The `perfmodel=` task option: performance models named by a symbol.
//!
//! Each symbol gets its own codelet carrying the core's `PerfModel` description (history
//! based, with that symbol), so the core sees which tasks share a model. The core does not
//! measure or store timings yet, so the face records how long each task's function ran,
//! by data size, for `starpu.perfmodel_plot`.
// CORE-NEEDED: history-based performance models in the core (measure every task of a
// codelet with a model, keyed by footprint, persisted under $STARPU_HOME/.starpu/sampling,
// used by the dm/dmda policies); the face would then read the core's history instead of
// timing the Python function itself.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use starpu_core::perfmodel::PerfModel;
use starpu_core::Codelet;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::Duration;

/// One named model: its codelet and the timings recorded.
pub(crate) struct Model {
    symbol: String,
    codelet: OnceLock<Arc<Codelet>>,
    /// (size of the task's data, or its `sizebase`; microseconds).
    samples: Mutex<Vec<(usize, f64)>>,
}

static MODELS: Mutex<Option<HashMap<String, Arc<Model>>>> = Mutex::new(None);

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The model named by a `perfmodel=` option: a symbol, or an object with a `symbol`
/// attribute (StarPU's `starpu.Perfmodel`).
pub(crate) fn model(v: &Bound<'_, PyAny>) -> PyResult<Arc<Model>> {
    let symbol: String = match v.extract() {
        Ok(s) => s,
        Err(_) => v
            .getattr("symbol")
            .and_then(|s| s.extract())
            .map_err(|_| PyTypeError::new_err("perfmodel must be a symbol (a string)"))?,
    };
    Ok(by_symbol(&symbol))
}

fn by_symbol(symbol: &str) -> Arc<Model> {
    lock(&MODELS)
        .get_or_insert_with(HashMap::new)
        .entry(symbol.to_string())
        .or_insert_with(|| {
            Arc::new(Model {
                symbol: symbol.to_string(),
                codelet: OnceLock::new(),
                samples: Mutex::new(Vec::new()),
            })
        })
        .clone()
}

impl Model {
    /// `base` with this model attached (made once per symbol).
    pub(crate) fn codelet(&self, base: &Arc<Codelet>) -> Arc<Codelet> {
        self.codelet
            .get_or_init(|| {
                let mut cl = (**base).clone();
                cl.name = Some(self.symbol.clone());
                cl.model = Some(PerfModel::history(self.symbol.clone()));
                Arc::new(cl)
            })
            .clone()
    }

    pub(crate) fn record(&self, size: usize, took: Duration) {
        lock(&self.samples).push((size, took.as_secs_f64() * 1e6));
    }
}

/// The timings recorded for `symbol`: (size, microseconds) per task run.
#[pyfunction]
pub(crate) fn _perfmodel_samples(symbol: &str) -> Option<Vec<(usize, f64)>> {
    let models = lock(&MODELS);
    let m = models.as_ref()?.get(symbol)?;
    let samples = lock(&m.samples).clone();
    Some(samples)
}
