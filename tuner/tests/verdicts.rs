//! The verdict procedure on simulated experiments with known true
//! values (`tuner/src/values/verdict.rs`): its familywise error at or
//! below the stated 5% where it is hardest to hold (true values on the
//! ends of their bands), and its power where the answer is clear (true
//! values at the suggestion, or a pawn and more away from it), over many
//! repetitions; for a run of fixed size (one look) and for a run
//! `--until-verdicts` (a look after every batch, each batch designed
//! toward the undecided values), in pawns and on the common scale.
//!
//! The games follow the designed experiment's own model (ordered logit
//! with draws, `synthetic.rs`), the pieces of chess with whole-number
//! suggestions (Q 9, R 5, B 3, N 3: tolerance 0.5 pawn by default). Each
//! figure is printed (`cargo test -p kurier-tuner --test verdicts --
//! --nocapture`); the larger runs behind `#[ignore]` measure the same
//! to a third of the Monte Carlo error.

use kurier_engine::variant::definition::Variant;
use kurier_tuner::values::design::{
    candidate_trades, BatchDesign, DesignLimits, Until, DESIGN_VERSION,
};
use kurier_tuner::values::estimate::ratios;
use kurier_tuner::values::features::FeatureSpace;
use kurier_tuner::values::look::Look;
use kurier_tuner::values::ordinal::{game_information, invert, quadratic_form, ratio_gradient};
use kurier_tuner::values::synthetic::{synthetic_design, synthetic_pairs};
use kurier_tuner::values::verdict::{
    critical_value, default_tolerance, Family, PieceVerdict, Scale, Schedule, Verdict,
};
use kurier_tuner::values::PieceTypes;
use rayon::prelude::*;
use statrs::distribution::{ContinuousCDF, Normal};

/// The stated familywise error rate.
const ALPHA: f64 = 0.05;

/// Chess types: K Q R B N P = 0..5.
const SUGGESTED: [f64; 6] = [0.0, 9.0, 5.0, 3.0, 3.0, 1.0];

/// Logit per pawn of the simulated games (chess at 64,000 nodes: 0.85).
const SCALE: f64 = 1.0;

/// Correlation of a pair's two games (as in `tests/values.rs`).
const CORRELATION: f64 = 0.5;

struct Setting {
    types: PieceTypes,
    space: FeatureSpace,
    limits: DesignLimits,
    tolerance: f64,
}

fn setting() -> Setting {
    let types = PieceTypes::of(&Variant::built_in("chess").unwrap()).unwrap();
    let space = FeatureSpace::new(&types, Vec::new());
    let tolerance = default_tolerance(&SUGGESTED, &types.valued());
    Setting {
        types,
        space,
        limits: DesignLimits {
            men: vec![1, 1, 2, 2, 2, 8],
            pawns_per_side: 4,
        },
        tolerance,
    }
}

impl Setting {
    fn family(&self, scale: Scale) -> Family<'_> {
        Family {
            space: &self.space,
            types: &self.types,
            suggested: &SUGGESTED,
            tolerance: self.tolerance,
            scale,
        }
    }
}

/// The model's parameters for true values (pawns by type): Q R B N P
/// weights, White's move 0.1 logit, draw margin 0.9 logit.
fn theta(values: &[f64; 6]) -> Vec<f64> {
    let mut theta: Vec<f64> = values[1..].iter().map(|v| v * SCALE).collect();
    theta.extend([0.1, 0.9]);
    theta
}

/// The true values on the common scale of the suggested set: each
/// divided by the geometric mean of the pieces' ratios (the pawn too).
fn common_truth(values: &[f64; 6]) -> [f64; 6] {
    let factor = ((1..5).map(|t| (values[t] / SUGGESTED[t]).ln()).sum::<f64>() / 4.0).exp();
    values.map(|v| v / factor)
}

/// The verdict that is true of `value` for suggestion `s`.
fn true_verdict(value: f64, s: f64, tolerance: f64) -> Verdict {
    if value > s + tolerance + 1e-9 {
        Verdict::Higher
    } else if value < s - tolerance - 1e-9 {
        Verdict::Lower
    } else {
        Verdict::Confirmed
    }
}

