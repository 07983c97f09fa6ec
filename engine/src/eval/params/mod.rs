//! The evaluation's parameter set: every weight of every term, for one
//! variant, in one flat list the tuner can fit, with its layout and its
//! TOML form (`EvalFile`, `kurier-tune ... params=`). The evaluation
//! itself is in [`crate::eval::evaluate`].
//!
//! Two kinds of numbers:
//! - **weights** ([`EvalParams::weights`]): a middlegame and an endgame
//!   value per term, each multiplied by how often the term occurs, so
//!   that the evaluation is linear in them (Texel tuning fits them);
//! - **thresholds** ([`Thresholds`]): where the rules knowledge starts
//!   and how strongly drawish endgames are scaled; they shape the terms
//!   instead of weighting them.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::variant::definition::Variant;

pub mod built_in;
pub mod toml_file;
pub mod values_file;

/// A middlegame and an endgame weight, in centipawns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pair(pub i32, pub i32);

/// How far below its best promotion a pawn one step from the last rank
/// stays, in centipawns: promoting must always gain something.
pub const PROMOTION_MARGIN: i32 = 10;

/// What is wrong with a values or parameter file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamsError {
    /// The file or the variant it was for.
    pub source: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ParamsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.source, self.message)
    }
}

impl std::error::Error for ParamsError {}

/// Where each group of weights starts in the flat weight list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Layout {
    types: usize,
    ranks: usize,
    /// Distances from the nearest side edge a square can have.
    edge_distances: usize,
}

impl Layout {
    pub(crate) fn material(&self, piece_type: usize) -> usize {
        piece_type
    }
    pub(crate) fn square(&self, piece_type: usize) -> usize {
        self.types + piece_type
    }
    pub(crate) fn mobility(&self, piece_type: usize) -> usize {
        2 * self.types + piece_type
    }
    pub(crate) fn pawn_rank(&self, rank: usize) -> usize {
        3 * self.types + rank
    }
    pub(crate) fn passed(&self, rank: usize) -> usize {
        3 * self.types + self.ranks + rank
    }
    pub(crate) fn doubled(&self) -> usize {
        3 * self.types + 2 * self.ranks
    }
    pub(crate) fn isolated(&self) -> usize {
        self.doubled() + 1
    }
    pub(crate) fn king_shield(&self) -> usize {
        self.doubled() + 2
    }
    pub(crate) fn king_attack(&self) -> usize {
        self.doubled() + 3
    }
    pub(crate) fn tempo(&self) -> usize {
        self.doubled() + 4
    }
    pub(crate) fn last_man(&self) -> usize {
        self.doubled() + 5
    }
    pub(crate) fn mop_up_edge(&self) -> usize {
        self.doubled() + 6
    }
    pub(crate) fn mop_up_kings(&self) -> usize {
        self.doubled() + 7
    }
    pub(crate) fn mop_up_king_squares(&self) -> usize {
        self.doubled() + 8
    }
    pub(crate) fn threat_by_pawn(&self) -> usize {
        self.doubled() + 9
    }
    pub(crate) fn threat_by_lesser(&self) -> usize {
        self.doubled() + 10
    }
    pub(crate) fn hanging(&self) -> usize {
        self.doubled() + 11
    }
    pub(crate) fn king_danger(&self) -> usize {
        self.doubled() + 12
    }
    pub(crate) fn unsafe_mobility(&self) -> usize {
        self.doubled() + 13
    }
    pub(crate) fn supported_pawn(&self) -> usize {
        self.doubled() + 14
    }
    /// A piece type on a rank (counted from its own side).
    pub(crate) fn piece_rank(&self, piece_type: usize, rank: usize) -> usize {
        self.doubled() + 15 + piece_type * self.ranks + rank
    }
    /// A piece type on a file `distance` files from the nearest side edge.
    pub(crate) fn piece_file(&self, piece_type: usize, distance: usize) -> usize {
        self.doubled() + 15 + self.types * self.ranks + piece_type * self.edge_distances + distance
    }
    fn len(&self) -> usize {
        self.doubled() + 15 + self.types * (self.ranks + self.edge_distances)
    }
}

/// The numbers that shape the rules knowledge rather than weight it
/// (see [`crate::eval::evaluate`]): not linear, so Texel tuning leaves them alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Thresholds {
    /// Endgame material lead (centipawns) at which the mop-up terms start.
    pub mop_up_start: i32,
    /// Lead at which they reach full strength (linear in between).
    pub mop_up_full: i32,
    /// A side without pawns whose lead in endgame material is below this
    /// cannot be expected to win: its evaluation is scaled down.
    pub drawish_margin: i32,
    /// The scale, in 64ths, of such a drawish evaluation.
    pub drawish_scale: i32,
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds {
            mop_up_start: 200,
            mop_up_full: 600,
            drawish_margin: 400,
            drawish_scale: 8,
        }
    }
}

/// Every weight of the evaluation, for one variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalParams {
    variant: String,
    letters: Vec<char>,
    pub(crate) layout: Layout,
    /// The weights, in the layout's order.
    pub weights: Vec<Pair>,
    /// The thresholds of the rules knowledge.
    pub thresholds: Thresholds,
}

