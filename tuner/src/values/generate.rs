//! Self-play games that fill a positions dataset (the observational
//! estimator), and the game rules and players of every game the tuner
//! plays.
//!
//! Each game starts from a random opening (reproducible from the seed, the
//! budget and the game's number), is played by one engine setting on both
//! sides at a fixed number of nodes per move, and gives at most
//! `per_game` positions: after the first `skip_plies` plies, the quiet
//! ones (side to move not in check, quiescence score equal to the static
//! evaluation) are drawn in random order. Few positions per game keep the
//! samples nearly independent; the bootstrap resamples whole games for
//! what correlation remains.

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use kurier_engine::board::bitboard::Bitboard;
use kurier_engine::eval::evaluate::{EvalParams, Evaluator};
use kurier_engine::position::game::Game;
use kurier_engine::position::state::Position;
use rayon::prelude::*;

use serde::{Deserialize, Serialize};

use crate::players::seat::{Player, PlayerSettings, SearchLimit};
use crate::positions::dataset::describe_position;
use crate::positions::dataset::{Dataset, DatasetInfo, DatasetWriter, GamePositions};
use crate::positions::openings::random_opening;
use crate::positions::quiet::is_quiet;
use crate::records::game_record::{GameRecord, MATE_CENTIPAWNS};
use crate::tournament::adjudication::{Adjudication, ResignRule};
use crate::tournament::game_loop::{play_seated, GameRules};
use crate::util::rng::Rng;
use crate::util::shard::Shard;

/// How the games of one dataset are made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenerationPlan {
    /// Games of the whole run (a shard plays its share).
    pub games: u32,
    /// Nodes per move.
    pub nodes: u64,
    /// Random plies of each opening.
    pub opening_plies: usize,
    /// Plies from the start before positions are taken.
    pub skip_plies: u16,
    /// Positions taken at most per game.
    pub per_game: u16,
    /// How games end besides the rules.
    pub ending: GameEnding,
    /// Seed of the openings and of the choice of positions.
    pub seed: u64,
    /// The budget's number in the run (part of each game's seed).
    pub budget: u32,
    /// The shard of the games this machine plays (`None`: all).
    pub shard: Option<Shard>,
}

impl GenerationPlan {
    /// The numbers of the games this machine plays, in order.
    pub fn own_games(&self) -> Vec<u32> {
        (0..self.games)
            .filter(|&g| self.shard.is_none_or(|s| s.holds(g as usize)))
            .collect()
    }
}

/// Games per block written to disk (a killed run loses at most the games
/// of the unfinished block).
pub const BLOCK_GAMES: u32 = 16;

/// What a generation did.
#[derive(Clone, Debug)]
pub struct GenerationOutcome {
    /// The whole dataset (games resumed from the file included).
    pub dataset: Dataset,
    /// Games played by this call (not resumed ones).
    pub games_played: u32,
    /// Positions those games gave.
    pub positions_made: usize,
    /// Wall time of this call, seconds.
    pub seconds: f64,
}

/// Hash table of each side in the tuner's games, MiB: enough for the
/// few thousand nodes a move, and cheap to clear for every game.
const HASH_MB: usize = 4;

/// How the tuner's games end besides the rules of the variant: a draw
/// at `max_plies`; a win once both sides' searches have reported a forced
/// mate for the same side on two moves each (a proof by search, which
/// does not depend on the piece values); and, if set, a win once both
/// sides have agreed for `resign.moves` moves each that one is
/// `resign.score` centipawns ahead (the engine's own evaluation, which
/// the values under test do not enter, since the engine keeps its values
/// for the whole run; a wide margin makes a wrong call rare).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameEnding {
    /// Games still going after this many plies are drawn.
    pub max_plies: usize,
    /// The optional score rule.
    pub resign: Option<ResignRule>,
}

impl GameEnding {
    /// The game rules these endings make.
    pub fn rules(&self) -> GameRules {
        let mut rules = GameRules::with_max_plies(self.max_plies);
        rules.adjudication = Adjudication {
            resign: Some(self.resign.unwrap_or(ResignRule {
                moves: 2,
                score: MATE_CENTIPAWNS,
            })),
            ..rules.adjudication
        };
        rules
    }
}

/// An in-process player of the tuner: `params` at `nodes` per move.
pub fn tuner_player<B: Bitboard>(
    game: &Arc<Game<B>>,
    name: &str,
    params: &EvalParams,
    nodes: u64,
) -> Player<B> {
    let mut settings = PlayerSettings::new(name, params.clone(), SearchLimit::Nodes(nodes));
    settings.hash_mb = HASH_MB;
    Player::new(game, settings)
}

