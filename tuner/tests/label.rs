//! `kurier-tune label` end to end, with `kurier-fake-engine` as the
//! labelling engine: its score of a position is the number of legal
//! moves there, which the test counts itself with the engine crate's
//! move generator, so every line of the file can be checked.

use std::collections::HashMap;
use std::path::Path;

use kurier_engine::position::any_game::AnyGame;
use kurier_engine::position::state::Position;
use kurier_engine::variant::definition::Variant;
use kurier_engine::with_game;
use kurier_tuner::texel::scored_positions::{parse_scored, result_text, ScoredPosition};
use kurier_tuner::tournament::journal::read_journal;

mod common;

use common::{refused, scratch, succeed};

const FAKE: &str = env!("CARGO_BIN_EXE_kurier-fake-engine");

/// A short courier match, its folder.
fn small_match(dir: &Path) -> String {
    let run = dir.join("run");
    let run = run.to_str().expect("a UTF-8 path").to_string();
    succeed(&[
        "match",
        "--variant",
        "courier",
        "--engine",
        "name=a",
        "--engine",
        "name=b,eval=material-only",
        "--nodes",
        "200",
        "--pairs",
        "3",
        "--random-openings",
        "--max-plies",
        "120",
        "--out",
        &run,
    ]);
    run
}

/// `label` of `run` by the fake engine (`mode`) into `out`, and extra arguments.
fn label(run: &str, out: &Path, mode: &str, extra: &[&str]) -> Vec<String> {
    let engine = format!("name=fake,cmd={FAKE},arg=--mode,arg={mode}");
    let mut args: Vec<String> = [
        "label",
        "--variant",
        "courier",
        run,
        "--engine",
        &engine,
        "--per-game",
        "6",
        "--concurrency",
        "2",
        "--out",
        out.to_str().expect("a UTF-8 path"),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    args.extend(extra.iter().map(|s| s.to_string()));
    if !extra.contains(&"--nodes") {
        args.extend(["--depth".to_string(), "3".to_string()]);
    }
    args
}

/// Every position of every game of the journal, with its game's result.
fn positions_of_games(run: &str) -> HashMap<String, String> {
    let journal = read_journal(&Path::new(run).join("journal.jsonl")).unwrap();
    let game = AnyGame::new(Variant::built_in("courier").unwrap()).unwrap();
    let mut all = HashMap::new();
    for entry in &journal.games {
        with_game!(&game, g => {
            let mut position = Position::from_fen(g.clone(), &entry.fen).unwrap();
            for text in &entry.moves {
                let played = position.parse_uci(text).unwrap();
                position.make_move(played);
                all.insert(position.fen(), entry.result.clone());
            }
        });
    }
    all
}

/// The number of legal moves in `fen` (the fake engine's score).
fn legal_moves(fen: &str) -> i32 {
    let game = AnyGame::new(Variant::built_in("courier").unwrap()).unwrap();
    with_game!(&game, g => Position::from_fen(g.clone(), fen).unwrap().legal_moves().len() as i32)
}

/// Checks every line of `scored` against the games of `run`.
fn check_lines(scored: &[ScoredPosition], run: &str) {
    let games = positions_of_games(run);
    for line in scored {
        let result = games
            .get(&line.fen)
            .unwrap_or_else(|| panic!("{} is in no game", line.fen));
        assert_eq!(result_text(line.result), result, "{}", line.fen);
        assert_eq!(line.score, legal_moves(&line.fen), "{}", line.fen);
    }
}

fn read_scored(out: &Path) -> Vec<ScoredPosition> {
    parse_scored(&std::fs::read_to_string(out).unwrap(), "out").unwrap()
}

#[test]
fn every_line_is_the_engines_score_of_a_position_of_the_games() {
    let dir = scratch("scores");
    let run = small_match(&dir);
    let out = dir.join("scored.txt");
    let args = label(&run, &out, "ok", &[]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let summary = succeed(&args);
    let scored = read_scored(&out);
    assert!(
        scored.len() >= 12 && scored.len() <= 36,
        "{} lines",
        scored.len()
    );
    assert!(
        summary.contains(&format!("{} positions of 6 games", scored.len())),
        "{summary}"
    );
    check_lines(&scored, &run);

    // An engine that crashes is started again and the position asked once more.
    let crashed = dir.join("crashed.txt");
    let args = label(&run, &crashed, "crash-after=4", &[]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    succeed(&args);
    let mut again = read_scored(&crashed);
    let mut first = scored;
    again.sort_by(|a, b| a.fen.cmp(&b.fen));
    first.sort_by(|a, b| a.fen.cmp(&b.fen));
    assert_eq!(again, first);
}

#[test]
fn a_resumed_run_keeps_its_lines_drops_a_torn_one_and_scores_the_rest() {
    let dir = scratch("resume");
    let run = small_match(&dir);
    let full = dir.join("full.txt");
    let args = label(&run, &full, "ok", &[]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    succeed(&args);
    let all = read_scored(&full);

    // A run killed after three lines, in the middle of its fourth.
    let text = std::fs::read_to_string(&full).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let out = dir.join("killed.txt");
    let torn = &lines[3][..lines[3].len() / 2];
    std::fs::write(&out, format!("{}\n{torn}", lines[..3].join("\n"))).unwrap();

    let args = label(&run, &out, "ok", &[]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let error = refused(&args);
    assert!(error.contains("exists already; --resume"), "{error}");

    let args = label(&run, &out, "ok", &["--resume"]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let summary = succeed(&args);
    assert!(summary.contains("3 of them before this run"), "{summary}");
    let mut resumed = read_scored(&out);
    assert_eq!(resumed.len(), all.len());
    let kept: Vec<String> = lines[..3].iter().map(|l| l.to_string()).collect();
    let text = std::fs::read_to_string(&out).unwrap();
    assert_eq!(text.lines().take(3).collect::<Vec<_>>(), kept);
    let mut all = all;
    resumed.sort_by(|a, b| a.fen.cmp(&b.fen));
    all.sort_by(|a, b| a.fen.cmp(&b.fen));
    assert_eq!(resumed, all);
}

#[test]
fn bad_input_is_named() {
    let dir = scratch("errors");
    let run = small_match(&dir);
    let out = dir.join("x.txt");
    let args = label(&run, &out, "ok", &["--nodes", "0"]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let error = refused(&args);
    assert!(error.contains("--nodes must be at least 1"), "{error}");

    let mut args = label(&run, &out, "ok", &[]);
    let at = args
        .iter()
        .position(|a| a.starts_with("name=fake"))
        .unwrap();
    args[at] = "name=none,cmd=/nowhere/engine".to_string();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let error = refused(&args);
    assert!(error.contains("/nowhere/engine"), "{error}");

    let args = label(&run, &out, "no-variant", &[]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let error = refused(&args);
    assert!(error.contains("does not play courier"), "{error}");
    assert!(
        !out.exists(),
        "nothing is written before the engine is known to start"
    );
}
