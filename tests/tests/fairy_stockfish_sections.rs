//! Kurier's reading of Fairy-Stockfish's `variants.ini` against
//! Fairy-Stockfish itself: every section of
//! `data/variants/fairy-stockfish/variants.ini` (the sections of its
//! `src/variants.ini` that Kurier accepts) has perft counts from
//! Fairy-Stockfish's own `go perft` in `perft.txt` beside it. Counts of up
//! to [`FAST_LIMIT`] nodes run in the normal test run, all of them with
//! `cargo test -p kurier-tests --release --test fairy_stockfish_sections
//! -- --ignored`.

use std::path::PathBuf;

use kurier_engine::import;
use kurier_engine::position::any_game::AnyGame;
use kurier_engine::position::perft::perft;
use kurier_engine::position::state::Position;
use kurier_engine::with_game;
use kurier_tests::epd::parse_epd;

/// The largest count checked in the normal (CI) run.
const FAST_LIMIT: u64 = 2_000_000;

fn folder() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../data/variants/fairy-stockfish")
}

/// Checks every count of at most `limit` nodes; returns how many ran.
fn check(limit: u64) -> usize {
    let ini = folder().join("variants.ini");
    let text = std::fs::read_to_string(folder().join("perft.txt")).unwrap();
    let entries = parse_epd(&text).unwrap();
    let mut checked = 0;
    for entry in &entries {
        let section = entry.fen.as_str();
        let imported = import::read_file(&ini, Some(section))
            .unwrap_or_else(|e| panic!("section [{section}]: {e}"));
        let game = AnyGame::new(imported.variant).unwrap();
        with_game!(&game, g => {
            let mut position = Position::startpos(g.clone());
            for &(depth, expected) in entry.counts.iter().filter(|(_, n)| *n <= limit) {
                assert_eq!(perft(&mut position, depth), expected, "[{section}] depth {depth}");
                checked += 1;
            }
        });
    }
    checked
}

#[test]
fn every_accepted_section_has_fairy_stockfish_counts() {
    let ini = folder().join("variants.ini");
    let text = std::fs::read_to_string(&ini).unwrap();
    let sections: Vec<String> = import::variant_names(&ini, &text)
        .unwrap()
        .into_iter()
        .flatten()
        .collect();
    let counted = std::fs::read_to_string(folder().join("perft.txt")).unwrap();
    let counted: Vec<String> = parse_epd(&counted)
        .unwrap()
        .into_iter()
        .map(|entry| entry.fen)
        .collect();
    assert_eq!(sections, counted);
    assert_eq!(sections.len(), 13);
}

#[test]
fn perft_agrees_with_fairy_stockfish() {
    // Depths 1 to 4 of every section (5 where cheap).
    assert!(check(FAST_LIMIT) >= 13 * 4);
}

#[test]
#[ignore = "deep: about 180 million nodes"]
fn deep_perft_agrees_with_fairy_stockfish() {
    assert_eq!(check(u64::MAX), 13 * 5);
}
