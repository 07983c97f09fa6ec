//! The staged move picker: hands out the moves of one node best first,
//! generating only what the node turns out to need.
//!
//! Stages of the main search: the transposition table's move (checked
//! for legality, before anything is generated); the captures and
//! promotions, best by victim value and capture history, each settled
//! by static exchange evaluation when it comes up (those that lose
//! material wait for the end); the two killers and the countermove;
//! the quiet moves by history (main and continuation histories); the
//! losing captures. A node that cuts off early never generates its
//! quiet moves.
//!
//! Quiescence search takes the table's move when it is a capture or a
//! promotion, then the captures and promotions. A side in check gets
//! every evasion: the table's move, then captures, then quiet moves by
//! history.

use crate::board::bitboard::Bitboard;
use crate::eval::evaluate::Evaluator;
use crate::eval::see::see_at_least;
use crate::position::movegen::{QuietMoves, TacticalMoves};
use crate::position::state::Position;
use crate::search::history::{ContinuationRow, History};
use crate::types::{Move, MoveKind, Square};

/// A move with its ordering score.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ScoredMove {
    pub(crate) played: Move,
    score: i32,
}

/// Where a picker is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    TableMove,
    GenerateCaptures,
    GoodCaptures,
    FirstKiller,
    SecondKiller,
    Countermove,
    GenerateQuiets,
    Quiets,
    BadCaptures,
    Done,
}

/// What kind of node the picker serves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PickerKind {
    /// A node of the main search (not in check, or in check).
    Main,
    /// A quiescence node not in check: captures and promotions that do
    /// not lose material.
    Quiescence,
}

/// What the picker needs to know about its node.
pub(crate) struct PickerContext<'a, B: Bitboard> {
    pub(crate) position: &'a Position<B>,
    pub(crate) evaluator: &'a Evaluator<B>,
    pub(crate) history: &'a History,
    /// Whether the side to move is in check.
    pub(crate) in_check: bool,
    /// Continuation rows of the moves one and two plies before.
    pub(crate) continuation: [ContinuationRow; 2],
}

/// The lists a picker fills, kept by the search per ply so that nodes
/// do not allocate.
#[derive(Clone, Debug, Default)]
pub(crate) struct PickerBuffers {
    generated: Vec<Move>,
    moves: Vec<ScoredMove>,
    bad_captures: Vec<ScoredMove>,
}

/// A staged move picker for one node.
pub(crate) struct MovePicker {
    kind: PickerKind,
    stage: Stage,
    table_move: Move,
    killers: [Move; 2],
    countermove: Move,
    /// The moves handed out before generation (table move, killers,
    /// countermove), which the generated stages skip.
    handed: [Move; 4],
    /// The generated moves of the current stage, and the next to hand out.
    generated: Vec<Move>,
    moves: Vec<ScoredMove>,
    next: usize,
    /// Losing captures, set aside for the last stage.
    bad_captures: Vec<ScoredMove>,
    /// Quiet moves are no longer wanted (late-move pruning).
    skip_quiets: bool,
    /// The quiet moves are sorted (past the first few, picked by selection).
    sorted: bool,
}

/// How many quiet moves are picked by selection before the rest are sorted.
const PICKED_BY_SELECTION: usize = 3;

/// The victim weight in a capture's score: material first, capture
/// history second.
const VICTIM_WEIGHT: i32 = 16;

impl<B: Bitboard> PickerContext<'_, B> {
    /// The squares of the pieces the side to move may capture.
    fn enemy(&self) -> B {
        self.position
            .color_pieces(self.position.side_to_move().flip())
    }
    fn piece_code(&self, square: u8) -> usize {
        let piece = self
            .position
            .piece_at(Square::new(square))
            .unwrap_or_else(|| unreachable!("a move starts on a piece"));
        piece.color().index() * self.position.game().pieces.len() + piece.piece_type()
    }

    fn moved_type(&self, played: Move) -> usize {
        self.position
            .piece_at(Square::new(played.from()))
            .map_or(0, |p| p.piece_type())
    }

    /// Whether `played` captures or promotes.
    pub(crate) fn is_tactical(&self, played: Move) -> bool {
        played.kind() == MoveKind::Promotion || self.position.captured_type(played).is_some()
    }

    fn capture_score(&self, played: Move) -> i32 {
        let params = self.evaluator.params();
        let victim = self
            .position
            .captured_type(played)
            .map_or(0, |t| params.piece_value(t).0);
        let promoted = if played.kind() == MoveKind::Promotion {
            params.piece_value(usize::from(played.extra())).0
        } else {
            0
        };
        let history = self.position.captured_type(played).map_or(0, |t| {
            self.history
                .capture(self.piece_code(played.from()), played.to(), t)
        });
        VICTIM_WEIGHT * (victim + promoted) + history
    }

    /// The history score of a quiet move: main plus continuations.
    pub(crate) fn quiet_score(&self, played: Move) -> i32 {
        let side = self.position.side_to_move().index();
        let moved = self.moved_type(played);
        self.history.quiet(side, played)
            + self
                .history
                .continuation(self.continuation[0], moved, played.to())
            + self
                .history
                .continuation(self.continuation[1], moved, played.to())
    }
}

impl MovePicker {
    /// A picker for a main-search node (in check or not), filling `buffers`.
    pub(crate) fn main(
        table_move: Move,
        killers: [Move; 2],
        countermove: Move,
        buffers: PickerBuffers,
    ) -> MovePicker {
        MovePicker::new(PickerKind::Main, table_move, killers, countermove, buffers)
    }

