//! `kurier-tune texel` end to end: a fit to the games of a small match
//! lowers their loss, writes a parameter file the engine loads, keeps
//! every pawn below what it promotes to, and bad input is named.

use std::path::Path;

use kurier_engine::eval::{EvalParams, Pair};
use kurier_engine::variant::Variant;

mod common;

use common::{refused, scratch, succeed};

fn small_match(variant: &str, out: &str) {
    succeed(&[
        "match",
        "--variant",
        variant,
        "--engine",
        "name=full",
        "--engine",
        "name=material,eval=material-only",
        "--nodes",
        "200",
        "--pairs",
        "4",
        "--random-openings",
        "--max-plies",
        "200",
        "--out",
        out,
    ]);
}

/// The two mean losses of the summary line `... mean loss A -> B; ...`.
fn losses(summary: &str) -> (f64, f64) {
    let tail = summary
        .split("mean loss ")
        .nth(1)
        .expect("a loss in the summary");
    let mut numbers = tail
        .split(|c: char| c == ';' || c.is_whitespace() || c == '-' || c == '>')
        .filter(|s| !s.is_empty())
        .map(|s| s.parse::<f64>().expect("a number"));
    (numbers.next().unwrap(), numbers.next().unwrap())
}

/// `texel --variant courier JOURNAL --out OUT`.
fn texel_courier<'a>(journal: &'a Path, out: &'a Path) -> [&'a str; 6] {
    let path = |p: &'a Path| p.to_str().expect("a UTF-8 path");
    [
        "texel",
        "--variant",
        "courier",
        path(journal),
        "--out",
        path(out),
    ]
}

#[test]
fn a_fit_to_a_match_lowers_its_loss_and_keeps_pawns_below_their_promotion() {
    let dir = scratch("fit");
    let run = dir.join("run");
    small_match("courier", run.to_str().unwrap());
    let out = dir.join("courier.toml");
    let summary = succeed(&texel_courier(&run, &out));
    let (before, after) = losses(&summary);
    // The L2 pull only adds to the loss, and the starting weights are a
    // candidate of the penalised fit: the plain loss cannot rise.
    assert!(after <= before, "{summary}");
    assert!(after < before, "the fit moved nothing: {summary}");

    let variant = Variant::built_in("courier").unwrap();
    let text = std::fs::read_to_string(&out).unwrap();
    let fitted = EvalParams::from_toml(&variant, &text, "courier.toml").expect("it loads");
    let defaults = EvalParams::for_variant(&variant).unwrap();
    assert_ne!(fitted.weights, defaults.weights);
    // Read back through the file's own keys: pawn, ferz (courier's only
    // promotion), and every rank's advance and passed bonus.
    let table: toml::Value = toml::from_str(&text).unwrap();
    let pair = |value: &toml::Value| {
        let items = value.as_array().unwrap();
        Pair(
            items[0].as_integer().unwrap() as i32,
            items[1].as_integer().unwrap() as i32,
        )
    };
    let pawn = pair(&table["material"]["P"]);
    let ferz = pair(&table["material"]["F"]);
    let ranks = table["pawn_rank"].as_array().unwrap();
    let passed = table["passed_pawn"].as_array().unwrap();
    assert_eq!(ranks.len(), 8);
    for (advance, bonus) in ranks.iter().zip(passed) {
        let (advance, bonus) = (pair(advance), pair(bonus));
        assert!(pawn.0 + advance.0 + bonus.0 < ferz.0, "{text}");
        assert!(pawn.1 + advance.1 + bonus.1 < ferz.1, "{text}");
    }
}

#[test]
fn journals_without_the_variant_and_missing_files_are_named() {
    let dir = scratch("errors");
    let run = dir.join("chess-run");
    small_match("chess", run.to_str().unwrap());
    let out = dir.join("out.toml");
    let error = refused(&texel_courier(&run, &out));
    assert!(error.contains("no game of courier in"), "{error}");
    assert!(!out.exists());

    let missing = dir.join("nowhere").join("journal.jsonl");
    let error = refused(&texel_courier(&missing, &out));
    assert!(error.contains("nowhere"), "{error}");
}
