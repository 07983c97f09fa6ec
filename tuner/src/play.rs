//! Playing one game: in-process Kurier players, the seat abstraction that
//! external engines share, and the game loop that enforces clocks,
//! adjudicates, and lets the engine's rules ([`Position::outcome`]) end
//! every game.

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use kurier_engine::board::bitboard::Bitboard;
use kurier_engine::eval::evaluate::{EvalParams, Evaluator};
use kurier_engine::position::game::Game;
use kurier_engine::position::rules::{GameResult, Outcome, Termination};
use kurier_engine::position::state::Position;
use kurier_engine::search::alpha_beta::search;
use kurier_engine::search::history::SearchHistories;
use kurier_engine::search::interface::{Config, Control, Limits, Score};
use kurier_engine::search::tt::TranspositionTable;
use kurier_engine::types::{Clock, Color};
use serde::{Deserialize, Serialize};

use crate::adjudication::Adjudication;
use crate::clock::{SideClock, TimeControl};

/// How much a player may search for each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SearchLimit {
    /// About this many nodes per move.
    Nodes(u64),
    /// This depth per move.
    Depth(u32),
    /// A clock for the game.
    Clock(TimeControl),
}

impl fmt::Display for SearchLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SearchLimit::Nodes(nodes) => write!(f, "{nodes} nodes"),
            SearchLimit::Depth(depth) => write!(f, "depth {depth}"),
            SearchLimit::Clock(control) => write!(f, "{control} s"),
        }
    }
}

/// Hash table size of an in-process player unless set otherwise, in MiB.
pub const DEFAULT_HASH_MB: usize = 16;

/// One in-process side's settings.
#[derive(Clone, Debug)]
pub struct PlayerSettings {
    /// Name in reports.
    pub name: String,
    /// Evaluation weights.
    pub params: EvalParams,
    /// Search limit per move (or clock).
    pub limit: SearchLimit,
    /// Whether the selective search (null move, reductions) is on.
    pub selective: bool,
    /// Search threads.
    pub threads: usize,
    /// Hash table size in MiB; every game gets a fresh table.
    pub hash_mb: usize,
}

impl PlayerSettings {
    /// Settings with the selective search on, one thread and
    /// [`DEFAULT_HASH_MB`].
    pub fn new(name: &str, params: EvalParams, limit: SearchLimit) -> PlayerSettings {
        PlayerSettings {
            name: name.to_string(),
            params,
            limit,
            selective: true,
            threads: 1,
            hash_mb: DEFAULT_HASH_MB,
        }
    }
}

/// An in-process player ready to search positions of one variant.
pub struct Player<B: Bitboard> {
    /// Its settings.
    pub settings: PlayerSettings,
    evaluator: Evaluator<B>,
}

impl<B: Bitboard> Player<B> {
    /// Prepares `settings` for `game`.
    pub fn new(game: &Arc<Game<B>>, settings: PlayerSettings) -> Player<B> {
        let evaluator = Evaluator::new(game, settings.params.clone());
        Player {
            settings,
            evaluator,
        }
    }

    /// A seat for one game, with its own hash table.
    pub fn seat(&self) -> KurierSeat<'_, B> {
        KurierSeat {
            player: self,
            tt: TranspositionTable::new(self.settings.hash_mb),
            histories: SearchHistories::new(),
        }
    }
}

/// A score as the mover reported it, from its own point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MoveScore {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

/// The centipawn figure adjudication uses for any mate score.
pub const MATE_CENTIPAWNS: i32 = 100_000;

impl MoveScore {
    /// Centipawns, with mates as [`MATE_CENTIPAWNS`] (or its negative).
    pub fn centipawns(self) -> i32 {
        match self {
            MoveScore::Cp(cp) => cp,
            MoveScore::Mate(moves) if moves > 0 => MATE_CENTIPAWNS,
            MoveScore::Mate(_) => -MATE_CENTIPAWNS,
        }
    }
}

