//! The piece-value tuner: the designed experiment's fit, its intervals
//! and their coverage on synthetic data with known true values; the
//! observational fit with the rest of the evaluation as a column; the
//! dataset file; the Texel fit; position description; and whole runs:
//! journaled, resumed, refused with other settings, split into shards
//! that merge into exactly the one-machine result.

mod small_run;

use std::path::{Path, PathBuf};

use kurier_engine::eval::evaluate::{EvalParams, Evaluator, Pair};
use kurier_engine::position::any_game::AnyGame;
use kurier_engine::position::rules::GameResult;
use kurier_engine::position::state::Position;
use kurier_engine::types::Color;
use kurier_engine::variant::definition::Variant;
use kurier_tuner::positions::dataset::describe_position;
use kurier_tuner::positions::dataset::{
    merge_datasets, Dataset, DatasetInfo, DatasetWriter, FeatureEntry, GamePositions,
    PositionRecord, MAX_TYPES,
};
use kurier_tuner::positions::quiet::is_quiet;
use kurier_tuner::stats::bootstrap::Interval;
use kurier_tuner::stats::logistic::{fit_logistic, sigmoid, Design, Penalty};
use kurier_tuner::texel::fit::{fit_scale, fit_texel, texel_design, TexelOptions};
use kurier_tuner::util::rng::Rng;
use kurier_tuner::util::shard::Shard;
use kurier_tuner::values::design::{DesignLimits, DESIGN_VERSION};
use kurier_tuner::values::design_game::DesignGame;
use kurier_tuner::values::experiment::design_estimate;
use kurier_tuner::values::features::FeatureSpace;
use kurier_tuner::values::generate::{generate, GameEnding, GenerationPlan};
use kurier_tuner::values::observational::observational_estimate;
use kurier_tuner::values::ordinal::{covariance, fit_ordinal, quadratic_form, ratio_gradient};
use kurier_tuner::values::pooled::RunRows;
use kurier_tuner::values::report::{self, write_report};
use kurier_tuner::values::run::merge::merge_values;
use kurier_tuner::values::run::results::{results, RunResults};
use kurier_tuner::values::run::runner::run;
use kurier_tuner::values::run::settings::{journal_path, RecordedFile, RunSettings, RunState};
use kurier_tuner::values::synthetic::{draw_result, synthetic_design, synthetic_material};
use kurier_tuner::values::values_tables::values_tables;
use kurier_tuner::values::verdict::VerdictRule;
use kurier_tuner::values::verdict_table::{budget_verdicts, verdict_tables};
use kurier_tuner::values::{PieceTypes, Values};
use small_run::{chess_settings, scratch};

fn chess_types() -> PieceTypes {
    PieceTypes::of(&Variant::built_in("chess").unwrap()).unwrap()
}

fn info(variant: &str, piece_types: usize, eval_weights: u32) -> DatasetInfo {
    DatasetInfo {
        variant: variant.to_string(),
        piece_types,
        seed: 3,
        nodes: 100,
        skip_plies: 0,
        per_game: 4,
        eval_weights,
        shard: None,
    }
}

/// Chess types K Q R B N P = 0..5; the bishop (3) has a pair term.
const BISHOP: usize = 3;

fn chess_space() -> FeatureSpace {
    FeatureSpace::new(&chess_types(), vec![BISHOP])
}

fn chess_limits() -> DesignLimits {
    DesignLimits {
        men: vec![1, 1, 2, 2, 2, 8],
        pawns_per_side: 4,
    }
}

/// True parameters: Q 9.5, R 5.2, B 3.4, N 3.0, P 1 at 0.4 logit per
/// pawn, bishop pair 0.4, White's move 0.1 logit, draw margin 0.9 logit.
fn chess_truth() -> Vec<f64> {
    let scale = 0.4;
    let mut theta: Vec<f64> = [9.5, 5.2, 3.4, 3.0, 1.0, 0.4]
        .iter()
        .map(|v| v * scale)
        .collect();
    theta.extend([0.1, 0.9]);
    theta
}

fn true_value(theta: &[f64], column: usize) -> f64 {
    theta[column] / theta[4]
}

#[test]
fn the_designed_fit_recovers_known_values_within_its_intervals() {
    let types = chess_types();
    let space = chess_space();
    let truth = chess_truth();
    let rows = synthetic_design(&types, &space, &chess_limits(), &truth, 3000, 0.5, 7);
    let estimate = design_estimate(&rows, &space, &types, None, 100, 3).unwrap();
    // Columns follow the valued types Q R B N P, then the pair.
    let mut misses = 0;
    for (column, &t) in space.valued.iter().enumerate() {
        if t == types.pawn {
            continue;
        }
        let interval = estimate.intervals[t].unwrap();
        let value = true_value(&truth, column);
        // Widened by half its width (about 3 standard errors each side):
        // a miss has probability below 1% per value.
        let widened = Interval {
            low: interval.low - interval.half_width() / 2.0,
            high: interval.high + interval.half_width() / 2.0,
        };
        assert!(
            widened.contains(value),
            "{}: {value} not in {interval:?}",
            types.letters[t]
        );
        misses += usize::from(!interval.contains(value));
        assert!(interval.contains(estimate.values[t]));
        // Curvature and bootstrap agree on the width within a third.
        let curvature = estimate.curvature[t].unwrap();
        let ratio = curvature.half_width() / interval.half_width();
        assert!(
            (0.67..1.5).contains(&ratio),
            "{}: widths {ratio}",
            types.letters[t]
        );
    }
    let (_, pair, pair_interval) = estimate.pairs[0];
    assert!(
        pair_interval.unwrap().contains(0.4) || (pair - 0.4).abs() < 0.2,
        "pair {pair}"
    );
    assert!(
        misses <= 1,
        "{misses} of 4 true values outside their 95% interval"
    );
    assert_eq!(estimate.values[types.pawn], 1.0);
    assert_eq!(estimate.groups, 3000);
}

