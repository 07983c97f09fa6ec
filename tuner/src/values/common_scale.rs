//! The common scale: measured values divided by the one factor that
//! fits them best to a reference set (the suggested values, Kaufman's
//! for chess), so that the pieces' ratios are seen apart from the
//! pawn's worth.
//!
//! Every measured value is a ratio to the pawn, so an uncertain pawn
//! (ExCoCo's moves the result least of all its men) widens every
//! interval, and a pawn worth more or less than the reference's shifts
//! every value alike. The factor `k` minimises `sum_t (ln v_t - ln(k
//! s_t))^2` over the pieces `t` (the pawn and the king left out): `k` is
//! the geometric mean of `v_t / s_t`. On the common scale a value is
//! `v_t / k`, the pawn's `1 / k` (how many reference pawns a measured
//! pawn is worth). In the model's weights `w` (value `v_t = w_t /
//! w_pawn`) the common-scale value is `w_t G(s) / G(w)`, `G` the
//! geometric mean over the pieces: the pawn's weight cancels.
//!
//! The report's intervals refit `k` in every bootstrap resample
//! ([`crate::values::experiment::design_estimate`]); the verdicts use the
//! delta method on `ln(w_t) - mean_j ln(w_j)`
//! ([`log_common_gradient`]), both so that the factor's own uncertainty
//! is counted.

use serde::{Deserialize, Serialize};

use crate::stats::bootstrap::Interval;
use crate::values::Values;

/// The values on the common scale of one estimate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CommonScale {
    /// Measured pawns per reference pawn, `k`.
    pub factor: f64,
    /// Its 95% interval (bootstrap, refitted in each resample).
    pub factor_interval: Option<Interval>,
    /// Values by type on the reference's scale (pawn `1 / k`, king 0).
    pub values: Values,
    /// Their 95% intervals (none for the king).
    pub intervals: Vec<Option<Interval>>,
}

/// The factor `k` of `values` against `reference` over `pieces`: the
/// geometric mean of their ratios (least squares of the logarithms).
/// `None` without pieces or with a value that is not positive.
pub fn scale_factor(values: &[f64], reference: &[f64], pieces: &[usize]) -> Option<f64> {
    if pieces.is_empty()
        || pieces
            .iter()
            .any(|&t| values[t] <= 0.0 || reference[t] <= 0.0)
    {
        return None;
    }
    let mean_log = pieces
        .iter()
        .map(|&t| (values[t] / reference[t]).ln())
        .sum::<f64>()
        / pieces.len() as f64;
    Some(mean_log.exp())
}

/// The gradient in `theta` of `ln(w_column) - mean_j ln(w_j)` over the
/// `piece_columns`: the logarithm of a common-scale value but for the
/// constant `ln G(s)`. `None` where a weight is not positive.
pub fn log_common_gradient(
    theta: &[f64],
    column: usize,
    piece_columns: &[usize],
) -> Option<Vec<f64>> {
    if theta[column] <= 0.0 || piece_columns.iter().any(|&j| theta[j] <= 0.0) {
        return None;
    }
    let mut gradient = vec![0.0; theta.len()];
    gradient[column] += 1.0 / theta[column];
    let m = piece_columns.len() as f64;
    for &j in piece_columns {
        gradient[j] -= 1.0 / (m * theta[j]);
    }
    Some(gradient)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_uniformly_inflated_set_has_the_factor_as_its_whole_bias() {
        // Every piece 25% above the reference: k = 1.25, and on the
        // common scale every piece is the reference's.
        let reference = [0.0, 9.75, 5.0, 3.25, 3.25, 1.0];
        let values: Vec<f64> = reference.iter().map(|v| 1.25 * v).collect();
        let k = scale_factor(&values, &reference, &[1, 2, 3, 4]).unwrap();
        assert!((k - 1.25).abs() < 1e-12, "{k}");
    }

    #[test]
    fn the_factor_is_the_geometric_mean_of_the_ratios() {
        // Ratios 1/2, 2 and 1: geometric mean 1; ratios 1/4 and 1: 1/2.
        assert_eq!(
            scale_factor(&[1.0, 4.0, 3.0], &[2.0, 2.0, 3.0], &[0, 1, 2]),
            Some(1.0)
        );
        let k = scale_factor(&[1.0, 5.0], &[4.0, 5.0], &[0, 1]).unwrap();
        assert!((k - 0.5).abs() < 1e-12, "{k}");
        // It fits the logarithms in least squares: moving k either way
        // raises the sum of squares.
        let values = [2.0, 7.0, 13.0];
        let reference = [3.0, 5.0, 12.0];
        let k = scale_factor(&values, &reference, &[0, 1, 2]).unwrap();
        let loss = |k: f64| -> f64 {
            (0..3)
                .map(|t| (values[t].ln() - (k * reference[t]).ln()).powi(2))
                .sum()
        };
        assert!(loss(k) < loss(k * 1.01) && loss(k) < loss(k / 1.01));
    }

    #[test]
    fn no_factor_without_positive_values() {
        assert_eq!(scale_factor(&[1.0], &[1.0], &[]), None);
        assert_eq!(scale_factor(&[0.0, 5.0], &[3.25, 5.0], &[0, 1]), None);
        assert_eq!(scale_factor(&[-1.0], &[3.25], &[0]), None);
    }

    #[test]
    fn the_log_gradient_matches_differences() {
        let theta = [0.8, 2.4, 1.1, 0.3, 0.05, 0.9];
        let pieces = [0, 1, 2];
        let h = |theta: &[f64]| -> f64 {
            theta[3].ln() - pieces.iter().map(|&j| theta[j].ln()).sum::<f64>() / 3.0
        };
        let gradient = log_common_gradient(&theta, 3, &pieces).unwrap();
        for i in 0..theta.len() {
            let (mut up, mut down) = (theta, theta);
            up[i] += 1e-6;
            down[i] -= 1e-6;
            let numeric = (h(&up) - h(&down)) / 2e-6;
            assert!(
                (numeric - gradient[i]).abs() < 1e-6,
                "{i}: {numeric} vs {}",
                gradient[i]
            );
        }
        assert!(log_common_gradient(&[0.8, -0.1, 1.0], 2, &[0, 1]).is_none());
    }
}
