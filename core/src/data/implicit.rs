//! Implicit dependencies: tasks using the same data run in an order consistent with their
//! submission order (StarPU's sequential consistency).
//!
//! Per handle we remember the last *write epoch* and the tasks that read since. An epoch is
//! one plain writer (W, RW), or a group of consecutive writers that may run in any order
//! among themselves: commuting writers (`RW|COMMUTE`, kept apart at run time by
//! `commute.rs`), or reduction contributors (`REDUX`, each working on its worker's own
//! contribution, `redux.rs`). A reader waits for every task of the last epoch; a writer
//! starting a new epoch waits for the readers since, or for the last epoch itself when
//! nobody read in between; a task joining a group waits for what the group's first member
//! waited for. When anything but a contribution follows a reduction group, the
//! reduction tasks that fold the contributions into the data are made first and become
//! the last epoch, so the next access sees the reduced value.

use super::AccessMode;
use crate::task::{Task, TaskRef};
use smallvec::SmallVec;

/// Readers are pruned of finished tasks when their list doubles, so a long run of readers
/// costs amortised O(1) per task and memory proportional to the unfinished ones.
const MIN_COMPACTION: usize = 32;

#[derive(Default, Clone, Copy, PartialEq, Eq, Debug)]
enum Epoch {
    #[default]
    Plain,
    Commute,
    Redux,
}

impl Epoch {
    fn of(mode: AccessMode) -> Epoch {
        if mode.is_redux() {
            Epoch::Redux
        } else if mode.is_commute() && mode.writes() {
            Epoch::Commute
        } else {
            Epoch::Plain
        }
    }
}

#[derive(Default)]
pub(crate) struct ImplicitDeps {
    /// The tasks of the last write epoch (one, unless it is a group).
    writers: SmallVec<[TaskRef; 1]>,
    epoch: Epoch,
    /// What the current group's first member waited for: the later members wait for the
    /// same tasks (those still running).
    group_preds: SmallVec<[TaskRef; 2]>,
    readers: Vec<TaskRef>,
    compact_at: usize,
    /// Readers pruned because they completed, for the caller to hand to the workers
    /// (`task/graveyard.rs`) rather than drop them under this lock.
    pruned: Vec<TaskRef>,
}

/// Makes the tasks that reduce a group's contributions into the data: given the group's
/// members, returns the task the next accesses must wait for.
pub(crate) type ReduceWith<'a> = &'a mut dyn FnMut(SmallVec<[TaskRef; 1]>) -> TaskRef;

impl ImplicitDeps {
    /// Orders `task`, accessing in `mode`, after the accesses registered before it.
    pub(crate) fn register(&mut self, task: &TaskRef, mode: AccessMode, reduce: ReduceWith) {
        if mode.is_scratch() {
            return;
        }
        let kind = Epoch::of(mode);
        if kind != Epoch::Redux {
            self.end_reduction(reduce);
        }
        if !mode.writes() {
            // Writers that released their data need no edge, nor to be remembered.
            self.writers.retain(|w| w.add_data_successor(task));
            if self.readers.len() >= self.compact_at.max(MIN_COMPACTION) {
                let pruned = &mut self.pruned;
                self.readers.retain(|r| {
                    let done = r.data_released();
                    if done {
                        pruned.push(r.clone());
                    }
                    !done
                });
                self.compact_at = self.readers.len() * 2;
            }
            self.readers.push(task.clone());
            return;
        }
        if kind == Epoch::Plain && self.epoch == Epoch::Plain && self.readers.is_empty() {
            // The common case, one writer after another: the new writer replaces the last
            // one (which needs no edge if it released its data already).
            match self.writers.len() {
                0 => {}
                1 => {
                    let last = std::mem::replace(&mut self.writers[0], task.clone());
                    last.add_data_successor(task);
                    return;
                }
                _ => {
                    for w in self.writers.drain(..) {
                        w.add_data_successor(task);
                    }
                }
            }
            self.writers.push(task.clone());
            return;
        }
        if kind != Epoch::Plain && kind == self.epoch && self.readers.is_empty() {
            self.group_preds.retain(|p| p.add_data_successor(task));
            // A long group forgets its finished members now and then (at each power of
            // two), as the readers do.
            let n = self.writers.len();
            if n >= MIN_COMPACTION && n.is_power_of_two() {
                self.writers.retain(|w| !w.data_released());
            }
            self.writers.push(task.clone());
            return;
        }
        let preds: SmallVec<[TaskRef; 2]> = if self.readers.is_empty() {
            self.writers.drain(..).collect()
        } else {
            self.readers.drain(..).collect()
        };
        self.group_preds.clear();
        for p in preds {
            if p.add_data_successor(task) && kind != Epoch::Plain {
                self.group_preds.push(p);
            }
        }
        self.compact_at = 0;
        self.writers.clear();
        self.writers.push(task.clone());
        self.epoch = kind;
    }

    /// The registered tasks an access in `mode` conflicts with: the last write epoch, and
    /// for a writer the readers since.
    pub(crate) fn conflicting(&self, mode: AccessMode) -> impl Iterator<Item = &TaskRef> {
        let readers: &[TaskRef] = if mode.writes() { &self.readers } else { &[] };
        self.writers.iter().chain(readers)
    }

    /// The readers pruned since the last call.
    pub(crate) fn take_pruned(&mut self) -> Vec<TaskRef> {
        std::mem::take(&mut self.pruned)
    }

    /// `task`, a plain writer, has completed: if it is still the last writer and nobody
    /// read since, it is forgotten now (later accesses need no edge to it) and returned,
    /// so that the worker that ran it, not the next submitter, drops it.
    pub(crate) fn forget_completed_writer(&mut self, task: &Task) -> Option<TaskRef> {
        let last = self.writers.first()?;
        if self.epoch == Epoch::Plain
            && self.readers.is_empty()
            && self.writers.len() == 1
            && std::ptr::eq(&**last, task)
        {
            return self.writers.pop();
        }
        None
    }

    /// If the last epoch is a reduction group, closes it: the tasks made by `reduce` become
    /// the last epoch. Called before another access, and before unregistration.
    pub(crate) fn end_reduction(&mut self, reduce: ReduceWith) {
        if self.epoch != Epoch::Redux {
            return;
        }
        let members = std::mem::take(&mut self.writers);
        let last = reduce(members);
        self.writers.push(last);
        self.group_preds.clear();
        self.epoch = Epoch::Plain;
    }
}
