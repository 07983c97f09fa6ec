//! External engines over UCI, for tournaments against other programs.
//!
//! An engine runs as a child process with piped stdin, stdout and
//! stderr. A reader thread turns its output into lines on a channel, so
//! that every wait has a deadline: a hung engine is a
//! [`EngineFailure::Timeout`], never a hung tournament. Another thread
//! keeps the last lines of its stderr for crash reports. Dropping a
//! [`UciEngine`] kills the process and reaps it, so none is ever left
//! behind.
//!
//! After any [`EngineFailure`] the engine's state is unknown: quit or
//! drop it, and start a new one if play goes on.

use std::collections::VecDeque;
use std::fmt;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crate::util::key_values::key_values;

/// The score of a mate on the spot, in the centipawn scale of
/// [`EngineReply::score`]: a mate `n` plies away scores `MATE_SCORE - n`,
/// as in Kurier's own search.
pub const MATE_SCORE: i32 = kurier_engine::search::interface::MATE;

/// How long [`UciEngine::go`] waits for `bestmove` under a node or depth
/// limit when the caller gives no deadline.
pub const DEFAULT_SEARCH_TIMEOUT: Duration = Duration::from_secs(120);

/// How many lines of an engine's stderr are kept for crash reports.
const STDERR_TAIL_LINES: usize = 20;

/// How long [`UciEngine::quit`] lets the engine exit by itself.
const QUIT_GRACE: Duration = Duration::from_millis(500);

/// How long to wait for the exit status of an engine that closed its
/// output, for the crash report.
const EXIT_STATUS_WAIT: Duration = Duration::from_millis(200);

/// How to run an external engine, written cutechess-style:
/// `name=X,cmd=PATH,arg=--foo,option.Hash=64` (fields separated by
/// commas, so no value can hold a comma).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The engine's name in reports (`name=`; by default the command's
    /// file name).
    pub name: String,
    /// The program to run (`cmd=`, required).
    pub command: PathBuf,
    /// Its command-line arguments, in order (`arg=`, repeatable).
    pub args: Vec<String>,
    /// UCI options set after `uciok`, in order (`option.NAME=VALUE`).
    pub options: Vec<(String, String)>,
}

impl EngineSpec {
    /// Reads the cutechess-style form; errors name the bad field.
    ///
    /// ```
    /// use kurier_tuner::players::uci_engine::EngineSpec;
    /// let spec = EngineSpec::parse("name=fsf,cmd=/usr/bin/fairy-stockfish,option.Hash=64").unwrap();
    /// assert_eq!(spec.name, "fsf");
    /// assert_eq!(spec.options, [("Hash".to_string(), "64".to_string())]);
    /// ```
    pub fn parse(text: &str) -> Result<EngineSpec, String> {
        let mut name = None;
        let mut command = None;
        let mut args = Vec::new();
        let mut options = Vec::new();
        for (key, value) in key_values(text)? {
            match key {
                "name" | "cmd" if value.is_empty() => {
                    return Err(format!("engine field '{key}=' has an empty value"));
                }
                "name" if name.is_some() => return Err("engine field 'name' given twice".into()),
                "cmd" if command.is_some() => return Err("engine field 'cmd' given twice".into()),
                "name" => name = Some(value.to_string()),
                "cmd" => command = Some(PathBuf::from(value)),
                "arg" => args.push(value.to_string()),
                _ => match key.strip_prefix("option.") {
                    Some("") => {
                        return Err(format!("engine field '{key}={value}' names no option"));
                    }
                    Some(option) => options.push((option.to_string(), value.to_string())),
                    None => {
                        return Err(format!(
                            "unknown engine field '{key}' (known: name, cmd, arg, option.NAME)"
                        ))
                    }
                },
            }
        }
        let command = command.ok_or_else(|| format!("engine '{text}' has no 'cmd=' field"))?;
        let name = name.unwrap_or_else(|| {
            command.file_name().map_or_else(
                || command.display().to_string(),
                |f| f.to_string_lossy().into_owned(),
            )
        });
        Ok(EngineSpec {
            name,
            command,
            args,
            options,
        })
    }
}

