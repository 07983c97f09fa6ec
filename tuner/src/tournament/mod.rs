//! Tournaments: one game played to its end (with adjudication), the
//! schedule of a run, its settings and journal, the scores, the live
//! progress line, the results files, and the runner that ties them.

pub mod adjudication;
pub mod game_loop;
pub mod journal;
pub mod opening_book;
pub mod progress_line;
pub mod results;
pub mod runner;
pub mod schedule;
pub mod settings;
pub mod summary;
