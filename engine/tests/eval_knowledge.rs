//! The evaluation's rules knowledge, position by position: a pawn is
//! never worth more than what it can become, the mop-up terms never count
//! against the side ahead and grow with the lead instead of switching on,
//! and endgames the stronger side cannot win score near a draw.

use kurier_engine::eval::evaluate::{EvalParams, Evaluator};
use kurier_engine::position::any_game::AnyGame;
use kurier_engine::position::state::Position;
use kurier_engine::search::alpha_beta::search;
use kurier_engine::search::history::SearchHistories;
use kurier_engine::search::interface::{Config, Control, Limits};
use kurier_engine::search::tt::TranspositionTable;
use kurier_engine::variant::definition::Variant;
use kurier_engine::with_game;

/// The static evaluation of `fen` from White's point of view, with the
/// variant's default parameters changed by `edit` (applied to their TOML).
fn white_eval_with(variant: &str, fen: &str, edit: &dyn Fn(String) -> String) -> i32 {
    let game = AnyGame::built_in(variant).unwrap();
    with_game!(&game, g => {
        let position = Position::from_fen(g.clone(), fen).unwrap();
        let defaults = EvalParams::for_variant(&g.variant).unwrap();
        let params = EvalParams::from_toml(&g.variant, &edit(defaults.to_toml()), "test").unwrap();
        let score = Evaluator::new(g, params).evaluate(&position);
        if fen.split(' ').nth(1) == Some("w") { score } else { -score }
    })
}

fn white_eval(variant: &str, fen: &str) -> i32 {
    white_eval_with(variant, fen, &|text| text)
}

/// The parameters' TOML with the three mop-up weights (edge, kings,
/// squares taken) set to `weights`, middlegame and endgame alike.
fn with_mop_up(text: String, weights: [i32; 3]) -> String {
    let names = ["mop_up_edge ", "mop_up_kings ", "mop_up_king_squares "];
    text.lines()
        .map(
            |line| match names.iter().position(|name| line.starts_with(name)) {
                Some(index) => {
                    let weight = weights[index];
                    format!("{}= [{weight}, {weight}]", names[index])
                }
                None => line.to_string(),
            },
        )
        .collect::<Vec<_>>()
        .join("\n")
}

/// The parameters' TOML with the three mop-up weights set to zero.
fn without_mop_up(text: String) -> String {
    with_mop_up(text, [0, 0, 0])
}

/// The parameters' TOML with the hand-set mop-up weights: 10 cp a step
/// toward the edge, 5 a step of the kings' approach, 4 a square taken.
fn hand_set_mop_up(text: String) -> String {
    with_mop_up(text, [10, 5, 4])
}

#[test]
fn promoting_always_gains() {
    // The same position before and after the promotion, Black to move
    // in both, for each variant's best promotion (a pawn one step away,
    // a passed pawn: nothing can stop it).
    let cases = [
        (
            "courier",
            "10k1/2P9/10p1/12/9P2/12/5K6/12 b - - 0 1",
            "2F7k1/12/10p1/12/9P2/12/5K6/12 b - - 0 1",
        ),
        (
            "courier-moderno",
            "10k1/2P9/10p1/12/9P2/12/5K6/12 b - - 0 1",
            "2F7k1/12/10p1/12/9P2/12/5K6/12 b - - 0 1",
        ),
        (
            "enhanced-courier",
            "10k1/2P9/10p1/12/9P2/12/5K6/12 b - - 0 1",
            "2G7k1/12/10p1/12/9P2/12/5K6/12 b - - 0 1",
        ),
        (
            "chess",
            "6k1/2P5/6p1/8/5P2/8/5K2/8 b - - 0 1",
            "2Q3k1/8/6p1/8/5P2/8/5K2/8 b - - 0 1",
        ),
        (
            "excoco",
            "16k1/2P15/16p1/18/18/18/18/18/5K12/18 b - - 0 1",
            "2Q13k1/18/16p1/18/18/18/18/18/5K12/18 b - - 0 1",
        ),
    ];
    for (variant, pawn, promoted) in cases {
        let before = white_eval(variant, pawn);
        let after = white_eval(variant, promoted);
        assert!(
            after > before,
            "{variant}: the pawn one step away scores {before}, the promoted piece {after}"
        );
    }
}

#[test]
fn every_pawn_bonus_stays_below_the_best_promotion() {
    // Read back from the TOML each variant's pawn, advance and passed
    // weights and the promotion types' values, and check the sum on every
    // rank, in both phases.
    for name in Variant::built_in_names() {
        let variant = Variant::built_in(name).unwrap();
        let params: toml::Value = EvalParams::for_variant(&variant)
            .unwrap()
            .to_toml()
            .parse()
            .unwrap();
        let pair = |value: &toml::Value| -> [i64; 2] {
            let array = value.as_array().unwrap();
            [
                array[0].as_integer().unwrap(),
                array[1].as_integer().unwrap(),
            ]
        };
        let material = &params["material"];
        let pawn = pair(&material["P"]);
        let best = |phase: usize| {
            variant
                .promotion_types
                .iter()
                .map(|&t| pair(&material[&variant.pieces[t].letter.to_string()])[phase])
                .max()
                .unwrap()
        };
        let advance = params["pawn_rank"].as_array().unwrap();
        let passed = params["passed_pawn"].as_array().unwrap();
        for rank in 0..usize::from(variant.ranks) {
            for (phase, pawn_value) in pawn.into_iter().enumerate() {
                let worth = pawn_value + pair(&advance[rank])[phase] + pair(&passed[rank])[phase];
                assert!(
                    worth < best(phase),
                    "{name}: a passed pawn on relative rank {rank} is worth {worth} in phase \
                     {phase}, its best promotion {}",
                    best(phase)
                );
            }
        }
    }
}

