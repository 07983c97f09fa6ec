//! FEN, read and written exactly as docs/RULES.md specifies: placement with
//! multi-digit empty runs, side, first-move rights (file letters, or
//! `KQkq` for chess), en-passant squares (all passed squares), clocks.

use std::sync::Arc;

use crate::board::bitboard::Bitboard;
use crate::position::game::Game;
use crate::position::state::{Position, PositionParts};
use crate::types::{Color, Piece, Square, MAX_SQUARES};
use crate::variant::placement::{fail, parse_placement, FenError, FenField};
use crate::variant::spec::RightsNotation;

impl<B: Bitboard> Position<B> {
    /// The variant's start position.
    pub fn startpos(game: Arc<Game<B>>) -> Position<B> {
        let start = game.variant.start.clone();
        // The start FEN was read when the variant was loaded.
        Position::from_fen(game, &start)
            .unwrap_or_else(|error| unreachable!("start FEN checked at load: {error}"))
    }

    /// Reads a FEN. Four fields (no clocks) are accepted as `0 1`.
    ///
    /// ```
    /// use kurier_engine::position::any_game::AnyGame;
    /// use kurier_engine::position::state::Position;
    /// let AnyGame::Narrow(game) = AnyGame::built_in("courier-moderno").unwrap() else { unreachable!() };
    /// let fen = "rnebwfkmbenr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RNEBMKFWBENR w ACFJLacgjl - 0 1";
    /// let position = Position::from_fen(game.clone(), fen).unwrap();
    /// assert_eq!(position.fen(), fen);
    /// let error = Position::from_fen(game, "rnebwfkmbenr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RNEBMKFWBENR w ACFXLacgjl - 0 1").unwrap_err();
    /// assert!(error.to_string().contains("rights"));
    /// ```
    pub fn from_fen(game: Arc<Game<B>>, fen: &str) -> Result<Position<B>, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.len() != 6 && fields.len() != 4 {
            return fail(
                FenField::Fields,
                format!(
                    "{} fields given; a FEN has 6 (or 4 without the clocks)",
                    fields.len()
                ),
            );
        }
        let variant = &game.variant;
        let geometry = &game.geometry;
        let placement = parse_placement(variant, fields[0])?;
        let mut board = [0xFFu8; MAX_SQUARES];
        for (index, entry) in placement.iter().enumerate() {
            if let Some((color, piece_type)) = *entry {
                board[index] = Piece::new(color, piece_type).code();
            }
        }
        let piece_at = |square: Square| placement[square.index()];
        for color in Color::BOTH {
            let kings = placement
                .iter()
                .filter(|e| **e == Some((color, game.king)))
                .count();
            if kings != 1 {
                return fail(
                    FenField::Placement,
                    format!("{color} has {kings} kings; exactly one is needed"),
                );
            }
        }
        for (index, entry) in placement.iter().enumerate() {
            if let Some((color, piece_type)) = *entry {
                let square = Square::new(index as u8);
                if game.is_pawn(piece_type) && game.promotion_zone[color.index()].has(square) {
                    return fail(
                        FenField::Placement,
                        format!(
                            "the {color} pawn on {} stands where it must have promoted",
                            geometry.square_name(square)
                        ),
                    );
                }
            }
        }

