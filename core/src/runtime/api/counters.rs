//! Performance counters (`starpu_perf_counter_*`): collection and listeners.

use crate::counters::{Attach, Listener};
use crate::runtime::Runtime;
use std::sync::Arc;

impl Runtime {
    /// Starts (or stops) counting for the performance counters.
    #[inline]
    pub fn set_counter_collection(&self, on: bool) {
        crate::counters::set_counter_collection(self, on)
    }

    /// Attaches `listener` at `at` (replacing the one there), or detaches with `None`.
    #[inline]
    pub fn set_counter_listener(&self, at: Attach, listener: Option<Arc<Listener>>) {
        crate::counters::set_counter_listener(self, at, listener)
    }
}
