//! Verdicts on the suggested values, with the familywise error held over
//! every piece and every look of a run.
//!
//! For each piece `t` with suggested value `s_t` and tolerance `d` (by
//! default half the grid the suggested values are written on: 0.5 pawn
//! for ExCoCo's whole numbers, "the true value rounds to the suggested
//! one"), the line of possible true values is cut into three cells: the
//! band `[s_t - d, s_t + d]` (**confirmed**), above it (**refuted:
//! higher**) and below it (**refuted: lower**). Each piece gets a
//! simultaneous interval, and the verdict is the cell that holds the
//! whole interval; an interval that crosses an end of the band leaves
//! the piece **undecided**.
//!
//! The interval, in pawns, is Fieller's: the values `b` whose linear
//! hypothesis `w_t - b w_pawn = 0` the fit does not reject at critical
//! value `c`, `|w_t - b w_pawn| <= c se(w_t - b w_pawn)` with the
//! sandwich covariance over pairs ([`crate::values::look`]). Unlike a symmetric
//! interval around the ratio it stays exact when the pawn's weight is
//! uncertain, and it is unbounded (undecided) when the pawn's weight is
//! not told from zero. On the common scale ([`crate::values::common_scale`]) the
//! interval is the delta method's on the logarithm.
//!
//! Error. A wrong verdict needs the interval to miss the true value:
//! for a true value outside the band, on the side away from the band
//! (probability at most `Phi(-c)`); for one inside the band, on either
//! side, at most `Phi(-c) + Phi(-c - D)` where `D` is the band's width in
//! standard errors (the worst true value is an end of the band: the sum
//! is convex in it). The critical value solves `Phi(-c) + Phi(-c - D) =
//! a` for the piece's share `a` of the error: `c` is `z(1 - a)` for a band
//! many standard errors wide (a one-sided test at `a` each way, as two
//! one-sided tests of equivalence give) and `z(1 - a/2)` for one far
//! narrower. Every piece's wrong verdict thus has probability at most
//! `a` (asymptotically, `D` being estimated).
//!
//! Families. The pieces of one budget's experiment are one family
//! (their verdicts in pawns; the common scale's, pawn included, are a
//! family of their own). Bonferroni over the `m` members: `a = alpha_k /
//! m`. A step-down (Holm's) gains nothing here: every piece has exactly
//! one true cell, so `m` true hypotheses remain whatever was rejected
//! (Shaffer's bound stays `m`).
//!
//! Looks. A run of fixed size looks once, at its end: `alpha_1 =
//! alpha`. A run `--until-verdicts` of at most `K` batches looks after
//! every batch and spends `alpha_k = alpha ((k/K)^2 - ((k-1)/K)^2)` at
//! look `k` (a power spending function with `rho = 2`: little early,
//! most late); a verdict, once in, stands, and the run stops when every
//! piece has one. The union bound over looks and pieces holds whatever
//! the dependence between looks, including that of the adaptive design
//! (each batch's trades chosen from the games before), so the
//! familywise error over the whole run is at most `alpha`.

use serde::{Deserialize, Serialize};
use statrs::distribution::{ContinuousCDF, Normal};

use crate::stats::bootstrap::Interval;
use crate::values::common_scale::log_common_gradient;
use crate::values::features::FeatureSpace;
use crate::values::look::Look;
use crate::values::PieceTypes;

/// The familywise error rate unless given.
pub const DEFAULT_ALPHA: f64 = 0.05;

/// What the measurement says of one suggested value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The true value lies within the tolerance of the suggested one.
    Confirmed,
    /// It lies above the band.
    Higher,
    /// It lies below the band.
    Lower,
    /// Not yet known.
    Undecided,
}

impl Verdict {
    /// The verdict as the reports write it.
    pub fn text(self) -> &'static str {
        match self {
            Verdict::Confirmed => "confirmed",
            Verdict::Higher => "refuted: higher",
            Verdict::Lower => "refuted: lower",
            Verdict::Undecided => "undecided",
        }
    }

    /// Whether the verdict is in.
    pub fn decided(self) -> bool {
        self != Verdict::Undecided
    }
}

