//! Scripted UCI sessions with the `kurier` binary over pipes. Every wait
//! is bounded; the engine process is killed when a test ends.

use std::time::{Duration, Instant};

mod common;

use common::{assert_legal, fen_after, Engine, WAIT};

impl Engine {
    /// `isready` answered with `readyok`: everything before is handled.
    fn sync(&mut self) {
        self.send("isready");
        self.expect("readyok");
    }

    /// The move of the next `bestmove` line.
    fn best_move(&mut self) -> String {
        self.best_move_within("'bestmove '", WAIT)
    }

    /// The move of the next `bestmove` line, which must come within `timeout`.
    fn best_move_within(&mut self, what: &str, timeout: Duration) -> String {
        let lines = self.read_until_within(what, timeout, |l| l.starts_with("bestmove "));
        let line = lines.last().cloned().unwrap_or_default();
        line.split_whitespace()
            .nth(1)
            .unwrap_or_else(|| self.fail("bestmove without a move"))
            .to_string()
    }
}

const VARIANTS: [(&str, u64); 5] = [
    ("chess", 400),
    ("courier", 678),
    ("courier-moderno", 1_156),
    ("enhanced-courier", 1_089),
    ("excoco", 9_946),
];

#[test]
fn identifies_itself_without_a_subcommand() {
    // No subcommand and a pipe for input: the first line decides.
    let mut engine = Engine::start(&[]);
    engine.send("uci");
    let lines = engine.read_until("uciok", |line| line == "uciok");
    assert!(
        lines.iter().any(|l| l.starts_with("id name Kurier")),
        "{lines:?}"
    );
    let variant_option = lines
        .iter()
        .find(|l| l.starts_with("option name UCI_Variant type combo"))
        .unwrap_or_else(|| panic!("no UCI_Variant option: {lines:?}"));
    for (name, _) in VARIANTS {
        assert!(
            variant_option.contains(&format!(" var {name}")),
            "{name} missing: {variant_option}"
        );
    }
    for option in ["Hash", "Threads", "VariantPath", "MultiPV"] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("option name {option} "))),
            "{option} missing"
        );
    }
    engine.sync();
    assert!(engine.quit().success());
}

#[test]
fn every_variant_searches_and_counts() {
    let mut engine = Engine::start(&["uci"]);
    engine.send("uci");
    engine.expect("uciok");
    for (variant, depth_two) in VARIANTS {
        engine.send(&format!("setoption name UCI_Variant value {variant}"));
        engine.send("ucinewgame");
        engine.send("position startpos");
        engine.send("go depth 3");
        let best = engine.best_move();
        assert_legal(variant, None, &[], &best);
        engine.send("go perft 2");
        let line = engine.expect("Nodes searched: ");
        assert_eq!(
            line,
            format!("Nodes searched: {depth_two}"),
            "{variant} perft 2"
        );
        engine.sync();
    }
    assert!(engine.quit().success());
}

#[test]
fn positions_with_castling_and_promotion() {
    let mut engine = Engine::start(&["uci"]);
    let cases: [(&str, &str, &[&str]); 2] = [
        (
            "chess",
            "r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1",
            &["e1c1", "e8g8", "b7a8q"],
        ),
        (
            "courier-moderno",
            "r5k4r/1P10/12/12/12/12/12/R4K5R w AFLagl - 0 1",
            &["f1c1", "g8j8", "b7b8f"],
        ),
    ];
    for (variant, fen, moves) in cases {
        engine.send(&format!("setoption name UCI_Variant value {variant}"));
        engine.send(&format!("position fen {fen} moves {}", moves.join(" ")));
        engine.send("d");
        let line = engine.expect("info string fen ");
        assert_eq!(
            line.trim_start_matches("info string fen "),
            fen_after(variant, Some(fen), moves),
            "{variant}"
        );
        engine.send("go depth 2");
        let best = engine.best_move();
        assert_legal(variant, Some(fen), moves, &best);
    }
    assert!(engine.quit().success());
}

#[test]
fn time_limits_infinite_and_ponder() {
    let mut engine = Engine::start(&["uci"]);
    engine.send("uci");
    engine.expect("uciok");
    engine.send("setoption name UCI_Variant value courier");
    engine.send("position startpos");
    engine.sync();

    let started = Instant::now();
    engine.send("go movetime 200");
    let best = engine.best_move();
    let took = started.elapsed();
    assert!(
        took < Duration::from_millis(1_200),
        "movetime 200 took {took:?}"
    );
    assert_legal("courier", None, &[], &best);

    engine.send("go infinite");
    engine.expect_none_for("bestmove", Duration::from_millis(300));
    engine.send("stop");
    let best = engine.best_move_within("bestmove after stop", Duration::from_secs(5));
    assert_legal("courier", None, &[], &best);

    engine.send("position startpos moves e2e3 e7e6");
    engine.send("go ponder wtime 3000 btime 3000");
    engine.expect_none_for("bestmove", Duration::from_millis(300));
    engine.send("ponderhit");
    let best = engine.best_move_within("bestmove after ponderhit", Duration::from_secs(5));
    assert_legal("courier", None, &["e2e3", "e7e6"], &best);
    assert!(engine.quit().success());
}

#[test]
fn bad_input_is_reported_and_the_engine_keeps_answering() {
    let mut engine = Engine::start(&["uci"]);
    engine.send("uci");
    engine.expect("uciok");
    for bad in [
        "hello world",
        "go sideways",
        "go depth many",
        "position",
        "position startpos moves e2e4 e7e4",
        "position fen not/a/fen w - - 0 1",
        "setoption name Hash value lots",
        "setoption name Hash value 0",
        "setoption name Threads value 1000",
        "setoption name UCI_Variant value shogi",
        "setoption name NoSuchOption value 1",
        "setoption",
        "go searchmoves z9z9",
    ] {
        engine.send(bad);
        let line = engine.expect("info string");
        assert!(line.contains("error"), "'{bad}': {line}");
        engine.sync();
    }
    // The position after the last legal move of the bad list: e2e4.
    engine.send("position startpos moves e2e4 e7e4");
    engine.expect("info string");
    engine.send("d");
    let line = engine.expect("info string fen ");
    assert_eq!(
        line.trim_start_matches("info string fen "),
        fen_after("chess", None, &["e2e4"])
    );
    engine.send("go depth 2");
    let best = engine.best_move();
    assert_legal("chess", None, &["e2e4"], &best);
    engine.send("");
    engine.send("   ");
    engine.sync();
    assert!(engine.quit().success());
}
