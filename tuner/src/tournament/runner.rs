//! Running a tournament: the schedule's games played in parallel (each
//! game with its own hash tables or engine processes), every finished
//! game journaled at once, live progress, the SPRT that may stop a match,
//! a clean stop on request, resume after a kill, and the merge of shards.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use kurier_engine::board::bitboard::Bitboard;
use kurier_engine::position::any_game::AnyGame;
use kurier_engine::position::game::Game;
use kurier_engine::position::state::Position;
use kurier_engine::with_game;

use crate::players::engine_pool::EnginePool;
use crate::players::player_spec::{check_unique_names, EngineChoice, PlayerSpec};
use crate::players::seat::{Player, PlayerSettings, Seat};
use crate::players::uci_engine::EngineSpec;
use crate::positions::openings::{random_opening, read_openings};
use crate::records::variant_source::{recorded_variant, VariantFile};
use crate::stats::match_stats::Sprt;
use crate::tournament::adjudication::Adjudication;
use crate::tournament::game_loop::{play_seated, GameRules};
use crate::tournament::journal::{read_journal, write_journal, GameEntry, Journal};
use crate::tournament::progress_line::Progress;
use crate::tournament::results::{write_results, JOURNAL_FILE};
use crate::tournament::schedule::{Format, GameSlot};
use crate::tournament::settings::{OpeningSource, TournamentSettings, ENGINE_VERSION};
use crate::tournament::summary::{sprt_decided, RunEnd, Scoreboard, Summary};
use crate::util::files::fingerprint;
use crate::util::files::same_file;
use crate::util::rng::Rng;
use crate::util::shard::Shard;

/// How long an external engine may take to start up or to confirm a new
/// game.
const ENGINE_START_TIMEOUT: Duration = Duration::from_secs(10);

/// Where the openings come from, as asked.
#[derive(Clone, Debug)]
pub enum OpeningsChoice {
    /// An EPD/FEN file.
    Book(PathBuf),
    /// Random plies from the start, from the seed.
    Random {
        /// Plies per opening.
        plies: usize,
    },
}

/// A tournament as asked for on the command line.
#[derive(Clone, Debug)]
pub struct TournamentRequest {
    /// The variant's name.
    pub variant: String,
    /// The variant file it comes from (a built-in variant: none).
    pub variant_file: Option<VariantFile>,
    /// Match, gauntlet or round robin.
    pub format: Format,
    /// The players.
    pub players: Vec<PlayerSpec>,
    /// Game pairs per encounter.
    pub pairs: usize,
    /// Seed of the opening order and random openings.
    pub seed: u64,
    /// The openings.
    pub openings: OpeningsChoice,
    /// Adjudication and the ply limit.
    pub adjudication: Adjudication,
    /// Longest wait for a move of a player without a clock.
    pub move_timeout: Duration,
    /// How far past its clock a player may go.
    pub time_margin: Duration,
    /// The SPRT (matches only).
    pub sprt: Option<Sprt>,
    /// This machine's slice of the schedule.
    pub shard: Option<Shard>,
}

/// A run ready to play: its settings and the openings and players they
/// refer to, loaded and checked.
#[derive(Clone, Debug)]
pub struct Prepared {
    /// The settings, as the journal records them.
    pub settings: TournamentSettings,
    openings: Vec<String>,
    kurier: Vec<Option<PlayerSettings>>,
}

/// How to run, beyond what decides the games.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// The run's folder: journal, PGN and summary.
    pub out_dir: PathBuf,
    /// Games at once.
    pub concurrency: usize,
    /// Continue the run whose journal is in `out_dir`.
    pub resume: bool,
    /// Without a terminal, a progress line every this many games.
    pub progress_every: u64,
}

/// Loads and checks everything `request` refers to.
pub fn prepare(request: TournamentRequest) -> Result<Prepared, String> {
    let variant = recorded_variant(&request.variant, request.variant_file.as_ref())?;
    if request.sprt.is_some() && request.format != Format::Match {
        return Err("--sprt is for matches (two players) only".to_string());
    }
    if request.pairs == 0 {
        return Err("--pairs must be at least 1".to_string());
    }
    check_unique_names(&request.players)?;
    request.format.encounters(request.players.len())?;
    let mut players = Vec::new();
    let mut kurier = Vec::new();
    for spec in &request.players {
        match spec.kurier_settings(&variant)? {
            Some((settings, recorded)) => {
                kurier.push(Some(settings));
                players.push(recorded);
            }
            None => {
                kurier.push(None);
                players.push(spec.clone());
            }
        }
    }
    let game = AnyGame::new(variant).map_err(|e| e.to_string())?;
    let (openings, source) = with_game!(&game, g => load_openings(g, &request))?;
    let settings = TournamentSettings {
        engine_version: ENGINE_VERSION.to_string(),
        variant: request.variant,
        variant_file: request.variant_file,
        format: request.format,
        players,
        pairs: request.pairs,
        seed: request.seed,
        openings: source,
        adjudication: request.adjudication,
        move_timeout_ms: request.move_timeout.as_millis() as u64,
        time_margin_ms: request.time_margin.as_millis() as u64,
        sprt: request.sprt,
        shard: request.shard,
    };
    Ok(Prepared {
        settings,
        openings,
        kurier,
    })
}

