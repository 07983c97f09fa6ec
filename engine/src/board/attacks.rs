//! Per-piece move tables, compiled from the variant's move descriptions:
//! leaps from per-square tables, slides from the ray tables in
//! [`crate::board::sliders`], the gryphon's bent slide from rays and shifts.

use crate::board::bitboard::Bitboard;
use crate::board::geometry::Geometry;
use crate::board::sliders::{SliderTables, DIRECTIONS};
use crate::types::{Color, Square};
use crate::variant::betza::{Motion, MovePart};

/// Orthogonal or diagonal: which pair of lines a slider part uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineKind {
    /// Rook lines.
    Orthogonal,
    /// Bishop lines.
    Diagonal,
}

/// A slider part that is limited in range or direction, or that only
/// moves, only captures, or is only for the first move.
#[derive(Clone, Debug)]
pub struct SliderPart<B> {
    /// Which lines it slides along.
    pub kind: LineKind,
    /// The directions it slides in (indexes into [`DIRECTIONS`], as seen
    /// by each colour), `[color]`: a pawn's forward slide scans one ray,
    /// not two lines.
    pub directions: [Vec<usize>; 2],
    /// Whether it may move to an empty square.
    pub quiet: bool,
    /// Whether it may capture.
    pub capture: bool,
    /// Whether it is only for the first move.
    pub initial: bool,
    /// `reach[color][square]`: the squares it can reach on an empty board.
    pub reach: [Vec<B>; 2],
    /// `reach_from[color][square]`: the squares from which it reaches `square`.
    pub reach_from: [Vec<B>; 2],
}

/// The compiled moves of one piece type, for both colours.
#[derive(Clone, Debug)]
pub struct PieceMoves<B> {
    /// Leaps to empty squares, `[color][square]`.
    pub quiet_leaps: [Vec<B>; 2],
    /// Capturing leaps, `[color][square]`.
    pub capture_leaps: [Vec<B>; 2],
    /// Squares from which a capturing leap reaches `[color][square]`.
    pub capture_leaps_from: [Vec<B>; 2],
    /// First-move-only leaps to empty squares.
    pub initial_quiet_leaps: [Vec<B>; 2],
    /// First-move-only capturing leaps.
    pub initial_capture_leaps: [Vec<B>; 2],
    /// Squares from which a first-move capturing leap reaches a square.
    pub initial_capture_leaps_from: [Vec<B>; 2],
    /// Whether it has any first-move-only leap.
    pub has_initial_leaps: bool,
    /// Whether it has a full rook slide (both modes, every direction).
    pub rook: bool,
    /// Whether it has a full bishop slide.
    pub bishop: bool,
    /// Other slider parts.
    pub sliders: Vec<SliderPart<B>>,
    /// Whether it has the gryphon's bent slide (both modes).
    pub bent: bool,
    /// `snipe_from[color][square]`: squares from which this piece attacks
    /// `square` on an empty board along a path that can be blocked.
    pub snipe_from: [Vec<B>; 2],
    /// Whether any part of the move can be blocked (it slides).
    pub slides: bool,
    /// Whether any part is for the first move only: only then do
    /// [`PieceMoves::targets`] and [`PieceMoves::attackers`] look at the
    /// squares where first moves apply.
    pub first_moves: bool,
    /// Whether every part both moves and captures: the quiet targets
    /// then equal the capture targets.
    pub symmetric: bool,
    /// `capture_reach[color][square]`: every square a capture of this
    /// piece could reach on an empty board, by any part.
    pub capture_reach: [Vec<B>; 2],
    /// `capture_reach_from[color][square]`: the squares from which a
    /// capture of this piece could reach `square` on an empty board.
    pub capture_reach_from: [Vec<B>; 2],
    /// `quiet_reach[color][square]`: every square a non-capturing move
    /// could reach on an empty board, by any part.
    pub quiet_reach: [Vec<B>; 2],
    /// Whether every capture is a leap that is not for the first move
    /// only (a pawn whose first move slides, for one): the capture
    /// targets are then one table lookup.
    pub captures_only_by_leaps: bool,
}

