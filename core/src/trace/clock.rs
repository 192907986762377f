//! The recorder's clock. Events are stamped with the processor's time-stamp counter where
//! it is reliable (x86-64 with Linux's `tsc` clock source): reading it costs a fraction of
//! `clock_gettime`, which the task path would otherwise pay four or five times per task.
//! Ticks become nanoseconds of the runtime's clock (`clock::now_ns`) when the trace is
//! read, by the ratio measured between the recorder's start and that moment, so long
//! runs convert exactly. Elsewhere events are stamped in nanoseconds directly.

use crate::clock::now_ns;

/// A recorder's time base.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Clock {
    /// Ticks and nanoseconds read together when the recorder was made; `tsc` false when
    /// stamps are nanoseconds.
    tick0: u64,
    ns0: u64,
    tsc: bool,
}

#[cfg(target_arch = "x86_64")]
fn ticks() -> u64 {
    // SAFETY: rdtsc has no preconditions on x86-64.
    unsafe { core::arch::x86_64::_rdtsc() }
}

#[cfg(not(target_arch = "x86_64"))]
fn ticks() -> u64 {
    now_ns()
}

/// Whether the time-stamp counter runs at one rate on every core (what Linux says by
/// choosing it as its clock source).
fn tsc_reliable() -> bool {
    cfg!(target_arch = "x86_64")
        && std::fs::read_to_string(
            "/sys/devices/system/clocksource/clocksource0/current_clocksource",
        )
        .is_ok_and(|s| s.trim() == "tsc")
}

impl Clock {
    pub(crate) fn new() -> Clock {
        let tsc = tsc_reliable();
        Clock {
            tick0: if tsc { ticks() } else { 0 },
            ns0: now_ns(),
            tsc,
        }
    }

    /// Now, in this clock's unit.
    #[inline]
    pub(crate) fn stamp(&self) -> u64 {
        if self.tsc {
            ticks()
        } else {
            now_ns()
        }
    }

    /// The converter from stamps to nanoseconds, for stamps taken until now.
    pub(crate) fn to_ns(self) -> impl Fn(u64) -> u64 {
        let (tick1, ns1) = if self.tsc {
            (ticks(), now_ns())
        } else {
            (0, 0)
        };
        let per_tick = if self.tsc && tick1 > self.tick0 {
            (ns1 - self.ns0) as f64 / (tick1 - self.tick0) as f64
        } else {
            1.0
        };
        move |stamp| {
            if !self.tsc {
                return stamp;
            }
            let d = stamp as f64 - self.tick0 as f64;
            (self.ns0 as f64 + d * per_tick).max(1.0) as u64
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stamps_convert_to_the_runtime_clock() {
        let c = Clock::new();
        let before = now_ns();
        let s = c.stamp();
        std::thread::sleep(std::time::Duration::from_millis(20));
        let s2 = c.stamp();
        let after = now_ns();
        let conv = c.to_ns();
        let (a, b) = (conv(s), conv(s2));
        // Within 1 ms of the runtime clock, and 20 ms apart.
        assert!(
            a + 1_000_000 >= before && a <= after,
            "{before} {a} {after}"
        );
        assert!(
            b - a >= 19_000_000 && b <= after + 1_000_000,
            "{a} {b} {after}"
        );
    }
}
