//! H. G. Muller's XBetza, the extended Betza notation of XBoard and of his
//! Interactive Diagram (`gnu.org/software/xboard/Betza.html`, "Betza
//! notation (extended)" on the Chess Variant Pages), read into a
//! [`MoveSet`] with what a move set cannot hold beside it: the captures
//! that may take en passant (`e`), the king's castlings (`O`), and the
//! gryphon.
//!
//! Where XBetza differs from Kurier's notation:
//!
//! - Direction letters pick *pairs* on diagonal and oblique atoms, and
//!   the narrow pair on oblique ones: `fN` is the two forward moves two
//!   ranks up (the shogi knight), `fhN` all four forward moves, `fsN` the
//!   two wide ones, `ffN` the narrow pair again; `flN` is the one wide
//!   move forward and left, `lfN` the narrow one. On `K` and `Q` a lone
//!   letter is the one straight direction (`fK` is one step forward),
//!   `fsK` the two forward diagonals, `flK` the forward-left diagonal. On
//!   `W`-like atoms letters add up (`flW` is forward and left).
//! - A digit after any slider atom is its range, `0` unlimited (`W3`,
//!   `R4`, `K2`, `B0`); `n` makes a leap blockable on the square between
//!   (`nD`, `nA`); `i` marks first moves; `e` en-passant captures; `O`
//!   with a number castling, the king moving that many squares.
//! - The letters are read in Muller's order: `i`, directions, then `m`,
//!   `c`, `e`, `n`. A letter out of that order, which XBoard would skip,
//!   is refused rather than guessed at.
//!
//! Hoppers, jumping modifiers, multi-leg moves other than the exact
//! gryphon `FyafsF`, leaper riders and side-blocked leapers have no
//! Kurier form and are refused with the character where they stand.

use std::collections::BTreeSet;

use super::moves::{Modality, MoveSet, UNLIMITED};

/// The gryphon, Kurier's one bent slider, as both notations write it.
pub const GRYPHON: &str = "FyafsF";

/// A castling of the king: towards the a-file (`side` -1) or the last
/// file (+1), the king moving `distance` squares and the corner piece
/// jumping to the square beside it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Castling {
    /// -1 towards the a-file, +1 towards the last file (White's view).
    pub side: i32,
    /// How far the king moves.
    pub distance: u8,
}

/// One piece's moves as XBetza describes them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Piece {
    /// Every move a move set holds.
    pub moves: MoveSet,
    /// The steps whose captures may take en passant (`e`).
    pub en_passant: BTreeSet<(i32, i32)>,
    /// Its castlings (`isO2`).
    pub castling: BTreeSet<Castling>,
    /// Whether it has the gryphon's move `FyafsF`.
    pub gryphon: bool,
}

/// How an atom's eight (or four) images are picked by direction letters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Symmetry {
    /// `W`, `D`, `H`, `R`, `O`: letters add up.
    Orthogonal,
    /// `F`, `A`, `G`, `B`: a letter picks a pair, two crossing letters one.
    Diagonal,
    /// `N`, `C`, `Z`: a letter picks the narrow pair, `h` a half.
    Oblique,
    /// `K`, `Q`: a letter picks one straight direction.
    Compass,
}

/// An atom: its symmetry, its step (files, ranks) before turning, and
/// whether it slides without a range written.
struct Atom {
    symmetry: Symmetry,
    step: (i32, i32),
    slides: bool,
    castling: bool,
}

fn atom(letter: char, at: usize) -> Result<Atom, String> {
    let (symmetry, step, slides) = match letter {
        'W' | 'O' => (Symmetry::Orthogonal, (0, 1), false),
        'D' => (Symmetry::Orthogonal, (0, 2), false),
        'H' => (Symmetry::Orthogonal, (0, 3), false),
        'R' => (Symmetry::Orthogonal, (0, 1), true),
        'F' => (Symmetry::Diagonal, (1, 1), false),
        'A' => (Symmetry::Diagonal, (2, 2), false),
        'G' => (Symmetry::Diagonal, (3, 3), false),
        'B' => (Symmetry::Diagonal, (1, 1), true),
        'N' => (Symmetry::Oblique, (1, 2), false),
        'C' => (Symmetry::Oblique, (1, 3), false),
        'Z' => (Symmetry::Oblique, (2, 3), false),
        'K' => (Symmetry::Compass, (0, 1), false),
        'Q' => (Symmetry::Compass, (0, 1), true),
        'L' | 'J' | 'I' => {
            return Err(format!(
                "'{letter}' at character {at}: an older atom letter that Muller's pages and XBoard's code read differently; write C, Z or H"
            ))
        }
        'U' => {
            return Err(format!(
                "'U' at character {at}: the universal leaper, which Kurier has not"
            ))
        }
        _ => {
            return Err(format!(
                "'{letter}' at character {at}: not an atom (W F D N A H C Z G K R B Q O, or FyafsF)"
            ))
        }
    };
    Ok(Atom {
        symmetry,
        step,
        slides,
        castling: letter == 'O',
    })
}

