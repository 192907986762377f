//! `STARPU_MULTIPLE_REGRESSION_BASED`: the time as a linear combination of monomials of
//! the task's parameters, `c0 + sum_i ci * prod_k p_k^e(i,k)`, fitted by least squares on
//! every measured run (the parameters come from the model's `parameters` function, the
//! exponents from its `combinations`).
//!
//! StarPU fits the coefficients when it writes the model file (so a run predicts with the
//! coefficients of the previous runs) and keeps the raw observations in
//! `codelets/tmp/<symbol>.out`. Here the fit is also redone during the run, lazily, when
//! a prediction finds new observations: a model fed samples predicts at once. The
//! coefficients go to the model file in StarPU's layout (a count, then the values), so
//! files move between the two runtimes; coefficients read from a file predict until the
//! run has more observations than coefficients of its own.
//!
//! The least squares use a Householder QR factorisation of the design matrix with its
//! columns scaled to unit norm: monomials of sizes (`n^3` next to `1`) differ by many
//! orders of magnitude, which would make normal equations lose every digit.

/// The terms of a model: one exponent per parameter for each term after the intercept,
/// and the names used in the model file's header.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Layout {
    pub nparameters: usize,
    pub combinations: Vec<Vec<u32>>,
    pub names: Vec<String>,
}

impl Layout {
    /// Coefficients of a fit: the intercept and one per combination.
    pub fn ncoeff(&self) -> usize {
        self.combinations.len() + 1
    }

    /// The row of the design matrix for `params`: 1, then each monomial.
    pub fn row(&self, params: &[f64]) -> Vec<f64> {
        std::iter::once(1.0)
            .chain(self.combinations.iter().map(|exps| {
                exps.iter()
                    .zip(params)
                    .map(|(&e, &p)| p.powi(e as i32))
                    .product::<f64>()
            }))
            .collect()
    }

    /// StarPU's header of the coefficient line: `c1`, `c2`... without names, else the
    /// product of the named parameters with their powers (`M^2*N`).
    pub fn term_names(&self) -> Vec<String> {
        self.combinations
            .iter()
            .enumerate()
            .map(|(i, exps)| {
                if self.names.is_empty() {
                    return format!("c{}", i + 1);
                }
                let factors: Vec<String> = exps
                    .iter()
                    .enumerate()
                    .filter(|(_, &e)| e > 0)
                    .map(|(k, &e)| {
                        let name = self
                            .names
                            .get(k)
                            .cloned()
                            .unwrap_or_else(|| format!("P{k}"));
                        if e > 1 {
                            format!("{name}^{e}")
                        } else {
                            name
                        }
                    })
                    .collect();
                factors.join("*")
            })
            .collect()
    }
}

/// One architecture and implementation's observations and fit.
#[derive(Debug, Clone, Default)]
pub struct Mlr {
    /// (parameters, microseconds) of each run measured in this process.
    pub observations: Vec<(Vec<f64>, f64)>,
    /// The coefficients predictions use: fitted here, or read from the model file.
    pub coeff: Vec<f64>,
    /// How many observations `coeff` was fitted on (0: read from a file, or none).
    pub fitted_on: usize,
}

impl Mlr {
    /// Whether the observations changed since the last fit and there are enough of them
    /// (more than coefficients, as StarPU requires) to fit again.
    pub fn needs_fit(&self, layout: &Layout) -> bool {
        let n = self.observations.len();
        n != self.fitted_on && n > layout.ncoeff()
    }

    /// Refits on every observation; keeps the previous coefficients when the system is
    /// rank deficient (parameters that never vary, say).
    pub fn refit(&mut self, layout: &Layout) {
        let rows: Vec<Vec<f64>> = self
            .observations
            .iter()
            .map(|(p, _)| layout.row(p))
            .collect();
        let y: Vec<f64> = self.observations.iter().map(|(_, t)| *t).collect();
        if let Some(c) = least_squares(&rows, &y) {
            self.coeff = c;
        }
        self.fitted_on = self.observations.len();
    }

    /// The predicted time for `params`, if there are coefficients of the layout's size.
    pub fn predict(&self, layout: &Layout, params: &[f64]) -> Option<f64> {
        if self.coeff.len() != layout.ncoeff() || self.coeff.iter().any(|c| !c.is_finite()) {
            return None;
        }
        let row = layout.row(params);
        Some(row.iter().zip(&self.coeff).map(|(x, c)| x * c).sum())
    }
}

