//! The observational estimator: quiet positions of ordinary self-play
//! games and the results of their games, fitted by logistic regression
//! (draws as ½) on the material difference of each valued type, the
//! pair terms, the side to move and, as its own column, the rest of the
//! engine's evaluation.
//!
//! The rest of the evaluation (every weight but material times its
//! count, tapered by the phase, in centipawns; [`rest_of_evaluation`])
//! is what the engine adds to material when it plays. Without it, the
//! material columns absorb whatever correlates with material (passed
//! pawns with the pawn count, mobility with the pieces), and the fitted
//! number is not the one the engine uses. With it, `v_t = w_t / w_P` is
//! the value to put beside the engine's other terms, and `100 w_P /
//! w_rest` is the pawn in the engine's centipawns, measured: equal to the
//! engine's own pawn weight when material and the other terms are on one
//! scale. Intervals: the percentile bootstrap over games.

use kurier_engine::eval::evaluate::{EvalParams, Pair, MAX_PHASE};

use super::{material_indices, PieceTypes};
use crate::positions::dataset::Dataset;
use crate::stats::bootstrap::bootstrap_intervals;
use crate::stats::logistic::{fit_logistic, Design, FitError, Penalty};
use crate::values::estimate::{ratios, value_intervals, Estimate, Quantity};
use crate::values::features::FeatureSpace;

/// The rest of `params`' evaluation (White's view, centipawns) of record
/// `index` of `dataset`: every non-material weight times its count,
/// tapered by the record's phase.
pub fn rest_of_evaluation(
    dataset: &Dataset,
    index: usize,
    params: &EvalParams,
    material: &[usize],
) -> f64 {
    let phase = f64::from(dataset.records[index].phase).min(f64::from(MAX_PHASE));
    let max = f64::from(MAX_PHASE);
    dataset
        .features_of(index)
        .iter()
        .filter(|f| !material.contains(&usize::from(f.index)))
        .map(|f| {
            let Pair(middlegame, endgame) = params
                .weights
                .get(usize::from(f.index))
                .copied()
                .unwrap_or_default();
            f64::from(f.count)
                * (f64::from(middlegame) * phase + f64::from(endgame) * (max - phase))
                / max
        })
        .sum()
}

/// The columns of the observational model: `space`'s, then the rest of
/// the evaluation (in units of 100 centipawns) and the side to move.
pub fn observational_design(
    dataset: &Dataset,
    space: &FeatureSpace,
    params: &EvalParams,
    types: &PieceTypes,
) -> Design {
    let material = material_indices(params, types);
    let rest_column = space.columns();
    let mut design = Design::new(space.columns() + 2);
    for (index, record) in dataset.records.iter().enumerate() {
        let mut entries: Vec<(usize, f64)> = space
            .valued
            .iter()
            .enumerate()
            .filter(|&(_, &t)| record.material[t] != 0)
            .map(|(c, &t)| (c, f64::from(record.material[t])))
            .collect();
        for (i, &t) in space.pair_types.iter().enumerate() {
            let has = |side: usize| f64::from((record.pairs[side] >> t) & 1);
            let difference = has(0) - has(1);
            if difference != 0.0 {
                entries.push((space.valued.len() + i, difference));
            }
        }
        entries.push((
            rest_column,
            rest_of_evaluation(dataset, index, params, &material) / 100.0,
        ));
        entries.push((
            rest_column + 1,
            if record.white_to_move == 1 { 1.0 } else { -1.0 },
        ));
        design.push_row(entries, record.white_score(), record.game);
    }
    design
}

/// Fits the observational model and bootstraps it over games
/// (`resamples`, seeded by `seed`).
pub fn observational_estimate(
    dataset: &Dataset,
    space: &FeatureSpace,
    params: &EvalParams,
    types: &PieceTypes,
    resamples: usize,
    seed: u64,
) -> Result<Estimate, FitError> {
    let design = observational_design(dataset, space, params, types);
    let zeros = vec![0.0; design.columns];
    let fit = fit_logistic(&design, None, &Penalty::default(), &zeros)?;
    let unit = fit.weights[space.pawn_column];
    if unit <= 0.0 {
        return Err(FitError(format!(
            "the pawn's weight is {unit:.4}, not positive: too few positions with a pawn difference"
        )));
    }
    let n_types = types.letters.len();
    let rest = space.columns();
    // The statistic: values by type, pair terms, the pawn in engine
    // centipawns, the side to move in pawns.
    let statistic = |weights: &[f64]| -> Vec<f64> {
        let (values, pairs) = ratios(space, weights, n_types);
        let mut out = values;
        out.extend(pairs);
        out.push(100.0 * weights[space.pawn_column] / weights[rest]);
        out.push(weights[rest + 1] / weights[space.pawn_column]);
        out
    };
    let point = statistic(&fit.weights);
    let bootstrap = bootstrap_intervals(&design.groups, point.len(), resamples, seed, &|rows| {
        fit_logistic(&design, Some(rows), &Penalty::default(), &fit.weights)
            .ok()
            .filter(|f| f.weights[space.pawn_column] > 0.0)
            .map(|f| statistic(&f.weights))
    });
    let interval = |i: usize| bootstrap.intervals.get(i).copied().flatten();
    let (intervals, pairs) = value_intervals(&point, &bootstrap.intervals, space, types);
    let after_pairs = n_types + space.pair_types.len();
    let mut distinct = design.groups.clone();
    distinct.dedup();
    Ok(Estimate {
        values: point[..n_types].to_vec(),
        intervals,
        curvature: vec![None; n_types],
        pairs,
        extra: vec![
            Quantity {
                name: "pawn in the engine's centipawns (100 w_P / w_rest)".to_string(),
                value: point[after_pairs],
                interval: interval(after_pairs),
            },
            Quantity {
                name: "side to move (pawns)".to_string(),
                value: point[after_pairs + 1],
                interval: interval(after_pairs + 1),
            },
            Quantity {
                name: "scale (logit per pawn)".to_string(),
                value: unit,
                interval: None,
            },
        ],
        rows: design.rows(),
        groups: distinct.len(),
        resamples: (bootstrap.resamples, bootstrap.failed),
        common: None,
    })
}