/// Coverage of three kinds of 95% interval over `replications` synthetic
/// experiments of `pairs` pairs with in-pair correlation `correlation`:
/// (bootstrap over pairs, sandwich over pairs, inverse Hessian alone).
/// Every game is recorded `copies` times in its pair, as a position played
/// again at fixed nodes gives the same game again.
fn coverage(replications: u64, pairs: usize, correlation: f64, copies: usize) -> [f64; 3] {
    let types = chess_types();
    let space = chess_space();
    let truth = chess_truth();
    let mut covered = [0usize; 3];
    let mut total = 0usize;
    for replication in 0..replications {
        let mut rows = synthetic_design(
            &types,
            &space,
            &chess_limits(),
            &truth,
            pairs,
            correlation,
            100 + replication,
        );
        rows = rows.into_iter().flat_map(|row| vec![row; copies]).collect();
        let estimate = design_estimate(&rows, &space, &types, None, 80, replication).unwrap();
        let fit = fit_ordinal(&rows, space.columns(), None, None).unwrap();
        let naive = covariance(&rows, &fit, false).unwrap();
        for (column, &t) in space.valued.iter().enumerate() {
            if t == types.pawn {
                continue;
            }
            let value = true_value(&truth, column);
            total += 1;
            covered[0] += usize::from(estimate.intervals[t].unwrap().contains(value));
            covered[1] += usize::from(estimate.curvature[t].unwrap().contains(value));
            let g = ratio_gradient(&fit.theta, column, space.pawn_column);
            let sd = quadratic_form(&g, &naive).sqrt();
            let centre = fit.theta[column] / fit.theta[space.pawn_column];
            covered[2] += usize::from((centre - value).abs() <= 1.96 * sd);
        }
    }
    covered.map(|c| c as f64 / total as f64)
}

#[test]
fn the_intervals_cover_the_truth_at_their_stated_rate() {
    // 40 experiments of 400 pairs, the two games of a pair dependent
    // (the second repeats the first's draw from A's side half the time):
    // 160 intervals of nominal 95% per method. Intervals that take the
    // pairs as the unit (bootstrap over pairs, sandwich over pairs) cover
    // near 95%; with 160 intervals (correlated within an experiment) a
    // true 95% falls below 86% with probability well under 1%.
    let [bootstrap, sandwich, _] = coverage(40, 400, 0.5, 1);
    assert!(
        (0.86..=1.0).contains(&bootstrap),
        "bootstrap coverage {bootstrap}"
    );
    assert!(
        (0.86..=1.0).contains(&sandwich),
        "sandwich coverage {sandwich}"
    );
    // The test can fail: with every game recorded four times (the same
    // game from the same position), the inverse Hessian alone counts each
    // game as four and is too narrow by half, covering about 75% (at the
    // widths measured for this design), while the intervals over pairs
    // are unchanged.
    let [bootstrap, sandwich, naive] = coverage(20, 400, 0.5, 4);
    assert!(
        naive < 0.85,
        "naive coverage {naive}: the test cannot see dependence"
    );
    assert!(
        bootstrap >= 0.86 && sandwich >= 0.86,
        "{bootstrap} {sandwich}"
    );
}

#[test]
#[ignore = "about a minute: cargo test -p kurier-tuner --release -- --ignored coverage"]
fn coverage_over_many_experiments() {
    // 400 experiments (1,600 intervals) of 300 pairs, correlation 0.5:
    // the binomial standard error of a coverage rate is about 0.5%, so
    // the rates are known to about +-1.5%.
    let rates = coverage(400, 300, 0.5, 1);
    println!("coverage (bootstrap, sandwich, inverse Hessian): {rates:?}");
    assert!((0.93..=0.97).contains(&rates[0]), "{rates:?}");
    assert!((0.93..=0.97).contains(&rates[1]), "{rates:?}");
}

#[test]
fn the_observational_fit_keeps_the_rest_of_the_evaluation_apart() {
    // Results depend on material and on a non-material term correlated
    // with the pawn difference (as passed pawns are). With the rest of the
    // evaluation as its own column the values come out true; a fit on
    // material alone gives the pawn the term's weight too and so puts
    // every piece low (the chess bias of the old method).
    let variant = Variant::built_in("chess").unwrap();
    let types = chess_types();
    let params = EvalParams::for_variant(&variant).unwrap();
    let space = FeatureSpace::new(&types, Vec::new());
    // The largest non-material weight (a passed pawn's); at phase 128 it
    // is worth the mean of its two halves.
    let material = kurier_tuner::values::material_indices(&params, &types);
    let (rest_weight, rest_cp) = (0..params.weights.len())
        .filter(|j| !material.contains(j))
        .map(|j| {
            (
                j,
                f64::from(params.weights[j].0 + params.weights[j].1) / 2.0,
            )
        })
        .max_by(|a, b| a.1.abs().total_cmp(&b.1.abs()))
        .unwrap();
    assert!(rest_cp.abs() > 20.0, "weight {rest_weight}: {rest_cp}");
    let truth: Values = vec![0.0, 9.0, 5.0, 3.5, 3.0, 1.0];
    let dataset = synthetic_material(
        "chess",
        &types,
        &truth,
        0.5,
        6000,
        3,
        (params.weights.len(), rest_weight, rest_cp),
        11,
    );
    let estimate = observational_estimate(&dataset, &space, &params, &types, 60, 1).unwrap();
    for t in [1, 2, 3, 4] {
        let interval = estimate.intervals[t].unwrap();
        let widened = Interval {
            low: interval.low - interval.half_width() / 2.0,
            high: interval.high + interval.half_width() / 2.0,
        };
        assert!(
            widened.contains(truth[t]),
            "{}: {} not in {interval:?}",
            types.letters[t],
            truth[t]
        );
    }
    // The measured pawn in engine centipawns: 100 (the truth's scale).
    let pawn = &estimate.extra[0];
    assert!(
        pawn.interval.unwrap().contains(100.0) || (pawn.value - 100.0).abs() < 5.0,
        "{pawn:?}"
    );
    // Material alone: the pawn's weight absorbs the term.
    let mut material_only = Design::new(6);
    for record in &dataset.records {
        let entries: Vec<(usize, f64)> = (1..6)
            .map(|t| (t - 1, f64::from(record.material[t])))
            .chain([(5, if record.white_to_move == 1 { 1.0 } else { -1.0 })])
            .collect();
        material_only.push_row(entries, record.white_score(), record.game);
    }
    let fit = fit_logistic(&material_only, None, &Penalty::default(), &[0.0; 6]).unwrap();
    let queen = fit.weights[0] / fit.weights[4];
    assert!(
        queen < 0.9 * 9.0,
        "material alone puts the queen at {queen}, not low"
    );
}

