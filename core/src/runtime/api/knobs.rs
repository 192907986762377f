//! The performance-steering knobs (`starpu_perf_knob_*`), answered by `knobs`.

use crate::error::Result;
use crate::knobs::Target;
use crate::runtime::Runtime;

impl Runtime {
    /// The value of knob `id` for `target` (`starpu_perf_knob_get_*_int32_value`).
    #[inline]
    pub fn knob_value(&self, id: i32, target: Target) -> Result<i32> {
        crate::knobs::knob_value(self, id, target)
    }

    /// Sets knob `id` for `target` to `value` (`starpu_perf_knob_set_*_int32_value`); the
    /// runtime acts on it at once. A value out of the knob's range is refused.
    #[inline]
    pub fn set_knob(&self, id: i32, target: Target, value: i32) -> Result<()> {
        crate::knobs::set_knob(self, id, target, value)
    }

    /// Whether worker `w` takes tasks (`starpu.worker.w_enable_worker_knob`).
    #[inline]
    pub fn worker_enabled(&self, w: usize) -> bool {
        crate::knobs::worker_enabled(self, w)
    }
}
