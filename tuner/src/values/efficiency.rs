//! The experiment's efficiency: what it costs to measure every value to
//! its target precision ([`target_half_width`]: 0.3 pawn, or 3% of a
//! value above 10 pawns), by the report's own estimator.
//!
//! The 95% half-widths of the fit on all games (likelihood curvature,
//! sandwich over pairs) shrink as `1 / sqrt(games)`, so a value measured
//! to the half-width `w` on `n` games needs `(w / target)^2 n` games; the
//! experiment needs the most of these over the pieces. Times the CPU
//! seconds a game took, that is the CPU time to the answer: the figure
//! of merit of every change to how games are played (fewer games when
//! each game tells more, cheaper games when each costs less). The moves
//! to the answer (games times plies per game) are the same figure
//! without the machine's speed: at a fixed node budget a move costs
//! about the same whatever the game, and the moves of a run at a given
//! seed are the same on every machine.

use serde::{Deserialize, Serialize};

use crate::values::design::target_half_width;
use crate::values::PieceTypes;

/// What measuring every value to its target costs at one budget.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Efficiency {
    /// Games the half-widths were measured on.
    pub games: usize,
    /// Games that every value within its target needs.
    pub games_to_target: f64,
    /// The type that needs them (the others need fewer).
    pub limiting: usize,
    /// Plies (moves) per game, on average.
    pub plies_per_game: f64,
    /// CPU seconds per game, on average.
    pub cpu_seconds_per_game: f64,
}

impl Efficiency {
    /// From the fit on `games` games: each type's 95% half-width
    /// (`half_widths`, pawns; `None` where there is none) and value
    /// (`values`, pawns), and what a game took (`plies_per_game`,
    /// `cpu_seconds_per_game`). `None` without games or without a
    /// half-width.
    pub fn of(
        types: &PieceTypes,
        games: usize,
        half_widths: &[Option<f64>],
        values: &[f64],
        plies_per_game: f64,
        cpu_seconds_per_game: f64,
    ) -> Option<Efficiency> {
        if games == 0 {
            return None;
        }
        let (limiting, games_to_target) = types
            .pieces()
            .into_iter()
            .filter_map(|t| {
                let ratio = half_widths[t]? / target_half_width(values[t]);
                Some((t, (ratio * ratio * games as f64).ceil()))
            })
            .max_by(|a, b| a.1.total_cmp(&b.1))?;
        Some(Efficiency {
            games,
            games_to_target,
            limiting,
            plies_per_game,
            cpu_seconds_per_game,
        })
    }

    /// CPU hours to every value within its target.
    pub fn cpu_hours(&self) -> f64 {
        self.games_to_target * self.cpu_seconds_per_game / 3600.0
    }

    /// Moves (plies) to every value within its target.
    pub fn plies_to_target(&self) -> f64 {
        self.games_to_target * self.plies_per_game
    }

    /// The sentence the report and the `values` command print.
    pub fn sentence(&self, types: &PieceTypes) -> String {
        format!(
            "every value within its target (0.3 pawn, or 3% of a value above 10 pawns) needs about \
             {:.0} games at this budget (for the {}; half-widths shrink as 1/sqrt(games)), {:.2} \
             million moves, **{:.1} CPU hours** at the {:.2} CPU seconds and {:.0} plies a game \
             measured here",
            self.games_to_target,
            types.names[self.limiting],
            self.plies_to_target() / 1e6,
            self.cpu_hours(),
            self.cpu_seconds_per_game,
            self.plies_per_game
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn types() -> PieceTypes {
        PieceTypes {
            letters: vec!['K', 'Q', 'R', 'M', 'P'],
            names: ["king", "queen", "rook", "minister", "pawn"]
                .map(String::from)
                .to_vec(),
            king: 0,
            pawn: 4,
        }
    }

    #[test]
    fn the_value_furthest_from_its_target_sets_the_games() {
        // On 100 games: the queen (12 pawns, target 3% = 0.36) at 0.72 is
        // twice its target, 400 games; the rook (target 0.3) at 0.9 three
        // times, 900 games; the minister at 0.3 is there, 100 games.
        let widths = [None, Some(0.72), Some(0.9), Some(0.3), None];
        let values = [0.0, 12.0, 7.0, 2.0, 1.0];
        let e = Efficiency::of(&types(), 100, &widths, &values, 250.0, 1.5).unwrap();
        assert_eq!(e.limiting, 2);
        assert_eq!(e.games_to_target, 900.0);
        assert_eq!(e.plies_per_game, 250.0);
        assert_eq!(e.plies_to_target(), 225_000.0);
        // 900 games at 1.5 CPU s: 1,350 s.
        assert!((e.cpu_hours() - 0.375).abs() < 1e-12);
        assert!(e
            .sentence(&types())
            .contains("900 games at this budget (for the rook"));
    }

    #[test]
    fn no_games_or_no_half_width_give_no_figure() {
        let values = [0.0, 12.0, 7.0, 2.0, 1.0];
        assert_eq!(
            Efficiency::of(&types(), 0, &[None; 5], &values, 0.0, 0.0),
            None
        );
        assert_eq!(
            Efficiency::of(&types(), 10, &[None; 5], &values, 1.0, 1.0),
            None
        );
    }
}
