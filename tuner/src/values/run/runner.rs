//! Playing a run: every budget's observational games and design batches,
//! each game journaled as it ends, a killed run resumed where it stopped.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::{Arc, Mutex};

use kurier_engine::board::bitboard::Bitboard;
use kurier_engine::eval::evaluate::{EvalParams, Evaluator};
use kurier_engine::position::any_game::AnyGame;
use kurier_engine::position::game::Game;
use kurier_engine::position::state::Position;
use kurier_engine::variant::definition::Variant;
use kurier_engine::with_game;
use rayon::prelude::*;

use crate::positions::dataset::Dataset;
use crate::positions::openings::read_openings;
use crate::records::game_record::MoveScore;
use crate::records::line_journal::{JournalEntry, LineJournal};
use crate::util::files::fingerprint;
use crate::util::work_progress::WorkProgress;
use crate::values::design::{DesignLimits, Until};
use crate::values::design_game::{complete_pairs, game_id, DesignGame};
use crate::values::experiment::{men_available, Bases, PlannedGame, Planner};
use crate::values::features::{colour_bound_types, FeatureSpace};
use crate::values::generate::{generate, play_tuner_game, tuner_player, GenerationPlan};
use crate::values::run::resume::{design_version, open_journal, read_base};
use crate::values::run::settings::dataset_path;
use crate::values::run::settings::journal_path;
use crate::values::run::settings::DesignOpenings;
use crate::values::run::settings::RunHeader;
use crate::values::run::settings::RunSettings;
use crate::values::run::settings::RunState;
use crate::values::run::settings::MAX_PAWNS_PER_SIDE;
use crate::values::run::settings::{setup, Setup};
use crate::values::verdict::{Family, Scale};
use crate::values::{engine_version, search_signature, values_of};

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
        design_values,
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
            design: design_version(&path, base)?,
            weights_fingerprint: Some(fingerprint(&params.to_toml())),
            engine_values: values_of(&params, &types),
            engine_values_estimated: estimated,
            suggested,
            design_values,
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

pub(super) struct Runner<'r, B: Bitboard> {
    game: &'r Arc<Game<B>>,
    header: &'r RunHeader,
    params: &'r EvalParams,
    folder: &'r Path,
    evaluator: Evaluator<B>,
    bases: Bases<B>,
    limits: DesignLimits,
}

impl<'r, B: Bitboard> Runner<'r, B> {
    pub(super) fn new(
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

    pub(super) fn planner(&self) -> Planner<'_, B> {
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
            design_values: self.header.design_values.as_deref(),
            evaluator: &self.evaluator,
            bases: &self.bases,
            limits: &self.limits,
            pairs: s.pairs_per_batch,
            seed: s.seed,
            until,
            version: header.design,
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
                let scores = record
                    .notes
                    .iter()
                    .map(|note| note.score.map(MoveScore::centipawns))
                    .collect();
                let move_ms = record.notes.iter().map(|note| note.ms).collect();
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
                    scores,
                    move_ms,
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
