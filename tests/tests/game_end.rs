//! Game end, rule by rule and variant by variant, every expectation taken
//! from `docs/RULES.md` (the sentence is quoted beside it):
//! checkmate, stalemate, K vs K, the bare king and its exception, the
//! fifty-move rule, threefold repetition (with rights and en passant), and
//! the order in which "Game end, precisely" applies them.
//!
//! Positions are written as piece lists (`"Kb6 Rh1 ka8"`: upper case
//! White) and turned into FEN by [`fen`], so that each test shows the
//! men it is about.

use std::sync::Arc;

use kurier_engine::board::bitboard::Bitboard;
use kurier_engine::position::any_game::AnyGame;
use kurier_engine::position::game::Game;
use kurier_engine::position::rules::{GameResult, Outcome, Termination};
use kurier_engine::position::state::Position;
use kurier_engine::with_game;

use Termination::{BareKing, Checkmate, FiftyMoves, KingVersusKing, Repetition, Stalemate};

const VARIANTS: [&str; 5] = [
    "chess",
    "courier",
    "courier-moderno",
    "enhanced-courier",
    "excoco",
];

/// Files and ranks of each variant's board (docs/RULES.md headings).
fn size(variant: &str) -> (usize, usize) {
    match variant {
        "chess" => (8, 8),
        "excoco" => (18, 10),
        "courier" | "courier-moderno" | "enhanced-courier" => (12, 8),
        other => panic!("unknown variant {other}"),
    }
}

/// A FEN: the placement from a piece list (`"Kb6 Rh1 ka8"`, upper case
/// White, squares as in docs/RULES.md: `l8`, `r10`) and the other fields
/// (`rest`: side, rights, en passant, clocks).
fn fen(variant: &str, pieces: &str, rest: &str) -> String {
    let (files, ranks) = size(variant);
    let mut grid = vec![vec![None; files]; ranks];
    for token in pieces.split_whitespace() {
        let letter = token.chars().next().unwrap();
        let square = &token[1..];
        let file = usize::from(square.as_bytes()[0] - b'a');
        let rank: usize = square[1..].parse().unwrap();
        assert!(
            file < files && (1..=ranks).contains(&rank),
            "{token}: off the {variant} board"
        );
        let cell = &mut grid[rank - 1][file];
        assert!(cell.is_none(), "{token}: square used twice");
        *cell = Some(letter);
    }
    let rows: Vec<String> = grid
        .iter()
        .rev()
        .map(|row| {
            let mut text = String::new();
            let mut empty = 0;
            for cell in row {
                match cell {
                    None => empty += 1,
                    Some(letter) => {
                        if empty > 0 {
                            text += &empty.to_string();
                            empty = 0;
                        }
                        text.push(*letter);
                    }
                }
            }
            if empty > 0 {
                text += &empty.to_string();
            }
            text
        })
        .collect();
    format!("{} {rest}", rows.join("/"))
}

/// What the engine says about one position.
#[derive(Clone, Debug)]
struct Snap {
    fen: String,
    key: u64,
    outcome: Option<Outcome>,
    /// `rule_outcome(3)`: rules 2 to 5 with the game's threefold count.
    rule_outcome: Option<Outcome>,
    /// `stalemate_result()`, asked only when there is no legal move and
    /// no check.
    stalemate_result: Option<Outcome>,
    repetitions: usize,
    legal: usize,
    in_check: bool,
    halfmove: u32,
}

fn snap<B: Bitboard>(position: &Position<B>) -> Snap {
    let legal = position.legal_moves().len();
    let in_check = position.in_check();
    Snap {
        fen: position.fen(),
        key: position.key(),
        outcome: position.outcome(),
        rule_outcome: position.rule_outcome(3),
        stalemate_result: (legal == 0 && !in_check).then(|| position.stalemate_result()),
        repetitions: position.repetitions(),
        legal,
        in_check,
        halfmove: position.halfmove_clock(),
    }
}

fn walk_in<B: Bitboard>(game: &Arc<Game<B>>, fen: &str, moves: &[&str]) -> Vec<Snap> {
    let mut position = Position::from_fen(game.clone(), fen)
        .unwrap_or_else(|error| panic!("{fen}: not read: {error}"));
    let mut snaps = vec![snap(&position)];
    for text in moves {
        let played = position
            .parse_uci(text)
            .unwrap_or_else(|error| panic!("{fen}: after {:?}: {error}", snaps.last()));
        position.make_move(played);
        assert_eq!(position.key(), position.compute_key(), "{fen}: {text}");
        snaps.push(snap(&position));
    }
    // Unmaking gives back every position seen, with its verdict.
    for expected in snaps.iter().rev().skip(1) {
        position.unmake_move();
        assert_eq!(position.key(), expected.key, "{fen}: unmake");
        assert_eq!(position.outcome(), expected.outcome, "{fen}: unmake");
    }
    snaps
}

/// The position from `fen`, then after each move of `moves` (UCI).
fn walk(variant: &str, fen: &str, moves: &[&str]) -> Vec<Snap> {
    let game = AnyGame::built_in(variant).unwrap();
    with_game!(&game, g => walk_in(g, fen, moves))
}

/// The position set up from a piece list and the other FEN fields.
fn at(variant: &str, pieces: &str, rest: &str) -> Snap {
    walk(variant, &fen(variant, pieces, rest), &[]).remove(0)
}

/// `moves` `times` times over.
fn cycles<'a>(moves: &[&'a str], times: usize) -> Vec<&'a str> {
    moves.repeat(times)
}

fn white_wins(termination: Termination) -> Option<Outcome> {
    Some(Outcome {
        result: GameResult::WhiteWins,
        termination,
    })
}

