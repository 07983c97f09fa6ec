//! Positions and moves as the page receives them: the board as one
//! letter per square, the king in check, the legal moves of the side to
//! move, and scores from White's side.

use kurier_engine::board::bitboard::Bitboard;
use kurier_engine::position::state::Position;
use kurier_engine::types::{Color, Square};
use kurier_engine::types::{Move, MoveKind};
use kurier_tuner::records::game_record::MoveScore;
use serde::{Deserialize, Serialize};

/// A side, as JSON writes it (`"white"`, `"black"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// White.
    White,
    /// Black.
    Black,
}

impl From<Color> for Side {
    fn from(color: Color) -> Side {
        match color {
            Color::White => Side::White,
            Color::Black => Side::Black,
        }
    }
}

impl From<Side> for Color {
    fn from(side: Side) -> Color {
        match side {
            Side::White => Color::White,
            Side::Black => Color::Black,
        }
    }
}

/// A position for the page.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Snapshot {
    /// One character per square, rank 1 first, each rank from file a:
    /// the piece letter (upper case White, lower case Black) or `.`.
    pub board: String,
    /// The square of the king of the side to move when it is in check.
    pub check: Option<String>,
    /// The side to move.
    pub side_to_move: Side,
    /// The position's FEN.
    pub fen: String,
}

impl Snapshot {
    /// The snapshot of `position`.
    pub fn of<B: Bitboard>(position: &Position<B>) -> Snapshot {
        let game = position.game();
        let squares = game.geometry.squares();
        let board = (0..squares)
            .map(|index| match position.piece_at(Square::new(index as u8)) {
                None => '.',
                Some(piece) => {
                    let letter = game.variant.pieces[piece.piece_type()].letter;
                    match piece.color() {
                        Color::White => letter.to_ascii_uppercase(),
                        Color::Black => letter.to_ascii_lowercase(),
                    }
                }
            })
            .collect();
        let side = position.side_to_move();
        Snapshot {
            board,
            check: position
                .in_check()
                .then(|| game.geometry.square_name(position.king_square(side))),
            side_to_move: side.into(),
            fen: position.fen(),
        }
    }
}

/// A move that was played, with what its mover reported.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayedMove {
    /// SAN, e.g. `Nf3`.
    pub san: String,
    /// UCI notation, e.g. `g1f3`.
    pub uci: String,
    /// The square the piece left (the king's, for castling).
    pub from: String,
    /// The square it reached.
    pub to: String,
    /// The mover's score, from White's side.
    pub score: Option<MoveScore>,
    /// The depth searched (0 if unknown).
    pub depth: u32,
    /// The move's time in milliseconds (0 if unknown).
    pub ms: u64,
}

impl PlayedMove {
    /// `played` in `position` (before it is made), with its mover's
    /// report; `played` must be legal there.
    pub fn new<B: Bitboard>(
        position: &Position<B>,
        played: Move,
        score: Option<MoveScore>,
        depth: u32,
        ms: u64,
    ) -> PlayedMove {
        let (from, to) = squares_of(position, played);
        PlayedMove {
            san: position.san(played),
            uci: position.uci(played),
            from,
            to,
            score: score.map(|s| for_white(s, position.side_to_move())),
            depth,
            ms,
        }
    }
}

/// A legal move of the side to move, for the page's highlights.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LegalMove {
    /// From square.
    pub from: String,
    /// To square.
    pub to: String,
    /// UCI notation, which the page sends back to play it.
    pub uci: String,
    /// The letter of the piece a promotion makes.
    pub promotion: Option<char>,
}

/// Every legal move in `position`, from the engine's move generator.
pub fn legal_moves<B: Bitboard>(position: &Position<B>) -> Vec<LegalMove> {
    let pieces = &position.game().variant.pieces;
    position
        .legal_moves()
        .into_iter()
        .map(|m| {
            let (from, to) = squares_of(position, m);
            LegalMove {
                from,
                to,
                uci: position.uci(m),
                promotion: (m.kind() == MoveKind::Promotion)
                    .then(|| pieces[usize::from(m.extra())].letter),
            }
        })
        .collect()
}

fn squares_of<B: Bitboard>(position: &Position<B>, played: Move) -> (String, String) {
    let geometry = &position.game().geometry;
    (
        geometry.square_name(Square::new(played.from())),
        geometry.square_name(Square::new(played.to())),
    )
}

/// `score` of `mover`'s side turned to White's side.
pub fn for_white(score: MoveScore, mover: Color) -> MoveScore {
    match (mover, score) {
        (Color::White, _) => score,
        (Color::Black, MoveScore::Cp(cp)) => MoveScore::Cp(-cp),
        (Color::Black, MoveScore::Mate(moves)) => MoveScore::Mate(-moves),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kurier_engine::position::any_game::AnyGame;

    #[test]
    fn a_snapshot_writes_every_square_rank_one_first() {
        let AnyGame::Narrow(chess) = AnyGame::built_in("chess").unwrap() else {
            unreachable!("chess is 8x8")
        };
        // Fool's mate: 1. f3 e5 2. g4 Qh4#.
        let position = Position::from_fen(
            chess,
            "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
        )
        .unwrap();
        let snapshot = Snapshot::of(&position);
        let expected = [
            "RNBQKBNR", "PPPPP..P", ".....P..", "......Pq", "....p...", "........", "pppp.ppp",
            "rnb.kbnr",
        ]
        .concat();
        assert_eq!(snapshot.board, expected);
        assert_eq!(snapshot.check.as_deref(), Some("e1"));
        assert_eq!(snapshot.side_to_move, Side::White);
        assert!(legal_moves(&position).is_empty());
    }

    #[test]
    fn wide_boards_and_promotions_are_described() {
        let AnyGame::Wide(excoco) = AnyGame::built_in("excoco").unwrap() else {
            unreachable!("excoco is 18x10")
        };
        let position = Position::startpos(excoco);
        let snapshot = Snapshot::of(&position);
        assert_eq!(snapshot.board.len(), 180);
        assert_eq!(&snapshot.board[..18], "TDRBCHGVKQVGHCBRDT");
        assert_eq!(&snapshot.board[18..36], "..M.N.ES..SE.N.M..");
        assert_eq!(snapshot.check, None);
        // The knight on e2: d4 and f4; c3 and g3 hold pawns, c1 and g1
        // White's own pieces.
        let mut knight: Vec<String> = legal_moves(&position)
            .into_iter()
            .filter(|m| m.from == "e2")
            .map(|m| m.to)
            .collect();
        knight.sort();
        assert_eq!(knight, ["d4", "f4"]);

        let AnyGame::Narrow(chess) = AnyGame::built_in("chess").unwrap() else {
            unreachable!("chess is 8x8")
        };
        let position = Position::from_fen(chess, "4k3/P7/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        let mut promotions: Vec<Option<char>> = legal_moves(&position)
            .into_iter()
            .filter(|m| m.from == "a7")
            .map(|m| m.promotion)
            .collect();
        promotions.sort();
        assert_eq!(promotions, [Some('B'), Some('N'), Some('Q'), Some('R')]);
    }

    #[test]
    fn scores_turn_to_whites_side() {
        assert_eq!(
            for_white(MoveScore::Cp(40), Color::Black),
            MoveScore::Cp(-40)
        );
        assert_eq!(
            for_white(MoveScore::Mate(-2), Color::Black),
            MoveScore::Mate(2)
        );
        assert_eq!(
            for_white(MoveScore::Cp(40), Color::White),
            MoveScore::Cp(40)
        );
    }
}
