//! Whether the values move with the search budget: per piece, the change
//! of its value in pawns from one budget to the next larger one, at each
//! budget's last look, with an interval simultaneous over the pieces
//! (Bonferroni). The budgets play different games, so the variances of
//! the two values (by the delta method) add.

use std::fmt::Write as _;

use statrs::distribution::{ContinuousCDF, Normal};

use crate::stats::bootstrap::Interval;
use crate::values::features::FeatureSpace;
use crate::values::look::Look;
use crate::values::report_text::with_interval;
use crate::values::run::results::RunResults;
use crate::values::PieceTypes;

/// A value in pawns and its standard error.
type ValueAndError = (f64, f64);

/// One piece's change of value from a smaller budget to a larger one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BudgetChange {
    /// The type.
    pub t: usize,
    /// Its value at the smaller budget, pawns.
    pub before: f64,
    /// Its value at the larger budget, pawns.
    pub after: f64,
    /// The simultaneous interval of `after - before`.
    pub interval: Interval,
}

/// What a change's interval says about the value at the larger budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// The whole interval is above zero.
    Higher,
    /// The whole interval is below zero.
    Lower,
    /// The interval holds zero: no change shown.
    NotShown,
}

impl Direction {
    /// Every direction, in the order the report lists them.
    const ALL: [Direction; 3] = [Direction::Higher, Direction::Lower, Direction::NotShown];
}

impl std::fmt::Display for Direction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Direction::Higher => "higher",
            Direction::Lower => "lower",
            Direction::NotShown => "not shown",
        })
    }
}

impl BudgetChange {
    /// Higher or lower where the interval excludes no change, else not
    /// shown.
    pub fn direction(&self) -> Direction {
        if self.interval.low > 0.0 {
            Direction::Higher
        } else if self.interval.high < 0.0 {
            Direction::Lower
        } else {
            Direction::NotShown
        }
    }
}

/// The change of every piece's value from the look `smaller` to the look
/// `larger`, each interval at familywise error `alpha` over the pieces
/// valued at both (`z(1 - alpha / 2m)` standard errors either side). A
/// piece is left out where a look's pawn is not above zero (no value).
pub fn budget_changes(
    space: &FeatureSpace,
    types: &PieceTypes,
    smaller: &Look,
    larger: &Look,
    alpha: f64,
) -> Vec<BudgetChange> {
    let pawn = space.pawn_column;
    let value = |look: &Look, column: usize| {
        (look.theta[pawn] > 0.0).then(|| {
            (
                look.theta[column] / look.theta[pawn],
                look.value_error(column, pawn),
            )
        })
    };
    let measured: Vec<(usize, ValueAndError, ValueAndError)> = types
        .pieces()
        .into_iter()
        .filter_map(|t| {
            let column = space.value_column(t)?;
            Some((t, value(smaller, column)?, value(larger, column)?))
        })
        .collect();
    let pieces = measured.len().max(1) as f64;
    let z = Normal::standard().inverse_cdf(1.0 - alpha / (2.0 * pieces));
    measured
        .into_iter()
        .map(|(t, (before, before_error), (after, after_error))| {
            let change = after - before;
            let half = z * before_error.hypot(after_error);
            BudgetChange {
                t,
                before,
                after,
                interval: Interval {
                    low: change - half,
                    high: change + half,
                },
            }
        })
        .collect()
}

