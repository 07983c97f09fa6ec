//! Malformed FENs are rejected with a message that names the field, and
//! no input makes the reader panic.

use kurier_engine::board::bitboard::Bitboard;
use kurier_engine::position::any_game::AnyGame;
use kurier_engine::position::game::Game;
use kurier_engine::position::state::Position;
use kurier_engine::variant::definition::Variant;
use kurier_engine::variant::placement::{FenError, FenField};
use kurier_engine::with_game;
use kurier_tests::play::Rng;
use std::sync::Arc;

fn read(variant: &str, fen: &str) -> Result<String, FenError> {
    let game = AnyGame::built_in(variant).expect("built-in variant");
    with_game!(&game, g => Position::from_fen(g.clone(), fen).map(|p| p.fen()))
}

fn rejected(variant: &str, fen: &str, field: FenField, words: &str) {
    match read(variant, fen) {
        Ok(written) => panic!("{variant}: accepted {fen:?} as {written:?}"),
        Err(error) => {
            assert_eq!(error.field, field, "{fen:?}: {error}");
            let text = error.to_string();
            assert!(
                text.contains(words),
                "{fen:?}: message {text:?} lacks {words:?}"
            );
            assert!(
                text.contains(&field.to_string()),
                "{text:?} does not name the field"
            );
        }
    }
}

const MODERNO: &str =
    "rnebwfkmbenr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RNEBMKFWBENR w ACFJLacgjl - 0 1";

#[test]
fn field_count() {
    rejected("chess", "", FenField::Fields, "0 fields");
    rejected(
        "chess",
        "8/8/8/8/8/8/8/K6k w - -  0",
        FenField::Fields,
        "5 fields",
    );
    rejected(
        "chess",
        "8/8/8/8/8/8/8/K6k w - - 0 1 extra",
        FenField::Fields,
        "7 fields",
    );
}

#[test]
fn placement() {
    rejected(
        "chess",
        "8/8/8/8/8/8/K6k w - - 0 1",
        FenField::Placement,
        "7 ranks given",
    );
    rejected(
        "chess",
        "8/8/8/8/8/8/8/K7k w - - 0 1",
        FenField::Placement,
        "rank 1 has at least 9 squares",
    );
    rejected(
        "chess",
        "8/8/8/8/8/8/8/K5k w - - 0 1",
        FenField::Placement,
        "rank 1 has 7 squares",
    );
    rejected(
        "chess",
        "8/8/8/8/8/8/8/K5kx w - - 0 1",
        FenField::Placement,
        "'x' is not a piece of chess",
    );
    rejected(
        "chess",
        "8/8/8/8/8/8/8/K6k w - - 0 1"
            .replace("K6k", "K06k")
            .as_str(),
        FenField::Placement,
        "'06'",
    );
    rejected(
        "chess",
        "8/8/8/8//8/8/K6k w - - 0 1",
        FenField::Placement,
        "rank 4 is empty",
    );
    // Letters of another variant.
    rejected(
        "courier",
        "12/12/12/12/12/12/12/K10k w - - 0 1"
            .replace("K10k", "KG9k")
            .as_str(),
        FenField::Placement,
        "'G' is not a piece of courier",
    );
    rejected(
        "chess",
        "8/8/8/8/8/8/8/8 w - - 0 1",
        FenField::Placement,
        "white has 0 kings",
    );
    rejected(
        "chess",
        "k7/8/8/8/8/8/8/K6K w - - 0 1",
        FenField::Placement,
        "white has 2 kings",
    );
    rejected(
        "chess",
        "P6k/8/8/8/8/8/8/K7 w - - 0 1",
        FenField::Placement,
        "pawn on a8",
    );
    rejected(
        "courier",
        "12/12/12/12/12/12/12/Kp9k w - - 0 1",
        FenField::Placement,
        "pawn on b1",
    );
    rejected(
        "excoco",
        "k16P/18/18/18/18/18/18/18/18/K17 w - - 0 1",
        FenField::Placement,
        "pawn on r10",
    );
    // A pawn on its own first rank is legal.
    assert!(read("excoco", "k17/18/18/18/18/18/18/18/18/K16P w - - 0 1").is_ok());
}

