//! Static evaluation: a tapered (middlegame/endgame) sum of weighted
//! terms, all weights in one [`EvalParams`] set that is saved and loaded
//! as TOML so that the tuner can fit it.
//!
//! Terms, each counted White minus Black:
//! - material per piece type (from `data/values/<variant>.toml`);
//! - square: per piece, how many moves it has from its square on an
//!   empty board, minus that piece's average (central squares count more
//!   for short-range pieces), times a weight per type;
//! - mobility: per piece, the squares it can move to now;
//! - pawn structure: advance per rank, passed pawns per rank, doubled and
//!   isolated pawns;
//! - king safety: own men on the squares around the king, enemy attacks
//!   on them;
//! - tempo for the side to move.
//!
//! On top, knowledge the rules demand (not tuned): in bare-king variants
//! a side's last man is worth extra (losing it loses the game), and a side
//! far ahead is rewarded for driving the enemy king to the edge and its
//! own king closer (mates, bared kings and, where stalemate wins,
//! stalemates happen there).
//!
//! Every term goes through an [`Accumulator`]: the engine sums weights,
//! the tuner can record the counts instead (one code path for both).

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::bitboard::Bitboard;
use crate::game::Game;
use crate::geometry::{Color, Square};
use crate::position::Position;
use crate::psq::{PieceSquareTable, PieceSquareValue};
use crate::variant::Variant;

/// A middlegame and an endgame weight, in centipawns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pair(pub i32, pub i32);

/// The built-in piece values, `data/values/<variant>.toml`.
pub const BUILT_IN_VALUES: [(&str, &str); 5] = [
    ("chess", include_str!("../../data/values/chess.toml")),
    ("courier", include_str!("../../data/values/courier.toml")),
    (
        "courier-moderno",
        include_str!("../../data/values/courier-moderno.toml"),
    ),
    (
        "enhanced-courier",
        include_str!("../../data/values/enhanced-courier.toml"),
    ),
    ("excoco", include_str!("../../data/values/excoco.toml")),
];

/// What is wrong with a values or parameter file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamsError {
    /// The file or the variant it was for.
    pub source: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ParamsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.source, self.message)
    }
}

impl std::error::Error for ParamsError {}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ValuesFile {
    variant: String,
    values: BTreeMap<String, i32>,
}

/// Where each group of weights starts in the flat weight list.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Layout {
    types: usize,
    ranks: usize,
}

impl Layout {
    fn material(&self, piece_type: usize) -> usize {
        piece_type
    }
    fn square(&self, piece_type: usize) -> usize {
        self.types + piece_type
    }
    fn mobility(&self, piece_type: usize) -> usize {
        2 * self.types + piece_type
    }
    fn pawn_rank(&self, rank: usize) -> usize {
        3 * self.types + rank
    }
    fn passed(&self, rank: usize) -> usize {
        3 * self.types + self.ranks + rank
    }
    fn doubled(&self) -> usize {
        3 * self.types + 2 * self.ranks
    }
    fn isolated(&self) -> usize {
        self.doubled() + 1
    }
    fn king_shield(&self) -> usize {
        self.doubled() + 2
    }
    fn king_attack(&self) -> usize {
        self.doubled() + 3
    }
    fn tempo(&self) -> usize {
        self.doubled() + 4
    }
    fn len(&self) -> usize {
        self.doubled() + 5
    }
}

/// Every weight of the evaluation, for one variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalParams {
    variant: String,
    letters: Vec<char>,
    layout: Layout,
    /// The weights, in the layout's order.
    pub weights: Vec<Pair>,
}

/// The TOML form of [`EvalParams`], with weights named by piece letter
/// and rank.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ParamsFile {
    variant: String,
    material: BTreeMap<String, Pair>,
    square: BTreeMap<String, Pair>,
    mobility: BTreeMap<String, Pair>,
    pawn_rank: Vec<Pair>,
    passed_pawn: Vec<Pair>,
    doubled_pawn: Pair,
    isolated_pawn: Pair,
    king_shield: Pair,
    king_attack: Pair,
    tempo: Pair,
}

impl EvalParams {
    /// The default weights for a variant, with its built-in piece values.
    pub fn for_variant(variant: &Variant) -> Result<EvalParams, ParamsError> {
        let text = BUILT_IN_VALUES
            .iter()
            .find(|(name, _)| *name == variant.name)
            .map(|(_, text)| *text);
        match text {
            Some(text) => EvalParams::with_values(
                variant,
                text,
                &format!("built-in values of {}", variant.name),
            ),
            None => {
                // A user's variant without a values file: value pieces by mobility.
                let mut params = EvalParams::neutral(variant);
                for (piece_type, piece) in variant.pieces.iter().enumerate() {
                    let value = if piece.pawn { 100 } else { 0 };
                    params.weights[params.layout.material(piece_type)] = Pair(value, value);
                }
                Ok(params)
            }
        }
    }