/// What went wrong with an external engine. Each message names the
/// engine and what was being waited for or sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineFailure {
    /// The program could not be started.
    Spawn(String),
    /// The engine lists the variants it plays, and ours is not one.
    Unsupported(String),
    /// No expected answer before the deadline.
    Timeout(String),
    /// The process ended or closed its pipes (with its exit status and
    /// the tail of its stderr when known).
    Crashed(String),
    /// The engine answered against the protocol.
    Protocol(String),
}

impl fmt::Display for EngineFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineFailure::Spawn(message) => write!(f, "cannot start engine: {message}"),
            EngineFailure::Unsupported(message) => write!(f, "unsupported variant: {message}"),
            EngineFailure::Timeout(message) => write!(f, "engine timeout: {message}"),
            EngineFailure::Crashed(message) => write!(f, "engine crashed: {message}"),
            EngineFailure::Protocol(message) => write!(f, "engine protocol error: {message}"),
        }
    }
}

impl std::error::Error for EngineFailure {}

/// How long the engine may search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoLimit {
    /// `go nodes N`.
    Nodes(u64),
    /// `go depth N`.
    Depth(u32),
    /// `go wtime .. btime .. winc .. binc ..`: the clocks and increments.
    Clock {
        /// White's remaining time.
        wtime: Duration,
        /// Black's remaining time.
        btime: Duration,
        /// White's increment per move.
        winc: Duration,
        /// Black's increment per move.
        binc: Duration,
    },
}

/// The engine's answer to `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineReply {
    /// The move after `bestmove`, as sent (the caller checks that it is
    /// legal).
    pub best: String,
    /// The score of the last `info` line that had one, in centipawns
    /// from the engine's (the side to move's) view; mates are
    /// `±(MATE_SCORE - plies)`.
    pub score: Option<i32>,
    /// The depth of that same `info` line.
    pub depth: Option<u32>,
    /// Time from sending `go` to receiving `bestmove`.
    pub elapsed: Duration,
}

/// A running UCI engine.
pub struct UciEngine {
    name: String,
    child: Child,
    /// The engine's input; `None` only while dropping.
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
    /// Closed (its sender dropped) once the engine's stderr has ended and
    /// every line of it is in `stderr_tail`.
    stderr_done: Receiver<()>,
    timeout: Duration,
}

