//! A whole tuning run, recorded step by step in a journal so that a
//! killed run picks up where it stopped.
//!
//! Round `r` plays games with the engine's values `e_r` (the suggested
//! values in round 1, the previous round's fit after that), fits the
//! values `v_r` with bootstrap intervals, and is *settled* when every
//! value moved less than its interval's half-width, `|v_r - e_r| <
//! half-width`: the values then reproduce themselves within their
//! uncertainty. Rounds go on until one is settled or the round budget is
//! spent; the last fit is the answer. Fitted values feed the next round's
//! engine no lower than [`MIN_ENGINE_VALUE`], so that a badly determined
//! value cannot make the engine give pieces away.
//!
//! Then, once: the Texel fit of every evaluation weight on the last
//! round's data (if asked), the material-odds matches (with the engine's
//! default, suggested values, so that they do not depend on the fit) and
//! the validation match of fitted against suggested values.
//!
//! The run folder holds `journal.json` (settings, every finished step;
//! written after each step and after every block of games or batch of
//! match pairs) and `round-<r>.kdat` (the datasets, appended block by
//! block). Running the same command again resumes; other settings for the
//! same folder are refused.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use kurier_engine::bitboard::Bitboard;
use kurier_engine::eval::EvalParams;
use kurier_engine::game::{AnyGame, Game};
use kurier_engine::position::Position;
use kurier_engine::variant::Variant;
use kurier_engine::with_game;
use serde::{Deserialize, Serialize};

use super::bootstrap::{bootstrap_material, MaterialIntervals};
use super::fit::{fit_material, material_design, MaterialOptions};
use super::generate::{generate, GenerationPlan, BLOCK_GAMES};
use super::imbalance::{
    calibration_odds, piece_odds, play_odds_match, OddsPlan, CALIBRATION_PAWNS, ODDS_OPENING_PLIES,
};
use super::texel::{fit_texel, TexelOptions};
use super::validate::{play_validation, ValidationCounts, ValidationPlan};
use super::{
    engine_version, params_with_values, search_signature, values_of, PieceTypes, Values,
    SIGNATURE_DEPTH,
};
use crate::stats::Pentanomial;

/// The lowest value (pawns) a fitted value is given to the next round's engine.
pub const MIN_ENGINE_VALUE: f64 = 0.1;

/// `values` as the engine is given them: the king 0, every other value
/// at least [`MIN_ENGINE_VALUE`].
pub fn playable_values(values: &[f64], types: &PieceTypes) -> Values {
    values
        .iter()
        .enumerate()
        .map(|(t, &v)| {
            if t == types.king {
                0.0
            } else {
                v.max(MIN_ENGINE_VALUE)
            }
        })
        .collect()
}

/// Every setting of a run; a run folder belongs to one set.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunSettings {
    /// The variant.
    pub variant: String,
    /// Whether this is a `--quick` run.
    pub quick: bool,
    /// Games per round.
    pub games: u32,
    /// Nodes per move in every game.
    pub nodes: u32,
    /// Rounds at most.
    pub rounds: u32,
    /// Positions per game at most.
    pub per_game: u16,
    /// Plies skipped at the start of each game.
    pub skip_plies: u16,
    /// Random plies of each opening.
    pub opening_plies: usize,
    /// Games still going after this many plies are drawn.
    pub max_plies: usize,
    /// Bootstrap resamples.
    pub bootstrap: usize,
    /// L2 strength toward the suggested values (0: none).
    pub l2: f64,
    /// Whether to fit every evaluation weight too.
    pub texel: bool,
    /// The Texel fit's pull toward the current weights.
    pub texel_l2: f64,
    /// Pairs per odds match (0: no odds matches).
    pub imbalance_pairs: u32,
    /// Letters of the pieces measured by odds matches (empty: all).
    pub imbalance_pieces: Vec<char>,
    /// Validation pairs at most (0: no validation).
    pub validation_pairs: u32,
    /// SPRT H0 (Elo of fitted over suggested).
    pub elo0: f64,
    /// SPRT H1.
    pub elo1: f64,
    /// Seed of everything random.
    pub seed: u64,
}

