//! The arguments of `kurier-tune values` and `kurier-tune report`, and
//! what each command does with them.

use std::path::{Path, PathBuf};

use clap::Args;
use kurier_engine::variant::definition::Variant;

use crate::positions::openings::default_book;
use crate::records::line_journal::read_lines;
use crate::records::variant_source::VariantArgs;
use crate::tournament::adjudication::ResignRule;
use crate::util::shard::Shard;
use crate::values::design_comparison::DesignComparison;
use crate::values::generate::GameEnding;
use crate::values::report::write_report;
use crate::values::run::results::results;
use crate::values::run::runner::run;
use crate::values::run::settings::{
    journal_path, suggested_values, DesignOpenings, RecordedFile, RunHeader, RunSettings, RunState,
    VALUES_MARK,
};
use crate::values::validation::Validation;
use crate::values::values_tables::values_tables;
use crate::values::verdict::VerdictRule;
use crate::values::verdict_table::{verdict_summary, verdict_tables};

/// The verdicts' options of `values` and `report`.
#[derive(Args, Debug, Clone, Default)]
pub struct VerdictArgs {
    /// Familywise error rate of the verdicts, over every piece (and every
    /// look of a run --until-verdicts) [default: 0.05, or the run's].
    #[arg(long)]
    pub alpha: Option<f64>,
    /// A suggested value is confirmed when the true value lies within
    /// this many pawns of it [default: half the grid the suggested values
    /// are written on, 0.5 for whole numbers; or the run's].
    #[arg(long)]
    pub tolerance: Option<f64>,
}

impl VerdictArgs {
    /// The rule: these options, else the `recorded` run's, else the
    /// defaults.
    pub fn rule(&self, recorded: Option<VerdictRule>) -> Result<VerdictRule, String> {
        let recorded = recorded.unwrap_or_default();
        VerdictRule::new(
            self.alpha.unwrap_or(recorded.alpha),
            self.tolerance.or(recorded.tolerance),
        )
    }
}

/// Settings unless given: a full run (hours on two cores for ExCoCo; the
/// run prints its estimate as it goes) and `--quick` (a few minutes).
struct Defaults {
    nodes: &'static [u64],
    batches: u32,
    pairs: u32,
    games: u32,
    bootstrap: usize,
}

const FULL: Defaults = Defaults {
    nodes: &[2000],
    batches: 8,
    pairs: 250,
    games: 2000,
    bootstrap: 200,
};

const QUICK: Defaults = Defaults {
    nodes: &[500],
    batches: 4,
    pairs: 120,
    games: 0,
    bootstrap: 100,
};

