//! What the tests of `values` runs played in process share: a small chess
//! run's settings, which each test changes where it needs to, and a fresh
//! folder per test.

use std::path::PathBuf;

use kurier_tuner::values::generate::GameEnding;
use kurier_tuner::values::run::settings::{DesignOpenings, RunSettings};

/// One batch of 30 pairs of chess at 60 nodes from random openings,
/// games drawn at ply 80, no observational games, no files.
pub fn chess_settings() -> RunSettings {
    RunSettings {
        variant: "chess".to_string(),
        variant_file: None,
        engine_values: None,
        design_values: None,
        quick: false,
        budgets: vec![60],
        batches: 1,
        pairs_per_batch: 30,
        openings: DesignOpenings::Random { plies: 6 },
        ending: GameEnding {
            max_plies: 80,
            resign: None,
        },
        observational_games: 0,
        per_game: 4,
        skip_plies: 4,
        opening_plies: 6,
        bootstrap: 20,
        pair_terms: vec![],
        texel: false,
        texel_l2: 0.001,
        seed: 1,
        shard: None,
        until_verdicts: None,
    }
}

/// A fresh folder for one test, named after the test binary and `name`.
pub fn scratch(name: &str) -> PathBuf {
    let folder = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("{}-{name}", env!("CARGO_CRATE_NAME")));
    // Left over from an earlier run, if at all.
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).expect("the temporary folder is writable");
    folder
}
