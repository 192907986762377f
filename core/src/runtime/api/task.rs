//! Tasks: building them (`Runtime::task`) and transactions.

use crate::error::Result;
use crate::runtime::Runtime;
use crate::task::{Codelet, Task, TaskBuilder, TaskRef, Transaction};
use std::sync::Arc;

impl Runtime {
    /// Starts describing a task running `codelet`.
    pub fn task(&self, codelet: &Arc<Codelet>) -> TaskBuilder<'_> {
        TaskBuilder::new(self, Some(codelet.clone()), Task::new())
    }

    /// Starts describing a task with no codelet: it runs nothing and only carries
    /// dependencies (a synchronisation point).
    pub fn empty_task(&self) -> TaskBuilder<'_> {
        TaskBuilder::new(self, None, Task::new())
    }

    /// Starts describing the next submission of a task that already exists (declared as a
    /// dependency of others before being submitted, or one submission of a `TaskSlot`).
    pub fn task_for(&self, task: TaskRef, codelet: Option<Arc<Codelet>>) -> TaskBuilder<'_> {
        TaskBuilder::new(self, codelet, task)
    }
}

impl Runtime {
    /// Opens a transaction and its first epoch, whose tasks run if `start` answers true
    /// (`starpu_transaction_open`).
    pub fn transaction_open(
        &self,
        start: impl FnOnce() -> bool + Send + 'static,
    ) -> Result<Transaction> {
        crate::task::transaction::open(self, start)
    }
}
