//! The XBoard / WinBoard protocol (CECP version 2), with the fairy-chess
//! extensions of XBoard 4.8 and later: engine-defined variants through
//! `setup` and `piece` commands.
//!
//! Input is read on its own thread; the protocol thread handles one event
//! at a time (a command line, or the end of a search), so `?`, `ping`
//! and `force` are answered while the engine thinks. Malformed input gets
//! `Error (reason): command` or `Illegal move: move`; the engine never
//! plays or accepts an illegal move.
//!
//! # Variants and piece mapping
//!
//! XBoard calls FIDE chess `normal`; every other variant goes by its own
//! name, and a variant whose name XBoard would take for one of its own
//! games (`courier`, `courier-moderno`) by a second name as well,
//! `kurier-NAME` (the `names` submodule): under it XBoard sets the game up from
//! the engine's commands. After `variant NAME` the engine sends
//! `setup (PIECETOCHAR) WxH+0_PARENT FEN` and one `piece` command with
//! the moves of each piece type (XBetza), so that XBoard can draw the
//! board and check moves. The parent, whose rules of the game's end XBoard
//! applies, is `shatranj` for the bare-king variants (a bared side may
//! take the last man back, else loses; a stalemated side loses: right for
//! courier and enhanced-courier, while in courier-moderno XBoard counts
//! a stalemate, a draw by docs/RULES.md, as a loss) and `fairy` otherwise
//! (chess's rules). A bare-king win is claimed by the bared side (or
//! after its reply): XBoard would take a claim from the winner, the
//! moment it bares the king, for a false one.
//!
//! check moves. XBoard knows a fixed list of piece types, each with its
//! own image; the table in parentheses gives the letter each of them has
//! in the variant (`.` = not used). Its slots, in order, are
//! P pawn, N knight, B bishop, R rook, Q queen, F ferz, E alfil (elephant),
//! A archbishop, C chancellor, W wazir, M man (commoner), O cannon,
//! H nightrider, I dragon horse, J dragon king, G grasshopper, D silver,
//! V falcon, L lance, S cobra, U unicorn, and last the king.
//! A Kurier piece type takes ([`pieces::piece_slots`]): the king slot if royal,
//! the pawn slot if a pawn, else the slot of a piece that moves the same
//! (e.g. man `K` -> M, elephant `A` -> E, courier `B` -> B), else the
//! slot whose usual letter is the piece's letter, else a free slot of a
//! piece moving in the same directions. For the built-in variants:
//!
//! | variant | table (white half) | notes |
//! |---|---|---|
//! | courier | `PNBR.FE..WM..........K` | XBoard's courier letters |
//! | courier-moderno | `PNBR.FE..WM..........K` | F queen = ferz, E elephant = alfil image |
//! | enhanced-courier | `PNCR..E..WM....G.....K` | C courier = bishop, W woody rook = wazir, G gryphon = grasshopper image |
//! | excoco | `PNBRQME.CTG.H...DV.S.K` | M minister = ferz, T thane = wazir, G guard = man, H horseguard = nightrider, D duke = silver, V viscount = falcon, S scout = cobra, C courier = chancellor image |
//!
//! The letters are always Kurier's, so FENs and promotion suffixes need
//! no translation. The Betza strings are the variant file's, with `R3`
//! written `W3` (and `B3`, `Q3` likewise), an en-passant capture `feF`
//! added to pawns with a first multi-step, and castling on the king as
//! XBoard's `O` atom of an unmoved king (`ilO3irO4` in courier-moderno:
//! the king goes three squares to its left or four to its right, the rook
//! jumps over it).
//! Re-castling (ExCoCo) cannot be told to XBoard.
//!
//! XBoard writes castling rights as `KQkq`; a `setboard` FEN with such a
//! rights field is read by giving each wing's king and partner (and the
//! variant's other first-move pieces, such as the unmoved elephants of
//! courier-moderno, when they stand on their squares) their rights.
//! Under shatranj rules XBoard writes neither rights nor en-passant
//! field; such a FEN is read as if its rights were `KQkq`
//! ([`complete_fen_fields`]).

use std::io::BufRead;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Sender};
use std::sync::Arc;
use std::time::Duration;