impl<B: Bitboard> PieceMoves<B> {
    /// Whether the piece only leaps, with no first-move parts: its
    /// targets are then two table lookups.
    #[inline(always)]
    pub fn plain_leaper(&self) -> bool {
        !self.slides && !self.has_initial_leaps
    }
}

/// The step as seen by `color`: Black's pieces are turned half a turn.
fn oriented((dx, dy): (i32, i32), color: Color) -> (i32, i32) {
    match color {
        Color::White => (dx, dy),
        Color::Black => (-dx, -dy),
    }
}

/// The squares on which a step of `(dx, dy)` from `square` lands, for
/// a slide of at most `range` steps (0 = unlimited) on an empty board.
fn slide_reach<B: Bitboard>(
    geometry: &Geometry<B>,
    square: Square,
    (dx, dy): (i32, i32),
    range: u8,
) -> B {
    let mut reach = B::EMPTY;
    let mut current = square;
    let mut steps = 0;
    while let Some(next) = geometry.offset(current, dx, dy) {
        reach |= B::square(next);
        current = next;
        steps += 1;
        if range != 0 && steps == range {
            break;
        }
    }
    reach
}

/// Squares reached by the bent slide from `square` on an empty board,
/// without the diagonal step itself.
fn bent_reach<B: Bitboard>(
    geometry: &Geometry<B>,
    square: Square,
    color: Color,
    steps: &[(i32, i32)],
) -> B {
    let mut reach = B::EMPTY;
    for &step in steps {
        let (dx, dy) = oriented(step, color);
        if let Some(corner) = geometry.offset(square, dx, dy) {
            reach |= slide_reach(geometry, corner, (dx, 0), 0);
            reach |= slide_reach(geometry, corner, (0, dy), 0);
        }
    }
    reach
}

/// Inverts a per-square relation: `from[t]` holds every `s` with `t` in `to[s]`.
fn invert<B: Bitboard>(to: &[B]) -> Vec<B> {
    let mut from = vec![B::EMPTY; to.len()];
    for (source, targets) in to.iter().enumerate() {
        for target in targets.squares() {
            from[target.index()] |= B::square(Square::new(source as u8));
        }
    }
    from
}

