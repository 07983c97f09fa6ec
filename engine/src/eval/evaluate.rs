//! Static evaluation: a tapered (middlegame/endgame) sum of weighted
//! terms, all weights in one [`EvalParams`] set (`crate::eval::params`) that is
//! saved and loaded as TOML so that the tuner can fit it.
//!
//! Terms, each counted White minus Black:
//! - material per piece type (from `data/values/<variant>.toml`);
//! - square: per piece, how many moves it has from its square on an
//!   empty board, minus that piece's average (central squares count more
//!   for short-range pieces), times a weight per type; and a weight per
//!   type and rank (counted from its own side) and per type and distance
//!   from the nearest side edge (a piece-square table of two parts);
//! - mobility: per piece, the squares it can move to now, and of those
//!   the ones an enemy pawn attacks (unsafe mobility);
//! - pawn structure: advance per rank, passed pawns per rank, doubled,
//!   isolated and supported (defended by an own pawn) pawns (never worth
//!   more than the pawn's best promotion:
//!   [`EvalParams::capped_at_promotion`]);
//! - king safety: own men on the squares around the king, enemy attacks
//!   on them, and the square of that count (king danger grows faster
//!   than the attacks);
//! - tempo for the side to move;
//! - threats: enemy pieces (neither pawns nor the king) attacked by a
//!   pawn, attacked by a piece of lower middlegame value, and attacked
//!   but not defended;
//! - knowledge the rules demand: in bare-king variants a side's last man
//!   is worth extra (losing it loses the game); against a side of at most
//!   two men, the side ahead in material is rewarded for driving the
//!   enemy king toward the edge, bringing its own king closer and taking
//!   squares from the enemy king (mates, bared kings and, where stalemate
//!   wins, stalemates happen there). These mop-up terms grow linearly
//!   with the lead, from nothing at [`Thresholds::mop_up_start`] to full
//!   strength at [`Thresholds::mop_up_full`], and never count against
//!   the side ahead (their weights are kept at zero or more:
//!   [`EvalParams::within_rules`]).
//!
//! Then drawish endgames are scaled toward zero: a side without pawns
//! whose lead in material is below [`Thresholds::drawish_margin`] cannot
//! force a win in general (a lone minor piece or short-range leaper does
//! not mate, and where the bare-king rule applies, the weaker side's men
//! must all be won first), so its evaluation is multiplied by
//! [`Thresholds::drawish_scale`] / 64.
//!
//! Every weighted term goes through an [`Accumulator`]: the engine sums
//! weights, the tuner can record the counts instead (one code path for
//! both).

use std::sync::Arc;

use crate::board::bitboard::Bitboard;
use crate::board::geometry::Geometry;
use crate::position::game::Game;
use crate::position::psq::{PieceSquareTable, PieceSquareValue};
use crate::position::state::Position;
use crate::types::{Color, Square};
use crate::variant::definition::MAX_PIECE_TYPES;

pub use crate::eval::params::built_in::BUILT_IN_VALUES;
pub use crate::eval::params::{EvalParams, Pair, ParamsError, Thresholds};

/// Receives each term of the evaluation: weight `index`, counted `count`
/// times (positive for White, negative for Black).
pub trait Accumulator {
    /// Adds a term.
    fn add(&mut self, index: usize, count: i32);
}

/// Sums the weighted terms.
struct Sum<'p> {
    weights: &'p [Pair],
    middlegame: i32,
    endgame: i32,
}

impl Accumulator for Sum<'_> {
    #[inline(always)]
    fn add(&mut self, index: usize, count: i32) {
        let Pair(middlegame, endgame) = self.weights[index];
        self.middlegame += middlegame * count;
        self.endgame += endgame * count;
    }
}

/// How far outside the search window the cheap part of the evaluation
/// must be for the mobility and threat terms to be skipped. Measured
/// over every evaluation of the `kurier bench --depth 12` search of each
/// variant: those terms moved the score by at most 250 (chess) to 410
/// (courier) centipawns; 99th percentile 125 (chess) to 225 (courier),
/// 99.9th 165 to 280. (The mobility terms alone, before the threats and
/// courier's fitted weights: at most 195, 99.9th percentile 85 to 136.)
pub const LAZY_MARGIN: i32 = 200;

/// The largest game phase: all pieces of the start position on the board.
pub const MAX_PHASE: i32 = 256;

/// A scale factor of one, in 64ths (see [`Thresholds::drawish_scale`]).
const FULL_SCALE: i32 = 64;

