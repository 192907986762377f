//! Performance models attached to codelets (`struct starpu_perfmodel`): how long a task
//! will take on a worker, learned from earlier runs or given by the application.
//!
//! - `STARPU_HISTORY_BASED`: the mean time per data footprint ([`history`]), trusted once
//!   an entry has `STARPU_CALIBRATE_MINIMUM` (10) samples, robust to outliers.
//! - `STARPU_REGRESSION_BASED` / `STARPU_NL_REGRESSION_BASED`: `a*n^b` and `a*n^b+c` in
//!   the data size ([`regression`]).
//! - `STARPU_MULTIPLE_REGRESSION_BASED`: a least-squares fit on the task's parameters
//!   ([`multiple`]).
//! - `STARPU_PER_ARCH` / `STARPU_COMMON` / `STARPU_PER_WORKER`: the application's cost
//!   functions.
//!
//! Learned models are shared by symbol ([`state`]), saved in StarPU's file format
//! ([`mod@file`]) under `$STARPU_HOME/.starpu/sampling/codelets/45/` at shutdown and read back
//! by the next run. Workers measure each task of a codelet with a model
//! (`runtime/execute.rs`), and the scheduler asks [`expected_length`].

pub mod arch;
pub mod bus;
pub mod file;
pub mod footprint;
pub mod history;
mod model_data;
pub mod multiple;
pub mod regression;
pub mod settings;
pub mod state;
pub mod xml;

pub use arch::{PerfArch, PerfDevice};
pub use footprint::{data_size, footprint};
pub use model_data::ModelData;
pub use state::{Measurement, ModelState};

use crate::task::TaskSpec;
use std::sync::{Arc, RwLock};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PerfModelType {
    #[default]
    Invalid,
    PerWorker,
    PerArch,
    Common,
    HistoryBased,
    RegressionBased,
    NonLinearRegressionBased,
    MultipleRegressionBased,
    PerArchCommon,
}

impl PerfModelType {
    /// Models that keep history entries (and so files).
    pub fn uses_history(self) -> bool {
        matches!(
            self,
            PerfModelType::HistoryBased
                | PerfModelType::RegressionBased
                | PerfModelType::NonLinearRegressionBased
        )
    }

    /// Models that learn from measurements (and so have a state and a file).
    pub fn learns(self) -> bool {
        self.uses_history() || self == PerfModelType::MultipleRegressionBased
    }
}

/// `cost_function(task, nimpl)`: microseconds.
pub type CostFn = Arc<dyn Fn(&TaskSpec, usize) -> f64 + Send + Sync>;
/// `arch_cost_function(task, arch, nimpl)`: microseconds.
pub type ArchCostFn = Arc<dyn Fn(&TaskSpec, &PerfArch, usize) -> f64 + Send + Sync>;
/// `per_worker_cost_function(task, workerid, nimpl)`: microseconds.
pub type WorkerCostFn = Arc<dyn Fn(&TaskSpec, usize, usize) -> f64 + Send + Sync>;
/// `parameters(task)`: the values a multiple-regression model is fitted on.
pub type ParamsFn = Arc<dyn Fn(&TaskSpec) -> Vec<f64> + Send + Sync>;
/// `size_base(task, nimpl)`: the size regressions and footprints use.
pub type SizeBaseFn = Arc<dyn Fn(&TaskSpec, usize) -> usize + Send + Sync>;
/// `footprint(task)`: the key of history entries.
pub type FootprintFn = Arc<dyn Fn(&TaskSpec) -> u32 + Send + Sync>;

/// A codelet's performance model: its kind, its symbol (the file name of learned models)
/// and the application's functions.
///
/// ```
/// use starpu_core::perfmodel::{PerfModel, PerfModelType};
/// let m = PerfModel::history("my_kernel");
/// assert_eq!(m.kind, PerfModelType::HistoryBased);
/// let c = PerfModel::common(|_spec, _nimpl| 42.0);
/// assert_eq!(c.kind, PerfModelType::Common);
/// ```
#[derive(Clone, Default)]
pub struct PerfModel {
    pub kind: PerfModelType,
    pub symbol: Option<String>,
    pub cost_function: Option<CostFn>,
    pub arch_cost_function: Option<ArchCostFn>,
    pub worker_cost_function: Option<WorkerCostFn>,
    /// Multiple regression: the task's parameters, and the model's terms.
    pub parameters: Option<ParamsFn>,
    pub mlr_layout: multiple::Layout,
    pub size_base: Option<SizeBaseFn>,
    pub footprint: Option<FootprintFn>,
    /// Cost functions of a `STARPU_PER_ARCH` model for one architecture and implementation
    /// each (`starpu_perfmodel_set_per_devices_cost_function`).
    pub per_devices: Vec<(PerfArch, usize, ArchCostFn)>,
    /// The learned state last looked up, with the registry generation it is valid for:
    /// workers and policies ask for it for every task, and the registry is process-wide.
    pub cache: Arc<StateCache>,
}

