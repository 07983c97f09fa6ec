//! The designed experiment's design: which trades the next batch of game
//! pairs plays.
//!
//! A trade takes men from both sides of an opening position: side A
//! loses one piece `X`, side B loses nothing (piece against pawns), one
//! piece `Y` (piece against piece) or two `Y + Z` (piece against two
//! pieces), and the side that is ahead by the current estimate also
//! loses the whole pawns that bring the two nearest balance, give or
//! take one (so that the scale, logit per pawn, is measured too). Each
//! trade is played as a pair of games, A with White and A with Black.
//!
//! Which trades: greedy optimal design. With the current estimate
//! `theta` and the precision (inverse covariance) of the games played so
//! far plus a weak prior, each candidate pair adds its Fisher information
//! `I_c` ([`game_information`] of its two games); the next pair is the
//! candidate that most reduces `sum_t u_t Var(v_t)`, the values'
//! variances (delta method) weighted by `u_t`, to first order `tr(Sigma
//! G Sigma I_c)`; the precision then grows by `I_c` and the next pick
//! follows. The weights: `1 / target_t^2`, the values against their
//! target half-widths ([`design_weights`]), or in a run that decides
//! verdicts, what it must still decide (none for a decided piece,
//! [`crate::values::verdict::Focus::weights`]). Balanced trades of well-known
//! pieces add little; the design moves toward the trades whose result is
//! least certain where the values are least known. Deterministic: ties
//! go to the earlier candidate.
//!
//! Designed at given values (version 3): the batch's trades make the
//! largest of `u_t Var(v_t)` smallest instead of their sum
//! ([`minimax_trades`]), since the experiment's figure is the games the
//! slowest value needs (`crate::values::efficiency`): the sum rule, even
//! knowing the true values, needed 1.4 times the games of the best
//! design for that figure on ExCoCo
//! (`reports/notes/2026-12-07-design-criterion.md`). In a run that
//! decides verdicts, each undecided piece weighs at least what the figure
//! gives it ([`at_least_the_figure`]): weighted by focus alone, a piece
//! far from an end of its band went unplayed and its verdicts came out
//! wrong.
//!
//! Two things keep the fit honest at a low scale (ExCoCo's 0.18 logit
//! per pawn), where balanced trades alone hardly measure the scale and a
//! design that balances its trades at the estimate of the moment biases
//! it (`tuner/tests/design_efficiency.rs`):
//! - a fixed share of every batch ([`PAWN_ODDS_SHARE`], designed at
//!   given values [`AT_VALUES_ODDS_SHARE`]) is pawn odds,
//!   side A losing pawns and B nothing ([`pawn_odds`]): imbalances that do
//!   not depend on any estimate, which pin the scale;
//! - given the values of an earlier run (`--design-values`), the design
//!   balances and weighs every batch at those values, never at the
//!   run's own fit: its trades then do not depend on the games' results
//!   (only, in a run that decides verdicts, on which are still undecided).

use crate::values::estimate::ratios;
use crate::values::features::FeatureSpace;
use crate::values::look::Look;
use crate::values::ordinal::{
    fit_ordinal_with_prior, game_information, invert, parameters, quadratic_form, ratio_gradient,
    OrdinalRow, Prior,
};
use crate::values::trade::Trade;
use crate::values::verdict::{Family, Focus, Schedule};
use crate::values::PieceTypes;

/// The version of the design: which trades a batch gets for the games
/// before it. A run's header records it, and a run goes on (resumes,
/// merges, builds on a base) only with a build of the same version,
/// since every batch is planned again from the games before it. Raise it
/// with every change to the trades a batch would get.
pub const DESIGN_VERSION: u32 = 3;

/// The versions of the design this build plans batches of: a run goes on
/// (resumes, merges, builds on a base) with the version it started with.
/// Version 2 chooses every batch by the greedy sum rule with a fifth of
/// pawn odds; version 3, designed at given values, by the largest figure
/// ([`minimax_trades`]) with a tenth ([`AT_VALUES_ODDS_SHARE`]).
pub const PLANNED_DESIGNS: [u32; 2] = [2, DESIGN_VERSION];

/// What the design may take from a side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DesignLimits {
    /// Men of each type per side in the opening positions.
    pub men: Vec<usize>,
    /// Pawns a side may lose at most.
    pub pawns_per_side: usize,
}

/// The share of each batch's pairs that are pawn odds ([`pawn_odds`]).
/// Simulated at ExCoCo's measured parameters (`design_efficiency.rs`, 4
/// batches of 120 pairs, 12 runs): with a fifth of the pairs as pawn
/// odds the adaptive design's fitted scale is 0.221 on average for the
/// true 0.183 (0.326 without), and its games to every value's target at
/// the true values 25,523 (29,204 without).
pub const PAWN_ODDS_SHARE: f64 = 0.2;

/// The share of pawn odds in a batch designed at given values by the
/// largest figure (version 3). Judged at the fit of the verdict run with
/// the current engine (`tuner/tests/design_at_pooled.rs`,
/// `reports/notes/2026-12-07-design-criterion.md`), designed at two
/// earlier runs' values: none, 27,302 and 60,897 games to every target;
/// a twentieth, 26,594 and 36,619; a tenth, 27,476 and 35,269; a fifth,
/// 30,357 and 36,777. The odds measure the pawn, the unit, whatever
/// values the other trades are balanced at.
pub const AT_VALUES_ODDS_SHARE: f64 = 0.1;

