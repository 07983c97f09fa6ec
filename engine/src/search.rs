//! The search: iterative deepening with aspiration windows, principal
//! variation search, quiescence search with static exchange evaluation,
//! null-move pruning, late-move reductions, killer and history move
//! ordering, check extension, mate scores, and repetition, fifty-move and
//! bare-king detection inside the tree (through [`Position::rule_outcome`]).
//! Several threads search the same root and share the transposition
//! table (Lazy SMP); the first thread reports and decides.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use crate::bitboard::Bitboard;
use crate::eval::{Evaluator, PawnCache};
use crate::geometry::Square;
use crate::movegen::{MoveList, TacticalMoves};
use crate::moves::{Move, MoveKind};
use crate::position::Position;
use crate::rules::{GameResult, Outcome};
use crate::see::see_at_least;
use crate::time::{budget_for_clock, budget_for_movetime, Budget, Clock};
use crate::tt::{Bound, Entry, TranspositionTable};

/// A mate score: `MATE - n` is mate in `n` plies.
pub const MATE: i32 = 32_000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - 1_000;
const INFINITY: i32 = MATE + 1;
/// The deepest the search goes, in plies from the root.
pub const MAX_PLY: usize = 128;

/// What limits a search (all that are set apply).
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Stop after this depth.
    pub depth: Option<u32>,
    /// Stop after about this many nodes (all threads together).
    pub nodes: Option<u64>,
    /// Think this long.
    pub movetime: Option<Duration>,
    /// Play on a clock.
    pub clock: Option<Clock>,
    /// Search until told to stop.
    pub infinite: bool,
    /// Search only these root moves (UCI `searchmoves`).
    pub search_moves: Vec<Move>,
}

/// Settings that stay the same from search to search.
#[derive(Clone, Debug)]
pub struct Config {
    /// Search threads.
    pub threads: usize,
    /// How many best lines to report.
    pub multipv: usize,
    /// Time kept in reserve for communication.
    pub move_overhead: Duration,
    /// Selective search: null-move pruning, late-move reductions and
    /// pruning, reverse futility pruning. Off only to measure what they
    /// are worth.
    pub selective: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            threads: 1,
            multipv: 1,
            move_overhead: Duration::from_millis(30),
            selective: true,
        }
    }
}

/// Tells a running search to stop, or that a ponder move was played;
/// shared between the search and the protocol thread.
#[derive(Debug, Default)]
pub struct Control {
    stop: AtomicBool,
    pondering: AtomicBool,
    /// Milliseconds after the search started at which `ponderhit` came.
    ponderhit_at: AtomicU64,
    waiting: Mutex<()>,
    wake: Condvar,
}

impl Control {
    /// A control for a search that starts now; `ponder` for `go ponder`.
    pub fn new(ponder: bool) -> Control {
        let control = Control::default();
        control.pondering.store(ponder, Ordering::SeqCst);
        control
    }
    /// Asks the search to stop as soon as possible.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
        let _guard = self
            .waiting
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        self.wake.notify_all();
    }
    /// The opponent played the ponder move: the search now runs on the clock.
    pub fn ponderhit(&self, since_start: Duration) {
        self.ponderhit_at
            .store(since_start.as_millis() as u64, Ordering::SeqCst);
        self.pondering.store(false, Ordering::SeqCst);
        let _guard = self
            .waiting
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        self.wake.notify_all();
    }
    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
    fn pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }
    /// Blocks (without spinning) until stop, or until pondering ends when
    /// `until_ponderhit` is set.
    fn wait(&self, until_ponderhit: bool) {
        let mut guard = self
            .waiting
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        while !self.stopped() && (!until_ponderhit || self.pondering()) {
            guard = self
                .wake
                .wait(guard)
                .unwrap_or_else(|poisoned| poisoned.into_inner());
        }
    }
}