/// What the verdicts of many runs came to.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    runs: usize,
    /// Runs with a wrong verdict on any member.
    wrong_runs: usize,
    /// Members' verdicts, and how many were the true ones.
    verdicts: usize,
    right: usize,
    /// Games played, summed.
    games: usize,
}

impl Tally {
    fn add(&mut self, verdicts: &[PieceVerdict], truth: &[f64; 6], tolerance: f64, games: usize) {
        self.runs += 1;
        self.games += games;
        let mut wrong = false;
        for v in verdicts {
            let truly = true_verdict(truth[v.t], SUGGESTED[v.t], tolerance);
            self.verdicts += 1;
            if v.verdict == truly {
                self.right += 1;
            } else if v.verdict.decided() {
                wrong = true;
            }
        }
        self.wrong_runs += usize::from(wrong);
    }

    fn merge(mut self, other: Tally) -> Tally {
        self.runs += other.runs;
        self.wrong_runs += other.wrong_runs;
        self.verdicts += other.verdicts;
        self.right += other.right;
        self.games += other.games;
        self
    }

    fn fwer(&self) -> f64 {
        self.wrong_runs as f64 / self.runs as f64
    }

    fn power(&self) -> f64 {
        self.right as f64 / self.verdicts as f64
    }

    fn mean_games(&self) -> f64 {
        self.games as f64 / self.runs as f64
    }
}

/// Three Monte Carlo standard errors of a rate `p` over `runs`.
fn slack(p: f64, runs: usize) -> f64 {
    3.0 * (p * (1.0 - p) / runs as f64).sqrt()
}

/// The familywise error of `tally` at or below the stated rate, give or
/// take three Monte Carlo standard errors.
fn assert_error_held(tally: Tally) {
    assert!(
        tally.fwer() <= ALPHA + slack(ALPHA, tally.runs),
        "familywise error {} over {} runs",
        tally.fwer(),
        tally.runs
    );
}

/// Runs of fixed size: `pairs` pairs of trades drawn uniformly among
/// those balanced at the truth, one look at the end; the verdicts of
/// both families (pawns, common scale) at each of `alphas`.
fn fixed_runs(
    truth: &[f64; 6],
    pairs: usize,
    runs: u64,
    alphas: &[f64],
    correlation: f64,
) -> Vec<[Tally; 2]> {
    let s = setting();
    let theta = theta(truth);
    let common = common_truth(truth);
    let empty = vec![[Tally::default(); 2]; alphas.len()];
    (0..runs)
        .into_par_iter()
        .map(|run| {
            let rows = synthetic_design(
                &s.types,
                &s.space,
                &s.limits,
                &theta,
                pairs,
                correlation,
                1000 + run,
            );
            let looks: Vec<Look> = Look::of(&rows, s.space.columns(), 1).into_iter().collect();
            let tally = |alpha: f64| {
                [(Scale::Pawns, truth), (Scale::Common, &common)].map(|(scale, truth)| {
                    let mut tally = Tally::default();
                    let verdicts = s.family(scale).verdicts(&looks, Schedule::Final, alpha);
                    tally.add(&verdicts, truth, s.tolerance, rows.len());
                    tally
                })
            };
            alphas.iter().map(|&alpha| tally(alpha)).collect::<Vec<_>>()
        })
        .reduce(
            || empty.clone(),
            |a, b| {
                a.into_iter()
                    .zip(b)
                    .map(|(a, b)| [a[0].merge(b[0]), a[1].merge(b[1])])
                    .collect()
            },
        )
}

/// Runs `--until-verdicts`: batches of `pairs` pairs designed by the
/// run's own design toward the undecided values (in pawns), a look after
/// each, at most `batches`, stopping when every verdict is in.
fn sequential_runs(truth: &[f64; 6], pairs: usize, batches: u32, runs: u64) -> [Tally; 2] {
    sequential_runs_designed(truth, pairs, batches, runs, true)
}