fn black_wins(termination: Termination) -> Option<Outcome> {
    Some(Outcome {
        result: GameResult::BlackWins,
        termination,
    })
}

fn draw(termination: Termination) -> Option<Outcome> {
    Some(Outcome {
        result: GameResult::Draw,
        termination,
    })
}

/// Asserts the verdict of `outcome()` on a set-up position; the reason
/// (`why`) names the rule.
#[track_caller]
fn expect(variant: &str, pieces: &str, rest: &str, expected: Option<Outcome>, why: &str) -> Snap {
    let position = at(variant, pieces, rest);
    assert_eq!(
        position.outcome, expected,
        "{variant} {} ({why}): {position:?}",
        position.fen
    );
    position
}

/// The FEN rights field of a position.
fn rights(snap: &Snap) -> &str {
    snap.fen.split_whitespace().nth(2).unwrap()
}

/// The FEN en-passant field of a position.
fn ep_field(snap: &Snap) -> &str {
    snap.fen.split_whitespace().nth(3).unwrap()
}

// ---------------------------------------------------------------------
// 1. Checkmate. "Check, checkmate (a loss for the mated side) as in
// chess." / Game end 1: "Checkmate: the side to move has lost."
// ---------------------------------------------------------------------

#[test]
fn chess_checkmate_by_play() {
    // Fool's mate from the start position.
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let snaps = walk("chess", start, &["f2f3", "e7e5", "g2g4", "d8h4"]);
    assert_eq!(snaps[3].outcome, None, "before the mate");
    assert!(snaps[4].in_check && snaps[4].legal == 0);
    assert_eq!(snaps[4].outcome, black_wins(Checkmate), "White is mated");
}

#[test]
fn courier_checkmate_by_rook() {
    // Black king a8 boxed in by the king on b6; the rook mates on h8.
    let start = fen("courier", "Kb6 Rh1 ka8 pl7", "w - - 0 1");
    let snaps = walk("courier", &start, &["h1h8"]);
    assert_eq!(snaps[0].outcome, None);
    assert_eq!(snaps[1].outcome, white_wins(Checkmate));
}

#[test]
fn courier_moderno_checkmate_by_unmoved_elephant_leap() {
    // "While it has never moved it may instead leap exactly two squares
    // diagonally forward ... so an unmoved elephant gives check with its
    // leap." The elephant on c1 (right `C`) leaps to a3; a2 (schleich),
    // b2, b3 (king), a4, b4 (rook) are covered.
    let mated = expect(
        "courier-moderno",
        "Kc2 Ec1 Wa1 Rh4 ka3 pl7",
        "b C - 0 1",
        white_wins(Checkmate),
        "mated by the elephant's leap",
    );
    assert!(mated.in_check);
    // "After its first move (step or leap) it keeps only the step moves,
    // even if it comes back": without its right the same elephant gives
    // no check, and Black (with a pawn move) plays on.
    let moved = expect(
        "courier-moderno",
        "Kc2 Ec1 Wa1 Rh4 ka3 pl7",
        "b - - 0 1",
        None,
        "an elephant that has moved does not leap",
    );
    assert!(!moved.in_check);
}

#[test]
fn enhanced_courier_checkmate_by_gryphon_bent_slide() {
    // "G gryphon: one step diagonally; from that square, if it is empty,
    // it may go on sliding straight outward": from b5 via a6 up the
    // a-file to a8. The gryphon comes from c4 to give the mate.
    let start = fen("enhanced-courier", "Kc7 Gc4 ka8 pl7", "w - - 0 1");
    let snaps = walk("enhanced-courier", &start, &["c4b5"]);
    assert_eq!(snaps[0].outcome, None);
    assert!(snaps[1].in_check);
    assert_eq!(snaps[1].outcome, white_wins(Checkmate), "gryphon mate");
    // "if it is empty": with its own pawn on a6 the bent slide is
    // blocked: no check, and Black plays on.
    let blocked = expect(
        "enhanced-courier",
        "Kc7 Gb5 Pa6 ka8 pl7",
        "b - - 0 1",
        None,
        "the gryphon's diagonal square is occupied",
    );
    assert!(!blocked.in_check);
}

#[test]
fn black_fairy_pieces_mate_too() {
    // The two positions above turned half a turn (courier-moderno is
    // "mirrored through the centre point"): Black's unmoved elephant on j8
    // (right `j`) leaps "forward" for Black, down to l6.
    expect(
        "courier-moderno",
        "kj7 ej8 wl8 re5 Kl6 Pa2",
        "w j - 0 1",
        black_wins(Checkmate),
        "mated by Black's elephant leap",
    );
    expect(
        "courier-moderno",
        "kj7 ej8 wl8 re5 Kl6 Pa2",
        "w - - 0 1",
        None,
        "Black's elephant has moved",
    );
    // Black's gryphon on k4 via l3 down to l1; the White king is also
    // bared, but "Checkmate comes first".
    expect(
        "enhanced-courier",
        "kj2 gk4 Kl1",
        "w - - 0 1",
        black_wins(Checkmate),
        "mated by Black's gryphon",
    );
}