/// The openings as FENs, and how the settings describe them.
fn load_openings<B: Bitboard>(
    game: &Arc<Game<B>>,
    request: &TournamentRequest,
) -> Result<(Vec<String>, OpeningSource), String> {
    match &request.openings {
        OpeningsChoice::Book(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("{}: cannot read the openings: {e}", path.display()))?;
            let fens: Vec<String> = read_openings(game, &text, &path.display().to_string())?
                .iter()
                .map(Position::fen)
                .collect();
            let source = OpeningSource::Book {
                path: path.display().to_string(),
                positions: fens.len(),
                fingerprint: fingerprint(&fens.join("\n")),
            };
            Ok((fens, source))
        }
        &OpeningsChoice::Random { plies } => {
            let start = Position::startpos(game.clone());
            // One opening per round, each from its own seeded generator.
            let fens = (0..request.pairs as u64)
                .map(|round| {
                    let mut rng =
                        Rng::new(request.seed.wrapping_mul(1_000_003).wrapping_add(round));
                    random_opening(&start, plies, &mut rng).fen()
                })
                .collect();
            Ok((fens, OpeningSource::Random { plies }))
        }
    }
}

/// A player ready for games.
enum Contestant<B: Bitboard> {
    Kurier(Box<Player<B>>),
    External(EnginePool),
}

impl<B: Bitboard> Contestant<B> {
    fn seat(&self, spec: &PlayerSpec) -> Box<dyn Seat<B> + '_> {
        match self {
            Contestant::Kurier(player) => Box::new(player.seat()),
            Contestant::External(pool) => Box::new(pool.seat(spec.limit)),
        }
    }
}

/// What the workers share, behind one lock: the journal and the scores.
struct Recorder {
    journal: Journal,
    board: Scoreboard,
    games: Vec<GameEntry>,
    progress: Progress,
    error: Option<String>,
    /// Whether the SPRT decided during this run (and so stopped it).
    sprt_stopped: bool,
}

/// Plays the run `prepared` (or what is left of it, with `resume`) until
/// every game is played, the SPRT decides, or `stop` is raised (games in
/// progress are then abandoned); writes the PGN and the summary in any
/// case, and returns the summary.
pub fn run(
    prepared: &Prepared,
    options: &RunOptions,
    stop: &AtomicBool,
) -> Result<Summary, String> {
    let game = game_of(&prepared.settings)?;
    with_game!(&game, g => run_on(g, prepared, options, stop))
}

