//! SAN: hand-checked strings in set-up positions of every variant, the
//! tolerant reader, its errors, and round trips over random games.
//!
//! Every expected string below was worked out by hand from the position
//! (which pieces reach the square, whether the move checks or mates).

use std::collections::HashSet;
use std::sync::Arc;

use kurier_engine::board::bitboard::Bitboard;
use kurier_engine::position::any_game::AnyGame;
use kurier_engine::position::game::Game;
use kurier_engine::position::rules::Termination;
use kurier_engine::position::state::Position;
use kurier_engine::types::{MoveKind, Square};
use kurier_engine::variant::definition::Variant;
use kurier_engine::with_game;

/// Checks, in `fen` of `variant`, that each UCI move is written as the
/// SAN given and that the SAN reads back as that move.
fn assert_sans(variant: &str, fen: &str, expected: &[(&str, &str)]) {
    let game = AnyGame::built_in(variant).unwrap();
    with_game!(&game, g => {
        let position = Position::from_fen(g.clone(), fen).unwrap();
        for &(uci, san) in expected {
            let played = position
                .parse_uci(uci)
                .unwrap_or_else(|e| panic!("{variant} {fen}: {e}"));
            assert_eq!(position.san(played), san, "{variant} {fen}: {uci}");
            let read = position
                .parse_san(san)
                .unwrap_or_else(|e| panic!("{variant} {fen}: {e}"));
            assert_eq!(position.uci(read), uci, "{variant} {fen}: {san}");
        }
    })
}

/// The UCI of `text` read as SAN in `fen`, or the error message.
fn read_san(variant: &str, fen: &str, text: &str) -> Result<String, String> {
    let game = AnyGame::built_in(variant).unwrap();
    with_game!(&game, g => {
        let position = Position::from_fen(g.clone(), fen).unwrap();
        position
            .parse_san(text)
            .map(|m| position.uci(m))
            .map_err(|e| e.to_string())
    })
}

/// Plays SAN moves from `fen`; returns the UCI of each.
fn play_sans(variant: &str, fen: &str, sans: &[&str]) -> Vec<String> {
    let game = AnyGame::built_in(variant).unwrap();
    with_game!(&game, g => {
        let mut position = Position::from_fen(g.clone(), fen).unwrap();
        sans.iter()
            .map(|san| {
                let played = position
                    .parse_san(san)
                    .unwrap_or_else(|e| panic!("{variant}: {e} after {}", position.fen()));
                let uci = position.uci(played);
                position.make_move(played);
                uci
            })
            .collect()
    })
}

// Three white queens on e4, h4 and h1 all reach e1: h4 shares its file
// with h1 and its rank with e4, so it needs the square; e4 is alone on
// its file; h1 is alone on its rank.
const QUEENS: &str = "1k6/8/8/8/4Q2Q/8/K7/7Q w - - 0 1";

#[test]
fn chess_disambiguation_check_and_mate() {
    assert_sans(
        "chess",
        QUEENS,
        &[
            ("h4e1", "Qh4e1"),
            ("e4e1", "Qee1"),
            ("h1e1", "Q1e1"),
            // e8 checks b8 along the empty rank; a7 stays free.
            ("e4e8", "Qe8+"),
            // b7 is guarded by h1 along the long diagonal once e4 has
            // left it; a8, c8, a7, c7 are all covered by the queen.
            ("e4b7", "Qb7#"),
            // Only e4 reaches d5.
            ("e4d5", "Qd5"),
        ],
    );
}

#[test]
fn chess_pawns_en_passant_and_promotion() {
    let fen = "4k3/1P6/8/3pP3/8/8/8/4K3 w - d6 0 1";
    assert_sans(
        "chess",
        fen,
        &[
            ("e5d6", "exd6"),
            ("e5e6", "e6"),
            // A queen or rook on b8 checks e8 along the empty rank 8.
            ("b7b8q", "b8=Q+"),
            ("b7b8r", "b8=R+"),
            ("b7b8b", "b8=B"),
            ("b7b8n", "b8=N"),
        ],
    );
    let game = AnyGame::built_in("chess").unwrap();
    with_game!(&game, g => {
        let position = Position::from_fen(g.clone(), fen).unwrap();
        let kind = position.parse_san("exd6").unwrap().kind();
        assert_eq!(kind, MoveKind::EnPassant);
    });
}

