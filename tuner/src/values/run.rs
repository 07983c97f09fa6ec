//! A whole `kurier-tune values` run: for every search budget, the
//! observational games and the batches of the designed experiment, all
//! played by one engine that keeps its values for the whole run,
//! recorded so that a killed run resumes, a run splits into shards, and
//! shards merge into exactly what one machine plays.
//!
//! The run folder holds `journal.jsonl` (a first line with the run's
//! header, then one line per finished design game, written to disk as
//! the game ends) and `observational-<nodes>.kdat` per budget (the
//! positions dataset, appended block by block). Running the same command
//! again resumes; other settings for the same folder are refused, and so
//! is a build that searches differently (its games would not be those of
//! the run).
//!
//! Shards (`--shard k/N`) play the pairs `p` of each batch with `p % N ==
//! k - 1`, and the observational games `g` with `g % N == k - 1`. Batch
//! `b + 1` is planned from all the games of batches `1 ..= b`, so a shard
//! stops after its share of each batch; `kurier-tune merge` joins the
//! shards' folders, and the shards go on with `--base MERGED` (see
//! `reports/README.md`). The result depends only on the games, so the
//! merged run fits exactly what one machine fits.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use kurier_engine::bitboard::Bitboard;
use kurier_engine::eval::{EvalParams, Evaluator};
use kurier_engine::game::{AnyGame, Game};
use kurier_engine::position::Position;
use kurier_engine::variant::Variant;
use kurier_engine::with_game;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::{engine_version, search_signature, values_of, PieceTypes, Values, SIGNATURE_DEPTH};
use crate::positions::dataset::{merge_datasets, Dataset};
use crate::positions::openings::read_openings;
use crate::records::line_journal::{read_lines, write_lines, JournalEntry, LineJournal};
use crate::records::variant_source::{recorded_variant, VariantFile};
use crate::texel::fit::{fit_texel, TexelOptions};
use crate::util::files::fingerprint;
use crate::util::files::same_file;
use crate::util::json_diff::json_differences;
use crate::util::shard::Shard;
use crate::util::work_progress::WorkProgress;
use crate::values::design::{DesignLimits, Until};
use crate::values::design_game::{complete_pairs, design_rows, game_id, DesignGame};
use crate::values::efficiency::Efficiency;
use crate::values::estimate::Estimate;
use crate::values::experiment::{design_estimate, men_available, Bases, PlannedGame, Planner};
use crate::values::features::{colour_bound_types, FeatureSpace};
use crate::values::generate::{
    generate, play_tuner_game, tuner_player, GameEnding, GenerationPlan,
};
use crate::values::look::{batch_ends, looks, Look};
use crate::values::observational::observational_estimate;
use crate::values::ordinal::parameters;
use crate::values::verdict::{Family, Scale, VerdictRule};

/// The most pawns a trade takes from one side: values are measured near
/// the opening's pawn structure, where a few pawns more or less do not
/// change the game's character (and the value of a man may not add up
/// over large imbalances).
pub const MAX_PAWNS_PER_SIDE: usize = 4;

/// The mark of a values run's journal.
pub const VALUES_MARK: &str = "kurier-tune values";

/// The journal's name in a run folder.
pub const JOURNAL: &str = "journal.jsonl";

/// A file a run depends on: its path and a fingerprint of its text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordedFile {
    /// The path as given.
    pub path: String,
    /// Fingerprint of the text.
    pub fingerprint: String,
}

impl RecordedFile {
    /// Reads `path` and records it.
    pub fn read(path: &Path) -> Result<(RecordedFile, String), String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("{}: cannot read it: {e}", path.display()))?;
        Ok((
            RecordedFile {
                path: path.display().to_string(),
                fingerprint: fingerprint(&text),
            },
            text,
        ))
    }

    /// Reads the file again; an error if it changed.
    pub fn reread(&self) -> Result<String, String> {
        let (now, text) = RecordedFile::read(Path::new(&self.path))?;
        if now.fingerprint != self.fingerprint {
            return Err(format!(
                "{}: changed since the run started (fingerprint {} then, {} now)",
                self.path, self.fingerprint, now.fingerprint
            ));
        }
        Ok(text)
    }
}

/// Where the designed experiment's openings come from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DesignOpenings {
    /// An EPD/FEN book.
    Book(RecordedFile),
    /// Random plies from the start position.
    Random {
        /// Plies per opening.
        plies: usize,
    },
}