/// `kurier-tune values`: measure piece values.
#[derive(Args, Debug, Clone)]
pub struct ValuesArgs {
    /// The game.
    #[command(flatten)]
    pub variant: VariantArgs,
    /// A run of a few minutes: 4 batches of 120 pairs at 500 nodes, no
    /// observational games, 100 resamples (each can still be set).
    #[arg(long)]
    pub quick: bool,
    /// The values the engine plays every game with (a values file,
    /// data/values format) [default: the variant's built-in values].
    #[arg(long)]
    pub engine_values: Option<PathBuf>,
    /// Design every batch at these values (a values file, data/values
    /// format: an earlier run's, such as a quick run's) instead of at the
    /// fit of the games before it: its trades then do not depend on the
    /// games' results, which keeps the fit's scale unbiased, and start
    /// near balance; each batch's trades then make the largest of the
    /// values' variances against their targets smallest (with
    /// --until-verdicts, of the undecided values') [default: the fit so
    /// far].
    #[arg(long)]
    pub design_values: Option<PathBuf>,
    /// Nodes per move; several (`1000,8000,64000`) run the experiment at
    /// each [full: 2000; quick: 500]. A run grows by budgets given after
    /// its own (`4000`, then `4000,16000` in the same folder): its games
    /// stay.
    #[arg(long, value_delimiter = ',')]
    pub nodes: Vec<u64>,
    /// Batches of the designed experiment; each batch's design adapts to
    /// the fit of the ones before; with --until-verdicts the most it
    /// plays [full: 8; quick: 4].
    #[arg(long, alias = "max-batches")]
    pub batches: Option<u32>,
    /// Play batches until every suggested value has its verdict
    /// (confirmed, refuted higher or lower) or --batches are played;
    /// each batch is designed toward the values still undecided.
    #[arg(long)]
    pub until_verdicts: bool,
    /// The verdicts' familywise error rate and tolerance.
    #[command(flatten)]
    pub verdicts: VerdictArgs,
    /// Game pairs per batch [full: 250; quick: 120].
    #[arg(long)]
    pub pairs: Option<u32>,
    /// Opening book of the experiment (EPD or FEN lines) [default:
    /// data/openings/<variant>.epd when it exists in the current folder,
    /// else random openings].
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Use random openings of --opening-plies plies even when a book exists.
    #[arg(long, conflicts_with = "openings")]
    pub random_openings: bool,
    /// Random plies of random openings (the experiment's without a book,
    /// and every observational game's).
    #[arg(long, default_value_t = 8)]
    pub opening_plies: usize,
    /// Observational games (ordinary self-play) per budget; 0: none
    /// [full: 2000; quick: 0].
    #[arg(long)]
    pub games: Option<u32>,
    /// Quiet positions taken at most from each observational game.
    #[arg(long, default_value_t = 8)]
    pub per_game: u16,
    /// Plies from the start before observational positions are taken.
    #[arg(long, default_value_t = 16)]
    pub skip_plies: u16,
    /// Games still going after this many plies are drawn (high enough
    /// that few games reach it: ExCoCo's games capped at 400 plies were
    /// mostly won ones, and drawing them told the fit that material
    /// hardly matters).
    #[arg(long, default_value_t = 1000)]
    pub max_plies: usize,
    /// Also end a game when both sides agree for --resign-moves moves
    /// that one is this many centipawns ahead (the engine's own scores;
    /// default: only when both see a forced mate).
    #[arg(long)]
    pub resign_score: Option<i32>,
    /// Moves of each side that --resign-score needs.
    #[arg(long, default_value_t = 4)]
    pub resign_moves: u32,
    /// Bootstrap resamples (over pairs, and over observational games)
    /// for the 95% intervals [full: 200; quick: 100].
    #[arg(long)]
    pub bootstrap: Option<usize>,
    /// Pair terms: letters of colour-bound pieces whose pair (men on both
    /// square colours) gets a value of its own, `none`, or `auto` (chess's
    /// bishop pair, Kaufman's term; none in other variants).
    #[arg(long, default_value = "auto")]
    pub pair_terms: String,
    /// Also fit every evaluation weight (Texel method) on the
    /// observational data of the largest budget.
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
    /// Play only this share of every batch (`k/N`), for running one
    /// experiment on several machines; join the shards with `merge`.
    #[arg(long)]
    pub shard: Option<String>,
    /// With --shard: the folder `merge` wrote, whose games the next
    /// batches build on.
    #[arg(long, requires = "shard")]
    pub base: Option<PathBuf>,
    /// Run folder (journal and datasets; a run resumes from it)
    /// [default: target/kurier-tune/VARIANT, or VARIANT-quick].
    #[arg(long)]
    pub out: Option<PathBuf>,
}

