//! The pipe harness shared by the protocol session tests: start the
//! `kurier` binary, send lines, read replies with bounded waits, and
//! check moves against the library.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use kurier_engine::position::any_game::AnyGame;
use kurier_engine::position::state::Position;
use kurier_engine::with_game;

/// The longest any single reply may take.
pub const WAIT: Duration = Duration::from_secs(20);

/// A running engine with a line reader on its output.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    transcript: Vec<String>,
}

impl Engine {
    pub fn start(args: &[&str]) -> Engine {
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

    /// How many lines went either way so far (a fresh number per call
    /// when a line is sent in between). Only the XBoard tests use it;
    /// each test binary compiles this module on its own.
    #[allow(dead_code)]
    pub fn lines_so_far(&self) -> usize {
        self.transcript.len()
    }

    pub fn fail(&self, message: &str) -> ! {
        panic!(
            "{message}\n--- transcript ---\n{}",
            self.transcript.join("\n")
        )
    }

    pub fn send(&mut self, line: &str) {
        self.transcript.push(format!("> {line}"));
        let Some(stdin) = self.stdin.as_mut() else {
            self.fail("input already closed")
        };
        if let Err(error) = writeln!(stdin, "{line}").and_then(|()| stdin.flush()) {
            self.fail(&format!("cannot send '{line}': {error}"));
        }
    }

    /// Reads lines up to and including the first for which `done` holds.
    pub fn read_until_within(
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

    pub fn read_until(&mut self, what: &str, done: impl Fn(&str) -> bool) -> Vec<String> {
        self.read_until_within(what, WAIT, done)
    }

    /// The first line starting with `prefix`.
    pub fn expect(&mut self, prefix: &str) -> String {
        let lines = self.read_until(&format!("'{prefix}'"), |line| line.starts_with(prefix));
        lines.last().cloned().unwrap_or_default()
    }

    /// Fails if a line starting with `prefix` comes within `duration`;
    /// returns the lines that came.
    pub fn expect_none_for(&mut self, prefix: &str, duration: Duration) -> Vec<String> {
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

    /// Sends `quit` and returns the exit status.
    pub fn quit(mut self) -> ExitStatus {
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
pub fn fen_after(variant: &str, fen: Option<&str>, moves: &[&str]) -> String {
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
pub fn assert_legal(variant: &str, fen: Option<&str>, moves: &[&str], played: &str) {
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