/// A score as UCI reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns from the side to move's point of view.
    Centipawns(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

impl Score {
    /// The report form of an internal score.
    pub fn from_internal(score: i32) -> Score {
        if score > MATE_BOUND {
            Score::Mate((MATE - score + 1) / 2)
        } else if score < -MATE_BOUND {
            Score::Mate(-(MATE + score + 1) / 2)
        } else {
            Score::Centipawns(score)
        }
    }
}

/// One line of search progress.
#[derive(Clone, Debug)]
pub struct Report {
    /// Iteration depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Which of the best lines (1 = best).
    pub multipv: usize,
    /// The score of the line.
    pub score: Score,
    /// Whether the score is only a bound (`Some(Bound::Lower)`: at least).
    pub bound: Bound,
    /// Nodes searched, all threads.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Permille of the hash table in use.
    pub hashfull: u32,
    /// The line.
    pub pv: Vec<Move>,
}

/// The outcome of a search.
#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    /// The move to play (`None` if there is no legal move).
    pub best: Option<Move>,
    /// The expected reply, to ponder on.
    pub ponder: Option<Move>,
    /// The score of the best move.
    pub score: i32,
    /// The last completed depth.
    pub depth: u32,
    /// Nodes searched, all threads.
    pub nodes: u64,
}

/// What all threads of one search share.
struct Shared<'s, B: Bitboard> {
    evaluator: &'s Evaluator<B>,
    tt: &'s TranspositionTable,
    control: &'s Control,
    nodes: AtomicU64,
    /// Set by the main thread when it is done, for the helpers.
    done: AtomicBool,
    limits: &'s Limits,
    budget: Option<Budget>,
    selective: bool,
    started: Instant,
}

impl<B: Bitboard> Shared<'_, B> {
    fn out_of_time(&self) -> bool {
        if self.control.pondering() {
            return false;
        }
        match self.budget {
            Some(budget) => self.clock_time() >= budget.hard,
            None => false,
        }
    }
    /// Time counted against the budget: from the start, or from
    /// `ponderhit` after pondering.
    fn clock_time(&self) -> Duration {
        let elapsed = self.started.elapsed();
        elapsed.saturating_sub(Duration::from_millis(
            self.control.ponderhit_at.load(Ordering::Relaxed),
        ))
    }
}

/// One thread's search state.
struct Worker<'s, B: Bitboard> {
    shared: &'s Shared<'s, B>,
    position: Position<B>,
    main: bool,
    nodes: u64,
    unflushed: u64,
    seldepth: usize,
    killers: Vec<[Move; 2]>,
    history: Vec<i32>,
    squares: usize,
    pv: Vec<Vec<Move>>,
    stopped: bool,
    root_excluded: Vec<Move>,
    /// Evaluations by key, direct-mapped: `(key, score)`.
    eval_cache: Vec<(u64, i32)>,
    /// Pawn structures already scored.
    pawn_cache: PawnCache<B>,
    /// Per ply, reused lists: generated moves, moves in search order,
    /// and the quiet moves tried.
    move_buffers: Vec<Vec<Move>>,
    order_buffers: Vec<Vec<Ordered>>,
    quiet_buffers: Vec<Vec<Move>>,
}

/// A move in search order: its sort key (highest first), the move, and
/// its exchange balance: negative when it loses material, else 0 or more
/// (0 for quiet moves; exact only where [`Worker::order`] knows it), or
/// [`UNSETTLED`].
type Ordered = (i64, Move, i32);

/// The exchange balance of a capture not yet worked out.
const UNSETTLED: i32 = i32::MIN;

/// How many moves [`Picker`] hands out by selection before it sorts the
/// rest: most cut-offs come from the first few moves.
const PICKED_BY_SELECTION: usize = 4;

/// Hands out the moves of one node best first: the first few by
/// selection, the rest sorted once. A capture whose exchange balance is
/// unsettled has it worked out (static exchange evaluation) only when it
/// comes up, and moves behind the other captures if it loses material.
#[derive(Default)]
struct Picker {
    next: usize,
    sorted: bool,
}

