//! The looks of a run: after each batch, the maximum-likelihood fit of
//! the designed experiment on the games so far with its covariance (the
//! cluster-robust sandwich over pairs). The verdicts ([`crate::values::verdict`])
//! are read from them; the report's precision against games too.

use serde::{Deserialize, Serialize};

use crate::stats::match_stats::z95;
use crate::values::design_game::{complete_pairs, DesignGame};
use crate::values::features::FeatureSpace;
use crate::values::ordinal::{
    covariance, fit_ordinal, game_information, invert, quadratic_form, ratio_gradient, OrdinalRow,
};
use crate::values::PieceTypes;

/// One look: the fit on the complete pairs of batches `1 ..= batch`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Look {
    /// The last batch it includes.
    pub batch: u32,
    /// Games fitted.
    pub games: usize,
    /// The fitted parameters (value columns, pair columns, White's
    /// move, the draw margin; see [`crate::values::ordinal`]).
    pub theta: Vec<f64>,
    /// Their covariance, the sandwich over pairs (row major).
    pub covariance: Vec<f64>,
}

impl Look {
    /// The fit of `rows` as the look after `batch`; `None` when the fit
    /// fails or has no covariance (too few pairs, a pawn that does not
    /// count).
    pub fn of(rows: &[OrdinalRow], columns: usize, batch: u32) -> Option<Look> {
        let fit = fit_ordinal(rows, columns, None, None).ok()?;
        let covariance = covariance(rows, &fit, true)?;
        Some(Look {
            batch,
            games: rows.len(),
            theta: fit.theta,
            covariance,
        })
    }

    /// The look that the games of `rows` would give if the parameters
    /// were `theta`: the covariance the model's information predicts
    /// (the inverse of the summed [`game_information`]). `None` when it
    /// is singular.
    pub fn predicted(theta: &[f64], rows: &[OrdinalRow]) -> Option<Look> {
        let n = theta.len();
        let mut information = vec![0.0; n * n];
        for row in rows {
            for (total, one) in information.iter_mut().zip(game_information(theta, &row.x)) {
                *total += one;
            }
        }
        Some(Look {
            batch: 0,
            games: rows.len(),
            theta: theta.to_vec(),
            covariance: invert(&information, n)?,
        })
    }

    /// A look after batch 1 of 100 games at `theta`, with covariance
    /// `sigma` times the identity: the tests' hand-made fits.
    #[cfg(test)]
    pub(crate) fn with_diagonal(theta: &[f64], sigma: f64) -> Look {
        let n = theta.len();
        let mut covariance = vec![0.0; n * n];
        for i in 0..n {
            covariance[i * n + i] = sigma;
        }
        Look {
            batch: 1,
            games: 100,
            theta: theta.to_vec(),
            covariance,
        }
    }

    /// The variance of `g . theta`.
    pub fn variance(&self, g: &[f64]) -> f64 {
        quadratic_form(g, &self.covariance).max(0.0)
    }

    /// The standard error of the value (pawns) of the type in `column`,
    /// by the delta method.
    pub fn value_error(&self, column: usize, pawn_column: usize) -> f64 {
        self.variance(&ratio_gradient(&self.theta, column, pawn_column))
            .sqrt()
    }

    /// The 95% half-width of every type's value (none for the king and
    /// the pawn), by the curvature.
    pub fn half_widths(&self, space: &FeatureSpace, types: &PieceTypes) -> Vec<Option<f64>> {
        (0..types.letters.len())
            .map(|t| {
                let column = space.value_column(t)?;
                (t != types.pawn).then(|| z95() * self.value_error(column, space.pawn_column))
            })
            .collect()
    }
}

/// The number of rows of `games`' complete pairs up to each batch, for
/// every batch from 1 to the last one that has games: the rows of
/// [`crate::values::design_game::design_rows`] come in batch order, so the rows
/// of batches `1 ..= b` are the first of them.
pub fn batch_ends(games: &[&DesignGame]) -> Vec<(u32, usize)> {
    let last = games.iter().map(|g| g.batch).max().unwrap_or(0);
    (1..=last)
        .map(|batch| {
            let so_far: Vec<&DesignGame> =
                games.iter().copied().filter(|g| g.batch <= batch).collect();
            (batch, 2 * complete_pairs(&so_far).len())
        })
        .collect()
}

/// The looks after each batch of `ends` (batch, rows up to it) on
/// `rows`; batches without rows, or whose fit fails, have none.
pub fn looks(rows: &[OrdinalRow], ends: &[(u32, usize)], columns: usize) -> Vec<Look> {
    ends.iter()
        .filter(|&&(_, end)| end > 0)
        .filter_map(|&(batch, end)| Look::of(&rows[..end.min(rows.len())], columns, batch))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::values::design::{candidate_trades, DesignLimits};
    use crate::values::estimate::ratios;
    use crate::values::synthetic::synthetic_pairs;
    use crate::values::trade::Trade;
    use kurier_engine::variant::definition::Variant;

    #[test]
    fn the_predicted_covariance_is_the_spread_of_fits_to_such_games() {
        // Chess at 0.3 logit per pawn (Q R B N P 9 5 3.2 3.1 1), a draw
        // margin of 0.4 logit; 1,000 pairs of the trades balanced at those
        // values, played again and again. The predicted standard error
        // of each value must match the spread of the values fitted to 60
        // such experiments (independent pairs) within the spread's own
        // noise (about 9% with 60 runs; 25% allowed).
        let types = PieceTypes::of(&Variant::built_in("chess").unwrap()).unwrap();
        let space = FeatureSpace::new(&types, Vec::new());
        let limits = DesignLimits {
            men: vec![1, 1, 2, 2, 2, 8],
            pawns_per_side: 4,
        };
        let truth = [0.3 * 9.0, 0.3 * 5.0, 0.3 * 3.2, 0.3 * 3.1, 0.3, 0.05, 0.4];
        let (values, pair_values) = ratios(&space, &truth, types.letters.len());
        let candidates = candidate_trades(&types, &space, &values, &pair_values, &limits);
        let trades: Vec<Trade> = candidates.iter().cycle().take(1000).cloned().collect();
        let play = |seed: u64| synthetic_pairs(&space, &limits, &truth, &trades, 0.0, 0, seed);
        let predicted = Look::predicted(&truth, &play(0)).unwrap();
        let runs = 60;
        let fits: Vec<Vec<f64>> = (1..=runs)
            .map(|seed| {
                fit_ordinal(&play(seed), space.columns(), None, None)
                    .unwrap()
                    .theta
            })
            .collect();
        for t in types.pieces() {
            let column = space.value_column(t).unwrap();
            let pawn = space.pawn_column;
            let truth_value = truth[column] / truth[pawn];
            let squares: f64 = fits
                .iter()
                .map(|theta| (theta[column] / theta[pawn] - truth_value).powi(2))
                .sum();
            let spread = (squares / f64::from(runs as u32)).sqrt();
            let expected = predicted.value_error(column, pawn);
            assert!(
                (spread / expected - 1.0).abs() < 0.25,
                "{}: fitted values spread {spread:.3}, predicted {expected:.3}",
                types.letters[t]
            );
        }
    }
}
