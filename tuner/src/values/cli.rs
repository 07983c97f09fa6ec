//! The arguments of `kurier-tune values` and `kurier-tune report`, and
//! what each command does with them.

use std::path::{Path, PathBuf};

use clap::Args;

use super::iterate::{journal_path, run, Journal, RunSettings};
use super::report::{nearness, values_table, write_report};

/// Settings of a full run unless given: a few hours on two cores for
/// ExCoCo (the run prints its own estimate once the first games are in).
const FULL: Defaults = Defaults {
    games: 4000,
    nodes: 1500,
    rounds: 3,
    bootstrap: 200,
    imbalance_pairs: 150,
    validation_pairs: 1000,
};

/// Settings of `--quick`: a few minutes on two cores, one round, no odds
/// matches and no validation match.
const QUICK: Defaults = Defaults {
    games: 1500,
    nodes: 600,
    rounds: 1,
    bootstrap: 50,
    imbalance_pairs: 0,
    validation_pairs: 0,
};

struct Defaults {
    games: u32,
    nodes: u32,
    rounds: u32,
    bootstrap: usize,
    imbalance_pairs: u32,
    validation_pairs: u32,
}

/// `kurier-tune values`: fit piece values from self-play games.
#[derive(Args, Debug, Clone)]
pub struct ValuesArgs {
    /// A built-in variant.
    #[arg(long, default_value = "excoco")]
    pub variant: String,
    /// A run of a few minutes: 1500 games at 600 nodes, 1 round, 50
    /// resamples, no odds or validation matches (each can still be set).
    #[arg(long)]
    pub quick: bool,
    /// Games per round [full: 4000].
    #[arg(long)]
    pub games: Option<u32>,
    /// Nodes per move in every game [full: 1500].
    #[arg(long)]
    pub nodes: Option<u32>,
    /// Rounds at most (fit, play with the fitted values, refit) [full: 3].
    #[arg(long)]
    pub rounds: Option<u32>,
    /// Bootstrap resamples (over games) for the 95% intervals [full: 200].
    #[arg(long)]
    pub bootstrap: Option<usize>,
    /// Pairs per odds match; 0 skips them [full: 150].
    #[arg(long)]
    pub imbalance_pairs: Option<u32>,
    /// Letters of the pieces measured by odds matches, e.g. `Q,R,D,C,H`
    /// (default: every piece).
    #[arg(long, value_delimiter = ',')]
    pub imbalance_pieces: Vec<char>,
    /// Validation match pairs at most (SPRT stops it earlier); 0 skips it
    /// [full: 1000].
    #[arg(long)]
    pub validation_pairs: Option<u32>,
    /// SPRT H0: Elo of the fitted over the suggested values.
    #[arg(long, default_value_t = 0.0)]
    pub elo0: f64,
    /// SPRT H1.
    #[arg(long, default_value_t = 5.0)]
    pub elo1: f64,
    /// Quiet positions taken at most from each game.
    #[arg(long, default_value_t = 8)]
    pub per_game: u16,
    /// Plies from the start before positions are taken.
    #[arg(long, default_value_t = 16)]
    pub skip_plies: u16,
    /// Random plies of each opening.
    #[arg(long, default_value_t = 8)]
    pub opening_plies: usize,
    /// Games still going after this many plies are drawn.
    #[arg(long, default_value_t = 300)]
    pub max_plies: usize,
    /// L2 pull toward the suggested values (0: none); see the fit's documentation.
    #[arg(long, default_value_t = 0.0)]
    pub l2: f64,
    /// Also fit every evaluation weight (Texel method) on the last round.
    #[arg(long)]
    pub texel: bool,
    /// The Texel fit's pull toward the current weights, per squared centipawn.
    #[arg(long, default_value_t = 0.001)]
    pub texel_l2: f64,
    /// Games played at once.
    #[arg(long, default_value_t = 2)]
    pub concurrency: usize,
    /// Seed of everything random.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Run folder (journal and datasets; a run resumes from it)
    /// [default: target/kurier-tune/VARIANT, or VARIANT-quick].
    #[arg(long)]
    pub out: Option<PathBuf>,
}

