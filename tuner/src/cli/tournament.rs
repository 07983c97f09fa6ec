//! `kurier-tune match`, `gauntlet` and `roundrobin`: the players, games
//! and outputs of a tournament, and the run they start.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use clap::Args;

use crate::players::clock::TimeControl;
use crate::players::player_spec::PlayerSpec;
use crate::players::seat::SearchLimit;
use crate::positions::openings;
use crate::records::variant_source::load_variant;
use crate::stats::match_stats::Sprt;
use crate::tournament::adjudication::{Adjudication, DrawRule, ResignRule};
use crate::tournament::runner::{self, OpeningsChoice, RunOptions, TournamentRequest};
use crate::tournament::schedule::Format;
use crate::util::key_values::{key_values, parse_value};
use crate::util::shard::Shard;

/// Players, games and outputs of a match, gauntlet or round robin.
#[derive(Args)]
pub struct TournamentArgs {
    /// A built-in variant (default courier-moderno); with
    /// --variant-file, the section of a Fairy-Stockfish variants.ini.
    #[arg(long)]
    variant: Option<String>,
    /// A variant file of your own: Kurier's TOML
    /// (data/variants/README.md) or a Fairy-Stockfish variants.ini;
    /// `values=` files of players must name its variant.
    #[arg(long)]
    variant_file: Option<PathBuf>,
    /// A player, repeatable, in order. In-process Kurier:
    /// `name=X[,values=PATH|params=PATH][,eval=material-only][,selective=off][,threads=N][,hash=MB]`;
    /// an external UCI engine: `name=X,cmd=PATH[,arg=A][,option.NAME=V]`.
    /// Either may set its own `nodes=N`, `depth=D` or `tc=BASE+INC`
    /// (seconds); otherwise --nodes, --depth or --tc apply.
    #[arg(long = "engine", required = true)]
    engines: Vec<String>,
    /// Nodes per move for players that set no limit (the default: 2000).
    #[arg(long, conflicts_with_all = ["depth", "tc"])]
    nodes: Option<u64>,
    /// Depth per move for players that set no limit.
    #[arg(long, conflicts_with = "tc")]
    depth: Option<u32>,
    /// Time control `BASE+INC` in seconds for players that set no limit;
    /// a player that oversteps its clock loses on time.
    #[arg(long)]
    tc: Option<String>,
    /// Game pairs per encounter (two games each, colours swapped).
    #[arg(long, default_value_t = 100)]
    pairs: usize,
    /// Opening book (EPD or FEN lines). Default: `data/openings/<variant>.epd`
    /// when it exists in the current folder, else random openings of
    /// --opening-plies plies from the seed.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Plies of random openings (when no book is used).
    #[arg(long, default_value_t = 8)]
    opening_plies: usize,
    /// Use random openings even when `data/openings/<variant>.epd` exists.
    #[arg(long, conflicts_with = "openings")]
    random_openings: bool,
    /// Seed of the opening order and of random openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games still going after this many plies are drawn (0: no limit).
    #[arg(long, default_value_t = 400)]
    max_plies: usize,
    /// Draw adjudication: `movenumber=M,movecount=N,score=X` (|score| <= X
    /// cp for N moves of both sides, from move M on).
    #[arg(long)]
    draw: Option<String>,
    /// Resign adjudication: `movecount=N,score=X` (both sides agree that
    /// one is X cp ahead for N moves each).
    #[arg(long)]
    resign: Option<String>,
    /// SPRT (matches): `elo0=0,elo1=5[,alpha=0.05,beta=0.05]`, logistic
    /// Elo; stops the match when it decides.
    #[arg(long)]
    sprt: Option<String>,
    /// Play only game pairs p with p % N == k - 1 (`k/N`), for running one
    /// schedule on several machines; join them with `merge`.
    #[arg(long)]
    shard: Option<String>,
    /// Games at once.
    #[arg(long, default_value_t = 2)]
    concurrency: usize,
    /// Run folder for journal.jsonl, games.pgn and summary.json
    /// (default: `runs/<format>-<variant>-seed<S>[-shard<k>of<N>]`).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Continue the killed or interrupted run in the run folder.
    #[arg(long)]
    resume: bool,
    /// Without a terminal, a progress line every this many games.
    #[arg(long, default_value_t = 10)]
    progress_every: u64,
    /// Seconds a player without a clock may take for one move before it
    /// loses by timeout.
    #[arg(long, default_value_t = 30.0)]
    move_timeout: f64,
    /// Milliseconds a player may go past its clock before it loses on time.
    #[arg(long, default_value_t = 0)]
    time_margin: u64,
}