/// The rule of the verdicts: the familywise error rate and the
/// tolerance.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct VerdictRule {
    /// The familywise error rate over every piece and look.
    pub alpha: f64,
    /// The tolerance in pawns (`None`: half the grid of the suggested
    /// values, [`default_tolerance`]).
    pub tolerance: Option<f64>,
}

impl Default for VerdictRule {
    fn default() -> VerdictRule {
        VerdictRule {
            alpha: DEFAULT_ALPHA,
            tolerance: None,
        }
    }
}

impl VerdictRule {
    /// The rule given on the command line; an error that names the flag
    /// when a number is out of range.
    pub fn new(alpha: f64, tolerance: Option<f64>) -> Result<VerdictRule, String> {
        if !(alpha > 0.0 && alpha < 1.0) {
            return Err(format!(
                "--alpha {alpha}: give a rate between 0 and 1, e.g. 0.05"
            ));
        }
        if let Some(tolerance) = tolerance.filter(|t| !(t.is_finite() && *t > 0.0)) {
            return Err(format!(
                "--tolerance {tolerance}: give a positive number of pawns"
            ));
        }
        Ok(VerdictRule { alpha, tolerance })
    }

    /// The tolerance for the `suggested` values of `types`.
    pub fn tolerance_for(&self, suggested: &[f64], types: &PieceTypes) -> f64 {
        self.tolerance
            .unwrap_or_else(|| default_tolerance(suggested, &types.valued()))
    }
}

/// Half the grid of the `suggested` values of `types` (pawns): half the
/// largest step, in centipawns, that divides each of them (the pawn's
/// 100 among them). ExCoCo's whole numbers: 0.5; Kaufman's 3.25 and
/// 9.75: 0.125.
pub fn default_tolerance(suggested: &[f64], types: &[usize]) -> f64 {
    let grid = types
        .iter()
        .map(|&t| (suggested[t] * 100.0).round().abs() as u64)
        .filter(|&centipawns| centipawns > 0)
        .fold(0, gcd);
    if grid == 0 {
        0.5
    } else {
        grid.min(100) as f64 / 200.0
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// The error spent at look `look` (from 1) of a run of at most `looks`
/// looks: `alpha ((k/K)^2 - ((k-1)/K)^2)`; the `K` looks spend `alpha`.
pub fn look_alpha(alpha: f64, look: u32, looks: u32) -> f64 {
    if look == 0 || look > looks {
        return 0.0;
    }
    let share = |k: u32| (f64::from(k) / f64::from(looks)).powi(2);
    alpha * (share(look) - share(look - 1))
}

fn standard_normal() -> Normal {
    Normal::standard()
}

/// The critical value `c` of a piece's share `alpha` of the error when
/// its band is `band` standard errors wide: `Phi(-c) + Phi(-c - band) =
/// alpha`, between `z(1 - alpha)` (a wide band) and `z(1 - alpha/2)`.
pub fn critical_value(alpha: f64, band: f64) -> f64 {
    let normal = standard_normal();
    let one_sided = normal.inverse_cdf(1.0 - alpha);
    if band.is_nan() || band == f64::INFINITY {
        return one_sided;
    }
    let error = |c: f64| normal.cdf(-c) + normal.cdf(-c - band.max(0.0)) - alpha;
    let (mut low, mut high) = (one_sided, normal.inverse_cdf(1.0 - alpha / 2.0));
    for _ in 0..100 {
        let middle = (low + high) / 2.0;
        if error(middle) > 0.0 {
            low = middle;
        } else {
            high = middle;
        }
    }
    high
}

/// The scale of a family of verdicts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scale {
    /// Values in pawns; the pieces have verdicts.
    Pawns,
    /// Values on the common scale of the suggested set; the pieces and
    /// the pawn have verdicts.
    Common,
}

/// One budget's family of verdicts: which values, against what.
#[derive(Clone, Copy, Debug)]
pub struct Family<'f> {
    /// The model's columns.
    pub space: &'f FeatureSpace,
    /// The variant's types.
    pub types: &'f PieceTypes,
    /// The suggested values, pawns by type.
    pub suggested: &'f [f64],
    /// The tolerance, pawns.
    pub tolerance: f64,
    /// Pawns or the common scale.
    pub scale: Scale,
}

