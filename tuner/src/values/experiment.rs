//! The designed experiment, the main estimator: game pairs from opening
//! positions with a material imbalance set by the design ([`design`]),
//! played in batches by an engine that keeps its values for the whole
//! run, and fitted jointly by maximum likelihood ([`ordinal`]).
//!
//! Batch `b` of a budget is planned from the games of batches `1 .. b`
//! of that budget alone (the fit, its curvature and the design's prior):
//! its trades, and for each pair an opening and the squares of the men
//! removed, drawn from the pair's own seed, neither used before in the
//! run. The plan depends on nothing but the settings and those games, so
//! any machine that holds them plans the same batch: shards play their
//! share of it, and a merge can check every game against the plan.
//!
//! [`design`]: crate::values::design
//! [`ordinal`]: crate::values::ordinal

use std::collections::BTreeSet;
use std::sync::Arc;

use kurier_engine::board::bitboard::Bitboard;
use kurier_engine::eval::evaluate::Evaluator;
use kurier_engine::position::game::Game;
use kurier_engine::position::state::Position;
use kurier_engine::types::Color;

use super::{PieceTypes, Values};
use crate::positions::openings::random_opening;
use crate::stats::bootstrap::{bootstrap_intervals, Interval};
use crate::stats::logistic::FitError;
use crate::stats::match_stats::z95;
use crate::util::rng::Rng;
use crate::values::common_scale::{scale_factor, CommonScale};
use crate::values::design::{BatchDesign, DesignLimits, Until};
use crate::values::design_game::design_rows;
use crate::values::design_game::DesignGame;
use crate::values::estimate::{ratios, value_intervals, Estimate, Quantity};
use crate::values::features::FeatureSpace;
use crate::values::instance::{draw_squares, imbalanced_position};
use crate::values::look::{batch_ends, looks};
use crate::values::ordinal::{covariance, fit_ordinal, quadratic_form, ratio_gradient, OrdinalRow};
use crate::values::trade::Trade;

/// A game the plan of a batch asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlannedGame {
    /// The pair within the batch.
    pub pair: u32,
    /// Whether A is White.
    pub a_white: bool,
    /// The trade.
    pub trade: Trade,
    /// The start position.
    pub fen: String,
}

/// Where the experiment's openings come from.
pub enum Bases<B: Bitboard> {
    /// Positions of a book.
    Book(Vec<Position<B>>),
    /// Random plies from the start position.
    Random(Box<Position<B>>, usize),
}

impl<B: Bitboard> Bases<B> {
    /// An opening, drawn with `rng`.
    fn draw(&self, rng: &mut Rng) -> Position<B> {
        match self {
            Bases::Book(positions) => positions[rng.below(positions.len())].clone(),
            Bases::Random(start, plies) => random_opening(start, *plies, rng),
        }
    }
}

/// Everything a batch's plan depends on besides the games played.
pub struct Planner<'p, B: Bitboard> {
    /// The variant's types.
    pub types: &'p PieceTypes,
    /// The model's columns.
    pub space: &'p FeatureSpace,
    /// The values the engine plays with (pawns by type).
    pub engine_values: &'p Values,
    /// The values every batch is designed at (`None`: the fit so far).
    pub design_values: Option<&'p [f64]>,
    /// Judges the quietness of imbalanced positions.
    pub evaluator: &'p Evaluator<B>,
    /// The openings.
    pub bases: &'p Bases<B>,
    /// What a side may lose.
    pub limits: &'p DesignLimits,
    /// Pairs per batch.
    pub pairs: u32,
    /// The run's seed.
    pub seed: u64,
    /// With `--until-verdicts`: what the run decides (a batch after
    /// every verdict is in has no games).
    pub until: Option<Until<'p>>,
    /// The version of the design the run plans by.
    pub version: u32,
}

/// Tries per pair to find a legal, quiet and new instance of its trade.
const INSTANCE_TRIES: usize = 2000;

impl<B: Bitboard> Planner<'_, B> {
    /// The plan of batch `batch` of budget `budget`, from the games of
    /// that budget's earlier batches (`earlier`, all complete).
    pub fn plan(
        &self,
        game: &Arc<Game<B>>,
        budget: u32,
        batch: u32,
        earlier: &[&DesignGame],
    ) -> Result<Vec<PlannedGame>, String> {
        let rows = design_rows(game, self.space, earlier)?;
        // The looks matter only to a run that decides verdicts.
        let looks = match self.until {
            Some(_) => looks(&rows, &batch_ends(earlier), self.space.columns()),
            None => Vec::new(),
        };
        let trades = BatchDesign {
            types: self.types,
            space: self.space,
            engine_values: self.engine_values,
            design_values: self.design_values,
            limits: self.limits,
            pairs: self.pairs as usize,
            until: self.until,
            version: self.version,
        }
        .trades(&rows, &looks)?;
        let mut used: BTreeSet<String> = earlier.iter().map(|g| g.fen.clone()).collect();
        let mut planned = Vec::with_capacity(2 * trades.len());
        for (pair, trade) in trades.into_iter().enumerate() {
            let pair = pair as u32;
            let mut rng = Rng::new(
                self.seed
                    ^ u64::from(budget + 1).wrapping_mul(0xA24B_AED4_963E_E407)
                    ^ u64::from(batch).wrapping_mul(0x9FB2_1C65_1E98_DF25)
                    ^ u64::from(pair).wrapping_mul(0xC13F_A9A9_02A6_328F),
            );
            let mut found = None;
            for _ in 0..INSTANCE_TRIES {
                let base = self.bases.draw(&mut rng);
                let mut fens = Vec::with_capacity(2);
                for a_white in [true, false] {
                    let Some(squares) = draw_squares(&base, &trade.removal(a_white), &mut rng)
                    else {
                        break;
                    };
                    match imbalanced_position(&base, &squares, self.evaluator) {
                        Ok(position) => fens.push(position.fen()),
                        Err(_) => break,
                    }
                }
                if fens.len() == 2 && fens[0] != fens[1] && fens.iter().all(|f| !used.contains(f)) {
                    found = Some(fens);
                    break;
                }
            }
            let fens = found.ok_or_else(|| {
                format!(
                    "batch {batch}: no legal, quiet and new position for the trade {} in {INSTANCE_TRIES} tries",
                    trade.label(self.types)
                )
            })?;
            for (fen, a_white) in fens.into_iter().zip([true, false]) {
                used.insert(fen.clone());
                planned.push(PlannedGame {
                    pair,
                    a_white,
                    trade: trade.clone(),
                    fen,
                });
            }
        }
        Ok(planned)
    }
}

