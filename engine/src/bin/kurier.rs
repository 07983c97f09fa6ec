//! `kurier`: the command-line front end of the engine.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};
use kurier_engine::game::AnyGame;
use kurier_engine::perft::{divide, perft};
use kurier_engine::position::Position;
use kurier_engine::variant::Variant;
use kurier_engine::with_game;

/// Kurier: an engine and toolkit for the Courier family of chess variants
/// (chess, courier, courier-moderno, enhanced-courier, excoco).
#[derive(Parser)]
#[command(version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaf nodes of the legal move tree (the move generator's
    /// standard check). The last line is `nodes N`.
    ///
    /// Example: kurier perft --variant courier --depth 4 --divide
    Perft {
        /// A built-in variant: chess, courier, courier-moderno,
        /// enhanced-courier, excoco.
        #[arg(long, default_value = "chess", conflicts_with = "variant_file")]
        variant: String,
        /// A variant file of your own (see data/variants/README.md).
        #[arg(long, value_name = "PATH")]
        variant_file: Option<PathBuf>,
        /// The position (default: the variant's start position).
        #[arg(long)]
        fen: Option<String>,
        /// Plies to search.
        #[arg(long)]
        depth: u32,
        /// Print each legal move with its own count first.
        #[arg(long)]
        divide: bool,
    },
}

fn load(variant: &str, variant_file: Option<&PathBuf>) -> Result<AnyGame, String> {
    let description = match variant_file {
        Some(path) => Variant::from_file(path),
        None => Variant::built_in(variant),
    }
    .map_err(|e| e.to_string())?;
    AnyGame::new(description).map_err(|e| e.to_string())
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Perft {
            variant,
            variant_file,
            fen,
            depth,
            divide: split,
        } => {
            let game = load(&variant, variant_file.as_ref())?;
            with_game!(&game, g => {
                let mut position = match &fen {
                    Some(fen) => Position::from_fen(g.clone(), fen).map_err(|e| e.to_string())?,
                    None => Position::startpos(g.clone()),
                };
                let started = Instant::now();
                let nodes = if split && depth > 0 {
                    let lines = divide(&mut position, depth);
                    for (legal, count) in &lines {
                        println!("{}: {count}", position.uci(*legal));
                    }
                    lines.iter().map(|(_, count)| count).sum()
                } else {
                    perft(&mut position, depth)
                };
                let seconds = started.elapsed().as_secs_f64();
                println!(
                    "# {} depth {depth}: {seconds:.3} s, {:.2} M nodes/s",
                    g.variant.name,
                    nodes as f64 / seconds.max(1e-9) / 1e6
                );
                println!("nodes {nodes}");
                Ok(())
            })
        }
    }
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("kurier: {message}");
            ExitCode::FAILURE
        }
    }
}
