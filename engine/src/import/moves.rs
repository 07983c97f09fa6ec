//! A piece's moves as a plain set, whatever notation described them, and
//! the way back to Kurier's move notation (`crate::variant::betza`).
//!
//! Every importer parses its own dialect of Betza's notation into a
//! [`MoveSet`]; [`MoveSet::to_betza`] writes the Kurier string and checks
//! it by reading it back with Kurier's own parser: the two sets must be
//! equal, or the piece is refused. So a piece is never imported as a
//! slightly different one.

use std::collections::BTreeSet;

use crate::variant::betza::{self, Motion, MovePart};

/// The longest ride a board can hold (Kurier's boards have at most 99
/// ranks and 26 files): a ride this long is an unlimited one.
pub const UNLIMITED: u8 = 99;

/// One move of a piece, from White's side (`dy > 0` is forward): the
/// offset of the target, and whether it is a ride whose squares in
/// between must be empty (a one-square step has none, so it is never a
/// ride).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Step {
    /// Files to the right.
    pub dx: i32,
    /// Ranks forward.
    pub dy: i32,
    /// The squares between must be empty.
    pub ride: bool,
}

/// Everything a piece may do: its moves to empty squares and its
/// captures, always and as a first move (`i`: on the piece's initial rank).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveSet {
    /// Moves to an empty square.
    pub quiet: BTreeSet<Step>,
    /// Captures.
    pub capture: BTreeSet<Step>,
    /// Further moves to an empty square as a first move.
    pub initial_quiet: BTreeSet<Step>,
    /// Further captures as a first move.
    pub initial_capture: BTreeSet<Step>,
}

/// Which of a piece's move kinds an atom adds to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Modality {
    /// It may move to an empty square.
    pub quiet: bool,
    /// It may capture.
    pub capture: bool,
    /// Only as a first move.
    pub initial: bool,
}

impl MoveSet {
    fn targets(&mut self, modality: Modality) -> [Option<&mut BTreeSet<Step>>; 2] {
        let (quiet, capture) = if modality.initial {
            (&mut self.initial_quiet, &mut self.initial_capture)
        } else {
            (&mut self.quiet, &mut self.capture)
        };
        [
            modality.quiet.then_some(quiet),
            modality.capture.then_some(capture),
        ]
    }

    /// Adds a jump to `(dx, dy)`, over anything in between.
    pub fn add_leap(&mut self, (dx, dy): (i32, i32), modality: Modality) {
        for set in self.targets(modality).into_iter().flatten() {
            set.insert(Step {
                dx,
                dy,
                ride: false,
            });
        }
    }

    /// Adds a ride along `(dx, dy)` of 1 to `range` steps
    /// ([`UNLIMITED`] or more: to the board's edge), each needing the
    /// squares before it empty.
    pub fn add_ride(&mut self, (dx, dy): (i32, i32), range: u8, modality: Modality) {
        for set in self.targets(modality).into_iter().flatten() {
            for distance in 1..=i32::from(range.min(UNLIMITED)) {
                set.insert(Step {
                    dx: dx * distance,
                    dy: dy * distance,
                    ride: distance > 1,
                });
            }
        }
    }

    /// Adds one step of a ride alone: `distance` steps along the unit
    /// `(dx, dy)` with the squares before empty (a lame leaper such as
    /// a non-jumping dabbaba `nD`).
    pub fn add_ride_step(&mut self, (dx, dy): (i32, i32), distance: i32, modality: Modality) {
        for set in self.targets(modality).into_iter().flatten() {
            set.insert(Step {
                dx: dx * distance,
                dy: dy * distance,
                ride: distance > 1,
            });
        }
    }

