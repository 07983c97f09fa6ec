//! Experiments with known true values, drawn from the models' own
//! assumptions: for the tests of the fits, their intervals and their
//! coverage, and for timing (`cargo bench -p kurier-tuner --bench
//! values_fit`).

use super::{PieceTypes, Values};
use crate::positions::dataset::{Dataset, DatasetInfo, FeatureEntry, PositionRecord, MAX_TYPES};
use crate::stats::logistic::sigmoid;
use crate::util::rng::Rng;
use crate::values::design::{candidate_trades, DesignLimits};
use crate::values::estimate::ratios;
use crate::values::features::FeatureSpace;
use crate::values::ordinal::{eta, probabilities, OrdinalRow, BLACK_WINS, DRAW, WHITE_WINS};
use crate::values::trade::Trade;

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

/// Side A's result (0 loss, 1 draw, 2 win) at the uniform draw `u`, with
/// A's loss and win probabilities `loss` and `win`.
fn a_result(u: f64, loss: f64, win: f64) -> u8 {
    if u < loss {
        0
    } else if u < 1.0 - win {
        1
    } else {
        2
    }
}

/// A synthetic designed experiment: `pairs` pairs, each a trade drawn
/// uniformly from the candidates balanced at the true values, its two
/// games (A White, then A Black) with results from the ordinal model at
/// `truth` (weights, `tau`, `delta`). With probability `correlation` the
/// second game reuses the first game's uniform draw (from A's side), so
/// that a pair's games are dependent, as games from one position are,
/// while each game follows the model exactly.
pub fn synthetic_design(
    types: &PieceTypes,
    space: &FeatureSpace,
    limits: &DesignLimits,
    truth: &[f64],
    pairs: usize,
    correlation: f64,
    seed: u64,
) -> Vec<OrdinalRow> {
    let (values, pair_values) = ratios(space, truth, types.letters.len());
    let trades = candidate_trades(types, space, &values, &pair_values, limits);
    let mut rng = Rng::new(seed);
    let mut rows = Vec::with_capacity(2 * pairs);
    for pair in 0..pairs {
        let trade = &trades[rng.below(trades.len())];
        rows.extend(pair_games(
            space,
            limits,
            truth,
            trade,
            correlation,
            pair as u32,
            &mut rng,
        ));
    }
    rows
}

/// The games of a synthetic batch whose trades a design chose: each of
/// `trades` played as a pair by [`synthetic_design`]'s model, the pairs
/// numbered (their clusters) from `first_pair`.
pub fn synthetic_pairs(
    space: &FeatureSpace,
    limits: &DesignLimits,
    truth: &[f64],
    trades: &[Trade],
    correlation: f64,
    first_pair: u32,
    seed: u64,
) -> Vec<OrdinalRow> {
    let mut rng = Rng::new(seed);
    trades
        .iter()
        .zip(first_pair..)
        .flat_map(|(trade, pair)| {
            pair_games(space, limits, truth, trade, correlation, pair, &mut rng)
        })
        .collect()
}

/// The two games of one synthetic pair (A White, then A Black).
fn pair_games(
    space: &FeatureSpace,
    limits: &DesignLimits,
    truth: &[f64],
    trade: &Trade,
    correlation: f64,
    pair: u32,
    rng: &mut Rng,
) -> [OrdinalRow; 2] {
    let delta = truth[truth.len() - 1];
    let x = trade.features(space, &limits.men);
    let mirrored: Vec<f64> = x.iter().map(|v| -v).collect();
    let first = uniform(rng);
    let fresh = uniform(rng);
    let second = if uniform(rng) < correlation {
        first
    } else {
        fresh
    };
    // Game 1, A White: A's loss is Black's win.
    let [black, _, white] = probabilities(eta(truth, &x), delta);
    let one = match a_result(first, black, white) {
        0 => BLACK_WINS,
        1 => DRAW,
        _ => WHITE_WINS,
    };
    // Game 2, A Black: A's loss is White's win.
    let [black, _, white] = probabilities(eta(truth, &mirrored), delta);
    let two = match a_result(second, white, black) {
        0 => WHITE_WINS,
        1 => DRAW,
        _ => BLACK_WINS,
    };
    [(x, one), (mirrored, two)].map(|(features, outcome)| OrdinalRow {
        x: features,
        outcome,
        cluster: pair,
    })
}

/// Synthetic positions for the observational fit, of a variant with
/// `types` (its name `variant`) and `weights` evaluation weights: every
/// game has one material difference (pawns -3 to 3, every other valued
/// type -1 to 1), `positions` positions that share it and the game's
/// one result, drawn with expectation `sigmoid(scale * (sum_X truth_X d_X
/// + rest / 100))`.
///
/// The rest of the evaluation is one non-material weight `rest_weight`
/// (worth `rest_cp` centipawns at the records' phase) counted the pawn
/// difference plus a random -2 to 2 times: correlated with the pawns, as
/// passed pawns are. Sharing the result makes the positions of a game
/// dependent, as in real games.
#[allow(clippy::too_many_arguments)]
pub fn synthetic_material(
    variant: &str,
    types: &PieceTypes,
    truth: &Values,
    scale: f64,
    games: u32,
    positions: usize,
    (weights, rest_weight, rest_cp): (usize, usize, f64),
    seed: u64,
) -> Dataset {
    let mut rng = Rng::new(seed);
    let mut records = Vec::new();
    let mut features = Vec::new();
    for game in 0..games {
        let mut material = [0i8; MAX_TYPES];
        for t in types.valued() {
            material[t] = if t == types.pawn {
                rng.below(7) as i8 - 3
            } else {
                rng.below(3) as i8 - 1
            };
        }
        let count = i16::from(material[types.pawn]) + rng.below(5) as i16 - 2;
        let advantage: f64 = types
            .valued()
            .iter()
            .map(|&t| truth[t] * f64::from(material[t]))
            .sum::<f64>()
            + f64::from(count) * rest_cp / 100.0;
        let result = draw_result(sigmoid(scale * advantage), &mut rng);
        for ply in 0..positions {
            let own = u16::from(count != 0);
            if count != 0 {
                features.push(FeatureEntry {
                    index: rest_weight as u16,
                    count,
                });
            }
            records.push(PositionRecord {
                material,
                game,
                phase: 128,
                result,
                white_to_move: (ply % 2) as u8,
                feature_count: own,
                ply: ply as u16,
                pairs: [0, 0],
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
        eval_weights: weights as u32,
        shard: None,
    };
    Dataset::from_parts(info, records, features, games)
        .unwrap_or_else(|e| unreachable!("each record owns its features: {e}"))
}