use crate::board::bitboard::Bitboard;
use crate::position::rules::{GameResult, Outcome, Termination};
use crate::position::state::Position;
use crate::protocol::session::{Session, DEFAULT_HASH_MB};
use crate::protocol::uci::{send, Output};
use crate::search::interface::{Limits, Report, Score};
use crate::search::threads::SearchThread;
use crate::types::{Clock, Color, Move, MoveKind, Square};
use crate::variant::definition::Variant;
use crate::with_board;

pub mod fen_fields;
mod names;
pub mod pieces;

use fen_fields::{complete_fen_fields, translate_kq_rights};
use pieces::setup_lines;

/// What the protocol thread waits for.
enum Event {
    /// A line of input.
    Line(String),
    /// The search `generation` ended with this best move (UCI notation).
    Done {
        generation: u64,
        best: Option<String>,
    },
    /// The input ended.
    End,
}

/// How the engine's thinking time is set.
#[derive(Clone, Copy, Debug, PartialEq)]
enum TimeControl {
    /// `st`: this long per move.
    PerMove(Duration),
    /// `level`: `moves` per session (0 = the whole game) and an increment.
    Clock { moves: u32, increment: Duration },
}

struct XBoard {
    session: Session,
    out: Output,
    events: Sender<Event>,
    /// In force mode the engine plays neither side.
    force: bool,
    /// The side the engine plays when not in force mode.
    engine_side: Color,
    /// Whether thinking output is sent.
    post: Arc<AtomicBool>,
    time_control: TimeControl,
    /// `level`'s base time, to reset the clocks on `new`.
    base: Duration,
    engine_time: Duration,
    opponent_time: Duration,
    depth: Option<u32>,
    hash_mb: usize,
    /// Bumped whenever a search starts or is abandoned; results of
    /// older searches are ignored.
    generation: u64,
}

/// Runs XBoard on `input` until `quit` or the end of input.
pub fn run(input: impl BufRead + Send + 'static, out: Output) {
    let (events, inbox) = mpsc::channel();
    let reader = events.clone();
    std::thread::spawn(move || {
        for line in input.lines() {
            let Ok(line) = line else { break };
            if reader.send(Event::Line(line)).is_err() {
                return;
            }
        }
        let _ = reader.send(Event::End);
    });
    let mut engine = XBoard::new(out, events);
    while let Ok(event) = inbox.recv() {
        match event {
            Event::Line(line) => {
                if !engine.command(&line) {
                    break;
                }
            }
            Event::Done { generation, best } => engine.search_done(generation, best),
            Event::End => break,
        }
    }
    engine.abandon_search();
}

/// The default time control, XBoard's own: 40 moves in 5 minutes.
const DEFAULT_BASE: Duration = Duration::from_secs(300);

impl XBoard {
    fn new(out: Output, events: Sender<Event>) -> XBoard {
        XBoard {
            session: Session::new(),
            out,
            events,
            force: false,
            engine_side: Color::Black,
            post: Arc::new(AtomicBool::new(false)),
            time_control: TimeControl::Clock {
                moves: 40,
                increment: Duration::ZERO,
            },
            base: DEFAULT_BASE,
            engine_time: DEFAULT_BASE,
            opponent_time: DEFAULT_BASE,
            depth: None,
            hash_mb: DEFAULT_HASH_MB,
            generation: 0,
        }
    }

    fn send(&self, line: &str) {
        send(&self.out, line);
    }

    fn error(&self, reason: &str, command: &str) {
        self.send(&format!("Error ({reason}): {command}"));
    }

