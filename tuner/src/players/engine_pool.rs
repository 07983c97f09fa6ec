//! External engines at the board: a pool of running processes per
//! engine, one per game in progress, and the seat through which a game
//! asks one for moves. An engine that crashes, hangs, breaks the protocol
//! or plays an illegal move loses its game and is killed; the next game
//! starts a fresh process.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use kurier_engine::board::bitboard::Bitboard;
use kurier_engine::search::interface::Score;

use crate::players::seat::{MoveRequest, Reply, SearchLimit, Seat, SeatFailure};
use crate::players::uci_engine::{EngineFailure, EngineSpec, GoLimit, UciEngine};
use crate::records::game_record::MoveScore;

// Mates come back as the search writes them internally; see `reply`.
const _: () =
    assert!(crate::players::uci_engine::MATE_SCORE == kurier_engine::search::interface::MATE);

/// Idle processes of one external engine.
pub struct EnginePool {
    spec: EngineSpec,
    variant: String,
    start_timeout: Duration,
    idle: Mutex<Vec<UciEngine>>,
}

impl EnginePool {
    /// A pool of `spec`'s engine playing `variant`; `start_timeout` bounds
    /// each wait of the handshake and of `ucinewgame`.
    pub fn new(spec: EngineSpec, variant: &str, start_timeout: Duration) -> EnginePool {
        EnginePool {
            spec,
            variant: variant.to_string(),
            start_timeout,
            idle: Mutex::new(Vec::new()),
        }
    }

    /// Starts one process and keeps it, so that a run stops at once with
    /// the reason when the engine cannot play the variant at all.
    pub fn check(&self) -> Result<(), String> {
        let engine = UciEngine::start(&self.spec, &self.variant, self.start_timeout)
            .map_err(|e| e.to_string())?;
        self.lock().push(engine);
        Ok(())
    }

    /// A seat for one game with `limit`: an idle process (or a new one)
    /// told that a new game starts.
    pub fn seat(&self, limit: SearchLimit) -> ExternalSeat<'_> {
        let idle = self.lock().pop();
        let engine = match idle {
            Some(engine) => Ok(engine),
            None => UciEngine::start(&self.spec, &self.variant, self.start_timeout),
        }
        .and_then(|mut engine| engine.new_game().map(|()| engine));
        ExternalSeat {
            pool: self,
            engine: engine.map_err(|e| e.to_string()),
            limit,
        }
    }

    /// Quits every idle process.
    pub fn shut_down(&self) {
        for engine in self.lock().drain(..) {
            engine.quit();
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<UciEngine>> {
        // The list stays valid even if a thread panicked while holding it.
        self.idle
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// An external engine's seat for one game; gives a healthy process back
/// to its pool when the game is over.
pub struct ExternalSeat<'p> {
    pool: &'p EnginePool,
    /// The process, or why there is none (it failed to start or failed
    /// during this game and was killed).
    engine: Result<UciEngine, String>,
    limit: SearchLimit,
}

impl<B: Bitboard> Seat<B> for ExternalSeat<'_> {
    fn limit(&self) -> SearchLimit {
        self.limit
    }

    fn reply(&mut self, request: &MoveRequest<'_, B>) -> Result<Reply, SeatFailure> {
        let engine = match &mut self.engine {
            Ok(engine) => engine,
            Err(reason) => return Err(SeatFailure::Crashed(reason.clone())),
        };
        let limit = match (self.limit, request.clock) {
            (SearchLimit::Nodes(nodes), _) => GoLimit::Nodes(nodes),
            (SearchLimit::Depth(depth), _) => GoLimit::Depth(depth),
            (SearchLimit::Clock(_), Some(clock)) => GoLimit::Clock {
                wtime: clock.time[0],
                btime: clock.time[1],
                winc: clock.increment[0],
                binc: clock.increment[1],
            },
            (SearchLimit::Clock(_), None) => {
                return Err(SeatFailure::Protocol(
                    "a player on a clock was asked to move without one".to_string(),
                ))
            }
        };
        let wait = request.deadline.saturating_duration_since(Instant::now());
        match engine.go(&request.start.fen(), request.moves, &limit, Some(wait)) {
            Ok(reply) if request.position.parse_uci(&reply.best).is_err() => {
                // An engine that plays an illegal move is confused about
                // the game: it is replaced too.
                self.engine = Err(format!("sent the illegal move {}", reply.best));
                Err(SeatFailure::IllegalMove(reply.best))
            }
            Ok(reply) => Ok(Reply {
                uci: reply.best,
                // The engine module writes mates as the search does
                // (MATE - plies, MATE = 32000), so the search's reading of
                // internal scores applies.
                score: reply
                    .score
                    .map(|score| MoveScore::from(Score::from_internal(score))),
                depth: reply.depth.unwrap_or(0),
            }),
            Err(failure) => {
                let seat_failure = match &failure {
                    EngineFailure::Timeout(_) => SeatFailure::Timeout,
                    EngineFailure::Protocol(message) => SeatFailure::Protocol(message.clone()),
                    EngineFailure::Spawn(message)
                    | EngineFailure::Unsupported(message)
                    | EngineFailure::Crashed(message) => SeatFailure::Crashed(message.clone()),
                };
                // Its state is unknown: dropping it kills the process.
                self.engine = Err(failure.to_string());
                Err(seat_failure)
            }
        }
    }
}

impl Drop for ExternalSeat<'_> {
    fn drop(&mut self) {
        let engine = std::mem::replace(&mut self.engine, Err(String::new()));
        if let Ok(engine) = engine {
            self.pool.lock().push(engine);
        }
    }
}
