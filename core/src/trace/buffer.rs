//! Per-thread event buffers: each thread appends to its own chunk of preallocated slots,
//! with no lock and no allocation; a full chunk is replaced by a spare one (one lock
//! every [`CHUNK`] events). Readers may copy a buffer at any time: a slot is published
//! (by its chunk's length, with release ordering) only once written, and chunks live as
//! long as the buffer.

use super::event::RawEvent;
use std::cell::UnsafeCell;
use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

/// Events per chunk (40 bytes each: 160 KiB a chunk).
pub(crate) const CHUNK: usize = 4096;

pub(crate) struct Chunk {
    len: AtomicUsize,
    slots: Box<[UnsafeCell<MaybeUninit<RawEvent>>]>,
}

// SAFETY: a slot is written by the buffer's one owner thread before the length that
// publishes it, and never again; readers read only published slots.
unsafe impl Sync for Chunk {}
unsafe impl Send for Chunk {}

impl Chunk {
    pub(crate) fn new() -> Box<Chunk> {
        Box::new(Chunk {
            len: AtomicUsize::new(0),
            slots: (0..CHUNK)
                .map(|_| UnsafeCell::new(MaybeUninit::uninit()))
                .collect(),
        })
    }

    /// Appends `e`; false when the chunk is full. Only the owner thread calls it.
    #[inline]
    fn push(&self, e: RawEvent) -> bool {
        let n = self.len.load(Ordering::Relaxed);
        if n == CHUNK {
            return false;
        }
        // SAFETY: slot `n` is not published yet, and only this thread writes slots.
        unsafe { (*self.slots[n].get()).write(e) };
        self.len.store(n + 1, Ordering::Release);
        true
    }

    fn copy_into(&self, out: &mut Vec<RawEvent>) {
        let n = self.len.load(Ordering::Acquire);
        // SAFETY: the first `n` slots were written before `len` published them.
        out.extend(
            self.slots[..n]
                .iter()
                .map(|s| unsafe { (*s.get()).assume_init() }),
        );
    }
}

/// Where a thread's events are kept.
pub(crate) struct ThreadLog {
    /// The worker this thread is, if it is one.
    pub(crate) worker: Option<usize>,
    /// Every chunk of this thread, the current one last. Boxed: the owner writes through
    /// a pointer to the current chunk, which must not move when the list grows.
    #[allow(clippy::vec_box)]
    chunks: Mutex<Vec<Box<Chunk>>>,
    /// The current chunk (the last of `chunks`); only the owner thread follows it.
    current: AtomicPtr<Chunk>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl ThreadLog {
    pub(crate) fn new(worker: Option<usize>, first: Box<Chunk>) -> ThreadLog {
        let current = AtomicPtr::new(&*first as *const Chunk as *mut Chunk);
        ThreadLog {
            worker,
            chunks: Mutex::new(vec![first]),
            current,
        }
    }

    /// Appends `e`; `spare` gives a new chunk when the current one is full. Only the
    /// thread that owns this log calls it.
    #[inline]
    pub(crate) fn push(&self, e: RawEvent, spare: impl FnOnce() -> Box<Chunk>) {
        // SAFETY: `current` points into a chunk `chunks` keeps until the log is dropped.
        let chunk = unsafe { &*self.current.load(Ordering::Relaxed) };
        if !chunk.push(e) {
            self.next_chunk(spare()).push(e);
        }
    }

    #[cold]
    fn next_chunk(&self, fresh: Box<Chunk>) -> &Chunk {
        let p = &*fresh as *const Chunk as *mut Chunk;
        lock(&self.chunks).push(fresh);
        self.current.store(p, Ordering::Relaxed);
        // SAFETY: just stored in `chunks`, which keeps it.
        unsafe { &*p }
    }

    /// A copy of the events recorded so far, in the order they were recorded.
    pub(crate) fn copy(&self) -> Vec<RawEvent> {
        let chunks = lock(&self.chunks);
        let mut out = Vec::new();
        for c in chunks.iter() {
            c.copy_into(&mut out);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_past_a_chunk_go_on_in_the_next_one() {
        let log = ThreadLog::new(None, Chunk::new());
        for i in 0..(CHUNK as u64 * 2 + 5) {
            log.push(
                RawEvent {
                    time: i,
                    ..Default::default()
                },
                Chunk::new,
            );
        }
        let got = log.copy();
        assert_eq!(got.len(), CHUNK * 2 + 5);
        assert!(got.iter().enumerate().all(|(i, e)| e.time == i as u64));
    }
}
