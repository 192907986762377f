//! Regression models: time as a function of data size, for sizes never measured.
//!
//! `STARPU_REGRESSION_BASED` fits `time = alpha * size^beta` by least squares on
//! `ln time = ln alpha + beta ln size`, from running sums StarPU keeps in its files.
//! `STARPU_NL_REGRESSION_BASED` fits `time = a * size^b + c` to the history entries'
//! means: for a fixed `c` it is the same log-log fit on `time - c`, and `c` is chosen by a
//! golden-section search on the squared error (the error is unimodal in `c` for data that
//! follows such a law).

/// StarPU's `struct starpu_perfmodel_regression_model`, without the multiple-regression part.
#[derive(Debug, Clone)]
pub struct Regression {
    pub sumlnx: f64,
    pub sumlnx2: f64,
    pub sumlny: f64,
    pub sumlnxlny: f64,
    pub alpha: f64,
    pub beta: f64,
    pub nsample: u32,
    pub minx: usize,
    pub maxx: usize,
    /// Non-linear fit `a * size^b + c` (NaN until computed).
    pub a: f64,
    pub b: f64,
    pub c: f64,
}

impl Default for Regression {
    fn default() -> Self {
        Regression {
            sumlnx: 0.0,
            sumlnx2: 0.0,
            sumlny: 0.0,
            sumlnxlny: 0.0,
            alpha: f64::NAN,
            beta: f64::NAN,
            nsample: 0,
            minx: 0,
            maxx: 0,
            a: f64::NAN,
            b: f64::NAN,
            c: f64::NAN,
        }
    }
}

impl Regression {
    /// StarPU trusts a regression once sizes vary by more than 10% and `minimum` samples
    /// were taken.
    pub fn has_spread(&self, minimum: u32) -> bool {
        (self.minx as f64) < 0.9 * self.maxx as f64 && self.nsample >= minimum
    }

    /// Adds one measurement of a task of `size` bytes that took `time` microseconds.
    /// Zero sizes or times have no logarithm and are left out.
    pub fn add(&mut self, size: usize, time: f64, minimum: u32) {
        if size == 0 || time <= 0.0 || !time.is_finite() {
            return;
        }
        let (lx, ly) = ((size as f64).ln(), time.ln());
        self.sumlnx += lx;
        self.sumlnx2 += lx * lx;
        self.sumlny += ly;
        self.sumlnxlny += lx * ly;
        if self.minx == 0 || size < self.minx {
            self.minx = size;
        }
        self.maxx = self.maxx.max(size);
        self.nsample += 1;
        if self.has_spread(minimum) {
            let n = self.nsample as f64;
            let denom = n * self.sumlnx2 - self.sumlnx * self.sumlnx;
            if denom != 0.0 {
                self.beta = (n * self.sumlnxlny - self.sumlnx * self.sumlny) / denom;
                self.alpha = ((self.sumlny - self.beta * self.sumlnx) / n).exp();
            }
        }
    }

    /// Whether `size` is within the measured range (StarPU allows 10% beyond it).
    fn covers(&self, size: usize) -> bool {
        let s = size as f64;
        s >= 0.9 * self.minx as f64 && s <= 1.1 * self.maxx as f64
    }

    /// `alpha * size^beta`, when the fit is valid for `size`.
    pub fn predict(&self, size: usize, minimum: u32) -> Option<f64> {
        (self.has_spread(minimum) && !self.alpha.is_nan() && !self.beta.is_nan())
            .then_some(())
            .filter(|_| self.covers(size))
            .map(|_| self.alpha * (size as f64).powf(self.beta))
    }

    /// `a * size^b + c`, when the non-linear fit is valid for `size`.
    pub fn predict_nl(&self, size: usize, minimum: u32) -> Option<f64> {
        let known = !(self.a.is_nan() || self.b.is_nan() || self.c.is_nan());
        (known && self.has_spread(minimum) && self.covers(size))
            .then(|| self.a * (size as f64).powf(self.b) + self.c)
    }
}

