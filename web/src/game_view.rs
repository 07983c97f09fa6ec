//! What the page is sent about a game: its state after each change (moves,
//! legal moves, clocks, result) and the events of its stream.

use serde::Serialize;

use crate::game_request::EngineLimit;
use crate::thinking::Thinking;
use crate::variants::VariantInfo;
use crate::view::{LegalMove, PlayedMove, Side, Snapshot};

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameOver {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// Why, as PGN's `Termination` tag writes it (`checkmate`, `bare
    /// king`, `time forfeit`, ...).
    pub termination: String,
    /// The winner; none for a draw.
    pub winner: Option<Side>,
}

/// The clocks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ClockView {
    /// White's time left, milliseconds, as of this view.
    pub white_ms: u64,
    /// Black's.
    pub black_ms: u64,
    /// The side whose clock runs (none when the game is over).
    pub running: Option<Side>,
}

/// A game as the page sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameView {
    /// The game's number on this server.
    pub id: u64,
    /// Counts every change; a page drops a view older than its newest.
    pub version: u64,
    /// The variant.
    pub variant: VariantInfo,
    /// The person's side.
    pub human: Side,
    /// The engine's limit.
    pub limit: EngineLimit,
    /// The limit in words.
    pub limit_text: String,
    /// The current position.
    pub position: Snapshot,
    /// The start position's FEN.
    pub start_fen: String,
    /// The moves so far.
    pub moves: Vec<PlayedMove>,
    /// The person's legal moves, when it is their move.
    pub legal: Vec<LegalMove>,
    /// Whether the engine is thinking.
    pub thinking: bool,
    /// How the game ended, once it has.
    pub over: Option<GameOver>,
    /// The clocks, in a game on the clock.
    pub clock: Option<ClockView>,
    /// Whether a move of the person's can be taken back.
    pub can_take_back: bool,
}

/// What the page is told as it happens.
#[derive(Clone, Debug)]
pub enum GameEvent {
    /// The game changed.
    State(Box<GameView>),
    /// A search report of the engine.
    Thinking(Thinking),
}
