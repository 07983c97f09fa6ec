//! What goes into a search and what comes out: mate scores and the
//! deepest ply, the limits and configuration, the control that stops it,
//! the progress reports and the result.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::Duration;

use crate::search::tt::Bound;
use crate::types::{Clock, Move};

/// A mate score: `MATE - n` is mate in `n` plies.
pub const MATE: i32 = 32_000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// The deepest the search goes, in plies from the root.
pub const MAX_PLY: usize = 128;

/// What limits a search (all that are set apply).
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Stop after this depth.
    pub depth: Option<u32>,
    /// Stop after about this many nodes (all threads together).
    pub nodes: Option<u64>,
    /// Think this long.
    pub movetime: Option<Duration>,
    /// Play on a clock.
    pub clock: Option<Clock>,
    /// Search until told to stop.
    pub infinite: bool,
    /// Search only these root moves (UCI `searchmoves`).
    pub search_moves: Vec<Move>,
}

/// Settings that stay the same from search to search.
#[derive(Clone, Debug)]
pub struct Config {
    /// Search threads.
    pub threads: usize,
    /// How many best lines to report.
    pub multipv: usize,
    /// Time kept in reserve for communication.
    pub move_overhead: Duration,
    /// Selective search: null-move pruning, late-move reductions and
    /// pruning, reverse futility pruning. Off only to measure what they
    /// are worth.
    pub selective: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            threads: 1,
            multipv: 1,
            move_overhead: Duration::from_millis(30),
            selective: true,
        }
    }
}

/// Tells a running search to stop, or that a ponder move was played;
/// shared between the search and the protocol thread.
#[derive(Debug, Default)]
pub struct Control {
    stop: AtomicBool,
    pondering: AtomicBool,
    /// Milliseconds after the search started at which `ponderhit` came.
    pub(super) ponderhit_at: AtomicU64,
    waiting: Mutex<()>,
    wake: Condvar,
}

impl Control {
    /// A control for a search that starts now; `ponder` for `go ponder`.
    pub fn new(ponder: bool) -> Control {
        let control = Control::default();
        control.pondering.store(ponder, Ordering::SeqCst);
        control
    }
    /// Asks the search to stop as soon as possible.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
        let _guard = self
            .waiting
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        self.wake.notify_all();
    }
    /// The opponent played the ponder move: the search now runs on the clock.
    pub fn ponderhit(&self, since_start: Duration) {
        self.ponderhit_at
            .store(since_start.as_millis() as u64, Ordering::SeqCst);
        self.pondering.store(false, Ordering::SeqCst);
        let _guard = self
            .waiting
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        self.wake.notify_all();
    }
    pub(super) fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
    pub(super) fn pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }
    /// Blocks (without spinning) until stop, or until pondering ends when
    /// `until_ponderhit` is set.
    pub(super) fn wait(&self, until_ponderhit: bool) {
        let mut guard = self
            .waiting
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        while !self.stopped() && (!until_ponderhit || self.pondering()) {
            guard = self
                .wake
                .wait(guard)
                .unwrap_or_else(|poisoned| poisoned.into_inner());
        }
    }
}

/// A score as UCI reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns from the side to move's point of view.
    Centipawns(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

impl Score {
    /// The report form of an internal score.
    pub fn from_internal(score: i32) -> Score {
        if score > MATE_BOUND {
            Score::Mate((MATE - score + 1) / 2)
        } else if score < -MATE_BOUND {
            Score::Mate(-(MATE + score + 1) / 2)
        } else {
            Score::Centipawns(score)
        }
    }
}

/// One line of search progress.
#[derive(Clone, Debug)]
pub struct Report {
    /// Iteration depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Which of the best lines (1 = best).
    pub multipv: usize,
    /// The score of the line.
    pub score: Score,
    /// Whether the score is only a bound (`Some(Bound::Lower)`: at least).
    pub bound: Bound,
    /// Nodes searched, all threads.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Permille of the hash table in use.
    pub hashfull: u32,
    /// The line.
    pub pv: Vec<Move>,
}

/// The outcome of a search.
#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    /// The move to play (`None` if there is no legal move).
    pub best: Option<Move>,
    /// The expected reply, to ponder on.
    pub ponder: Option<Move>,
    /// The score of the best move.
    pub score: i32,
    /// The last completed depth.
    pub depth: u32,
    /// Nodes searched, all threads.
    pub nodes: u64,
}
