//! Blocking waits of application threads: for all tasks, for one task, for tags.
//!
//! Workers and callbacks must not block on tasks (the task they wait for may need their
//! own thread): those calls return `Deadlock` there instead of hanging.

use super::Runtime;
use crate::error::{Error, Result};
use crate::task::TaskRef;
use crate::worker;
use std::sync::atomic::Ordering;

fn check_may_block(call: &str) -> Result<()> {
    if worker::may_block() {
        Ok(())
    } else {
        Err(Error::deadlock(format!(
            "{call} cannot be called from a task or a callback"
        )))
    }
}

impl Runtime {
    /// Waits until every submitted task has ended (`starpu_task_wait_for_all`).
    pub fn wait_for_all(&self) -> Result<()> {
        check_may_block("starpu_task_wait_for_all")?;
        self.all_bell
            .wait_until(|| self.submitted.load(Ordering::SeqCst) == 0);
        Ok(())
    }

    /// Waits until at most `n` submitted tasks remain (`starpu_task_wait_for_n_submitted`).
    pub fn wait_for_n_submitted(&self, n: usize) {
        if self.submitted.load(Ordering::SeqCst) <= n {
            return;
        }
        self.watermark.fetch_max(n, Ordering::SeqCst);
        self.all_bell
            .wait_until(|| self.submitted.load(Ordering::SeqCst) <= n);
        // Later waiters raise it again if they need; 0 is what wait_for_all needs.
        let _ = self
            .watermark
            .compare_exchange(n, 0, Ordering::SeqCst, Ordering::SeqCst);
    }

    /// Waits for one task to end; returns its failure if its kernel failed.
    pub fn wait_task(&self, task: &TaskRef) -> Result<()> {
        check_may_block("starpu_task_wait")?;
        if !task.is_submitted() {
            return Err(Error::invalid(
                "cannot wait for a task that was not submitted",
            ));
        }
        self.task_bell.wait_until(|| task.is_terminated());
        match task.failure() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Waits until every tag of `ids` is done (`starpu_tag_wait_array`).
    pub fn tag_wait(&self, ids: &[u64]) -> Result<()> {
        check_may_block("starpu_tag_wait")?;
        self.task_bell
            .wait_until(|| ids.iter().all(|&id| self.tags.is_done(id)));
        Ok(())
    }

    /// Marks tag `id` done from the application (`starpu_tag_notify_from_apps`).
    pub fn tag_notify(&'static self, id: u64) {
        let mut ready = super::ReadyList::new();
        self.tags.notify(id, &mut ready);
        self.task_bell.ring();
        self.schedule(ready);
    }

    pub(crate) fn check_may_block(&self, call: &str) -> Result<()> {
        check_may_block(call)
    }
}
