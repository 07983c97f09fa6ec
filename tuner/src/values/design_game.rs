//! The designed experiment's games as the journal keeps them, and what the
//! fits read from them: the rows of the model and the complete pairs.

use std::sync::Arc;

use kurier_engine::board::bitboard::Bitboard;
use kurier_engine::position::game::Game;
use kurier_engine::position::state::Position;
use serde::{Deserialize, Serialize};

use crate::records::game_record::check_ending;
use crate::records::line_journal::JournalEntry;
use crate::values::features::FeatureSpace;
use crate::values::ordinal::{OrdinalRow, BLACK_WINS, DRAW, WHITE_WINS};
use crate::values::trade::Trade;

/// One game of the designed experiment, as its journal line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DesignGame {
    /// The budget's index in the run's list of budgets.
    pub budget: u32,
    /// The batch, from 1.
    pub batch: u32,
    /// The pair within the batch, from 0.
    pub pair: u32,
    /// Whether side A (the side losing the trade's first men) is White.
    pub a_white: bool,
    /// The trade.
    pub trade: Trade,
    /// The start position.
    pub fen: String,
    /// The moves, UCI notation.
    pub moves: Vec<String>,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// Why it ended.
    pub termination: String,
    /// CPU time of the game, milliseconds.
    pub cpu_ms: u64,
    /// Each move's score as its mover's search reported it, in
    /// centipawns from the mover's side (mates as
    /// [`MATE_CENTIPAWNS`](crate::records::game_record::MATE_CENTIPAWNS)),
    /// as cutechess keeps them in its PGN: what any score rule would have
    /// seen, so that one can be judged on games played without it
    /// (`bench/resign_rule.py`). Empty in journals older than it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scores: Vec<Option<i32>>,
    /// Each move's wall time, milliseconds (what share of the game's CPU
    /// time its moves took). Empty in journals older than it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub move_ms: Vec<u64>,
}

/// The id of a design game: budget, batch, pair and colour in one number.
pub fn game_id(budget: u32, batch: u32, pair: u32, a_white: bool) -> u64 {
    (u64::from(budget) << 48)
        | (u64::from(batch) << 32)
        | (2 * u64::from(pair) + u64::from(!a_white))
}

impl DesignGame {
    /// The game's outcome from White's side.
    pub fn outcome(&self) -> u8 {
        match self.result.as_str() {
            "1-0" => WHITE_WINS,
            "0-1" => BLACK_WINS,
            _ => DRAW,
        }
    }

    /// The game's pair within the run (its cluster).
    pub fn cluster(&self) -> (u32, u32) {
        (self.batch, self.pair)
    }
}

impl JournalEntry for DesignGame {
    fn id(&self) -> u64 {
        game_id(self.budget, self.batch, self.pair, self.a_white)
    }

    fn check(&self) -> Result<(), String> {
        check_ending(&self.result, &self.termination)?;
        if self.batch == 0 || self.pair >= 1 << 31 {
            return Err(format!(
                "batch {} pair {}: out of range",
                self.batch, self.pair
            ));
        }
        Ok(())
    }
}

/// The rows of `games` for the fit (complete pairs only, one cluster
/// per pair).
pub fn design_rows<B: Bitboard>(
    game: &Arc<Game<B>>,
    space: &FeatureSpace,
    games: &[&DesignGame],
) -> Result<Vec<OrdinalRow>, String> {
    complete_pairs(games)
        .into_iter()
        .enumerate()
        .flat_map(|(cluster, pair)| pair.into_iter().map(move |g| (cluster, g)))
        .map(|(cluster, g)| {
            let position = Position::from_fen(game.clone(), &g.fen)
                .map_err(|e| format!("game of batch {} pair {}: {e}", g.batch, g.pair))?;
            Ok(OrdinalRow {
                x: space.of_position(&position),
                outcome: g.outcome(),
                cluster: cluster as u32,
            })
        })
        .collect()
}

/// The pairs of `games` with both games in, in (batch, pair) order, A
/// White first.
pub fn complete_pairs<'g>(games: &[&'g DesignGame]) -> Vec<[&'g DesignGame; 2]> {
    let mut sorted: Vec<&DesignGame> = games.to_vec();
    sorted.sort_by_key(|g| g.id());
    sorted
        .chunk_by(|a, b| a.cluster() == b.cluster())
        .filter_map(|pair| match pair {
            [first, second] if first.a_white && !second.a_white => Some([*first, *second]),
            _ => None,
        })
        .collect()
}
