//! Shared fixtures for the benchmarks in `benches/`: the fixed positions
//! (start and one middlegame per variant) and fixed pseudo-random
//! occupancies.
//!
//! The middlegame positions are reached from each variant's start by a
//! fixed sequence of legal moves. The sequences were drawn once with the
//! engine (30 plies, 20 in chess, each move picked from
//! `Position::legal_moves` by an xorshift64 generator) and are written out
//! here so that the positions stay the same when move ordering changes;
//! every move is checked for legality when the position is built.
//!
//! The strength record's results, and the tables generated from them:
//! [`strength`].

pub mod strength;

use kurier_engine::board::bitboard::{Bitboard, U256};
use kurier_engine::position::any_game::AnyGame;
use kurier_engine::position::state::Position;
use kurier_engine::types::Square;

/// A benchmark position: a variant's start followed by fixed moves.
#[derive(Clone, Copy, Debug)]
pub struct BenchPosition {
    /// The built-in variant.
    pub variant: &'static str,
    /// `start` or `middlegame`.
    pub label: &'static str,
    /// UCI moves played from the start position.
    pub moves: &'static str,
    /// The number of legal moves in the resulting position (a check
    /// that the fixture is the one the figures were measured on).
    pub legal_moves: u64,
}

impl BenchPosition {
    /// `variant/label`, for benchmark ids.
    pub fn id(&self) -> String {
        format!("{}/{}", self.variant, self.label)
    }
}

/// The positions: start and middlegame of every built-in variant.
pub const POSITIONS: &[BenchPosition] = &[
    BenchPosition {
        variant: "chess",
        label: "start",
        moves: "",
        legal_moves: 20,
    },
    BenchPosition {
        variant: "chess",
        label: "middlegame",
        // r1bk1bnr/1pqp4/p1n1p1p1/2pN1P1p/4PP1P/3P4/PPP5/R1BQKBNR w KQ - 0 11
        moves: "b1c3 c7c5 h2h4 a7a6 c3d5 h7h5 g2g4 f7f6 f1h3 b8c6 d2d3 f6f5 g4f5 d8c7 \
                h3f1 e7e6 f2f4 e8d8 e2e4 g7g6",
        legal_moves: 37,
    },
    BenchPosition {
        variant: "courier",
        label: "start",
        moves: "",
        legal_moves: 26,
    },
    BenchPosition {
        variant: "courier",
        label: "middlegame",
        // r1ebmk1wbe2/1pp1pp1ppNnr/3p8/pn3f4pp/P4BPpP2P/3PEP1PR3/RPPMP4PP1/1N1B1K1W1E2 w - - 2 16
        moves: "i2i3 k8l6 k1l3 b8c6 h2h3 k7k6 c1e3 l6j5 l3k5 a8a7 d2d3 l8l6 g3h4 l6l7 \
                k5j7 j5k7 i3i4 d7d6 i1f4 g5h4 e1d2 g6f5 l1l3 a7a8 f2f3 c6a7 l3i3 k6k5 \
                a1a2 a7b5",
        legal_moves: 48,
    },
    BenchPosition {
        variant: "courier-moderno",
        label: "start",
        moves: "",
        legal_moves: 34,
    },
    BenchPosition {
        variant: "courier-moderno",
        label: "middlegame",
        // 2ebwfkmb1nr/3rpppp1p2/p1n5p2p/1ppp2e3p1/P4E4P1/2PP1PBPPE1N/1P1NP1P2P1P/R2BMKFWR3 w AFcgl - 1 16
        moves: "k2k4 a7a6 h2h3 b7b6 j1j3 j8h6 i1f4 h6h5 c1e3 d7d5 d2d3 c7c5 a2a4 k7k5 \
                b1d2 h5h4 i2i3 b6b5 f4g3 i7i6 e3f4 l7l6 f2f3 a8a7 k1l3 b8c6 l1i1 h4g5 \
                c2c3 a7d7",
        legal_moves: 47,
    },
    BenchPosition {
        variant: "enhanced-courier",
        label: "start",
        moves: "",
        legal_moves: 33,
    },
    BenchPosition {
        variant: "enhanced-courier",
        label: "middlegame",
        // rn1cmkg1cenr/1ppp5pp1/p3e2p4/P4pp1p3/R4G5p/N2PP3wN1P/1PP3PP1PP1/2ECMK1WC1R1 w - - 0 16
        moves: "i2i3 a7a6 a2a4 i7i5 k1j3 e7e5 a4a5 l7l6 e2e3 h8h6 d2d3 c8e6 f2f4 g7g5 \
                a1a4 h6h4 l1k1 l6l5 a4d4 e5f4 l2l3 h7h6 b1a3 l5l4 g1f4 f7f5 j1h3 h4h3 \
                d4a4 h3i3",
        legal_moves: 53,
    },
    BenchPosition {
        variant: "excoco",
        label: "start",
        moves: "",
        legal_moves: 100,
    },
    BenchPosition {
        variant: "excoco",
        label: "middlegame",
        // tdrbchgvkqvgh2rdt/6es2secn1b2/ppppppp1p2p1p1p1p/2Pn5p2p5/1m2P2p4P2H2/
        // 7P2pm2p1p1/10P2E1P2/PP1P1PP1PP1P1PP1PP/2M1N1ES2S2N1MD1/
        // TDRBCHGVKQVGC1BR1T w ACIPRacipr q7q6 0 16
        moves: "m1o2 h8h6 e3e6 p9n7 n1m1 c9a7 m3m6 n10m9 o2n4 m8m7 c3c6 n7l5 n4o6 j10j9 \
                c6c7 k8k5 o6q5 j8j7 p3p4 j9j10 k3k4 e9d7 q5p6 a7b6 h3h5 o10p9 q1q2 o8o5 \
                l2n4 q8q5",
        legal_moves: 115,
    },
];

