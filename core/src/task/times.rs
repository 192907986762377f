//! When a task's kernel ran, as the worker measured it: one place that performance models
//! (and profiling) read, so every consumer sees the same numbers.

use std::time::Instant;

/// Start and end of one kernel run.
#[derive(Debug, Clone, Copy)]
pub struct TaskTimes {
    pub start: Instant,
    pub end: Instant,
}

impl TaskTimes {
    /// Runs `f`, timing it.
    pub fn measure<R>(f: impl FnOnce() -> R) -> (R, TaskTimes) {
        let start = Instant::now();
        let r = f();
        (
            r,
            TaskTimes {
                start,
                end: Instant::now(),
            },
        )
    }

    /// The kernel's duration in microseconds (StarPU's unit for models).
    pub fn micros(&self) -> f64 {
        self.end.duration_since(self.start).as_secs_f64() * 1e6
    }
}
