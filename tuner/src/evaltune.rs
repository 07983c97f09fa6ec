//! `kurier-tune texel`: every weight of a variant's evaluation fitted to
//! the results of recorded games (Texel's method), for the engine's
//! default parameter files (`data/params/<variant>.toml`).
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
//! [`crate::values::texel::fit_texel`]: the logistic scale is fitted to
//! the starting weights and held, then every weight by Newton's method
//! with an L2 pull toward the starting weights. The result keeps every
//! pawn below its best promotion and no mop-up weight below zero
//! ([`EvalParams::within_rules`]): the mop-up's endgames are rare in the
//! games (adjudicated before they are played out), and a fit there
//! follows their noise, which once pushed all three weights of courier's
//! file below zero.

use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;
use kurier_engine::bitboard::Bitboard;
use kurier_engine::eval::{EvalParams, Evaluator, Pair};
use kurier_engine::game::{AnyGame, Game};
use kurier_engine::position::Position;
use kurier_engine::rules::GameResult;
use kurier_engine::variant::Variant;
use kurier_engine::with_game;
use rayon::prelude::*;

use crate::journal::{read_journal, GameEntry};
use crate::openings::Rng;
use crate::values::dataset::{Dataset, DatasetInfo, FeatureEntry, PositionRecord};
use crate::values::fit::{loss, Penalty};
use crate::values::generate::{describe_position, is_quiet};
use crate::values::texel::{fit_texel, texel_design, TexelOptions};
use crate::variant_source::VariantArgs;

/// `kurier-tune texel`: fit every evaluation weight to recorded games.
#[derive(Args, Debug, Clone)]
pub struct TexelArgs {
    /// The game.
    #[command(flatten)]
    pub variant: VariantArgs,
    /// Tournament journals (`journal.jsonl`) or run folders holding one;
    /// games of other variants are skipped.
    #[arg(required = true)]
    pub games: Vec<PathBuf>,
    /// The starting weights, a parameter file (`EvalFile` format);
    /// default: the engine's default parameters of the variant.
    #[arg(long)]
    pub params: Option<PathBuf>,
    /// Positions before this ply of a game are not used.
    #[arg(long, default_value_t = 16)]
    pub skip_plies: u16,
    /// Positions taken at most per game.
    #[arg(long, default_value_t = 24)]
    pub per_game: u16,
    /// L2 pull toward the starting weights, per squared centipawn.
    #[arg(long, default_value_t = 0.0005)]
    pub l2: f64,
    /// Seed of the choice of positions.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Where to write the fitted parameters.
    #[arg(long)]
    pub out: PathBuf,
}

/// What a fit did, for the summary and the tests.
#[derive(Clone, Debug, PartialEq)]
pub struct TexelSummary {
    /// Games read and used.
    pub games: usize,
    /// Positions in the fit.
    pub positions: usize,
    /// The logistic scale per centipawn.
    pub scale: f64,
    /// Mean cross-entropy of the results with the starting and the
    /// fitted weights.
    pub loss_before: f64,
    /// The same with the fitted weights.
    pub loss_after: f64,
    /// The fitted parameters.
    pub params: EvalParams,
}

/// Runs `kurier-tune texel`.
pub fn texel_command(args: &TexelArgs) -> Result<(), String> {
    let (variant, _) = args.variant.load()?;
    let start = match &args.params {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("{}: cannot read it: {e}", path.display()))?;
            EvalParams::from_toml(&variant, &text, &path.display().to_string())
                .map_err(|e| e.to_string())?
        }
        None => EvalParams::for_variant(&variant).map_err(|e| e.to_string())?,
    };
    let mut games = Vec::new();
    for path in &args.games {
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
            args.games
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let summary = fit_games(&variant, &start, &games, args)?;
    std::fs::write(&args.out, summary.params.to_toml())
        .map_err(|e| format!("{}: cannot write it: {e}", args.out.display()))?;
    println!(
        "{}: {} positions of {} games, scale {:.5} per cp; mean loss {:.5} -> {:.5}; \
         parameters written to {}",
        variant.name,
        summary.positions,
        summary.games,
        summary.scale,
        summary.loss_before,
        summary.loss_after,
        args.out.display()
    );
    Ok(())
}

