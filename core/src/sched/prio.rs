//! prio: one central queue ordered by task priority (FIFO among equal priorities).

use super::queue::PrioQueue;
use super::Policy;
use crate::task::{Task, TaskRef};

#[derive(Default)]
pub struct Prio {
    queue: PrioQueue,
}

impl Policy for Prio {
    fn name(&self) -> &'static str {
        "prio"
    }
    fn push(
        &self,
        task: TaskRef,
        _from: Option<usize>,
        _can_run: &dyn Fn(&Task, usize) -> bool,
    ) -> Option<usize> {
        self.queue.push(task);
        None
    }
    fn push_all(
        &self,
        tasks: Vec<TaskRef>,
        _from: Option<usize>,
        _can_run: &dyn Fn(&Task, usize) -> bool,
    ) -> Vec<Option<usize>> {
        let n = tasks.len();
        self.queue.push_many(tasks);
        vec![None; n]
    }
    fn pop(&self, _worker: usize, can_run: &dyn Fn(&Task) -> bool) -> Option<TaskRef> {
        self.queue.pop(can_run)
    }
    fn has_work(&self, _worker: usize) -> bool {
        !self.queue.is_empty()
    }
    fn ntasks(&self) -> usize {
        self.queue.len()
    }
    fn priority_range(&self) -> (i32, i32) {
        (i32::MIN, i32::MAX)
    }
}
