//! Material-odds matches (H.G. Muller's method): what a piece is worth,
//! measured by playing without it.
//!
//! For a piece type X, side A starts without one X and side B without `k`
//! pawns, `k` the suggested value of X rounded (at most half of the
//! pawns). The engine plays both sides with the same settings. Each game
//! pair plays the odds position with A as White and its mirror image
//! (colours exchanged) with A as Black, each after the same few random
//! plies, so the first move's advantage cancels; the pair is the sample
//! of the pentanomial model (`stats`), which gives A's Elo with its 95%
//! interval.
//!
//! Calibration: matches in which A starts 1, 2 and 3 pawns down (nothing
//! removed from B) give the Elo cost of a pawn, `s`, the slope of a line
//! through the origin fitted by least squares to the three results. The
//! conversion assumes that Elo is linear in the material difference near
//! balance, so that A's Elo `e` in the X-against-`k`-pawns match means `X
//! = k - e / s` pawns; the closer `k` is to X, the less this assumption
//! matters. The 95% interval of X takes the extremes over the intervals
//! of `e` and of `s` (each end of `s` from the same ends of the three
//! calibration intervals): a conservative box, wider than the combined
//! statistical interval.
//!
//! Which men go (deterministic, and mirrored for the other colour by the
//! symmetry of the start position, vertical or central): of a type's
//! men, those on the files nearest the board's edge first (ties: the
//! higher file), then the lower rank. Pawns thus leave from the edge
//! files, which changes the least about the centre and the king's
//! shelter. The king never goes; the odds position must leave neither
//! king in check, or it is refused.

use std::sync::Arc;

use kurier_engine::bitboard::Bitboard;
use kurier_engine::eval::EvalParams;
use kurier_engine::game::Game;
use kurier_engine::geometry::{Color, Square};
use kurier_engine::position::Position;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::bootstrap::Interval;
use super::generate::{play_tuner_game, tuner_player, tuner_rules};
use crate::openings::{random_opening, Rng};
use crate::play::points_for;
use crate::stats::Pentanomial;

/// Random plies played from an odds position before the game proper:
/// enough to vary the games, few enough to keep the position the odds
/// describe.
pub const ODDS_OPENING_PLIES: usize = 2;

/// The pawn-odds levels of the calibration matches.
pub const CALIBRATION_PAWNS: [usize; 3] = [1, 2, 3];

/// An odds position: the men side A and side B start without.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Odds {
    /// Piece types side A lacks (a type listed twice: two of them).
    pub a_lacks: Vec<usize>,
    /// Piece types side B lacks.
    pub b_lacks: Vec<usize>,
}

/// How the start position maps White's men onto Black's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Symmetry {
    /// Black's men on the same files (chess, ExCoCo).
    Vertical,
    /// Black's men mirrored through the centre (Courier Moderno).
    Central,
}

fn mirror<B: Bitboard>(game: &Game<B>, square: Square, symmetry: Symmetry) -> Square {
    let geometry = &game.geometry;
    let file = i32::from(geometry.file_of(square));
    let rank = i32::from(geometry.rank_of(square));
    let files = i32::from(geometry.files());
    let ranks = i32::from(geometry.ranks());
    let mirrored_file = match symmetry {
        Symmetry::Vertical => file,
        Symmetry::Central => files - 1 - file,
    };
    // The mirror of a board square is a board square.
    geometry
        .square_at(mirrored_file, ranks - 1 - rank)
        .unwrap_or_else(|| unreachable!("the mirror of a square is on the board"))
}

fn symmetry_of<B: Bitboard>(start: &Position<B>) -> Result<Symmetry, String> {
    let game = start.game();
    [Symmetry::Vertical, Symmetry::Central]
        .into_iter()
        .find(|&symmetry| {
            (0..game.pieces.len()).all(|t| {
                start.pieces(Color::White, t).squares().all(|square| {
                    start
                        .piece_at(mirror(game, square, symmetry))
                        .is_some_and(|p| p.color() == Color::Black && p.piece_type() == t)
                }) && start.pieces(Color::White, t).count() == start.pieces(Color::Black, t).count()
            })
        })
        .ok_or_else(|| {
            format!(
                "{}: the start position is not symmetric; odds positions need mirror images",
                game.variant.name
            )
        })
}

