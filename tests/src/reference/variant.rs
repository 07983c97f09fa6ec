//! The five variants as hard-coded tables, written from `docs/RULES.md` only.

/// Which of the five games a position belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Variant {
    /// FIDE chess, 8x8.
    Chess,
    /// Medieval courier chess after the four forced moves, 12x8.
    Courier,
    /// Courier Chess Moderno, 12x8, reverse symmetric.
    CourierModerno,
    /// Enhanced Courier Chess, 12x8.
    EnhancedCourier,
    /// ExCoCo Chess, 18x10.
    Excoco,
}

/// One castling (or ExCoCo re-castling) of one side, as files on the
/// side's back rank.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Castling {
    /// The king's file before the move.
    pub king_from: usize,
    /// The king's file after the move.
    pub king_to: usize,
    /// The partner's file before the move.
    pub partner_from: usize,
    /// The partner's file after the move.
    pub partner_to: usize,
    /// The partner's (upper-case) letter.
    pub partner_kind: char,
    /// True for ExCoCo re-castling with the thane.
    pub recastle: bool,
}

const fn castle(kf: usize, kt: usize, pf: usize, pt: usize, kind: char, re: bool) -> Castling {
    Castling {
        king_from: kf,
        king_to: kt,
        partner_from: pf,
        partner_to: pt,
        partner_kind: kind,
        recastle: re,
    }
}

// Files: a=0 b=1 c=2 d=3 e=4 f=5 g=6 h=7 i=8 j=9 k=10 l=11 m=12 n=13 o=14 p=15 q=16 r=17.
const CHESS_CASTLING: [Castling; 2] = [
    castle(4, 6, 7, 5, 'R', false), // e1-g1, h1-f1
    castle(4, 2, 0, 3, 'R', false), // e1-c1, a1-d1
];
const MODERNO_WHITE_CASTLING: [Castling; 2] = [
    castle(5, 2, 0, 3, 'R', false),  // K f1-c1, R a1-d1
    castle(5, 9, 11, 8, 'R', false), // K f1-j1, R l1-i1
];
const MODERNO_BLACK_CASTLING: [Castling; 2] = [
    castle(6, 2, 0, 3, 'R', false),  // K g8-c8, R a8-d8
    castle(6, 9, 11, 8, 'R', false), // K g8-j8, R l8-i8
];
const EXCOCO_CASTLING: [Castling; 4] = [
    castle(8, 3, 2, 4, 'R', false),    // K i1-d1, R c1-e1
    castle(8, 14, 15, 13, 'R', false), // K i1-o1, R p1-n1
    castle(3, 1, 0, 2, 'T', true),     // K d1-b1, T a1-c1 (re-castling)
    castle(14, 16, 17, 15, 'T', true), // K o1-q1, T r1-p1 (re-castling)
];

impl Variant {
    /// Looks a variant up by its name in `docs/RULES.md`.
    pub(crate) fn from_name(name: &str) -> Result<Variant, String> {
        match name {
            "chess" => Ok(Variant::Chess),
            "courier" => Ok(Variant::Courier),
            "courier-moderno" => Ok(Variant::CourierModerno),
            "enhanced-courier" => Ok(Variant::EnhancedCourier),
            "excoco" => Ok(Variant::Excoco),
            _ => Err(format!("unknown variant '{name}'")),
        }
    }

    /// Number of files.
    pub(crate) fn files(self) -> usize {
        match self {
            Variant::Chess => 8,
            Variant::Courier | Variant::CourierModerno | Variant::EnhancedCourier => 12,
            Variant::Excoco => 18,
        }
    }

    /// Number of ranks.
    pub(crate) fn ranks(self) -> usize {
        match self {
            Variant::Excoco => 10,
            _ => 8,
        }
    }

    /// The upper-case letters of the variant's pieces.
    pub(crate) fn piece_letters(self) -> &'static str {
        match self {
            Variant::Chess => "KQRBNP",
            Variant::Courier => "KFMWEBNRP",
            Variant::CourierModerno => "KFMWBNREP",
            Variant::EnhancedCourier => "KMNRCGEWP",
            Variant::Excoco => "KQRBNVTDGHEMSCP",
        }
    }

    /// The start position.
    pub(crate) fn start_fen(self) -> &'static str {
        match self {
            Variant::Chess => "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            Variant::Courier => {
                "rnebmk1wbenr/1ppppp1pppp1/6f5/p5p4p/P5P4P/6F5/1PPPPP1PPPP1/RNEBMK1WBENR w - - 0 1"
            }
            Variant::CourierModerno => {
                "rnebwfkmbenr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RNEBMKFWBENR w ACFJLacgjl - 0 1"
            }
            Variant::EnhancedCourier => {
                "rnecmkgwcenr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RNECMKGWCENR w - - 0 1"
            }
            Variant::Excoco => {
                "tdrbchgvkqvghcbrdt/2m1n1es2se1n1m2/pppppppppppppppppp/18/18/18/18/\
                 PPPPPPPPPPPPPPPPPP/2M1N1ES2SE1N1M2/TDRBCHGVKQVGHCBRDT w ACIPRacipr - 0 1"
            }
        }
    }

    /// The (upper-case) pieces a pawn may promote to.
    pub(crate) fn promotions(self) -> &'static [char] {
        match self {
            Variant::Chess => &['Q', 'R', 'B', 'N'],
            Variant::Courier | Variant::CourierModerno => &['F'],
            Variant::EnhancedCourier => &['G'],
            Variant::Excoco => &[
                'Q', 'R', 'B', 'N', 'V', 'T', 'D', 'G', 'H', 'E', 'M', 'S', 'C',
            ],
        }
    }

    /// White's pawn start rank (0-based) for the multi-step, and the longest
    /// step allowed from it (1 = no multi-step). Black mirrors it.
    pub(crate) fn pawn_multi_step(self) -> (usize, usize) {
        match self {
            Variant::Chess | Variant::CourierModerno | Variant::EnhancedCourier => (1, 2),
            Variant::Courier => (1, 1),
            Variant::Excoco => (2, 3),
        }
    }

    /// The castlings (and re-castlings) of one side, on its back rank.
    pub(crate) fn castlings(self, white: bool) -> &'static [Castling] {
        match self {
            Variant::Chess => &CHESS_CASTLING,
            Variant::CourierModerno if white => &MODERNO_WHITE_CASTLING,
            Variant::CourierModerno => &MODERNO_BLACK_CASTLING,
            Variant::Excoco => &EXCOCO_CASTLING,
            Variant::Courier | Variant::EnhancedCourier => &[],
        }
    }

    /// The back-rank squares (file, upper-case piece letter) on which a
    /// first-move right may stand for one side.
    pub(crate) fn right_squares(self, white: bool) -> &'static [(usize, char)] {
        match self {
            Variant::Chess => &[(0, 'R'), (4, 'K'), (7, 'R')],
            Variant::CourierModerno if white => {
                &[(0, 'R'), (2, 'E'), (5, 'K'), (9, 'E'), (11, 'R')]
            }
            Variant::CourierModerno => &[(0, 'R'), (2, 'E'), (6, 'K'), (9, 'E'), (11, 'R')],
            // Thanes, rooks, the king, and the castled king on d / o that
            // may still re-castle.
            Variant::Excoco => &[
                (0, 'T'),
                (2, 'R'),
                (3, 'K'),
                (8, 'K'),
                (14, 'K'),
                (15, 'R'),
                (17, 'T'),
            ],
            Variant::Courier | Variant::EnhancedCourier => &[],
        }
    }
}
