//! A piece-value report for the page: the values table and the plots of
//! `kurier-tune report`, made from the run's results
//! (`reports/<variant>-values-results.json`, or the `-results.json` a
//! `report` command writes) by the tuner's own report code.

use kurier_tuner::values::report::{budgets_plot, values_plot, values_table, verdicts};
use kurier_tuner::values::run::RunResults;
use serde::Serialize;

/// A report as the page shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReportView {
    /// The variant.
    pub variant: String,
    /// The run in a line: engine, budgets, games.
    pub title: String,
    /// The values table's column heads (the largest budget's).
    pub header: Vec<String>,
    /// Its rows, one per piece type (and pair bonus), cells as the
    /// report writes them.
    pub rows: Vec<Vec<String>>,
    /// The lines below the table: the model's other quantities, and
    /// which suggested values the designed experiment confirms.
    pub notes: Vec<String>,
    /// The values plot of every budget, then (with several budgets) the
    /// values against the budget; SVG documents.
    pub plots: Vec<String>,
}

/// The report of the results text `text` (`source` names the file).
pub fn report_view(text: &str, source: &str) -> Result<ReportView, String> {
    let results = RunResults::parse(text, source)?;
    let last = results
        .budgets
        .last()
        .ok_or_else(|| format!("{source}: the run has no budget"))?;
    let table = values_table(&results, last);
    let mut rows = table
        .lines()
        .filter(|line| line.starts_with('|'))
        .map(cells);
    let header = rows.next().unwrap_or_default();
    // The second line is the table's `|---|---:|` rule.
    let rows = rows.skip(1).collect();
    let mut notes: Vec<String> = table
        .lines()
        .filter(|line| !line.is_empty() && !line.starts_with('|'))
        .map(str::to_string)
        .collect();
    if let Some((confirmed, refuted)) = verdicts(&results, last) {
        notes.push(format!(
            "At {} nodes the designed experiment confirms {} and refutes {}.",
            last.nodes,
            listed(&confirmed),
            listed(&refuted)
        ));
    }
    let mut plots = results
        .budgets
        .iter()
        .map(|budget| values_plot(&results, budget))
        .collect::<Result<Vec<_>, _>>()?;
    if results.budgets.len() > 1 {
        plots.push(budgets_plot(&results)?);
    }
    let s = &results.header.settings;
    let budgets: Vec<String> = results
        .budgets
        .iter()
        .map(|b| format!("{} games at {} nodes", b.design_games, b.nodes))
        .collect();
    Ok(ReportView {
        variant: s.variant.clone(),
        title: format!(
            "{}: engine {}, designed experiment of {}",
            s.variant,
            results.header.engine_version,
            budgets.join(", ")
        ),
        header,
        rows,
        notes,
        plots,
    })
}

/// `a, b and c`, or `none`.
fn listed(items: &[String]) -> String {
    match items {
        [] => "none".to_string(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// The cells of a Markdown table row `| a | b |`.
fn cells(line: &str) -> Vec<String> {
    let inner = line.trim().trim_start_matches('|').trim_end_matches('|');
    inner
        .split('|')
        .map(|cell| cell.trim().to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPIEL: &str = include_str!("../../reports/courier-spiel-values-results.json");
    /// The Markdown report `kurier-tune report` wrote from the same run.
    const SPIEL_MARKDOWN: &str = include_str!("../../reports/courier-spiel-values.md");

    /// The last budget's section of the Markdown report.
    fn last_budget_section() -> &'static str {
        let start = SPIEL_MARKDOWN.rfind("\n## Values at ").unwrap();
        let section = &SPIEL_MARKDOWN[start + 1..];
        &section[..section.find("\n## ").unwrap_or(section.len())]
    }

    #[test]
    fn the_courier_spiel_report_gives_its_table_notes_and_plot() {
        let report = report_view(SPIEL, "courier-spiel-values-results.json").unwrap();
        assert_eq!(report.variant, "courier-spiel");
        // The page shows the table of the committed Markdown report, head
        // and rows cell by cell.
        let section = last_budget_section();
        let mut markdown_rows = section
            .lines()
            .filter(|line| line.starts_with('|'))
            .take_while(|line| !line.starts_with("| games"))
            .map(cells);
        assert_eq!(Some(report.header.clone()), markdown_rows.next());
        let markdown_rows: Vec<Vec<String>> = markdown_rows.skip(1).collect();
        assert_eq!(report.rows, markdown_rows);
        // The pawn and the seven pieces but the king.
        assert_eq!(report.rows.len(), 8);
        assert_eq!(report.rows[0][0], "pawn (P)");
        assert_eq!(report.header[2], "designed experiment (95% CI)");
        // The verdict is the Markdown report's sentence of what it confirms
        // and refutes, each list written `a, b and c`.
        let verdict = report.notes.last().unwrap();
        let lists = section
            .split("(confirmed): ")
            .nth(1)
            .and_then(|rest| rest.lines().next())
            .unwrap();
        let (confirmed, refuted) = lists.split_once(". Outside (refuted): ").unwrap();
        let confirmed: Vec<String> = confirmed.split(", ").map(str::to_string).collect();
        // A refuted entry carries its interval, `Q 9.5 (more: 11.22 [9.82, 12.52])`.
        let refuted: Vec<String> = refuted
            .trim_end_matches('.')
            .split("), ")
            .map(|entry| format!("{})", entry.trim_end_matches(')')))
            .collect();
        let and_list = |items: &[String]| match items.split_last() {
            Some((last, [])) => last.clone(),
            Some((last, init)) => format!("{} and {last}", init.join(", ")),
            None => "none".to_string(),
        };
        assert_eq!(
            *verdict,
            format!(
                "At 500 nodes the designed experiment confirms {} and refutes {}.",
                and_list(&confirmed),
                and_list(&refuted)
            )
        );
        assert!(
            report.notes[0].starts_with("designed: scale"),
            "{:?}",
            report.notes
        );
        assert_eq!(report.plots.len(), 1);
        assert!(report.plots[0].contains("<svg"));
    }

    #[test]
    fn results_that_do_not_hold_together_are_named() {
        let error = report_view("{\"budgets\": []}", "x.json").unwrap_err();
        assert!(
            error.starts_with("x.json: not the results of a values run"),
            "{error}"
        );
        // Indexes that do not fit the types would index out of bounds.
        let broken = SPIEL.replacen("\"pawn\": 8", "\"pawn\": 99", 1);
        assert_ne!(broken, SPIEL);
        let error = report_view(&broken, "z.json").unwrap_err();
        assert!(error.contains("types.pawn 99"), "{error}");
        let error = report_view("not json", "y.json").unwrap_err();
        assert!(error.starts_with("y.json:"), "{error}");
    }
}
