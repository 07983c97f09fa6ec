//! The search solves every composed tactic of `data/tactics/` (solutions
//! checked by brute force or by reasoning, see `tactics_suites.rs`) at a
//! fixed node count on one thread.

use std::path::PathBuf;

use kurier_engine::eval::evaluate::{EvalParams, Evaluator};
use kurier_engine::position::any_game::AnyGame;
use kurier_engine::position::state::Position;
use kurier_engine::search::alpha_beta::search;
use kurier_engine::search::history::SearchHistories;
use kurier_engine::search::interface::{Config, Control, Limits};
use kurier_engine::search::tt::TranspositionTable;
use kurier_engine::variant::definition::Variant;
use kurier_engine::with_game;
use kurier_tests::tactics::parse_tactics;

/// Nodes per position.
const NODES: u64 = 200_000;

#[test]
fn every_tactic_is_solved_at_fixed_nodes() {
    let mut failures = Vec::new();
    let mut solved = 0;
    for name in Variant::built_in_names() {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../data/tactics")
            .join(format!("{name}.epd"));
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let entries = parse_tactics(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let game = AnyGame::built_in(name).unwrap();
        with_game!(&game, g => {
            let evaluator = Evaluator::new(g, EvalParams::for_variant(&g.variant).unwrap());
            for entry in &entries {
                let position = Position::from_fen(g.clone(), &entry.fen).unwrap();
                let tt = TranspositionTable::new(16);
                let limits = Limits { nodes: Some(NODES), ..Limits::default() };
                let result = search(&position, &evaluator, &tt, &mut SearchHistories::new(), &limits, &Config::default(), &Control::new(false), &mut |_| {});
                let played = result.best.map(|m| position.uci(m)).unwrap_or_default();
                if entry.bm.contains(&played) {
                    solved += 1;
                } else {
                    failures.push(format!("{} ({}): played {played}, solution {:?}", entry.id, entry.fen, entry.bm));
                }
            }
        });
    }
    assert!(
        failures.is_empty(),
        "{solved} solved, {} not:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
