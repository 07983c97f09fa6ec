//! The validation match: the engine with the fitted values against the
//! engine with the suggested ones, game pairs from random openings, until
//! a sequential probability ratio test decides or the pair budget is
//! spent.

use std::sync::Arc;

use kurier_engine::bitboard::Bitboard;
use kurier_engine::eval::EvalParams;
use kurier_engine::game::Game;
use kurier_engine::geometry::Color;
use kurier_engine::position::Position;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::generate::{play_tuner_game, tuner_player, tuner_rules};
use crate::openings::{random_opening, Rng};
use crate::play::points_for;
use crate::stats::{Pentanomial, Sprt, SprtDecision};

/// How the validation match is played.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ValidationPlan {
    /// Game pairs at most.
    pub max_pairs: u32,
    /// Nodes per move, both sides.
    pub nodes: u32,
    /// Random plies of each opening.
    pub opening_plies: usize,
    /// Ply limit (a draw).
    pub max_plies: usize,
    /// Seed of the openings.
    pub seed: u64,
    /// H0 of the SPRT: the fitted values are this many Elo better.
    pub elo0: f64,
    /// H1 of the SPRT.
    pub elo1: f64,
}

/// The SPRT's error rates: 5% each way.
pub const SPRT_ERRORS: f64 = 0.05;

/// Pairs played between two looks at the SPRT.
const BATCH_PAIRS: u32 = 16;

/// The match so far: pair counts of the fitted values' side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ValidationCounts {
    /// Pairs by points of the fitted side: 0, 1/2, 1, 3/2, 2.
    pub pairs: [u64; 5],
}

/// The test of a plan.
pub fn sprt_of(plan: &ValidationPlan) -> Result<Sprt, String> {
    Sprt::new(plan.elo0, plan.elo1, SPRT_ERRORS, SPRT_ERRORS)
}

/// Plays on from `so_far` until the SPRT decides or `plan.max_pairs`
/// pairs are played; `after_batch` sees the counts after every batch
/// (to journal them). Returns the final counts.
pub fn play_validation<B: Bitboard>(
    game: &Arc<Game<B>>,
    fitted: &EvalParams,
    suggested: &EvalParams,
    plan: &ValidationPlan,
    so_far: ValidationCounts,
    after_batch: &mut dyn FnMut(&ValidationCounts) -> Result<(), String>,
) -> Result<ValidationCounts, String> {
    let sprt = sprt_of(plan)?;
    let first = tuner_player(game, "fitted", fitted, plan.nodes);
    let second = tuner_player(game, "suggested", suggested, plan.nodes);
    let rules = tuner_rules(plan.max_plies);
    let start = Position::startpos(game.clone());
    let mut counts = Pentanomial(so_far.pairs);
    while counts.pairs() < u64::from(plan.max_pairs)
        && sprt.state(&counts).decision == SprtDecision::Continue
    {
        let done = counts.pairs() as u32;
        let batch_end = (done + BATCH_PAIRS).min(plan.max_pairs);
        let points: Vec<f64> = (done..batch_end)
            .into_par_iter()
            .map(|pair| {
                let mut rng =
                    Rng::new(plan.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ u64::from(pair));
                let opening = random_opening(&start, plan.opening_plies, &mut rng);
                let one = play_tuner_game(&opening, &first, &second, &rules);
                let two = play_tuner_game(&opening, &second, &first, &rules);
                points_for(one.result, Color::White) + points_for(two.result, Color::Black)
            })
            .collect();
        for pair in points {
            counts.add(pair);
        }
        after_batch(&ValidationCounts { pairs: counts.0 })?;
    }
    Ok(ValidationCounts { pairs: counts.0 })
}