fn sample_games() -> Vec<GamePositions> {
    (0..3u32)
        .map(|game| {
            let records: Vec<PositionRecord> = (0..game + 1)
                .map(|i| {
                    let mut material = [0i8; MAX_TYPES];
                    material[5] = i as i8 - 1;
                    material[1] = -(game as i8);
                    PositionRecord {
                        material,
                        game,
                        phase: 100 + i as u16,
                        result: (game % 3) as u8,
                        white_to_move: (i % 2) as u8,
                        feature_count: 2,
                        ply: 20 + i as u16,
                        pairs: [i as u16, 0],
                    }
                })
                .collect();
            let features = (0..2 * (game + 1))
                .map(|i| FeatureEntry {
                    index: i as u16,
                    count: -(i as i16) + 1,
                })
                .collect();
            GamePositions { records, features }
        })
        .collect()
}

#[test]
fn datasets_read_back_what_was_written() {
    let folder = scratch("roundtrip");
    let path = folder.join("a.kdat");
    let games = sample_games();
    let mut writer = DatasetWriter::create(&path, &info("chess", 6, 42)).unwrap();
    writer.append(&games[..2], 1500).unwrap();
    writer.append(&games[2..], 250).unwrap();
    drop(writer);
    let dataset = Dataset::read(&path).unwrap();
    assert_eq!(dataset.cpu_ms, 1750);
    assert_eq!(dataset.info, info("chess", 6, 42));
    assert_eq!(dataset.games, 3);
    let records: Vec<PositionRecord> = games.iter().flat_map(|g| g.records.clone()).collect();
    assert_eq!(dataset.records, records);
    // Record 3 is game 2's first position; game 2's features are the
    // last six entries, two per record.
    assert_eq!(dataset.features_of(3), &games[2].features[..2]);
    // 64-byte header, two blocks of 28 bytes, 6 records of 32, 12 features of 4.
    assert_eq!(
        std::fs::metadata(&path).unwrap().len(),
        64 + 2 * 28 + 6 * 32 + 12 * 4
    );
}

#[test]
fn broken_datasets_are_refused_with_a_reason() {
    let folder = scratch("broken");
    let path = folder.join("a.kdat");
    let mut writer = DatasetWriter::create(&path, &info("chess", 6, 42)).unwrap();
    let games = sample_games();
    writer.append(&games[..2], 0).unwrap();
    writer.append(&games[2..], 0).unwrap();
    drop(writer);
    let bytes = std::fs::read(&path).unwrap();
    let complete_first_block = 64 + 28 + 3 * 32 + 6 * 4;

    // Cut inside the second block: an error that says so, and `resume`
    // keeps the first block only.
    std::fs::write(&path, &bytes[..bytes.len() - 5]).unwrap();
    let error = Dataset::read(&path).unwrap_err().to_string();
    assert!(
        error.contains("truncated or corrupt after byte 212"),
        "{error}"
    );
    let (writer, kept) = DatasetWriter::resume(&path, &info("chess", 6, 42)).unwrap();
    assert_eq!((writer.games(), kept.records.len()), (2, 3));
    drop(writer);
    assert_eq!(
        std::fs::metadata(&path).unwrap().len(),
        complete_first_block
    );

    // One flipped byte in a record: the block's checksum fails.
    let mut flipped = bytes.clone();
    flipped[64 + 28 + 5] ^= 0x40;
    std::fs::write(&path, &flipped).unwrap();
    assert!(Dataset::read(&path)
        .unwrap_err()
        .to_string()
        .contains("after byte 64 "));

    // Other settings: resume refuses.
    std::fs::write(&path, &bytes).unwrap();
    assert!(DatasetWriter::resume(&path, &info("chess", 6, 43)).is_err());

    // Not a dataset, too short, a future version.
    std::fs::write(&path, b"hello").unwrap();
    assert!(Dataset::read(&path)
        .unwrap_err()
        .to_string()
        .contains("too short"));
    let mut other = bytes.clone();
    other[0] = b'X';
    std::fs::write(&path, &other).unwrap();
    assert!(Dataset::read(&path)
        .unwrap_err()
        .to_string()
        .contains("bad magic"));
    let mut future = bytes;
    future[8] = 9;
    std::fs::write(&path, &future).unwrap();
    assert!(Dataset::read(&path)
        .unwrap_err()
        .to_string()
        .contains("version 9"));
    assert!(Dataset::read(&folder.join("missing.kdat"))
        .unwrap_err()
        .to_string()
        .contains("cannot read"));
}

