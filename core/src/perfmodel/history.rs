//! History entries: what a history-based model knows about one data footprint on one
//! architecture and implementation (`struct starpu_perfmodel_history_entry`).
//!
//! The fields StarPU writes to its files (mean, deviation, sum, sum of squares, sample
//! count) are kept exactly, so files move between StarPU and this runtime. What goes into
//! them differs on one point: StarPU adds every sample that is within
//! `STARPU_HISTORY_MAX_ERROR` (50%) of the mean *after* calibration, and before that adds
//! everything, so one early 100x sample (a page fault storm, a preempted core) inflates
//! the mean of a 10-sample entry elevenfold and the scheduler then avoids a fast kernel.
//!
//! Our rule: a sample is compared with the **median of the recent accepted samples**, and
//! their spread is measured by the **median absolute deviation** (MAD, scaled by 1.4826 to
//! estimate a standard deviation for normal noise). Neither moves when one sample is wild,
//! unlike the mean and the standard deviation. A sample is rejected when it is further
//! above the median than both `OUTLIER_SIGMAS` robust deviations and `OUTLIER_RATIO`
//! times the median (the second bound keeps ordinary jitter of short kernels, whose MAD
//! can be tiny). Rejection starts once `MIN_REFERENCE` samples give a median; an entry
//! read from a file, whose samples are gone, uses its mean and deviation instead.
//! If `REGIME_CHANGE` samples in a row are rejected the machine has changed (another load,
//! another clock), not the samples: the entry restarts from those samples, as StarPU
//! flushes an entry with more errors than samples.

use std::collections::VecDeque;

/// Recent accepted samples kept for the median.
const WINDOW: usize = 32;
/// Samples needed before the median is trusted.
const MIN_REFERENCE: usize = 3;
/// Rejected beyond this many robust standard deviations above the median...
const OUTLIER_SIGMAS: f64 = 6.0;
/// ...and beyond this many times the median above it.
const OUTLIER_RATIO: f64 = 2.0;
/// Consecutive rejections that mean the timings really changed.
const REGIME_CHANGE: usize = 10;

/// One footprint's timings, in microseconds.
#[derive(Debug, Clone, Default)]
pub struct HistoryEntry {
    pub footprint: u32,
    /// Bytes of data (or the model's `size_base`) of the tasks measured.
    pub size: usize,
    pub flops: f64,
    pub mean: f64,
    pub deviation: f64,
    pub sum: f64,
    pub sum2: f64,
    pub nsample: u32,
    recent: VecDeque<f64>,
    rejected: Vec<f64>,
}

/// What `HistoryEntry::add` did with a sample.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sample {
    Accepted,
    /// Too far from the entry's median: left out of the mean.
    Rejected,
    /// Rejected samples in a row replaced the entry's statistics.
    Restarted,
}