impl UciEngine {
    /// Starts the engine of `spec` for `variant`: `uci` and `uciok`, each
    /// option of the spec, `UCI_Variant` when the engine has that option,
    /// then `isready` and `readyok`. `timeout` bounds each of these waits
    /// (and later [`UciEngine::new_game`], and is the grace added to a
    /// clock in [`UciEngine::go`]).
    ///
    /// When the engine lists its variants (`option name UCI_Variant ...
    /// var a var b`) and `variant` is not among them, this fails with
    /// [`EngineFailure::Unsupported`], unless the spec sets a
    /// `VariantPath` option (the variant may come from that file). An
    /// engine without `UCI_Variant` is trusted to play `variant`.
    pub fn start(
        spec: &EngineSpec,
        variant: &str,
        timeout: Duration,
    ) -> Result<UciEngine, EngineFailure> {
        let mut child = Command::new(&spec.command)
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| {
                EngineFailure::Spawn(format!("{} ({}): {e}", spec.name, spec.command.display()))
            })?;
        // All three were asked for as pipes just above.
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        let (sender, lines) = mpsc::channel();
        thread::spawn(move || forward_lines(stdout, |line| sender.send(line).is_ok()));
        let stderr_tail = Arc::new(Mutex::new(VecDeque::new()));
        let tail = Arc::clone(&stderr_tail);
        let (stderr_ended, stderr_done) = mpsc::channel::<()>();
        thread::spawn(move || {
            // Dropped when stderr ends, which `stderr_done` sees.
            let _ended = stderr_ended;
            forward_lines(stderr, |line| {
                let mut tail = tail.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                if tail.len() == STDERR_TAIL_LINES {
                    tail.pop_front();
                }
                tail.push_back(line);
                true
            })
        });
        let mut engine = UciEngine {
            name: spec.name.clone(),
            child,
            stdin: Some(stdin),
            lines,
            stderr_tail,
            stderr_done,
            timeout,
        };
        engine.handshake(spec, variant)?;
        Ok(engine)
    }

    /// `uci` to `readyok`, as [`UciEngine::start`] describes.
    fn handshake(&mut self, spec: &EngineSpec, variant: &str) -> Result<(), EngineFailure> {
        self.send("uci")?;
        let deadline = Instant::now() + self.timeout;
        let mut variants: Option<Vec<String>> = None;
        loop {
            let line = self.receive(deadline, "uciok")?;
            if line == "uciok" {
                break;
            }
            if let Some(listed) = variant_option(&line) {
                variants = Some(listed);
            }
        }
        for (option, value) in &spec.options {
            self.send(&format!("setoption name {option} value {value}"))?;
        }
        if let Some(listed) = &variants {
            let custom_variants = spec
                .options
                .iter()
                .any(|(option, _)| option.eq_ignore_ascii_case("VariantPath"));
            if !listed.is_empty() && !custom_variants && !listed.iter().any(|v| v == variant) {
                return Err(EngineFailure::Unsupported(format!(
                    "{} does not play {variant}; it lists: {}",
                    self.name,
                    listed.join(", ")
                )));
            }
            self.send(&format!("setoption name UCI_Variant value {variant}"))?;
        }
        self.wait_ready()
    }

    /// The engine's name, from its spec.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The process id of the engine.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Tells the engine a new game starts: `ucinewgame`, `isready`,
    /// `readyok`.
    pub fn new_game(&mut self) -> Result<(), EngineFailure> {
        self.send("ucinewgame")?;
        self.wait_ready()
    }

    /// Asks for a move in the position `start_fen` followed by
    /// `moves_uci`, under `limit`. Waits for `bestmove` until `deadline`
    /// (from sending `go`), or by default: for a clock, the side to move's
    /// remaining time plus its increment plus the start timeout as grace;
    /// for nodes or depth, [`DEFAULT_SEARCH_TIMEOUT`]. The move comes back
    /// as text, legal or not.
    pub fn go(
        &mut self,
        start_fen: &str,
        moves_uci: &[String],
        limit: &GoLimit,
        deadline: Option<Duration>,
    ) -> Result<EngineReply, EngineFailure> {
        let mut position = format!("position fen {start_fen}");
        if !moves_uci.is_empty() {
            position.push_str(" moves ");
            position.push_str(&moves_uci.join(" "));
        }
        let millis = |d: Duration| d.as_millis();
        let go = match *limit {
            GoLimit::Nodes(nodes) => format!("go nodes {nodes}"),
            GoLimit::Depth(depth) => format!("go depth {depth}"),
            GoLimit::Clock {
                wtime,
                btime,
                winc,
                binc,
            } => format!(
                "go wtime {} btime {} winc {} binc {}",
                millis(wtime),
                millis(btime),
                millis(winc),
                millis(binc)
            ),
        };
        let wait = deadline.unwrap_or_else(|| match *limit {
            GoLimit::Clock {
                wtime,
                btime,
                winc,
                binc,
            } => {
                let white_to_move = white_to_move(start_fen, moves_uci.len());
                let (time, increment) = if white_to_move {
                    (wtime, winc)
                } else {
                    (btime, binc)
                };
                time + increment + self.timeout
            }
            GoLimit::Nodes(_) | GoLimit::Depth(_) => DEFAULT_SEARCH_TIMEOUT,
        });
        self.send(&position)?;
        self.send(&go)?;
        let sent = Instant::now();
        let deadline = sent + wait;
        let mut score = None;
        let mut depth = None;
        loop {
            let line = self.receive(deadline, "bestmove")?;
            let mut words = line.split_whitespace();
            match words.next() {
                Some("info") => {
                    if let Some(info) = parse_info(&line) {
                        score = Some(info.score);
                        depth = info.depth;
                    }
                }
                Some("bestmove") => {
                    let best = words.next().ok_or_else(|| {
                        EngineFailure::Protocol(format!(
                            "{} sent 'bestmove' without a move",
                            self.name
                        ))
                    })?;
                    return Ok(EngineReply {
                        best: best.to_string(),
                        score,
                        depth,
                        elapsed: sent.elapsed(),
                    });
                }
                _ => {}
            }
        }
    }

    /// Sends `quit`, gives the engine a moment to exit, then kills it if
    /// it is still running.
    pub fn quit(mut self) {
        // A failure here means the engine is gone already; Drop reaps it.
        let _ = self.send("quit");
        let deadline = Instant::now() + QUIT_GRACE;
        while Instant::now() < deadline {
            if !matches!(self.child.try_wait(), Ok(None)) {
                return;
            }
            thread::sleep(Duration::from_millis(10));
        }
    }

    /// `isready`, then waits for `readyok` within the timeout.
    fn wait_ready(&mut self) -> Result<(), EngineFailure> {
        self.send("isready")?;
        let deadline = Instant::now() + self.timeout;
        while self.receive(deadline, "readyok")? != "readyok" {}
        Ok(())
    }

    /// Writes one line to the engine.
    fn send(&mut self, line: &str) -> Result<(), EngineFailure> {
        let written = match self.stdin.as_mut() {
            Some(stdin) => writeln!(stdin, "{line}").and_then(|()| stdin.flush()),
            None => Err(std::io::ErrorKind::BrokenPipe.into()),
        };
        written.map_err(|e| self.crashed(&format!("sending '{line}' failed ({e})")))
    }

    /// The next line from the engine (trimmed), before `deadline`;
    /// `waiting_for` names the expected answer in errors.
    fn receive(&mut self, deadline: Instant, waiting_for: &str) -> Result<String, EngineFailure> {
        let timeout =
            || EngineFailure::Timeout(format!("{} sent no '{waiting_for}' in time", self.name));
        // Checked first, so that an engine that never stops talking
        // still runs out of time.
        let left = deadline
            .checked_duration_since(Instant::now())
            .ok_or_else(timeout)?;
        match self.lines.recv_timeout(left) {
            Ok(line) => Ok(line.trim().to_string()),
            Err(RecvTimeoutError::Timeout) => Err(timeout()),
            Err(RecvTimeoutError::Disconnected) => Err(self.crashed(&format!(
                "its output closed while waiting for '{waiting_for}'"
            ))),
        }
    }

    /// A [`EngineFailure::Crashed`] saying `what`, with the exit status
    /// (if the process ends soon) and the tail of stderr.
    fn crashed(&mut self, what: &str) -> EngineFailure {
        let deadline = Instant::now() + EXIT_STATUS_WAIT;
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break Some(status),
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(5)),
                _ => break None,
            }
        };
        let mut message = format!("{}: {what}", self.name);
        if let Some(status) = status {
            message.push_str(&format!("; it exited ({status})"));
            // Its last words may still be on their way through the pipe.
            let left = deadline.saturating_duration_since(Instant::now());
            let _ = self
                .stderr_done
                .recv_timeout(left.max(EXIT_STATUS_WAIT / 2));
        }
        let tail = self
            .stderr_tail
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if !tail.is_empty() {
            let lines: Vec<&str> = tail.iter().map(String::as_str).collect();
            message.push_str(&format!("; stderr: {}", lines.join(" | ")));
        }
        EngineFailure::Crashed(message)
    }
}

