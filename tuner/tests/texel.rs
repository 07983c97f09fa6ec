//! `kurier-tune texel` end to end: a fit to the games of a small match
//! lowers their loss, writes a parameter file the engine loads, keeps
//! every pawn below what it promotes to, and bad input is named.

use std::path::Path;

use kurier_engine::eval::evaluate::{EvalParams, Pair};
use kurier_engine::variant::definition::Variant;

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

/// Writes the positions of `run`'s games after ply 16 as scored positions
/// whose score is `score(evaluation)` of the variant's default weights
/// (the side to move's view).
fn scored_by_the_evaluation(run: &Path, out: &Path, score: impl Fn(i32) -> i32) -> usize {
    use kurier_engine::eval::evaluate::Evaluator;
    use kurier_engine::position::any_game::AnyGame;
    use kurier_engine::position::state::Position;
    use kurier_engine::with_game;
    use kurier_tuner::texel::scored_positions::{parse_result, ScoredPosition};
    use kurier_tuner::tournament::journal::read_journal;

    let variant = Variant::built_in("courier").unwrap();
    let params = EvalParams::for_variant(&variant).unwrap();
    let journal = read_journal(&run.join("journal.jsonl")).unwrap();
    let game = AnyGame::new(variant).unwrap();
    let mut lines = Vec::new();
    with_game!(&game, g => {
        let evaluator = Evaluator::new(g, params.clone());
        for entry in &journal.games {
            let mut position = Position::from_fen(g.clone(), &entry.fen).unwrap();
            for (ply, text) in entry.moves.iter().enumerate() {
                let played = position.parse_uci(text).unwrap();
                position.make_move(played);
                if ply >= 16 && position.outcome().is_none() {
                    let line = ScoredPosition {
                        fen: position.fen(),
                        score: score(evaluator.evaluate(&position)),
                        result: parse_result(&entry.result).unwrap(),
                    };
                    lines.push(line.to_string());
                }
            }
        }
    });
    std::fs::write(out, lines.join("\n") + "\n").unwrap();
    lines.len()
}

/// `texel --variant courier --scored SCORED --out OUT` and `extra`.
fn texel_scored_args<'a>(scored: &'a Path, out: &'a Path, extra: &[&'a str]) -> Vec<&'a str> {
    let path = |p: &'a Path| p.to_str().expect("a UTF-8 path");
    let mut args = vec!["texel", "--variant", "courier", "--scored", path(scored)];
    args.extend_from_slice(extra);
    args.extend(["--out", path(out)]);
    args
}

/// Runs `texel --variant courier --scored SCORED --out OUT`, its summary.
fn texel_scored(scored: &Path, out: &Path) -> String {
    succeed(&texel_scored_args(scored, out, &[]))
}

#[test]
fn scores_that_are_the_evaluation_give_back_its_weights() {
    let dir = scratch("scored-self");
    let run = dir.join("run");
    small_match("courier", run.to_str().unwrap());
    let scored = dir.join("scored.txt");
    let count = scored_by_the_evaluation(&run, &scored, |eval| eval);
    assert!(count > 100, "{count} positions");
    let out = dir.join("courier.toml");
    let summary = texel_scored(&scored, &out);
    // The scores' scale is the evaluation's own, so every target is what
    // the starting weights predict and they are the fit's optimum.
    let variant = Variant::built_in("courier").unwrap();
    let text = std::fs::read_to_string(&out).unwrap();
    let fitted = EvalParams::from_toml(&variant, &text, "courier.toml").unwrap();
    let defaults = EvalParams::for_variant(&variant).unwrap();
    for (index, (a, b)) in fitted.weights.iter().zip(&defaults.weights).enumerate() {
        assert!(
            (a.0 - b.0).abs() <= 1 && (a.1 - b.1).abs() <= 1,
            "weight {index}: {a:?} fitted, {b:?} given\n{summary}"
        );
    }
    let (before, after) = losses(&summary);
    assert!((before - after).abs() < 1e-3, "{summary}");
    // And the targets are what the weights predict: no loss beyond their entropy.
    let entropy: f64 = summary
        .split("own entropy ")
        .nth(1)
        .and_then(|tail| tail.split(')').next())
        .and_then(|number| number.parse().ok())
        .expect("the targets' entropy in the summary");
    assert!((after - entropy).abs() < 1e-3, "{summary}");
}

#[test]
fn scores_that_disagree_with_the_evaluation_move_the_weights_toward_them() {
    let dir = scratch("scored-flat");
    let run = dir.join("run");
    small_match("courier", run.to_str().unwrap());
    let scored = dir.join("scored.txt");
    // A labeller that sees half of every advantage beyond 100 cp.
    scored_by_the_evaluation(&run, &scored, |eval| {
        eval.signum() * (eval.abs().min(100) + (eval.abs() - 100).max(0) / 2)
    });
    let out = dir.join("courier.toml");
    let summary = texel_scored(&scored, &out);
    let (before, after) = losses(&summary);
    assert!(after < before, "{summary}");
    assert!(summary.contains("the scores' "), "{summary}");

    let error = refused(&texel_scored_args(
        &scored,
        &out,
        &["--result-weight", "1.5"],
    ));
    assert!(error.contains("--result-weight 1.5"), "{error}");
    std::fs::write(&scored, "8/8/8/8 w - - 0 1; score 1; result 1-0\n").unwrap();
    let error = refused(&texel_scored_args(&scored, &out, &[]));
    assert!(error.contains("scored position 1"), "{error}");
}