/// Reads one piece's XBetza.
pub fn parse(text: &str) -> Result<Piece, String> {
    let mut piece = Piece::default();
    // The characters with their positions (from 1), gryphons taken out.
    let mut chars: Vec<(usize, char)> = Vec::new();
    let mut index = 0;
    let all: Vec<char> = text.chars().collect();
    let gryphon: Vec<char> = GRYPHON.chars().collect();
    while index < all.len() {
        if all[index..].starts_with(&gryphon) {
            if index > 0 && all[index - 1].is_ascii_lowercase() {
                return Err(format!(
                    "'{}' at character {index}: the gryphon {GRYPHON} takes no modifiers",
                    all[index - 1]
                ));
            }
            piece.gryphon = true;
            index += GRYPHON.len();
            continue;
        }
        chars.push((index + 1, all[index]));
        index += 1;
    }
    let mut at = 0;
    while at < chars.len() {
        let prefix_start = at;
        while at < chars.len() && chars[at].1.is_ascii_lowercase() {
            at += 1;
        }
        let prefix = &chars[prefix_start..at];
        let Some(&(atom_at, letter)) = chars.get(at) else {
            return Err(format!(
                "modifiers at character {} with no atom after them",
                chars[prefix_start].0
            ));
        };
        if !letter.is_ascii_uppercase() {
            return Err(format!(
                "'{letter}' at character {atom_at}: not an atom or modifier (parentheses, numeric leaps and chaining operators are not read)"
            ));
        }
        at += 1;
        let doubled = chars.get(at).map(|&(_, c)| c) == Some(letter);
        if doubled {
            at += 1;
        }
        let digits_start = at;
        while at < chars.len() && chars[at].1.is_ascii_digit() {
            at += 1;
        }
        let digits: String = chars[digits_start..at].iter().map(|&(_, c)| c).collect();
        add_part(&mut piece, prefix, letter, atom_at, doubled, &digits)?;
    }
    Ok(piece)
}

/// The modifiers of one part, as read in Muller's order.
struct Modifiers {
    initial: bool,
    directions: Vec<char>,
    quiet: bool,
    capture: bool,
    en_passant: bool,
    lame: bool,
}

fn modifiers(prefix: &[(usize, char)]) -> Result<Modifiers, String> {
    let mut rest = prefix.iter().peekable();
    let mut initial = false;
    while let Some(&&(at, 'i')) = rest.peek() {
        if initial {
            return Err(format!(
                "'ii' at character {}: XBoard's second-rank initial moves, which Kurier has not",
                at - 1
            ));
        }
        initial = true;
        rest.next();
    }
    let mut directions = Vec::new();
    while let Some(&&(_, c)) = rest.peek() {
        if !"fblrsvh".contains(c) {
            break;
        }
        directions.push(c);
        rest.next();
    }
    let mut flags = [false; 4];
    for (slot, wanted) in "mcen".chars().enumerate() {
        if let Some(&&(_, c)) = rest.peek() {
            if c == wanted {
                flags[slot] = true;
                rest.next();
            }
        }
    }
    if let Some(&(at, c)) = rest.next() {
        let why = match c {
            'i' | 'f' | 'b' | 'l' | 'r' | 's' | 'v' | 'h' | 'm' | 'c' | 'e' | 'n' => {
                "out of Muller's order (i, directions, m, c, e, n), which XBoard would skip: write the modifiers in that order".to_string()
            }
            'p' | 'g' => "a hopper, which needs a screen: Kurier has none".into(),
            'j' => "a jumping or square-skipping move: Kurier has none".into(),
            'a' | 'y' | 't' | 'x' | 'd' | 'u' => format!(
                "a multi-leg move: Kurier's only one is the gryphon, written exactly {GRYPHON}"
            ),
            'o' => "a move around a cylinder board: Kurier's boards have edges".into(),
            'q' | 'z' => "a circular or zig-zag rider: Kurier has none".into(),
            _ => "not an XBetza modifier".into(),
        };
        return Err(format!("'{c}' at character {at}: {why}"));
    }
    let [quiet, capture, en_passant, lame] = flags;
    Ok(Modifiers {
        initial,
        directions,
        quiet,
        capture,
        en_passant,
        lame,
    })
}