/// A position of either bitboard width (boxed: they differ in size).
pub enum AnyPosition {
    /// Boards of up to 128 squares.
    Narrow(Box<Position<u128>>),
    /// Larger boards.
    Wide(Box<Position<U256>>),
}

/// Plays the fixture's moves from the start and returns the position,
/// rebuilt from its FEN so that it carries no move history.
///
/// # Panics
///
/// If the variant is unknown, a move is illegal, or the number of legal
/// moves differs from the fixture's.
pub fn load(fixture: &BenchPosition) -> AnyPosition {
    let game = AnyGame::built_in(fixture.variant).expect("built-in variant");
    match game {
        AnyGame::Narrow(game) => {
            AnyPosition::Narrow(Box::new(play(Position::startpos(game), fixture)))
        }
        AnyGame::Wide(game) => AnyPosition::Wide(Box::new(play(Position::startpos(game), fixture))),
    }
}

fn play<B: Bitboard>(mut position: Position<B>, fixture: &BenchPosition) -> Position<B> {
    for text in fixture.moves.split_whitespace() {
        let legal = position
            .parse_uci(text)
            .unwrap_or_else(|error| panic!("{}: {error}", fixture.id()));
        position.make_move(legal);
    }
    let fen = position.fen();
    let position = Position::from_fen(position.game().clone(), &fen).expect("own FEN reads back");
    assert_eq!(
        position.count_legal_moves(),
        fixture.legal_moves,
        "{}: {fen}",
        fixture.id()
    );
    position
}

/// `count` occupancies of a `files` x `ranks` board from a fixed xorshift64
/// sequence; the density cycles through 1/8, 1/4, 3/8 and 1/2 of the squares
/// (a chess-like board runs from about 1/2 at the start to 1/8 late).
pub fn occupancies<B: Bitboard>(files: u8, ranks: u8, count: usize) -> Vec<B> {
    let squares = usize::from(files) * usize::from(ranks);
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    (0..count)
        .map(|i| {
            let eighths = 1 + (i % 4) as u64;
            let mut occupied = B::EMPTY;
            for index in 0..squares {
                if next() % 8 < eighths {
                    occupied |= B::square(Square::new(index as u8));
                }
            }
            occupied
        })
        .collect()
}