/// Set by Ctrl-C: the run stops after abandoning the games in progress.
static STOP: AtomicBool = AtomicBool::new(false);

/// Parses `elo0=..,elo1=..,alpha=..,beta=..` (alpha and beta 0.05 by default).
fn parse_sprt(text: &str) -> Result<Sprt, String> {
    let (mut elo0, mut elo1, mut alpha, mut beta) = (None, None, 0.05, 0.05);
    for (key, value) in key_values(text)? {
        match key {
            "elo0" => elo0 = Some(parse_value(key, value)?),
            "elo1" => elo1 = Some(parse_value(key, value)?),
            "alpha" => alpha = parse_value(key, value)?,
            "beta" => beta = parse_value(key, value)?,
            _ => {
                return Err(format!(
                    "--sprt: unknown key '{key}' (elo0, elo1, alpha, beta)"
                ))
            }
        }
    }
    match (elo0, elo1) {
        (Some(elo0), Some(elo1)) => Sprt::new(elo0, elo1, alpha, beta),
        _ => Err(format!("--sprt '{text}': elo0= and elo1= are needed")),
    }
}

/// Plays the tournament `args` describe in `format` and prints its report.
pub fn tournament_command(format: Format, args: TournamentArgs) -> Result<(), String> {
    let default_limit = match (args.nodes, args.depth, &args.tc) {
        (_, Some(depth), _) => SearchLimit::Depth(depth),
        (_, _, Some(tc)) => SearchLimit::Clock(TimeControl::parse(tc)?),
        (nodes, _, _) => SearchLimit::Nodes(nodes.unwrap_or(2000)),
    };
    let players = args
        .engines
        .iter()
        .map(|text| PlayerSpec::parse(text, Some(default_limit)))
        .collect::<Result<Vec<_>, _>>()?;
    let (variant, variant_file) = load_variant(
        args.variant.as_deref(),
        args.variant_file.as_deref(),
        "courier-moderno",
    )?;
    let variant = variant.name;
    let book = match args.openings {
        Some(path) => Some(path),
        None if args.random_openings => None,
        None => openings::default_book(&variant, variant_file.is_none(), args.opening_plies),
    };
    let openings = match book {
        Some(path) => OpeningsChoice::Book(path),
        None => OpeningsChoice::Random {
            plies: args.opening_plies,
        },
    };
    if !(args.move_timeout.is_finite() && args.move_timeout > 0.0) {
        return Err(format!(
            "--move-timeout {}: must be positive",
            args.move_timeout
        ));
    }
    let shard = args.shard.as_deref().map(Shard::parse).transpose()?;
    let request = TournamentRequest {
        variant: variant.clone(),
        variant_file,
        format,
        players,
        pairs: args.pairs,
        seed: args.seed,
        openings,
        adjudication: Adjudication {
            draw: args.draw.as_deref().map(DrawRule::parse).transpose()?,
            resign: args.resign.as_deref().map(ResignRule::parse).transpose()?,
            max_plies: args.max_plies,
        },
        move_timeout: Duration::from_secs_f64(args.move_timeout),
        time_margin: Duration::from_millis(args.time_margin),
        sprt: args.sprt.as_deref().map(parse_sprt).transpose()?,
        shard,
    };
    let out_dir = args.out.unwrap_or_else(|| {
        let shard = shard
            .map(|s| format!("-shard{}of{}", s.index, s.count))
            .unwrap_or_default();
        Path::new("runs").join(format!("{format}-{variant}-seed{}{shard}", args.seed))
    });
    let prepared = runner::prepare(request)?;
    if let Some(warning) = prepared.settings.replay_warning() {
        eprintln!("kurier-tune: {warning}");
    }
    ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::SeqCst) {
            // A second Ctrl-C: the user wants out now.
            std::process::exit(130);
        }
        eprintln!("\nkurier-tune: stopping (games in progress are abandoned; Ctrl-C again to quit at once)");
    })
    .map_err(|e| format!("cannot catch Ctrl-C: {e}"))?;
    let options = RunOptions {
        out_dir: out_dir.clone(),
        concurrency: args.concurrency,
        resume: args.resume,
        progress_every: args.progress_every,
    };
    let summary = runner::run(&prepared, &options, &STOP)?;
    print!("{}", summary.text());
    println!("results: {}", out_dir.display());
    Ok(())
}