/// Evaluation tables for one variant and one parameter set.
#[derive(Clone, Debug)]
pub struct Evaluator<B> {
    params: EvalParams,
    /// `[type * squares + square]`: centred empty-board move count.
    square_term: Vec<i32>,
    squares: usize,
    /// `[color][square]`: squares ahead of a pawn on its file and the
    /// neighbouring files (a passed pawn has no enemy pawn there).
    passed_span: [Vec<B>; 2],
    /// `[file]`: the neighbouring files.
    neighbour_files: Vec<B>,
    /// Middlegame material of everything but pawns and kings at the start.
    start_phase_material: i32,
    /// The pawn type when the game has exactly one (the pawn cache's case).
    only_pawn_type: Option<usize>,
    /// Material and square terms, and phase material, per piece and square.
    piece_squares: Arc<PieceSquareTable>,
    /// The piece types that threats count (neither pawns nor the king),
    /// by middlegame value, lowest first.
    threat_order: Vec<usize>,
}

/// The squares one side attacks (capture targets, own men included:
/// the squares it defends).
#[derive(Clone, Copy)]
struct Attacks<B> {
    /// By piece type.
    by_type: [B; MAX_PIECE_TYPES],
    /// By the pawns.
    pawns: B,
    /// By anything.
    all: B,
}

impl<B: Bitboard> Attacks<B> {
    const NONE: Attacks<B> = Attacks {
        by_type: [B::EMPTY; MAX_PIECE_TYPES],
        pawns: B::EMPTY,
        all: B::EMPTY,
    };

    /// Records that pieces of `piece_type` attack `targets`.
    #[inline(always)]
    fn add(&mut self, piece_type: usize, targets: B) {
        self.by_type[piece_type] |= targets;
        self.all |= targets;
    }
}

impl<B: Bitboard> Evaluator<B> {
    /// Builds the tables for `params` on `game`.
    pub fn new(game: &Arc<Game<B>>, params: EvalParams) -> Evaluator<B> {
        let params = params.within_rules(&game.variant);
        let geometry = &game.geometry;
        let tables = game.tables();
        let squares = geometry.squares();
        let square_term: Vec<i32> = game
            .pieces
            .iter()
            .flat_map(|moves| {
                let counts: Vec<i32> = (0..squares)
                    .map(|index| {
                        let (quiet, capture) = moves.targets(
                            &tables,
                            Color::White,
                            Square::new(index as u8),
                            B::EMPTY,
                            B::EMPTY,
                        );
                        (quiet | capture).count() as i32
                    })
                    .collect();
                let average = counts.iter().sum::<i32>() / squares.max(1) as i32;
                counts.into_iter().map(move |count| count - average)
            })
            .collect();
        let files = geometry.files();
        let neighbour_files: Vec<B> = (0..files)
            .map(|file| {
                let mut mask = B::EMPTY;
                if file > 0 {
                    mask |= geometry.file_mask(file - 1);
                }
                if file + 1 < files {
                    mask |= geometry.file_mask(file + 1);
                }
                mask
            })
            .collect();
        let passed_span = Color::BOTH.map(|color| {
            (0..squares)
                .map(|index| {
                    let square = Square::new(index as u8);
                    let file = geometry.file_of(square);
                    let rank = geometry.rank_of(square);
                    let files_mask = neighbour_files[usize::from(file)] | geometry.file_mask(file);
                    let ahead = (0..geometry.ranks())
                        .filter(|&r| match color {
                            Color::White => r > rank,
                            Color::Black => r < rank,
                        })
                        .fold(B::EMPTY, |acc, r| acc | geometry.rank_mask(r));
                    files_mask & ahead
                })
                .collect()
        });
        let start = Position::startpos(game.clone());
        let start_phase_material = phase_material(&start, &params);
        let piece_squares = Arc::new(piece_square_table(game, &params, &square_term));
        let mut threat_order: Vec<usize> = (0..game.pieces.len())
            .filter(|&t| t != game.king && !game.is_pawn(t))
            .collect();
        threat_order.sort_by_key(|&t| params.piece_value(t).0);
        Evaluator {
            params,
            square_term,
            squares,
            passed_span,
            neighbour_files,
            start_phase_material: start_phase_material.max(1),
            only_pawn_type: (game.pawn_types.count_ones() == 1)
                .then(|| game.pawn_types.trailing_zeros() as usize),
            piece_squares,
            threat_order,
        }
    }

    /// The parameters.
    pub fn params(&self) -> &EvalParams {
        &self.params
    }