/// One round's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RoundRecord {
    /// Round number, from 1.
    pub round: u32,
    /// The values the engine played with (pawns, by type).
    pub engine_values: Values,
    /// Games in the dataset.
    pub games: u32,
    /// Positions in the dataset.
    pub positions: usize,
    /// Fitted values (pawns, by type).
    pub values: Values,
    /// Scale `K`, logit per pawn.
    pub scale: f64,
    /// Side to move's advantage, pawns.
    pub tempo: f64,
    /// Bootstrap intervals.
    pub intervals: MaterialIntervals,
    /// Whether every value moved less than its interval's half-width.
    pub settled: bool,
    /// Wall time of the games played by the session that finished the
    /// round, seconds.
    pub generation_seconds: f64,
    /// Positions those games made per second of that time (0 if an
    /// earlier, killed session had played them all).
    pub positions_per_second: f64,
    /// Wall time of the fit and the bootstrap, seconds.
    pub fit_seconds: f64,
}

/// The Texel fit's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TexelRecord {
    /// Scale `k`, logit per centipawn.
    pub scale: f64,
    /// Positions used.
    pub positions: usize,
    /// The fitted parameters (`EvalParams::to_toml`).
    pub params_toml: String,
}

/// One odds match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OddsRecord {
    /// The piece measured, or `None` for a calibration match.
    pub piece: Option<usize>,
    /// Pawns involved: the compensation (piece match) or the odds
    /// (calibration match).
    pub pawns: usize,
    /// Pair counts of side A.
    pub pairs: [u64; 5],
}

/// The validation match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ValidationRecord {
    /// How it is played.
    pub plan: ValidationPlan,
    /// The counts so far.
    pub counts: ValidationCounts,
    /// Whether it has ended (decided or out of pairs).
    pub finished: bool,
}

/// Everything a run has done.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Journal {
    /// The settings.
    pub settings: RunSettings,
    /// The engine version that started the run.
    pub engine_version: String,
    /// That engine's [`search_signature`]; a run resumes only with a
    /// build of the same signature, so that its games all come from one
    /// search. Absent in journals written before it was recorded.
    #[serde(default)]
    pub search_signature: Option<u64>,
    /// The variant's piece types.
    pub types: PieceTypes,
    /// The suggested values (the engine's built-in ones), pawns.
    pub suggested: Values,
    /// Finished rounds.
    pub rounds: Vec<RoundRecord>,
    /// The Texel fit, once done.
    pub texel: Option<TexelRecord>,
    /// Finished odds matches.
    pub odds: Vec<OddsRecord>,
    /// The validation match, once started.
    pub validation: Option<ValidationRecord>,
}

impl Journal {
    /// The final values: the last round's fit.
    pub fn final_round(&self) -> Option<&RoundRecord> {
        self.rounds.last()
    }

