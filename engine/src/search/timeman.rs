//! Time management: how long the search thinks about one move.
//!
//! On a clock, each move gets an *optimum* time (what is left, plus the
//! increments still to come, shared over the moves expected before the
//! next control, less the protocol's overhead on each of them) and a
//! *maximum* the search never passes (a few optima, and never more than
//! a fraction of the clock). After every iteration the search asks
//! [`TimeManager::iteration_done`] whether to start another: it stops
//! once the time used passes the optimum scaled by how settled the
//! search looks: less while the best move stays the same iteration after
//! iteration, more when the best move keeps changing or the score is
//! falling below what earlier iterations promised. An iteration under
//! way when the maximum comes is cut short, and its best move so far
//! still counts (the search tries the previous best first, so whatever
//! it found is at least as good).
//!
//! With a fixed time per move (`go movetime`) the optimum and the
//! maximum are both that time less the overhead: the search uses all of
//! it.

use std::time::Duration;

use crate::types::{Clock, Color};

/// Moves expected before the next time control when the clock gives no
/// number (sudden death or increment).
const MOVES_EXPECTED: u32 = 40;

/// The most of the remaining time one move may take, in percent.
const MAXIMUM_SHARE_PERCENT: u32 = 40;

/// How many optima one move may take at most.
const MAXIMUM_OPTIMA: u32 = 5;

/// The time plan of one search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeManager {
    optimum: Duration,
    maximum: Duration,
    /// A fixed time per move: always search until the maximum.
    fixed: bool,
}

/// What the last iterations said about the search, for the decision to
/// start another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IterationSummary {
    /// Consecutive completed iterations that kept the same best move
    /// (0 when the last one changed it).
    pub stable_iterations: u32,
    /// How many times the best move changed over the last iterations
    /// (decays by half per iteration), in hundredths.
    pub best_move_changes: u32,
    /// The score of the last iteration.
    pub score: i32,
    /// The mean score of the earlier iterations.
    pub previous_mean: i32,
}

impl TimeManager {
    /// The plan for a move of `side` on `clock`, keeping `overhead` per
    /// move for communication.
    ///
    /// ```
    /// use std::time::Duration;
    /// use kurier_engine::types::Color;
    /// use kurier_engine::types::Clock;
    /// use kurier_engine::search::timeman::TimeManager;
    /// let ms = Duration::from_millis;
    /// let clock = Clock { time: [ms(1000), ms(1000)], increment: [ms(100), ms(100)], moves_to_go: None };
    /// let plan = TimeManager::for_clock(&clock, Color::White, ms(50));
    /// assert!(plan.maximum() < ms(1000 - 50));
    /// assert!(plan.optimum() <= plan.maximum());
    /// ```
    pub fn for_clock(clock: &Clock, side: Color, overhead: Duration) -> TimeManager {
        let left = clock.time[side.index()];
        let increment = clock.increment[side.index()];
        let usable = left.saturating_sub(overhead).max(Duration::from_millis(1));
        let moves = clock.moves_to_go.unwrap_or(MOVES_EXPECTED).clamp(1, 50);
        // Everything this control will give, less the overhead of each move.
        let budget = (left + increment * (moves - 1))
            .saturating_sub(overhead * (moves + 1))
            .max(Duration::from_millis(1));
        let ceiling = usable * MAXIMUM_SHARE_PERCENT / 100;
        let optimum = (budget / moves).min(ceiling).max(Duration::from_millis(1));
        let maximum = (optimum * MAXIMUM_OPTIMA).min(ceiling.max(optimum));
        TimeManager {
            optimum,
            maximum,
            fixed: false,
        }
    }

    /// The plan for a fixed time per move.
    pub fn for_movetime(movetime: Duration, overhead: Duration) -> TimeManager {
        let time = movetime
            .saturating_sub(overhead)
            .max(Duration::from_millis(1));
        TimeManager {
            optimum: time,
            maximum: time,
            fixed: true,
        }
    }

    /// The time the move should take when the search looks settled.
    pub fn optimum(&self) -> Duration {
        self.optimum
    }

    /// The time the move may never pass.
    pub fn maximum(&self) -> Duration {
        self.maximum
    }

