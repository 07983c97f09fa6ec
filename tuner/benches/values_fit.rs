//! Times the designed experiment's fit and its bootstrap on synthetic
//! ExCoCo data (all 13 pieces, pair terms, pairs of correlated games),
//! on two threads: `cargo bench -p kurier-tuner --bench values_fit`.

use std::time::Instant;

use kurier_engine::eval::evaluate::EvalParams;
use kurier_engine::position::any_game::AnyGame;
use kurier_engine::position::state::Position;
use kurier_engine::with_game;
use kurier_tuner::values::design::{prior_theta, DesignLimits};
use kurier_tuner::values::experiment::{design_estimate, men_available};
use kurier_tuner::values::features::{colour_bound_types, FeatureSpace};
use kurier_tuner::values::synthetic::synthetic_design;
use kurier_tuner::values::{values_of, PieceTypes};

fn main() -> Result<(), String> {
    let game = AnyGame::built_in("excoco").map_err(|e| e.to_string())?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .map_err(|e| e.to_string())?;
    with_game!(&game, g => {
        let types = PieceTypes::of(&g.variant)?;
        let space = FeatureSpace::new(&types, colour_bound_types(g, &types));
        let truth = values_of(&EvalParams::for_variant(&g.variant).map_err(|e| e.to_string())?, &types);
        let men = men_available(&[Position::startpos(g.clone())], types.letters.len());
        let limits = DesignLimits { pawns_per_side: men[types.pawn] / 2, men };
        let theta = prior_theta(&space, &truth);
        for (pairs, resamples) in [(2000, 200), (8000, 200)] {
            let rows = synthetic_design(&types, &space, &limits, &theta, pairs, 0.5, 1);
            let started = Instant::now();
            let estimate = pool
                .install(|| design_estimate(&rows, &space, &types, None, resamples, 1))
                .map_err(|e| e.to_string())?;
            println!(
                "{} games ({pairs} pairs): fit and {resamples} bootstrap resamples {:.2} s on 2 threads ({} failed)",
                rows.len(),
                started.elapsed().as_secs_f64(),
                estimate.resamples.1
            );
        }
        Ok::<(), String>(())
    })
}
