//! A piece-value report for the page: the values table and the two
//! plots of `kurier-tune report`, made from the run's journal
//! (`reports/<variant>-values-journal.json`, or a run folder's
//! `journal.json`) by the tuner's own report code.

use kurier_tuner::values::iterate::Journal;
use kurier_tuner::values::report::{convergence_plot, nearness, values_plot, values_table};
use serde::Serialize;

/// A report as the page shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReportView {
    /// The variant.
    pub variant: String,
    /// The run in a line: engine, games, nodes per move.
    pub title: String,
    /// The values table's column heads.
    pub header: Vec<String>,
    /// Its rows, one per piece type, cells as the report writes them.
    pub rows: Vec<Vec<String>>,
    /// How near the fit comes to the suggested values, once fitted.
    pub nearness: Option<String>,
    /// The values plot and the convergence plot, SVG documents.
    pub plots: Vec<String>,
}

/// The report of the journal text `text` (`source` names the file).
pub fn report_view(text: &str, source: &str) -> Result<ReportView, String> {
    let journal = Journal::parse(text, source)?;
    let table = values_table(&journal);
    let mut lines = table.lines().map(cells);
    let header = lines.next().unwrap_or_default();
    // The second line is the table's `|---|---:|` rule.
    let rows = lines.skip(1).collect();
    let s = &journal.settings;
    Ok(ReportView {
        variant: s.variant.clone(),
        title: format!(
            "{}: engine {}, {} round(s) of up to {} games at {} nodes per move, seed {}",
            s.variant,
            journal.engine_version,
            journal.rounds.len(),
            s.games,
            s.nodes,
            s.seed
        ),
        header,
        rows,
        nearness: nearness(&journal),
        plots: vec![values_plot(&journal), convergence_plot(&journal)],
    })
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

    #[test]
    fn the_excoco_report_gives_its_table_and_plots() {
        let text = include_str!("../../reports/excoco-values-journal.json");
        let report = report_view(text, "excoco-values-journal.json").unwrap();
        assert_eq!(report.variant, "excoco");
        assert_eq!(
            report.header,
            [
                "piece",
                "suggested",
                "fitted (95% CI)",
                "imbalance-measured (95% CI)"
            ]
        );
        // Pawn and the 13 pieces but the king, as reports/excoco-values.md.
        assert_eq!(report.rows.len(), 14);
        assert_eq!(report.rows[0][0], "pawn (P)");
        assert_eq!(
            report.rows[1],
            [
                "queen (Q)",
                "12.00",
                "17.32 [14.72, 20.42]",
                "14.61 [11.10, 38.42] vs 9 P"
            ]
        );
        assert_eq!(report.plots.len(), 2);
        assert!(report.plots.iter().all(|svg| svg.starts_with("<svg")));
    }

    #[test]
    fn a_file_that_is_no_journal_is_named() {
        let error = report_view("{\"rounds\": []}", "x.json").unwrap_err();
        assert!(error.starts_with("x.json: not a tuning journal"), "{error}");
        // Lists that do not fit the types would index out of bounds.
        let text = include_str!("../../reports/excoco-values-journal.json");
        let broken = text.replacen("\"pawn\": 14", "\"pawn\": 99", 1);
        assert_ne!(broken, text);
        let error = report_view(&broken, "z.json").unwrap_err();
        assert!(error.contains("types.pawn 99"), "{error}");
        let error = report_view("not json", "y.json").unwrap_err();
        assert!(error.starts_with("y.json:"), "{error}");
    }
}
