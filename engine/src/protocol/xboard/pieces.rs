//! XBoard's fixed piece types (its piece-to-char table) and the slot each
//! of a variant's piece types takes in it, and the `setup` and `piece`
//! lines that describe a variant's pieces to XBoard in its dialect of
//! Betza's notation (XBetza). The mapping is explained in the
//! [`xboard`](super) module's documentation.

use std::sync::Arc;

use crate::board::bitboard::Bitboard;
use crate::position::game::Game;
use crate::position::state::Position;
use crate::types::{Color, Square};
use crate::variant::betza::{self, Motion, MovePart};
use crate::variant::definition::Variant;

/// XBoard's piece types in the order of its piece-to-char table: the
/// usual letter and, where Kurier's notation can say it, the moves.
const SLOTS: [(char, Option<&str>); 22] = [
    ('P', None),
    ('N', Some("N")),
    ('B', Some("B")),
    ('R', Some("R")),
    ('Q', Some("Q")),
    ('F', Some("F")),
    ('E', Some("A")),
    ('A', Some("BN")),
    ('C', Some("RN")),
    ('W', Some("W")),
    ('M', Some("K")),
    ('O', None),
    ('H', None),
    ('I', Some("BW")),
    ('J', Some("RF")),
    ('G', None),
    ('D', Some("FfW")),
    ('V', None),
    ('L', Some("fR")),
    ('S', None),
    ('U', None),
    ('K', Some("K")),
];
const PAWN_SLOT: usize = 0;
const KING_SLOT: usize = SLOTS.len() - 1;

/// A comparable form of a move description.
fn move_key(parts: &[MovePart]) -> Vec<String> {
    let mut keys: Vec<String> = parts
        .iter()
        .map(|part| {
            let mut steps = part.steps.clone();
            steps.sort_unstable();
            format!(
                "{:?} {steps:?} {} {} {}",
                part.motion, part.quiet, part.capture, part.initial
            )
        })
        .collect();
    keys.sort();
    keys.dedup();
    keys
}

/// Which of a piece's steps go: (orthogonal, diagonal, other).
fn directions(parts: &[MovePart]) -> (bool, bool, bool) {
    let mut kinds = (false, false, false);
    for part in parts {
        for &(dx, dy) in &part.steps {
            if dx == 0 || dy == 0 {
                kinds.0 = true;
            } else if dx.abs() == dy.abs() {
                kinds.1 = true;
            } else {
                kinds.2 = true;
            }
        }
        if part.motion == Motion::BentSlide {
            kinds.2 = true;
        }
    }
    kinds
}

/// The XBoard slot of each piece type of `variant` (index into XBoard's
/// piece-to-char table);
/// see the module documentation.
pub fn piece_slots(variant: &Variant) -> Vec<usize> {
    let count = variant.pieces.len();
    let mut slot_of: Vec<Option<usize>> = vec![None; count];
    let mut taken = [false; SLOTS.len()];
    fn take(slot_of: &mut [Option<usize>], taken: &mut [bool], piece: usize, slot: usize) {
        slot_of[piece] = Some(slot);
        taken[slot] = true;
    }
    for (index, piece) in variant.pieces.iter().enumerate() {
        if piece.royal && !taken[KING_SLOT] {
            take(&mut slot_of, &mut taken, index, KING_SLOT);
        } else if piece.pawn && !taken[PAWN_SLOT] {
            take(&mut slot_of, &mut taken, index, PAWN_SLOT);
        }
    }
    let free_pieces = |slot_of: &[Option<usize>]| -> Vec<usize> {
        (0..count).filter(|&i| slot_of[i].is_none()).collect()
    };
    // Same moves.
    for index in free_pieces(&slot_of) {
        let key = move_key(&variant.pieces[index].parts);
        let found = (1..KING_SLOT).find(|&slot| {
            !taken[slot]
                && SLOTS[slot]
                    .1
                    .and_then(|betza| betza::parse(betza).ok())
                    .is_some_and(|parts| move_key(&parts) == key)
        });
        if let Some(slot) = found {
            take(&mut slot_of, &mut taken, index, slot);
        }
    }
    // Same letter.
    for index in free_pieces(&slot_of) {
        let letter = variant.pieces[index].letter;
        if let Some(slot) = (1..KING_SLOT).find(|&slot| !taken[slot] && SLOTS[slot].0 == letter) {
            take(&mut slot_of, &mut taken, index, slot);
        }
    }
    // A piece moving the same way: wazir-like, ferz-like, or other.
    const ORTHOGONAL: [usize; 3] = [9, 18, 14];
    const DIAGONAL: [usize; 3] = [5, 6, 13];
    const MIXED: [usize; 4] = [10, 20, 7, 8];
    const ANY: [usize; 16] = [5, 9, 6, 10, 16, 18, 13, 14, 7, 8, 17, 19, 20, 12, 15, 11];
    for index in free_pieces(&slot_of) {
        let preferred: &[usize] = match directions(&variant.pieces[index].parts) {
            (true, false, false) => &ORTHOGONAL,
            (false, true, false) => &DIAGONAL,
            _ => &MIXED,
        };
        let slot = preferred
            .iter()
            .chain(ANY.iter())
            .copied()
            .find(|&slot| !taken[slot]);
        if let Some(slot) = slot {
            take(&mut slot_of, &mut taken, index, slot);
        }
    }
    // At most 16 piece types, so every one has found a slot.
    slot_of
        .into_iter()
        .map(|slot| slot.unwrap_or(KING_SLOT))
        .collect()
}

