//! The chess calibration of a report: the designed values against
//! Kaufman's (1999) and Tomasev et al.'s (2020), and the pawn's unit
//! that separates a bias of the pawn from a bias of the pieces.

use std::fmt::Write as _;

use super::report::with_interval;
use super::run::{BudgetResult, RunResults};

/// Kaufman's values (1999) for chess, the calibration reference.
pub const KAUFMAN_1999: [(char, f64); 4] = [('N', 3.25), ('B', 3.25), ('R', 5.0), ('Q', 9.75)];
/// Kaufman's bishop pair bonus, pawns.
pub const KAUFMAN_BISHOP_PAIR: f64 = 0.5;
/// Tomasev et al. (2020), AlphaZero self-play regression.
pub const TOMASEV_2020: [(char, f64); 4] = [('N', 3.05), ('B', 3.33), ('R', 5.63), ('Q', 9.5)];

/// How many reference pawns one measured pawn is worth against the
/// pieces: the geometric mean of `reference / measured` over the pieces
/// (`(measured, reference)`). Values measured in a pawn worth less than
/// the reference's come out uniformly larger; dividing them by the
/// geometric mean of `measured / reference` (the inverse of this) puts
/// them in the reference's pawn, where what is left is the pieces' own
/// disagreement. `None` without pieces or with a value that is not
/// positive.
pub fn pawn_unit(pieces: &[(f64, f64)]) -> Option<f64> {
    if pieces.is_empty()
        || pieces
            .iter()
            .any(|&(measured, reference)| measured <= 0.0 || reference <= 0.0)
    {
        return None;
    }
    let mean_log_ratio = pieces
        .iter()
        .map(|&(measured, reference)| (reference / measured).ln())
        .sum::<f64>()
        / pieces.len() as f64;
    Some(mean_log_ratio.exp())
}

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
        measured.push((types.names[t].clone(), value, *kaufman));
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
    let pairs: Vec<(f64, f64)> = measured.iter().map(|&(_, v, k)| (v, k)).collect();
    if let Some(unit) = pawn_unit(&pairs) {
        let rescaled: Vec<String> = measured
            .iter()
            .map(|(name, value, kaufman)| {
                let value = value * unit;
                format!("{name} {value:.2} ({:+.1}%)", percent_off(value, *kaufman))
            })
            .collect();
        let _ = writeln!(
            text,
            "\nThe pawn's unit: measured against these pieces (the geometric mean of their ratios to \
             Kaufman's), a pawn of this engine is worth {unit:.2} of Kaufman's pawn. In Kaufman's pawn \
             (every value times {unit:.2}): {}. What a uniform shift of every piece shows is the pawn's \
             worth, not the pieces' proportions; what is left here is the pieces' own disagreement with \
             Kaufman (the unit's own uncertainty not counted).",
            rescaled.join(", ")
        );
    }
    text
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_uniformly_inflated_set_has_the_pawn_as_its_whole_bias() {
        // Every piece 25% above Kaufman's: the pawn is worth 1 / 1.25 = 0.8 of his.
        let pieces: Vec<(f64, f64)> = KAUFMAN_1999.iter().map(|&(_, k)| (1.25 * k, k)).collect();
        let unit = pawn_unit(&pieces).unwrap();
        assert!((unit - 0.8).abs() < 1e-12, "{unit}");
    }

    #[test]
    fn the_unit_is_the_geometric_mean_of_the_ratios() {
        // Ratios reference / measured of 2 and 1/2 and 1: geometric mean 1.
        assert_eq!(pawn_unit(&[(1.0, 2.0), (4.0, 2.0), (3.0, 3.0)]), Some(1.0));
        // Ratios 4 and 1: geometric mean 2.
        let unit = pawn_unit(&[(1.0, 4.0), (5.0, 5.0)]).unwrap();
        assert!((unit - 2.0).abs() < 1e-12, "{unit}");
    }

    #[test]
    fn no_unit_without_positive_values() {
        assert_eq!(pawn_unit(&[]), None);
        assert_eq!(pawn_unit(&[(0.0, 3.25), (5.0, 5.0)]), None);
        assert_eq!(pawn_unit(&[(-1.0, 3.25)]), None);
    }
}
