//! The piece-value tuner: the fit and its bootstrap on synthetic data with
//! known true values, the dataset file, the Texel fit, position
//! selection, game generation and resumption, and the report's values
//! file.

use std::path::PathBuf;

use kurier_engine::bitboard::Bitboard;
use kurier_engine::eval::{EvalParams, Evaluator, Pair};
use kurier_engine::game::AnyGame;
use kurier_engine::geometry::Color;
use kurier_engine::position::Position;
use kurier_engine::rules::GameResult;
use kurier_engine::variant::Variant;
use kurier_tuner::openings::Rng;
use kurier_tuner::values::bootstrap::{bootstrap_material, Interval, MaterialIntervals};
use kurier_tuner::values::dataset::{
    Dataset, DatasetInfo, DatasetWriter, FeatureEntry, GamePositions, PositionRecord, MAX_TYPES,
};
use kurier_tuner::values::fit::{fit_material, material_design, sigmoid, MaterialOptions};
use kurier_tuner::values::generate::{describe_position, generate, is_quiet, GenerationPlan};
use kurier_tuner::values::imbalance::{calibration_odds, odds_position, piece_odds};
use kurier_tuner::values::iterate::{
    journal_path, playable_values, run, Journal, RoundRecord, RunSettings,
};
use kurier_tuner::values::report::write_report;
use kurier_tuner::values::synthetic::{draw_result, synthetic_material};
use kurier_tuner::values::texel::{fit_scale, fit_texel, texel_design, TexelOptions};
use kurier_tuner::values::{PieceTypes, Values, SIGNATURE_DEPTH};

/// A fresh scratch folder under the target directory.
fn scratch(name: &str) -> PathBuf {
    let folder = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("values-{name}"));
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).unwrap();
    folder
}

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
        round: 1,
    }
}

/// Synthetic chess material data (see `synthetic_material`).
fn synthetic_chess(truth: &Values, games: u32, positions: usize, seed: u64) -> Dataset {
    synthetic_material("chess", &chess_types(), truth, 0.4, games, positions, seed)
}

/// Chess-like true values by type (K Q R B N P).
fn chess_truth() -> Values {
    vec![0.0, 9.0, 5.0, 3.5, 3.0, 1.0]
}

fn no_penalty() -> MaterialOptions {
    MaterialOptions {
        l2: 0.0,
        prior: vec![0.0; 6],
    }
}

fn fit_with_intervals(
    dataset: &Dataset,
    resamples: usize,
    seed: u64,
) -> (Values, f64, MaterialIntervals) {
    let types = chess_types();
    let design = material_design(dataset, &types);
    let fit = fit_material(&design, &types, &no_penalty(), None, None).unwrap();
    let intervals = bootstrap_material(&design, &types, &no_penalty(), &fit, resamples, seed);
    (fit.values, fit.scale, intervals)
}

#[test]
fn the_fit_recovers_known_values_within_its_intervals() {
    let truth = chess_truth();
    let dataset = synthetic_chess(&truth, 3000, 4, 11);
    let (values, scale, intervals) = fit_with_intervals(&dataset, 100, 5);
    let types = chess_types();
    let pieces = types.pieces();
    // Each 95% interval misses with probability 5%; all four pieces
    // inside the interval widened by half its width (about 3 standard
    // errors each side) fails with probability below 1%, and at most one
    // miss of the plain intervals happens with probability above 98%.
    let mut misses = 0;
    for &t in &pieces {
        let interval = intervals.values[t].unwrap();
        let widened = Interval {
            low: interval.low - interval.half_width() / 2.0,
            high: interval.high + interval.half_width() / 2.0,
        };
        assert!(
            widened.contains(truth[t]),
            "{}: {} not in {:?} (fit {})",
            types.letters[t],
            truth[t],
            interval,
            values[t]
        );
        misses += usize::from(!interval.contains(truth[t]));
        // The point estimate lies inside its own interval.
        assert!(interval.contains(values[t]));
    }
    assert!(
        misses <= 1,
        "{misses} of 4 true values outside their 95% interval"
    );
    assert!(
        intervals.scale.unwrap().contains(0.4) || (scale - 0.4).abs() < 0.04,
        "scale {scale}"
    );
    assert_eq!(values[types.pawn], 1.0);
    assert_eq!(intervals.failed, 0);
}

