//! The games a server keeps: each behind its own lock, with the channel
//! its pages listen on, the least recently used dropped past a bound.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::Instant;

use tokio::sync::broadcast;

use crate::engine_pool::{EnginePool, SearchPlace};
use crate::error::ApiError;
use crate::game_view::{GameEvent, GameView};
use crate::live::LiveGame;

/// The most games a server keeps; a new one past that drops the game
/// used least recently (and stops its search).
pub const MAX_GAMES: usize = 64;

/// Events a slow page may fall behind by before it misses some.
const EVENT_BUFFER: usize = 256;

/// One game and its listeners.
pub struct Seat {
    game: Box<dyn LiveGame>,
    events: broadcast::Sender<GameEvent>,
    last_used: Instant,
}

/// A kept game, shared by the requests that use it.
pub type SharedSeat = Arc<Mutex<Seat>>;

/// Locks a game. A panic while it was locked (which would be a bug) left
/// it as that request left it; it is still used.
pub fn lock(seat: &SharedSeat) -> MutexGuard<'_, Seat> {
    seat.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Seat {
    /// The game.
    pub fn game(&mut self) -> &mut dyn LiveGame {
        self.last_used = Instant::now();
        self.game.as_mut()
    }

    /// Listens to the game's events.
    pub fn subscribe(&self) -> broadcast::Receiver<GameEvent> {
        self.events.subscribe()
    }

    /// The current view, sent to every listener too.
    pub fn publish(&mut self) -> GameView {
        let view = self.game().view();
        // Nobody listening is fine: the page may poll instead.
        let _ = self.events.send(GameEvent::State(Box::new(view.clone())));
        view
    }
}

/// The games, by id.
pub struct Games {
    next_id: u64,
    seats: HashMap<u64, SharedSeat>,
}

impl Games {
    /// No games yet.
    pub fn new() -> Games {
        Games {
            next_id: 1,
            seats: HashMap::new(),
        }
    }

    /// The id the next game gets.
    pub fn next_id(&self) -> u64 {
        self.next_id
    }

    /// Keeps `game` (made with [`Games::next_id`]); drops the least
    /// recently used game when [`MAX_GAMES`] are kept.
    pub fn insert(&mut self, game: Box<dyn LiveGame>) -> (u64, SharedSeat) {
        if self.seats.len() >= MAX_GAMES {
            let oldest = self
                .seats
                .iter()
                .min_by_key(|(_, seat)| lock(seat).last_used)
                .map(|(&id, _)| id);
            if let Some(id) = oldest {
                self.seats.remove(&id);
            }
        }
        let id = self.next_id;
        self.next_id += 1;
        let (events, _) = broadcast::channel(EVENT_BUFFER);
        let seat = Arc::new(Mutex::new(Seat {
            game,
            events,
            last_used: Instant::now(),
        }));
        self.seats.insert(id, Arc::clone(&seat));
        (id, seat)
    }

    /// The game with the id written `id`.
    pub fn get(&self, id: &str) -> Result<SharedSeat, ApiError> {
        id.parse::<u64>()
            .ok()
            .and_then(|number| self.seats.get(&number))
            .cloned()
            .ok_or_else(|| {
                ApiError::not_found(format!(
                    "no game {id} on this server (it keeps the {MAX_GAMES} games used last); start a new game"
                ))
            })
    }

    /// Forgets the game with the id written `id`.
    pub fn remove(&mut self, id: &str) -> Result<(), ApiError> {
        self.get(id)?;
        if let Ok(number) = id.parse::<u64>() {
            self.seats.remove(&number);
        }
        Ok(())
    }
}

impl Default for Games {
    fn default() -> Self {
        Games::new()
    }
}

/// Starts the engine's search in `seat`'s game, on `pool` in `place`,
/// when it is the engine's move; a task waits for the result and plays
/// it, unless the game was dropped or the search replaced meanwhile.
pub fn engine_turn(seat: &SharedSeat, pool: &EnginePool, place: SearchPlace) {
    let mut locked = lock(seat);
    let events = locked.events.clone();
    let Some(result) = locked.game().start_engine(&events, pool, place) else {
        return;
    };
    locked.publish();
    drop(locked);
    let weak: Weak<Mutex<Seat>> = Arc::downgrade(seat);
    tokio::spawn(async move {
        let Ok(done) = result.await else {
            return;
        };
        let Some(seat) = weak.upgrade() else {
            return;
        };
        let mut locked = lock(&seat);
        if locked.game().finish_engine(done) {
            locked.publish();
        }
    });
}
