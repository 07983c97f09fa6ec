//! Move notation: UCI coordinates (`e2e4`, `e7e8q`, castling as the
//! king's move `f1c1`).

use std::fmt;

use crate::board::bitboard::Bitboard;
use crate::position::state::Position;
use crate::types::{Move, MoveKind, Square};

/// Why a move text was not accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveError {
    /// The text as given.
    pub text: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "move '{}': {}", self.text, self.message)
    }
}

impl std::error::Error for MoveError {}

impl<B: Bitboard> Position<B> {
    /// The move in UCI notation.
    pub fn uci(&self, played: Move) -> String {
        let game = self.game();
        let geometry = &game.geometry;
        let mut text = geometry.square_name(Square::new(played.from()));
        text.push_str(&geometry.square_name(Square::new(played.to())));
        if played.kind() == MoveKind::Promotion {
            let letter = game.variant.pieces[usize::from(played.extra())].letter;
            text.push(letter.to_ascii_lowercase());
        }
        text
    }

    /// The legal move written `text` in UCI notation.
    pub fn parse_uci(&self, text: &str) -> Result<Move, MoveError> {
        let error = |message: String| MoveError {
            text: text.to_string(),
            message,
        };
        let geometry = &self.game().geometry;
        let (from, rest) = geometry
            .parse_square_prefix(text)
            .ok_or_else(|| error("it does not start with a square of the board".into()))?;
        let (to, rest) = geometry
            .parse_square_prefix(rest)
            .ok_or_else(|| error("the second square is missing or off the board".into()))?;
        if rest.len() > 1 || rest.chars().any(|c| !c.is_ascii_lowercase()) {
            return Err(error(format!("'{rest}' is not a promotion letter")));
        }
        let legal = self.legal_moves();
        legal
            .into_iter()
            .find(|m| m.from() == from.byte() && m.to() == to.byte() && self.uci(*m) == text)
            .ok_or_else(|| error("it is not a legal move in this position".into()))
    }
}
