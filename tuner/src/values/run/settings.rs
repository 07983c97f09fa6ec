//! What a run is: its settings, the header that its journal starts with,
//! its state, and the engine and values that its settings make.

use std::path::{Path, PathBuf};

use kurier_engine::eval::evaluate::EvalParams;
use kurier_engine::variant::definition::Variant;
use serde::{Deserialize, Serialize};

use crate::records::variant_source::{recorded_variant, VariantFile};
use crate::util::files::fingerprint;
use crate::util::shard::Shard;
use crate::values::design_game::DesignGame;
use crate::values::features::FeatureSpace;
use crate::values::generate::GameEnding;
use crate::values::verdict::VerdictRule;
use crate::values::{values_of, PieceTypes, Values};

/// The most pawns a trade takes from one side (and never more than half
/// of a side's pawns). Every value is a ratio to the pawn, so the pawn's
/// own coefficient sets much of every interval: trades of more pawns
/// measure it better: at ExCoCo (eighteen pawns a side), simulated runs
/// of the adaptive design (4 batches of 120 pairs, the model's own
/// games) need 5,251 games on average to every value's target with up
/// to eight, 10,745 with up to four (`tuner/tests/design_efficiency.rs`).
/// The price is the assumption that pawns add up over larger imbalances
/// (`tuner/tests/pawn_additivity.rs` checks it on real games).
pub const MAX_PAWNS_PER_SIDE: usize = 8;

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
    /// The values file every batch is designed at (`--design-values`;
    /// `None`: each batch at the fit of the games before it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub design_values: Option<RecordedFile>,
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
    /// The values files the run reads again whenever it is resumed, each
    /// with the option that named it.
    pub fn values_inputs(&self) -> Vec<(&'static str, &RecordedFile)> {
        [
            ("--engine-values", &self.engine_values),
            ("--design-values", &self.design_values),
        ]
        .into_iter()
        .filter_map(|(option, file)| file.as_ref().map(|file| (option, file)))
        .collect()
    }

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
    /// The version of the design that plans its batches
    /// ([`crate::values::design::DESIGN_VERSION`]); 0 in journals written
    /// before it was recorded (their games are still checked against
    /// the plan when merged).
    #[serde(default)]
    pub design: u32,
    /// The fingerprint of every evaluation weight the engine plays with
    /// (`EvalParams::to_toml`, as a match's players record it): a run
    /// resumes only with a build that evaluates alike, since weights
    /// that no bench position reaches (the mop-up's) leave the search
    /// signature as it was. `None` in journals written before it was
    /// recorded: those can still be merged and reported, not resumed.
    #[serde(default)]
    pub weights_fingerprint: Option<String>,
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
    /// The values every batch is designed at, pawns (from the settings'
    /// `design_values` file).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub design_values: Option<Values>,
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

/// The journal's path in a run folder.
pub fn journal_path(folder: &Path) -> PathBuf {
    folder.join(JOURNAL)
}

/// The observational dataset of budget `nodes` in a run folder.
pub fn dataset_path(folder: &Path, nodes: u64) -> PathBuf {
    folder.join(format!("observational-{nodes}.kdat"))
}

/// What a run is played with: its variant, types, and engine.
pub(super) struct Setup {
    pub(super) variant: Variant,
    pub(super) types: PieceTypes,
    pub(super) params: EvalParams,
    /// Whether the engine's values are estimated from the pieces' moves.
    pub(super) estimated: bool,
    pub(super) suggested: Values,
    pub(super) design_values: Option<Values>,
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

/// The engine's weights a run of `variant` plays with: the variant's,
/// with the values of its `--engine-values` file if it has one. What a
/// recorded run needs to be merged or reported; its design values are in
/// its header.
pub(super) fn engine_params(
    variant: &Variant,
    settings: &RunSettings,
) -> Result<EvalParams, String> {
    match &settings.engine_values {
        Some(file) => params_with_values(variant, file),
        None => EvalParams::for_variant(variant).map_err(|e| e.to_string()),
    }
}

/// The variant, types, engine and values that `settings` make.
pub(super) fn setup(settings: &RunSettings) -> Result<Setup, String> {
    let variant = recorded_variant(&settings.variant, settings.variant_file.as_ref())?;
    let types = PieceTypes::of(&variant)?;
    let params = engine_params(&variant, settings)?;
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
    let design_values = match &settings.design_values {
        Some(file) => Some(design_values(&variant, &types, file)?),
        None => None,
    };
    Ok(Setup {
        variant,
        types,
        params,
        estimated,
        suggested,
        design_values,
    })
}

/// The values of a `--design-values` file, pawns by type; every piece
/// must have a positive value, since the design balances trades by them.
fn design_values(
    variant: &Variant,
    types: &PieceTypes,
    file: &RecordedFile,
) -> Result<Values, String> {
    let values = values_of(&params_with_values(variant, file)?, types);
    match types.pieces().iter().find(|&&t| values[t] <= 0.0) {
        Some(&t) => Err(format!(
            "{}: the {} is worth {} pawns; the design balances trades by these values, so \
             every piece needs a positive one",
            file.path, types.names[t], values[t]
        )),
        None => Ok(values),
    }
}

/// The engine's weights with the piece values of a recorded values file
/// (read again; an error if it changed).
fn params_with_values(variant: &Variant, file: &RecordedFile) -> Result<EvalParams, String> {
    let text = file.reread()?;
    EvalParams::with_values(variant, &text, &file.path).map_err(|e| e.to_string())
}
