//! Materially imbalanced positions for the designed experiment: an
//! opening position with some men removed from each side, the men drawn
//! at random among those of their type (so that a trade is measured over
//! many instances, not always on the same squares), and only positions
//! that are legal and quiet kept.
//!
//! A kept position has both kings (they are never removed), no pawn
//! where it must have promoted (removing men cannot put one there), the
//! rights of removed men dropped, no en-passant square, no side in check
//! (neither the side to move nor the other), a legal move, no result yet,
//! and a quiescence score equal to the static evaluation of the engine
//! that plays the experiment (nothing hangs: otherwise the first capture
//! would change the imbalance the design set). `Position::from_fen`
//! checks the position's legality.

use std::sync::Arc;

use kurier_engine::board::bitboard::Bitboard;
use kurier_engine::eval::evaluate::Evaluator;
use kurier_engine::position::game::Game;
use kurier_engine::position::state::Position;
use kurier_engine::types::{Color, Square};

use crate::positions::quiet::is_quiet;
use crate::util::rng::Rng;

/// The men each side loses: piece types, a type listed twice losing two.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Removal {
    /// Types White loses.
    pub white: Vec<usize>,
    /// Types Black loses.
    pub black: Vec<usize>,
}

/// Draws the squares of the men `removal` names in `base`, at random;
/// `None` when `base` lacks them.
pub fn draw_squares<B: Bitboard>(
    base: &Position<B>,
    removal: &Removal,
    rng: &mut Rng,
) -> Option<Vec<Square>> {
    let mut squares = Vec::new();
    for (color, lost) in [
        (Color::White, &removal.white),
        (Color::Black, &removal.black),
    ] {
        let mut types = lost.clone();
        types.sort_unstable();
        for group in types.chunk_by(|a, b| a == b) {
            let mut men: Vec<Square> = base.pieces(color, group[0]).squares().collect();
            if men.len() < group.len() {
                return None;
            }
            for _ in 0..group.len() {
                squares.push(men.swap_remove(rng.below(men.len())));
            }
        }
    }
    squares.sort_unstable_by_key(|s| s.index());
    Some(squares)
}

/// `base` without the men on `removed`, checked as the module describes
/// (`evaluator` judges quietness); the reason when it is refused.
pub fn imbalanced_position<B: Bitboard>(
    base: &Position<B>,
    removed: &[Square],
    evaluator: &Evaluator<B>,
) -> Result<Position<B>, String> {
    let game = base.game();
    let fen = fen_without(base, removed);
    let position = Position::from_fen(game.clone(), &fen).map_err(|e| format!("{fen}: {e}"))?;
    if position.in_check() {
        return Err(format!("{fen}: the side to move is in check"));
    }
    if position.outcome().is_some() || position.legal_moves().is_empty() {
        return Err(format!("{fen}: the game is over"));
    }
    if !is_quiet(&position, evaluator) {
        return Err(format!("{fen}: not quiet (a capture changes the material)"));
    }
    Ok(position)
}