/// The pawn-odds pairs of a batch of `pairs`: the `share` of them, side A
/// losing from half the pawns a side may lose to all of them, in turn,
/// and side B nothing. None when a side may lose no pawn.
pub fn pawn_odds(
    types: &PieceTypes,
    limits: &DesignLimits,
    pairs: usize,
    share: f64,
) -> Vec<Trade> {
    let most = limits.pawns_per_side;
    if most == 0 {
        return Vec::new();
    }
    let least = most.div_ceil(2);
    let count = (share * pairs as f64).round() as usize;
    (0..count.min(pairs))
        .map(|i| Trade {
            a_loses: vec![types.pawn; least + i % (most - least + 1)],
            b_loses: Vec::new(),
        })
        .collect()
}

/// How far from balance (pawns, by the current estimate) a candidate
/// may be: up to one and a half pawns either way.
const MAX_IMBALANCE: f64 = 1.6;

/// Every candidate trade under `limits`, balanced by the `values` (pawns
/// per type) and `pair_values` (pawns per pair column) of the current
/// estimate.
pub fn candidate_trades(
    types: &PieceTypes,
    space: &FeatureSpace,
    values: &[f64],
    pair_values: &[f64],
    limits: &DesignLimits,
) -> Vec<Trade> {
    let pieces = types.pieces();
    let estimate: Vec<f64> = space
        .valued
        .iter()
        .map(|&t| values[t])
        .chain(pair_values.iter().copied())
        .collect();
    let advantage = |trade: &Trade| -> f64 {
        trade
            .features(space, &limits.men)
            .iter()
            .zip(&estimate)
            .map(|(x, v)| x * v)
            .sum()
    };
    let mut losses: Vec<Vec<usize>> = vec![Vec::new()];
    for (i, &y) in pieces.iter().enumerate() {
        losses.push(vec![y]);
        for &z in &pieces[i..] {
            if y != z || limits.men[y] >= 2 {
                losses.push(vec![y, z]);
            }
        }
    }
    let mut candidates = Vec::new();
    for &x in &pieces {
        for b_pieces in &losses {
            if b_pieces.contains(&x) {
                continue;
            }
            // One piece against one: the same trade with A and B named
            // the other way round is listed once, A losing the first.
            if b_pieces.len() == 1 && b_pieces[0] < x {
                continue;
            }
            let bare = Trade {
                a_loses: vec![x],
                b_loses: b_pieces.clone(),
            };
            let edge = advantage(&bare);
            let balance = (-edge).round() as i64;
            for offset in [-1, 0, 1] {
                let pawns = balance + offset;
                let mut trade = bare.clone();
                let count = pawns.unsigned_abs() as usize;
                if count > limits.pawns_per_side {
                    continue;
                }
                let side = if pawns > 0 {
                    &mut trade.b_loses
                } else {
                    &mut trade.a_loses
                };
                side.extend(std::iter::repeat_n(types.pawn, count));
                side.sort_unstable();
                if advantage(&trade).abs() <= MAX_IMBALANCE {
                    candidates.push(trade);
                }
            }
        }
    }
    candidates.sort();
    candidates.dedup();
    candidates
}

/// The weak prior of the design (never of the fit): the precision of
/// `theta` around the engine's values before any game, with a scale of
/// [`PRIOR_SCALE`] logit per pawn.
pub fn prior_precision(space: &FeatureSpace, values: &[f64]) -> Vec<f64> {
    let n = parameters(space.columns());
    let mut precision = vec![0.0; n * n];
    for (column, &t) in space.valued.iter().enumerate() {
        let sd_value = if column == space.pawn_column {
            0.5
        } else {
            0.25 * values[t].abs() + 0.5
        };
        precision[column * n + column] = 1.0 / (PRIOR_SCALE * sd_value).powi(2);
    }
    for column in space.valued.len()..space.columns() {
        precision[column * n + column] = 1.0 / (PRIOR_SCALE * 0.5).powi(2);
    }
    for column in space.columns()..n {
        precision[column * n + column] = 1.0 / 0.25;
    }
    precision
}

/// Logit per pawn that the design assumes before any game.
pub const PRIOR_SCALE: f64 = 0.3;

/// `theta` before any game: the engine's values at [`PRIOR_SCALE`], no
/// pair bonus, a small first-move advantage and a draw margin of one
/// logit.
pub fn prior_theta(space: &FeatureSpace, values: &[f64]) -> Vec<f64> {
    let mut theta: Vec<f64> = space
        .valued
        .iter()
        .map(|&t| PRIOR_SCALE * values[t])
        .collect();
    theta.extend(std::iter::repeat_n(0.0, space.pair_types.len()));
    theta.push(0.05);
    theta.push(1.0);
    theta
}