/// See `PerfModel::cache`.
#[derive(Default)]
pub struct StateCache(RwLock<Option<(u64, Arc<ModelState>)>>);

impl std::fmt::Debug for PerfModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PerfModel")
            .field("kind", &self.kind)
            .field("symbol", &self.symbol)
            .finish()
    }
}

impl PartialEq for PerfModel {
    fn eq(&self, other: &Self) -> bool {
        self.kind == other.kind && self.symbol == other.symbol
    }
}

impl PerfModel {
    /// A model of `kind` named `symbol`.
    pub fn new(kind: PerfModelType, symbol: impl Into<String>) -> PerfModel {
        PerfModel {
            kind,
            symbol: Some(symbol.into()),
            ..Default::default()
        }
    }

    /// A history-based model named `symbol`.
    pub fn history(symbol: impl Into<String>) -> PerfModel {
        PerfModel::new(PerfModelType::HistoryBased, symbol)
    }

    /// A `STARPU_COMMON` model: `f(task, nimpl)` microseconds on any architecture.
    pub fn common(f: impl Fn(&TaskSpec, usize) -> f64 + Send + Sync + 'static) -> PerfModel {
        PerfModel {
            kind: PerfModelType::Common,
            cost_function: Some(Arc::new(f)),
            ..Default::default()
        }
    }

    /// A `STARPU_PER_ARCH` model: `f(task, arch, nimpl)` microseconds.
    pub fn per_arch(
        f: impl Fn(&TaskSpec, &PerfArch, usize) -> f64 + Send + Sync + 'static,
    ) -> PerfModel {
        PerfModel {
            kind: PerfModelType::PerArch,
            arch_cost_function: Some(Arc::new(f)),
            ..Default::default()
        }
    }

    /// A `STARPU_PER_WORKER` model: `f(task, workerid, nimpl)` microseconds.
    pub fn per_worker(
        f: impl Fn(&TaskSpec, usize, usize) -> f64 + Send + Sync + 'static,
    ) -> PerfModel {
        PerfModel {
            kind: PerfModelType::PerWorker,
            worker_cost_function: Some(Arc::new(f)),
            ..Default::default()
        }
    }

    /// A `STARPU_MULTIPLE_REGRESSION_BASED` model named `symbol`: `parameters(task)` gives
    /// the task's parameters, `combinations` one exponent per parameter for each term
    /// after the intercept, `names` the parameters' names (may be empty).
    pub fn multiple_regression(
        symbol: impl Into<String>,
        parameters: impl Fn(&TaskSpec) -> Vec<f64> + Send + Sync + 'static,
        combinations: Vec<Vec<u32>>,
        names: Vec<String>,
    ) -> PerfModel {
        let nparameters = combinations.first().map_or(names.len(), Vec::len);
        PerfModel {
            parameters: Some(Arc::new(parameters)),
            mlr_layout: multiple::Layout {
                nparameters,
                combinations,
                names,
            },
            ..PerfModel::new(PerfModelType::MultipleRegressionBased, symbol)
        }
    }

    /// The task's parameters for a multiple-regression model, checked against the
    /// model's parameter count.
    pub fn task_parameters(&self, spec: &TaskSpec) -> Option<Vec<f64>> {
        let p = (self.parameters.as_ref()?)(spec);
        (p.len() == self.mlr_layout.nparameters).then_some(p)
    }

    /// The learned state, for models that learn and have a symbol.
    pub fn state(&self) -> Option<Arc<ModelState>> {
        if !self.kind.learns() {
            return None;
        }
        let generation = state::generation();
        if let Some((g, s)) = &*self.cache.0.read().unwrap_or_else(|e| e.into_inner()) {
            if *g == generation {
                return Some(s.clone());
            }
        }
        let s = state::state(self.symbol.as_deref()?, self.kind);
        if s.kind() != self.kind {
            s.adopt_kind(self.kind);
        }
        if self.kind == PerfModelType::MultipleRegressionBased {
            s.adopt_layout(&self.mlr_layout);
        }
        *self.cache.0.write().unwrap_or_else(|e| e.into_inner()) = Some((generation, s.clone()));
        Some(s)
    }
}

