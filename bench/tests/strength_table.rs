//! The strength tables of `bench/README.md` are the ones generated from
//! `bench/results/strength/*.json`, and the generator writes what a hand
//! reading of a record gives.

use std::path::Path;

use kurier_bench::strength::{load_results, render_table, update_readme, StrengthResult, Table};

fn crate_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn readme_tables_are_the_generated_ones() {
    let results = load_results(&crate_dir().join("results/strength")).unwrap();
    let readme = std::fs::read_to_string(crate_dir().join("README.md")).unwrap();
    let generated = update_readme(&readme, &results).unwrap();
    assert!(
        generated == readme,
        "bench/README.md's strength tables differ from bench/results/strength/*.json: \
         run `cargo run -p kurier-bench --bin strength-table -- --write`"
    );
}

#[test]
fn every_table_has_results() {
    let results = load_results(&crate_dir().join("results/strength")).unwrap();
    for table in Table::ALL {
        assert!(
            results.iter().any(|result| result.table == table),
            "no result for the table {}",
            table.name()
        );
    }
}

/// Test 16 of the log as a record, and its row written out by hand from
/// the log's figures.
const TEST_16: &str = r#"{
  "table": "log",
  "id": "16",
  "change": "late-move reductions half a ply deeper",
  "variant": "courier",
  "base": "5130180",
  "limit": {"nodes": 10000},
  "games": 1608,
  "pentanomial": [17, 130, 446, 184, 27],
  "elo": {"elo": 16.0, "low": 6.7, "high": 25.3},
  "sprt": {"elo0": 0.0, "elo1": 5.0, "llr": 2.95, "decision": "H1"},
  "status": "kept",
  "result": "kept"
}"#;

#[test]
fn a_log_row_is_written_as_read_by_hand() {
    let result: StrengthResult = serde_json::from_str(TEST_16).unwrap();
    result.check().unwrap();
    let table = render_table(Table::Log, &[result]);
    let row = table.lines().nth(2).unwrap();
    assert_eq!(
        row,
        "| 16 | late-move reductions half a ply deeper | courier | `5130180` | 10k nodes | 1,608 \
         | [17, 130, 446, 184, 27] | 2.95 (0, 5) H1 | +16.0 [+6.7, +25.3] | kept |"
    );
}

#[test]
fn a_clock_match_is_written_as_read_by_hand() {
    let record = r#"{
      "table": "engines", "id": "03", "opponent": "Fairy-Stockfish 011226 LB", "variant": "courier",
      "new": "74eae01", "change": "tests 1-5", "limit": {"clock": {"base_ms": 10000, "increment_ms": 100}},
      "games": 72, "games_scheduled": 100, "games_note": "stopped",
      "wins": 8, "draws": 14, "losses": 50, "score": 0.208, "elo_text": "about -232"
    }"#;
    let result: StrengthResult = serde_json::from_str(record).unwrap();
    result.check().unwrap();
    let table = render_table(Table::Engines, &[result]);
    assert_eq!(
        table.lines().nth(2).unwrap(),
        "| Fairy-Stockfish 011226 LB | `74eae01` (tests 1-5) | 10+0.1 | 72 of 100, stopped | 8/14/50 \
         | 20.8% | about -232 | - |"
    );
}

#[test]
fn counts_that_contradict_each_other_are_refused() {
    let mut result: StrengthResult = serde_json::from_str(TEST_16).unwrap();
    result.games = Some(1000);
    assert!(result.check().is_err(), "804 pairs in 1,000 games");
    let mut result: StrengthResult = serde_json::from_str(TEST_16).unwrap();
    (result.wins, result.draws, result.losses) = (Some(500), Some(600), Some(500));
    assert!(
        result.check().is_err(),
        "1,600 games of W/D/L against 1,608"
    );
    let mut result: StrengthResult = serde_json::from_str(TEST_16).unwrap();
    result.result = None;
    assert!(result.check().is_err(), "a log row without its result");
}

#[test]
fn a_readme_without_a_table_or_its_end_is_refused() {
    let results: Vec<StrengthResult> = vec![serde_json::from_str(TEST_16).unwrap()];
    let only_log = "<!-- strength-table: log -->\n<!-- strength-table end -->\n";
    assert!(update_readme(only_log, &results).is_err());
    let unterminated = "<!-- strength-table: log -->\n| old |\n";
    assert!(update_readme(unterminated, &results).is_err());
    let unknown = "<!-- strength-table: nonsense -->\n<!-- strength-table end -->\n";
    assert!(update_readme(unknown, &results).is_err());
}