impl<B: Bitboard> PieceMoves<B> {
    /// Compiles a piece's move parts for a board.
    pub fn new(geometry: &Geometry<B>, parts: &[MovePart]) -> PieceMoves<B> {
        let squares = geometry.squares();
        let empty = || [vec![B::EMPTY; squares], vec![B::EMPTY; squares]];
        let mut moves = PieceMoves {
            quiet_leaps: empty(),
            capture_leaps: empty(),
            capture_leaps_from: empty(),
            initial_quiet_leaps: empty(),
            initial_capture_leaps: empty(),
            initial_capture_leaps_from: empty(),
            has_initial_leaps: false,
            rook: false,
            bishop: false,
            sliders: Vec::new(),
            bent: false,
            snipe_from: empty(),
            slides: false,
            first_moves: parts.iter().any(|part| part.initial),
            symmetric: parts.iter().all(|part| part.quiet && part.capture),
            capture_reach: empty(),
            capture_reach_from: empty(),
            quiet_reach: empty(),
            captures_only_by_leaps: false,
        };
        let mut snipe_to = empty();
        for part in parts {
            match part.motion {
                Motion::Leap => {
                    moves.has_initial_leaps |= part.initial;
                    for color in Color::BOTH {
                        let c = color.index();
                        for index in 0..squares {
                            let square = Square::new(index as u8);
                            let mut targets = B::EMPTY;
                            for &step in &part.steps {
                                let (dx, dy) = oriented(step, color);
                                if let Some(target) = geometry.offset(square, dx, dy) {
                                    targets |= B::square(target);
                                }
                            }
                            let (quiet, capture) = if part.initial {
                                (
                                    &mut moves.initial_quiet_leaps,
                                    &mut moves.initial_capture_leaps,
                                )
                            } else {
                                (&mut moves.quiet_leaps, &mut moves.capture_leaps)
                            };
                            if part.quiet {
                                quiet[c][index] |= targets;
                                moves.quiet_reach[c][index] |= targets;
                            }
                            if part.capture {
                                capture[c][index] |= targets;
                                moves.capture_reach[c][index] |= targets;
                            }
                        }
                    }
                }
                Motion::Slide { range } => {
                    moves.slides = true;
                    let orthogonal: Vec<_> = part
                        .steps
                        .iter()
                        .copied()
                        .filter(|(dx, dy)| dx * dy == 0)
                        .collect();
                    let diagonal: Vec<_> = part
                        .steps
                        .iter()
                        .copied()
                        .filter(|(dx, dy)| dx * dy != 0)
                        .collect();
                    for (kind, steps) in [
                        (LineKind::Orthogonal, orthogonal),
                        (LineKind::Diagonal, diagonal),
                    ] {
                        if steps.is_empty() {
                            continue;
                        }
                        let full = range == 0
                            && steps.len() == 4
                            && part.quiet
                            && part.capture
                            && !part.initial;
                        let mut reach = empty();
                        for color in Color::BOTH {
                            for (index, square_reach) in reach[color.index()].iter_mut().enumerate()
                            {
                                for &step in &steps {
                                    *square_reach |= slide_reach(
                                        geometry,
                                        Square::new(index as u8),
                                        oriented(step, color),
                                        range,
                                    );
                                }
                            }
                        }
                        for c in 0..2 {
                            if part.capture {
                                for (to, r) in snipe_to[c].iter_mut().zip(&reach[c]) {
                                    *to |= *r;
                                }
                            }
                            if part.quiet {
                                for (to, r) in moves.quiet_reach[c].iter_mut().zip(&reach[c]) {
                                    *to |= *r;
                                }
                            }
                        }
                        if full && kind == LineKind::Orthogonal {
                            moves.rook = true;
                        } else if full {
                            moves.bishop = true;
                        } else {
                            let reach_from = [invert(&reach[0]), invert(&reach[1])];
                            let directions = Color::BOTH.map(|color| {
                                steps
                                    .iter()
                                    .map(|&step| {
                                        let step = oriented(step, color);
                                        DIRECTIONS
                                            .iter()
                                            .position(|&direction| direction == step)
                                            // Betza slides are made of W and F steps only.
                                            .expect("a slide step is one of the eight directions")
                                    })
                                    .collect()
                            });
                            moves.sliders.push(SliderPart {
                                kind,
                                directions,
                                quiet: part.quiet,
                                capture: part.capture,
                                initial: part.initial,
                                reach,
                                reach_from,
                            });
                        }
                    }
                }
                Motion::BentSlide => {
                    moves.slides = true;
                    moves.bent = true;
                    for color in Color::BOTH {
                        let c = color.index();
                        let squares_reach = snipe_to[c].iter_mut().zip(&mut moves.quiet_reach[c]);
                        for (index, (snipe, quiet)) in squares_reach.enumerate() {
                            let reach =
                                bent_reach(geometry, Square::new(index as u8), color, &part.steps);
                            *snipe |= reach;
                            *quiet |= reach;
                        }
                    }
                }
            }
        }
        moves.capture_leaps_from = moves.capture_leaps.each_ref().map(|to| invert(to));
        moves.initial_capture_leaps_from =
            moves.initial_capture_leaps.each_ref().map(|to| invert(to));
        moves.snipe_from = snipe_to.each_ref().map(|to| invert(to));
        for (reach, slides) in moves.capture_reach.iter_mut().zip(&snipe_to) {
            for (square_reach, &slide) in reach.iter_mut().zip(slides) {
                *square_reach |= slide;
            }
        }
        moves.capture_reach_from = moves.capture_reach.each_ref().map(|to| invert(to));
        moves.captures_only_by_leaps = !moves.rook
            && !moves.bishop
            && !moves.bent
            && moves.sliders.iter().all(|part| !part.capture)
            && moves
                .initial_capture_leaps
                .iter()
                .flatten()
                .all(|leaps| leaps.is_empty());
        moves
    }

