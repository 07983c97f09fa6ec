//! Logistic regression of game results on position features (the
//! observational estimator and the Texel fit build on it).
//!
//! The model: a position with features `x` gives White the expected score
//! `sigmoid(w . x)`. Targets are the game's score for White (1, 1/2, 0);
//! the loss is the cross-entropy with these fractional targets,
//! `sum_i softplus(z_i) - y_i z_i` with `z_i = w . x_i`, whose gradient
//! vanishes where the predicted scores match the observed ones on
//! average along every feature, draws counting half. It is convex in `w`,
//! and Newton's method with analytic gradient and Hessian (and step
//! halving, for safety far from the optimum) finds its minimum in a few
//! iterations.

use std::fmt;

/// A sparse design matrix with one target and one group (game) per row.
#[derive(Clone, Debug, Default)]
pub struct Design {
    /// Number of columns.
    pub columns: usize,
    offsets: Vec<usize>,
    entries: Vec<(usize, f64)>,
    /// The target of each row, 0 to 1.
    pub targets: Vec<f64>,
    /// The group (game) of each row.
    pub groups: Vec<u32>,
}

impl Design {
    /// An empty design with `columns` columns.
    pub fn new(columns: usize) -> Design {
        Design {
            columns,
            offsets: vec![0],
            ..Design::default()
        }
    }

    /// Adds a row: its nonzero `(column, value)` entries, target and group.
    pub fn push_row(
        &mut self,
        entries: impl IntoIterator<Item = (usize, f64)>,
        target: f64,
        group: u32,
    ) {
        self.entries.extend(entries);
        self.offsets.push(self.entries.len());
        self.targets.push(target);
        self.groups.push(group);
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.targets.len()
    }

    /// The nonzero entries of row `row`.
    pub fn row(&self, row: usize) -> &[(usize, f64)] {
        &self.entries[self.offsets[row]..self.offsets[row + 1]]
    }

    /// `w . x` of row `row`.
    pub fn linear(&self, row: usize, weights: &[f64]) -> f64 {
        self.row(row).iter().map(|&(c, x)| weights[c] * x).sum()
    }
}

/// A quadratic penalty `strength * sum_k (c_k . w - target_k)^2`.
#[derive(Clone, Debug, Default)]
pub struct Penalty {
    /// The multiplier (0: no penalty).
    pub strength: f64,
    /// The terms: sparse coefficients and target.
    pub terms: Vec<(Vec<(usize, f64)>, f64)>,
}

/// Why a fit failed.
#[derive(Clone, Debug, PartialEq)]
pub struct FitError(pub String);

impl fmt::Display for FitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for FitError {}

/// `log(1 + e^z)` without overflow.
pub fn softplus(z: f64) -> f64 {
    if z > 0.0 {
        z + (-z).exp().ln_1p()
    } else {
        z.exp().ln_1p()
    }
}

/// The logistic function.
pub fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// A tiny ridge that keeps the Hessian invertible when a column never
/// occurs (a piece type absent from the data or from a resample).
const RIDGE: f64 = 1e-9;

/// The penalised loss at `weights`.
pub fn loss(
    design: &Design,
    row_weights: Option<&[f64]>,
    penalty: &Penalty,
    weights: &[f64],
) -> f64 {
    let data: f64 = (0..design.rows())
        .map(|row| {
            let weight = row_weights.map_or(1.0, |w| w[row]);
            if weight == 0.0 {
                return 0.0;
            }
            let z = design.linear(row, weights);
            weight * (softplus(z) - design.targets[row] * z)
        })
        .sum();
    let prior: f64 = penalty
        .terms
        .iter()
        .map(|(coefficients, target)| {
            let value: f64 = coefficients.iter().map(|&(c, a)| a * weights[c]).sum();
            (value - target).powi(2)
        })
        .sum();
    let ridge: f64 = weights.iter().map(|w| w * w).sum();
    data + penalty.strength * prior + 0.5 * RIDGE * ridge
}

/// The fitted weights of a logistic regression.
#[derive(Clone, Debug, PartialEq)]
pub struct LogisticFit {
    /// The weights.
    pub weights: Vec<f64>,
    /// Newton iterations taken.
    pub iterations: usize,
}