/// XBoard's piece-to-char table for `variant`: white half, black half.
pub fn piece_to_char(variant: &Variant) -> String {
    let mut white = ['.'; SLOTS.len()];
    for (index, slot) in piece_slots(variant).into_iter().enumerate() {
        white[slot] = variant.pieces[index].letter;
    }
    let white: String = white.iter().collect();
    let black = white.to_ascii_lowercase();
    format!("{white}{black}")
}

/// A variant-file move description in XBoard's dialect: limited sliders
/// as `W3`/`F3` (XBoard reads `R3` differently).
pub fn xboard_betza(betza: &str) -> String {
    let bytes = betza.as_bytes();
    let mut out = String::new();
    let mut index = 0;
    while index < bytes.len() {
        let start = index;
        while index < bytes.len() && bytes[index].is_ascii_lowercase() {
            index += 1;
        }
        let modifiers = &betza[start..index];
        let Some(&atom) = bytes.get(index) else {
            out.push_str(modifiers);
            break;
        };
        index += 1;
        let digits = index;
        while index < bytes.len() && bytes[index].is_ascii_digit() {
            index += 1;
        }
        let range = &betza[digits..index];
        let atoms: &[char] = match (atom, range.is_empty()) {
            (b'R', false) => &['W'],
            (b'B', false) => &['F'],
            (b'Q', false) => &['W', 'F'],
            _ => {
                out.push_str(modifiers);
                out.push(char::from(atom));
                out.push_str(range);
                continue;
            }
        };
        for &atom in atoms {
            out.push_str(modifiers);
            out.push(atom);
            out.push_str(range);
        }
    }
    out
}

/// The king's castlings as XBoard `O` moves of an unmoved king (`i`),
/// seen from `color`'s side: `ilO3irO4` = three squares to its left or
/// four to its right.
fn castling_betza<B: Bitboard>(game: &Game<B>, king_start: Square, color: Color) -> String {
    let geometry = &game.geometry;
    let mut moves: Vec<(char, u8)> = game
        .castlings
        .iter()
        .filter(|rule| rule.color == color && rule.king_from == king_start)
        .map(|rule| {
            let from = geometry.file_of(rule.king_from);
            let to = geometry.file_of(rule.king_to);
            // White's left is the a-file side; Black's is the other.
            let toward_a = to < from;
            let side = if toward_a == (color == Color::White) {
                'l'
            } else {
                'r'
            };
            (side, from.abs_diff(to))
        })
        .collect();
    moves.sort_unstable();
    moves.dedup();
    moves
        .iter()
        .map(|(side, steps)| format!("i{side}O{steps}"))
        .collect()
}

