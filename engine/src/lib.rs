//! Kurier's engine: the rules of the Courier family of chess variants
//! (and FIDE chess) as data, bitboard move generation for boards of up to
//! 256 squares, FEN, and perft.
//!
//! ```
//! use kurier_engine::position::{any_game::AnyGame, perft::perft, state::Position};
//! use kurier_engine::with_game;
//! let game = AnyGame::built_in("courier").unwrap();
//! let nodes = with_game!(&game, g => perft(&mut Position::startpos(g.clone()), 2));
//! assert_eq!(nodes, 678);
//! ```

//! The modules form layers; each imports only the layers above it (the
//! `layout` test in `tests/` checks it):
//!
//! 1. [`types`]: squares, colours, pieces, moves, the clock;
//! 2. [`variant`]: variants as data (Betza moves, variant files);
//! 3. [`board`]: bitboards, the board's shape, attack tables;
//! 4. [`position`]: the position, FEN, move generation, rules, notation;
//! 5. [`import`]: variant files of other programs;
//! 6. [`eval`]: the static evaluation and its parameters;
//! 7. [`search`]: the search, its tables, time management and threads;
//! 8. [`protocol`]: UCI, XBoard and `bench`.

pub mod board;
pub mod eval;
pub mod import;
pub mod position;
pub mod protocol;
pub mod search;
pub mod types;
pub mod variant;
