//! A Betza-like notation for piece moves, as used in variant files.
//!
//! A move description is a run of parts, each `modifiers atom [range]`:
//!
//! - Leaper atoms (one jump, over anything): `W` (1,0), `F` (1,1),
//!   `D` (2,0), `N` (2,1), `A` (2,2), `H` (3,0), `C` (3,1), `Z` (3,2),
//!   `G` (3,3); `K` is `WF`.
//! - Slider atoms (ride until blocked): `R` (= `WW`), `B` (= `FF`),
//!   `Q` (= `RB`). A number after a slider limits its range (`R3`, `B3`,
//!   `Q3`), and after `W` or `F` makes a limited slider (`W3` = `R3`).
//! - `FyafsF`: the gryphon's bent slide: one diagonal step, then, if that
//!   square is empty, a slide straight outward along either orthogonal
//!   direction leading away from the start (the step alone is included).
//! - Modifiers before an atom: `m` move only, `c` capture only (both when
//!   neither), `i` only as the piece's first move (see the variant file's
//!   `initial_rank`), and directions seen from the mover: `f` forward,
//!   `b` backward, `l` left, `r` right, `s` sideways (`l` and `r`),
//!   `v` vertical (`f` and `b`). A vertical and a horizontal letter
//!   together (`fl`, `br`) mean that one diagonal direction; several
//!   direction terms add up (`fs` = forward and sideways).
//!
//! Examples: chess pawn `fmWfcFifmR2`; Courier Moderno elephant
//! `FfWifAifD`; ExCoCo courier `FAWD`; horseguard `KN`.

use std::fmt;

/// How a move part travels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Motion {
    /// A single jump by each step.
    Leap,
    /// Repeated steps until blocked; `range` limits the steps (0 = no limit).
    Slide {
        /// The most steps, or 0 for unlimited.
        range: u8,
    },
    /// One diagonal step, then a slide outward along the two orthogonal
    /// directions that lead away from the start.
    BentSlide,
}

/// One part of a piece's moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MovePart {
    /// How the part travels.
    pub motion: Motion,
    /// The steps, as (files, ranks) from White's point of view; a Black
    /// piece uses them turned half a turn.
    pub steps: Vec<(i32, i32)>,
    /// Whether the part may move to an empty square.
    pub quiet: bool,
    /// Whether the part may capture.
    pub capture: bool,
    /// Whether the part is only for the piece's first move.
    pub initial: bool,
}

/// What is wrong with a move description, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BetzaError {
    /// Byte offset of the problem in the description.
    pub at: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for BetzaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at character {}: {}", self.at + 1, self.message)
    }
}

impl std::error::Error for BetzaError {}

/// The (x, y) of a leaper atom, with x >= y.
fn leaper_atom(letter: u8) -> Option<(i32, i32)> {
    Some(match letter {
        b'W' => (1, 0),
        b'F' => (1, 1),
        b'D' => (2, 0),
        b'N' => (2, 1),
        b'A' => (2, 2),
        b'H' => (3, 0),
        b'C' => (3, 1),
        b'Z' => (3, 2),
        b'G' => (3, 3),
        _ => return None,
    })
}

/// All distinct images of (x, y) under the board's eight symmetries.
fn symmetric_steps((x, y): (i32, i32)) -> Vec<(i32, i32)> {
    let mut steps = Vec::new();
    for (a, b) in [(x, y), (y, x)] {
        for (sa, sb) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
            let step = (a * sa, b * sb);
            if !steps.contains(&step) {
                steps.push(step);
            }
        }
    }
    steps
}

/// A direction term: every step it admits.
#[derive(Clone, Copy, Debug)]
enum Term {
    Single(u8),
    Pair(u8, u8),
}

fn single_admits(letter: u8, (dx, dy): (i32, i32)) -> bool {
    match letter {
        b'f' => dy > 0,
        b'b' => dy < 0,
        b'l' => dx < 0,
        b'r' => dx > 0,
        b's' => dx != 0,
        b'v' => dy != 0,
        _ => false,
    }
}

impl Term {
    fn admits(self, step: (i32, i32)) -> bool {
        match self {
            Term::Single(letter) => single_admits(letter, step),
            Term::Pair(a, b) => single_admits(a, step) && single_admits(b, step),
        }
    }
}

/// Splits direction letters into terms: `fl` is one diagonal, `fs` two terms.
fn direction_terms(letters: &[u8]) -> Vec<Term> {
    let mut terms = Vec::new();
    let mut index = 0;
    while index < letters.len() {
        let letter = letters[index];
        let next = letters.get(index + 1).copied();
        let vertical = |c: u8| c == b'f' || c == b'b';
        let horizontal = |c: u8| c == b'l' || c == b'r';
        match next {
            Some(n)
                if (vertical(letter) && horizontal(n)) || (horizontal(letter) && vertical(n)) =>
            {
                terms.push(Term::Pair(letter, n));
                index += 2;
            }
            _ => {
                terms.push(Term::Single(letter));
                index += 1;
            }
        }
    }
    terms
}