    /// Handles one line; false on `quit`.
    fn command(&mut self, line: &str) -> bool {
        let line = line.trim();
        let (command, rest) = match line.split_once(char::is_whitespace) {
            Some((command, rest)) => (command, rest.trim()),
            None => (line, ""),
        };
        match command {
            "" => {}
            "quit" => return false,
            "xboard" | "accepted" | "rejected" | "random" | "computer" | "name" | "rating"
            | "ics" | "draw" | "hint" | "bk" | "nps" | "." | "white" | "black" | "egtpath"
            | "pause" | "resume" | "easy" | "hard" | "exit" => {}
            "protover" => self.features(),
            "new" => self.new_game(),
            "variant" => self.variant(rest, line),
            "setboard" => self.setboard(rest, line),
            "force" => {
                self.abandon_search();
                self.force = true;
            }
            "result" => {
                self.abandon_search();
                self.force = true;
            }
            "go" => {
                self.force = false;
                self.engine_side = self.side_to_move();
                self.think();
            }
            "playother" => {
                self.abandon_search();
                self.force = false;
                self.engine_side = self.side_to_move().flip();
            }
            "?" => {
                // Move now: the search ends and its move is played when
                // its result arrives.
                self.session.stop_search();
            }
            "ping" => self.send(format!("pong {rest}").trim_end()),
            "post" => self.post.store(true, Ordering::Relaxed),
            "nopost" => self.post.store(false, Ordering::Relaxed),
            "level" => self.level(rest, line),
            "st" => match parse_seconds(rest) {
                Some(seconds) if seconds > Duration::ZERO => {
                    self.time_control = TimeControl::PerMove(seconds)
                }
                _ => self.error("bad argument", line),
            },
            "sd" => match rest.parse::<u32>() {
                Ok(depth) if depth > 0 => self.depth = Some(depth),
                _ => self.error("bad argument", line),
            },
            "time" | "otim" => match rest.parse::<i64>() {
                Ok(centis) => {
                    let time = Duration::from_millis(centis.max(0) as u64 * 10);
                    if command == "time" {
                        self.engine_time = time;
                    } else {
                        self.opponent_time = time;
                    }
                }
                Err(_) => self.error("bad argument", line),
            },
            "undo" => self.take_back(1, line),
            "remove" => self.take_back(2, line),
            "usermove" if rest.is_empty() => self.error("missing move", line),
            "usermove" => self.user_move(rest),
            "option" => self.option(rest, line),
            "memory" => match rest.parse::<usize>() {
                Ok(mb) if (1..=65536).contains(&mb) => self.set_hash(mb),
                _ => self.error("bad argument", line),
            },
            "cores" => match rest.parse::<usize>() {
                Ok(threads) if (1..=256).contains(&threads) => {
                    self.session.config.threads = threads
                }
                _ => self.error("bad argument", line),
            },
            "analyze" | "edit" => self.error("unsupported command", line),
            _ if rest.is_empty() && self.looks_like_move(command) => self.user_move(command),
            _ => self.error("unknown command", line),
        }
        true
    }

    /// The `variants` feature: XBoard's `normal`, then every other
    /// variant, each followed by its XBoard alias if it has one.
    fn variants_feature(&self) -> String {
        let mut names = vec!["normal".to_string()];
        for name in self.session.variant_names() {
            if name == "chess" || name == "normal" {
                continue;
            }
            let alias = names::xboard_alias(&name);
            names.push(name);
            names.extend(alias);
        }
        format!("variants=\"{}\"", names.join(","))
    }

    fn features(&self) {
        self.send(&format!(
            "feature setboard=1 usermove=1 ping=1 sigint=0 sigterm=0 colors=0 analyze=0 myname=\"Kurier {}\" {}",
            env!("CARGO_PKG_VERSION"),
            self.variants_feature()
        ));
        self.send(&format!(
            "feature option=\"Hash -spin {} 1 65536\"",
            self.hash_mb
        ));
        self.send(&format!(
            "feature option=\"Threads -spin {} 1 256\"",
            self.session.config.threads
        ));
        self.send("feature option=\"VariantPath -path <empty>\"");
        self.send("feature done=1");
    }

    fn side_to_move(&self) -> Color {
        with_board!(&self.session.board, board => board.position.side_to_move())
    }

    fn outcome(&self) -> Option<Outcome> {
        with_board!(&self.session.board, board => board.position.outcome())
    }

    /// Stops the search, if any, without playing its move.
    fn abandon_search(&mut self) {
        if self.session.search.is_some() {
            self.generation += 1;
            self.session.stop_search();
        }
    }

    fn new_game(&mut self) {
        self.abandon_search();
        if self.session.variant().name != "chess" {
            if let Err(error) = self.session.set_variant("chess") {
                self.error(&error, "new");
            }
        }
        let _ = self.session.set_position(None, &[]);
        self.session.new_game();
        self.force = false;
        self.engine_side = Color::Black;
        self.depth = None;
        self.engine_time = self.base;
        self.opponent_time = self.base;
    }