    /// The moves that Kurier's parts describe.
    pub fn from_parts(parts: &[MovePart]) -> Result<MoveSet, String> {
        let mut set = MoveSet::default();
        for part in parts {
            let modality = Modality {
                quiet: part.quiet,
                capture: part.capture,
                initial: part.initial,
            };
            for &step in &part.steps {
                match part.motion {
                    Motion::Leap => set.add_leap(step, modality),
                    Motion::Slide { range } => {
                        set.add_ride(step, if range == 0 { UNLIMITED } else { range }, modality)
                    }
                    Motion::BentSlide => {
                        return Err("the gryphon's bent slide has no plain form".into())
                    }
                }
            }
        }
        Ok(set)
    }

    /// The same moves with the first-move sets holding only what the
    /// piece cannot do anyway: two sets that describe the same piece are
    /// equal once normalised.
    pub fn normalised(&self) -> MoveSet {
        MoveSet {
            quiet: self.quiet.clone(),
            capture: self.capture.clone(),
            initial_quiet: self
                .initial_quiet
                .difference(&self.quiet)
                .copied()
                .collect(),
            initial_capture: self
                .initial_capture
                .difference(&self.capture)
                .copied()
                .collect(),
        }
    }

    /// Whether the piece has any first-move moves of its own.
    pub fn has_initial(&self) -> bool {
        let normal = self.normalised();
        !normal.initial_quiet.is_empty() || !normal.initial_capture.is_empty()
    }

    /// Kurier's notation for these moves, checked by reading it back.
    pub fn to_betza(&self) -> Result<String, String> {
        let normal = self.normalised();
        let mut out = String::new();
        write_phase(&normal.quiet, &normal.capture, None, &mut out)?;
        let initial_quiet: BTreeSet<Step> =
            normal.quiet.union(&normal.initial_quiet).copied().collect();
        let initial_capture: BTreeSet<Step> = normal
            .capture
            .union(&normal.initial_capture)
            .copied()
            .collect();
        if !normal.initial_quiet.is_empty() || !normal.initial_capture.is_empty() {
            write_phase(
                &initial_quiet,
                &initial_capture,
                Some((&normal.quiet, &normal.capture)),
                &mut out,
            )?;
        }
        let parts = betza::parse(&out)
            .map_err(|e| format!("wrote {out:?}, which reads back as an error: {e}"))?;
        if MoveSet::from_parts(&parts)?.normalised() != normal {
            return Err(format!(
                "no Kurier notation for it (the nearest, {out:?}, is another piece)"
            ));
        }
        Ok(out)
    }
}