    /// The game phase, from [`MAX_PHASE`] (all pieces) down to 0 (only
    /// kings and pawns).
    pub fn phase(&self, position: &Position<B>) -> i32 {
        self.phase_of_material(phase_material(position, &self.params))
    }

    fn phase_of_material(&self, material: i32) -> i32 {
        (material * MAX_PHASE / self.start_phase_material).min(MAX_PHASE)
    }

    /// The evaluation in centipawns from the side to move's point of view.
    pub fn evaluate(&self, position: &Position<B>) -> i32 {
        let mut sum = self.sum();
        self.terms(position, &mut sum);
        self.finish(position, &sum, self.phase(position))
    }

    /// Whether the evaluation of `position` is scaled toward a draw
    /// (drawish material): then it is not the tapered sum of its
    /// weighted terms.
    pub fn is_scaled(&self, position: &Position<B>) -> bool {
        let mut sum = self.sum();
        self.terms(position, &mut sum);
        let white = tapered(&sum, self.phase(position));
        self.scale(position, white) != FULL_SCALE
    }

    /// The evaluation, or, when the terms that need no move generation
    /// already put it more than [`LAZY_MARGIN`] outside `(alpha, beta)`,
    /// that cheaper estimate. The flag says whether the result is exact.
    /// Equal to [`Evaluator::evaluate`] when exact; `pawns` remembers pawn
    /// structures already scored.
    pub fn evaluate_within(
        &self,
        position: &Position<B>,
        alpha: i32,
        beta: i32,
        pawns: &mut PawnCache<B>,
    ) -> (i32, bool) {
        let mut sum = self.sum();
        self.king_and_tempo_terms(position, &mut sum);
        self.rules_terms(position, &mut sum);
        let pieces = position.piece_square_sum(&self.piece_squares);
        let Pair(middlegame, endgame) = self.cached_pawn_structure(position, pawns);
        sum.middlegame += pieces.middlegame + middlegame;
        sum.endgame += pieces.endgame + endgame;
        let phase = self.phase_of_material(pieces.phase);
        let estimate = self.finish(position, &sum, phase);
        if estimate.saturating_add(LAZY_MARGIN) <= alpha
            || estimate.saturating_sub(LAZY_MARGIN) >= beta
        {
            return (estimate, false);
        }
        self.mobility_terms(position, &mut sum);
        (self.finish(position, &sum, phase), true)
    }

    /// The table of material and square terms that search positions
    /// keep summed (see [`Position::set_piece_square_table`]).
    pub fn piece_square_table(&self) -> &Arc<PieceSquareTable> {
        &self.piece_squares
    }

