//! Kurier's tuner: tournaments between engine settings and external UCI
//! engines with sound statistics (game pairs, the pentanomial model,
//! SPRT), and piece-value fitting built on them.

pub mod adjudication;
pub mod clock;
pub mod engine_pool;
pub mod evaltune;
pub mod export;
pub mod external;
pub mod journal;
pub mod label;
pub mod openings;
pub mod pgn;
pub mod play;
pub mod players;
pub mod progress;
pub mod progress_bar;
pub mod schedule;
pub mod scored;
pub mod settings;
pub mod spec;
pub mod stats;
pub mod summary;
pub mod tournament;
pub mod values;
pub mod variant_source;