/// [`sequential_runs`], with the batches designed toward the undecided
/// values (`focus`) or, as a run of fixed size designs them, toward
/// every value's target precision (the run still stopping when every
/// verdict is in).
fn sequential_runs_designed(
    truth: &[f64; 6],
    pairs: usize,
    batches: u32,
    runs: u64,
    focus: bool,
) -> [Tally; 2] {
    let s = setting();
    let theta = theta(truth);
    let common = common_truth(truth);
    let schedule = Schedule::EveryBatch { batches };
    (0..runs)
        .into_par_iter()
        .map(|run| {
            let design = BatchDesign {
                types: &s.types,
                space: &s.space,
                engine_values: &SUGGESTED,
                design_values: None,
                limits: &s.limits,
                pairs,
                until: focus.then(|| Until {
                    family: s.family(Scale::Pawns),
                    alpha: ALPHA,
                    batches,
                }),
                version: DESIGN_VERSION,
            };
            let mut rows = Vec::new();
            let mut looks = Vec::new();
            for batch in 1..=batches {
                let verdicts = s.family(Scale::Pawns).verdicts(&looks, schedule, ALPHA);
                if verdicts.iter().all(|v| v.verdict.decided()) {
                    break;
                }
                let trades = design.trades(&rows, &looks).unwrap();
                let first = (rows.len() / 2) as u32;
                rows.extend(synthetic_pairs(
                    &s.space,
                    &s.limits,
                    &theta,
                    &trades,
                    CORRELATION,
                    first,
                    run * 1000 + u64::from(batch),
                ));
                looks.extend(Look::of(&rows, s.space.columns(), batch));
            }
            [(Scale::Pawns, truth), (Scale::Common, &common)].map(|(scale, truth)| {
                let mut tally = Tally::default();
                let verdicts = s.family(scale).verdicts(&looks, schedule, ALPHA);
                tally.add(&verdicts, truth, s.tolerance, rows.len());
                tally
            })
        })
        .reduce(
            || [Tally::default(); 2],
            |a, b| [a[0].merge(b[0]), a[1].merge(b[1])],
        )
}

/// True values on the ends of their bands: every piece at its
/// suggestion give or take exactly the tolerance, where a refutation is
/// wrong and nearest to being made (the least favourable truth).
const ON_THE_ENDS: [f64; 6] = [0.0, 9.5, 4.5, 3.5, 2.5, 1.0];

/// Two pieces at their suggestions, two a pawn and more away.
const MIXED: [f64; 6] = [0.0, 9.0, 6.0, 3.0, 2.0, 1.0];

/// Three pieces a pawn and more from their suggestions, the bishop at
/// its own: answers a run can reach in a few hundred games.
const CLEAR: [f64; 6] = [0.0, 10.5, 6.0, 3.0, 2.0, 1.0];

/// Every piece 1.2 times its suggestion: in pawns Q, R, B and N all
/// refuted higher (10.8, 6, 3.6, 3.6), on the common scale every piece
/// at its suggestion and the pawn at 1 / 1.2.
const PAWN_BIAS: [f64; 6] = [0.0, 10.8, 6.0, 3.6, 3.6, 1.0];

/// The standard errors (pawns) of the values of `truth` from `pairs`
/// pairs of trades drawn uniformly among those balanced at it, with
/// independent games: the delta method at the expected information.
fn expected_errors(truth: &[f64; 6], pairs: usize) -> Vec<f64> {
    let s = setting();
    let theta = theta(truth);
    let (values, pair_values) = ratios(&s.space, &theta, 6);
    let trades = candidate_trades(&s.types, &s.space, &values, &pair_values, &s.limits);
    let n = theta.len();
    let mut information = vec![0.0; n * n];
    for trade in &trades {
        let x = trade.features(&s.space, &s.limits.men);
        let mirrored: Vec<f64> = x.iter().map(|v| -v).collect();
        for game in [
            game_information(&theta, &x),
            game_information(&theta, &mirrored),
        ] {
            for (total, g) in information.iter_mut().zip(game) {
                *total += g * pairs as f64 / trades.len() as f64;
            }
        }
    }
    let sigma = invert(&information, n).unwrap();
    (0..6)
        .map(|t| match s.space.value_column(t) {
            Some(column) if t != s.types.pawn => {
                quadratic_form(&ratio_gradient(&theta, column, s.space.pawn_column), &sigma).sqrt()
            }
            _ => f64::NAN,
        })
        .collect()
}