impl From<Score> for MoveScore {
    fn from(score: Score) -> MoveScore {
        match score {
            Score::Centipawns(cp) => MoveScore::Cp(cp),
            Score::Mate(moves) => MoveScore::Mate(moves),
        }
    }
}

impl fmt::Display for MoveScore {
    /// cutechess-cli's comment form: `+0.35` pawns, `+M5`, `-M2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            MoveScore::Cp(cp) => write!(f, "{:+.2}", f64::from(cp) / 100.0),
            MoveScore::Mate(moves) if moves > 0 => write!(f, "+M{moves}"),
            MoveScore::Mate(moves) => write!(f, "-M{}", moves.unsigned_abs()),
        }
    }
}

impl FromStr for MoveScore {
    type Err = String;

    /// Reads what [`fmt::Display`] writes: `+0.35` (pawns, rounded to
    /// the centipawn), `+M5`, `-M2`; the sign may be left out.
    fn from_str(text: &str) -> Result<MoveScore, String> {
        let bad = || format!("'{text}' is not a score such as +0.35, +M5 or -M2");
        let (negative, unsigned) = match text.as_bytes().first() {
            Some(b'-') => (true, &text[1..]),
            Some(b'+') => (false, &text[1..]),
            _ => (false, text),
        };
        if let Some(moves) = unsigned.strip_prefix('M') {
            let moves: i32 = moves.parse().map_err(|_| bad())?;
            return Ok(MoveScore::Mate(if negative { -moves } else { moves }));
        }
        if !unsigned.starts_with(|c: char| c.is_ascii_digit()) {
            return Err(bad());
        }
        let pawns: f64 = unsigned.parse().map_err(|_| bad())?;
        let centipawns = (pawns * 100.0).round();
        if !centipawns.is_finite() || centipawns.abs() > f64::from(MATE_CENTIPAWNS) {
            return Err(bad());
        }
        let centipawns = centipawns as i32;
        Ok(MoveScore::Cp(if negative {
            -centipawns
        } else {
            centipawns
        }))
    }
}

/// A player's answer: the move in UCI notation, as it was sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// The move.
    pub uci: String,
    /// Its score, if the player reported one.
    pub score: Option<MoveScore>,
    /// The depth searched (0 if not reported).
    pub depth: u32,
}

/// Why a player gave no usable answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeatFailure {
    /// The engine process died or closed its output.
    Crashed(String),
    /// No answer before the deadline.
    Timeout,
    /// The answer broke the protocol.
    Protocol(String),
    /// The answer is not a legal move (the seat found it out itself).
    IllegalMove(String),
}

/// What a seat is asked for one move.
pub struct MoveRequest<'a, B: Bitboard> {
    /// The position, with its history.
    pub position: &'a Position<B>,
    /// The game's start position.
    pub start: &'a Position<B>,
    /// The moves since `start`, UCI notation.
    pub moves: &'a [String],
    /// Both clocks, when the mover plays on a clock.
    pub clock: Option<Clock>,
    /// When to give up waiting for an answer.
    pub deadline: Instant,
}

/// A player's place at one game's board: in process or an external
/// engine. A seat lives for one game.
pub trait Seat<B: Bitboard> {
    /// The player's search limit.
    fn limit(&self) -> SearchLimit;
    /// The move to play in `request.position`, which is not over.
    fn reply(&mut self, request: &MoveRequest<'_, B>) -> Result<Reply, SeatFailure>;
}

/// An in-process player's seat: the player, and this game's hash table
/// and move statistics.
pub struct KurierSeat<'p, B: Bitboard> {
    player: &'p Player<B>,
    tt: TranspositionTable,
    histories: SearchHistories,
}

