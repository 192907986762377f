//! Blocking waits of application threads: for all tasks, for one task, for tags.
//!
//! Workers and callbacks must not block on tasks (the task they wait for may need their
//! own thread): those calls return `Deadlock` there instead of hanging.

use super::Runtime;
use crate::error::{Error, ErrorKind, Result};
use crate::task::TaskRef;
use crate::worker;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Instant;

fn check_may_block(what: &str) -> Result<()> {
    if worker::may_block() {
        Ok(())
    } else {
        Err(Error::deadlock(format!(
            "{what}: not allowed from a task or a callback (it would wait for itself)"
        )))
    }
}

/// StarPU's rule for waiting on one task: it was submitted, and not detached (a detached
/// task may be gone by the time anyone waits: its face may free it as soon as it ends).
pub(crate) fn check_waitable(task: &TaskRef) -> Result<()> {
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
    Ok(())
}

impl Runtime {
    /// Waits until every submitted task has ended (`starpu_task_wait_for_all`). Returns a
    /// `TaskFailed` error when tasks failed since the previous call: how many, and the
    /// first one's message (see `Task::failure` for each).
    pub fn wait_for_all(&self) -> Result<()> {
        self.check_may_block("waiting for all tasks")?;
        self.trace.wait_begin(crate::trace::WaitKind::All, None);
        self.all_bell.wait_until(|| self.count.pending() == 0);
        self.trace.wait_end();
        self.graveyard.empty();
        // Failed tasks kept for a wait by id are reported now.
        self.waitables.forget_ended();
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
        if self.count.pending() <= n {
            return;
        }
        self.watermark.enter(n);
        self.all_bell.wait_until(|| self.count.pending() <= n);
        self.watermark.leave(n);
    }

    /// Waits for one task to end (`starpu_task_wait`); returns its failure if it failed.
    /// Only tasks submitted with `detach(false)` may be waited for: a detached task may be
    /// gone by the time anyone waits (its face may free it as soon as it ends).
    pub fn wait(&self, task: &TaskRef) -> Result<()> {
        self.check_may_block("waiting for a task")?;
        check_waitable(task)?;
        self.wait_task(task)
    }

    /// `wait` with a time limit: a `Timeout` error if the task has not ended by
    /// `deadline` (it goes on running; wait again later).
    pub fn wait_until(&self, task: &TaskRef, deadline: Instant) -> Result<()> {
        self.check_may_block("waiting for a task")?;
        check_waitable(task)?;
        if !self
            .task_bell
            .wait_until_deadline(|| task.is_settled(), deadline)
        {
            return Err(Error::timeout(format!(
                "task {} did not end in time",
                task.label()
            )));
        }
        task.failure().map_or(Ok(()), Err)
    }

    /// Waits for the end of a task the caller holds a reference to (a face's future), whether
    /// it was detached or not, until `deadline` if one is given (a `Timeout` error then; the
    /// task goes on running). Returns its failure if it failed. The may-block rule applies as
    /// for every wait. Unlike `wait`, the detach rule does not: holding the `TaskRef` keeps
    /// the task alive, which is all that rule protects.
    pub fn wait_held(&self, task: &TaskRef, deadline: Option<Instant>) -> Result<()> {
        self.check_may_block("waiting for a task")?;
        if !task.is_submitted() {
            return Err(Error::invalid(
                "waiting for a task: the task was not submitted",
            ));
        }
        if !task.is_terminated() {
            // Detached tasks do not ring the task bell when they end: this wait brings its
            // own signal, set by the task's end.
            let signal = Arc::new((Mutex::new(false), Condvar::new()));
            let end = signal.clone();
            task.on_terminated(move |_| {
                *end.0.lock().unwrap_or_else(|e| e.into_inner()) = true;
                end.1.notify_all();
            });
            let mut ended = signal.0.lock().unwrap_or_else(|e| e.into_inner());
            while !*ended {
                match deadline {
                    None => ended = signal.1.wait(ended).unwrap_or_else(|e| e.into_inner()),
                    Some(d) => {
                        let now = Instant::now();
                        if now >= d {
                            return Err(Error::timeout(format!(
                                "task {} did not end in time",
                                task.label()
                            )));
                        }
                        ended = signal
                            .1
                            .wait_timeout(ended, d - now)
                            .unwrap_or_else(|e| e.into_inner())
                            .0;
                    }
                }
            }
        }
        task.failure().map_or(Ok(()), Err)
    }

    /// Keeps `task` (submitted with `detach(false)`) so that it can be waited for by its id
    /// with [`Runtime::wait_ids`]: for faces that cannot hold a `TaskRef`.
    pub fn keep_for_wait(&self, task: &TaskRef) {
        self.waitables.keep(task);
    }

    /// Waits for the kept tasks `ids` (see [`Runtime::keep_for_wait`]); after all have
    /// ended, returns the first failure among them, if any. An id whose task ended well
    /// (or was waited for already) returns at once; an id no task ever had is `NotFound`.
    pub fn wait_ids(&self, ids: &[u64]) -> Result<()> {
        self.check_may_block("waiting for tasks")?;
        let mut first = None;
        for &id in ids {
            let r = match self.waitables.take(id) {
                Some(task) => {
                    let r = self.wait(&task);
                    if r.as_ref()
                        .is_err_and(|e| e.kind == ErrorKind::InvalidArgument)
                    {
                        self.waitables.put_back(task);
                    }
                    r
                }
                None if crate::task::Task::id_was_issued(id) => Ok(()),
                None => Err(Error::not_found(format!("no task has id {id}"))),
            };
            if let Err(e) = r {
                first.get_or_insert(e);
            }
        }
        first.map_or(Ok(()), Err)
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
        let _watched = self.watch_tag_wait(ids);
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