/// Plays a game between two in-process players under `rules`; returns
/// it with the CPU time it took (milliseconds of this thread).
pub fn play_tuner_game<B: Bitboard>(
    start: &Position<B>,
    white: &Player<B>,
    black: &Player<B>,
    rules: &GameRules,
) -> (GameRecord, u64) {
    let never = AtomicBool::new(false);
    let clock = cpu_time::ThreadTime::now();
    let record = play_seated(start, [&mut white.seat(), &mut black.seat()], rules, &never)
        .unwrap_or_else(|| unreachable!("a game that is never stopped is never abandoned"));
    (record, clock.elapsed().as_millis() as u64)
}

/// The seed of game `game` of budget `budget`.
pub fn game_seed(seed: u64, budget: u32, game: u32) -> u64 {
    let mut rng =
        Rng::new(seed ^ (u64::from(budget + 1) << 40) ^ u64::from(game).wrapping_mul(0x9E37_79B9));
    rng.next_u64()
}

/// Plays game number `game` and picks its positions; returns them with
/// the game's CPU time in milliseconds.
pub fn game_positions<B: Bitboard>(
    start: &Position<B>,
    player: &Player<B>,
    evaluator: &Evaluator<B>,
    plan: &GenerationPlan,
    game: u32,
) -> (GamePositions, u64) {
    let mut rng = Rng::new(game_seed(plan.seed, plan.budget, game));
    let opening = random_opening(start, plan.opening_plies, &mut rng);
    let (record, cpu_ms) = play_tuner_game(&opening, player, player, &plan.ending.rules());
    // Every position after a move, with its ply from the start.
    let mut line = Vec::with_capacity(record.moves.len());
    let mut position = opening;
    for (index, text) in record.moves.iter().enumerate() {
        // The moves come from this game's own search: they parse.
        let Ok(played) = position.parse_uci(text) else {
            unreachable!("a move the search chose does not parse: {text}")
        };
        position.make_move(played);
        let ply = plan.opening_plies + index + 1;
        if ply >= usize::from(plan.skip_plies) && position.outcome().is_none() {
            line.push((ply, position.clone()));
        }
    }
    let mut taken = GamePositions::default();
    while !line.is_empty() && taken.records.len() < usize::from(plan.per_game) {
        let (ply, candidate) = line.swap_remove(rng.below(line.len()));
        if is_quiet(&candidate, evaluator) {
            let (one, features) =
                describe_position(&candidate, evaluator, game, ply, record.result);
            taken.records.push(one);
            taken.features.extend(features);
        }
    }
    (taken, cpu_ms)
}

/// Plays this machine's games of `plan` with `params` on both sides and
/// writes their positions to `path`, resuming a file that holds some of
/// them already. `progress` receives (games done, this machine's games,
/// positions so far).
pub fn generate<B: Bitboard>(
    game: &Arc<Game<B>>,
    params: &EvalParams,
    plan: &GenerationPlan,
    path: &Path,
    progress: &mut dyn FnMut(u32, u32, usize),
) -> Result<GenerationOutcome, String> {
    let started = Instant::now();
    let info = DatasetInfo {
        variant: game.variant.name.clone(),
        piece_types: game.pieces.len(),
        seed: plan.seed,
        nodes: plan.nodes.min(u64::from(u32::MAX)) as u32,
        skip_plies: plan.skip_plies,
        per_game: plan.per_game,
        eval_weights: params.weights.len() as u32,
        shard: plan.shard,
    };
    let (mut writer, resumed) = DatasetWriter::resume(path, &info).map_err(|e| e.to_string())?;
    let resumed_games = writer.games();
    let player = tuner_player(game, "generator", params, plan.nodes);
    let evaluator = Evaluator::new(game, params.clone());
    let start = Position::startpos(game.clone());
    let mut positions_made = 0;
    let own = plan.own_games();
    let total = own.len() as u32;
    while writer.games() < total {
        let first = writer.games() as usize;
        let last = (first + BLOCK_GAMES as usize).min(own.len());
        let block: Vec<(GamePositions, u64)> = own[first..last]
            .par_iter()
            .map(|&g| game_positions(&start, &player, &evaluator, plan, g))
            .collect();
        let cpu_ms: u64 = block.iter().map(|(_, ms)| ms).sum();
        let block: Vec<GamePositions> = block.into_iter().map(|(one, _)| one).collect();
        writer.append(&block, cpu_ms).map_err(|e| e.to_string())?;
        positions_made += block.iter().map(|one| one.records.len()).sum::<usize>();
        progress(
            writer.games(),
            total,
            resumed.records.len() + positions_made,
        );
    }
    let games_played = writer.games() - resumed_games;
    drop(writer);
    let dataset = Dataset::read(path).map_err(|e| e.to_string())?;
    Ok(GenerationOutcome {
        dataset,
        games_played,
        positions_made,
        seconds: started.elapsed().as_secs_f64(),
    })
}