#[test]
fn chess_castling_both_colours() {
    assert_sans(
        "chess",
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        &[
            ("e1g1", "O-O"),
            ("e1c1", "O-O-O"),
            // The a-file and rank 8 up to e8 are empty.
            ("a1a8", "Rxa8+"),
            ("h1h8", "Rxh8+"),
        ],
    );
    assert_sans(
        "chess",
        "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
        &[("e8g8", "O-O"), ("e8c8", "O-O-O")],
    );
}

#[test]
fn courier_file_disambiguation_promotion_and_mate() {
    // Rooks a1 and l1 both reach the squares between them (the king is
    // on e2); h1 checks the king on h8 up the empty h-file.
    assert_sans(
        "courier",
        "7k4/4P7/12/12/12/12/4K7/R10R w - - 0 1",
        &[
            ("a1h1", "Rah1+"),
            ("l1h1", "Rlh1+"),
            ("a1f1", "Raf1"),
            ("a1a8", "Ra8+"),
            ("l1l8", "Rl8+"),
            ("e7e8f", "e8=F"),
        ],
    );
    // Back-rank mate: the king's own pawns block a7 and b7, the rook
    // covers b8.
    assert_sans(
        "courier",
        "k11/pp10/12/12/12/12/12/5K1R4 w - - 0 1",
        &[("h1h8", "Rh8#"), ("h1h7", "Rh7")],
    );
    // The start position: elephants leap two squares diagonally, the
    // knights and rooks share some of their targets with them.
    let start = Variant::built_in("courier").unwrap().start;
    assert_sans(
        "courier",
        &start,
        &[
            ("c1a3", "Ea3"),
            ("b1a3", "Na3"),
            ("a1a3", "Ra3"),
            ("j1h3", "Eh3"),
            ("c2c3", "c3"),
        ],
    );
}

#[test]
fn courier_moderno_castling_and_elephant_leaps() {
    let fen = "r5k4r/12/12/12/12/12/12/R4K5R w AFLagl - 0 1";
    assert_sans(
        "courier-moderno",
        fen,
        &[
            ("f1c1", "O-O-Oc"),
            ("f1j1", "O-O-Oj"),
            // Rank 8 is empty from a8 to the king on g8.
            ("a1a8", "Rxa8+"),
        ],
    );
    assert_sans(
        "courier-moderno",
        &fen.replace(" w ", " b "),
        &[("g8c8", "O-O-Oc"), ("g8j8", "O-O-Oj")],
    );
    let start = Variant::built_in("courier-moderno").unwrap().start;
    assert_sans(
        "courier-moderno",
        &start,
        &[
            // The unmoved elephant leaps over its own pawns.
            ("c1a3", "Ea3"),
            ("c1c3", "Ec3"),
            ("c1e3", "Ee3"),
            ("b1c3", "Nc3"),
            ("e2e4", "e4"),
        ],
    );
}

#[test]
fn enhanced_courier_rank_disambiguation_gryphon_and_bare_king() {
    // Woody rooks c1 and c5 both leap to c3.
    assert_sans(
        "enhanced-courier",
        "k11/12/12/2W9/12/12/12/2W2K6 w - - 0 1",
        &[
            ("c1c3", "W1c3"),
            ("c5c3", "W5c3"),
            ("c5c7", "Wc7"),
            ("c1c2", "Wc2"),
        ],
    );
    // The gryphon from h1: one step to i2, then up the i-file.
    assert_sans(
        "enhanced-courier",
        "k11/12/12/12/12/12/12/5K1G4 w - - 0 1",
        &[("h1i5", "Gi5"), ("h1g2", "Gg2"), ("h1a2", "Ga2")],
    );
    // Taking Black's last man bares its king and ends the game, with a
    // check that is not mate (b8 and b7 are free): '+', never '#'.
    let fen = "k11/12/12/n11/12/12/12/R4K4W1 w - - 0 1";
    assert_sans("enhanced-courier", fen, &[("a1a5", "Rxa5+")]);
    let AnyGame::Narrow(game) = AnyGame::built_in("enhanced-courier").unwrap() else {
        unreachable!("enhanced-courier is 12x8")
    };
    let mut position = Position::from_fen(game, fen).unwrap();
    position.make_move(position.parse_san("Rxa5").unwrap());
    assert_eq!(
        position.outcome().map(|o| o.termination),
        Some(Termination::BareKing)
    );
}