/// Fits the weights of `start` to `games` of `variant`.
pub fn fit_games(
    variant: &Variant,
    start: &EvalParams,
    games: &[GameEntry],
    args: &TexelArgs,
) -> Result<TexelSummary, String> {
    let game = AnyGame::new(variant.clone()).map_err(|e| e.to_string())?;
    let (records, features, used) =
        with_game!(&game, g => collect_positions(g, start, games, args))?;
    let info = DatasetInfo {
        variant: variant.name.clone(),
        piece_types: variant.pieces.len(),
        seed: args.seed,
        nodes: 0,
        skip_plies: args.skip_plies,
        per_game: args.per_game,
        eval_weights: start.weights.len() as u32,
        shard: None,
    };
    let positions = records.len();
    if positions == 0 {
        return Err("no quiet position in the games".to_string());
    }
    let dataset = Dataset::from_parts(info, records, features, games.len() as u32)?;
    let options = TexelOptions {
        scale: None,
        l2: args.l2,
    };
    let fit = fit_texel(&dataset, start, &options).map_err(|e| e.to_string())?;
    let design = texel_design(&dataset, start.weights.len());
    let mean_loss = |weights: &[Pair]| {
        let columns: Vec<f64> = weights
            .iter()
            .flat_map(|&Pair(m, e)| [fit.scale * f64::from(m), fit.scale * f64::from(e)])
            .collect();
        loss(&design, None, &Penalty::default(), &columns) / positions as f64
    };
    let params = fit.params.clone().within_rules(variant);
    Ok(TexelSummary {
        games: used,
        positions,
        scale: fit.scale,
        loss_before: mean_loss(&start.weights),
        loss_after: mean_loss(&params.weights),
        params,
    })
}

/// A position's record with its feature entries.
type Described = (PositionRecord, Vec<FeatureEntry>);

/// The positions of `games` with their features; how many games gave any.
fn collect_positions<B: Bitboard>(
    game: &Arc<Game<B>>,
    start: &EvalParams,
    games: &[GameEntry],
    args: &TexelArgs,
) -> Result<(Vec<PositionRecord>, Vec<FeatureEntry>, usize), String> {
    let evaluator = Evaluator::new(game, start.clone());
    let per_game: Vec<Result<Vec<Described>, String>> = games
        .par_iter()
        .enumerate()
        .map(|(index, entry)| {
            let result = match entry.result.as_str() {
                "1-0" => GameResult::WhiteWins,
                "0-1" => GameResult::BlackWins,
                "1/2-1/2" => GameResult::Draw,
                other => return Err(format!("game {}: result '{other}'", entry.id)),
            };
            let mut position = Position::from_fen(game.clone(), &entry.fen)
                .map_err(|e| format!("game {}: {e}", entry.id))?;
            let mut line = Vec::new();
            for (ply, text) in entry.moves.iter().enumerate() {
                let played = position
                    .parse_uci(text)
                    .map_err(|e| format!("game {}, ply {}: {e}", entry.id, ply + 1))?;
                position.make_move(played);
                if ply + 1 >= usize::from(args.skip_plies) && position.outcome().is_none() {
                    line.push((ply + 1, position.clone()));
                }
            }
            let mut rng = Rng::new(args.seed ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
            let mut taken = Vec::new();
            while !line.is_empty() && taken.len() < usize::from(args.per_game) {
                let (ply, candidate) = line.swap_remove(rng.below(line.len()));
                if is_quiet(&candidate, &evaluator) && !evaluator.is_scaled(&candidate) {
                    taken.push(describe_position(
                        &candidate,
                        &evaluator,
                        index as u32,
                        ply,
                        result,
                    ));
                }
            }
            Ok(taken)
        })
        .collect();
    let mut records = Vec::new();
    let mut features = Vec::new();
    let mut used = 0;
    for taken in per_game {
        let taken = taken?;
        used += usize::from(!taken.is_empty());
        for (record, entries) in taken {
            records.push(record);
            features.extend(entries);
        }
    }
    Ok((records, features, used))
}
