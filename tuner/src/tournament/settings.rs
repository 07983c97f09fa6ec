//! What a tournament run is: everything that decides its games, recorded
//! at the head of its journal and in its summary, and compared when a run
//! is resumed or shards are merged.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::players::player_spec::PlayerSpec;
use crate::players::seat::SearchLimit;
use crate::records::variant_source::VariantFile;
use crate::stats::match_stats::Sprt;
use crate::tournament::adjudication::Adjudication;
use crate::tournament::schedule::{Format, Schedule};
use crate::util::json_diff::json_differences;
use crate::util::shard::Shard;

/// Where a run's openings come from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OpeningSource {
    /// An EPD/FEN file.
    Book {
        /// The file as given.
        path: String,
        /// Positions in it.
        positions: usize,
        /// Fingerprint of its positions (FEN text, one per line).
        fingerprint: String,
    },
    /// Random legal plies from the start, one opening per round, from the
    /// run's seed.
    Random {
        /// Plies per opening.
        plies: usize,
    },
}

/// The settings of a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TournamentSettings {
    /// `kurier-tune` and engine version.
    pub engine_version: String,
    /// The variant's name.
    pub variant: String,
    /// The variant file it was read from (a built-in variant: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant_file: Option<VariantFile>,
    /// Match, gauntlet or round robin.
    pub format: Format,
    /// The players, in order (a gauntlet's first plays all others).
    pub players: Vec<PlayerSpec>,
    /// Game pairs per encounter.
    pub pairs: usize,
    /// Seed of the opening order (and of random openings).
    pub seed: u64,
    /// The openings.
    pub openings: OpeningSource,
    /// Adjudication and the ply limit.
    pub adjudication: Adjudication,
    /// Longest wait for one move of a player without a clock, in ms.
    pub move_timeout_ms: u64,
    /// How far past its clock a player may go, in ms.
    pub time_margin_ms: u64,
    /// The SPRT that may stop a match early.
    pub sprt: Option<Sprt>,
    /// The slice of the schedule this run plays (all without one).
    pub shard: Option<Shard>,
}

/// The version written into every run's settings.
pub const ENGINE_VERSION: &str = env!("CARGO_PKG_VERSION");

impl TournamentSettings {
    /// The number of openings the schedule draws from.
    pub fn opening_count(&self) -> usize {
        match &self.openings {
            OpeningSource::Book { positions, .. } => *positions,
            OpeningSource::Random { .. } => self.pairs.max(1),
        }
    }

    /// The whole schedule (every shard).
    pub fn schedule(&self) -> Result<Schedule, String> {
        Schedule::new(
            self.format,
            self.players.len(),
            self.pairs,
            self.opening_count(),
            self.seed,
        )
    }

    /// A warning when the schedule plays a book's openings again while
    /// every player searches to a fixed node count or depth: a
    /// single-threaded engine then plays each replayed pair move for move
    /// as before (its table and histories start empty at every game), so
    /// those games repeat earlier ones and only seem to narrow the Elo
    /// interval and move the SPRT. `None` when no game can repeat.
    pub fn replay_warning(&self) -> Option<String> {
        let OpeningSource::Book {
            path, positions, ..
        } = &self.openings
        else {
            return None;
        };
        let fixed_limits = self
            .players
            .iter()
            .all(|player| !matches!(player.limit, SearchLimit::Clock(_)));
        (self.pairs > *positions && fixed_limits).then(|| {
            format!(
                "warning: {} pairs from the {positions} openings of {path}: at a fixed node \
                 or depth limit the pairs after the {positions}th replay earlier games move \
                 for move and add nothing to the result; give a larger book \
                 (kurier-tune openings --count N)",
                self.pairs
            )
        })
    }

    /// The settings as JSON.
    pub fn to_json(&self) -> Value {
        // Plain data with string keys always serializes.
        serde_json::to_value(self).unwrap_or_else(|e| unreachable!("settings serialize: {e}"))
    }

    /// The differences from `other`, one `key: this vs other` line per
    /// differing top-level setting; empty when they agree.
    pub fn differences(&self, other: &TournamentSettings) -> Vec<String> {
        json_differences(self, other)
    }
}
