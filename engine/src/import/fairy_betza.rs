//! Fairy-Stockfish's dialect of Betza's notation (`customPiece1 = a:...`
//! in its `variants.ini`), read as Fairy-Stockfish reads it
//! (`src/piece.cpp`, `from_betza`), into a [`MoveSet`].
//!
//! Where the dialect differs from Kurier's notation: a lone direction
//! letter is doubled (`fN` is `ffN`, the shogi knight's two narrow
//! forward moves; `fsN` the two wide ones), a digit or a doubled atom
//! makes a rider (`W3`, `NN`), `n` makes a lame leaper, `p` and `g`
//! hoppers, first-move (`i`) captures are dropped, and letters it does
//! not know are skipped (`e`, en passant, is a flag of its own).

use super::moves::{Modality, MoveSet, UNLIMITED};

/// Reads a Fairy-Stockfish move description.
pub fn parse(betza: &str) -> Result<MoveSet, String> {
    let mut set = MoveSet::default();
    let chars: Vec<char> = betza.chars().collect();
    let mut quiet = false;
    let mut capture = false;
    let mut lame = false;
    let mut initial = false;
    let mut directions: Vec<(char, char)> = Vec::new();
    let vertical = |c: char| "fbvh".contains(c);
    let horizontal = |c: char| "rlsh".contains(c);
    let mut index = 0;
    while index < chars.len() {
        let c = chars[index];
        match c {
            'm' => quiet = true,
            'c' => capture = true,
            'p' | 'g' => {
                return Err(format!(
                    "'{c}' at character {}: hoppers need a screen, which Kurier has not",
                    index + 1
                ))
            }
            'n' => lame = true,
            'i' => initial = true,
            _ if vertical(c) || horizontal(c) => {
                let next = chars.get(index + 1).copied();
                match next {
                    Some(d)
                        if d == c
                            || (vertical(c) && horizontal(d))
                            || (horizontal(c) && vertical(d)) =>
                    {
                        directions.push((c, d));
                        index += 1;
                    }
                    _ => directions.push((c, c)),
                }
            }
            _ => {
                if let Some(atoms) = atom_steps(c) {
                    let mut rider = "RBQ".contains(c);
                    let mut distance = 0u8;
                    if let Some(&next) = chars.get(index + 1) {
                        if next.is_ascii_digit() || next == c {
                            rider = true;
                            if let Some(digit) = next.to_digit(10) {
                                distance = digit as u8;
                            }
                            index += 1;
                        }
                    }
                    let (quiet_part, capture_part) = if quiet || capture {
                        (quiet, capture)
                    } else {
                        (true, true)
                    };
                    for &atom in atoms {
                        let split: Vec<(char, char)> = if atoms.len() == 1 && atom.1 == 0 {
                            directions
                                .iter()
                                .flat_map(|&(a, b)| {
                                    if a == b {
                                        vec![(a, b)]
                                    } else {
                                        vec![(a, a), (b, b)]
                                    }
                                })
                                .collect()
                        } else {
                            directions.clone()
                        };
                        for (dr, df) in images(atom, &split) {
                            let step = (df, dr);
                            // First-move captures are not supported by
                            // Fairy-Stockfish: it drops them.
                            let modality = Modality {
                                quiet: quiet_part,
                                capture: capture_part && !initial,
                                initial,
                            };
                            if !modality.quiet && !modality.capture {
                                continue;
                            }
                            if rider {
                                let unit = (step.0.signum(), step.1.signum());
                                if unit != step {
                                    return Err(format!(
                                        "'{c}{}' at character {}: a rider of leaps longer than one square (as the nightrider NN): Kurier's riders step one square",
                                        chars[index],
                                        index + 1
                                    ));
                                }
                                let range = if distance == 0 { UNLIMITED } else { distance };
                                set.add_ride(step, range, modality);
                            } else if lame {
                                let unit = (step.0.signum(), step.1.signum());
                                if step != (unit.0 * 2, unit.1 * 2) {
                                    return Err(format!(
                                        "'n{c}' at character {}: a lame leaper blocked beside its path (as the xiangqi horse): Kurier has none",
                                        index + 1
                                    ));
                                }
                                set.add_ride_step(unit, 2, modality);
                            } else {
                                set.add_leap(step, modality);
                            }
                        }
                    }
                    quiet = false;
                    capture = false;
                    lame = false;
                    initial = false;
                    directions.clear();
                }
                // Any other character is skipped, as Fairy-Stockfish skips it.
            }
        }
        index += 1;
    }
    Ok(set)
}