#[test]
fn texel_fit_recovers_known_weights() {
    // Four evaluation weights with known (middlegame, endgame) values;
    // positions with random counts of each and random phases; results
    // drawn from sigmoid(k * eval).
    let variant = Variant::built_in("chess").unwrap();
    let base = EvalParams::for_variant(&variant).unwrap();
    let active: [(usize, Pair); 4] = [
        (1, Pair(900, 1000)),
        (4, Pair(300, 280)),
        (12, Pair(8, 2)),
        (30, Pair(-20, 40)),
    ];
    let mut truth = base.clone();
    for &(index, pair) in &active {
        truth.weights[index] = pair;
    }
    let k = 0.004;
    let mut rng = Rng::new(21);
    let mut records = Vec::new();
    let mut features = Vec::new();
    let positions = 20_000u32;
    for game in 0..positions {
        let phase = rng.below(257) as u16;
        let counts = [
            rng.below(3) as i16 - 1,
            rng.below(5) as i16 - 2,
            rng.below(31) as i16 - 15,
            rng.below(9) as i16 - 4,
        ];
        let mut eval = 0.0;
        for (&(index, Pair(m, e)), &count) in active.iter().zip(&counts) {
            eval += f64::from(count)
                * (f64::from(m) * f64::from(phase) + f64::from(e) * f64::from(256 - phase))
                / 256.0;
            features.push(FeatureEntry {
                index: index as u16,
                count,
            });
        }
        records.push(PositionRecord {
            material: [0; MAX_TYPES],
            game,
            phase,
            result: draw_result(sigmoid(k * eval), &mut rng),
            white_to_move: 1,
            feature_count: 4,
            ply: 30,
            pairs: [0, 0],
        });
    }
    let dataset = Dataset::from_parts(
        info("chess", 6, base.weights.len() as u32),
        records,
        features,
        positions,
    )
    .unwrap();

    // With the true weights, the fitted scale is the true one (over six
    // seeds within 2.5%; standard deviation about 1.3%).
    let design = texel_design(&dataset, base.weights.len());
    let scale = fit_scale(&design, &truth.weights).unwrap();
    assert!((scale / k - 1.0).abs() < 0.05, "scale {scale}");

    // From weights far off (all four zero), with the true scale, the fit
    // finds the true weights. Over six seeds the errors had standard
    // deviations of about 18, 8, 1 (rounding) and 4 centipawns; the
    // tolerances are about four of them.
    let mut start = base.clone();
    for &(index, _) in &active {
        start.weights[index] = Pair(0, 0);
    }
    let fit = fit_texel(
        &dataset,
        &start,
        &TexelOptions {
            scale: Some(k),
            l2: 1e-6,
        },
    )
    .unwrap();
    let tolerances = [75, 35, 4, 16];
    for (&(index, Pair(m, e)), tolerance) in active.iter().zip(tolerances) {
        let Pair(fm, fe) = fit.params.weights[index];
        assert!(
            (fm - m).abs() <= tolerance && (fe - e).abs() <= tolerance,
            "weight {index}: ({fm}, {fe}) for ({m}, {e})"
        );
    }
    // Weights without data keep their current values.
    assert_eq!(fit.params.weights[0], base.weights[0]);
    // The result is a parameter file the engine reads.
    let text = fit.params.to_toml();
    assert_eq!(
        EvalParams::from_toml(&variant, &text, "fit").unwrap(),
        fit.params
    );
}

#[test]
fn positions_are_described_and_judged_quiet_as_the_rules_say() {
    let game = AnyGame::built_in("chess").unwrap();
    let AnyGame::Narrow(game) = game else {
        panic!("chess fits 128 bits")
    };
    let params = EvalParams::for_variant(&game.variant).unwrap();
    let evaluator = Evaluator::new(&game, params);
    // White: K, Q, 2 R, 1 N, 8 P; Black: K, 2 R, 2 B, 2 N, 8 P.
    let fen = "r1b1kb1r/ppp1pppp/2n2n2/3p4/4P3/8/PPPP1PPP/R2QK1NR w KQkq - 0 1";
    let position = Position::from_fen(game.clone(), fen).unwrap();
    let (record, features) = describe_position(&position, &evaluator, 7, 12, GameResult::BlackWins);
    // Types K Q R B N P: queens 1-0, rooks 2-2, bishops 0-2, knights 1-2, pawns 8-8.
    assert_eq!(&record.material[..6], &[0, 1, 0, -2, -1, 0]);
    assert_eq!(
        (record.game, record.ply, record.result, record.white_to_move),
        (7, 12, 0, 1)
    );
    assert_eq!(position.side_to_move(), Color::White);
    // The material terms are the first weights (index = type), their
    // counts the differences (zero differences are left out).
    let material: Vec<(u16, i16)> = features
        .iter()
        .filter(|f| f.index < 6)
        .map(|f| (f.index, f.count))
        .collect();
    assert_eq!(material, vec![(1, 1), (3, -2), (4, -1)]);
    assert_eq!(usize::from(record.feature_count), features.len());
    // Men of one type on both square colours (bit = type; K Q R B N P =
    // 0..5): White's rooks a1/h1 and pawns; Black's rooks a8/h8, bishops
    // c8/f8, knights c6/f6 and pawns. White has no bishop pair, Black has.
    assert_eq!(
        record.pairs,
        [
            (1 << 2) | (1 << 5),
            (1 << 2) | (1 << 3) | (1 << 4) | (1 << 5)
        ]
    );
    // A queen hangs to a pawn: not quiet. The start position: quiet. In check: not quiet.
    let hanging = Position::from_fen(game.clone(), "4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1").unwrap();
    assert!(!is_quiet(&hanging, &evaluator));
    assert!(is_quiet(&Position::startpos(game.clone()), &evaluator));
    let check = Position::from_fen(game.clone(), "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1").unwrap();
    assert!(check.in_check() && !is_quiet(&check, &evaluator));
}