/// Every setting of a run; a run folder belongs to one set.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunSettings {
    /// The variant's name.
    pub variant: String,
    /// Its file, for a variant of the user's.
    pub variant_file: Option<VariantFile>,
    /// The values file the engine plays with (`None`: the variant's
    /// built-in values).
    pub engine_values: Option<RecordedFile>,
    /// Whether this is a `--quick` run.
    pub quick: bool,
    /// Nodes per move, one experiment each.
    pub budgets: Vec<u64>,
    /// Batches of the designed experiment per budget.
    pub batches: u32,
    /// Game pairs per batch.
    pub pairs_per_batch: u32,
    /// The experiment's openings.
    pub openings: DesignOpenings,
    /// How games end besides the rules.
    pub ending: GameEnding,
    /// Observational games per budget (0: none).
    pub observational_games: u32,
    /// Positions taken at most from each observational game.
    pub per_game: u16,
    /// Plies skipped before positions are taken.
    pub skip_plies: u16,
    /// Random plies of each observational game's opening.
    pub opening_plies: usize,
    /// Bootstrap resamples.
    pub bootstrap: usize,
    /// The colour-bound types with a pair term, by letter.
    pub pair_terms: Vec<char>,
    /// Whether to fit every evaluation weight on the observational data
    /// of the largest budget.
    pub texel: bool,
    /// The Texel fit's pull toward the engine's weights.
    pub texel_l2: f64,
    /// Seed of everything random.
    pub seed: u64,
    /// This machine's shard (`None`: the whole run).
    pub shard: Option<Shard>,
    /// With `--until-verdicts`: the verdicts' rule. The run looks after
    /// every batch, stops a budget once every verdict is in, designs each
    /// batch toward the undecided values, and plays at most `batches`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until_verdicts: Option<VerdictRule>,
}

impl RunSettings {
    /// The settings without the shard: what shards of one run share.
    pub fn unsharded(&self) -> RunSettings {
        RunSettings {
            shard: None,
            ..self.clone()
        }
    }
}

/// The first line of a run's journal.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunHeader {
    /// The settings.
    pub settings: RunSettings,
    /// The engine version that started the run.
    pub engine_version: String,
    /// Its [`search_signature`]: a run resumes (and merges) only with a
    /// build of the same signature.
    pub search_signature: u64,
    /// The variant's piece types.
    pub types: PieceTypes,
    /// The values the engine plays with, pawns.
    pub engine_values: Values,
    /// Whether they are estimated from the pieces' moves (a variant with
    /// no values file, and none given): `kurier_engine::value_estimate`.
    #[serde(default)]
    pub engine_values_estimated: bool,
    /// The variant's suggested values (its built-in ones, or the engine's
    /// values, given or estimated, for a variant without them), pawns.
    pub suggested: Values,
    /// The model's columns.
    pub space: FeatureSpace,
}

/// A run's state after a `values` command.
#[derive(Clone, Debug)]
pub struct RunState {
    /// The header.
    pub header: RunHeader,
    /// Every design game known (this folder's and the base's).
    pub games: Vec<DesignGame>,
    /// Why the run is not complete (a shard that waits for the others).
    pub waiting: Option<String>,
}

/// One budget's results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BudgetResult {
    /// Nodes per move.
    pub nodes: u64,
    /// The designed experiment's estimate.
    pub design: Option<Estimate>,
    /// Why it is missing, if it is.
    pub design_error: Option<String>,
    /// The observational estimate.
    pub observational: Option<Estimate>,
    /// Why it is missing, if it is.
    pub observational_error: Option<String>,
    /// Design games and their CPU seconds.
    pub design_games: usize,
    /// CPU seconds of the design games.
    pub design_cpu_seconds: f64,
    /// Plies of the design games (absent from runs reported before it
    /// was recorded).
    #[serde(default)]
    pub design_plies: usize,
    /// Observational games.
    pub observational_games: u32,
    /// CPU seconds of the observational games.
    pub observational_cpu_seconds: f64,
    /// After each batch: games so far and, per type, the 95% half-width
    /// from the curvature (sandwich) of the fit on them.
    pub progression: Vec<(usize, Vec<Option<f64>>)>,
    /// After each batch: the fit on the games so far with its covariance,
    /// which the verdicts read (none in results written before them).
    #[serde(default)]
    pub looks: Vec<Look>,
    /// Pairs per trade label.
    pub trades: Vec<(String, usize)>,
    /// Results of the games: White wins, draws, Black wins.
    pub outcomes: [usize; 3],
    /// Games by termination.
    pub terminations: Vec<(String, usize)>,
    /// What every value within its target costs, by the fit on all
    /// games.
    #[serde(default)]
    pub efficiency: Option<Efficiency>,
}

/// The whole run's results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunResults {
    /// The header.
    pub header: RunHeader,
    /// Per budget.
    pub budgets: Vec<BudgetResult>,
    /// The Texel fit (every weight, `EvalParams::to_toml`), if asked.
    pub texel: Option<String>,
}

