//! Runs fitted as one, and designs compared at one set of parameters.
//!
//! One run's efficiency figure ([`crate::values::efficiency`]) is read
//! at that run's own fit, and the near-balanced trades of a design pin
//! the scale (logit per pawn) loosely: on 960 ExCoCo games it is known to
//! about a third, and the figure scales with its inverse square. Two
//! runs' figures then differ mostly by their fits. Here the games of
//! several runs of one variant and budget are fitted together (their
//! pairs stay separate clusters), and each run's trades are judged by
//! what they would tell at that pooled fit: the covariance that the
//! ordinal model's information predicts for those games
//! ([`Look::predicted`]), through the same estimator.

use std::path::Path;

use kurier_engine::position::any_game::AnyGame;
use kurier_engine::variant::definition::Variant;
use kurier_engine::with_game;

use crate::records::line_journal::read_lines;
use crate::values::design_game::{design_rows, DesignGame};
use crate::values::efficiency::Efficiency;
use crate::values::estimate::ratios;
use crate::values::look::Look;
use crate::values::ordinal::OrdinalRow;
use crate::values::run::settings::{RunHeader, VALUES_MARK};

/// The designed games of one run's journal as the fit's rows.
#[derive(Clone, Debug)]
pub struct RunRows {
    /// The journal's path, as given.
    pub path: String,
    /// Its header.
    pub header: RunHeader,
    /// Its complete pairs' rows, clusters numbered from 0.
    pub rows: Vec<OrdinalRow>,
    /// Plies per game, on average over its games.
    pub plies_per_game: f64,
    /// CPU seconds per game, on average.
    pub cpu_seconds_per_game: f64,
}

impl RunRows {
    /// Reads the games at `nodes` per move of the journal at `path` (a
    /// `values` run folder's `journal.jsonl`, merged or not) of a built-in
    /// variant; `None`: a run at one budget, all its games.
    pub fn read(path: &str, nodes: Option<u64>) -> Result<RunRows, String> {
        let contents = read_lines::<RunHeader, DesignGame>(Path::new(path), VALUES_MARK)?;
        let header = contents.settings;
        if header.settings.variant_file.is_some() {
            return Err(format!(
                "{path}: a run of a variant file of its own; pooling reads runs of built-in variants"
            ));
        }
        let budgets = &header.settings.budgets;
        let budget = match nodes {
            Some(nodes) => budgets.iter().position(|&b| b == nodes).ok_or_else(|| {
                format!(
                    "{path}: no games at {nodes} nodes per move (the run's budgets: {budgets:?})"
                )
            })?,
            None if budgets.len() == 1 => 0,
            None => {
                return Err(format!(
                    "{path}: a run at {} budgets ({budgets:?}): one budget's games are read at a \
                     time",
                    budgets.len()
                ))
            }
        } as u32;
        let variant = Variant::built_in(&header.settings.variant)
            .map_err(|e| format!("{path}: {}: {e}", header.settings.variant))?;
        let game = AnyGame::new(variant).map_err(|e| format!("{path}: {e}"))?;
        let games: Vec<&DesignGame> = contents
            .entries
            .iter()
            .filter(|g| g.budget == budget)
            .collect();
        let rows = with_game!(&game, g => design_rows(g, &header.space, &games))
            .map_err(|e| format!("{path}: {e}"))?;
        let count = games.len().max(1) as f64;
        let plies: usize = games.iter().map(|g| g.moves.len()).sum();
        let cpu_ms: u64 = games.iter().map(|g| g.cpu_ms).sum();
        Ok(RunRows {
            path: path.to_string(),
            header,
            rows,
            plies_per_game: plies as f64 / count,
            cpu_seconds_per_game: cpu_ms as f64 / 1000.0 / count,
        })
    }
}

/// The rows of `runs` as one experiment: each run's pairs keep their own
/// clusters. The runs must share the variant and the model's columns.
pub fn pooled_rows(runs: &[RunRows]) -> Result<Vec<OrdinalRow>, String> {
    let Some(first) = runs.first() else {
        return Err("no run to pool".to_string());
    };
    let mut rows: Vec<OrdinalRow> = Vec::new();
    for run in runs {
        if run.header.settings.variant != first.header.settings.variant
            || run.header.space != first.header.space
        {
            return Err(format!(
                "{} is a run of {} with other columns than {} ({}): only runs of one variant pool",
                run.path, run.header.settings.variant, first.path, first.header.settings.variant
            ));
        }
        let offset = rows.iter().map(|r| r.cluster + 1).max().unwrap_or(0);
        rows.extend(run.rows.iter().map(|r| OrdinalRow {
            cluster: r.cluster + offset,
            ..r.clone()
        }));
    }
    Ok(rows)
}

/// What `run`'s design would need to bring every value within its target
/// if the parameters were `theta` (a pooled fit): the report's estimator
/// on the covariance the model predicts for its games, at the plies and
/// CPU time its games took. `None` when that covariance does not exist
/// (a value its games never vary).
pub fn efficiency_at(theta: &[f64], run: &RunRows) -> Option<Efficiency> {
    efficiency_of_look(&Look::predicted(theta, &run.rows)?, run)
}

/// The report's estimator on `look` (the run's own fit, or a predicted
/// one) for the games of `run`.
pub fn efficiency_of_look(look: &Look, run: &RunRows) -> Option<Efficiency> {
    let header = &run.header;
    let (values, _) = ratios(&header.space, &look.theta, header.types.letters.len());
    Efficiency::of(
        &header.types,
        run.rows.len(),
        &look.half_widths(&header.space, &header.types),
        &values,
        run.plies_per_game,
        run.cpu_seconds_per_game,
    )
}
