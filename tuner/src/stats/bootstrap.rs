//! 95% intervals by the bootstrap over groups: games for the positions
//! of self-play games (positions of one game share its result), pairs
//! for the designed experiment (the two games of a pair share their
//! position).
//!
//! Each resample draws as many groups as the data has, with replacement,
//! and refits with every row weighted by how often its group was drawn.
//! The interval is the 2.5% and 97.5% percentiles of the refitted values
//! (the percentile bootstrap).

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::util::rng::Rng;

/// A 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    /// Lower end.
    pub low: f64,
    /// Upper end.
    pub high: f64,
}

impl Interval {
    /// Half the width.
    pub fn half_width(&self) -> f64 {
        (self.high - self.low) / 2.0
    }
    /// Whether `value` lies inside (ends included).
    pub fn contains(&self, value: f64) -> bool {
        self.low <= value && value <= self.high
    }
}

/// The `q` quantile (0 to 1) of sorted `samples`, linearly interpolated
/// between order statistics (`None` without samples).
pub fn quantile(sorted: &[f64], q: f64) -> Option<f64> {
    let last = sorted.len().checked_sub(1)?;
    let position = q.clamp(0.0, 1.0) * last as f64;
    let below = position.floor() as usize;
    let above = position.ceil() as usize;
    let fraction = position - below as f64;
    Some(sorted[below] + fraction * (sorted[above] - sorted[below]))
}

/// The 95% percentile interval of `samples` (in any order).
pub fn percentile_interval(samples: &[f64]) -> Option<Interval> {
    let mut sorted: Vec<f64> = samples.iter().copied().filter(|v| v.is_finite()).collect();
    sorted.sort_by(f64::total_cmp);
    Some(Interval {
        low: quantile(&sorted, 0.025)?,
        high: quantile(&sorted, 0.975)?,
    })
}

/// Row weights of one resample: each row weighted by the number of times
/// its group was drawn when drawing as many groups as there are, with
/// replacement.
pub fn resample_weights(groups: &[u32], rng: &mut Rng) -> Vec<f64> {
    let mut distinct: Vec<u32> = groups.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    let mut drawn = vec![0u32; distinct.len()];
    for _ in 0..distinct.len() {
        drawn[rng.below(distinct.len())] += 1;
    }
    groups
        .iter()
        .map(|g| {
            // Every group of a row is among the distinct groups.
            let index = distinct
                .binary_search(g)
                .unwrap_or_else(|_| unreachable!("group {g} is listed"));
            f64::from(drawn[index])
        })
        .collect()
}

/// Percentile intervals from a bootstrap.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BootstrapIntervals {
    /// Resamples whose statistic was computed.
    pub resamples: usize,
    /// Resamples whose fit failed (left out).
    pub failed: usize,
    /// Per component of the statistic, its 95% interval.
    pub intervals: Vec<Option<Interval>>,
}

/// Recomputes `statistic` (a vector of `components` numbers from row
/// weights, `None` when its fit fails) on `resamples` resamples of the
/// rows' `groups` (seeded by `seed`), in parallel, and returns the
/// percentile intervals of each component. The resamples and their
/// order depend only on the seed, so the result does too.
pub fn bootstrap_intervals(
    groups: &[u32],
    components: usize,
    resamples: usize,
    seed: u64,
    statistic: &(dyn Fn(&[f64]) -> Option<Vec<f64>> + Sync),
) -> BootstrapIntervals {
    let samples: Vec<Option<Vec<f64>>> = (0..resamples)
        .into_par_iter()
        .map(|b| {
            let mut rng = Rng::new(seed ^ (b as u64).wrapping_mul(0xD1B5_4A32_D192_ED03));
            let weights = resample_weights(groups, &mut rng);
            statistic(&weights)
        })
        .collect();
    let good: Vec<&Vec<f64>> = samples.iter().flatten().collect();
    let intervals = (0..components)
        .map(|c| {
            let values: Vec<f64> = good.iter().map(|sample| sample[c]).collect();
            percentile_interval(&values)
        })
        .collect();
    BootstrapIntervals {
        resamples: good.len(),
        failed: resamples - good.len(),
        intervals,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_interpolate_between_order_statistics() {
        let sorted = [1.0, 2.0, 3.0, 4.0, 5.0];
        // q = 0.025 over 4 gaps: position 0.1 -> 1.1; q = 0.975: 3.9 -> 4.9.
        assert!((quantile(&sorted, 0.025).unwrap() - 1.1).abs() < 1e-12);
        assert!((quantile(&sorted, 0.975).unwrap() - 4.9).abs() < 1e-12);
        assert_eq!(quantile(&sorted, 0.5), Some(3.0));
        assert_eq!(quantile(&[], 0.5), None);
    }

    #[test]
    fn resampling_keeps_games_whole_and_the_total_count() {
        let groups = [7, 7, 7, 9, 12, 12];
        let weights = resample_weights(&groups, &mut Rng::new(5));
        // Rows of one game share a weight; three games are drawn in all.
        assert_eq!(weights[0], weights[1]);
        assert_eq!(weights[1], weights[2]);
        assert_eq!(weights[4], weights[5]);
        assert_eq!(weights[0] + weights[3] + weights[4], 3.0);
    }
}
