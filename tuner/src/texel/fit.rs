//! Texel-style tuning: every evaluation weight fitted from the same
//! positions and results.
//!
//! The engine's evaluation (White's view) is linear in its weights: a term
//! counted `c` times with middlegame and endgame weights `(m, e)`
//! contributes `c (m phase + e (256 - phase)) / 256` centipawns. So each
//! term gives two columns, `c phase / 256` and `c (256 - phase) / 256`,
//! and the expected score is `sigmoid(k * eval)`. As in Texel's method the
//! scale `k` (per centipawn) is fitted first, with the current weights,
//! and then held: it ties the weights to the engine's centipawn scale.
//! The fit is a logistic regression on the columns (convex, Newton's
//! method), with an L2 pull toward the current weights, `l2 * sum (w -
//! w_current)^2` in centipawns: some columns are exactly collinear (the
//! pawn-per-rank counts add up to the pawn count), and the pull decides
//! what the data cannot.
//!
//! Not modelled: the evaluation's rule knowledge for sides with one or two
//! men (not tuned by the engine either), and integer rounding.

use kurier_engine::eval::evaluate::{EvalParams, Pair, MAX_PHASE};

use crate::positions::dataset::Dataset;
use crate::stats::logistic::{fit_logistic, Design, FitError, Penalty};

/// Options of the Texel fit.
#[derive(Clone, Debug, PartialEq)]
pub struct TexelOptions {
    /// The scale per centipawn; `None` fits it to the current weights.
    pub scale: Option<f64>,
    /// L2 pull toward the current weights, per squared centipawn.
    pub l2: f64,
}

/// The result of a Texel fit.
#[derive(Clone, Debug, PartialEq)]
pub struct TexelFit {
    /// The fitted parameters (the current ones with every weight replaced).
    pub params: EvalParams,
    /// The scale `k`, logit per centipawn.
    pub scale: f64,
}

/// The design of the evaluation's terms: columns `2j` (middlegame part)
/// and `2j + 1` (endgame part) for weight `j`.
pub fn texel_design(dataset: &Dataset, weights: usize) -> Design {
    let mut design = Design::new(2 * weights);
    let max = f64::from(MAX_PHASE);
    for (index, record) in dataset.records.iter().enumerate() {
        let phase = f64::from(record.phase).min(max);
        let entries = dataset.features_of(index).iter().flat_map(|feature| {
            let j = usize::from(feature.index);
            let count = f64::from(feature.count);
            [
                (2 * j, count * phase / max),
                (2 * j + 1, count * (max - phase) / max),
            ]
        });
        design.push_row(entries, record.white_score(), record.game);
    }
    design
}

/// The weights as a column vector (middlegame, endgame alternating).
fn columns_of(weights: &[Pair]) -> Vec<f64> {
    weights
        .iter()
        .flat_map(|&Pair(m, e)| [f64::from(m), f64::from(e)])
        .collect()
}

/// The scale `k` that best predicts the results from the evaluation with
/// `weights`.
pub fn fit_scale(design: &Design, weights: &[Pair]) -> Result<f64, FitError> {
    let columns = columns_of(weights);
    let evals: Vec<f64> = (0..design.rows())
        .map(|row| design.linear(row, &columns))
        .collect();
    fit_slope(&evals, design)
}

/// The `k` of the logistic model `sigmoid(k * value)` that best predicts
/// `design`'s targets from one value per row (no intercept); an error
/// when the values predict them backwards.
pub fn fit_slope(values: &[f64], design: &Design) -> Result<f64, FitError> {
    let mut one = Design::new(1);
    for (row, &value) in values.iter().enumerate() {
        one.push_row([(0, value)], design.targets[row], design.groups[row]);
    }
    let fit = fit_logistic(&one, None, &Penalty::default(), &[0.0])?;
    let k = fit.weights[0];
    if k <= 0.0 {
        return Err(FitError(format!(
            "the scores predict the results backwards (scale {k:.6})"
        )));
    }
    Ok(k)
}

/// Fits every weight of `current` on `dataset`.
pub fn fit_texel(
    dataset: &Dataset,
    current: &EvalParams,
    options: &TexelOptions,
) -> Result<TexelFit, FitError> {
    let count = current.weights.len();
    if dataset.info.eval_weights as usize != count {
        return Err(FitError(format!(
            "the dataset has {} evaluation weights, the parameters {count}",
            dataset.info.eval_weights
        )));
    }
    let design = texel_design(dataset, count);
    let scale = match options.scale {
        Some(k) => k,
        None => fit_scale(&design, &current.weights)?,
    };
    let params = fit_design(&design, current, scale, options.l2)?;
    Ok(TexelFit { params, scale })
}

/// Fits every weight of `current` to the targets of `design` (built by
/// [`texel_design`], its targets game results or any other expected
/// scores) at the logistic `scale` per centipawn, with the L2 pull `l2`
/// toward the current weights.
pub fn fit_design(
    design: &Design,
    current: &EvalParams,
    scale: f64,
    l2: f64,
) -> Result<EvalParams, FitError> {
    let prior = columns_of(&current.weights);
    // l2 * (w - w0)^2 in centipawns is l2 / k^2 * (u - k w0)^2 in the
    // logit weights u = k w that the regression fits.
    let penalty = Penalty {
        strength: l2 / (scale * scale),
        terms: prior
            .iter()
            .enumerate()
            .map(|(c, &w0)| (vec![(c, 1.0)], scale * w0))
            .collect(),
    };
    let start: Vec<f64> = prior.iter().map(|w0| scale * w0).collect();
    let fit = fit_logistic(design, None, &penalty, &start)?;
    let mut params = current.clone();
    for (j, weight) in params.weights.iter_mut().enumerate() {
        let middlegame = (fit.weights[2 * j] / scale).round() as i32;
        let endgame = (fit.weights[2 * j + 1] / scale).round() as i32;
        *weight = Pair(middlegame, endgame);
    }
    Ok(params)
}
