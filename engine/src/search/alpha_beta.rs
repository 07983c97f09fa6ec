//! The search: iterative deepening with aspiration windows, principal
//! variation search with a staged move picker ([`crate::search::movepick`]) and
//! move statistics kept across the searches of a game
//! ([`crate::search::history`]), quiescence search, and the selective techniques
//! of the strongest alpha-beta engines: transposition-table cut-offs in
//! both searches (with the static evaluation kept in the entry), razoring,
//! reverse futility pruning, null-move pruning, internal iterative
//! reductions, late-move pruning, futility and history pruning of quiet
//! moves, static-exchange pruning of captures and quiet moves, delta
//! pruning in quiescence, singular extensions (and multi-cut), check
//! extensions for checks that lose no material, late-move reductions from
//! a precomputed table adjusted by history, and an "improving" flag that
//! tightens or loosens them. Mate scores, and repetition, fifty-move and
//! bare-king detection inside the tree (through
//! [`Position::rule_outcome`]). Time management is in [`crate::search::timeman`].
//! Several threads search the same root and share the transposition
//! table (Lazy SMP); the first thread reports and decides.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::LazyLock;
use std::time::{Duration, Instant};

use crate::board::bitboard::Bitboard;
use crate::eval::eval_cache::EvalCache;
use crate::eval::evaluate::{Evaluator, PawnCache};
use crate::eval::see::see_at_least;
use crate::position::rules::{GameResult, Outcome};
use crate::position::state::Position;
use crate::search::history::{ContinuationRow, History, SearchHistories};
use crate::search::interface::{
    Config, Control, Limits, Report, Score, SearchResult, MATE, MATE_BOUND, MAX_PLY,
};
use crate::search::movepick::{MovePicker, PickerBuffers, PickerContext};
use crate::search::timeman::{IterationSummary, TimeManager};
use crate::search::tt::{Bound, Entry, TranspositionTable, DEPTH_QUIESCENCE, DEPTH_UNSEARCHED};
use crate::types::{Move, MoveKind, Square};

const INFINITY: i32 = MATE + 1;

/// What all threads of one search share.
struct Shared<'s, B: Bitboard> {
    evaluator: &'s Evaluator<B>,
    tt: &'s TranspositionTable,
    control: &'s Control,
    nodes: AtomicU64,
    /// Set by the main thread when it is done, for the helpers.
    done: AtomicBool,
    limits: &'s Limits,
    time: Option<TimeManager>,
    selective: bool,
    started: Instant,
}

impl<B: Bitboard> Shared<'_, B> {
    fn out_of_time(&self) -> bool {
        if self.control.pondering() {
            return false;
        }
        match self.time {
            Some(time) => self.clock_time() >= time.maximum(),
            None => false,
        }
    }
    /// Time counted against the clock: from the start, or from
    /// `ponderhit` after pondering.
    fn clock_time(&self) -> Duration {
        let elapsed = self.started.elapsed();
        elapsed.saturating_sub(Duration::from_millis(
            self.control.ponderhit_at.load(Ordering::Relaxed),
        ))
    }
}

/// The late-move reductions of a quiet move, by depth and move number,
/// in 1024ths of a ply: `ln(depth) ln(moves) / 2.25 + 1.25` (from 3
/// plies and the fourth move on), with room for the search's
/// adjustments.
struct Reductions(Vec<i32>);

/// The reductions, computed once (their 32,000 logarithms took 2% of a
/// tuner's game at 4,000 nodes a move when every search made them).
static REDUCTIONS: LazyLock<Reductions> = LazyLock::new(Reductions::new);

const REDUCTION_DEPTHS: usize = 64;
const REDUCTION_MOVES: usize = 256;

impl Reductions {
    fn new() -> Reductions {
        let mut table = vec![0; REDUCTION_DEPTHS * REDUCTION_MOVES];
        for depth in 1..REDUCTION_DEPTHS {
            for moves in 1..REDUCTION_MOVES {
                let plies = 1.25 + (depth as f64).ln() * (moves as f64).ln() / 2.25;
                table[depth * REDUCTION_MOVES + moves] = (plies * 1024.0) as i32;
            }
        }
        Reductions(table)
    }

    fn get(&self, depth: i32, moves: usize) -> i32 {
        let depth = (depth.max(0) as usize).min(REDUCTION_DEPTHS - 1);
        self.0[depth * REDUCTION_MOVES + moves.min(REDUCTION_MOVES - 1)]
    }
}

/// The static evaluation of a node in check (none).
const NO_EVAL: i32 = -INFINITY;

/// What each ply of one thread's search remembers.
#[derive(Clone, Copy)]
struct Frame {
    /// The static evaluation ([`NO_EVAL`] in check).
    static_eval: i32,
    killers: [Move; 2],
    /// The continuation row of the move made at this ply.
    row: ContinuationRow,
    /// The piece (colour times types plus type) and destination of the
    /// move made at this ply, for countermoves; `None` for a null move.
    moved: Option<(usize, u8)>,
    /// The move a singular-extension search leaves out.
    excluded: Move,
    /// Whether the move made at this ply was a null move.
    null: bool,
}