    /// Reads a journal file.
    pub fn read(path: &Path) -> Result<Journal, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Journal::parse(&text, &path.display().to_string())
    }

    /// Reads a journal's text (`source` names it in errors) and checks
    /// that its parts fit together ([`Journal::check`]).
    pub fn parse(text: &str, source: &str) -> Result<Journal, String> {
        let journal: Journal = serde_json::from_str(text)
            .map_err(|e| format!("{source}: not a tuning journal: {e}"))?;
        journal.check().map_err(|e| format!("{source}: {e}"))?;
        Ok(journal)
    }

    /// Whether every per-type list has one entry per piece type and every
    /// type index names a type, as the report needs; else what does not.
    pub fn check(&self) -> Result<(), String> {
        let types = self.types.letters.len();
        let fits = |what: &str, len: usize| {
            if len == types {
                Ok(())
            } else {
                Err(format!("{what} has {len} entries for {types} piece types"))
            }
        };
        fits("types.names", self.types.names.len())?;
        fits("suggested", self.suggested.len())?;
        if self.types.king >= types || self.types.pawn >= types {
            return Err(format!(
                "types.king {} or types.pawn {} is not one of the {types} piece types",
                self.types.king, self.types.pawn
            ));
        }
        for round in &self.rounds {
            let name = |list: &str| format!("round {} {list}", round.round);
            fits(&name("values"), round.values.len())?;
            fits(&name("engine_values"), round.engine_values.len())?;
            fits(&name("intervals.values"), round.intervals.values.len())?;
        }
        if let Some(piece) = self
            .odds
            .iter()
            .filter_map(|record| record.piece)
            .find(|&piece| piece >= types)
        {
            return Err(format!(
                "an odds match measures piece type {piece}, not one of the {types}"
            ));
        }
        Ok(())
    }

    /// Writes the journal (to a temporary file, then renamed, so that a
    /// kill never leaves half a journal).
    pub fn write(&self, path: &Path) -> Result<(), String> {
        let text = serde_json::to_string_pretty(self)
            .map_err(|e| format!("cannot serialise the journal: {e}"))?;
        let temporary = path.with_extension("json.tmp");
        std::fs::write(&temporary, text)
            .and_then(|()| std::fs::rename(&temporary, path))
            .map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Whether the rounds are over: the last one settled, or the budget spent.
    fn rounds_done(&self) -> bool {
        self.rounds.last().is_some_and(|r| r.settled)
            || self.rounds.len() as u32 >= self.settings.rounds
    }
}

/// The journal's path in a run folder.
pub fn journal_path(folder: &Path) -> PathBuf {
    folder.join("journal.json")
}

/// Runs (or resumes) the tuning run described by `settings` in `folder`.
pub fn run(settings: &RunSettings, folder: &Path) -> Result<Journal, String> {
    let variant = Variant::built_in(&settings.variant).map_err(|e| e.to_string())?;
    let types = PieceTypes::of(&variant)?;
    let suggested_params = EvalParams::for_variant(&variant).map_err(|e| e.to_string())?;
    for &letter in &settings.imbalance_pieces {
        match types.by_letter(letter) {
            Some(t) if t != types.king && t != types.pawn => {}
            _ => {
                return Err(format!(
                    "--imbalance-pieces: '{letter}' is not a piece of {} other than king and pawn",
                    variant.name
                ))
            }
        }
    }
    std::fs::create_dir_all(folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    let signature = search_signature(&settings.variant)?;
    let path = journal_path(folder);
    let journal = if path.exists() {
        let journal = Journal::read(&path)?;
        if journal.settings != *settings {
            return Err(format!(
                "{} holds a run with other settings ({:?}); use another --out folder or the same settings",
                folder.display(),
                journal.settings
            ));
        }
        match journal.search_signature {
            Some(recorded) if recorded != signature => {
                return Err(format!(
                    "{} holds a run played by an engine that searches differently (engine {}, \
                     bench signature {recorded} at depth {SIGNATURE_DEPTH}; this build: {signature}): \
                     its games would mix with this build's; resume with the build that started it, \
                     or use another --out folder",
                    folder.display(),
                    journal.engine_version
                ))
            }
            Some(_) => {}
            None => eprintln!(
                "warning: {} records no search signature; resuming without checking the engine build",
                folder.display()
            ),
        }
        eprintln!("resuming the run in {}", folder.display());
        journal
    } else {
        Journal {
            settings: settings.clone(),
            engine_version: engine_version(),
            search_signature: Some(signature),
            suggested: values_of(&suggested_params, &types),
            types,
            rounds: Vec::new(),
            texel: None,
            odds: Vec::new(),
            validation: None,
        }
    };
    // Written at once, so that a run killed in its first round is
    // resumed only with the same settings.
    journal.write(&path)?;
    let game = AnyGame::new(variant).map_err(|e| e.to_string())?;
    with_game!(&game, g => Runner { game: g, folder, path: &path, suggested_params: &suggested_params, started: Instant::now() }.run(journal))
}

struct Runner<'r, B: Bitboard> {
    game: &'r Arc<Game<B>>,
    folder: &'r Path,
    path: &'r Path,
    suggested_params: &'r EvalParams,
    started: Instant,
}