#[test]
fn bootstrap_intervals_cover_the_truth_at_about_the_stated_rate() {
    // 40 independent synthetic data sets of 400 games (2 positions each),
    // 4 piece values each: 160 intervals of nominal 95% coverage. The
    // percentile bootstrap at this size covers a little less than
    // nominal; even 90% true coverage puts 85% (136 of 160) more than
    // two standard deviations (2.4% each, fewer effective samples since
    // the four intervals of one data set are correlated) below, so the
    // band 85-100% tests the method without being at the mercy of the
    // seed. A bootstrap over positions instead of games would cover
    // about 84% here (standard errors too small by sqrt(2)).
    let truth = chess_truth();
    let types = chess_types();
    let pieces = types.pieces();
    let mut covered = 0;
    let mut total = 0;
    for replication in 0..40 {
        let dataset = synthetic_chess(&truth, 400, 2, 1000 + replication);
        let (_, _, intervals) = fit_with_intervals(&dataset, 100, replication);
        for &t in &pieces {
            total += 1;
            covered += usize::from(intervals.values[t].unwrap().contains(truth[t]));
        }
    }
    let rate = covered as f64 / total as f64;
    assert!((0.85..=1.0).contains(&rate), "coverage {covered}/{total}");
}

#[test]
fn the_l2_penalty_pulls_toward_the_prior() {
    // Little data, a strong pull and a prior 3 pawns above every true
    // value: each value moves from the free fit toward the prior.
    let truth = chess_truth();
    let types = chess_types();
    let dataset = synthetic_chess(&truth, 150, 1, 77);
    let design = material_design(&dataset, &types);
    let free = fit_material(&design, &types, &no_penalty(), None, None).unwrap();
    let prior = vec![0.0, 12.0, 8.0, 6.5, 6.0, 1.0];
    let pulled = fit_material(
        &design,
        &types,
        &MaterialOptions {
            l2: 50.0,
            prior: prior.clone(),
        },
        None,
        None,
    )
    .unwrap();
    for t in [1, 2, 3, 4] {
        let before = (free.values[t] - prior[t]).abs();
        let after = (pulled.values[t] - prior[t]).abs();
        assert!(
            after < before,
            "{}: {} -> {} (prior {})",
            types.letters[t],
            free.values[t],
            pulled.values[t],
            prior[t]
        );
    }
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
    writer.append(&games[..2]).unwrap();
    writer.append(&games[2..]).unwrap();
    drop(writer);
    let dataset = Dataset::read(&path).unwrap();
    assert_eq!(dataset.info, info("chess", 6, 42));
    assert_eq!(dataset.games, 3);
    let records: Vec<PositionRecord> = games.iter().flat_map(|g| g.records.clone()).collect();
    assert_eq!(dataset.records, records);
    // Record 3 is game 2's first position; game 2's features are the
    // last six entries, two per record.
    assert_eq!(dataset.features_of(3), &games[2].features[..2]);
    // 64-byte header, two blocks of 24 bytes, 6 records of 28, 12 features of 4.
    assert_eq!(
        std::fs::metadata(&path).unwrap().len(),
        64 + 2 * 24 + 6 * 28 + 12 * 4
    );
}