/// Plies of [`Frame`] before the root, so that "two plies back" always exists.
const FRAMES_BEFORE_ROOT: usize = 2;

/// One thread's search state.
struct Worker<'s, 'h, B: Bitboard> {
    shared: &'s Shared<'s, B>,
    position: Position<B>,
    history: &'h mut History,
    main: bool,
    nodes: u64,
    unflushed: u64,
    seldepth: usize,
    stack: Vec<Frame>,
    pv: Vec<Vec<Move>>,
    stopped: bool,
    root_excluded: Vec<Move>,
    /// The depth of the iteration under way.
    root_depth: i32,
    /// Whether the iteration under way has improved its line at the root
    /// (so that its best move is worth playing if it is cut short).
    root_improved: bool,
    /// Evaluations met in this search.
    eval_cache: EvalCache,
    /// Pawn structures already scored.
    pawn_cache: PawnCache<B>,
    /// Per ply, the move picker's lists and the moves tried.
    buffers: Vec<PickerBuffers>,
    quiets_tried: Vec<Vec<Move>>,
    captures_tried: Vec<Vec<Move>>,
}

/// The score of an outcome for the side to move, `ply` plies from the root.
fn outcome_score<B: Bitboard>(position: &Position<B>, outcome: Outcome, ply: usize) -> i32 {
    let us = position.side_to_move();
    match outcome.result {
        GameResult::Draw => 0,
        result if result == GameResult::win_for(us) => MATE - ply as i32,
        _ => -MATE + ply as i32,
    }
}

fn to_tt(score: i32, ply: usize) -> i16 {
    let adjusted = if score > MATE_BOUND {
        score + ply as i32
    } else if score < -MATE_BOUND {
        score - ply as i32
    } else {
        score
    };
    adjusted.clamp(-MATE, MATE) as i16
}

