//! A variant compiled for one bitboard width: every table the move
//! generator needs, built once when the variant is loaded.

use std::sync::Arc;

use crate::board::attacks::{AttackTables, PieceMoves};
use crate::board::bitboard::Bitboard;
use crate::board::geometry::Geometry;
use crate::board::sliders::SliderTables;
use crate::board::zobrist::Zobrist;
use crate::types::{Color, Square};
use crate::variant::betza::Motion;
use crate::variant::definition::{Variant, VariantError};
use crate::variant::placement::parse_placement;
use crate::variant::spec::RightsNotation;

/// A castling move with the masks that test its conditions.
#[derive(Clone, Debug)]
pub struct CastlingRule<B> {
    /// Whose castling.
    pub color: Color,
    /// The king's square before.
    pub king_from: Square,
    /// The king's square after.
    pub king_to: Square,
    /// The partner's square before.
    pub partner_from: Square,
    /// The partner's square after.
    pub partner_to: Square,
    /// The partner's piece type.
    pub partner_type: usize,
    /// Squares that must be empty, apart from the two castling pieces.
    pub must_be_empty: B,
    /// Squares the king passes over or lands on: none may be attacked.
    pub king_path: B,
    /// Whether the king keeps its first-move right (re-castling).
    pub keeps_right: bool,
}

/// How far a pawn steps straight forward without capturing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PawnSteps {
    /// The longest step, in squares (1: no multi-step).
    pub longest: u8,
    /// Whether every multi-step is a first-move (`i`) move.
    pub initial_only: bool,
}

/// A square on which a first-move right may stand, and whose it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RightHolder {
    /// The square.
    pub square: Square,
    /// The colour of the piece that holds the right there.
    pub color: Color,
    /// Its piece type.
    pub piece_type: usize,
}

/// A variant with its tables for bitboard type `B`.
#[derive(Clone, Debug)]
pub struct Game<B> {
    /// The variant's description.
    pub variant: Variant,
    /// Board shape.
    pub geometry: Geometry<B>,
    /// Rays and line attacks.
    pub sliders: SliderTables<B>,
    /// Compiled moves per piece type.
    pub pieces: Vec<PieceMoves<B>>,
    /// Zobrist keys.
    pub zobrist: Zobrist,
    /// Castling moves of both colours, in the variant file's order.
    pub castlings: Vec<CastlingRule<B>>,
    /// Where first-move rights may stand.
    pub right_holders: Vec<RightHolder>,
    /// The squares of `right_holders`.
    pub right_squares: B,
    /// `promotion_zone[color]`: where that colour's pawns promote.
    pub promotion_zone: [B; 2],
    /// The types a pawn promotes to.
    pub promotion_types: Vec<u8>,
    /// The royal type.
    pub king: usize,
    /// Pawn types (bit per type).
    pub pawn_types: u32,
    /// Per type: `[color]` squares where its `i` moves apply, when they
    /// depend on the rank rather than the first-move right.
    pub initial_ranks: Vec<Option<[B; 2]>>,
    /// `[color][square]`: the squares from which some leap of some piece
    /// type (first-move leaps included) captures on `square`.
    pub leaps_from_any: [Vec<B>; 2],
    /// `[color][square]`: the squares on some sliding path, on the empty
    /// board, from a piece of `color` to `square`: only a man leaving one
    /// of them can uncover an attack on `square` (a discovered check).
    pub uncovering: [Vec<B>; 2],
    /// Per piece type, how far it steps straight forward (for pawns: the
    /// multi-steps that leave en-passant squares).
    pub pawn_steps: Vec<PawnSteps>,
}