/// Parses a move description into its parts.
///
/// ```
/// use kurier_engine::variant::betza::{parse, Motion};
/// let parts = parse("fmWfcF").unwrap();
/// assert_eq!(parts.len(), 2);
/// assert_eq!(parts[0].steps, vec![(0, 1)]);
/// assert!(parts[0].quiet && !parts[0].capture);
/// assert_eq!(parts[1].motion, Motion::Leap);
/// assert!(parse("fmX").is_err());
/// ```
pub fn parse(notation: &str) -> Result<Vec<MovePart>, BetzaError> {
    let bytes = notation.as_bytes();
    let mut parts = Vec::new();
    let mut at = 0;
    if bytes.is_empty() {
        return Err(BetzaError {
            at: 0,
            message: "the move description is empty".into(),
        });
    }
    while at < bytes.len() {
        let part_start = at;
        let (mut quiet_only, mut capture_only, mut initial) = (false, false, false);
        let mut directions = Vec::new();
        while at < bytes.len() && bytes[at].is_ascii_lowercase() {
            let letter = bytes[at];
            match letter {
                b'm' => quiet_only = true,
                b'c' => capture_only = true,
                b'i' => initial = true,
                b'f' | b'b' | b'l' | b'r' | b's' | b'v' => {
                    if directions.contains(&letter) {
                        return Err(BetzaError {
                            at,
                            message: format!("direction '{}' is given twice (narrow and wide directions such as 'ffN' are not supported)", letter as char),
                        });
                    }
                    directions.push(letter)
                }
                b'n' | b'j' | b'p' | b'g' | b'a' | b'y' | b'o' | b'h' | b'd' | b'u' | b'e'
                | b't' | b'x' | b'z' | b'q' | b'k' | b'w' => {
                    return Err(BetzaError {
                        at,
                        message: format!(
                            "modifier '{}' is not supported (supported: m c i f b l r s v)",
                            letter as char
                        ),
                    })
                }
                _ => {
                    return Err(BetzaError {
                        at,
                        message: format!("'{}' is not a modifier", letter as char),
                    })
                }
            }
            at += 1;
        }
        if quiet_only && capture_only {
            return Err(BetzaError {
                at: part_start,
                message: "'m' (move only) and 'c' (capture only) exclude each other".into(),
            });
        }
        let Some(&atom) = bytes.get(at) else {
            return Err(BetzaError {
                at,
                message: "modifiers must be followed by a piece letter".into(),
            });
        };
        let atom_at = at;
        at += 1;
        let mut new_parts: Vec<(Motion, Vec<(i32, i32)>)> = Vec::new();
        if notation[atom_at..].starts_with("FyafsF") {
            if at - 1 != part_start {
                return Err(BetzaError {
                    at: part_start,
                    message: "the bent slide FyafsF takes no modifiers".into(),
                });
            }
            at = atom_at + "FyafsF".len();
            new_parts.push((Motion::Leap, symmetric_steps((1, 1))));
            new_parts.push((Motion::BentSlide, symmetric_steps((1, 1))));
        } else {
            // A doubled W or F is a rider, like R or B.
            let doubled = matches!(atom, b'W' | b'F') && bytes.get(at) == Some(&atom);
            if doubled {
                at += 1;
            }
            let digits_start = at;
            while at < bytes.len() && bytes[at].is_ascii_digit() {
                at += 1;
            }
            let range = if at > digits_start {
                match notation[digits_start..at].parse::<u8>() {
                    Ok(range) if range > 0 => Some(range),
                    _ => {
                        return Err(BetzaError {
                            at: digits_start,
                            message: "a range must be a number from 1 to 255".into(),
                        })
                    }
                }
            } else {
                None
            };
            let slide = |range: Option<u8>| Motion::Slide {
                range: range.unwrap_or(0),
            };
            match atom {
                b'R' => new_parts.push((slide(range), symmetric_steps((1, 0)))),
                b'B' => new_parts.push((slide(range), symmetric_steps((1, 1)))),
                b'Q' => {
                    new_parts.push((slide(range), symmetric_steps((1, 0))));
                    new_parts.push((slide(range), symmetric_steps((1, 1))));
                }
                b'W' | b'F' if doubled || range.is_some() => {
                    let step = if atom == b'W' { (1, 0) } else { (1, 1) };
                    new_parts.push((slide(range), symmetric_steps(step)));
                }
                b'K' if range.is_none() => {
                    new_parts.push((Motion::Leap, symmetric_steps((1, 0))));
                    new_parts.push((Motion::Leap, symmetric_steps((1, 1))));
                }
                b'K' => {
                    return Err(BetzaError {
                        at: digits_start,
                        message: "'K' is a leaper and takes no range (use Q1 or R1B1)".into(),
                    })
                }
                _ => match leaper_atom(atom) {
                    Some(vector) if range.is_none() => {
                        if bytes.get(at) == Some(&atom) {
                            return Err(BetzaError {
                                at,
                                message: format!("the rider '{0}{0}' is not supported (only W and F ride: R, B, Q)", atom as char),
                            });
                        }
                        new_parts.push((Motion::Leap, symmetric_steps(vector)))
                    }
                    Some(_) => {
                        return Err(BetzaError {
                            at: digits_start,
                            message: format!("'{}' is a leaper and takes no range", atom as char),
                        })
                    }
                    None => {
                        return Err(BetzaError {
                            at: atom_at,
                            message: format!(
                                "'{}' is not a piece letter (W F D N A H C Z G K R B Q, or FyafsF)",
                                atom as char
                            ),
                        })
                    }
                },
            }
        }
        let terms = direction_terms(&directions);
        for (motion, steps) in new_parts {
            let steps: Vec<(i32, i32)> = if terms.is_empty() {
                steps
            } else {
                steps
                    .into_iter()
                    .filter(|&step| terms.iter().any(|term| term.admits(step)))
                    .collect()
            };
            if steps.is_empty() {
                return Err(BetzaError {
                    at: part_start,
                    message: "the direction modifiers leave this part no move".into(),
                });
            }
            parts.push(MovePart {
                motion,
                steps,
                quiet: !capture_only,
                capture: !quiet_only,
                initial,
            });
        }
    }
    Ok(parts)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(mut steps: Vec<(i32, i32)>) -> Vec<(i32, i32)> {
        steps.sort();
        steps
    }

    #[test]
    fn leapers_have_their_symmetric_images() {
        assert_eq!(parse("W").unwrap()[0].steps.len(), 4);
        assert_eq!(parse("F").unwrap()[0].steps.len(), 4);
        assert_eq!(parse("N").unwrap()[0].steps.len(), 8);
        assert_eq!(parse("A").unwrap()[0].steps.len(), 4);
        assert_eq!(parse("K").unwrap().len(), 2);
        assert_eq!(parse("KN").unwrap().len(), 3);
    }

    #[test]
    fn sliders_and_ranges() {
        let rook = parse("R").unwrap();
        assert_eq!(rook[0].motion, Motion::Slide { range: 0 });
        assert_eq!(parse("WW").unwrap(), rook);
        let thane = parse("R3").unwrap();
        assert_eq!(thane[0].motion, Motion::Slide { range: 3 });
        assert_eq!(parse("W3").unwrap(), thane);
        let duke = parse("Q3").unwrap();
        assert_eq!(duke.len(), 2);
        assert!(duke
            .iter()
            .all(|part| part.motion == Motion::Slide { range: 3 }));
    }

    #[test]
    fn directions_and_modes() {
        let pawn = parse("fmWfcFifmR2").unwrap();
        assert_eq!(pawn[0].steps, vec![(0, 1)]);
        assert!(pawn[0].quiet && !pawn[0].capture && !pawn[0].initial);
        assert_eq!(sorted(pawn[1].steps.clone()), vec![(-1, 1), (1, 1)]);
        assert!(!pawn[1].quiet && pawn[1].capture);
        assert_eq!(pawn[2].motion, Motion::Slide { range: 2 });
        assert_eq!(pawn[2].steps, vec![(0, 1)]);
        assert!(pawn[2].initial && pawn[2].quiet && !pawn[2].capture);

        let elephant = parse("FfWifAifD").unwrap();
        assert_eq!(elephant.len(), 4);
        assert_eq!(sorted(elephant[2].steps.clone()), vec![(-2, 2), (2, 2)]);
        assert_eq!(elephant[3].steps, vec![(0, 2)]);
        assert!(elephant[2].initial && elephant[3].initial);

        assert_eq!(
            sorted(parse("sW").unwrap()[0].steps.clone()),
            vec![(-1, 0), (1, 0)]
        );
        assert_eq!(
            sorted(parse("vW").unwrap()[0].steps.clone()),
            vec![(0, -1), (0, 1)]
        );
        assert_eq!(parse("flF").unwrap()[0].steps, vec![(-1, 1)]);
        assert_eq!(
            sorted(parse("fsW").unwrap()[0].steps.clone()),
            vec![(-1, 0), (0, 1), (1, 0)]
        );
        assert_eq!(parse("fN").unwrap()[0].steps.len(), 4);
    }

    #[test]
    fn the_gryphon() {
        let gryphon = parse("FyafsF").unwrap();
        assert_eq!(gryphon.len(), 2);
        assert_eq!(gryphon[0].motion, Motion::Leap);
        assert_eq!(gryphon[1].motion, Motion::BentSlide);
        assert_eq!(gryphon[1].steps.len(), 4);
    }

    #[test]
    fn errors_say_where() {
        for (bad, at) in [
            ("", 0),
            ("X", 0),
            ("fmX", 2),
            ("mcW", 0),
            ("NN", 1),
            ("N3", 1),
            ("R0", 1),
            ("fm", 2),
            ("nD", 0),
            ("ffN", 1),
            ("flW", 0),
            ("K2", 1),
            ("mFyafsF", 0),
        ] {
            let error = parse(bad).expect_err(bad);
            assert_eq!(error.at, at, "{bad:?}: {error}");
        }
    }
}
