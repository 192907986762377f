//! The `perfmodel=` task option: performance models named by a symbol.
//!
//! Each symbol gets its own codelet carrying the core's `PerfModel` (history based, with
//! that symbol, sized by the task's `sizebase=`), so the core sees which tasks share a
//! model. The face also records how long each task's function ran, by size, for
//! `starpu.perfmodel_plot`.
// The core learns the model too (history based, keyed by `sizebase`), persists it under
// $STARPU_HOME/.starpu/sampling and the dm/dmda policies use it; the samples kept here
// are every run's, which the plot shows (the core keeps per-footprint statistics only).

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use starpu_core::perfmodel::PerfModel;
use starpu_core::task::TaskSpec;
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
                let mut model = PerfModel::history(self.symbol.clone());
                // The task's `sizebase=` is the model's size (footprints and regressions
                // follow it), else the bytes of its data, as StarPU's starpupy does.
                model.size_base = Some(Arc::new(|spec: &TaskSpec, _nimpl: usize| {
                    spec.payload_as::<crate::task::PyTask>()
                        .and_then(|t| t.size_base())
                        .unwrap_or_else(|| spec.accesses.iter().map(|a| a.handle.size()).sum())
                }));
                cl.model = Some(model);
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

/// One history entry for Python: (footprint, size, mean us, deviation us, samples).
type HistoryRow = (u32, usize, f64, f64, u32);

/// What the core learned for `symbol` on CPU workers (implementation 0), read from the
/// model file when no task used it in this process yet: one tuple per footprint,
/// `(footprint, size, mean us, deviation us, samples)`. `None` when the core knows
/// nothing of the model.
#[pyfunction]
pub(crate) fn _perfmodel_history(symbol: &str) -> Option<Vec<HistoryRow>> {
    let state = starpu_core::perfmodel::state::loaded(symbol).or_else(|| {
        starpu_core::perfmodel::settings::model_path(symbol)
            .exists()
            .then(|| {
                starpu_core::perfmodel::state::state(
                    symbol,
                    starpu_core::perfmodel::PerfModelType::HistoryBased,
                )
            })
    })?;
    let tables = state.read();
    let per = tables.get(&starpu_core::perfmodel::PerfArch::cpu(), 0)?;
    Some(
        per.entries
            .iter()
            .map(|e| (e.footprint, e.size, e.mean, e.deviation, e.nsample))
            .collect(),
    )
}
