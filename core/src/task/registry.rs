//! Tasks a face waits for by number: a face that cannot hold a `TaskRef` across its
//! language boundary (Java keeps a `long`) keeps the task here at submission and waits for
//! it later by id (`Runtime::wait_ids`).
//!
//! An entry leaves when its task ends well (nothing is left to report), when it is waited
//! for, or, for a failed task nobody waited for, when `wait_for_all` reports the failure.
//! So the registry holds only tasks still running or failures still to report, and waiting
//! for an id that has left returns at once. An id no task ever had is an error.

use super::TaskRef;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

#[derive(Default)]
pub(crate) struct Waitables(Arc<Mutex<HashMap<u64, TaskRef>>>);

fn lock(m: &Mutex<HashMap<u64, TaskRef>>) -> MutexGuard<'_, HashMap<u64, TaskRef>> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Waitables {
    /// Keeps `task` until it ends well or its end is waited for or reported.
    pub(crate) fn keep(&self, task: &TaskRef) {
        lock(&self.0).insert(task.id(), task.clone());
        let map = self.0.clone();
        task.on_terminated(move |t| {
            if !t.has_failed() {
                lock(&map).remove(&t.id());
            }
        });
    }

    /// The kept task `id`, taken out of the registry.
    pub(crate) fn take(&self, id: u64) -> Option<TaskRef> {
        lock(&self.0).remove(&id)
    }

    /// Puts back a task taken out by `take` whose wait did not happen.
    pub(crate) fn put_back(&self, task: TaskRef) {
        lock(&self.0).insert(task.id(), task);
    }

    /// Forgets the tasks that have ended: their failures were just reported.
    pub(crate) fn forget_ended(&self) {
        lock(&self.0).retain(|_, t| !t.is_terminated());
    }

    pub(crate) fn clear(&self) {
        lock(&self.0).clear();
    }
}
