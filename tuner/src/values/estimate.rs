//! What an estimator reports: piece values in pawns with 95% intervals,
//! the pair terms, and the model's other quantities.

use serde::{Deserialize, Serialize};

use crate::stats::bootstrap::Interval;
use crate::values::common_scale::CommonScale;
use crate::values::features::FeatureSpace;
use crate::values::Values;

/// A named quantity with its 95% interval.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Quantity {
    /// What it is, e.g. `scale (logit per pawn)`.
    pub name: String,
    /// Its estimate.
    pub value: f64,
    /// Its 95% interval, when there is one.
    pub interval: Option<Interval>,
}

/// One estimator's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    /// Values in pawns by type (pawn 1, king 0).
    pub values: Values,
    /// Their 95% intervals by type (percentile bootstrap; pawn and king:
    /// none).
    pub intervals: Vec<Option<Interval>>,
    /// 95% intervals from the likelihood's curvature (cluster-robust
    /// sandwich, delta method), where the estimator has them.
    pub curvature: Vec<Option<Interval>>,
    /// The pair terms, pawns: (type, value, interval).
    pub pairs: Vec<(usize, f64, Option<Interval>)>,
    /// Other quantities of the model.
    pub extra: Vec<Quantity>,
    /// Games (designed experiment) or positions (observational) fitted.
    pub rows: usize,
    /// Groups resampled: pairs or games.
    pub groups: usize,
    /// Bootstrap resamples used, and failed.
    pub resamples: (usize, usize),
    /// The values on the common scale of the suggested set (designed
    /// experiment; none in results written before it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub common: Option<CommonScale>,
}

impl Estimate {
    /// The value of type `t` with its interval.
    pub fn value(&self, t: usize) -> (f64, Option<Interval>) {
        (self.values[t], self.intervals[t])
    }
}

/// Values by type from a weight vector whose first columns follow
/// `space` (value columns, then pair columns): `w_c / w_pawn`.
pub fn ratios(space: &FeatureSpace, weights: &[f64], types: usize) -> (Values, Vec<f64>) {
    let unit = weights[space.pawn_column];
    let mut values = vec![0.0; types];
    for (column, &t) in space.valued.iter().enumerate() {
        values[t] = weights[column] / unit;
    }
    let pairs = (0..space.pair_types.len())
        .map(|i| weights[space.valued.len() + i] / unit)
        .collect();
    (values, pairs)
}

/// A statistic laid out as values by type, then pair terms, then
/// anything else (`point`, with `intervals` in the same layout): the
/// values' intervals by type (none for king and pawn) and the pair terms
/// with theirs.
#[allow(clippy::type_complexity)]
pub fn value_intervals(
    point: &[f64],
    intervals: &[Option<Interval>],
    space: &FeatureSpace,
    types: &crate::values::PieceTypes,
) -> (Vec<Option<Interval>>, Vec<(usize, f64, Option<Interval>)>) {
    let n_types = types.letters.len();
    let interval = |i: usize| intervals.get(i).copied().flatten();
    let by_type = (0..n_types)
        .map(|t| {
            (t != types.king && t != types.pawn)
                .then(|| interval(t))
                .flatten()
        })
        .collect();
    let pairs = space
        .pair_types
        .iter()
        .enumerate()
        .map(|(i, &t)| (t, point[n_types + i], interval(n_types + i)))
        .collect();
    (by_type, pairs)
}
