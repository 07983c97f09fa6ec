//! Kurier's engine: the rules of the Courier family of chess variants
//! (and FIDE chess) as data, bitboard move generation for boards of up to
//! 256 squares, FEN, and perft.
//!
//! ```
//! use kurier_engine::{game::AnyGame, perft::perft, position::Position, with_game};
//! let game = AnyGame::built_in("courier").unwrap();
//! let nodes = with_game!(&game, g => perft(&mut Position::startpos(g.clone()), 2));
//! assert_eq!(nodes, 678);
//! ```

pub mod attacks;
pub mod bench;
pub mod betza;
pub mod bitboard;
pub mod eval;
mod eval_cache;
pub mod fen;
pub mod game;
pub mod geometry;
pub mod history;
pub mod import;
pub mod movegen;
pub mod movepick;
pub mod moves;
pub mod notation;
pub mod params;
pub mod perft;
pub mod position;
pub mod prefetch;
pub mod psq;
pub mod rules;
pub mod san;
pub mod search;
pub mod see;
pub mod session;
pub mod sliders;
pub mod threads;
pub mod time;
pub mod timeman;
pub mod tt;
pub mod uci;
pub mod value_estimate;
pub mod variant;
pub mod variant_spec;
pub mod xboard;
pub mod zobrist;
