//! `kurier-tune openings`: an opening book of balanced positions.

use std::path::{Path, PathBuf};

use clap::Args;
use kurier_engine::position::any_game::AnyGame;
use kurier_engine::variant::definition::Variant;
use kurier_engine::with_game;

use crate::players::seat::SearchLimit;
use crate::records::variant_source::load_variant;
use crate::tournament::opening_book::{self, BookFilter};

/// The arguments of `kurier-tune openings`.
#[derive(Args)]
pub struct OpeningsArgs {
    /// A built-in variant; with --variant-file, the section of a
    /// Fairy-Stockfish variants.ini.
    #[arg(long, required_unless_present = "variant_file")]
    variant: Option<String>,
    /// A variant file of your own: Kurier's TOML
    /// (data/variants/README.md) or a Fairy-Stockfish variants.ini.
    #[arg(long)]
    variant_file: Option<PathBuf>,
    /// Positions to write.
    #[arg(long, default_value_t = 300)]
    count: usize,
    /// Seed of the random plies.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Random plies from the start.
    #[arg(long, default_value_t = 8)]
    plies: usize,
    /// Keep positions scored within this many centipawns of zero.
    #[arg(long, default_value_t = 100)]
    threshold: i32,
    /// Nodes of the judging search (unless --depth).
    #[arg(long, default_value_t = 20_000)]
    nodes: u64,
    /// Depth of the judging search instead of nodes.
    #[arg(long)]
    depth: Option<u32>,
    /// Searches at once.
    #[arg(long, default_value_t = 2)]
    concurrency: usize,
    /// Output file (default: `data/openings/<variant name>.epd`).
    #[arg(long)]
    out: Option<PathBuf>,
}

/// Runs `kurier-tune openings`.
pub fn openings_command(args: OpeningsArgs) -> Result<(), String> {
    let limit = args
        .depth
        .map_or(SearchLimit::Nodes(args.nodes), SearchLimit::Depth);
    let filter = BookFilter {
        plies: args.plies,
        limit,
        threshold: args.threshold,
    };
    let (variant, _) = load_variant(args.variant.as_deref(), args.variant_file.as_deref(), "")?;
    write_book(
        variant,
        args.count,
        args.seed,
        filter,
        args.concurrency,
        args.out,
    )
}

/// Writes an opening book.
fn write_book(
    variant: Variant,
    count: usize,
    seed: u64,
    filter: BookFilter,
    concurrency: usize,
    out: Option<PathBuf>,
) -> Result<(), String> {
    let name = variant.name.clone();
    let game = AnyGame::new(variant).map_err(|e| e.to_string())?;
    let path = out.unwrap_or_else(|| Path::new("data/openings").join(format!("{name}.epd")));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(concurrency.max(1))
        .build()
        .map_err(|e| e.to_string())?;
    let written = pool.install(
        || with_game!(&game, g => opening_book::write_book(g, count, seed, &filter, &path)),
    )?;
    println!("{}: {written} openings of {name}", path.display());
    Ok(())
}