    /// The squares this piece (of `color`, on `square`) may move to without
    /// capturing and may capture on, before removing occupied or own
    /// squares; its first-move parts apply when `initial` holds `square`.
    #[inline(always)]
    pub fn targets(
        &self,
        tables: &AttackTables<'_, B>,
        color: Color,
        square: Square,
        occupied: B,
        initial: B,
    ) -> (B, B) {
        self.targets_of::<true>(tables, color, square, occupied, initial)
    }

    /// The capture half of [`PieceMoves::targets`], without working out
    /// the parts that only move.
    #[inline(always)]
    pub fn capture_targets(
        &self,
        tables: &AttackTables<'_, B>,
        color: Color,
        square: Square,
        occupied: B,
        initial: B,
    ) -> B {
        if self.captures_only_by_leaps {
            return self.capture_leaps[color.index()][square.index()];
        }
        self.targets_of::<false>(tables, color, square, occupied, initial)
            .1
    }

    /// [`PieceMoves::targets`]; the quiet half only when `QUIET`.
    #[inline(always)]
    fn targets_of<const QUIET: bool>(
        &self,
        tables: &AttackTables<'_, B>,
        color: Color,
        square: Square,
        occupied: B,
        initial: B,
    ) -> (B, B) {
        let c = color.index();
        let s = square.index();
        let mut quiet = if QUIET {
            self.quiet_leaps[c][s]
        } else {
            B::EMPTY
        };
        let mut capture = self.capture_leaps[c][s];
        if self.plain_leaper() {
            return (quiet, capture);
        }
        let initial = initial.has(square);
        if initial && self.has_initial_leaps {
            if QUIET {
                quiet |= self.initial_quiet_leaps[c][s];
            }
            capture |= self.initial_capture_leaps[c][s];
        }
        let mut both = B::EMPTY;
        if self.rook {
            both |= tables.sliders.orthogonal(square, occupied);
        }
        if self.bishop {
            both |= tables.sliders.diagonal(square, occupied);
        }
        if self.bent {
            both |= tables.bent_attacks(square, occupied);
        }
        for part in &self.sliders {
            if (part.initial && !initial) || !(part.capture || QUIET) {
                continue;
            }
            let mut attacks = B::EMPTY;
            for &direction in &part.directions[c] {
                attacks |= tables.sliders.ray_attacks(square, direction, occupied);
            }
            attacks &= part.reach[c][s];
            if part.quiet {
                quiet |= attacks;
            }
            if part.capture {
                capture |= attacks;
            }
        }
        (quiet | both, capture | both)
    }

    /// Of the pieces `pieces` (this type, colour `color`), those that
    /// attack the square of `lines`; `initial` holds the pieces whose
    /// first-move parts apply; `leaps` is false when no leap of any piece
    /// can reach the square (the leap tables are then skipped).
    #[inline(always)]
    pub fn attackers(
        &self,
        lines: &mut LineCache<'_, B>,
        color: Color,
        pieces: B,
        initial: B,
        leaps: bool,
    ) -> B {
        let c = color.index();
        let s = lines.square.index();
        let mut found = B::EMPTY;
        if leaps {
            found |= self.capture_leaps_from[c][s] & pieces;
            if self.has_initial_leaps {
                found |= self.initial_capture_leaps_from[c][s] & pieces & initial;
            }
        }
        // A piece that reaches the square by no slide on the empty board
        // does not reach it on this one: skip computing the lines.
        if !self.slides || (self.snipe_from[c][s] & pieces).is_empty() {
            return found;
        }
        if self.rook {
            found |= lines.get(LineKind::Orthogonal) & pieces;
        }
        if self.bishop {
            found |= lines.get(LineKind::Diagonal) & pieces;
        }
        if self.bent {
            found |= lines.tables.bent_attackers(lines.square, lines.occupied) & pieces;
        }
        for part in &self.sliders {
            if part.capture {
                let mut from = lines.get(part.kind) & part.reach_from[c][s] & pieces;
                if part.initial {
                    from &= initial;
                }
                found |= from;
            }
        }
        found
    }
}

/// Slider attacks from one square for one occupancy, each line kind
/// computed at most once however many piece types ask.
pub struct LineCache<'t, B> {
    tables: AttackTables<'t, B>,
    square: Square,
    occupied: B,
    orthogonal: Option<B>,
    diagonal: Option<B>,
}