#[test]
fn side() {
    rejected(
        "chess",
        "8/8/8/8/8/8/8/K6k x - - 0 1",
        FenField::Side,
        "'x' is neither",
    );
    // The side that is not to move may not be in check.
    rejected(
        "chess",
        "8/8/8/8/8/8/8/K5Rk w - - 0 1",
        FenField::Side,
        "black is not to move",
    );
}

#[test]
fn rights() {
    rejected(
        "courier",
        "rnebmk1wbenr/1ppppp1pppp1/6f5/p5p4p/P5P4P/6F5/1PPPPP1PPPP1/RNEBMK1WBENR w A - 0 1",
        FenField::Rights,
        "courier has no first-move rights",
    );
    rejected(
        "courier-moderno",
        &MODERNO.replace("ACFJLacgjl", "ACFXLacgjl"),
        FenField::Rights,
        "'X'",
    );
    rejected(
        "courier-moderno",
        &MODERNO.replace("ACFJLacgjl", "ABFJL"),
        FenField::Rights,
        "'B': no white piece can hold",
    );
    rejected(
        "courier-moderno",
        &MODERNO.replace("ACFJLacgjl", "AACFJL"),
        FenField::Rights,
        "given twice",
    );
    rejected(
        "courier-moderno",
        &MODERNO.replace("ACFJLacgjl", "ACFJL1"),
        FenField::Rights,
        "'1'",
    );
    // A rook right without the rook.
    rejected(
        "courier-moderno",
        "rnebwfkmbenr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/1NEBMKFWBENR w ACFJLacgjl - 0 1",
        FenField::Rights,
        "needs a white rook on a1",
    );
    rejected(
        "chess",
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkqX - 0 1",
        FenField::Rights,
        "'X'",
    );
    rejected(
        "chess",
        "r3k2r/8/8/8/8/8/8/R3K1R1 w K - 0 1",
        FenField::Rights,
        "rook on h1",
    );
    // ExCoCo: a king right on d1 is a re-castling right; on e1 it is nothing.
    let excoco = "tdrbchgv1qvghcbrdt/2m1n1es2se1n1m2/pppppppppppppppppp/18/18/18/8k9/PPPPPPPPPPPPPPPPPP/2M1N1ES2SE1N1M2/TD1BKRGV1QVGHCBRDT w E - 0 1";
    rejected(
        "excoco",
        excoco,
        FenField::Rights,
        "'E': no white piece can hold",
    );
}

#[test]
fn en_passant() {
    let base = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR";
    rejected(
        "chess",
        &format!("{base} w KQkq e9 0 1"),
        FenField::EnPassant,
        "'e9' is not",
    );
    rejected(
        "chess",
        &format!("{base} w KQkq x 0 1"),
        FenField::EnPassant,
        "'x' is not",
    );
    rejected(
        "chess",
        &format!("{base} w KQkq d6 0 1"),
        FenField::EnPassant,
        "no black pawn on d5",
    );
    rejected(
        "chess",
        &format!("{base} w KQkq e5 0 1"),
        FenField::EnPassant,
        "occupied",
    );
    rejected(
        "chess",
        &format!("{base} b KQkq e6 0 1"),
        FenField::EnPassant,
        "no white pawn on e7",
    );
    rejected(
        "chess",
        &format!("{base} w KQkq e6e4 0 1"),
        FenField::EnPassant,
        "follow each other",
    );
    // A pawn that could not have come from its start rank.
    rejected(
        "chess",
        "rnbqkbnr/pppp1ppp/8/8/4p3/8/PPPP1PPP/RNBQKBNR w KQkq e5 0 1",
        FenField::EnPassant,
        "cannot have come from e6",
    );
    // No multi-step pawns in courier.
    rejected(
        "courier",
        "rnebmk1wbenr/1ppppp1pppp1/6f5/p5p4p/P5P4P/6F5/1PPPPP1PPPP1/RNEBMK1WBENR w - a6 0 1",
        FenField::EnPassant,
        "does not fit",
    );
    // ExCoCo: a triple step passes two squares; three is one too many.
    let triple = "tdrbchgvkqvghcbrdt/2m1n1es2se1n1m2/pppp1ppppppppppppp/18/18/4p13/18/PPPPPPPPPPPPPPPPPP/2M1N1ES2SE1N1M2/TDRBCHGVKQVGHCBRDT";
    assert!(read("excoco", &format!("{triple} w ACIPRacipr e7e6 0 2")).is_ok());
    assert!(
        read("excoco", &format!("{triple} w ACIPRacipr e6e7 0 2")).is_ok(),
        "either order is read"
    );
    rejected(
        "excoco",
        &format!("{triple} w ACIPRacipr e6 0 2"),
        FenField::EnPassant,
        "cannot have come from e7",
    );
}

