//! Scripted UCI sessions with the `kurier` binary over pipes. Every wait
//! is bounded; the engine process is killed when a test ends.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use kurier_engine::game::AnyGame;
use kurier_engine::position::Position;
use kurier_engine::with_game;

/// The longest any single reply may take.
const WAIT: Duration = Duration::from_secs(20);

/// A running engine with a line reader on its output.
struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    transcript: Vec<String>,
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kurier"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the kurier binary starts");
        let stdout = child.stdout.take().expect("stdout is piped");
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            stdin: child.stdin.take(),
            child,
            lines,
            transcript: Vec::new(),
        }
    }

    fn fail(&self, message: &str) -> ! {
        panic!(
            "{message}\n--- transcript ---\n{}",
            self.transcript.join("\n")
        )
    }

    fn send(&mut self, line: &str) {
        self.transcript.push(format!("> {line}"));
        let Some(stdin) = self.stdin.as_mut() else {
            self.fail("input already closed")
        };
        if let Err(error) = writeln!(stdin, "{line}").and_then(|()| stdin.flush()) {
            self.fail(&format!("cannot send '{line}': {error}"));
        }
    }

    /// Reads lines up to and including the first for which `done` holds.
    fn read_until_within(
        &mut self,
        what: &str,
        timeout: Duration,
        done: impl Fn(&str) -> bool,
    ) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.transcript.push(format!("< {line}"));
                    let hit = done(&line);
                    seen.push(line);
                    if hit {
                        return seen;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    self.fail(&format!("no {what} within {timeout:?}"))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    self.fail(&format!("the output ended before {what}"))
                }
            }
        }
    }

    fn read_until(&mut self, what: &str, done: impl Fn(&str) -> bool) -> Vec<String> {
        self.read_until_within(what, WAIT, done)
    }

    /// The first line starting with `prefix`.
    fn expect(&mut self, prefix: &str) -> String {
        let lines = self.read_until(&format!("'{prefix}'"), |line| line.starts_with(prefix));
        lines.last().cloned().unwrap_or_default()
    }

    /// Fails if a line starting with `prefix` comes within `duration`;
    /// returns the lines that came.
    fn expect_none_for(&mut self, prefix: &str, duration: Duration) -> Vec<String> {
        let deadline = Instant::now() + duration;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.transcript.push(format!("< {line}"));
                    if line.starts_with(prefix) {
                        self.fail(&format!("'{prefix}' came too early"));
                    }
                    seen.push(line);
                }
                Err(RecvTimeoutError::Timeout) => return seen,
                Err(RecvTimeoutError::Disconnected) => self.fail("the output ended"),
            }
        }
    }

    /// `isready` answered with `readyok`: everything before is handled.
    fn sync(&mut self) {
        self.send("isready");
        self.expect("readyok");
    }

    /// The move of the next `bestmove` line.
    fn best_move(&mut self) -> String {
        let line = self.expect("bestmove ");
        line.split_whitespace()
            .nth(1)
            .unwrap_or_else(|| self.fail("bestmove without a move"))
            .to_string()
    }

    /// Sends `quit` and returns the exit status.
    fn quit(mut self) -> ExitStatus {
        self.send("quit");
        drop(self.stdin.take());
        let deadline = Instant::now() + WAIT;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return status,
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(10))
                }
                Ok(None) => self.fail("the engine did not exit after quit"),
                Err(error) => self.fail(&format!("waiting for the engine: {error}")),
            }
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The FEN after `moves` from `fen` (or the start), checked by the library.
fn fen_after(variant: &str, fen: Option<&str>, moves: &[&str]) -> String {
    let game = AnyGame::built_in(variant).unwrap();
    with_game!(&game, g => {
        let mut position = match fen {
            Some(fen) => Position::from_fen(g.clone(), fen).unwrap(),
            None => Position::startpos(g.clone()),
        };
        for text in moves {
            let legal = position.parse_uci(text).unwrap_or_else(|e| panic!("{variant}: {e}"));
            position.make_move(legal);
        }
        position.fen()
    })
}

/// Whether `played` is legal after `moves` from `fen` (or the start).
fn assert_legal(variant: &str, fen: Option<&str>, moves: &[&str], played: &str) {
    let game = AnyGame::built_in(variant).unwrap();
    let after = fen_after(variant, fen, moves);
    with_game!(&game, g => {
        let position = Position::from_fen(g.clone(), &after).unwrap();
        assert!(
            position.parse_uci(played).is_ok(),
            "{variant}: '{played}' is not legal in {after}"
        );
    });
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
    let best = engine.read_until_within("bestmove after stop", Duration::from_secs(5), |l| {
        l.starts_with("bestmove ")
    });
    let best = best
        .last()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .to_string();
    assert_legal("courier", None, &[], &best);

    engine.send("position startpos moves e2e3 e7e6");
    engine.send("go ponder wtime 3000 btime 3000");
    engine.expect_none_for("bestmove", Duration::from_millis(300));
    engine.send("ponderhit");
    let best = engine.read_until_within("bestmove after ponderhit", Duration::from_secs(5), |l| {
        l.starts_with("bestmove ")
    });
    let best = best
        .last()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .to_string();
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
