//! Match statistics in the pentanomial model: games are played in pairs
//! (one opening, both colours), and the pair scores (0, 1/2, 1, 3/2, 2)
//! are the independent samples. This accounts for the correlation
//! between the two games of a pair, which the game-by-game (trinomial)
//! model ignores.

use serde::{Deserialize, Serialize};
use statrs::distribution::{ContinuousCDF, Normal};

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
        // A score of exactly 0 or 1 is an infinite difference.
        let clamp = |s: f64| s.clamp(0.0, 1.0);
        Some(EloEstimate {
            score: mean,
            elo: elo_from_score(clamp(mean)),
            low: elo_from_score(clamp(mean - 1.959_964 * error)),
            high: elo_from_score(clamp(mean + 1.959_964 * error)),
            los,
        })
    }
}

/// The expected score (0 to 1) of a player `elo` points stronger: the
/// logistic Elo model, inverse of [`elo_from_score`].
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Wins, draws and losses of one player.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

impl Wdl {
    /// Counts a game in which the player scored `points` (1, 1/2 or 0).
    pub fn add(&mut self, points: f64) {
        if points > 0.75 {
            self.wins += 1;
        } else if points > 0.25 {
            self.draws += 1;
        } else {
            self.losses += 1;
        }
    }
    /// Games counted.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }
    /// Points scored (a draw is half a point).
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }
    /// The share of draws (0 without games).
    pub fn draw_ratio(&self) -> f64 {
        if self.games() == 0 {
            0.0
        } else {
            self.draws as f64 / self.games() as f64
        }
    }
}

/// What a sequential probability ratio test has concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// Neither bound reached: play on.
    Continue,
    /// The lower bound reached: the difference is `elo0` (or less).
    AcceptH0,
    /// The upper bound reached: the difference is `elo1` (or more).
    AcceptH1,
}

impl SprtDecision {
    /// A short name for reports: `continue`, `H0`, `H1`.
    pub fn name(self) -> &'static str {
        match self {
            SprtDecision::Continue => "continue",
            SprtDecision::AcceptH0 => "H0",
            SprtDecision::AcceptH1 => "H1",
        }
    }
}

/// A sequential probability ratio test of H0 "the first player is `elo0`
/// logistic Elo stronger" against H1 "it is `elo1` stronger", with false
/// positive rate `alpha` and false negative rate `beta`, on game pairs.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sprt {
    /// Elo difference of H0.
    pub elo0: f64,
    /// Elo difference of H1 (above `elo0`).
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
}

/// The state of an SPRT after some pairs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtState {
    /// The log-likelihood ratio.
    pub llr: f64,
    /// Accept H0 at or below this: `ln(beta / (1 - alpha))`.
    pub lower: f64,
    /// Accept H1 at or above this: `ln((1 - beta) / alpha)`.
    pub upper: f64,
    /// What the test concludes.
    pub decision: SprtDecision,
}

/// The per-game scores of the five pair outcomes.
const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// The distribution over the pair scores ([`PAIR_SCORES`]) with mean
/// `mean` that is likeliest given the observed frequencies `observed`
/// (all positive, summing to one; `mean` strictly between 0 and 1):
/// `q_i = p_i / (1 + l (v_i - mean))`, the Lagrange multiplier `l` the
/// root of `sum p_i (v_i - mean) / (1 + l (v_i - mean)) = 0`, which
/// decreases in `l` on the interval where every `1 + l (v_i - mean)` is
/// positive: found by bisection.
fn nearest_with_mean(observed: &[f64], mean: f64) -> Vec<f64> {
    let shifted: Vec<f64> = PAIR_SCORES.iter().map(|v| v - mean).collect();
    let gap = |l: f64| -> f64 {
        observed
            .iter()
            .zip(&shifted)
            .map(|(p, x)| p * x / (1.0 + l * x))
            .sum()
    };
    // 1 + l x > 0 for x in [-mean, 1 - mean]: l in (-1 / (1 - mean), 1 / mean).
    let (mut low, mut high) = (-1.0 / (1.0 - mean), 1.0 / mean);
    for _ in 0..200 {
        let middle = 0.5 * (low + high);
        if gap(middle) > 0.0 {
            low = middle;
        } else {
            high = middle;
        }
    }
    let l = 0.5 * (low + high);
    observed
        .iter()
        .zip(&shifted)
        .map(|(p, x)| p / (1.0 + l * x))
        .collect()
}

