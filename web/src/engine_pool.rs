//! The engine's searches, of every game, on one pool of threads as many
//! as the machine's cores, apart from the threads that answer requests
//! (which never search, so the page stays responsive whatever the
//! load). A search waits in a queue for a free thread; past
//! [`MAX_WAITING_SEARCHES`] waiting, a request that would start one is
//! answered "busy" ([`ApiError::busy`]) before it changes anything.

use std::num::NonZeroUsize;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex, Weak};

use kurier_engine::search::interface::Control;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::error::ApiError;

/// The most searches that may wait for a thread of the pool.
pub const MAX_WAITING_SEARCHES: usize = 16;

/// A search as a pool thread runs it: it watches the control it is given
/// for a request to stop.
type Task = Box<dyn FnOnce() + Send>;

/// The pool: its threads take searches from one queue.
pub struct EnginePool {
    queue: Sender<Task>,
    /// One permit per thread and per place in the queue.
    places: Arc<Semaphore>,
    threads: usize,
}

/// A place for one search (on a thread or in the queue), taken before a
/// request changes anything and kept until that search has ended.
pub struct SearchPlace {
    /// Held, not read: dropping it gives the place back.
    _permit: OwnedSemaphorePermit,
}

/// A search handed to the pool; dropping it stops the search, or drops
/// it from the queue before it starts.
pub struct PooledSearch {
    control: Arc<Control>,
}

impl Drop for PooledSearch {
    fn drop(&mut self) {
        self.control.stop();
    }
}

impl EnginePool {
    /// A pool of one thread per core of this machine.
    pub fn for_this_machine() -> Result<EnginePool, String> {
        let cores = std::thread::available_parallelism().map_or(1, NonZeroUsize::get);
        EnginePool::new(cores)
    }

    /// A pool of `threads` threads (at least one); they end when the pool
    /// is dropped, after the search each runs.
    pub fn new(threads: usize) -> Result<EnginePool, String> {
        let threads = threads.max(1);
        let (queue, tasks) = channel::<Task>();
        let tasks = Arc::new(Mutex::new(tasks));
        for index in 0..threads {
            let tasks = Arc::clone(&tasks);
            std::thread::Builder::new()
                .name(format!("kurier-search-{index}"))
                .spawn(move || run_tasks(&tasks))
                .map_err(|e| format!("cannot start the engine's threads: {e}"))?;
        }
        Ok(EnginePool {
            queue,
            places: Arc::new(Semaphore::new(threads + MAX_WAITING_SEARCHES)),
            threads,
        })
    }

    /// The pool's threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The searches running or waiting now.
    pub fn searches(&self) -> usize {
        self.threads + MAX_WAITING_SEARCHES - self.places.available_permits()
    }

    /// A place for a search, or "busy" when every thread runs one and
    /// [`MAX_WAITING_SEARCHES`] wait.
    pub fn reserve(&self) -> Result<SearchPlace, ApiError> {
        Arc::clone(&self.places)
            .try_acquire_owned()
            .map(|permit| SearchPlace { _permit: permit })
            .map_err(|_| {
                ApiError::busy(format!(
                    "the engine is busy: its {} threads each run a search and {MAX_WAITING_SEARCHES} more wait",
                    self.threads
                ))
            })
    }

    /// Queues `search` in `place`; a thread runs it with its control,
    /// unless the handle returned was dropped before.
    pub fn start(
        &self,
        place: SearchPlace,
        search: impl FnOnce(&Control) + Send + 'static,
    ) -> PooledSearch {
        let control = Arc::new(Control::new(false));
        let watched: Weak<Control> = Arc::downgrade(&control);
        let task = Box::new(move || {
            // The place is given back when the search ends or is dropped.
            let _place = place;
            if let Some(control) = watched.upgrade() {
                search(&control);
            }
        });
        // The threads end only once the pool (this sender) is dropped,
        // so the queue is open; a task it did not take is dropped unrun.
        let _ = self.queue.send(task);
        PooledSearch { control }
    }
}

/// A pool thread: runs the queue's tasks until the pool is dropped.
fn run_tasks(tasks: &Mutex<Receiver<Task>>) {
    loop {
        let task = tasks
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .recv();
        let Ok(task) = task else {
            return;
        };
        // A panic in a search is a bug; the thread goes on with the next.
        if catch_unwind(AssertUnwindSafe(task)).is_err() {
            eprintln!("kurier serve: a search failed");
        }
    }
}