/// The atoms of a letter as (ranks, files) pairs, Fairy-Stockfish's
/// tables.
fn atom_steps(letter: char) -> Option<&'static [(i32, i32)]> {
    Some(match letter {
        'W' | 'R' => &[(1, 0)],
        'F' | 'B' => &[(1, 1)],
        'D' => &[(2, 0)],
        'N' => &[(2, 1)],
        'A' => &[(2, 2)],
        'H' => &[(3, 0)],
        'L' | 'C' => &[(3, 1)],
        'J' | 'Z' => &[(3, 2)],
        'G' => &[(3, 3)],
        'K' | 'Q' => &[(1, 0), (1, 1)],
        _ => return None,
    })
}

/// The images of atom `(a, b)` that the direction pairs keep, as
/// (ranks forward, files right), exactly as `from_betza` picks them.
fn images((a, b): (i32, i32), directions: &[(char, char)]) -> Vec<(i32, i32)> {
    let has = |names: &[&str]| {
        directions.is_empty()
            || names.iter().any(|name| {
                let mut letters = name.chars();
                let pair = (letters.next(), letters.next());
                directions.iter().any(|&(x, y)| (Some(x), Some(y)) == pair)
            })
    };
    let mut out = Vec::new();
    let table: [((i32, i32), &[&str]); 8] = [
        ((a, b), &["ff", "vv", "rf", "rv", "fh", "rh", "hr"]),
        ((-a, -b), &["bb", "vv", "lb", "lv", "bh", "lh", "hr"]),
        ((-b, a), &["rr", "ss", "br", "bs", "bh", "rh", "hr"]),
        ((b, -a), &["ll", "ss", "fl", "fs", "fh", "lh", "hr"]),
        ((b, a), &["rr", "ss", "fr", "fs", "fh", "rh", "hl"]),
        ((-b, -a), &["ll", "ss", "bl", "bs", "bh", "lh", "hl"]),
        ((-a, b), &["bb", "vv", "rb", "rv", "bh", "rh", "hl"]),
        ((a, -b), &["ff", "vv", "lf", "lv", "fh", "lh", "hl"]),
    ];
    for (image, names) in table {
        if has(names) && !out.contains(&image) {
            out.push(image);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::betza;

    fn kurier(text: &str) -> MoveSet {
        MoveSet::from_parts(&betza::parse(text).unwrap())
            .unwrap()
            .normalised()
    }

    #[test]
    fn the_predefined_pieces_are_the_kurier_ones() {
        // Fairy-Stockfish's own pieces (piece.cpp) against the same pieces
        // written in Kurier's notation by hand.
        for (fairy, ours) in [
            ("N", "N"),
            ("Q", "Q"),
            ("FA", "FA"),
            ("FfW", "FfW"),
            ("RNF", "RNF"),
            ("mNcB", "mNcB"),
            ("fW", "fW"),
            ("fR", "fR"),
            ("WfF", "WfF"),
            ("fsW", "fsW"),
            ("fmWfF", "fmWfF"),
            ("K", "K"),
            ("KN", "KN"),
            ("W3", "R3"),
            ("WW", "R"),
        ] {
            assert_eq!(parse(fairy).unwrap().normalised(), kurier(ours), "{fairy}");
        }
    }

    #[test]
    fn a_lone_direction_letter_is_narrow_on_a_knight() {
        // Fairy-Stockfish's shogi knight `fN`: two moves, two ranks up.
        let set = parse("fN").unwrap();
        let steps: Vec<(i32, i32)> = set.quiet.iter().map(|s| (s.dx, s.dy)).collect();
        assert_eq!(steps, vec![(-1, 2), (1, 2)]);
    }

    #[test]
    fn a_custom_pawn_reads_as_a_pawn_with_a_two_square_first_step() {
        let set = parse("mfWcfeFifmnD").unwrap();
        assert_eq!(set.normalised(), kurier("fmWfcFifmR2"));
    }

    #[test]
    fn hoppers_riders_of_long_leaps_and_side_blocked_leapers_are_refused() {
        assert!(parse("mRcpR").unwrap_err().contains("hopper"));
        assert!(parse("NN").unwrap_err().contains("nightrider"));
        assert!(parse("nN").unwrap_err().contains("xiangqi horse"));
    }
}