impl EvalParams {
    /// Weights for every term but material, which is zero.
    fn neutral(variant: &Variant) -> EvalParams {
        let layout = Layout {
            types: variant.pieces.len(),
            ranks: usize::from(variant.ranks),
            edge_distances: usize::from(variant.files).div_ceil(2),
        };
        let mut weights = vec![Pair::default(); layout.len()];
        for (piece_type, piece) in variant.pieces.iter().enumerate() {
            if piece.royal {
                weights[layout.square(piece_type)] = Pair(-4, 6);
            } else if !piece.pawn {
                weights[layout.square(piece_type)] = Pair(3, 2);
                weights[layout.mobility(piece_type)] = Pair(3, 3);
            }
        }
        for rank in 0..layout.ranks {
            // Pawns gain by advancing, passed pawns much more so, mostly in the endgame.
            let progress = rank as i32;
            weights[layout.pawn_rank(rank)] = Pair(2 * progress, 4 * progress);
            weights[layout.passed(rank)] =
                Pair(3 * progress * progress / 2, 6 * progress * progress);
        }
        weights[layout.doubled()] = Pair(-10, -20);
        weights[layout.isolated()] = Pair(-10, -10);
        weights[layout.king_shield()] = Pair(8, 0);
        weights[layout.king_attack()] = Pair(-6, -2);
        weights[layout.tempo()] = Pair(10, 5);
        weights[layout.last_man()] = Pair(-150, -150);
        weights[layout.mop_up_edge()] = Pair(10, 10);
        weights[layout.mop_up_kings()] = Pair(5, 5);
        weights[layout.mop_up_king_squares()] = Pair(4, 4);
        weights[layout.threat_by_pawn()] = Pair(50, 30);
        weights[layout.threat_by_lesser()] = Pair(25, 15);
        weights[layout.hanging()] = Pair(25, 10);
        EvalParams {
            variant: variant.name.clone(),
            letters: variant.pieces.iter().map(|p| p.letter).collect(),
            layout,
            weights,
            thresholds: Thresholds {
                // Where the weaker side's men must all be won, material
                // closer to even still wins (a rook against a ferz).
                drawish_margin: if variant.bare_king { 300 } else { 400 },
                ..Thresholds::default()
            },
        }
    }

    /// These parameters kept to the knowledge the evaluation promises,
    /// whatever a file or a fit gave: the pawn bonuses capped at the best
    /// promotion ([`EvalParams::capped_at_promotion`]) and the three
    /// mop-up weights at least zero in each phase, so that the mop-up
    /// never counts against the side ahead (its features are counts of
    /// steps and squares, never negative).
    pub fn within_rules(self, variant: &Variant) -> EvalParams {
        let mut params = self.capped_at_promotion(variant);
        for index in [
            params.layout.mop_up_edge(),
            params.layout.mop_up_kings(),
            params.layout.mop_up_king_squares(),
        ] {
            let Pair(middlegame, endgame) = params.weights[index];
            params.weights[index] = Pair(middlegame.max(0), endgame.max(0));
        }
        params
    }

    /// These parameters with the pawn bonuses lowered where a pawn would
    /// otherwise be worth more than what it can become: in each phase, a
    /// passed pawn on any rank (material, advance and passed bonus
    /// together) stays [`PROMOTION_MARGIN`] below the most valuable type
    /// it may promote to, so that promoting always gains. Variants whose
    /// pawns cannot promote keep their bonuses.
    pub fn capped_at_promotion(mut self, variant: &Variant) -> EvalParams {
        let Some(pawn) = variant.pieces.iter().position(|p| p.pawn) else {
            return self;
        };
        let best = |phase: fn(Pair) -> i32| {
            variant
                .promotion_types
                .iter()
                .map(|&t| phase(self.weights[self.layout.material(t)]))
                .max()
        };
        let (Some(best_mg), Some(best_eg)) = (best(|p| p.0), best(|p| p.1)) else {
            return self;
        };
        let Pair(pawn_mg, pawn_eg) = self.weights[self.layout.material(pawn)];
        let room = Pair(
            best_mg - PROMOTION_MARGIN - pawn_mg,
            best_eg - PROMOTION_MARGIN - pawn_eg,
        );
        for rank in 0..self.layout.ranks {
            let advance = self.layout.pawn_rank(rank);
            let passed = self.layout.passed(rank);
            for (room, get) in [
                (
                    room.0,
                    (|p: &mut Pair| &mut p.0) as fn(&mut Pair) -> &mut i32,
                ),
                (room.1, |p: &mut Pair| &mut p.1),
            ] {
                let advance_weight = get(&mut self.weights[advance]);
                *advance_weight = (*advance_weight).min(room);
                let allowed = room - *advance_weight;
                let passed_weight = get(&mut self.weights[passed]);
                *passed_weight = (*passed_weight).min(allowed);
            }
        }
        self
    }

    /// The same material weights with every other weight zero: the
    /// material-only evaluation, a baseline for strength tests.
    pub fn material_only(&self) -> EvalParams {
        let mut params = self.clone();
        for (index, weight) in params.weights.iter_mut().enumerate() {
            if index >= params.layout.types {
                *weight = Pair::default();
            }
        }
        params
    }

    /// The material weights (middlegame, endgame) of a piece type.
    pub fn piece_value(&self, piece_type: usize) -> Pair {
        self.weights[self.layout.material(piece_type)]
    }

    /// Sets a piece type's material weights.
    pub fn set_piece_value(&mut self, piece_type: usize, value: Pair) {
        let index = self.layout.material(piece_type);
        self.weights[index] = value;
    }
}

/// The piece type whose letter is `letter`.
fn type_of(variant: &Variant, letter: &str) -> Option<usize> {
    let mut chars = letter.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => variant.type_of_letter(c),
        _ => None,
    }
}