#[test]
fn excoco_castling_and_recastling() {
    let fen = "t1r5k6r1t/18/18/18/18/18/18/18/18/T1R5K6R1T w ACIPRacipr - 0 1";
    assert_sans(
        "excoco",
        fen,
        &[
            ("i1d1", "O-O-Od"),
            ("i1o1", "O-O-Oo"),
            // Rank 10 is empty from c10 to the king on i10.
            ("c1c10", "Rxc10+"),
        ],
    );
    assert_sans(
        "excoco",
        &fen.replace(" w ", " b "),
        &[("i10d10", "O-O-Od"), ("i10o10", "O-O-Oo")],
    );
    // A king that castled to d1 and kept its right re-castles with the
    // thane: K d1-b1, T a1-c1.
    assert_sans(
        "excoco",
        "8k9/18/18/18/18/18/18/18/18/T2KR13 w AD - 0 1",
        &[("d1b1", "O-O-Ob")],
    );
    // Castling, then re-castling with the thane, behind walls of pawns
    // (so that no castling path is attacked).
    let walls = "t1r5k6r1t/18/pppppppppppppppppp/18/18/18/18/PPPPPPPPPPPPPPPPPP/18/T1R5K6R1T w ACIPRacipr - 0 1";
    assert_eq!(
        play_sans("excoco", walls, &["O-O-Od", "O-O-Oo", "O-O-Ob", "O-O-Oq"]),
        ["i1d1", "i10o10", "d1b1", "o10q10"]
    );
}

#[test]
fn excoco_two_digit_ranks_promotion_and_triple_step_en_passant() {
    // Thanes c10 and c4 (range 3) both reach c7; only c10 reaches c8.
    assert_sans(
        "excoco",
        "2T5k9/18/18/18/18/18/2T15/18/18/8K9 w - - 0 1",
        &[
            ("c10c7", "T10c7"),
            ("c4c7", "T4c7"),
            ("c10c8", "Tc8"),
            ("c4c5", "Tc5"),
        ],
    );
    // Knights d10, f10 and d6 all reach e8: d10 shares its file with d6
    // and its rank with f10.
    assert_sans(
        "excoco",
        "3N1N2k9/18/18/18/3N14/18/18/18/18/8K9 w - - 0 1",
        &[("d10e8", "Nd10e8"), ("d6e8", "N6e8"), ("f10e8", "Nfe8")],
    );
    // A queen or rook on c10 checks i10 along the empty rank; the range-3
    // pieces and the leapers do not reach it.
    assert_sans(
        "excoco",
        "8k9/2P15/18/18/18/18/18/18/18/8K9 w - - 0 1",
        &[
            ("c9c10q", "c10=Q+"),
            ("c9c10r", "c10=R+"),
            ("c9c10d", "c10=D"),
            ("c9c10t", "c10=T"),
            ("c9c10c", "c10=C"),
        ],
    );
    // White's pawn went e3-e6: d6 takes it en passant on e5, f5 on e4.
    assert_sans(
        "excoco",
        "8k9/18/18/18/3pP13/5p12/18/18/18/8K9 b - e4e5 0 1",
        &[
            ("d6e5", "dxe5"),
            ("f5e4", "fxe4"),
            ("d6d5", "d5"),
            ("f5f4", "f4"),
        ],
    );
}

#[test]
fn reader_tolerates_marks_and_variant_forms() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    for text in [
        "Nf3", "Nf3+", "Nf3#", "Nf3!?", "Nf3?!", "Ngf3", "Ng1f3", "Ng1-f3", " Nf3 ",
    ] {
        assert_eq!(
            read_san("chess", start, text).as_deref(),
            Ok("g1f3"),
            "{text}"
        );
    }
    assert_eq!(read_san("chess", start, "Pe4").as_deref(), Ok("e2e4"));
    let pawns = "4k3/1P6/8/3pP3/8/8/8/4K3 w - d6 0 1";
    for (text, uci) in [
        ("ed6", "e5d6"),
        ("exd6 e.p.", "e5d6"),
        ("exd6e.p.", "e5d6"),
        ("b8Q", "b7b8q"),
        ("b8=Q", "b7b8q"),
        ("b8=N!", "b7b8n"),
    ] {
        assert_eq!(read_san("chess", pawns, text).as_deref(), Ok(uci), "{text}");
    }
    let castle = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    assert_eq!(read_san("chess", castle, "0-0").as_deref(), Ok("e1g1"));
    assert_eq!(read_san("chess", castle, "0-0-0+").as_deref(), Ok("e1c1"));
    assert_eq!(
        read_san("chess", QUEENS, "Qh4xe1"),
        Err("move 'Qh4xe1': no queen of the side to move can go to e1 as written".to_string())
    );
}

