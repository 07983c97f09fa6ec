//! Time controls (base time plus increment) and the clocks that enforce
//! them: the tournament measures each move's wall time itself and a player
//! whose time runs out loses on time.

use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Serialize};

/// A time control: `base` for the whole game plus `increment` per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimeControl {
    /// Time for the game, in milliseconds.
    pub base_ms: u64,
    /// Time added after each move, in milliseconds.
    pub increment_ms: u64,
}

impl TimeControl {
    /// Parses `BASE+INC` or `BASE` in seconds, as cutechess-cli's `tc=`:
    /// `10+0.1` is ten seconds plus a tenth of a second per move.
    ///
    /// ```
    /// use kurier_tuner::players::clock::TimeControl;
    /// let tc = TimeControl::parse("10+0.1").unwrap();
    /// assert_eq!((tc.base_ms, tc.increment_ms), (10_000, 100));
    /// assert!(TimeControl::parse("ten").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<TimeControl, String> {
        let (base, increment) = text.split_once('+').unwrap_or((text, "0"));
        let milliseconds = |part: &str| -> Result<u64, String> {
            let seconds: f64 = part.trim().parse().map_err(|_| {
                format!("time control '{text}': '{part}' is not a number of seconds")
            })?;
            if !(seconds.is_finite() && seconds >= 0.0) {
                return Err(format!(
                    "time control '{text}': '{part}' must be zero or more seconds"
                ));
            }
            Ok((seconds * 1000.0).round() as u64)
        };
        let control = TimeControl {
            base_ms: milliseconds(base)?,
            increment_ms: milliseconds(increment)?,
        };
        if control.base_ms == 0 {
            return Err(format!(
                "time control '{text}': the base time must be positive"
            ));
        }
        Ok(control)
    }

    /// A fresh clock for one side.
    pub fn start(&self) -> SideClock {
        SideClock {
            remaining: Duration::from_millis(self.base_ms),
            increment: Duration::from_millis(self.increment_ms),
        }
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let seconds = |ms: u64| ms as f64 / 1000.0;
        write!(
            f,
            "{}+{}",
            seconds(self.base_ms),
            seconds(self.increment_ms)
        )
    }
}

/// One side's clock during a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SideClock {
    /// Time left.
    pub remaining: Duration,
    /// Added after each move made in time.
    pub increment: Duration,
}

/// The player's time ran out during its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeForfeit;

impl SideClock {
    /// Charges a move that took `elapsed`: a move that took longer than
    /// the time left plus `margin` loses on time; otherwise the time is
    /// taken off (never below zero) and the increment added.
    pub fn charge(&mut self, elapsed: Duration, margin: Duration) -> Result<(), TimeForfeit> {
        if elapsed > self.remaining + margin {
            return Err(TimeForfeit);
        }
        self.remaining = self.remaining.saturating_sub(elapsed) + self.increment;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_base_and_increment_in_seconds() {
        assert_eq!(
            TimeControl::parse("60").unwrap(),
            TimeControl {
                base_ms: 60_000,
                increment_ms: 0
            }
        );
        assert_eq!(
            TimeControl::parse("0.5+0.05").unwrap(),
            TimeControl {
                base_ms: 500,
                increment_ms: 50
            }
        );
        assert_eq!(TimeControl::parse("2+0.1").unwrap().to_string(), "2+0.1");
        for bad in ["", "+1", "0+1", "-1+0", "1+x", "inf"] {
            assert!(TimeControl::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_clock_charges_moves_and_forfeits_an_overrun() {
        let ms = Duration::from_millis;
        let mut clock = TimeControl::parse("1+0.1").unwrap().start();
        // 1000 - 300 + 100 = 800, then 800 - 800 + 100 = 100.
        clock.charge(ms(300), ms(0)).unwrap();
        assert_eq!(clock.remaining, ms(800));
        clock.charge(ms(800), ms(0)).unwrap();
        assert_eq!(clock.remaining, ms(100));
        // 130 ms against 100 left: lost unless the margin covers it.
        let mut without_margin = clock;
        assert_eq!(without_margin.charge(ms(130), ms(0)), Err(TimeForfeit));
        clock.charge(ms(130), ms(50)).unwrap();
        assert_eq!(clock.remaining, ms(100));
    }
}
