//! Standard algebraic notation (SAN), as docs/RULES.md "Move notation" has it:
//! the variant's upper-case piece letters (none for pawns), pawn captures
//! with the origin file (`exd5`), promotion with `=` (`c10=D`),
//! disambiguation by file, then rank, then square (`Rad1`, `T1c3`,
//! `Ne2d4`), `+` for check and `#` for checkmate, and castling as the
//! variant file writes it (`O-O`, `O-O-Oc`, `O-O-Ob`).
//!
//! ```
//! use kurier_engine::position::any_game::AnyGame;
//! use kurier_engine::position::state::Position;
//! let AnyGame::Narrow(game) = AnyGame::built_in("chess").unwrap() else { unreachable!() };
//! let position = Position::startpos(game);
//! let knight = position.parse_san("Nf3").unwrap();
//! assert_eq!(position.uci(knight), "g1f3");
//! assert_eq!(position.san(knight), "Nf3");
//! ```

use std::fmt;

use crate::board::bitboard::Bitboard;
use crate::position::state::Position;
use crate::types::{Move, MoveKind, Square};

/// Why a SAN text was not accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SanError {
    /// The text as given.
    pub text: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for SanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "move '{}': {}", self.text, self.message)
    }
}

impl std::error::Error for SanError {}

/// The parts of a non-castling SAN text, before they are matched against
/// the legal moves.
#[derive(Clone, Copy, Debug)]
struct SanParts {
    /// The moving piece's type; `None` for a pawn (no letter).
    piece: Option<usize>,
    /// The origin file, if given.
    from_file: Option<u8>,
    /// The origin rank (0 = rank 1), if given.
    from_rank: Option<u8>,
    /// Whether a capture mark was written.
    capture: bool,
    /// The destination.
    to: Square,
    /// The promotion type, if given.
    promotion: Option<usize>,
}

/// Marks that may follow a move and carry no information for finding it:
/// check and mate signs, annotations.
const TRAILING_MARKS: &[char] = &['+', '#', '!', '?'];

impl<B: Bitboard> Position<B> {
    /// The legal move `played` in SAN, with `+` when it gives check and
    /// `#` when it checkmates (the opponent is in check and has no legal
    /// move; a game ended otherwise, e.g. by bare king, gets no `#`).
    /// `played` must be legal here (from [`Position::legal_moves`]), as
    /// for [`Position::make_move`].
    pub fn san(&self, played: Move) -> String {
        let mut text = self.san_without_check(played, &self.legal_moves());
        let mut after = self.clone();
        after.make_move(played);
        if after.in_check() {
            text.push(if after.count_legal_moves() == 0 {
                '#'
            } else {
                '+'
            });
        }
        text
    }

    /// The SAN of `played` without the check sign; `legal` holds every
    /// legal move of the position (for disambiguation).
    fn san_without_check(&self, played: Move, legal: &[Move]) -> String {
        let game = self.game();
        if played.kind() == MoveKind::Castling {
            return game
                .variant
                .castlings
                .get(usize::from(played.extra()))
                .map_or_else(|| self.uci(played), |castling| castling.san.clone());
        }
        let geometry = &game.geometry;
        let from = Square::new(played.from());
        let to = Square::new(played.to());
        let Some(piece) = self.piece_at(from) else {
            return self.uci(played);
        };
        let piece_type = piece.piece_type();
        let pawn = game.is_pawn(piece_type);
        let capture = played.kind() == MoveKind::EnPassant || self.piece_at(to).is_some();
        let rivals: Vec<Square> = legal
            .iter()
            .filter(|m| m.from() != played.from() && self.same_destination(**m, played))
            .map(|m| Square::new(m.from()))
            .collect();

        let mut text = String::new();
        if !pawn {
            text.push(game.variant.pieces[piece_type].letter);
        }
        let file_name = char::from(b'a' + geometry.file_of(from));
        let rank_name = (geometry.rank_of(from) + 1).to_string();
        let same_file = rivals
            .iter()
            .any(|&r| geometry.file_of(r) == geometry.file_of(from));
        let same_rank = rivals
            .iter()
            .any(|&r| geometry.rank_of(r) == geometry.rank_of(from));
        // A pawn capture always names its file; past that, the shortest
        // of file, rank and square that singles the piece out.
        let file_required = pawn && capture;
        if !rivals.is_empty() || file_required {
            if !same_file {
                text.push(file_name);
            } else if !same_rank && !file_required {
                text.push_str(&rank_name);
            } else {
                text.push(file_name);
                text.push_str(&rank_name);
            }
        }
        if capture {
            text.push('x');
        }
        text.push_str(&geometry.square_name(to));
        if played.kind() == MoveKind::Promotion {
            text.push('=');
            text.push(game.variant.pieces[usize::from(played.extra())].letter);
        }
        text
    }

