//! One game between a person and the engine: the moves, the clocks, the
//! engine's search on the server's pool of search threads, take-back,
//! the end by the variant's rules (or the clock), and the game's PGN.
//! Written once for both board widths; the server holds it as a
//! [`LiveGame`] trait object.

use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant, SystemTime};

use kurier_engine::board::bitboard::Bitboard;
use kurier_engine::eval::evaluate::{EvalParams, Evaluator};
use kurier_engine::position::any_game::AnyGame;
use kurier_engine::position::game::Game;
use kurier_engine::position::rules::GameResult;
use kurier_engine::position::state::Position;
use kurier_engine::search::alpha_beta::search;
use kurier_engine::search::history::SearchHistories;
use kurier_engine::search::interface::{Config, Control, Limits, Score, SearchResult};
use kurier_engine::search::tt::TranspositionTable;
use kurier_engine::types::{Clock, Color, Move};
use kurier_engine::with_game;
use kurier_tuner::players::clock::SideClock;
use kurier_tuner::records::game_record::{GameEnd, MoveNote, MoveScore};
use kurier_tuner::records::pgn::write_game;
use kurier_tuner::tournament::results::move_comment;
use kurier_tuner::util::date::utc_date;
use tokio::sync::{broadcast, oneshot};

use crate::engine_pool::{EnginePool, PooledSearch, SearchPlace};
use crate::error::ApiError;
use crate::game_request::EngineLimit;
use crate::game_request::NewGame;
use crate::game_request::MAX_FEN_BYTES;
use crate::game_request::MAX_MOVE_CHARS;
use crate::game_view::ClockView;
use crate::game_view::GameEvent;
use crate::game_view::GameOver;
use crate::game_view::GameView;
use crate::thinking::Thinking;
use crate::variants::VariantInfo;
use crate::view::{legal_moves, PlayedMove, Side, Snapshot};

/// A finished search: its result, and which search it was.
#[derive(Debug)]
pub struct EngineDone {
    token: u64,
    result: SearchResult,
}

/// A game of either board width.
pub trait LiveGame: Send {
    /// Counts every change of the game.
    fn version(&self) -> u64;
    /// The game as the page sees it (a person whose clock has run out
    /// has lost by now).
    fn view(&mut self) -> GameView;
    /// Plays the person's move, in UCI notation.
    fn play(&mut self, uci: &str) -> Result<(), ApiError>;
    /// Takes back the person's last move and what followed it.
    fn take_back(&mut self) -> Result<(), ApiError>;
    /// Whether it is the engine's move and no search of it runs.
    fn engine_to_move(&self) -> bool;
    /// Starts the engine's search on `pool`, in `place`, when
    /// [`LiveGame::engine_to_move`]; its reports go to `events`, its
    /// result to the receiver, which hands it to
    /// [`LiveGame::finish_engine`].
    fn start_engine(
        &mut self,
        events: &broadcast::Sender<GameEvent>,
        pool: &EnginePool,
        place: SearchPlace,
    ) -> Option<oneshot::Receiver<EngineDone>>;
    /// Plays the engine's move from its search; false when that search
    /// was stopped or replaced meanwhile (take-back), and nothing changed.
    fn finish_engine(&mut self, done: EngineDone) -> bool;
    /// The game in PGN, as kurier-tune writes its games.
    fn pgn(&mut self) -> String;
    /// A file name for the PGN.
    fn file_name(&self) -> String;
}

/// A new game `id` of `game` as `request` asks (the variant's
/// description is `variant`), the engine with a hash table of `hash_mb`
/// MiB.
pub fn new_game(
    id: u64,
    game: &AnyGame,
    variant: VariantInfo,
    request: &NewGame,
    hash_mb: usize,
) -> Result<Box<dyn LiveGame>, ApiError> {
    request.limit.check().map_err(ApiError::bad_request)?;
    if let Some(fen) = &request.fen {
        if fen.len() > MAX_FEN_BYTES {
            return Err(ApiError::bad_request(format!(
                "the FEN is {} bytes long; a FEN of this server may have at most {MAX_FEN_BYTES}",
                fen.len()
            )));
        }
    }
    with_game!(game, g => {
        let table = Table::new(id, g, variant, request, hash_mb)?;
        Ok(Box::new(table) as Box<dyn LiveGame>)
    })
}