/// The power the asymptotics promise for `truth` after `pairs` pairs of
/// one look: per piece, the chance that its interval (critical value of
/// its share `alpha / 4`) lies wholly in the true cell, with the
/// expected standard error; their mean.
fn predicted_power(truth: &[f64; 6], pairs: usize) -> f64 {
    let s = setting();
    let errors = expected_errors(truth, pairs);
    let normal = Normal::standard();
    let powers: Vec<f64> = s
        .types
        .pieces()
        .iter()
        .map(|&t| {
            let (v, suggested, d, se) = (truth[t], SUGGESTED[t], s.tolerance, errors[t]);
            let c = critical_value(ALPHA / 4.0, 2.0 * d / se);
            match true_verdict(v, suggested, d) {
                // Both ends inside the band.
                Verdict::Confirmed => (normal.cdf((suggested + d - v) / se - c)
                    + normal.cdf((v - suggested + d) / se - c)
                    - 1.0)
                    .max(0.0),
                Verdict::Higher => normal.cdf((v - suggested - d) / se - c),
                _ => normal.cdf((suggested - d - v) / se - c),
            }
        })
        .collect();
    powers.iter().sum::<f64>() / powers.len() as f64
}

/// One look: the familywise error on the band ends, with a negative
/// control (each piece at 5% alone), and the power against its
/// prediction; `runs` experiments each.
fn one_look(runs: u64) {
    // Least favourable: every piece on an end of its band. Each has a
    // share of 1.25% to be refuted wrongly, so the four together come
    // near 5% but not above.
    let pairs = 300;
    let started = std::time::Instant::now();
    let tallies = fixed_runs(
        &ON_THE_ENDS,
        pairs,
        runs,
        &[ALPHA, 4.0 * ALPHA],
        CORRELATION,
    );
    let (ends, naive) = (tallies[0][0], tallies[1][0]);
    println!(
        "one look, {} games, true values on the band ends: FWER {:.4} ({runs} runs); each piece at 5% \
         alone: {:.4} [{:.1} s]",
        2 * pairs,
        ends.fwer(),
        naive.fwer(),
        started.elapsed().as_secs_f64()
    );
    assert_error_held(ends);
    // The test can fail: without the correction for the four pieces the
    // same experiments err far more often (about 4 x 5%).
    assert!(naive.fwer() > 2.0 * ALPHA, "naive FWER {}", naive.fwer());

    // Clear answers: the power that the expected information predicts
    // (independent games, where the prediction holds to first order).
    let started = std::time::Instant::now();
    let [mixed, _] = fixed_runs(&MIXED, pairs, runs, &[ALPHA], 0.0)[0];
    let predicted = predicted_power(&MIXED, pairs);
    println!(
        "one look, {} games, Q 9 R 6 B 3 N 2 against Q 9 R 5 B 3 N 3: FWER {:.4}, power {:.3} \
         (predicted {predicted:.3}) [{:.1} s]",
        2 * pairs,
        mixed.fwer(),
        mixed.power(),
        started.elapsed().as_secs_f64()
    );
    assert_error_held(mixed);
    assert!(
        mixed.power() >= predicted - slack(predicted, mixed.verdicts) - 0.03,
        "power {} predicted {predicted}",
        mixed.power()
    );
}