/// Least-squares fit of `y = a * x^b` on logarithms; `None` with fewer than two distinct
/// sizes or a non-positive value.
pub fn fit_power(points: &[(f64, f64)]) -> Option<(f64, f64)> {
    let n = points.len() as f64;
    let (mut sx, mut sx2, mut sy, mut sxy) = (0.0, 0.0, 0.0, 0.0);
    for &(x, y) in points {
        if x <= 0.0 || y <= 0.0 {
            return None;
        }
        let (lx, ly) = (x.ln(), y.ln());
        sx += lx;
        sx2 += lx * lx;
        sy += ly;
        sxy += lx * ly;
    }
    let denom = n * sx2 - sx * sx;
    if points.len() < 2 || denom.abs() < 1e-12 {
        return None;
    }
    let b = (n * sxy - sx * sy) / denom;
    Some((((sy - b * sx) / n).exp(), b))
}

/// Fits `y = a * x^b + c` (StarPU's `_starpu_regression_non_linear_power`): `c` between 0
/// and just below the smallest `y`, found by golden-section search on the squared error.
pub fn fit_power_offset(points: &[(f64, f64)]) -> Option<(f64, f64, f64)> {
    if points.len() < 3 {
        return None;
    }
    let ymin = points.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
    if ymin <= 0.0 || !ymin.is_finite() {
        return None;
    }
    let error = |c: f64| -> f64 {
        let shifted: Vec<(f64, f64)> = points.iter().map(|&(x, y)| (x, y - c)).collect();
        match fit_power(&shifted) {
            Some((a, b)) => points
                .iter()
                .map(|&(x, y)| (a * x.powf(b) + c - y).powi(2))
                .sum(),
            None => f64::INFINITY,
        }
    };
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut lo, mut hi) = (0.0, ymin * 0.999);
    for _ in 0..100 {
        let c1 = hi - ratio * (hi - lo);
        let c2 = lo + ratio * (hi - lo);
        if error(c1) < error(c2) {
            hi = c2;
        } else {
            lo = c1;
        }
    }
    let c = (lo + hi) / 2.0;
    let shifted: Vec<(f64, f64)> = points.iter().map(|&(x, y)| (x, y - c)).collect();
    fit_power(&shifted).map(|(a, b)| (a, b, c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_regression_recovers_a_power_law() {
        let mut r = Regression::default();
        for size in [
            1000usize, 2000, 4000, 8000, 16000, 1000, 2000, 4000, 8000, 16000,
        ] {
            r.add(size, 3.0 * (size as f64).powf(1.5), 10);
        }
        assert!((r.beta - 1.5).abs() < 1e-9, "beta {}", r.beta);
        assert!((r.alpha - 3.0).abs() < 1e-6, "alpha {}", r.alpha);
        let p = r.predict(5000, 10).expect("calibrated");
        assert!((p - 3.0 * 5000f64.powf(1.5)).abs() / p < 1e-9);
        // Far outside the measured sizes: no prediction.
        assert_eq!(r.predict(100_000, 10), None);
        // Not enough samples: no prediction.
        let mut few = Regression::default();
        few.add(10, 1.0, 10);
        few.add(100, 10.0, 10);
        assert_eq!(few.predict(50, 10), None);
    }

    #[test]
    fn non_linear_fit_finds_the_constant() {
        let points: Vec<(f64, f64)> = [64.0, 128.0, 256.0, 512.0, 1024.0, 2048.0]
            .iter()
            .map(|&x: &f64| (x, 0.5 * x.powf(1.2) + 40.0))
            .collect();
        let (a, b, c) = fit_power_offset(&points).expect("fits");
        assert!((b - 1.2).abs() < 0.01, "b {b}");
        assert!((a - 0.5).abs() < 0.02, "a {a}");
        assert!((c - 40.0).abs() < 1.0, "c {c}");
    }
}
