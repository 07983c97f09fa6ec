//! The looks of a run: after each batch, the maximum-likelihood fit of
//! the designed experiment on the games so far with its covariance (the
//! cluster-robust sandwich over pairs). The verdicts ([`crate::values::verdict`])
//! are read from them; the report's precision against games too.

use serde::{Deserialize, Serialize};

use crate::stats::match_stats::z95;
use crate::values::design_game::{complete_pairs, DesignGame};
use crate::values::features::FeatureSpace;
use crate::values::ordinal::{covariance, fit_ordinal, quadratic_form, ratio_gradient, OrdinalRow};
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