impl<B: Bitboard> Seat<B> for KurierSeat<'_, B> {
    fn limit(&self) -> SearchLimit {
        self.player.settings.limit
    }

    fn reply(&mut self, request: &MoveRequest<'_, B>) -> Result<Reply, SeatFailure> {
        let settings = &self.player.settings;
        let limits = match settings.limit {
            SearchLimit::Nodes(nodes) => Limits {
                nodes: Some(nodes),
                ..Limits::default()
            },
            SearchLimit::Depth(depth) => Limits {
                depth: Some(depth),
                ..Limits::default()
            },
            SearchLimit::Clock(_) => Limits {
                clock: request.clock,
                ..Limits::default()
            },
        };
        let config = Config {
            threads: settings.threads.max(1),
            selective: settings.selective,
            ..Config::default()
        };
        let result = search(
            request.position,
            &self.player.evaluator,
            &self.tt,
            &mut self.histories,
            &limits,
            &config,
            &Control::new(false),
            &mut |_| {},
        );
        // The game loop asks only in positions that are not over, where
        // the search always has a move; say so rather than panic.
        let Some(best) = result.best else {
            return Err(SeatFailure::Protocol(
                "the search found no move in a position that is not over".to_string(),
            ));
        };
        Ok(Reply {
            uci: request.position.uci(best),
            score: Some(MoveScore::from(Score::from_internal(result.score))),
            depth: result.depth,
        })
    }
}

/// Why a game ended: the rules, an adjudication, or a player's failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameEnd {
    /// The rules of the variant ([`Position::outcome`]).
    Rules(Termination),
    /// Drawn at the ply limit.
    PlyLimit,
    /// Drawn by the low-score rule.
    DrawAdjudication,
    /// Won by the high-score rule.
    ResignAdjudication,
    /// The loser's clock ran out.
    TimeForfeit,
    /// The loser's engine died.
    Crash,
    /// The loser's engine did not answer in time.
    Timeout,
    /// The loser sent a move that is not legal.
    IllegalMove,
    /// The loser's engine broke the protocol.
    ProtocolError,
}

impl GameEnd {
    /// Every ending that is not a rules termination.
    const OTHERS: [GameEnd; 8] = [
        GameEnd::PlyLimit,
        GameEnd::DrawAdjudication,
        GameEnd::ResignAdjudication,
        GameEnd::TimeForfeit,
        GameEnd::Crash,
        GameEnd::Timeout,
        GameEnd::IllegalMove,
        GameEnd::ProtocolError,
    ];
    const RULES: [Termination; 6] = [
        Termination::Checkmate,
        Termination::KingVersusKing,
        Termination::BareKing,
        Termination::FiftyMoves,
        Termination::Repetition,
        Termination::Stalemate,
    ];

    /// The text of the PGN `Termination` tag and the journal, e.g.
    /// `checkmate`, `max plies`, `time forfeit`, `crash`, `illegal move`.
    pub fn description(self) -> String {
        match self {
            GameEnd::Rules(termination) => termination.to_string(),
            GameEnd::PlyLimit => "max plies".to_string(),
            GameEnd::DrawAdjudication => "draw adjudication".to_string(),
            GameEnd::ResignAdjudication => "resign adjudication".to_string(),
            GameEnd::TimeForfeit => "time forfeit".to_string(),
            GameEnd::Crash => "crash".to_string(),
            GameEnd::Timeout => "timeout".to_string(),
            GameEnd::IllegalMove => "illegal move".to_string(),
            GameEnd::ProtocolError => "protocol error".to_string(),
        }
    }

    /// The ending a description names (inverse of [`GameEnd::description`]).
    pub fn from_description(text: &str) -> Option<GameEnd> {
        GameEnd::RULES
            .into_iter()
            .map(GameEnd::Rules)
            .chain(GameEnd::OTHERS)
            .find(|end| end.description() == text)
    }
}

/// What the mover reported about one move, and how long it took.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct MoveNote {
    /// The mover's score, its point of view.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<MoveScore>,
    /// Search depth (0 if unknown).
    #[serde(default)]
    pub depth: u32,
    /// Wall time of the move, measured by the tournament, in milliseconds.
    #[serde(default)]
    pub ms: u64,
}