    /// An empty sum of this parameter set's weights.
    fn sum(&self) -> Sum<'_> {
        Sum {
            weights: &self.params.weights,
            middlegame: 0,
            endgame: 0,
        }
    }

    /// Tapers the summed terms by the game phase, scales drawish
    /// endgames, and turns the result to the side to move's view.
    fn finish(&self, position: &Position<B>, sum: &Sum<'_>, phase: i32) -> i32 {
        let tapered = tapered(sum, phase);
        let score = tapered * self.scale(position, tapered) / FULL_SCALE;
        match position.side_to_move() {
            Color::White => score,
            Color::Black => -score,
        }
    }

    /// The scale, in 64ths, of a White-view evaluation `score`: full,
    /// unless the side it favours has no pawns and too small a lead in
    /// material to force a win.
    fn scale(&self, position: &Position<B>, score: i32) -> i32 {
        let game = &**position.game();
        let strong = if score >= 0 {
            Color::White
        } else {
            Color::Black
        };
        let has_pawns = (0..game.pieces.len())
            .any(|t| game.is_pawn(t) && !position.pieces(strong, t).is_empty());
        if has_pawns {
            return FULL_SCALE;
        }
        let thresholds = &self.params.thresholds;
        let lead = self.endgame_material(position, strong)
            - self.endgame_material(position, strong.flip());
        if lead < thresholds.drawish_margin {
            thresholds.drawish_scale
        } else {
            FULL_SCALE
        }
    }

    /// Endgame material of `color`'s men (the king not counted).
    fn endgame_material(&self, position: &Position<B>, color: Color) -> i32 {
        let game = &**position.game();
        (0..game.pieces.len())
            .filter(|&t| t != game.king)
            .map(|t| position.pieces(color, t).count() as i32 * self.params.piece_value(t).1)
            .sum()
    }

    /// Feeds every weighted term of `position` to `accumulator`.
    pub fn terms<A: Accumulator>(&self, position: &Position<B>, accumulator: &mut A) {
        self.piece_terms(position, accumulator);
        self.king_and_tempo_terms(position, accumulator);
        self.rules_terms(position, accumulator);
        self.pawn_structure(position, accumulator);
        self.mobility_terms(position, accumulator);
    }

    /// Material and square terms (what the piece-square table sums).
    fn piece_terms<A: Accumulator>(&self, position: &Position<B>, accumulator: &mut A) {
        let game = &**position.game();
        let geometry = &game.geometry;
        let layout = &self.params.layout;
        for color in Color::BOTH {
            let sign = color_sign(color);
            for piece_type in 0..game.pieces.len() {
                let pieces = position.pieces(color, piece_type);
                if pieces.is_empty() {
                    continue;
                }
                accumulator.add(layout.material(piece_type), sign * pieces.count() as i32);
                let mut square_sum = 0;
                for square in pieces.squares() {
                    square_sum += self.square_term
                        [piece_type * self.squares + geometry.relative_index(square, color)];
                    let rank = usize::from(geometry.relative_rank(square, color));
                    accumulator.add(layout.piece_rank(piece_type, rank), sign);
                    accumulator.add(
                        layout.piece_file(piece_type, edge_distance(geometry, square)),
                        sign,
                    );
                }
                accumulator.add(layout.square(piece_type), sign * square_sum);
            }
        }
    }

    /// King shelter and tempo.
    fn king_and_tempo_terms<A: Accumulator>(&self, position: &Position<B>, accumulator: &mut A) {
        let game = &**position.game();
        let layout = &self.params.layout;
        for color in Color::BOTH {
            let sign = color_sign(color);
            let own = position.color_pieces(color);
            let king = position.king_square(color);
            let shield = game.pieces[game.king].capture_leaps[color.index()][king.index()] & own;
            accumulator.add(layout.king_shield(), sign * shield.count() as i32);
        }
        accumulator.add(layout.tempo(), color_sign(position.side_to_move()));
    }

    /// The pawn-structure terms of both sides.
    fn pawn_structure<A: Accumulator>(&self, position: &Position<B>, accumulator: &mut A) {
        let game = &**position.game();
        for color in Color::BOTH {
            for piece_type in 0..game.pieces.len() {
                if game.is_pawn(piece_type) {
                    self.pawn_terms(position, color, piece_type, accumulator);
                }
            }
        }
    }

    /// The weighted pawn-structure terms, summed.
    fn pawn_structure_score(&self, position: &Position<B>) -> Pair {
        let mut sum = self.sum();
        self.pawn_structure(position, &mut sum);
        Pair(sum.middlegame, sum.endgame)
    }

    /// The weighted pawn-structure terms, from `cache` when these pawns
    /// were scored before.
    fn cached_pawn_structure(&self, position: &Position<B>, cache: &mut PawnCache<B>) -> Pair {
        let Some(pawn_type) = self.only_pawn_type else {
            // Several pawn types: their union would not identify the structure.
            return self.pawn_structure_score(position);
        };
        let white = position.pieces(Color::White, pawn_type);
        let black = position.pieces(Color::Black, pawn_type);
        let slot = cache.slot(white, black);
        let entry = &mut cache.entries[slot];
        if entry.white == white && entry.black == black {
            return entry.score;
        }
        let score = self.pawn_structure_score(position);
        *entry = PawnEntry {
            white,
            black,
            score,
        };
        score
    }

    /// The terms that generate moves: mobility (and the part of it that
    /// enemy pawns attack), attacks on the squares around the enemy king
    /// (and their square), and threats.
    fn mobility_terms<A: Accumulator>(&self, position: &Position<B>, accumulator: &mut A) {
        let game = &**position.game();
        let tables = game.tables();
        let layout = &self.params.layout;
        let occupied = position.occupied();
        let mut attacks = [Attacks::NONE; 2];
        // The pawns first: the other side's mobility needs their attacks.
        for color in Color::BOTH {
            for (piece_type, moves) in game.pieces.iter().enumerate() {
                if !game.is_pawn(piece_type) {
                    continue;
                }
                let initial = position.first_move_squares(moves, piece_type, color);
                for square in position.pieces(color, piece_type).squares() {
                    let targets = moves.capture_targets(&tables, color, square, occupied, initial);
                    attacks[color.index()].add(piece_type, targets);
                    attacks[color.index()].pawns |= targets;
                }
            }
        }
        for color in Color::BOTH {
            let sign = color_sign(color);
            let own = position.color_pieces(color);
            let enemy_king = position.king_square(color.flip());
            let enemy_zone = game.pieces[game.king].capture_leaps[color.flip().index()]
                [enemy_king.index()]
                | B::square(enemy_king);
            let enemy_pawn_attacks = attacks[color.flip().index()].pawns;
            let attacks = &mut attacks[color.index()];
            let mut zone_attacks = 0;
            let mut unsafe_mobility = 0;
            for (piece_type, moves) in game.pieces.iter().enumerate() {
                let pieces = position.pieces(color, piece_type);
                if pieces.is_empty() || game.is_pawn(piece_type) {
                    continue;
                }
                let initial = position.first_move_squares(moves, piece_type, color);
                if piece_type == game.king {
                    // No mobility term, but it threatens and defends.
                    for square in pieces.squares() {
                        let targets =
                            moves.capture_targets(&tables, color, square, occupied, initial);
                        attacks.add(piece_type, targets);
                    }
                    continue;
                }
                let mut mobility = 0;
                if moves.symmetric {
                    // Quiet targets equal capture targets: count them once.
                    for square in pieces.squares() {
                        let targets =
                            moves.capture_targets(&tables, color, square, occupied, initial);
                        let reached = targets & !own;
                        mobility += reached.count() as i32;
                        unsafe_mobility += (reached & enemy_pawn_attacks).count() as i32;
                        zone_attacks += (targets & enemy_zone).count() as i32;
                        attacks.add(piece_type, targets);
                    }
                } else {
                    for square in pieces.squares() {
                        let (quiet, capture) =
                            moves.targets(&tables, color, square, occupied, initial);
                        let reached = (quiet & !occupied) | (capture & !own);
                        mobility += reached.count() as i32;
                        unsafe_mobility += (reached & enemy_pawn_attacks).count() as i32;
                        zone_attacks += (capture & enemy_zone).count() as i32;
                        attacks.add(piece_type, capture);
                    }
                }
                if mobility != 0 {
                    accumulator.add(layout.mobility(piece_type), sign * mobility);
                }
            }
            accumulator.add(layout.unsafe_mobility(), sign * unsafe_mobility);
            accumulator.add(layout.king_attack(), -sign * zone_attacks);
            accumulator.add(layout.king_danger(), -sign * zone_attacks * zone_attacks);
        }
        self.threat_terms(position, &attacks, accumulator);
    }

    /// The threats of each side: enemy pieces (neither pawns nor the
    /// king) attacked by a pawn, by a piece of lower middlegame value,
    /// and attacked without being defended.
    fn threat_terms<A: Accumulator>(
        &self,
        position: &Position<B>,
        attacks: &[Attacks<B>; 2],
        accumulator: &mut A,
    ) {
        let layout = &self.params.layout;
        for color in Color::BOTH {
            let sign = color_sign(color);
            let them = color.flip();
            let ours = &attacks[color.index()];
            let defended = attacks[them.index()].all;
            // Their pieces that threats count, and those attacked by a
            // lesser piece.
            let mut targets = B::EMPTY;
            let mut by_lesser = 0;
            // Attacks of the types worth less than the current one, and
            // of the types worth as much.
            let mut lesser = B::EMPTY;
            let mut equal = B::EMPTY;
            let mut equal_value = None;
            for &piece_type in &self.threat_order {
                let value = self.params.piece_value(piece_type).0;
                if equal_value != Some(value) {
                    lesser |= equal;
                    equal = B::EMPTY;
                    equal_value = Some(value);
                }
                equal |= ours.by_type[piece_type];
                let victims = position.pieces(them, piece_type);
                targets |= victims;
                by_lesser += (victims & lesser).count() as i32;
            }
            let by_pawn = (targets & ours.pawns).count() as i32;
            let hanging = (targets & ours.all & !defended).count() as i32;
            accumulator.add(layout.threat_by_pawn(), sign * by_pawn);
            accumulator.add(layout.threat_by_lesser(), sign * by_lesser);
            accumulator.add(layout.hanging(), sign * hanging);
        }
    }

    fn pawn_terms<A: Accumulator>(
        &self,
        position: &Position<B>,
        color: Color,
        pawn_type: usize,
        accumulator: &mut A,
    ) {
        let sign = color_sign(color);
        let geometry = &position.game().geometry;
        let layout = &self.params.layout;
        let pawns = position.pieces(color, pawn_type);
        let enemy_pawns = position.pieces(color.flip(), pawn_type);
        // Pawns capture by leaping, so what they defend depends on the pawns alone.
        let capture_leaps = &position.game().pieces[pawn_type].capture_leaps[color.index()];
        let defended = pawns
            .squares()
            .fold(B::EMPTY, |acc, square| acc | capture_leaps[square.index()]);
        accumulator.add(
            layout.supported_pawn(),
            sign * (pawns & defended).count() as i32,
        );
        for square in pawns.squares() {
            let rank = usize::from(geometry.relative_rank(square, color));
            accumulator.add(layout.pawn_rank(rank), sign);
            if (self.passed_span[color.index()][square.index()] & enemy_pawns).is_empty() {
                accumulator.add(layout.passed(rank), sign);
            }
            let file = geometry.file_of(square);
            if (self.neighbour_files[usize::from(file)] & pawns).is_empty() {
                accumulator.add(layout.isolated(), sign);
            }
        }
        for file in 0..geometry.files() {
            let on_file = (pawns & geometry.file_mask(file)).count() as i32;
            if on_file > 1 {
                accumulator.add(layout.doubled(), sign * (on_file - 1));
            }
        }
    }

    /// The rules knowledge (see the module's documentation): the last
    /// man of a bare-king variant, and the mop-up terms against a side
    /// of at most two men.
    fn rules_terms<A: Accumulator>(&self, position: &Position<B>, accumulator: &mut A) {
        let game = &**position.game();
        let men = |color: Color| {
            (position.color_pieces(color) & !position.type_pieces(game.king)).count()
        };
        let men = [men(Color::White), men(Color::Black)];
        if men[0] > 2 && men[1] > 2 {
            return;
        }
        let layout = &self.params.layout;
        for color in Color::BOTH {
            let sign = color_sign(color);
            if game.variant.bare_king && men[color.index()] == 1 {
                accumulator.add(layout.last_man(), sign);
            }
            if men[color.flip().index()] > 2 {
                continue;
            }
            let lead = self.endgame_material(position, color)
                - self.endgame_material(position, color.flip());
            let Thresholds {
                mop_up_start,
                mop_up_full,
                ..
            } = self.params.thresholds;
            if lead <= mop_up_start {
                continue;
            }
            // Permille of full strength, linear in the lead.
            let strength = ((lead - mop_up_start) * 1000 / (mop_up_full - mop_up_start)).min(1000);
            let scaled = |count: i32| sign * ((count * strength + 500) / 1000);
            let geometry = &game.geometry;
            let enemy = position.king_square(color.flip());
            let ours = position.king_square(color);
            let edge_distance = |square: Square| -> i32 {
                let file = i32::from(geometry.file_of(square));
                let rank = i32::from(geometry.rank_of(square));
                file.min(i32::from(geometry.files()) - 1 - file)
                    + rank.min(i32::from(geometry.ranks()) - 1 - rank)
            };
            let centre_distance =
                (i32::from(geometry.files()) - 1) / 2 + (i32::from(geometry.ranks()) - 1) / 2;
            let king_distance = (i32::from(geometry.file_of(enemy))
                - i32::from(geometry.file_of(ours)))
            .abs()
            .max((i32::from(geometry.rank_of(enemy)) - i32::from(geometry.rank_of(ours))).abs());
            let farthest = i32::from(geometry.files().max(geometry.ranks())) - 1;
            let occupied = position.occupied();
            let king_steps = game.pieces[game.king].capture_leaps[color.flip().index()]
                [enemy.index()]
                & !position.color_pieces(color.flip());
            let taken = king_steps
                .squares()
                .filter(|&to| {
                    position.is_attacked_by(
                        to,
                        color,
                        occupied & !B::square(enemy),
                        position.color_pieces(color),
                    )
                })
                .count() as i32;
            accumulator.add(
                layout.mop_up_edge(),
                scaled(centre_distance - edge_distance(enemy)),
            );
            accumulator.add(layout.mop_up_kings(), scaled(farthest - king_distance));
            accumulator.add(layout.mop_up_king_squares(), scaled(taken));
        }
    }
}