#[test]
fn excoco_checkmate_by_duke_and_by_horseguard() {
    // "D duke: viscount + thane (Q3)": d7-d10 checks a10 along the rank
    // (three squares); the horseguard on c8 covers a9, b9, b10.
    let start = fen("excoco", "Kr1 Dd7 Hc8 ka10 pr8", "w - - 0 1");
    let snaps = walk("excoco", &start, &["d7d10"]);
    assert_eq!(snaps[0].outcome, None);
    assert_eq!(snaps[1].outcome, white_wins(Checkmate), "duke mate");
    // The duke four squares away does not reach a10: no check; the black
    // king has no move, but its pawn has, so play goes on.
    let far = expect(
        "excoco",
        "Kr1 De10 Hc8 ka10 pr8",
        "b - - 0 1",
        None,
        "a duke moves at most three squares",
    );
    assert!(!far.in_check);
    // "H horseguard: guard + knight": the knight move c6-b8 checks a10;
    // the horseguard's king steps cover a9, b9, the duke on e10 covers
    // b10.
    let start = fen("excoco", "Kr1 De10 Hc6 ka10 pr8", "w - - 0 1");
    let snaps = walk("excoco", &start, &["c6b8"]);
    assert_eq!(snaps[0].outcome, None);
    assert_eq!(snaps[1].outcome, white_wins(Checkmate), "horseguard mate");
}

// ---------------------------------------------------------------------
// 6. Stalemate: "draw in chess, courier-moderno and excoco; a loss for
// the stalemated side in courier and enhanced-courier."
// ---------------------------------------------------------------------

#[test]
fn chess_stalemate_is_a_draw() {
    let start = fen("chess", "Kg6 Qf1 kh8", "w - - 0 1");
    let snaps = walk("chess", &start, &["f1f7"]);
    assert_eq!(snaps[0].outcome, None);
    assert_eq!((snaps[1].legal, snaps[1].in_check), (0, false));
    assert_eq!(snaps[1].outcome, draw(Stalemate));
    assert_eq!(snaps[1].stalemate_result, draw(Stalemate));
}

#[test]
fn courier_stalemate_loses() {
    // Courier: "Stalemate: the stalemated side loses."
    let black = expect(
        "courier",
        "Kc7 Pa6 ka8 pa7",
        "b - - 0 1",
        white_wins(Stalemate),
        "Black is stalemated",
    );
    assert_eq!(black.stalemate_result, white_wins(Stalemate));
    expect(
        "courier",
        "Ka1 Pa2 pa3 kc2",
        "w - - 0 1",
        black_wins(Stalemate),
        "White is stalemated",
    );
}

#[test]
fn courier_moderno_stalemate_is_a_draw() {
    // Courier-moderno: "Stalemate is a draw."
    let stalemate = expect(
        "courier-moderno",
        "Kc7 Pa6 ka8 pa7",
        "b - - 0 1",
        draw(Stalemate),
        "Black is stalemated",
    );
    assert_eq!(stalemate.stalemate_result, draw(Stalemate));
}

#[test]
fn enhanced_courier_stalemate_loses() {
    // Enhanced-courier: "Stalemate: the stalemated side loses."
    expect(
        "enhanced-courier",
        "Ka1 Pa2 pa3 kc2",
        "w - - 0 1",
        black_wins(Stalemate),
        "White is stalemated",
    );
    expect(
        "enhanced-courier",
        "Kc7 Pa6 ka8 pa7",
        "b - - 0 1",
        white_wins(Stalemate),
        "Black is stalemated",
    );
}

#[test]
fn excoco_stalemate_is_a_draw() {
    // ExCoCo: "Stalemate is a draw (decided, as in chess). No bare-king
    // rule." A lone black king stalemated by a queen: a draw.
    let stalemate = expect(
        "excoco",
        "Kr1 Qb8 ka10",
        "b - - 0 1",
        draw(Stalemate),
        "Black is stalemated",
    );
    assert_eq!(stalemate.stalemate_result, draw(Stalemate));
}

// ---------------------------------------------------------------------
// 2. K vs K: "draw. (No other material draws in any variant; in chess
// and excoco a lone king plays on.)"
// ---------------------------------------------------------------------

#[test]
fn king_versus_king_is_a_draw_in_every_variant() {
    for variant in VARIANTS {
        for side in ["w", "b"] {
            expect(
                variant,
                "Kd3 ke6",
                &format!("{side} - - 0 1"),
                draw(KingVersusKing),
                "K vs K",
            );
        }
    }
}

#[test]
fn king_versus_king_after_a_capture() {
    // Chess: the black king takes the unprotected queen.
    let start = fen("chess", "Ke3 Qd5 ke5", "b - - 0 1");
    let snaps = walk("chess", &start, &["e5d5"]);
    assert_eq!(snaps[0].outcome, None, "in chess a lone king plays on");
    assert_eq!(snaps[1].outcome, draw(KingVersusKing));
    // ExCoCo likewise, a guard taken.
    let start = fen("excoco", "Kr1 Gb9 ka10", "b - - 0 1");
    let snaps = walk("excoco", &start, &["a10b9"]);
    assert_eq!(snaps[0].outcome, None);
    assert_eq!(snaps[1].outcome, draw(KingVersusKing));
}

#[test]
fn lone_king_plays_on_in_chess_and_excoco() {
    // "in chess and excoco a lone king plays on", and "No other material
    // draws in any variant": K+Q, K+N, K+B (chess), K+Q, K+G (excoco)
    // against a lone king are not over, whoever is to move.
    for side in ["w", "b"] {
        let rest = format!("{side} - - 0 1");
        for pieces in ["Kd3 Qd2 ke6", "Kd3 Nd2 ke6", "Kd3 Bd2 ke6", "Kd3 ke6 nd7"] {
            expect("chess", pieces, &rest, None, "no bare king in chess");
        }
        for pieces in ["Kr1 Qb2 ka10", "Kr1 Gb2 ka10", "Kr1 ka10 pa8"] {
            expect("excoco", pieces, &rest, None, "no bare king in excoco");
        }
    }
}

// ---------------------------------------------------------------------
// 3. Bare king (courier, courier-moderno, enhanced-courier): "the bared
// side has lost, whether or not it is to move, unless it is to move and
// can capture the opponent's only remaining non-king man: then play goes
// on for that one move (the capture draws by K vs K; any other move
// loses). A bared side that is stalemated has lost, also in
// courier-moderno."
// ---------------------------------------------------------------------