/// Adds one part (`prefix` atom, doubled or with `digits`) to `piece`.
fn add_part(
    piece: &mut Piece,
    prefix: &[(usize, char)],
    letter: char,
    at: usize,
    doubled: bool,
    digits: &str,
) -> Result<(), String> {
    let modifiers = modifiers(prefix)?;
    let atom = atom(letter, at)?;
    let written = format!("'{letter}{digits}'");
    let unit = atom.step.0.abs().max(atom.step.1.abs()) == 1;
    // The range: 0 for a leap, else how far it slides (UNLIMITED: to the
    // edge); a castling's number is the king's distance.
    let range: u8 = match (doubled, digits) {
        (true, "") if letter == 'W' || letter == 'F' => UNLIMITED,
        (true, _) => {
            return Err(format!(
                "'{letter}{letter}' at character {at}: a rider of {}: Kurier's riders are R and B",
                if unit { "this atom" } else { "leaps longer than one square (as the nightrider NN)" }
            ))
        }
        (false, "") if atom.slides => UNLIMITED,
        (false, "") => 0,
        (false, digits) if digits.len() > 1 && digits.starts_with('0') => {
            return Err(format!(
                "'{letter}{digits}' at character {at}: exactly {} steps, which Kurier's sliders cannot be forced to take",
                digits.trim_start_matches('0')
            ))
        }
        (false, digits) => {
            let count: u32 = digits.parse().map_err(|_| {
                format!("'{letter}{digits}' at character {at}: not a range")
            })?;
            match count {
                0 => UNLIMITED,
                _ => u8::try_from(count.min(u32::from(UNLIMITED))).unwrap_or(UNLIMITED),
            }
        }
    };
    if atom.castling {
        return add_castling(piece, &modifiers, &written, at, range);
    }
    if range > 1 && !unit {
        return Err(format!(
            "{written} at character {at}: a rider of leaps longer than one square (as the nightrider): Kurier's riders step one square"
        ));
    }
    let images = images(atom.symmetry, atom.step, &modifiers.directions, at)?;
    let modality = if modifiers.quiet || modifiers.capture || modifiers.en_passant {
        Modality {
            quiet: modifiers.quiet,
            capture: modifiers.capture,
            initial: modifiers.initial,
        }
    } else {
        Modality {
            quiet: true,
            capture: true,
            initial: modifiers.initial,
        }
    };
    let slide = range > 1 || (atom.slides && range == UNLIMITED);
    if modifiers.en_passant && slide {
        return Err(format!(
            "'e' at character {at}: en passant by a slide, which Kurier has not"
        ));
    }
    let lame = modifiers.lame && !slide && !unit;
    if lame && atom.symmetry == Symmetry::Oblique {
        return Err(format!(
            "'n{letter}' at character {at}: a leaper that pieces beside its path can block (as the xiangqi horse): Kurier has none"
        ));
    }
    if lame && atom.step.1 > 2 {
        return Err(format!(
            "'n{letter}' at character {at}: a three-square leap that XBoard blocks on its first square only: Kurier cannot read it"
        ));
    }
    for image in images {
        if modifiers.en_passant {
            piece.en_passant.insert(image);
        }
        if slide {
            piece.moves.add_ride(image, range, modality);
        } else if lame {
            piece
                .moves
                .add_ride_step((image.0.signum(), image.1.signum()), 2, modality);
        } else {
            piece.moves.add_leap(image, modality);
        }
    }
    Ok(())
}