#[test]
fn clocks() {
    let kings = "8/8/8/8/8/8/8/K6k w - -";
    rejected(
        "chess",
        &format!("{kings} x 1"),
        FenField::Halfmove,
        "'x' is not a whole number",
    );
    rejected(
        "chess",
        &format!("{kings} -1 1"),
        FenField::Halfmove,
        "'-1'",
    );
    rejected(
        "chess",
        &format!("{kings} 0 0"),
        FenField::Fullmove,
        "'0' is not a number from 1 up",
    );
    rejected(
        "chess",
        &format!("{kings} 0 one"),
        FenField::Fullmove,
        "'one'",
    );
    assert_eq!(
        read("chess", kings).unwrap(),
        format!("{kings} 0 1"),
        "four fields mean clocks 0 1"
    );
}

#[test]
fn start_positions_round_trip() {
    for name in Variant::built_in_names() {
        let variant = Variant::built_in(name).unwrap();
        assert_eq!(read(name, &variant.start).unwrap(), variant.start);
    }
    // Chess reads file-letter rights and writes KQkq.
    let files = "r3k2r/8/8/8/8/8/8/R3K2R w AEHaeh - 0 1";
    assert_eq!(
        read("chess", files).unwrap(),
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    );
    assert_eq!(
        read("chess", "r3k2r/8/8/8/8/8/8/R3K2R w Hq - 0 1").unwrap(),
        "r3k2r/8/8/8/8/8/8/R3K2R w q - 0 1",
        "H alone: the king has no right"
    );
}

/// Mutates valid FENs at random (flip, delete, insert or duplicate
/// characters, cut the text) and reads them: any result is fine but a panic.
fn fuzz<B: Bitboard>(game: &Arc<Game<B>>, rng: &mut Rng) {
    let start = game.variant.start.clone();
    let alphabet: Vec<char> = "0123456789/ -wbKQkqACFJLacfjlPpRrNnEeMmWwBbGgTtDdHhSsVvIiO10e3e4"
        .chars()
        .collect();
    for _ in 0..3000 {
        let mut text: Vec<char> = start.chars().collect();
        for _ in 0..1 + rng.below(4) {
            if text.is_empty() {
                break;
            }
            let at = rng.below(text.len());
            match rng.below(5) {
                0 => text[at] = alphabet[rng.below(alphabet.len())],
                1 => {
                    text.remove(at);
                }
                2 => text.insert(at, alphabet[rng.below(alphabet.len())]),
                3 => text.truncate(at),
                _ => {
                    let c = text[at];
                    text.insert(at, c);
                }
            }
        }
        let fen: String = text.into_iter().collect();
        if let Ok(position) = Position::from_fen(game.clone(), &fen) {
            // Whatever is accepted must be a consistent position.
            assert_eq!(position.key(), position.compute_key());
            let written = position.fen();
            let again = Position::from_fen(game.clone(), &written)
                .unwrap_or_else(|e| panic!("{fen:?} -> {written:?}: {e}"));
            assert_eq!(again.fen(), written);
            position.legal_moves();
        }
    }
}

#[test]
fn no_panic_on_mutated_fens() {
    for name in Variant::built_in_names() {
        let game = AnyGame::built_in(name).unwrap();
        let mut rng = Rng::new(name.len() as u64);
        with_game!(&game, g => fuzz(g, &mut rng));
    }
}
