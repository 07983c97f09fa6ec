//! Running a search in the background, so that a protocol can go on
//! reading commands (`stop`, `ponderhit`, `isready`) while it thinks. The
//! search thread itself spawns the Lazy-SMP helpers (see `search`).

use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Instant;

use crate::board::bitboard::Bitboard;
use crate::eval::evaluate::Evaluator;
use crate::position::state::Position;
use crate::search::alpha_beta::search;
use crate::search::history::SearchHistories;
use crate::search::interface::{Config, Control, Limits, Report, SearchResult};
use crate::search::tt::TranspositionTable;

/// A search running on its own thread.
pub struct SearchThread {
    handle: Option<JoinHandle<()>>,
    control: Arc<Control>,
    started: Instant,
}

/// Everything a background search needs.
pub struct SearchJob<B: Bitboard> {
    /// The position to search.
    pub position: Position<B>,
    /// The evaluation.
    pub evaluator: Arc<Evaluator<B>>,
    /// The shared hash table.
    pub tt: Arc<TranspositionTable>,
    /// The move statistics of the game, kept from search to search.
    pub histories: Arc<Mutex<SearchHistories>>,
    /// Limits of this search.
    pub limits: Limits,
    /// Threads, MultiPV, overhead.
    pub config: Config,
    /// Whether it starts as a ponder search.
    pub ponder: bool,
}

impl SearchThread {
    /// Starts `job`; `on_report` gets each progress report and `on_done`
    /// the result (with the searched position, to print moves).
    pub fn start<B: Bitboard>(
        job: SearchJob<B>,
        mut on_report: impl FnMut(&Position<B>, &Report) + Send + 'static,
        on_done: impl FnOnce(&Position<B>, SearchResult) + Send + 'static,
    ) -> SearchThread {
        let control = Arc::new(Control::new(job.ponder));
        let thread_control = Arc::clone(&control);
        let handle = std::thread::spawn(move || {
            let position = job.position;
            // Only one search of a session runs at a time; a search that
            // panicked left nothing the next one cannot overwrite.
            let mut histories = job
                .histories
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            let result = search(
                &position,
                &job.evaluator,
                &job.tt,
                &mut histories,
                &job.limits,
                &job.config,
                &thread_control,
                &mut |report| on_report(&position, report),
            );
            drop(histories);
            on_done(&position, result);
        });
        SearchThread {
            handle: Some(handle),
            control,
            started: Instant::now(),
        }
    }

    /// Tells the search the ponder move was played.
    pub fn ponderhit(&self) {
        self.control.ponderhit(self.started.elapsed());
    }

    /// Whether the search has finished by itself.
    pub fn finished(&self) -> bool {
        self.handle
            .as_ref()
            .is_none_or(|handle| handle.is_finished())
    }

    /// Stops the search and waits until it has reported its result.
    pub fn stop(&mut self) {
        self.control.stop();
        self.join();
    }

    /// Waits until the search has finished by itself.
    pub fn join(&mut self) {
        if let Some(handle) = self.handle.take() {
            // A panic in the search thread is a bug; the protocol goes on.
            if handle.join().is_err() {
                eprintln!("kurier: the search thread failed");
            }
        }
    }
}

impl Drop for SearchThread {
    fn drop(&mut self) {
        self.stop();
    }
}