/// The precision a value is measured to, the 95% half-width in pawns:
/// 0.3 pawn, or 3% of the value above 10 pawns (a queen's). The design
/// steers its trades by it and the report plans its games by it.
pub fn target_half_width(value: f64) -> f64 {
    (0.03 * value.abs()).max(0.3)
}

/// The design's weight of each value column (and pair column) by its
/// target half-width ([`target_half_width`]), `1 / target^2`; none for
/// the pawn, the unit.
pub fn design_weights(space: &FeatureSpace, theta: &[f64]) -> Vec<f64> {
    let unit = theta[space.pawn_column];
    (0..space.columns())
        .map(|c| {
            if c == space.pawn_column {
                return 0.0;
            }
            let target = target_half_width(if unit > 0.0 { theta[c] / unit } else { 0.0 });
            1.0 / (target * target)
        })
        .collect()
}

/// Chooses `pairs` trades from `candidates` by the greedy rule of the
/// module documentation, at `theta` with the `precision` so far and the
/// columns' `weights`.
pub fn choose_trades(
    candidates: &[Trade],
    space: &FeatureSpace,
    men: &[usize],
    theta: &[f64],
    precision: &[f64],
    weights: &[f64],
    pairs: usize,
) -> Result<Vec<Trade>, String> {
    let n = theta.len();
    let informations = pair_informations(candidates, space, men, theta)?;
    let measured: Vec<usize> = (0..space.columns())
        .filter(|&c| c != space.pawn_column && weights[c] > 0.0)
        .collect();
    let mut precision = precision.to_vec();
    let mut chosen = Vec::with_capacity(pairs);
    for _ in 0..pairs {
        let sigma =
            invert(&precision, n).ok_or("the design's precision matrix is singular".to_string())?;
        // M = sum_t weight_t Sigma g_t g_t^T Sigma.
        let mut m = vec![0.0; n * n];
        for &c in &measured {
            let g = ratio_gradient(theta, c, space.pawn_column);
            add_sandwich(&mut m, &sigma, &g, weights[c]);
        }
        let mut best = 0;
        let mut best_gain = f64::NEG_INFINITY;
        for (index, information) in informations.iter().enumerate() {
            let gain: f64 = m.iter().zip(information).map(|(a, b)| a * b).sum();
            if gain > best_gain {
                best_gain = gain;
                best = index;
            }
        }
        for (p, i) in precision.iter_mut().zip(&informations[best]) {
            *p += i;
        }
        chosen.push(candidates[best].clone());
    }
    Ok(chosen)
}

/// Iterations of [`minimax_trades`]' multiplicative algorithm.
const MINIMAX_STEPS: usize = 2000;
/// The power its criterion rises to (the power mean of the values'
/// weighted variances nears their maximum as the power grows).
const MINIMAX_POWER: f64 = 20.0;
/// The exponent of its multiplicative step.
const MINIMAX_RATE: f64 = 0.2;

/// Chooses `pairs` trades from `candidates` at `theta`, on top of the
/// `precision` so far (earlier games and any pairs the batch plays
/// besides), that make the largest of the piece values' variances times
/// their columns' `weights` smallest (pair columns are not counted):
/// design weights over the candidates by the multiplicative algorithm on
/// the power mean of those weighted variances (its power rising from 1,
/// the greedy rule's sum, to [`MINIMAX_POWER`]), the best weights met,
/// rounded to pairs by the largest remainders (ties to the earlier
/// candidate). Deterministic.
pub fn minimax_trades(
    candidates: &[Trade],
    space: &FeatureSpace,
    men: &[usize],
    theta: &[f64],
    precision: &[f64],
    weights: &[f64],
    pairs: usize,
) -> Result<Vec<Trade>, String> {
    let n = theta.len();
    let informations = pair_informations(candidates, space, men, theta)?;
    // The piece values (the figure's and the verdicts'), not the pairs'.
    let measured: Vec<usize> = (0..space.valued.len())
        .filter(|&c| c != space.pawn_column && weights[c] > 0.0)
        .collect();
    let gradients: Vec<Vec<f64>> = measured
        .iter()
        .map(|&c| ratio_gradient(theta, c, space.pawn_column))
        .collect();
    let singular = || "the design's precision matrix is singular".to_string();
    // Each measured value's weighted variance, and the covariance, for
    // design weights `w`.
    let variances = |w: &[f64]| -> Result<(Vec<f64>, Vec<f64>), String> {
        let mut total = precision.to_vec();
        for (wc, information) in w.iter().zip(&informations) {
            for (t, i) in total.iter_mut().zip(information) {
                *t += pairs as f64 * wc * i;
            }
        }
        let sigma = invert(&total, n).ok_or_else(singular)?;
        let weighted = gradients
            .iter()
            .zip(&measured)
            .map(|(g, &c)| weights[c] * quadratic_form(g, &sigma))
            .collect();
        Ok((weighted, sigma))
    };
    let largest = |v: &[f64]| v.iter().copied().fold(0.0, f64::max);
    let mut w = vec![1.0 / candidates.len() as f64; candidates.len()];
    let mut best = (f64::INFINITY, w.clone());
    for step in 0..MINIMAX_STEPS {
        let (weighted, sigma) = variances(&w)?;
        let top = largest(&weighted);
        if top < best.0 {
            best = (top, w.clone());
        }
        if top <= 0.0 {
            break;
        }
        let power = 1.0 + (MINIMAX_POWER - 1.0) * step as f64 / MINIMAX_STEPS as f64;
        // The criterion's gradient: M = sum_t u_t Sigma g_t g_t^T Sigma.
        let mut m = vec![0.0; n * n];
        for ((g, &c), v) in gradients.iter().zip(&measured).zip(&weighted) {
            add_sandwich(&mut m, &sigma, g, weights[c] * (v / top).powf(power - 1.0));
        }
        let gains: Vec<f64> = informations
            .iter()
            .map(|i| {
                m.iter()
                    .zip(i)
                    .map(|(a, b)| a * b)
                    .sum::<f64>()
                    .max(f64::MIN_POSITIVE)
            })
            .collect();
        let mean: f64 = w.iter().zip(&gains).map(|(a, b)| a * b).sum();
        for (wc, gain) in w.iter_mut().zip(&gains) {
            *wc *= (gain / mean).powf(MINIMAX_RATE);
        }
        let sum: f64 = w.iter().sum();
        w.iter_mut().for_each(|wc| *wc /= sum);
    }
    let shares: Vec<f64> = best.1.iter().map(|wc| wc * pairs as f64).collect();
    let mut counts: Vec<usize> = shares.iter().map(|s| s.floor() as usize).collect();
    let mut by_remainder: Vec<usize> = (0..shares.len()).collect();
    by_remainder.sort_by(|a, b| shares[*b].fract().total_cmp(&shares[*a].fract()));
    let missing = pairs.saturating_sub(counts.iter().sum::<usize>());
    for &c in by_remainder.iter().take(missing) {
        counts[c] += 1;
    }
    Ok(candidates
        .iter()
        .zip(&counts)
        .flat_map(|(trade, &count)| std::iter::repeat_n(trade.clone(), count))
        .collect())
}