    /// A picker for a quiescence node not in check (in check, use
    /// [`MovePicker::main`] without killers).
    pub(crate) fn quiescence(table_move: Move, buffers: PickerBuffers) -> MovePicker {
        MovePicker::new(
            PickerKind::Quiescence,
            table_move,
            [Move::NULL; 2],
            Move::NULL,
            buffers,
        )
    }

    fn new(
        kind: PickerKind,
        table_move: Move,
        killers: [Move; 2],
        countermove: Move,
        mut buffers: PickerBuffers,
    ) -> MovePicker {
        buffers.generated.clear();
        buffers.moves.clear();
        buffers.bad_captures.clear();
        MovePicker {
            kind,
            stage: Stage::TableMove,
            table_move,
            killers,
            countermove,
            handed: [Move::NULL; 4],
            generated: buffers.generated,
            moves: buffers.moves,
            next: 0,
            bad_captures: buffers.bad_captures,
            skip_quiets: false,
            sorted: false,
        }
    }

    /// The lists, for the next node.
    pub(crate) fn into_buffers(self) -> PickerBuffers {
        PickerBuffers {
            generated: self.generated,
            moves: self.moves,
            bad_captures: self.bad_captures,
        }
    }

    /// Records a move handed out before generation.
    fn hand_out_early(&mut self, played: Move) -> Option<Move> {
        if let Some(slot) = self.handed.iter_mut().find(|m| **m == Move::NULL) {
            *slot = played;
        }
        Some(played)
    }

    /// From now on, hand out no more quiet moves (the bad captures still come).
    /// Queues the `generated` moves not handed out yet, each scored by
    /// `score`; keeps the buffer (emptied) for the next generation.
    fn queue(&mut self, generated: Vec<Move>, score: impl Fn(Move) -> i32) {
        self.generated = generated;
        for &m in &self.generated {
            if !self.handed.contains(&m) {
                self.moves.push(ScoredMove {
                    played: m,
                    score: score(m),
                });
            }
        }
        self.generated.clear();
    }
    pub(crate) fn skip_quiets(&mut self) {
        self.skip_quiets = true;
    }

    /// The next move, or `None` when there are no more.
    pub(crate) fn next<B: Bitboard>(&mut self, context: &PickerContext<'_, B>) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TableMove => {
                    self.stage = Stage::GenerateCaptures;
                    let wanted = self.kind == PickerKind::Main
                        || context.in_check
                        || context.is_tactical(self.table_move);
                    if wanted && context.position.is_legal(self.table_move, context.in_check) {
                        return self.hand_out_early(self.table_move);
                    }
                }
                Stage::GenerateCaptures => {
                    let mut sink = TacticalMoves {
                        enemy: context.enemy(),
                        moves: std::mem::take(&mut self.generated),
                    };
                    context
                        .position
                        .generate_knowing_check(&mut sink, context.in_check);
                    self.queue(sink.moves, |m| context.capture_score(m));
                    self.next = 0;
                    self.stage = Stage::GoodCaptures;
                }
                Stage::GoodCaptures => {
                    if self.next < self.moves.len() {
                        let best = (self.next..self.moves.len())
                            .max_by_key(|&i| self.moves[i].score)
                            .unwrap_or(self.next);
                        self.moves.swap(self.next, best);
                        let candidate = self.moves[self.next];
                        self.next += 1;
                        if see_at_least(context.position, context.evaluator, candidate.played, 0) {
                            return Some(candidate.played);
                        }
                        self.bad_captures.push(candidate);
                        continue;
                    }
                    // Quiescence search never tries losing captures.
                    self.stage = if self.kind == PickerKind::Quiescence {
                        Stage::Done
                    } else {
                        Stage::FirstKiller
                    };
                }
                Stage::FirstKiller | Stage::SecondKiller | Stage::Countermove => {
                    let candidate = match self.stage {
                        Stage::FirstKiller => self.killers[0],
                        Stage::SecondKiller => self.killers[1],
                        _ => self.countermove,
                    };
                    self.stage = match self.stage {
                        Stage::FirstKiller => Stage::SecondKiller,
                        Stage::SecondKiller => Stage::Countermove,
                        _ => Stage::GenerateQuiets,
                    };
                    if !self.skip_quiets
                        && candidate != Move::NULL
                        && !self.handed.contains(&candidate)
                        && !context.is_tactical(candidate)
                        && context.position.is_legal(candidate, context.in_check)
                    {
                        return self.hand_out_early(candidate);
                    }
                }
                Stage::GenerateQuiets => {
                    self.moves.clear();
                    self.next = 0;
                    if !self.skip_quiets {
                        let mut sink = QuietMoves {
                            enemy: context.enemy(),
                            moves: std::mem::take(&mut self.generated),
                        };
                        context
                            .position
                            .generate_knowing_check(&mut sink, context.in_check);
                        self.queue(sink.moves, |m| context.quiet_score(m));
                    }
                    self.sorted = false;
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => {
                    if !self.skip_quiets && self.next < self.moves.len() {
                        if !self.sorted && self.next >= PICKED_BY_SELECTION {
                            self.moves[self.next..]
                                .sort_unstable_by_key(|m| std::cmp::Reverse(m.score));
                            self.sorted = true;
                        }
                        if !self.sorted {
                            let best = (self.next..self.moves.len())
                                .max_by_key(|&i| self.moves[i].score)
                                .unwrap_or(self.next);
                            self.moves.swap(self.next, best);
                        }
                        self.next += 1;
                        return Some(self.moves[self.next - 1].played);
                    }
                    self.next = 0;
                    self.stage = Stage::BadCaptures;
                }
                Stage::BadCaptures => {
                    if self.next < self.bad_captures.len() {
                        self.next += 1;
                        return Some(self.bad_captures[self.next - 1].played);
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }
}
