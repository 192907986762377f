//! Reusable tasks: one task description submitted several times, one after the other
//! (StarPU lets an application submit a `struct starpu_task` again once it has completed,
//! even from its own callback, and `regenerate` resubmits it automatically).
//!
//! Each submission is a fresh [`Task`]; the slot keeps the current one and enforces the
//! rule that a submission may only start once the previous one has completed.

use super::{Task, TaskRef};
use crate::error::{Error, Result};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};

#[derive(Default)]
pub struct TaskSlot {
    current: Mutex<Option<TaskRef>>,
    /// The id of `current` (0: none), readable without the lock.
    current_id: AtomicU64,
}

impl TaskSlot {
    fn lock(&self) -> MutexGuard<'_, Option<TaskRef>> {
        self.current.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The task the next submission uses: the current one while it is not submitted yet
    /// (dependencies may have been declared on it), or a fresh one once the previous
    /// submission has completed. An error while the previous submission is still running.
    pub fn prepare(&self) -> Result<TaskRef> {
        let mut cur = self.lock();
        if let Some(t) = cur.as_ref() {
            if !t.is_submitted() {
                return Ok(t.clone());
            }
            if !t.is_completed() {
                return Err(Error::invalid(
                    "task submitted again before its previous submission ended \
                     (use another task, or wait for it)",
                ));
            }
        }
        let t = Task::new();
        self.current_id.store(t.id(), Ordering::Release);
        *cur = Some(t.clone());
        Ok(t)
    }

    /// The current submission (or the prepared one), if any.
    pub fn current(&self) -> Option<TaskRef> {
        self.lock().clone()
    }

    /// The submission whose end can still be delayed: the current one unless it has
    /// ended, else the next one (end dependencies added from inside a running task, or
    /// before a submission).
    pub fn current_or_next(&self) -> Result<TaskRef> {
        match self.current() {
            Some(t) if !t.is_terminated() => Ok(t),
            _ => self.prepare(),
        }
    }

    /// The task other tasks depend on when they name this one: the current submission
    /// (if it has ended, the dependency is met already), or the next one when there has
    /// been none.
    pub fn as_predecessor(&self) -> Result<TaskRef> {
        match self.current() {
            Some(t) => Ok(t),
            None => self.prepare(),
        }
    }

    /// Whether `task` is the current submission (not replaced by a newer one).
    pub fn is_current(&self, task: &Task) -> bool {
        self.current_id.load(Ordering::Acquire) == task.id()
    }

    /// Forgets every submission (`starpu_task_clean`).
    pub fn reset(&self) {
        let old = {
            let mut cur = self.lock();
            self.current_id.store(0, Ordering::Release);
            cur.take()
        };
        drop(old);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::task::state;
    use std::sync::Arc;

    #[test]
    fn a_new_submission_waits_for_the_previous_one_to_complete() {
        let slot = TaskSlot::default();
        let a = slot.prepare().unwrap();
        assert!(
            Arc::ptr_eq(&a, &slot.prepare().unwrap()),
            "not submitted yet"
        );
        a.set_state(state::RUNNING);
        assert!(slot.prepare().is_err());
        a.set_state(state::COMPLETED);
        let b = slot.prepare().unwrap();
        assert!(!Arc::ptr_eq(&a, &b));
        assert!(Arc::ptr_eq(&slot.current().unwrap(), &b));
        assert!(slot.is_current(&b) && !slot.is_current(&a));
        slot.reset();
        assert!(slot.current().is_none() && !slot.is_current(&b));
    }
}