/// The material and square terms of every piece on every square, and
/// the phase material, as [`Evaluator::piece_terms`] and [`phase_material`]
/// count them.
fn piece_square_table<B: Bitboard>(
    game: &Game<B>,
    params: &EvalParams,
    square_term: &[i32],
) -> PieceSquareTable {
    let squares = game.geometry.squares();
    let layout = &params.layout;
    PieceSquareTable::new(squares, |piece, square| {
        let piece_type = piece.piece_type();
        if piece_type >= game.pieces.len() {
            return PieceSquareValue::default();
        }
        let color = piece.color();
        let sign = color_sign(color);
        let count = square_term[piece_type * squares + game.geometry.relative_index(square, color)];
        let Pair(material_mg, material_eg) = params.weights[layout.material(piece_type)];
        let Pair(square_mg, square_eg) = params.weights[layout.square(piece_type)];
        let rank = usize::from(game.geometry.relative_rank(square, color));
        let Pair(rank_mg, rank_eg) = params.weights[layout.piece_rank(piece_type, rank)];
        let file = edge_distance(&game.geometry, square);
        let Pair(file_mg, file_eg) = params.weights[layout.piece_file(piece_type, file)];
        let counts_for_phase = piece_type != game.king && !game.is_pawn(piece_type);
        PieceSquareValue {
            middlegame: sign * (material_mg + square_mg * count + rank_mg + file_mg),
            endgame: sign * (material_eg + square_eg * count + rank_eg + file_eg),
            phase: if counts_for_phase {
                material_mg.max(0)
            } else {
                0
            },
        }
    })
}

