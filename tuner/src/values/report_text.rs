//! Small pieces of the report's text that its tables share: a value with
//! its interval, and what the measured values are compared with.

use crate::stats::bootstrap::Interval;
use crate::values::run::results::RunResults;

/// `value [low, high]`, or the value alone without an interval.
pub fn with_interval(value: f64, interval: Option<Interval>) -> String {
    match interval {
        Some(i) => format!("{value:.2} [{:.2}, {:.2}]", i.low, i.high),
        None => format!("{value:.2}"),
    }
}

/// What the measured values are compared with: the suggested values, or,
/// for a variant with no values file, the engine's estimate from the
/// pieces' moves.
pub fn reference(results: &RunResults) -> &'static str {
    if results.header.engine_values_estimated {
        "estimated"
    } else {
        "suggested"
    }
}