/// The Fisher information at `theta` of each candidate's pair of games
/// (side A with White and with Black); an error when there is no
/// candidate.
fn pair_informations(
    candidates: &[Trade],
    space: &FeatureSpace,
    men: &[usize],
    theta: &[f64],
) -> Result<Vec<Vec<f64>>, String> {
    if candidates.is_empty() {
        return Err("no trade is possible (too few men to take?)".to_string());
    }
    Ok(candidates
        .iter()
        .map(|trade| pair_information(trade, space, men, theta))
        .collect())
}

/// Adds `weight (Sigma g)(Sigma g)^T` to the `n x n` matrix `m`: one
/// value's term of the gradient of the weighted variances `g^T Sigma g`
/// with respect to the information (up to its sign).
fn add_sandwich(m: &mut [f64], sigma: &[f64], g: &[f64], weight: f64) {
    let n = g.len();
    let s: Vec<f64> = (0..n)
        .map(|i| (0..n).map(|j| sigma[i * n + j] * g[j]).sum())
        .collect();
    for i in 0..n {
        for j in 0..n {
            m[i * n + j] += weight * s[i] * s[j];
        }
    }
}

/// Adds to `precision`, one pair after another, the Fisher information
/// at `theta` of the pairs of games of `trades` ([`pair_information`]).
pub fn add_pairs_information(
    precision: &mut [f64],
    trades: &[Trade],
    space: &FeatureSpace,
    men: &[usize],
    theta: &[f64],
) {
    for trade in trades {
        for (p, i) in precision
            .iter_mut()
            .zip(pair_information(trade, space, men, theta))
        {
            *p += i;
        }
    }
}

/// The Fisher information at `theta` of `trade`'s pair of games (side A
/// with White and with Black).
pub fn pair_information(
    trade: &Trade,
    space: &FeatureSpace,
    men: &[usize],
    theta: &[f64],
) -> Vec<f64> {
    let x = trade.features(space, men);
    let mirrored: Vec<f64> = x.iter().map(|v| -v).collect();
    let mut information = game_information(theta, &x);
    for (a, b) in information
        .iter_mut()
        .zip(game_information(theta, &mirrored))
    {
        *a += b;
    }
    information
}

/// A run that decides verdicts (`--until-verdicts`).
#[derive(Clone, Copy, Debug)]
pub struct Until<'u> {
    /// The verdicts it decides (in pawns).
    pub family: Family<'u>,
    /// Their familywise error rate.
    pub alpha: f64,
    /// The cap on batches (and so on looks).
    pub batches: u32,
}

/// Everything the trades of a batch depend on besides the games before
/// it.
#[derive(Clone, Copy, Debug)]
pub struct BatchDesign<'d> {
    /// The variant's types.
    pub types: &'d PieceTypes,
    /// The model's columns.
    pub space: &'d FeatureSpace,
    /// The values the engine plays with (pawns by type), the centre of
    /// the design's prior.
    pub engine_values: &'d [f64],
    /// The values (pawns by type) every batch is designed at, from an
    /// earlier run; `None`: the run's own fit under the prior.
    pub design_values: Option<&'d [f64]>,
    /// What a side may lose.
    pub limits: &'d DesignLimits,
    /// Pairs per batch.
    pub pairs: usize,
    /// With `--until-verdicts`: what the run decides.
    pub until: Option<Until<'d>>,
    /// The version of the design the run plans by (one of
    /// [`PLANNED_DESIGNS`]).
    pub version: u32,
}