/// The game of one board width.
struct Table<B: Bitboard> {
    id: u64,
    version: u64,
    variant: VariantInfo,
    human: Color,
    limit: EngineLimit,
    start: Position<B>,
    position: Position<B>,
    moves: Vec<Move>,
    played: Vec<PlayedMove>,
    notes: Vec<MoveNote>,
    evaluator: Arc<Evaluator<B>>,
    /// The engine's hash table, made by its first search (on a search
    /// thread, and only in a game the engine plays a move of).
    tt: Arc<OnceLock<TranspositionTable>>,
    hash_mb: usize,
    /// The engine's move statistics of this game, kept between its searches.
    histories: Arc<Mutex<SearchHistories>>,
    /// Both clocks, in a game on the clock.
    clocks: Option<[SideClock; 2]>,
    /// The clocks before each move, to take moves back.
    clocks_before: Vec<[SideClock; 2]>,
    /// When the side to move began to think.
    turn_started: Instant,
    end: Option<(GameResult, GameEnd)>,
    search: Option<PooledSearch>,
    /// Which search is the current one.
    search_token: u64,
}

impl<B: Bitboard> Table<B> {
    fn new(
        id: u64,
        game: &Arc<Game<B>>,
        variant: VariantInfo,
        request: &NewGame,
        hash_mb: usize,
    ) -> Result<Table<B>, ApiError> {
        let start = match &request.fen {
            Some(fen) => Position::from_fen(game.clone(), fen)
                .map_err(|e| ApiError::bad_request(format!("the FEN: {e}")))?,
            None => Position::startpos(game.clone()),
        };
        let params = EvalParams::for_variant(&game.variant)
            .map_err(|e| ApiError::bad_request(e.to_string()))?;
        let clocks = request.limit.time_control().map(|control| {
            let clock = control.start();
            [clock, clock]
        });
        let mut table = Table {
            id,
            version: 0,
            variant,
            human: request.human.into(),
            limit: request.limit,
            position: start.clone(),
            start,
            moves: Vec::new(),
            played: Vec::new(),
            notes: Vec::new(),
            evaluator: Arc::new(Evaluator::new(game, params)),
            tt: Arc::new(OnceLock::new()),
            hash_mb,
            histories: Arc::new(Mutex::new(SearchHistories::new())),
            clocks,
            clocks_before: Vec::new(),
            turn_started: Instant::now(),
            end: None,
            search: None,
            search_token: 0,
        };
        table.end = table.rules_end();
        Ok(table)
    }

    /// The end the variant's rules give the current position.
    fn rules_end(&self) -> Option<(GameResult, GameEnd)> {
        self.position
            .outcome()
            .map(|outcome| (outcome.result, GameEnd::Rules(outcome.termination)))
    }

    fn engine(&self) -> Color {
        self.human.flip()
    }

    /// Ends the game when the person to move has no time left.
    fn check_flag(&mut self) {
        if self.end.is_some() || self.position.side_to_move() != self.human {
            return;
        }
        if let Some(clocks) = &self.clocks {
            if self.turn_started.elapsed() > clocks[self.human.index()].remaining {
                self.end = Some((GameResult::win_for(self.engine()), GameEnd::TimeForfeit));
                self.version += 1;
            }
        }
    }

    /// Charges the mover's clock and makes `played` (legal here) with its
    /// mover's report; false, with the game lost on time, when the
    /// mover's time had run out.
    fn record(&mut self, played: Move, score: Option<MoveScore>, depth: u32) -> bool {
        let elapsed = self.turn_started.elapsed();
        let mover = self.position.side_to_move();
        if let Some(clocks) = &mut self.clocks {
            let before = *clocks;
            if clocks[mover.index()]
                .charge(elapsed, Duration::ZERO)
                .is_err()
            {
                self.end = Some((GameResult::win_for(mover.flip()), GameEnd::TimeForfeit));
                self.version += 1;
                return false;
            }
            self.clocks_before.push(before);
        }
        let ms = elapsed.as_millis() as u64;
        self.played
            .push(PlayedMove::new(&self.position, played, score, depth, ms));
        self.notes.push(MoveNote { score, depth, ms });
        self.position.make_move(played);
        self.moves.push(played);
        self.turn_started = Instant::now();
        self.end = self.rules_end();
        self.version += 1;
        true
    }

