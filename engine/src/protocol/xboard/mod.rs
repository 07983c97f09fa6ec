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
//! a stalemate, a draw by RULES.md, as a loss) and `fairy` otherwise
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
//! A Kurier piece type takes ([`piece_slots`]): the king slot if royal,
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
use crate::position::game::Game;
use crate::position::rules::{GameResult, Outcome, Termination};
use crate::position::state::Position;
use crate::protocol::session::{Session, DEFAULT_HASH_MB};
use crate::protocol::uci::{send, Output};
use crate::search::alpha_beta::{Limits, Report, Score};
use crate::search::threads::{SearchJob, SearchThread};
use crate::types::Clock;
use crate::types::Piece;
use crate::types::{Color, Square};
use crate::types::{Move, MoveKind};
use crate::variant::betza::{self, Motion, MovePart};
use crate::variant::definition::Variant;
use crate::with_board;

mod names;

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
        let config = self.session.config.clone();
        let tt = Arc::clone(&self.session.tt);
        let histories = Arc::clone(&self.session.histories);
        self.session.search = Some(
            with_board!(&self.session.board, board => SearchThread::start(
                SearchJob {
                    position: board.position.clone(),
                    evaluator: Arc::clone(&board.evaluator),
                    tt,
                    histories,
                    limits,
                    config,
                    ponder: false,
                },
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

/// XBoard's piece types in the order of its piece-to-char table: the
/// usual letter and, where Kurier's notation can say it, the moves.
const SLOTS: [(char, Option<&str>); 22] = [
    ('P', None),
    ('N', Some("N")),
    ('B', Some("B")),
    ('R', Some("R")),
    ('Q', Some("Q")),
    ('F', Some("F")),
    ('E', Some("A")),
    ('A', Some("BN")),
    ('C', Some("RN")),
    ('W', Some("W")),
    ('M', Some("K")),
    ('O', None),
    ('H', None),
    ('I', Some("BW")),
    ('J', Some("RF")),
    ('G', None),
    ('D', Some("FfW")),
    ('V', None),
    ('L', Some("fR")),
    ('S', None),
    ('U', None),
    ('K', Some("K")),
];
const PAWN_SLOT: usize = 0;
const KING_SLOT: usize = SLOTS.len() - 1;

/// A comparable form of a move description.
fn move_key(parts: &[MovePart]) -> Vec<String> {
    let mut keys: Vec<String> = parts
        .iter()
        .map(|part| {
            let mut steps = part.steps.clone();
            steps.sort_unstable();
            format!(
                "{:?} {steps:?} {} {} {}",
                part.motion, part.quiet, part.capture, part.initial
            )
        })
        .collect();
    keys.sort();
    keys.dedup();
    keys
}

/// Which of a piece's steps go: (orthogonal, diagonal, other).
fn directions(parts: &[MovePart]) -> (bool, bool, bool) {
    let mut kinds = (false, false, false);
    for part in parts {
        for &(dx, dy) in &part.steps {
            if dx == 0 || dy == 0 {
                kinds.0 = true;
            } else if dx.abs() == dy.abs() {
                kinds.1 = true;
            } else {
                kinds.2 = true;
            }
        }
        if part.motion == Motion::BentSlide {
            kinds.2 = true;
        }
    }
    kinds
}

/// The XBoard slot of each piece type of `variant` (index into XBoard's
/// piece-to-char table);
/// see the module documentation.
pub fn piece_slots(variant: &Variant) -> Vec<usize> {
    let count = variant.pieces.len();
    let mut slot_of: Vec<Option<usize>> = vec![None; count];
    let mut taken = [false; SLOTS.len()];
    fn take(slot_of: &mut [Option<usize>], taken: &mut [bool], piece: usize, slot: usize) {
        slot_of[piece] = Some(slot);
        taken[slot] = true;
    }
    for (index, piece) in variant.pieces.iter().enumerate() {
        if piece.royal && !taken[KING_SLOT] {
            take(&mut slot_of, &mut taken, index, KING_SLOT);
        } else if piece.pawn && !taken[PAWN_SLOT] {
            take(&mut slot_of, &mut taken, index, PAWN_SLOT);
        }
    }
    let free_pieces = |slot_of: &[Option<usize>]| -> Vec<usize> {
        (0..count).filter(|&i| slot_of[i].is_none()).collect()
    };
    // Same moves.
    for index in free_pieces(&slot_of) {
        let key = move_key(&variant.pieces[index].parts);
        let found = (1..KING_SLOT).find(|&slot| {
            !taken[slot]
                && SLOTS[slot]
                    .1
                    .and_then(|betza| betza::parse(betza).ok())
                    .is_some_and(|parts| move_key(&parts) == key)
        });
        if let Some(slot) = found {
            take(&mut slot_of, &mut taken, index, slot);
        }
    }
    // Same letter.
    for index in free_pieces(&slot_of) {
        let letter = variant.pieces[index].letter;
        if let Some(slot) = (1..KING_SLOT).find(|&slot| !taken[slot] && SLOTS[slot].0 == letter) {
            take(&mut slot_of, &mut taken, index, slot);
        }
    }
    // A piece moving the same way: wazir-like, ferz-like, or other.
    const ORTHOGONAL: [usize; 3] = [9, 18, 14];
    const DIAGONAL: [usize; 3] = [5, 6, 13];
    const MIXED: [usize; 4] = [10, 20, 7, 8];
    const ANY: [usize; 16] = [5, 9, 6, 10, 16, 18, 13, 14, 7, 8, 17, 19, 20, 12, 15, 11];
    for index in free_pieces(&slot_of) {
        let preferred: &[usize] = match directions(&variant.pieces[index].parts) {
            (true, false, false) => &ORTHOGONAL,
            (false, true, false) => &DIAGONAL,
            _ => &MIXED,
        };
        let slot = preferred
            .iter()
            .chain(ANY.iter())
            .copied()
            .find(|&slot| !taken[slot]);
        if let Some(slot) = slot {
            take(&mut slot_of, &mut taken, index, slot);
        }
    }
    // At most 16 piece types, so every one has found a slot.
    slot_of
        .into_iter()
        .map(|slot| slot.unwrap_or(KING_SLOT))
        .collect()
}

/// XBoard's piece-to-char table for `variant`: white half, black half.
pub fn piece_to_char(variant: &Variant) -> String {
    let mut white = ['.'; SLOTS.len()];
    for (index, slot) in piece_slots(variant).into_iter().enumerate() {
        white[slot] = variant.pieces[index].letter;
    }
    let white: String = white.iter().collect();
    let black = white.to_ascii_lowercase();
    format!("{white}{black}")
}

/// A variant-file move description in XBoard's dialect: limited sliders
/// as `W3`/`F3` (XBoard reads `R3` differently).
pub fn xboard_betza(betza: &str) -> String {
    let bytes = betza.as_bytes();
    let mut out = String::new();
    let mut index = 0;
    while index < bytes.len() {
        let start = index;
        while index < bytes.len() && bytes[index].is_ascii_lowercase() {
            index += 1;
        }
        let modifiers = &betza[start..index];
        let Some(&atom) = bytes.get(index) else {
            out.push_str(modifiers);
            break;
        };
        index += 1;
        let digits = index;
        while index < bytes.len() && bytes[index].is_ascii_digit() {
            index += 1;
        }
        let range = &betza[digits..index];
        let atoms: &[char] = match (atom, range.is_empty()) {
            (b'R', false) => &['W'],
            (b'B', false) => &['F'],
            (b'Q', false) => &['W', 'F'],
            _ => {
                out.push_str(modifiers);
                out.push(char::from(atom));
                out.push_str(range);
                continue;
            }
        };
        for &atom in atoms {
            out.push_str(modifiers);
            out.push(atom);
            out.push_str(range);
        }
    }
    out
}

/// The king's castlings as XBoard `O` moves of an unmoved king (`i`),
/// seen from `color`'s side: `ilO3irO4` = three squares to its left or
/// four to its right.
fn castling_betza<B: Bitboard>(game: &Game<B>, king_start: Square, color: Color) -> String {
    let geometry = &game.geometry;
    let mut moves: Vec<(char, u8)> = game
        .castlings
        .iter()
        .filter(|rule| rule.color == color && rule.king_from == king_start)
        .map(|rule| {
            let from = geometry.file_of(rule.king_from);
            let to = geometry.file_of(rule.king_to);
            // White's left is the a-file side; Black's is the other.
            let toward_a = to < from;
            let side = if toward_a == (color == Color::White) {
                'l'
            } else {
                'r'
            };
            (side, from.abs_diff(to))
        })
        .collect();
    moves.sort_unstable();
    moves.dedup();
    moves
        .iter()
        .map(|(side, steps)| format!("i{side}O{steps}"))
        .collect()
}

/// The `setup` and `piece` commands that describe `game`'s variant to
/// XBoard (sent after `variant NAME`).
pub fn setup_lines<B: Bitboard>(game: &Arc<Game<B>>) -> Vec<String> {
    let variant = &game.variant;
    let start = Position::startpos(Arc::clone(game));
    // The start FEN with XBoard's KQkq castling rights.
    let mut rights = String::new();
    for (color, wings) in [(Color::White, ['K', 'Q']), (Color::Black, ['k', 'q'])] {
        let king = start.king_square(color);
        for (letter, kingside) in [(wings[0], true), (wings[1], false)] {
            let castles = game.castlings.iter().any(|rule| {
                rule.color == color
                    && rule.king_from == king
                    && (rule.partner_from > rule.king_from) == kingside
                    && start.unmoved().has(rule.king_from)
                    && start.unmoved().has(rule.partner_from)
            });
            if castles {
                rights.push(letter);
            }
        }
    }
    if rights.is_empty() {
        rights.push('-');
    }
    let mut fields: Vec<String> = start.fen().split_whitespace().map(String::from).collect();
    if let Some(field) = fields.get_mut(2) {
        *field = rights;
    }
    // XBoard's shatranj judges a bare king (one move to take the last
    // man back, then a loss) and always sees mating material; fairy has
    // chess's rules of the game's end.
    let parent = if variant.bare_king {
        "shatranj"
    } else {
        "fairy"
    };
    let mut lines = vec![format!(
        "setup ({}) {}x{}+0_{parent} {}",
        piece_to_char(variant),
        variant.files,
        variant.ranks,
        fields.join(" ")
    )];
    for (index, piece) in variant.pieces.iter().enumerate() {
        let letter = piece.letter;
        let mut moves = xboard_betza(&piece.betza);
        if piece.pawn && piece.parts.iter().any(|part| part.initial) {
            moves.push_str("feF");
        }
        if index == game.king {
            let white = castling_betza(game, start.king_square(Color::White), Color::White);
            let black = castling_betza(game, start.king_square(Color::Black), Color::Black);
            if white == black {
                lines.push(format!("piece {letter}& {moves}{white}"));
            } else {
                lines.push(format!("piece {letter} {moves}{white}"));
                lines.push(format!(
                    "piece {} {moves}{black}",
                    letter.to_ascii_lowercase()
                ));
            }
        } else {
            lines.push(format!("piece {letter}& {moves}"));
        }
    }
    lines
}

/// `fen` with the fields XBoard leaves out put back: under its shatranj
/// rules XBoard writes neither rights nor en passant
/// (`placement side halfmove fullmove`), and elsewhere no rights field
/// where it keeps no castling rights. It then lets every piece on its
/// start square make its first move (castle, leap), so a missing rights
/// field becomes `KQkq` (for [`translate_kq_rights`]: every first-move
/// piece on its start square keeps its right); a missing en-passant
/// field becomes `-`. A field with a digit in it is an en-passant field,
/// any other a rights field. `None` if no field is missing (or the FEN
/// does not end in its two move counters).
pub fn complete_fen_fields(fen: &str) -> Option<String> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let counters_at = fields.len().checked_sub(2)?;
    let (head, counters) = fields.split_at(counters_at);
    if counters
        .iter()
        .any(|counter| counter.parse::<u32>().is_err())
    {
        return None;
    }
    let (placement_and_side, middle) = head.split_at(head.len().min(2));
    let (rights, en_passant) = match middle {
        [] => ("KQkq", "-"),
        [one] if one.contains(|c: char| c.is_ascii_digit()) => ("KQkq", *one),
        [one] => (*one, "-"),
        _ => return None,
    };
    let mut completed = placement_and_side.to_vec();
    completed.extend([rights, en_passant]);
    completed.extend(counters);
    Some(completed.join(" "))
}

/// A FEN whose rights field is XBoard's `KQkq`, rewritten with the
/// variant's file letters; `None` if the FEN is not of that kind.
pub fn translate_kq_rights<B: Bitboard>(game: &Arc<Game<B>>, fen: &str) -> Option<String> {
    let mut fields: Vec<&str> = fen.split_whitespace().collect();
    let rights = *fields.get(2)?;
    if rights.is_empty() || !rights.chars().all(|c| "KQkq".contains(c)) {
        return None;
    }
    fields[2] = "-";
    let board = Position::from_fen(Arc::clone(game), &fields.join(" ")).ok()?;
    let start = Position::startpos(Arc::clone(game));
    let geometry = &game.geometry;
    let mut granted: Vec<Square> = Vec::new();
    for holder in &game.right_holders {
        if board.piece_at(holder.square) != Some(Piece::new(holder.color, holder.piece_type)) {
            continue;
        }
        let king = start.king_square(holder.color);
        let castles = game.castlings.iter().any(|r| {
            r.color == holder.color
                && (r.king_from == holder.square || r.partner_from == holder.square)
        });
        let wing_given = |kingside: bool| {
            let letter = match (holder.color, kingside) {
                (Color::White, true) => 'K',
                (Color::White, false) => 'Q',
                (Color::Black, true) => 'k',
                (Color::Black, false) => 'q',
            };
            rights.contains(letter)
        };
        let grant = if !castles {
            true
        } else if holder.piece_type == game.king {
            holder.square == king && (wing_given(true) || wing_given(false))
        } else {
            wing_given(geometry.file_of(holder.square) > geometry.file_of(king))
        };
        if grant {
            granted.push(holder.square);
        }
    }
    let mut letters: Vec<(Color, u8)> = granted
        .iter()
        .map(|&square| {
            let color = if geometry.rank_of(square) == 0 {
                Color::White
            } else {
                Color::Black
            };
            (color, geometry.file_of(square))
        })
        .collect();
    letters.sort_by_key(|&(color, file)| (color.index(), file));
    letters.dedup();
    let text: String = letters
        .iter()
        .map(|&(color, file)| {
            let letter = char::from(b'A' + file);
            match color {
                Color::White => letter,
                Color::Black => letter.to_ascii_lowercase(),
            }
        })
        .collect();
    let text = if text.is_empty() {
        "-".to_string()
    } else {
        text
    };
    fields[2] = &text;
    Some(fields.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::any_game::AnyGame;
    use crate::with_game;

    fn table(name: &str) -> String {
        let variant = Variant::built_in(name).unwrap();
        let table = piece_to_char(&variant);
        table[..table.len() / 2].to_string()
    }

    #[test]
    fn piece_tables_are_as_documented() {
        assert_eq!(table("chess"), "PNBRQ................K");
        assert_eq!(table("courier"), "PNBR.FE..WM..........K");
        assert_eq!(table("courier-moderno"), "PNBR.FE..WM..........K");
        assert_eq!(table("enhanced-courier"), "PNCR..E..WM....G.....K");
        assert_eq!(table("excoco"), "PNBRQME.CTG.H...DV.S.K");
        for name in Variant::built_in_names() {
            let variant = Variant::built_in(name).unwrap();
            let full = piece_to_char(&variant);
            // Every piece letter once in each half.
            for piece in &variant.pieces {
                assert_eq!(
                    full.matches(piece.letter).count(),
                    1,
                    "{name} {}",
                    piece.letter
                );
            }
        }
    }

    #[test]
    fn limited_sliders_are_rewritten() {
        assert_eq!(xboard_betza("fmWfcFifmR2"), "fmWfcFifmW2");
        assert_eq!(xboard_betza("Q3"), "W3F3");
        assert_eq!(xboard_betza("B3"), "F3");
        assert_eq!(xboard_betza("FyafsF"), "FyafsF");
        assert_eq!(xboard_betza("FfWifAifD"), "FfWifAifD");
        assert_eq!(xboard_betza("RNB"), "RNB");
    }

    fn setup(name: &str) -> Vec<String> {
        let game = AnyGame::built_in(name).unwrap();
        with_game!(&game, g => setup_lines(g))
    }

    #[test]
    fn setup_describes_the_variant() {
        let moderno = setup("courier-moderno");
        assert_eq!(
            moderno[0],
            "setup (PNBR.FE..WM..........Kpnbr.fe..wm..........k) 12x8+0_shatranj rnebwfkmbenr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RNEBMKFWBENR w KQkq - 0 1"
        );
        assert!(
            moderno.contains(&"piece K& KilO3irO4".to_string()),
            "{moderno:?}"
        );
        assert!(moderno.contains(&"piece E& FfWifAifD".to_string()));
        assert!(moderno.contains(&"piece P& fmWfcFifmW2feF".to_string()));
        let courier = setup("courier");
        assert_eq!(
            courier[0],
            "setup (PNBR.FE..WM..........Kpnbr.fe..wm..........k) 12x8+0_shatranj rnebmk1wbenr/1ppppp1pppp1/6f5/p5p4p/P5P4P/6F5/1PPPPP1PPPP1/RNEBMK1WBENR w - - 0 1"
        );
        assert!(courier.contains(&"piece P& fmWfcF".to_string()));
        assert!(courier.contains(&"piece K& K".to_string()));
        let excoco = setup("excoco");
        assert!(excoco[0].contains("18x10+0_fairy"));
        assert!(
            excoco.contains(&"piece K KilO5irO6".to_string()),
            "{excoco:?}"
        );
        assert!(excoco.contains(&"piece k KilO6irO5".to_string()));
        assert!(excoco.contains(&"piece D& W3F3".to_string()));
        assert!(excoco.contains(&"piece P& fmWfcFifmW3feF".to_string()));
        let enhanced = setup("enhanced-courier");
        assert!(enhanced[0].contains(" 12x8+0_shatranj "), "{enhanced:?}");
        assert!(enhanced.contains(&"piece G& FyafsF".to_string()));
    }

    #[test]
    fn fields_xboard_leaves_out_are_put_back() {
        // Shatranj rules: neither rights nor en passant.
        assert_eq!(
            complete_fen_fields("12/12/12/12/12/12/12/5K6 w 0 1").as_deref(),
            Some("12/12/12/12/12/12/12/5K6 w KQkq - 0 1")
        );
        // No rights field, an en-passant square.
        assert_eq!(
            complete_fen_fields("8/8/8/3pP3/8/8/8/4K2k w d6 0 3").as_deref(),
            Some("8/8/8/3pP3/8/8/8/4K2k w KQkq d6 0 3")
        );
        // No en-passant field.
        assert_eq!(
            complete_fen_fields("8/8/8/8/8/8/8/R3K2k w Q 4 9").as_deref(),
            Some("8/8/8/8/8/8/8/R3K2k w Q - 4 9")
        );
        // Complete or broken FENs are left alone.
        assert_eq!(complete_fen_fields("8/8/8/8/8/8/8/R3K2k w Q - 4 9"), None);
        assert_eq!(complete_fen_fields("8/8/8/8/8/8/8/R3K2k w Q -"), None);
        assert_eq!(complete_fen_fields("x"), None);
    }

    #[test]
    fn kq_rights_are_translated() {
        let game = AnyGame::built_in("courier-moderno").unwrap();
        let AnyGame::Narrow(game) = game else {
            unreachable!()
        };
        let start = "rnebwfkmbenr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RNEBMKFWBENR w KQkq - 0 1";
        assert_eq!(
            translate_kq_rights(&game, start).unwrap(),
            "rnebwfkmbenr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RNEBMKFWBENR w ACFJLacgjl - 0 1"
        );
        // White's a-side rook has moved: no Q, but the elephant keeps its right.
        let partial = "rnebwfkmbenr/pppppppppppp/12/12/12/12/1PPPPPPPPPPP/1NEBMKFWBENR w Kk - 0 1";
        let translated = translate_kq_rights(&game, partial).unwrap();
        assert!(translated.contains(" w CFJLcgjl - "), "{translated}");
        assert!(Position::from_fen(Arc::clone(&game), &translated).is_ok());
        assert_eq!(translate_kq_rights(&game, "bad"), None);
        let AnyGame::Wide(excoco) = AnyGame::built_in("excoco").unwrap() else {
            unreachable!()
        };
        let start = Position::startpos(Arc::clone(&excoco)).fen();
        let kq = start.replace("ACIPRacipr", "KQkq");
        assert_eq!(translate_kq_rights(&excoco, &kq).unwrap(), start);
    }

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