impl Sprt {
    /// A test, checked: `elo0 < elo1`, `alpha` and `beta` in (0, 1) with
    /// `alpha + beta < 1`.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, String> {
        if elo0.is_nan() || elo1.is_nan() || elo0 >= elo1 {
            return Err(format!("SPRT: elo0 ({elo0}) must be below elo1 ({elo1})"));
        }
        for (name, value) in [("alpha", alpha), ("beta", beta)] {
            if !(value > 0.0 && value < 1.0) {
                return Err(format!("SPRT: {name} ({value}) must be between 0 and 1"));
            }
        }
        if alpha + beta >= 1.0 {
            return Err(format!(
                "SPRT: alpha + beta ({}) must be below 1",
                alpha + beta
            ));
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The bounds `(lower, upper)` of the log-likelihood ratio.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 for the pairs in `counts`.
    ///
    /// This is fishtest's pentanomial test in logistic Elo, the
    /// generalized SPRT (fishtest's `LLRcalc.LLR_logistic`): with `N`
    /// pairs whose observed frequencies of the pair scores (0, 1/4, 1/2,
    /// 3/4, 1 per game) are `p`, `LLR = N sum p_i ln(q1_i / q0_i)`, where
    /// `qj` is the distribution nearest to `p` (maximum likelihood) whose
    /// mean is `sj`, the expected score at `eloj`
    /// ([`nearest_with_mean`]). Empty cells count as 0.001 pairs
    /// (fishtest's regularization). The exact ratio, not the normal
    /// approximation `N (s1 - s0) (2 s - s0 - s1) / (2 var)` (Van den
    /// Bergh's, which cutechess-cli and fastchess use): on a handful of
    /// equal pairs the sample variance is near zero and the approximation
    /// explodes (two pairs of 3/4 gave 7.6, past any bound), while the
    /// exact ratio stays small. Zero without pairs.
    pub fn llr(&self, counts: &Pentanomial) -> f64 {
        if counts.pairs() == 0 {
            return 0.0;
        }
        let regularized: Vec<f64> = counts.0.iter().map(|&c| (c as f64).max(1e-3)).collect();
        let n: f64 = regularized.iter().sum();
        let observed: Vec<f64> = regularized.iter().map(|c| c / n).collect();
        let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
        let q0 = nearest_with_mean(&observed, s0);
        let q1 = nearest_with_mean(&observed, s1);
        n * observed
            .iter()
            .zip(q0.iter().zip(&q1))
            .map(|(p, (a, b))| p * (b / a).ln())
            .sum::<f64>()
    }

    /// The test's state after the pairs in `counts`.
    pub fn state(&self, counts: &Pentanomial) -> SprtState {
        let llr = self.llr(counts);
        let (lower, upper) = self.bounds();
        let decision = if llr >= upper {
            SprtDecision::AcceptH1
        } else if llr <= lower {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        };
        SprtState {
            llr,
            lower,
            upper,
            decision,
        }
    }
}

/// The two-sided 95% normal quantile.
pub fn z95() -> f64 {
    Normal::standard().inverse_cdf(0.975)
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
        // Every pair won: no finite difference fits.
        let won = Pentanomial([0, 0, 0, 0, 3]).elo().unwrap();
        assert_eq!(
            (won.elo, won.low, won.high),
            (f64::INFINITY, f64::INFINITY, f64::INFINITY)
        );
        assert_eq!(won.los, 1.0);
    }

    #[test]
    fn sprt_bounds_are_the_wald_bounds() {
        // alpha = beta = 0.05: ln(0.05 / 0.95) = -ln 19 = -2.944439.
        let (lower, upper) = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap().bounds();
        assert!((lower + 2.944_438_979).abs() < 1e-8);
        assert!((upper - 2.944_438_979).abs() < 1e-8);
        // alpha = 0.1, beta = 0.2: ln(0.2 / 0.9) = -1.504077, ln(0.8 / 0.1) = ln 8 = 2.079442.
        let (lower, upper) = Sprt::new(0.0, 5.0, 0.1, 0.2).unwrap().bounds();
        assert!((lower + 1.504_077_397).abs() < 1e-8);
        assert!((upper - 2.079_441_542).abs() < 1e-8);
    }