/// Minimises [`loss`] by Newton's method from `start`. `row_weights`
/// multiplies each row's loss (bootstrap resampling counts).
pub fn fit_logistic(
    design: &Design,
    row_weights: Option<&[f64]>,
    penalty: &Penalty,
    start: &[f64],
) -> Result<LogisticFit, FitError> {
    let n = design.columns;
    if start.len() != n {
        return Err(FitError(format!(
            "{} start weights for {n} columns",
            start.len()
        )));
    }
    let mut weights = start.to_vec();
    let mut current = loss(design, row_weights, penalty, &weights);
    for iteration in 1..=100 {
        let mut gradient = vec![0.0; n];
        let mut hessian = vec![0.0; n * n];
        for row in 0..design.rows() {
            let weight = row_weights.map_or(1.0, |w| w[row]);
            if weight == 0.0 {
                continue;
            }
            let p = sigmoid(design.linear(row, &weights));
            let residual = weight * (p - design.targets[row]);
            let curvature = weight * p * (1.0 - p);
            let entries = design.row(row);
            for &(i, xi) in entries {
                gradient[i] += residual * xi;
                for &(j, xj) in entries {
                    hessian[i * n + j] += curvature * xi * xj;
                }
            }
        }
        for (coefficients, target) in &penalty.terms {
            let value: f64 = coefficients.iter().map(|&(c, a)| a * weights[c]).sum();
            for &(i, ai) in coefficients {
                gradient[i] += 2.0 * penalty.strength * (value - target) * ai;
                for &(j, aj) in coefficients {
                    hessian[i * n + j] += 2.0 * penalty.strength * ai * aj;
                }
            }
        }
        for i in 0..n {
            gradient[i] += RIDGE * weights[i];
            hessian[i * n + i] += RIDGE;
        }
        let step = solve_symmetric(&mut hessian, &gradient, n)
            .ok_or_else(|| FitError("the Hessian is not positive definite".to_string()))?;
        // Halve the Newton step until the loss does not grow.
        let mut scale = 1.0;
        let (next, next_loss) = loop {
            let candidate: Vec<f64> = weights
                .iter()
                .zip(&step)
                .map(|(w, s)| w - scale * s)
                .collect();
            let candidate_loss = loss(design, row_weights, penalty, &candidate);
            if candidate_loss <= current + 1e-12 * current.abs().max(1.0) || scale < 1e-6 {
                break (candidate, candidate_loss);
            }
            scale /= 2.0;
        };
        let largest_step = step.iter().fold(0.0f64, |m, s| m.max((scale * s).abs()));
        weights = next;
        current = next_loss;
        if !current.is_finite() {
            return Err(FitError(
                "the loss is not finite (separable data?)".to_string(),
            ));
        }
        if largest_step < 1e-10 {
            return Ok(LogisticFit {
                weights,
                iterations: iteration,
            });
        }
    }
    Err(FitError(
        "Newton's method did not converge in 100 iterations (separable data?)".to_string(),
    ))
}

/// Solves `a x = b` for a symmetric positive definite `a` (`n x n`, row
/// major, overwritten) by Cholesky decomposition; `None` if `a` is not
/// positive definite.
pub fn solve_symmetric(a: &mut [f64], b: &[f64], n: usize) -> Option<Vec<f64>> {
    for j in 0..n {
        let mut diagonal = a[j * n + j];
        for k in 0..j {
            diagonal -= a[j * n + k] * a[j * n + k];
        }
        if diagonal <= 0.0 || !diagonal.is_finite() {
            return None;
        }
        let root = diagonal.sqrt();
        a[j * n + j] = root;
        for i in j + 1..n {
            let mut value = a[i * n + j];
            for k in 0..j {
                value -= a[i * n + k] * a[j * n + k];
            }
            a[i * n + j] = value / root;
        }
    }
    // Forward: L y = b; backward: L^T x = y.
    let mut y = vec![0.0; n];
    for i in 0..n {
        let mut value = b[i];
        for k in 0..i {
            value -= a[i * n + k] * y[k];
        }
        y[i] = value / a[i * n + i];
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        let mut value = y[i];
        for k in i + 1..n {
            value -= a[k * n + i] * x[k];
        }
        x[i] = value / a[i * n + i];
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_constant_column_fits_the_log_odds_of_the_mean() {
        // Targets 1, 1, 0.5, 0: mean 0.625; the MLE of sigmoid(w) is the
        // mean, so w = ln(0.625 / 0.375) = ln(5/3).
        let mut design = Design::new(1);
        for target in [1.0, 1.0, 0.5, 0.0] {
            design.push_row([(0, 1.0)], target, 0);
        }
        let fit = fit_logistic(&design, None, &Penalty::default(), &[0.0]).unwrap();
        assert!((fit.weights[0] - (5.0f64 / 3.0).ln()).abs() < 1e-7);
    }

    #[test]
    fn the_gradient_vanishes_at_the_fit_by_finite_differences() {
        let mut design = Design::new(2);
        let rows = [
            (1.0, 0.0, 1.0),
            (2.0, 1.0, 1.0),
            (-1.0, 1.0, 0.0),
            (0.0, -2.0, 0.5),
            (1.0, 1.0, 0.0),
            (-2.0, 0.5, 0.0),
        ];
        for (a, b, y) in rows {
            design.push_row([(0, a), (1, b)], y, 0);
        }
        let penalty = Penalty {
            strength: 0.3,
            terms: vec![(vec![(0, 1.0), (1, -2.0)], 0.5)],
        };
        let fit = fit_logistic(&design, None, &penalty, &[0.0, 0.0]).unwrap();
        let h = 1e-6;
        for i in 0..2 {
            let mut up = fit.weights.clone();
            let mut down = fit.weights.clone();
            up[i] += h;
            down[i] -= h;
            let slope = (loss(&design, None, &penalty, &up) - loss(&design, None, &penalty, &down))
                / (2.0 * h);
            assert!(slope.abs() < 1e-6, "d loss / d w{i} = {slope}");
        }
    }

    #[test]
    fn cholesky_solves_a_hand_made_system() {
        // [[4, 2], [2, 3]] x = [2, 1]: x = [0.5, 0] (4*0.5 = 2, 2*0.5 = 1).
        let mut a = vec![4.0, 2.0, 2.0, 3.0];
        let x = solve_symmetric(&mut a, &[2.0, 1.0], 2).unwrap();
        assert!((x[0] - 0.5).abs() < 1e-12 && x[1].abs() < 1e-12);
        let mut singular = vec![1.0, 1.0, 1.0, 1.0];
        assert!(solve_symmetric(&mut singular, &[1.0, 1.0], 2).is_none());
    }
}
