//! PGN: a hand-written game read and replayed, the exact text the writer
//! makes for a set-up position, escaping, reader and replay errors, and
//! writer-to-reader round trips over random games of every variant.

use std::sync::Arc;

use kurier_engine::board::bitboard::Bitboard;
use kurier_engine::position::any_game::AnyGame;
use kurier_engine::position::game::Game;
use kurier_engine::position::rules::{GameResult, Termination};
use kurier_engine::position::state::Position;
use kurier_engine::variant::definition::Variant;
use kurier_engine::with_game;
use kurier_tuner::records::pgn::{read_games, replay, write_game, PgnError, PgnGame};
use kurier_tuner::util::rng::Rng;

fn chess() -> Arc<Game<u128>> {
    let AnyGame::Narrow(game) = AnyGame::built_in("chess").unwrap() else {
        unreachable!("chess is 8x8")
    };
    game
}

fn tags(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|&(name, value)| (name.to_string(), value.to_string()))
        .collect()
}

/// Scholar's mate, with the trimmings a tolerant reader must skip: an
/// escape line, `;` and `{}` comments, a NAG, a nested variation, move
/// numbers written apart and attached.
const SCHOLARS_MATE: &str = r#"% written by hand
[Event "Scholar's \"mate\""]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "A"]
[Black "B"]
[Result "1-0"]

1. e4 e5 2.Bc4 {aim at f7} Nc6 ; the knight
3. Qh5 Nf6?? $4 (3... g6 4. Qf3 (4. Qxe5+ Qe7) Nf6) 4. Qxf7# 1-0
"#;

#[test]
fn scholars_mate_is_read_and_replayed() {
    let games = read_games(SCHOLARS_MATE).unwrap();
    assert_eq!(games.len(), 1);
    let game = &games[0];
    assert_eq!(game.tag("Event"), Some("Scholar's \"mate\""));
    assert_eq!(
        game.moves,
        ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"]
    );
    assert_eq!(game.result, "1-0");
    // The comment after Bc4 is that move's; the `;` comment and the
    // comment-free variation's moves are not kept.
    assert_eq!(game.comments, ["", "", "aim at f7", "", "", "", ""]);
    let (position, moves) = replay(&chess(), game).unwrap();
    assert_eq!(moves.len(), 7);
    // Worked out by hand: both sides may still castle; the queen's
    // capture reset the halfmove clock; Black is to move on move 4.
    assert_eq!(
        position.fen(),
        "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4"
    );
    let outcome = position.outcome().unwrap();
    assert_eq!(outcome.result, GameResult::WhiteWins);
    assert_eq!(outcome.termination, Termination::Checkmate);
}

#[test]
fn a_set_up_game_with_black_to_move_is_written_exactly() {
    let game = chess();
    let start = Position::from_fen(game.clone(), "4k3/8/8/8/8/8/4P3/4K3 b - - 0 12").unwrap();
    let mut position = start.clone();
    let mut moves = Vec::new();
    for uci in ["e8d7", "e2e4", "d7d6", "e1d2"] {
        let played = position.parse_uci(uci).unwrap();
        position.make_move(played);
        moves.push(played);
    }
    let comments: Vec<String> = ["", "book }", "", ""].map(String::from).to_vec();
    let text = write_game(
        &tags(&[
            ("White", "A"),
            ("Black", "B"),
            ("Event", "Test"),
            ("Termination", "unterminated"),
            ("PlyCount", "99"),
            ("FEN", "ignored"),
        ]),
        &start,
        &moves,
        "*",
        Some(&comments),
    );
    let expected = r#"[Event "Test"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "A"]
[Black "B"]
[Result "*"]
[SetUp "1"]
[FEN "4k3/8/8/8/8/8/4P3/4K3 b - - 0 12"]
[Termination "unterminated"]
[PlyCount "4"]

12... Kd7 13. e4 {book )} 13... Kd6 14. Kd2 *

"#;
    assert_eq!(text, expected);
    let read = read_games(&text).unwrap();
    let (end, replayed) = replay(&game, &read[0]).unwrap();
    assert_eq!(replayed, moves);
    assert_eq!(end.fen(), position.fen());
}

#[test]
fn tag_values_are_escaped_and_read_back() {
    let game = chess();
    let start = Position::startpos(game);
    let value = r#"He said "hi" \ bye"#;
    let text = write_game(
        &tags(&[("Event", value), ("Annotator", "a\nb")]),
        &start,
        &[],
        "*",
        None,
    );
    assert!(
        text.starts_with("[Event \"He said \\\"hi\\\" \\\\ bye\"]\n"),
        "{text}"
    );
    assert!(text.contains("[Annotator \"a b\"]\n"), "{text}");
    // Chess from its start position needs no Variant, SetUp or FEN.
    assert!(!text.contains("Variant") && !text.contains("FEN"), "{text}");
    assert!(text.ends_with("\n\n*\n\n"), "{text}");
    let read = read_games(&text).unwrap();
    assert_eq!(read[0].tag("Event"), Some(value));
    assert_eq!(read[0].result, "*");
    assert!(read[0].moves.is_empty());
}