    /// Whether to stop after an iteration, `elapsed` into the search.
    pub fn iteration_done(&self, elapsed: Duration, summary: &IterationSummary) -> bool {
        if self.fixed {
            return elapsed >= self.maximum;
        }
        // A best move that has held for several iterations needs less
        // time; one that keeps changing, more.
        let stability = match summary.stable_iterations {
            0 => 130,
            1 => 110,
            2 => 100,
            3 => 85,
            _ => 70,
        };
        let instability = 100 + summary.best_move_changes.min(300) * 2 / 3;
        // A score falling below the earlier iterations' asks for more time.
        let fall = (summary.previous_mean - summary.score).clamp(-50, 100);
        let falling = (100 + fall).clamp(70, 180) as u32;
        let scale_percent = u64::from(stability * instability / 100 * falling / 100);
        let planned = self.optimum.as_micros() as u64 * scale_percent / 100;
        let planned = Duration::from_micros(planned).min(self.maximum);
        elapsed >= planned
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn clock(left: u64, increment: u64, moves_to_go: Option<u32>) -> Clock {
        Clock {
            time: [ms(left), ms(left)],
            increment: [ms(increment), ms(increment)],
            moves_to_go,
        }
    }

    #[test]
    fn never_plans_past_the_clock() {
        for left in [1, 10, 60, 100, 500, 5_000, 60_000] {
            for increment in [0, 100, 1_000] {
                for moves in [None, Some(1), Some(5)] {
                    let plan = TimeManager::for_clock(
                        &clock(left, increment, moves),
                        Color::Black,
                        ms(50),
                    );
                    assert!(
                        plan.optimum() <= plan.maximum(),
                        "{left} {increment}: {plan:?}"
                    );
                    assert!(
                        plan.maximum() <= ms(left.saturating_sub(50).max(1)),
                        "{left} {increment}: {plan:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn hand_computed_plans() {
        // 4 s + 0.04 s, 30 ms overhead, 40 moves expected: the control
        // gives 4000 + 39 * 40 = 5560 ms less 41 * 30 = 1230 ms: 4330 ms
        // over 40 moves is 108.25 ms; the maximum, 5 optima (541.25 ms),
        // is below 40% of the usable 3970 ms (1588 ms).
        let plan = TimeManager::for_clock(&clock(4000, 40, None), Color::White, ms(30));
        assert_eq!(plan.optimum(), Duration::from_micros(108_250));
        assert_eq!(plan.maximum(), Duration::from_micros(541_250));
        // With one move to go, the optimum is the clock less twice the
        // overhead, capped at 40% of the usable time.
        let plan = TimeManager::for_clock(&clock(1000, 0, Some(1)), Color::White, ms(0));
        assert_eq!(plan.optimum(), ms(400));
        assert_eq!(plan.maximum(), ms(400));
        assert_eq!(
            TimeManager::for_movetime(ms(1000), ms(50)),
            TimeManager {
                optimum: ms(950),
                maximum: ms(950),
                fixed: true
            }
        );
    }

    #[test]
    fn uses_more_with_increment_and_few_moves_to_go() {
        let plain = TimeManager::for_clock(&clock(60_000, 0, None), Color::White, ms(0));
        let with_increment =
            TimeManager::for_clock(&clock(60_000, 1_000, None), Color::White, ms(0));
        let few_moves = TimeManager::for_clock(&clock(60_000, 0, Some(2)), Color::White, ms(0));
        assert!(with_increment.optimum() > plain.optimum());
        assert!(few_moves.optimum() > plain.optimum());
    }

    #[test]
    fn a_fixed_move_time_is_used_to_the_end() {
        let plan = TimeManager::for_movetime(ms(4000), ms(30));
        let settled = IterationSummary {
            stable_iterations: 10,
            best_move_changes: 0,
            score: 50,
            previous_mean: 50,
        };
        assert!(!plan.iteration_done(ms(3000), &settled));
        assert!(plan.iteration_done(ms(3970), &settled));
    }

    #[test]
    fn settled_searches_stop_sooner_than_unsettled_ones() {
        let plan = TimeManager::for_clock(&clock(60_000, 0, None), Color::White, ms(0));
        let settled = IterationSummary {
            stable_iterations: 6,
            best_move_changes: 0,
            score: 50,
            previous_mean: 50,
        };
        let unsettled = IterationSummary {
            stable_iterations: 0,
            best_move_changes: 200,
            score: -20,
            previous_mean: 50,
        };
        // Optimum 1500 ms: settled 70% = 1050 ms; unsettled 130% * 233%
        // * 170%, capped at the maximum 7500 ms.
        assert!(plan.iteration_done(ms(1100), &settled));
        assert!(!plan.iteration_done(ms(1000), &settled));
        assert!(!plan.iteration_done(ms(5000), &unsettled));
        assert!(plan.iteration_done(ms(7500), &unsettled));
    }
}
