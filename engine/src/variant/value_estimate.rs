//! Piece values estimated from the pieces' moves, for a variant that has
//! no values file: where the engine starts until games measure better
//! (`kurier-tune values`).
//!
//! A piece is worth its average mobility: the squares it reaches from
//! each square of the board, averaged over all of them (R. Betza's
//! "empty-board average mobility"; H. G. Muller's Interactive Diagram and
//! ChessV estimate their values from mobility too), each reached square
//! weighted by what a move there is worth:
//!
//! - **moving and capturing**: a square the piece may capture on counts
//!   2/3, one it may move to without capturing 1/3, so that an ordinary
//!   move counts 1 (Muller's measurements: a capture-only move adds twice
//!   what a move-only one does; the pawn's diagonal captures and
//!   straight steps are such moves);
//! - **forward**: a square ahead of the piece (on a higher rank, seen
//!   from its side) counts twice (Muller: forward moves are worth about
//!   twice sideways or backward ones);
//! - **blocking**: a slide or the gryphon's bent slide reaches a square
//!   only over empty ones, each empty with the chance `clear`: the
//!   board's mean emptiness over a game, taken half-way between the start
//!   position and the empty board (`1 - men / squares / 2`; 3/4 in
//!   chess). This is Betza's "crowded-board mobility"; limited ranges
//!   (`R3`) simply stop the slide;
//! - **first moves** (`i` parts, such as the pawn's double step) count
//!   nothing: a piece makes them once at most.
//!
//! The king is royal and not valued (0). The pawn is valued by its moves
//! like any piece, averaged over the whole board like any piece, its
//! promotion ranks too, where it never stands and has no move (so that two
//! types that move alike always get the same value; in chess this takes
//! 1/8 off the pawn); its promotion is not counted, as it is the unit:
//! every value is its mobility over the pawn's, in centipawns (the first
//! pawn type's, if several). A variant without pawns is valued in the same
//! unit, the orthodox pawn (`fmWfcF`) on its board.
//!
//! In chess the estimate gives N 3.00, B 3.60, R 4.19, Q 7.79 pawns: a
//! start, not a measurement. It does not know what no move count shows
//! (colour binding, mating power, the rook's endgame), nor how a small
//! leaper's slowness costs on a large board.

use crate::variant::betza::{self, Motion, MovePart};
use crate::variant::definition::Variant;
use crate::variant::placement::{parse_placement, FenError};

/// The share of a move's worth that is its capture (the rest, 1/3, is
/// its non-capturing move).
const CAPTURE_SHARE: f64 = 2.0 / 3.0;

/// The share of a move's worth that is its non-capturing move.
const QUIET_SHARE: f64 = 1.0 - CAPTURE_SHARE;

/// The orthodox pawn, the unit of a variant without pawns.
const ORTHODOX_PAWN: &str = "fmWfcF";

/// How the squares a piece reaches are weighed in its average mobility.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MobilityWeights {
    /// The weight of a square ahead of the piece (others weigh 1).
    pub forward: f64,
    /// The chance that a square a slide passes over is empty.
    pub clear: f64,
}

impl MobilityWeights {
    /// Every square counts once, on an empty board: the plain average
    /// mobility (the knight's is 5.25 on 8x8).
    pub const EMPTY_BOARD: MobilityWeights = MobilityWeights {
        forward: 1.0,
        clear: 1.0,
    };

    /// The estimate's weights for `variant`: forward squares twice, slides
    /// through a board half as full as at the start.
    pub fn for_variant(variant: &Variant) -> Result<MobilityWeights, FenError> {
        let placement = variant.start.split_whitespace().next().unwrap_or("");
        let board = parse_placement(variant, placement)?;
        let men = board.iter().filter(|square| square.is_some()).count();
        Ok(MobilityWeights {
            forward: 2.0,
            clear: 1.0 - men as f64 / board.len() as f64 / 2.0,
        })
    }
}

/// How well a piece reaches one square: the chance of a clear path for a
/// non-capturing move and for a capture (0 when it cannot).
#[derive(Clone, Copy, Default)]
struct Reach {
    quiet: f64,
    capture: f64,
}