impl<B: Bitboard> Runner<'_, B> {
    fn run(&self, mut journal: Journal) -> Result<Journal, String> {
        self.announce(&journal);
        while !journal.rounds_done() {
            let record = self.round(&journal)?;
            eprintln!(
                "round {}: K {:.3} per pawn, {} positions from {} games, {}",
                record.round,
                record.scale,
                record.positions,
                record.games,
                if record.settled {
                    "settled"
                } else {
                    "not settled"
                }
            );
            journal.rounds.push(record);
            journal.write(self.path)?;
        }
        if journal.settings.texel && journal.texel.is_none() {
            journal.texel = Some(self.texel(&journal)?);
            journal.write(self.path)?;
        }
        self.odds_matches(&mut journal)?;
        self.validation(&mut journal)?;
        eprintln!(
            "done in {:.0} s; journal {}",
            self.started.elapsed().as_secs_f64(),
            self.path.display()
        );
        Ok(journal)
    }

    /// Prints what the run will do; the expected duration follows with
    /// the first block of games (see the progress lines of [`Runner::round`]).
    fn announce(&self, journal: &Journal) {
        let s = &journal.settings;
        let odds = self.odds_plan_count(journal);
        eprintln!(
            "{}: up to {} round(s) of {} games at {} nodes per move, {} bootstrap resamples, \
             {odds} odds matches of {} pairs, validation up to {} pairs; the expected duration \
             follows after the first {BLOCK_GAMES} games",
            s.variant,
            s.rounds,
            s.games,
            s.nodes,
            s.bootstrap,
            s.imbalance_pairs,
            s.validation_pairs
        );
    }

    fn odds_pieces(&self, journal: &Journal) -> Vec<usize> {
        let types = &journal.types;
        if journal.settings.imbalance_pieces.is_empty() {
            types.pieces()
        } else {
            journal
                .settings
                .imbalance_pieces
                .iter()
                .filter_map(|&l| types.by_letter(l))
                .collect()
        }
    }

    fn odds_plan_count(&self, journal: &Journal) -> usize {
        if journal.settings.imbalance_pairs == 0 {
            0
        } else {
            CALIBRATION_PAWNS.len() + self.odds_pieces(journal).len()
        }
    }

    /// Games still to play in the whole run (upper bound: all rounds, the
    /// validation's whole budget), counting a game pair as two games.
    fn games_left(&self, journal: &Journal, this_round_left: u32) -> u64 {
        let s = &journal.settings;
        let later_rounds = u64::from(s.rounds.saturating_sub(journal.rounds.len() as u32 + 1));
        let odds_left = self
            .odds_plan_count(journal)
            .saturating_sub(journal.odds.len()) as u64;
        let validation_left = match &journal.validation {
            Some(v) if v.finished => 0,
            Some(v) => {
                u64::from(v.plan.max_pairs).saturating_sub(Pentanomial(v.counts.pairs).pairs())
            }
            None => u64::from(s.validation_pairs),
        };
        u64::from(this_round_left)
            + later_rounds * u64::from(s.games)
            + odds_left * 2 * u64::from(s.imbalance_pairs)
            + 2 * validation_left
    }

    fn round(&self, journal: &Journal) -> Result<RoundRecord, String> {
        let s = &journal.settings;
        let types = &journal.types;
        let number = journal.rounds.len() as u32 + 1;
        let engine_values: Values = match journal.rounds.last() {
            None => journal.suggested.clone(),
            Some(previous) => playable_values(&previous.values, types),
        };
        let params = params_with_values(self.suggested_params, types, &engine_values);
        let plan = GenerationPlan {
            games: s.games,
            nodes: s.nodes,
            opening_plies: s.opening_plies,
            skip_plies: s.skip_plies,
            per_game: s.per_game,
            max_plies: s.max_plies,
            seed: s.seed,
            round: number,
        };
        let dataset_path = self.folder.join(format!("round-{number}.kdat"));
        let round_started = Instant::now();
        let mut first_report: Option<(u32, Instant)> = None;
        let mut progress = |done: u32, total: u32, positions: usize| {
            let now = Instant::now();
            let (first_done, first_at) = *first_report.get_or_insert((done, now));
            let rate = if done > first_done {
                f64::from(done - first_done) / now.duration_since(first_at).as_secs_f64().max(1e-3)
            } else {
                f64::from(done) / now.duration_since(round_started).as_secs_f64().max(1e-3)
            };
            let round_left = f64::from(total - done) / rate.max(1e-9);
            let run_left = self.games_left(journal, total - done) as f64 / rate.max(1e-9);
            eprintln!(
                "round {number}: {done}/{total} games, {positions} positions, {:.2} games/s; \
                 round done in ~{:.0} min, whole run (at most) ~{:.0} min",
                rate,
                round_left / 60.0,
                run_left / 60.0
            );
        };
        let outcome = generate(self.game, &params, &plan, &dataset_path, &mut progress)?;
        let fit_started = Instant::now();
        let design = material_design(&outcome.dataset, types);
        let options = MaterialOptions {
            l2: s.l2,
            prior: journal.suggested.clone(),
        };
        let fit = fit_material(&design, types, &options, None, None)
            .map_err(|e| format!("round {number}: {e}"))?;
        let intervals = bootstrap_material(
            &design,
            types,
            &options,
            &fit,
            s.bootstrap,
            s.seed ^ u64::from(number),
        );
        let settled = types.valued().iter().all(|&t| {
            t == types.pawn
                || intervals.values[t]
                    .is_some_and(|i| (fit.values[t] - engine_values[t]).abs() < i.half_width())
        });
        Ok(RoundRecord {
            round: number,
            engine_values,
            games: outcome.dataset.games,
            positions: outcome.dataset.records.len(),
            values: fit.values,
            scale: fit.scale,
            tempo: fit.tempo,
            intervals,
            settled,
            generation_seconds: outcome.seconds,
            positions_per_second: outcome.positions_made as f64 / outcome.seconds.max(1e-9),
            fit_seconds: fit_started.elapsed().as_secs_f64(),
        })
    }

    fn texel(&self, journal: &Journal) -> Result<TexelRecord, String> {
        let last = journal.final_round().ok_or("no round to fit")?;
        let path = self.folder.join(format!("round-{}.kdat", last.round));
        let dataset = super::dataset::Dataset::read(&path).map_err(|e| e.to_string())?;
        let current =
            params_with_values(self.suggested_params, &journal.types, &last.engine_values);
        let options = TexelOptions {
            scale: None,
            l2: journal.settings.texel_l2,
        };
        let fit = fit_texel(&dataset, &current, &options).map_err(|e| format!("Texel fit: {e}"))?;
        eprintln!(
            "Texel fit: scale {:.5} per centipawn on {} positions",
            fit.scale,
            dataset.records.len()
        );
        Ok(TexelRecord {
            scale: fit.scale,
            positions: dataset.records.len(),
            params_toml: fit.params.to_toml(),
        })
    }

    fn odds_matches(&self, journal: &mut Journal) -> Result<(), String> {
        let s = journal.settings.clone();
        if s.imbalance_pairs == 0 {
            return Ok(());
        }
        let types = journal.types.clone();
        let start = Position::startpos(self.game.clone());
        let pawns_available = start
            .pieces(kurier_engine::geometry::Color::White, types.pawn)
            .count() as usize;
        let mut wanted: Vec<(Option<usize>, usize)> =
            CALIBRATION_PAWNS.iter().map(|&p| (None, p)).collect();
        for t in self.odds_pieces(journal) {
            let odds = piece_odds(t, types.pawn, journal.suggested[t], pawns_available);
            wanted.push((Some(t), odds.b_lacks.len()));
        }
        for (index, (piece, pawns)) in wanted.into_iter().enumerate() {
            if journal
                .odds
                .iter()
                .any(|r| r.piece == piece && r.pawns == pawns)
            {
                continue;
            }
            let odds = match piece {
                None => calibration_odds(types.pawn, pawns),
                Some(t) => piece_odds(t, types.pawn, journal.suggested[t], pawns_available),
            };
            let plan = OddsPlan {
                pairs: s.imbalance_pairs,
                nodes: s.nodes,
                opening_plies: ODDS_OPENING_PLIES,
                max_plies: s.max_plies,
                seed: s.seed ^ (index as u64 + 1).wrapping_mul(0x5851_F42D_4C95_7F2D),
            };
            let started = Instant::now();
            let counts = play_odds_match(self.game, self.suggested_params, &odds, &plan)?;
            let label = match piece {
                None => format!("{pawns} pawn(s) down"),
                Some(t) => format!("{} against {pawns} pawn(s)", types.names[t]),
            };
            eprintln!(
                "odds match {label}: pair scores {:?} in {:.0} s",
                counts.0,
                started.elapsed().as_secs_f64()
            );
            journal.odds.push(OddsRecord {
                piece,
                pawns,
                pairs: counts.0,
            });
            journal.write(self.path)?;
        }
        Ok(())
    }

    fn validation(&self, journal: &mut Journal) -> Result<(), String> {
        let s = journal.settings.clone();
        if s.validation_pairs == 0 || journal.validation.as_ref().is_some_and(|v| v.finished) {
            return Ok(());
        }
        let last = journal.final_round().ok_or("no round to validate")?.clone();
        let fitted = params_with_values(
            self.suggested_params,
            &journal.types,
            &playable_values(&last.values, &journal.types),
        );
        let record = journal.validation.get_or_insert_with(|| ValidationRecord {
            plan: ValidationPlan {
                max_pairs: s.validation_pairs,
                nodes: s.nodes,
                opening_plies: s.opening_plies,
                max_plies: s.max_plies,
                seed: s.seed ^ 0x7A11_DA7E,
                elo0: s.elo0,
                elo1: s.elo1,
            },
            counts: ValidationCounts::default(),
            finished: false,
        });
        let plan = record.plan.clone();
        let so_far = record.counts;
        let mut journal_copy = journal.clone();
        let counts = play_validation(
            self.game,
            &fitted,
            self.suggested_params,
            &plan,
            so_far,
            &mut |counts| {
                if let Some(v) = journal_copy.validation.as_mut() {
                    v.counts = *counts;
                }
                let done = Pentanomial(counts.pairs);
                eprintln!(
                    "validation: {} pairs, pair scores {:?}",
                    done.pairs(),
                    counts.pairs
                );
                journal_copy.write(self.path)
            },
        )?;
        if let Some(v) = journal.validation.as_mut() {
            v.counts = counts;
            v.finished = true;
        }
        journal.write(self.path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXCOCO: &str = include_str!("../../../reports/excoco-values-journal.json");

    #[test]
    fn a_journal_whose_lists_do_not_fit_its_types_is_refused() {
        let journal = Journal::parse(EXCOCO, "excoco").unwrap();
        assert_eq!(journal.types.letters.len(), 15);
        let refused = |change: &dyn Fn(&mut Journal)| {
            let mut broken = journal.clone();
            change(&mut broken);
            broken.check().unwrap_err()
        };
        assert_eq!(
            refused(&|j| {
                j.suggested.pop();
            }),
            "suggested has 14 entries for 15 piece types"
        );
        assert!(refused(&|j| j.types.pawn = 15).contains("types.pawn 15"));
        assert_eq!(
            refused(&|j| j.rounds[1].intervals.values.clear()),
            "round 2 intervals.values has 0 entries for 15 piece types"
        );
        assert!(refused(&|j| j.odds[0].piece = Some(40)).contains("piece type 40"));
        let error = Journal::parse("{}", "x.json").unwrap_err();
        assert!(error.starts_with("x.json: not a tuning journal"), "{error}");
    }
}