const BARE_KING_VARIANTS: [&str; 3] = ["courier", "courier-moderno", "enhanced-courier"];

#[test]
fn bared_side_loses_whether_or_not_to_move() {
    for variant in BARE_KING_VARIANTS {
        // The rook on h5 is far from the black king.
        for side in ["w", "b"] {
            expect(
                variant,
                "Kb1 Rh5 ke8",
                &format!("{side} - - 0 1"),
                white_wins(BareKing),
                "Black is bared",
            );
            expect(
                variant,
                "Kb1 ke8 rh5",
                &format!("{side} - - 0 1"),
                black_wins(BareKing),
                "White is bared",
            );
        }
    }
}

#[test]
fn bared_side_to_move_that_can_take_the_last_man_plays_on() {
    // The man on d7 (common to all three variants) stands next to the
    // black king on e8, unprotected.
    for variant in BARE_KING_VARIANTS {
        let start = fen(variant, "Kb1 Md7 ke8", "b - - 0 1");
        let capture = walk(variant, &start, &["e8d7"]);
        assert_eq!(capture[0].outcome, None, "{variant}: the exception");
        assert_eq!(capture[0].rule_outcome, None, "{variant}: the exception");
        // "the capture draws by K vs K"
        assert_eq!(capture[1].outcome, draw(KingVersusKing), "{variant}");
        // "any other move loses"
        let other = walk(variant, &start, &["e8f8"]);
        assert_eq!(other[1].outcome, white_wins(BareKing), "{variant}");
        // Colours swapped: the bared White king takes the man on d2.
        let start = fen(variant, "Ke1 kb8 md2", "w - - 0 1");
        let capture = walk(variant, &start, &["e1d2"]);
        assert_eq!(capture[0].outcome, None, "{variant}: the exception");
        assert_eq!(capture[1].outcome, draw(KingVersusKing), "{variant}");
        // A man next to the bared White king, with Black to move: White
        // is bared and not to move, so the exception does not apply.
        expect(
            variant,
            "Kf1 kb8 md2",
            "b - - 0 1",
            black_wins(BareKing),
            "bared side not to move",
        );
    }
}

#[test]
fn bared_side_to_move_that_cannot_take_the_last_man_loses() {
    for variant in BARE_KING_VARIANTS {
        // The man is protected by its king.
        expect(
            variant,
            "Kc6 Md7 ke8",
            "b - - 0 1",
            white_wins(BareKing),
            "the last man is protected",
        );
        // The man is not next to the bared king.
        expect(
            variant,
            "Kb1 Mc5 ke8",
            "b - - 0 1",
            white_wins(BareKing),
            "the last man is out of reach",
        );
        // The man gives check but is protected: not mate (c8 and e8 are
        // free), and the capture is illegal.
        expect(
            variant,
            "Kc6 Rd7 kd8",
            "b - - 0 1",
            white_wins(BareKing),
            "the checking last man is protected",
        );
    }
}

#[test]
fn opponent_with_two_men_has_no_exception() {
    // "can capture the opponent's only remaining non-king man": with two
    // men left, taking one leaves K vs K+man, so there is no exception.
    for variant in BARE_KING_VARIANTS {
        expect(
            variant,
            "Kb1 Md7 Pa2 ke8",
            "b - - 0 1",
            white_wins(BareKing),
            "two men against a bared king",
        );
        // Also when the man next to the bared king could be taken.
        expect(
            variant,
            "Kb1 Md7 Wl8 ke8",
            "b - - 0 1",
            white_wins(BareKing),
            "two men, one of them next to the bared king",
        );
    }
}

#[test]
fn bared_king_that_is_mated_has_lost_by_checkmate() {
    // Bare king: "Checkmate comes first: a bared king that is mated has
    // lost." Game end 1 is checked before 3, so the reason is Checkmate.
    for variant in ["courier", "courier-moderno"] {
        expect(
            variant,
            "Kb6 Rh8 ka8",
            "b - - 0 1",
            white_wins(Checkmate),
            "bared and mated",
        );
    }
    // Enhanced courier, mated by the gryphon's bent slide.
    expect(
        "enhanced-courier",
        "Kc7 Gb5 ka8",
        "b - - 0 1",
        white_wins(Checkmate),
        "bared and mated",
    );
    // The mating man stands next to the bared king but is protected: the
    // exception does not save it either.
    for variant in BARE_KING_VARIANTS {
        expect(
            variant,
            "Kc6 Mb7 ka8",
            "b - - 0 1",
            white_wins(Checkmate),
            "bared, mated by a protected man next to it",
        );
    }
}

#[test]
fn bared_side_that_is_stalemated_has_lost() {
    // "A bared side that is stalemated has lost, also in courier-moderno."
    // Rule 3 comes before rule 6, so the reason is BareKing, also where
    // stalemate alone would be a loss.
    for (variant, guard) in [
        ("courier", "Wa6"),
        ("courier-moderno", "Wa6"),
        ("enhanced-courier", "Ma6"),
    ] {
        let snap = expect(
            variant,
            &format!("Kc7 {guard} ka8"),
            "b - - 0 1",
            white_wins(BareKing),
            "bared and stalemated",
        );
        assert_eq!((snap.legal, snap.in_check), (0, false), "{variant}");
    }
}

