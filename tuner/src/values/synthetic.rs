//! Synthetic datasets with known true values, drawn from the fit's own
//! model: for the tests of the fit and the bootstrap, and for timing the
//! fit (`cargo bench -p kurier-tuner --bench values_fit`).

use super::dataset::{Dataset, DatasetInfo, PositionRecord, MAX_TYPES};
use super::fit::sigmoid;
use super::{PieceTypes, Values};
use crate::openings::Rng;

/// A number in `[0, 1)`.
pub fn uniform(rng: &mut Rng) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

/// A result (0 loss, 1 draw, 2 win) with expected score `p`: a win with
/// probability p^2, a draw with 2p(1-p), a loss with (1-p)^2 (mean p^2 +
/// p(1-p) = p).
pub fn draw_result(p: f64, rng: &mut Rng) -> u8 {
    let u = uniform(rng);
    if u < p * p {
        2
    } else if u < p * p + 2.0 * p * (1.0 - p) {
        1
    } else {
        0
    }
}

/// Synthetic material data for `variant` (its name and piece types):
/// every game has one material difference (pawns -3 to 3, every other
/// valued type -1 to 1), `positions` positions that share it and the
/// game's one result, drawn with expectation `sigmoid(scale * sum_X
/// truth_X d_X)`; the side to move alternates. Sharing the result makes
/// the positions of a game dependent, as in real games, so that only
/// resampling whole games gives honest intervals.
pub fn synthetic_material(
    variant: &str,
    types: &PieceTypes,
    truth: &Values,
    scale: f64,
    games: u32,
    positions: usize,
    seed: u64,
) -> Dataset {
    let mut rng = Rng::new(seed);
    let mut records = Vec::new();
    for game in 0..games {
        let mut material = [0i8; MAX_TYPES];
        for t in types.valued() {
            material[t] = if t == types.pawn {
                rng.below(7) as i8 - 3
            } else {
                rng.below(3) as i8 - 1
            };
        }
        let advantage: f64 = types
            .valued()
            .iter()
            .map(|&t| truth[t] * f64::from(material[t]))
            .sum();
        let result = draw_result(sigmoid(scale * advantage), &mut rng);
        for ply in 0..positions {
            records.push(PositionRecord {
                material,
                game,
                phase: 128,
                result,
                white_to_move: (ply % 2) as u8,
                feature_count: 0,
                ply: ply as u16,
            });
        }
    }
    let info = DatasetInfo {
        variant: variant.to_string(),
        piece_types: types.letters.len(),
        seed,
        nodes: 0,
        skip_plies: 0,
        per_game: positions as u16,
        eval_weights: 0,
        round: 0,
    };
    Dataset::from_parts(info, records, Vec::new(), games)
        .unwrap_or_else(|e| unreachable!("records without features own none: {e}"))
}
