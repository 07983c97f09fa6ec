//! The UCI protocol, with the variant extensions GUIs use for fairy
//! chess (`UCI_Variant`, `VariantPath`). Malformed or illegal input gets
//! an `info string` reply and the engine keeps going.

use std::io::{BufRead, Write};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::board::bitboard::Bitboard;
use crate::position::perft::{divide, perft};
use crate::position::state::Position;
use crate::protocol::session::{Session, DEFAULT_HASH_MB};
use crate::search::interface::{Limits, Report, Score};
use crate::search::threads::SearchThread;
use crate::search::tt::Bound;
use crate::types::{Clock, Color};
use crate::with_board;

/// Where the protocol writes: stdout, or a buffer in tests. Shared with
/// the search thread, so each line is written whole.
pub type Output = Arc<Mutex<dyn Write + Send>>;

/// Writes one line and flushes.
pub fn send(out: &Output, line: &str) {
    let mut writer = out.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    // A closed output (the GUI went away) is not an error worth stopping for.
    let _ = writeln!(writer, "{line}");
    let _ = writer.flush();
}

/// The UCI `info` line of a search report.
pub fn info_line<B: Bitboard>(position: &Position<B>, report: &Report) -> String {
    let score = match report.score {
        Score::Centipawns(cp) => format!("cp {cp}"),
        Score::Mate(moves) => format!("mate {moves}"),
    };
    let bound = match report.bound {
        Bound::Exact => "",
        Bound::Lower => " lowerbound",
        Bound::Upper => " upperbound",
    };
    let millis = report.time.as_millis().max(1);
    let nps = u128::from(report.nodes) * 1000 / millis;
    let mut pv_position = position.clone();
    let mut pv = String::new();
    for &m in &report.pv {
        pv.push(' ');
        pv.push_str(&pv_position.uci(m));
        pv_position.make_move(m);
    }
    format!(
        "info depth {} seldepth {} multipv {} score {score}{bound} nodes {} nps {nps} hashfull {} time {} pv{pv}",
        report.depth,
        report.seldepth,
        report.multipv,
        report.nodes,
        report.hashfull,
        report.time.as_millis(),
    )
}

/// Runs UCI on `input` until `quit` or the end of input.
pub fn run(input: impl BufRead, out: Output) {
    let mut session = Session::new();
    for line in input.lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&command) = words.first() else {
            continue;
        };
        match command {
            "quit" => break,
            "uci" => identify(&session, &out),
            "isready" => send(&out, "readyok"),
            "ucinewgame" => session.new_game(),
            "setoption" => {
                if let Err(error) = set_option(&mut session, &words[1..]) {
                    send(&out, &format!("info string error: {error}"));
                }
            }
            "position" => {
                if let Err(error) = set_position(&mut session, &words[1..]) {
                    send(&out, &format!("info string error: {error}"));
                }
            }
            "go" => {
                if let Err(error) = go(&mut session, &words[1..], &out) {
                    send(&out, &format!("info string error: {error}"));
                }
            }
            "stop" => session.stop_search(),
            "ponderhit" => {
                if let Some(search) = &session.search {
                    search.ponderhit();
                }
            }
            "d" => {
                with_board!(&session.board, board => send(&out, &format!("info string fen {}", board.position.fen())))
            }
            _ => send(
                &out,
                &format!("info string error: unknown command '{command}'"),
            ),
        }
    }
    session.stop_search();
}

fn identify(session: &Session, out: &Output) {
    send(
        out,
        &format!("id name Kurier {}", env!("CARGO_PKG_VERSION")),
    );
    send(out, "id author the Kurier developers");
    let variants = session
        .variant_names()
        .iter()
        .map(|name| format!(" var {name}"))
        .collect::<String>();
    send(
        out,
        &format!(
            "option name UCI_Variant type combo default {}{variants}",
            session.variant().name
        ),
    );
    send(out, "option name VariantPath type string default <empty>");
    send(out, "option name EvalFile type string default <empty>");
    send(
        out,
        &format!("option name Hash type spin default {DEFAULT_HASH_MB} min 1 max 65536"),
    );
    send(out, "option name Threads type spin default 1 min 1 max 256");
    send(out, "option name MultiPV type spin default 1 min 1 max 256");
    send(
        out,
        "option name Move Overhead type spin default 30 min 0 max 5000",
    );
    send(out, "option name Ponder type check default false");
    send(out, "option name Clear Hash type button");
    send(out, "uciok");
}