    /// The default weights with piece values from a values file's text.
    pub fn with_values(
        variant: &Variant,
        text: &str,
        source: &str,
    ) -> Result<EvalParams, ParamsError> {
        let error = |message: String| ParamsError {
            source: source.to_string(),
            message,
        };
        let file: ValuesFile =
            parse_for_variant(variant, text, source, |f: &ValuesFile| &f.variant)?;
        let mut params = EvalParams::neutral(variant);
        for (letter, &value) in &file.values {
            let piece_type = type_of(variant, letter).ok_or_else(|| {
                error(format!("values.{letter}: not a piece of {}", variant.name))
            })?;
            params.weights[params.layout.material(piece_type)] = Pair(value, value);
        }
        Ok(params)
    }

    /// Reads a values file (`data/values/<variant>.toml` format).
    pub fn from_values_file(variant: &Variant, path: &Path) -> Result<EvalParams, ParamsError> {
        let text = std::fs::read_to_string(path).map_err(|e| ParamsError {
            source: path.display().to_string(),
            message: format!("cannot read it: {e}"),
        })?;
        EvalParams::with_values(variant, &text, &path.display().to_string())
    }

    /// Weights for every term but material, which is zero.
    fn neutral(variant: &Variant) -> EvalParams {
        let layout = Layout {
            types: variant.pieces.len(),
            ranks: usize::from(variant.ranks),
        };
        let mut weights = vec![Pair::default(); layout.len()];
        for (piece_type, piece) in variant.pieces.iter().enumerate() {
            if piece.royal {
                weights[layout.square(piece_type)] = Pair(-4, 6);
            } else if !piece.pawn {
                weights[layout.square(piece_type)] = Pair(3, 2);
                weights[layout.mobility(piece_type)] = Pair(3, 3);
            }
        }
        for rank in 0..layout.ranks {
            // Pawns gain by advancing, passed pawns much more so, mostly in the endgame.
            let progress = rank as i32;
            weights[layout.pawn_rank(rank)] = Pair(2 * progress, 4 * progress);
            weights[layout.passed(rank)] =
                Pair(3 * progress * progress / 2, 6 * progress * progress);
        }
        weights[layout.doubled()] = Pair(-10, -20);
        weights[layout.isolated()] = Pair(-10, -10);
        weights[layout.king_shield()] = Pair(8, 0);
        weights[layout.king_attack()] = Pair(-6, -2);
        weights[layout.tempo()] = Pair(10, 5);
        EvalParams {
            variant: variant.name.clone(),
            letters: variant.pieces.iter().map(|p| p.letter).collect(),
            layout,
            weights,
        }
    }

    /// The same material weights with every other weight zero: the
    /// material-only evaluation, a baseline for strength tests.
    pub fn material_only(&self) -> EvalParams {
        let mut params = self.clone();
        for (index, weight) in params.weights.iter_mut().enumerate() {
            if index >= params.layout.types {
                *weight = Pair::default();
            }
        }
        params
    }

    /// The material weights (middlegame) of each piece type.
    pub fn piece_value(&self, piece_type: usize) -> Pair {
        self.weights[self.layout.material(piece_type)]
    }

    /// Sets a piece type's material weights.
    pub fn set_piece_value(&mut self, piece_type: usize, value: Pair) {
        let index = self.layout.material(piece_type);
        self.weights[index] = value;
    }

    /// The parameters as TOML, weights named by piece letter.
    pub fn to_toml(&self) -> String {
        let by_letter = |index: &dyn Fn(usize) -> usize| -> BTreeMap<String, Pair> {
            self.letters
                .iter()
                .enumerate()
                .map(|(t, letter)| (letter.to_string(), self.weights[index(t)]))
                .collect()
        };
        let layout = &self.layout;
        let file = ParamsFile {
            variant: self.variant.clone(),
            material: by_letter(&|t| layout.material(t)),
            square: by_letter(&|t| layout.square(t)),
            mobility: by_letter(&|t| layout.mobility(t)),
            pawn_rank: (0..layout.ranks)
                .map(|r| self.weights[layout.pawn_rank(r)])
                .collect(),
            passed_pawn: (0..layout.ranks)
                .map(|r| self.weights[layout.passed(r)])
                .collect(),
            doubled_pawn: self.weights[layout.doubled()],
            isolated_pawn: self.weights[layout.isolated()],
            king_shield: self.weights[layout.king_shield()],
            king_attack: self.weights[layout.king_attack()],
            tempo: self.weights[layout.tempo()],
        };
        // Serialising plain maps, lists and integers cannot fail.
        toml::to_string(&file).unwrap_or_else(|e| unreachable!("parameters serialise: {e}"))
    }

