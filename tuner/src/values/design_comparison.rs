//! Other runs' designs judged at a report's fit (`kurier-tune report
//! --compare NAME=JOURNAL`): what each design would need to bring every
//! value within its target if the parameters were the ones this run
//! fitted. A run's own efficiency figure is read at its own fit, whose
//! scale a few hundred pairs know loosely, and the figure goes with the
//! inverse square of that scale; read at one fit, the figures of two runs
//! compare their designs alone ([`crate::values::pooled`]).

use std::fmt::Write;

use crate::values::efficiency::Efficiency;
use crate::values::look::Look;
use crate::values::pooled::{efficiency_at, RunRows};
use crate::values::run::results::RunResults;

/// Another run's design, judged at a report's fit.
#[derive(Clone, Debug)]
pub struct DesignComparison {
    /// Its name in the report.
    pub name: String,
    /// Its journal, as given.
    pub path: String,
    /// Nodes per move of its games.
    pub nodes: u64,
    /// Its games (of complete pairs).
    pub games: usize,
    /// The scale (logit per pawn) of its own fit, when it has one.
    pub own_scale: Option<f64>,
    /// What its design needs at the report's fit (`None`: a value its
    /// games never vary).
    pub at_fit: Option<Efficiency>,
}

impl DesignComparison {
    /// Reads `NAME=PATH`, the journal of a `values` run at one budget of
    /// the report's variant, and judges its design at the fit of the
    /// report's budget with the same nodes per move.
    pub fn read(text: &str, results: &RunResults) -> Result<DesignComparison, String> {
        let (name, path) = text
            .split_once('=')
            .ok_or_else(|| format!("--compare '{text}': use NAME=PATH/journal.jsonl"))?;
        let run = RunRows::read(path, None).map_err(|e| format!("--compare {e}"))?;
        let header = &results.header;
        if run.header.settings.variant != header.settings.variant
            || run.header.space != header.space
        {
            return Err(format!(
                "--compare {path}: a run of {} with other columns than this run of {}: only runs of \
                 one variant compare",
                run.header.settings.variant, header.settings.variant
            ));
        }
        // `RunRows::read` without nodes took a run of one budget.
        let nodes = run.header.settings.budgets[0];
        let budget = results
            .budgets
            .iter()
            .find(|b| b.nodes == nodes)
            .ok_or_else(|| {
                format!("--compare {path}: played at {nodes} nodes per move, a budget this run does not have")
            })?;
        let look = budget.looks.last().ok_or_else(|| {
            format!(
                "--compare {path}: this run has no fit at {nodes} nodes per move to judge it at"
            )
        })?;
        let pawn = header.space.pawn_column;
        Ok(DesignComparison {
            name: name.to_string(),
            path: path.to_string(),
            nodes,
            games: run.rows.len(),
            own_scale: Look::of(&run.rows, header.space.columns(), 1).map(|own| own.theta[pawn]),
            at_fit: efficiency_at(&look.theta, &run),
        })
    }
}

/// The report's table of the designs compared at the fit of `nodes`
/// nodes per move, in the order given (this run's own figure is its
/// efficiency line); empty when none was given for that budget.
pub fn comparison_section(
    results: &RunResults,
    nodes: u64,
    comparisons: &[DesignComparison],
) -> String {
    let compared: Vec<&DesignComparison> =
        comparisons.iter().filter(|c| c.nodes == nodes).collect();
    if compared.is_empty() {
        return String::new();
    }
    let letters = &results.header.types.letters;
    let mut text = String::from(
        "### Designs compared at this fit\n\n\
         Each design's games judged at this run's fit: the covariance the model predicts for them \
         there, through the efficiency estimator (every value within its target). The moves do not \
         depend on the machine; the CPU hours are at each run's own CPU seconds a game, which \
         depend on what else the machine ran. This run's own figure is the efficiency line above, \
         at its own covariance.\n\n\
         | design | games | its own fit: logit per pawn | games to target (limiting) | moves to target | \
         fewer moves than the first row | CPU hours |\n|---|---:|---:|---:|---:|---:|---:|\n",
    );
    let mut first_moves: Option<f64> = None;
    for c in compared {
        let name = format!("{} (`{}`)", c.name, c.path);
        let scale = c.own_scale.map_or("-".to_string(), |s| format!("{s:.3}"));
        let Some(e) = &c.at_fit else {
            let _ = writeln!(text, "| {name} | {} | {scale} | no figure | | | |", c.games);
            continue;
        };
        let moves = e.plies_to_target();
        let ratio = match first_moves {
            Some(first) => format!("{:.2}x", first / moves),
            None => {
                first_moves = Some(moves);
                "1x".to_string()
            }
        };
        let _ = writeln!(
            text,
            "| {name} | {} | {scale} | {:.0} ({}) | {:.2} M | {ratio} | {:.1} |",
            c.games,
            e.games_to_target,
            letters[e.limiting],
            moves / 1e6,
            e.cpu_hours()
        );
    }
    text.push('\n');
    text
}