#[test]
fn broken_datasets_are_refused_with_a_reason() {
    let folder = scratch("broken");
    let path = folder.join("a.kdat");
    let mut writer = DatasetWriter::create(&path, &info("chess", 6, 42)).unwrap();
    let games = sample_games();
    writer.append(&games[..2]).unwrap();
    writer.append(&games[2..]).unwrap();
    drop(writer);
    let bytes = std::fs::read(&path).unwrap();
    let complete_first_block = 64 + 24 + 3 * 28 + 6 * 4;

    // Cut inside the second block: an error that says so, and `resume`
    // keeps the first block only.
    std::fs::write(&path, &bytes[..bytes.len() - 5]).unwrap();
    let error = Dataset::read(&path).unwrap_err().to_string();
    assert!(
        error.contains("truncated or corrupt after byte 196"),
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
    flipped[64 + 24 + 5] ^= 0x40;
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
    // A queen hangs to a pawn: not quiet. The start position: quiet. In check: not quiet.
    let hanging = Position::from_fen(game.clone(), "4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1").unwrap();
    assert!(!is_quiet(&hanging, &evaluator));
    assert!(is_quiet(&Position::startpos(game.clone()), &evaluator));
    let check = Position::from_fen(game.clone(), "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1").unwrap();
    assert!(check.in_check() && !is_quiet(&check, &evaluator));
}

#[test]
fn generation_is_reproducible_and_resumes_where_it_stopped() {
    let game = AnyGame::built_in("chess").unwrap();
    let AnyGame::Narrow(game) = game else {
        panic!("chess fits 128 bits")
    };
    let params = EvalParams::for_variant(&game.variant).unwrap();
    let plan = |games| GenerationPlan {
        games,
        nodes: 150,
        opening_plies: 4,
        skip_plies: 6,
        per_game: 3,
        max_plies: 60,
        seed: 9,
        round: 1,
    };
    let folder = scratch("generate");
    let resumed = folder.join("resumed.kdat");
    let fresh = folder.join("fresh.kdat");
    let mut quiet = |_, _, _| {};
    let first = generate(&game, &params, &plan(16), &resumed, &mut quiet).unwrap();
    assert_eq!((first.dataset.games, first.games_played), (16, 16));
    let more = generate(&game, &params, &plan(20), &resumed, &mut quiet).unwrap();
    assert_eq!((more.dataset.games, more.games_played), (20, 4));
    let once = generate(&game, &params, &plan(20), &fresh, &mut quiet).unwrap();
    assert_eq!(more.dataset, once.dataset);
    for record in &once.dataset.records {
        assert!(record.ply >= 6 && record.result <= 2 && record.game < 20);
    }
    let per_game_max = (0..20)
        .map(|g| once.dataset.records.iter().filter(|r| r.game == g).count())
        .max();
    assert!(per_game_max <= Some(3));
}

fn excoco_journal() -> Journal {
    let variant = Variant::built_in("excoco").unwrap();
    let types = PieceTypes::of(&variant).unwrap();
    let suggested =
        kurier_tuner::values::values_of(&EvalParams::for_variant(&variant).unwrap(), &types);
    // Fitted values: the suggested ones plus 0.123 pawns (pawn 1, king 0).
    let values: Values = (0..types.letters.len())
        .map(|t| {
            if t == types.king {
                0.0
            } else if t == types.pawn {
                1.0
            } else {
                suggested[t] + 0.123
            }
        })
        .collect();
    let intervals = MaterialIntervals {
        resamples: 10,
        failed: 0,
        values: values
            .iter()
            .enumerate()
            .map(|(t, &v)| {
                (t != types.king).then_some(Interval {
                    low: v - 0.5,
                    high: v + 0.5,
                })
            })
            .collect(),
        scale: Some(Interval {
            low: 0.3,
            high: 0.4,
        }),
        tempo: None,
    };
    let settings = RunSettings {
        variant: "excoco".to_string(),
        quick: true,
        games: 10,
        nodes: 100,
        rounds: 1,
        per_game: 8,
        skip_plies: 16,
        opening_plies: 8,
        max_plies: 300,
        bootstrap: 10,
        l2: 0.0,
        texel: false,
        texel_l2: 0.001,
        imbalance_pairs: 0,
        imbalance_pieces: Vec::new(),
        validation_pairs: 0,
        elo0: 0.0,
        elo1: 5.0,
        seed: 1,
    };
    Journal {
        settings,
        engine_version: "test".to_string(),
        search_signature: None,
        suggested: suggested.clone(),
        rounds: vec![RoundRecord {
            round: 1,
            engine_values: suggested,
            games: 10,
            positions: 80,
            values,
            scale: 0.35,
            tempo: 0.1,
            intervals,
            settled: false,
            generation_seconds: 1.0,
            positions_per_second: 80.0,
            fit_seconds: 0.1,
        }],
        types,
        texel: None,
        odds: Vec::new(),
        validation: None,
    }
}

#[test]
fn the_reports_values_file_loads_in_the_engine() {
    let journal = excoco_journal();
    let folder = scratch("report");
    let files = write_report(&journal, &folder, "excoco-values").unwrap();
    let variant = Variant::built_in("excoco").unwrap();
    let params = EvalParams::from_values_file(&variant, &files.values).unwrap();
    // ExCoCo's suggested values plus 12.3 centipawns, rounded: Q 1212,
    // R 712, H/C/D 612, B 512, S/T 412, G/N 312, M/V/E 212; P 100.
    let expected = [
        ('P', 100),
        ('Q', 1212),
        ('R', 712),
        ('H', 612),
        ('C', 612),
        ('D', 612),
        ('B', 512),
        ('S', 412),
        ('T', 412),
        ('G', 312),
        ('N', 312),
        ('M', 212),
        ('V', 212),
        ('E', 212),
    ];
    for (letter, centipawns) in expected {
        let t = variant.type_of_letter(letter).unwrap();
        assert_eq!(
            params.piece_value(t),
            Pair(centipawns, centipawns),
            "{letter}"
        );
    }
    let markdown = std::fs::read_to_string(&files.markdown).unwrap();
    assert!(
        markdown.contains("| piece | suggested | fitted (95% CI) | imbalance-measured (95% CI) |")
    );
    assert!(markdown.contains("| queen (Q) | 12.00 | 12.12 [11.62, 12.62] |"));
    assert!(markdown.contains("![values](excoco-values.svg)"));
    for path in &files.all {
        assert!(path.exists(), "{}", path.display());
    }
    let copy = Journal::read(&folder.join("excoco-values-journal.json")).unwrap();
    assert_eq!(copy, journal);
}

#[test]
fn odds_positions_exist_for_every_piece_of_every_variant() {
    // Every variant's start position is symmetric (vertically or through
    // the centre), so every piece and up to half the pawns can be given
    // as odds, in both colours, leaving a legal position with White to
    // move and the removed men gone.
    for name in Variant::built_in_names() {
        let game = AnyGame::built_in(name).unwrap();
        kurier_engine::with_game!(&game, g => {
            let types = PieceTypes::of(&g.variant).unwrap();
            let start = Position::startpos(g.clone());
            let pawns = start.pieces(Color::White, types.pawn).count() as usize;
            for t in types.pieces() {
                let odds = piece_odds(t, types.pawn, 20.0, pawns);
                assert_eq!(odds.b_lacks.len(), pawns / 2, "{name}: compensation capped at half the pawns");
                for a in [Color::White, Color::Black] {
                    let position = odds_position(g, &odds, a).unwrap_or_else(|e| panic!("{name}: {e}"));
                    let count = |color: Color, t: usize| position.pieces(color, t).count() as i64;
                    let before = |color: Color, t: usize| start.pieces(color, t).count() as i64;
                    assert_eq!(count(a, t), before(a, t) - 1, "{name}");
                    assert_eq!(count(a.flip(), types.pawn), before(a.flip(), types.pawn) - (pawns / 2) as i64, "{name}");
                    assert_eq!(position.side_to_move(), Color::White);
                }
            }
            let calibration = odds_position(g, &calibration_odds(types.pawn, 3), Color::Black).unwrap();
            assert_eq!(calibration.pieces(Color::Black, types.pawn).count() as usize + 3, pawns, "{name}");
        });
    }
}

#[test]
fn a_whole_run_is_journaled_resumes_and_refuses_other_settings() {
    // A tiny chess run: two rounds, the Texel fit, odds matches for the
    // queen (and the three calibration levels), a short validation.
    let mut settings = excoco_journal().settings;
    settings.variant = "chess".to_string();
    settings.games = 16;
    settings.nodes = 100;
    settings.rounds = 2;
    settings.max_plies = 80;
    settings.bootstrap = 8;
    settings.texel = true;
    settings.imbalance_pairs = 1;
    settings.imbalance_pieces = vec!['Q'];
    settings.validation_pairs = 2;
    let folder = scratch("run");
    let journal = run(&settings, &folder).unwrap();
    // Rounds stop at the budget or at the first settled round.
    assert!(!journal.rounds.is_empty() && journal.rounds.len() <= 2);
    assert_eq!(journal.rounds[0].engine_values, journal.suggested);
    if let [first, second] = &journal.rounds[..] {
        assert!(!first.settled);
        assert_eq!(
            second.engine_values,
            playable_values(&first.values, &journal.types)
        );
    }
    assert!(journal.texel.is_some());
    // Calibration at 1, 2, 3 pawns, then the queen against min(10, 8 / 2) pawns.
    let odds: Vec<(Option<usize>, usize)> =
        journal.odds.iter().map(|r| (r.piece, r.pawns)).collect();
    assert_eq!(odds, vec![(None, 1), (None, 2), (None, 3), (Some(1), 4)]);
    let validation = journal.validation.as_ref().unwrap();
    assert!(validation.finished);
    assert_eq!(validation.counts.pairs.iter().sum::<u64>(), 2);
    assert!(folder.join("round-1.kdat").exists());
    // The same command again finds everything done and changes nothing.
    assert_eq!(run(&settings, &folder).unwrap(), journal);
    // The journal records the build's search signature: the node count
    // `kurier bench` reports for chess at that depth.
    let bench = kurier_engine::bench::run(&["chess".to_string()], SIGNATURE_DEPTH, 1, 16).unwrap();
    assert_eq!(journal.search_signature, Some(bench[0].nodes));
    // A run recorded by a build that searches differently is not resumed.
    let path = journal_path(&folder);
    let mut other_build = journal.clone();
    other_build.search_signature = Some(bench[0].nodes + 1);
    other_build.write(&path).unwrap();
    let refused = run(&settings, &folder).unwrap_err();
    assert!(refused.contains("searches differently"), "{refused}");
    journal.write(&path).unwrap();
    // Other settings for the same folder are refused.
    settings.nodes = 101;
    assert!(run(&settings, &folder)
        .unwrap_err()
        .contains("other settings"));
}
