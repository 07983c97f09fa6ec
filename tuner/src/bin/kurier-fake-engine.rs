//! `kurier-fake-engine`: a minimal UCI engine for testing tournament
//! code against external engines, including ones that misbehave.
//!
//! It plays the first legal move (in the engine crate's generation order)
//! of the position it was given, at once. Usage:
//!
//! ```text
//! kurier-fake-engine [--mode MODE]
//! ```
//!
//! Modes (`N` counts the `go` commands answered normally before):
//! - `ok` (default): always answers.
//! - `crash-after=N`: at the next `go` it writes `fake engine: crashing
//!   as asked` to stderr and exits with status 3.
//! - `hang-after=N`: from the next `go` on it answers nothing, not even
//!   `quit` or `isready`; it exits only when its input closes.
//! - `illegal-after=N`: from the next `go` on it answers `bestmove a1a1`
//!   (never legal: a move from a square to itself).
//! - `no-variant`: its `UCI_Variant` option lists only `xiangqi`.
//!
//! Protocol: `uci` lists `UCI_Variant` (a combo of the built-in variants)
//! and a `Hash` spin option; `setoption name UCI_Variant value V` picks a
//! built-in variant, other options are accepted and ignored; `isready`,
//! `ucinewgame`, `position (startpos | fen FEN) [moves ...]`, `go ...`
//! (any limits, ignored), `stop` and `quit`. For each `go` it sends two
//! `info` lines, then the move:
//!
//! ```text
//! info depth 1 score cp -1 nodes 1
//! info depth 2 score cp <number of legal moves> nodes 2 pv <move>
//! bestmove <move>            (bestmove (none) when there is no legal move)
//! ```
//!
//! Input it cannot use gets `info string error: ...` and is otherwise
//! ignored.

use std::io::{self, BufRead, Write};
use std::process::ExitCode;

use kurier_engine::position::any_game::AnyGame;
use kurier_engine::position::state::Position;
use kurier_engine::variant::definition::Variant;
use kurier_engine::with_game;

/// How the engine misbehaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Ok,
    CrashAfter(usize),
    HangAfter(usize),
    IllegalAfter(usize),
    NoVariant,
}

impl Mode {
    /// Reads the `--mode` value.
    fn parse(text: &str) -> Result<Mode, String> {
        let count = |value: &str| {
            value
                .parse::<usize>()
                .map_err(|_| format!("'{value}' in mode '{text}' is not a count of moves"))
        };
        match text.split_once('=') {
            None if text == "ok" => Ok(Mode::Ok),
            None if text == "no-variant" => Ok(Mode::NoVariant),
            Some(("crash-after", n)) => count(n).map(Mode::CrashAfter),
            Some(("hang-after", n)) => count(n).map(Mode::HangAfter),
            Some(("illegal-after", n)) => count(n).map(Mode::IllegalAfter),
            _ => Err(format!(
                "unknown mode '{text}' (ok, crash-after=N, hang-after=N, illegal-after=N, no-variant)"
            )),
        }
    }
}

/// The command line: nothing, or `--mode MODE`.
fn parse_arguments(arguments: &[String]) -> Result<Mode, String> {
    match arguments {
        [] => Ok(Mode::Ok),
        [flag, mode] if flag == "--mode" => Mode::parse(mode),
        [flag] if flag.starts_with("--mode=") => Mode::parse(&flag["--mode=".len()..]),
        _ => Err(format!(
            "usage: kurier-fake-engine [--mode MODE], not '{}'",
            arguments.join(" ")
        )),
    }
}

/// The position the engine was last given.
struct Board {
    game: AnyGame,
    fen: String,
    moves: Vec<String>,
}

impl Board {
    /// The start position of `variant`.
    fn new(variant: &str) -> Result<Board, String> {
        let game = AnyGame::built_in(variant).map_err(|e| e.to_string())?;
        let fen = game.variant().start.clone();
        Ok(Board {
            game,
            fen,
            moves: Vec::new(),
        })
    }