/// The common scale where the pawn is the whole bias.
fn pawn_bias(runs: u64) {
    // Every piece 20% above its suggestion: in pawns all four are
    // refuted higher (B and N only just: 3.6 against 3 + 0.5); on the
    // common scale all four and the pawn (1 / 1.2) are confirmed.
    let pairs = 300;
    let started = std::time::Instant::now();
    let [pawns, common] = fixed_runs(&PAWN_BIAS, pairs, runs, &[ALPHA], CORRELATION)[0];
    println!(
        "one look, {} games, every piece 1.2 x its suggestion: in pawns FWER {:.4} power {:.3}; \
         common scale FWER {:.4} power {:.3} [{:.1} s]",
        2 * pairs,
        pawns.fwer(),
        pawns.power(),
        common.fwer(),
        common.power(),
        started.elapsed().as_secs_f64()
    );
    assert_error_held(pawns);
    assert_error_held(common);
    // On the common scale the verdicts come sooner: the pawn's
    // uncertainty is gone and every value is at the centre of its band.
    assert!(
        common.power() > pawns.power() && common.power() > 0.5,
        "{} vs {}",
        common.power(),
        pawns.power()
    );
}

/// Runs `--until-verdicts`: the error over every look, and early stops.
fn until_verdicts(runs: u64) {
    // On the band ends only "confirmed" is right, and it needs far more
    // games than the cap: the runs play to the cap, looking after every
    // batch, and the union bound holds the error to 5% over the looks.
    let (pairs, batches) = (50, 10);
    let started = std::time::Instant::now();
    let [ends, _] = sequential_runs(&ON_THE_ENDS, pairs, batches, runs);
    println!(
        "until verdicts, at most {batches} batches of {} games, band ends: FWER {:.4}, {:.0} games \
         on average [{:.1} s]",
        2 * pairs,
        ends.fwer(),
        ends.mean_games(),
        started.elapsed().as_secs_f64()
    );
    assert_error_held(ends);
    // Clear answers: right, and most runs stop well before the cap.
    let started = std::time::Instant::now();
    let [mixed, common] = sequential_runs(&CLEAR, pairs, batches, runs);
    let cap = f64::from(batches) * 2.0 * pairs as f64;
    println!(
        "until verdicts, Q 10.5 R 6 B 3 N 2: FWER {:.4}, power {:.3}, {:.0} games on average of {cap}; \
         common scale FWER {:.4} [{:.1} s]",
        mixed.fwer(),
        mixed.power(),
        mixed.mean_games(),
        common.fwer(),
        started.elapsed().as_secs_f64()
    );
    assert_error_held(mixed);
    assert_error_held(common);
    assert!(mixed.power() > 0.8, "{}", mixed.power());
    assert!(mixed.mean_games() < 0.8 * cap, "{}", mixed.mean_games());
}

#[test]
fn one_look_holds_the_familywise_error_and_reaches_the_predicted_power() {
    one_look(400);
}

#[test]
fn the_common_scale_sees_the_pieces_ratios_whatever_the_pawn() {
    pawn_bias(200);
}

#[test]
fn a_run_until_verdicts_holds_the_error_over_its_looks_and_stops_early() {
    until_verdicts(100);
}

/// What designing each batch toward the undecided values saves: the
/// games a run needs to settle, against the design of a run of fixed
/// size (every value toward its target precision).
fn focus_saves_games(runs: u64) {
    let (pairs, batches) = (50, 10);
    let [focused, _] = sequential_runs_designed(&CLEAR, pairs, batches, runs, true);
    let [plain, _] = sequential_runs_designed(&CLEAR, pairs, batches, runs, false);
    println!(
        "until verdicts, Q 10.5 R 6 B 3 N 2: designed toward the undecided values {:.0} games \
         (power {:.3}), toward every value {:.0} games (power {:.3})",
        focused.mean_games(),
        focused.power(),
        plain.mean_games(),
        plain.power()
    );
    assert_error_held(focused);
    assert_error_held(plain);
}

#[test]
#[ignore = "minutes: cargo test -p kurier-tuner --test verdicts -- --ignored --nocapture"]
fn the_verdicts_over_many_more_experiments() {
    one_look(4000);
    pawn_bias(2000);
    until_verdicts(1000);
    focus_saves_games(1000);
}
