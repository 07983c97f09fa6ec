//! The designed experiment's model: an ordered logit (cumulative logit)
//! of each game's result, win, draw or loss, on the material difference.
//!
//! With `x` the game's features (White minus Black, [`FeatureSpace`]),
//! `eta = w . x + tau` (`tau`: White's advantage of the first move) and a
//! draw margin `delta > 0`:
//!
//! ```text
//! P(White wins)  = sigmoid(eta - delta)
//! P(Black wins)  = sigmoid(-eta - delta)
//! P(draw)        = 1 - both
//! ```
//!
//! The negative log-likelihood is convex in `(w, tau, delta)` (the
//! logistic distribution function is log-concave; Pratt 1981), so
//! Newton's method with step halving finds the maximum. Values are the
//! ratios `v_t = w_t / w_P`: the same model as `eta = K (sum_t v_t x_t) +
//! tau` with the pawn fixed at 1 and the scale `K = w_P` fitted jointly.
//!
//! Intervals: the covariance of `theta` from the curvature, either the
//! inverse Hessian or, because the two games of a pair share their
//! position and so are not independent, the cluster-robust sandwich
//! `H^-1 (sum_c g_c g_c^T) H^-1 C / (C - 1)` over pairs `c`; the
//! values' variances follow by the delta method. The percentile
//! bootstrap over pairs is in [`crate::stats::bootstrap`].
//!
//! [`FeatureSpace`]: crate::values::features::FeatureSpace

use serde::{Deserialize, Serialize};

use crate::stats::logistic::{sigmoid, softplus, solve_symmetric, FitError};

/// A game's result from White's side.
pub const BLACK_WINS: u8 = 0;
/// A drawn game.
pub const DRAW: u8 = 1;
/// A game White won.
pub const WHITE_WINS: u8 = 2;

/// One game: its features, result and cluster (its pair).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OrdinalRow {
    /// Features, White minus Black.
    pub x: Vec<f64>,
    /// [`BLACK_WINS`], [`DRAW`] or [`WHITE_WINS`].
    pub outcome: u8,
    /// The cluster (game pair) it belongs to.
    pub cluster: u32,
}

/// `(P(Black wins), P(draw), P(White wins))` at `eta` and draw margin `delta`.
pub fn probabilities(eta: f64, delta: f64) -> [f64; 3] {
    let win = sigmoid(eta - delta);
    let loss = sigmoid(-eta - delta);
    [loss, (1.0 - win - loss).max(0.0), win]
}

/// The linear predictor of `theta` (`columns` weights, then `tau`) at `x`.
pub fn eta(theta: &[f64], x: &[f64]) -> f64 {
    let columns = x.len();
    x.iter().zip(theta).map(|(a, b)| a * b).sum::<f64>() + theta[columns]
}

/// One game's negative log-likelihood and its derivatives in `a = eta -
/// delta` and `b = eta + delta`: `(nll, l_a, l_b, l_aa, l_bb, l_ab)`.
fn outcome_terms(a: f64, b: f64, outcome: u8) -> (f64, f64, f64, f64, f64, f64) {
    match outcome {
        WHITE_WINS => {
            let s = sigmoid(a);
            (softplus(-a), s - 1.0, 0.0, s * (1.0 - s), 0.0, 0.0)
        }
        BLACK_WINS => {
            let s = sigmoid(b);
            (softplus(b), 0.0, s, 0.0, s * (1.0 - s), 0.0)
        }
        _ => {
            let (sa, sb) = (sigmoid(a), sigmoid(b));
            let d = sb - sa;
            if d <= 0.0 || !d.is_finite() {
                return (f64::INFINITY, 0.0, 0.0, 0.0, 0.0, 0.0);
            }
            let (da, db) = (sa * (1.0 - sa), sb * (1.0 - sb));
            (
                -d.ln(),
                da / d,
                -db / d,
                (da * (1.0 - 2.0 * sa) * d + da * da) / (d * d),
                (-db * (1.0 - 2.0 * sb) * d + db * db) / (d * d),
                -da * db / (d * d),
            )
        }
    }
}

