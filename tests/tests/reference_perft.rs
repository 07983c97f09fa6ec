//! Tests of the reference move generator: published and docs/RULES.md perft
//! numbers, FEN round trips, FEN rejection, hand-counted positions.

use kurier_tests::reference::{perft, RefPosition};

fn pos(variant: &str, fen: &str) -> RefPosition {
    match RefPosition::from_fen(variant, fen) {
        Ok(p) => p,
        Err(e) => panic!("{variant} {fen}: {e}"),
    }
}

fn start(variant: &str) -> RefPosition {
    match RefPosition::startpos(variant) {
        Ok(p) => p,
        Err(e) => panic!("{variant}: {e}"),
    }
}

#[test]
fn start_positions_match_rules_table() {
    let table: [(&str, [u64; 3]); 5] = [
        ("chess", [20, 400, 8_902]),
        ("courier", [26, 678, 18_406]),
        ("courier-moderno", [34, 1_156, 40_126]),
        ("enhanced-courier", [33, 1_089, 37_428]),
        ("excoco", [100, 9_946, 992_557]),
    ];
    for (variant, counts) in table {
        let p = start(variant);
        for (d, &expected) in counts.iter().enumerate() {
            assert_eq!(
                perft(&p, d as u32 + 1),
                expected,
                "{variant} depth {}",
                d + 1
            );
        }
    }
}