/// How a run's looks spend the error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Schedule {
    /// One look, at the end of a run of fixed size.
    Final,
    /// A look after every batch of a run of at most `batches` batches
    /// (`--until-verdicts`).
    EveryBatch {
        /// The cap on batches, and so on looks.
        batches: u32,
    },
}

/// A piece's verdict in a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PieceVerdict {
    /// The type.
    pub t: usize,
    /// The verdict.
    pub verdict: Verdict,
    /// The value at the look that decided it (or at the last look).
    pub value: f64,
    /// Its simultaneous interval at that look (`None`: unbounded).
    pub interval: Option<Interval>,
    /// That look's batch (0: no look).
    pub batch: u32,
    /// That look's games.
    pub games: usize,
}

impl Family<'_> {
    /// The types with a verdict: the pieces in type order, and on the
    /// common scale the pawn first.
    pub fn members(&self) -> Vec<usize> {
        match self.scale {
            Scale::Pawns => self.types.pieces(),
            Scale::Common => std::iter::once(self.types.pawn)
                .chain(self.types.pieces())
                .collect(),
        }
    }

    fn piece_columns(&self) -> Vec<usize> {
        self.types
            .pieces()
            .into_iter()
            .filter_map(|t| self.space.value_column(t))
            .collect()
    }

    /// The geometric mean of the suggested pieces' values.
    fn suggested_mean(&self) -> f64 {
        let pieces = self.types.pieces();
        let mean_log = pieces
            .iter()
            .map(|&t| self.suggested[t].max(f64::MIN_POSITIVE).ln())
            .sum::<f64>()
            / pieces.len().max(1) as f64;
        mean_log.exp()
    }

    /// The value of `t` at `look`, with its simultaneous interval at the
    /// piece's share `alpha` of the error (`None`: unbounded or not
    /// defined).
    pub fn interval(&self, look: &Look, t: usize, alpha: f64) -> (f64, Option<Interval>) {
        let Some(column) = self.space.value_column(t) else {
            return (f64::NAN, None);
        };
        match self.scale {
            Scale::Pawns => self.fieller(look, column, alpha),
            Scale::Common => self.common(look, column, t, alpha),
        }
    }

    fn fieller(&self, look: &Look, column: usize, alpha: f64) -> (f64, Option<Interval>) {
        let pawn = self.space.pawn_column;
        let (w, u) = (look.theta[column], look.theta[pawn]);
        if u <= 0.0 {
            return (f64::NAN, None);
        }
        let value = w / u;
        let n = look.theta.len();
        // A piece in no game yet: its coefficient rests at zero with no
        // variance, which is not knowledge (the quadratic below would
        // give the interval [0, 0]).
        if look.covariance[column * n + column] <= 0.0 {
            return (value, None);
        }
        let error = look.value_error(column, pawn);
        let band = if error > 0.0 {
            2.0 * self.tolerance / error
        } else {
            f64::INFINITY
        };
        let c2 = critical_value(alpha, band).powi(2);
        let sigma = |i: usize, j: usize| look.covariance[i * n + j];
        // (w - b u)^2 <= c^2 (s_ww - 2 b s_wu + b^2 s_uu): a b^2 - 2 h b + k <= 0.
        let a = u * u - c2 * sigma(pawn, pawn);
        let h = w * u - c2 * sigma(column, pawn);
        let k = w * w - c2 * sigma(column, column);
        if a <= 0.0 {
            return (value, None);
        }
        let root = (h * h - a * k).max(0.0).sqrt();
        (
            value,
            Some(Interval {
                low: (h - root) / a,
                high: (h + root) / a,
            }),
        )
    }

    fn common(&self, look: &Look, column: usize, t: usize, alpha: f64) -> (f64, Option<Interval>) {
        let pieces = self.piece_columns();
        let Some(gradient) = log_common_gradient(&look.theta, column, &pieces) else {
            return (f64::NAN, None);
        };
        let log_mean =
            pieces.iter().map(|&j| look.theta[j].ln()).sum::<f64>() / pieces.len() as f64;
        let centre = look.theta[column].ln() - log_mean;
        let error = look.variance(&gradient).sqrt();
        let mean = self.suggested_mean();
        let s = self.suggested[t];
        let band_low = if s > self.tolerance {
            ((s - self.tolerance) / mean).ln()
        } else {
            f64::NEG_INFINITY
        };
        let band_high = ((s + self.tolerance) / mean).ln();
        let band = if error > 0.0 {
            (band_high - band_low) / error
        } else {
            f64::INFINITY
        };
        let c = critical_value(alpha, band);
        (
            mean * centre.exp(),
            Some(Interval {
                low: mean * (centre - c * error).exp(),
                high: mean * (centre + c * error).exp(),
            }),
        )
    }

    /// The verdict on `t` of an interval.
    pub fn classify(&self, t: usize, interval: Option<Interval>) -> Verdict {
        let Some(i) = interval else {
            return Verdict::Undecided;
        };
        let s = self.suggested[t];
        if i.low > s + self.tolerance {
            Verdict::Higher
        } else if i.high < s - self.tolerance {
            Verdict::Lower
        } else if i.low >= s - self.tolerance && i.high <= s + self.tolerance {
            Verdict::Confirmed
        } else {
            Verdict::Undecided
        }
    }

    /// The verdicts of a run from its `looks` (in batch order), spending
    /// `alpha` by `schedule`: each member's first decided verdict, or
    /// undecided with the last look's interval.
    pub fn verdicts(&self, looks: &[Look], schedule: Schedule, alpha: f64) -> Vec<PieceVerdict> {
        let members = self.members();
        let m = members.len().max(1) as f64;
        let counted: Vec<(&Look, f64)> = match schedule {
            Schedule::Final => looks.last().map(|l| (l, alpha)).into_iter().collect(),
            Schedule::EveryBatch { batches } => looks
                .iter()
                .map(|l| (l, look_alpha(alpha, l.batch, batches)))
                .filter(|&(_, spent)| spent > 0.0)
                .collect(),
        };
        members
            .into_iter()
            .map(|t| {
                let mut last = PieceVerdict {
                    t,
                    verdict: Verdict::Undecided,
                    value: f64::NAN,
                    interval: None,
                    batch: 0,
                    games: 0,
                };
                for &(look, spent) in &counted {
                    let (value, interval) = self.interval(look, t, spent / m);
                    last = PieceVerdict {
                        t,
                        verdict: self.classify(t, interval),
                        value,
                        interval,
                        batch: look.batch,
                        games: look.games,
                    };
                    if last.verdict.decided() {
                        break;
                    }
                }
                last
            })
            .collect()
    }
}