#[test]
fn reader_errors_name_the_line_and_replay_errors_the_ply() {
    let syntax = |text: &str| match read_games(text) {
        Err(PgnError::Syntax { line, message }) => (line, message),
        other => panic!("expected a syntax error, got {other:?}"),
    };
    let (line, message) = syntax("[Event \"x\"]\n[Site \"y\"\n\n1. e4 *\n");
    assert_eq!(line, 2);
    assert!(message.contains("tag Site: ']' expected"), "{message}");
    let (line, message) = syntax("[Event \"x\"]\n\n1. e4 {open\ne5\n");
    assert_eq!(line, 3);
    assert!(message.contains("never closed"), "{message}");
    let (line, message) = syntax("\n1. e4 (1. d4 d5\n");
    assert_eq!(line, 2);
    assert!(message.contains("variation"), "{message}");
    let (line, _) = syntax("1. e4 e5 }\n");
    assert_eq!(line, 1);
    let (line, message) = syntax("[Event x]\n");
    assert_eq!(line, 1);
    assert!(message.contains("not in quotes"), "{message}");

    let games = read_games("1. e4 e5 2. Ke3 Nc6 *").unwrap();
    let Err(PgnError::Move { ply, text, message }) = replay(&chess(), &games[0]) else {
        panic!("Ke3 is illegal after 1. e4 e5")
    };
    assert_eq!((ply, text.as_str()), (3, "Ke3"));
    assert!(message.contains("no king"), "{message}");

    let courier = read_games("[Variant \"courier\"]\n1. e4 *").unwrap();
    let error = replay(&chess(), &courier[0]).unwrap_err();
    assert!(
        error.to_string().contains("the game is courier, not chess"),
        "{error}"
    );
    let bad_fen = read_games("[FEN \"8/8/8 w - - 0 1\"]\n*").unwrap();
    let error = replay(&chess(), &bad_fen[0]).unwrap_err();
    assert!(matches!(error, PgnError::Setup(_)), "{error}");
}

#[test]
fn games_without_results_end_at_the_next_tags() {
    let text = "[Result \"1-0\"]\n1. e4 e5\n[Event \"second\"]\n1. d4 0-1\n[Event \"third\"]\n";
    let games = read_games(text).unwrap();
    assert_eq!(games.len(), 3);
    assert_eq!(
        games[0],
        PgnGame {
            tags: tags(&[("Result", "1-0")]),
            moves: vec!["e4".into(), "e5".into()],
            comments: vec![String::new(), String::new()],
            result: "1-0".into(),
        }
    );
    assert_eq!((games[1].moves.len(), games[1].result.as_str()), (1, "0-1"));
    assert_eq!((games[2].moves.len(), games[2].result.as_str()), (0, "*"));
}

/// A random game from the start: moves until the rules end it or
/// `max_plies`, and its result.
fn random_game<B: Bitboard>(
    game: &Arc<Game<B>>,
    seed: u64,
    max_plies: usize,
) -> (Vec<kurier_engine::types::Move>, String) {
    let mut rng = Rng::new(seed);
    let mut position = Position::startpos(game.clone());
    let mut moves = Vec::new();
    while moves.len() < max_plies {
        if let Some(outcome) = position.outcome() {
            return (moves, outcome.result.pgn().to_string());
        }
        let legal = position.legal_moves();
        let played = legal[rng.below(legal.len())];
        position.make_move(played);
        moves.push(played);
    }
    (moves, "*".to_string())
}

/// The comment the round trip writes after the move of `ply`: every
/// third move has one.
fn comment_of_ply(ply: usize) -> String {
    if ply % 3 == 0 {
        format!("score {} depth {}", ply as i32 - 50, ply % 7)
    } else {
        String::new()
    }
}

/// Writes random games of `game`, reads them back as one text, and
/// checks tags, moves, result and the final position.
fn round_trip<B: Bitboard>(game: &Arc<Game<B>>) {
    let start = Position::startpos(game.clone());
    let mut text = String::new();
    let mut written = Vec::new();
    for seed in 0..4 {
        let (moves, result) = random_game(game, seed, 200);
        let comments: Vec<String> = (0..moves.len()).map(comment_of_ply).collect();
        let event = format!("round \"{seed}\" \\ trip");
        text.push_str(&write_game(
            &tags(&[("Event", &event), ("Round", &seed.to_string())]),
            &start,
            &moves,
            &result,
            Some(&comments),
        ));
        written.push((moves, result, event));
    }
    for line in text.lines() {
        assert!(line.len() <= 80, "{} columns: {line}", line.len());
    }
    let read = read_games(&text).unwrap();
    assert_eq!(read.len(), written.len());
    for (pgn, (moves, result, event)) in read.iter().zip(&written) {
        let name = &game.variant.name;
        assert_eq!(pgn.tag("Event"), Some(event.as_str()));
        let variant_tag = (name != "chess").then_some(name.as_str());
        assert_eq!(pgn.tag("Variant"), variant_tag);
        assert_eq!(pgn.tag("PlyCount"), Some(moves.len().to_string().as_str()));
        assert_eq!(pgn.tag("FEN"), None);
        assert_eq!(&pgn.result, result);
        // Each move's comment comes back, wherever the lines broke.
        let expected_comments: Vec<String> = (0..moves.len()).map(comment_of_ply).collect();
        assert_eq!(pgn.comments, expected_comments, "{name}");
        let (end, replayed) = replay(game, pgn).unwrap();
        assert_eq!(&replayed, moves, "{name}");
        let mut expected = start.clone();
        for &m in moves {
            expected.make_move(m);
        }
        assert_eq!(end.fen(), expected.fen(), "{name}");
    }
}

#[test]
fn random_games_of_every_variant_survive_write_and_read() {
    for name in Variant::built_in_names() {
        let game = AnyGame::built_in(name).unwrap();
        with_game!(&game, g => round_trip(g));
    }
}

#[test]
fn the_variant_tag_names_the_variant_in_lower_case() {
    let named = |text: &str| read_games(text).unwrap()[0].variant_name();
    assert_eq!(named("[Variant \"Courier-Moderno\"]\n*"), "courier-moderno");
    assert_eq!(named("[Variant \" excoco \"]\n*"), "excoco");
    assert_eq!(named("[Variant \"Standard\"]\n*"), "chess");
    assert_eq!(named("[Event \"no variant tag\"]\n*"), "chess");
}
