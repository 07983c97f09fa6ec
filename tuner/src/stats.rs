//! Match statistics in the pentanomial model: games are played in pairs
//! (one opening, both colours), and the pair scores (0, 1/2, 1, 3/2, 2)
//! are the independent samples. This accounts for the correlation
//! between the two games of a pair, which the game-by-game (trinomial)
//! model ignores.

/// Counts of game pairs by the score of the first player: index `k` holds
/// the pairs in which it scored `k / 2` points out of 2.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u64; 5]);

/// Elo difference and the 95% interval around it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// Mean score per game of the first player (0 to 1).
    pub score: f64,
    /// Elo difference (first minus second player).
    pub elo: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
    /// Likelihood of superiority: the probability that the first player
    /// is the stronger one.
    pub los: f64,
}

/// The Elo difference that gives an expected score `score` (0 < score < 1).
pub fn elo_from_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The standard normal distribution function (Abramowitz-Stegun 7.1.26
/// for the error function: absolute error below 1.5e-7).
pub fn normal_cdf(x: f64) -> f64 {
    let z = x.abs() / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.327_591_1 * z);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let erf = 1.0 - poly * (-z * z).exp();
    if x >= 0.0 {
        0.5 * (1.0 + erf)
    } else {
        0.5 * (1.0 - erf)
    }
}

impl Pentanomial {
    /// Adds a pair in which the first player scored `points` (0 to 2, in halves).
    pub fn add(&mut self, points: f64) {
        let index = (points * 2.0).round().clamp(0.0, 4.0) as usize;
        self.0[index] += 1;
    }

    /// Number of pairs.
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// Elo and its 95% interval; `None` without pairs. A score of 0 or 1
    /// gives infinite Elo, reported as such.
    pub fn elo(&self) -> Option<EloEstimate> {
        let pairs = self.pairs();
        if pairs == 0 {
            return None;
        }
        let n = pairs as f64;
        // Per-game score of each pair: 0, 0.25, 0.5, 0.75, 1.
        let mean = self
            .0
            .iter()
            .enumerate()
            .map(|(k, &c)| c as f64 * k as f64 / 4.0)
            .sum::<f64>()
            / n;
        let variance = self
            .0
            .iter()
            .enumerate()
            .map(|(k, &c)| c as f64 * (k as f64 / 4.0 - mean).powi(2))
            .sum::<f64>()
            / n;
        let error = (variance / n).sqrt();
        let los = if error > 0.0 {
            normal_cdf((mean - 0.5) / error)
        } else if mean > 0.5 {
            1.0
        } else if mean < 0.5 {
            0.0
        } else {
            0.5
        };
        let clamp = |s: f64| s.clamp(1e-9, 1.0 - 1e-9);
        Some(EloEstimate {
            score: mean,
            elo: elo_from_score(clamp(mean)),
            low: elo_from_score(clamp(mean - 1.959_964 * error)),
            high: elo_from_score(clamp(mean + 1.959_964 * error)),
            los,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_known_scores() {
        assert!(elo_from_score(0.5).abs() < 1e-9);
        // 0.75 expected score is 400 * log10(3) = 190.85 Elo.
        assert!((elo_from_score(0.75) - 190.848_501_887).abs() < 1e-6);
        assert!((elo_from_score(0.25) + 190.848_501_887).abs() < 1e-6);
    }

    #[test]
    fn normal_cdf_matches_tables() {
        assert!((normal_cdf(0.0) - 0.5).abs() < 1e-7);
        assert!((normal_cdf(1.959_964) - 0.975).abs() < 1e-6);
        assert!((normal_cdf(-1.0) - 0.158_655_25).abs() < 1e-6);
    }

    #[test]
    fn a_hand_computed_pentanomial_case() {
        // 10 pairs: 1 x 0, 2 x 0.5, 3 x 1, 3 x 1.5, 1 x 2 (points of 2).
        // Per-game pair scores 0, .25, .5, .75, 1: mean = (0 + .5 + 1.5 +
        // 2.25 + 1) / 10 = 0.525. Variance = (1*.525^2 + 2*.275^2 +
        // 3*.025^2 + 3*.225^2 + 1*.475^2) / 10 = (.275625 + .15125 +
        // .001875 + .151875 + .225625) / 10 = 0.080625; error =
        // sqrt(0.080625 / 10) = 0.0897914; LOS = Phi(0.025 / 0.0897914).
        let counts = Pentanomial([1, 2, 3, 3, 1]);
        let estimate = counts.elo().unwrap();
        assert!((estimate.score - 0.525).abs() < 1e-12);
        assert!((estimate.elo - elo_from_score(0.525)).abs() < 1e-9);
        let error = (0.080_625f64 / 10.0).sqrt();
        assert!((error - 0.089_791_4).abs() < 1e-7);
        assert!((estimate.low - elo_from_score(0.525 - 1.959_964 * error)).abs() < 1e-6);
        assert!((estimate.high - elo_from_score(0.525 + 1.959_964 * error)).abs() < 1e-6);
        assert!((estimate.los - normal_cdf(0.025 / error)).abs() < 1e-12);
        assert!(estimate.low < estimate.elo && estimate.elo < estimate.high);
    }

    #[test]
    fn adding_pairs_by_points() {
        let mut counts = Pentanomial::default();
        for points in [0.0, 0.5, 1.0, 1.5, 2.0, 2.0] {
            counts.add(points);
        }
        assert_eq!(counts, Pentanomial([1, 1, 1, 1, 2]));
        assert_eq!(counts.pairs(), 6);
        assert_eq!(Pentanomial::default().elo(), None);
    }
}
