//! What a model has learned: per architecture and implementation, the history entries by
//! footprint and the regression sums. One state per symbol, shared by every codelet that
//! names the symbol (StarPU's models are files named by symbol), kept in a process-wide
//! registry, loaded from the model file on first use and written back at shutdown.

use super::arch::PerfArch;
use super::history::{HistoryEntry, Sample};
use super::multiple::{Layout, Mlr};
use super::regression::{fit_power_offset, Regression};
use super::{settings, PerfModelType};
use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, RwLock};

/// One architecture and implementation (`struct starpu_perfmodel_per_arch`).
#[derive(Debug, Clone, Default)]
pub struct PerArch {
    /// Entries in the order they were first seen (files keep that order).
    pub entries: Vec<HistoryEntry>,
    index: HashMap<u32, usize>,
    pub regression: Regression,
    /// Multiple-regression observations and coefficients.
    pub mlr: Mlr,
}

impl PerArch {
    pub fn entry(&self, footprint: u32) -> Option<&HistoryEntry> {
        self.index.get(&footprint).map(|&i| &self.entries[i])
    }

    pub(crate) fn push_entry(&mut self, e: HistoryEntry) -> &mut HistoryEntry {
        let i = match self.index.get(&e.footprint) {
            Some(&i) => {
                self.entries[i] = e;
                i
            }
            None => {
                self.index.insert(e.footprint, self.entries.len());
                self.entries.push(e);
                self.entries.len() - 1
            }
        };
        &mut self.entries[i]
    }

    /// Refits `a * size^b + c` on the calibrated entries' means.
    pub(crate) fn refit_nl(&mut self, minimum: u32) {
        let points: Vec<(f64, f64)> = self
            .entries
            .iter()
            .filter(|e| e.nsample >= minimum && e.size > 0)
            .map(|e| (e.size as f64, e.mean))
            .collect();
        let (a, b, c) = fit_power_offset(&points).unwrap_or((f64::NAN, f64::NAN, f64::NAN));
        self.regression.a = a;
        self.regression.b = b;
        self.regression.c = c;
    }
}

/// Where a table is filed: the architecture's sort key and the implementation.
type TableKey = (Vec<(u32, u32, u32)>, usize);

/// The tables of one model.
#[derive(Debug, Default)]
pub struct Tables {
    pub kind: PerfModelType,
    pub per_arch: BTreeMap<TableKey, (PerfArch, PerArch)>,
    /// The terms of a multiple-regression model (from the codelet's model).
    pub mlr_layout: Option<Layout>,
}

impl Tables {
    pub fn get(&self, arch: &PerfArch, nimpl: usize) -> Option<&PerArch> {
        self.per_arch.get(&(arch.key(), nimpl)).map(|(_, p)| p)
    }

    pub fn get_mut(&mut self, arch: &PerfArch, nimpl: usize) -> &mut PerArch {
        &mut self
            .per_arch
            .entry((arch.key(), nimpl))
            .or_insert_with(|| (arch.clone(), PerArch::default()))
            .1
    }
}

/// A model's learned state (`struct starpu_perfmodel_state`).
#[derive(Debug)]
pub struct ModelState {
    pub symbol: String,
    tables: RwLock<Tables>,
    /// Measure tasks of this model (StarPU's `benchmarking`): the calibration level asks
    /// for it, or a prediction found the model uncalibrated.
    benchmarking: AtomicBool,
    /// Samples were added since the file was read or written.
    dirty: AtomicBool,
}

/// One measurement to add to a model.
#[derive(Debug, Clone)]
pub struct Measurement {
    pub arch: PerfArch,
    pub nimpl: usize,
    pub footprint: u32,
    pub size: usize,
    pub flops: f64,
    /// Microseconds.
    pub time: f64,
    /// The task's parameters, for multiple-regression models.
    pub params: Option<Vec<f64>>,
}

impl ModelState {
    pub(crate) fn new(symbol: &str, kind: PerfModelType) -> ModelState {
        ModelState {
            symbol: symbol.to_string(),
            tables: RwLock::new(Tables {
                kind,
                ..Default::default()
            }),
            benchmarking: AtomicBool::new(settings::calibrate_level() > 0),
            dirty: AtomicBool::new(false),
        }
    }

