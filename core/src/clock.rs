//! The runtime's clock: nanoseconds on a monotonic clock since the process's first look
//! at it. Profiling, traces and `starpu_timing_now` read the same one, so their times
//! compare.

use std::sync::OnceLock;
use std::time::Instant;

/// Nanoseconds since the process's epoch (the first call), on a monotonic clock; never 0,
/// so that 0 can mean "not recorded".
pub fn now_ns() -> u64 {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    let epoch = *EPOCH.get_or_init(Instant::now);
    epoch.elapsed().as_nanos() as u64 + 1
}
