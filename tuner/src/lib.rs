//! Kurier's tuner: tournaments between engine settings and external UCI
//! engines with sound statistics (game pairs, the pentanomial model,
//! SPRT), and piece-value fitting built on them.

pub mod adjudication;
pub mod clock;
pub mod engine_pool;
pub mod export;
pub mod external;
pub mod journal;
pub mod openings;
pub mod pgn;
pub mod play;
pub mod players;
pub mod progress;
pub mod schedule;
pub mod settings;
pub mod spec;
pub mod stats;
pub mod summary;
pub mod tournament;
pub mod values;
pub mod variant_source;
