//! Self-play games that fill a positions dataset.
//!
//! Each game starts from a random opening (reproducible from the seed, the
//! round and the game's number), is played by one engine setting on both
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

use kurier_engine::bitboard::Bitboard;
use kurier_engine::eval::{Accumulator, EvalParams, Evaluator};
use kurier_engine::game::Game;
use kurier_engine::geometry::Color;
use kurier_engine::position::Position;
use kurier_engine::rules::GameResult;
use kurier_engine::search::quiescence_score;
use rayon::prelude::*;

use super::dataset::{
    Dataset, DatasetInfo, DatasetWriter, FeatureEntry, GamePositions, PositionRecord, MAX_TYPES,
};
use crate::adjudication::{Adjudication, ResignRule};
use crate::openings::{random_opening, Rng};
use crate::play::{play_seated, GameRecord, GameRules, Player, PlayerSettings, SearchLimit};

/// How the games of one dataset are made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenerationPlan {
    /// Games to play.
    pub games: u32,
    /// Nodes per move.
    pub nodes: u32,
    /// Random plies of each opening.
    pub opening_plies: usize,
    /// Plies from the start before positions are taken.
    pub skip_plies: u16,
    /// Positions taken at most per game.
    pub per_game: u16,
    /// Games still going after this many plies are drawn.
    pub max_plies: usize,
    /// Seed of the openings and of the choice of positions.
    pub seed: u64,
    /// The round of the run (part of each game's seed).
    pub round: u32,
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

/// The games of the tuner end by the rules, at `max_plies` (a draw), or
/// when both sides have agreed for four moves each that one of them is
/// at least 10 pawns ahead (a win for it; such games are decided, and
/// ending them saves most of the time of long mating phases).
pub fn tuner_rules(max_plies: usize) -> GameRules {
    let mut rules = GameRules::with_max_plies(max_plies);
    rules.adjudication = Adjudication {
        resign: Some(ResignRule {
            moves: 4,
            score: 1000,
        }),
        ..rules.adjudication
    };
    rules
}

/// An in-process player of the tuner: `params` at `nodes` per move.
pub fn tuner_player<B: Bitboard>(
    game: &Arc<Game<B>>,
    name: &str,
    params: &EvalParams,
    nodes: u32,
) -> Player<B> {
    let mut settings =
        PlayerSettings::new(name, params.clone(), SearchLimit::Nodes(u64::from(nodes)));
    settings.hash_mb = HASH_MB;
    Player::new(game, settings)
}

/// Plays a game between two in-process players under `rules`.
pub fn play_tuner_game<B: Bitboard>(
    start: &Position<B>,
    white: &Player<B>,
    black: &Player<B>,
    rules: &GameRules,
) -> GameRecord {
    let never = AtomicBool::new(false);
    play_seated(start, [&mut white.seat(), &mut black.seat()], rules, &never)
        .unwrap_or_else(|| unreachable!("a game that is never stopped is never abandoned"))
}

/// The seed of game `game` of round `round`.
pub fn game_seed(seed: u64, round: u32, game: u32) -> u64 {
    let mut rng =
        Rng::new(seed ^ (u64::from(round) << 40) ^ u64::from(game).wrapping_mul(0x9E37_79B9));
    rng.next_u64()
}

/// Collects evaluation terms into one count per weight.
struct TermCounts(Vec<i32>);

impl Accumulator for TermCounts {
    fn add(&mut self, index: usize, count: i32) {
        self.0[index] += count;
    }
}

/// Whether `position` is quiet for `evaluator`: not in check, and the
/// quiescence search agrees with the static evaluation.
pub fn is_quiet<B: Bitboard>(position: &Position<B>, evaluator: &Evaluator<B>) -> bool {
    !position.in_check() && quiescence_score(position, evaluator) == evaluator.evaluate(position)
}

/// The record and sparse features of one position.
pub fn describe_position<B: Bitboard>(
    position: &Position<B>,
    evaluator: &Evaluator<B>,
    game: u32,
    ply: usize,
    result: GameResult,
) -> (PositionRecord, Vec<FeatureEntry>) {
    let types = position.game().pieces.len();
    let mut material = [0i8; MAX_TYPES];
    for (t, slot) in material.iter_mut().enumerate().take(types) {
        let difference = position.pieces(Color::White, t).count() as i32
            - position.pieces(Color::Black, t).count() as i32;
        // A board of at most 256 squares holds at most 256 men, but one
        // type never exceeds 127 on either side in any playable variant.
        *slot = difference.clamp(-127, 127) as i8;
    }
    let mut counts = TermCounts(vec![0; evaluator.params().weights.len()]);
    evaluator.terms(position, &mut counts);
    let features: Vec<FeatureEntry> = counts
        .0
        .iter()
        .enumerate()
        .filter(|&(_, &count)| count != 0)
        .map(|(index, &count)| FeatureEntry {
            index: index as u16,
            count: count.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16,
        })
        .collect();
    let record = PositionRecord {
        material,
        game,
        phase: evaluator.phase(position) as u16,
        result: match result {
            GameResult::BlackWins => 0,
            GameResult::Draw => 1,
            GameResult::WhiteWins => 2,
        },
        white_to_move: u8::from(position.side_to_move() == Color::White),
        feature_count: features.len() as u16,
        ply: ply.min(usize::from(u16::MAX)) as u16,
    };
    (record, features)
}

/// Plays game number `game` and picks its positions.
pub fn game_positions<B: Bitboard>(
    start: &Position<B>,
    player: &Player<B>,
    evaluator: &Evaluator<B>,
    plan: &GenerationPlan,
    game: u32,
) -> GamePositions {
    let mut rng = Rng::new(game_seed(plan.seed, plan.round, game));
    let opening = random_opening(start, plan.opening_plies, &mut rng);
    let record = play_tuner_game(&opening, player, player, &tuner_rules(plan.max_plies));
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
    taken
}

/// Plays the games of `plan` with `params` on both sides and writes their
/// positions to `path`, resuming a file that holds some of them already.
/// `progress` receives (games done, games in all, positions so far).
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
        nodes: plan.nodes,
        skip_plies: plan.skip_plies,
        per_game: plan.per_game,
        eval_weights: params.weights.len() as u32,
        round: plan.round,
    };
    let (mut writer, resumed) = DatasetWriter::resume(path, &info).map_err(|e| e.to_string())?;
    let resumed_games = writer.games();
    let player = tuner_player(game, "generator", params, plan.nodes);
    let evaluator = Evaluator::new(game, params.clone());
    let start = Position::startpos(game.clone());
    let mut positions_made = 0;
    while writer.games() < plan.games {
        let first = writer.games();
        let last = (first + BLOCK_GAMES).min(plan.games);
        let block: Vec<GamePositions> = (first..last)
            .into_par_iter()
            .map(|g| game_positions(&start, &player, &evaluator, plan, g))
            .collect();
        writer.append(&block).map_err(|e| e.to_string())?;
        positions_made += block.iter().map(|one| one.records.len()).sum::<usize>();
        progress(
            writer.games(),
            plan.games,
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