/// White's men of type `piece_type` in removal order: nearest an edge
/// file first (ties: the higher file), then the lower rank.
fn removal_order<B: Bitboard>(start: &Position<B>, piece_type: usize) -> Vec<Square> {
    let geometry = &start.game().geometry;
    let files = geometry.files();
    let mut squares: Vec<Square> = start.pieces(Color::White, piece_type).squares().collect();
    squares.sort_by_key(|&square| {
        let file = geometry.file_of(square);
        (
            file.min(files - 1 - file),
            std::cmp::Reverse(file),
            geometry.rank_of(square),
        )
    });
    squares
}

/// The start position of `game` without the men `odds` names, side A
/// being `a_color`; White to move.
pub fn odds_position<B: Bitboard>(
    game: &Arc<Game<B>>,
    odds: &Odds,
    a_color: Color,
) -> Result<Position<B>, String> {
    let start = Position::startpos(game.clone());
    let symmetry = symmetry_of(&start)?;
    if odds.a_lacks.contains(&game.king) || odds.b_lacks.contains(&game.king) {
        return Err("the king cannot be removed".to_string());
    }
    let mut removed: Vec<Square> = Vec::new();
    for (lacks, color) in [(&odds.a_lacks, a_color), (&odds.b_lacks, a_color.flip())] {
        let mut types = lacks.clone();
        types.sort_unstable();
        for (t, group) in types.chunk_by(|a, b| a == b).map(|g| (g[0], g.len())) {
            let order = removal_order(&start, t);
            if group > order.len() {
                return Err(format!(
                    "{} has {} {}(s) to remove, not {group}",
                    game.variant.name,
                    order.len(),
                    game.variant.pieces[t].name
                ));
            }
            removed.extend(order[..group].iter().map(|&square| match color {
                Color::White => square,
                Color::Black => mirror(game, square, symmetry),
            }));
        }
    }
    let fen = fen_without(&start, &removed);
    let position =
        Position::from_fen(game.clone(), &fen).map_err(|e| format!("odds position {fen}: {e}"))?;
    let occupied = position.occupied();
    let checked = Color::BOTH.into_iter().any(|color| {
        !position
            .attackers(position.king_square(color), color.flip(), occupied)
            .is_empty()
    });
    if checked || position.legal_moves().is_empty() {
        return Err(format!(
            "odds position {fen}: a king is in check or White cannot move"
        ));
    }
    Ok(position)
}