fn median(sorted: &[f64]) -> f64 {
    let n = sorted.len();
    if n % 2 == 1 {
        sorted[n / 2]
    } else {
        (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
    }
}

impl HistoryEntry {
    /// An entry with no sample yet.
    pub fn new(footprint: u32, size: usize, flops: f64) -> HistoryEntry {
        HistoryEntry {
            footprint,
            size,
            flops,
            ..Default::default()
        }
    }

    /// An entry as a model file gives it (no individual samples).
    #[allow(clippy::too_many_arguments)]
    pub fn from_file(
        footprint: u32,
        size: usize,
        flops: f64,
        mean: f64,
        deviation: f64,
        sum: f64,
        sum2: f64,
        nsample: u32,
    ) -> HistoryEntry {
        HistoryEntry {
            footprint,
            size,
            flops,
            mean,
            deviation,
            sum,
            sum2,
            nsample,
            ..Default::default()
        }
    }

    /// The center and robust spread samples are compared with, once there is one.
    fn reference(&self) -> Option<(f64, f64)> {
        if self.recent.len() >= MIN_REFERENCE {
            let mut v: Vec<f64> = self.recent.iter().copied().collect();
            v.sort_by(f64::total_cmp);
            let m = median(&v);
            let mut dev: Vec<f64> = v.iter().map(|x| (x - m).abs()).collect();
            dev.sort_by(f64::total_cmp);
            Some((m, 1.4826 * median(&dev)))
        } else if self.nsample as usize >= MIN_REFERENCE {
            Some((self.mean, self.deviation))
        } else {
            None
        }
    }

    /// Whether `x` is an outlier for this entry.
    pub fn is_outlier(&self, x: f64) -> bool {
        match self.reference() {
            Some((center, spread)) => {
                x - center > (OUTLIER_SIGMAS * spread).max(OUTLIER_RATIO * center)
            }
            None => false,
        }
    }

    /// Adds one measurement (microseconds).
    pub fn add(&mut self, x: f64) -> Sample {
        if self.is_outlier(x) {
            self.rejected.push(x);
            if self.rejected.len() < REGIME_CHANGE {
                return Sample::Rejected;
            }
            let samples = std::mem::take(&mut self.rejected);
            self.sum = 0.0;
            self.sum2 = 0.0;
            self.nsample = 0;
            self.recent.clear();
            for s in samples {
                self.accept(s);
            }
            return Sample::Restarted;
        }
        self.rejected.clear();
        self.accept(x);
        Sample::Accepted
    }

    fn accept(&mut self, x: f64) {
        self.sum += x;
        self.sum2 += x * x;
        self.nsample += 1;
        let n = self.nsample as f64;
        self.mean = self.sum / n;
        self.deviation = ((self.sum2 - self.sum * self.sum / n).abs() / n).sqrt();
        if self.recent.len() == WINDOW {
            self.recent.pop_front();
        }
        self.recent.push_back(x);
    }

    /// Records the task's flop count; a different count for the same footprint makes it
    /// unknown (NaN), as in StarPU.
    pub fn note_flops(&mut self, flops: f64) {
        if flops == 0.0 || self.flops.is_nan() {
            return;
        }
        if self.flops == 0.0 {
            self.flops = flops;
        } else if ((self.flops - flops) / self.flops).abs() > 1e-5 {
            self.flops = f64::NAN;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_and_deviation_follow_starpu() {
        let mut e = HistoryEntry::new(1, 8, 0.0);
        for x in [1.0, 2.0, 3.0] {
            assert_eq!(e.add(x), Sample::Accepted);
        }
        assert_eq!(e.nsample, 3);
        assert_eq!(e.mean, 2.0);
        assert_eq!(e.sum2, 14.0);
        assert!((e.deviation - (2.0f64 / 3.0).sqrt()).abs() < 1e-12);
    }

    #[test]
    fn one_huge_outlier_does_not_poison_the_mean() {
        let mut e = HistoryEntry::new(1, 8, 0.0);
        let normal = [100.0, 103.0, 98.0, 101.0, 99.0, 102.0, 100.0, 97.0, 104.0];
        for x in &normal[..4] {
            e.add(*x);
        }
        assert_eq!(e.add(10_000.0), Sample::Rejected);
        for x in &normal[4..] {
            assert_eq!(e.add(*x), Sample::Accepted);
        }
        assert_eq!(e.nsample, 9);
        assert!((e.mean - 100.444).abs() < 0.01, "mean {}", e.mean);
        // Ordinary jitter of a short kernel (2.5x) is kept.
        assert_eq!(e.add(250.0), Sample::Accepted);
    }

    #[test]
    fn a_lasting_change_restarts_the_entry() {
        let mut e = HistoryEntry::new(1, 8, 0.0);
        for _ in 0..10 {
            e.add(10.0);
        }
        for i in 0..REGIME_CHANGE {
            let r = e.add(1000.0);
            if i + 1 < REGIME_CHANGE {
                assert_eq!(r, Sample::Rejected);
            } else {
                assert_eq!(r, Sample::Restarted);
            }
        }
        assert_eq!(e.nsample as usize, REGIME_CHANGE);
        assert_eq!(e.mean, 1000.0);
    }

    #[test]
    fn entries_read_from_a_file_reject_with_their_mean() {
        let mut e = HistoryEntry::from_file(1, 8, 0.0, 50.0, 1.0, 500.0, 25010.0, 10);
        assert_eq!(e.add(5000.0), Sample::Rejected);
        assert_eq!(e.add(51.0), Sample::Accepted);
        assert_eq!(e.nsample, 11);
    }
}
