//! A task's times: when its kernel ran, as the worker measured it (one place that
//! performance models and profiling read, so every consumer sees the same numbers), and the
//! record profiling keeps in the task (submitted, started, ended, on which worker).

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
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

/// When a task was submitted, started and ended (0: not yet), and where it ran: what
/// profiling (`profiling.rs`) records in the task, nanoseconds on [`crate::clock::now_ns`].
#[derive(Default)]
pub struct ProfileTimes {
    pub(crate) submit: AtomicU64,
    pub(crate) start: AtomicU64,
    pub(crate) end: AtomicU64,
    /// The worker's id plus one (0: not run yet).
    pub(crate) worker: AtomicU32,
}

/// What [`ProfileTimes`] holds, read at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TaskTimesSnapshot {
    pub submit_ns: u64,
    pub start_ns: u64,
    pub end_ns: u64,
    pub worker: Option<usize>,
}

impl ProfileTimes {
    pub fn snapshot(&self) -> TaskTimesSnapshot {
        TaskTimesSnapshot {
            submit_ns: self.submit.load(Ordering::Acquire),
            start_ns: self.start.load(Ordering::Acquire),
            end_ns: self.end.load(Ordering::Acquire),
            worker: self
                .worker
                .load(Ordering::Acquire)
                .checked_sub(1)
                .map(|w| w as usize),
        }
    }
}