fn set_option(session: &mut Session, words: &[&str]) -> Result<(), String> {
    // setoption name <id...> [value <x...>]
    if words.first() != Some(&"name") {
        return Err("setoption needs 'name <option> [value <value>]'".into());
    }
    let value_at = words.iter().position(|w| *w == "value");
    let name = words[1..value_at.unwrap_or(words.len())].join(" ");
    let value = value_at
        .map(|at| words[at + 1..].join(" "))
        .unwrap_or_default();
    let number = |min: usize, max: usize| -> Result<usize, String> {
        match value.parse::<usize>() {
            Ok(n) if (min..=max).contains(&n) => Ok(n),
            _ => Err(format!(
                "option '{name}' takes a number from {min} to {max}, not '{value}'"
            )),
        }
    };
    match name.to_ascii_lowercase().as_str() {
        "uci_variant" => session.set_variant(&value),
        "variantpath" => {
            if value.is_empty() || value == "<empty>" {
                return Ok(());
            }
            session.load_variants(Path::new(&value)).map(|_| ())
        }
        "evalfile" => {
            if value.is_empty() || value == "<empty>" {
                return Ok(());
            }
            let text = std::fs::read_to_string(&value).map_err(|e| format!("{value}: {e}"))?;
            session.set_params(&text, &value)
        }
        "hash" => {
            session.set_hash(number(1, 65536)?);
            Ok(())
        }
        "threads" => {
            session.config.threads = number(1, 256)?;
            Ok(())
        }
        "multipv" => {
            session.config.multipv = number(1, 256)?;
            Ok(())
        }
        "move overhead" => {
            session.config.move_overhead = Duration::from_millis(number(0, 5000)? as u64);
            Ok(())
        }
        "ponder" => Ok(()),
        "clear hash" => {
            session.tt.clear();
            Ok(())
        }
        _ => Err(format!("unknown option '{name}'")),
    }
}

fn set_position(session: &mut Session, words: &[&str]) -> Result<(), String> {
    let moves_at = words.iter().position(|w| *w == "moves");
    let setup = &words[..moves_at.unwrap_or(words.len())];
    let moves = moves_at.map_or(&[][..], |at| &words[at + 1..]);
    match setup.first() {
        Some(&"startpos") if setup.len() == 1 => session.set_position(None, moves),
        Some(&"fen") if setup.len() > 1 => session.set_position(Some(&setup[1..].join(" ")), moves),
        _ => Err("position needs 'startpos' or 'fen <FEN>', then optionally 'moves ...'".into()),
    }
}

fn go(session: &mut Session, words: &[&str], out: &Output) -> Result<(), String> {
    session.stop_search();
    let mut limits = Limits::default();
    let mut clock = Clock::default();
    let mut on_clock = false;
    let mut ponder = false;
    let mut index = 0;
    let millis = |text: Option<&&str>| -> Result<Duration, String> {
        let text = text.ok_or("a number is missing")?;
        let value: i64 = text
            .parse()
            .map_err(|_| format!("'{text}' is not a number"))?;
        Ok(Duration::from_millis(value.max(0) as u64))
    };
    let count = |text: Option<&&str>| -> Result<u64, String> {
        let text = text.ok_or("a number is missing")?;
        text.parse()
            .map_err(|_| format!("'{text}' is not a whole number"))
    };
    while index < words.len() {
        let next = words.get(index + 1);
        match words[index] {
            "perft" => {
                let depth = count(next)? as u32;
                with_board!(&mut session.board, board => go_perft(&mut board.position, depth, out));
                return Ok(());
            }
            "depth" => limits.depth = Some(count(next)? as u32),
            "nodes" => limits.nodes = Some(count(next)?),
            "movetime" => limits.movetime = Some(millis(next)?),
            "wtime" => (clock.time[Color::White.index()], on_clock) = (millis(next)?, true),
            "btime" => (clock.time[Color::Black.index()], on_clock) = (millis(next)?, true),
            "winc" => clock.increment[Color::White.index()] = millis(next)?,
            "binc" => clock.increment[Color::Black.index()] = millis(next)?,
            "movestogo" => clock.moves_to_go = Some(count(next)? as u32),
            "infinite" => {
                limits.infinite = true;
                index += 1;
                continue;
            }
            "ponder" => {
                ponder = true;
                index += 1;
                continue;
            }
            "searchmoves" => {
                let rest = &words[index + 1..];
                with_board!(&session.board, board => {
                    for text in rest {
                        limits.search_moves.push(board.position.parse_uci(text).map_err(|e| e.to_string())?);
                    }
                });
                break;
            }
            other => return Err(format!("unknown go parameter '{other}'")),
        }
        index += 2;
    }
    if on_clock {
        limits.clock = Some(clock);
    }
    let report_out = Arc::clone(out);
    let done_out = Arc::clone(out);
    session.search = Some(with_board!(&session.board, board => SearchThread::start(
        session.job(board, limits, ponder),
        move |position, report| send(&report_out, &info_line(position, report)),
        move |position, result| {
            let line = match (result.best, result.ponder) {
                (Some(best), Some(reply)) => format!("bestmove {} ponder {}", position.uci(best), {
                    let mut after = position.clone();
                    after.make_move(best);
                    after.uci(reply)
                }),
                (Some(best), None) => format!("bestmove {}", position.uci(best)),
                (None, _) => "bestmove (none)".to_string(),
            };
            send(&done_out, &line);
        },
    )));
    Ok(())
}

/// `go perft`: Stockfish-style per-move counts and `Nodes searched: N`.
fn go_perft<B: Bitboard>(position: &mut Position<B>, depth: u32, out: &Output) {
    if depth == 0 {
        send(out, &format!("\nNodes searched: {}", perft(position, 0)));
        return;
    }
    let mut total = 0;
    for (m, nodes) in divide(position, depth) {
        send(out, &format!("{}: {nodes}", position.uci(m)));
        total += nodes;
    }
    send(out, &format!("\nNodes searched: {total}"));
}
