//! The cell holding a task's description: written once, at submission, then read by every
//! worker that touches the task without any lock.
//!
//! `OnceLock` does the same, but moves the value through its initialisation closure; the
//! description is a few hundred bytes and is installed once per task, so this cell writes
//! it in place and publishes it with one release store.

use super::TaskSpec;
use std::cell::UnsafeCell;
use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicU8, Ordering};

const EMPTY: u8 = 0;
const WRITING: u8 = 1;
const READY: u8 = 2;

pub(crate) struct SpecCell {
    state: AtomicU8,
    value: UnsafeCell<MaybeUninit<TaskSpec>>,
}

// SAFETY: the value is written by the one thread that moved the state from EMPTY to
// WRITING, and read only after the READY state is published (release/acquire); it is
// never changed afterwards.
unsafe impl Send for SpecCell {}
unsafe impl Sync for SpecCell {}

impl SpecCell {
    #[cfg(test)]
    pub(crate) const fn new() -> SpecCell {
        SpecCell {
            state: AtomicU8::new(EMPTY),
            value: UnsafeCell::new(MaybeUninit::uninit()),
        }
    }

    /// Makes the cell at `p` an empty one, writing only its state (the value's bytes are
    /// left as they are: uninitialised).
    ///
    /// # Safety
    /// `p` is valid for writes and holds no initialised cell.
    #[inline]
    pub(crate) unsafe fn init_empty(p: *mut SpecCell) {
        std::ptr::addr_of_mut!((*p).state).write(AtomicU8::new(EMPTY));
    }

    pub(crate) fn get(&self) -> Option<&TaskSpec> {
        if self.state.load(Ordering::Acquire) == READY {
            // SAFETY: READY is stored after the value was written and never undone.
            Some(unsafe { (*self.value.get()).assume_init_ref() })
        } else {
            None
        }
    }

    /// Stores `spec` if the cell is empty; false (dropping `spec`) otherwise.
    #[inline]
    pub(crate) fn set(&self, spec: TaskSpec) -> bool {
        if self
            .state
            .compare_exchange(EMPTY, WRITING, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            return false;
        }
        // SAFETY: this thread won the EMPTY -> WRITING race: nobody else writes, and
        // nobody reads before READY.
        unsafe { (*self.value.get()).write(spec) };
        self.state.store(READY, Ordering::Release);
        true
    }
}

impl Drop for SpecCell {
    fn drop(&mut self) {
        if *self.state.get_mut() == READY {
            // SAFETY: the value was initialised and is dropped once, here.
            unsafe { self.value.get_mut().assume_init_drop() };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holds_the_first_value_only() {
        let c = SpecCell::new();
        assert!(c.get().is_none());
        assert!(c.set(TaskSpec {
            priority: 3,
            ..Default::default()
        }));
        assert!(!c.set(TaskSpec::default()));
        assert_eq!(c.get().unwrap().priority, 3);
    }
}