#[test]
fn bare_king_by_play() {
    // Courier: White's rook takes Black's last man; Black, bared and to
    // move, cannot take the rook (protected by the king on c6): lost.
    let start = fen("courier", "Kc6 Rd1 ke8 nd7", "w - - 0 1");
    let snaps = walk("courier", &start, &["d1d7"]);
    assert_eq!(snaps[0].outcome, None);
    assert_eq!(snaps[1].outcome, white_wins(BareKing));
    // The same capture with the king far away: Black may take back, which
    // draws by K vs K.
    let start = fen("courier", "Kb1 Rd1 ke8 nd7", "w - - 0 1");
    let snaps = walk("courier", &start, &["d1d7", "e8d7"]);
    assert_eq!(snaps[1].outcome, None, "the exception");
    assert_eq!(snaps[2].outcome, draw(KingVersusKing));
}

#[test]
fn no_bare_king_rule_in_chess_and_excoco() {
    // ExCoCo: "No bare-king rule."; chess: "a lone king plays on". The
    // bare-king positions above are not over in these two.
    for side in ["w", "b"] {
        let rest = format!("{side} - - 0 1");
        expect("chess", "Kb1 Rh5 ke8", &rest, None, "lone king in chess");
        expect("excoco", "Kb1 Rh5 ke8", &rest, None, "lone king in excoco");
    }
    expect("chess", "Kc6 Rd7 ke8", "b - - 0 1", None, "lone king");
    expect("excoco", "Kc6 Gd7 ke8", "b - - 0 1", None, "lone king");
}

// ---------------------------------------------------------------------
// 4. Fifty moves: "the halfmove clock has reached 100: draw (a stalemate
// reached on that ply is also a draw; a mate is not)."
// ---------------------------------------------------------------------

#[test]
fn fifty_moves_at_100_plies_in_every_variant() {
    // Men on both sides, so that no bare king interferes.
    for variant in VARIANTS {
        let pieces = if variant == "excoco" {
            "Kb1 Rh5 ke10 pe8"
        } else {
            "Kb1 Rh5 ke8 pe7"
        };
        for side in ["w", "b"] {
            expect(
                variant,
                pieces,
                &format!("{side} - - 100 80"),
                draw(FiftyMoves),
                "clock 100",
            );
            expect(
                variant,
                pieces,
                &format!("{side} - - 99 80"),
                None,
                "clock 99",
            );
        }
        expect(
            variant,
            pieces,
            "w - - 150 80",
            draw(FiftyMoves),
            "clock past 100",
        );
        // A quiet move from 99 reaches 100; a pawn move resets the clock.
        let start = fen(variant, pieces, "b - - 99 80");
        let king = if variant == "excoco" {
            "e10d10"
        } else {
            "e8d8"
        };
        let quiet = walk(variant, &start, &[king]);
        assert_eq!(quiet[1].halfmove, 100);
        assert_eq!(quiet[1].outcome, draw(FiftyMoves), "{variant}");
        let pawn = if variant == "excoco" { "e8e7" } else { "e7e6" };
        let reset = walk(variant, &start, &[pawn]);
        assert_eq!(reset[1].halfmove, 0);
        assert_eq!(reset[1].outcome, None, "{variant}");
    }
}

#[test]
fn mate_on_the_hundredth_ply_wins() {
    // "a mate is not" (a draw): Game end 1 comes before 4.
    let start = fen("chess", "Kg6 Qb1 kh8", "w - - 99 80");
    let snaps = walk("chess", &start, &["b1b8"]);
    assert_eq!(snaps[0].outcome, None);
    assert_eq!(snaps[1].halfmove, 100);
    assert_eq!(snaps[1].outcome, white_wins(Checkmate), "chess");
    let start = fen("courier", "Kb6 Rh1 ka8 pl7", "w - - 99 80");
    let snaps = walk("courier", &start, &["h1h8"]);
    assert_eq!(snaps[1].outcome, white_wins(Checkmate), "courier");
    let start = fen("enhanced-courier", "Kc7 Gc4 ka8 pl7", "w - - 99 80");
    let snaps = walk("enhanced-courier", &start, &["c4b5"]);
    assert_eq!(snaps[1].outcome, white_wins(Checkmate), "enhanced-courier");
    // rule_outcome (rules 2 to 5) does not call a mate a fifty-move draw.
    assert_eq!(snaps[1].rule_outcome, None);
}

#[test]
fn stalemate_on_the_hundredth_ply_is_a_fifty_move_draw() {
    // "a stalemate reached on that ply is also a draw": rule 4 comes
    // before rule 6, and its parenthesis says the stalemate does not
    // override it. So even in courier and enhanced-courier, where
    // stalemate alone loses, a stalemate on ply 100 is a draw, and the
    // first rule that applies (4) names it: FiftyMoves.
    let start = fen("chess", "Kg6 Qf1 kh8", "w - - 99 80");
    let snaps = walk("chess", &start, &["f1f7"]);
    assert_eq!(snaps[1].legal, 0);
    assert_eq!(snaps[1].outcome, draw(FiftyMoves), "chess");
    let start = fen("courier", "Kc6 Pa6 ka8 pa7", "w - - 99 80");
    let snaps = walk("courier", &start, &["c6c7"]);
    assert_eq!(snaps[0].outcome, None);
    assert_eq!((snaps[1].legal, snaps[1].in_check), (0, false));
    assert_eq!(snaps[1].outcome, draw(FiftyMoves), "courier");
    // The same stalemate one ply earlier loses.
    let start = fen("courier", "Kc6 Pa6 ka8 pa7", "w - - 98 80");
    let snaps = walk("courier", &start, &["c6c7"]);
    assert_eq!(snaps[1].outcome, white_wins(Stalemate), "courier, ply 99");
    expect(
        "enhanced-courier",
        "Ka1 Pa2 pa3 kc2",
        "w - - 100 80",
        draw(FiftyMoves),
        "stalemate at clock 100",
    );
    expect(
        "courier-moderno",
        "Kc7 Pa6 ka8 pa7",
        "b - - 100 80",
        draw(FiftyMoves),
        "stalemate at clock 100",
    );
    expect(
        "excoco",
        "Kr1 Qb8 ka10",
        "b - - 100 80",
        draw(FiftyMoves),
        "stalemate at clock 100",
    );
}

