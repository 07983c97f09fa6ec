//! The report's figures ([`crate::values::plot`]): per budget, the values of
//! both estimators beside the suggested ones, each estimator on a panel
//! of its own scale (the observational fit's intervals, up to a hundred
//! pawns wide at a few hundred games, clipped), and the values against
//! the search budget, one small panel per piece.

use crate::values::plot::{figure, Bands, Panel, Point, Series};
use crate::values::run::results::{BudgetResult, RunResults};
use crate::values::verdict::VerdictRule;

/// `suggested +/- tolerance`, per type in `order`.
fn bands(results: &RunResults, rule: &VerdictRule, order: &[usize]) -> Bands {
    let header = &results.header;
    let tolerance = rule.tolerance_for(&header.suggested, &header.types);
    Bands {
        name: format!("suggested +/- {tolerance}"),
        bands: order
            .iter()
            .map(|&t| Some((header.suggested[t], tolerance)))
            .collect(),
    }
}

/// The values plot of one budget (SVG): the designed experiment in pawns
/// and on the common scale, each value with its 95% interval over the
/// band of its suggested value; below, on its own scale, the
/// observational fit.
pub fn values_plot(
    results: &RunResults,
    budget: &BudgetResult,
    rule: &VerdictRule,
) -> Result<String, String> {
    let types = &results.header.types;
    // The most valuable first: the legend, upper right, covers the least.
    let mut order = types.pieces();
    order.sort_by(|&a, &b| results.header.suggested[b].total_cmp(&results.header.suggested[a]));
    let labels: Vec<String> = order
        .iter()
        .map(|&t| types.letters[t].to_string())
        .collect();
    let panel = |title: String, series: Vec<Series>, clip: bool| Panel {
        title,
        labels: labels.clone(),
        x_title: "piece".to_string(),
        y_title: "pawns".to_string(),
        series,
        bands: Some(bands(results, rule, &order)),
        joined: false,
        clip,
        legend: true,
    };
    let mut panels = Vec::new();
    if let Some(design) = &budget.design {
        let mut series = vec![Series {
            name: "designed experiment (95% CI)".to_string(),
            points: order.iter().map(|&t| Some(design.value(t))).collect(),
        }];
        if let Some(common) = &design.common {
            series.push(Series {
                name: format!("common scale, pawns / {:.2} (95% CI)", common.factor),
                points: order
                    .iter()
                    .map(|&t| Some((common.values[t], common.intervals[t])))
                    .collect(),
            });
        }
        panels.push(panel(
            format!("designed experiment, {} games", budget.design_games),
            series,
            false,
        ));
    }
    if let Some(observational) = &budget.observational {
        panels.push(panel(
            format!(
                "observational fit, {} games (intervals clipped)",
                budget.observational_games
            ),
            vec![Series {
                name: "observational (95% CI)".to_string(),
                points: order
                    .iter()
                    .map(|&t| Some(observational.value(t)))
                    .collect(),
            }],
            true,
        ));
    }
    if panels.is_empty() {
        panels.push(panel("no fit".to_string(), Vec::new(), false));
    }
    figure(
        &format!(
            "{}: piece values at {} nodes per move",
            results.header.settings.variant, budget.nodes
        ),
        &panels,
        1,
        (860, 360),
    )
}

/// The values against the search budget (SVG): one small panel per
/// piece, its designed values in pawns and on the common scale at every
/// budget over the band of its suggested value.
pub fn budgets_plot(results: &RunResults, rule: &VerdictRule) -> Result<String, String> {
    let types = &results.header.types;
    let labels: Vec<String> = results
        .budgets
        .iter()
        .map(|b| b.nodes.to_string())
        .collect();
    let pieces = types.pieces();
    // The legend gets a cell of its own when the grid has one to spare.
    let columns = 5.min(pieces.len() + 1);
    let spare = pieces.len() % columns != 0;
    let panels: Vec<Panel> = pieces
        .into_iter()
        .enumerate()
        .map(|(index, t)| {
            let per_budget = |value: &dyn Fn(&BudgetResult) -> Option<Point>| {
                results.budgets.iter().map(value).collect::<Vec<_>>()
            };
            let band = bands(results, rule, &vec![t; labels.len()]);
            Panel {
                title: format!("{} ({})", types.names[t], types.letters[t]),
                labels: labels.clone(),
                x_title: "nodes per move".to_string(),
                y_title: "pawns".to_string(),
                series: vec![
                    Series {
                        name: "designed (95% CI)".to_string(),
                        points: per_budget(&|b| b.design.as_ref().map(|e| e.value(t))),
                    },
                    Series {
                        name: "common scale".to_string(),
                        points: per_budget(&|b| {
                            let common = b.design.as_ref()?.common.as_ref()?;
                            Some((common.values[t], common.intervals[t]))
                        }),
                    },
                ],
                bands: Some(band),
                joined: true,
                clip: false,
                legend: index == 0 && !spare,
            }
        })
        .collect();
    figure(
        &format!(
            "{}: values against the search budget (designed experiment)",
            results.header.settings.variant
        ),
        &panels,
        columns,
        (250, 210),
    )
}
