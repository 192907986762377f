//! What the model-based components of StarPU's modular trees compute
//! (`component_perfmodel_select.c`, `component_best_implementation.c`,
//! `component_eager_calibration.c`, `helper_mct.c`), from the predictions the runtime
//! gives through [`SchedView`]:
//!
//! - [`route`]: where perfmodel_select sends a task: to calibration while some worker
//!   has an implementation whose model is not calibrated, to the eager component when
//!   the task has no model (or predicts 0), else to the decision (mct / heft);
//! - [`best_impl`]: the implementation a worker should run (the one predicted shortest,
//!   or the first uncalibrated one, which then gets measured);
//! - [`Mct`]: the minimum-completion-time choice among workers, with StarPU's fitness
//!   `alpha * (end - min_end) + beta * transfer`.

use crate::sched::{Expected, SchedView};
use crate::task::Task;

/// Where perfmodel_select sends a task.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Route {
    /// Implementation `nimpl` on worker `worker` is not calibrated: run it there so
    /// that it gets measured (eager_calibration takes the first such worker).
    Calibrate { worker: usize, nimpl: usize },
    /// Every prediction is known: the decision component places it.
    Model,
    /// No model, or a model predicting 0 everywhere: the eager component.
    NoModel,
}

/// `perfmodel_select`'s choice for `task` among `workers` (StarPU's
/// `starpu_sched_component_execute_preds` over them, then eager_calibration's search).
pub fn route(task: &Task, workers: impl Iterator<Item = usize>, view: &dyn SchedView) -> Route {
    let mut any_length = false;
    for w in workers {
        if !view.can_run(task, w) {
            continue;
        }
        for nimpl in 0..view.nimpls(task, w).max(1) {
            if !view.can_run_impl(task, w, nimpl) {
                continue;
            }
            match view.expected_length(task, w, nimpl) {
                Expected::Uncalibrated => return Route::Calibrate { worker: w, nimpl },
                Expected::Length(d) if d > 0.0 => any_length = true,
                Expected::Length(_) | Expected::NoModel => {}
            }
        }
    }
    if any_length {
        Route::Model
    } else {
        Route::NoModel
    }
}

/// The implementation `w` should run `task` with and its predicted length (0 when
/// unknown): the shortest predicted, or the first uncalibrated one (StarPU's
/// `find_best_impl`). `None` if `w` may run none.
pub fn best_impl(task: &Task, w: usize, view: &dyn SchedView) -> Option<(usize, f64)> {
    let mut best: Option<(usize, f64)> = None;
    for nimpl in 0..view.nimpls(task, w).max(1) {
        if !view.can_run_impl(task, w, nimpl) {
            continue;
        }
        match view.expected_length(task, w, nimpl) {
            // Not calibrated: this one, so that it gets measured.
            Expected::Uncalibrated => return Some((nimpl, 0.0)),
            // No model: the first implementation allowed will do.
            Expected::NoModel => return Some((nimpl, 0.0)),
            Expected::Length(d) => {
                if best.is_none_or(|(_, b)| d < b) {
                    best = Some((nimpl, d));
                }
            }
        }
    }
    best
}

/// When a task of `length`, whose data takes `transfer` to arrive, would end on a
/// worker whose queued work ends at `end` (not before `now`): the part of the transfer
/// that overlaps the queued work costs nothing (StarPU's `compute_expected_time`).
pub fn expected_time(now: f64, end: f64, length: f64, transfer: f64) -> f64 {
    let end = end.max(now);
    let late = if now + transfer < end {
        0.0
    } else {
        transfer - (end - now)
    };
    end + late + length
}

/// One worker as the mct decision sees it for one task.
#[derive(Debug, Clone, Copy)]
pub struct Candidate {
    pub worker: usize,
    /// Predicted length with the best implementation.
    pub length: f64,
    pub transfer: f64,
    /// Expected end of the task there.
    pub end: f64,
}

/// The mct decision's parameters (`struct starpu_sched_component_mct_data`).
#[derive(Debug, Clone, Copy)]
pub struct Mct {
    /// Weight of the completion time.
    pub alpha: f64,
    /// Weight of the data transfer time.
    pub beta: f64,
}

impl Default for Mct {
    /// StarPU's defaults (`_STARPU_SCHED_ALPHA_DEFAULT`, `_BETA_DEFAULT`). The energy
    /// terms (gamma, idle power) are left out: no energy model here.
    fn default() -> Mct {
        Mct {
            alpha: 1.0,
            beta: 1.0,
        }
    }
}

impl Mct {
    /// The workers among `workers` that may run `task`, with their predictions, given
    /// each worker's expected end of queued work `queued_end(w)` (StarPU's
    /// `starpu_mct_compute_execution_times` and `_expected_times`). A worker with an
    /// uncalibrated implementation is left out, as StarPU leaves out a child whose
    /// prediction is not a number.
    pub fn candidates(
        &self,
        task: &Task,
        workers: impl Iterator<Item = usize>,
        now: f64,
        queued_end: impl Fn(usize) -> f64,
        view: &dyn SchedView,
    ) -> Vec<Candidate> {
        let mut out = Vec::new();
        for w in workers {
            if !view.can_run(task, w) {
                continue;
            }
            let Some(length) = shortest_known(task, w, view) else {
                continue;
            };
            let transfer = view.expected_transfer(task, w);
            let end = expected_time(now, queued_end(w), length, transfer);
            out.push(Candidate {
                worker: w,
                length,
                transfer,
                end,
            });
        }
        out
    }

    /// The candidate of least fitness, the first on ties (`starpu_mct_get_best_component`).
    pub fn best(&self, cands: &[Candidate]) -> Option<Candidate> {
        let min_end = cands.iter().map(|c| c.end).fold(f64::INFINITY, f64::min);
        let fitness = |c: &Candidate| self.alpha * (c.end - min_end) + self.beta * c.transfer;
        let mut best: Option<(f64, Candidate)> = None;
        for c in cands {
            let f = fitness(c);
            if best.as_ref().is_none_or(|(b, _)| f < *b) {
                best = Some((f, *c));
            }
        }
        best.map(|(_, c)| c)
    }
}

/// How much a task gains from being placed well: the spread between its latest and
/// earliest expected end (what the heft component maximises over its lookahead).
pub fn benefit(cands: &[Candidate]) -> f64 {
    let min = cands.iter().map(|c| c.end).fold(f64::INFINITY, f64::min);
    let max = cands.iter().map(|c| c.end).fold(0.0, f64::max);
    if cands.is_empty() {
        0.0
    } else {
        max - min
    }
}

/// The shortest nonzero predicted length of `task` on `w` over its implementations (0
/// if none predicts more), `None` if one is not calibrated (StarPU's
/// `starpu_sched_component_execute_preds` on one worker).
fn shortest_known(task: &Task, w: usize, view: &dyn SchedView) -> Option<f64> {
    let mut len = f64::INFINITY;
    for nimpl in 0..view.nimpls(task, w).max(1) {
        if !view.can_run_impl(task, w, nimpl) {
            continue;
        }
        match view.expected_length(task, w, nimpl) {
            Expected::Uncalibrated => return None,
            Expected::Length(d) if d > 0.0 => len = len.min(d),
            Expected::Length(_) | Expected::NoModel => {}
        }
    }
    Some(if len.is_finite() { len } else { 0.0 })
}
