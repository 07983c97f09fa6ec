//! `kurier bench`: a fixed set of positions of every variant searched to
//! a fixed depth. The total node count is a signature of the search (the
//! same binary always gives the same count with one thread); the speed
//! is nodes per second.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::board::bitboard::Bitboard;
use crate::eval::evaluate::{EvalParams, Evaluator};
use crate::position::any_game::AnyGame;
use crate::position::game::Game;
use crate::position::state::Position;
use crate::search::alpha_beta::search;
use crate::search::history::SearchHistories;
use crate::search::interface::{Config, Control, Limits};
use crate::search::tt::TranspositionTable;
use crate::with_game;

/// The bench positions: variant and FEN (start positions and positions
/// from the perft suites' random games).
pub const POSITIONS: &[(&str, &str)] = &[
    ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    ("chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
    ("chess", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"),
    ("courier", "rnebmk1wbenr/1ppppp1pppp1/6f5/p5p4p/P5P4P/6F5/1PPPPP1PPPP1/RNEBMK1WBENR w - - 0 1"),
    ("courier", "r3m1k1b1nr/1pb2pw1ppp1/n1ppp1fp3e/p5p4p/P3N1e4P/2P2KFEP1PN/RP1PPP1P1P1R/2EBM2WB3 w - - 4 13"),
    ("courier", "rn6w3/1p1p3k1P2/3m1pbpp3/pEb2P2Pp2/P1Pp2P3rp/N9P1/RP1M1PK1NPR1/2EB3W4 w - - 4 46"),
    ("courier-moderno", "rnebwfkmbenr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RNEBMKFWBENR w ACFJLacgjl - 0 1"),
    ("courier-moderno", "rne1wfkmbe1r/ppb1ppppnp1p/2p7p1/3p4p3/7P4/2N1B7/PPPPPPPFPPPP/R1EBMK1W1ENR w ACFJLacgjl - 0 7"),
    ("courier-moderno", "1r1w1f1m2nr/pp1pb2k4/n1p4e1p2/1e1Pp2bPp1p/1PN1Ppp5/2E2P1p3P/P1P2KPF2P1/1R1BM2WB2R w Ll l6 0 36"),
    ("enhanced-courier", "rnecmkgwcenr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RNECMKGWCENR w - - 0 1"),
    ("enhanced-courier", "rn1c1mg1cenr/p1p1ppkp4/e5pw1pp1/1p10/3p5p1p/2PPPPPW3E/PP2CK1PP1PP/RNE2MG1C1NR w - - 0 16"),
    ("enhanced-courier", "r1em1k1w3r/3p2ppC1pp/n3Cp1e2c1/p1g1p4R2/2p1PP6/6PP2PP/PN3K2P3/R1E1MWG1cE2 w - - 0 36"),
    ("excoco", "tdrbchgvkqvghcbrdt/2m1n1es2se1n1m2/pppppppppppppppppp/18/18/18/18/PPPPPPPPPPPPPPPPPP/2M1N1ES2SE1N1M2/TDRBCHGVKQVGHCBRDT w ACIPRacipr - 0 1"),
    ("excoco", "tdrb2gvk1vgh1brdt/2mcnhesqs1ec5/1ppp4pppnpppppp/p6p10/2M11mP2/1P2ppp4p6/2P14P/P2PPPPPPPPPPPP1P1/D3NG1SEES2NHM1T/T1RBCH1VKQVGC1BR1D w ACIPacipr - 10 16"),
    ("excoco", "tmrbchngkqvg2brd1/3d2e3sh1n2ct/p1pp1pp2ppppppppp/9es2m4/4pvM4PP1PP2/1pPP1PPpp5C3/1P5P3H6/P3PHN1PPP2P2PP/T3E1S1SVQE1N1M2/1DRBC1GVK1G3BRDT w CIPRacip - 3 31"),
];

/// The result for one variant.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchLine {
    /// The variant.
    pub variant: String,
    /// Nodes searched over its positions.
    pub nodes: u64,
    /// Time spent searching (setting up each position's table excluded).
    pub time: Duration,
}

fn bench_game<B: Bitboard>(
    game: &Arc<Game<B>>,
    fens: &[&str],
    depth: u32,
    threads: usize,
    hash_mb: usize,
) -> (u64, Duration) {
    let params = EvalParams::for_variant(&game.variant)
        .unwrap_or_else(|e| unreachable!("built-in values load: {e}"));
    let evaluator = Evaluator::new(game, params);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let config = Config {
        threads,
        ..Config::default()
    };
    let mut nodes = 0;
    let mut searching = Duration::ZERO;
    for fen in fens {
        let position = Position::from_fen(game.clone(), fen)
            .unwrap_or_else(|e| unreachable!("bench FEN {fen}: {e}"));
        // A fresh table and fresh histories per position keep the count
        // independent of order.
        // Clearing it writes every page, so that the clock, as in
        // Stockfish's bench, times the search and not the operating
        // system mapping the table's memory.
        let tt = TranspositionTable::new(hash_mb);
        tt.clear();
        let mut histories = SearchHistories::new();
        let control = Control::new(false);
        let started = Instant::now();
        nodes += search(
            &position,
            &evaluator,
            &tt,
            &mut histories,
            &limits,
            &config,
            &control,
            &mut |_| {},
        )
        .nodes;
        searching += started.elapsed();
    }
    (nodes, searching)
}

/// Searches every bench position of the variants named (all when empty)
/// to `depth`.
pub fn run(
    variants: &[String],
    depth: u32,
    threads: usize,
    hash_mb: usize,
) -> Result<Vec<BenchLine>, String> {
    let mut names: Vec<&str> = Vec::new();
    for (name, _) in POSITIONS {
        if !names.contains(name) && (variants.is_empty() || variants.iter().any(|v| v == name)) {
            names.push(name);
        }
    }
    if let Some(unknown) = variants
        .iter()
        .find(|v| !POSITIONS.iter().any(|(name, _)| name == v))
    {
        return Err(format!("no bench positions for variant '{unknown}'"));
    }
    let mut lines = Vec::new();
    for name in names {
        let game = AnyGame::built_in(name).map_err(|e| e.to_string())?;
        let fens: Vec<&str> = POSITIONS
            .iter()
            .filter(|(n, _)| *n == name)
            .map(|(_, fen)| *fen)
            .collect();
        let (nodes, time) = with_game!(&game, g => bench_game(g, &fens, depth, threads, hash_mb));
        lines.push(BenchLine {
            variant: name.to_string(),
            nodes,
            time,
        });
    }
    Ok(lines)
}
