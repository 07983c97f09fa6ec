//! A trade of the designed experiment: the men taken from each side of an
//! opening position.

use serde::{Deserialize, Serialize};

use crate::values::features::FeatureSpace;
use crate::values::instance::Removal;
use crate::values::ordinal::{OrdinalRow, DRAW};
use crate::values::PieceTypes;

/// Men taken from the two sides of a pair's games.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Trade {
    /// Types side A loses (sorted).
    pub a_loses: Vec<usize>,
    /// Types side B loses (sorted).
    pub b_loses: Vec<usize>,
}

impl Trade {
    /// `Q vs R+B+2P` (A's loss, then B's; pawns last).
    pub fn label(&self, types: &PieceTypes) -> String {
        let side = |lost: &[usize]| -> String {
            let pawns = lost.iter().filter(|&&t| t == types.pawn).count();
            let mut parts: Vec<String> = lost
                .iter()
                .filter(|&&t| t != types.pawn)
                .map(|&t| types.letters[t].to_string())
                .collect();
            if pawns > 0 {
                parts.push(format!("{pawns}P"));
            }
            if parts.is_empty() {
                "-".to_string()
            } else {
                parts.join("+")
            }
        };
        format!("{} vs {}", side(&self.a_loses), side(&self.b_loses))
    }

    /// The men each colour loses when A plays `a_white` (White) or Black.
    pub fn removal(&self, a_white: bool) -> Removal {
        if a_white {
            Removal {
                white: self.a_loses.clone(),
                black: self.b_loses.clone(),
            }
        } else {
            Removal {
                white: self.b_loses.clone(),
                black: self.a_loses.clone(),
            }
        }
    }

    /// The features of the game with A as White, from the start
    /// counts `men` (per type, each side): material differences, and a
    /// side keeping a colour-bound pair while it keeps two or more men.
    pub fn features(&self, space: &FeatureSpace, men: &[usize]) -> Vec<f64> {
        let lost = |list: &[usize], t: usize| list.iter().filter(|&&l| l == t).count();
        let mut x: Vec<f64> = space
            .valued
            .iter()
            .map(|&t| lost(&self.b_loses, t) as f64 - lost(&self.a_loses, t) as f64)
            .collect();
        x.extend(space.pair_types.iter().map(|&t| {
            let keeps = |list: &[usize]| men[t].saturating_sub(lost(list, t)) >= 2;
            f64::from(u8::from(keeps(&self.a_loses))) - f64::from(u8::from(keeps(&self.b_loses)))
        }));
        x
    }
}

/// The rows of a design's `trades` before they are played: each pair's
/// two games (A White, then A Black), one cluster per pair, from the
/// start counts `men`; the outcome is a placeholder (a draw). For what
/// the games will tell ([`crate::values::look::Look::predicted`]).
pub fn unplayed_rows(trades: &[Trade], space: &FeatureSpace, men: &[usize]) -> Vec<OrdinalRow> {
    trades
        .iter()
        .enumerate()
        .flat_map(|(pair, trade)| {
            let x = trade.features(space, men);
            let mirrored: Vec<f64> = x.iter().map(|v| -v).collect();
            [x, mirrored].map(|x| OrdinalRow {
                x,
                outcome: DRAW,
                cluster: pair as u32,
            })
        })
        .collect()
}
