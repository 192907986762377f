//! The level of pending tasks the threads waiting in `wait_for_n_submitted` (the submission
//! throttle, `starpu_task_wait_for_n_submitted`) wait for: a task's end rings their bell
//! only when the count drops to the highest level any of them waits for.
//!
//! Several threads may wait at once (each submitting thread of a program blocks in the
//! throttle): the level is the maximum over every current waiter, and it goes down only
//! when the waiter that set it leaves. A single shared value that one leaving waiter reset
//! to 0 left another one waiting for a ring that never came.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

#[derive(Default)]
pub(crate) struct Watermark {
    /// The maximum of `levels`, 0 when nobody waits (what `wait_for_all` waits for).
    level: AtomicUsize,
    /// One entry per waiting thread.
    levels: Mutex<Vec<usize>>,
}

impl Watermark {
    /// The level a task's end must reach to ring the waiters.
    pub(crate) fn get(&self) -> usize {
        self.level.load(Ordering::SeqCst)
    }

    /// A thread starts waiting for the count to drop to `n`.
    pub(crate) fn enter(&self, n: usize) {
        let mut levels = self.levels.lock().unwrap_or_else(|e| e.into_inner());
        levels.push(n);
        self.level.fetch_max(n, Ordering::SeqCst);
    }

    /// The thread that waited for `n` is done waiting.
    pub(crate) fn leave(&self, n: usize) {
        let mut levels = self.levels.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(i) = levels.iter().position(|&l| l == n) {
            levels.swap_remove(i);
        }
        let max = levels.iter().copied().max().unwrap_or(0);
        self.level.store(max, Ordering::SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_level_is_the_highest_of_the_waiters_still_waiting() {
        let w = Watermark::default();
        w.enter(39);
        w.enter(39);
        w.enter(10);
        w.leave(39);
        assert_eq!(w.get(), 39, "another thread still waits for 39");
        w.leave(39);
        assert_eq!(w.get(), 10);
        w.leave(10);
        assert_eq!(w.get(), 0);
    }
}