/// The men of each type per side in `positions` (the fewest over them and
/// both colours), for the design's limits.
pub fn men_available<B: Bitboard>(positions: &[Position<B>], types: usize) -> Vec<usize> {
    (0..types)
        .map(|t| {
            positions
                .iter()
                .flat_map(|p| Color::BOTH.map(|c| p.pieces(c, t).count() as usize))
                .min()
                .unwrap_or(0)
        })
        .collect()
}

/// Fits the games' `rows` and bootstraps over pairs (`resamples`, seeded
/// by `seed`): values, pair terms, the scale, White's first-move
/// advantage and the draw margin, with both kinds of interval; with a
/// `reference` set (pawns by type), the values on its common scale too,
/// the factor refitted in every resample ([`crate::values::common_scale`]).
pub fn design_estimate(
    rows: &[OrdinalRow],
    space: &FeatureSpace,
    types: &PieceTypes,
    reference: Option<&[f64]>,
    resamples: usize,
    seed: u64,
) -> Result<Estimate, FitError> {
    let columns = space.columns();
    let fit = fit_ordinal(rows, columns, None, None)?;
    let unit = fit.theta[space.pawn_column];
    if unit <= 0.0 {
        return Err(FitError(format!(
            "the pawn's weight is {unit:.4}, not positive: the trades do not tell pawns apart"
        )));
    }
    let n_types = types.letters.len();
    let statistic = |theta: &[f64]| -> Vec<f64> {
        let (values, pairs) = ratios(space, theta, n_types);
        let mut out = values;
        out.extend(pairs);
        out.push(theta[space.pawn_column]);
        out.push(theta[columns] / theta[space.pawn_column]);
        out.push(theta[columns + 1] / theta[space.pawn_column]);
        if let Some(reference) = reference {
            let factor = scale_factor(&out, reference, &types.pieces()).unwrap_or(f64::NAN);
            let common: Vec<f64> = (0..n_types)
                .map(|t| {
                    if t == types.king {
                        0.0
                    } else {
                        out[t] / factor
                    }
                })
                .collect();
            out.push(factor);
            out.extend(common);
        }
        out
    };
    let point = statistic(&fit.theta);
    let groups: Vec<u32> = rows.iter().map(|r| r.cluster).collect();
    let bootstrap = bootstrap_intervals(&groups, point.len(), resamples, seed, &|weights| {
        fit_ordinal(rows, columns, Some(weights), Some(&fit.theta))
            .ok()
            .filter(|f| f.theta[space.pawn_column] > 0.0)
            .map(|f| statistic(&f.theta))
    });
    let interval = |i: usize| bootstrap.intervals.get(i).copied().flatten();
    let sandwich = covariance(rows, &fit, true);
    let z = z95();
    let wald = |column: usize| -> Option<Interval> {
        let sigma = sandwich.as_ref()?;
        let g = ratio_gradient(&fit.theta, column, space.pawn_column);
        let sd = quadratic_form(&g, sigma).max(0.0).sqrt();
        let value = fit.theta[column] / unit;
        Some(Interval {
            low: value - z * sd,
            high: value + z * sd,
        })
    };
    let measured = |t: usize| t != types.king && t != types.pawn;
    let (intervals, pairs) = value_intervals(&point, &bootstrap.intervals, space, types);
    let curvature = (0..n_types)
        .map(|t| space.value_column(t).filter(|_| measured(t)).and_then(wald))
        .collect();
    let after = n_types + space.pair_types.len();
    let mut clusters = groups;
    clusters.sort_unstable();
    clusters.dedup();
    let common_at = after + 3;
    let common = (reference.is_some() && point[common_at].is_finite()).then(|| CommonScale {
        factor: point[common_at],
        factor_interval: interval(common_at),
        values: point[common_at + 1..common_at + 1 + n_types].to_vec(),
        intervals: (0..n_types)
            .map(|t| {
                (t != types.king)
                    .then(|| interval(common_at + 1 + t))
                    .flatten()
            })
            .collect(),
    });
    Ok(Estimate {
        values: point[..n_types].to_vec(),
        intervals,
        curvature,
        pairs,
        extra: [
            "scale (logit per pawn)",
            "White's first move (pawns)",
            "draw margin (pawns)",
        ]
        .iter()
        .enumerate()
        .map(|(i, name)| Quantity {
            name: name.to_string(),
            value: point[after + i],
            interval: interval(after + i),
        })
        .collect(),
        rows: rows.len(),
        groups: clusters.len(),
        resamples: (bootstrap.resamples, bootstrap.failed),
        common,
    })
}
