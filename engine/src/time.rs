//! Time management: how long the search may think about one move.

use std::time::Duration;

use crate::geometry::Color;

/// The clock state from `go wtime btime winc binc movestogo`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left, `[white, black]`.
    pub time: [Duration; 2],
    /// Increment per move, `[white, black]`.
    pub increment: [Duration; 2],
    /// Moves until the next time control, if any.
    pub moves_to_go: Option<u32>,
}

/// When to stop: `soft` is checked between iterations (do not start one
/// that will not finish), `hard` is checked inside the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Stop deepening after this much time.
    pub soft: Duration,
    /// Stop searching at once after this much time.
    pub hard: Duration,
}

/// The budget for one move of `side`, keeping `overhead` in reserve for
/// communication delays.
///
/// ```
/// use std::time::Duration;
/// use kurier_engine::geometry::Color;
/// use kurier_engine::time::{budget_for_clock, Clock};
/// let ms = Duration::from_millis;
/// let clock = Clock { time: [ms(1000), ms(1000)], increment: [ms(100), ms(100)], moves_to_go: None };
/// let budget = budget_for_clock(&clock, Color::White, ms(50));
/// assert!(budget.hard < ms(1000 - 50));
/// assert!(budget.soft <= budget.hard);
/// ```
pub fn budget_for_clock(clock: &Clock, side: Color, overhead: Duration) -> Budget {
    let left = clock.time[side.index()];
    let increment = clock.increment[side.index()];
    let usable = left.saturating_sub(overhead).max(Duration::from_millis(1));
    let moves = clock.moves_to_go.unwrap_or(30).clamp(1, 50);
    let share = usable / moves + increment * 3 / 4;
    // Never more than a fraction of what is left, whatever the increment.
    let ceiling = usable * 2 / 5;
    let soft = share.min(ceiling).max(Duration::from_millis(1));
    let hard = (soft * 4).min(ceiling.max(soft)).min(usable);
    Budget {
        soft: soft.min(hard),
        hard,
    }
}

/// The budget for a fixed time per move.
pub fn budget_for_movetime(movetime: Duration, overhead: Duration) -> Budget {
    let time = movetime
        .saturating_sub(overhead)
        .max(Duration::from_millis(1));
    Budget {
        soft: time,
        hard: time,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn never_plans_past_the_clock() {
        for left in [1, 10, 60, 100, 500, 5_000, 60_000] {
            for increment in [0, 100, 1_000] {
                let clock = Clock {
                    time: [ms(left), ms(left)],
                    increment: [ms(increment), ms(increment)],
                    moves_to_go: None,
                };
                let budget = budget_for_clock(&clock, Color::Black, ms(50));
                assert!(budget.soft <= budget.hard);
                assert!(
                    budget.hard <= ms(left.saturating_sub(50).max(1)),
                    "{left} {increment}: {budget:?}"
                );
            }
        }
    }

    #[test]
    fn uses_more_with_increment_and_few_moves_to_go() {
        let base = Clock {
            time: [ms(60_000); 2],
            increment: [ms(0); 2],
            moves_to_go: None,
        };
        let with_increment = Clock {
            increment: [ms(1_000); 2],
            ..base
        };
        let few_moves = Clock {
            moves_to_go: Some(2),
            ..base
        };
        let plain = budget_for_clock(&base, Color::White, ms(0));
        assert!(budget_for_clock(&with_increment, Color::White, ms(0)).soft > plain.soft);
        assert!(budget_for_clock(&few_moves, Color::White, ms(0)).soft > plain.soft);
        assert_eq!(
            budget_for_movetime(ms(1000), ms(50)),
            Budget {
                soft: ms(950),
                hard: ms(950)
            }
        );
    }
}
