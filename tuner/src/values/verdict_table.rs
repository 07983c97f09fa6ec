//! The verdict tables that lead every report and the `values` command's
//! output: per budget, each suggested value confirmed, refuted or
//! undecided, in pawns and on the common scale ([`crate::values::verdict`]).

use std::fmt::Write as _;

use crate::values::budget_change::budget_change_tables;
use crate::values::report_text::{reference, with_interval};
use crate::values::run::results::{BudgetResult, RunResults};
use crate::values::verdict::{Family, PieceVerdict, Scale, Schedule, Verdict, VerdictRule};

/// One budget's verdicts in both families.
#[derive(Clone, Debug, PartialEq)]
pub struct BudgetVerdicts {
    /// Nodes per move.
    pub nodes: u64,
    /// The tolerance, pawns.
    pub tolerance: f64,
    /// How the looks spent the error.
    pub schedule: Schedule,
    /// The pieces' verdicts in pawns, in type order.
    pub pawns: Vec<PieceVerdict>,
    /// The pawn's and the pieces' verdicts on the common scale.
    pub common: Vec<PieceVerdict>,
}

/// The verdicts of `budget` by `rule`; `None` for results without looks
/// (written before the verdicts were).
pub fn budget_verdicts(
    results: &RunResults,
    budget: &BudgetResult,
    rule: &VerdictRule,
) -> Option<BudgetVerdicts> {
    if budget.looks.is_empty() {
        return None;
    }
    let header = &results.header;
    let tolerance = rule.tolerance_for(&header.suggested, &header.types);
    let schedule = match header.settings.until_verdicts {
        Some(_) => Schedule::EveryBatch {
            batches: header.settings.batches,
        },
        None => Schedule::Final,
    };
    let family = |scale| Family {
        space: &header.space,
        types: &header.types,
        suggested: &header.suggested,
        tolerance,
        scale,
    };
    Some(BudgetVerdicts {
        nodes: budget.nodes,
        tolerance,
        schedule,
        pawns: family(Scale::Pawns).verdicts(&budget.looks, schedule, rule.alpha),
        common: family(Scale::Common).verdicts(&budget.looks, schedule, rule.alpha),
    })
}