// ---------------------------------------------------------------------
// 5. Threefold repetition: "the same position for the third time: draw.
// "Same" compares pieces, side to move, the rights as FEN writes them,
// and the en-passant captures that are actually legal."
// ---------------------------------------------------------------------

/// Plays `shuffle` (four plies that come back to the start) three times
/// from `start`: the start position occurs a second time after 4 plies
/// (no draw) and a third time after 8 (draw).
fn check_threefold(variant: &str, start: &str, shuffle: [&str; 4]) {
    let snaps = walk(variant, start, &cycles(&shuffle, 2));
    assert_eq!(snaps[0].outcome, None, "{variant}");
    assert_eq!(snaps[4].key, snaps[0].key, "{variant}: back at the start");
    assert_eq!(snaps[4].repetitions, 1, "{variant}");
    assert_eq!(snaps[4].outcome, None, "{variant}: second time");
    // After the fifth ply the position after the first occurs the
    // second time only.
    assert_eq!(snaps[5].outcome, None, "{variant}");
    assert_eq!(snaps[8].repetitions, 2, "{variant}");
    assert_eq!(snaps[8].outcome, draw(Repetition), "{variant}: third time");
    assert_eq!(snaps[8].rule_outcome, draw(Repetition), "{variant}");
}

#[test]
fn threefold_repetition_from_each_start_position() {
    check_threefold(
        "chess",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ["g1f3", "g8f6", "f3g1", "f6g8"],
    );
    check_threefold(
        "courier",
        "rnebmk1wbenr/1ppppp1pppp1/6f5/p5p4p/P5P4P/6F5/1PPPPP1PPPP1/RNEBMK1WBENR w - - 0 1",
        ["b1c3", "b8c6", "c3b1", "c6b8"],
    );
    check_threefold(
        "courier-moderno",
        "rnebwfkmbenr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RNEBMKFWBENR w ACFJLacgjl - 0 1",
        ["b1c3", "b8c6", "c3b1", "c6b8"],
    );
    check_threefold(
        "enhanced-courier",
        "rnecmkgwcenr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RNECMKGWCENR w - - 0 1",
        ["b1a3", "b8a6", "a3b1", "a6b8"],
    );
    check_threefold(
        "excoco",
        "tdrbchgvkqvghcbrdt/2m1n1es2se1n1m2/pppppppppppppppppp/18/18/18/18/PPPPPPPPPPPPPPPPPP/2M1N1ES2SE1N1M2/TDRBCHGVKQVGHCBRDT w ACIPRacipr - 0 1",
        ["e2d4", "e9d7", "d4e2", "d7e9"],
    );
}

#[test]
fn threefold_repetition_by_king_shuffle() {
    // Kings walk in a bare-king-free endgame of each variant.
    for variant in VARIANTS {
        let (pieces, shuffle) = if variant == "excoco" {
            ("Kb1 Rh5 ke10 pe8", ["b1c1", "e10d10", "c1b1", "d10e10"])
        } else {
            ("Kb1 Rh5 ke8 pe7", ["b1c1", "e8d8", "c1b1", "d8e8"])
        };
        check_threefold(variant, &fen(variant, pieces, "w - - 0 1"), shuffle);
    }
}

#[test]
fn rights_make_positions_different() {
    // "the rights as FEN writes them": a rook that moved and came back
    // has lost its right ("Each letter is one piece's own never-moved
    // flag"), so the position is a new one.
    let start = fen("chess", "Ra1 Ke1 ke8 ng8", "w Q - 0 1");
    let snaps = walk(
        "chess",
        &start,
        &cycles(&["a1a2", "g8f6", "a2a1", "f6g8"], 3),
    );
    assert_eq!(rights(&snaps[0]), "Q");
    assert_eq!(rights(&snaps[4]), "-");
    assert_ne!(snaps[4].key, snaps[0].key, "chess: the right is gone");
    // Same men a third time after 8 plies, but only the second time
    // with these rights.
    assert_eq!(snaps[8].repetitions, 1);
    assert_eq!(
        snaps[8].outcome, None,
        "chess: rights differ from the start"
    );
    assert_eq!(snaps[12].outcome, draw(Repetition), "chess");

    // Chess writes rights as `KQkq`: once the king has moved, White has
    // no letter left, so the rooks' own flags no longer tell positions
    // apart ("the rights as FEN writes them"): after Ke2-e1 the position
    // is the one set up with `-`.
    let start = fen("chess", "Ra1 Ke1 Rh1 ke8 ng8", "w KQ - 0 1");
    let snaps = walk("chess", &start, &["e1e2", "g8f6", "e2e1", "f6g8"]);
    let plain = at("chess", "Ra1 Ke1 Rh1 ke8 ng8", "w - - 0 1");
    assert_eq!(rights(&snaps[4]), "-");
    assert_eq!(snaps[4].key, plain.key, "chess: no KQkq letter, same key");

    // Courier-moderno: the elephant's first-move right (`C`), lost by a
    // step and return: "After its first move ... it keeps only the step
    // moves, even if it comes back."
    let start = fen("courier-moderno", "Kf1 Ec1 kg8 nb8", "w C - 0 1");
    let snaps = walk(
        "courier-moderno",
        &start,
        &cycles(&["c1d2", "b8c6", "d2c1", "c6b8"], 3),
    );
    assert_eq!(rights(&snaps[4]), "-");
    assert_ne!(snaps[4].key, snaps[0].key, "moderno: elephant right gone");
    assert_eq!(
        snaps[8].outcome, None,
        "moderno: rights differ from the start"
    );
    assert_eq!(snaps[12].outcome, draw(Repetition), "moderno");

    // Courier-moderno: "a rook keeps its letter after its king has
    // moved": the king's walk removes F only.
    let start = fen("courier-moderno", "Ra1 Kf1 Rl1 kg8 nb8", "w AFL - 0 1");
    let snaps = walk(
        "courier-moderno",
        &start,
        &cycles(&["f1f2", "b8c6", "f2f1", "c6b8"], 3),
    );
    assert_eq!(rights(&snaps[4]), "AL");
    assert_eq!(snaps[8].outcome, None);
    assert_eq!(snaps[12].outcome, draw(Repetition));

    // ExCoCo: the thane's right (`A`) lost by a1-a2-a1.
    let start = fen("excoco", "Ta1 Ki1 ki10 nb10", "w AI - 0 1");
    let snaps = walk(
        "excoco",
        &start,
        &cycles(&["a1a2", "b10c8", "a2a1", "c8b10"], 3),
    );
    assert_eq!(rights(&snaps[4]), "I");
    assert_eq!(snaps[8].outcome, None);
    assert_eq!(snaps[12].outcome, draw(Repetition));
}