    pub fn read(&self) -> std::sync::RwLockReadGuard<'_, Tables> {
        self.tables.read().unwrap_or_else(|e| e.into_inner())
    }

    pub(crate) fn write(&self) -> std::sync::RwLockWriteGuard<'_, Tables> {
        self.tables.write().unwrap_or_else(|e| e.into_inner())
    }

    pub fn kind(&self) -> PerfModelType {
        self.read().kind
    }

    /// Gives the model its type if the file did not say (a codelet names it).
    pub(crate) fn adopt_kind(&self, kind: PerfModelType) {
        if kind != PerfModelType::Invalid {
            let mut t = self.write();
            if t.kind != kind {
                t.kind = kind;
            }
        }
    }

    /// Gives a multiple-regression model its terms (the codelet's model has them, a file
    /// does not).
    pub(crate) fn adopt_layout(&self, layout: &Layout) {
        if self.read().mlr_layout.as_ref() != Some(layout) {
            self.write().mlr_layout = Some(layout.clone());
        }
    }

    /// The multiple regression's prediction for `params`, refitting first when there are
    /// new observations.
    pub fn mlr_predict(&self, arch: &PerfArch, nimpl: usize, params: &[f64]) -> Option<f64> {
        {
            let t = self.read();
            let layout = t.mlr_layout.as_ref()?;
            let per = t.get(arch, nimpl)?;
            if !per.mlr.needs_fit(layout) {
                return per.mlr.predict(layout, params);
            }
        }
        let mut t = self.write();
        let layout = t.mlr_layout.clone()?;
        let per = t.get_mut(arch, nimpl);
        if per.mlr.needs_fit(&layout) {
            per.mlr.refit(&layout);
        }
        per.mlr.predict(&layout, params)
    }

    pub fn is_benchmarking(&self) -> bool {
        self.benchmarking.load(Ordering::Relaxed)
    }

    /// Turns measuring on (an uncalibrated prediction, `starpu_perfmodel_update_history`).
    pub(crate) fn start_benchmarking(&self) {
        if !self.benchmarking.swap(true, Ordering::Relaxed) {
            settings::force_calibration();
        }
    }

    pub fn is_dirty(&self) -> bool {
        self.dirty.load(Ordering::Relaxed)
    }

    pub(crate) fn mark_clean(&self) {
        self.dirty.store(false, Ordering::Relaxed);
    }

    /// Adds a measurement: to the footprint's history entry (history-based and both
    /// regressions) and to the regression sums (regression models). As in StarPU, a
    /// history-based entry ignores its very first measurement (often cold caches).
    pub fn update(&self, m: &Measurement) -> Sample {
        let minimum = settings::calibration_minimum();
        let mut t = self.write();
        let kind = t.kind;
        let per = t.get_mut(&m.arch, m.nimpl);
        let mut result = Sample::Accepted;
        if kind.uses_history() {
            match per.index.get(&m.footprint) {
                None => {
                    let e = per.push_entry(HistoryEntry::new(m.footprint, m.size, m.flops));
                    if kind != PerfModelType::HistoryBased {
                        e.add(m.time);
                    }
                }
                Some(&i) => {
                    let e = &mut per.entries[i];
                    result = e.add(m.time);
                    e.note_flops(m.flops);
                    if kind == PerfModelType::NonLinearRegressionBased
                        && result != Sample::Rejected
                        && e.nsample == minimum
                    {
                        per.refit_nl(minimum);
                    }
                }
            }
        }
        if kind == PerfModelType::MultipleRegressionBased {
            if let Some(p) = &m.params {
                if m.time.is_finite() && m.time >= 0.0 {
                    per.mlr.observations.push((p.clone(), m.time));
                }
            }
        }
        if matches!(
            kind,
            PerfModelType::RegressionBased | PerfModelType::NonLinearRegressionBased
        ) && result != Sample::Rejected
        {
            per.regression.add(m.size, m.time, minimum);
        }
        self.dirty.store(true, Ordering::Relaxed);
        result
    }

    /// The calibrated mean for `footprint`, if there is one
    /// (`starpu_perfmodel_history_based_expected_perf`).
    pub fn history_mean(&self, arch: &PerfArch, nimpl: usize, footprint: u32) -> Option<f64> {
        let minimum = settings::calibration_minimum();
        let t = self.read();
        let e = t.get(arch, nimpl)?.entry(footprint)?;
        (e.nsample >= minimum).then_some(e.mean)
    }

    /// The regression's prediction for `size` bytes.
    pub fn regression(&self, arch: &PerfArch, nimpl: usize, size: usize, nl: bool) -> Option<f64> {
        let minimum = settings::calibration_minimum();
        let t = self.read();
        let r = &t.get(arch, nimpl)?.regression;
        if nl {
            r.predict_nl(size, minimum)
        } else {
            r.predict(size, minimum)
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

static REGISTRY: Mutex<Option<HashMap<String, Arc<ModelState>>>> = Mutex::new(None);

/// Bumped whenever the registry forgets models, so that states cached by `PerfModel`s
/// are looked up again.
static GENERATION: AtomicU64 = AtomicU64::new(0);

/// The registry's generation (see `GENERATION`).
pub(crate) fn generation() -> u64 {
    GENERATION.load(Ordering::Acquire)
}

/// The state of model `symbol`, read from its file the first time (unless the calibration
/// level is 2, which starts over). A file that cannot be parsed is reported and ignored.
pub fn state(symbol: &str, kind: PerfModelType) -> Arc<ModelState> {
    let mut reg = lock(&REGISTRY);
    let map = reg.get_or_insert_with(HashMap::new);
    if let Some(s) = map.get(symbol) {
        return s.clone();
    }
    let s = Arc::new(ModelState::new(symbol, kind));
    if settings::calibrate_level() != 2 {
        let path = settings::model_path(symbol);
        if path.exists() {
            match super::file::read(&path) {
                Ok(tables) => {
                    let mut t = s.write();
                    let file_kind = tables.kind;
                    *t = tables;
                    if kind != PerfModelType::Invalid || file_kind == PerfModelType::Invalid {
                        t.kind = kind;
                    }
                }
                Err(e) => eprintln!(
                    "[starpu] warning: performance model file {} ignored: {}",
                    path.display(),
                    e.message
                ),
            }
        }
    }
    map.insert(symbol.to_string(), s.clone());
    s
}

/// Turns measuring on or off for every loaded model (the calibration knob: the next tasks
/// update the models, or leave them as they are).
pub fn set_all_benchmarking(on: bool) {
    if let Some(map) = lock(&REGISTRY).as_ref() {
        for m in map.values() {
            m.benchmarking.store(on, Ordering::Relaxed);
        }
    }
}

/// The state of `symbol` if it is loaded.
pub fn loaded(symbol: &str) -> Option<Arc<ModelState>> {
    lock(&REGISTRY).as_ref()?.get(symbol).cloned()
}

/// Writes every model with new samples (when calibrating), then forgets all of them: the
/// next runtime reads the files again (StarPU's `_starpu_deinitialize_registered_performance_models`).
pub fn save_and_forget_all() {
    GENERATION.fetch_add(1, Ordering::AcqRel);
    let models: Vec<Arc<ModelState>> = lock(&REGISTRY)
        .take()
        .map(|m| m.into_values().collect())
        .unwrap_or_default();
    if settings::calibrate_level() > 0 {
        for m in models {
            save(&m);
        }
    }
}

/// Writes `m` to its file if it has new samples; a failure is reported, not fatal.
pub fn save(m: &ModelState) {
    if !m.is_dirty() {
        return;
    }
    let path = settings::model_path(&m.symbol);
    match super::file::write(&path, &m.read()) {
        Ok(()) => m.mark_clean(),
        Err(e) => eprintln!(
            "[starpu] warning: cannot write performance model {}: {}",
            path.display(),
            e
        ),
    }
}

/// Forgets `symbol` (`starpu_perfmodel_unload_model`), saving its new samples first when
/// calibrating so that nothing measured is lost.
pub fn unload(symbol: &str) {
    GENERATION.fetch_add(1, Ordering::AcqRel);
    let m = lock(&REGISTRY).as_mut().and_then(|r| r.remove(symbol));
    if let Some(m) = m {
        if settings::calibrate_level() > 0 {
            save(&m);
        }
    }
}