fn run_on<B: Bitboard>(
    game: &Arc<Game<B>>,
    prepared: &Prepared,
    options: &RunOptions,
    stop: &AtomicBool,
) -> Result<Summary, String> {
    let settings = &prepared.settings;
    std::fs::create_dir_all(&options.out_dir)
        .map_err(|e| format!("{}: cannot create it: {e}", options.out_dir.display()))?;
    let journal_path = options.out_dir.join(JOURNAL_FILE);
    let (journal, done) = open_journal(&journal_path, settings, options.resume)?;
    let slots = settings.schedule()?.shard(settings.shard).games();
    check_games_fit(settings, &done, &journal_path)?;
    let finished: std::collections::HashSet<u64> = done.iter().map(|g| g.id).collect();
    let todo: Vec<GameSlot> = slots
        .iter()
        .filter(|slot| !finished.contains(&slot.id))
        .copied()
        .collect();
    let contestants: Vec<Contestant<B>> = settings
        .players
        .iter()
        .zip(&prepared.kurier)
        .map(|(spec, kurier)| -> Result<Contestant<B>, String> {
            match (&spec.engine, kurier) {
                (EngineChoice::External(external), _) => {
                    let engine_spec = EngineSpec::parse(&external.spec)?;
                    Ok(Contestant::External(EnginePool::new(
                        engine_spec,
                        &settings.variant,
                        ENGINE_START_TIMEOUT,
                    )))
                }
                (EngineChoice::Kurier(_), Some(kurier)) => Ok(Contestant::Kurier(Box::new(
                    Player::new(game, kurier.clone()),
                ))),
                (EngineChoice::Kurier(_), None) => {
                    Err(format!("player {} was not prepared", spec.name))
                }
            }
        })
        .collect::<Result<_, _>>()?;
    if !todo.is_empty() {
        for (spec, contestant) in settings.players.iter().zip(&contestants) {
            if let Contestant::External(pool) = contestant {
                pool.check()
                    .map_err(|e| format!("engine {}: {e}", spec.name))?;
            }
        }
    }
    let board = board_of(settings, &done);
    let recorder = Mutex::new(Recorder {
        journal,
        board,
        games: done,
        progress: Progress::new(slots.len() as u64, options.progress_every),
        error: None,
        sprt_stopped: false,
    });
    let rules = GameRules {
        adjudication: settings.adjudication,
        move_timeout: Duration::from_millis(settings.move_timeout_ms),
        time_margin: Duration::from_millis(settings.time_margin_ms),
    };
    let concurrency = options.concurrency.max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(concurrency)
        .build()
        .map_err(|e| format!("cannot start {concurrency} game threads: {e}"))?;
    let decided_before = {
        let recorder = lock(&recorder);
        sprt_decided(settings, &recorder.board)
    };
    let next = AtomicUsize::new(0);
    if !decided_before {
        pool.scope(|scope| {
            for _ in 0..concurrency {
                scope.spawn(|_| {
                    while !stop.load(Ordering::SeqCst) {
                        let index = next.fetch_add(1, Ordering::SeqCst);
                        let Some(slot) = todo.get(index) else { break };
                        play_slot(game, prepared, &contestants, slot, &rules, &recorder, stop);
                    }
                });
            }
        });
    }
    for contestant in &contestants {
        if let Contestant::External(pool) = contestant {
            pool.shut_down();
        }
    }
    let recorder = recorder
        .into_inner()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let mut progress = recorder.progress;
    progress.finish();
    if let Some(error) = recorder.error {
        return Err(error);
    }
    let status = if decided_before || recorder.sprt_stopped {
        RunEnd::SprtDecided
    } else if recorder.games.len() < slots.len() {
        RunEnd::Interrupted
    } else {
        RunEnd::Finished
    };
    write_results(
        game,
        &options.out_dir,
        settings,
        &recorder.games,
        slots.len() as u64,
        status,
    )
}

/// Plays one scheduled game and records it, unless it was abandoned.
fn play_slot<B: Bitboard>(
    game: &Arc<Game<B>>,
    prepared: &Prepared,
    contestants: &[Contestant<B>],
    slot: &GameSlot,
    rules: &GameRules,
    recorder: &Mutex<Recorder>,
    stop: &AtomicBool,
) {
    let settings = &prepared.settings;
    let fen = &prepared.openings[slot.opening];
    let start = match Position::from_fen(game.clone(), fen) {
        Ok(start) => start,
        Err(e) => {
            fail(recorder, stop, format!("opening {}: {e}", slot.opening));
            return;
        }
    };
    let record = {
        let mut white = contestants[slot.white].seat(&settings.players[slot.white]);
        let mut black = contestants[slot.black].seat(&settings.players[slot.black]);
        play_seated(&start, [white.as_mut(), black.as_mut()], rules, stop)
    };
    let Some(record) = record else { return };
    let entry = GameEntry::new(slot, fen.clone(), record);
    let mut recorder = lock(recorder);
    if recorder.error.is_some() {
        return;
    }
    if let Err(e) = recorder.journal.append(&entry) {
        recorder.error = Some(e);
        stop.store(true, Ordering::SeqCst);
        return;
    }
    recorder.board.add(&entry);
    recorder.games.push(entry);
    let Recorder {
        progress,
        board,
        sprt_stopped,
        ..
    } = &mut *recorder;
    progress.update(settings, board);
    if sprt_decided(settings, board) {
        *sprt_stopped = true;
        stop.store(true, Ordering::SeqCst);
    }
}

/// Records a failure that ends the run.
fn fail(recorder: &Mutex<Recorder>, stop: &AtomicBool, message: String) {
    lock(recorder).error.get_or_insert(message);
    stop.store(true, Ordering::SeqCst);
}

