//! Properties that must hold in every position reached by random play,
//! for every variant:
//! - make then unmake restores the position and its key exactly;
//! - the incrementally kept key equals a full recompute;
//! - FEN round trip: reading the written FEN gives the same position;
//! - the legal moves are exactly the pseudo-legal moves (built here from
//!   the piece tables, without the generator's pin and check shortcuts)
//!   after which the mover's king is not attacked;
//! - a piece's capture-only targets equal the capture half of its
//!   targets, and a type marked symmetric has equal quiet and capture
//!   targets;
//! - the check test from the last move equals the full check test;
//! - the captures-only generation (quiescence search's) gives exactly the
//!   legal captures, en-passant captures and promotions;
//! - the search's evaluation (piece-square sums kept by make/unmake, the
//!   pawn cache) equals the evaluation summed term by term.

use std::collections::BTreeSet;

use kurier_engine::board::bitboard::Bitboard;
use kurier_engine::eval::evaluate::{EvalParams, Evaluator, PawnCache};
use kurier_engine::position::any_game::AnyGame;
use kurier_engine::position::movegen::QuietMoves;
use kurier_engine::position::state::Position;
use kurier_engine::types::{Move, MoveKind, Square};
use kurier_engine::variant::definition::Variant;
use kurier_engine::with_game;
use kurier_tests::play::{random_walk, Rng};

/// Games per variant and their length: about 6,000 positions in all.
const GAMES: u64 = 12;
const PLIES: usize = 100;

/// Every move a piece could make ignoring its own king's safety (castling
/// with all its conditions but the last: that the king is not attacked
/// where it lands).
fn pseudo_legal<B: Bitboard>(position: &Position<B>) -> Vec<Move> {
    let game = position.game();
    let tables = game.tables();
    let us = position.side_to_move();
    let them = us.flip();
    let occupied = position.occupied();
    let enemy = position.color_pieces(them);
    let mut moves = Vec::new();
    for (piece_type, piece_moves) in game.pieces.iter().enumerate() {
        let initial = position.initial_squares(piece_type, us);
        for from in position.pieces(us, piece_type).squares() {
            let (quiet, capture) = piece_moves.targets(&tables, us, from, occupied, initial);
            assert_eq!(
                piece_moves.capture_targets(&tables, us, from, occupied, initial),
                capture,
                "capture targets of type {piece_type} on {from:?}"
            );
            if piece_moves.symmetric {
                assert_eq!(
                    quiet, capture,
                    "type {piece_type} on {from:?} is not symmetric"
                );
            }
            let targets = (quiet & !occupied) | (capture & enemy);
            for to in targets.squares() {
                if game.is_pawn(piece_type) && game.promotion_zone[us.index()].has(to) {
                    for &promoted in &game.promotion_types {
                        moves.push(Move::promotion(from.byte(), to.byte(), promoted));
                    }
                } else {
                    moves.push(Move::normal(from.byte(), to.byte()));
                }
            }
            if game.is_pawn(piece_type) {
                for to in (capture & position.en_passant_squares()).squares() {
                    moves.push(Move::en_passant(from.byte(), to.byte()));
                }
            }
        }
    }
    let in_check = position.in_check();
    for (index, rule) in game.castlings.iter().enumerate() {
        let unmoved = position.unmoved();
        let ready = rule.color == us
            && !in_check
            && unmoved.has(rule.king_from)
            && unmoved.has(rule.partner_from)
            && (occupied & rule.must_be_empty).is_empty()
            && rule
                .king_path
                .squares()
                .all(|square| position.attackers(square, them, occupied).is_empty());
        if ready {
            moves.push(Move::castling(
                rule.king_from.byte(),
                rule.king_to.byte(),
                index as u8,
            ));
        }
    }
    moves
}

