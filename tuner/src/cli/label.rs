//! `kurier-tune label`: the positions `texel` would take from recorded
//! games ([`crate::texel::tune::choose_positions`]), each scored by a UCI
//! engine's search at a fixed depth or node count, written as scored
//! positions ([`crate::texel::scored_positions`]) for `kurier-tune texel --scored`.
//!
//! The labelling engine may be any UCI engine that plays the variant:
//! Fairy-Stockfish, to fit Kurier's weights to a stronger engine's
//! judgement, or Kurier itself at a deep search. Each line is written the
//! moment its search ends, so a stopped or killed run keeps every score
//! it got; `--resume` scores only the positions not yet in the file (a
//! line torn by a kill is dropped first). With several engines at once
//! (`--concurrency`) the lines come in the order the searches end.

use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use clap::Args;
use kurier_engine::eval::evaluate::Evaluator;
use kurier_engine::position::any_game::AnyGame;
use kurier_engine::position::rules::GameResult;
use kurier_engine::with_game;

use crate::players::uci_engine::{EngineSpec, GoLimit, UciEngine};
use crate::records::variant_source::VariantArgs;
use crate::texel::scored_positions::{parse_scored, ScoredPosition};
use crate::texel::tune::{choose_positions, read_games, starting_params, PositionChoice};
use crate::util::work_progress::WorkProgress;

/// `kurier-tune label`: score positions of recorded games with a UCI engine.
#[derive(Args, Debug, Clone)]
pub struct LabelArgs {
    /// The game.
    #[command(flatten)]
    pub variant: VariantArgs,
    /// Tournament journals (`journal.jsonl`) or run folders holding one;
    /// games of other variants are skipped.
    #[arg(required = true)]
    pub games: Vec<PathBuf>,
    /// The labelling engine, `name=X,cmd=PATH[,arg=ARG][,option.NAME=VALUE]`.
    #[arg(long)]
    pub engine: String,
    /// Search depth of each score (`go depth D`).
    #[arg(long, conflicts_with = "nodes")]
    pub depth: Option<u32>,
    /// Nodes of each score (`go nodes N`); default 20,000 unless --depth.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// The weights whose quiescence search decides which positions are
    /// quiet (as `texel --params`); default: the variant's defaults.
    #[arg(long)]
    pub params: Option<PathBuf>,
    /// Which positions of each game.
    #[command(flatten)]
    pub choice: PositionChoice,
    /// Engines searching at once.
    #[arg(long, default_value_t = 2)]
    pub concurrency: usize,
    /// Seconds an engine may take to start, or to finish one search.
    #[arg(long, default_value_t = 120)]
    pub timeout: u64,
    /// The scored positions' file.
    #[arg(long)]
    pub out: PathBuf,
    /// Continue a stopped run: keep the file's lines, score the rest.
    #[arg(long)]
    pub resume: bool,
}

/// Runs `kurier-tune label`.
pub fn label_command(args: &LabelArgs) -> Result<(), String> {
    let (variant, _) = args.variant.load()?;
    let spec = EngineSpec::parse(&args.engine)?;
    if args.concurrency == 0 {
        return Err("--concurrency 0: at least one engine must search".to_string());
    }
    let (limit, search) = match (args.depth, args.nodes) {
        (Some(0), _) | (_, Some(0)) => {
            return Err("--depth and --nodes must be at least 1".to_string())
        }
        (Some(depth), _) => (GoLimit::Depth(depth), format!("depth {depth}")),
        (None, nodes) => {
            let nodes = nodes.unwrap_or(20_000);
            (GoLimit::Nodes(nodes), format!("{nodes} nodes"))
        }
    };
    let timeout = Duration::from_secs(args.timeout);
    // Stop at once, with the reason, when the engine cannot play at all.
    UciEngine::start(&spec, &variant.name, timeout)
        .map_err(|e| e.to_string())?
        .quit();
    let start = starting_params(&variant, args.params.as_deref())?;
    let games = read_games(&variant, &args.games)?;
    let game = AnyGame::new(variant.clone()).map_err(|e| e.to_string())?;
    let chosen: Vec<(String, GameResult)> = with_game!(&game, g => {
        let evaluator = Evaluator::new(g, start.clone());
        choose_positions(g, &evaluator, &games, &args.choice).map(|chosen| {
            chosen
                .into_iter()
                .flatten()
                .map(|c| (c.position.fen(), c.result))
                .collect()
        })
    })?;
    let done = already_scored(&args.out, args.resume)?;
    let todo: Vec<&(String, GameResult)> = chosen
        .iter()
        .filter(|(fen, _)| !done.contains(fen))
        .collect();
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&args.out)
        .map_err(|e| format!("{}: cannot write it: {e}", args.out.display()))?;
    let job = Job {
        spec: &spec,
        variant: &variant.name,
        limit,
        timeout,
        todo: &todo,
        next: AtomicUsize::new(0),
        failed: AtomicBool::new(false),
        out: Mutex::new(file),
        out_path: &args.out,
        progress: WorkProgress::new(todo.len() as u64, "positions"),
    };
    let results: Vec<Result<(), String>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..args.concurrency.min(todo.len().max(1)))
            .map(|_| scope.spawn(|| job.work()))
            .collect();
        workers
            .into_iter()
            .map(|worker| {
                worker
                    .join()
                    .unwrap_or_else(|_| Err("a labelling thread panicked".to_string()))
            })
            .collect()
    });
    job.progress.finish();
    results.into_iter().collect::<Result<(), String>>()?;
    println!(
        "{}: {} positions of {} games scored by {} ({}), {} of them before this run; written to {}",
        variant.name,
        chosen.len(),
        games.len(),
        spec.name,
        search,
        chosen.len() - todo.len(),
        args.out.display()
    );
    Ok(())
}