/// The average mobility of a piece with `parts` on a `files` x `ranks`
/// board: the weighted squares it reaches (see the module's text) from
/// each square of the board, summed and divided by the number of squares.
/// A square reached by several parts or paths counts once, by its best.
pub fn average_mobility(parts: &[MovePart], files: u8, ranks: u8, weights: MobilityWeights) -> f64 {
    let (files, ranks) = (i32::from(files), i32::from(ranks));
    let on_board = |(x, y): (i32, i32)| (0..files).contains(&x) && (0..ranks).contains(&y);
    let mut total = 0.0;
    let mut reach = vec![Reach::default(); (files * ranks) as usize];
    for from_y in 0..ranks {
        for from_x in 0..files {
            reach.fill(Reach::default());
            let mut reached = |(x, y): (i32, i32), part: &MovePart, chance: f64| {
                let best = &mut reach[(y * files + x) as usize];
                if part.quiet {
                    best.quiet = best.quiet.max(chance);
                }
                if part.capture {
                    best.capture = best.capture.max(chance);
                }
            };
            for part in parts.iter().filter(|part| !part.initial) {
                for &(dx, dy) in &part.steps {
                    let path = |start: (i32, i32), (sx, sy): (i32, i32), range: u8| {
                        (1..)
                            .map(move |k| (start.0 + k * sx, start.1 + k * sy))
                            .take_while(|&square| on_board(square))
                            .take(if range == 0 { usize::MAX } else { range.into() })
                    };
                    let corner = (from_x + dx, from_y + dy);
                    match part.motion {
                        Motion::Leap if on_board(corner) => reached(corner, part, 1.0),
                        Motion::Leap => {}
                        Motion::Slide { range } => {
                            let mut chance = 1.0;
                            for square in path((from_x, from_y), (dx, dy), range) {
                                reached(square, part, chance);
                                chance *= weights.clear;
                            }
                        }
                        Motion::BentSlide if on_board(corner) => {
                            for outward in [(dx, 0), (0, dy)] {
                                let mut chance = weights.clear;
                                for square in path(corner, outward, 0) {
                                    reached(square, part, chance);
                                    chance *= weights.clear;
                                }
                            }
                        }
                        Motion::BentSlide => {}
                    }
                }
            }
            for y in 0..ranks {
                let direction = if y > from_y { weights.forward } else { 1.0 };
                for x in 0..files {
                    let best = reach[(y * files + x) as usize];
                    total += direction * (QUIET_SHARE * best.quiet + CAPTURE_SHARE * best.capture);
                }
            }
        }
    }
    total / f64::from(files * ranks)
}