    /// Reads parameters written by [`EvalParams::to_toml`]; every weight
    /// must be given.
    pub fn from_toml(
        variant: &Variant,
        text: &str,
        source: &str,
    ) -> Result<EvalParams, ParamsError> {
        let error = |message: String| ParamsError {
            source: source.to_string(),
            message,
        };
        let file: ParamsFile =
            parse_for_variant(variant, text, source, |f: &ParamsFile| &f.variant)?;
        let mut params = EvalParams::neutral(variant);
        let layout = params.layout.clone();
        for (section, map, index) in [
            (
                "material",
                &file.material,
                &(|t| layout.material(t)) as &dyn Fn(usize) -> usize,
            ),
            ("square", &file.square, &|t| layout.square(t)),
            ("mobility", &file.mobility, &|t| layout.mobility(t)),
        ] {
            for (letter, &pair) in map {
                let piece_type = type_of(variant, letter).ok_or_else(|| {
                    error(format!(
                        "{section}.{letter}: not a piece of {}",
                        variant.name
                    ))
                })?;
                params.weights[index(piece_type)] = pair;
            }
            if map.len() != variant.pieces.len() {
                return Err(error(format!(
                    "{section}: give a weight for each of the {} piece types",
                    variant.pieces.len()
                )));
            }
        }
        for (name, list, index) in [
            (
                "pawn_rank",
                &file.pawn_rank,
                &(|r| layout.pawn_rank(r)) as &dyn Fn(usize) -> usize,
            ),
            ("passed_pawn", &file.passed_pawn, &|r| layout.passed(r)),
        ] {
            if list.len() != layout.ranks {
                return Err(error(format!(
                    "{name}: give one weight per rank ({}), not {}",
                    layout.ranks,
                    list.len()
                )));
            }
            for (rank, &pair) in list.iter().enumerate() {
                params.weights[index(rank)] = pair;
            }
        }
        params.weights[layout.doubled()] = file.doubled_pawn;
        params.weights[layout.isolated()] = file.isolated_pawn;
        params.weights[layout.king_shield()] = file.king_shield;
        params.weights[layout.king_attack()] = file.king_attack;
        params.weights[layout.tempo()] = file.tempo;
        Ok(params)
    }
}

/// Parses a TOML file that names the variant it is for, and checks
/// that it is `variant`.
fn parse_for_variant<T: serde::de::DeserializeOwned>(
    variant: &Variant,
    text: &str,
    source: &str,
    named: impl Fn(&T) -> &String,
) -> Result<T, ParamsError> {
    let error = |message: String| ParamsError {
        source: source.to_string(),
        message,
    };
    let file: T =
        toml::from_str(text).map_err(|e| error(e.to_string().trim_end().replace('\n', " ")))?;
    if *named(&file) != variant.name {
        return Err(error(format!(
            "the file is for '{}', not '{}'",
            named(&file),
            variant.name
        )));
    }
    Ok(file)
}

fn type_of(variant: &Variant, letter: &str) -> Option<usize> {
    let mut chars = letter.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => variant.type_of_letter(c),
        _ => None,
    }
}

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
/// must be for the mobility terms to be skipped. Measured over every
/// exact evaluation of the `kurier bench` searches of the five variants
/// (2.6 million): the mobility terms moved the score by at most 195
/// centipawns (ExCoCo; 99.9th percentile 85 to 136 by variant).
pub const LAZY_MARGIN: i32 = 200;

/// The largest game phase: all pieces of the start position on the board.
pub const MAX_PHASE: i32 = 256;

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
}