#[test]
fn hand_counted_positions() {
    let mut bad = Vec::new();
    for h in kurier_tests::hand_counted::HAND_COUNTED {
        let p = pos(h.variant, h.fen);
        let mut moves = p.legal_moves();
        moves.sort();
        if moves.len() != h.moves {
            bad.push(format!(
                "{} {}: hand {} reference {} {:?}\n  why: {}",
                h.variant,
                h.fen,
                h.moves,
                moves.len(),
                moves,
                h.why
            ));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

fn check_perft(variant: &str, fen: &str, counts: &[u64]) {
    let p = pos(variant, fen);
    for (d, &expected) in counts.iter().enumerate() {
        assert_eq!(perft(&p, d as u32 + 1), expected, "{fen} depth {}", d + 1);
    }
}

#[test]
fn chess_start_depth_4() {
    assert_eq!(perft(&start("chess"), 4), 197_281);
}

#[test]
fn chess_kiwipete() {
    check_perft(
        "chess",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        &[48, 2_039, 97_862],
    );
}

#[test]
fn chess_position_3() {
    check_perft(
        "chess",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        &[14, 191, 2_812, 43_238],
    );
}

#[test]
fn chess_position_4() {
    check_perft(
        "chess",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        &[6, 264, 9_467],
    );
}

#[test]
fn chess_position_5() {
    check_perft(
        "chess",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        &[44, 1_486, 62_379],
    );
}

#[test]
fn chess_position_6() {
    check_perft(
        "chess",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        &[46, 2_079, 89_890],
    );
}

#[test]
fn courier_start_depth_4() {
    assert_eq!(perft(&start("courier"), 4), 500_337);
}

const VARIANTS: [&str; 5] = [
    "chess",
    "courier",
    "courier-moderno",
    "enhanced-courier",
    "excoco",
];

/// Plays the moves of `line` from `p`, checking the FEN after each one and
/// that the FEN reads back to the same position.
fn play_line(variant: &str, mut p: RefPosition, line: &[(&str, &str)]) -> RefPosition {
    for (uci, fen) in line {
        p = match p.play(uci) {
            Ok(next) => next,
            Err(e) => panic!("{uci}: {e}"),
        };
        assert_eq!(p.to_fen(), *fen, "after {uci}");
        assert_eq!(pos(variant, fen), p, "re-read after {uci}");
    }
    p
}

#[test]
fn fen_round_trip_of_start_positions() {
    for v in VARIANTS {
        let p = start(v);
        let fen = p.to_fen();
        assert_eq!(pos(v, &fen).to_fen(), fen);
        assert_eq!(pos(v, &fen), p);
    }
    assert_eq!(
        start("excoco").to_fen(),
        "tdrbchgvkqvghcbrdt/2m1n1es2se1n1m2/pppppppppppppppppp/18/18/18/18/\
         PPPPPPPPPPPPPPPPPP/2M1N1ES2SE1N1M2/TDRBCHGVKQVGHCBRDT w ACIPRacipr - 0 1"
    );
    assert_eq!(
        start("courier-moderno").to_fen(),
        "rnebwfkmbenr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RNEBMKFWBENR w ACFJLacgjl - 0 1"
    );
}

#[test]
fn fen_round_trip_of_played_positions() {
    // Random-ish walks: every FEN on the way reads back to itself.
    for v in VARIANTS {
        let mut p = start(v);
        for ply in 0..60 {
            let mut moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            moves.sort();
            let uci = &moves[(ply * 7 + 3) % moves.len()];
            p = p.play(uci).expect("a listed move is legal");
            let fen = p.to_fen();
            let q = pos(v, &fen);
            assert_eq!(q.to_fen(), fen, "{v}");
            assert_eq!(q, p, "{v} {fen}");
        }
    }
}

#[test]
fn chess_fen_details() {
    // File form is read, KQkq written.
    assert_eq!(
        pos("chess", "r3k2r/8/8/8/8/8/8/R3K2R w AEHaeh - 0 1").to_fen(),
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    );
    // Only 4 fields: clocks default to 0 1.
    assert_eq!(
        pos("chess", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq -").to_fen(),
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    );
    let p = pos("chess", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let p = play_line(
        "chess",
        p,
        &[
            ("a1a2", "r3k2r/8/8/8/8/8/R7/4K2R b Kkq - 1 1"),
            ("a8a7", "4k2r/r7/8/8/8/8/R7/4K2R w Kk - 2 2"),
            // Both white rooks moved: the unmoved king writes nothing.
            ("h1h2", "4k2r/r7/8/8/8/8/R6R/4K3 b k - 3 2"),
            ("e8g8", "5rk1/r7/8/8/8/8/R6R/4K3 w - - 4 3"),
        ],
    );
    assert!(!p.legal_moves().is_empty());
    // Double step: ep square written even with no capture possible.
    play_line(
        "chess",
        start("chess"),
        &[
            (
                "e2e4",
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
            ),
            (
                "g8f6",
                "rnbqkb1r/pppppppp/5n2/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2",
            ),
        ],
    );
}

#[test]
fn excoco_castling_and_recastling_fens() {
    // Pawns on c, e, n and p close the files the castled rooks would use.
    let p = pos(
        "excoco",
        "t1r5k6r1t/2p1p8p1p2/18/18/18/18/18/18/2P1P8P1P2/T1R5K6R1T w ACIPRacipr - 0 1",
    );
    play_line(
        "excoco",
        p.clone(),
        &[
            // Castling: the king's letter I moves to D, the rook's C is gone.
            (
                "i1d1",
                "t1r5k6r1t/2p1p8p1p2/18/18/18/18/18/18/2P1P8P1P2/T2KR10R1T b ADPRacipr - 1 1",
            ),
            (
                "i10d10",
                "t2kr10r1t/2p1p8p1p2/18/18/18/18/18/18/2P1P8P1P2/T2KR10R1T w ADPRadpr - 2 2",
            ),
            // Re-castling ends the right.
            (
                "d1b1",
                "t2kr10r1t/2p1p8p1p2/18/18/18/18/18/18/2P1P8P1P2/1KT1R10R1T b PRadpr - 3 2",
            ),
            (
                "d10b10",
                "1kt1r10r1t/2p1p8p1p2/18/18/18/18/18/18/2P1P8P1P2/1KT1R10R1T w PRpr - 4 3",
            ),
        ],
    );
    play_line(
        "excoco",
        p,
        &[
            (
                "i1d1",
                "t1r5k6r1t/2p1p8p1p2/18/18/18/18/18/18/2P1P8P1P2/T2KR10R1T b ADPRacipr - 1 1",
            ),
            (
                "i10o10",
                "t1r10rk2t/2p1p8p1p2/18/18/18/18/18/18/2P1P8P1P2/T2KR10R1T w ADPRacor - 2 2",
            ),
            (
                "d1b1",
                "t1r10rk2t/2p1p8p1p2/18/18/18/18/18/18/2P1P8P1P2/1KT1R10R1T b PRacor - 3 2",
            ),
            (
                "o10q10",
                "t1r10r1tk1/2p1p8p1p2/18/18/18/18/18/18/2P1P8P1P2/1KT1R10R1T w PRac - 4 3",
            ),
        ],
    );

    // Without the pawns, Black's r-side castling leaves r c10 on the open
    // c-file, attacking c1, which White's king passes re-castling d1-b1.
    let open = pos(
        "excoco",
        "t1r5k6r1t/18/18/18/18/18/18/18/18/T1R5K6R1T w ACIPRacipr - 0 1",
    );
    let q = play_line(
        "excoco",
        open.clone(),
        &[
            (
                "i1d1",
                "t1r5k6r1t/18/18/18/18/18/18/18/18/T2KR10R1T b ADPRacipr - 1 1",
            ),
            (
                "i10o10",
                "t1r10rk2t/18/18/18/18/18/18/18/18/T2KR10R1T w ADPRacor - 2 2",
            ),
        ],
    );
    assert!(!q.legal_moves().iter().any(|m| m == "d1b1"));
    // Black may re-castle once R p1 leaves the p-file (it attacked p10).
    play_line(
        "excoco",
        q,
        &[
            (
                "p1j1",
                "t1r10rk2t/18/18/18/18/18/18/18/18/T2KR4R7T b ADRacor - 3 2",
            ),
            (
                "o10q10",
                "t1r10r1tk1/18/18/18/18/18/18/18/18/T2KR4R7T w ADRac - 4 3",
            ),
        ],
    );
    // Any other king move loses the re-castling right, even coming back.
    let p = play_line(
        "excoco",
        open,
        &[
            (
                "i1d1",
                "t1r5k6r1t/18/18/18/18/18/18/18/18/T2KR10R1T b ADPRacipr - 1 1",
            ),
            (
                "a10a9",
                "2r5k6r1t/t17/18/18/18/18/18/18/18/T2KR10R1T w ADPRcipr - 2 2",
            ),
            (
                "d1d2",
                "2r5k6r1t/t17/18/18/18/18/18/18/3K14/T3R10R1T b APRcipr - 3 2",
            ),
            (
                "a9a10",
                "t1r5k6r1t/18/18/18/18/18/18/18/3K14/T3R10R1T w APRcipr - 4 3",
            ),
            (
                "d2d1",
                "t1r5k6r1t/18/18/18/18/18/18/18/18/T2KR10R1T b APRcipr - 5 3",
            ),
            (
                "i10i9",
                "t1r12r1t/8k9/18/18/18/18/18/18/18/T2KR10R1T w APRcpr - 6 4",
            ),
        ],
    );
    assert!(!p.legal_moves().iter().any(|m| m == "d1b1"));
}

#[test]
fn excoco_triple_step_and_en_passant() {
    let p = play_line(
        "excoco",
        start("excoco"),
        &[
            (
                "e3e6",
                "tdrbchgvkqvghcbrdt/2m1n1es2se1n1m2/pppppppppppppppppp/18/4P13/18/18/\
                 PPPP1PPPPPPPPPPPPP/2M1N1ES2SE1N1M2/TDRBCHGVKQVGHCBRDT b ACIPRacipr e4e5 0 1",
            ),
            (
                "d8d5",
                "tdrbchgvkqvghcbrdt/2m1n1es2se1n1m2/ppp1pppppppppppppp/18/4P13/3p14/18/\
                 PPPP1PPPPPPPPPPPPP/2M1N1ES2SE1N1M2/TDRBCHGVKQVGHCBRDT w ACIPRacipr d7d6 0 2",
            ),
            // White's e6 pawn takes en passant on d7, the first passed square.
            (
                "e6d7",
                "tdrbchgvkqvghcbrdt/2m1n1es2se1n1m2/ppp1pppppppppppppp/3P14/18/18/18/\
                 PPPP1PPPPPPPPPPPPP/2M1N1ES2SE1N1M2/TDRBCHGVKQVGHCBRDT b ACIPRacipr - 0 2",
            ),
        ],
    );
    assert!(p.legal_moves().len() > 50);
    // Either order of the ep squares is read; the passed order is written.
    let a = pos(
        "excoco",
        "17k/18/18/18/4Pp12/3p14/18/18/18/K17 b - e5e4 0 1",
    );
    assert_eq!(
        a.to_fen(),
        "17k/18/18/18/4Pp12/3p14/18/18/18/K17 b - e4e5 0 1"
    );
    // d5xe4 e.p. removes the pawn on e6.
    play_line(
        "excoco",
        a,
        &[("d5e4", "17k/18/18/18/5p12/18/4p13/18/18/K17 w - - 0 2")],
    );
}

#[test]
fn courier_moderno_castling_and_elephant_fens() {
    play_line(
        "courier-moderno",
        start("courier-moderno"),
        &[
            // Elephant leap over its own pawn loses its right C.
            (
                "c1c3",
                "rnebwfkmbenr/pppppppppppp/12/12/12/2E9/PPPPPPPPPPPP/RN1BMKFWBENR b AFJLacgjl - 1 1",
            ),
            (
                "j8h6",
                "rnebwfkmb1nr/pppppppppppp/7e4/12/12/2E9/PPPPPPPPPPPP/RN1BMKFWBENR w AFJLacgl - 2 2",
            ),
        ],
    );
    let p = pos("courier-moderno", "6k5/12/12/12/12/12/12/R4K5R w AFL - 0 1");
    play_line(
        "courier-moderno",
        p,
        &[
            ("f1c1", "6k5/12/12/12/12/12/12/2KR7R b L - 1 1"),
            ("g8g7", "12/6k5/12/12/12/12/12/2KR7R w L - 2 2"),
            // A rook keeps its letter after its king moved.
            ("c1b1", "12/6k5/12/12/12/12/12/1K1R7R b L - 3 2"),
        ],
    );
}

#[test]
fn enhanced_courier_fens() {
    play_line(
        "enhanced-courier",
        start("enhanced-courier"),
        &[
            (
                "e2e4",
                "rnecmkgwcenr/pppppppppppp/12/12/4P7/12/PPPP1PPPPPPP/RNECMKGWCENR b - e3 0 1",
            ),
            (
                "h8h6",
                "rnecmkg1cenr/pppppppppppp/7w4/12/4P7/12/PPPP1PPPPPPP/RNECMKGWCENR w - - 1 2",
            ),
        ],
    );
}

#[test]
fn illegal_moves_are_refused() {
    let p = start("chess");
    assert!(p.play("e2e5").is_err());
    assert!(p.play("e1g1").is_err());
    assert!(p.play("zz").is_err());
    let q = pos("chess", "r6k/1P6/8/8/8/8/8/7K w - - 0 1");
    assert!(q.play("b7b8").is_err());
    assert!(q.play("b7b8k").is_err());
    assert!(q.play("b7b8q").is_ok());
}

#[test]
fn malformed_fens_are_rejected() {
    let bad: &[(&str, &str, &str)] = &[
        (
            "chess",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
            "ranks, the board has",
        ),
        (
            "chess",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/8 w KQkq - 0 1",
            "ranks, the board has",
        ),
        (
            "chess",
            "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "squares, the board has",
        ),
        (
            "chess",
            "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "is longer than",
        ),
        (
            "excoco",
            "17k/19/18/18/18/18/18/18/18/K17 w - - 0 1",
            "is longer than",
        ),
        (
            "excoco",
            "17k/1/18/18/18/18/18/18/18/K17 w - - 0 1",
            "squares, the board has",
        ),
        (
            "chess",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBFKBNR w KQkq - 0 1",
            "unknown piece letter",
        ),
        (
            "courier",
            "rnebqk1wbenr/1ppppp1pppp1/6f5/p5p4p/P5P4P/6F5/1PPPPP1PPPP1/RNEBMK1WBENR w - - 0 1",
            "unknown piece letter",
        ),
        (
            "excoco",
            "17k/18/18/18/18/18/18/18/18/K16X w - - 0 1",
            "unknown piece letter",
        ),
        (
            "chess",
            "4k3/8/8/8/8/8/8/4K2K w - - 0 1",
            "White has 2 kings",
        ),
        ("chess", "8/8/8/8/8/8/8/4K3 w - - 0 1", "Black has 0 kings"),
        ("chess", "1P2k3/8/8/8/8/8/8/4K3 w - - 0 1", "last rank"),
        (
            "excoco",
            "17k/18/18/18/18/18/18/18/18/K3p13 w - - 0 1",
            "last rank",
        ),
        (
            "chess",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1",
            "no piece that can hold it on h1",
        ),
        (
            "chess",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBK1BNR w KQkq - 0 1",
            "no piece that can hold it on e1",
        ),
        (
            "courier-moderno",
            "rnebwfkmbenr/pppppppppppp/12/12/12/2E9/PPPPPPPPPPPP/RN1BMKFWBENR w ACFJLacgjl - 0 1",
            "no piece that can hold it on c1",
        ),
        (
            "courier-moderno",
            "rnebwfkmbenr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RNEBMKFWBENR w ABCFJLacgjl - 0 1",
            "no piece that can hold it on b1",
        ),
        (
            "excoco",
            "8k9/18/18/18/18/18/18/18/18/T1R5K6R1T w ACDIPR - 0 1",
            "no piece that can hold it on d1",
        ),
        (
            "courier",
            "rnebmk1wbenr/1ppppp1pppp1/6f5/p5p4p/P5P4P/6F5/1PPPPP1PPPP1/RNEBMK1WBENR w A - 0 1",
            "without first-move rights",
        ),
        (
            "enhanced-courier",
            "rnecmkgwcenr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RNECMKGWCENR w K - 0 1",
            "without first-move rights",
        ),
        (
            "chess",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 1",
            "does not fit a pawn step of Black",
        ),
        (
            "chess",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq d3 0 1",
            "no White pawn on d4",
        ),
        (
            "chess",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e9 0 1",
            "off the board",
        ),
        (
            "chess",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq i3 0 1",
            "off the board",
        ),
        (
            "chess",
            "rnbqkbnr/pppppppp/8/8/4P3/4N3/PPPP1PPP/RNBQKB1R b KQkq e3 0 1",
            "is occupied",
        ),
        (
            "chess",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPPPPPP/RNBQKBNR b KQkq e3 0 1",
            "start square e2 is occupied",
        ),
        (
            "excoco",
            "17k/18/18/18/4Pp12/3p14/18/18/18/K17 b - e4e6 0 1",
            "does not fit a pawn step",
        ),
        (
            "excoco",
            "17k/18/18/18/4Pp12/3p14/18/18/18/K17 b - e5 0 1",
            "does not fit a pawn step",
        ),
        (
            "courier",
            "rnebmk1wbenr/1ppppp1pppp1/6f5/p5p4p/P5P4P/6F5/1PPPPP1PPPP1/RNEBMK1WBENR w - a3 0 1",
            "without pawn multi-steps",
        ),
        (
            "chess",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
            "side to move",
        ),
        (
            "chess",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0",
            "4 or 6 fields",
        ),
        (
            "chess",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
            "halfmove clock",
        ),
        (
            "chess",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0",
            "fullmove number",
        ),
        (
            "shogi",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "unknown variant",
        ),
    ];
    // (variant, FEN, part of the expected error message)
    for (variant, fen, reason) in bad {
        match RefPosition::from_fen(variant, fen) {
            Ok(_) => panic!("accepted: {variant} {fen}"),
            Err(e) => assert!(
                e.contains(reason),
                "{variant} {fen}: '{e}', expected '{reason}'"
            ),
        }
    }
}
