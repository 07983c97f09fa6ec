//! A piece-value report for the page: the verdict table, the values
//! table and the plots of `kurier-tune report`, made from the run's
//! results (`reports/<variant>-values-results.json`, or the
//! `-results.json` a `report` command writes) by the tuner's own report
//! code.

use kurier_tuner::values::figures::{budgets_plot, values_plot};
use kurier_tuner::values::run::results::RunResults;
use kurier_tuner::values::values_tables::values_table;
use kurier_tuner::values::verdict_table::{budget_verdicts, verdict_table};
use serde::Serialize;

/// A report as the page shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReportView {
    /// The variant.
    pub variant: String,
    /// The run in a line: engine, budgets, games.
    pub title: String,
    /// The verdict table's column heads (the largest budget's verdicts,
    /// by the run's rule or the defaults); empty for results without
    /// looks.
    pub verdict_header: Vec<String>,
    /// Its rows, one per piece type.
    pub verdict_rows: Vec<Vec<String>>,
    /// How the verdicts were reached, and the verdicts listed; or why
    /// there are none.
    pub verdict_notes: Vec<String>,
    /// The values table's column heads (the largest budget's).
    pub header: Vec<String>,
    /// Its rows, one per piece type (and pair bonus), cells as the
    /// report writes them.
    pub rows: Vec<Vec<String>>,
    /// The lines below the table: the model's other quantities.
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
    let rule = results.header.settings.until_verdicts.unwrap_or_default();
    let verdicts = match budget_verdicts(&results, last, &rule) {
        Some(verdicts) => table_of(&verdict_table(&results, &verdicts, &rule)),
        None => Table {
            header: Vec::new(),
            rows: Vec::new(),
            notes: vec![format!(
                "No verdicts: {source} holds no looks (it was written before verdicts were)."
            )],
        },
    };
    let values = table_of(&values_table(&results, last));
    let mut plots = results
        .budgets
        .iter()
        .map(|budget| values_plot(&results, budget, &rule))
        .collect::<Result<Vec<_>, _>>()?;
    if results.budgets.len() > 1 {
        plots.push(budgets_plot(&results, &rule)?);
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
        verdict_header: verdicts.header,
        verdict_rows: verdicts.rows,
        verdict_notes: verdicts.notes,
        header: values.header,
        rows: values.rows,
        notes: values.notes,
        plots,
    })
}

/// A Markdown table with the lines around it.
struct Table {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
    notes: Vec<String>,
}

/// The table of the Markdown `text` (its `|` lines) and its other lines.
fn table_of(text: &str) -> Table {
    let mut rows = text.lines().filter(|line| line.starts_with('|')).map(cells);
    let header = rows.next().unwrap_or_default();
    // The second line is the table's `|---|---:|` rule.
    let rows = rows.skip(1).collect();
    let notes = text
        .lines()
        .filter(|line| !line.is_empty() && !line.starts_with('|'))
        .map(str::to_string)
        .collect();
    Table {
        header,
        rows,
        notes,
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

    /// The section of the Markdown report that starts with `heading`
    /// (the last such).
    fn section(heading: &str) -> &'static str {
        let start = SPIEL_MARKDOWN.rfind(heading).unwrap();
        let section = &SPIEL_MARKDOWN[start + 1..];
        &section[..section.find("\n## ").unwrap_or(section.len())]
    }

    /// The head and rows of the first table in `text`.
    fn first_table(text: &str) -> (Vec<String>, Vec<Vec<String>>) {
        let mut rows = text
            .lines()
            .skip_while(|line| !line.starts_with('|'))
            .take_while(|line| line.starts_with('|'))
            .map(cells);
        let header = rows.next().unwrap();
        (header, rows.skip(1).collect())
    }

    /// The verdict of an interval cell `v [low, high]` against the band
    /// `suggested +/- tolerance`, by hand.
    fn verdict_of(cell: &str, suggested: f64, tolerance: f64) -> &'static str {
        let inside = cell.split_once('[').unwrap().1.trim_end_matches(']');
        let (low, high) = inside.split_once(", ").unwrap();
        let (low, high): (f64, f64) = (low.parse().unwrap(), high.parse().unwrap());
        if low > suggested + tolerance {
            "refuted: higher"
        } else if high < suggested - tolerance {
            "refuted: lower"
        } else if low >= suggested - tolerance && high <= suggested + tolerance {
            "confirmed"
        } else {
            "undecided"
        }
    }

    #[test]
    fn the_courier_spiel_report_leads_with_its_verdicts_then_its_values_and_plot() {
        let report = report_view(SPIEL, "courier-spiel-values-results.json").unwrap();
        assert_eq!(report.variant, "courier-spiel");
        // The page shows the tables of the committed Markdown report, head
        // and rows cell by cell: first the verdicts, then the values.
        let (header, rows) = first_table(section("\n## Verdicts"));
        assert_eq!(report.verdict_header, header);
        assert_eq!(report.verdict_rows, rows);
        let (header, rows) = first_table(section("\n## Values at "));
        assert_eq!(report.header, header);
        assert_eq!(report.rows, rows);
        // The pawn and the seven pieces but the king, in both.
        assert_eq!((report.rows.len(), report.verdict_rows.len()), (8, 8));
        assert_eq!(report.rows[0][0], "pawn (P)");
        assert_eq!(report.header[2], "designed experiment (95% CI)");
        assert_eq!(report.header[3], "common scale (95% CI)");
        // Every verdict is where its interval lies against the suggested
        // value +/- 0.25 pawn (half the half-pawn grid of 9.5, 6.5, 3.5
        // and 1.5), in pawns and on the common scale.
        for row in &report.verdict_rows {
            let suggested: f64 = row[1].parse().unwrap();
            if row[2] != "1 (unit)" {
                assert_eq!(row[3], verdict_of(&row[2], suggested, 0.25), "{row:?}");
            }
            assert_eq!(row[5], verdict_of(&row[4], suggested, 0.25), "{row:?}");
        }
        // The bishop, suggested 1.5, measured 2.6: refuted.
        let bishop = report
            .verdict_rows
            .iter()
            .find(|r| r[0] == "bishop (B)")
            .unwrap();
        assert_eq!(bishop[3], "refuted: higher");
        assert!(
            report.verdict_notes[0].starts_with(
                "Verdicts at 500 nodes per move (600 games): familywise error 5% over the 7 pieces"
            ),
            "{:?}",
            report.verdict_notes
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