/// `12` or `3.25`: a suggested value as its file writes it.
fn suggested_text(value: f64) -> String {
    let text = format!("{value:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

fn cell(verdict: &PieceVerdict, sequential: bool) -> (String, String) {
    let interval = match verdict.interval {
        Some(_) => with_interval(verdict.value, verdict.interval),
        None if verdict.value.is_finite() => format!("{:.2} (unbounded)", verdict.value),
        None => "-".to_string(),
    };
    let when = if sequential && verdict.verdict.decided() {
        format!(" (after {} games)", verdict.games)
    } else {
        String::new()
    };
    (interval, format!("{}{when}", verdict.verdict.text()))
}

/// The sentence that says how the verdicts were reached.
fn rule_sentence(results: &RunResults, verdicts: &BudgetVerdicts, rule: &VerdictRule) -> String {
    let m = verdicts.pawns.len();
    let looks = match verdicts.schedule {
        Schedule::Final => "one look, at the end of the run".to_string(),
        Schedule::EveryBatch { batches } => format!(
            "a look after each of at most {batches} batches, look k spending {}% x (k^2 - (k-1)^2) / {}; \
             a verdict, once in, stands",
            100.0 * rule.alpha,
            batches * batches
        ),
    };
    let tolerance = match rule.tolerance {
        Some(_) => "given".to_string(),
        None => "half the grid the suggested values are written on".to_string(),
    };
    let budget = results
        .budgets
        .iter()
        .find(|b| b.nodes == verdicts.nodes)
        .map_or(0, |b| b.design_games);
    format!(
        "Verdicts at {} nodes per move ({budget} games): familywise error {}% over the {m} pieces \
         ({looks}); tolerance +/-{} pawn ({tolerance}). Each interval is simultaneous: **confirmed** \
         where it lies within the suggested value +/- the tolerance, **refuted** where it lies wholly \
         above or below, undecided where it crosses an end. On the common scale every value is divided \
         by the one factor that fits the measured pieces best to the suggested ones (the pawn included \
         in the verdicts, a family of its own): whether the pieces' ratios are right, whatever the pawn.",
        verdicts.nodes,
        100.0 * rule.alpha,
        verdicts.tolerance,
    )
}

/// The Markdown table of one budget's verdicts.
pub fn verdict_table(
    results: &RunResults,
    verdicts: &BudgetVerdicts,
    rule: &VerdictRule,
) -> String {
    let types = &results.header.types;
    let sequential = verdicts.schedule != Schedule::Final;
    let mut text = rule_sentence(results, verdicts, rule);
    let _ = write!(
        text,
        "\n\n| piece | {} | in pawns (simultaneous interval) | verdict | common scale (simultaneous interval) | verdict |\n\
         |---|---:|---:|---|---:|---|\n",
        reference(results)
    );
    let common_of = |t: usize| verdicts.common.iter().find(|v| v.t == t);
    let pawn = types.pawn;
    let (pawn_interval, pawn_verdict) =
        common_of(pawn).map_or(("-".to_string(), "-".to_string()), |v| cell(v, sequential));
    let _ = writeln!(
        text,
        "| {} ({}) | 1 | 1 (unit) | - | {pawn_interval} | {pawn_verdict} |",
        types.names[pawn], types.letters[pawn]
    );
    for verdict in &verdicts.pawns {
        let t = verdict.t;
        let (interval, said) = cell(verdict, sequential);
        let (common_interval, common_said) =
            common_of(t).map_or(("-".to_string(), "-".to_string()), |v| cell(v, sequential));
        let _ = writeln!(
            text,
            "| {} ({}) | {} | {interval} | {said} | {common_interval} | {common_said} |",
            types.names[t],
            types.letters[t],
            suggested_text(results.header.suggested[t]),
        );
    }
    for (scale, list) in [
        ("In pawns", &verdicts.pawns),
        ("On the common scale", &verdicts.common),
    ] {
        let _ = writeln!(text, "\n{scale}: {}.", summary(results, list));
    }
    text
}

/// `confirmed R 7, B 5; refuted higher Q 12; ...; undecided N 3`.
fn summary(results: &RunResults, verdicts: &[PieceVerdict]) -> String {
    let types = &results.header.types;
    let mut parts = Vec::new();
    for (verdict, name) in [
        (Verdict::Confirmed, "confirmed"),
        (Verdict::Higher, "refuted higher"),
        (Verdict::Lower, "refuted lower"),
        (Verdict::Undecided, "undecided"),
    ] {
        let listed: Vec<String> = verdicts
            .iter()
            .filter(|v| v.verdict == verdict)
            .map(|v| {
                format!(
                    "{} {}",
                    types.letters[v.t],
                    suggested_text(results.header.suggested[v.t])
                )
            })
            .collect();
        if !listed.is_empty() {
            parts.push(format!("{name} {}", listed.join(", ")));
        }
    }
    parts.join("; ")
}

/// The verdicts against the budget: per piece, its verdict in pawns and
/// on the common scale at every budget.
fn budgets_verdict_table(results: &RunResults, all: &[BudgetVerdicts]) -> String {
    let types = &results.header.types;
    let mut text = format!(
        "Verdicts against the search budget (in pawns; on the common scale):\n\n| piece | {} |",
        reference(results)
    );
    for verdicts in all {
        let _ = write!(text, " {} nodes |", verdicts.nodes);
    }
    text.push_str("\n|---|---:|");
    text.push_str(&"---|".repeat(all.len()));
    text.push('\n');
    let short = |v: Option<&PieceVerdict>| match v.map(|v| v.verdict) {
        Some(Verdict::Confirmed) => "confirmed",
        Some(Verdict::Higher) => "higher",
        Some(Verdict::Lower) => "lower",
        Some(Verdict::Undecided) => "undecided",
        None => "-",
    };
    for t in std::iter::once(types.pawn).chain(types.pieces()) {
        let _ = write!(
            text,
            "| {} ({}) | {} |",
            types.names[t],
            types.letters[t],
            suggested_text(results.header.suggested[t])
        );
        for verdicts in all {
            let find = |list: &[PieceVerdict]| list.iter().find(|v| v.t == t).cloned();
            let pawns = if t == types.pawn {
                "unit"
            } else {
                short(find(&verdicts.pawns).as_ref())
            };
            let _ = write!(
                text,
                " {pawns}; {} |",
                short(find(&verdicts.common).as_ref())
            );
        }
        text.push('\n');
    }
    text
}

/// The last lines of the `values` command: the largest budget's
/// verdicts in two sentences, so that a run's output ends with its
/// answer (or says that it has none).
pub fn verdict_summary(results: &RunResults, rule: &VerdictRule) -> String {
    let Some(budget) = results.budgets.last() else {
        return "No verdicts: the run has no budget.\n".to_string();
    };
    match budget_verdicts(results, budget, rule) {
        Some(verdicts) => format!(
            "Verdicts at {} nodes per move, in pawns: {}.\nOn the common scale: {}.\n",
            verdicts.nodes,
            summary(results, &verdicts.pawns),
            summary(results, &verdicts.common)
        ),
        None => format!(
            "No verdicts at {} nodes per move: no fit of its games succeeded (too few games?).\n",
            budget.nodes
        ),
    }
}

/// Every verdict table of a run: each budget's in full, the largest
/// first, then (with several budgets) the verdicts against the budget.
/// Results without looks say so.
pub fn verdict_tables(results: &RunResults, rule: &VerdictRule) -> String {
    let all: Vec<BudgetVerdicts> = results
        .budgets
        .iter()
        .filter_map(|budget| budget_verdicts(results, budget, rule))
        .collect();
    let mut text = String::from("## Verdicts\n\n");
    if all.is_empty() {
        text.push_str(
            "No verdicts: these results hold no looks (fits after each batch with their covariance); \
             they were written before verdicts were, or no fit succeeded. Run the report again from \
             the run's journal.\n",
        );
    }
    for (index, verdicts) in all.iter().rev().enumerate() {
        if index > 0 {
            text.push('\n');
        }
        text.push_str(&verdict_table(results, verdicts, rule));
    }
    if all.len() > 1 {
        text.push('\n');
        text.push_str(&budgets_verdict_table(results, &all));
        text.push('\n');
        text.push_str(&budget_change_tables(results, rule.alpha));
    }
    text.push('\n');
    text
}