/// What a run `--until-verdicts` is still to decide, for its design.
#[derive(Clone, Copy, Debug)]
pub struct Focus<'f> {
    /// The verdicts so far (in pawns).
    pub verdicts: &'f [PieceVerdict],
    /// The family they belong to.
    pub family: Family<'f>,
}

impl Focus<'_> {
    /// Whether every verdict is in.
    pub fn settled(&self) -> bool {
        self.verdicts.iter().all(|v| v.verdict.decided())
    }

    /// The design's weight of each column (the value columns, then the
    /// pair columns) at the current estimate `values` (pawns by type):
    /// none for a decided piece, the pawn and the pair terms; for an
    /// undecided piece `1 / d^2`, `d` the distance from its estimate to
    /// the nearer end of its band (the half-width that would decide it),
    /// at least a third of the tolerance, so that a value on an end of
    /// its band, which no run can decide, takes at most nine times the
    /// attention of one in the middle.
    pub fn weights(&self, values: &[f64]) -> Vec<f64> {
        let family = &self.family;
        let mut weights = vec![0.0; family.space.columns()];
        for verdict in self.verdicts.iter().filter(|v| !v.verdict.decided()) {
            let Some(column) = family.space.value_column(verdict.t) else {
                continue;
            };
            let offset = (values[verdict.t] - family.suggested[verdict.t]).abs();
            let distance = (family.tolerance - offset)
                .abs()
                .max(family.tolerance / 3.0);
            weights[column] = 1.0 / (distance * distance);
        }
        weights
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kurier_engine::variant::definition::Variant;

    #[test]
    fn the_tolerance_is_half_the_grid_of_the_suggested_values() {
        // ExCoCo's whole numbers (data/values/excoco.toml): 0.5.
        let excoco = [
            0.0, 1.0, 12.0, 7.0, 6.0, 6.0, 6.0, 5.0, 4.0, 4.0, 3.0, 3.0, 2.0, 2.0,
        ];
        assert_eq!(
            default_tolerance(&excoco, &(1..14).collect::<Vec<_>>()),
            0.5
        );
        // Kaufman's quarters: gcd(100, 325, 500, 975) = 25 centipawns.
        assert_eq!(
            default_tolerance(&[1.0, 3.25, 5.0, 9.75], &[0, 1, 2, 3]),
            0.125
        );
        // Courier's tenths (1.1, 1.2): 0.05; halves: 0.25.
        assert_eq!(
            default_tolerance(&[1.0, 1.1, 1.2, 3.5], &[0, 1, 2, 3]),
            0.05
        );
        assert_eq!(
            default_tolerance(&[1.0, 8.5, 2.5, 3.0], &[0, 1, 2, 3]),
            0.25
        );
    }

    #[test]
    fn the_looks_spend_alpha_little_early_and_all_by_the_last() {
        let spent: Vec<f64> = (1..=4).map(|k| look_alpha(0.05, k, 4)).collect();
        // (1, 3, 5, 7) / 16 of 5%.
        for (s, sixteenths) in spent.iter().zip([1.0, 3.0, 5.0, 7.0]) {
            assert!((s - 0.05 * sixteenths / 16.0).abs() < 1e-15, "{spent:?}");
        }
        assert_eq!(look_alpha(0.05, 5, 4), 0.0);
        assert_eq!(look_alpha(0.05, 1, 1), 0.05);
    }

    #[test]
    fn the_critical_value_lies_between_the_one_and_two_sided_quantiles() {
        let normal = Normal::standard();
        let a = 0.05 / 13.0;
        // A wide band: the one-sided quantile; none: the two-sided one.
        let wide = critical_value(a, 40.0);
        assert!((wide - normal.inverse_cdf(1.0 - a)).abs() < 1e-9, "{wide}");
        let narrow = critical_value(a, 0.0);
        assert!(
            (narrow - normal.inverse_cdf(1.0 - a / 2.0)).abs() < 1e-9,
            "{narrow}"
        );
        // Between: the errors of both sides add up to a.
        let c = critical_value(a, 1.0);
        assert!(wide < c && c < narrow);
        assert!((normal.cdf(-c) + normal.cdf(-c - 1.0) - a).abs() < 1e-12);
    }

    /// Chess's suggested values (whole numbers), K Q R B N P.
    const SUGGESTED: [f64; 6] = [0.0, 9.0, 5.0, 3.0, 3.0, 1.0];

    /// Chess's types and the model's columns without pair terms.
    fn chess() -> (PieceTypes, FeatureSpace) {
        let types = PieceTypes::of(&Variant::built_in("chess").unwrap()).unwrap();
        let space = FeatureSpace::new(&types, Vec::new());
        (types, space)
    }

    fn chess_family<'f>(
        space: &'f FeatureSpace,
        types: &'f PieceTypes,
        suggested: &'f [f64],
        scale: Scale,
    ) -> Family<'f> {
        Family {
            space,
            types,
            suggested,
            tolerance: 0.5,
            scale,
        }
    }

    #[test]
    fn fieller_intervals_solve_their_quadratic_by_hand() {
        let (types, space) = chess();
        let suggested = SUGGESTED;
        let family = chess_family(&space, &types, &suggested, Scale::Pawns);
        // Rook 2.5, pawn 0.5 (value 5), variances 0.01 each, no
        // covariance; a wide band (D = 2 * 0.5 / se, se = sqrt(0.01 +
        // 25 * 0.01) / 0.5 = 1.0198): c between the quantiles. The
        // interval solves (2.5 - 0.5 b)^2 = c^2 0.01 (1 + b^2).
        let l = Look::with_diagonal(&[4.5, 2.5, 1.5, 1.5, 0.5, 0.1, 0.9], 0.01);
        let (value, interval) = family.interval(&l, 2, 0.01);
        let interval = interval.unwrap();
        assert!((value - 5.0).abs() < 1e-12);
        let c = critical_value(0.01, 1.0 / ((0.01f64 + 0.25).sqrt() / 0.5));
        for b in [interval.low, interval.high] {
            let lhs = (2.5 - 0.5 * b).powi(2);
            let rhs = c * c * 0.01 * (1.0 + b * b);
            assert!((lhs - rhs).abs() < 1e-9, "{b}: {lhs} vs {rhs}");
        }
        // Fieller's interval leans the way a ratio does: further above
        // the value than below it.
        assert!(interval.high - 5.0 > 5.0 - interval.low);
        // A pawn not told from zero: unbounded, undecided.
        let vague = Look::with_diagonal(&[4.5, 2.5, 1.5, 1.5, 0.05, 0.1, 0.9], 0.01);
        assert_eq!(family.interval(&vague, 2, 0.01).1, None);
        assert_eq!(family.classify(2, None), Verdict::Undecided);
    }

    #[test]
    fn intervals_are_classified_by_the_band_they_lie_in() {
        let (types, space) = chess();
        let suggested = SUGGESTED;
        let family = chess_family(&space, &types, &suggested, Scale::Pawns);
        let at = |low, high| Some(Interval { low, high });
        // The rook's band is [4.5, 5.5], ends included.
        assert_eq!(family.classify(2, at(4.5, 5.5)), Verdict::Confirmed);
        assert_eq!(family.classify(2, at(5.51, 7.0)), Verdict::Higher);
        assert_eq!(family.classify(2, at(1.0, 4.49)), Verdict::Lower);
        assert_eq!(family.classify(2, at(5.4, 5.6)), Verdict::Undecided);
        assert_eq!(family.classify(2, at(3.0, 7.0)), Verdict::Undecided);
    }

    #[test]
    fn a_verdict_once_in_stands_and_later_looks_are_not_read() {
        let (types, space) = chess();
        let suggested = SUGGESTED;
        let family = chess_family(&space, &types, &suggested, Scale::Pawns);
        // Look 1: every piece at its suggestion, precisely; look 2: the
        // rook far off. The first look confirms all, and they stand.
        let mut first = Look::with_diagonal(&[4.5, 2.5, 1.5, 1.5, 0.5, 0.1, 0.9], 1e-8);
        first.batch = 1;
        let mut second = Look::with_diagonal(&[4.5, 4.0, 1.5, 1.5, 0.5, 0.1, 0.9], 1e-8);
        second.batch = 2;
        let looks = [first, second.clone()];
        let verdicts = family.verdicts(&looks, Schedule::EveryBatch { batches: 4 }, 0.05);
        assert_eq!(verdicts.len(), 4);
        assert!(verdicts
            .iter()
            .all(|v| v.verdict == Verdict::Confirmed && v.batch == 1));
        // A run of fixed size reads the last look alone.
        let verdicts = family.verdicts(&looks, Schedule::Final, 0.05);
        let rook = verdicts.iter().find(|v| v.t == 2).unwrap();
        assert_eq!((rook.verdict, rook.batch), (Verdict::Higher, 2));
        // Looks past the cap spend nothing and decide nothing.
        second.batch = 5;
        let verdicts = family.verdicts(&[second], Schedule::EveryBatch { batches: 4 }, 0.05);
        assert!(verdicts
            .iter()
            .all(|v| v.verdict == Verdict::Undecided && v.batch == 0));
    }

    #[test]
    fn a_piece_in_no_game_is_undecided() {
        // The rook in no game: its coefficient at zero, its variance
        // zero (as the fit leaves a column no game has). Read as an
        // interval it would be [0, 0], far below the suggested 5.
        let (types, space) = chess();
        let suggested = SUGGESTED;
        let family = chess_family(&space, &types, &suggested, Scale::Pawns);
        let mut look = Look::with_diagonal(&[4.5, 0.0, 1.5, 1.5, 0.5, 0.1, 0.9], 1e-5);
        let n = look.theta.len();
        look.covariance[n + 1] = 0.0;
        assert!(family.interval(&look, 2, 0.05).1.is_none());
        let verdicts = family.verdicts(&[look], Schedule::Final, 0.05);
        let rook = verdicts.iter().find(|v| v.t == 2).unwrap();
        assert_eq!(rook.verdict, Verdict::Undecided);
        // The queen, measured as tightly, is decided.
        let queen = verdicts.iter().find(|v| v.t == 1).unwrap();
        assert_eq!(queen.verdict, Verdict::Confirmed);
    }

    #[test]
    fn the_common_scale_judges_ratios_whatever_the_pawn() {
        let (types, space) = chess();
        let suggested = SUGGESTED;
        // Every piece 1.2 times its suggestion in pawns (pawn weight
        // 0.5): in pawns refuted, on the common scale every piece at its
        // suggestion and the pawn at 1 / 1.2.
        let theta = [5.4, 3.0, 1.8, 1.8, 0.5, 0.1, 0.9];
        let precise = Look::with_diagonal(&theta, 1e-8);
        let pawns = chess_family(&space, &types, &suggested, Scale::Pawns);
        let common = chess_family(&space, &types, &suggested, Scale::Common);
        let in_pawns = pawns.verdicts(std::slice::from_ref(&precise), Schedule::Final, 0.05);
        assert!(
            in_pawns.iter().all(|v| v.verdict == Verdict::Higher),
            "{in_pawns:?}"
        );
        let on_common = common.verdicts(&[precise], Schedule::Final, 0.05);
        assert_eq!(on_common[0].t, types.pawn);
        assert!((on_common[0].value - 1.0 / 1.2).abs() < 1e-9);
        for v in &on_common[1..] {
            assert!((v.value - suggested[v.t]).abs() < 1e-9, "{v:?}");
        }
        assert!(
            on_common.iter().all(|v| v.verdict == Verdict::Confirmed),
            "{on_common:?}"
        );
    }

    #[test]
    fn the_design_looks_at_the_undecided_pieces_nearest_a_decision() {
        let (types, space) = chess();
        let suggested = SUGGESTED;
        let family = chess_family(&space, &types, &suggested, Scale::Pawns);
        let verdict = |t, verdict| PieceVerdict {
            t,
            verdict,
            value: 0.0,
            interval: None,
            batch: 1,
            games: 10,
        };
        let verdicts = [
            verdict(1, Verdict::Undecided),
            verdict(2, Verdict::Confirmed),
            verdict(3, Verdict::Undecided),
            verdict(4, Verdict::Undecided),
        ];
        let focus = Focus {
            verdicts: &verdicts,
            family,
        };
        assert!(!focus.settled());
        // Q at 9.0 (0.5 from an end), B at 4.0 (0.5 beyond the band),
        // N at 3.45 (0.05 from an end: floored at a third of 0.5).
        let weights = focus.weights(&[0.0, 9.0, 5.0, 4.0, 3.45, 1.0]);
        assert_eq!(weights[0], 4.0);
        assert_eq!(weights[1], 0.0, "the rook is decided");
        assert_eq!(weights[2], 4.0);
        assert!((weights[3] - 36.0).abs() < 1e-9);
        assert_eq!(weights[4], 0.0, "the pawn is the unit");
    }
}