/// The parameter count for `columns` feature columns: the weights, `tau`
/// and `delta`.
pub fn parameters(columns: usize) -> usize {
    columns + 2
}

/// Adds `scale` times one game's gradient and Hessian (or, with
/// `expected`, its Fisher information) at `theta` into `gradient` and
/// `hessian`; returns the game's negative log-likelihood.
fn accumulate(
    theta: &[f64],
    x: &[f64],
    outcome: Option<u8>,
    scale: f64,
    gradient: &mut [f64],
    hessian: &mut [f64],
) -> f64 {
    let columns = x.len();
    let n = parameters(columns);
    let delta = theta[columns + 1];
    let linear = eta(theta, x);
    let (a, b) = (linear - delta, linear + delta);
    // d a / d theta = (x, 1, -1); d b / d theta = (x, 1, +1).
    let component = |i: usize, sign: f64| -> f64 {
        if i < columns {
            x[i]
        } else if i == columns {
            1.0
        } else {
            sign
        }
    };
    let (nll, la, lb, laa, lbb, lab) = match outcome {
        Some(outcome) => outcome_terms(a, b, outcome),
        None => {
            // Expected Hessian: sum over outcomes of P(outcome) * Hessian.
            let p = probabilities(linear, delta);
            let mut sum = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
            for (outcome, &probability) in p.iter().enumerate() {
                if probability <= 0.0 {
                    continue;
                }
                let t = outcome_terms(a, b, outcome as u8);
                sum.3 += probability * t.3;
                sum.4 += probability * t.4;
                sum.5 += probability * t.5;
            }
            sum
        }
    };
    if !nll.is_finite() {
        return nll;
    }
    for i in 0..n {
        let (ai, bi) = (component(i, -1.0), component(i, 1.0));
        gradient[i] += scale * (la * ai + lb * bi);
        for j in 0..n {
            let (aj, bj) = (component(j, -1.0), component(j, 1.0));
            hessian[i * n + j] +=
                scale * (laa * ai * aj + lbb * bi * bj + lab * (ai * bj + bi * aj));
        }
    }
    scale * nll
}

/// A normal prior on `theta` (for the design's estimate, never the
/// reported fit): its mean and precision matrix.
#[derive(Clone, Debug, PartialEq)]
pub struct Prior {
    /// The prior mean.
    pub mean: Vec<f64>,
    /// The prior precision (`n x n`, row major).
    pub precision: Vec<f64>,
}

impl Prior {
    fn penalty(&self, theta: &[f64]) -> f64 {
        let d: Vec<f64> = theta.iter().zip(&self.mean).map(|(t, m)| t - m).collect();
        0.5 * quadratic_form(&d, &self.precision)
    }
}

/// The negative log-likelihood of `rows` (weighted by `weights`) at
/// `theta`, plus the prior's penalty when there is one.
pub fn negative_log_likelihood(rows: &[OrdinalRow], weights: Option<&[f64]>, theta: &[f64]) -> f64 {
    penalised(rows, weights, None, theta)
}

fn penalised(
    rows: &[OrdinalRow],
    weights: Option<&[f64]>,
    prior: Option<&Prior>,
    theta: &[f64],
) -> f64 {
    let delta = theta[theta.len() - 1];
    if delta <= 0.0 {
        return f64::INFINITY;
    }
    prior.map_or(0.0, |p| p.penalty(theta))
        + rows
            .iter()
            .enumerate()
            .map(|(index, row)| {
                let weight = weights.map_or(1.0, |w| w[index]);
                if weight == 0.0 {
                    return 0.0;
                }
                let linear = eta(theta, &row.x);
                weight * outcome_terms(linear - delta, linear + delta, row.outcome).0
            })
            .sum::<f64>()
}

/// A tiny ridge that keeps the Hessian invertible when a column never
/// varies (a type absent from the data or from a resample).
const RIDGE: f64 = 1e-9;