/// The FENs already in `out` when resuming. A new run refuses an existing
/// file; a resumed one first cuts a last line that a kill left without
/// its end.
fn already_scored(out: &Path, resume: bool) -> Result<HashSet<String>, String> {
    let text = match std::fs::read_to_string(out) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(HashSet::new()),
        Err(e) => return Err(format!("{}: cannot read it: {e}", out.display())),
    };
    if !resume {
        return Err(format!(
            "{}: exists already; --resume continues it, or choose another --out",
            out.display()
        ));
    }
    let whole = match text.rfind('\n') {
        Some(end) => &text[..=end],
        None => "",
    };
    if whole.len() < text.len() {
        std::fs::write(out, whole)
            .map_err(|e| format!("{}: cannot cut its torn last line: {e}", out.display()))?;
    }
    let scored = parse_scored(whole, &out.display().to_string())?;
    Ok(scored.into_iter().map(|s| s.fen).collect())
}

/// The shared state of one labelling run.
struct Job<'a> {
    spec: &'a EngineSpec,
    variant: &'a str,
    limit: GoLimit,
    timeout: Duration,
    todo: &'a [&'a (String, GameResult)],
    next: AtomicUsize,
    failed: AtomicBool,
    out: Mutex<File>,
    out_path: &'a Path,
    progress: WorkProgress,
}

impl Job<'_> {
    /// One engine's share: positions taken in turn until none is left or
    /// another engine failed.
    fn work(&self) -> Result<(), String> {
        let result = self.work_until_done();
        if result.is_err() {
            self.failed.store(true, Ordering::Relaxed);
        }
        result
    }

    fn work_until_done(&self) -> Result<(), String> {
        let mut engine = None;
        while !self.failed.load(Ordering::Relaxed) {
            let index = self.next.fetch_add(1, Ordering::Relaxed);
            let Some(&(fen, result)) = self.todo.get(index) else {
                break;
            };
            let score = self.score(&mut engine, fen)?;
            let line = ScoredPosition {
                fen: fen.clone(),
                score,
                result: *result,
            };
            let mut out = self.out.lock().unwrap_or_else(|p| p.into_inner());
            writeln!(out, "{line}")
                .map_err(|e| format!("{}: cannot write it: {e}", self.out_path.display()))?;
            drop(out);
            self.progress.add(1);
        }
        if let Some(engine) = engine {
            engine.quit();
        }
        Ok(())
    }

    /// The engine's score of `fen`; an engine that fails is started again
    /// and asked once more before the run stops with the reason.
    fn score(&self, engine: &mut Option<UciEngine>, fen: &str) -> Result<i32, String> {
        let mut last_failure = String::new();
        for _attempt in 0..2 {
            let mut running = match engine.take() {
                Some(running) => running,
                None => match UciEngine::start(self.spec, self.variant, self.timeout) {
                    Ok(started) => started,
                    Err(failure) => {
                        last_failure = failure.to_string();
                        continue;
                    }
                },
            };
            match running.go(fen, &[], &self.limit, Some(self.timeout)) {
                Ok(reply) => {
                    let score = reply.score.ok_or_else(|| {
                        format!(
                            "{} gave no score for {fen} (no 'info ... score' line before 'bestmove')",
                            self.spec.name
                        )
                    });
                    *engine = Some(running);
                    return score;
                }
                Err(failure) => last_failure = failure.to_string(),
            }
        }
        Err(format!(
            "{}: stopped at {fen}: {last_failure}; the scores so far are kept, --resume continues",
            self.out_path.display()
        ))
    }
}