fn check_position<B: Bitboard>(position: &mut Position<B>) {
    let fen = position.fen();
    assert_eq!(
        position.key(),
        position.compute_key(),
        "incremental key in {fen}"
    );
    let reread =
        Position::from_fen(position.game().clone(), &fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    assert_eq!(reread.fen(), fen);
    assert!(
        reread == *position,
        "FEN round trip changes the position: {fen}"
    );

    let legal: BTreeSet<String> = position
        .legal_moves()
        .iter()
        .map(|m| position.uci(*m))
        .collect();
    let mover = position.side_to_move();
    let mut filtered = BTreeSet::new();
    let before = position.clone();
    for candidate in pseudo_legal(position) {
        let text = position.uci(candidate);
        position.make_move(candidate);
        assert_eq!(
            position.key(),
            position.compute_key(),
            "key after {text} in {fen}"
        );
        assert_eq!(
            position.in_check_after_move(),
            position.in_check(),
            "check test after {text} in {fen}"
        );
        let king = position.king_square(mover);
        if position
            .attackers(king, mover.flip(), position.occupied())
            .is_empty()
        {
            filtered.insert(text.clone());
        }
        position.unmake_move();
        assert!(
            *position == before,
            "unmake of {text} does not restore {fen}"
        );
    }
    assert_eq!(
        legal, filtered,
        "legal moves differ from filtered pseudo-legal ones in {fen}"
    );
    assert_eq!(
        position.count_legal_moves(),
        legal.len() as u64,
        "bulk count in {fen}"
    );

    let tactical: BTreeSet<String> = position
        .tactical_moves()
        .iter()
        .map(|m| position.uci(*m))
        .collect();
    let legal_tactical: BTreeSet<String> = position
        .legal_moves()
        .into_iter()
        .filter(|m| match m.kind() {
            MoveKind::EnPassant | MoveKind::Promotion => true,
            MoveKind::Normal => position.piece_at(Square::new(m.to())).is_some(),
            MoveKind::Castling => false,
        })
        .map(|m| position.uci(m))
        .collect();
    assert_eq!(
        tactical, legal_tactical,
        "captures-only generation differs from the legal captures in {fen}"
    );

    // The quiet stage's generation holds exactly the rest of the legal moves.
    let mut quiet_sink = QuietMoves {
        enemy: position.color_pieces(mover.flip()),
        moves: Vec::new(),
    };
    position.generate(&mut quiet_sink);
    let quiet: BTreeSet<String> = quiet_sink.moves.iter().map(|m| position.uci(*m)).collect();
    let rest: BTreeSet<String> = legal.difference(&legal_tactical).cloned().collect();
    assert_eq!(quiet, rest, "quiet-only generation in {fen}");

    // Check before the move equals check after it; the key predicted for
    // prefetching equals the key computed from scratch after the move
    // whenever no first-move right and no en-passant square changes.
    let in_check = position.in_check();
    for m in position.legal_moves() {
        let predicted = position.gives_check(m);
        let predicted_key = position.key_after(m);
        let (unmoved, en_passant) = (position.unmoved(), position.en_passant_squares());
        position.make_move(m);
        let actual = position.in_check();
        if position.unmoved() == unmoved
            && en_passant.is_empty()
            && position.en_passant_squares().is_empty()
        {
            assert_eq!(
                predicted_key,
                position.compute_key(),
                "key_after of {} in {fen}",
                before.uci(m)
            );
        }
        position.unmake_move();
        assert_eq!(
            predicted,
            actual,
            "gives_check of {} in {fen}",
            position.uci(m)
        );
    }
    // The legality test of single moves (table moves, killers) agrees
    // with generation, for this position's pseudo-legal moves and for
    // the opponent's moves (moves of another position).
    let mut candidates = pseudo_legal(position);
    if !in_check {
        position.make_null_move();
        candidates.extend(position.legal_moves());
        position.unmake_move();
    }
    let legal_moves = position.legal_moves();
    for candidate in candidates {
        assert_eq!(
            position.is_legal(candidate, in_check),
            legal_moves.contains(&candidate),
            "is_legal of {:?} in {fen}",
            candidate
        );
    }
}

/// The search's evaluation path agrees with the term-by-term one.
fn check_evaluation<B: Bitboard>(
    position: &Position<B>,
    evaluator: &Evaluator<B>,
    pawns: &mut PawnCache<B>,
) {
    let (fast, exact) = evaluator.evaluate_within(position, -i32::MAX, i32::MAX, pawns);
    assert!(exact);
    assert_eq!(
        fast,
        evaluator.evaluate(position),
        "evaluation paths differ in {}",
        position.fen()
    );
}

fn check_variant(name: &str) {
    let game = AnyGame::built_in(name).expect("built-in variant");
    with_game!(&game, g => {
        let params = EvalParams::for_variant(&g.variant).expect("built-in values");
        let evaluator = Evaluator::new(g, params);
        let mut pawns = PawnCache::new();
        for seed in 0..GAMES {
            let mut rng = Rng::new(seed + 1);
            let mut position = Position::startpos(g.clone());
            position.set_piece_square_table(evaluator.piece_square_table().clone());
            random_walk(&mut position, PLIES, &mut rng, |position| {
                check_position(position);
                check_evaluation(position, &evaluator, &mut pawns);
            });
        }
    });
}

#[test]
fn properties_hold_for_every_variant() {
    for name in Variant::built_in_names() {
        check_variant(name);
    }
}
