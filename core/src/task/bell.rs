//! A bell that blocked application threads wait on, rung when something they may be
//! waiting for happens (a task ends, a tag is notified, a handle becomes free, ...).
//!
//! Ringing costs one atomic load when nobody waits, which keeps it off the cost of every
//! task. Waiters re-check their own condition after each ring.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};

#[derive(Default)]
pub struct Bell {
    lock: Mutex<()>,
    cond: Condvar,
    waiters: AtomicUsize,
}

impl Bell {
    /// Blocks until `ready()` holds. `ready` is evaluated under the bell's lock, after the
    /// waiter has announced itself, so a ring that follows the state change is never lost.
    pub fn wait_until(&self, mut ready: impl FnMut() -> bool) {
        if ready() {
            return;
        }
        let mut guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        self.waiters.fetch_add(1, Ordering::SeqCst);
        while !ready() {
            guard = self.cond.wait(guard).unwrap_or_else(|e| e.into_inner());
        }
        self.waiters.fetch_sub(1, Ordering::SeqCst);
    }

    /// `wait_until` with a time limit: false if `deadline` passed with `ready()` still
    /// false.
    pub fn wait_until_deadline(
        &self,
        mut ready: impl FnMut() -> bool,
        deadline: std::time::Instant,
    ) -> bool {
        if ready() {
            return true;
        }
        let mut guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        self.waiters.fetch_add(1, Ordering::SeqCst);
        let mut done = ready();
        while !done {
            let now = std::time::Instant::now();
            if now >= deadline {
                break;
            }
            guard = self
                .cond
                .wait_timeout(guard, deadline - now)
                .unwrap_or_else(|e| e.into_inner())
                .0;
            done = ready();
        }
        self.waiters.fetch_sub(1, Ordering::SeqCst);
        done
    }

    /// Whether a thread waits (or is about to): a ringer whose condition costs something
    /// to evaluate checks this first. SeqCst, like the waiter's announcement.
    pub fn has_waiters(&self) -> bool {
        self.waiters.load(Ordering::SeqCst) > 0
    }

    /// Wakes every waiter; call after making the awaited state visible (SeqCst store).
    pub fn ring(&self) {
        if self.waiters.load(Ordering::SeqCst) > 0 {
            let _guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
            self.cond.notify_all();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;

    #[test]
    fn waiter_sees_the_change_that_rang() {
        let bell = Arc::new(Bell::default());
        let flag = Arc::new(AtomicBool::new(false));
        let (b, f) = (bell.clone(), flag.clone());
        let t = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(20));
            f.store(true, Ordering::SeqCst);
            b.ring();
        });
        bell.wait_until(|| flag.load(Ordering::SeqCst));
        assert!(flag.load(Ordering::SeqCst));
        t.join().unwrap();
    }

    #[test]
    fn a_deadline_ends_a_wait_that_nothing_rings() {
        let bell = Bell::default();
        let soon = std::time::Instant::now() + std::time::Duration::from_millis(5);
        assert!(!bell.wait_until_deadline(|| false, soon));
        assert!(bell.wait_until_deadline(|| true, soon));
    }
}