    fn variant(&mut self, name: &str, line: &str) {
        self.abandon_search();
        // XBoard prefixes a board size when the user overrides it.
        let (size, name) = split_board_size(name);
        let known = self.session.variant_names();
        let name = match name {
            "normal" => "chess",
            name => names::resolve(name, &known),
        };
        if name.is_empty() {
            return self.error("missing variant name", line);
        }
        if let Err(error) = self.session.set_variant(name) {
            return self.error(&format!("unsupported variant: {error}"), line);
        }
        let variant = self.session.variant();
        if size.is_some_and(|size| size != (variant.files, variant.ranks)) {
            let _ = self.session.set_variant("chess");
            return self.error("unsupported board size", line);
        }
        if self.session.variant().name != "chess" {
            let lines =
                with_board!(&self.session.board, board => setup_lines(board.position.game()));
            for setup in lines {
                self.send(&setup);
            }
        }
    }

    /// Sets up `fen`, Kurier's FEN or XBoard's (see [`complete_fen_fields`]
    /// and [`translate_kq_rights`]).
    fn setboard(&mut self, fen: &str, line: &str) {
        self.abandon_search();
        if let Err(error) = self.session.set_position(Some(fen), &[]) {
            let completed = complete_fen_fields(fen);
            let fen = completed.as_deref().unwrap_or(fen);
            let mut retried = self.session.set_position(Some(fen), &[]).is_ok();
            if !retried {
                let translated = with_board!(&self.session.board, board => translate_kq_rights(board.position.game(), fen));
                retried = translated
                    .is_some_and(|fen| self.session.set_position(Some(&fen), &[]).is_ok());
            }
            if !retried {
                self.error(&error, line);
            }
        }
    }

    fn level(&mut self, arguments: &str, line: &str) {
        let words: Vec<&str> = arguments.split_whitespace().collect();
        let parsed = match words.as_slice() {
            [moves, base, increment] => moves
                .parse::<u32>()
                .ok()
                .zip(parse_base(base).zip(parse_seconds(increment))),
            _ => None,
        };
        match parsed {
            Some((moves, (base, increment))) => {
                self.time_control = TimeControl::Clock { moves, increment };
                self.base = base;
                self.engine_time = base;
                self.opponent_time = base;
            }
            None => self.error("bad argument", line),
        }
    }

    fn option(&mut self, setting: &str, line: &str) {
        let Some((name, value)) = setting.split_once('=') else {
            return self.error("option needs NAME=VALUE", line);
        };
        let (name, value) = (name.trim(), value.trim());
        match name.to_ascii_lowercase().as_str() {
            "hash" => match value.parse::<usize>() {
                Ok(mb) if (1..=65536).contains(&mb) => self.set_hash(mb),
                _ => self.error("Hash takes a number from 1 to 65536", line),
            },
            "threads" => match value.parse::<usize>() {
                Ok(threads) if (1..=256).contains(&threads) => {
                    self.session.config.threads = threads
                }
                _ => self.error("Threads takes a number from 1 to 256", line),
            },
            "variantpath" => {
                if value.is_empty() || value == "<empty>" {
                    return;
                }
                self.abandon_search();
                match self.session.load_variants(Path::new(value)) {
                    // Tell the GUI about the new variants.
                    Ok(_) => self.send(&format!("feature {}", self.variants_feature())),
                    Err(error) => self.error(&error, line),
                }
            }
            _ => self.error("unknown option", line),
        }
    }

    fn set_hash(&mut self, megabytes: usize) {
        self.abandon_search();
        self.session.set_hash(megabytes);
        self.hash_mb = megabytes;
    }

    fn take_back(&mut self, plies: usize, line: &str) {
        self.abandon_search();
        let played = with_board!(&self.session.board, board => board.position.plies_played());
        if played < plies {
            return self.error("command not legal now", line);
        }
        with_board!(&mut self.session.board, board => {
            for _ in 0..plies {
                board.position.unmake_move();
            }
        });
    }

    fn looks_like_move(&self, text: &str) -> bool {
        let variant = self.session.variant();
        let board = |text| crate::types::parse_square_prefix(text, variant.files, variant.ranks);
        board(text).and_then(|(_, rest)| board(rest)).is_some()
    }

