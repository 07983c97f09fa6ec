//! The chess calibration of a report: the designed values against
//! Kaufman's (1999) and Tomasev et al.'s (2020), and the pawn's unit
//! that separates a bias of the pawn from a bias of the pieces.

use std::fmt::Write as _;

use crate::values::common_scale::scale_factor;
use crate::values::estimate::Estimate;
use crate::values::report_text::with_interval;
use crate::values::run::results::{BudgetResult, RunResults};

/// Kaufman's values (1999) for chess, the calibration reference.
pub const KAUFMAN_1999: [(char, f64); 4] = [('N', 3.25), ('B', 3.25), ('R', 5.0), ('Q', 9.75)];
/// Kaufman's bishop pair bonus, pawns.
pub const KAUFMAN_BISHOP_PAIR: f64 = 0.5;
/// Tomasev et al. (2020), AlphaZero self-play regression.
pub const TOMASEV_2020: [(char, f64); 4] = [('N', 3.05), ('B', 3.33), ('R', 5.63), ('Q', 9.5)];

/// The calibration section of one budget: each piece against Kaufman
/// and Tomasev et al., then the same values in Kaufman's pawn.
pub fn calibration_section(results: &RunResults, budget: &BudgetResult) -> String {
    let types = &results.header.types;
    let Some(design) = &budget.design else {
        return "No designed estimate to compare.\n".to_string();
    };
    let mut text = String::from(
        "| piece | designed (95% CI) | Kaufman 1999 | inside the CI | within 5% | Tomasev et al. 2020 |\n|---|---:|---:|---|---|---:|\n",
    );
    let mut measured = Vec::new();
    for ((letter, kaufman), (_, tomasev)) in KAUFMAN_1999.iter().zip(TOMASEV_2020) {
        let Some(t) = types.by_letter(*letter) else {
            continue;
        };
        let (value, interval) = design.value(t);
        measured.push((t, value, *kaufman));
        let _ = writeln!(
            text,
            "| {} | {} | {kaufman} | {} | {} ({:+.1}%) | {tomasev} |",
            types.names[t],
            with_interval(value, interval),
            yes_no(interval.is_some_and(|i| i.contains(*kaufman))),
            yes_no(within_five_percent(value, *kaufman)),
            percent_off(value, *kaufman)
        );
    }
    if let Some(&(_, value, interval)) = design.pairs.first() {
        let _ = writeln!(
            text,
            "| bishop pair | {} | {KAUFMAN_BISHOP_PAIR} | {} | - | - |",
            with_interval(value, interval),
            yes_no(interval.is_some_and(|i| i.contains(KAUFMAN_BISHOP_PAIR)))
        );
    }
    let _ = writeln!(
        text,
        "\n{}",
        pawn_unit_paragraph(results, design, &measured)
    );
    text
}

/// The pawn's unit: the factor that fits Kaufman's values to the
/// measured pieces best ([`crate::values::common_scale`]), and the values in
/// Kaufman's pawn, with the intervals of the common scale when the
/// suggested values are Kaufman's (chess's are).
fn pawn_unit_paragraph(
    results: &RunResults,
    design: &Estimate,
    measured: &[(usize, f64, f64)],
) -> String {
    let types = &results.header.types;
    let mut kaufman = vec![0.0; types.letters.len()];
    for &(t, _, reference) in measured {
        kaufman[t] = reference;
    }
    let pieces: Vec<usize> = measured.iter().map(|&(t, _, _)| t).collect();
    let Some(factor) = scale_factor(&design.values, &kaufman, &pieces) else {
        return "No pawn's unit: a measured value is not positive.".to_string();
    };
    let common = design.common.as_ref().filter(|_| {
        pieces
            .iter()
            .all(|&t| results.header.suggested[t] == kaufman[t])
    });
    let factor_text = with_interval(factor, common.and_then(|c| c.factor_interval));
    let rescaled: Vec<String> = measured
        .iter()
        .map(|&(t, value, reference)| {
            let value = value / factor;
            let interval = common.and_then(|c| c.intervals[t]);
            format!(
                "{} {} ({:+.1}%)",
                types.names[t],
                with_interval(value, interval),
                percent_off(value, reference)
            )
        })
        .collect();
    format!(
        "The pawn's unit: Kaufman's values times {factor_text} fit these pieces best (least squares of \
         logarithms), so a pawn of this engine is worth {:.2} of Kaufman's pawn against them. In \
         Kaufman's pawn (the common scale{}): {}. What a uniform shift of every piece shows is the \
         pawn's worth, not the pieces' proportions; what is left here is the pieces' own disagreement \
         with Kaufman{}.",
        1.0 / factor,
        if common.is_some() {
            ", the factor refitted in every resample, so that the intervals carry its uncertainty; \
             the verdict table gives its verdicts"
        } else {
            ""
        },
        rescaled.join(", "),
        if common.is_some() {
            ""
        } else {
            " (these results have no common scale: the unit's own uncertainty is not counted)"
        }
    )
}

fn yes_no(yes: bool) -> &'static str {
    if yes {
        "yes"
    } else {
        "no"
    }
}

fn within_five_percent(value: f64, reference: f64) -> bool {
    percent_off(value, reference).abs() <= 5.0
}

fn percent_off(value: f64, reference: f64) -> f64 {
    100.0 * (value - reference) / reference
}