impl RunResults {
    /// Reads a run's `<name>-results.json` (as `write_report` writes it)
    /// from `text`; `source` names the file in errors. Lists that do not
    /// fit the piece types are refused, so that no report indexes past
    /// them.
    pub fn parse(text: &str, source: &str) -> Result<RunResults, String> {
        let results: RunResults = serde_json::from_str(text)
            .map_err(|e| format!("{source}: not the results of a values run: {e}"))?;
        results
            .check()
            .map_err(|e| format!("{source}: the results do not hold together: {e}"))?;
        Ok(results)
    }

    fn check(&self) -> Result<(), String> {
        let types = &self.header.types;
        let n = types.letters.len();
        let fits = |what: &str, len: usize| {
            if len == n {
                Ok(())
            } else {
                Err(format!("{what} has {len} entries for {n} piece types"))
            }
        };
        fits("types.names", types.names.len())?;
        fits("suggested", self.header.suggested.len())?;
        fits("engine_values", self.header.engine_values.len())?;
        for (what, index) in [("types.king", types.king), ("types.pawn", types.pawn)] {
            if index >= n {
                return Err(format!("{what} {index} is not one of the {n} types"));
            }
        }
        let space = &self.header.space;
        if let Some(t) = space
            .valued
            .iter()
            .chain(&space.pair_types)
            .find(|&&t| t >= n)
        {
            return Err(format!("space names type {t} of {n}"));
        }
        if self.budgets.is_empty() {
            return Err("no search budget".to_string());
        }
        for budget in &self.budgets {
            for estimate in budget.design.iter().chain(&budget.observational) {
                let at = format!("the estimate at {} nodes", budget.nodes);
                fits(&format!("{at}: values"), estimate.values.len())?;
                fits(&format!("{at}: intervals"), estimate.intervals.len())?;
                fits(&format!("{at}: curvature"), estimate.curvature.len())?;
                if let Some(common) = &estimate.common {
                    fits(&format!("{at}: common scale"), common.values.len())?;
                    fits(&format!("{at}: common intervals"), common.intervals.len())?;
                }
                if let Some((t, _, _)) = estimate.pairs.iter().find(|(t, _, _)| *t >= n) {
                    return Err(format!("{at}: a pair of type {t} of {n}"));
                }
            }
            for (games, widths) in &budget.progression {
                fits(
                    &format!("the progression after {games} games"),
                    widths.len(),
                )?;
            }
            let n = parameters(space.columns());
            for look in &budget.looks {
                if look.theta.len() != n || look.covariance.len() != n * n {
                    return Err(format!(
                        "the look after batch {} at {} nodes has {} parameters and {} covariances \
                         for {n} parameters",
                        look.batch,
                        budget.nodes,
                        look.theta.len(),
                        look.covariance.len()
                    ));
                }
            }
        }
        Ok(())
    }
}

/// The journal's path in a run folder.
pub fn journal_path(folder: &Path) -> PathBuf {
    folder.join(JOURNAL)
}

/// The observational dataset of budget `nodes` in a run folder.
pub fn dataset_path(folder: &Path, nodes: u64) -> PathBuf {
    folder.join(format!("observational-{nodes}.kdat"))
}

/// What a run is played with: its variant, types, and engine.
struct Setup {
    variant: Variant,
    types: PieceTypes,
    params: EvalParams,
    /// Whether the engine's values are estimated from the pieces' moves.
    estimated: bool,
    suggested: Values,
}

/// The values a run's report measures against: a built-in variant's
/// suggested ones (`data/values/<variant>.toml`, not the fitted
/// parameters' material the engine may play with), else the engine's
/// (a values file given, or the estimate from the pieces' moves).
pub fn suggested_values(
    variant: &Variant,
    types: &PieceTypes,
    engine_values: &[f64],
) -> Result<Values, String> {
    match EvalParams::suggested(variant) {
        Some(params) => Ok(values_of(&params.map_err(|e| e.to_string())?, types)),
        None => Ok(engine_values.to_vec()),
    }
}

