//! Dependency edges between tasks.
//!
//! Every dependency, implicit (data), explicit (`declare_deps`) or through a tag, ends up as
//! an edge "successor waits for predecessor": the successor's `pending` count goes up by
//! one and the predecessor keeps it in one of its successor lists, and later hands it one
//! decrement; the one that reaches zero is ready.
//!
//! Data successors are released when the predecessor has completed (its kernel is done
//! with the data), explicit successors when it has ended. The two differ when end
//! dependencies hold a task: a task that, while running, submits a child on its own data
//! and makes its own end wait for the child's (StarPU's end dependencies) must let the
//! child at the data before it ends.

use super::{ReadyList, Task, TaskRef};
use smallvec::SmallVec;
use std::sync::atomic::Ordering;

#[derive(Default)]
pub(crate) struct Successors {
    /// The task has ended and released its successors: later edges are pointless.
    released: bool,
    list: SmallVec<[TaskRef; 2]>,
    /// The task has completed and released its data successors.
    data_released: bool,
    data_list: SmallVec<[TaskRef; 2]>,
    /// Tasks whose end waits for this task's end (`starpu_task_declare_end_deps`).
    ends: Vec<TaskRef>,
}

impl Task {
    /// Makes `succ` wait for the end of `self`. Returns false, adding nothing, when `self`
    /// has already released its successors.
    pub(crate) fn add_successor(&self, succ: &TaskRef) -> bool {
        let mut s = self.successors.lock().unwrap_or_else(|e| e.into_inner());
        if s.released {
            return false;
        }
        succ.pending.fetch_add(1, Ordering::AcqRel);
        s.list.push(succ.clone());
        true
    }

    /// Makes `succ` wait until `self` is done with its data (its completion). Returns false,
    /// adding nothing, when that has happened already.
    pub(crate) fn add_data_successor(&self, succ: &TaskRef) -> bool {
        let mut s = self.successors.lock().unwrap_or_else(|e| e.into_inner());
        if s.data_released {
            return false;
        }
        succ.pending.fetch_add(1, Ordering::AcqRel);
        s.data_list.push(succ.clone());
        true
    }

    /// Whether the task's data successors were released (it completed).
    pub(crate) fn data_released(&self) -> bool {
        self.successors
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .data_released
    }

    /// The task is done with its data: data successors left with no pending dependency go
    /// to `ready`.
    pub(crate) fn release_data_successors(&self, ready: &mut ReadyList) {
        let list = {
            let mut s = self.successors.lock().unwrap_or_else(|e| e.into_inner());
            s.data_released = true;
            if s.data_list.is_empty() {
                return;
            }
            std::mem::take(&mut s.data_list)
        };
        for t in list {
            if t.drop_pending() {
                ready.push(t);
            }
        }
    }

    /// Makes the end of `self` wait for the end of `pred` (not only for its start).
    pub fn add_end_dependency(self: &std::sync::Arc<Self>, pred: &TaskRef) {
        super::observer::declared(super::observer::Dependency::End {
            pred: pred.id(),
            succ: self.id(),
        });
        let mut s = pred.successors.lock().unwrap_or_else(|e| e.into_inner());
        if s.released {
            return;
        }
        self.end_dep_add(1);
        s.ends.push(self.clone());
    }

    /// Ends this task's role as a predecessor; successors left with no pending dependency
    /// are appended to `ready`. Returns the tasks whose end waited for this one.
    pub(crate) fn release_successors(&self, ready: &mut ReadyList) -> Vec<TaskRef> {
        let (list, ends) = {
            let mut s = self.successors.lock().unwrap_or_else(|e| e.into_inner());
            s.released = true;
            if s.list.is_empty() && s.ends.is_empty() {
                // Most tasks have no explicit successor: nothing to move out.
                return Vec::new();
            }
            (std::mem::take(&mut s.list), std::mem::take(&mut s.ends))
        };
        for t in list {
            if t.drop_pending() {
                ready.push(t);
            }
        }
        ends
    }

    /// Whether `target` waits for `self`, directly or through other tasks: it is among the
    /// tasks reached from `self` through successor edges. Explicit dependencies may be
    /// declared in any order, so this is how a cycle is found before it hangs a program.
    pub(crate) fn reaches(&self, target: &Task) -> bool {
        let mut stack: Vec<TaskRef> = {
            let s = self.successors.lock().unwrap_or_else(|e| e.into_inner());
            if s.list.is_empty() && s.data_list.is_empty() {
                // The common case: nothing waits for this task yet.
                return false;
            }
            s.list.iter().chain(s.data_list.iter()).cloned().collect()
        };
        let mut seen = std::collections::HashSet::new();
        while let Some(t) = stack.pop() {
            if std::ptr::eq(&*t, target) {
                return true;
            }
            if seen.insert(std::sync::Arc::as_ptr(&t) as usize) {
                let s = t.successors.lock().unwrap_or_else(|e| e.into_inner());
                stack.extend(s.list.iter().chain(s.data_list.iter()).cloned());
            }
        }
        false
    }

    /// The tasks waiting for this one's data and for its end, for reports (the watchdog).
    pub(crate) fn successors_snapshot(&self) -> (Vec<TaskRef>, Vec<TaskRef>) {
        let s = self.successors.lock().unwrap_or_else(|e| e.into_inner());
        (s.data_list.to_vec(), s.list.to_vec())
    }

    /// Removes one pending dependency; true when it was the last one.
    pub(crate) fn drop_pending(&self) -> bool {
        self.pending.fetch_sub(1, Ordering::AcqRel) == 1
    }

    /// The tasks waiting for this one's end or its data, each with its number of
    /// dependencies still pending: the task graph as a policy sees it (heteroprio's
    /// auto-calibration weighs a task by what it frees; graph_test walks the graph).
    pub(crate) fn successors_pending(&self) -> Vec<(TaskRef, usize)> {
        let s = self.successors.lock().unwrap_or_else(|e| e.into_inner());
        s.list
            .iter()
            .chain(s.data_list.iter())
            .map(|t| (t.clone(), t.pending.load(Ordering::Acquire) as usize))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn last_released_dependency_makes_the_successor_ready() {
        let (a, b, c) = (Task::new(), Task::new(), Task::new());
        assert!(a.add_successor(&c));
        assert!(b.add_successor(&c));
        assert!(!c.drop_pending(), "the submission guard still holds");
        let mut ready = ReadyList::new();
        a.release_successors(&mut ready);
        assert!(ready.is_empty());
        b.release_successors(&mut ready);
        assert_eq!(ready.len(), 1);
        assert_eq!(ready[0].id(), c.id());
        assert!(
            !a.add_successor(&c),
            "no edge from a task that already ended"
        );
    }

    #[test]
    fn reachability_follows_successor_edges() {
        let (a, b, c) = (Task::new(), Task::new(), Task::new());
        a.add_successor(&b);
        b.add_successor(&c);
        assert!(a.reaches(&c) && a.reaches(&b) && b.reaches(&c));
        assert!(!c.reaches(&a) && !a.reaches(&a));
        c.add_successor(&a);
        assert!(a.reaches(&a), "a cycle a -> b -> c -> a");
    }
}