impl Drop for UciEngine {
    /// Closes the engine's input (so that a process it started and that
    /// shares the pipe sees the end of input too), kills the process if it
    /// still runs, and reaps it.
    fn drop(&mut self) {
        drop(self.stdin.take());
        // Errors mean it has exited and been reaped already.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Reads `source` line by line (lossy UTF-8, without the line end) into
/// `deliver` until the end, an error, or `deliver` returns false.
fn forward_lines(source: impl Read, mut deliver: impl FnMut(String) -> bool) {
    let mut reader = BufReader::new(source);
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        match reader.read_until(b'\n', &mut buffer) {
            Ok(0) | Err(_) => return,
            Ok(_) => {
                let line = String::from_utf8_lossy(&buffer);
                if !deliver(line.trim_end_matches(['\n', '\r']).to_string()) {
                    return;
                }
            }
        }
    }
}

/// The variants of an `option name UCI_Variant ...` line (empty when it
/// lists none, e.g. a string option); `None` for any other line.
fn variant_option(line: &str) -> Option<Vec<String>> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.len() < 3 || words[0] != "option" || words[1] != "name" || words[2] != "UCI_Variant" {
        return None;
    }
    Some(
        words
            .windows(2)
            .filter(|pair| pair[0] == "var")
            .map(|pair| pair[1].to_string())
            .collect(),
    )
}

