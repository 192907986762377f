//! The tasks of one scheduling context: each context counts the tasks submitted to it and
//! not yet terminated, beside the runtime-wide count `wait_for_all` uses. Applications
//! wait for them (`starpu_task_wait_for_all_in_ctx`,
//! `starpu_task_wait_for_n_submitted_in_ctx`), and a context whose application said it
//! submits no more (`starpu_sched_ctx_finished_submit`) is closed when its last task
//! ends: its close callback runs (`starpu_sched_ctx_register_close_callback`), then its
//! workers join its inheritor, as in StarPU.
//!
//! Acquisitions are not counted: they belong to no context (StarPU's per-context waits
//! see only tasks).

use super::Runtime;
use crate::error::{Error, Result};
use crate::sched::contexts::{GLOBAL, MAX_CONTEXTS};
use crate::task::bell::Bell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// What runs when a context is closed; it is given the context's id.
pub type CloseCallback = Arc<dyn Fn(u32) + Send + Sync>;

/// The bell the waiters for a context's tasks sleep on, and what closing each context
/// needs (the counts themselves are in `task_count.rs`).
#[derive(Default)]
pub(crate) struct ContextCounts {
    bell: Bell,
    /// `starpu_sched_ctx_finished_submit` was called.
    finished: [AtomicBool; MAX_CONTEXTS],
    close: [Mutex<Option<CloseCallback>>; MAX_CONTEXTS],
}

impl ContextCounts {
    /// Whether the caller, which saw context `i`'s count at 0 after its application
    /// finished submitting, closes it: several threads ending its last tasks together may
    /// all see the count at 0 (each reads the others' ends, `task_count.rs`); the one that
    /// takes the `finished` mark closes the context, once.
    fn take_close(&self, i: usize) -> bool {
        self.finished[i].swap(false, Ordering::SeqCst)
    }

    /// A new context takes slot `id`: nothing of the previous one's closing stays.
    pub(crate) fn reset(&self, id: u32) {
        let i = id as usize;
        if i < MAX_CONTEXTS {
            self.finished[i].store(false, Ordering::SeqCst);
            *self.close[i].lock().unwrap_or_else(|e| e.into_inner()) = None;
        }
    }
}

impl Runtime {
    /// A task of context `ctx` terminated. The ring costs one load when nobody waits.
    /// The last task of a context whose submissions are finished closes it.
    pub(crate) fn context_task_left(&self, ctx: Option<u32>) {
        self.count.ended_in_context(ctx);
        if let Some(id) = ctx.filter(|&c| c != GLOBAL && (c as usize) < MAX_CONTEXTS) {
            if self.ctx_counts.finished[id as usize].load(Ordering::SeqCst)
                && self.count.pending_in_context(ctx) == 0
            {
                self.close_context(id);
            }
        }
        self.ctx_counts.bell.ring();
    }

    /// Closes context `id`, whose application finished submitting to it, if it has an
    /// inheritor (StarPU's condition): the close callback, then the workers move.
    fn close_context(&self, id: u32) {
        let i = id as usize;
        let Ok(Some(heir)) = self.context_inheritor(id) else {
            return;
        };
        if !self.ctx_counts.take_close(i) {
            return;
        }
        let close = self.ctx_counts.close[i]
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        if let Some(f) = close {
            f(id);
        }
        if let Ok(workers) = self.context_workers(id) {
            // The heir may have been deleted meanwhile: the workers then stay.
            let _ = self.add_context_workers(heir, &workers);
        }
    }

    /// The application submits no more tasks to context `id`
    /// (`starpu_sched_ctx_finished_submit`): once its last task ends, it is closed.
    pub fn context_finished_submit(&self, id: u32) -> Result<()> {
        self.check_context(id, "finishing the submissions of a scheduling context")?;
        self.ctx_counts.finished[id as usize].store(true, Ordering::SeqCst);
        Ok(())
    }

    /// Sets what runs when context `id` is closed
    /// (`starpu_sched_ctx_register_close_callback`), replacing any earlier one.
    pub fn set_context_close_callback(&self, id: u32, f: CloseCallback) -> Result<()> {
        self.check_context(id, "registering a close callback")?;
        *self.ctx_counts.close[id as usize]
            .lock()
            .unwrap_or_else(|e| e.into_inner()) = Some(f);
        Ok(())
    }

    /// Tasks submitted to context `id` and not yet terminated.
    pub fn context_nsubmitted(&self, id: u32) -> Result<usize> {
        self.check_context(id, "counting the tasks of a scheduling context")?;
        Ok(self.count.pending_in_context(Some(id)))
    }

    /// Waits until every task submitted to context `id` has terminated
    /// (`starpu_task_wait_for_all_in_ctx`); tasks of other contexts may still run.
    /// Refused from a task or a callback, and for a context that does not exist.
    pub fn wait_for_all_in_context(&self, id: u32) -> Result<()> {
        self.wait_until_at_most_in_context(id, 0)
    }

    /// Waits until at most `n` tasks submitted to context `id` remain
    /// (`starpu_task_wait_for_n_submitted_in_ctx`).
    pub fn wait_until_at_most_in_context(&self, id: u32, n: usize) -> Result<()> {
        let what = "waiting for the tasks of a scheduling context";
        self.check_context(id, what)?;
        self.check_may_block(what)?;
        self.ctx_counts
            .bell
            .wait_until(|| self.count.pending_in_context(Some(id)) <= n);
        Ok(())
    }

    fn check_context(&self, id: u32, what: &str) -> Result<()> {
        if self.context_exists(id) {
            Ok(())
        } else {
            Err(Error::invalid(format!(
                "{what}: scheduling context {id} does not exist"
            )))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn of_the_threads_that_see_a_finished_context_empty_one_closes_it() {
        let c = ContextCounts::default();
        c.finished[3].store(true, Ordering::SeqCst);
        assert!(c.take_close(3));
        assert!(!c.take_close(3), "closed once");
        assert!(!c.take_close(4), "not finished");
    }
}
