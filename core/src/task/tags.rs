//! Tags: application-chosen 64-bit names for tasks, with dependencies between tags
//! (`starpu_tag_declare_deps`) and waits on them (`starpu_tag_wait`).
//!
//! A tag is done when the task carrying it ends, or when the application says so
//! (`starpu_tag_notify_from_apps`). A task whose tag depends on other tags waits for them
//! like for any other predecessor: through the `pending` count.

use super::{ReadyList, TaskRef};
use std::collections::HashMap;
use std::sync::Mutex;

#[derive(Default)]
struct TagState {
    done: bool,
    /// Tags this tag depends on.
    deps: Vec<u64>,
    /// Tasks waiting for this tag to be done.
    waiting: Vec<TaskRef>,
}

#[derive(Default)]
pub struct Tags {
    map: Mutex<HashMap<u64, TagState>>,
}

impl Tags {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, TagState>> {
        self.map.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// `id` will not be ready before every tag of `deps` is done.
    pub fn declare_deps(&self, id: u64, deps: &[u64]) {
        let mut map = self.lock();
        for d in deps {
            map.entry(*d).or_default();
        }
        map.entry(id).or_default().deps.extend_from_slice(deps);
    }

    /// Binds a task being submitted to tag `id`: the tag is (again) not done, and the task
    /// waits for the tags `id` depends on.
    pub(crate) fn attach(&self, id: u64, task: &TaskRef) {
        let mut map = self.lock();
        let deps = {
            let state = map.entry(id).or_default();
            state.done = false;
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
        tags.declare_deps(3, &[1, 2]);
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
}