        let side = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return fail(FenField::Side, format!("'{other}' is neither 'w' nor 'b'")),
        };

        let unmoved = parse_rights(&game, fields[2], &piece_at)?;
        let (en_passant, en_passant_victim) = parse_en_passant(&game, fields[3], side, &piece_at)?;

        let (halfmove, fullmove) = if fields.len() == 6 {
            let halfmove: u32 = fields[4].parse().map_err(|_| FenError {
                field: FenField::Halfmove,
                message: format!("'{}' is not a whole number", fields[4]),
            })?;
            let fullmove: u32 = match fields[5].parse() {
                Ok(n) if n >= 1 => n,
                _ => {
                    return fail(
                        FenField::Fullmove,
                        format!("'{}' is not a number from 1 up", fields[5]),
                    )
                }
            };
            (halfmove, fullmove)
        } else {
            (0, 1)
        };

        let position = Position::from_parts(
            game.clone(),
            PositionParts {
                board,
                side,
                unmoved,
                en_passant,
                en_passant_victim,
                halfmove,
                fullmove,
            },
        );
        let waiting = side.flip();
        let king = position.king_square(waiting);
        if position.attackers(king, side, position.occupied()).any() {
            return fail(
                FenField::Side,
                format!(
                    "{waiting} is not to move but its king on {} is attacked",
                    geometry.square_name(king)
                ),
            );
        }
        Ok(position)
    }

    /// Writes the position as FEN.
    pub fn fen(&self) -> String {
        let game = self.game();
        let geometry = &game.geometry;
        let variant = &game.variant;
        let mut fen = String::new();
        for rank in (0..geometry.ranks()).rev() {
            let mut empty = 0;
            for file in 0..geometry.files() {
                let square = Square::new(rank * geometry.files() + file);
                match self.piece_at(square) {
                    None => empty += 1,
                    Some(piece) => {
                        if empty > 0 {
                            fen.push_str(&empty.to_string());
                            empty = 0;
                        }
                        let letter = variant.pieces[piece.piece_type()].letter;
                        fen.push(match piece.color() {
                            Color::White => letter,
                            Color::Black => letter.to_ascii_lowercase(),
                        });
                    }
                }
            }
            if empty > 0 {
                fen.push_str(&empty.to_string());
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        fen.push(' ');
        fen.push(self.side_to_move().fen_char());
        fen.push(' ');
        fen.push_str(&rights_text(game, self.unmoved()));
        fen.push(' ');
        let passed = self.en_passant_squares();
        if passed.is_empty() {
            fen.push('-');
        } else {
            // In the order the pawn passed them: up for White, down for Black.
            let mut squares: Vec<Square> = passed.squares().collect();
            if self.side_to_move() == Color::White {
                squares.reverse();
            }
            for square in squares {
                fen.push_str(&geometry.square_name(square));
            }
        }
        fen.push_str(&format!(
            " {} {}",
            self.halfmove_clock(),
            self.fullmove_number()
        ));
        fen
    }
}

/// The rights field for `unmoved`.
fn rights_text<B: Bitboard>(game: &Game<B>, unmoved: B) -> String {
    let geometry = &game.geometry;
    let mut text = String::new();
    match game.variant.rights_notation {
        RightsNotation::Kq => {
            for color in Color::BOTH {
                let mut letters: Vec<(bool, char)> = Vec::new();
                for rule in game.castlings.iter().filter(|r| r.color == color) {
                    let pair = B::square(rule.king_from) | B::square(rule.partner_from);
                    if (unmoved & pair) == pair {
                        let king_side = rule.partner_from > rule.king_from;
                        letters.push((!king_side, if king_side { 'K' } else { 'Q' }));
                    }
                }
                letters.sort();
                for (_, letter) in letters {
                    text.push(match color {
                        Color::White => letter,
                        Color::Black => letter.to_ascii_lowercase(),
                    });
                }
            }
        }
        RightsNotation::Files => {
            for color in Color::BOTH {
                for square in unmoved.squares() {
                    let holder = game.right_holders.iter().find(|h| h.square == square);
                    if holder.map(|h| h.color) == Some(color) {
                        let letter = char::from(b'a' + geometry.file_of(square));
                        text.push(match color {
                            Color::White => letter.to_ascii_uppercase(),
                            Color::Black => letter,
                        });
                    }
                }
            }
        }
    }
    if text.is_empty() {
        text.push('-');
    }
    text
}

fn parse_rights<B: Bitboard>(
    game: &Game<B>,
    text: &str,
    piece_at: &dyn Fn(Square) -> Option<(Color, usize)>,
) -> Result<B, FenError> {
    if text == "-" {
        return Ok(B::EMPTY);
    }
    let geometry = &game.geometry;
    let name = &game.variant.name;
    if game.right_holders.is_empty() {
        return fail(
            FenField::Rights,
            format!("'{text}': {name} has no first-move rights; write '-'"),
        );
    }
    let mut unmoved = B::EMPTY;
    for letter in text.chars() {
        let color = if letter.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let back_rank = match color {
            Color::White => 0,
            Color::Black => geometry.ranks() - 1,
        };
        let squares: Vec<Square> =
            match letter.to_ascii_uppercase() {
                side @ ('K' | 'Q') if game.variant.rights_notation == RightsNotation::Kq => {
                    let Some(rule) = game.castlings.iter().find(|r| {
                        r.color == color && (r.partner_from > r.king_from) == (side == 'K')
                    }) else {
                        return fail(
                            FenField::Rights,
                            format!("'{letter}': {color} has no such castling in {name}"),
                        );
                    };
                    vec![rule.king_from, rule.partner_from]
                }
                file @ 'A'..='Z' if (file as u8 - b'A') < geometry.files() => {
                    let square = Square::new(back_rank * geometry.files() + (file as u8 - b'A'));
                    vec![square]
                }
                _ => {
                    return fail(
                        FenField::Rights,
                        format!("'{letter}' is not a file of the board"),
                    )
                }
            };
        for square in squares {
            let square_name = geometry.square_name(square);
            let Some(holder) = game
                .right_holders
                .iter()
                .find(|h| h.square == square && h.color == color)
            else {
                return fail(FenField::Rights, format!("'{letter}': no {color} piece can hold a first-move right on {square_name} in {name}"));
            };
            let expected = &game.variant.pieces[holder.piece_type].name;
            if piece_at(square) != Some((color, holder.piece_type)) {
                return fail(FenField::Rights, format!("'{letter}': the right needs a {color} {expected} on {square_name}, and there is none"));
            }
            if unmoved.has(square) && game.variant.rights_notation == RightsNotation::Files {
                return fail(FenField::Rights, format!("'{letter}' is given twice"));
            }
            unmoved |= B::square(square);
        }
    }
    Ok(game.canonical_rights(unmoved))
}

fn parse_en_passant<B: Bitboard>(
    game: &Game<B>,
    text: &str,
    side: Color,
    piece_at: &dyn Fn(Square) -> Option<(Color, usize)>,
) -> Result<(B, Option<Square>), FenError> {
    if text == "-" {
        return Ok((B::EMPTY, None));
    }
    let geometry = &game.geometry;
    let mover = side.flip();
    let mut squares = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let Some((square, after)) = geometry.parse_square_prefix(rest) else {
            return fail(
                FenField::EnPassant,
                format!("'{text}' is not '-' or a run of square names such as e3 or e4e5"),
            );
        };
        squares.push(square);
        rest = after;
    }
    // Order as the pawn passed them.
    squares.sort_by_key(|&s| geometry.relative_rank(s, mover));
    squares.dedup();
    let forward: i32 = match mover {
        Color::White => 1,
        Color::Black => -1,
    };
    let first = squares[0];
    let last = squares[squares.len() - 1];
    let contiguous = squares
        .windows(2)
        .all(|pair| geometry.offset(pair[0], 0, forward) == Some(pair[1]));
    let origin = geometry.offset(first, 0, -forward);
    let victim = geometry.offset(last, 0, forward);
    let bad = |why: &str| {
        fail(
            FenField::EnPassant,
            format!("'{text}' does not fit the board: {why}"),
        )
    };
    if !contiguous {
        return bad("the squares must follow each other on one file");
    }
    if squares.iter().any(|&s| piece_at(s).is_some()) {
        return bad("a passed square is occupied");
    }
    let (Some(origin), Some(victim)) = (origin, victim) else {
        return bad("no pawn could have passed these squares");
    };
    let Some((victim_color, victim_type)) = piece_at(victim) else {
        return bad(&format!(
            "no {mover} pawn on {} beyond them",
            geometry.square_name(victim)
        ));
    };
    if victim_color != mover || !game.is_pawn(victim_type) {
        return bad(&format!(
            "no {mover} pawn on {} beyond them",
            geometry.square_name(victim)
        ));
    }
    let steps = game.pawn_steps[victim_type];
    // A first-move multi-step tied to a start rank must have begun there.
    let off_start_rank = steps.initial_only
        && game.initial_ranks[victim_type].is_some_and(|ranks| !ranks[mover.index()].has(origin));
    if piece_at(origin).is_some()
        || off_start_rank
        || squares.len() + 1 > usize::from(steps.longest)
    {
        return bad(&format!(
            "a {mover} pawn cannot have come from {}",
            geometry.square_name(origin)
        ));
    }
    let passed = squares.iter().fold(B::EMPTY, |acc, &s| acc | B::square(s));
    Ok((passed, Some(victim)))
}