impl ValuesArgs {
    /// The run's settings.
    pub fn settings(&self) -> Result<RunSettings, String> {
        let defaults = if self.quick { &QUICK } else { &FULL };
        let (variant, variant_file) = self.variant.load()?;
        let recorded = |path: Option<&Path>| {
            path.map(|path| RecordedFile::read(path).map(|(file, _)| file))
                .transpose()
        };
        let engine_values = recorded(self.engine_values.as_deref())?;
        let design_values = recorded(self.design_values.as_deref())?;
        let book = match &self.openings {
            Some(path) => Some(path.clone()),
            None if self.random_openings => None,
            None => default_book(&variant.name, variant_file.is_none(), self.opening_plies),
        };
        let openings = match book {
            Some(path) => DesignOpenings::Book(RecordedFile::read(&path)?.0),
            None => DesignOpenings::Random {
                plies: self.opening_plies,
            },
        };
        let resign = self
            .resign_score
            .map(|score| {
                ResignRule::parse(&format!("movecount={},score={score}", self.resign_moves))
            })
            .transpose()?;
        let budgets = if self.nodes.is_empty() {
            defaults.nodes.to_vec()
        } else {
            self.nodes.clone()
        };
        if budgets.contains(&0) {
            return Err("--nodes: every budget must be at least 1".to_string());
        }
        // Checked before any game is played, whether the run uses it or
        // only prints its verdicts at the end.
        let rule = self.verdicts.rule(None)?;
        let pairs = self.pairs.unwrap_or(defaults.pairs);
        let batches = self.batches.unwrap_or(defaults.batches);
        if pairs == 0 || batches == 0 {
            return Err("--pairs and --batches must be at least 1".to_string());
        }
        Ok(RunSettings {
            variant: variant.name.clone(),
            variant_file,
            engine_values,
            design_values,
            quick: self.quick,
            budgets,
            batches,
            pairs_per_batch: pairs,
            openings,
            ending: GameEnding {
                max_plies: self.max_plies,
                resign,
            },
            observational_games: self.games.unwrap_or(defaults.games),
            per_game: self.per_game,
            skip_plies: self.skip_plies,
            opening_plies: self.opening_plies,
            bootstrap: self.bootstrap.unwrap_or(defaults.bootstrap),
            pair_terms: match self.pair_terms.as_str() {
                "none" => Vec::new(),
                "auto" if variant.name == "chess" => vec!['B'],
                "auto" => Vec::new(),
                letters => letters
                    .split(',')
                    .filter_map(|l| l.trim().chars().next())
                    .map(|c| c.to_ascii_uppercase())
                    .collect(),
            },
            texel: self.texel,
            texel_l2: self.texel_l2,
            seed: self.seed,
            shard: self.shard.as_deref().map(Shard::parse).transpose()?,
            until_verdicts: self.until_verdicts.then_some(rule),
        })
    }

    /// The run folder.
    pub fn folder(&self, variant: &str) -> Result<PathBuf, String> {
        let shard = self.shard.as_deref().map(Shard::parse).transpose()?;
        Ok(self
            .out
            .clone()
            .unwrap_or_else(|| default_folder(variant, self.quick, shard)))
    }
}

/// The default run folder of a variant: `target/kurier-tune/VARIANT`,
/// `-quick` for a quick run, `-shardKofN` for a shard.
pub fn default_folder(variant: &str, quick: bool, shard: Option<Shard>) -> PathBuf {
    let quick = if quick { "-quick" } else { "" };
    let shard = shard.map_or(String::new(), |s| format!("-shard{}of{}", s.index, s.count));
    Path::new("target")
        .join("kurier-tune")
        .join(format!("{variant}{quick}{shard}"))
}

/// Runs `kurier-tune values`: the run, then on stdout its verdicts, the
/// values table, and the verdicts again in brief.
pub fn values_command(args: &ValuesArgs) -> Result<(), String> {
    let settings = args.settings()?;
    let folder = args.folder(&settings.variant)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.concurrency.max(1))
        .build()
        .map_err(|e| format!("cannot start {} threads: {e}", args.concurrency))?;
    let started = std::time::Instant::now();
    let state = pool.install(|| run(&settings, &folder, args.base.as_deref()))?;
    if let Some(waiting) = &state.waiting {
        println!("{waiting}");
        return Ok(());
    }
    let results = pool.install(|| results(&state, &folder))?;
    let rule = args.verdicts.rule(settings.until_verdicts)?;
    print!("{}", verdict_tables(&results, &rule));
    print!("{}", values_tables(&results));
    print!("\n{}", verdict_summary(&results, &rule));
    println!(
        "\n{:.0} s. Journal: {}; report: kurier-tune report --run {}",
        started.elapsed().as_secs_f64(),
        journal_path(&folder).display(),
        folder.display()
    );
    Ok(())
}