    /// Whether `other` is told apart from `played` only by its origin: a
    /// non-castling move of the same piece type to the same square with
    /// the same promotion.
    fn same_destination(&self, other: Move, played: Move) -> bool {
        let type_at = |m: Move| self.piece_at(Square::new(m.from())).map(|p| p.piece_type());
        other.kind() != MoveKind::Castling
            && other.to() == played.to()
            && type_at(other) == type_at(played)
            && promotion_of(other) == promotion_of(played)
    }

    /// The legal move written `text` in SAN. Accepted besides what
    /// [`Position::san`] writes: missing or extra `+`/`#`, annotations
    /// (`!`, `?`), a missing `x`, an `e.p.` suffix, `0-0` for `O-O`, a
    /// `-` between origin and destination, more disambiguation than
    /// needed, an explicit pawn letter, and a promotion without `=`
    /// (`e8Q`). Text that fits no legal move, or more than one, is an
    /// error saying so.
    pub fn parse_san(&self, text: &str) -> Result<Move, SanError> {
        let error = |message: String| SanError {
            text: text.to_string(),
            message,
        };
        let core = text.trim().trim_end_matches(TRAILING_MARKS);
        let core = core.strip_suffix("e.p.").unwrap_or(core).trim_end();
        let core = core.trim_end_matches(TRAILING_MARKS);
        if core.is_empty() {
            return Err(error("there is no move in it".into()));
        }
        let legal = self.legal_moves();
        if core.starts_with("O-O") || core.starts_with("0-0") {
            return self.parse_castling(core, &legal).map_err(error);
        }
        let readings = self.san_readings(core).map_err(error)?;
        let mut found: Vec<Move> = Vec::new();
        for parts in &readings {
            for &m in &legal {
                if self.fits(m, parts) && !found.contains(&m) {
                    found.push(m);
                }
            }
        }
        match found.as_slice() {
            [only] => Ok(*only),
            [] => Err(error(self.explain_no_match(&readings, &legal))),
            several => {
                let names: Vec<String> = several
                    .iter()
                    .map(|&m| self.san_without_check(m, &legal))
                    .collect();
                Err(error(format!(
                    "it is ambiguous: it could be {}",
                    names.join(" or ")
                )))
            }
        }
    }

