//! Tasks submitted and not yet ended, in all and per scheduling context, counted without a
//! counter that both the submitting threads and the workers write for every task.
//!
//! One shared count, incremented at submission and decremented at each task's end, moved
//! its cache line between the submitting thread and every worker twice per task: the cost
//! of a task grew with the number of workers ending tasks. Here the submissions are
//! counted where the submitting threads write, and the ends in one row per worker (written
//! by that worker alone, on its own cache lines) plus one row for the other threads (the
//! application releasing an end dependency, a task with nothing to run ending at its
//! submission). The count of pending tasks is read only by those that wait or ask for it.
//!
//! `pending` reads the ends before the submissions, so it never reads less than the count
//! of some moment between its first and its last read: a waiter never stops waiting too
//! early. Every counter update is a SeqCst read-modify-write, so the thread whose end is
//! the last one (in their single total order) reads every other end: it sees the count
//! reach the level waited for, and rings.

use crate::sched::contexts::MAX_CONTEXTS;
use crossbeam_utils::CachePadded;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Slots of a row: one per scheduling context, then the runtime-wide count.
const SLOTS: usize = MAX_CONTEXTS + 1;
/// The runtime-wide count's slot (acquisitions included; the contexts' exclude them).
const ALL: usize = MAX_CONTEXTS;

type Row = CachePadded<[AtomicUsize; SLOTS]>;

pub(crate) struct TaskCount {
    submitted: Row,
    /// One row per worker, then one for the threads that are not this runtime's workers.
    ended: Box<[Row]>,
}

/// The slot of context `ctx` (`None`: the global one).
fn slot(ctx: Option<u32>) -> usize {
    let i = ctx.unwrap_or(crate::sched::contexts::GLOBAL) as usize;
    // Context ids are below MAX_CONTEXTS (sched/contexts.rs hands out no others).
    i.min(MAX_CONTEXTS - 1)
}

impl TaskCount {
    pub(crate) fn new(nworkers: usize) -> TaskCount {
        TaskCount {
            submitted: Row::default(),
            ended: (0..=nworkers).map(|_| Row::default()).collect(),
        }
    }

    /// The row the calling thread counts its ends in. Another runtime's worker (a task of
    /// one runtime ending a task of another) may share a row: the updates are atomic
    /// read-modify-writes, so sharing costs speed, never a count.
    fn my_row(&self) -> &Row {
        let others = self.ended.len() - 1;
        let w = crate::worker::current_worker_id().filter(|&w| w < others);
        &self.ended[w.unwrap_or(others)]
    }

    /// A task (or acquisition, `ctx == None` and `in_context == false`) was submitted.
    pub(crate) fn submitted(&self, ctx: Option<u32>, in_context: bool) {
        self.submitted[ALL].fetch_add(1, Ordering::SeqCst);
        if in_context {
            self.submitted[slot(ctx)].fetch_add(1, Ordering::SeqCst);
        }
    }

    /// A task of context `ctx` ended: it leaves that context's count (the runtime-wide
    /// one is left through `ended`, called on its own).
    pub(crate) fn ended_in_context(&self, ctx: Option<u32>) {
        self.my_row()[slot(ctx)].fetch_add(1, Ordering::SeqCst);
    }

    /// A task (or acquisition) left the runtime-wide count.
    pub(crate) fn ended(&self) {
        self.my_row()[ALL].fetch_add(1, Ordering::SeqCst);
    }

    fn pending_in(&self, i: usize) -> usize {
        let ended: usize = self.ended.iter().map(|r| r[i].load(Ordering::SeqCst)).sum();
        self.submitted[i]
            .load(Ordering::SeqCst)
            .saturating_sub(ended)
    }

    /// Tasks (and acquisitions) submitted and not yet over.
    pub(crate) fn pending(&self) -> usize {
        self.pending_in(ALL)
    }

    /// Tasks of context `ctx` submitted and not yet over.
    pub(crate) fn pending_in_context(&self, ctx: Option<u32>) -> usize {
        self.pending_in(slot(ctx))
    }

    /// At most how many are pending, with one load: the submissions alone (the throttle's
    /// quick check).
    pub(crate) fn submitted_ever(&self) -> usize {
        self.submitted[ALL].load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ends_counted_by_any_thread_balance_the_submissions() {
        let c = std::sync::Arc::new(TaskCount::new(2));
        for _ in 0..100 {
            c.submitted(Some(3), true);
            c.submitted(None, false);
        }
        assert_eq!(c.pending(), 200);
        assert_eq!(c.pending_in_context(Some(3)), 100);
        let threads: Vec<_> = (0..4)
            .map(|_| {
                let c = c.clone();
                std::thread::spawn(move || {
                    for _ in 0..25 {
                        c.ended_in_context(Some(3));
                        c.ended();
                        c.ended();
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        assert_eq!(c.pending_in_context(Some(3)), 0);
        assert_eq!(c.pending(), 0);
        assert_eq!(c.pending_in_context(None), 0);
        assert_eq!(c.submitted_ever(), 200);
    }
}