impl<'t, B: Bitboard> LineCache<'t, B> {
    /// A cache for attacks from `square` with `occupied` squares.
    #[inline(always)]
    pub fn new(tables: AttackTables<'t, B>, square: Square, occupied: B) -> LineCache<'t, B> {
        LineCache {
            tables,
            square,
            occupied,
            orthogonal: None,
            diagonal: None,
        }
    }

    /// The slider attacks along the lines of `kind`.
    #[inline(always)]
    pub fn get(&mut self, kind: LineKind) -> B {
        let (tables, square, occupied) = (self.tables, self.square, self.occupied);
        match kind {
            LineKind::Orthogonal => *self
                .orthogonal
                .get_or_insert_with(|| tables.sliders.orthogonal(square, occupied)),
            LineKind::Diagonal => *self
                .diagonal
                .get_or_insert_with(|| tables.sliders.diagonal(square, occupied)),
        }
    }
}

/// The board's shared tables, borrowed for attack computations.
#[derive(Clone, Copy)]
pub struct AttackTables<'t, B> {
    /// Board shape and shifts.
    pub geometry: &'t Geometry<B>,
    /// Rays and line attacks.
    pub sliders: &'t SliderTables<B>,
}

impl<B: Bitboard> AttackTables<'_, B> {
    /// The gryphon's bent slide from `square` (without the diagonal step,
    /// which is a leap part): from each empty diagonal neighbour, the rays
    /// leading away from `square`.
    #[inline(always)]
    pub fn bent_attacks(&self, square: Square, occupied: B) -> B {
        let mut attacks = B::EMPTY;
        // DIRECTIONS 2, 3, 6, 7 are the diagonals; 0 and 4 north and south, 1 and 5 east and west.
        for (diagonal, vertical, horizontal) in
            [(2usize, 0usize, 1usize), (3, 0, 5), (6, 4, 5), (7, 4, 1)]
        {
            let (dx, dy) = DIRECTIONS[diagonal];
            if let Some(corner) = self.geometry.offset(square, dx, dy) {
                if !occupied.has(corner) {
                    attacks |= self.sliders.ray_attacks(corner, vertical, occupied)
                        | self.sliders.ray_attacks(corner, horizontal, occupied);
                }
            }
        }
        attacks
    }

    /// The squares from which a bent slide (without its diagonal step)
    /// reaches `square`: walking back along each ray from `square` over
    /// empty squares, each such square is a possible corner, and the
    /// gryphon stands one step further on and one step to either side.
    #[inline(always)]
    pub fn bent_attackers(&self, square: Square, occupied: B) -> B {
        let mut from = B::EMPTY;
        for direction in [0usize, 1, 4, 5] {
            let (ux, uy) = DIRECTIONS[direction];
            let corners = self.sliders.ray_attacks(square, direction, occupied) & !occupied;
            if corners.is_empty() {
                continue;
            }
            // Perpendicular to (ux, uy).
            let (px, py) = (uy, ux);
            from |= self.geometry.shift(corners, ux + px, uy + py)
                | self.geometry.shift(corners, ux - px, uy - py);
        }
        from
    }

    /// The squares a blocking piece may stand on between an attacker on
    /// `from` that slides to `to` (a line, or a bent path that begins
    /// with a diagonal step).
    #[inline(always)]
    pub fn path(&self, from: Square, to: Square) -> B {
        let line = self.sliders.between(from, to);
        if line.any() {
            return line;
        }
        let g = self.geometry;
        let dx = i32::from(g.file_of(to)) - i32::from(g.file_of(from));
        let dy = i32::from(g.rank_of(to)) - i32::from(g.rank_of(from));
        let corner = if dy.abs() == 1 && dx.abs() >= 2 {
            g.offset(from, dx.signum(), dy)
        } else if dx.abs() == 1 && dy.abs() >= 2 {
            g.offset(from, dx, dy.signum())
        } else {
            None
        };
        match corner {
            Some(corner) => B::square(corner) | self.sliders.between(corner, to),
            None => B::EMPTY,
        }
    }
}