/// The FEN of `start` with the men on `removed` gone (rights in file form).
fn fen_without<B: Bitboard>(start: &Position<B>, removed: &[Square]) -> String {
    let game = start.game();
    let geometry = &game.geometry;
    let file_letter = |file: u8| char::from(b'a' + file);
    let mut placement = Vec::new();
    for rank in (0..geometry.ranks()).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for file in 0..geometry.files() {
            let square = geometry
                .square_at(i32::from(file), i32::from(rank))
                .unwrap_or_else(|| unreachable!("file and rank are on the board"));
            match start
                .piece_at(square)
                .filter(|_| !removed.contains(&square))
            {
                Some(piece) => {
                    if empty > 0 {
                        row.push_str(&empty.to_string());
                        empty = 0;
                    }
                    let letter = game.variant.pieces[piece.piece_type()].letter;
                    row.push(match piece.color() {
                        Color::White => letter.to_ascii_uppercase(),
                        Color::Black => letter.to_ascii_lowercase(),
                    });
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        placement.push(row);
    }
    let rights_squares = game.canonical_rights(start.unmoved());
    let mut rights = String::new();
    for color in Color::BOTH {
        let mut files: Vec<u8> = (rights_squares & start.color_pieces(color))
            .squares()
            .filter(|square| !removed.contains(square))
            .map(|square| geometry.file_of(square))
            .collect();
        files.sort_unstable();
        for file in files {
            let letter = file_letter(file);
            rights.push(match color {
                Color::White => letter.to_ascii_uppercase(),
                Color::Black => letter,
            });
        }
    }
    if rights.is_empty() {
        rights.push('-');
    }
    format!("{} w {rights} - 0 1", placement.join("/"))
}

/// How an odds match is played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OddsPlan {
    /// Game pairs.
    pub pairs: u32,
    /// Nodes per move.
    pub nodes: u32,
    /// Random plies before the game proper, from the odds position.
    pub opening_plies: usize,
    /// Ply limit (a draw).
    pub max_plies: usize,
    /// Seed of the random plies.
    pub seed: u64,
}

/// Plays an odds match with `params` on both sides; returns the pair
/// scores of side A.
pub fn play_odds_match<B: Bitboard>(
    game: &Arc<Game<B>>,
    params: &EvalParams,
    odds: &Odds,
    plan: &OddsPlan,
) -> Result<Pentanomial, String> {
    let as_white = odds_position(game, odds, Color::White)?;
    let as_black = odds_position(game, odds, Color::Black)?;
    let player = tuner_player(game, "odds", params, plan.nodes);
    let rules = tuner_rules(plan.max_plies);
    let points: Vec<f64> = (0..plan.pairs)
        .into_par_iter()
        .map(|pair| {
            let seed = plan.seed.wrapping_mul(0x2545_F491_4F6C_DD1D) ^ u64::from(pair);
            let first = random_opening(&as_white, plan.opening_plies, &mut Rng::new(seed));
            let second = random_opening(&as_black, plan.opening_plies, &mut Rng::new(seed));
            let one = play_tuner_game(&first, &player, &player, &rules);
            let two = play_tuner_game(&second, &player, &player, &rules);
            points_for(one.result, Color::White) + points_for(two.result, Color::Black)
        })
        .collect();
    let mut counts = Pentanomial::default();
    for pair in points {
        counts.add(pair);
    }
    Ok(counts)
}

/// The odds of the match that measures `piece_type` (suggested value
/// `suggested` pawns): one X against `k` pawns.
pub fn piece_odds(piece_type: usize, pawn: usize, suggested: f64, pawns_available: usize) -> Odds {
    let k = (suggested.round().max(0.0) as usize).min(pawns_available / 2);
    Odds {
        a_lacks: vec![piece_type],
        b_lacks: vec![pawn; k],
    }
}

/// The odds of a calibration match: A `pawns` pawns down.
pub fn calibration_odds(pawn: usize, pawns: usize) -> Odds {
    Odds {
        a_lacks: vec![pawn; pawns],
        b_lacks: Vec::new(),
    }
}

/// Elo with its interval from pair counts: (elo, low, high); `None`
/// without pairs or when a score of 0% or 100% (or an interval reaching
/// one) makes them infinite.
fn elo_of(counts: &Pentanomial) -> Option<(f64, f64, f64)> {
    counts
        .elo()
        .map(|e| (e.elo, e.low, e.high))
        .filter(|(elo, low, high)| elo.is_finite() && low.is_finite() && high.is_finite())
}

/// The Elo a pawn is worth, with its conservative interval, from the
/// calibration matches `(pawns down, counts)`; `None` if a match has no
/// finite Elo interval (more pairs needed).
pub fn elo_per_pawn(calibration: &[(usize, Pentanomial)]) -> Option<(f64, Interval)> {
    let mut sum_je = [0.0; 3];
    let mut sum_jj = 0.0;
    for (pawns, counts) in calibration {
        let (elo, low, high) = elo_of(counts)?;
        let j = *pawns as f64;
        // A is down: its Elo is negative; the cost of a pawn is -e / j.
        sum_je[0] += j * elo;
        sum_je[1] += j * high;
        sum_je[2] += j * low;
        sum_jj += j * j;
    }
    if sum_jj == 0.0 {
        return None;
    }
    let slope = -sum_je[0] / sum_jj;
    Some((
        slope,
        Interval {
            low: -sum_je[1] / sum_jj,
            high: -sum_je[2] / sum_jj,
        },
    ))
}

/// A piece value measured by an odds match.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct MeasuredValue {
    /// Pawns given as compensation (`k`).
    pub compensation: usize,
    /// A's Elo in the match.
    pub elo: f64,
    /// The value in pawns.
    pub value: f64,
    /// Its conservative 95% interval (`None` when the calibration's
    /// interval reaches zero Elo per pawn).
    pub interval: Option<Interval>,
}

