//! Square colours, and the pair of a colour-bound type: a side has the pair
//! when it has men of that type on both square colours.

use kurier_engine::board::bitboard::Bitboard;
use kurier_engine::position::game::Game;
use kurier_engine::position::state::Position;
use kurier_engine::types::{Color, Square};

/// The colour of a square: 0 or 1 by the parity of file plus rank.
pub fn square_colour<B: Bitboard>(game: &Game<B>, square: Square) -> u8 {
    (game.geometry.file_of(square) + game.geometry.rank_of(square)) % 2
}

/// Whether `color` has men of type `t` on both square colours.
pub fn has_pair<B: Bitboard>(position: &Position<B>, color: Color, t: usize) -> bool {
    let game = position.game();
    let mut seen = [false; 2];
    for square in position.pieces(color, t).squares() {
        seen[usize::from(square_colour(game, square))] = true;
    }
    seen[0] && seen[1]
}
