//! Tags: application-chosen 64-bit names for tasks, with dependencies between tags
//! (`starpu_tag_declare_deps`) and waits on them (`starpu_tag_wait`).
//!
//! A tag is done when the task carrying it ends, or when the application says so
//! (`starpu_tag_notify_from_apps`). A task whose tag depends on other tags waits for them
//! like for any other predecessor: through the `pending` count.

use super::{ReadyList, TaskRef};
use crate::error::{Error, Result};
use std::collections::HashMap;
use std::sync::Mutex;

#[derive(Default)]
struct TagState {
    done: bool,
    /// Tags this tag depends on.
    deps: Vec<u64>,
    /// Tasks waiting for this tag to be done.
    waiting: Vec<TaskRef>,
    /// The last task submitted with this tag (`starpu_tag_get_task`).
    carrier: Option<std::sync::Weak<super::Task>>,
}

/// How many tags a cycle search visits at most.
const CYCLE_SEARCH: usize = 4096;

/// Whether `target` is `from` or a tag `from` depends on (within the search budget).
fn reaches(map: &HashMap<u64, TagState>, from: u64, target: u64) -> bool {
    let mut stack = vec![from];
    let mut seen = std::collections::HashSet::new();
    while let Some(t) = stack.pop() {
        if t == target {
            return true;
        }
        if seen.len() >= CYCLE_SEARCH || !seen.insert(t) {
            continue;
        }
        if let Some(s) = map.get(&t) {
            stack.extend(s.deps.iter().copied());
        }
    }
    false
}

#[derive(Default)]
pub struct Tags {
    map: Mutex<HashMap<u64, TagState>>,
}

impl Tags {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, TagState>> {
        self.map.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// `id` will not be ready before every tag of `deps` is done. A dependency that would
    /// close a cycle (a tag depending on itself, directly or through the tags it depends
    /// on) is refused: the tasks carrying those tags could never run. Cycles are looked for
    /// among the first `CYCLE_SEARCH` tags reachable, which keeps declaration cheap; longer
    /// ones are left to the watchdog.
    pub fn declare_deps(&self, id: u64, deps: &[u64]) -> Result<()> {
        let mut map = self.lock();
        for &d in deps {
            if reaches(&map, d, id) {
                return Err(Error::invalid(format!(
                    "tag {id} cannot depend on tag {d}: {}",
                    if d == id {
                        "a tag cannot depend on itself".to_string()
                    } else {
                        format!("tag {d} already depends on tag {id} (a cycle)")
                    }
                )));
            }
        }
        for d in deps {
            super::observer::declared(super::observer::Dependency::Tag { tag: id, dep: *d });
            map.entry(*d).or_default();
        }
        map.entry(id).or_default().deps.extend_from_slice(deps);
        Ok(())
    }

    /// Binds a task being submitted to tag `id`: the tag is (again) not done, and the task
    /// waits for the tags `id` depends on.
    pub(crate) fn attach(&self, id: u64, task: &TaskRef) {
        let mut map = self.lock();
        let deps = {
            let state = map.entry(id).or_default();
            state.done = false;
            state.carrier = Some(std::sync::Arc::downgrade(task));
            state.deps.clone()
        };
        for d in deps {
            let dep = map.entry(d).or_default();
            if !dep.done {
                task.pending
                    .fetch_add(1, std::sync::atomic::Ordering::AcqRel);
                dep.waiting.push(task.clone());
            }
        }
    }

    /// Marks `id` done; tasks it was the last dependency of go to `ready`.
    pub(crate) fn notify(&self, id: u64, ready: &mut ReadyList) {
        let waiting = {
            let mut map = self.lock();
            let state = map.entry(id).or_default();
            state.done = true;
            std::mem::take(&mut state.waiting)
        };
        for t in waiting {
            if t.drop_pending() {
                ready.push(t);
            }
        }
    }

    /// Tags not done yet with the tasks waiting for them, for reports (the watchdog).
    pub(crate) fn pending_waits(&self) -> Vec<(u64, Vec<TaskRef>)> {
        self.lock()
            .iter()
            .filter(|(_, s)| !s.done && !s.waiting.is_empty())
            .map(|(&id, s)| (id, s.waiting.clone()))
            .collect()
    }

    /// The last task submitted with tag `id`, while it exists.
    pub fn task_of(&self, id: u64) -> Option<TaskRef> {
        self.lock().get(&id)?.carrier.as_ref()?.upgrade()
    }

    pub fn is_done(&self, id: u64) -> bool {
        self.lock().get(&id).is_some_and(|s| s.done)
    }

    /// Forgets tag `id` (`starpu_tag_remove`).
    pub fn remove(&self, id: u64) {
        self.lock().remove(&id);
    }

    /// Makes a done tag not done again, so it can be waited for anew (`starpu_tag_restart`).
    pub fn restart(&self, id: u64) {
        self.lock().entry(id).or_default().done = false;
    }

    pub fn clear(&self) {
        self.lock().clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::task::Task;

    #[test]
    fn task_waits_for_the_tags_its_tag_depends_on() {
        let tags = Tags::default();
        tags.declare_deps(3, &[1, 2]).unwrap();
        let t = Task::new();
        tags.attach(3, &t);
        assert!(!t.drop_pending(), "guard plus two tag dependencies");
        let mut ready = ReadyList::new();
        tags.notify(1, &mut ready);
        assert!(ready.is_empty());
        tags.notify(2, &mut ready);
        assert_eq!(ready.len(), 1);
        assert!(tags.is_done(1) && tags.is_done(2) && !tags.is_done(3));
        tags.notify(3, &mut ready);
        assert!(tags.is_done(3));
        tags.restart(3);
        assert!(!tags.is_done(3));
    }

    #[test]
    fn cycles_are_refused_at_declaration() {
        let tags = Tags::default();
        assert!(tags.declare_deps(7, &[7]).is_err());
        tags.declare_deps(2, &[1]).unwrap();
        tags.declare_deps(3, &[2]).unwrap();
        let e = tags.declare_deps(1, &[4, 3]).unwrap_err();
        assert!(e.message.contains("cycle"), "{}", e.message);
        // Refused as a whole: 4 was not recorded as a dependency of 1.
        tags.declare_deps(4, &[1]).unwrap();
    }
}
