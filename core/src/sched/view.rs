//! What a policy may ask the runtime when it places a task: the workers' architectures
//! and memory nodes, which implementations a worker may run, how long a task should take
//! there (from its performance model) and how long its data would take to get there.
//!
//! Written for CPU, OpenCL and CUDA workers alike: an implementation index is counted
//! within the worker's own architecture (as StarPU's `nimpl`), and lengths come per
//! architecture, so a policy compares a CPU and a GPU worker the same way it compares two
//! CPU workers.

use crate::memory::NodeId;
use crate::perfmodel::PerfArch;
use crate::task::Task;

/// A task's predicted length on one worker, with one implementation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Expected {
    /// Microseconds, from a calibrated model or a cost function.
    Length(f64),
    /// The codelet has a model that is not calibrated for this case: measuring it is
    /// the way to calibrate it.
    Uncalibrated,
    /// The codelet has no model.
    NoModel,
}

/// The runtime, as a policy sees it.
pub trait SchedView {
    fn nworkers(&self) -> usize;
    /// The worker's performance architecture (`starpu_worker_get_perf_archtype`).
    fn worker_arch(&self, w: usize) -> PerfArch;
    /// The memory node the worker computes in.
    fn worker_node(&self, w: usize) -> NodeId;
    /// Whether `w` may run `task` with some implementation.
    fn can_run(&self, task: &Task, w: usize) -> bool;
    /// Implementations of `task`'s codelet for `w`'s architecture.
    fn nimpls(&self, task: &Task, w: usize) -> usize;
    /// Whether `w` may run implementation `nimpl` of `task` (`where`, `can_execute`).
    fn can_run_impl(&self, task: &Task, w: usize, nimpl: usize) -> bool;
    /// How long implementation `nimpl` of `task` should take on `w`.
    fn expected_length(&self, task: &Task, w: usize, nimpl: usize) -> Expected;
    /// Microseconds to bring `task`'s data to `w`'s memory node.
    fn expected_transfer(&self, task: &Task, w: usize) -> f64;
    /// `task` was placed on `w` ahead of time: its data may start moving to `w`'s node
    /// now (StarPU's task prefetch, `STARPU_PREFETCH`), overlapping the work queued there.
    fn prefetch(&self, task: &Task, w: usize) {
        let _ = (task, w);
    }
}