/// The maximum-likelihood fit.
#[derive(Clone, Debug, PartialEq)]
pub struct OrdinalFit {
    /// The parameters: weights, `tau`, `delta`.
    pub theta: Vec<f64>,
    /// The Hessian of the negative log-likelihood at `theta` (row major).
    pub hessian: Vec<f64>,
    /// Newton iterations taken.
    pub iterations: usize,
}

/// Fits the model to `rows` (all with `columns` features), each row's
/// likelihood raised to `weights` (bootstrap counts), from `start` (or
/// zeros with the draw margin of the draw rate).
pub fn fit_ordinal(
    rows: &[OrdinalRow],
    columns: usize,
    weights: Option<&[f64]>,
    start: Option<&[f64]>,
) -> Result<OrdinalFit, FitError> {
    fit_ordinal_with_prior(rows, columns, weights, start, None)
}

/// [`fit_ordinal`] with a prior: the posterior mode, and the Hessian of
/// the penalised negative log-likelihood (the posterior precision).
pub fn fit_ordinal_with_prior(
    rows: &[OrdinalRow],
    columns: usize,
    weights: Option<&[f64]>,
    start: Option<&[f64]>,
    prior: Option<&Prior>,
) -> Result<OrdinalFit, FitError> {
    let n = parameters(columns);
    if rows.iter().any(|row| row.x.len() != columns) {
        return Err(FitError(format!("a row without {columns} features")));
    }
    let mut theta = match start {
        Some(start) if start.len() == n => start.to_vec(),
        Some(start) => {
            return Err(FitError(format!(
                "{} start values for {n} parameters",
                start.len()
            )))
        }
        None => {
            let total: f64 = (0..rows.len()).map(|i| weights.map_or(1.0, |w| w[i])).sum();
            let draws: f64 = rows
                .iter()
                .enumerate()
                .filter(|(_, row)| row.outcome == DRAW)
                .map(|(i, _)| weights.map_or(1.0, |w| w[i]))
                .sum();
            let rate = (draws / total.max(1.0)).clamp(0.02, 0.98);
            let mut theta = vec![0.0; n];
            theta[n - 1] = ((1.0 + rate) / (1.0 - rate)).ln();
            theta
        }
    };
    let mut current = penalised(rows, weights, prior, &theta);
    if !current.is_finite() {
        return Err(FitError("the start point has no likelihood".to_string()));
    }
    for iteration in 1..=200 {
        let (gradient, hessian) = derivatives(rows, weights, prior, &theta);
        let mut work = hessian.clone();
        let step = solve_symmetric(&mut work, &gradient, n)
            .ok_or_else(|| FitError("the Hessian is not positive definite".to_string()))?;
        let mut scale = 1.0;
        let (next, next_loss) = loop {
            let candidate: Vec<f64> = theta
                .iter()
                .zip(&step)
                .map(|(t, s)| t - scale * s)
                .collect();
            let candidate_loss = penalised(rows, weights, prior, &candidate);
            if candidate_loss <= current + 1e-12 * current.abs().max(1.0) {
                break (candidate, candidate_loss);
            }
            if scale < 1e-8 {
                break (theta.clone(), current);
            }
            scale /= 2.0;
        };
        let largest_step = step.iter().fold(0.0f64, |m, s| m.max((scale * s).abs()));
        theta = next;
        current = next_loss;
        if largest_step < 1e-10 || scale < 1e-8 {
            let (_, hessian) = derivatives(rows, weights, prior, &theta);
            return Ok(OrdinalFit {
                theta,
                hessian,
                iterations: iteration,
            });
        }
    }
    Err(FitError(
        "Newton's method did not converge in 200 iterations (a type that always wins or loses?)"
            .to_string(),
    ))
}

