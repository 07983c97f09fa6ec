//! What the page asks for when it starts a game, and the bounds every request
//! is held to: the engine's limit (nodes or a clock) and the start position.

use kurier_tuner::players::clock::TimeControl;
use serde::{Deserialize, Serialize};

use crate::view::Side;

/// The longest FEN a new game accepts, in bytes (ExCoCo's start
/// position takes 95).
pub const MAX_FEN_BYTES: usize = 4096;

/// The longest move text: two squares of up to three characters and a
/// promotion letter, with room to spare.
pub const MAX_MOVE_CHARS: usize = 12;

/// The largest node budget per engine move.
pub const MAX_NODES: u64 = 100_000_000;

/// The longest base time of a clock, in milliseconds (ten hours).
pub const MAX_BASE_MS: u64 = 36_000_000;

/// The largest increment of a clock, in milliseconds (ten minutes).
pub const MAX_INCREMENT_MS: u64 = 600_000;

/// How much the engine may think.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum EngineLimit {
    /// About this many nodes per move; the person's time is not kept.
    Nodes {
        /// Nodes per move.
        nodes: u64,
    },
    /// Both sides on one clock: base time plus an increment per move.
    Clock {
        /// Time for the game, milliseconds.
        base_ms: u64,
        /// Time added after each move, milliseconds.
        increment_ms: u64,
    },
}

impl EngineLimit {
    /// Whether the limit is one the server plays with; else why not.
    pub fn check(&self) -> Result<(), String> {
        match *self {
            EngineLimit::Nodes { nodes } if nodes == 0 || nodes > MAX_NODES => Err(format!(
                "the node budget must be 1 to {MAX_NODES}, not {nodes}"
            )),
            EngineLimit::Clock { base_ms, .. } if base_ms == 0 || base_ms > MAX_BASE_MS => {
                Err(format!(
                    "the clock's base time must be 1 to {MAX_BASE_MS} ms, not {base_ms}"
                ))
            }
            EngineLimit::Clock { increment_ms, .. } if increment_ms > MAX_INCREMENT_MS => {
                Err(format!(
                    "the clock's increment must be at most {MAX_INCREMENT_MS} ms, not {increment_ms}"
                ))
            }
            _ => Ok(()),
        }
    }

    /// The time control, for a clock.
    pub fn time_control(&self) -> Option<TimeControl> {
        match *self {
            EngineLimit::Nodes { .. } => None,
            EngineLimit::Clock {
                base_ms,
                increment_ms,
            } => Some(TimeControl {
                base_ms,
                increment_ms,
            }),
        }
    }

    /// In words: `20000 nodes per move`, or the time control as PGN's
    /// `TimeControl` tag writes it (`300+2`, seconds).
    pub fn describe(&self) -> String {
        match *self {
            EngineLimit::Nodes { nodes } => format!("{nodes} nodes per move"),
            EngineLimit::Clock {
                base_ms,
                increment_ms,
            } => TimeControl {
                base_ms,
                increment_ms,
            }
            .to_string(),
        }
    }
}

/// What the page asks for to start a game.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// The variant's name.
    pub variant: String,
    /// The person's side; the engine plays the other.
    pub human: Side,
    /// How much the engine thinks.
    pub limit: EngineLimit,
    /// A start position other than the variant's.
    #[serde(default)]
    pub fen: Option<String>,
}