#[test]
fn sharded_generation_merges_into_the_one_machine_dataset() {
    let AnyGame::Narrow(game) = AnyGame::built_in("chess").unwrap() else {
        panic!("chess fits 128 bits")
    };
    let params = EvalParams::for_variant(&game.variant).unwrap();
    let plan = |games, shard| GenerationPlan {
        games,
        nodes: 120,
        opening_plies: 4,
        skip_plies: 6,
        per_game: 3,
        ending: GameEnding {
            max_plies: 60,
            resign: None,
        },
        seed: 9,
        budget: 0,
        shard,
    };
    let folder = scratch("generate");
    let mut quiet = |_, _, _| {};
    // A run stopped after 16 games resumes to 20 and equals a fresh one.
    let resumed = folder.join("resumed.kdat");
    let first = generate(&game, &params, &plan(16, None), &resumed, &mut quiet).unwrap();
    assert_eq!((first.dataset.games, first.games_played), (16, 16));
    let more = generate(&game, &params, &plan(20, None), &resumed, &mut quiet).unwrap();
    assert_eq!((more.dataset.games, more.games_played), (20, 4));
    let whole = folder.join("whole.kdat");
    let once = generate(&game, &params, &plan(20, None), &whole, &mut quiet).unwrap();
    assert_eq!(more.dataset.records, once.dataset.records);
    assert_eq!(more.dataset.features, once.dataset.features);
    for record in &once.dataset.records {
        assert!(record.ply >= 6 && record.result <= 2 && record.game < 20);
    }
    // Three shards merge into the same records, in the same order.
    let parts: Vec<(PathBuf, Dataset)> = (1..=3)
        .map(|index| {
            let path = folder.join(format!("shard{index}.kdat"));
            let shard = Some(Shard { index, count: 3 });
            let outcome = generate(&game, &params, &plan(20, shard), &path, &mut quiet).unwrap();
            assert!(outcome
                .dataset
                .records
                .iter()
                .all(|r| r.game as usize % 3 == index - 1));
            (path, outcome.dataset)
        })
        .collect();
    let merged = merge_datasets(&parts, &folder.join("merged.kdat")).unwrap();
    assert_eq!(merged.records, once.dataset.records);
    assert_eq!(merged.features, once.dataset.features);
    assert_eq!(merged.games, 20);
    // The same shard twice is refused.
    let twice = [
        parts[0].clone(),
        (folder.join("again.kdat"), parts[0].1.clone()),
    ];
    assert!(merge_datasets(&twice, &folder.join("bad.kdat"))
        .unwrap_err()
        .contains("shard 1/3 twice"));
}

/// A small chess run: two batches of 30 pairs at 60 nodes, 40
/// observational games.
fn tiny_settings() -> RunSettings {
    RunSettings {
        batches: 2,
        observational_games: 40,
        pair_terms: vec!['B'],
        seed: 5,
        ..chess_settings()
    }
}

/// The fits of a run, to the last digit (everything but the CPU times,
/// which differ from one playing of the same games to the next).
fn results_json(state: &kurier_tuner::values::run::settings::RunState, folder: &Path) -> String {
    let budgets = results(state, folder).unwrap().budgets;
    for budget in &budgets {
        assert!(
            budget.design.is_some(),
            "no designed fit: {:?}",
            budget.design_error
        );
        assert_eq!(
            budget.observational.is_some(),
            state.header.settings.observational_games > 0,
            "observational fit: {:?}",
            budget.observational_error
        );
    }
    let fits: Vec<_> = budgets
        .iter()
        .map(|b| {
            (
                &b.design,
                &b.observational,
                &b.progression,
                &b.trades,
                b.outcomes,
            )
        })
        .collect();
    serde_json::to_string(&fits).unwrap()
}

/// Runs `settings` on the `merged` folder of its shards (which plays
/// nothing more) and checks its fits against the one machine's.
fn assert_merged_fits(settings: &RunSettings, merged: &Path, expected: &str) {
    let state = run(settings, merged, None).unwrap();
    assert!(state.waiting.is_none());
    assert_eq!(
        results_json(&state, merged),
        expected,
        "the merged fit differs"
    );
}

/// Writes the report of a chess run in `folder` to `folder/report`: the
/// files written.
fn chess_report(state: &RunState, folder: &Path) -> Vec<PathBuf> {
    write_report(
        &results(state, folder).unwrap(),
        &VerdictRule::default(),
        &[],
        &[],
        &folder.join("report"),
        "chess-values",
    )
    .unwrap()
}

/// A game without its CPU and wall times.
fn essence(games: &[DesignGame]) -> Vec<DesignGame> {
    games
        .iter()
        .map(|g| DesignGame {
            cpu_ms: 0,
            move_ms: Vec::new(),
            ..g.clone()
        })
        .collect()
}

#[test]
fn three_shards_merge_into_exactly_the_one_machine_run() {
    let settings = tiny_settings();
    let root = scratch("shards");
    let single = root.join("single");
    let state = run(&settings, &single, None).unwrap();
    assert!(state.waiting.is_none());
    assert_eq!(state.games.len(), 2 * 30 * 2);
    let expected = results_json(&state, &single);
    // Running it again plays nothing and changes nothing.
    assert_eq!(
        results_json(&run(&settings, &single, None).unwrap(), &single),
        expected
    );

    let shard_folder = |k: usize| root.join(format!("shard{k}"));
    let merged = root.join("merged");
    let shard_settings = |k: usize| RunSettings {
        shard: Some(Shard { index: k, count: 3 }),
        ..settings.clone()
    };
    let journals: Vec<PathBuf> = (1..=3).map(|k| journal_path(&shard_folder(k))).collect();
    // Batch 1: each shard plays its share and waits.
    for k in 1..=3 {
        let state = run(&shard_settings(k), &shard_folder(k), None).unwrap();
        assert!(
            state.waiting.as_deref().unwrap().contains("batch 1"),
            "{:?}",
            state.waiting
        );
    }
    // Batch 2 cannot be planned before the merge: a shard without a base
    // plays nothing more.
    let again = run(&shard_settings(1), &shard_folder(1), None).unwrap();
    assert!(again.waiting.unwrap().contains("batch 1"));
    merge_values(&journals, &merged).unwrap();
    for k in 1..=3 {
        let state = run(&shard_settings(k), &shard_folder(k), Some(&merged)).unwrap();
        assert!(
            state
                .waiting
                .as_deref()
                .is_some_and(|w| w.contains("batch 2"))
                || state.waiting.is_none()
        );
    }
    merge_values(&journals, &merged).unwrap();
    assert_merged_fits(&settings, &merged, &expected);

    // Bad merges: an output that is an input, the same shard twice, a
    // journal of another run, a game outside the plan.
    assert!(merge_values(&journals, &shard_folder(1))
        .unwrap_err()
        .contains("one of the inputs"));
    let twice = [journals[0].clone(), journals[0].clone()];
    assert!(merge_values(&twice, &root.join("twice"))
        .unwrap_err()
        .contains("does not complete"));
    let other = root.join("other");
    let other_settings = RunSettings {
        seed: 6,
        shard: Some(Shard { index: 2, count: 3 }),
        batches: 1,
        observational_games: 0,
        ..settings.clone()
    };
    run(&other_settings, &other, None).unwrap();
    let mixed = [journals[0].clone(), journal_path(&other)];
    let error = merge_values(&mixed, &root.join("mixed")).unwrap_err();
    assert!(
        error.contains("other settings") && error.contains("seed"),
        "{error}"
    );
    assert!(merge_values(&[journal_path(&single)], &root.join("x"))
        .unwrap_err()
        .contains("not a shard"));
}