    #[test]
    fn sprt_llr_of_a_hand_computed_case() {
        // The expected ratios come from an independent computation: the
        // two constrained likelihoods maximised directly by Nelder-Mead
        // over the three free probabilities (a throwaway Python script,
        // the constraints sum q = 1 and mean q = s eliminated by hand),
        // not through the Lagrange multiplier the code solves for.
        // 100 pairs [10, 20, 40, 20, 10] have mean 1/2: with scores 1/4
        // and 3/4 for elo0 and elo1 (+-400 log10 3), 0 by symmetry.
        let counts = Pentanomial([10, 20, 40, 20, 10]);
        let third = 400.0 * 3f64.log10();
        let symmetric = Sprt::new(-third, third, 0.05, 0.05).unwrap();
        assert!(symmetric.llr(&counts).abs() < 1e-9);
        // With scores 1/2 and 3/4: -38.788525.
        let test = Sprt::new(0.0, third, 0.05, 0.05).unwrap();
        assert!(
            (test.llr(&counts) + 38.788_525).abs() < 1e-4,
            "{}",
            test.llr(&counts)
        );
        assert_eq!(test.state(&counts).decision, SprtDecision::AcceptH0);
        // 10 pairs [1, 1, 3, 3, 2]: -0.940126, between the bounds.
        let counts = Pentanomial([1, 1, 3, 3, 2]);
        let state = test.state(&counts);
        assert!((state.llr + 0.940_126).abs() < 1e-4, "{}", state.llr);
        assert_eq!(state.decision, SprtDecision::Continue);
        // Three won pairs: 1.216916, evidence for H1 but no decision.
        let won = test.state(&Pentanomial([0, 0, 0, 0, 3]));
        assert!((won.llr - 1.216_916).abs() < 1e-4, "{}", won.llr);
        assert_eq!(won.decision, SprtDecision::Continue);
        assert_eq!(test.llr(&Pentanomial::default()), 0.0);
    }

    #[test]
    fn sprt_is_not_fooled_by_a_few_equal_pairs() {
        // Two pairs of 3/4 each under [0, 5]: the normal approximation
        // gave 7.58 (H1 accepted after four games); the exact ratio is
        // 0.028589 (independent computation as above).
        let test = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap();
        let state = test.state(&Pentanomial([0, 0, 0, 2, 0]));
        assert!((state.llr - 0.028_589).abs() < 1e-4, "{}", state.llr);
        assert_eq!(state.decision, SprtDecision::Continue);
        let won = test.llr(&Pentanomial([0, 0, 0, 0, 3]));
        assert!((won - 0.042_891).abs() < 1e-4, "{won}");
    }

    #[test]
    fn sprt_llr_matches_fastchess_test_suite() {
        // fastchess's SPRT tests (matchmaking/sprt tests, "logistic
        // pentanomial 1" and "2"), which reproduce fishtest: Stats(LL, LD,
        // WL, DD, WD, WW) = (223, 9863, 20279, 1000, 10037, 246) with
        // [0.5, 2.5] gives LLR -3.07; (871, 26175, 55003, 980, 26678, 821)
        // with [0, 2] gives -4.98 (both to 0.01). Pair score 1 = WL + DD.
        let first = Sprt::new(0.5, 2.5, 0.05, 0.05).unwrap();
        let llr = first.llr(&Pentanomial([223, 9863, 20279 + 1000, 10037, 246]));
        assert!((llr + 3.07).abs() < 0.01, "{llr}");
        let second = Sprt::new(0.0, 2.0, 0.05, 0.05).unwrap();
        let llr = second.llr(&Pentanomial([871, 26175, 55003 + 980, 26678, 821]));
        assert!((llr + 4.98).abs() < 0.01, "{llr}");
    }

    #[test]
    fn sprt_rejects_bad_parameters() {
        assert!(Sprt::new(5.0, 0.0, 0.05, 0.05).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.0, 0.05).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.05, 1.0).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.6, 0.5).is_err());
    }

    #[test]
    fn score_and_elo_are_inverse() {
        // 400 log10(3) Elo is an expected score of exactly 3/4.
        assert!((score_from_elo(400.0 * 3f64.log10()) - 0.75).abs() < 1e-12);
        for elo in [-300.0, -20.0, 0.0, 7.5, 250.0] {
            assert!((elo_from_score(score_from_elo(elo)) - elo).abs() < 1e-9);
        }
    }

    #[test]
    fn wdl_counts_and_ratios() {
        let mut wdl = Wdl::default();
        for points in [1.0, 0.5, 0.5, 0.0] {
            wdl.add(points);
        }
        assert_eq!((wdl.wins, wdl.draws, wdl.losses), (1, 2, 1));
        assert_eq!(wdl.points(), 2.0);
        assert_eq!(wdl.draw_ratio(), 0.5);
    }
}