    /// Reads the words after `position`.
    fn set(&mut self, words: &[&str]) -> Result<(), String> {
        let moves_at = words.iter().position(|w| *w == "moves");
        let (setup, moves) = words.split_at(moves_at.unwrap_or(words.len()));
        self.fen = match setup {
            ["startpos"] => self.game.variant().start.clone(),
            ["fen", fen @ ..] if !fen.is_empty() => fen.join(" "),
            _ => return Err("position needs 'startpos' or 'fen FEN'".into()),
        };
        self.moves = moves.iter().skip(1).map(|m| m.to_string()).collect();
        Ok(())
    }

    /// The first legal move and the number of legal moves.
    fn first_move(&self) -> Result<(Option<String>, usize), String> {
        with_game!(&self.game, game => {
            let mut position = Position::from_fen(game.clone(), &self.fen).map_err(|e| e.to_string())?;
            for text in &self.moves {
                let played = position.parse_uci(text).map_err(|e| e.to_string())?;
                position.make_move(played);
            }
            let legal = position.legal_moves();
            Ok((legal.first().map(|&m| position.uci(m)), legal.len()))
        })
    }
}

fn main() -> ExitCode {
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    let mode = match parse_arguments(&arguments) {
        Ok(mode) => mode,
        Err(message) => {
            eprintln!("kurier-fake-engine: {message}");
            return ExitCode::from(2);
        }
    };
    match run(mode) {
        Ok(code) => code,
        Err(error) => {
            eprintln!("kurier-fake-engine: {error}");
            ExitCode::FAILURE
        }
    }
}

/// Speaks UCI on stdin and stdout until `quit` or the end of input.
fn run(mode: Mode) -> io::Result<ExitCode> {
    let stdin = io::stdin();
    let mut out = io::stdout().lock();
    let mut board = Board::new("chess").map_err(io::Error::other)?;
    let mut answered = 0usize;
    let mut hanging = false;
    for line in stdin.lock().lines() {
        let line = line?;
        if hanging {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let reply = match words.as_slice() {
            ["quit", ..] => return Ok(ExitCode::SUCCESS),
            ["uci", ..] => Ok(identify(mode)),
            ["isready", ..] => Ok("readyok".to_string()),
            ["setoption", "name", "UCI_Variant", "value", variant] => Board::new(variant)
                .map(|b| board = b)
                .map(|()| String::new()),
            ["setoption", ..] | ["ucinewgame", ..] | ["stop", ..] => Ok(String::new()),
            ["position", rest @ ..] => board.set(rest).map(|()| String::new()),
            ["go", ..] => {
                let due = |after: usize| answered >= after;
                match mode {
                    Mode::CrashAfter(after) if due(after) => {
                        eprintln!("fake engine: crashing as asked");
                        return Ok(ExitCode::from(3));
                    }
                    Mode::HangAfter(after) if due(after) => {
                        hanging = true;
                        continue;
                    }
                    Mode::IllegalAfter(after) if due(after) => Ok("bestmove a1a1".to_string()),
                    _ => {
                        answered += 1;
                        board
                            .first_move()
                            .map(|(best, count)| search_output(best, count))
                    }
                }
            }
            [] => Ok(String::new()),
            [command, ..] => Err(format!("unknown command '{command}'")),
        };
        match reply {
            Ok(text) if text.is_empty() => {}
            Ok(text) => writeln!(out, "{text}")?,
            Err(message) => writeln!(out, "info string error: {message}")?,
        }
        out.flush()?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The reply to `uci`.
fn identify(mode: Mode) -> String {
    let variants: String = if mode == Mode::NoVariant {
        " var xiangqi".to_string()
    } else {
        Variant::built_in_names()
            .iter()
            .map(|name| format!(" var {name}"))
            .collect()
    };
    [
        "id name kurier-fake-engine".to_string(),
        "id author the Kurier developers".to_string(),
        format!("option name UCI_Variant type combo default chess{variants}"),
        "option name Hash type spin default 1 min 1 max 1024".to_string(),
        "uciok".to_string(),
    ]
    .join("\n")
}

/// The lines sent for a `go`: two `info` lines and `bestmove`.
fn search_output(best: Option<String>, legal_moves: usize) -> String {
    match best {
        Some(best) => format!(
            "info depth 1 score cp -1 nodes 1\ninfo depth 2 score cp {legal_moves} nodes 2 pv {best}\nbestmove {best}"
        ),
        None => "info depth 1 score cp 0 nodes 1\nbestmove (none)".to_string(),
    }
}