impl BatchDesign<'_> {
    /// The trades of the next batch from the `rows` of the games before
    /// it and the `looks` after each of their batches
    /// ([`crate::values::look::looks`]). In a run that decides verdicts: none
    /// once every verdict is in, else chosen for the undecided ones.
    pub fn trades(&self, rows: &[OrdinalRow], looks: &[Look]) -> Result<Vec<Trade>, String> {
        let verdicts = self.until.map(|until| {
            let schedule = Schedule::EveryBatch {
                batches: until.batches,
            };
            (
                until.family,
                until.family.verdicts(looks, schedule, until.alpha),
            )
        });
        let focus = verdicts.as_ref().map(|(family, verdicts)| Focus {
            verdicts,
            family: *family,
        });
        if focus.is_some_and(|f| f.settled()) {
            return Ok(Vec::new());
        }
        let (theta, precision) = match self.design_values {
            Some(values) => self.at_values(values, rows),
            None => self.at_fit(rows),
        };
        let (values, pair_values) = ratios(self.space, &theta, self.types.letters.len());
        let candidates =
            candidate_trades(self.types, self.space, &values, &pair_values, self.limits);
        let minimax = self.version >= 3 && self.design_values.is_some();
        let weights = match focus {
            Some(focus) if minimax => {
                at_least_the_figure(focus.weights(&values), &design_weights(self.space, &theta))
            }
            Some(focus) => focus.weights(&values),
            None => design_weights(self.space, &theta),
        };
        if minimax {
            let odds = pawn_odds(self.types, self.limits, self.pairs, AT_VALUES_ODDS_SHARE);
            // What the games will know: those played and the odds, which
            // are played too; not the prior, which the fit does not have.
            let mut precision = rows_information(&theta, rows);
            add_pairs_information(&mut precision, &odds, self.space, &self.limits.men, &theta);
            let mut trades = minimax_trades(
                &candidates,
                self.space,
                &self.limits.men,
                &theta,
                &precision,
                &weights,
                self.pairs - odds.len(),
            )?;
            trades.extend(odds);
            return Ok(trades);
        }
        let odds = pawn_odds(self.types, self.limits, self.pairs, PAWN_ODDS_SHARE);
        let mut trades = choose_trades(
            &candidates,
            self.space,
            &self.limits.men,
            &theta,
            &precision,
            &weights,
            self.pairs - odds.len(),
        )?;
        trades.extend(odds);
        Ok(trades)
    }

    /// The design's estimate from the games so far: the posterior mode
    /// under the design's weak prior (near the engine's values while
    /// there are few games, the maximum-likelihood fit once there are
    /// many), and the posterior precision.
    fn at_fit(&self, rows: &[OrdinalRow]) -> (Vec<f64>, Vec<f64>) {
        let prior = Prior {
            mean: prior_theta(self.space, self.engine_values),
            precision: prior_precision(self.space, self.engine_values),
        };
        match fit_ordinal_with_prior(rows, self.space.columns(), None, None, Some(&prior)) {
            Ok(fit) if fit.theta[self.space.pawn_column] > 0.0 => (fit.theta, fit.hessian),
            _ => (prior.mean, prior.precision),
        }
    }

    /// The design's estimate at given `values`, at [`PRIOR_SCALE`], and
    /// the precision the games of `rows` add to the prior's there: what
    /// the games played tell, whatever their results.
    fn at_values(&self, values: &[f64], rows: &[OrdinalRow]) -> (Vec<f64>, Vec<f64>) {
        let theta = prior_theta(self.space, values);
        let mut precision = prior_precision(self.space, values);
        for (p, i) in precision.iter_mut().zip(rows_information(&theta, rows)) {
            *p += i;
        }
        (theta, precision)
    }
}

/// The weights of a run deciding verdicts under [`minimax_trades`]: each
/// undecided piece's `focus` weight, raised to at least its `figure`
/// weight ([`design_weights`]); decided pieces and the rest none. The
/// largest weighted variance alone starves a piece whose focus weight is
/// small (its value far from an end of its band): fitted from a handful
/// of pairs, its interval was too narrow, and 9 of 100 simulated runs
/// decided a verdict wrongly (`reports/notes/2026-12-07-design-criterion.md`).
fn at_least_the_figure(mut focus: Vec<f64>, figure: &[f64]) -> Vec<f64> {
    for (weight, &floor) in focus.iter_mut().zip(figure) {
        if *weight > 0.0 {
            *weight = weight.max(floor);
        }
    }
    focus
}

