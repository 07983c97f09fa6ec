//! What the designed experiment's trades cost, on simulated ExCoCo runs:
//! the adaptive design of `kurier-tune values` (batches designed from the
//! fit of the ones before, under the design's prior around the engine's
//! values) against the model's own games at known values, measured by the
//! report's estimator (the games every value's target needs,
//! [`Efficiency`]). A few seconds on two cores; the figures:
//! `cargo test --release -p kurier-tuner --test design_efficiency -- --nocapture`.

use kurier_engine::variant::definition::Variant;
use kurier_tuner::values::design::{BatchDesign, DesignLimits};
use kurier_tuner::values::efficiency::Efficiency;
use kurier_tuner::values::experiment::design_estimate;
use kurier_tuner::values::features::FeatureSpace;
use kurier_tuner::values::look::Look;
use kurier_tuner::values::ordinal::OrdinalRow;
use kurier_tuner::values::synthetic::synthetic_pairs;
use kurier_tuner::values::PieceTypes;
use rayon::prelude::*;

/// ExCoCo's men: (letter, true value in pawns, the value the engine
/// plays), the true values as measured at 4,000 nodes with trades of up
/// to eight pawns (bench/README.md, "Experiment efficiency"), the
/// engine's as `data/params/excoco.toml` plays them.
const EXCOCO: [(char, f64, f64); 14] = [
    ('Q', 13.86, 15.07),
    ('R', 6.31, 7.59),
    ('B', 4.9, 6.43),
    ('N', 4.55, 3.87),
    ('V', 3.64, 3.74),
    ('T', 4.09, 5.2),
    ('D', 6.94, 8.02),
    ('G', 2.43, 3.62),
    ('H', 6.53, 7.88),
    ('E', 3.27, 3.16),
    ('M', 2.77, 2.41),
    ('S', 2.75, 4.55),
    ('C', 5.98, 7.93),
    ('P', 1.0, 1.0),
];

/// Logit per pawn and draw margin (pawns) of the simulated games.
const SCALE: f64 = 0.3;
const DRAW_MARGIN: f64 = 1.5;

/// Games every value's target needs after one simulated run of
/// `batches` batches of `pairs` pairs, trades of at most
/// `pawns_per_side` pawns a side.
fn one_run(pawns_per_side: usize, batches: u64, pairs: usize, seed: u64) -> f64 {
    let variant = Variant::built_in("excoco").unwrap();
    let types = PieceTypes::of(&variant).unwrap();
    let space = FeatureSpace::new(&types, Vec::new());
    let mut men = vec![0; types.letters.len()];
    let mut truth_values = vec![0.0; types.letters.len()];
    let mut engine = vec![0.0; types.letters.len()];
    for (letter, truth, plays) in EXCOCO {
        let t = variant.type_of_letter(letter).unwrap();
        truth_values[t] = truth;
        engine[t] = plays;
        men[t] = match letter {
            'Q' => 1,
            'P' => 18,
            _ => 2,
        };
    }
    let limits = DesignLimits {
        men,
        pawns_per_side,
    };
    let mut truth: Vec<f64> = space
        .valued
        .iter()
        .map(|&t| SCALE * truth_values[t])
        .collect();
    truth.extend([0.0, SCALE * DRAW_MARGIN]);
    let design = BatchDesign {
        types: &types,
        space: &space,
        engine_values: &engine,
        limits: &limits,
        pairs,
        until: None,
    };
    let mut rows: Vec<OrdinalRow> = Vec::new();
    for batch in 1..=batches {
        let trades = design.trades(&rows, &[]).unwrap();
        let first = (rows.len() / 2) as u32;
        rows.extend(synthetic_pairs(
            &space,
            &limits,
            &truth,
            &trades,
            0.3,
            first,
            seed * 100 + batch,
        ));
    }
    // The report's estimator, as `values/run/results.rs` applies it: the
    // last look's half-widths (curvature, sandwich over pairs) at the
    // fitted values.
    let look = Look::of(&rows, space.columns(), batches as u32).unwrap();
    let estimate = design_estimate(&rows, &space, &types, None, 0, 0).unwrap();
    Efficiency::of(
        &types,
        rows.len(),
        &look.half_widths(&space, &types),
        &estimate.values,
        0.0,
        0.0,
    )
    .unwrap()
    .games_to_target
}

#[test]
fn trades_of_up_to_eight_pawns_halve_the_games() {
    let runs = 12;
    let mut means = Vec::new();
    for pawns in [4, 8] {
        let mut games: Vec<f64> = (0..runs)
            .into_par_iter()
            .map(|seed| one_run(pawns, 4, 120, seed))
            .collect();
        games.sort_by(f64::total_cmp);
        let mean = games.iter().sum::<f64>() / runs as f64;
        println!(
            "up to {pawns} pawns a side: {runs} simulated runs of 960 games need {mean:.0} games on \
             average to every value's target (median {:.0}, from {:.0} to {:.0})",
            games[runs as usize / 2],
            games[0],
            games[runs as usize - 1]
        );
        means.push(mean);
    }
    assert!(means[1] < 0.7 * means[0], "{means:?}");
}
