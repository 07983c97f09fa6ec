//! `kurier-tune`: self-play matches between engine settings.

use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use clap::{Parser, Subcommand};
use kurier_engine::bitboard::Bitboard;
use kurier_engine::eval::EvalParams;
use kurier_engine::game::{AnyGame, Game};
use kurier_engine::geometry::Color;
use kurier_engine::position::Position;
use kurier_engine::variant::Variant;
use kurier_engine::with_game;
use kurier_tuner::openings::{random_opening, Rng};
use kurier_tuner::play::{play_game, points_for, Player, PlayerSettings};
use kurier_tuner::stats::Pentanomial;
use rayon::prelude::*;

/// Kurier's tuner: matches between engine settings with sound statistics.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play game pairs (each opening with both colours) between two
    /// settings at a fixed number of nodes per move and report the score,
    /// Elo with its 95% interval (pentanomial model), LOS and draw ratio.
    ///
    /// A setting is `default`, `material-only` (no evaluation terms but
    /// material), `no-selective` (no null move, reductions or pruning),
    /// `values=PATH` (a piece values file) or `params=PATH` (a full
    /// evaluation parameter file).
    Match {
        /// A built-in variant.
        #[arg(long, default_value = "courier-moderno")]
        variant: String,
        /// The first player's setting.
        #[arg(long, default_value = "default")]
        first: String,
        /// The second player's setting.
        #[arg(long, default_value = "material-only")]
        second: String,
        /// Game pairs to play (two games each).
        #[arg(long, default_value_t = 100)]
        pairs: usize,
        /// Nodes per move for both players.
        #[arg(long, default_value_t = 2000)]
        nodes: u64,
        /// Random plies of each opening.
        #[arg(long, default_value_t = 8)]
        opening_plies: usize,
        /// Games still going after this many plies are drawn.
        #[arg(long, default_value_t = 400)]
        max_plies: usize,
        /// Games played at once.
        #[arg(long, default_value_t = 2)]
        concurrency: usize,
        /// Seed of the openings.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

fn settings(spec: &str, variant: &Variant, nodes: u64) -> Result<PlayerSettings, String> {
    let base = EvalParams::for_variant(variant).map_err(|e| e.to_string())?;
    let (params, selective) = match spec.split_once('=') {
        None if spec == "default" => (base, true),
        None if spec == "material-only" => (base.material_only(), true),
        None if spec == "no-selective" => (base, false),
        Some(("values", path)) => (EvalParams::from_values_file(variant, Path::new(path)).map_err(|e| e.to_string())?, true),
        Some(("params", path)) => {
            let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
            (EvalParams::from_toml(variant, &text, path).map_err(|e| e.to_string())?, true)
        }
        _ => return Err(format!("'{spec}' is not a setting (default, material-only, no-selective, values=PATH, params=PATH)")),
    };
    Ok(PlayerSettings {
        name: spec.to_string(),
        params,
        nodes,
        selective,
    })
}

struct MatchPlan {
    pairs: usize,
    opening_plies: usize,
    max_plies: usize,
    seed: u64,
}

/// Plays the match; returns the pentanomial counts and W/D/L of the first player.
fn run_match<B: Bitboard>(
    game: &Arc<Game<B>>,
    first: PlayerSettings,
    second: PlayerSettings,
    plan: &MatchPlan,
) -> (Pentanomial, [u64; 3]) {
    let first = Player::new(game, first);
    let second = Player::new(game, second);
    let start = Position::startpos(game.clone());
    let finished = AtomicUsize::new(0);
    let pair_points: Vec<(f64, f64)> = (0..plan.pairs)
        .into_par_iter()
        .map(|pair| {
            let mut rng = Rng::new(plan.seed.wrapping_mul(1_000_003).wrapping_add(pair as u64));
            let opening = random_opening(&start, plan.opening_plies, &mut rng);
            let one = play_game(&opening, &first, &second, plan.max_plies);
            let two = play_game(&opening, &second, &first, plan.max_plies);
            let points = (
                points_for(one.result, Color::White),
                points_for(two.result, Color::Black),
            );
            let done = finished.fetch_add(1, Ordering::Relaxed) + 1;
            if done % 10 == 0 || done == plan.pairs {
                eprintln!("{done}/{} pairs", plan.pairs);
            }
            points
        })
        .collect();
    let mut counts = Pentanomial::default();
    let mut wdl = [0u64; 3];
    for (one, two) in pair_points {
        counts.add(one + two);
        for points in [one, two] {
            let slot = if points == 1.0 {
                0
            } else if points == 0.5 {
                1
            } else {
                2
            };
            wdl[slot] += 1;
        }
    }
    (counts, wdl)
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Match {
            variant,
            first,
            second,
            pairs,
            nodes,
            opening_plies,
            max_plies,
            concurrency,
            seed,
        } => {
            let description = Variant::built_in(&variant).map_err(|e| e.to_string())?;
            let first = settings(&first, &description, nodes)?;
            let second = settings(&second, &description, nodes)?;
            let names = (first.name.clone(), second.name.clone());
            let game = AnyGame::new(description).map_err(|e| e.to_string())?;
            let plan = MatchPlan {
                pairs,
                opening_plies,
                max_plies,
                seed,
            };
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(concurrency.max(1))
                .build()
                .map_err(|e| e.to_string())?;
            let (counts, [wins, draws, losses]) =
                pool.install(|| with_game!(&game, g => run_match(g, first, second, &plan)));
            let games = wins + draws + losses;
            println!(
                "{variant}: {} vs {}, {games} games at {nodes} nodes per move",
                names.0, names.1
            );
            println!(
                "W/D/L {wins}/{draws}/{losses}  draw ratio {:.1}%",
                100.0 * draws as f64 / games.max(1) as f64
            );
            println!("pair scores 0/0.5/1/1.5/2: {:?}", counts.0);
            if let Some(estimate) = counts.elo() {
                println!(
                    "score {:.1}%  Elo {:+.1} [{:+.1}, {:+.1}] (95%, pentanomial)  LOS {:.1}%",
                    100.0 * estimate.score,
                    estimate.elo,
                    estimate.low,
                    estimate.high,
                    100.0 * estimate.los
                );
            }
            Ok(())
        }
    }
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("kurier-tune: {message}");
            ExitCode::FAILURE
        }
    }
}