fn setup(settings: &RunSettings) -> Result<Setup, String> {
    let variant = recorded_variant(&settings.variant, settings.variant_file.as_ref())?;
    let types = PieceTypes::of(&variant)?;
    let params = match &settings.engine_values {
        Some(file) => {
            let text = file.reread()?;
            EvalParams::with_values(&variant, &text, &file.path).map_err(|e| e.to_string())?
        }
        None => EvalParams::for_variant(&variant).map_err(|e| e.to_string())?,
    };
    let estimated = settings.engine_values.is_none() && EvalParams::estimates_values(&variant);
    let engine_values = values_of(&params, &types);
    if let Some(&t) = types.pieces().iter().find(|&&t| engine_values[t] <= 0.0) {
        return Err(format!(
            "the engine would play {} with the {} worth {} pawns{}: give it values with \
             --engine-values FILE (the format of data/values/<variant>.toml)",
            variant.name,
            types.names[t],
            engine_values[t],
            if estimated {
                " (the estimate from its moves, which counts no first move)"
            } else {
                ""
            }
        ));
    }
    let suggested = suggested_values(&variant, &types, &engine_values)?;
    Ok(Setup {
        variant,
        types,
        params,
        estimated,
        suggested,
    })
}

/// Runs (or resumes) the run `settings` describe in `folder`; with
/// `base`, a merged folder of the same run whose games this shard's
/// plans build on.
pub fn run(settings: &RunSettings, folder: &Path, base: Option<&Path>) -> Result<RunState, String> {
    if settings.budgets.is_empty() {
        return Err("no search budget (--nodes)".to_string());
    }
    let Setup {
        variant,
        types,
        params,
        estimated,
        suggested,
    } = setup(settings)?;
    std::fs::create_dir_all(folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    let signature = search_signature_of(&variant)?;
    let game = AnyGame::new(variant).map_err(|e| e.to_string())?;
    let path = journal_path(folder);
    with_game!(&game, g => {
        let bound = colour_bound_types(g, &types);
        let mut pair_types = Vec::new();
        for &letter in &settings.pair_terms {
            match types.by_letter(letter) {
                Some(t) if bound.contains(&t) => pair_types.push(t),
                _ => return Err(format!(
                    "--pair-terms: '{letter}' is not a colour-bound piece of {} (those are: {})",
                    settings.variant,
                    bound.iter().map(|&t| types.letters[t].to_string()).collect::<Vec<_>>().join(", ")
                )),
            }
        }
        pair_types.sort_unstable();
        pair_types.dedup();
        let header = RunHeader {
            settings: settings.clone(),
            engine_version: engine_version(),
            search_signature: signature,
            engine_values: values_of(&params, &types),
            engine_values_estimated: estimated,
            suggested,
            space: FeatureSpace::new(&types, pair_types),
            types,
        };
        let (journal, own) = open_journal(&path, &header)?;
        let based = match base {
            Some(base) => read_base(base, &header)?,
            None => Vec::new(),
        };
        let runner = Runner::new(g, &header, &params, folder)?;
        runner.run(journal, own, based)
    })
}

/// The search signature of a variant (its name for a built-in one; a
/// variant file has none of its own, so chess's stands for the build).
fn search_signature_of(variant: &Variant) -> Result<u64, String> {
    let name = if Variant::built_in_names().contains(&variant.name.as_str()) {
        variant.name.as_str()
    } else {
        "chess"
    };
    search_signature(name)
}

/// Opens the run's journal: a new one headed by `header`, or the
/// existing one, whose header must agree.
fn open_journal(path: &Path, header: &RunHeader) -> Result<(LineJournal, Vec<DesignGame>), String> {
    if !path.exists() {
        return Ok((LineJournal::create(path, VALUES_MARK, header)?, Vec::new()));
    }
    let contents = read_lines::<RunHeader, DesignGame>(path, VALUES_MARK)?;
    check_same_run(&contents.settings, header, path, false)?;
    eprintln!("resuming the run in {}", path.display());
    let journal = LineJournal::reopen(path, contents.complete_bytes)?;
    Ok((journal, contents.entries))
}

/// Checks that the run recorded at `source` (`recorded`) is the run of
/// `header`: the same variant, the same settings (but the shard, when
/// `any_shard`), the same search.
fn check_same_run(
    recorded: &RunHeader,
    header: &RunHeader,
    source: &Path,
    any_shard: bool,
) -> Result<(), String> {
    let (mine, theirs) = if any_shard {
        (header.settings.unsharded(), recorded.settings.unsharded())
    } else {
        (header.settings.clone(), recorded.settings.clone())
    };
    if recorded.settings.variant != header.settings.variant {
        return Err(format!(
            "{} holds a run of {}, not of {}: use another --out folder",
            source.display(),
            recorded.settings.variant,
            header.settings.variant
        ));
    }
    let differences = json_differences(&theirs, &mine);
    if !differences.is_empty() {
        return Err(format!(
            "{} holds a run with other settings (recorded vs given: {}); use another --out folder \
             or the same settings",
            source.display(),
            differences.join("; ")
        ));
    }
    if recorded.search_signature != header.search_signature {
        return Err(format!(
            "{} holds a run played by an engine that searches differently (engine {}, bench \
             signature {} at depth {SIGNATURE_DEPTH}; this build: {}): its games would mix with \
             this build's; use the build that started it, or another --out folder",
            source.display(),
            recorded.engine_version,
            recorded.search_signature,
            header.search_signature
        ));
    }
    Ok(())
}

/// The games of a merged base folder of the same run.
fn read_base(base: &Path, header: &RunHeader) -> Result<Vec<DesignGame>, String> {
    let path = journal_path(base);
    let contents = read_lines::<RunHeader, DesignGame>(&path, VALUES_MARK)?;
    if contents.settings.settings.shard.is_some() {
        return Err(format!(
            "--base {}: a shard's folder; give the folder that `kurier-tune merge` wrote",
            base.display()
        ));
    }
    check_same_run(&contents.settings, header, &path, true)?;
    Ok(contents.entries)
}

struct Runner<'r, B: Bitboard> {
    game: &'r Arc<Game<B>>,
    header: &'r RunHeader,
    params: &'r EvalParams,
    folder: &'r Path,
    evaluator: Evaluator<B>,
    bases: Bases<B>,
    limits: DesignLimits,
}

