//! The seats at the board: in-process Kurier players with their search limit,
//! and the seat abstraction through which a game asks any player (Kurier or
//! an external engine) for its move.

use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use kurier_engine::board::bitboard::Bitboard;
use kurier_engine::eval::evaluate::{EvalParams, Evaluator};
use kurier_engine::position::game::Game;
use kurier_engine::position::state::Position;
use kurier_engine::search::alpha_beta::search;
use kurier_engine::search::history::SearchHistories;
use kurier_engine::search::interface::{Config, Control, Limits, Score};
use kurier_engine::search::tt::TranspositionTable;
use kurier_engine::types::Clock;
use serde::{Deserialize, Serialize};

use crate::players::clock::TimeControl;
use crate::records::game_record::MoveScore;

/// How much a player may search for each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SearchLimit {
    /// About this many nodes per move.
    Nodes(u64),
    /// This depth per move.
    Depth(u32),
    /// A clock for the game.
    Clock(TimeControl),
}

impl fmt::Display for SearchLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SearchLimit::Nodes(nodes) => write!(f, "{nodes} nodes"),
            SearchLimit::Depth(depth) => write!(f, "depth {depth}"),
            SearchLimit::Clock(control) => write!(f, "{control} s"),
        }
    }
}

/// Hash table size of an in-process player unless set otherwise, in MiB.
pub const DEFAULT_HASH_MB: usize = 16;

/// One in-process side's settings.
#[derive(Clone, Debug)]
pub struct PlayerSettings {
    /// Name in reports.
    pub name: String,
    /// Evaluation weights.
    pub params: EvalParams,
    /// Search limit per move (or clock).
    pub limit: SearchLimit,
    /// Whether the selective search (null move, reductions) is on.
    pub selective: bool,
    /// Search threads.
    pub threads: usize,
    /// Hash table size in MiB; every game starts with an empty table.
    pub hash_mb: usize,
}

impl PlayerSettings {
    /// Settings with the selective search on, one thread and
    /// [`DEFAULT_HASH_MB`].
    pub fn new(name: &str, params: EvalParams, limit: SearchLimit) -> PlayerSettings {
        PlayerSettings {
            name: name.to_string(),
            params,
            limit,
            selective: true,
            threads: 1,
            hash_mb: DEFAULT_HASH_MB,
        }
    }
}

/// An in-process player ready to search positions of one variant.
pub struct Player<B: Bitboard> {
    /// Its settings.
    pub settings: PlayerSettings,
    evaluator: Evaluator<B>,
    /// The tables of seats that have left the board, for the next seats.
    spare_tables: Mutex<Vec<SeatTables>>,
}

impl<B: Bitboard> Player<B> {
    /// Prepares `settings` for `game`.
    pub fn new(game: &Arc<Game<B>>, settings: PlayerSettings) -> Player<B> {
        let evaluator = Evaluator::new(game, settings.params.clone());
        Player {
            settings,
            evaluator,
            spare_tables: Mutex::new(Vec::new()),
        }
    }

    /// A seat for one game, with its own hash table and move statistics,
    /// empty: those of an earlier seat cleared, or new ones. Clearing
    /// instead of allocating spares every game the page faults of about
    /// 33 MB a seat at ExCoCo (bench/README, "Tables kept from game to
    /// game").
    pub fn seat(&self) -> KurierSeat<'_, B> {
        let spare = self
            .spare_tables
            .lock()
            .ok()
            .and_then(|mut spare| spare.pop());
        let tables = match spare {
            Some(mut tables) => {
                tables.tt.clear();
                tables.histories.clear();
                tables
            }
            None => SeatTables {
                tt: TranspositionTable::new(self.settings.hash_mb),
                histories: SearchHistories::new(),
            },
        };
        KurierSeat {
            player: self,
            tables: Some(tables),
        }
    }
}

/// A seat's hash table and move statistics.
struct SeatTables {
    tt: TranspositionTable,
    histories: SearchHistories,
}

/// A player's answer: the move in UCI notation, as it was sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// The move.
    pub uci: String,
    /// Its score, if the player reported one.
    pub score: Option<MoveScore>,
    /// The depth searched (0 if not reported).
    pub depth: u32,
}

/// Why a player gave no usable answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeatFailure {
    /// The engine process died or closed its output.
    Crashed(String),
    /// No answer before the deadline.
    Timeout,
    /// The answer broke the protocol.
    Protocol(String),
    /// The answer is not a legal move (the seat found it out itself).
    IllegalMove(String),
}

/// What a seat is asked for one move.
pub struct MoveRequest<'a, B: Bitboard> {
    /// The position, with its history.
    pub position: &'a Position<B>,
    /// The game's start position.
    pub start: &'a Position<B>,
    /// The moves since `start`, UCI notation.
    pub moves: &'a [String],
    /// Both clocks, when the mover plays on a clock.
    pub clock: Option<Clock>,
    /// When to give up waiting for an answer.
    pub deadline: Instant,
}

/// A player's place at one game's board: in process or an external
/// engine. A seat lives for one game.
pub trait Seat<B: Bitboard> {
    /// The player's search limit.
    fn limit(&self) -> SearchLimit;
    /// The move to play in `request.position`, which is not over.
    fn reply(&mut self, request: &MoveRequest<'_, B>) -> Result<Reply, SeatFailure>;
}

/// An in-process player's seat: the player, and this game's hash table
/// and move statistics (given back to the player when the seat goes).
pub struct KurierSeat<'p, B: Bitboard> {
    player: &'p Player<B>,
    /// Always `Some` until the seat is dropped.
    tables: Option<SeatTables>,
}

impl<B: Bitboard> Drop for KurierSeat<'_, B> {
    fn drop(&mut self) {
        if let (Some(tables), Ok(mut spare)) = (self.tables.take(), self.player.spare_tables.lock())
        {
            spare.push(tables);
        }
    }
}

impl<B: Bitboard> Seat<B> for KurierSeat<'_, B> {
    fn limit(&self) -> SearchLimit {
        self.player.settings.limit
    }

    fn reply(&mut self, request: &MoveRequest<'_, B>) -> Result<Reply, SeatFailure> {
        let settings = &self.player.settings;
        let limits = match settings.limit {
            SearchLimit::Nodes(nodes) => Limits {
                nodes: Some(nodes),
                ..Limits::default()
            },
            SearchLimit::Depth(depth) => Limits {
                depth: Some(depth),
                ..Limits::default()
            },
            SearchLimit::Clock(_) => Limits {
                clock: request.clock,
                ..Limits::default()
            },
        };
        let config = Config {
            threads: settings.threads.max(1),
            selective: settings.selective,
            ..Config::default()
        };
        let Some(tables) = self.tables.as_mut() else {
            unreachable!("a seat keeps its tables until it is dropped");
        };
        let result = search(
            request.position,
            &self.player.evaluator,
            &tables.tt,
            &mut tables.histories,
            &limits,
            &config,
            &Control::new(false),
            &mut |_| {},
        );
        // The game loop asks only in positions that are not over, where
        // the search always has a move; say so rather than panic.
        let Some(best) = result.best else {
            return Err(SeatFailure::Protocol(
                "the search found no move in a position that is not over".to_string(),
            ));
        };
        Ok(Reply {
            uci: request.position.uci(best),
            score: Some(MoveScore::from(Score::from_internal(result.score))),
            depth: result.depth,
        })
    }
}
