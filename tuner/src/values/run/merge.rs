//! The merge of shards: their journals joined into the journal (and the
//! datasets) of the run that one machine plays, checked batch by batch.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use kurier_engine::position::any_game::AnyGame;
use kurier_engine::with_game;

use crate::positions::dataset::{merge_datasets, Dataset};
use crate::records::line_journal::{read_lines, write_lines, JournalEntry};
use crate::records::variant_source::recorded_variant;
use crate::util::files::same_file;
use crate::util::shard::Shard;
use crate::values::design_game::DesignGame;
use crate::values::run::resume::check_same_run;
use crate::values::run::runner::Runner;
use crate::values::run::settings::dataset_path;
use crate::values::run::settings::engine_params;
use crate::values::run::settings::journal_path;
use crate::values::run::settings::RunHeader;
use crate::values::run::settings::RunState;
use crate::values::run::settings::VALUES_MARK;

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
    let params = engine_params(&variant, s)?;
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
                             (shards of different runs, a batch played before the earlier ones were merged, or \
                             a build whose design plans otherwise than the one that played it: design {} here)",
                            s.budgets[budget as usize], played.pair, header.design
                        ));
                    }
                }
            }
        }
        Ok::<(), String>(())
    })
}