impl<'r, B: Bitboard> Runner<'r, B> {
    fn new(
        game: &'r Arc<Game<B>>,
        header: &'r RunHeader,
        params: &'r EvalParams,
        folder: &'r Path,
    ) -> Result<Runner<'r, B>, String> {
        let start = Position::startpos(game.clone());
        let bases = match &header.settings.openings {
            DesignOpenings::Book(file) => {
                let text = file.reread()?;
                Bases::Book(read_openings(game, &text, &file.path)?)
            }
            DesignOpenings::Random { plies } => Bases::Random(Box::new(start.clone()), *plies),
        };
        let men = men_available(std::slice::from_ref(&start), game.pieces.len());
        let limits = DesignLimits {
            pawns_per_side: (men[header.types.pawn] / 2).min(MAX_PAWNS_PER_SIDE),
            men,
        };
        Ok(Runner {
            game,
            header,
            params,
            folder,
            evaluator: Evaluator::new(game, params.clone()),
            bases,
            limits,
        })
    }

    fn planner(&self) -> Planner<'_, B> {
        let s = &self.header.settings;
        let header = self.header;
        let until = s.until_verdicts.map(|rule| Until {
            family: Family {
                space: &header.space,
                types: &header.types,
                suggested: &header.suggested,
                tolerance: rule.tolerance_for(&header.suggested, &header.types),
                scale: Scale::Pawns,
            },
            alpha: rule.alpha,
            batches: s.batches,
        });
        Planner {
            types: &self.header.types,
            space: &self.header.space,
            engine_values: &self.header.engine_values,
            evaluator: &self.evaluator,
            bases: &self.bases,
            limits: &self.limits,
            pairs: s.pairs_per_batch,
            seed: s.seed,
            until,
        }
    }

    fn run(
        &self,
        journal: LineJournal,
        own: Vec<DesignGame>,
        based: Vec<DesignGame>,
    ) -> Result<RunState, String> {
        let s = &self.header.settings;
        let mut known: BTreeMap<u64, DesignGame> = BTreeMap::new();
        for game in based.into_iter().chain(own) {
            match known.get(&game.id()) {
                Some(other) if *other != game => {
                    return Err(format!(
                        "batch {} pair {}: the base and this folder hold different games",
                        game.batch, game.pair
                    ))
                }
                _ => {
                    known.insert(game.id(), game);
                }
            }
        }
        let progress = WorkProgress::new(self.games_left(&known), "games");
        for (index, &nodes) in s.budgets.iter().enumerate() {
            if s.observational_games > 0 {
                self.observational(index as u32, nodes, &progress)?;
            }
        }
        let journal = Mutex::new(journal);
        let mut waiting = None;
        'batches: for batch in 1..=s.batches {
            let mut todo: Vec<(u32, PlannedGame)> = Vec::new();
            // Pairs planned per budget: none for a budget whose verdicts
            // are all in (`--until-verdicts`).
            let mut planned = Vec::with_capacity(s.budgets.len());
            for budget in 0..s.budgets.len() as u32 {
                let earlier: Vec<&DesignGame> = known
                    .values()
                    .filter(|g| g.budget == budget && g.batch < batch)
                    .collect();
                let plan = self.planner().plan(self.game, budget, batch, &earlier)?;
                planned.push(plan.len() / 2);
                todo.extend(
                    plan.into_iter()
                        .filter(|p| s.shard.is_none_or(|shard| shard.holds(p.pair as usize)))
                        .filter(|p| !known.contains_key(&game_id(budget, batch, p.pair, p.a_white)))
                        .map(|p| (budget, p)),
                );
            }
            if planned.iter().all(|&pairs| pairs == 0) {
                eprintln!("every verdict is in after batch {}", batch - 1);
                break;
            }
            let finished = self.play(batch, &todo, &journal, &progress)?;
            for game in finished {
                known.insert(game.id(), game);
            }
            let complete = (0..s.budgets.len() as u32).all(|budget| {
                let in_batch: Vec<&DesignGame> = known
                    .values()
                    .filter(|g| g.budget == budget && g.batch == batch)
                    .collect();
                complete_pairs(&in_batch).len() == planned[budget as usize]
            });
            if !complete {
                let shard = s.shard.map_or(String::new(), |k| k.to_string());
                waiting = Some(format!(
                    "shard {shard} has played its share of batch {batch} of {}: when every shard \
                     has, join them with `kurier-tune merge <each shard's folder>/journal.jsonl \
                     --out MERGED`, then run this command again with `--base MERGED`",
                    s.batches
                ));
                break 'batches;
            }
        }
        progress.finish();
        Ok(RunState {
            header: self.header.clone(),
            games: known.into_values().collect(),
            waiting,
        })
    }

    /// Games this machine has still to play, counting every batch in full.
    fn games_left(&self, known: &BTreeMap<u64, DesignGame>) -> u64 {
        let s = &self.header.settings;
        let share = |count: u64| s.shard.map_or(count, |k| count.div_ceil(k.count as u64));
        let design = s.budgets.len() as u64 * share(u64::from(s.batches * s.pairs_per_batch)) * 2;
        let own = known
            .values()
            .filter(|g| s.shard.is_none_or(|k| k.holds(g.pair as usize)))
            .count() as u64;
        let observational: u64 = s
            .budgets
            .iter()
            .map(|&nodes| {
                let done = Dataset::read(&dataset_path(self.folder, nodes)).map_or(0, |d| d.games);
                share(u64::from(s.observational_games)).saturating_sub(u64::from(done))
            })
            .sum();
        design.saturating_sub(own) + observational
    }

    fn observational(
        &self,
        budget: u32,
        nodes: u64,
        progress: &WorkProgress,
    ) -> Result<(), String> {
        let s = &self.header.settings;
        let plan = GenerationPlan {
            games: s.observational_games,
            nodes,
            opening_plies: s.opening_plies,
            skip_plies: s.skip_plies,
            per_game: s.per_game,
            ending: s.ending,
            seed: s.seed,
            budget,
            shard: s.shard,
        };
        let path = dataset_path(self.folder, nodes);
        let mut last = Dataset::read(&path).map_or(0, |d| d.games);
        let mut report = |done: u32, _total: u32, _positions: usize| {
            progress.add(u64::from(done.saturating_sub(last)));
            last = done;
        };
        generate(self.game, self.params, &plan, &path, &mut report)?;
        Ok(())
    }

    /// Plays the planned games of `batch`, journaling each as it ends.
    fn play(
        &self,
        batch: u32,
        todo: &[(u32, PlannedGame)],
        journal: &Mutex<LineJournal>,
        progress: &WorkProgress,
    ) -> Result<Vec<DesignGame>, String> {
        let s = &self.header.settings;
        let players: Vec<_> = s
            .budgets
            .iter()
            .map(|&nodes| tuner_player(self.game, "experiment", self.params, nodes))
            .collect();
        let rules = s.ending.rules();
        let results: Vec<Result<DesignGame, String>> = todo
            .par_iter()
            .map(|(budget, planned)| {
                let start = Position::from_fen(self.game.clone(), &planned.fen)
                    .map_err(|e| format!("planned position {}: {e}", planned.fen))?;
                let player = &players[*budget as usize];
                let (record, cpu_ms) = play_tuner_game(&start, player, player, &rules);
                let entry = DesignGame {
                    budget: *budget,
                    batch,
                    pair: planned.pair,
                    a_white: planned.a_white,
                    trade: planned.trade.clone(),
                    fen: planned.fen.clone(),
                    moves: record.moves,
                    result: record.result.pgn().to_string(),
                    termination: record.termination.description(),
                    cpu_ms,
                };
                journal
                    .lock()
                    .unwrap_or_else(|poisoned| poisoned.into_inner())
                    .append(&entry)?;
                progress.add(1);
                Ok(entry)
            })
            .collect();
        results.into_iter().collect()
    }
}