/// The eight unit directions.
const UNITS: [(i32, i32); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

/// How far the set rides along `unit`: the steps 1, 2, ... all present.
fn ride_length(set: &BTreeSet<Step>, (dx, dy): (i32, i32)) -> u8 {
    let mut length = 0;
    while length < UNLIMITED
        && set.contains(&Step {
            dx: dx * i32::from(length + 1),
            dy: dy * i32::from(length + 1),
            ride: length > 0,
        })
    {
        length += 1;
    }
    length
}

/// A part's modality letter (`""`, `m`, `c`), atom and range (0 for a
/// leaper).
type PartKey = (&'static str, &'static str, u8);

/// Writes the parts of one phase: rides first, by direction and length,
/// then the jumps, by atom. For the first move (`normal`: the moves the
/// piece has anyway) the parts are `i` parts, and only those that add to
/// the normal moves are written.
fn write_phase(
    quiet: &BTreeSet<Step>,
    capture: &BTreeSet<Step>,
    normal: Option<(&BTreeSet<Step>, &BTreeSet<Step>)>,
    out: &mut String,
) -> Result<(), String> {
    let prefix = if normal.is_some() { "i" } else { "" };
    let mut groups: Vec<(PartKey, BTreeSet<(i32, i32)>)> = Vec::new();
    let mut add = |key: (&'static str, &'static str, u8), direction: (i32, i32)| match groups
        .iter_mut()
        .find(|(k, _)| *k == key)
    {
        Some((_, set)) => {
            set.insert(direction);
        }
        None => groups.push((key, BTreeSet::from([direction]))),
    };
    let mut covered = BTreeSet::new();
    for unit in UNITS {
        let slider = if unit.0 == 0 || unit.1 == 0 { "W" } else { "F" };
        let lengths = [ride_length(quiet, unit), ride_length(capture, unit)];
        let unchanged =
            normal.is_some_and(|(q, c)| lengths == [ride_length(q, unit), ride_length(c, unit)]);
        for distance in 1..=i32::from(lengths[0].max(lengths[1])) {
            covered.insert(Step {
                dx: unit.0 * distance,
                dy: unit.1 * distance,
                ride: distance > 1,
            });
        }
        if unchanged {
            continue;
        }
        let both = lengths[0].min(lengths[1]);
        if both > 0 {
            add(("", slider, both), unit);
        }
        if lengths[0] > both {
            add(("m", slider, lengths[0]), unit);
        }
        if lengths[1] > both {
            add(("c", slider, lengths[1]), unit);
        }
    }
    let mut jumps: BTreeSet<Step> = quiet.union(capture).copied().collect();
    jumps.retain(|step| !covered.contains(step));
    if let Some((normal_quiet, normal_capture)) = normal {
        jumps.retain(|step| {
            (quiet.contains(step), capture.contains(step))
                != (normal_quiet.contains(step), normal_capture.contains(step))
        });
    }
    for step in &jumps {
        if step.ride {
            return Err(format!(
                "a move to ({}, {}) that needs the squares before it empty, without the shorter steps of a slide: \
                 Kurier has no lame leapers",
                step.dx, step.dy
            ));
        }
        let atom = leaper_atom(step.dx, step.dy).ok_or_else(|| {
            format!(
                "a leap of ({}, {}): Kurier's leapers go up to three squares each way (W F D N A H C Z G)",
                step.dx, step.dy
            )
        })?;
        let letter = match (quiet.contains(step), capture.contains(step)) {
            (true, true) => "",
            (true, false) => "m",
            _ => "c",
        };
        add((letter, atom, 0), (step.dx, step.dy));
    }
    for ((letter, atom, range), directions) in groups {
        let all = atom_directions(atom);
        let terms = direction_cover(&all, &directions).ok_or_else(|| {
            format!("its {atom} moves in directions {directions:?}, which Kurier's direction letters cannot pick out")
        })?;
        let written_atom = match (atom, range) {
            ("W", 1) | ("F", 1) => atom.to_string(),
            ("W", UNLIMITED) => "R".to_string(),
            ("F", UNLIMITED) => "B".to_string(),
            ("W", r) => format!("R{r}"),
            ("F", r) => format!("B{r}"),
            _ => atom.to_string(),
        };
        for term in terms {
            out.push_str(&format!("{prefix}{term}{letter}{written_atom}"));
        }
    }
    Ok(())
}

/// Kurier's leaper atom for a jump, if it has one.
fn leaper_atom(dx: i32, dy: i32) -> Option<&'static str> {
    let (long, short) = (dx.abs().max(dy.abs()), dx.abs().min(dy.abs()));
    Some(match (long, short) {
        (1, 0) => "W",
        (1, 1) => "F",
        (2, 0) => "D",
        (2, 1) => "N",
        (2, 2) => "A",
        (3, 0) => "H",
        (3, 1) => "C",
        (3, 2) => "Z",
        (3, 3) => "G",
        _ => return None,
    })
}

/// The eight images of an atom's step (four for `W`, `F`, `D`, `A`, `H`,
/// `G`): for `W` and `F` the unit directions of a slide too.
fn atom_directions(atom: &str) -> BTreeSet<(i32, i32)> {
    let base = match atom {
        "W" => (1, 0),
        "F" => (1, 1),
        "D" => (2, 0),
        "N" => (2, 1),
        "A" => (2, 2),
        "H" => (3, 0),
        "C" => (3, 1),
        "Z" => (3, 2),
        _ => (3, 3),
    };
    let mut all = BTreeSet::new();
    for (a, b) in [base, (base.1, base.0)] {
        for (sa, sb) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
            all.insert((a * sa, b * sb));
        }
    }
    all
}