#[test]
fn reader_errors_say_why() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let error = |variant: &str, fen: &str, text: &str| read_san(variant, fen, text).unwrap_err();
    let ambiguous = error("chess", QUEENS, "Qe1");
    assert!(
        ambiguous.contains("ambiguous")
            && ambiguous.contains("Qh4e1")
            && ambiguous.contains("Qee1")
            && ambiguous.contains("Q1e1"),
        "{ambiguous}"
    );
    let by_file = error("chess", QUEENS, "Qhe1");
    assert!(
        by_file.contains("Qh4e1") && by_file.contains("Q1e1"),
        "{by_file}"
    );
    assert!(error("chess", start, "Nf6").contains("no knight"));
    assert!(error("chess", start, "Zf3").contains("'Z' is not a piece letter of chess"));
    assert!(error("chess", start, "e9").contains("square of the 8x8 board"));
    assert!(error("chess", start, "").contains("no move"));
    assert!(error("chess", start, "+").contains("no move"));
    assert!(error("chess", start, "O-O").contains("not legal in this position"));
    assert!(error("chess", start, "O-O-Oc").contains("not a castling of chess"));
    assert!(error("chess", start, "Nz1f3").contains("'z1'"));
    assert!(error("chess", start, "Né3").contains("square"));
    assert!(error("chess", start, "é").contains("square"));
    let pawns = "4k3/1P6/8/3pP3/8/8/8/4K3 w - d6 0 1";
    assert!(error("chess", pawns, "b8").contains("promotion piece is missing"));
    assert!(error("chess", pawns, "b8=K").contains("no pawn"));
    assert!(error("chess", pawns, "b8=QR").contains("'=QR'"));
    // A capture mark on a quiet move does not fit.
    assert!(error("chess", pawns, "exe6").contains("no pawn"));
    assert!(error(
        "courier",
        &Variant::built_in("courier").unwrap().start,
        "O-O"
    )
    .contains("not a castling of courier (it has: none)"));
}

/// A small deterministic generator (xorshift64*), so every run plays the
/// same games.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    fn below(&mut self, bound: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % bound as u64) as usize
    }
}

/// In every position of a few random games: all legal moves have
/// different SAN, each reads back as itself (also without its check sign
/// and capture mark), `+`/`#` agree with the rules module, and castling
/// is written as the variant file names it.
fn round_trip<B: Bitboard>(game: &Arc<Game<B>>, seeds: std::ops::Range<u64>, plies: usize) {
    let mut checked = 0usize;
    for seed in seeds {
        let mut rng = Rng::new(seed);
        let mut position = Position::startpos(game.clone());
        for _ in 0..plies {
            let moves = position.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mut seen = HashSet::new();
            for &m in &moves {
                let san = position.san(m);
                let context = || format!("{} in {}", position.uci(m), position.fen());
                assert!(seen.insert(san.clone()), "{san} twice: {}", context());
                assert_eq!(position.parse_san(&san), Ok(m), "{san}: {}", context());
                let bare = san.trim_end_matches(['+', '#']).replace('x', "");
                assert_eq!(position.parse_san(&bare), Ok(m), "{bare}: {}", context());
                let mut after = position.clone();
                after.make_move(m);
                let mate = after.outcome().map(|o| o.termination) == Some(Termination::Checkmate);
                assert_eq!(san.ends_with('#'), mate, "{san}: {}", context());
                assert_eq!(
                    san.ends_with('+'),
                    after.in_check() && !mate,
                    "{san}: {}",
                    context()
                );
                if m.kind() == MoveKind::Castling {
                    assert_eq!(san, game.variant.castlings[usize::from(m.extra())].san);
                } else {
                    let to = game.geometry.square_name(Square::new(m.to()));
                    assert!(san.contains(&to), "{san} does not name {to}");
                }
                checked += 1;
            }
            position.make_move(moves[rng.below(moves.len())]);
        }
    }
    assert!(checked > 1000, "only {checked} moves checked");
}

#[test]
fn round_trip_over_random_games_in_every_variant() {
    for name in Variant::built_in_names() {
        let game = AnyGame::built_in(name).unwrap();
        let plies = if name == "excoco" { 120 } else { 160 };
        with_game!(&game, g => round_trip(g, 0..4, plies));
    }
}