/// The gradient and Hessian of the weighted negative log-likelihood (with
/// the ridge, and the prior's penalty).
fn derivatives(
    rows: &[OrdinalRow],
    weights: Option<&[f64]>,
    prior: Option<&Prior>,
    theta: &[f64],
) -> (Vec<f64>, Vec<f64>) {
    let n = theta.len();
    let mut gradient = vec![0.0; n];
    let mut hessian = vec![0.0; n * n];
    for (index, row) in rows.iter().enumerate() {
        let weight = weights.map_or(1.0, |w| w[index]);
        if weight != 0.0 {
            accumulate(
                theta,
                &row.x,
                Some(row.outcome),
                weight,
                &mut gradient,
                &mut hessian,
            );
        }
    }
    for i in 0..n {
        gradient[i] += RIDGE * theta[i];
        hessian[i * n + i] += RIDGE;
    }
    if let Some(prior) = prior {
        for i in 0..n {
            for j in 0..n {
                let p = prior.precision[i * n + j];
                gradient[i] += p * (theta[j] - prior.mean[j]);
                hessian[i * n + j] += p;
            }
        }
    }
    (gradient, hessian)
}

/// The Fisher information of one game with features `x` at `theta`.
pub fn game_information(theta: &[f64], x: &[f64]) -> Vec<f64> {
    let n = theta.len();
    let mut gradient = vec![0.0; n];
    let mut information = vec![0.0; n * n];
    accumulate(theta, x, None, 1.0, &mut gradient, &mut information);
    information
}

/// The inverse of a symmetric positive definite `n x n` matrix.
pub fn invert(matrix: &[f64], n: usize) -> Option<Vec<f64>> {
    let mut inverse = vec![0.0; n * n];
    for column in 0..n {
        let mut unit = vec![0.0; n];
        unit[column] = 1.0;
        let mut work = matrix.to_vec();
        let solution = solve_symmetric(&mut work, &unit, n)?;
        for row in 0..n {
            inverse[row * n + column] = solution[row];
        }
    }
    Some(inverse)
}

/// The covariance of the fitted parameters: the inverse Hessian, or with
/// `robust` the sandwich over the rows' clusters.
pub fn covariance(rows: &[OrdinalRow], fit: &OrdinalFit, robust: bool) -> Option<Vec<f64>> {
    let n = fit.theta.len();
    let inverse = invert(&fit.hessian, n)?;
    if !robust {
        return Some(inverse);
    }
    let mut by_cluster: std::collections::BTreeMap<u32, Vec<f64>> = Default::default();
    for row in rows {
        let mut gradient = vec![0.0; n];
        let mut unused = vec![0.0; n * n];
        accumulate(
            &fit.theta,
            &row.x,
            Some(row.outcome),
            1.0,
            &mut gradient,
            &mut unused,
        );
        let sum = by_cluster
            .entry(row.cluster)
            .or_insert_with(|| vec![0.0; n]);
        for (s, g) in sum.iter_mut().zip(&gradient) {
            *s += g;
        }
    }
    let clusters = by_cluster.len() as f64;
    if clusters < 2.0 {
        return None;
    }
    let mut meat = vec![0.0; n * n];
    for g in by_cluster.values() {
        for i in 0..n {
            for j in 0..n {
                meat[i * n + j] += g[i] * g[j];
            }
        }
    }
    let product = multiply(&multiply(&inverse, &meat, n), &inverse, n);
    Some(
        product
            .into_iter()
            .map(|v| v * clusters / (clusters - 1.0))
            .collect(),
    )
}

/// `a b` for `n x n` matrices.
pub fn multiply(a: &[f64], b: &[f64], n: usize) -> Vec<f64> {
    let mut c = vec![0.0; n * n];
    for i in 0..n {
        for k in 0..n {
            let aik = a[i * n + k];
            if aik == 0.0 {
                continue;
            }
            for j in 0..n {
                c[i * n + j] += aik * b[k * n + j];
            }
        }
    }
    c
}

/// The gradient of the ratio `theta[column] / theta[pawn]` in `theta`.
pub fn ratio_gradient(theta: &[f64], column: usize, pawn: usize) -> Vec<f64> {
    let mut gradient = vec![0.0; theta.len()];
    let unit = theta[pawn];
    gradient[column] += 1.0 / unit;
    gradient[pawn] -= theta[column] / (unit * unit);
    gradient
}