fn add_castling(
    piece: &mut Piece,
    modifiers: &Modifiers,
    written: &str,
    at: usize,
    distance: u8,
) -> Result<(), String> {
    if distance == 0 {
        return Err(format!(
            "'O' at character {at}: without a number it is the null move, which Kurier has not"
        ));
    }
    if !modifiers.initial {
        return Err(format!(
            "{written} at character {at}: castling without 'i', by a king that may have moved: Kurier's castling needs an unmoved king"
        ));
    }
    if modifiers.quiet || modifiers.capture || modifiers.en_passant || modifiers.lame {
        return Err(format!(
            "{written} at character {at}: castling takes only 'i' and directions"
        ));
    }
    for (dx, dy) in images(Symmetry::Orthogonal, (0, 1), &modifiers.directions, at)? {
        if dy != 0 {
            return Err(format!(
                "{written} at character {at}: castling along a file (write 'isO{distance}' for both wings)"
            ));
        }
        piece.castling.insert(Castling { side: dx, distance });
    }
    Ok(())
}

/// The images of `step` that the direction letters keep, read as
/// Muller reads them for the atom's symmetry.
fn images(
    symmetry: Symmetry,
    step: (i32, i32),
    letters: &[char],
    at: usize,
) -> Result<BTreeSet<(i32, i32)>, String> {
    let all = all_images(symmetry, step);
    if letters.is_empty() {
        return Ok(all);
    }
    let long = step.1;
    // Most forward pair of a letter (the narrow pair on an oblique atom).
    let pair = |c: char, (dx, dy): (i32, i32)| match c {
        'f' => dy == long,
        'b' => dy == -long,
        'l' => dx == -long,
        'r' => dx == long,
        's' => dx.abs() == long,
        _ => dy.abs() == long,
    };
    // Everything on a letter's side ('s' and 'v': both sides).
    let half = |c: char, (dx, dy): (i32, i32)| match c {
        'f' => dy > 0,
        'b' => dy < 0,
        'l' => dx < 0,
        'r' => dx > 0,
        's' => dx != 0,
        _ => dy != 0,
    };
    // The one straight direction of a letter on K and Q.
    let straight = |c: char, (dx, dy): (i32, i32)| match c {
        'f' => (dx, dy) == (0, 1),
        'b' => (dx, dy) == (0, -1),
        'l' => (dx, dy) == (-1, 0),
        'r' => (dx, dy) == (1, 0),
        's' => dy == 0,
        'v' => dx == 0,
        _ => true,
    };
    let vertical = |c: char| c == 'f' || c == 'b';
    let horizontal = |c: char| c == 'l' || c == 'r';
    // Two letters that Muller reads as one term.
    let crossing = |a: char, b: char| {
        (vertical(a) && (horizontal(b) || b == 's')) || (horizontal(a) && (vertical(b) || b == 'v'))
    };
    let word: String = letters.iter().collect();
    let mut kept = BTreeSet::new();
    let mut index = 0;
    while index < letters.len() {
        let a = letters[index];
        let b = letters.get(index + 1).copied().unwrap_or(' ');
        let keep: Box<dyn Fn((i32, i32)) -> bool> = match symmetry {
            Symmetry::Orthogonal => {
                if a == 'h' {
                    return Err(format!(
                        "'{word}' at character {at}: 'h' on an orthogonal atom, which XBoard skips"
                    ));
                }
                index += 1;
                Box::new(move |image| half(a, image))
            }
            Symmetry::Diagonal => {
                if a == 'h'
                    || (crossing(a, b) && (b == 's' || b == 'v'))
                    || ((a == 's' || a == 'v') && (horizontal(b) || vertical(b)))
                {
                    return Err(format!(
                        "'{word}' at character {at}: directions that Muller's programs read as every diagonal; write them with f, b, l, r"
                    ));
                }
                if crossing(a, b) {
                    index += 2;
                    Box::new(move |image| half(a, image) && half(b, image))
                } else {
                    index += 1;
                    Box::new(move |image| half(a, image))
                }
            }
            Symmetry::Oblique => {
                if a == 'h' || ((a == 's' || a == 'v') && (b == 'h' || b == a)) {
                    return Err(format!(
                        "'{word}' at character {at}: chiral or empty direction sets on an oblique atom, which Kurier cannot read"
                    ));
                }
                if b == 'h' {
                    index += 2;
                    Box::new(move |image| half(a, image))
                } else if b == a || crossing(a, b) {
                    index += 2;
                    Box::new(move |image| half(a, image) && pair(b, image))
                } else {
                    index += 1;
                    Box::new(move |image| pair(a, image))
                }
            }
            Symmetry::Compass => {
                if b == a {
                    index += 2;
                    Box::new(move |image| straight(a, image))
                } else if crossing(a, b) {
                    index += 2;
                    Box::new(move |image| half(a, image) && half(b, image))
                } else {
                    index += 1;
                    Box::new(move |image| straight(a, image))
                }
            }
        };
        kept.extend(all.iter().copied().filter(|&image| keep(image)));
    }
    if kept.is_empty() {
        return Err(format!("'{word}' at character {at}: leaves no move"));
    }
    Ok(kept)
}

