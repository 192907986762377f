//! Implicit dependencies: tasks using the same data run in an order consistent with their
//! submission order (StarPU's sequential consistency).
//!
//! Per handle we remember the last task that wrote it and the tasks that read it since.
//! A reader waits for the last writer; a writer waits for the readers since the last
//! writer, or for the last writer itself when nobody read in between. Commuting and
//! reduction accesses are ordered like writes, which is one of the orders StarPU allows.

use super::AccessMode;
use crate::task::TaskRef;

/// Readers are pruned of finished tasks when their list doubles, so a long run of readers
/// costs amortised O(1) per task and memory proportional to the unfinished ones.
const MIN_COMPACTION: usize = 32;

#[derive(Default)]
pub(crate) struct ImplicitDeps {
    last_writer: Option<TaskRef>,
    readers: Vec<TaskRef>,
    compact_at: usize,
}

impl ImplicitDeps {
    /// Orders `task`, accessing in `mode`, after the accesses registered before it.
    pub(crate) fn register(&mut self, task: &TaskRef, mode: AccessMode) {
        if mode.is_scratch() {
            return;
        }
        if mode.writes() {
            if self.readers.is_empty() {
                if let Some(w) = &self.last_writer {
                    w.add_data_successor(task);
                }
            } else {
                for r in self.readers.drain(..) {
                    r.add_data_successor(task);
                }
            }
            self.compact_at = 0;
            self.last_writer = Some(task.clone());
        } else {
            // A writer that released its data needs no edge, nor to be remembered.
            if let Some(w) = &self.last_writer {
                if !w.add_data_successor(task) {
                    self.last_writer = None;
                }
            }
            if self.readers.len() >= self.compact_at.max(MIN_COMPACTION) {
                self.readers.retain(|r| !r.data_released());
                self.compact_at = self.readers.len() * 2;
            }
            self.readers.push(task.clone());
        }
    }
}