/// The direction terms of `crate::variant::betza` that pick out exactly `wanted`
/// from `all` (each term written as a part of its own), or `None`.
fn direction_cover(
    all: &BTreeSet<(i32, i32)>,
    wanted: &BTreeSet<(i32, i32)>,
) -> Option<Vec<&'static str>> {
    if all == wanted {
        return Some(vec![""]);
    }
    const TERMS: [&str; 10] = ["f", "b", "l", "r", "s", "v", "fl", "fr", "bl", "br"];
    let admits = |term: &str, (dx, dy): (i32, i32)| {
        term.bytes().all(|letter| match letter {
            b'f' => dy > 0,
            b'b' => dy < 0,
            b'l' => dx < 0,
            b'r' => dx > 0,
            b's' => dx != 0,
            _ => dy != 0,
        })
    };
    let mut candidates: Vec<(&str, BTreeSet<(i32, i32)>)> = TERMS
        .iter()
        .map(|&term| {
            (
                term,
                all.iter().copied().filter(|&d| admits(term, d)).collect(),
            )
        })
        .filter(|(_, set): &(&str, BTreeSet<(i32, i32)>)| !set.is_empty() && set.is_subset(wanted))
        .collect();
    candidates.sort_by_key(|(_, set)| std::cmp::Reverse(set.len()));
    let mut left = wanted.clone();
    let mut chosen = Vec::new();
    for (term, set) in candidates {
        if set.iter().any(|d| left.contains(d)) {
            left.retain(|d| !set.contains(d));
            chosen.push(term);
        }
    }
    left.is_empty().then_some(chosen)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn both() -> Modality {
        Modality {
            quiet: true,
            capture: true,
            initial: false,
        }
    }

    fn set_of(betza_text: &str) -> MoveSet {
        MoveSet::from_parts(&betza::parse(betza_text).unwrap()).unwrap()
    }

    #[test]
    fn a_written_piece_reads_back_as_the_same_moves() {
        for text in [
            "K",
            "N",
            "Q",
            "R3",
            "FA",
            "WD",
            "KN",
            "FAWD",
            "fmWfcFifmR2",
            "fmWfcF",
            "FfWifAifD",
            "mNcB",
            "fsW",
            "flN",
            "frFblF",
            "B2",
            "mRcN",
        ] {
            let set = set_of(text);
            let written = set.to_betza().unwrap();
            assert_eq!(
                set_of(&written).normalised(),
                set.normalised(),
                "{text} -> {written}"
            );
        }
    }

    #[test]
    fn a_knight_with_only_its_two_narrow_forward_moves_has_no_kurier_notation() {
        // The shogi knight: Kurier's `f` keeps all four forward knight
        // moves and `fl`/`fr` one narrow and one wide each.
        let mut set = MoveSet::default();
        set.add_leap((1, 2), both());
        set.add_leap((-1, 2), both());
        assert!(set.to_betza().is_err());
    }

    #[test]
    fn a_non_jumping_dabbaba_beside_a_wazir_is_a_two_square_slide() {
        // Fairy-Stockfish's pawn `fmW` + `ifmnD`: the double step may not
        // jump, so it is `ifmR2` in Kurier's notation.
        let mut set = MoveSet::default();
        let quiet = Modality {
            quiet: true,
            capture: false,
            initial: false,
        };
        set.add_leap((0, 1), quiet);
        set.add_ride_step(
            (0, 1),
            2,
            Modality {
                initial: true,
                ..quiet
            },
        );
        assert_eq!(set.to_betza().unwrap(), "fmWifmR2");
        let mut alone = MoveSet::default();
        alone.add_ride_step((0, 1), 2, quiet);
        assert!(alone.to_betza().unwrap_err().contains("lame"));
    }
}
