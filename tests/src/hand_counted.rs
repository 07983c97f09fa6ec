//! Small positions whose legal moves were counted by hand from `docs/RULES.md`,
//! one group per special rule. The `why` string gives the count piece by
//! piece; the reference generator (and the engine) must agree with `moves`.

/// One hand-counted position.
pub struct HandCounted {
    /// Variant name as in `docs/RULES.md`.
    pub variant: &'static str,
    /// The position.
    pub fen: &'static str,
    /// Number of legal moves of the side to move.
    pub moves: usize,
    /// The hand count, broken down by piece.
    pub why: &'static str,
}

/// The hand-counted positions.
pub const HAND_COUNTED: &[HandCounted] = &[
    // ---- courier-moderno castling ----
    HandCounted {
        variant: "courier-moderno",
        fen: "6k5/12/12/12/12/12/12/R4K5R w AFL - 0 1",
        moves: 30,
        why: "castling both wings allowed. K f1: 5 (e1 g1 e2 f2 g2), O-O-Oc f1c1: 1, \
              O-O-Oj f1j1: 1; R a1: 11 (a2-a8 7, b1-e1 4); R l1: 12 (l2-l8 7, k1-g1 5) = 30",
    },
    HandCounted {
        variant: "courier-moderno",
        fen: "6k5/12/12/12/12/12/12/RN3K5R w AFL - 0 1",
        moves: 28,
        why: "a-side blocked by N b1 (a square only the rook crosses). K f1: 5 + O-O-Oj 1 = 6; \
              R a1: 7 (a2-a8); R l1: 12; N b1: 3 (a3 c3 d2) = 28",
    },
    HandCounted {
        variant: "courier-moderno",
        fen: "4k2r4/12/12/12/12/12/12/R4K5R w AFL - 0 1",
        moves: 29,
        why: "r h8 attacks h1, which the king passes on the l side: no O-O-Oj. \
              K f1: 5 (e1 g1 e2 f2 g2) + O-O-Oc 1 = 6; R a1: 11; R l1: 12 (l2-l8, k1-g1) = 29",
    },
    HandCounted {
        variant: "courier-moderno",
        fen: "5r4k1/12/12/12/12/12/12/R4K5R w AFL - 0 1",
        moves: 4,
        why: "in check from r f8: no castling, no rook can block the f-file or take f8. \
              K f1: 4 (e1 g1 e2 g2; f2 still on the f-file); R a1: 0; R l1: 0 = 4",
    },
    HandCounted {
        variant: "courier-moderno",
        fen: "1r4k3r1/12/12/12/12/12/12/R4K5R w AFL - 0 1",
        moves: 30,
        why: "r b8 attacks b1 and r k8 attacks k1, squares only the rooks cross: both castlings \
              stay legal. K f1: 5 + f1c1 + f1j1 = 7; R a1: 11 (a2-a8 7, b1-e1 4); \
              R l1: 12 (l2-l8 7, k1-g1 5) = 30",
    },
    HandCounted {
        variant: "courier-moderno",
        fen: "r5k4r/12/12/12/12/12/12/4R2K4 b agl - 0 1",
        moves: 29,
        why: "Black's mirrored castling: K g8-c8 passes e8, attacked by R e1, so only \
              g8j8 (O-O-Oj, r l8-i8). k g8: 5 (f8 h8 f7 g7 h7) + 1 = 6; \
              r a8: 12 (a7-a1 7, b8-f8 5); r l8: 11 (l7-l1 7, k8-h8 4) = 29",
    },
    // ---- excoco castling and re-castling ----
    HandCounted {
        variant: "excoco",
        fen: "8k9/18/18/18/18/18/18/18/18/T1R5K6R1T w ACIPR - 0 1",
        moves: 46,
        why: "both castlings. K i1: 5 (h1 j1 h2 i2 j2) + i1d1 + i1o1 = 7; \
              T a1: 4 (a2-a4 3, b1 1); R c1: 15 (c2-c10 9, b1 1, d1-h1 5); \
              R p1: 16 (p2-p10 9, o1-j1 6, q1 1); T r1: 4 (r2-r4 3, q1 1) = 46",
    },
    HandCounted {
        variant: "excoco",
        fen: "8k9/18/18/18/18/18/18/18/18/T2KR13 w AD - 0 1",
        moves: 32,
        why: "castled king (right D) may re-castle d1b1 with T a1-c1. K d1: 4 (c1 c2 d2 e2) \
              + d1b1 1 = 5; T a1: 5 (a2-a4 3, b1 c1 2); R e1: 22 (e2-e10 9, f1-r1 13) = 32",
    },
    HandCounted {
        variant: "excoco",
        fen: "8k9/18/18/18/18/18/18/18/18/T2KR13 w A - 0 1",
        moves: 31,
        why: "same board, king has lost its right (moved since castling): no re-castling. \
              K d1: 4 (c1 c2 d2 e2); T a1: 5; R e1: 22 = 31",
    },
    HandCounted {
        variant: "excoco",
        fen: "8k9/18/18/18/18/18/18/18/18/13RK2T w OR - 0 1",
        moves: 32,
        why: "r-side re-castling o1q1 with T r1-p1. K o1: 4 (p1 n2 o2 p2) + o1q1 1 = 5; \
              T r1: 5 (r2-r4 3, q1 p1 2); R n1: 22 (n2-n10 9, m1-a1 13) = 32",
    },
    HandCounted {
        variant: "excoco",
        fen: "t1r5k6r1t/18/18/18/18/18/18/18/18/5R2K9 b acipr - 0 1",
        moves: 45,
        why: "Black castling; R f1 attacks f10 which the king passes going to d10: only \
              i10o10. k i10: 5 (h10 j10 h9 i9 j9) + 1 = 6; t a10: 4 (a9-a7 3, b10 1); \
              r c10: 15 (c9-c1 9, b10 1, d10-h10 5); r p10: 16 (p9-p1 9, o10-j10 6, q10 1); \
              t r10: 4 (r9-r7 3, q10 1) = 45",
    },
    HandCounted {
        variant: "excoco",
        fen: "1r6k9/18/18/18/18/18/18/18/18/T2KR13 w AD - 0 1",
        moves: 31,
        why: "re-castling would land the king on b1, attacked by r b10: not allowed. \
              K d1: 4 (c1 c2 d2 e2); T a1: 5 (a2-a4, b1 c1); R e1: 22 = 31",
    },
    // ---- courier-moderno elephant first leaps ----
    HandCounted {
        variant: "courier-moderno",
        fen: "6k5/12/12/12/12/12/12/2E2K6 w C - 0 1",
        moves: 11,
        why: "unmoved E c1: steps b2 c2 d2 3 + leaps a3 c3 e3 3 = 6; \
              K f1: 5 (e1 g1 e2 f2 g2) = 11",
    },
    HandCounted {
        variant: "courier-moderno",
        fen: "6k5/12/12/12/12/4w7/1PPP8/2E2K6 w C - 0 1",
        moves: 14,
        why: "unmoved E c1 boxed in by its pawns: leaps a3, c3 (over c2), xe3 (capture) = 3; \
              P b2: b3 b4 = 2; P c2: c3 c4 = 2; P d2: d3 d4 xe3 = 3; \
              K f1: 4 (e1 g1 f2 g2; e2 attacked by w e3) = 14",
    },
    HandCounted {
        variant: "courier-moderno",
        fen: "6k5/12/12/12/12/12/12/2E2K6 w - - 0 1",
        moves: 8,
        why: "E c1 without its right (has moved): steps b2 c2 d2 = 3; K f1: 5 = 8",
    },
    HandCounted {
        variant: "courier-moderno",
        fen: "6k5/12/12/12/12/2E9/12/5K6 w - - 0 1",
        moves: 10,
        why: "moved E c3, silver general: b4 c4 d4 b2 d2 = 5; K f1: 5 = 10",
    },
    HandCounted {
        variant: "courier-moderno",
        fen: "6k2e2/12/12/12/12/12/12/5K6 b j - 0 1",
        moves: 11,
        why: "Black unmoved e j8 (forward is down): steps i7 j7 k7 3 + leaps h6 j6 l6 3 = 6; \
              k g8: 5 (f8 h8 f7 g7 h7) = 11",
    },
    // ---- courier-moderno elephant giving check by its leap ----
    HandCounted {
        variant: "courier-moderno",
        fen: "2e8k/12/4K7/12/12/12/12/2R9 w c - 0 1",
        moves: 8,
        why: "K e6 in check only from the leap of the unmoved e c8 (which also steps on \
              b7 c7 d7). K e6: 7 (d5 e5 f5 d6 f6 e7 f7; d7 attacked); \
              R c1: 1 (xc8; a leap cannot be blocked) = 8",
    },
    HandCounted {
        variant: "courier-moderno",
        fen: "2e8k/12/4K7/12/12/12/12/2R9 w - - 0 1",
        moves: 25,
        why: "same board, the elephant has moved: no check. K e6: 7 (all but d7); \
              R c1: 18 (c2-c7 6, xc8 1, a1 b1 2, d1-l1 9) = 25",
    },
    HandCounted {
        variant: "courier-moderno",
        fen: "12/12/12/12/12/9k2/12/5K3E1r b J - 0 1",
        moves: 6,
        why: "k j3 in check from the leap of the unmoved E j1 (which steps on i2 j2 k2). \
              k j3: 5 (i3 k3 i4 j4 k4); r l1: 1 (xj1) = 6",
    },
    HandCounted {
        variant: "courier-moderno",
        fen: "k8e2/3R8/9K2/12/12/12/12/12 w j - 0 1",
        moves: 5,
        why: "K j6 in check from the straight leap j8-j6 of the unmoved e j8 (steps on i7 j7 \
              k7). K j6: 5 (i5 j5 k5 i6 k6); R d7: 0 (d7j7 does not block a leap, nothing \
              takes j8) = 5",
    },
    // ---- enhanced-courier gryphon ----
    HandCounted {
        variant: "enhanced-courier",
        fen: "11k/12/12/12/3G8/12/12/K11 w - - 0 1",
        moves: 35,
        why: "open board, G d4: via e5 1 + f5-l5 7 + e6-e8 3 = 11; via e3 1 + f3-l3 7 + e2 e1 2 \
              = 10; via c5 1 + b5 a5 2 + c6-c8 3 = 6; via c3 1 + b3 a3 2 + c2 c1 2 = 5; \
              G total 32; K a1: 3 (a2 b1 b2) = 35",
    },
    HandCounted {
        variant: "enhanced-courier",
        fen: "11k/4n7/12/2m3P5/3G8/12/12/K11 w - - 0 1",
        moves: 24,
        why: "partially blocked G d4: via e5 1 + f5 1 (own P g5 stops) + e6 xe7 2 = 4; \
              via e3 10; xc5 1 (enemy on the diagonal square: no slide); via c3 5; G 20; \
              P g5: 1 (g6); K a1: 3 = 24",
    },
    HandCounted {
        variant: "enhanced-courier",
        fen: "11k/12/12/4P7/3G8/2P9/12/K11 w - - 0 1",
        moves: 21,
        why: "own pawns on diagonal squares e5 and c3: no move and no slide that way. \
              G d4: via e3 10 + via c5 6 = 16; P e5: 1 (e6); P c3: 1 (c4); K a1: 3 = 21",
    },
    HandCounted {
        variant: "enhanced-courier",
        fen: "g10k/12/12/12/12/12/12/11K b - - 0 1",
        moves: 20,
        why: "black g a8 in the corner: only b7 1 + c7-l7 10 + b6-b1 6 = 17; \
              k l8: 3 (k8 k7 l7) = 20",
    },
    HandCounted {
        variant: "enhanced-courier",
        fen: "12/12/12/7k4/3G8/12/12/K11 b - - 0 1",
        moves: 6,
        why: "k h5 in check from G d4 bending at e5 along rank 5. k h5: g4 h4 i4 g6 h6 i6 = 6 \
              (g5, and i5 behind the king, stay on the slide)",
    },
    // ---- enhanced-courier woody rook ----
    HandCounted {
        variant: "enhanced-courier",
        fen: "11k/12/12/3P8/3Wmn6/12/12/K11 w - - 0 1",
        moves: 11,
        why: "W d4: steps d3 c4 xe4 3 (d5 own) + leaps d6 (over own P d5) d2 b4 xf4 (over m e4) \
              4 = 7; P d5: 1 (d6); K a1: 3 = 11",
    },
    HandCounted {
        variant: "enhanced-courier",
        fen: "11k/12/12/12/12/12/1W10/K11 w - - 0 1",
        moves: 8,
        why: "W b2 near the corner: b3 b1 a2 c2 + b4 d2 = 6; K a1: 2 (a2 b1) = 8",
    },
    HandCounted {
        variant: "enhanced-courier",
        fen: "11k/12/3N8/3p8/3W8/12/12/K11 w - - 0 1",
        moves: 18,
        why: "W d4: xd5 d3 c4 e4 4 + leaps d2 b4 f4 3 (d6 own N) = 7; \
              N d6: 8 (e8 f7 f5 e4 c4 b5 b7 c8); K a1: 3 = 18",
    },
    // ---- pawn multi-steps and en passant ----
    HandCounted {
        variant: "excoco",
        fen: "17k/18/18/18/18/18/18/4P13/18/K17 w - - 0 1",
        moves: 6,
        why: "P e3 on its start rank: e4 e5 e6 = 3; K a1: 3 = 6",
    },
    HandCounted {
        variant: "excoco",
        fen: "17k/18/18/18/6g11/4p13/18/4P1P11/18/K17 w - - 0 1",
        moves: 6,
        why: "P e3: e4 only (e5 blocked, no jumping) = 1; P g3: g4 g5 (g6 blocked) = 2; \
              K a1: 3 = 6",
    },
    HandCounted {
        variant: "excoco",
        fen: "17k/18/18/18/4Pp12/3p14/18/18/18/K17 b - e4e5 0 1",
        moves: 7,
        why: "after White e3-e6: p d5: d4, dxe4 e.p. = 2; p f6: f5, fxe5 e.p. = 2; \
              k r10: 3 = 7",
    },
    HandCounted {
        variant: "excoco",
        fen: "17k/18/18/18/3P14/4pP12/18/18/18/K17 w - e7e6 0 1",
        moves: 7,
        why: "after Black e8-e5: P d6: d7, dxe7 e.p. = 2; P f5: f6, fxe6 e.p. = 2; \
              K a1: 3 = 7",
    },
    HandCounted {
        variant: "excoco",
        fen: "17k/18/18/18/3Pp13/18/18/18/18/K17 w - e7 0 1",
        moves: 5,
        why: "after Black double step e8-e6: P d6: d7, dxe7 e.p. = 2; K a1: 3 = 5",
    },
    HandCounted {
        variant: "courier-moderno",
        fen: "11k/12/12/3pP7/12/12/12/K11 w - d6 0 1",
        moves: 5,
        why: "after d7-d5: P e5: e6, exd6 e.p. = 2; K a1: 3 = 5",
    },
    HandCounted {
        variant: "courier-moderno",
        fen: "11k/12/12/12/1pP9/12/12/K11 b - c3 0 1",
        moves: 5,
        why: "after c2-c4: p b4: b3, bxc3 e.p. = 2; k l8: 3 = 5",
    },
    HandCounted {
        variant: "enhanced-courier",
        fen: "11k/12/12/12/5pPp4/12/12/K11 b - g3 0 1",
        moves: 7,
        why: "after g2-g4: p f4: f3, fxg3 e.p. = 2; p h4: h3, hxg3 e.p. = 2; k l8: 3 = 7",
    },
    // ---- promotions ----
    HandCounted {
        variant: "chess",
        fen: "r6k/1P6/8/8/8/8/8/7K w - - 0 1",
        moves: 11,
        why: "P b7: b8 x4 (QRBN) + bxa8 x4 = 8; K h1: 3 (g1 g2 h2) = 11",
    },
    HandCounted {
        variant: "courier",
        fen: "r5k5/1P10/12/12/12/12/12/11K w - - 0 1",
        moves: 5,
        why: "P b7: b8=F, bxa8=F = 2; K l1: 3 (k1 k2 l2) = 5",
    },
    HandCounted {
        variant: "courier-moderno",
        fen: "k10K/12/12/12/12/12/4p7/3R8 b - - 0 1",
        moves: 5,
        why: "p e2: e1=F, exd1=F = 2; k a8: 3 (a7 b7 b8) = 5",
    },
    HandCounted {
        variant: "enhanced-courier",
        fen: "3n7k/2P9/12/12/12/12/12/K11 w - - 0 1",
        moves: 5,
        why: "P c7: c8=G, cxd8=G = 2; K a1: 3 = 5",
    },
    HandCounted {
        variant: "excoco",
        fen: "3t13k/4P13/18/18/18/18/18/18/18/K17 w - - 0 1",
        moves: 29,
        why: "P e9: e10 x13 (Q R B N V T D G H E M S C) + exd10 x13 = 26; K a1: 3 = 29",
    },
    HandCounted {
        variant: "excoco",
        fen: "K16k/18/18/18/18/18/18/18/4p13/18 b - - 0 1",
        moves: 16,
        why: "p e2: e1 x13 = 13; k r10: 3 (q10 q9 r9) = 16",
    },
];
