//! Failed tasks, counted so that `wait_for_all` can report them.
//!
//! A task fails when its kernel returns an error or panics, or when a callback or another
//! piece of application code the runtime calls for it panics. A failed task still ends:
//! its dependents are released and run (StarPU's model has no cancellation, and the data
//! keeps whatever the kernel left in it), `wait` on the task returns the failure, and the
//! next `wait_for_all` reports how many tasks failed since the previous one, with the
//! first failure's message, its task's name and its cause (the face's exception object).

use crate::error::{Error, ErrorKind};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

#[derive(Default)]
pub(crate) struct Failures {
    count: AtomicUsize,
    first: Mutex<Option<Error>>,
}

impl Failures {
    pub(crate) fn record(&self, e: &Error) {
        if self.count.fetch_add(1, Ordering::AcqRel) == 0 {
            *self.first.lock().unwrap_or_else(|p| p.into_inner()) = Some(e.clone());
        }
    }

    /// The failures since the last call, as one error; `None` if there were none.
    pub(crate) fn take(&self) -> Option<Error> {
        if self.count.load(Ordering::Acquire) == 0 {
            return None;
        }
        let mut first = self.first.lock().unwrap_or_else(|p| p.into_inner());
        let n = self.count.swap(0, Ordering::AcqRel);
        let e = first.take()?;
        // The first failure's cause and task travel on: a face re-raises that object.
        let message = if n == 1 {
            format!("1 task failed: {}", e.message)
        } else {
            format!("{n} tasks failed; the first: {}", e.message)
        };
        let mut summary = Error::new(ErrorKind::TaskFailed, message).with_cause(e.cause().cloned());
        if let Some(t) = e.task_name() {
            summary = summary.for_task(t);
        }
        Some(summary)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_the_count_and_the_first_failure_once() {
        let f = Failures::default();
        assert!(f.take().is_none());
        f.record(&Error::invalid("first"));
        f.record(&Error::invalid("second"));
        let e = f.take().unwrap();
        assert_eq!(e.kind, ErrorKind::TaskFailed);
        assert_eq!(e.message, "2 tasks failed; the first: first");
        assert!(f.take().is_none());
    }

    #[test]
    fn the_first_failure_keeps_its_cause_and_task() {
        let f = Failures::default();
        let cause: crate::error::Cause = std::sync::Arc::new(7u32);
        f.record(
            &Error::new(ErrorKind::TaskFailed, "raised")
                .with_cause(Some(cause.clone()))
                .for_task("t"),
        );
        let e = f.take().unwrap();
        assert_eq!(e.cause_as::<u32>(), Some(&7));
        assert_eq!(e.task_name(), Some("t"));
    }
}