/// The report's tables of the values' changes between consecutive
/// budgets (empty with fewer than two budgets with looks; a pair of
/// budgets with no piece valued at both gets one line saying so).
pub fn budget_change_tables(results: &RunResults, alpha: f64) -> String {
    let header = &results.header;
    let types = &header.types;
    let with_looks: Vec<_> = results
        .budgets
        .iter()
        .filter_map(|budget| Some((budget.nodes, budget.looks.last()?)))
        .collect();
    let mut text = String::new();
    for pair in with_looks.windows(2) {
        let ((small_nodes, smaller), (large_nodes, larger)) = (pair[0], pair[1]);
        let changes = budget_changes(&header.space, types, smaller, larger, alpha);
        if changes.is_empty() {
            let _ = writeln!(
                text,
                "No change of the values from {small_nodes} to {large_nodes} nodes per move: \
                 the pawn's coefficient is not above zero at one of them, so neither has \
                 values in pawns."
            );
            continue;
        }
        let _ = writeln!(
            text,
            "Change of the values in pawns from {small_nodes} to {large_nodes} nodes per move \
             ({} and {} games): each interval simultaneous at {:.0}% over the {} pieces \
             (Bonferroni), the standard errors of the two budgets' values (delta method, \
             different games) added.\n\n\
             | piece | {small_nodes} nodes | {large_nodes} nodes | change (simultaneous interval) | |\n\
             |---|---:|---:|---:|---|",
            smaller.games,
            larger.games,
            100.0 * (1.0 - alpha),
            changes.len()
        );
        for change in &changes {
            let _ = writeln!(
                text,
                "| {} ({}) | {:.2} | {:.2} | {} | {} |",
                types.names[change.t],
                types.letters[change.t],
                change.before,
                change.after,
                with_interval(change.after - change.before, Some(change.interval)),
                change.direction()
            );
        }
        let listed = |direction: Direction| {
            let letters: Vec<String> = changes
                .iter()
                .filter(|c| c.direction() == direction)
                .map(|c| types.letters[c.t].to_string())
                .collect();
            if letters.is_empty() {
                "none".to_string()
            } else {
                letters.join(", ")
            }
        };
        let [higher, lower, not_shown] = Direction::ALL.map(listed);
        let _ = writeln!(
            text,
            "\nHigher at {large_nodes} nodes: {higher}; lower: {lower}; not shown: {not_shown}."
        );
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use kurier_engine::variant::definition::Variant;

    #[test]
    fn changes_are_judged_by_hand_derived_bonferroni_intervals() {
        let types = PieceTypes::of(&Variant::built_in("chess").unwrap()).unwrap();
        let space = FeatureSpace::new(&types, Vec::new());
        let letter = |l| types.by_letter(l).unwrap();
        // Pawn 1, so a value's variance is sigma (1 + value^2).
        let sigma = 1e-4;
        let smaller = Look::with_diagonal(&[9.0, 5.0, 3.0, 3.0, 1.0, 0.0, 1.0], sigma);
        let larger = Look::with_diagonal(&[8.9, 6.0, 3.0, 2.5, 1.0, 0.0, 1.0], sigma);
        let changes = budget_changes(&space, &types, &smaller, &larger, 0.05);
        assert_eq!(changes.len(), 4);
        // Four pieces: z(1 - 0.05 / 8) = 2.4977 (normal tables).
        let z = 2.4977;
        let expect = |t: usize, change: f64, variance: f64, direction: Direction| {
            let found = changes.iter().find(|c| c.t == t).unwrap();
            let half = z * variance.sqrt();
            assert!(
                (found.interval.low - (change - half)).abs() < 1e-4,
                "{found:?}"
            );
            assert!(
                (found.interval.high - (change + half)).abs() < 1e-4,
                "{found:?}"
            );
            assert_eq!(found.direction(), direction, "{found:?}");
        };
        // Rook 5 -> 6: variance 1e-4 (26 + 37), half-width 0.198.
        expect(letter('R'), 1.0, sigma * 63.0, Direction::Higher);
        // Knight 3 -> 2.5: 1e-4 (10 + 7.25), half-width 0.104.
        expect(letter('N'), -0.5, sigma * 17.25, Direction::Lower);
        // Queen 9 -> 8.9: 1e-4 (82 + 80.21), half-width 0.318.
        expect(letter('Q'), -0.1, sigma * 162.21, Direction::NotShown);
        expect(letter('B'), 0.0, sigma * 20.0, Direction::NotShown);
        // A pawn not above zero at one budget: no values to compare.
        let no_pawn = Look::with_diagonal(&[9.0, 5.0, 3.0, 3.0, 0.0, 0.0, 1.0], sigma);
        assert!(budget_changes(&space, &types, &smaller, &no_pawn, 0.05).is_empty());
    }

    #[test]
    fn each_pair_of_budgets_gets_a_table_or_says_why_not() {
        let text = include_str!("../../../reports/chess-values-results.json");
        let mut results = RunResults::parse(text, "chess-values-results.json").unwrap();
        // Three budgets (500, 1,000, 4,000 nodes): two pairs, each a row
        // per piece other than the pawn and the king (Q, R, B, N).
        let tables = budget_change_tables(&results, 0.05);
        let rows = |text: &str| text.lines().filter(|l| l.starts_with("| ")).count();
        assert_eq!(
            tables.matches("Change of the values").count(),
            2,
            "{tables}"
        );
        assert_eq!(rows(&tables), 2 * (1 + 4), "{tables}");
        // The largest budget's pawn not above zero: the second pair has
        // no values to compare, and says so instead of an empty table.
        let pawn = results.header.space.pawn_column;
        let last = results
            .budgets
            .last_mut()
            .unwrap()
            .looks
            .last_mut()
            .unwrap();
        last.theta[pawn] = 0.0;
        let tables = budget_change_tables(&results, 0.05);
        assert_eq!(
            tables.matches("Change of the values").count(),
            1,
            "{tables}"
        );
        assert_eq!(rows(&tables), 1 + 4, "{tables}");
        assert!(
            tables.contains("No change of the values from 1000 to 4000 nodes"),
            "{tables}"
        );
    }
}