impl Picker {
    /// The next move and its exchange balance, or `None` when all are out.
    fn next<B: Bitboard>(
        &mut self,
        worker: &Worker<'_, B>,
        ordered: &mut [Ordered],
    ) -> Option<(Move, i32)> {
        let settle = |entry: &mut Ordered| {
            if see_at_least(&worker.position, worker.shared.evaluator, entry.1, 0) {
                entry.2 = 0;
            } else {
                entry.2 = -1;
                entry.0 -= 2 << 32;
            }
        };
        if self.next >= ordered.len() {
            return None;
        }
        if !self.sorted && self.next >= PICKED_BY_SELECTION {
            let rest = &mut ordered[self.next..];
            for entry in rest.iter_mut().filter(|entry| entry.2 == UNSETTLED) {
                settle(entry);
            }
            rest.sort_unstable_by_key(|entry| std::cmp::Reverse(entry.0));
            self.sorted = true;
        }
        if !self.sorted {
            loop {
                let best = (self.next..ordered.len())
                    .max_by_key(|&index| ordered[index].0)
                    .unwrap_or(self.next);
                ordered.swap(self.next, best);
                if ordered[self.next].2 != UNSETTLED {
                    break;
                }
                settle(&mut ordered[self.next]);
                if ordered[self.next].2 >= 0 {
                    break;
                }
            }
        }
        let (_, m, gain) = ordered[self.next];
        self.next += 1;
        Some((m, gain))
    }
}

/// Entries of each thread's evaluation cache (a power of two).
const EVAL_CACHE: usize = 1 << 16;

