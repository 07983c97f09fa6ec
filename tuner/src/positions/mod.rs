//! Positions for games and fits: random openings and books of them,
//! quiet positions, and the positions dataset of self-play games.

pub mod dataset;
pub mod openings;
pub mod quiet;
pub mod square_colours;