/// How many files `square` is from the nearest side edge of the board.
fn edge_distance<B: Bitboard>(geometry: &Geometry<B>, square: Square) -> usize {
    let file = geometry.file_of(square);
    usize::from(file.min(geometry.files() - 1 - file))
}

/// +1 for White, -1 for Black: terms are counted White minus Black.
fn color_sign(color: Color) -> i32 {
    match color {
        Color::White => 1,
        Color::Black => -1,
    }
}

/// Entries of a [`PawnCache`] (a power of two).
const PAWN_CACHE_ENTRIES: usize = 1 << 12;

/// One scored pawn structure.
#[derive(Clone, Copy, Debug)]
struct PawnEntry<B> {
    white: B,
    black: B,
    score: Pair,
}

/// Pawn structures already scored, with their weighted terms: pawns move
/// rarely, so most evaluations find theirs here. Each search thread keeps
/// its own. Entries hold the whole pawn bitboards, so a hit is never a
/// collision.
#[derive(Clone, Debug)]
pub struct PawnCache<B> {
    entries: Vec<PawnEntry<B>>,
}

impl<B: Bitboard> PawnCache<B> {
    /// An empty cache.
    pub fn new() -> PawnCache<B> {
        // No position has a white pawn on every square: the empty entry
        // never matches.
        let never = PawnEntry {
            white: !B::EMPTY,
            black: B::EMPTY,
            score: Pair::default(),
        };
        PawnCache {
            entries: vec![never; PAWN_CACHE_ENTRIES],
        }
    }