/// How a game ended, with its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The result.
    pub result: GameResult,
    /// Why it ended.
    pub termination: GameEnd,
    /// The moves, UCI notation.
    pub moves: Vec<String>,
    /// For each move, what the mover reported.
    pub notes: Vec<MoveNote>,
}

/// How games are run apart from the players: adjudication and the
/// patience shown to external engines.
#[derive(Clone, Debug)]
pub struct GameRules {
    /// Adjudication and the ply limit.
    pub adjudication: Adjudication,
    /// How long a player on a node or depth limit may take for one move
    /// before it loses by timeout.
    pub move_timeout: Duration,
    /// How far past its clock a player may go before it loses on time.
    pub time_margin: Duration,
}

impl GameRules {
    /// No adjudication but the ply limit, a minute per move and no
    /// margin.
    pub fn with_max_plies(max_plies: usize) -> GameRules {
        GameRules {
            adjudication: Adjudication {
                max_plies,
                ..Adjudication::default()
            },
            move_timeout: Duration::from_secs(60),
            time_margin: Duration::ZERO,
        }
    }
}

/// Plays one game from `start` between two in-process players, ended by
/// the rules of the variant or drawn after `max_plies`.
pub fn play_game<B: Bitboard>(
    start: &Position<B>,
    white: &Player<B>,
    black: &Player<B>,
    max_plies: usize,
) -> GameRecord {
    let never = AtomicBool::new(false);
    play_seated(
        start,
        [&mut white.seat(), &mut black.seat()],
        &GameRules::with_max_plies(max_plies),
        &never,
    )
    .expect("a game that is never stopped is never abandoned")
}

/// Plays one game from `start`, `seats[0]` (white) against `seats[1]`;
/// `None` when `stop` was raised before the game ended (the game is
/// abandoned). The rules of the variant end the game first, then the
/// adjudication in `rules`; a player whose engine fails, overruns its
/// clock or sends an illegal move loses.
pub fn play_seated<B: Bitboard>(
    start: &Position<B>,
    seats: [&mut dyn Seat<B>; 2],
    rules: &GameRules,
    stop: &AtomicBool,
) -> Option<GameRecord> {
    let mut position = start.clone();
    let mut clocks: [Option<SideClock>; 2] = [0, 1].map(|side| match seats[side].limit() {
        SearchLimit::Clock(control) => Some(control.start()),
        _ => None,
    });
    let mut record = GameRecord {
        result: GameResult::Draw,
        termination: GameEnd::PlyLimit,
        moves: Vec::new(),
        notes: Vec::new(),
    };
    let finish = |mut record: GameRecord, result: GameResult, termination: GameEnd| {
        record.result = result;
        record.termination = termination;
        Some(record)
    };
    loop {
        if let Some(Outcome {
            result,
            termination,
        }) = position.outcome()
        {
            return finish(record, result, GameEnd::Rules(termination));
        }
        if let Some((result, end)) = rules
            .adjudication
            .judge(start.side_to_move(), &record.notes)
        {
            return finish(record, result, end);
        }
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let side = position.side_to_move();
        let loss = GameResult::win_for(side.flip());
        let clock = clock_for_engine(&clocks);
        let started = Instant::now();
        let deadline = started
            + match clocks[side.index()] {
                Some(own) => own.remaining + rules.time_margin,
                None => rules.move_timeout,
            };
        let request = MoveRequest {
            position: &position,
            start,
            moves: &record.moves,
            clock,
            deadline,
        };
        let reply = seats[side.index()].reply(&request);
        let elapsed = started.elapsed();
        let reply = match reply {
            Ok(reply) => reply,
            Err(SeatFailure::Crashed(_)) => return finish(record, loss, GameEnd::Crash),
            Err(SeatFailure::Protocol(_)) => return finish(record, loss, GameEnd::ProtocolError),
            Err(SeatFailure::IllegalMove(_)) => return finish(record, loss, GameEnd::IllegalMove),
            Err(SeatFailure::Timeout) if clocks[side.index()].is_some() => {
                return finish(record, loss, GameEnd::TimeForfeit)
            }
            Err(SeatFailure::Timeout) => return finish(record, loss, GameEnd::Timeout),
        };
        if let Some(own) = clocks[side.index()].as_mut() {
            if own.charge(elapsed, rules.time_margin).is_err() {
                return finish(record, loss, GameEnd::TimeForfeit);
            }
        }
        let Ok(chosen) = position.parse_uci(&reply.uci) else {
            return finish(record, loss, GameEnd::IllegalMove);
        };
        position.make_move(chosen);
        record.moves.push(reply.uci);
        record.notes.push(MoveNote {
            score: reply.score,
            depth: reply.depth,
            ms: elapsed.as_millis() as u64,
        });
    }
}