/// The Fisher information at `theta` of the games of `rows`.
fn rows_information(theta: &[f64], rows: &[OrdinalRow]) -> Vec<f64> {
    let n = theta.len();
    let mut information = vec![0.0; n * n];
    for row in rows {
        for (total, one) in information.iter_mut().zip(game_information(theta, &row.x)) {
            *total += one;
        }
    }
    information
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::values::efficiency::Efficiency;
    use crate::values::ordinal::{BLACK_WINS, WHITE_WINS};
    use crate::values::trade::unplayed_rows;
    use crate::values::verdict::Scale;
    use kurier_engine::variant::definition::Variant;

    fn chess() -> (PieceTypes, FeatureSpace, DesignLimits, Vec<f64>) {
        let variant = Variant::built_in("chess").unwrap();
        let types = PieceTypes::of(&variant).unwrap();
        let bishop = variant.type_of_letter('B').unwrap();
        let space = FeatureSpace::new(&types, vec![bishop]);
        let mut men = vec![0; types.letters.len()];
        for (letter, count) in [('K', 1), ('Q', 1), ('R', 2), ('B', 2), ('N', 2), ('P', 8)] {
            men[variant.type_of_letter(letter).unwrap()] = count;
        }
        let mut values = vec![0.0; types.letters.len()];
        for (letter, value) in [
            ('Q', 9.75),
            ('R', 5.0),
            ('B', 3.25),
            ('N', 3.25),
            ('P', 1.0),
        ] {
            values[variant.type_of_letter(letter).unwrap()] = value;
        }
        let limits = DesignLimits {
            men,
            pawns_per_side: 4,
        };
        (types, space, limits, values)
    }

    /// The current design of `pairs` pairs, adaptive (at the fit so far,
    /// the engine playing `values`), deciding no verdicts.
    fn adaptive_design<'d>(
        types: &'d PieceTypes,
        space: &'d FeatureSpace,
        limits: &'d DesignLimits,
        values: &'d [f64],
        pairs: usize,
    ) -> BatchDesign<'d> {
        BatchDesign {
            types,
            space,
            engine_values: values,
            design_values: None,
            limits,
            pairs,
            until: None,
            version: DESIGN_VERSION,
        }
    }

    /// ExCoCo with the values measured at 4,000 nodes (1,000-ply cap,
    /// reports/journals/excoco-4000-seed7-efficiency-cap1000.jsonl.xz),
    /// its men at the start, and no pair terms.
    fn excoco() -> (PieceTypes, FeatureSpace, Vec<usize>, Vec<f64>) {
        let variant = Variant::built_in("excoco").unwrap();
        let types = PieceTypes::of(&variant).unwrap();
        let space = FeatureSpace::new(&types, Vec::new());
        let mut men = vec![0; types.letters.len()];
        let mut values = vec![0.0; types.letters.len()];
        for (letter, value) in [
            ('Q', 13.63),
            ('R', 6.19),
            ('B', 5.17),
            ('N', 2.67),
            ('V', 3.67),
            ('T', 3.04),
            ('D', 6.06),
            ('G', 3.17),
            ('H', 5.28),
            ('E', 1.63),
            ('M', 1.98),
            ('S', 3.27),
            ('C', 5.45),
            ('P', 1.0),
        ] {
            let t = variant.type_of_letter(letter).unwrap();
            values[t] = value;
            men[t] = match letter {
                'Q' => 1,
                'P' => 18,
                _ => 2,
            };
        }
        (types, space, men, values)
    }

    #[test]
    fn the_target_is_a_third_of_a_pawn_or_three_percent_of_a_queen() {
        assert_eq!(target_half_width(1.9), 0.3);
        assert_eq!(target_half_width(10.0), 0.3);
        assert!((target_half_width(12.0) - 0.36).abs() < 1e-12);
        assert!((target_half_width(-15.0) - 0.45).abs() < 1e-12);
    }

    #[test]
    fn candidates_are_near_balance_and_named_as_trades() {
        let (types, space, limits, values) = chess();
        let candidates = candidate_trades(&types, &space, &values, &[0.5], &limits);
        let labels: Vec<String> = candidates.iter().map(|t| t.label(&types)).collect();
        // Hand-balanced: a knight for three pawns (3.25 - 3 = 0.25), a
        // rook for a knight and two pawns (5 - 3.25 - 2 = -0.25), the
        // queen for two rooks (9.75 - 10 = -0.25), a bishop for a knight
        // (the bishop's side loses its pair: 3.25 + 0.5 - 3.25 = 0.5).
        for wanted in ["N vs 3P", "R vs N+2P", "Q vs R+R", "B vs N", "R vs B+2P"] {
            assert!(
                labels.contains(&wanted.to_string()),
                "{wanted} missing from {labels:?}"
            );
        }
        // A rook for five pawns needs more pawns than a side may give.
        assert!(!labels.iter().any(|l| l.contains("5P")));
        let edge = |trade: &Trade| -> f64 {
            let estimate: Vec<f64> = space
                .valued
                .iter()
                .map(|&t| values[t])
                .chain([0.5])
                .collect();
            trade
                .features(&space, &limits.men)
                .iter()
                .zip(&estimate)
                .map(|(x, v)| x * v)
                .sum()
        };
        assert!(candidates.iter().all(|t| edge(t).abs() <= MAX_IMBALANCE));
    }

    #[test]
    fn the_greedy_design_spreads_over_the_pieces() {
        let (types, space, limits, values) = chess();
        let candidates = candidate_trades(&types, &space, &values, &[0.0], &limits);
        let theta = prior_theta(&space, &values);
        let precision = prior_precision(&space, &values);
        let choose = || {
            let weights = design_weights(&space, &theta);
            choose_trades(
                &candidates,
                &space,
                &limits.men,
                &theta,
                &precision,
                &weights,
                60,
            )
            .unwrap()
        };
        let chosen = choose();
        assert_eq!(chosen.len(), 60);
        // Every piece is taken in some pair: each value needs data.
        for letter in ['N', 'B', 'R', 'Q'] {
            let t = types.by_letter(letter).unwrap();
            assert!(
                chosen
                    .iter()
                    .any(|c| c.a_loses.contains(&t) || c.b_loses.contains(&t)),
                "{letter} never traded"
            );
        }
        // Deterministic.
        assert_eq!(chosen, choose());
    }

    #[test]
    fn a_fifth_of_every_batch_is_pawn_odds() {
        let (types, space, limits, values) = chess();
        // Up to 4 pawns a side: odds of 2, 3 and 4 pawns in turn, 24 of
        // 120 pairs, 8 of each.
        let odds = pawn_odds(&types, &limits, 120, PAWN_ODDS_SHARE);
        assert_eq!(odds.len(), 24);
        for pawns in 2..=4 {
            let of = odds
                .iter()
                .filter(|t| t.a_loses == vec![types.pawn; pawns] && t.b_loses.is_empty())
                .count();
            assert_eq!(of, 8, "odds of {pawns} pawns");
        }
        let no_pawns = DesignLimits {
            pawns_per_side: 0,
            ..limits.clone()
        };
        assert!(pawn_odds(&types, &no_pawns, 120, PAWN_ODDS_SHARE).is_empty());
        // A batch holds them beside its designed trades, which always
        // take a piece from A.
        let design = adaptive_design(&types, &space, &limits, &values, 120);
        let trades = design.trades(&[], &[]).unwrap();
        assert_eq!(trades.len(), 120);
        let only_pawns = |t: &Trade| t.a_loses.iter().all(|&l| l == types.pawn);
        assert_eq!(trades.iter().filter(|t| only_pawns(t)).count(), 24);
    }

    #[test]
    fn designed_at_given_values_the_trades_ignore_the_results() {
        let (types, space, limits, values) = chess();
        let adaptive = adaptive_design(&types, &space, &limits, &values, 40);
        let first = adaptive.trades(&[], &[]).unwrap();
        // The same games (A White, then A Black), won by side A every
        // time, or lost.
        let played = |a_wins: bool| -> Vec<OrdinalRow> {
            unplayed_rows(&first, &space, &limits.men)
                .into_iter()
                .enumerate()
                .map(|(game, row)| OrdinalRow {
                    outcome: if (game % 2 == 0) == a_wins {
                        WHITE_WINS
                    } else {
                        BLACK_WINS
                    },
                    ..row
                })
                .collect()
        };
        let (won, lost) = (played(true), played(false));
        // The adaptive design follows the results...
        assert_ne!(
            adaptive.trades(&won, &[]).unwrap(),
            adaptive.trades(&lost, &[]).unwrap()
        );
        // ...the design at given values does not, but it does follow
        // the games played (the precision they add).
        let designed = BatchDesign {
            design_values: Some(&values),
            ..adaptive
        };
        assert_eq!(
            designed.trades(&won, &[]).unwrap(),
            designed.trades(&lost, &[]).unwrap()
        );
        assert_ne!(
            designed.trades(&won, &[]).unwrap(),
            designed.trades(&[], &[]).unwrap()
        );
    }

    #[test]
    fn version_3_at_given_values_aims_at_the_slowest_value() {
        let (types, space, limits, values) = chess();
        let version_2 = BatchDesign {
            design_values: Some(&values),
            version: 2,
            ..adaptive_design(&types, &space, &limits, &values, 60)
        };
        let version_3 = BatchDesign {
            version: 3,
            ..version_2
        };
        let (old, new) = (
            version_2.trades(&[], &[]).unwrap(),
            version_3.trades(&[], &[]).unwrap(),
        );
        // Version 2 plans as it did: the greedy rule's 48 pairs, then a
        // fifth of pawn odds.
        let theta = prior_theta(&space, &values);
        let greedy = choose_trades(
            &candidate_trades(&types, &space, &values, &[0.0], &limits),
            &space,
            &limits.men,
            &theta,
            &prior_precision(&space, &values),
            &design_weights(&space, &theta),
            48,
        )
        .unwrap();
        assert_eq!(old[..48], greedy[..]);
        let only_pawns = |trades: &[Trade]| {
            trades
                .iter()
                .filter(|t| t.b_loses.is_empty() && t.a_loses.iter().all(|&l| l == types.pawn))
                .count()
        };
        assert_eq!(only_pawns(&old), 12);
        // Version 3: 60 pairs, a tenth of them pawn odds, and the slowest
        // value needs fewer games than after version 2's.
        assert_eq!(new.len(), 60);
        assert_eq!(only_pawns(&new), 6);
        let games =
            |trades: &[Trade]| games_to_targets(&types, &space, &limits.men, &theta, trades);
        assert!(
            games(&new) < games(&old),
            "version 3 {:.0} games, version 2 {:.0}",
            games(&new),
            games(&old)
        );
        // Deterministic.
        assert_eq!(new, version_3.trades(&[], &[]).unwrap());
    }

    #[test]
    fn version_3_deciding_verdicts_still_measures_a_piece_far_from_its_band() {
        // ExCoCo designed at its values at 4,000 nodes, judged against
        // the inventor's: the viscount designed at 3.67 and suggested at 2,
        // far from its band's end (focus weight 1 / 1.17^2 = 0.73), while
        // the knight, the elephant and the courier lie within a sixth of
        // a pawn of theirs (the most, 36).
        let (types, space, men, values) = excoco();
        // The inventor's values (data/values/excoco.toml).
        let mut suggested = vec![0.0; types.letters.len()];
        for (letter, value) in [
            ('Q', 12.0),
            ('R', 7.0),
            ('B', 5.0),
            ('N', 3.0),
            ('V', 2.0),
            ('T', 4.0),
            ('D', 6.0),
            ('G', 3.0),
            ('H', 6.0),
            ('E', 2.0),
            ('M', 2.0),
            ('S', 4.0),
            ('C', 6.0),
            ('P', 1.0),
        ] {
            suggested[types.by_letter(letter).unwrap()] = value;
        }
        let family = Family {
            space: &space,
            types: &types,
            suggested: &suggested,
            tolerance: 0.5,
            scale: Scale::Pawns,
        };
        let limits = DesignLimits {
            men: men.clone(),
            pawns_per_side: 8,
        };
        let for_the_figure = BatchDesign {
            design_values: Some(&values),
            ..adaptive_design(&types, &space, &limits, &values, 240)
        };
        let deciding = BatchDesign {
            until: Some(Until {
                family,
                alpha: 0.05,
                batches: 12,
            }),
            ..for_the_figure
        };
        let theta = prior_theta(&space, &values);
        let viscount = types.by_letter('V').unwrap();
        // The viscount's half-width after the batch (none when the batch
        // leaves it unmeasured).
        let half_width = |design: &BatchDesign| {
            let trades = design.trades(&[], &[]).unwrap();
            let rows = unplayed_rows(&trades, &space, &men);
            Look::predicted(&theta, &rows)?.half_widths(&space, &types)[viscount]
        };
        // Weighted by focus alone the batch traded no viscount at all; at
        // least the figure's weight measures it to 1.30 times the figure
        // design's half-width (the other pieces' focus weights reach 36
        // against its 11.1, which alone would allow 1.8 times).
        let aimed = half_width(&for_the_figure).unwrap();
        let decided = half_width(&deciding);
        assert!(
            decided.is_some_and(|d| d <= 1.5 * aimed),
            "the viscount's half-width {decided:?} deciding verdicts, {aimed:.3} for the figure"
        );
    }

    /// The games every value's target needs after a design of `chosen`
    /// pairs, by the information model at `theta` (the 95% half-width of
    /// each ratio, scaled as 1 / sqrt(games)).
    fn games_to_targets(
        types: &PieceTypes,
        space: &FeatureSpace,
        men: &[usize],
        theta: &[f64],
        chosen: &[Trade],
    ) -> f64 {
        let rows = unplayed_rows(chosen, space, men);
        let look = Look::predicted(theta, &rows).unwrap();
        let (values, _) = ratios(space, theta, types.letters.len());
        Efficiency::of(
            types,
            rows.len(),
            &look.half_widths(space, types),
            &values,
            0.0,
            0.0,
        )
        .unwrap()
        .games_to_target
    }

    #[test]
    fn trades_of_more_pawns_pin_the_unit_and_every_value_with_it() {
        // ExCoCo with the values measured at 4,000 nodes (1,000-ply cap,
        // reports/journals/excoco-4000-seed7-efficiency-cap1000.jsonl.xz):
        // 0.36 logit per pawn, a draw margin of 0.97 pawn, 18 pawns a
        // side. Every value is a ratio to the pawn; trades of up to eight
        // pawns measure the pawn, and so every value, far better than
        // trades of up to four (by this model: 10,069 games against
        // 5,042 for a design of 480 pairs; this test designs 240).
        let (types, space, men, values) = excoco();
        let mut theta: Vec<f64> = space.valued.iter().map(|&t| 0.36 * values[t]).collect();
        theta.extend([0.05 * 0.36, 0.97 * 0.36]);
        let precision = prior_precision(&space, &values);
        let weights = design_weights(&space, &theta);
        let games = |pawns_per_side: usize| {
            let limits = DesignLimits {
                men: men.clone(),
                pawns_per_side,
            };
            let candidates = candidate_trades(&types, &space, &values, &[], &limits);
            let chosen =
                choose_trades(&candidates, &space, &men, &theta, &precision, &weights, 240)
                    .unwrap();
            games_to_targets(&types, &space, &men, &theta, &chosen)
        };
        let four = games(4);
        let eight = games(8);
        assert!(
            eight < 0.6 * four,
            "8 pawns {eight:.0} games, 4 pawns {four:.0}"
        );
    }
}