/// The `x` minimising `|A x - y|` (rows of `A` given), by Householder QR on the
/// column-scaled matrix. `None` when there are fewer rows than columns or a column is
/// (numerically) a combination of the others.
pub fn least_squares(rows: &[Vec<f64>], y: &[f64]) -> Option<Vec<f64>> {
    let m = rows.len();
    let n = rows.first()?.len();
    if m < n || y.len() != m || rows.iter().any(|r| r.len() != n) {
        return None;
    }
    // Column-major copy, each column scaled to unit norm.
    let mut a: Vec<Vec<f64>> = (0..n)
        .map(|j| rows.iter().map(|r| r[j]).collect())
        .collect();
    let mut scale = vec![1.0; n];
    for (j, col) in a.iter_mut().enumerate() {
        let norm = col.iter().map(|v| v * v).sum::<f64>().sqrt();
        if norm == 0.0 || !norm.is_finite() {
            return None;
        }
        col.iter_mut().for_each(|v| *v /= norm);
        scale[j] = norm;
    }
    let mut b = y.to_vec();
    for k in 0..n {
        // The reflector that zeroes column k below the diagonal.
        let norm = a[k][k..].iter().map(|v| v * v).sum::<f64>().sqrt();
        if norm < 1e-12 {
            return None;
        }
        let alpha = if a[k][k] > 0.0 { -norm } else { norm };
        let mut v: Vec<f64> = a[k][k..].to_vec();
        v[0] -= alpha;
        let vnorm2: f64 = v.iter().map(|x| x * x).sum();
        if vnorm2 == 0.0 {
            continue;
        }
        let reflect = |col: &mut [f64]| {
            let dot: f64 = v.iter().zip(col.iter()).map(|(a, b)| a * b).sum();
            let f = 2.0 * dot / vnorm2;
            col.iter_mut().zip(&v).for_each(|(c, vi)| *c -= f * vi);
        };
        for col in a.iter_mut().skip(k) {
            reflect(&mut col[k..]);
        }
        reflect(&mut b[k..]);
    }
    // Back substitution on R x = Q^T b.
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        let s: f64 = (i + 1..n).map(|j| a[j][i] * x[j]).sum();
        x[i] = (b[i] - s) / a[i][i];
    }
    Some(x.iter().zip(&scale).map(|(v, s)| v / s).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fits_an_exact_polynomial_of_two_parameters() {
        // t = 5 + 2 m n + 0.5 n^3
        let layout = Layout {
            nparameters: 2,
            combinations: vec![vec![1, 1], vec![0, 3]],
            names: vec!["M".into(), "N".into()],
        };
        let mut mlr = Mlr::default();
        for m in [8.0, 16.0, 64.0, 100.0] {
            for n in [10.0, 40.0, 200.0] {
                mlr.observations
                    .push((vec![m, n], 5.0 + 2.0 * m * n + 0.5 * n * n * n));
            }
        }
        assert!(mlr.needs_fit(&layout));
        mlr.refit(&layout);
        let c = &mlr.coeff;
        assert!((c[0] - 5.0).abs() < 1e-6, "{c:?}");
        assert!((c[1] - 2.0).abs() < 1e-9, "{c:?}");
        assert!((c[2] - 0.5).abs() < 1e-12, "{c:?}");
        let p = mlr.predict(&layout, &[50.0, 300.0]).unwrap();
        let want = 5.0 + 2.0 * 50.0 * 300.0 + 0.5 * 300f64.powi(3);
        assert!((p - want).abs() / want < 1e-9, "{p} {want}");
        assert_eq!(layout.term_names(), vec!["M*N", "N^3"]);
    }

    #[test]
    fn too_few_or_degenerate_observations_give_no_fit() {
        let layout = Layout {
            nparameters: 1,
            combinations: vec![vec![1]],
            names: vec![],
        };
        let mut mlr = Mlr::default();
        mlr.observations.push((vec![3.0], 1.0));
        mlr.observations.push((vec![4.0], 2.0));
        // Two observations, two coefficients: StarPU wants more observations.
        assert!(!mlr.needs_fit(&layout));
        assert_eq!(mlr.predict(&layout, &[1.0]), None);
        // A parameter that never varies is the intercept again: rank deficient.
        let same = vec![vec![1.0, 7.0]; 5];
        assert_eq!(least_squares(&same, &[1.0; 5]), None);
        assert_eq!(layout.term_names(), vec!["c1"]);
    }
}