    fn user_move(&mut self, text: &str) {
        let legal = with_board!(&self.session.board, board => parse_move(&board.position, text));
        let Some(legal) = legal else {
            return self.send(&format!("Illegal move: {text}"));
        };
        // XBoard sends moves only when it is not the engine's turn; if
        // one comes while the engine thinks, the search is dropped.
        self.abandon_search();
        with_board!(&mut self.session.board, board => board.position.make_move(legal));
        if self.force {
            return;
        }
        if let Some(outcome) = self.outcome() {
            self.announce(outcome);
        } else if self.side_to_move() == self.engine_side {
            self.think();
        }
    }

    fn announce(&self, outcome: Outcome) {
        self.send(&result_line(outcome, self.session.variant()));
    }

    /// Starts a search for the side to move (the engine's), or announces
    /// the result if the game is over.
    fn think(&mut self) {
        self.abandon_search();
        if let Some(outcome) = self.outcome() {
            return self.announce(outcome);
        }
        let side = self.side_to_move();
        let fullmove = with_board!(&self.session.board, board => board.position.fullmove_number());
        let mut limits = Limits {
            depth: self.depth,
            ..Limits::default()
        };
        match self.time_control {
            TimeControl::PerMove(time) => limits.movetime = Some(time),
            TimeControl::Clock { moves, increment } => {
                let mut clock = Clock {
                    increment: [increment; 2],
                    ..Clock::default()
                };
                clock.time[side.index()] = self.engine_time;
                clock.time[side.flip().index()] = self.opponent_time;
                if moves > 0 {
                    let made = fullmove.saturating_sub(1);
                    clock.moves_to_go = Some(moves - made % moves);
                }
                limits.clock = Some(clock);
            }
        }
        self.generation += 1;
        let generation = self.generation;
        let events = self.events.clone();
        let out = Arc::clone(&self.out);
        let post = Arc::clone(&self.post);
        self.session.search = Some(
            with_board!(&self.session.board, board => SearchThread::start(
                self.session.job(board, limits, false),
                move |position, report| {
                    if report.multipv == 1 && post.load(Ordering::Relaxed) {
                        send(&out, &thinking_line(position, report));
                    }
                },
                move |position, result| {
                    let best = result.best.map(|best| position.uci(best));
                    let _ = events.send(Event::Done { generation, best });
                },
            )),
        );
    }

    fn search_done(&mut self, generation: u64, best: Option<String>) {
        if generation != self.generation {
            return;
        }
        // Joins the finished search thread.
        self.session.stop_search();
        if let Some(text) = best {
            // The move was found in this very position; checked anyway.
            let played = with_board!(&mut self.session.board, board => {
                match board.position.parse_uci(&text) {
                    Ok(legal) => {
                        board.position.make_move(legal);
                        true
                    }
                    Err(_) => false,
                }
            });
            if played {
                self.send(&format!("move {text}"));
            }
        }
        if let Some(outcome) = self.outcome() {
            // XBoard judges a bare king only after the bared side's reply
            // (under shatranj rules; never under fairy rules) and takes a
            // win claimed before then for a false claim, which loses the
            // game. So a bare king the engine has just given is left to
            // the bared side: its engine claims the loss, or XBoard ends
            // the game after its reply, or the engine claims it then.
            let own_bare_king_win = outcome.termination == Termination::BareKing
                && outcome.result == GameResult::win_for(self.engine_side);
            if !own_bare_king_win {
                self.announce(outcome);
            }
        }
    }
}

/// A number of seconds, possibly fractional (`st 2.5`, increment `0.5`).
fn parse_seconds(text: &str) -> Option<Duration> {
    let seconds: f64 = text.parse().ok()?;
    (seconds.is_finite() && (0.0..1e7).contains(&seconds)).then(|| Duration::from_secs_f64(seconds))
}

/// `level`'s base time: minutes (`5`, `0.5`) or minutes and seconds (`0:30`).
fn parse_base(text: &str) -> Option<Duration> {
    match text.split_once(':') {
        Some((minutes, seconds)) => {
            let minutes: u64 = minutes.parse().ok()?;
            let seconds: u64 = seconds.parse().ok()?;
            (seconds < 60).then(|| Duration::from_secs(minutes * 60 + seconds))
        }
        None => parse_seconds(text).map(|minutes| minutes * 60),
    }
}

/// `12x8_courier` -> the size and `courier` (`8x8+5_` with holdings too);
/// other names as they are.
fn split_board_size(name: &str) -> (Option<(u8, u8)>, &str) {
    if let Some((size, rest)) = name.split_once('_') {
        if let Some((files, ranks)) = size.split_once('x') {
            let ranks = ranks.split('+').next().unwrap_or_default();
            if let (Ok(files), Ok(ranks)) = (files.parse(), ranks.parse()) {
                return (Some((files, ranks)), rest);
            }
        }
    }
    (None, name)
}

