//! The report's tables of values: per budget, both estimators' values with
//! their intervals beside the suggested ones, and the values against the
//! search budget.

use std::fmt::Write as _;

use crate::values::estimate::Estimate;
use crate::values::report_text::reference;
use crate::values::report_text::with_interval;
use crate::values::run::results::{BudgetResult, RunResults};
use crate::values::PieceTypes;

/// The types in table order: pawn first, then the pieces by type index.
pub(super) fn table_types(types: &PieceTypes) -> Vec<usize> {
    std::iter::once(types.pawn).chain(types.pieces()).collect()
}

/// A table cell: the value of type `t` with its interval (`-` without a
/// fit; the pawn is the unit).
fn estimate_cell(estimate: Option<&Estimate>, t: usize, pawn: usize) -> String {
    match estimate {
        None => "-".to_string(),
        Some(_) if t == pawn => "1 (unit)".to_string(),
        Some(e) => with_interval(e.values[t], e.intervals[t]),
    }
}

/// The values tables of every budget, as the `values` command prints them.
pub fn values_tables(results: &RunResults) -> String {
    let mut text = estimated_values_line(results).map_or(String::new(), |line| line + "\n\n");
    for budget in &results.budgets {
        let _ = writeln!(text, "{}", budget_heading(results, budget));
        text.push_str(&values_table(results, budget));
        if let Some(efficiency) = &budget.efficiency {
            let _ = writeln!(
                text,
                "\nEfficiency: {}.",
                efficiency.sentence(&results.header.types)
            );
        }
        text.push('\n');
    }
    text
}

/// The heading of a budget's section: the variant, the nodes per move,
/// and each estimator's games and CPU time.
pub(super) fn budget_heading(results: &RunResults, budget: &BudgetResult) -> String {
    let s = &results.header.settings;
    format!(
        "{} at {} nodes per move: designed experiment {} games ({} CPU s){}",
        s.variant,
        budget.nodes,
        budget.design_games,
        budget.design_cpu_seconds.round(),
        if budget.observational_games > 0 {
            format!(
                ", observational {} games ({} CPU s)",
                budget.observational_games,
                budget.observational_cpu_seconds.round()
            )
        } else {
            String::new()
        }
    )
}

/// Whether the engine played with other piece values than the suggested
/// ones (a variant's fitted parameters, or `--engine-values`).
pub(super) fn engine_values_differ(results: &RunResults) -> bool {
    results.header.engine_values != results.header.suggested
}

/// The line that says that the engine's values are estimated from the
/// pieces' moves, with the values; none when they are not.
pub fn estimated_values_line(results: &RunResults) -> Option<String> {
    let header = &results.header;
    if !header.engine_values_estimated {
        return None;
    }
    let values: Vec<String> = table_types(&header.types)
        .into_iter()
        .map(|t| format!("{} {:.2}", header.types.letters[t], header.engine_values[t]))
        .collect();
    Some(format!(
        "Engine values: estimated from mobility (no values file): {}.",
        values.join(", ")
    ))
}