/// How long (microseconds) implementation `nimpl` of the task `spec` describes should take
/// on `arch`, by `model` (StarPU's `starpu_task_expected_length`). NaN: the model is not
/// calibrated for this case yet, and measuring starts (as StarPU does, forcing
/// calibration so the next run knows).
pub fn expected_length(model: &PerfModel, spec: &TaskSpec, arch: &PerfArch, nimpl: usize) -> f64 {
    expected_length_on(model, spec, arch, None, nimpl)
}

/// [`expected_length`] on worker `worker` when known: `STARPU_PER_WORKER` models need it
/// (without a worker they predict nothing, NaN).
pub fn expected_length_on(
    model: &PerfModel,
    spec: &TaskSpec,
    arch: &PerfArch,
    worker: Option<usize>,
    nimpl: usize,
) -> f64 {
    let t = match model.kind {
        PerfModelType::PerWorker => worker.and_then(|w| {
            model
                .worker_cost_function
                .as_ref()
                .map(|f| f(spec, w, nimpl))
        }),
        PerfModelType::MultipleRegressionBased => {
            let (Some(state), Some(params)) = (model.state(), model.task_parameters(spec)) else {
                return f64::NAN;
            };
            let t = state.mlr_predict(arch, nimpl, &params);
            if t.is_none() {
                state.start_benchmarking();
            }
            t
        }
        PerfModelType::Common => model.cost_function.as_ref().map(|f| f(spec, nimpl)),
        // The model's function for every architecture, else the one given for this
        // architecture and implementation, else the common one.
        PerfModelType::PerArch | PerfModelType::PerArchCommon => model
            .arch_cost_function
            .as_ref()
            .or_else(|| {
                model
                    .per_devices
                    .iter()
                    .find(|(a, i, _)| *i == nimpl && a.key() == arch.key())
                    .map(|(_, _, f)| f)
            })
            .map(|f| f(spec, arch, nimpl))
            .or_else(|| model.cost_function.as_ref().map(|f| f(spec, nimpl))),
        PerfModelType::HistoryBased
        | PerfModelType::RegressionBased
        | PerfModelType::NonLinearRegressionBased => {
            let Some(state) = model.state() else {
                return f64::NAN;
            };
            let m = Some(model);
            let t = match model.kind {
                PerfModelType::HistoryBased => {
                    state.history_mean(arch, nimpl, footprint(m, spec, nimpl))
                }
                PerfModelType::RegressionBased => {
                    state.regression(arch, nimpl, data_size(m, spec, nimpl), false)
                }
                _ => state
                    .regression(arch, nimpl, data_size(m, spec, nimpl), true)
                    .or_else(|| state.history_mean(arch, nimpl, footprint(m, spec, nimpl))),
            };
            if t.is_none() {
                state.start_benchmarking();
            }
            t
        }
        PerfModelType::Invalid => None,
    };
    t.filter(|v| !v.is_nan() && *v >= 0.0).unwrap_or(f64::NAN)
}

/// Feeds one measured run (microseconds) to `model`, if it learns and is measuring
/// (`STARPU_CALIBRATE` > 0, or a prediction found it uncalibrated).
pub fn record(model: &PerfModel, spec: &TaskSpec, arch: &PerfArch, nimpl: usize, time: f64) {
    let Some(state) = model.state() else {
        return;
    };
    if state.is_benchmarking() {
        update_history(model, &state, spec, arch, nimpl, time);
    }
}

/// Adds a measurement whatever the calibration state (`starpu_perfmodel_update_history`).
pub fn update_history(
    model: &PerfModel,
    state: &ModelState,
    spec: &TaskSpec,
    arch: &PerfArch,
    nimpl: usize,
    time: f64,
) -> history::Sample {
    state.update(&Measurement {
        arch: arch.clone(),
        nimpl,
        footprint: footprint(Some(model), spec, nimpl),
        size: data_size(Some(model), spec, nimpl),
        flops: spec.flops,
        time,
        params: (model.kind == PerfModelType::MultipleRegressionBased)
            .then(|| model.task_parameters(spec))
            .flatten(),
    })
}

/// Expected transfer time (microseconds) for the task's data to reach memory node `node`
/// (`starpu_task_expected_data_transfer_time`), from the bus model (`bus.rs`): 0 when the
/// data is there, or with main RAM as the only node.
pub fn expected_transfer_time(spec: &TaskSpec, node: crate::memory::NodeId) -> f64 {
    bus::expected_transfer_time(spec, node)
}

#[cfg(test)]
mod tests;
