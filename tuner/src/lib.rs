//! Kurier's tuner: tournaments between engine settings and external UCI
//! engines with sound statistics (game pairs, the pentanomial model,
//! SPRT), and piece-value fitting built on them.
//!
//! The folders in the order of their imports (each uses only those
//! before it):
//!
//! - [`util`]: small helpers (random numbers, fingerprints, dates,
//!   `key=value` lists, shards, progress bars);
//! - [`stats`]: match statistics (Elo, pentanomial, SPRT), logistic
//!   regression and the bootstrap;
//! - [`records`]: what games leave behind (game records, PGN, journals'
//!   line files, the variant a run plays);
//! - [`positions`]: openings, quiet positions and the positions dataset;
//! - [`players`]: who sits at the board (Kurier settings, UCI engines,
//!   their clocks);
//! - [`tournament`]: playing games and whole runs (adjudication, the
//!   schedule, the journal, scores and results files);
//! - [`texel`]: every evaluation weight fitted to games or to an
//!   engine's scores (`kurier-tune texel`, `kurier-tune label`);
//! - [`values`]: piece values measured by games (`kurier-tune values`,
//!   `kurier-tune report`);
//! - [`cli`]: the command line of `kurier-tune`.

pub mod cli;
pub mod players;
pub mod positions;
pub mod records;
pub mod stats;
pub mod texel;
pub mod tournament;
pub mod util;
pub mod values;