impl<B: Bitboard> Evaluator<B> {
    /// Builds the tables for `params` on `game`.
    pub fn new(game: &Arc<Game<B>>, params: EvalParams) -> Evaluator<B> {
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

    /// Tapers the summed terms by the game phase, adds the rules
    /// knowledge, and turns the result to the side to move's view.
    fn finish(&self, position: &Position<B>, sum: &Sum<'_>, phase: i32) -> i32 {
        let score = (sum.middlegame * phase + sum.endgame * (MAX_PHASE - phase)) / MAX_PHASE
            + self.rules_knowledge(position);
        match position.side_to_move() {
            Color::White => score,
            Color::Black => -score,
        }
    }

    /// Feeds every weighted term of `position` to `accumulator`.
    pub fn terms<A: Accumulator>(&self, position: &Position<B>, accumulator: &mut A) {
        self.piece_terms(position, accumulator);
        self.king_and_tempo_terms(position, accumulator);
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
                let square_sum: i32 = pieces
                    .squares()
                    .map(|square| {
                        self.square_term
                            [piece_type * self.squares + geometry.relative_index(square, color)]
                    })
                    .sum();
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

    /// The terms that generate moves: mobility and attacks on the squares
    /// around the enemy king.
    fn mobility_terms<A: Accumulator>(&self, position: &Position<B>, accumulator: &mut A) {
        let game = &**position.game();
        let tables = game.tables();
        let layout = &self.params.layout;
        let occupied = position.occupied();
        for color in Color::BOTH {
            let sign = color_sign(color);
            let own = position.color_pieces(color);
            let enemy_king = position.king_square(color.flip());
            let enemy_zone = game.pieces[game.king].capture_leaps[color.flip().index()]
                [enemy_king.index()]
                | B::square(enemy_king);
            let mut zone_attacks = 0;
            for (piece_type, moves) in game.pieces.iter().enumerate() {
                if game.is_pawn(piece_type) || piece_type == game.king {
                    continue;
                }
                let pieces = position.pieces(color, piece_type);
                if pieces.is_empty() {
                    continue;
                }
                let initial = position.first_move_squares(moves, piece_type, color);
                let mut mobility = 0;
                if moves.symmetric {
                    // Quiet targets equal capture targets: count them once.
                    for square in pieces.squares() {
                        let targets =
                            moves.capture_targets(&tables, color, square, occupied, initial);
                        mobility += (targets & !own).count() as i32;
                        zone_attacks += (targets & enemy_zone).count() as i32;
                    }
                } else {
                    for square in pieces.squares() {
                        let (quiet, capture) =
                            moves.targets(&tables, color, square, occupied, initial);
                        mobility += ((quiet & !occupied) | (capture & !own)).count() as i32;
                        zone_attacks += (capture & enemy_zone).count() as i32;
                    }
                }
                if mobility != 0 {
                    accumulator.add(layout.mobility(piece_type), sign * mobility);
                }
            }
            accumulator.add(layout.king_attack(), -sign * zone_attacks);
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

    /// Knowledge the rules demand, White's point of view, not tuned.
    fn rules_knowledge(&self, position: &Position<B>) -> i32 {
        let game = &**position.game();
        let geometry = &game.geometry;
        let king = game.king;
        let men = |color: Color| position.color_pieces(color) & !position.type_pieces(king);
        let material = |color: Color| -> i32 {
            (0..game.pieces.len())
                .filter(|&t| t != king)
                .map(|t| position.pieces(color, t).count() as i32 * self.params.piece_value(t).1)
                .sum()
        };
        let mut score = 0;
        // Both knowledge terms concern sides with at most two men.
        if men(Color::White).count() > 2 && men(Color::Black).count() > 2 {
            return 0;
        }
        for color in Color::BOTH {
            let sign = match color {
                Color::White => 1,
                Color::Black => -1,
            };
            // The last man keeps a bare-king variant's game alive.
            if game.variant.bare_king && men(color).count() == 1 {
                score -= sign * 150;
            }
            // Far ahead: drive the enemy king to the edge, bring ours closer.
            let advantage = material(color) - material(color.flip());
            if advantage >= 300 && men(color.flip()).count() <= 2 {
                let enemy = position.king_square(color.flip());
                let ours = position.king_square(color);
                let edge_distance = |square: Square| -> i32 {
                    let file = i32::from(geometry.file_of(square));
                    let rank = i32::from(geometry.rank_of(square));
                    file.min(i32::from(geometry.files()) - 1 - file)
                        + rank.min(i32::from(geometry.ranks()) - 1 - rank)
                };
                let distance = (i32::from(geometry.file_of(enemy))
                    - i32::from(geometry.file_of(ours)))
                .abs()
                .max(
                    (i32::from(geometry.rank_of(enemy)) - i32::from(geometry.rank_of(ours))).abs(),
                );
                score += sign * (40 - 10 * edge_distance(enemy) - 5 * distance + 50);
            }
        }
        score
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
        let counts_for_phase = piece_type != game.king && !game.is_pawn(piece_type);
        PieceSquareValue {
            middlegame: sign * (material_mg + square_mg * count),
            endgame: sign * (material_eg + square_eg * count),
            phase: if counts_for_phase {
                material_mg.max(0)
            } else {
                0
            },
        }
    })
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