/// The FEN of `base` without the men on `removed`: rights in file form
/// (every variant reads them), without the rights of removed men, no
/// en-passant square, clocks `0 1`.
pub fn fen_without<B: Bitboard>(base: &Position<B>, removed: &[Square]) -> String {
    let game: &Arc<Game<B>> = base.game();
    let geometry = &game.geometry;
    let mut placement = Vec::new();
    for rank in (0..geometry.ranks()).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for file in 0..geometry.files() {
            let square = geometry
                .square_at(i32::from(file), i32::from(rank))
                .unwrap_or_else(|| unreachable!("file and rank are on the board"));
            match base.piece_at(square).filter(|_| !removed.contains(&square)) {
                Some(piece) => {
                    if empty > 0 {
                        row.push_str(&empty.to_string());
                        empty = 0;
                    }
                    let letter = game.variant.pieces[piece.piece_type()].letter;
                    row.push(match piece.color() {
                        Color::White => letter.to_ascii_uppercase(),
                        Color::Black => letter.to_ascii_lowercase(),
                    });
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        placement.push(row);
    }
    let rights_squares = game.canonical_rights(base.unmoved());
    let mut rights = String::new();
    for color in Color::BOTH {
        let mut files: Vec<u8> = (rights_squares & base.color_pieces(color))
            .squares()
            .filter(|square| !removed.contains(square))
            .map(|square| geometry.file_of(square))
            .collect();
        files.sort_unstable();
        files.dedup();
        for file in files {
            let letter = char::from(b'a' + file);
            rights.push(match color {
                Color::White => letter.to_ascii_uppercase(),
                Color::Black => letter,
            });
        }
    }
    if rights.is_empty() {
        rights.push('-');
    }
    let side = match base.side_to_move() {
        Color::White => 'w',
        Color::Black => 'b',
    };
    format!("{} {side} {rights} - 0 1", placement.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use kurier_engine::eval::evaluate::EvalParams;
    use kurier_engine::position::any_game::AnyGame;

    #[test]
    fn removed_men_and_their_rights_are_gone() {
        let AnyGame::Narrow(game) = AnyGame::built_in("chess").unwrap() else {
            unreachable!("chess is narrow")
        };
        let start = Position::startpos(game.clone());
        let h1 = game.geometry.parse_square("h1").unwrap();
        let a7 = game.geometry.parse_square("a7").unwrap();
        assert!(fen_without(&start, &[h1, a7])
            .starts_with("rnbqkbnr/1ppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w "));
        let evaluator = Evaluator::new(&game, EvalParams::for_variant(&game.variant).unwrap());
        let position = imbalanced_position(&start, &[h1, a7], &evaluator).unwrap();
        // Read back, the rights are White's queen side and both of Black's.
        assert_eq!(
            position.fen(),
            "rnbqkbnr/1ppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w Qkq - 0 1"
        );
        // Removing the e2 pawn and the f8 bishop is legal; removing the
        // d7 and e7 pawns in a position where White's queen then checks
        // is refused.
        let checked = Position::from_fen(
            game.clone(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPQPPP/RNB1KBNR w KQkq - 0 1",
        )
        .unwrap();
        let e7 = game.geometry.parse_square("e7").unwrap();
        let error = imbalanced_position(&checked, &[e7], &evaluator).unwrap_err();
        assert!(
            error.contains("attacked") || error.contains("check"),
            "{error}"
        );
    }

    #[test]
    fn squares_are_drawn_among_the_men_of_each_type() {
        let AnyGame::Narrow(game) = AnyGame::built_in("chess").unwrap() else {
            unreachable!("chess is narrow")
        };
        let start = Position::startpos(game.clone());
        let knight = game.variant.type_of_letter('N').unwrap();
        let pawn = game.variant.type_of_letter('P').unwrap();
        let removal = Removal {
            white: vec![knight],
            black: vec![pawn, pawn, pawn],
        };
        let mut seen = std::collections::BTreeSet::new();
        for seed in 0..40 {
            let squares = draw_squares(&start, &removal, &mut Rng::new(seed)).unwrap();
            assert_eq!(squares.len(), 4);
            let white: Vec<_> = squares.iter().filter(|s| s.index() < 8).collect();
            assert_eq!(white.len(), 1);
            assert!(["b1", "g1"].contains(&game.geometry.square_name(*white[0]).as_str()));
            assert!(
                squares
                    .iter()
                    .filter(|s| (48..56).contains(&s.index()))
                    .count()
                    == 3
            );
            seen.insert(squares);
        }
        // Random instances, not always the same squares.
        assert!(seen.len() > 20, "{} distinct instances", seen.len());
        let too_many = Removal {
            white: vec![knight; 3],
            black: Vec::new(),
        };
        assert!(draw_squares(&start, &too_many, &mut Rng::new(1)).is_none());
    }
}