/// Every image of a step under the board's symmetries; on `K` and `Q`
/// the eight unit directions.
fn all_images(symmetry: Symmetry, step: (i32, i32)) -> BTreeSet<(i32, i32)> {
    let bases: &[(i32, i32)] = if symmetry == Symmetry::Compass {
        &[(0, 1), (1, 1)]
    } else {
        std::slice::from_ref(&step)
    };
    let mut images = BTreeSet::new();
    for &(a, b) in bases {
        for (x, y) in [(a, b), (b, a)] {
            for (sx, sy) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                images.insert((x * sx, y * sy));
            }
        }
    }
    images
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::betza;

    /// The targets of a piece's moves to empty squares.
    fn quiet(text: &str) -> BTreeSet<(i32, i32)> {
        let piece = parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        piece.moves.quiet.iter().map(|s| (s.dx, s.dy)).collect()
    }

    fn set(steps: &[(i32, i32)]) -> BTreeSet<(i32, i32)> {
        steps.iter().copied().collect()
    }

    fn kurier(text: &str) -> MoveSet {
        MoveSet::from_parts(&betza::parse(text).unwrap())
            .unwrap()
            .normalised()
    }

    #[test]
    fn oblique_directions_pick_pairs_as_muller_defines_them() {
        // Muller's quick reference: on N a lone letter is the pair most in
        // that direction (the narrow pair for f and b), `fh` the forward
        // half, `fs` the two wide forward moves, `fl` the wide
        // forward-left move and `lf` the narrow one.
        let knight = quiet("N");
        assert_eq!(knight.len(), 8);
        assert_eq!(knight, &quiet("fhN") | &quiet("bhN"));
        for (text, expected) in [
            ("fN", set(&[(-1, 2), (1, 2)])),
            ("ffN", set(&[(-1, 2), (1, 2)])),
            ("bN", set(&[(-1, -2), (1, -2)])),
            ("fhN", set(&[(-2, 1), (-1, 2), (1, 2), (2, 1)])),
            ("fsN", set(&[(-2, 1), (2, 1)])),
            ("flN", set(&[(-2, 1)])),
            ("lfN", set(&[(-1, 2)])),
            ("sN", set(&[(-2, -1), (-2, 1), (2, -1), (2, 1)])),
            ("vN", set(&[(-1, -2), (-1, 2), (1, -2), (1, 2)])),
            ("lvN", set(&[(-1, -2), (-1, 2)])),
            ("fZ", set(&[(-2, 3), (2, 3)])),
            ("fsC", set(&[(-3, 1), (3, 1)])),
        ] {
            assert_eq!(quiet(text), expected, "{text}");
        }
    }

    #[test]
    fn diagonal_orthogonal_and_king_directions() {
        for (text, expected) in [
            // A letter picks a pair on F, two crossing letters one move.
            ("fF", set(&[(-1, 1), (1, 1)])),
            ("flF", set(&[(-1, 1)])),
            ("lF", set(&[(-1, -1), (-1, 1)])),
            ("sF", set(&[(-1, -1), (-1, 1), (1, -1), (1, 1)])),
            ("fA", set(&[(-2, 2), (2, 2)])),
            // On W letters add up: `fl` is forward and left.
            ("fW", set(&[(0, 1)])),
            ("flW", set(&[(-1, 0), (0, 1)])),
            ("sW", set(&[(-1, 0), (1, 0)])),
            ("vD", set(&[(0, -2), (0, 2)])),
            // On K a lone letter is one straight direction.
            ("fK", set(&[(0, 1)])),
            ("ffK", set(&[(0, 1)])),
            ("sK", set(&[(-1, 0), (1, 0)])),
            ("fsK", set(&[(-1, 1), (1, 1)])),
            ("flK", set(&[(-1, 1)])),
            ("lvK", set(&[(-1, -1), (-1, 1)])),
        ] {
            assert_eq!(quiet(text), expected, "{text}");
        }
    }

    #[test]
    fn move_counts_on_an_empty_board() {
        // Targets a piece reaches from the middle of a large empty board,
        // counted by hand: a king's two-step slide 8 x 2; a forward
        // three-step rook 3; a rook 4 rays of the board's longest ride.
        let count = |text: &str| parse(text).unwrap().moves.quiet.len();
        assert_eq!(count("K2"), 16);
        assert_eq!(count("fW3"), 3);
        assert_eq!(count("fR3"), 3);
        assert_eq!(count("R"), 4 * usize::from(UNLIMITED));
        assert_eq!(count("fhNfsC"), 6);
    }

    #[test]
    fn ranges_doubled_atoms_and_modalities_read_as_kurier_writes_them() {
        for (xbetza, ours) in [
            ("W3", "R3"),
            ("R4", "R4"),
            ("B0", "B"),
            ("WW", "R"),
            ("FF", "B"),
            ("K", "K"),
            ("Q2", "Q2"),
            ("R1", "W"),
            ("fhN", "fN"),
            ("mNcB", "mNcB"),
            ("FfWifAifD", "FfWifAifD"),
            ("fmWfceFifmnD", "fmWfcFifmR2"),
            ("ifmnDfmWfceF", "fmWfcFifmR2"),
            ("FnA", "B2"),
        ] {
            let piece = parse(xbetza).unwrap();
            assert_eq!(piece.moves.normalised(), kurier(ours), "{xbetza}");
        }
    }

    #[test]
    fn the_pawn_captures_en_passant_on_its_diagonal_captures() {
        let pawn = parse("ifmnDfmWfceF").unwrap();
        assert_eq!(pawn.en_passant, set(&[(-1, 1), (1, 1)]));
        assert!(parse("fmWfcF").unwrap().en_passant.is_empty());
        // `e` alone takes only en passant: no ordinary capture.
        let only = parse("fmWfeF").unwrap();
        assert!(only.moves.capture.is_empty());
        assert_eq!(only.en_passant.len(), 2);
    }

    #[test]
    fn castling_and_the_gryphon_are_read_beside_the_move_set() {
        let king = parse("KisO2").unwrap();
        assert_eq!(king.moves.normalised(), kurier("K"));
        assert_eq!(
            king.castling
                .iter()
                .map(|c| (c.side, c.distance))
                .collect::<Vec<_>>(),
            vec![(-1, 2), (1, 2)]
        );
        let gryphon = parse(GRYPHON).unwrap();
        assert!(gryphon.gryphon && gryphon.moves == MoveSet::default());
        let with_wazir = parse("WFyafsF").unwrap();
        assert!(with_wazir.gryphon);
        assert_eq!(with_wazir.moves.normalised(), kurier("W"));
    }

    #[test]
    fn what_kurier_cannot_play_is_refused_with_its_character() {
        for (text, says) in [
            ("nN", "xiangqi horse"),
            ("NN", "nightrider"),
            ("N2", "nightrider"),
            ("mRcpR", "hopper"),
            ("jR", "jumping"),
            ("caK", "multi-leg"),
            ("mFyafsF", "no modifiers"),
            ("mfW", "out of Muller's order"),
            ("W03", "exactly 3 steps"),
            ("L", "older atom letter"),
            ("(1,4)", "parentheses"),
            ("hrN", "chiral"),
            ("fsF", "every diagonal"),
            ("sO2", "castling without 'i'"),
            ("iO2", "along a file"),
            ("O", "null move"),
            ("nH", "first square only"),
            ("fcR0e", "no atom"),
            ("ceR", "en passant by a slide"),
            ("ooW", "cylinder"),
        ] {
            let error = parse(text).expect_err(text);
            assert!(error.contains(says), "{text}: {error}");
            assert!(!error.contains('\n'), "{text}: {error}");
        }
    }
}