impl ValuesArgs {
    /// The run's settings.
    pub fn settings(&self) -> RunSettings {
        let defaults = if self.quick { &QUICK } else { &FULL };
        RunSettings {
            variant: self.variant.clone(),
            quick: self.quick,
            games: self.games.unwrap_or(defaults.games),
            nodes: self.nodes.unwrap_or(defaults.nodes),
            rounds: self.rounds.unwrap_or(defaults.rounds).max(1),
            per_game: self.per_game,
            skip_plies: self.skip_plies,
            opening_plies: self.opening_plies,
            max_plies: self.max_plies,
            bootstrap: self.bootstrap.unwrap_or(defaults.bootstrap),
            l2: self.l2,
            texel: self.texel,
            texel_l2: self.texel_l2,
            imbalance_pairs: self.imbalance_pairs.unwrap_or(defaults.imbalance_pairs),
            imbalance_pieces: self
                .imbalance_pieces
                .iter()
                .map(|c| c.to_ascii_uppercase())
                .collect(),
            validation_pairs: self.validation_pairs.unwrap_or(defaults.validation_pairs),
            elo0: self.elo0,
            elo1: self.elo1,
            seed: self.seed,
        }
    }

    /// The run folder.
    pub fn folder(&self) -> PathBuf {
        self.out
            .clone()
            .unwrap_or_else(|| default_folder(&self.variant, self.quick))
    }
}

/// The default run folder of a variant.
pub fn default_folder(variant: &str, quick: bool) -> PathBuf {
    let name = if quick {
        format!("{variant}-quick")
    } else {
        variant.to_string()
    };
    Path::new("target").join("kurier-tune").join(name)
}

/// Runs `kurier-tune values`: the run, then the values table on stdout.
pub fn values_command(args: &ValuesArgs) -> Result<(), String> {
    let settings = args.settings();
    let folder = args.folder();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.concurrency.max(1))
        .build()
        .map_err(|e| format!("cannot start {} threads: {e}", args.concurrency))?;
    let started = std::time::Instant::now();
    let journal = pool.install(|| run(&settings, &folder))?;
    print_summary(&journal);
    println!(
        "\n{:.0} s. Journal: {}; report: kurier-tune report --run {}",
        started.elapsed().as_secs_f64(),
        journal_path(&folder).display(),
        folder.display()
    );
    Ok(())
}

fn print_summary(journal: &Journal) {
    let s = &journal.settings;
    if let Some(round) = journal.final_round() {
        println!(
            "{}: {} games at {} nodes per move, {} quiet positions, K {:.3} per pawn, {} bootstrap resamples over games\n",
            s.variant, round.games, s.nodes, round.positions, round.scale, round.intervals.resamples
        );
    }
    print!("{}", values_table(journal));
    if let Some(line) = nearness(journal) {
        println!("\n{line}");
    }
}

/// `kurier-tune report`: write the Markdown report of a run.
#[derive(Args, Debug, Clone)]
pub struct ReportArgs {
    /// The run folder [default: the `values` default for --variant].
    #[arg(long)]
    pub run: Option<PathBuf>,
    /// The variant whose default run folder to read (without --run).
    #[arg(long, default_value = "excoco")]
    pub variant: String,
    /// With --variant: the folder of a `--quick` run.
    #[arg(long)]
    pub quick: bool,
    /// Folder of the report.
    #[arg(long, default_value = "reports")]
    pub out: PathBuf,
    /// Stem of the report's files [default: VARIANT-values, or
    /// VARIANT-values-quick].
    #[arg(long)]
    pub name: Option<String>,
}

/// Runs `kurier-tune report`.
pub fn report_command(args: &ReportArgs) -> Result<(), String> {
    let folder = args
        .run
        .clone()
        .unwrap_or_else(|| default_folder(&args.variant, args.quick));
    let path = journal_path(&folder);
    if !path.exists() {
        return Err(format!(
            "no values run in {} (no {}): run `kurier-tune values{}` first, or name a run folder with --run",
            folder.display(),
            path.display(),
            match (&args.run, args.quick) {
                (Some(run), _) => format!(" --out {}", run.display()),
                (None, quick) => format!(
                    " --variant {}{}",
                    args.variant,
                    if quick { " --quick" } else { "" }
                ),
            }
        ));
    }
    let journal = Journal::read(&path)?;
    let name = args.name.clone().unwrap_or_else(|| {
        let quick = if journal.settings.quick { "-quick" } else { "" };
        format!("{}-values{quick}", journal.settings.variant)
    });
    let files = write_report(&journal, &args.out, &name)?;
    print_summary(&journal);
    println!();
    for path in files.all {
        println!("wrote {}", path.display());
    }
    Ok(())
}
