//! A run's results: per search budget, both estimators' values, the
//! looks, the verdicts and the experiment's efficiency.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use kurier_engine::board::bitboard::Bitboard;
use kurier_engine::eval::evaluate::EvalParams;
use kurier_engine::position::any_game::AnyGame;
use kurier_engine::position::game::Game;
use kurier_engine::with_game;
use serde::{Deserialize, Serialize};

use crate::positions::dataset::Dataset;
use crate::records::variant_source::recorded_variant;
use crate::texel::fit::{fit_texel, TexelOptions};
use crate::values::design_game::{design_rows, DesignGame};
use crate::values::efficiency::Efficiency;
use crate::values::estimate::Estimate;
use crate::values::experiment::design_estimate;
use crate::values::look::{batch_ends, looks, Look};
use crate::values::observational::observational_estimate;
use crate::values::ordinal::parameters;
use crate::values::run::settings::dataset_path;
use crate::values::run::settings::engine_params;
use crate::values::run::settings::RunHeader;
use crate::values::run::settings::RunState;

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

/// The results of the run in `state` (fits on every complete pair and on
/// the observational datasets in `folder`).
pub fn results(state: &RunState, folder: &Path) -> Result<RunResults, String> {
    let header = &state.header;
    let s = &header.settings;
    let variant = recorded_variant(&s.variant, s.variant_file.as_ref())?;
    let params = engine_params(&variant, s)?;
    let game = AnyGame::new(variant).map_err(|e| e.to_string())?;
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