/// `g^T m g` for a vector `g` and an `n x n` matrix `m`.
pub fn quadratic_form(g: &[f64], m: &[f64]) -> f64 {
    let n = g.len();
    (0..n)
        .map(|i| g[i] * (0..n).map(|j| m[i * n + j] * g[j]).sum::<f64>())
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(x: f64, outcome: u8, cluster: u32) -> OrdinalRow {
        OrdinalRow {
            x: vec![x],
            outcome,
            cluster,
        }
    }

    #[test]
    fn without_features_the_fit_matches_the_observed_frequencies() {
        // 5 White wins, 3 draws, 2 Black wins, no features: the MLE sets
        // P(win) = sigmoid(tau - delta) = 0.5 and P(loss) =
        // sigmoid(-tau - delta) = 0.2, i.e. tau - delta = 0 and tau +
        // delta = logit(0.8) = ln 4: tau = delta = ln(4) / 2.
        let mut rows = Vec::new();
        for (outcome, count) in [(WHITE_WINS, 5), (DRAW, 3), (BLACK_WINS, 2)] {
            for i in 0..count {
                rows.push(OrdinalRow {
                    x: Vec::new(),
                    outcome,
                    cluster: i,
                });
            }
        }
        let fit = fit_ordinal(&rows, 0, None, None).unwrap();
        let half_ln4 = 4f64.ln() / 2.0;
        assert!((fit.theta[0] - half_ln4).abs() < 1e-8, "{:?}", fit.theta);
        assert!((fit.theta[1] - half_ln4).abs() < 1e-8, "{:?}", fit.theta);
    }

    #[test]
    fn the_gradient_vanishes_at_the_fit_and_the_hessian_matches_differences() {
        let rows = vec![
            row(1.0, WHITE_WINS, 0),
            row(-1.0, BLACK_WINS, 0),
            row(2.0, DRAW, 1),
            row(0.0, WHITE_WINS, 1),
            row(-2.0, DRAW, 2),
            row(1.0, BLACK_WINS, 2),
            row(0.5, DRAW, 3),
        ];
        let fit = fit_ordinal(&rows, 1, None, None).unwrap();
        let h = 1e-5;
        let n = fit.theta.len();
        for i in 0..n {
            let mut up = fit.theta.clone();
            let mut down = fit.theta.clone();
            up[i] += h;
            down[i] -= h;
            let slope = (negative_log_likelihood(&rows, None, &up)
                - negative_log_likelihood(&rows, None, &down))
                / (2.0 * h);
            assert!(slope.abs() < 1e-6, "d nll / d theta{i} = {slope}");
            // The Hessian's column i is the change of the gradient.
            let (gu, _) = derivatives(&rows, None, None, &up);
            let (gd, _) = derivatives(&rows, None, None, &down);
            for j in 0..n {
                let numeric = (gu[j] - gd[j]) / (2.0 * h);
                assert!(
                    (numeric - fit.hessian[j * n + i]).abs() < 1e-5,
                    "H[{j}][{i}]: {numeric} vs {}",
                    fit.hessian[j * n + i]
                );
            }
        }
    }

    #[test]
    fn probabilities_add_up_and_the_information_is_their_expected_curvature() {
        let p = probabilities(0.7, 0.4);
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        assert!((p[2] - sigmoid(0.3)).abs() < 1e-12);
        // The Fisher information equals the covariance of the score.
        let theta = [0.6, 0.1, 0.5];
        let x = [1.5];
        let information = game_information(&theta, &x);
        let linear = eta(&theta, &x);
        let p = probabilities(linear, 0.5);
        let mut outer = [0.0; 9];
        for outcome in 0..3u8 {
            let mut g = vec![0.0; 3];
            let mut unused = vec![0.0; 9];
            accumulate(&theta, &x, Some(outcome), 1.0, &mut g, &mut unused);
            for i in 0..3 {
                for j in 0..3 {
                    outer[i * 3 + j] += p[usize::from(outcome)] * g[i] * g[j];
                }
            }
        }
        for (a, b) in information.iter().zip(&outer) {
            assert!((a - b).abs() < 1e-10, "{information:?} vs {outer:?}");
        }
    }
}
