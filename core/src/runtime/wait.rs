//! Blocking waits of application threads: for all tasks, for one task, for tags.
//!
//! Workers and callbacks must not block on tasks (the task they wait for may need their
//! own thread): those calls return `Deadlock` there instead of hanging.

use super::Runtime;
use crate::error::{Error, Result};
use crate::task::TaskRef;
use crate::worker;
use std::sync::atomic::Ordering;

fn check_may_block(what: &str) -> Result<()> {
    if worker::may_block() {
        Ok(())
    } else {
        Err(Error::deadlock(format!(
            "{what}: not allowed from a task or a callback (it would wait for itself)"
        )))
    }
}

impl Runtime {
    /// Waits until every submitted task has ended (`starpu_task_wait_for_all`). Returns a
    /// `TaskFailed` error when tasks failed since the previous call: how many, and the
    /// first one's message (see `Task::failure` for each).
    pub fn wait_for_all(&self) -> Result<()> {
        self.check_may_block("waiting for all tasks")?;
        self.trace.wait_begin(crate::trace::WaitKind::All, None);
        self.all_bell
            .wait_until(|| self.submitted.load(Ordering::SeqCst) == 0);
        self.trace.wait_end();
        self.graveyard.empty();
        match self.failures.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Waits until at most `n` submitted tasks remain (`starpu_task_wait_for_n_submitted`);
    /// refused from a task or a callback.
    pub fn wait_until_at_most(&self, n: usize) -> Result<()> {
        self.check_may_block("waiting for submitted tasks")?;
        self.wait_for_n_submitted(n);
        Ok(())
    }

    /// Waits until no task waits for a worker (`starpu_task_wait_for_no_ready`): every
    /// ready task has been taken. Polls: the queues have no bell of their own.
    pub fn wait_for_no_ready(&self) -> Result<()> {
        self.check_may_block("waiting for ready tasks to be taken")?;
        while self.nready() > 0 {
            std::thread::sleep(std::time::Duration::from_micros(50));
        }
        Ok(())
    }

    /// Waits until at most `n` submitted tasks remain (the submission throttle).
    pub(crate) fn wait_for_n_submitted(&self, n: usize) {
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

    /// Waits for one task to end (`starpu_task_wait`); returns its failure if it failed.
    /// Only tasks submitted with `detach(false)` may be waited for: a detached task may be
    /// gone by the time anyone waits (its face may free it as soon as it ends).
    pub fn wait(&self, task: &TaskRef) -> Result<()> {
        self.check_may_block("waiting for a task")?;
        let Some(spec) = task.spec() else {
            return Err(Error::invalid(
                "waiting for a task: the task was not submitted",
            ));
        };
        if spec.detached && !spec.synchronous {
            return Err(Error::invalid(
                "waiting for a task: the task is detached (submit it with detach off to wait \
                 for it)",
            ));
        }
        self.wait_task(task)
    }

    /// Waits for one task to end, detached or not; returns its failure if it failed.
    pub(crate) fn wait_task(&self, task: &TaskRef) -> Result<()> {
        self.check_may_block("waiting for a task")?;
        if !task.is_submitted() {
            return Err(Error::invalid(
                "waiting for a task: the task was not submitted",
            ));
        }
        self.trace
            .wait_begin(crate::trace::WaitKind::Task, Some(task));
        self.task_bell.wait_until(|| task.is_settled());
        self.trace.wait_end();
        match task.failure() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Waits until every tag of `ids` is done (`starpu_tag_wait_array`).
    pub fn tag_wait(&self, ids: &[u64]) -> Result<()> {
        self.check_may_block("waiting for a tag")?;
        self.trace.wait_begin(crate::trace::WaitKind::Tag, None);
        self.task_bell
            .wait_until(|| ids.iter().all(|&id| self.tags.is_done(id)));
        self.trace.wait_end();
        Ok(())
    }

    /// Marks tag `id` done from the application (`starpu_tag_notify_from_apps`).
    pub fn tag_notify(&self, id: u64) {
        let mut ready = super::ReadyList::new();
        self.tags.notify(id, &mut ready);
        self.task_bell.ring();
        self.schedule(ready);
    }

    /// Checks that this thread may block to wait for tasks, then lets tasks a policy holds
    /// back go (as StarPU's waits call `starpu_do_schedule`): otherwise, under a policy
    /// that waits for the whole graph, the program would wait for tasks that wait for it.
    pub(crate) fn check_may_block(&self, what: &str) -> Result<()> {
        check_may_block(what)?;
        self.do_schedule();
        Ok(())
    }
}