#[test]
fn the_courier_search_promotes() {
    // The position of issue 11: before the fix no line of a depth-12
    // MultiPV 3 search played c7c8f (the passed-pawn bonus made the pawn
    // worth more than the ferz it becomes).
    let game = AnyGame::built_in("courier").unwrap();
    let AnyGame::Narrow(g) = &game else {
        panic!("courier is 12x8")
    };
    let position =
        Position::from_fen(g.clone(), "10k1/2P9/10p1/12/9P2/12/5K6/12 w - - 0 1").unwrap();
    let evaluator = Evaluator::new(g, EvalParams::for_variant(&g.variant).unwrap());
    let tt = TranspositionTable::new(8);
    let limits = Limits {
        depth: Some(12),
        ..Limits::default()
    };
    let config = Config {
        multipv: 3,
        ..Config::default()
    };
    let mut first_moves = Vec::new();
    search(
        &position,
        &evaluator,
        &tt,
        &mut SearchHistories::new(),
        &limits,
        &config,
        &Control::new(false),
        &mut |report| {
            if report.depth == 12 {
                first_moves.push(position.uci(report.pv[0]));
            }
        },
    );
    assert_eq!(first_moves.len(), 3);
    assert!(
        first_moves.iter().any(|m| m == "c7c8f"),
        "lines at depth 12 start with {first_moves:?}"
    );
}

#[test]
fn mop_up_is_exact_in_the_corner_and_never_negative() {
    // ExCoCo, 18x10, King and queen against a bare king (no bare-king rule
    // there). White: king c3, queen r10. Black's king on a1:
    // - toward the edge: the centre is 8 + 4 = 12 steps from a corner,
    //   a1 is 0 steps from the edge, so 12 steps at 10 cp;
    // - kings: the farthest distance is 17, the kings are 2 apart
    //   (a1-c3), so 15 steps at 5 cp;
    // - squares taken: of the king's b1, a2 and b2, only b2 is attacked
    //   (by the king on c3; the queen on r10 reaches none), 1 at 4 cp.
    // The lead (the queen, over 1,200 cp) is past full strength (600):
    // 120 + 75 + 4.
    // The hand-set weights (the fitted file has its own).
    let corner = "17Q/18/18/18/18/18/18/2K15/18/k17 w - - 0 1";
    let with = white_eval_with("excoco", corner, &hand_set_mop_up);
    let without = white_eval_with("excoco", corner, &without_mop_up);
    assert_eq!(with - without, 199, "{corner}");
    // Anywhere else, and for the king in the very centre, never negative.
    for rank in 0..10 {
        for file in 0..18 {
            let next_to_the_king = (file as i32 - 2).abs() <= 1 && (rank as i32 - 2).abs() <= 1;
            if next_to_the_king || (rank, file) == (9, 17) {
                continue;
            }
            let mut rows = vec![vec!['.'; 18]; 10];
            rows[9][17] = 'Q';
            rows[2][2] = 'K';
            rows[rank][file] = 'k';
            let fen = board_fen(&rows) + " b - - 0 1";
            let with = white_eval_with("excoco", &fen, &hand_set_mop_up);
            let without = white_eval_with("excoco", &fen, &without_mop_up);
            assert!(with >= without, "{fen}: mop-up {}", with - without);
        }
    }
}

#[test]
fn no_variant_default_lets_the_mop_up_count_against_the_side_ahead() {
    // Each variant's default weights (all five are fitted ones): king c3
    // and rook on the last square against a bare king anywhere else; the
    // mop-up may add, never take away. A fitted file once had all three
    // weights below zero.
    for (variant, files, ranks) in [
        ("chess", 8, 8),
        ("courier", 12, 8),
        ("courier-moderno", 12, 8),
        ("enhanced-courier", 12, 8),
        ("excoco", 18, 10),
    ] {
        for rank in 0..ranks {
            for file in 0..files {
                let next_to_the_king = (file as i32 - 2).abs() <= 1 && (rank as i32 - 2).abs() <= 1;
                if next_to_the_king || (rank, file) == (ranks - 1, files - 1) {
                    continue;
                }
                let mut rows = vec![vec!['.'; files]; ranks];
                rows[ranks - 1][files - 1] = 'R';
                rows[2][2] = 'K';
                rows[rank][file] = 'k';
                let fen = board_fen(&rows) + " b - - 0 1";
                let with = white_eval(variant, &fen);
                let without = white_eval_with(variant, &fen, &without_mop_up);
                assert!(
                    with >= without,
                    "{variant} {fen}: mop-up {}",
                    with - without
                );
            }
        }
    }
}