/// The results of the run in `state` (fits on every complete pair and on
/// the observational datasets in `folder`).
pub fn results(state: &RunState, folder: &Path) -> Result<RunResults, String> {
    let header = &state.header;
    let s = &header.settings;
    let variant = recorded_variant(&s.variant, s.variant_file.as_ref())?;
    let game = AnyGame::new(variant).map_err(|e| e.to_string())?;
    let params = setup(s)?.params;
    let mut budgets = Vec::new();
    for (index, &nodes) in s.budgets.iter().enumerate() {
        let games: Vec<&DesignGame> = state
            .games
            .iter()
            .filter(|g| g.budget == index as u32)
            .collect();
        budgets.push(with_game!(&game, g => budget_result(g, header, &params, folder, index as u32, nodes, &games))?);
    }
    let texel = match (s.texel, s.budgets.last()) {
        (true, Some(&nodes)) => {
            let dataset = Dataset::read(&dataset_path(folder, nodes)).map_err(|e| e.to_string())?;
            let options = TexelOptions {
                scale: None,
                l2: s.texel_l2,
            };
            Some(
                fit_texel(&dataset, &params, &options)
                    .map_err(|e| format!("Texel fit: {e}"))?
                    .params
                    .to_toml(),
            )
        }
        _ => None,
    };
    Ok(RunResults {
        header: header.clone(),
        budgets,
        texel,
    })
}