    /// Who made the move of `ply` (from 0).
    fn mover_of(&self, ply: usize) -> Color {
        if ply % 2 == 0 {
            self.start.side_to_move()
        } else {
            self.start.side_to_move().flip()
        }
    }

    /// The index of the person's last move.
    fn last_human_move(&self) -> Option<usize> {
        (0..self.moves.len())
            .rev()
            .find(|&ply| self.mover_of(ply) == self.human)
    }

    fn stop_engine(&mut self) {
        // Dropping the search stops it.
        if self.search.take().is_some() {
            self.search_token += 1;
            self.version += 1;
        }
    }

    fn clock_view(&self) -> Option<ClockView> {
        let clocks = self.clocks.as_ref()?;
        let running = self.end.is_none().then(|| self.position.side_to_move());
        let left = |color: Color| {
            let remaining = clocks[color.index()].remaining;
            let remaining = if running == Some(color) {
                remaining.saturating_sub(self.turn_started.elapsed())
            } else {
                remaining
            };
            remaining.as_millis() as u64
        };
        Some(ClockView {
            white_ms: left(Color::White),
            black_ms: left(Color::Black),
            running: running.map(Side::from),
        })
    }

    fn engine_name(&self) -> String {
        format!(
            "Kurier {} ({})",
            env!("CARGO_PKG_VERSION"),
            self.limit.describe()
        )
    }
}

impl<B: Bitboard> LiveGame for Table<B> {
    fn version(&self) -> u64 {
        self.version
    }

    fn view(&mut self) -> GameView {
        self.check_flag();
        let human_to_move = self.end.is_none() && self.position.side_to_move() == self.human;
        GameView {
            id: self.id,
            version: self.version,
            variant: self.variant.clone(),
            human: self.human.into(),
            limit: self.limit,
            limit_text: self.limit.describe(),
            position: Snapshot::of(&self.position),
            start_fen: self.start.fen(),
            moves: self.played.clone(),
            legal: if human_to_move {
                legal_moves(&self.position)
            } else {
                Vec::new()
            },
            thinking: self.search.is_some(),
            over: self.end.map(|(result, end)| GameOver {
                result: result.pgn().to_string(),
                termination: end.description(),
                winner: match result {
                    GameResult::WhiteWins => Some(Side::White),
                    GameResult::BlackWins => Some(Side::Black),
                    GameResult::Draw => None,
                },
            }),
            clock: self.clock_view(),
            can_take_back: self.last_human_move().is_some(),
        }
    }

    fn play(&mut self, uci: &str) -> Result<(), ApiError> {
        self.check_flag();
        if let Some((result, end)) = self.end {
            return Err(ApiError::conflict(format!(
                "the game is over ({} by {}); take back or start a new game",
                result.pgn(),
                end.description()
            )));
        }
        if self.position.side_to_move() != self.human {
            return Err(ApiError::conflict(
                "it is Kurier's move; wait for it or take back",
            ));
        }
        if uci.chars().count() > MAX_MOVE_CHARS {
            let start: String = uci.chars().take(MAX_MOVE_CHARS).collect();
            return Err(ApiError::bad_request(format!(
                "move '{start}...': {} characters, too long for a move",
                uci.chars().count()
            )));
        }
        let played = self
            .position
            .parse_uci(uci)
            .map_err(|e| ApiError::bad_request(e.to_string()))?;
        if self.record(played, None, 0) {
            Ok(())
        } else {
            Err(ApiError::conflict(
                "your time ran out: the move came too late",
            ))
        }
    }

    fn take_back(&mut self) -> Result<(), ApiError> {
        let Some(first_undone) = self.last_human_move() else {
            return Err(ApiError::conflict("there is no move of yours to take back"));
        };
        self.stop_engine();
        while self.moves.len() > first_undone {
            self.position.unmake_move();
            self.moves.pop();
            self.played.pop();
            self.notes.pop();
        }
        if let Some(clocks) = &mut self.clocks {
            if let Some(&before) = self.clocks_before.get(first_undone) {
                *clocks = before;
            }
            self.clocks_before.truncate(first_undone);
        }
        self.turn_started = Instant::now();
        self.end = self.rules_end();
        self.version += 1;
        Ok(())
    }