/// Late-move reduction in plies for a move at `depth` that is the
/// `index`-th tried (1-based).
fn reduction(depth: i32, index: usize) -> i32 {
    if depth < 3 || index < 4 {
        return 0;
    }
    (0.75 + (depth as f64).ln() * (index as f64).ln() / 2.25) as i32
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

impl<'s, B: Bitboard> Worker<'s, B> {
    fn new(shared: &'s Shared<'s, B>, mut position: Position<B>, main: bool) -> Worker<'s, B> {
        let squares = position.game().geometry.squares();
        position.set_piece_square_table(shared.evaluator.piece_square_table().clone());
        Worker {
            shared,
            position,
            main,
            nodes: 0,
            unflushed: 0,
            seldepth: 0,
            killers: vec![[Move::NULL; 2]; MAX_PLY + 1],
            history: vec![0; 2 * squares * squares],
            squares,
            pv: vec![Vec::new(); MAX_PLY + 1],
            stopped: false,
            root_excluded: Vec::new(),
            eval_cache: vec![(0, 0); EVAL_CACHE],
            pawn_cache: PawnCache::new(),
            move_buffers: (0..=MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
            order_buffers: (0..=MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
            quiet_buffers: (0..=MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
        }
    }

    /// The static evaluation, from the cache when this position was
    /// evaluated before.
    fn evaluate(&mut self) -> i32 {
        let key = self.position.key();
        let slot = self.eval_cache[key as usize & (EVAL_CACHE - 1)];
        if slot.0 == key && key != 0 {
            return slot.1;
        }
        let (score, _) = self.shared.evaluator.evaluate_within(
            &self.position,
            -INFINITY,
            INFINITY,
            &mut self.pawn_cache,
        );
        self.eval_cache[key as usize & (EVAL_CACHE - 1)] = (key, score);
        score
    }

    /// The evaluation, possibly only estimated when it is far outside
    /// `(alpha, beta)` (see [`Evaluator::evaluate_within`]); exact results
    /// are cached.
    fn evaluate_within(&mut self, alpha: i32, beta: i32) -> i32 {
        let key = self.position.key();
        let slot = self.eval_cache[key as usize & (EVAL_CACHE - 1)];
        if slot.0 == key && key != 0 {
            return slot.1;
        }
        let (score, exact) = self.shared.evaluator.evaluate_within(
            &self.position,
            alpha,
            beta,
            &mut self.pawn_cache,
        );
        if exact {
            self.eval_cache[key as usize & (EVAL_CACHE - 1)] = (key, score);
        }
        score
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

    fn history_index(&self, played: Move) -> usize {
        let side = self.position.side_to_move().index();
        (side * self.squares + usize::from(played.from())) * self.squares + usize::from(played.to())
    }

    fn is_capture(&self, played: Move) -> bool {
        played.kind() == MoveKind::EnPassant
            || (played.kind() != MoveKind::Castling
                && self.position.piece_at(Square::new(played.to())).is_some())
    }

    /// Gives each move its search-order key: hash move, winning and equal
    /// captures and promotions by victim value, killers, quiet moves by
    /// history, losing captures. A capture's exchange balance is settled
    /// here only when it is free to know (the victim is worth at least the
    /// taker); the others are [`UNSETTLED`] until [`Picker`] reaches them.
    fn order(&self, moves: &[Move], hash_move: Move, ply: usize, ordered: &mut Vec<Ordered>) {
        let evaluator = self.shared.evaluator;
        let position = &self.position;
        let value = |square: u8| {
            position.piece_at(Square::new(square)).map_or(0, |piece| {
                evaluator.params().piece_value(piece.piece_type()).0
            })
        };
        ordered.clear();
        ordered.extend(moves.iter().map(|&m| {
            let tactical = self.is_capture(m) || m.kind() == MoveKind::Promotion;
            // Taking a piece worth at least the taker cannot lose
            // material: the exchange needs no evaluation then.
            let gain = if !tactical {
                0
            } else if m.kind() == MoveKind::Normal && value(m.to()) >= value(m.from()) {
                value(m.to()) - value(m.from())
            } else {
                UNSETTLED
            };
            let key: i64 = if m == hash_move {
                1 << 40
            } else if tactical {
                let victim = if m.kind() == MoveKind::EnPassant {
                    100
                } else {
                    value(m.to())
                };
                (1 << 32) + i64::from(victim) * 16 - i64::from(value(m.from())) / 16
                    + if gain == UNSETTLED {
                        0
                    } else {
                        i64::from(gain)
                    }
            } else if self.killers[ply][0] == m {
                1 << 31
            } else if self.killers[ply][1] == m {
                (1 << 31) - 1
            } else {
                i64::from(self.history[self.history_index(m)])
            };
            (key, m, gain)
        }));
    }

    fn update_quiet_stats(&mut self, best: Move, quiets_tried: &[Move], depth: i32, ply: usize) {
        if self.killers[ply][0] != best {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = best;
        }
        let bonus = (depth * depth).min(400);
        let best_index = self.history_index(best);
        Self::age_history(&mut self.history[best_index], bonus);
        for &other in quiets_tried {
            if other != best {
                let index = self.history_index(other);
                Self::age_history(&mut self.history[index], -bonus);
            }
        }
    }

    /// History gravity: values stay within +-16384.
    fn age_history(entry: &mut i32, bonus: i32) {
        *entry += 32 * bonus - *entry * bonus.abs() / 512;
    }

    /// Whether the side to move has pieces other than king and pawns
    /// (null-move pruning is unsafe without them: zugzwang).
    fn has_pieces(&self) -> bool {
        let game = self.position.game();
        let us = self.position.side_to_move();
        let mut pieces = 0;
        for piece_type in 0..game.pieces.len() {
            if piece_type != game.king && !game.is_pawn(piece_type) {
                pieces += self.position.pieces(us, piece_type).count();
            }
        }
        pieces >= 2
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
        let mut best;
        let mut moves = std::mem::take(&mut self.move_buffers[ply]);
        moves.clear();
        if in_check {
            best = -INFINITY;
            let mut list = MoveList(moves);
            self.position.generate_knowing_check(&mut list, true);
            moves = list.0;
        } else {
            let stand_pat = self.evaluate_within(alpha, beta);
            if stand_pat >= beta {
                self.move_buffers[ply] = moves;
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
            let mut tactical = TacticalMoves {
                enemy: self
                    .position
                    .color_pieces(self.position.side_to_move().flip()),
                moves,
            };
            self.position.generate_knowing_check(&mut tactical, false);
            moves = tactical.moves;
        }
        if in_check && moves.is_empty() {
            self.move_buffers[ply] = moves;
            return -MATE + ply as i32;
        }
        let mut ordered = std::mem::take(&mut self.order_buffers[ply]);
        self.order(&moves, Move::NULL, ply, &mut ordered);
        self.move_buffers[ply] = moves;
        let mut picker = Picker::default();
        while let Some((m, gain)) = picker.next(self, &mut ordered) {
            // Losing captures come last: none of the rest is worth trying.
            if !in_check && gain < 0 {
                break;
            }
            self.position.make_move(m);
            let gives_check = self.position.in_check_after_move();
            let score = -self.quiescence(-beta, -alpha, ply + 1, gives_check);
            self.position.unmake_move();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.order_buffers[ply] = ordered;
        best
    }

    fn search(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        ply: usize,
        in_check: bool,
        null_allowed: bool,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        self.pv[ply].clear();
        if ply > 0 {
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
        let depth = if in_check { depth.max(1) } else { depth };
        if depth <= 0 {
            return self.quiescence(alpha, beta, ply, in_check);
        }
        self.seldepth = self.seldepth.max(ply);

        let key = self.position.key();
        let hash = self.shared.tt.probe(key);
        let hash_move = hash.map_or(Move::NULL, |entry| entry.best);
        if let Some(entry) = hash {
            let score = from_tt(entry.score, ply);
            if ply > 0 && !pv_node && i32::from(entry.depth) >= depth {
                let usable = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if usable {
                    return score;
                }
            }
        }

        // The static evaluation is only needed for the pruning below.
        let selective = self.shared.selective;
        if selective && !pv_node && !in_check && ply > 0 {
            let static_eval = self.evaluate();
            // Reverse futility: far above beta near the leaves.
            if depth <= 6 && static_eval - 90 * depth >= beta && beta.abs() < MATE_BOUND {
                return static_eval;
            }
            // Null move: if passing still fails high, a real move will too.
            if null_allowed && depth >= 3 && static_eval >= beta && self.has_pieces() {
                let reduced = depth - 3 - depth / 4;
                self.position.make_null_move();
                let score = -self.search(-beta, -beta + 1, reduced, ply + 1, false, false);
                self.position.unmake_move();
                if self.stopped {
                    return 0;
                }
                if score >= beta {
                    return if score > MATE_BOUND { beta } else { score };
                }
            }
        }

        let mut list = MoveList(std::mem::take(&mut self.move_buffers[ply]));
        list.0.clear();
        self.position.generate_knowing_check(&mut list, in_check);
        let mut moves = list.0;
        if ply == 0 {
            moves.retain(|m| !self.root_excluded.contains(m));
            if !self.shared.limits.search_moves.is_empty() {
                moves.retain(|m| self.shared.limits.search_moves.contains(m));
            }
        }
        if moves.is_empty() {
            self.move_buffers[ply] = moves;
            if ply == 0 && !self.root_excluded.is_empty() {
                return -INFINITY;
            }
            return if in_check {
                -MATE + ply as i32
            } else {
                outcome_score(&self.position, self.position.stalemate_result(), ply)
            };
        }
        let mut ordered = std::mem::take(&mut self.order_buffers[ply]);
        self.order(&moves, hash_move, ply, &mut ordered);
        self.move_buffers[ply] = moves;

        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = Move::NULL;
        let mut quiets_tried = std::mem::take(&mut self.quiet_buffers[ply]);
        quiets_tried.clear();
        let mut picker = Picker::default();
        while let Some((m, _)) = picker.next(self, &mut ordered) {
            let index = picker.next - 1;
            let quiet = !self.is_capture(m) && m.kind() != MoveKind::Promotion;
            // Late-move pruning of quiet moves near the leaves.
            if selective
                && !pv_node
                && !in_check
                && quiet
                && depth <= 3
                && index >= 6 + 4 * depth as usize
                && best > -MATE_BOUND
            {
                continue;
            }
            self.position.make_move(m);
            let gives_check = self.position.in_check_after_move();
            let extension = i32::from(gives_check);
            let new_depth = depth - 1 + extension;
            let mut score;
            if index == 0 {
                score = -self.search(-beta, -alpha, new_depth, ply + 1, gives_check, true);
            } else {
                let r = if selective && quiet && !in_check && !gives_check {
                    let mut r = reduction(depth, index + 1);
                    if pv_node {
                        r -= 1;
                    }
                    if m == self.killers[ply][0] || m == self.killers[ply][1] {
                        r -= 1;
                    }
                    r.clamp(0, (new_depth - 1).max(0))
                } else {
                    0
                };
                score = -self.search(
                    -alpha - 1,
                    -alpha,
                    new_depth - r,
                    ply + 1,
                    gives_check,
                    true,
                );
                if score > alpha && r > 0 {
                    score = -self.search(-alpha - 1, -alpha, new_depth, ply + 1, gives_check, true);
                }
                if score > alpha && score < beta {
                    score = -self.search(-beta, -alpha, new_depth, ply + 1, gives_check, true);
                }
            }
            self.position.unmake_move();
            if self.stopped {
                return 0;
            }
            if quiet {
                quiets_tried.push(m);
            }
            if score > best {
                best = score;
                best_move = m;
                if score > alpha {
                    alpha = score;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(m);
                    head[ply].extend_from_slice(&tail[0]);
                    if score >= beta {
                        if quiet {
                            self.update_quiet_stats(m, &quiets_tried, depth, ply);
                        }
                        break;
                    }
                }
            }
        }
        self.order_buffers[ply] = ordered;
        self.quiet_buffers[ply] = quiets_tried;
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared.tt.store(
            key,
            Entry {
                best: best_move,
                score: to_tt(best, ply),
                depth: depth.clamp(0, 255) as u8,
                bound,
            },
        );
        best
    }

    /// One root search with an aspiration window around `previous`.
    fn aspiration(&mut self, depth: i32, previous: i32) -> (i32, Bound) {
        if depth < 5 || previous.abs() > MATE_BOUND {
            return (
                self.search(
                    -INFINITY,
                    INFINITY,
                    depth,
                    0,
                    self.position.in_check(),
                    false,
                ),
                Bound::Exact,
            );
        }
        let mut delta = 25;
        let mut alpha = (previous - delta).max(-INFINITY);
        let mut beta = (previous + delta).min(INFINITY);
        loop {
            let score = self.search(alpha, beta, depth, 0, self.position.in_check(), false);
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
pub fn search<B: Bitboard>(
    position: &Position<B>,
    evaluator: &Evaluator<B>,
    tt: &TranspositionTable,
    limits: &Limits,
    config: &Config,
    control: &Control,
    report: &mut dyn FnMut(&Report),
) -> SearchResult {
    let started = Instant::now();
    tt.new_search();
    let budget = if let Some(movetime) = limits.movetime {
        Some(budget_for_movetime(movetime, config.move_overhead))
    } else if limits.infinite {
        None
    } else {
        limits
            .clock
            .as_ref()
            .map(|clock| budget_for_clock(clock, position.side_to_move(), config.move_overhead))
    };
    let shared = Shared {
        evaluator,
        tt,
        control,
        nodes: AtomicU64::new(0),
        done: AtomicBool::new(false),
        limits,
        budget,
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
    std::thread::scope(|scope| {
        for helper in 1..config.threads.max(1) {
            let shared = &shared;
            let position = position.clone();
            scope.spawn(move || {
                let mut worker = Worker::new(shared, position, false);
                // Helpers start at different depths so that the threads
                // spread over the tree, and go on past the depth limit
                // until the main thread is done: they only feed the table.
                let mut depth = 1 + (helper % 2) as i32;
                let mut previous = 0;
                while depth < MAX_PLY as i32 && !worker.stopped {
                    let (score, _) = worker.aspiration(depth, previous);
                    previous = score;
                    depth += 1;
                }
                worker.flush_nodes();
            });
        }
        let mut worker = Worker::new(&shared, position.clone(), true);
        let mut previous = 0;
        for depth in 1..=max_depth {
            let mut lines: Vec<(i32, Bound, Vec<Move>)> = Vec::new();
            worker.root_excluded.clear();
            for line in 0..config.multipv.clamp(1, legal.len()) {
                let (score, bound) =
                    worker.aspiration(depth, if line == 0 { previous } else { -INFINITY + 1 });
                if worker.stopped && !(depth == 1 && line == 0) {
                    break;
                }
                let pv = worker.pv[0].clone();
                let Some(&first) = pv.first() else { break };
                worker.root_excluded.push(first);
                lines.push((score, bound, pv));
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
            previous = *score;
            result.best = pv.first().copied();
            result.ponder = pv.get(1).copied();
            result.score = *score;
            result.depth = depth as u32;
            if worker.stopped {
                break;
            }
            // Do not start an iteration that will not finish in time.
            let soft_done =
                budget.is_some_and(|b| !control.pondering() && shared.clock_time() >= b.soft / 2);
            if soft_done || limits.nodes.is_some_and(|n| nodes >= n) {
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
        budget: None,
        selective: true,
        started: Instant::now(),
    };
    let mut worker = Worker::new(&shared, position.clone(), true);
    let in_check = position.in_check();
    worker.quiescence(-INFINITY, INFINITY, 0, in_check)
}