fn budget_result<B: Bitboard>(
    game: &Arc<Game<B>>,
    header: &RunHeader,
    params: &EvalParams,
    folder: &Path,
    budget: u32,
    nodes: u64,
    games: &[&DesignGame],
) -> Result<BudgetResult, String> {
    let s = &header.settings;
    let space = &header.space;
    let types = &header.types;
    let rows = design_rows(game, space, games)?;
    let seed = s.seed ^ u64::from(budget + 1).wrapping_mul(0x2545_F491_4F6C_DD1D);
    let estimate = design_estimate(
        &rows,
        space,
        types,
        Some(&header.suggested),
        s.bootstrap,
        seed,
    );
    let (design, design_error) = match estimate {
        Ok(estimate) if !rows.is_empty() => (Some(estimate), None),
        Ok(_) => (None, Some("no complete pair".to_string())),
        Err(e) => (None, Some(e.to_string())),
    };
    let ends = batch_ends(games);
    let looks = looks(&rows, &ends, space.columns());
    let progression: Vec<(usize, Vec<Option<f64>>)> = ends
        .iter()
        .take_while(|&&(_, end)| end > 0)
        .map(|&(batch, end)| {
            let widths = looks.iter().find(|look| look.batch == batch).map_or_else(
                || vec![None; types.letters.len()],
                |look| look.half_widths(space, types),
            );
            (end, widths)
        })
        .collect();
    let (observational, observational_error, observational_games, observational_cpu_seconds) =
        if s.observational_games == 0 {
            (
                None,
                Some("no observational games in this run".to_string()),
                0,
                0.0,
            )
        } else {
            match Dataset::read(&dataset_path(folder, nodes)) {
                Ok(dataset) => {
                    let estimate =
                        observational_estimate(&dataset, space, params, types, s.bootstrap, seed);
                    let (estimate, error) = match estimate {
                        Ok(e) => (Some(e), None),
                        Err(e) => (None, Some(e.to_string())),
                    };
                    (
                        estimate,
                        error,
                        dataset.games,
                        dataset.cpu_ms as f64 / 1000.0,
                    )
                }
                Err(e) => (None, Some(e.to_string()), 0, 0.0),
            }
        };
    let mut trades: BTreeMap<String, usize> = BTreeMap::new();
    let mut outcomes = [0; 3];
    let mut terminations: BTreeMap<String, usize> = BTreeMap::new();
    for g in games {
        if g.a_white {
            *trades.entry(g.trade.label(types)).or_default() += 1;
        }
        outcomes[usize::from(2 - g.outcome())] += 1;
        *terminations.entry(g.termination.clone()).or_default() += 1;
    }
    let mut trades: Vec<(String, usize)> = trades.into_iter().collect();
    trades.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let design_cpu_seconds: f64 = games.iter().map(|g| g.cpu_ms as f64 / 1000.0).sum();
    let design_plies: usize = games.iter().map(|g| g.moves.len()).sum();
    let per_game = |total: f64| total / games.len().max(1) as f64;
    let efficiency = match (progression.last(), &design) {
        (Some((fitted, widths)), Some(estimate)) => Efficiency::of(
            types,
            *fitted,
            widths,
            &estimate.values,
            per_game(design_plies as f64),
            per_game(design_cpu_seconds),
        ),
        _ => None,
    };
    Ok(BudgetResult {
        nodes,
        design,
        design_error,
        observational,
        observational_error,
        design_games: games.len(),
        design_cpu_seconds,
        design_plies,
        observational_games,
        observational_cpu_seconds,
        progression,
        looks,
        trades,
        outcomes,
        terminations: terminations.into_iter().collect(),
        efficiency,
    })
}