/// Whether White is to move after `plies` moves from `fen` (whose second
/// field is `w` or `b`; anything else is read as White).
fn white_to_move(fen: &str, plies: usize) -> bool {
    let white_starts = fen.split_whitespace().nth(1) != Some("b");
    white_starts == (plies % 2 == 0)
}

/// The score and depth of one `info` line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct InfoScore {
    score: i32,
    depth: Option<u32>,
}

/// The score (and depth) of an `info` line, if it has a readable score.
fn parse_info(line: &str) -> Option<InfoScore> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.first() != Some(&"info") || words.get(1) == Some(&"string") {
        return None;
    }
    let after = |key: &str| {
        words
            .iter()
            .position(|w| *w == key)
            .and_then(|at| words.get(at + 1..))
    };
    let score = match after("score")? {
        ["cp", value, ..] => value.parse().ok()?,
        ["mate", value, ..] => {
            let moves: i32 = value.parse().ok()?;
            if moves > 0 {
                MATE_SCORE - (2 * moves - 1)
            } else {
                -(MATE_SCORE + 2 * moves)
            }
        }
        _ => return None,
    };
    let depth = after("depth").and_then(|rest| rest.first()?.parse().ok());
    Some(InfoScore { score, depth })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_give_score_and_depth() {
        let read = |line: &str| parse_info(line).map(|i| (i.score, i.depth));
        assert_eq!(
            read("info depth 7 seldepth 9 score cp -35 nodes 100 pv e2e4"),
            Some((-35, Some(7)))
        );
        assert_eq!(
            read("info depth 3 score cp 20 lowerbound"),
            Some((20, Some(3)))
        );
        // Mate in 3 moves is 5 plies away; mated in 2 moves, 4 plies.
        assert_eq!(read("info depth 9 score mate 3"), Some((31_995, Some(9))));
        assert_eq!(read("info depth 9 score mate -2"), Some((-31_996, Some(9))));
        // Mated on the spot.
        assert_eq!(read("info depth 0 score mate 0"), Some((-32_000, Some(0))));
        assert_eq!(read("info score cp 5"), Some((5, None)));
        assert_eq!(read("info depth 4 currmove e2e4 currmovenumber 1"), None);
        assert_eq!(read("info string score cp 5"), None);
        assert_eq!(read("info depth 4 score cp x"), None);
        assert_eq!(read("info depth 4 score"), None);
    }

    #[test]
    fn variant_lists_are_read_from_the_option_line() {
        assert_eq!(
            variant_option(
                "option name UCI_Variant type combo default chess var chess var courier"
            ),
            Some(vec!["chess".to_string(), "courier".to_string()])
        );
        assert_eq!(
            variant_option("option name UCI_Variant type string default chess"),
            Some(vec![])
        );
        assert_eq!(
            variant_option("option name Hash type spin default 16"),
            None
        );
    }

    #[test]
    fn side_to_move_follows_the_fen_and_the_moves() {
        let white = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
        let black = "4k3/8/8/8/8/8/8/4K3 b - - 0 1";
        assert!(white_to_move(white, 0));
        assert!(!white_to_move(white, 1));
        assert!(!white_to_move(black, 0));
        assert!(white_to_move(black, 3));
    }
}