#[test]
fn unusable_en_passant_does_not_make_positions_different() {
    // After 1.e4 no black pawn can take en passant: FEN still writes e3
    // ("whether or not a capture is possible"), but the key is that of
    // the position without it.
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let snaps = walk("chess", start, &["e2e4"]);
    assert_eq!(ep_field(&snaps[1]), "e3");
    let plain = walk(
        "chess",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        &[],
    );
    assert_eq!(snaps[1].key, plain[0].key, "chess: unusable e.p. ignored");
    // So the position after 1.e4 recurs: the third time after two knight
    // cycles.
    check_threefold(
        "chess",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
        ["g8f6", "g1f3", "f6g8", "f3g1"],
    );

    // A capture that is only pseudo-legal does not count: fxe3 would
    // open the fourth rank to the rook on h4 against the king on a4.
    let start = fen("chess", "Ke1 Pe2 pf4 Rh4 ka4", "w - - 0 1");
    let snaps = walk("chess", &start, &["e2e4"]);
    let plain = at("chess", "Ke1 Pe4 pf4 Rh4 ka4", "b - - 0 1");
    assert_eq!(snaps[1].key, plain.key, "chess: pinned e.p. ignored");

    // Courier-moderno and enhanced-courier pawns double-step too.
    for variant in ["courier-moderno", "enhanced-courier"] {
        let start = fen(variant, "Kf1 Pe2 kg8 nb8", "w - - 0 1");
        let snaps = walk(variant, &start, &["e2e4"]);
        assert_eq!(ep_field(&snaps[1]), "e3", "{variant}");
        let plain = at(variant, "Kf1 Pe4 kg8 nb8", "b - - 0 1");
        assert_eq!(snaps[1].key, plain.key, "{variant}: unusable e.p.");
    }

    // ExCoCo triple step e3-e6: "every square the pawn passed over".
    let start = fen("excoco", "Ki1 Pe3 ki10 pa8", "w - - 0 1");
    let snaps = walk("excoco", &start, &["e3e6"]);
    assert_eq!(ep_field(&snaps[1]), "e4e5");
    let plain = at("excoco", "Ki1 Pe6 ki10 pa8", "b - - 0 1");
    assert_eq!(snaps[1].key, plain.key, "excoco: unusable e.p.");
}

#[test]
fn usable_en_passant_makes_positions_different() {
    // Chess: after e2-e4 the pawn on f4 may take on e3.
    let start = fen("chess", "Ke1 Pe2 pf4 ke8", "w - - 0 1");
    let snaps = walk("chess", &start, &["e2e4"]);
    let plain = at("chess", "Ke1 Pe4 pf4 ke8", "b - - 0 1");
    let with_ep = at("chess", "Ke1 Pe4 pf4 ke8", "b - e3 0 1");
    assert_ne!(snaps[1].key, plain.key, "chess: usable e.p. counts");
    assert_eq!(snaps[1].key, with_ep.key, "chess: FEN and play agree");
    // Kings walk away and back: the first position had a legal e.p.
    // capture, the later ones not, so the third occurrence of the men
    // is only the second of that position.
    let snaps = walk(
        "chess",
        &with_ep.fen,
        &cycles(&["e8d8", "e1d1", "d8e8", "d1e1"], 3),
    );
    assert_ne!(snaps[4].key, snaps[0].key);
    assert_eq!(snaps[8].outcome, None, "chess: e.p. made the first differ");
    assert_eq!(snaps[12].outcome, draw(Repetition));

    // Enhanced-courier: the same with a gryphon-free board.
    let start = fen("enhanced-courier", "Kf1 Pe2 pd4 kg8", "w - - 0 1");
    let snaps = walk("enhanced-courier", &start, &["e2e4"]);
    let plain = at("enhanced-courier", "Kf1 Pe4 pd4 kg8", "b - - 0 1");
    assert_ne!(snaps[1].key, plain.key, "enhanced-courier: usable e.p.");

    // ExCoCo: after e3-e6 the pawn on f6 may take on e5 ("an enemy pawn
    // may capture it on any square it passed over").
    let start = fen("excoco", "Ki1 Pe3 ki10 pf6", "w - - 0 1");
    let snaps = walk("excoco", &start, &["e3e6"]);
    let plain = at("excoco", "Ki1 Pe6 ki10 pf6", "b - - 0 1");
    let with_ep = at("excoco", "Ki1 Pe6 ki10 pf6", "b - e4e5 0 1");
    assert_ne!(snaps[1].key, plain.key, "excoco: usable e.p. counts");
    assert_eq!(snaps[1].key, with_ep.key, "excoco: FEN and play agree");
}