/// Joins the shards' journals (and their datasets, in the same folders)
/// into one run in `out`; refuses journals of other runs, a game twice,
/// shards of different splits, and games that the run's plan does not
/// hold.
pub fn merge_values(journals: &[PathBuf], out: &Path) -> Result<RunState, String> {
    let Some(first) = journals.first() else {
        return Err("merge: no journals given".to_string());
    };
    let mut header: Option<RunHeader> = None;
    let mut games: BTreeMap<u64, (DesignGame, &Path)> = BTreeMap::new();
    let mut shards: Vec<Shard> = Vec::new();
    for path in journals {
        let contents = read_lines::<RunHeader, DesignGame>(path, VALUES_MARK)?;
        let Some(shard) = contents.settings.settings.shard else {
            return Err(format!(
                "merge: {} is not a shard's journal (no --shard)",
                path.display()
            ));
        };
        match &header {
            None => header = Some(contents.settings.clone()),
            Some(h) => check_same_run(&contents.settings, h, path, true)
                .map_err(|e| format!("merge: {} and {}: {e}", first.display(), path.display()))?,
        }
        if shards.iter().any(|s| s.count != shard.count) || shards.contains(&shard) {
            return Err(format!(
                "merge: {} is shard {shard}, which does not complete the other shards ({})",
                path.display(),
                shards
                    .iter()
                    .map(|s| s.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        shards.push(shard);
        for game in contents.entries {
            if !shard.holds(game.pair as usize) {
                return Err(format!(
                    "merge: {}: batch {} pair {} is not shard {shard}'s",
                    path.display(),
                    game.batch,
                    game.pair
                ));
            }
            if let Some((_, other)) = games.get(&game.id()) {
                return Err(format!(
                    "merge: batch {} pair {} is in both {} and {}",
                    game.batch,
                    game.pair,
                    other.display(),
                    path.display()
                ));
            }
            games.insert(game.id(), (game, path.as_path()));
        }
    }
    let mut header = header.unwrap_or_else(|| unreachable!("one journal at least was read"));
    header.settings.shard = None;
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let out_journal = journal_path(out);
    if journals.iter().any(|p| same_file(p, &out_journal)) {
        return Err(format!(
            "merge: the output {} is one of the inputs",
            out_journal.display()
        ));
    }
    let state = RunState {
        header: header.clone(),
        games: games.into_values().map(|(g, _)| g).collect(),
        waiting: None,
    };
    check_plans(&state)?;
    for &nodes in &header.settings.budgets {
        if header.settings.observational_games == 0 {
            break;
        }
        let mut parts = Vec::new();
        for journal in journals {
            let folder = journal.parent().unwrap_or(Path::new("."));
            let path = dataset_path(folder, nodes);
            let dataset = Dataset::read(&path).map_err(|e| format!("merge: {e}"))?;
            parts.push((path, dataset));
        }
        merge_datasets(&parts, &dataset_path(out, nodes)).map_err(|e| format!("merge: {e}"))?;
    }
    write_lines(&out_journal, VALUES_MARK, &header, &state.games)?;
    Ok(state)
}

/// Checks every game of `state` against the plan of its batch (planned
/// again from the games of the earlier batches).
fn check_plans(state: &RunState) -> Result<(), String> {
    let header = &state.header;
    let s = &header.settings;
    let variant = recorded_variant(&s.variant, s.variant_file.as_ref())?;
    let params = setup(s)?.params;
    let game = AnyGame::new(variant).map_err(|e| e.to_string())?;
    with_game!(&game, g => {
        let runner = Runner::new(g, header, &params, Path::new("."))?;
        for budget in 0..s.budgets.len() as u32 {
            for batch in 1..=s.batches {
                let in_batch: Vec<&DesignGame> = state.games.iter().filter(|x| x.budget == budget && x.batch == batch).collect();
                if in_batch.is_empty() {
                    continue;
                }
                let earlier: Vec<&DesignGame> = state.games.iter().filter(|x| x.budget == budget && x.batch < batch).collect();
                let plan = runner.planner().plan(g, budget, batch, &earlier)?;
                for played in in_batch {
                    let fits = plan.iter().any(|p| p.pair == played.pair && p.a_white == played.a_white && p.fen == played.fen && p.trade == played.trade);
                    if !fits {
                        return Err(format!(
                            "merge: budget {} batch {batch} pair {}: the game is not the one the run's plan holds \
                             (shards of different runs, or a batch played before the earlier ones were merged?)",
                            s.budgets[budget as usize], played.pair
                        ));
                    }
                }
            }
        }
        Ok::<(), String>(())
    })
}