#[test]
fn a_run_until_verdicts_stops_when_every_verdict_is_in_and_shards_merge_into_it() {
    // A test of the run (its stop, its shards), not of the statistics
    // (tests/verdicts.rs): at 60 nodes a pawn is barely told from
    // nothing in a few hundred games, so the rule is lax (an error rate
    // of 90%, a tolerance of 100 pawns) and every value is confirmed as
    // soon as its interval is bounded, after three batches here.
    let rule = VerdictRule {
        alpha: 0.9,
        tolerance: Some(100.0),
    };
    let settings = RunSettings {
        batches: 6,
        observational_games: 0,
        until_verdicts: Some(rule),
        ..tiny_settings()
    };
    let root = scratch("until-verdicts");
    let single = root.join("single");
    let state = run(&settings, &single, None).unwrap();
    assert!(state.waiting.is_none());
    let played = state.games.iter().map(|g| g.batch).max().unwrap();
    assert_eq!(state.games.len(), played as usize * 2 * 30);
    let results = results(&state, &single).unwrap();
    let verdicts = budget_verdicts(&results, &results.budgets[0], &rule).unwrap();
    // It stopped at the first look where every verdict was in, before
    // its cap.
    assert!(played < 6, "played all {played} batches: {verdicts:?}");
    assert!(
        verdicts.pawns.iter().all(|v| v.verdict.decided()),
        "{verdicts:?}"
    );
    assert_eq!(
        verdicts.pawns.iter().map(|v| v.batch).max(),
        Some(played),
        "{verdicts:?}"
    );
    let expected = results_json(&state, &single);

    // Two shards, merged after every batch, play the same games and stop
    // at the same batch.
    let shard_folder = |k: usize| root.join(format!("shard{k}"));
    let shard_settings = |k: usize| RunSettings {
        shard: Some(Shard { index: k, count: 2 }),
        ..settings.clone()
    };
    let journals: Vec<PathBuf> = (1..=2).map(|k| journal_path(&shard_folder(k))).collect();
    let merged = root.join("merged");
    let mut base: Option<PathBuf> = None;
    for _ in 0..=played {
        for k in 1..=2 {
            run(&shard_settings(k), &shard_folder(k), base.as_deref()).unwrap();
        }
        merge_values(&journals, &merged).unwrap();
        base = Some(merged.clone());
    }
    assert_merged_fits(&settings, &merged, &expected);
}