    /// The legal castling written `text` (`0` read as `O`).
    fn parse_castling(&self, text: &str, legal: &[Move]) -> Result<Move, String> {
        let written = text.replace('0', "O");
        let castlings = &self.game().variant.castlings;
        let named = |m: &Move| {
            castlings
                .get(usize::from(m.extra()))
                .is_some_and(|c| c.san == written)
        };
        if let Some(found) = legal
            .iter()
            .find(|m| m.kind() == MoveKind::Castling && named(m))
        {
            return Ok(*found);
        }
        if castlings.iter().any(|c| c.san == written) {
            Err(format!("{written} is not legal in this position"))
        } else {
            let known: Vec<&str> = castlings.iter().map(|c| c.san.as_str()).collect();
            Err(format!(
                "{written} is not a castling of {} (it has: {})",
                self.game().variant.name,
                if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                }
            ))
        }
    }

    /// The ways to read a non-castling SAN text (with the trailing marks
    /// gone). There are two only on boards of 24 or more files, where an
    /// `x` before the destination may be the capture mark or file `x`.
    fn san_readings(&self, text: &str) -> Result<Vec<SanParts>, String> {
        let game = self.game();
        let variant = &game.variant;
        let geometry = &game.geometry;
        let mut rest = text;
        let mut piece = None;
        if let Some(letter) = rest.chars().next().filter(char::is_ascii_uppercase) {
            let piece_type = variant
                .type_of_letter(letter)
                .ok_or_else(|| format!("'{letter}' is not a piece letter of {}", variant.name))?;
            if !game.is_pawn(piece_type) {
                piece = Some(piece_type);
            }
            rest = &rest[1..];
        }
        let mut promotion = None;
        let promotion_letter = match rest.rsplit_once('=') {
            Some((before, after)) => {
                let mut letters = after.chars();
                match (letters.next(), letters.next()) {
                    (Some(letter), None) => {
                        rest = before;
                        Some(letter.to_ascii_uppercase())
                    }
                    _ => return Err(format!("'={after}' is not a promotion to one piece")),
                }
            }
            None => match rest.strip_suffix(|c: char| c.is_ascii_uppercase()) {
                Some(before) => {
                    let letter = rest.chars().last();
                    rest = before;
                    letter
                }
                None => None,
            },
        };
        if let Some(letter) = promotion_letter {
            promotion =
                Some(variant.type_of_letter(letter).ok_or_else(|| {
                    format!("'{letter}' is not a piece letter of {}", variant.name)
                })?);
        }
        let digits = rest.bytes().rev().take_while(u8::is_ascii_digit).count();
        let to = rest
            .len()
            .checked_sub(digits + 1)
            .filter(|_| digits > 0)
            .and_then(|start| Some((start, geometry.parse_square(rest.get(start..)?)?)));
        let Some((start, to)) = to else {
            return Err(format!(
                "it does not end with a square of the {}x{} board",
                geometry.files(),
                geometry.ranks()
            ));
        };
        let prefix = rest[..start].strip_suffix('-').unwrap_or(&rest[..start]);
        let mut readings = Vec::new();
        let mut origins = Vec::new();
        if let Some(before) = prefix.strip_suffix(['x', ':']) {
            origins.push((before, true));
        }
        origins.push((prefix, false));
        let mut problem = None;
        for (origin, capture) in origins {
            match self.parse_origin(origin) {
                Ok((from_file, from_rank)) => readings.push(SanParts {
                    piece,
                    from_file,
                    from_rank,
                    capture,
                    to,
                    promotion,
                }),
                Err(message) => problem = problem.or(Some(message)),
            }
        }
        match (readings.is_empty(), problem) {
            (true, Some(message)) => Err(message),
            _ => Ok(readings),
        }
    }

    /// The origin file and rank written before the destination (either,
    /// both or neither).
    fn parse_origin(&self, text: &str) -> Result<(Option<u8>, Option<u8>), String> {
        let geometry = &self.game().geometry;
        let bad = || format!("'{text}' before the destination is not a file, a rank or a square");
        let mut file = None;
        let mut digits = text;
        if let Some(letter) = text.bytes().next().filter(u8::is_ascii_lowercase) {
            let index = letter - b'a';
            if index >= geometry.files() {
                return Err(bad());
            }
            file = Some(index);
            digits = &text[1..];
        }
        if digits.is_empty() {
            return Ok((file, None));
        }
        match digits.parse::<u8>() {
            Ok(rank)
                if digits.bytes().all(|b| b.is_ascii_digit())
                    && !digits.starts_with('0')
                    && (1..=geometry.ranks()).contains(&rank) =>
            {
                Ok((file, Some(rank - 1)))
            }
            _ => Err(bad()),
        }
    }

    /// Whether the legal move `m` is one that `parts` describes.
    fn fits(&self, m: Move, parts: &SanParts) -> bool {
        let game = self.game();
        let geometry = &game.geometry;
        let from = Square::new(m.from());
        let Some(piece) = self.piece_at(from) else {
            return false;
        };
        let piece_fits = match parts.piece {
            Some(piece_type) => piece.piece_type() == piece_type,
            None => game.is_pawn(piece.piece_type()),
        };
        let capture =
            m.kind() == MoveKind::EnPassant || self.piece_at(Square::new(m.to())).is_some();
        m.kind() != MoveKind::Castling
            && piece_fits
            && m.to() == parts.to.byte()
            && promotion_of(m) == parts.promotion
            && parts
                .from_file
                .is_none_or(|file| geometry.file_of(from) == file)
            && parts
                .from_rank
                .is_none_or(|rank| geometry.rank_of(from) == rank)
            && (capture || !parts.capture)
    }

    /// Why no legal move fits `readings` (which are never empty).
    fn explain_no_match(&self, readings: &[SanParts], legal: &[Move]) -> String {
        let game = self.game();
        let parts = &readings[0];
        let promotes = legal.iter().any(|&m| {
            let promotion = promotion_of(m);
            promotion.is_some()
                && readings
                    .iter()
                    .any(|p| self.fits(m, &SanParts { promotion, ..*p }))
        });
        if parts.promotion.is_none() && promotes {
            return "the promotion piece is missing (e.g. '=Q' with a piece letter of the variant)"
                .into();
        }
        let mover = match parts.piece {
            Some(piece_type) => game.variant.pieces[piece_type].name.as_str(),
            None => "pawn",
        };
        format!(
            "no {mover} of the side to move can go to {} as written",
            game.geometry.square_name(parts.to)
        )
    }
}

/// The promotion type of a move, if it is a promotion.
fn promotion_of(m: Move) -> Option<usize> {
    (m.kind() == MoveKind::Promotion).then(|| usize::from(m.extra()))
}