/// Converts the X-against-`k`-pawns match into pawns (see the module
/// documentation); `None` if the match has no finite Elo interval.
pub fn measured_value(
    compensation: usize,
    counts: &Pentanomial,
    per_pawn: (f64, Interval),
) -> Option<MeasuredValue> {
    let (elo, low, high) = elo_of(counts)?;
    let (slope, slopes) = per_pawn;
    if slope <= 0.0 {
        return None;
    }
    let k = compensation as f64;
    let interval = (slopes.low > 0.0).then(|| {
        let corners = [low, high]
            .into_iter()
            .flat_map(|e| [slopes.low, slopes.high].map(|s| k - e / s));
        let (lowest, highest) = corners.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
            (a.min(v), b.max(v))
        });
        Interval {
            low: lowest,
            high: highest,
        }
    });
    Some(MeasuredValue {
        compensation,
        elo,
        value: k - elo / slope,
        interval,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use kurier_engine::game::AnyGame;

    #[test]
    fn calibration_slope_is_least_squares_through_the_origin() {
        // Every level gives pairs of 0.5 points of 2 (per-game score
        // 0.25), so e_j = elo(0.25) for j = 1, 2, 3.
        let quarter = Pentanomial([0, 4, 0, 0, 0]);
        let e = crate::stats::elo_from_score(0.25);
        let (slope, interval) = elo_per_pawn(&[(1, quarter), (2, quarter), (3, quarter)]).unwrap();
        // sum j e_j / sum j^2 = e (1 + 2 + 3) / 14.
        assert!((slope + e * 6.0 / 14.0).abs() < 1e-9);
        // Zero variance: the interval collapses onto the estimate.
        assert!((interval.low - slope).abs() < 1e-6 && (interval.high - slope).abs() < 1e-6);
    }

    #[test]
    fn a_balanced_match_measures_the_compensation() {
        // A scores exactly 50% against 4 pawns: X = 4 whatever the slope.
        let even = Pentanomial([0, 0, 6, 0, 0]);
        let value = measured_value(
            4,
            &even,
            (
                100.0,
                Interval {
                    low: 80.0,
                    high: 120.0,
                },
            ),
        )
        .unwrap();
        assert!((value.value - 4.0).abs() < 1e-9);
        // A at -100 Elo with 100 Elo per pawn: X = 4 + 1 = 5.
        let behind = Pentanomial([0, 6, 0, 0, 0]);
        let elo = crate::stats::elo_from_score(0.25);
        let value = measured_value(
            4,
            &behind,
            (
                -elo,
                Interval {
                    low: -elo,
                    high: -elo,
                },
            ),
        )
        .unwrap();
        assert!((value.value - 5.0).abs() < 1e-9);
    }

    #[test]
    fn odds_positions_remove_the_documented_men() {
        let game = AnyGame::built_in("chess").unwrap();
        let AnyGame::Narrow(game) = game else {
            panic!("chess is narrow")
        };
        // Rook against two pawns: White loses the h1 rook (ties on the
        // edge go to the higher file), Black the h7 and a7 pawns.
        let rook = game.variant.type_of_letter('R').unwrap();
        let pawn = game.variant.type_of_letter('P').unwrap();
        let odds = Odds {
            a_lacks: vec![rook],
            b_lacks: vec![pawn, pawn],
        };
        let white = odds_position(&game, &odds, Color::White).unwrap();
        assert_eq!(
            white.fen(),
            "rnbqkbnr/1pppppp1/8/8/8/8/PPPPPPPP/RNBQKBN1 w Qkq - 0 1"
        );
        let black = odds_position(&game, &odds, Color::Black).unwrap();
        assert_eq!(
            black.fen(),
            "rnbqkbn1/pppppppp/8/8/8/8/1PPPPPP1/RNBQKBNR w KQq - 0 1"
        );
        let king = game.king;
        let bad = Odds {
            a_lacks: vec![king],
            b_lacks: Vec::new(),
        };
        assert!(odds_position(&game, &bad, Color::White).is_err());
        let too_many = calibration_odds(pawn, 9);
        assert!(odds_position(&game, &too_many, Color::White).is_err());
    }
}
