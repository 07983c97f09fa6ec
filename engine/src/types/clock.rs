//! The clock as the protocols report it (`go wtime btime winc binc
//! movestogo`, XBoard `time`/`otim`/`level`); how the search spends it is
//! decided in [`crate::search::timeman`].

use std::time::Duration;

/// The clock state from `go wtime btime winc binc movestogo`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left, `[white, black]`.
    pub time: [Duration; 2],
    /// Increment per move, `[white, black]`.
    pub increment: [Duration; 2],
    /// Moves until the next time control, if any.
    pub moves_to_go: Option<u32>,
}
