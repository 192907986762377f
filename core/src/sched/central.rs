//! Policies with one central queue shared by all workers: `eager` (FIFO) and `prio`
//! (ordered by task priority).

use super::queue::TaskQueue;
use super::{Policy, SchedView};
use crate::task::{Task, TaskRef};

pub struct Central<Q> {
    name: &'static str,
    queue: Q,
    priorities: (i32, i32),
}

impl<Q: TaskQueue + Default> Central<Q> {
    pub fn new(name: &'static str, priorities: (i32, i32)) -> Self {
        Central {
            name,
            queue: Q::default(),
            priorities,
        }
    }
}

impl<Q: TaskQueue> Policy for Central<Q> {
    fn name(&self) -> &'static str {
        self.name
    }
    fn push(&self, task: TaskRef, _from: Option<usize>, _view: &dyn SchedView) -> Option<usize> {
        self.queue.push_many(std::iter::once(task));
        None
    }
    fn push_all(
        &self,
        tasks: Vec<TaskRef>,
        _from: Option<usize>,
        _view: &dyn SchedView,
    ) -> Vec<Option<usize>> {
        let n = tasks.len();
        self.queue.push_many(tasks);
        vec![None; n]
    }
    fn pop(&self, _worker: usize, can_run: &dyn Fn(&Task) -> bool) -> Option<TaskRef> {
        self.queue.pop_best(can_run)
    }
    fn has_work(&self, _worker: usize) -> bool {
        !self.queue.is_empty()
    }
    fn ntasks(&self) -> usize {
        self.queue.len()
    }
    fn priority_range(&self) -> (i32, i32) {
        self.priorities
    }
}
