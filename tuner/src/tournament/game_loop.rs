//! Playing one game: in-process Kurier players, the seat abstraction that
//! external engines share, and the game loop that enforces clocks,
//! adjudicates, and lets the engine's rules ([`Position::outcome`]) end
//! every game.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use kurier_engine::board::bitboard::Bitboard;
use kurier_engine::position::rules::{GameResult, Outcome};
use kurier_engine::position::state::Position;
use kurier_engine::types::Clock;
use kurier_engine::types::Color;

use crate::players::clock::SideClock;
use crate::players::seat::MoveRequest;
use crate::players::seat::Player;
use crate::players::seat::SearchLimit;
use crate::players::seat::Seat;
use crate::players::seat::SeatFailure;
use crate::records::game_record::GameEnd;
use crate::records::game_record::GameRecord;
use crate::records::game_record::MoveNote;
use crate::tournament::adjudication::Adjudication;

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

#[cfg(test)]
mod tests {
    use super::*;

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