fn lock(recorder: &Mutex<Recorder>) -> std::sync::MutexGuard<'_, Recorder> {
    // The recorder stays consistent: each update is complete before the
    // lock is released, so a panicking holder leaves nothing half done.
    recorder
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A new journal, or with `resume` the existing one (its settings must
/// equal `settings`) and its games.
fn open_journal(
    path: &Path,
    settings: &TournamentSettings,
    resume: bool,
) -> Result<(Journal, Vec<GameEntry>), String> {
    match (resume, path.exists()) {
        (false, false) => Ok((Journal::create(path, settings)?, Vec::new())),
        (false, true) => Err(format!(
            "{} exists: resume that run with --resume, or choose another --out",
            path.display()
        )),
        (true, false) => Err(format!(
            "--resume: {} does not exist (no run to resume there)",
            path.display()
        )),
        (true, true) => {
            let contents = read_journal(path)?;
            let differences = settings.differences(&contents.settings);
            if !differences.is_empty() {
                return Err(format!(
                    "--resume: the settings differ from those of the run in {} (given vs journal):\n  {}",
                    path.display(),
                    differences.join("\n  ")
                ));
            }
            let journal = Journal::reopen(path, contents.complete_bytes)?;
            Ok((journal, contents.games))
        }
    }
}

/// Checks that every game of a journal is a game of the settings'
/// schedule (its shard), with the same players and opening.
fn check_games_fit(
    settings: &TournamentSettings,
    games: &[GameEntry],
    source: &Path,
) -> Result<(), String> {
    let slots: HashMap<u64, GameSlot> = settings
        .schedule()?
        .shard(settings.shard)
        .games()
        .into_iter()
        .map(|slot| (slot.id, slot))
        .collect();
    for entry in games {
        let fits = slots.get(&entry.id).is_some_and(|slot| {
            (slot.white, slot.black, slot.opening) == (entry.white, entry.black, entry.opening)
        });
        if !fits {
            return Err(format!(
                "{}: game {} does not belong to this run's schedule",
                source.display(),
                entry.id
            ));
        }
    }
    Ok(())
}

/// Joins shard journals into one run in `out_dir`: a journal, the PGN and
/// the summary. Their settings must agree but for the shard, and no game
/// may appear twice.
pub fn merge(journals: &[PathBuf], out_dir: &Path) -> Result<Summary, String> {
    let Some((first, rest)) = journals.split_first() else {
        return Err("merge: no journals given".to_string());
    };
    let mut base = read_journal(first)?;
    base.settings.shard = None;
    check_games_fit(&base.settings, &base.games, first)?;
    let mut games = base.games;
    let mut origin: HashMap<u64, &Path> = games.iter().map(|g| (g.id, first.as_path())).collect();
    for path in rest {
        let mut contents = read_journal(path)?;
        contents.settings.shard = None;
        let differences = base.settings.differences(&contents.settings);
        if !differences.is_empty() {
            return Err(format!(
                "merge: {} and {} are not shards of one run:\n  {}",
                first.display(),
                path.display(),
                differences.join("\n  ")
            ));
        }
        check_games_fit(&base.settings, &contents.games, path)?;
        for entry in contents.games {
            if let Some(other) = origin.insert(entry.id, path.as_path()) {
                return Err(format!(
                    "merge: game {} is in both {} and {}",
                    entry.id,
                    other.display(),
                    path.display()
                ));
            }
            games.push(entry);
        }
    }
    games.sort_by_key(|entry| entry.id);
    std::fs::create_dir_all(out_dir)
        .map_err(|e| format!("{}: cannot create it: {e}", out_dir.display()))?;
    let journal_path = out_dir.join(JOURNAL_FILE);
    if journals.iter().any(|path| same_file(path, &journal_path)) {
        return Err(format!(
            "merge: the output {} is one of the inputs",
            journal_path.display()
        ));
    }
    let settings = base.settings;
    let scheduled = 2 * settings.schedule()?.pairs.len() as u64;
    write_journal(&journal_path, &settings, &games)?;
    let status = if sprt_decided(&settings, &board_of(&settings, &games)) {
        RunEnd::SprtDecided
    } else if (games.len() as u64) < scheduled {
        RunEnd::Interrupted
    } else {
        RunEnd::Finished
    };
    let game = game_of(&settings)?;
    with_game!(&game, g => write_results(g, out_dir, &settings, &games, scheduled, status))
}

/// The game a run's settings name (its variant file read again).
fn game_of(settings: &TournamentSettings) -> Result<AnyGame, String> {
    let variant = recorded_variant(&settings.variant, settings.variant_file.as_ref())?;
    AnyGame::new(variant).map_err(|e| e.to_string())
}

fn board_of(settings: &TournamentSettings, games: &[GameEntry]) -> Scoreboard {
    let mut board = Scoreboard::new(settings.players.len());
    for entry in games {
        board.add(entry);
    }
    board
}
