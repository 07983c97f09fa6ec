//! FENs as XBoard writes them, translated to Kurier's: the rights and
//! en-passant fields it leaves out put back, and its `KQkq` rights
//! written with the variant's file letters.

use std::sync::Arc;

use crate::board::bitboard::Bitboard;
use crate::position::game::Game;
use crate::position::state::Position;
use crate::types::{Color, Piece, Square};

/// `fen` with the fields XBoard leaves out put back: under its shatranj
/// rules XBoard writes neither rights nor en passant
/// (`placement side halfmove fullmove`), and elsewhere no rights field
/// where it keeps no castling rights. It then lets every piece on its
/// start square make its first move (castle, leap), so a missing rights
/// field becomes `KQkq` (for [`translate_kq_rights`]: every first-move
/// piece on its start square keeps its right); a missing en-passant
/// field becomes `-`. A field with a digit in it is an en-passant field,
/// any other a rights field. `None` if no field is missing (or the FEN
/// does not end in its two move counters).
pub fn complete_fen_fields(fen: &str) -> Option<String> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let counters_at = fields.len().checked_sub(2)?;
    let (head, counters) = fields.split_at(counters_at);
    if counters
        .iter()
        .any(|counter| counter.parse::<u32>().is_err())
    {
        return None;
    }
    let (placement_and_side, middle) = head.split_at(head.len().min(2));
    let (rights, en_passant) = match middle {
        [] => ("KQkq", "-"),
        [one] if one.contains(|c: char| c.is_ascii_digit()) => ("KQkq", *one),
        [one] => (*one, "-"),
        _ => return None,
    };
    let mut completed = placement_and_side.to_vec();
    completed.extend([rights, en_passant]);
    completed.extend(counters);
    Some(completed.join(" "))
}

/// A FEN whose rights field is XBoard's `KQkq`, rewritten with the
/// variant's file letters; `None` if the FEN is not of that kind.
pub fn translate_kq_rights<B: Bitboard>(game: &Arc<Game<B>>, fen: &str) -> Option<String> {
    let mut fields: Vec<&str> = fen.split_whitespace().collect();
    let rights = *fields.get(2)?;
    if rights.is_empty() || !rights.chars().all(|c| "KQkq".contains(c)) {
        return None;
    }
    fields[2] = "-";
    let board = Position::from_fen(Arc::clone(game), &fields.join(" ")).ok()?;
    let start = Position::startpos(Arc::clone(game));
    let geometry = &game.geometry;
    let mut granted: Vec<Square> = Vec::new();
    for holder in &game.right_holders {
        if board.piece_at(holder.square) != Some(Piece::new(holder.color, holder.piece_type)) {
            continue;
        }
        let king = start.king_square(holder.color);
        let castles = game.castlings.iter().any(|r| {
            r.color == holder.color
                && (r.king_from == holder.square || r.partner_from == holder.square)
        });
        let wing_given = |kingside: bool| {
            let letter = match (holder.color, kingside) {
                (Color::White, true) => 'K',
                (Color::White, false) => 'Q',
                (Color::Black, true) => 'k',
                (Color::Black, false) => 'q',
            };
            rights.contains(letter)
        };
        let grant = if !castles {
            true
        } else if holder.piece_type == game.king {
            holder.square == king && (wing_given(true) || wing_given(false))
        } else {
            wing_given(geometry.file_of(holder.square) > geometry.file_of(king))
        };
        if grant {
            granted.push(holder.square);
        }
    }
    let mut letters: Vec<(Color, u8)> = granted
        .iter()
        .map(|&square| {
            let color = if geometry.rank_of(square) == 0 {
                Color::White
            } else {
                Color::Black
            };
            (color, geometry.file_of(square))
        })
        .collect();
    letters.sort_by_key(|&(color, file)| (color.index(), file));
    letters.dedup();
    let text: String = letters
        .iter()
        .map(|&(color, file)| {
            let letter = char::from(b'A' + file);
            match color {
                Color::White => letter,
                Color::Black => letter.to_ascii_lowercase(),
            }
        })
        .collect();
    let text = if text.is_empty() {
        "-".to_string()
    } else {
        text
    };
    fields[2] = &text;
    Some(fields.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::any_game::AnyGame;

    #[test]
    fn fields_xboard_leaves_out_are_put_back() {
        // Shatranj rules: neither rights nor en passant.
        assert_eq!(
            complete_fen_fields("12/12/12/12/12/12/12/5K6 w 0 1").as_deref(),
            Some("12/12/12/12/12/12/12/5K6 w KQkq - 0 1")
        );
        // No rights field, an en-passant square.
        assert_eq!(
            complete_fen_fields("8/8/8/3pP3/8/8/8/4K2k w d6 0 3").as_deref(),
            Some("8/8/8/3pP3/8/8/8/4K2k w KQkq d6 0 3")
        );
        // No en-passant field.
        assert_eq!(
            complete_fen_fields("8/8/8/8/8/8/8/R3K2k w Q 4 9").as_deref(),
            Some("8/8/8/8/8/8/8/R3K2k w Q - 4 9")
        );
        // Complete or broken FENs are left alone.
        assert_eq!(complete_fen_fields("8/8/8/8/8/8/8/R3K2k w Q - 4 9"), None);
        assert_eq!(complete_fen_fields("8/8/8/8/8/8/8/R3K2k w Q -"), None);
        assert_eq!(complete_fen_fields("x"), None);
    }

    #[test]
    fn kq_rights_are_translated() {
        let game = AnyGame::built_in("courier-moderno").unwrap();
        let AnyGame::Narrow(game) = game else {
            unreachable!()
        };
        let start = "rnebwfkmbenr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RNEBMKFWBENR w KQkq - 0 1";
        assert_eq!(
            translate_kq_rights(&game, start).unwrap(),
            "rnebwfkmbenr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RNEBMKFWBENR w ACFJLacgjl - 0 1"
        );
        // White's a-side rook has moved: no Q, but the elephant keeps its right.
        let partial = "rnebwfkmbenr/pppppppppppp/12/12/12/12/1PPPPPPPPPPP/1NEBMKFWBENR w Kk - 0 1";
        let translated = translate_kq_rights(&game, partial).unwrap();
        assert!(translated.contains(" w CFJLcgjl - "), "{translated}");
        assert!(Position::from_fen(Arc::clone(&game), &translated).is_ok());
        assert_eq!(translate_kq_rights(&game, "bad"), None);
        let AnyGame::Wide(excoco) = AnyGame::built_in("excoco").unwrap() else {
            unreachable!()
        };
        let start = Position::startpos(Arc::clone(&excoco)).fen();
        let kq = start.replace("ACIPRacipr", "KQkq");
        assert_eq!(translate_kq_rights(&excoco, &kq).unwrap(), start);
    }
}
