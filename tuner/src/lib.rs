//! Kurier's tuner: self-play matches between engine settings with sound
//! statistics (game pairs, the pentanomial model). Piece-value fitting
//! builds on it.

pub mod openings;
pub mod play;
pub mod stats;
