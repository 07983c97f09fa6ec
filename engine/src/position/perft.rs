//! Perft: the number of leaf nodes of the legal move tree, the standard
//! check of a move generator. The last ply is counted in bulk (moves are
//! counted, not made).

use crate::board::bitboard::Bitboard;
use crate::position::state::Position;
use crate::types::Move;

/// Leaf nodes `depth` plies below `position` (1 at depth 0).
pub fn perft<B: Bitboard>(position: &mut Position<B>, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => position.count_legal_moves(),
        _ => {
            let mut nodes = 0;
            for legal in position.legal_moves() {
                position.make_move(legal);
                nodes += perft(position, depth - 1);
                position.unmake_move();
            }
            nodes
        }
    }
}

/// Perft split by the first move: each legal move with its leaf count.
pub fn divide<B: Bitboard>(position: &mut Position<B>, depth: u32) -> Vec<(Move, u64)> {
    let mut split = Vec::new();
    for legal in position.legal_moves() {
        position.make_move(legal);
        let nodes = if depth <= 1 {
            1
        } else {
            perft(position, depth - 1)
        };
        position.unmake_move();
        split.push((legal, nodes));
    }
    split
}
