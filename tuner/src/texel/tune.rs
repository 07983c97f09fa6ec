//! `kurier-tune texel`: every weight of a variant's evaluation fitted to
//! the results of recorded games (Texel's method), or to a stronger
//! engine's scores of their positions, for the engine's default parameter
//! files (`data/params/<variant>.toml`).
//!
//! The games come from tournament journals (`journal.jsonl` of `match`,
//! `gauntlet` or `roundrobin` runs, such as the strength tests of
//! `bench/README.md`): games between searches far deeper than the
//! piece-value runs'. From each game the positions after ply
//! `--skip-plies` that are quiet for the starting evaluation (not in
//! check, quiescence search equal to the static evaluation) are kept with
//! the game's result, at most `--per-game` of them, drawn at random
//! (seeded). Positions the evaluation scales as drawish are left out: the
//! scale is not one of the linear terms. The fit is
//! [`crate::texel::fit::fit_texel`]: the logistic scale is fitted to
//! the starting weights and held, then every weight by Newton's method
//! with an L2 pull toward the starting weights. The result keeps every
//! pawn below its best promotion and no mop-up weight below zero
//! ([`EvalParams::within_rules`]): the mop-up's endgames are rare in the
//! games (adjudicated before they are played out), and a fit there
//! follows their noise, which once pushed all three weights of courier's
//! file below zero.
//!
//! With `--scored FILE` (written by `kurier-tune label`, [`crate::cli::label`])
//! the targets are a labelling engine's search scores instead of the
//! results alone: each score `s` (White's view) becomes the expected
//! result `sigmoid(k_s s)`, where `k_s` is fitted to the positions' game
//! results as the evaluation's own scale `k` is, so that both speak of the
//! same games; the weights are then fitted with `k` held, which keeps the
//! evaluation on the engine's centipawn scale. `--result-weight L` mixes
//! in the game result: target `L * result + (1 - L) * sigmoid(k_s s)`.
//! Game results of fast self-play are noisy and mostly draws (test 15 of
//! `bench/README.md`); a deeper search's score says more of each position.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::Args;
use kurier_engine::board::bitboard::Bitboard;
use kurier_engine::eval::evaluate::{EvalParams, Evaluator, Pair};
use kurier_engine::position::any_game::AnyGame;
use kurier_engine::position::game::Game;
use kurier_engine::position::rules::GameResult;
use kurier_engine::position::state::Position;
use kurier_engine::search::interface::MATE_BOUND;
use kurier_engine::types::Color;
use kurier_engine::variant::definition::Variant;
use kurier_engine::with_game;
use rayon::prelude::*;

use crate::positions::dataset::describe_position;
use crate::positions::dataset::{Dataset, DatasetInfo, FeatureEntry, PositionRecord};
use crate::positions::quiet::is_quiet;
use crate::stats::logistic::{loss, Design, Penalty};
use crate::texel::fit::{fit_design, fit_scale, fit_slope, texel_design};
use crate::texel::scored_positions::{parse_result, ScoredPosition};
use crate::tournament::journal::{read_journal, GameEntry};
use crate::util::rng::Rng;

/// Which positions of recorded games are used (by `texel` and `label`).
#[derive(Args, Debug, Clone, PartialEq, Eq)]
pub struct PositionChoice {
    /// Positions before this ply of a game are not used.
    #[arg(long, default_value_t = 16)]
    pub skip_plies: u16,
    /// Positions taken at most per game.
    #[arg(long, default_value_t = 24)]
    pub per_game: u16,
    /// Seed of the choice of positions.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// What a fit did, for the summary and the tests.
#[derive(Clone, Debug, PartialEq)]
pub struct TexelSummary {
    /// Games read and used (scored positions: positions read).
    pub games: usize,
    /// Positions in the fit.
    pub positions: usize,
    /// The logistic scale per centipawn of the evaluation.
    pub scale: f64,
    /// The logistic scale per centipawn of the labelling engine's scores
    /// (`--scored` only).
    pub score_scale: Option<f64>,
    /// Mean cross-entropy of the targets with the starting weights.
    pub loss_before: f64,
    /// The same with the fitted weights.
    pub loss_after: f64,
    /// The targets' own mean entropy: the least loss any weights could
    /// reach (ln 2 for a drawn game's position), so that `loss -
    /// entropy` is how far the evaluation is from the targets.
    pub target_entropy: f64,
    /// The fitted parameters.
    pub params: EvalParams,
}

/// The weights to start from: `path`'s, or the variant's defaults.
pub fn starting_params(variant: &Variant, path: Option<&Path>) -> Result<EvalParams, String> {
    match path {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("{}: cannot read it: {e}", path.display()))?;
            EvalParams::from_toml(variant, &text, &path.display().to_string())
                .map_err(|e| e.to_string())
        }
        None => EvalParams::for_variant(variant).map_err(|e| e.to_string()),
    }
}

