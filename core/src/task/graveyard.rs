//! Finished tasks handed to the workers to be dropped.
//!
//! A task's last reference is often held by the dependency bookkeeping of its data: the
//! readers of a handle, pruned now and then by the thread that submits more readers.
//! Dropping the task there would make the submitting thread, the bottleneck of small tasks,
//! pay for freeing it and for its face's release of its own task object. Pruned tasks are
//! buried here instead; workers drop a few between two tasks and all of them before they
//! sleep, and `wait_for_all` empties what is left.

use super::TaskRef;
use crossbeam_queue::SegQueue;

#[derive(Default)]
pub(crate) struct Graveyard(SegQueue<TaskRef>);

impl Graveyard {
    pub(crate) fn bury(&self, tasks: Vec<TaskRef>) {
        for t in tasks {
            self.0.push(t);
        }
    }

    /// Drops at most `max` buried tasks.
    pub(crate) fn dig(&self, max: usize) {
        for _ in 0..max {
            if self.0.pop().is_none() {
                break;
            }
        }
    }

    /// Drops every buried task.
    pub(crate) fn empty(&self) {
        while self.0.pop().is_some() {}
    }
}
