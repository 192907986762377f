//! What policies see of the runtime: `SchedView`, implemented by the runtime.

use crate::error::Result;
use crate::memory::NodeId;
use crate::perfmodel::{self, PerfArch};
use crate::runtime::Runtime;
use crate::sched::contexts::{ContextHost, Contexts};
use crate::sched::{Expected, Policy, SchedView};
use crate::task::Task;
use crate::topology::Topology;
use crate::worker::Worker;
use std::sync::atomic::Ordering;

impl SchedView for Runtime {
    fn nworkers(&self) -> usize {
        self.workers.len()
    }

    fn worker_arch(&self, w: usize) -> PerfArch {
        PerfArch::of_worker(&self.workers, w)
    }

    fn worker_node(&self, w: usize) -> NodeId {
        self.workers[w].node
    }

    fn can_run(&self, task: &Task, w: usize) -> bool {
        !self.knobs.excluded(w, self.workers.len()) && self.choose_impl(task, w).is_some()
    }

    fn nimpls(&self, task: &Task, w: usize) -> usize {
        let Some(cl) = task.spec().and_then(|s| s.codelet.as_ref()) else {
            return 1;
        };
        cl.funcs(self.workers[w].kind).len()
    }

    fn can_run_impl(&self, task: &Task, w: usize, nimpl: usize) -> bool {
        !self.knobs.excluded(w, self.workers.len()) && self.impl_allowed(task, w, nimpl)
    }

    fn expected_length(&self, task: &Task, w: usize, nimpl: usize) -> Expected {
        let Some(spec) = task.spec() else {
            return Expected::NoModel;
        };
        let Some(model) = spec.codelet.as_ref().and_then(|c| c.model.as_ref()) else {
            return Expected::NoModel;
        };
        let t = perfmodel::expected_length_on(model, spec, &self.worker_arch(w), Some(w), nimpl);
        if t.is_nan() {
            Expected::Uncalibrated
        } else {
            Expected::Length(t)
        }
    }

    fn expected_transfer(&self, task: &Task, w: usize) -> f64 {
        task.spec().map_or(0.0, |s| {
            perfmodel::expected_transfer_time(s, self.workers[w].node)
        })
    }

    fn prefetch(&self, task: &Task, w: usize) {
        if !self.config.prefetch || !self.memory.has_devices() {
            return;
        }
        let Some(spec) = task.spec() else { return };
        let node = self.workers[w].node;
        for a in spec.accesses.iter().filter(|a| a.mode.reads()) {
            if !a.mode.is_scratch() && !a.mode.is_redux() {
                let _ = a
                    .handle
                    .request(node, crate::memory::Level::TaskPrefetch, task.priority());
            }
        }
    }
}

/// What the scheduling contexts need of the runtime (`sched/contexts.rs`).
impl ContextHost for Runtime {
    fn contexts(&self) -> &Contexts {
        &self.contexts
    }
    fn global_policy(&self) -> &dyn Policy {
        &*self.policy
    }
    fn workers(&self) -> &[Worker] {
        &self.workers
    }
    fn topology(&self) -> &Topology {
        &self.topology
    }
    fn check_accepting(&self) -> Result<()> {
        Runtime::check_accepting(self)
    }
    fn is_stopping(&self) -> bool {
        Runtime::is_stopping(self)
    }
    fn any_sleeping(&self) -> bool {
        self.nsleeping.load(Ordering::SeqCst) != 0
    }
    fn choose_impl(&self, task: &Task, w: usize) -> Option<usize> {
        Runtime::choose_impl(self, task, w)
    }
    fn context_created(&self, id: u32) {
        self.ctx_counts.reset(id);
    }
}
