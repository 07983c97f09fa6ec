//! Times the piece-value fit and its bootstrap on synthetic ExCoCo data
//! of the size of a full round (4,000 games, 8 positions each), on two
//! threads: `cargo bench -p kurier-tuner --bench values_fit`.

use std::time::Instant;

use kurier_engine::eval::EvalParams;
use kurier_engine::variant::Variant;
use kurier_tuner::values::bootstrap::bootstrap_material;
use kurier_tuner::values::fit::{fit_material, material_design, MaterialOptions};
use kurier_tuner::values::synthetic::synthetic_material;
use kurier_tuner::values::{values_of, PieceTypes};

fn main() -> Result<(), String> {
    let variant = Variant::built_in("excoco").map_err(|e| e.to_string())?;
    let types = PieceTypes::of(&variant)?;
    let truth = values_of(
        &EvalParams::for_variant(&variant).map_err(|e| e.to_string())?,
        &types,
    );
    let options = MaterialOptions {
        l2: 0.0,
        prior: truth.clone(),
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .map_err(|e| e.to_string())?;
    for (games, resamples) in [(4000, 200), (8000, 200)] {
        let dataset = synthetic_material("excoco", &types, &truth, 0.35, games, 8, 1);
        let started = Instant::now();
        let design = material_design(&dataset, &types);
        let fit = fit_material(&design, &types, &options, None, None).map_err(|e| e.to_string())?;
        let fit_seconds = started.elapsed().as_secs_f64();
        let started = Instant::now();
        let intervals =
            pool.install(|| bootstrap_material(&design, &types, &options, &fit, resamples, 1));
        println!(
            "{} positions ({games} games): fit {:.3} s; {} bootstrap resamples {:.2} s on 2 threads ({} failed)",
            dataset.records.len(),
            fit_seconds,
            resamples,
            started.elapsed().as_secs_f64(),
            intervals.failed
        );
    }
    Ok(())
}
