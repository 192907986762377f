//! Profiling and the theoretical bound: what the runtime tells them of each task, and their API.

use crate::clock::now_ns;
use crate::profiling::WorkerProfile;
use crate::runtime::Runtime;
use crate::task::Task;

impl Runtime {
    /// A task is being submitted: profiling and counters take note.
    #[inline]
    pub(crate) fn note_submitted(&self, task: &Task) {
        self.trace.submitted(task);
        self.profile.submitted(task);
        self.counters.submitted(|| self.nsubmitted());
    }

    /// `worker` starts running `task`: the start time, if anything measures it.
    #[inline]
    pub(crate) fn task_starts(&self, task: &Task, worker: usize) -> Option<u64> {
        self.trace.started(task);
        self.profile
            .started(task, worker)
            .or_else(|| self.counters.is_active().then(now_ns))
    }

    /// `worker` ran `task`, started at `start` (see `task_starts`).
    #[inline]
    pub(crate) fn task_ran(&self, task: &Task, worker: usize, start: Option<u64>) {
        self.trace.ended(task);
        self.profile.ended(task, worker, start);
        if let Some(start) = start.filter(|_| self.counters.is_active()) {
            self.counters
                .ran(self, task, worker, now_ns().saturating_sub(start));
        }
    }

    /// Whether profiling is on (`starpu_profiling_status_get`).
    pub fn profiling(&self) -> bool {
        self.profile.is_on()
    }

    /// Turns profiling on or off; returns the previous status (`starpu_profiling_status_set`).
    pub fn set_profiling(&self, on: bool) -> bool {
        self.profile.set(on)
    }

    /// Worker `worker`'s profile since it was last asked for, or since profiling started;
    /// its counters start again from now (`starpu_profiling_worker_get_info`).
    pub fn take_worker_profile(&self, worker: usize) -> Option<WorkerProfile> {
        self.profile.take_worker(worker)
    }

    /// Starts recording tasks for the theoretical bound, forgetting earlier records
    /// (`starpu_bound_start`); `deps`: dependencies are asked for too.
    pub fn bound_start(&self, deps: bool) {
        self.profile.bound_start(deps);
    }

    /// Stops recording (`starpu_bound_stop`).
    pub fn bound_stop(&self) {
        self.profile.bound_stop();
    }

    /// The linear program of what was recorded, over this runtime's workers.
    pub fn bound_problem(&self) -> crate::bound::BoundProblem {
        self.profile.bound_problem(self.workers().len())
    }

    /// How many tasks of the codelet named `name` each worker ran (counted while profiling
    /// or `STARPU_WORKER_STATS` is on; `starpu_codelet_display_stats`).
    pub fn codelet_counts(&self, name: &str) -> Option<Vec<u64>> {
        self.profile.codelet_counts(name)
    }
}