fn from_tt(score: i16, ply: usize) -> i32 {
    let score = i32::from(score);
    if score > MATE_BOUND {
        score - ply as i32
    } else if score < -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// Whether a stored bound settles the question "is the score at least
/// `beta`" (or below it).
fn bound_cuts(bound: Option<Bound>, score: i32, beta: i32) -> bool {
    match bound {
        Some(Bound::Exact) => true,
        Some(Bound::Lower) => score >= beta,
        Some(Bound::Upper) => score < beta,
        None => false,
    }
}

/// The static evaluation `eval`, or the stored score when its bound says
/// the true score lies beyond the evaluation.
fn refined(eval: i32, bound: Option<Bound>, score: i32) -> i32 {
    match bound {
        Some(Bound::Exact) => score,
        Some(Bound::Lower) if score > eval => score,
        Some(Bound::Upper) if score < eval => score,
        _ => eval,
    }
}

/// The history bonus of a move that caused a cut-off at `depth`.
fn stat_bonus(depth: i32) -> i32 {
    (250 * depth - 200).clamp(0, 2000)
}

/// Reverse futility margin: how far above beta the evaluation must be at
/// `depth` for the node to be cut without a search.
fn futility_margin(depth: i32, improving: bool) -> i32 {
    80 * (depth - i32::from(improving))
}

/// Quiet moves searched at `depth` before the rest are pruned.
fn late_move_count(depth: i32, improving: bool) -> usize {
    ((3 + depth * depth) / (2 - i32::from(improving))) as usize
}

impl<'s, 'h, B: Bitboard> Worker<'s, 'h, B> {
    fn new(
        shared: &'s Shared<'s, B>,
        mut position: Position<B>,
        history: &'h mut History,
        main: bool,
    ) -> Worker<'s, 'h, B> {
        position.set_piece_square_table(shared.evaluator.piece_square_table().clone());
        let frame = Frame {
            static_eval: NO_EVAL,
            killers: [Move::NULL; 2],
            row: history.no_row(),
            moved: None,
            excluded: Move::NULL,
            null: false,
        };
        Worker {
            shared,
            position,
            history,
            main,
            nodes: 0,
            unflushed: 0,
            seldepth: 0,
            stack: vec![frame; MAX_PLY + 1 + FRAMES_BEFORE_ROOT],
            pv: vec![Vec::new(); MAX_PLY + 1],
            stopped: false,
            root_excluded: Vec::new(),
            root_depth: 0,
            root_improved: false,
            eval_cache: EvalCache::new(),
            pawn_cache: PawnCache::new(),
            buffers: vec![PickerBuffers::default(); MAX_PLY + 1],
            quiets_tried: (0..=MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
            captures_tried: (0..=MAX_PLY).map(|_| Vec::with_capacity(16)).collect(),
        }
    }

    /// The frame of `ply` (ply 0 is the root).
    fn frame(&self, ply: usize) -> &Frame {
        &self.stack[ply + FRAMES_BEFORE_ROOT]
    }

    fn frame_mut(&mut self, ply: usize) -> &mut Frame {
        &mut self.stack[ply + FRAMES_BEFORE_ROOT]
    }

    /// The frame `back` plies before `ply` (before the root: empty frames).
    fn frame_back(&self, ply: usize, back: usize) -> &Frame {
        &self.stack[ply + FRAMES_BEFORE_ROOT - back]
    }

    /// The static evaluation, from the cache when this position was
    /// evaluated before.
    fn evaluate(&mut self) -> i32 {
        self.evaluate_within(-INFINITY, INFINITY).0
    }

    /// The evaluation, possibly only estimated when it is far outside
    /// `(alpha, beta)` (see [`Evaluator::evaluate_within`]), with whether
    /// it is exact; exact results are cached.
    fn evaluate_within(&mut self, alpha: i32, beta: i32) -> (i32, bool) {
        let key = self.position.key();
        if let Some(score) = self.eval_cache.get(key) {
            return (score, true);
        }
        let (score, exact) = self.shared.evaluator.evaluate_within(
            &self.position,
            alpha,
            beta,
            &mut self.pawn_cache,
        );
        if exact {
            self.eval_cache.insert(key, score);
        }
        (score, exact)
    }

    /// Counts a node; every 1024 nodes checks the stop conditions.
    #[inline]
    fn count_node(&mut self) -> bool {
        self.nodes += 1;
        self.unflushed += 1;
        if self.unflushed >= 1024 {
            let total = self
                .shared
                .nodes
                .fetch_add(self.unflushed, Ordering::Relaxed)
                + self.unflushed;
            self.unflushed = 0;
            let shared = self.shared;
            let over_nodes = shared.limits.nodes.is_some_and(|limit| total >= limit);
            if shared.control.stopped()
                || shared.done.load(Ordering::Relaxed)
                || (self.main && (shared.out_of_time() || over_nodes))
            {
                self.stopped = true;
            }
        }
        self.stopped
    }

    fn flush_nodes(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.unflushed, Ordering::Relaxed);
        self.unflushed = 0;
    }

    /// The piece code (colour times types plus type) of the man on `square`.
    fn piece_code(&self, square: u8) -> usize {
        self.position.piece_at(Square::new(square)).map_or(0, |p| {
            p.color().index() * self.position.game().pieces.len() + p.piece_type()
        })
    }

    /// The middlegame value of a piece type.
    fn value(&self, piece_type: usize) -> i32 {
        self.shared.evaluator.params().piece_value(piece_type).0
    }

    /// How many pieces other than king and pawns the side to move has.
    /// Null-move pruning and the pruning of moves at shallow depth want two
    /// (zugzwang is common with fewer), reverse futility at least one: a
    /// side with only pawns may have no move that keeps its evaluation, not
    /// even against a mate.
    fn piece_count(&self) -> u32 {
        let game = self.position.game();
        let us = self.position.side_to_move();
        let mut pieces = 0;
        for piece_type in 0..game.pieces.len() {
            if piece_type != game.king && !game.is_pawn(piece_type) {
                pieces += self.position.pieces(us, piece_type).count();
            }
        }
        pieces
    }

    /// The continuation rows of the moves one and two plies before `ply`.
    fn continuation_rows(&self, ply: usize) -> [ContinuationRow; 2] {
        [self.frame_back(ply, 1).row, self.frame_back(ply, 2).row]
    }

    /// Makes `played` at `ply` and records it in the frame.
    fn make(&mut self, played: Move, ply: usize) {
        let key_after = self.position.key_after(played);
        self.shared.tt.prefetch(key_after);
        self.eval_cache.prefetch(key_after);
        let code = self.piece_code(played.from());
        let to = played.to();
        let row = self.history.row(code, to);
        let frame = self.frame_mut(ply);
        frame.row = row;
        frame.moved = Some((code, to));
        frame.null = false;
        self.position.make_move(played);
    }

    /// Updates the statistics after `best` caused a cut-off at `ply`.
    fn update_statistics(&mut self, best: Move, best_quiet: bool, depth: i32, ply: usize) {
        let bonus = stat_bonus(depth);
        let side = self.position.side_to_move().index();
        let rows = self.continuation_rows(ply);
        let types = self.position.game().pieces.len();
        let moved_type = |worker: &Self, m: Move| worker.piece_code(m.from()) % types;
        if best_quiet {
            let frame = self.frame_mut(ply);
            if frame.killers[0] != best {
                frame.killers[1] = frame.killers[0];
                frame.killers[0] = best;
            }
            if let Some((code, to)) = self.frame_back(ply, 1).moved {
                self.history.set_counter(code, to, best);
            }
            let quiets = std::mem::take(&mut self.quiets_tried[ply]);
            for &m in quiets.iter() {
                let signed = if m == best { bonus } else { -bonus };
                let t = moved_type(self, m);
                self.history.update_quiet(side, m, signed);
                for row in rows {
                    self.history.update_continuation(row, t, m.to(), signed);
                }
            }
            self.quiets_tried[ply] = quiets;
        }
        let captures = std::mem::take(&mut self.captures_tried[ply]);
        for &m in captures.iter() {
            if let Some(victim) = self.position.captured_type(m) {
                let signed = if m == best { bonus } else { -bonus };
                let code = self.piece_code(m.from());
                self.history.update_capture(code, m.to(), victim, signed);
            }
        }
        self.captures_tried[ply] = captures;
    }

    fn quiescence(&mut self, mut alpha: i32, beta: i32, ply: usize, in_check: bool) -> i32 {
        if self.count_node() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if let Some(outcome) = self.position.rule_outcome(2) {
            return outcome_score(&self.position, outcome, ply);
        }
        if ply >= MAX_PLY {
            return self.evaluate();
        }
        let pv_node = beta - alpha > 1;
        let key = self.position.key();
        let hash = self.shared.tt.probe(key);
        let mut table_move = Move::NULL;
        let mut stored_eval = None;
        if let Some(entry) = hash {
            let score = from_tt(entry.score, ply);
            if !pv_node && entry.depth >= DEPTH_QUIESCENCE && bound_cuts(entry.bound, score, beta) {
                return score;
            }
            table_move = entry.best;
            stored_eval = Some(i32::from(entry.eval));
        }
        let original_alpha = alpha;
        let mut best;
        let mut static_eval = NO_EVAL;
        let futility_base;
        if in_check {
            best = -INFINITY;
            futility_base = -INFINITY;
        } else {
            let (eval, exact) = match stored_eval {
                Some(eval) => (eval, true),
                None => self.evaluate_within(alpha, beta),
            };
            static_eval = eval;
            // A stored bound says more than the static evaluation.
            let stand_pat = match hash {
                Some(entry) => refined(eval, entry.bound, from_tt(entry.score, ply)),
                None => eval,
            };
            if stand_pat >= beta {
                if hash.is_none() && exact {
                    self.store(
                        key,
                        Move::NULL,
                        stand_pat,
                        eval,
                        DEPTH_QUIESCENCE,
                        Bound::Lower,
                        false,
                        ply,
                    );
                }
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
            futility_base = stand_pat + 150;
            if !exact {
                static_eval = NO_EVAL;
            }
        }
        let buffers = std::mem::take(&mut self.buffers[ply]);
        let mut picker = if in_check {
            MovePicker::main(table_move, [Move::NULL; 2], Move::NULL, buffers)
        } else {
            MovePicker::quiescence(table_move, buffers)
        };
        let mut best_move = Move::NULL;
        let mut moves = 0;
        let rows = self.continuation_rows(ply);
        loop {
            let next = {
                let context = PickerContext {
                    position: &self.position,
                    evaluator: self.shared.evaluator,
                    history: self.history,
                    in_check,
                    continuation: rows,
                };
                picker.next(&context)
            };
            let Some(m) = next else { break };
            moves += 1;
            if !in_check && best > -MATE_BOUND && futility_base > -INFINITY {
                let gives_check = self.position.gives_check(m);
                if !gives_check && m.kind() != MoveKind::Promotion {
                    // Delta pruning: even winning the piece cannot reach alpha.
                    let gain = self.position.captured_type(m).map_or(0, |t| self.value(t));
                    if futility_base + gain <= alpha {
                        best = best.max(futility_base + gain);
                        continue;
                    }
                    if futility_base <= alpha
                        && !see_at_least(&self.position, self.shared.evaluator, m, 1)
                    {
                        best = best.max(futility_base);
                        continue;
                    }
                }
            }
            self.make(m, ply);
            let gives_check = self.position.in_check_after_move();
            let score = -self.quiescence(-beta, -alpha, ply + 1, gives_check);
            self.position.unmake_move();
            if self.stopped {
                self.buffers[ply] = picker.into_buffers();
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = m;
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.buffers[ply] = picker.into_buffers();
        if in_check && moves == 0 {
            return -MATE + ply as i32;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if pv_node && best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if static_eval != NO_EVAL || in_check {
            let eval = if in_check { 0 } else { static_eval };
            self.store(
                key,
                best_move,
                best,
                eval,
                DEPTH_QUIESCENCE,
                bound,
                pv_node,
                ply,
            );
        }
        best
    }

    /// Stores a result in the table.
    #[allow(clippy::too_many_arguments)]
    fn store(
        &self,
        key: u64,
        best: Move,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
        pv: bool,
        ply: usize,
    ) {
        self.shared.tt.store(
            key,
            Entry {
                best,
                score: to_tt(score, ply),
                eval: eval.clamp(-MATE_BOUND, MATE_BOUND) as i16,
                depth,
                bound: Some(bound),
                pv,
            },
        );
    }

    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        ply: usize,
        in_check: bool,
        cut_node: bool,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        let root = ply == 0;
        self.pv[ply].clear();
        if !root {
            if self.count_node() {
                return 0;
            }
            if let Some(outcome) = self.position.rule_outcome(2) {
                return outcome_score(&self.position, outcome, ply);
            }
            // Mate distance pruning.
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        if ply >= MAX_PLY {
            return self.evaluate();
        }
        let mut depth = if in_check { depth.max(1) } else { depth };
        if depth <= 0 {
            return self.quiescence(alpha, beta, ply, in_check);
        }
        self.seldepth = self.seldepth.max(ply);
        let excluded = self.frame(ply).excluded;
        self.frame_mut(ply + 1).killers = [Move::NULL; 2];

        let key = self.position.key();
        let hash = if excluded == Move::NULL {
            self.shared.tt.probe(key)
        } else {
            None
        };
        let table_move = hash.map_or(Move::NULL, |entry| entry.best);
        let tt_pv = pv_node || hash.is_some_and(|entry| entry.pv);
        let table_score = hash.map(|entry| from_tt(entry.score, ply));
        if let (Some(entry), Some(score)) = (hash, table_score) {
            if !pv_node && entry.depth >= depth && bound_cuts(entry.bound, score, beta) {
                return score;
            }
        }
        let table_capture =
            table_move != Move::NULL && self.position.captured_type(table_move).is_some();

        // The static evaluation, and a better estimate from the table's bound.
        let selective = self.shared.selective;
        let (static_eval, eval) = if in_check {
            (NO_EVAL, NO_EVAL)
        } else if excluded != Move::NULL {
            let eval = self.frame(ply).static_eval;
            (eval, eval)
        } else {
            let static_eval = match hash {
                Some(entry) => i32::from(entry.eval),
                None => {
                    let eval = self.evaluate();
                    self.shared.tt.store(
                        key,
                        Entry {
                            best: Move::NULL,
                            score: 0,
                            eval: eval.clamp(-MATE_BOUND, MATE_BOUND) as i16,
                            depth: DEPTH_UNSEARCHED,
                            bound: None,
                            pv: tt_pv,
                        },
                    );
                    eval
                }
            };
            let eval = match (hash, table_score) {
                (Some(entry), Some(score)) => refined(static_eval, entry.bound, score),
                _ => static_eval,
            };
            (static_eval, eval)
        };
        self.frame_mut(ply).static_eval = static_eval;
        let improving = !in_check && {
            let two = self.frame_back(ply, 2).static_eval;
            let four = self
                .frame_back(ply, 4.min(ply + FRAMES_BEFORE_ROOT))
                .static_eval;
            if two != NO_EVAL {
                static_eval > two
            } else {
                four == NO_EVAL || static_eval > four
            }
        };

        let pieces = self.piece_count();
        let has_pieces = pieces >= 2;
        if selective && !pv_node && !in_check && !root && excluded == Move::NULL {
            // Razoring: far below alpha near the leaves, only captures can help.
            if depth <= 3 && eval + 250 + 150 * depth * depth < alpha {
                let score = self.quiescence(alpha - 1, alpha, ply, false);
                if score < alpha {
                    return score;
                }
            }
            // Reverse futility: far above beta near the leaves; it assumes
            // a move that keeps the evaluation (see `piece_count`).
            if pieces >= 1
                && depth < 9
                && eval - futility_margin(depth, improving) >= beta
                && eval < MATE_BOUND
            {
                return eval;
            }
            // Null move: if passing still fails high, a real move will too.
            if !self.frame_back(ply, 1).null
                && depth >= 3
                && eval >= beta
                && static_eval >= beta - 20 * depth + 120
                && beta > -MATE_BOUND
                && has_pieces
            {
                let reduction = 3 + depth / 3 + ((eval - beta) / 150).min(3);
                let row = self.history.no_row();
                let frame = self.frame_mut(ply);
                frame.null = true;
                frame.moved = None;
                frame.row = row;
                self.position.make_null_move();
                let score = -self.search(
                    -beta,
                    -beta + 1,
                    depth - reduction,
                    ply + 1,
                    false,
                    !cut_node,
                );
                self.position.unmake_move();
                self.frame_mut(ply).null = false;
                if self.stopped {
                    return 0;
                }
                if score >= beta {
                    return if score > MATE_BOUND { beta } else { score };
                }
            }
        }

        // Internal iterative reduction: a node without a table move is
        // searched a ply less (its first search fills the table).
        if selective && depth >= 4 && table_move == Move::NULL && (pv_node || cut_node) {
            depth -= 1;
        }

        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = Move::NULL;
        self.quiets_tried[ply].clear();
        self.captures_tried[ply].clear();
        let killers = self.frame(ply).killers;
        let countermove = match self.frame_back(ply, 1).moved {
            Some((code, to)) => self.history.counter(code, to),
            None => Move::NULL,
        };
        let rows = self.continuation_rows(ply);
        let buffers = std::mem::take(&mut self.buffers[ply]);
        let mut picker = MovePicker::main(table_move, killers, countermove, buffers);
        let mut move_count = 0usize;
        loop {
            let next = {
                let context = PickerContext {
                    position: &self.position,
                    evaluator: self.shared.evaluator,
                    history: self.history,
                    in_check,
                    continuation: rows,
                };
                picker.next(&context).map(|m| {
                    let tactical = context.is_tactical(m);
                    let history = if tactical { 0 } else { context.quiet_score(m) };
                    (m, tactical, history)
                })
            };
            let Some((m, tactical, history_score)) = next else {
                break;
            };
            if m == excluded {
                continue;
            }
            if root
                && (self.root_excluded.contains(&m)
                    || (!self.shared.limits.search_moves.is_empty()
                        && !self.shared.limits.search_moves.contains(&m)))
            {
                continue;
            }
            move_count += 1;
            let quiet = !tactical;
            let gives_check = self.position.gives_check(m);
            let mut new_depth = depth - 1;
            let base_reduction = REDUCTIONS.get(depth, move_count);
            let lmr_depth = (new_depth - base_reduction / 1024).max(0);

            // Pruning of moves at shallow depth.
            if selective && !root && best > -MATE_BOUND && has_pieces {
                if quiet && move_count >= late_move_count(depth, improving) {
                    picker.skip_quiets();
                }
                if tactical {
                    if !gives_check && !in_check && lmr_depth < 7 && m.kind() != MoveKind::Promotion
                    {
                        let gain = self.position.captured_type(m).map_or(0, |t| self.value(t));
                        if static_eval + 200 + 150 * lmr_depth + gain <= alpha {
                            continue;
                        }
                    }
                    if !see_at_least(&self.position, self.shared.evaluator, m, -150 * depth) {
                        continue;
                    }
                } else if !gives_check {
                    if lmr_depth < 4 && history_score < -3000 * depth {
                        continue;
                    }
                    if !in_check && lmr_depth < 8 && static_eval + 100 + 100 * lmr_depth <= alpha {
                        continue;
                    }
                    if !see_at_least(
                        &self.position,
                        self.shared.evaluator,
                        m,
                        -25 * lmr_depth * lmr_depth,
                    ) {
                        continue;
                    }
                }
            }

            // Extensions.
            let mut extension = 0;
            if selective
                && !root
                && m == table_move
                && excluded == Move::NULL
                && depth >= 7
                && (ply as i32) < 2 * self.root_depth
            {
                if let (Some(entry), Some(score)) = (hash, table_score) {
                    if entry.depth >= depth - 3
                        && matches!(entry.bound, Some(Bound::Lower) | Some(Bound::Exact))
                        && score.abs() < MATE_BOUND
                    {
                        let singular_beta = score - 2 * depth;
                        let singular_depth = (depth - 1) / 2;
                        self.frame_mut(ply).excluded = m;
                        let value = self.search(
                            singular_beta - 1,
                            singular_beta,
                            singular_depth,
                            ply,
                            in_check,
                            cut_node,
                        );
                        self.frame_mut(ply).excluded = Move::NULL;
                        // The table move comes first: nothing was tried here
                        // before the singular search, which used the lists.
                        self.quiets_tried[ply].clear();
                        self.captures_tried[ply].clear();
                        if self.stopped {
                            self.buffers[ply] = picker.into_buffers();
                            return 0;
                        }
                        if value < singular_beta {
                            extension = 1;
                        } else if singular_beta >= beta {
                            // Multi-cut: more than one move beats beta.
                            self.buffers[ply] = picker.into_buffers();
                            return singular_beta;
                        } else if score >= beta {
                            extension = -1;
                        }
                    }
                }
            }
            if extension == 0
                && gives_check
                && (ply as i32) < 2 * self.root_depth
                && see_at_least(&self.position, self.shared.evaluator, m, 0)
            {
                extension = 1;
            }
            new_depth += extension;

            self.make(m, ply);
            if quiet {
                self.quiets_tried[ply].push(m);
            } else {
                self.captures_tried[ply].push(m);
            }
            let mut score;
            if selective && depth >= 2 && move_count > 1 + usize::from(root) && quiet {
                let mut r = base_reduction;
                if !improving {
                    r += 512;
                }
                if pv_node {
                    r -= 1024;
                }
                if cut_node {
                    r += 1024;
                }
                if table_capture {
                    r += 512;
                }
                if m == killers[0] || m == killers[1] || m == countermove {
                    r -= 1024;
                }
                if gives_check {
                    r -= 1024;
                }
                r -= history_score * 1024 / 8192;
                let reduced = (new_depth - (r + 512) / 1024).clamp(1, new_depth.max(1));
                score = -self.search(-alpha - 1, -alpha, reduced, ply + 1, gives_check, true);
                if score > alpha && reduced < new_depth {
                    score = -self.search(
                        -alpha - 1,
                        -alpha,
                        new_depth,
                        ply + 1,
                        gives_check,
                        !cut_node,
                    );
                }
            } else if !pv_node || move_count > 1 {
                score = -self.search(
                    -alpha - 1,
                    -alpha,
                    new_depth,
                    ply + 1,
                    gives_check,
                    !cut_node,
                );
            } else {
                score = alpha + 1;
            }
            if pv_node && (move_count == 1 || (score > alpha && (root || score < beta))) {
                score = -self.search(-beta, -alpha, new_depth, ply + 1, gives_check, false);
            }
            self.position.unmake_move();
            if self.stopped {
                self.buffers[ply] = picker.into_buffers();
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = m;
                    alpha = score;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(m);
                    head[ply].extend_from_slice(&tail[0]);
                    if root {
                        self.root_improved = true;
                    }
                    if score >= beta {
                        self.update_statistics(m, quiet, depth, ply);
                        break;
                    }
                }
            }
        }
        self.buffers[ply] = picker.into_buffers();
        if move_count == 0 {
            if excluded != Move::NULL {
                return alpha;
            }
            if root
                && (!self.root_excluded.is_empty() || !self.shared.limits.search_moves.is_empty())
            {
                return -INFINITY;
            }
            return if in_check {
                -MATE + ply as i32
            } else {
                outcome_score(&self.position, self.position.stalemate_result(), ply)
            };
        }
        if excluded == Move::NULL {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > original_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            let eval = if in_check { 0 } else { static_eval };
            self.store(key, best_move, best, eval, depth, bound, tt_pv, ply);
        }
        best
    }

    /// One root search with an aspiration window around `previous`.
    fn aspiration(&mut self, depth: i32, previous: i32) -> (i32, Bound) {
        self.root_depth = depth;
        self.root_improved = false;
        let in_check = self.position.in_check();
        if depth < 5 || previous.abs() > MATE_BOUND {
            return (
                self.search(-INFINITY, INFINITY, depth, 0, in_check, false),
                Bound::Exact,
            );
        }
        let mut delta = 25;
        let mut alpha = (previous - delta).max(-INFINITY);
        let mut beta = (previous + delta).min(INFINITY);
        loop {
            let score = self.search(alpha, beta, depth, 0, in_check, false);
            if self.stopped {
                return (score, Bound::Exact);
            }
            if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
            } else if score >= beta {
                beta = (score + delta).min(INFINITY);
            } else {
                return (score, Bound::Exact);
            }
            delta += delta / 2;
            if delta > 1000 {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }
}

/// Searches `position` and returns the best move; `report` receives the
/// progress of the main thread after each completed iteration.
/// `histories` are the move statistics of the game so far (one per
/// thread); the search learns into them.
#[allow(clippy::too_many_arguments)]
pub fn search<B: Bitboard>(
    position: &Position<B>,
    evaluator: &Evaluator<B>,
    tt: &TranspositionTable,
    histories: &mut SearchHistories,
    limits: &Limits,
    config: &Config,
    control: &Control,
    report: &mut dyn FnMut(&Report),
) -> SearchResult {
    let started = Instant::now();
    tt.new_search();
    let time = if let Some(movetime) = limits.movetime {
        Some(TimeManager::for_movetime(movetime, config.move_overhead))
    } else if limits.infinite {
        None
    } else {
        limits.clock.as_ref().map(|clock| {
            TimeManager::for_clock(clock, position.side_to_move(), config.move_overhead)
        })
    };
    let shared = Shared {
        evaluator,
        tt,
        control,
        nodes: AtomicU64::new(0),
        done: AtomicBool::new(false),
        limits,
        time,
        selective: config.selective,
        started,
    };
    let legal = position.legal_moves();
    let mut result = SearchResult {
        best: legal.first().copied(),
        ..SearchResult::default()
    };
    if legal.is_empty() {
        return result;
    }
    let max_depth = limits
        .depth
        .unwrap_or(MAX_PLY as u32 - 1)
        .clamp(1, MAX_PLY as u32 - 1) as i32;
    let game = position.game();
    let threads = histories.for_threads(
        config.threads.max(1),
        game.geometry.squares(),
        game.pieces.len(),
    );
    let (main_history, helper_histories) = threads.split_at_mut(1);
    std::thread::scope(|scope| {
        for (helper, history) in helper_histories.iter_mut().enumerate() {
            let shared = &shared;
            let position = position.clone();
            scope.spawn(move || {
                let mut worker = Worker::new(shared, position, history, false);
                // Helpers start at different depths so that the threads
                // spread over the tree, and go on past the depth limit
                // until the main thread is done: they only feed the table.
                let mut depth = 1 + ((helper + 1) % 2) as i32;
                let mut previous = 0;
                while depth < MAX_PLY as i32 && !worker.stopped {
                    let (score, _) = worker.aspiration(depth, previous);
                    previous = score;
                    depth += 1;
                }
                worker.flush_nodes();
            });
        }
        let mut worker = Worker::new(&shared, position.clone(), &mut main_history[0], true);
        let mut previous = 0;
        let mut scores: Vec<i32> = Vec::new();
        let mut stable_iterations = 0;
        let mut best_move_changes = 0u32;
        for depth in 1..=max_depth {
            let mut lines: Vec<(i32, Bound, Vec<Move>)> = Vec::new();
            worker.root_excluded.clear();
            for line in 0..config.multipv.clamp(1, legal.len()) {
                if line > 0 {
                    worker.pv[0].clear();
                }
                let (score, bound) =
                    worker.aspiration(depth, if line == 0 { previous } else { -INFINITY + 1 });
                if worker.stopped {
                    // An iteration cut short still counts for its first
                    // line once it has improved on it at the root.
                    if line == 0 && depth > 1 && worker.root_improved {
                        if let Some(&first) = worker.pv[0].first() {
                            result.best = Some(first);
                            result.ponder = worker.pv[0].get(1).copied();
                        }
                    }
                    if !(depth == 1 && line == 0) {
                        break;
                    }
                }
                let pv = worker.pv[0].clone();
                let Some(&first) = pv.first() else { break };
                worker.root_excluded.push(first);
                lines.push((score, bound, pv));
            }
            // Depth 1 always completes its report, even when stopped at once.
            if worker.stopped && (depth > 1 || lines.is_empty()) {
                break;
            }
            if lines.is_empty() {
                break;
            }
            worker.flush_nodes();
            let nodes = shared.nodes.load(Ordering::Relaxed);
            let time = started.elapsed();
            for (index, (score, bound, pv)) in lines.iter().enumerate() {
                report(&Report {
                    depth: depth as u32,
                    seldepth: worker.seldepth as u32,
                    multipv: index + 1,
                    score: Score::from_internal(*score),
                    bound: *bound,
                    nodes,
                    time,
                    hashfull: tt.hashfull(),
                    pv: pv.clone(),
                });
            }
            let (score, _, pv) = &lines[0];
            best_move_changes /= 2;
            if result.best == pv.first().copied() {
                stable_iterations += 1;
            } else {
                stable_iterations = 0;
                if depth > 1 {
                    best_move_changes += 100;
                }
            }
            let previous_mean = if scores.is_empty() {
                *score
            } else {
                scores.iter().sum::<i32>() / scores.len() as i32
            };
            scores.push(*score);
            if scores.len() > 4 {
                scores.remove(0);
            }
            previous = *score;
            result.best = pv.first().copied();
            result.ponder = pv.get(1).copied();
            result.score = *score;
            result.depth = depth as u32;
            if worker.stopped {
                break;
            }
            let summary = IterationSummary {
                stable_iterations,
                best_move_changes,
                score: *score,
                previous_mean,
            };
            let time_up = shared.time.is_some_and(|plan| {
                !control.pondering() && plan.iteration_done(shared.clock_time(), &summary)
            });
            if time_up || limits.nodes.is_some_and(|n| nodes >= n) {
                break;
            }
        }
        // `go infinite` and `go ponder` answer only after stop (or ponderhit).
        if limits.infinite {
            control.wait(false);
        } else if control.pondering() {
            control.wait(true);
        }
        shared.done.store(true, Ordering::SeqCst);
        worker.flush_nodes();
    });
    result.nodes = shared.nodes.load(Ordering::Relaxed);
    result
}

/// The quiescence-search score of `position` for the side to move: the
/// static evaluation once the captures worth making (and check evasions)
/// are played out. A position whose quiescence score equals its static
/// evaluation and whose side to move is not in check is *quiet*: the
/// evaluation is not about to change by force. The tuner keeps only such
/// positions.
pub fn quiescence_score<B: Bitboard>(position: &Position<B>, evaluator: &Evaluator<B>) -> i32 {
    let tt = TranspositionTable::new(1);
    let limits = Limits::default();
    let control = Control::new(false);
    let shared = Shared {
        evaluator,
        tt: &tt,
        control: &control,
        nodes: AtomicU64::new(0),
        done: AtomicBool::new(false),
        limits: &limits,
        time: None,
        selective: true,
        started: Instant::now(),
    };
    let game = position.game();
    let (squares, types) = (game.geometry.squares(), game.pieces.len());
    // Quiescence search reads the histories (to order evasions) but never
    // writes them: one zero set per thread serves every call.
    ZERO_HISTORY.with(|cell| {
        let mut slot = cell.borrow_mut();
        if !slot.as_ref().is_some_and(|h| h.fits(squares, types)) {
            *slot = Some(History::new(squares, types));
        }
        let history = slot.as_mut().unwrap_or_else(|| unreachable!("just filled"));
        let mut worker = Worker::new(&shared, position.clone(), history, true);
        let in_check = position.in_check();
        worker.quiescence(-INFINITY, INFINITY, 0, in_check)
    })
}

thread_local! {
    /// The never-written histories of [`quiescence_score`].
    static ZERO_HISTORY: std::cell::RefCell<Option<History>> = const { std::cell::RefCell::new(None) };
}