/// The games of `variant` in the journals (or run folders) `paths`; an
/// error when there are none.
pub fn read_games(variant: &Variant, paths: &[PathBuf]) -> Result<Vec<GameEntry>, String> {
    let mut games = Vec::new();
    for path in paths {
        let journal = if path.is_dir() {
            path.join("journal.jsonl")
        } else {
            path.clone()
        };
        let contents = read_journal(&journal)?;
        if contents.settings.variant == variant.name {
            games.extend(contents.games);
        }
    }
    if games.is_empty() {
        return Err(format!(
            "no game of {} in {}",
            variant.name,
            paths
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    Ok(games)
}

/// Fits the weights of `start` to `games` of `variant`.
pub fn fit_games(
    variant: &Variant,
    start: &EvalParams,
    games: &[GameEntry],
    choice: &PositionChoice,
    l2: f64,
) -> Result<TexelSummary, String> {
    let game = AnyGame::new(variant.clone()).map_err(|e| e.to_string())?;
    let (records, features, used) = with_game!(&game, g => {
        let evaluator = Evaluator::new(g, start.clone());
        let chosen = choose_positions(g, &evaluator, games, choice)?;
        let used = chosen.iter().filter(|taken| !taken.is_empty()).count();
        let described: Vec<Described> = chosen
            .into_iter()
            .flatten()
            .map(|c| describe_position(&c.position, &evaluator, c.game, c.ply, c.result))
            .collect();
        let (records, features) = split_described(described);
        Ok::<_, String>((records, features, used))
    })?;
    let dataset = dataset_of(variant, start, choice, records, features, games.len())?;
    let design = texel_design(&dataset, start.weights.len());
    let scale = fit_scale(&design, &start.weights).map_err(|e| e.to_string())?;
    finish_fit(variant, start, &design, scale, None, used, l2)
}

/// Fits the weights of `start` to the scored positions `scored` of
/// `variant` (see the module's documentation).
pub fn fit_scored(
    variant: &Variant,
    start: &EvalParams,
    scored: &[ScoredPosition],
    choice: &PositionChoice,
    l2: f64,
    result_weight: f64,
) -> Result<TexelSummary, String> {
    let game = AnyGame::new(variant.clone()).map_err(|e| e.to_string())?;
    let (records, features, scores) = with_game!(&game, g => {
        let evaluator = Evaluator::new(g, start.clone());
        let mut described = Vec::new();
        let mut scores = Vec::new();
        for (index, entry) in scored.iter().enumerate() {
            let position = Position::from_fen(g.clone(), &entry.fen)
                .map_err(|e| format!("scored position {}: {e}", index + 1))?;
            if !is_quiet(&position, &evaluator) || evaluator.is_scaled(&position) {
                continue;
            }
            let white_view = match position.side_to_move() {
                Color::White => entry.score,
                Color::Black => -entry.score,
            };
            scores.push(f64::from(white_view.clamp(-MATE_BOUND, MATE_BOUND)));
            let ply = (position.fullmove_number().max(1) as usize - 1) * 2;
            described.push(describe_position(&position, &evaluator, index as u32, ply, entry.result));
        }
        let (records, features) = split_described(described);
        Ok::<_, String>((records, features, scores))
    })?;
    let positions = records.len();
    let dataset = dataset_of(variant, start, choice, records, features, positions)?;
    let mut design = texel_design(&dataset, start.weights.len());
    let scale = fit_scale(&design, &start.weights).map_err(|e| e.to_string())?;
    let score_scale = fit_slope(&scores, &design).map_err(|e| e.to_string())?;
    let weight = result_weight;
    for (target, score) in design.targets.iter_mut().zip(&scores) {
        let expected = 1.0 / (1.0 + (-score_scale * score).exp());
        *target = weight * *target + (1.0 - weight) * expected;
    }
    finish_fit(
        variant,
        start,
        &design,
        scale,
        Some(score_scale),
        scored.len(),
        l2,
    )
}

/// The fit of `start` to `design`'s targets at `scale`, with the losses
/// before and after.
fn finish_fit(
    variant: &Variant,
    start: &EvalParams,
    design: &Design,
    scale: f64,
    score_scale: Option<f64>,
    games: usize,
    l2: f64,
) -> Result<TexelSummary, String> {
    let fitted = fit_design(design, start, scale, l2).map_err(|e| e.to_string())?;
    let params = fitted.within_rules(variant);
    let positions = design.rows();
    let mean_loss = |weights: &[Pair]| {
        let columns: Vec<f64> = weights
            .iter()
            .flat_map(|&Pair(m, e)| [scale * f64::from(m), scale * f64::from(e)])
            .collect();
        loss(design, None, &Penalty::default(), &columns) / positions as f64
    };
    Ok(TexelSummary {
        games,
        positions,
        scale,
        score_scale,
        loss_before: mean_loss(&start.weights),
        loss_after: mean_loss(&params.weights),
        target_entropy: design.targets.iter().map(|&t| entropy(t)).sum::<f64>() / positions as f64,
        params,
    })
}

/// The entropy of an expected score `t` in nats (0 for a win or a loss).
fn entropy(t: f64) -> f64 {
    let part = |p: f64| if p > 0.0 { -p * p.ln() } else { 0.0 };
    part(t) + part(1.0 - t)
}

/// The dataset of the described positions; an error when there are none.
fn dataset_of(
    variant: &Variant,
    start: &EvalParams,
    choice: &PositionChoice,
    records: Vec<PositionRecord>,
    features: Vec<FeatureEntry>,
    games: usize,
) -> Result<Dataset, String> {
    if records.is_empty() {
        return Err("no quiet position to fit".to_string());
    }
    let info = DatasetInfo {
        variant: variant.name.clone(),
        piece_types: variant.pieces.len(),
        seed: choice.seed,
        nodes: 0,
        skip_plies: choice.skip_plies,
        per_game: choice.per_game,
        eval_weights: start.weights.len() as u32,
        shard: None,
    };
    Dataset::from_parts(info, records, features, games as u32)
}

/// A position's record with its feature entries.
type Described = (PositionRecord, Vec<FeatureEntry>);

/// The records, and all their feature entries in order.
fn split_described(described: Vec<Described>) -> (Vec<PositionRecord>, Vec<FeatureEntry>) {
    let mut records = Vec::with_capacity(described.len());
    let mut features = Vec::new();
    for (record, entries) in described {
        records.push(record);
        features.extend(entries);
    }
    (records, features)
}

/// A position chosen from a recorded game.
pub struct Chosen<B: Bitboard> {
    /// The position.
    pub position: Position<B>,
    /// The game's index in the list given.
    pub game: u32,
    /// Plies played from the game's start to reach it.
    pub ply: usize,
    /// The game's result.
    pub result: GameResult,
}

/// Per game of `games`, the positions `choice` takes: after ply
/// `skip_plies`, not the game's end, quiet for `evaluator` and not scaled
/// as drawish, at most `per_game` of them drawn at random (seeded by the
/// choice's seed and the game's index).
pub fn choose_positions<B: Bitboard>(
    game: &Arc<Game<B>>,
    evaluator: &Evaluator<B>,
    games: &[GameEntry],
    choice: &PositionChoice,
) -> Result<Vec<Vec<Chosen<B>>>, String> {
    games
        .par_iter()
        .enumerate()
        .map(|(index, entry)| {
            let result = parse_result(&entry.result)
                .ok_or_else(|| format!("game {}: result '{}'", entry.id, entry.result))?;
            let mut position = Position::from_fen(game.clone(), &entry.fen)
                .map_err(|e| format!("game {}: {e}", entry.id))?;
            let mut line = Vec::new();
            for (ply, text) in entry.moves.iter().enumerate() {
                let played = position
                    .parse_uci(text)
                    .map_err(|e| format!("game {}, ply {}: {e}", entry.id, ply + 1))?;
                position.make_move(played);
                if ply + 1 >= usize::from(choice.skip_plies) && position.outcome().is_none() {
                    line.push((ply + 1, position.clone()));
                }
            }
            let mut rng =
                Rng::new(choice.seed ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
            let mut taken = Vec::new();
            while !line.is_empty() && taken.len() < usize::from(choice.per_game) {
                let (ply, candidate) = line.swap_remove(rng.below(line.len()));
                if is_quiet(&candidate, evaluator) && !evaluator.is_scaled(&candidate) {
                    taken.push(Chosen {
                        position: candidate,
                        game: index as u32,
                        ply,
                        result,
                    });
                }
            }
            Ok(taken)
        })
        .collect()
}