#[test]
fn a_run_grows_by_a_budget_and_is_then_the_run_that_had_it_from_the_start() {
    let first = RunSettings {
        batches: 1,
        observational_games: 0,
        ..tiny_settings()
    };
    let grown = RunSettings {
        budgets: vec![60, 120],
        ..first.clone()
    };
    let root = scratch("grown");
    // The run with both budgets from the start: the independent result.
    let at_once = root.join("at-once");
    let expected_state = run(&grown, &at_once, None).unwrap();
    let expected = results_json(&expected_state, &at_once);

    // One machine: the first budget, then the second added.
    let single = root.join("single");
    let before = run(&first, &single, None).unwrap();
    assert_eq!(before.games.len(), 60);
    let kept = std::fs::read_to_string(journal_path(&single)).unwrap();
    let after = run(&grown, &single, None).unwrap();
    assert_eq!(after.games.len(), 120);
    let journal = std::fs::read_to_string(journal_path(&single)).unwrap();
    // The first budget's games stay as they were written, line for line.
    let records = |text: &str| text.lines().skip(1).map(str::to_string).collect::<Vec<_>>();
    assert_eq!(records(&journal)[..60], records(&kept)[..]);
    assert!(journal
        .lines()
        .next()
        .unwrap()
        .contains("\"budgets\":[60,120]"));
    assert_eq!(results_json(&after, &single), expected);
    // Read for judging designs (`RunRows`): one budget at a time.
    let journal_file = journal_path(&single).to_string_lossy().to_string();
    let error = RunRows::read(&journal_file, None).unwrap_err();
    assert!(error.contains("2 budgets ([60, 120])"), "{error}");
    for (index, nodes) in [(0, 60), (1, 120)] {
        let rows = RunRows::read(&journal_file, Some(nodes)).unwrap();
        let games: Vec<_> = after.games.iter().filter(|g| g.budget == index).collect();
        assert_eq!(rows.rows.len(), games.len());
        let plies: usize = games.iter().map(|g| g.moves.len()).sum();
        assert_eq!(rows.plies_per_game, plies as f64 / games.len() as f64);
    }
    let error = RunRows::read(&journal_file, Some(240)).unwrap_err();
    assert!(error.contains("no games at 240 nodes"), "{error}");
    // Its verdicts: each budget's table in full, the largest first, then
    // the verdicts against the budget.
    let tables = verdict_tables(&results(&after, &single).unwrap(), &VerdictRule::default());
    let at = |text: &str| {
        tables
            .find(text)
            .unwrap_or_else(|| panic!("no {text}: {tables}"))
    };
    assert!(at("Verdicts at 120 nodes") < at("Verdicts at 60 nodes"));
    assert!(at("Verdicts at 60 nodes") < at("Verdicts against the search budget"));
    // Its values files: the largest budget's, and the smaller one's
    // beside it, each saying which budget it holds.
    let written = chess_report(&after, &single);
    let file = |name: &str| {
        let path = written.iter().find(|p| p.ends_with(name));
        std::fs::read_to_string(path.unwrap_or_else(|| panic!("no {name}: {written:?}"))).unwrap()
    };
    assert!(file("chess-values.toml").contains("120 nodes"));
    assert!(file("chess-values-60.toml").contains("60 nodes"));
    assert!(!written.iter().any(|p| p.ends_with("chess-values-120.toml")));
    // A budget taken away, or put before the others, is another run.
    for budgets in [vec![60], vec![120, 60]] {
        let other = RunSettings {
            budgets,
            ..first.clone()
        };
        let error = run(&other, &single, None).unwrap_err();
        assert!(
            error.contains("other settings") && error.contains("budgets"),
            "{error}"
        );
    }
    // Growing again is growing.
    let third = RunSettings {
        budgets: vec![60, 120, 240],
        ..first.clone()
    };
    assert_eq!(run(&third, &single, None).unwrap().games.len(), 180);

    // Two shards merged after the first budget, grown with the merged
    // folder as their base, merge into the run that had both.
    let shard_folder = |k: usize| root.join(format!("shard{k}"));
    let shard = |settings: &RunSettings, k: usize| RunSettings {
        shard: Some(Shard { index: k, count: 2 }),
        ..settings.clone()
    };
    let journals: Vec<PathBuf> = (1..=2).map(|k| journal_path(&shard_folder(k))).collect();
    let merged = root.join("merged");
    for k in 1..=2 {
        run(&shard(&first, k), &shard_folder(k), None).unwrap();
    }
    merge_values(&journals, &merged).unwrap();
    // A shard grown alone does not merge with one that was not.
    run(&shard(&grown, 1), &shard_folder(1), Some(&merged)).unwrap();
    let error = merge_values(&journals, &root.join("half")).unwrap_err();
    assert!(error.contains("budgets"), "{error}");
    run(&shard(&grown, 2), &shard_folder(2), Some(&merged)).unwrap();
    let merged_grown = root.join("merged-grown");
    merge_values(&journals, &merged_grown).unwrap();
    assert_merged_fits(&grown, &merged_grown, &expected);
}

#[test]
fn a_run_refuses_other_settings_other_builds_and_other_variants() {
    let settings = RunSettings {
        batches: 1,
        observational_games: 0,
        ..tiny_settings()
    };
    let folder = scratch("refusals");
    let state = run(&settings, &folder, None).unwrap();
    assert_eq!(state.games.len(), 60);
    // Kill in the middle of writing a game: the torn line is dropped and
    // the game played again, the others kept.
    let path = journal_path(&folder);
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let torn = format!(
        "{}\n{}",
        lines[..lines.len() - 1].join("\n"),
        &lines[lines.len() - 1][..40]
    );
    std::fs::write(&path, torn).unwrap();
    let resumed = run(&settings, &folder, None).unwrap();
    assert_eq!(essence(&resumed.games), essence(&state.games));
    // Other settings for the folder.
    let more = RunSettings {
        seed: 99,
        ..settings.clone()
    };
    let error = run(&more, &folder, None).unwrap_err();
    assert!(
        error.contains("other settings") && error.contains("seed"),
        "{error}"
    );
    // A folder of another variant.
    let courier = RunSettings {
        variant: "courier".to_string(),
        ..settings.clone()
    };
    let error = run(&courier, &folder, None).unwrap_err();
    assert!(error.contains("a run of chess, not of courier"), "{error}");
    // A build whose design plans otherwise, then one that searches
    // differently: the journal's header as they would have written it.
    let journal = std::fs::read_to_string(&path).unwrap();
    let header_as = |field: &str, value: serde_json::Value| {
        let mut header: serde_json::Value =
            serde_json::from_str(journal.lines().next().unwrap()).unwrap();
        let recorded = header["settings"].as_object_mut().unwrap();
        match value {
            serde_json::Value::Null => recorded.remove(field),
            value => recorded.insert(field.to_string(), value),
        };
        let rest: Vec<&str> = journal.lines().skip(1).collect();
        std::fs::write(&path, format!("{}\n{}\n", header, rest.join("\n"))).unwrap();
    };
    header_as("design", serde_json::json!(DESIGN_VERSION + 1));
    let error = run(&settings, &folder, None).unwrap_err();
    assert!(
        error.contains("another version of the design")
            && error.contains(&format!("design {}", DESIGN_VERSION + 1)),
        "{error}"
    );
    // A journal from before the design was recorded goes on.
    header_as("design", serde_json::json!(null));
    let resumed = run(&settings, &folder, None).unwrap();
    assert_eq!(essence(&resumed.games), essence(&state.games));
    // A build that searches alike but evaluates otherwise (weights no
    // bench position reaches), and a journal that does not say which
    // weights played it: neither goes on.
    header_as("weights_fingerprint", serde_json::json!("0123456789abcdef"));
    let error = run(&settings, &folder, None).unwrap_err();
    assert!(
        error.contains("other evaluation weights") && error.contains("weights 0123456789abcdef"),
        "{error}"
    );
    header_as("weights_fingerprint", serde_json::json!(null));
    let error = run(&settings, &folder, None).unwrap_err();
    assert!(error.contains("weights not recorded"), "{error}");
    header_as("search_signature", serde_json::json!(1));
    let error = run(&settings, &folder, None).unwrap_err();
    assert!(error.contains("searches differently"), "{error}");
    // The report's values file loads in the engine.
    let report = chess_report(&state, &folder);
    let values_file = report
        .iter()
        .find(|p| p.extension().is_some_and(|e| e == "toml"))
        .unwrap();
    let params =
        EvalParams::from_values_file(&Variant::built_in("chess").unwrap(), values_file).unwrap();
    assert_eq!(params.piece_value(5), Pair(100, 100));
    // Every file the report links to is one it wrote (this run has no
    // observational games, so no observational values file).
    let markdown = std::fs::read_to_string(folder.join("report/chess-values.md")).unwrap();
    // The chess report measures its pawn against Kaufman's pieces.
    assert!(markdown.contains("The pawn's unit"), "{markdown}");
    let written: Vec<String> = report
        .iter()
        .filter_map(|p| p.file_name()?.to_str().map(str::to_string))
        .collect();
    for link in markdown.split("](").skip(1) {
        let target = link.split(')').next().unwrap();
        assert!(
            written.iter().any(|w| w == target),
            "links to unwritten {target}"
        );
    }
    assert!(!markdown.contains("-observational.toml"));
}