impl<B: Bitboard> Game<B> {
    /// Builds every table of a variant and reads its start placement (the
    /// whole start FEN is checked by
    /// [`AnyGame::new`](crate::position::any_game::AnyGame::new)). Errors
    /// name the variant-file key whose value does not fit the rest (e.g. a
    /// castling partner that is not in the start position).
    pub(crate) fn new(variant: Variant) -> Result<Arc<Game<B>>, VariantError> {
        let error = |key: &str, message: String| VariantError {
            source: variant.name.clone(),
            key: key.to_string(),
            message,
        };
        if usize::from(variant.files) * usize::from(variant.ranks) > B::BITS as usize {
            return Err(error(
                "files",
                "the board is too large for this bitboard width".into(),
            ));
        }
        let geometry = Geometry::<B>::new(variant.files, variant.ranks);
        let sliders = SliderTables::new(&geometry);
        let pieces: Vec<PieceMoves<B>> = variant
            .pieces
            .iter()
            .map(|p| PieceMoves::new(&geometry, &p.parts))
            .collect();
        let zobrist = Zobrist::new(geometry.squares());
        let king = variant.king_type();
        let start_board = parse_placement(
            &variant,
            variant.start.split_whitespace().next().unwrap_or(""),
        )
        .map_err(|e| error("start", e.to_string()))?;
        let piece_at = |square: u8| start_board[usize::from(square)];

        let mut right_holders: Vec<RightHolder> = Vec::new();
        let mut add_holder = |holder: RightHolder, key: &str| -> Result<(), VariantError> {
            match right_holders.iter().find(|h| h.square == holder.square) {
                Some(existing) if *existing != holder => Err(error(
                    key,
                    format!(
                        "{} would hold first-move rights of two different pieces",
                        geometry.square_name(holder.square)
                    ),
                )),
                Some(_) => Ok(()),
                None => {
                    right_holders.push(holder);
                    Ok(())
                }
            }
        };
        let mut castlings = Vec::new();
        for (index, castling) in variant.castlings.iter().enumerate() {
            let key = |field: &str| format!("castling[{index}].{field}");
            let king_start = piece_at(castling.king_from) == Some((castling.color, king));
            let after_castling = variant.castlings.iter().any(|c| {
                c.color == castling.color && c.keeps_right && c.king_to == castling.king_from
            });
            if !king_start && !after_castling {
                return Err(error(
                    &key("king"),
                    format!(
                        "the {} king neither starts on {} nor gets there by a castling that keeps its right",
                        castling.color,
                        geometry.square_name(Square::new(castling.king_from))
                    ),
                ));
            }
            let partner_type = match piece_at(castling.partner_from) {
                Some((color, piece_type)) if color == castling.color && piece_type != king => {
                    piece_type
                }
                _ => {
                    return Err(error(
                        &key("partner"),
                        format!(
                            "the start position has no {} piece other than the king on {}",
                            castling.color,
                            geometry.square_name(Square::new(castling.partner_from))
                        ),
                    ))
                }
            };
            let [king_from, king_to, partner_from, partner_to] = [
                castling.king_from,
                castling.king_to,
                castling.partner_from,
                castling.partner_to,
            ]
            .map(Square::new);
            add_holder(
                RightHolder {
                    square: king_from,
                    color: castling.color,
                    piece_type: king,
                },
                &key("king"),
            )?;
            add_holder(
                RightHolder {
                    square: partner_from,
                    color: castling.color,
                    piece_type: partner_type,
                },
                &key("partner"),
            )?;
            if castling.keeps_right {
                add_holder(
                    RightHolder {
                        square: king_to,
                        color: castling.color,
                        piece_type: king,
                    },
                    &key("keeps_right"),
                )?;
            }
            let movers = B::square(king_from) | B::square(partner_from);
            let must_be_empty = (sliders.between(king_from, partner_from)
                | sliders.between(king_from, king_to)
                | sliders.between(partner_from, partner_to)
                | B::square(king_to)
                | B::square(partner_to))
                & !movers;
            castlings.push(CastlingRule {
                color: castling.color,
                king_from,
                king_to,
                partner_from,
                partner_to,
                partner_type,
                must_be_empty,
                king_path: sliders.between(king_from, king_to) | B::square(king_to),
                keeps_right: castling.keeps_right,
            });
        }
        // Pieces whose `i` moves need the first-move right hold it on their start squares.
        for (piece_type, piece) in variant.pieces.iter().enumerate() {
            if piece.initial_rank.is_none() && piece.parts.iter().any(|part| part.initial) {
                for (index, occupant) in start_board.iter().enumerate().take(geometry.squares()) {
                    if let Some((color, t)) = *occupant {
                        if t == piece_type {
                            let square = Square::new(index as u8);
                            add_holder(
                                RightHolder {
                                    square,
                                    color,
                                    piece_type,
                                },
                                &format!("pieces[{piece_type}].betza"),
                            )?;
                        }
                    }
                }
            }
        }
        for holder in &right_holders {
            let back_rank = match holder.color {
                Color::White => 0,
                Color::Black => variant.ranks - 1,
            };
            if geometry.rank_of(holder.square) != back_rank {
                return Err(error(
                    "start",
                    format!(
                        "the {} on {} has a first-move right off its back rank, which FEN cannot write",
                        variant.pieces[holder.piece_type].name,
                        geometry.square_name(holder.square)
                    ),
                ));
            }
        }
        let right_squares = right_holders
            .iter()
            .fold(B::EMPTY, |acc, h| acc | B::square(h.square));
        let mut promotion_zone = [B::EMPTY; 2];
        for rank in 0..variant.promotion_ranks {
            promotion_zone[Color::White.index()] |= geometry.rank_mask(variant.ranks - 1 - rank);
            promotion_zone[Color::Black.index()] |= geometry.rank_mask(rank);
        }
        let initial_ranks = variant
            .pieces
            .iter()
            .map(|piece| {
                piece.initial_rank.map(|rank| {
                    [
                        geometry.rank_mask(rank - 1),
                        geometry.rank_mask(variant.ranks - rank),
                    ]
                })
            })
            .collect();
        let pawn_steps = variant
            .pieces
            .iter()
            .map(|piece| {
                let forward = piece.parts.iter().filter(|part| {
                    part.quiet && part.steps.iter().all(|&(dx, dy)| dx == 0 && dy > 0)
                });
                let mut steps = PawnSteps {
                    longest: 1,
                    initial_only: true,
                };
                for part in forward {
                    let reach = match part.motion {
                        Motion::Slide { range: 0 } => variant.ranks,
                        Motion::Slide { range } => range,
                        _ => 1,
                    };
                    if reach > 1 {
                        steps.longest = steps.longest.max(reach);
                        steps.initial_only &= part.initial;
                    }
                }
                steps
            })
            .collect();
        let pawn_types = variant
            .pieces
            .iter()
            .enumerate()
            .filter(|(_, piece)| piece.pawn)
            .fold(0u32, |acc, (index, _)| acc | 1 << index);
        let promotion_types = variant.promotion_types.iter().map(|&t| t as u8).collect();
        let leaps_from_any = Color::BOTH.map(|color| {
            (0..geometry.squares())
                .map(|square| {
                    pieces.iter().fold(B::EMPTY, |acc, moves| {
                        acc | moves.capture_leaps_from[color.index()][square]
                            | moves.initial_capture_leaps_from[color.index()][square]
                    })
                })
                .collect()
        });
        let tables = AttackTables {
            geometry: &geometry,
            sliders: &sliders,
        };
        let uncovering = Color::BOTH.map(|color| {
            (0..geometry.squares())
                .map(|target| {
                    let target = Square::new(target as u8);
                    let snipers = pieces.iter().fold(B::EMPTY, |acc, moves| {
                        acc | moves.snipe_from[color.index()][target.index()]
                    });
                    snipers
                        .squares()
                        .fold(B::EMPTY, |acc, sniper| acc | tables.path(sniper, target))
                })
                .collect()
        });
        let game = Game {
            leaps_from_any,
            uncovering,
            geometry,
            sliders,
            pieces,
            zobrist,
            castlings,
            right_holders,
            right_squares,
            promotion_zone,
            promotion_types,
            king,
            pawn_types,
            initial_ranks,
            pawn_steps,
            variant,
        };
        Ok(Arc::new(game))
    }

