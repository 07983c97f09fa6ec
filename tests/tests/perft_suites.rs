//! Runs the perft suites in `data/perft/<variant>.epd` (see the README
//! there for where each number comes from). Entries of up to
//! [`FAST_LIMIT`] nodes run in the normal test run; the ignored test runs
//! every entry (`cargo test -p kurier-tests --release --test perft_suites
//! -- --ignored`).

use std::path::PathBuf;

use kurier_engine::position::any_game::AnyGame;
use kurier_engine::position::perft::perft;
use kurier_engine::position::state::Position;
use kurier_engine::variant::definition::Variant;
use kurier_engine::with_game;
use kurier_tests::epd::parse_epd;

/// The largest count checked in the normal (CI) run.
const FAST_LIMIT: u64 = 20_000_000;

fn suite_path(variant: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../data/perft")
        .join(format!("{variant}.epd"))
}

/// Checks every entry with at most `limit` nodes; returns how many depths ran.
fn run_suite(variant: &str, limit: u64) -> usize {
    let path = suite_path(variant);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let entries = parse_epd(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let game = AnyGame::built_in(variant).unwrap();
    let mut checked = 0;
    for entry in entries {
        with_game!(&game, g => {
            let mut position = Position::from_fen(g.clone(), &entry.fen)
                .unwrap_or_else(|e| panic!("{}:{}: {e}", path.display(), entry.line));
            for &(depth, expected) in entry.counts.iter().filter(|(_, nodes)| *nodes <= limit) {
                assert_eq!(
                    perft(&mut position, depth),
                    expected,
                    "{}:{} depth {depth}: {}",
                    path.display(),
                    entry.line,
                    entry.fen
                );
                checked += 1;
            }
        });
    }
    checked
}

#[test]
fn chess() {
    assert!(run_suite("chess", FAST_LIMIT) >= 30);
}

#[test]
fn courier() {
    assert!(run_suite("courier", FAST_LIMIT) >= 20);
}

#[test]
fn courier_moderno() {
    assert!(run_suite("courier-moderno", FAST_LIMIT) >= 40);
}

#[test]
fn enhanced_courier() {
    assert!(run_suite("enhanced-courier", FAST_LIMIT) >= 40);
}

#[test]
fn excoco() {
    assert!(run_suite("excoco", FAST_LIMIT) >= 40);
}

#[test]
fn every_variant_has_a_suite() {
    for name in Variant::built_in_names() {
        assert!(suite_path(name).exists(), "no perft suite for {name}");
    }
}

#[test]
#[ignore = "deep perft: minutes; run with --release --ignored"]
fn deep_perft_every_entry() {
    for name in Variant::built_in_names() {
        run_suite(name, u64::MAX);
    }
}