#[test]
fn a_run_designed_at_given_values_records_them_and_plays_pawn_odds() {
    let folder = scratch("design-values");
    let file = folder.join("design.toml");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(
        &file,
        "variant = \"chess\"\n[values]\nP = 100\nN = 300\nB = 350\nR = 450\nQ = 1000\n",
    )
    .unwrap();
    let settings = RunSettings {
        batches: 1,
        observational_games: 0,
        design_values: Some(RecordedFile::read(&file).unwrap().0),
        ..tiny_settings()
    };
    let state = run(&settings, &folder, None).unwrap();
    let types = &state.header.types;
    let recorded = state.header.design_values.clone().unwrap();
    for (letter, value) in [('P', 1.0), ('N', 3.0), ('B', 3.5), ('R', 4.5), ('Q', 10.0)] {
        assert_eq!(recorded[types.by_letter(letter).unwrap()], value);
    }
    // A tenth of the 30 pairs are pawn odds: side A loses 2 to 4 pawns
    // (half of chess's 4 a side, up to all of them), side B nothing.
    let odds_games = |games: &[DesignGame]| {
        let odds: Vec<&DesignGame> = games
            .iter()
            .filter(|g| g.trade.b_loses.is_empty())
            .collect();
        assert!(odds
            .iter()
            .all(|g| g.trade.a_loses.iter().all(|&t| t == types.pawn)
                && (2..=4).contains(&g.trade.a_loses.len())));
        odds.len()
    };
    assert_eq!(state.header.design, DESIGN_VERSION);
    assert_eq!(odds_games(&state.games), 2 * 3);
    // A run that a build of design version 2 started goes on as version
    // 2 plans it (a fifth pawn odds; `merge` checks a run's games against
    // the plans of its recorded version the same way).
    let old_folder = scratch("design-values-version-2");
    let old_path = journal_path(&old_folder);
    std::fs::create_dir_all(&old_folder).unwrap();
    let journal = std::fs::read_to_string(journal_path(&folder)).unwrap();
    let mut header: serde_json::Value =
        serde_json::from_str(journal.lines().next().unwrap()).unwrap();
    header["settings"]["design"] = serde_json::json!(2);
    std::fs::write(&old_path, format!("{header}\n")).unwrap();
    let old = run(&settings, &old_folder, None).unwrap();
    assert_eq!(old.header.design, 2);
    assert_eq!(odds_games(&old.games), 2 * 6);
    // The report says what chose the trades.
    chess_report(&state, &folder);
    let markdown = std::fs::read_to_string(folder.join("report/chess-values.md")).unwrap();
    assert!(
        markdown.contains(&format!(
            "The trades (design version {DESIGN_VERSION}) were chosen at the values of `{}` (Q 10.00, R 4.50, B 3.50, N 3.00)",
            file.display()
        )),
        "{markdown}"
    );
    // The file changed: the run does not go on with other values.
    std::fs::write(
        &file,
        "variant = \"chess\"\n[values]\nP = 100\nN = 300\nB = 300\nR = 500\nQ = 900\n",
    )
    .unwrap();
    let error = run(&settings, &folder, None).unwrap_err();
    assert!(
        error.contains("design.toml") && error.contains("changed since the run started"),
        "{error}"
    );
}

/// A run whose engine values were estimated from the pieces' moves says so
/// in its report and measures against the estimate: the committed
/// Courier-Spiel run (played with a values file), read back as it is and
/// then as if its values had been estimated.
#[test]
fn a_report_says_when_the_engine_values_are_estimated() {
    let text = include_str!("../../reports/courier-spiel-values-results.json");
    let given = RunResults::parse(text, "courier-spiel-values-results.json").unwrap();
    // Results written before the record existed read as not estimated.
    assert!(!given.header.engine_values_estimated);
    let markdown = report::markdown(&given, &VerdictRule::default(), &[], &[], "spiel");
    assert!(!markdown.contains("Engine values: estimated"), "{markdown}");
    assert!(markdown.contains("| piece | suggested |"), "{markdown}");
    let mut estimated = given.clone();
    estimated.header.engine_values_estimated = true;
    let markdown = report::markdown(&estimated, &VerdictRule::default(), &[], &[], "spiel");
    // The engine's values as the committed file records them, pawn first.
    assert!(
        markdown.contains(
            "\nEngine values: estimated from mobility (no values file): P 1.00, Q 9.50, R 5.00, \
             N 3.00, C 3.50, B 1.50, F 3.00, U 6.50.\n"
        ),
        "{markdown}"
    );
    assert!(markdown.contains("| piece | estimated |"), "{markdown}");
    // The verdict table judges the estimate.
    assert!(
        markdown.contains("| piece | estimated | in pawns (simultaneous interval) | verdict |"),
        "{markdown}"
    );
    assert!(
        values_tables(&estimated).starts_with("Engine values: estimated from mobility"),
        "the values command prints it too"
    );
}
