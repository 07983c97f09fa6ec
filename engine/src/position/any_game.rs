//! A loaded variant of either width, and [`with_game!`](crate::with_game)
//! that runs generic code on it.

use std::sync::Arc;

use crate::board::bitboard::{Bitboard, U256};
use crate::position::game::Game;
use crate::position::state::Position;
use crate::variant::definition::{Variant, VariantError};

/// A loaded variant of either width: the one place that picks the width.
#[derive(Clone, Debug)]
pub enum AnyGame {
    /// Boards of up to 128 squares.
    Narrow(Arc<Game<u128>>),
    /// Boards of 129 to 256 squares.
    Wide(Arc<Game<U256>>),
}

/// Runs `$body` with `$game` bound to the `Arc<Game<B>>` of either width.
#[macro_export]
macro_rules! with_game {
    ($any:expr, $game:ident => $body:expr) => {
        match $any {
            $crate::position::any_game::AnyGame::Narrow($game) => $body,
            $crate::position::any_game::AnyGame::Wide($game) => $body,
        }
    };
}

impl AnyGame {
    /// Compiles a variant with the narrowest bitboard that holds its board
    /// and checks that its start FEN reads as a position.
    pub fn new(variant: Variant) -> Result<AnyGame, VariantError> {
        let squares = usize::from(variant.files) * usize::from(variant.ranks);
        if squares <= 128 {
            Ok(AnyGame::Narrow(checked(Game::new(variant)?)?))
        } else {
            Ok(AnyGame::Wide(checked(Game::new(variant)?)?))
        }
    }

    /// A built-in variant by name, compiled.
    pub fn built_in(name: &str) -> Result<AnyGame, VariantError> {
        AnyGame::new(Variant::built_in(name)?)
    }

    /// The variant's description.
    pub fn variant(&self) -> &Variant {
        with_game!(self, game => &game.variant)
    }
}

/// `game` once its start FEN has been read as a position: the placement,
/// side, rights and clocks all fit the variant.
fn checked<B: Bitboard>(game: Arc<Game<B>>) -> Result<Arc<Game<B>>, VariantError> {
    let start = game.variant.start.clone();
    Position::from_fen(game.clone(), &start).map_err(|e| VariantError {
        source: game.variant.name.clone(),
        key: "start".into(),
        message: e.to_string(),
    })?;
    Ok(game)
}