/// The `setup` and `piece` commands that describe `game`'s variant to
/// XBoard (sent after `variant NAME`).
pub fn setup_lines<B: Bitboard>(game: &Arc<Game<B>>) -> Vec<String> {
    let variant = &game.variant;
    let start = Position::startpos(Arc::clone(game));
    // The start FEN with XBoard's KQkq castling rights.
    let mut rights = String::new();
    for (color, wings) in [(Color::White, ['K', 'Q']), (Color::Black, ['k', 'q'])] {
        let king = start.king_square(color);
        for (letter, kingside) in [(wings[0], true), (wings[1], false)] {
            let castles = game.castlings.iter().any(|rule| {
                rule.color == color
                    && rule.king_from == king
                    && (rule.partner_from > rule.king_from) == kingside
                    && start.unmoved().has(rule.king_from)
                    && start.unmoved().has(rule.partner_from)
            });
            if castles {
                rights.push(letter);
            }
        }
    }
    if rights.is_empty() {
        rights.push('-');
    }
    let mut fields: Vec<String> = start.fen().split_whitespace().map(String::from).collect();
    if let Some(field) = fields.get_mut(2) {
        *field = rights;
    }
    // XBoard's shatranj judges a bare king (one move to take the last
    // man back, then a loss) and always sees mating material; fairy has
    // chess's rules of the game's end.
    let parent = if variant.bare_king {
        "shatranj"
    } else {
        "fairy"
    };
    let mut lines = vec![format!(
        "setup ({}) {}x{}+0_{parent} {}",
        piece_to_char(variant),
        variant.files,
        variant.ranks,
        fields.join(" ")
    )];
    for (index, piece) in variant.pieces.iter().enumerate() {
        let letter = piece.letter;
        let mut moves = xboard_betza(&piece.betza);
        if piece.pawn && piece.parts.iter().any(|part| part.initial) {
            moves.push_str("feF");
        }
        if index == game.king {
            let white = castling_betza(game, start.king_square(Color::White), Color::White);
            let black = castling_betza(game, start.king_square(Color::Black), Color::Black);
            if white == black {
                lines.push(format!("piece {letter}& {moves}{white}"));
            } else {
                lines.push(format!("piece {letter} {moves}{white}"));
                lines.push(format!(
                    "piece {} {moves}{black}",
                    letter.to_ascii_lowercase()
                ));
            }
        } else {
            lines.push(format!("piece {letter}& {moves}"));
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::any_game::AnyGame;
    use crate::with_game;

    fn table(name: &str) -> String {
        let variant = Variant::built_in(name).unwrap();
        let table = piece_to_char(&variant);
        table[..table.len() / 2].to_string()
    }

    #[test]
    fn piece_tables_are_as_documented() {
        assert_eq!(table("chess"), "PNBRQ................K");
        assert_eq!(table("courier"), "PNBR.FE..WM..........K");
        assert_eq!(table("courier-moderno"), "PNBR.FE..WM..........K");
        assert_eq!(table("enhanced-courier"), "PNCR..E..WM....G.....K");
        assert_eq!(table("excoco"), "PNBRQME.CTG.H...DV.S.K");
        for name in Variant::built_in_names() {
            let variant = Variant::built_in(name).unwrap();
            let full = piece_to_char(&variant);
            // Every piece letter once in each half.
            for piece in &variant.pieces {
                assert_eq!(
                    full.matches(piece.letter).count(),
                    1,
                    "{name} {}",
                    piece.letter
                );
            }
        }
    }

    #[test]
    fn limited_sliders_are_rewritten() {
        assert_eq!(xboard_betza("fmWfcFifmR2"), "fmWfcFifmW2");
        assert_eq!(xboard_betza("Q3"), "W3F3");
        assert_eq!(xboard_betza("B3"), "F3");
        assert_eq!(xboard_betza("FyafsF"), "FyafsF");
        assert_eq!(xboard_betza("FfWifAifD"), "FfWifAifD");
        assert_eq!(xboard_betza("RNB"), "RNB");
    }

    fn setup(name: &str) -> Vec<String> {
        let game = AnyGame::built_in(name).unwrap();
        with_game!(&game, g => setup_lines(g))
    }

    #[test]
    fn setup_describes_the_variant() {
        let moderno = setup("courier-moderno");
        assert_eq!(
            moderno[0],
            "setup (PNBR.FE..WM..........Kpnbr.fe..wm..........k) 12x8+0_shatranj rnebwfkmbenr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RNEBMKFWBENR w KQkq - 0 1"
        );
        assert!(
            moderno.contains(&"piece K& KilO3irO4".to_string()),
            "{moderno:?}"
        );
        assert!(moderno.contains(&"piece E& FfWifAifD".to_string()));
        assert!(moderno.contains(&"piece P& fmWfcFifmW2feF".to_string()));
        let courier = setup("courier");
        assert_eq!(
            courier[0],
            "setup (PNBR.FE..WM..........Kpnbr.fe..wm..........k) 12x8+0_shatranj rnebmk1wbenr/1ppppp1pppp1/6f5/p5p4p/P5P4P/6F5/1PPPPP1PPPP1/RNEBMK1WBENR w - - 0 1"
        );
        assert!(courier.contains(&"piece P& fmWfcF".to_string()));
        assert!(courier.contains(&"piece K& K".to_string()));
        let excoco = setup("excoco");
        assert!(excoco[0].contains("18x10+0_fairy"));
        assert!(
            excoco.contains(&"piece K KilO5irO6".to_string()),
            "{excoco:?}"
        );
        assert!(excoco.contains(&"piece k KilO6irO5".to_string()));
        assert!(excoco.contains(&"piece D& W3F3".to_string()));
        assert!(excoco.contains(&"piece P& fmWfcFifmW3feF".to_string()));
        let enhanced = setup("enhanced-courier");
        assert!(enhanced[0].contains(" 12x8+0_shatranj "), "{enhanced:?}");
        assert!(enhanced.contains(&"piece G& FyafsF".to_string()));
    }
}