    fn engine_to_move(&self) -> bool {
        self.end.is_none() && self.position.side_to_move() != self.human && self.search.is_none()
    }

    fn start_engine(
        &mut self,
        events: &broadcast::Sender<GameEvent>,
        pool: &EnginePool,
        place: SearchPlace,
    ) -> Option<oneshot::Receiver<EngineDone>> {
        if !self.engine_to_move() {
            return None;
        }
        self.search_token += 1;
        let token = self.search_token;
        let mut limits = Limits {
            nodes: match self.limit {
                EngineLimit::Nodes { nodes } => Some(nodes),
                EngineLimit::Clock { .. } => None,
            },
            clock: self.clocks.map(|clocks| Clock {
                time: clocks.map(|c| c.remaining),
                increment: clocks.map(|c| c.increment),
                moves_to_go: None,
            }),
            ..Limits::default()
        };
        let engine = self.engine().index();
        let turn_started = self.turn_started;
        let position = self.position.clone();
        let evaluator = Arc::clone(&self.evaluator);
        let tt = Arc::clone(&self.tt);
        let hash_mb = self.hash_mb;
        let histories = Arc::clone(&self.histories);
        let reports = events.clone();
        let (done, receiver) = oneshot::channel();
        let run = move |control: &Control| {
            // The engine's clock ran while the search waited for a thread.
            if let Some(clock) = &mut limits.clock {
                clock.time[engine] = clock.time[engine].saturating_sub(turn_started.elapsed());
            }
            let tt = tt.get_or_init(|| TranspositionTable::new(hash_mb));
            // A stopped search of this game may hold them a moment longer;
            // one that panicked left nothing this one cannot overwrite.
            let mut histories = histories
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            let result = search(
                &position,
                &evaluator,
                tt,
                &mut histories,
                &limits,
                &Config::default(),
                control,
                &mut |report| {
                    // No page listening is no reason to stop thinking.
                    let _ = reports.send(GameEvent::Thinking(Thinking::new(&position, report)));
                },
            );
            drop(histories);
            // The game may be gone by now; then so is its receiver.
            let _ = done.send(EngineDone { token, result });
        };
        self.search = Some(pool.start(place, run));
        self.version += 1;
        Some(receiver)
    }

    fn finish_engine(&mut self, done: EngineDone) -> bool {
        if done.token != self.search_token {
            return false;
        }
        if self.search.take().is_none() {
            return false;
        }
        self.version += 1;
        // The search has a legal move in every position that is not over,
        // which is the only kind it is started in.
        let Some(best) = done
            .result
            .best
            .filter(|best| self.position.legal_moves().contains(best))
        else {
            self.end = self.rules_end();
            return true;
        };
        let score = MoveScore::from(Score::from_internal(done.result.score));
        self.record(best, Some(score), done.result.depth);
        true
    }

    fn pgn(&mut self) -> String {
        self.check_flag();
        let (white, black) = match self.human {
            Color::White => ("Human".to_string(), self.engine_name()),
            Color::Black => (self.engine_name(), "Human".to_string()),
        };
        let mut tags = vec![
            ("Event".to_string(), "kurier serve".to_string()),
            ("Site".to_string(), "kurier serve".to_string()),
            ("Date".to_string(), utc_date(SystemTime::now())),
            ("Round".to_string(), "-".to_string()),
            ("White".to_string(), white),
            ("Black".to_string(), black),
        ];
        if let Some((_, end)) = self.end {
            tags.push(("Termination".to_string(), end.description()));
        }
        if let Some(control) = self.limit.time_control() {
            tags.push(("TimeControl".to_string(), control.to_string()));
        }
        let result = self.end.map_or("*", |(result, _)| result.pgn());
        let comments: Vec<String> = self.notes.iter().map(move_comment).collect();
        write_game(&tags, &self.start, &self.moves, result, Some(&comments))
    }

    fn file_name(&self) -> String {
        // A loaded variant's name may hold anything; a header may not.
        let variant: String = self
            .variant
            .name
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        format!("kurier-{variant}-game{}.pgn", self.id)
    }
}