    fn slot(&self, white: B, black: B) -> usize {
        let mixed =
            (white.fold() ^ black.fold().rotate_left(32)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (mixed >> 52) as usize & (PAWN_CACHE_ENTRIES - 1)
    }
}

impl<B: Bitboard> Default for PawnCache<B> {
    fn default() -> Self {
        PawnCache::new()
    }
}

/// Middlegame material of all pieces but pawns and kings, both sides.
fn phase_material<B: Bitboard>(position: &Position<B>, params: &EvalParams) -> i32 {
    let game = position.game();
    (0..game.pieces.len())
        .filter(|&t| t != game.king && !game.is_pawn(t))
        .map(|t| position.type_pieces(t).count() as i32 * params.piece_value(t).0.max(0))
        .sum()
}

/// The White-view sum of `sum`'s terms, tapered by the game `phase`.
fn tapered(sum: &Sum<'_>, phase: i32) -> i32 {
    (sum.middlegame * phase + sum.endgame * (MAX_PHASE - phase)) / MAX_PHASE
}

/// Chess with its suggested piece values (Kaufman's), for the tests that
/// work positions out by hand.
#[cfg(test)]
pub(crate) fn chess_with_suggested_values() -> (Arc<Game<u128>>, Evaluator<u128>) {
    use crate::position::any_game::AnyGame;
    let AnyGame::Narrow(game) = AnyGame::built_in("chess").unwrap() else {
        unreachable!("chess is 8x8")
    };
    let params = EvalParams::suggested(&game.variant)
        .expect("a built-in variant")
        .expect("built-in values parse");
    let evaluator = Evaluator::new(&game, params);
    (game, evaluator)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::any_game::AnyGame;

    /// Counts of each weight, White minus Black.
    struct Counts(Vec<i32>);

    impl Accumulator for Counts {
        fn add(&mut self, index: usize, count: i32) {
            self.0[index] += count;
        }
    }

    /// Chess positions with the threats counted by hand, White minus
    /// Black: (attacked by a pawn, attacked by a lesser piece, hanging).
    /// Kaufman's values order the pieces (knight and bishop equal).
    #[test]
    fn threats_counted_by_hand() {
        let (game, evaluator) = chess_with_suggested_values();
        let layout = &evaluator.params.layout;
        let cases = [
            // The d4 pawn forks bishop and knight; neither is defended.
            ("4k3/7p/8/2b1n3/3P4/8/P7/3QK3 w - - 0 1", (2, 0, 2)),
            // A knight attacks a rook that a pawn defends...
            ("4k3/7p/2p5/3r4/8/4N3/P7/Q3K3 w - - 0 1", (0, 1, 0)),
            // ...and that nothing defends.
            ("4k3/7p/8/3r4/8/4N3/P7/Q3K3 w - - 0 1", (0, 1, 1)),
            // A knight attacks a bishop: not a lesser piece, but it hangs.
            ("4k3/7p/8/3b4/8/4N3/P7/Q3K3 w - - 0 1", (0, 0, 1)),
            // Black's pawn attacks White's undefended knight.
            ("4k3/8/8/8/3p4/4N3/P7/Q3K3 w - - 0 1", (-1, 0, -1)),
        ];
        for (fen, expected) in cases {
            let position = Position::from_fen(game.clone(), fen).unwrap();
            let mut counts = Counts(vec![0; evaluator.params.weights.len()]);
            evaluator.terms(&position, &mut counts);
            let found = (
                counts.0[layout.threat_by_pawn()],
                counts.0[layout.threat_by_lesser()],
                counts.0[layout.hanging()],
            );
            assert_eq!(found, expected, "{fen}");
        }
    }

    /// Chess positions with the pawn-structure, mobility, king-danger and
    /// piece-square counts of the terms added to the threats, counted by
    /// hand, White minus Black.
    #[test]
    fn structure_mobility_and_king_danger_counted_by_hand() {
        let AnyGame::Narrow(game) = AnyGame::built_in("chess").unwrap() else {
            unreachable!("chess is 8x8")
        };
        let evaluator = Evaluator::new(&game, EvalParams::for_variant(&game.variant).unwrap());
        let layout = &evaluator.params.layout;
        let counts_of = |fen: &str| {
            let position = Position::from_fen(game.clone(), fen).unwrap();
            let mut counts = Counts(vec![0; evaluator.params.weights.len()]);
            evaluator.terms(&position, &mut counts);
            counts.0
        };
        let type_of = |letter| game.variant.type_of_letter(letter).unwrap();
        let (pawn, knight, queen) = (type_of('P'), type_of('N'), type_of('Q'));

        // White's a2 defends b3, b3 defends c4; Black's f7 defends g6.
        let counts = counts_of("4k3/5p2/6p1/8/2P5/1P6/P7/4K3 w - - 0 1");
        assert_eq!(counts[layout.supported_pawn()], 2 - 1);

        // The d3 knight reaches b2, b4, c1, c5, e5, f2 and f4 (not its own
        // king's e1); Black's c5 pawn attacks b4 (and d4).
        let fen = "4k3/8/8/2p5/8/3N4/8/4K3 w - - 0 1";
        let counts = counts_of(fen);
        assert_eq!(counts[layout.mobility(knight)], 7);
        assert_eq!(counts[layout.unsafe_mobility()], 1);
        assert_eq!(counts[layout.king_attack()], 0);
        // The knight on its third rank, three files from the edge; the
        // black pawn on its fourth rank (from its side), two from the edge.
        assert_eq!(counts[layout.piece_rank(knight, 2)], 1);
        assert_eq!(counts[layout.piece_file(knight, 3)], 1);
        assert_eq!(counts[layout.piece_rank(pawn, 3)], -1);
        assert_eq!(counts[layout.piece_file(pawn, 2)], -1);
        assert_eq!(counts[layout.piece_file(pawn, 3)], 0);

        // The e2 queen attacks e7 and e8 of the black king's zone: two
        // attacks, king danger four (the signs say that they help White;
        // Black is to move, in check).
        let counts = counts_of("4k3/8/8/8/8/8/4Q3/4K3 b - - 0 1");
        assert_eq!(counts[layout.king_attack()], -2);
        assert_eq!(counts[layout.king_danger()], -4);
        assert_eq!(counts[layout.piece_rank(queen, 1)], 1);
    }
}