/// The legal move written `text`: coordinate notation, or a castling
/// written as the king taking its own partner (`e1h1`).
fn parse_move<B: Bitboard>(position: &Position<B>, text: &str) -> Option<Move> {
    if let Ok(legal) = position.parse_uci(text) {
        return Some(legal);
    }
    let game = position.game();
    let name = |square: Square| game.geometry.square_name(square);
    position.legal_moves().into_iter().find(|m| {
        m.kind() == MoveKind::Castling && {
            let rule = &game.castlings[usize::from(m.extra())];
            format!("{}{}", name(rule.king_from), name(rule.partner_from)) == text
        }
    })
}

/// The thinking output line: `depth score centiseconds nodes pv`, with
/// mates as 100000 + moves (negative when being mated).
fn thinking_line<B: Bitboard>(position: &Position<B>, report: &Report) -> String {
    let score = match report.score {
        Score::Centipawns(cp) => cp,
        Score::Mate(moves) if moves > 0 => 100_000 + moves,
        Score::Mate(moves) => -100_000 + moves,
    };
    let mut pv_position = position.clone();
    let mut pv = Vec::new();
    for &m in &report.pv {
        pv.push(pv_position.uci(m));
        pv_position.make_move(m);
    }
    format!(
        "{} {score} {} {} {}",
        report.depth,
        report.time.as_millis() / 10,
        report.nodes,
        pv.join(" ")
    )
}

/// `RESULT {comment}` for a finished game.
fn result_line(outcome: Outcome, variant: &Variant) -> String {
    let winner = match outcome.result {
        GameResult::WhiteWins => "White",
        GameResult::BlackWins => "Black",
        GameResult::Draw => "Nobody",
    };
    let comment = match outcome.termination {
        Termination::Checkmate => format!("{winner} mates"),
        // In the bare-king variants K vs K only arises when a bared king
        // takes the last man: the bare-king rule's draw.
        Termination::KingVersusKing if variant.bare_king => "Bare king".to_string(),
        Termination::KingVersusKing => "Insufficient material".to_string(),
        Termination::BareKing => "Bare king".to_string(),
        Termination::FiftyMoves => "Draw by 50-move rule".to_string(),
        Termination::Repetition => "Draw by repetition".to_string(),
        Termination::Stalemate => "Stalemate".to_string(),
    };
    format!("{} {{{comment}}}", outcome.result.pgn())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn result_comments() {
        let courier = Variant::built_in("courier").unwrap();
        let chess = Variant::built_in("chess").unwrap();
        let outcome = |result, termination| Outcome {
            result,
            termination,
        };
        assert_eq!(
            result_line(
                outcome(GameResult::WhiteWins, Termination::Checkmate),
                &chess
            ),
            "1-0 {White mates}"
        );
        assert_eq!(
            result_line(
                outcome(GameResult::BlackWins, Termination::BareKing),
                &courier
            ),
            "0-1 {Bare king}"
        );
        assert_eq!(
            result_line(
                outcome(GameResult::Draw, Termination::KingVersusKing),
                &courier
            ),
            "1/2-1/2 {Bare king}"
        );
        assert_eq!(
            result_line(outcome(GameResult::Draw, Termination::Stalemate), &chess),
            "1/2-1/2 {Stalemate}"
        );
    }

    #[test]
    fn time_arguments() {
        assert_eq!(parse_base("5"), Some(Duration::from_secs(300)));
        assert_eq!(parse_base("0:30"), Some(Duration::from_secs(30)));
        assert_eq!(parse_base("1:75"), None);
        assert_eq!(parse_seconds("0.5"), Some(Duration::from_millis(500)));
        assert_eq!(parse_seconds("-1"), None);
        assert_eq!(parse_seconds("x"), None);
        assert_eq!(split_board_size("12x8_courier"), (Some((12, 8)), "courier"));
        assert_eq!(split_board_size("8x8+5_shogi"), (Some((8, 8)), "shogi"));
        assert_eq!(
            split_board_size("courier-moderno"),
            (None, "courier-moderno")
        );
    }
}
