//! Playing games between two engine settings, in process.

use std::sync::Arc;

use kurier_engine::bitboard::Bitboard;
use kurier_engine::eval::{EvalParams, Evaluator};
use kurier_engine::game::Game;
use kurier_engine::geometry::Color;
use kurier_engine::position::Position;
use kurier_engine::rules::{GameResult, Outcome, Termination};
use kurier_engine::search::{search, Config, Control, Limits};
use kurier_engine::tt::TranspositionTable;

/// One side's settings.
#[derive(Clone, Debug)]
pub struct PlayerSettings {
    /// Name in reports.
    pub name: String,
    /// Evaluation weights.
    pub params: EvalParams,
    /// Nodes per move.
    pub nodes: u64,
    /// Whether the selective search (null move, reductions) is on.
    pub selective: bool,
}

/// A player ready to search positions of one variant.
pub struct Player<B: Bitboard> {
    /// Its settings.
    pub settings: PlayerSettings,
    evaluator: Evaluator<B>,
}

impl<B: Bitboard> Player<B> {
    /// Prepares `settings` for `game`.
    pub fn new(game: &Arc<Game<B>>, settings: PlayerSettings) -> Player<B> {
        let evaluator = Evaluator::new(game, settings.params.clone());
        Player {
            settings,
            evaluator,
        }
    }

    /// The move this player chooses (the position is not over).
    fn choose(
        &self,
        position: &Position<B>,
        tt: &TranspositionTable,
    ) -> Option<kurier_engine::moves::Move> {
        let limits = Limits {
            nodes: Some(self.settings.nodes),
            ..Limits::default()
        };
        let config = Config {
            threads: 1,
            selective: self.settings.selective,
            ..Config::default()
        };
        search(
            position,
            &self.evaluator,
            tt,
            &limits,
            &config,
            &Control::new(false),
            &mut |_| {},
        )
        .best
    }
}

/// How a game ended, with its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The result.
    pub result: GameResult,
    /// Why it ended; `None` when stopped at the ply limit (a draw).
    pub termination: Option<Termination>,
    /// The moves, UCI notation.
    pub moves: Vec<String>,
}

/// Plays one game from `start`, `white` against `black`, ended by the
/// rules of the variant or drawn after `max_plies`.
pub fn play_game<B: Bitboard>(
    start: &Position<B>,
    white: &Player<B>,
    black: &Player<B>,
    max_plies: usize,
) -> GameRecord {
    let mut position = start.clone();
    let tables = [TranspositionTable::new(4), TranspositionTable::new(4)];
    let mut moves = Vec::new();
    loop {
        if let Some(Outcome {
            result,
            termination,
        }) = position.outcome()
        {
            return GameRecord {
                result,
                termination: Some(termination),
                moves,
            };
        }
        if moves.len() >= max_plies {
            return GameRecord {
                result: GameResult::Draw,
                termination: None,
                moves,
            };
        }
        let side = position.side_to_move();
        let player = if side == Color::White { white } else { black };
        // A position that is not over has a legal move, and search returns one.
        let Some(chosen) = player.choose(&position, &tables[side.index()]) else {
            unreachable!("search found no move in a position that is not over")
        };
        moves.push(position.uci(chosen));
        position.make_move(chosen);
    }
}

/// The points (1, 1/2, 0) that `color` scored.
pub fn points_for(result: GameResult, color: Color) -> f64 {
    match result {
        GameResult::Draw => 0.5,
        r if r == GameResult::win_for(color) => 1.0,
        _ => 0.0,
    }
}
