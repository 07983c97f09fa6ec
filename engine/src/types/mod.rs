//! The vocabulary every other part speaks: squares, colours, pieces, moves
//! and the clock. A leaf: it imports nothing else of the crate.

mod clock;
mod color;
mod moves;
mod piece;
mod square;

pub use clock::Clock;
pub use color::Color;
pub use moves::{Move, MoveKind};
pub use piece::Piece;
pub use square::{parse_square_prefix, Square, MAX_FILES, MAX_SQUARES};
