//! The default opening book of a built-in variant is
//! `data/openings/<variant>.epd` in the current folder: run from the
//! checkout, a match plays it; run from elsewhere, it plays random
//! openings and says so on standard error instead of silently playing a
//! different experiment.

use std::path::{Path, PathBuf};
use std::process::Output;

mod common;

use common::{scratch, tune_in};

/// A two-game match at courier, run from `folder`, into `out`.
fn match_from(folder: &Path, out: &Path) -> Output {
    let output = tune_in(
        folder,
        &[
            "match",
            "--variant",
            "courier",
            "--engine",
            "name=a",
            "--engine",
            "name=b",
            "--nodes",
            "50",
            "--pairs",
            "1",
            "--max-plies",
            "20",
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// The openings the match's journal recorded (its first line).
fn recorded_openings(out: &Path) -> String {
    let journal = std::fs::read_to_string(out.join("journal.jsonl")).unwrap();
    let header: serde_json::Value = serde_json::from_str(journal.lines().next().unwrap()).unwrap();
    header["settings"]["openings"].to_string()
}

#[test]
fn a_missing_default_book_is_noted_and_a_present_one_is_played() {
    let dir = scratch("default-book");
    let checkout = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");

    let from_checkout = dir.join("from-checkout");
    let output = match_from(&checkout, &from_checkout);
    assert!(
        !String::from_utf8_lossy(&output.stderr).contains("note:"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let openings = recorded_openings(&from_checkout);
    assert!(openings.contains("data/openings/courier.epd"), "{openings}");

    let from_elsewhere = dir.join("from-elsewhere");
    let output = match_from(&dir, &from_elsewhere);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("note: no data/openings/courier.epd in the current folder")
            && stderr.contains("random 8-ply openings"),
        "{stderr}"
    );
    let openings = recorded_openings(&from_elsewhere);
    assert!(openings.contains("random"), "{openings}");
}
