//! eager: every ready task goes into one central FIFO; any idle worker takes the oldest.

use super::queue::FifoQueue;
use super::Policy;
use crate::task::{Task, TaskRef};

#[derive(Default)]
pub struct Eager {
    queue: FifoQueue,
}

impl Policy for Eager {
    fn name(&self) -> &'static str {
        "eager"
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
        self.queue.pop_front(can_run)
    }
    fn has_work(&self, _worker: usize) -> bool {
        !self.queue.is_empty()
    }
    fn ntasks(&self) -> usize {
        self.queue.len()
    }
}