// ---------------------------------------------------------------------
// Order: "Checked in this order for the side to move; the first that
// applies decides."
// ---------------------------------------------------------------------

#[test]
fn order_checkmate_before_everything() {
    // 1 before 3: bared and mated (see also above).
    expect(
        "courier-moderno",
        "Kb6 Rh8 ka8",
        "b - - 0 1",
        white_wins(Checkmate),
        "1 before 3",
    );
    // 1 before 3 and 4: bared, mated, clock 100.
    expect(
        "courier",
        "Kb6 Rh8 ka8",
        "b - - 100 80",
        white_wins(Checkmate),
        "1 before 3 and 4",
    );
    // 1 before 4: mated with the clock at 100, in every variant.
    expect(
        "chess",
        "Kg6 Qb8 kh8",
        "b - - 100 80",
        white_wins(Checkmate),
        "1 before 4",
    );
    expect(
        "excoco",
        "Kr1 Dd10 Hc8 ka10 pr8",
        "b - - 100 80",
        white_wins(Checkmate),
        "1 before 4",
    );
    expect(
        "courier-moderno",
        "Kc2 Ec1 Wa1 Rh4 ka3 pl7",
        "b C - 150 80",
        white_wins(Checkmate),
        "1 before 4",
    );
}

#[test]
fn order_king_versus_king_before_bare_king_and_fifty_moves() {
    // 2 before 3: in K vs K both sides are "bared"; nobody loses.
    // 2 before 4: the reason is K vs K even with the clock at 100.
    for variant in VARIANTS {
        expect(
            variant,
            "Kd3 ke6",
            "w - - 100 80",
            draw(KingVersusKing),
            "2 before 4",
        );
    }
}

#[test]
fn order_bare_king_before_fifty_moves() {
    for variant in BARE_KING_VARIANTS {
        // 3 before 4: bared (not to move, or unable to take) at clock 100
        // loses.
        expect(
            variant,
            "Kb1 Rh5 ke8",
            "w - - 100 80",
            white_wins(BareKing),
            "3 before 4",
        );
        expect(
            variant,
            "Kc6 Md7 ke8",
            "b - - 120 80",
            white_wins(BareKing),
            "3 before 4",
        );
        // With the exception, rule 3 lets play go on, so rule 4 decides:
        // a draw by the fifty-move rule.
        expect(
            variant,
            "Kb1 Md7 ke8",
            "b - - 100 80",
            draw(FiftyMoves),
            "3 yields, 4 decides",
        );
    }
}

#[test]
fn order_bare_king_before_stalemate() {
    // 3 before 6 in courier-moderno, where 6 alone would be a draw.
    expect(
        "courier-moderno",
        "Kc7 Wa6 ka8",
        "b - - 0 1",
        white_wins(BareKing),
        "3 before 6",
    );
    // The same men with a black pawn blocked on a7: not bared, so 6
    // decides, a draw.
    expect(
        "courier-moderno",
        "Kc7 Pa6 ka8 pa7",
        "b - - 0 1",
        draw(Stalemate),
        "6",
    );
}

/// White: king a8, a row of `guard` on b8-l8 and pawns on a7-l7, all
/// blocked by one another (12x8 boards); Black: a lone king on a1.
fn walled_in(guard: char) -> String {
    let mut pieces = String::from("Ka8 ka1");
    for file in 'a'..='l' {
        if file != 'a' {
            pieces += &format!(" {guard}{file}8");
        }
        pieces += &format!(" P{file}7");
    }
    pieces
}

#[test]
fn order_bare_king_before_stalemate_of_the_other_side() {
    // White, to move, is stalemated (every white man is blocked by
    // another); Black is bared. Rule 3, "the bared side has lost, whether
    // or not it is to move", comes before rule 6: White wins, although
    // stalemate alone would lose for White (courier, enhanced-courier)
    // or draw (courier-moderno).
    for (variant, guard) in [
        ("courier", 'F'),
        ("courier-moderno", 'F'),
        ("enhanced-courier", 'G'),
    ] {
        let snap = expect(
            variant,
            &walled_in(guard),
            "w - - 0 1",
            white_wins(BareKing),
            "3 before 6",
        );
        assert_eq!((snap.legal, snap.in_check), (0, false), "{variant}");
        assert_eq!(
            snap.stalemate_result,
            if variant == "courier-moderno" {
                draw(Stalemate)
            } else {
                black_wins(Stalemate)
            },
            "{variant}: what stalemate alone would give"
        );
    }
}

#[test]
fn order_fifty_moves_before_repetition() {
    // 4 before 5: the third occurrence falls on ply 100 (clock 92 + 8).
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 92 47";
    let snaps = walk(
        "chess",
        start,
        &cycles(&["g1f3", "g8f6", "f3g1", "f6g8"], 2),
    );
    assert_eq!(snaps[4].outcome, None, "clock 96, second occurrence");
    assert_eq!(snaps[8].halfmove, 100);
    assert_eq!(snaps[8].repetitions, 2);
    assert_eq!(snaps[8].outcome, draw(FiftyMoves), "4 before 5");
    // One ply earlier on the clock, the repetition decides.
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 91 47";
    let snaps = walk(
        "chess",
        start,
        &cycles(&["g1f3", "g8f6", "f3g1", "f6g8"], 2),
    );
    assert_eq!(snaps[8].outcome, draw(Repetition), "5");
}