/// `kurier-tune report`: write the Markdown report of a run.
#[derive(Args, Debug, Clone)]
pub struct ReportArgs {
    /// The run folder [default: the `values` default for --variant].
    #[arg(long)]
    pub run: Option<PathBuf>,
    /// The game whose default run folder to read (without --run).
    #[command(flatten)]
    pub variant: VariantArgs,
    /// With --variant: the folder of a `--quick` run.
    #[arg(long)]
    pub quick: bool,
    /// A validation match or SPRT to include, `NAME=PATH` with the
    /// `summary.json` that `kurier-tune match` wrote (repeatable).
    #[arg(long = "validation")]
    pub validations: Vec<String>,
    /// Another `values` run's design to judge at this run's fit,
    /// `NAME=PATH` with its `journal.jsonl` (one budget, one of this
    /// run's; repeatable): games, moves and CPU hours to every value
    /// within its target, each design's trades read at the same
    /// parameters (the first one given is the baseline).
    #[arg(long = "compare")]
    pub comparisons: Vec<String>,
    /// Folder of the report.
    #[arg(long, default_value = "reports")]
    pub out: PathBuf,
    /// Stem of the report's files [default: VARIANT-values, or
    /// VARIANT-values-quick].
    #[arg(long)]
    pub name: Option<String>,
    /// The verdicts' familywise error rate and tolerance.
    #[command(flatten)]
    pub verdicts: VerdictArgs,
}

/// Runs `kurier-tune report`.
pub fn report_command(args: &ReportArgs) -> Result<(), String> {
    let folder = match &args.run {
        Some(run) => run.clone(),
        None => default_folder(&args.variant.load()?.0.name, args.quick, None),
    };
    let path = journal_path(&folder);
    if !path.exists() {
        return Err(format!(
            "no values run in {} (no {}): run `kurier-tune values` first, or name a run folder with --run",
            folder.display(),
            path.display(),
        ));
    }
    let contents =
        read_lines::<RunHeader, crate::values::design_game::DesignGame>(&path, VALUES_MARK)?;
    let mut header = contents.settings;
    if header.settings.variant_file.is_none() {
        // A built-in variant's suggested values are its values file's,
        // taken afresh: runs recorded before the fitted parameters were
        // told apart from them hold the fitted material instead.
        let variant = Variant::built_in(&header.settings.variant).map_err(|e| e.to_string())?;
        header.suggested = suggested_values(&variant, &header.types, &header.engine_values)?;
    }
    if header.settings.shard.is_some() {
        return Err(format!(
            "{} is a shard's folder: merge the shards (kurier-tune merge) and report on the merged folder",
            folder.display()
        ));
    }
    let validations = args
        .validations
        .iter()
        .map(|text| Validation::read(text))
        .collect::<Result<Vec<_>, _>>()?;
    let state = RunState {
        header,
        games: contents.entries,
        waiting: None,
    };
    let results = results(&state, &folder)?;
    let name = args.name.clone().unwrap_or_else(|| {
        let quick = if results.header.settings.quick {
            "-quick"
        } else {
            ""
        };
        format!("{}-values{quick}", results.header.settings.variant)
    });
    let rule = args.verdicts.rule(results.header.settings.until_verdicts)?;
    let comparisons = args
        .comparisons
        .iter()
        .map(|text| DesignComparison::read(text, &results))
        .collect::<Result<Vec<_>, _>>()?;
    let files = write_report(
        &results,
        &rule,
        &validations,
        &comparisons,
        &args.out,
        &name,
    )?;
    print!("{}", verdict_tables(&results, &rule));
    print!("{}", values_tables(&results));
    println!();
    for path in files {
        println!("wrote {}", path.display());
    }
    Ok(())
}