/// One budget's values table: piece | suggested | (engine, when its values
/// differ) | designed | (common scale, when the fit has it) |
/// observational.
pub fn values_table(results: &RunResults, budget: &BudgetResult) -> String {
    let types = &results.header.types;
    let engine_column = engine_values_differ(results);
    let common = budget.design.as_ref().and_then(|e| e.common.as_ref());
    let mut table = format!("\n| piece | {} |", reference(results));
    if engine_column {
        table.push_str(" engine plays |");
    }
    table.push_str(" designed experiment (95% CI) |");
    if common.is_some() {
        table.push_str(" common scale (95% CI) |");
    }
    table.push_str(" observational (95% CI) |\n|---|---:|");
    if engine_column {
        table.push_str("---:|");
    }
    if common.is_some() {
        table.push_str("---:|");
    }
    table.push_str("---:|---:|\n");
    let engine_pawn = results.header.engine_values[types.pawn];
    for t in table_types(types) {
        let engine = if engine_column {
            format!(" {:.2} |", results.header.engine_values[t] / engine_pawn)
        } else {
            String::new()
        };
        let common_cell = common.map_or(String::new(), |c| {
            format!(" {} |", with_interval(c.values[t], c.intervals[t]))
        });
        let _ = writeln!(
            table,
            "| {} ({}) | {:.2} |{engine} {} |{common_cell} {} |",
            types.names[t],
            types.letters[t],
            results.header.suggested[t],
            estimate_cell(budget.design.as_ref(), t, types.pawn),
            estimate_cell(budget.observational.as_ref(), t, types.pawn),
        );
    }
    for (index, &t) in results.header.space.pair_types.iter().enumerate() {
        let cell = |e: Option<&Estimate>| {
            e.and_then(|e| e.pairs.get(index))
                .map_or("-".to_string(), |&(_, v, i)| with_interval(v, i))
        };
        let _ = writeln!(
            table,
            "| {} pair (bonus) | - |{} {} |{} {} |",
            types.names[t],
            if engine_column { " - |" } else { "" },
            cell(budget.design.as_ref()),
            if common.is_some() { " - |" } else { "" },
            cell(budget.observational.as_ref())
        );
    }
    for (label, estimate, error) in [
        ("designed", budget.design.as_ref(), &budget.design_error),
        (
            "observational",
            budget.observational.as_ref(),
            &budget.observational_error,
        ),
    ] {
        match (estimate, error) {
            (Some(e), _) => {
                let mut extras: Vec<String> = e
                    .extra
                    .iter()
                    .map(|q| format!("{} {}", q.name, with_interval(q.value, q.interval)))
                    .collect();
                if let Some(common) = &e.common {
                    extras.push(format!(
                        "common scale: the suggested values times {} fit the measured pieces best \
                         (measured pawns per suggested pawn, least squares of logarithms)",
                        with_interval(common.factor, common.factor_interval)
                    ));
                }
                let _ = writeln!(table, "\n{label}: {}.", extras.join("; "));
            }
            (None, Some(error)) => {
                let _ = writeln!(table, "\n{label}: no estimate ({error}).");
            }
            (None, None) => {}
        }
    }
    table
}

/// The designed values of every budget side by side, beside the
/// reference.
pub(super) fn budgets_table(results: &RunResults) -> String {
    let types = &results.header.types;
    let mut table = format!("| piece | {} |", reference(results));
    for budget in &results.budgets {
        let _ = write!(table, " {} nodes |", budget.nodes);
    }
    table.push_str("\n|---|---:|");
    table.push_str(&"---:|".repeat(results.budgets.len()));
    table.push('\n');
    for t in types.pieces() {
        let _ = write!(
            table,
            "| {} ({}) | {:.2} |",
            types.names[t], types.letters[t], results.header.suggested[t]
        );
        for budget in &results.budgets {
            let _ = write!(
                table,
                " {} |",
                estimate_cell(budget.design.as_ref(), t, types.pawn)
            );
        }
        table.push('\n');
    }
    table
}

/// The precision against the games played: after each look, the widest
/// 95% half-width and the piece it belongs to.
pub(super) fn progression_section(results: &RunResults, budget: &BudgetResult) -> String {
    let types = &results.header.types;
    let mut text =
        String::from("| games | widest 95% half-width (curvature) | of |\n|---:|---:|---|\n");
    for (games, widths) in &budget.progression {
        let widest = types
            .pieces()
            .into_iter()
            .filter_map(|t| widths[t].map(|w| (t, w)))
            .max_by(|a, b| a.1.total_cmp(&b.1));
        match widest {
            Some((t, w)) => {
                let _ = writeln!(text, "| {games} | {w:.2} | {} |", types.names[t]);
            }
            None => {
                let _ = writeln!(text, "| {games} | - | - |");
            }
        }
    }
    if let Some(efficiency) = &budget.efficiency {
        let _ = writeln!(text, "\nEfficiency: {}.", efficiency.sentence(types));
    }
    text
}