/// The clocks as an engine sees them; a side without a clock shows the
/// other side's time (an engine wants both).
fn clock_for_engine(clocks: &[Option<SideClock>; 2]) -> Option<Clock> {
    let white = clocks[Color::White.index()].or(clocks[Color::Black.index()])?;
    let black = clocks[Color::Black.index()].unwrap_or(white);
    Some(Clock {
        time: [white.remaining, black.remaining],
        increment: [white.increment, black.increment],
        moves_to_go: None,
    })
}

/// The points (1, 1/2, 0) that `color` scored.
pub fn points_for(result: GameResult, color: Color) -> f64 {
    match result {
        GameResult::Draw => 0.5,
        r if r == GameResult::win_for(color) => 1.0,
        _ => 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_ending_reads_back_from_its_description() {
        for end in GameEnd::RULES
            .into_iter()
            .map(GameEnd::Rules)
            .chain(GameEnd::OTHERS)
        {
            assert_eq!(GameEnd::from_description(&end.description()), Some(end));
        }
        assert_eq!(GameEnd::from_description("resigned"), None);
    }

    #[test]
    fn scores_print_as_cutechess_does() {
        assert_eq!(MoveScore::Cp(35).to_string(), "+0.35");
        assert_eq!(MoveScore::Cp(-120).to_string(), "-1.20");
        assert_eq!(MoveScore::Mate(5).to_string(), "+M5");
        assert_eq!(MoveScore::Mate(-2).to_string(), "-M2");
        assert_eq!(MoveScore::Mate(-2).centipawns(), -MATE_CENTIPAWNS);
    }

    #[test]
    fn scores_read_back_from_their_text() {
        for score in [
            MoveScore::Cp(35),
            MoveScore::Cp(-120),
            MoveScore::Cp(0),
            MoveScore::Mate(5),
            MoveScore::Mate(-2),
        ] {
            assert_eq!(score.to_string().parse::<MoveScore>(), Ok(score));
        }
        assert_eq!("1.5".parse::<MoveScore>(), Ok(MoveScore::Cp(150)));
        assert_eq!("M3".parse::<MoveScore>(), Ok(MoveScore::Mate(3)));
        assert_eq!("-0.004".parse::<MoveScore>(), Ok(MoveScore::Cp(0)));
        for bad in ["", "+", "book", "+Mx", "nan", "+inf", "1e9", "--1", "+-1"] {
            assert!(bad.parse::<MoveScore>().is_err(), "{bad}");
        }
    }

    #[test]
    fn one_side_on_a_clock_shows_its_time_for_both() {
        let ms = Duration::from_millis;
        let own = SideClock {
            remaining: ms(900),
            increment: ms(10),
        };
        let clock = clock_for_engine(&[None, Some(own)]).unwrap();
        assert_eq!(clock.time, [ms(900), ms(900)]);
        assert_eq!(clock_for_engine(&[None, None]), None);
    }
}
