//! A position of a compiled variant: the game's tables, the position and
//! its make/unmake, FEN, move generation, the rules that end a game, move
//! notation (coordinate and SAN), piece-square sums, and perft.

pub mod any_game;
pub mod fen;
pub mod game;
pub mod movegen;
pub mod notation;
pub mod perft;
pub mod psq;
pub mod rules;
pub mod san;
pub mod state;