    /// The tables attack computations borrow.
    #[inline(always)]
    pub fn tables(&self) -> AttackTables<'_, B> {
        AttackTables {
            geometry: &self.geometry,
            sliders: &self.sliders,
        }
    }

    /// Whether `piece_type` is a pawn.
    #[inline(always)]
    pub fn is_pawn(&self, piece_type: usize) -> bool {
        self.pawn_types & (1 << piece_type) != 0
    }

    /// With `KQkq` rights, a right means something only as part of a
    /// castling whose king and partner both still hold theirs; this keeps
    /// exactly those, so that equal FENs have equal keys.
    pub fn canonical_rights(&self, unmoved: B) -> B {
        if self.variant.rights_notation != RightsNotation::Kq {
            return unmoved;
        }
        let mut kept = B::EMPTY;
        for rule in &self.castlings {
            let pair = B::square(rule.king_from) | B::square(rule.partner_from);
            if (unmoved & pair) == pair {
                kept |= pair;
            }
        }
        kept
    }
}

#[cfg(test)]
mod tests {
    use crate::board::bitboard::Bitboard;
    use crate::position::any_game::AnyGame;
    use crate::types::Color;

    /// In chess, a man leaving a square can uncover an attack on e8 only
    /// from the squares strictly between e8 and the board's edge on its
    /// eight lines, counted by hand: e7 to e2 (6), d8 to b8 (3), f8 and
    /// g8 (2), d7, c6, b5 (3), f7 and g6 (2); none for White's pawns and
    /// knights, which do not slide.
    #[test]
    fn squares_that_can_uncover_an_attack_counted_by_hand() {
        let AnyGame::Narrow(game) = AnyGame::built_in("chess").unwrap() else {
            unreachable!("chess is 8x8")
        };
        let square = |name| game.geometry.parse_square(name).unwrap();
        let uncovering = game.uncovering[Color::White.index()][square("e8").index()];
        let expected = [
            "e7", "e6", "e5", "e4", "e3", "e2", "d8", "c8", "b8", "f8", "g8", "d7", "c6", "b5",
            "f7", "g6",
        ]
        .into_iter()
        .fold(0u128, |acc, name| acc | u128::square(square(name)));
        assert_eq!(uncovering, expected);
        // A corner: a1's lines run to h1, a8 and h8.
        let corner = game.uncovering[Color::Black.index()][square("a1").index()];
        assert_eq!(corner.count(), 6 + 6 + 6);
    }
}