/// The placement field of `rows` (rank 1 first, `.` empty).
fn board_fen(rows: &[Vec<char>]) -> String {
    rows.iter()
        .rev()
        .map(|row| {
            let mut out = String::new();
            let mut empty = 0;
            for &c in row {
                if c == '.' {
                    empty += 1;
                } else {
                    if empty > 0 {
                        out += &empty.to_string();
                        empty = 0;
                    }
                    out.push(c);
                }
            }
            if empty > 0 {
                out += &empty.to_string();
            }
            out
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// `text` with the rook at 500, the pawn at 100 (their first lines, the
/// `[material]` section's) and the mop-up weights at 10, 5 and 4 cp.
fn hand_set(text: String) -> String {
    let mut material = ["R = ", "P = "].to_vec();
    let out = text
        .lines()
        .map(|line| {
            if let Some(at) = material.iter().position(|key| line.starts_with(key)) {
                let key = material.remove(at);
                let value = if key == "R = " { 500 } else { 100 };
                return format!("{key}[{value}, {value}]");
            }
            line.to_string()
        })
        .collect::<Vec<_>>()
        .join("\n");
    let out = hand_set_mop_up(out);
    assert!(material.is_empty(), "no material lines in {text}");
    assert!(text.contains("mop_up_start = 200"), "{text}");
    out
}

#[test]
fn mop_up_grows_with_the_lead() {
    // Courier: White king e3 and rook l8 against king a1 and one pawn
    // h7 (the lead, 500 - 100 = 400 cp, is half-way between the default
    // start 200 and full strength 600). Hand count at full strength:
    // toward the edge, the centre is 5 + 3 = 8 steps from a corner and
    // a1 is in one: 8 steps; the kings are 4 apart (a1-e3), the farthest
    // distance is 11: 7 steps; squares taken from the king (a2, b1, b2):
    // none, the rook holds rank 8 and file l, the king e3 is too far.
    // At half strength each count is halved and rounded: 4 steps at 10
    // cp and 4 (3.5 rounded up) at 5 cp, 60 in all.
    // The weights are set here (courier's defaults are fitted ones):
    // rook 500, pawn 100, and the mop-up steps at 10, 5 and 4 cp.
    let fen = "11R/7p4/12/12/12/4K7/12/k11 w - - 0 1";
    let with = white_eval_with("courier", fen, &hand_set);
    let without = white_eval_with("courier", fen, &|text| without_mop_up(hand_set(text)));
    assert_eq!(with - without, 60);
    // Just above the start, almost nothing: set the start to 399.
    let start_just_below =
        |text: String| hand_set(text).replace("mop_up_start = 200", "mop_up_start = 399");
    let with = white_eval_with("courier", fen, &start_just_below);
    let without = white_eval_with("courier", fen, &|text| {
        without_mop_up(start_just_below(text))
    });
    assert!((0..=1).contains(&(with - without)), "{}", with - without);
}

#[test]
fn endgames_without_mating_material_score_near_a_draw() {
    // ExCoCo has no bare-king rule: a lone knight or minister cannot mate.
    for fen in [
        "18/18/18/18/18/5k12/18/18/3N14/8K9 w - - 0 1",
        "18/18/18/18/18/5k12/18/18/3M14/8K9 w - - 0 1",
    ] {
        let score = white_eval("excoco", fen);
        assert!((0..=60).contains(&score), "{fen}: {score}");
    }
    // Chess: king and bishop against king, and rook against bishop.
    let score = white_eval("chess", "8/8/8/4k3/8/8/2B5/4K3 w - - 0 1");
    assert!((0..=60).contains(&score), "K+B vs K: {score}");
    let score = white_eval("chess", "8/8/1b6/4k3/8/8/2R5/4K3 w - - 0 1");
    assert!((0..=40).contains(&score), "K+R vs K+B: {score}");
    // A rook against a bare king, or a queen in ExCoCo, stays winning:
    // not scaled (a scaled score would be an eighth of it), so at least
    // the drawish margin of 400, whatever the fitted rook is worth.
    let score = white_eval("chess", "8/8/8/4k3/8/8/2R5/4K3 w - - 0 1");
    assert!(score >= 400, "K+R vs K: {score}");
    let score = white_eval("excoco", "18/18/18/18/18/5k12/18/18/3Q14/8K9 w - - 0 1");
    assert!(score >= 1200, "K+Q vs K: {score}");
    // With a pawn the stronger side keeps its full score.
    let scaled = white_eval("chess", "8/8/8/4k3/8/8/2B5/4K3 w - - 0 1");
    let full = white_eval("chess", "8/8/8/4k3/8/6P1/2B5/4K3 w - - 0 1");
    assert!(full > 300 + scaled, "scaled {scaled}, with a pawn {full}");
}
