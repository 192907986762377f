//! Completions delivered in batches: tasks that end put a token of the face's choice into a
//! queue, and the face is told once per batch, not once per task.
//!
//! An event loop (Python's asyncio, a Java executor) pays a wake-up for each notification
//! it receives. Notifying only when the queue goes from empty to non-empty lets a loop that
//! is busy draining collect every completion that arrived meanwhile in one go: with ten
//! thousand tiny tasks the loop wakes a handful of times instead of ten thousand.

use super::TaskRef;
use std::sync::{Arc, Mutex, MutexGuard};

/// A queue of completions, drained by one consumer (see the module comment).
///
/// ```
/// use starpu_core::task::CompletionQueue;
/// use std::sync::atomic::{AtomicUsize, Ordering};
/// use std::sync::Arc;
/// let wakeups = Arc::new(AtomicUsize::new(0));
/// let w = wakeups.clone();
/// let queue = CompletionQueue::new(move || {
///     w.fetch_add(1, Ordering::SeqCst);
/// });
/// queue.push("a");
/// queue.push("b");
/// assert_eq!(wakeups.load(Ordering::SeqCst), 1); // one notification for the batch
/// assert_eq!(queue.drain(), vec!["a", "b"]);
/// queue.push("c");
/// assert_eq!(wakeups.load(Ordering::SeqCst), 2);
/// ```
pub struct CompletionQueue<T: Send + 'static> {
    done: Mutex<Vec<T>>,
    notify: Box<dyn Fn() + Send + Sync>,
}

impl<T: Send + 'static> CompletionQueue<T> {
    /// A queue calling `notify` when a completion arrives in an empty queue. `notify` runs
    /// on the thread that ends the task (a worker): it must be quick and must not block
    /// (write to an eventfd or a pipe, unpark a thread).
    pub fn new(notify: impl Fn() + Send + Sync + 'static) -> Arc<Self> {
        Arc::new(CompletionQueue {
            done: Mutex::new(Vec::new()),
            notify: Box::new(notify),
        })
    }

    fn lock(&self) -> MutexGuard<'_, Vec<T>> {
        self.done.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Delivers `token` into the queue when `task` has ended (at once if it has).
    pub fn watch(self: &Arc<Self>, task: &TaskRef, token: T) {
        let queue = self.clone();
        task.on_terminated(move |_| queue.push(token));
    }

    /// Adds a completion; notifies when it is the first of a batch.
    pub fn push(&self, token: T) {
        let first = {
            let mut done = self.lock();
            done.push(token);
            done.len() == 1
        };
        if first {
            (self.notify)();
        }
    }

    /// Takes every completion delivered so far; the next one notifies again.
    pub fn drain(&self) -> Vec<T> {
        std::mem::take(&mut *self.lock())
    }
}