/// The estimated value of every piece type of `variant`, in centipawns
/// (pawn = 100; the king 0): see the module's text. An error only if the
/// variant's start position cannot be read.
pub fn estimated_values(variant: &Variant) -> Result<Vec<i32>, FenError> {
    let weights = MobilityWeights::for_variant(variant)?;
    let mobility =
        |parts: &[MovePart]| average_mobility(parts, variant.files, variant.ranks, weights);
    let orthodox_pawn = || {
        // A fixed, valid move description.
        mobility(&betza::parse(ORTHODOX_PAWN).expect("the orthodox pawn parses"))
    };
    let unit = match variant.pieces.iter().find(|piece| piece.pawn) {
        Some(pawn) => mobility(&pawn.parts),
        None => orthodox_pawn(),
    };
    // A pawn with no move that counts (only first moves, say) cannot be
    // the unit: the orthodox pawn is. On a board of one rank, where it has
    // none either, nothing is valued.
    let unit = if unit > 0.0 { unit } else { orthodox_pawn() };
    Ok(variant
        .pieces
        .iter()
        .map(|piece| {
            if piece.royal || unit <= 0.0 {
                0
            } else {
                (100.0 * mobility(&piece.parts) / unit).round() as i32
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(betza: &str) -> Vec<MovePart> {
        betza::parse(betza).unwrap()
    }

    fn plain(betza: &str, files: u8, ranks: u8) -> f64 {
        average_mobility(&parts(betza), files, ranks, MobilityWeights::EMPTY_BOARD)
    }

    fn close(actual: f64, expected: f64) {
        assert!(
            (actual - expected).abs() < 1e-9,
            "{actual} is not {expected}"
        );
    }

    /// Betza's count for a leap of (x, y) in all its directions on a
    /// w x h board: each direction lands from (w - |dx|)(h - |dy|) squares.
    fn betza_leaper(x: i32, y: i32, w: i32, h: i32) -> f64 {
        let mut directions = vec![(x, y), (y, x), (-x, y), (-y, x)];
        directions.extend(directions.clone().into_iter().map(|(a, b)| (-a, -b)));
        directions.sort_unstable();
        directions.dedup();
        let landings: i32 = directions
            .iter()
            .map(|&(dx, dy)| (w - dx.abs()).max(0) * (h - dy.abs()).max(0))
            .sum();
        f64::from(landings) / f64::from(w * h)
    }

    /// A rider on an empty board reaches what its leaps of 1, 2, 3, ...
    /// steps do (Betza's sum).
    fn betza_rider(x: i32, y: i32, w: i32, h: i32) -> f64 {
        (1..w.max(h))
            .map(|k| betza_leaper(k * x, k * y, w, h))
            .sum()
    }

    #[test]
    fn empty_board_mobility_is_betzas_average() {
        // Published: knight 5.25, rook 14, bishop 8.75, queen 22.75 on 8x8.
        close(plain("N", 8, 8), 336.0 / 64.0);
        close(plain("R", 8, 8), 14.0);
        close(plain("B", 8, 8), 560.0 / 64.0);
        close(plain("Q", 8, 8), 22.75);
        close(plain("W", 8, 8), 3.5);
        for (w, h) in [(8, 8), (12, 8), (18, 10), (3, 5)] {
            let (files, ranks) = (w as u8, h as u8);
            close(plain("N", files, ranks), betza_leaper(2, 1, w, h));
            close(
                plain("WD", files, ranks),
                betza_leaper(1, 0, w, h) + betza_leaper(2, 0, w, h),
            );
            close(plain("R", files, ranks), betza_rider(1, 0, w, h));
            close(plain("B", files, ranks), betza_rider(1, 1, w, h));
            close(
                plain("KN", files, ranks),
                plain("K", files, ranks) + plain("N", files, ranks),
            );
        }
        // Limited slides on 4x4: eastward along a row, R3 reaches 3, 2, 1
        // and 0 squares from its four squares, R2 2, 2, 1 and 0; the same
        // in each of the 4 directions of the 4 lines.
        close(plain("R3", 4, 4), 16.0 * 6.0 / 16.0);
        close(plain("R2", 4, 4), 16.0 * 5.0 / 16.0);
        // First moves count nothing.
        close(plain("ifmR2fmW", 8, 8), plain("fmW", 8, 8));
    }

    #[test]
    fn forward_moves_captures_and_blocking_are_weighed_by_hand() {
        let weighed = |betza: &str, forward: f64, clear: f64| {
            average_mobility(&parts(betza), 3, 3, MobilityWeights { forward, clear })
        };
        // The wazir on 3x3 reaches 2 from corners, 3 from edges, 4 from the
        // centre (24); the 6 squares below the top rank have a square ahead.
        close(weighed("W", 2.0, 0.5), (24.0 + 6.0) / 9.0);
        // The pawn: 6 forward steps (1/3 each, doubled), and 4 diagonal
        // captures from each of the two lower ranks (2/3 each, doubled).
        close(
            weighed("fmWfcF", 2.0, 0.5),
            (6.0 * 2.0 / 3.0 + 8.0 * 4.0 / 3.0) / 9.0,
        );
        // The rook, each square beyond the first at the chance `clear`:
        // along each line of 3, one direction reaches 1 + clear and 1 from
        // its first two squares, so 2 + clear; 3 rows eastward and westward
        // and 3 files southward weigh 1, the 3 files northward 2.
        close(weighed("R", 2.0, 0.5), (9.0 + 6.0) * 2.5 / 9.0);
        // The gryphon: from a corner the ferz step and the two squares
        // beyond it (behind the clear step); from an edge two ferz steps
        // and two squares beyond; from the centre the four ferz steps.
        close(
            weighed("FyafsF", 1.0, 0.5),
            (4.0 * 2.0 + 4.0 * 3.0 + 4.0) / 9.0,
        );
        close(weighed("FyafsF", 1.0, 1.0), 32.0 / 9.0);
        // A square reached by two parts counts once.
        close(weighed("WR", 2.0, 0.5), weighed("R", 2.0, 0.5));
        // Move-only and capture-only parts together make a whole move.
        close(weighed("mWcW", 2.0, 0.5), weighed("W", 2.0, 0.5));
    }

    #[test]
    fn chess_is_estimated_from_its_moves() {
        let chess = Variant::built_in("chess").unwrap();
        assert_eq!(
            MobilityWeights::for_variant(&chess).unwrap(),
            MobilityWeights {
                forward: 2.0,
                clear: 0.75
            }
        );
        let values = estimated_values(&chess).unwrap();
        let value = |letter| values[chess.type_of_letter(letter).unwrap()];
        // By hand: the pawn (on all 64 squares, its double step not
        // counted) has 56 forward steps at 2/3 and 7 ranks of 14 captures
        // at 4/3: 168 / 64. The knight has 168 targets ahead (doubled) and
        // 168 behind: 504 / 64, three pawns.
        assert_eq!(value('P'), 100);
        assert_eq!(value('N'), 300);
        assert_eq!(value('K'), 0);
        assert!(value('B') > value('N') && value('R') > value('B') && value('Q') > value('R'));
    }

    #[test]
    fn a_variant_without_pawns_is_valued_in_orthodox_pawns() {
        let knights = Variant::from_toml(
            "name = \"knights\"\nfiles = 8\nranks = 8\nstart = \"n3k3/8/8/8/8/8/8/N3K3 w - - 0 1\"\n\
             stalemate = \"draw\"\nbare_king = false\n\n[[pieces]]\nletter = \"K\"\nname = \"king\"\n\
             betza = \"K\"\nroyal = true\n\n[[pieces]]\nletter = \"N\"\nname = \"knight\"\nbetza = \"N\"\n",
            "test",
        )
        .unwrap();
        // The knight's 504 / 64 (see the chess test) over the orthodox
        // pawn's 168 / 64.
        assert_eq!(estimated_values(&knights).unwrap(), vec![0, 300]);
    }

    #[test]
    fn types_that_move_alike_start_alike() {
        let piece = |letter: char, betza: &str| {
            format!(
                "\n[[pieces]]\nletter = \"{letter}\"\nname = \"{letter}\"\nbetza = \"{betza}\"\n"
            )
        };
        let mut text = String::from(
            "name = \"twins\"\nfiles = 10\nranks = 8\n\
             start = \"rwmgkfeabs/pppppppppp/10/10/10/10/PPPPPPPPPP/RWMGKFEABS w - - 0 1\"\n\
             stalemate = \"draw\"\nbare_king = false\n\n[promotion]\npieces = [\"M\"]\n\n\
             [[pieces]]\nletter = \"K\"\nname = \"king\"\nbetza = \"K\"\nroyal = true\n\
             \n[[pieces]]\nletter = \"P\"\nname = \"pawn\"\nbetza = \"fmWfcF\"\npawn = true\n",
        );
        for (letter, betza) in [
            ('R', "R"),
            ('W', "WW"),
            ('M', "K"),
            ('G', "FW"),
            ('F', "FA"),
            ('E', "AF"),
            ('A', "FyafsF"),
            ('B', "fmWfcF"),
            ('S', "KR"),
        ] {
            text.push_str(&piece(letter, betza));
        }
        let variant = Variant::from_toml(&text, "test").unwrap();
        let params = crate::eval::params::EvalParams::for_variant(&variant).unwrap();
        let value = |letter| params.piece_value(variant.type_of_letter(letter).unwrap());
        for (a, b) in [('R', 'W'), ('M', 'G'), ('F', 'E'), ('P', 'B')] {
            assert_eq!(value(a), value(b), "{a} and {b}");
        }
        // A man's steps add to a rook only the diagonal ones.
        assert!(value('S').0 > value('R').0);
        let values = estimated_values(&variant).unwrap();
        for (piece_type, &centipawns) in values.iter().enumerate() {
            assert_eq!(
                params.piece_value(piece_type),
                crate::eval::params::Pair(centipawns, centipawns)
            );
        }
    }
}
