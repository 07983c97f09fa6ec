//! The engine against the reference generator (`kurier_tests::reference`,
//! plain arrays, written from docs/RULES.md alone): in every position reached
//! by random play in every variant, and from every hand-counted position,
//! both must see the same legal moves, and after every one of them write
//! the same FEN (pieces, side, rights, en passant, clocks).

use std::collections::BTreeSet;

use kurier_engine::board::bitboard::Bitboard;
use kurier_engine::position::any_game::AnyGame;
use kurier_engine::position::state::Position;
use kurier_engine::variant::definition::Variant;
use kurier_engine::with_game;
use kurier_tests::hand_counted::HAND_COUNTED;
use kurier_tests::play::Rng;
use kurier_tests::reference::RefPosition;

/// Compares the two generators on one position and on every move from it.
fn compare<B: Bitboard>(variant: &str, position: &mut Position<B>) {
    let fen = position.fen();
    let reference = RefPosition::from_fen(variant, &fen)
        .unwrap_or_else(|e| panic!("reference rejects {fen}: {e}"));
    assert_eq!(reference.to_fen(), fen, "the two FEN writers differ");
    let expected: BTreeSet<String> = reference.legal_moves().into_iter().collect();
    let moves = position.legal_moves();
    let found: BTreeSet<String> = moves.iter().map(|m| position.uci(*m)).collect();
    assert_eq!(
        found,
        expected,
        "{variant} {fen}\nonly engine: {:?}\nonly reference: {:?}",
        found.difference(&expected).collect::<Vec<_>>(),
        expected.difference(&found).collect::<Vec<_>>()
    );
    assert_eq!(found.len(), moves.len(), "duplicate moves in {fen}");
    for legal in moves {
        let text = position.uci(legal);
        position.make_move(legal);
        let after = position.fen();
        position.unmake_move();
        let expected_after = reference.play(&text).map(|p| p.to_fen());
        assert_eq!(Ok(after), expected_after, "{variant} {fen} after {text}");
    }
}

/// Plays `plies` random moves from `position`, comparing at every step.
/// Half the time a capture or pawn move is preferred, so that games reach
/// promotions and bare endings.
fn walk<B: Bitboard>(
    variant: &str,
    position: &mut Position<B>,
    plies: usize,
    rng: &mut Rng,
) -> usize {
    let mut compared = 0;
    for _ in 0..plies {
        compare(variant, position);
        compared += 1;
        let moves = position.legal_moves();
        if moves.is_empty() {
            break;
        }
        let forcing: Vec<_> = moves
            .iter()
            .copied()
            .filter(|m| {
                let from = position.piece_at(kurier_engine::types::Square::new(m.from()));
                let pawn = from.is_some_and(|p| position.game().is_pawn(p.piece_type()));
                pawn || position
                    .piece_at(kurier_engine::types::Square::new(m.to()))
                    .is_some()
            })
            .collect();
        let pool = if !forcing.is_empty() && rng.below(2) == 0 {
            &forcing
        } else {
            &moves
        };
        position.make_move(pool[rng.below(pool.len())]);
    }
    compared
}

/// Random games from the start of `name`; returns the positions compared.
fn from_start(name: &str, games: u64, plies: usize) -> usize {
    let game = AnyGame::built_in(name).unwrap();
    let mut compared = 0;
    with_game!(&game, g => {
        for seed in 0..games {
            let mut rng = Rng::new(1000 + seed);
            let mut position = Position::startpos(g.clone());
            compared += walk(name, &mut position, plies, &mut rng);
        }
    });
    compared
}

#[test]
fn hand_counted_positions() {
    for case in HAND_COUNTED {
        let game = AnyGame::built_in(case.variant).unwrap();
        with_game!(&game, g => {
            let mut position = Position::from_fen(g.clone(), case.fen).unwrap_or_else(|e| panic!("{}: {e}", case.fen));
            assert_eq!(position.legal_moves().len(), case.moves, "{} {}: {}", case.variant, case.fen, case.why);
            compare(case.variant, &mut position);
        });
    }
}

#[test]
fn random_games_from_hand_counted_positions() {
    for (index, case) in HAND_COUNTED.iter().enumerate() {
        let game = AnyGame::built_in(case.variant).unwrap();
        with_game!(&game, g => {
            for seed in 0..4 {
                let mut rng = Rng::new(index as u64 * 16 + seed);
                let mut position = Position::from_fen(g.clone(), case.fen).unwrap();
                walk(case.variant, &mut position, 40, &mut rng);
            }
        });
    }
}

macro_rules! random_games {
    ($($test:ident: $variant:literal, $games:literal games of $plies:literal plies;)*) => {$(
        #[test]
        fn $test() {
            let compared = from_start($variant, $games, $plies);
            assert!(compared >= $games * 20, "too few positions compared: {compared}");
        }
    )*};
}

random_games! {
    random_games_chess: "chess", 20 games of 150 plies;
    random_games_courier: "courier", 20 games of 200 plies;
    random_games_courier_moderno: "courier-moderno", 20 games of 200 plies;
    random_games_enhanced_courier: "enhanced-courier", 20 games of 200 plies;
    random_games_excoco: "excoco", 8 games of 250 plies;
}

#[test]
fn every_built_in_variant_is_compared() {
    let tested = [
        "chess",
        "courier",
        "courier-moderno",
        "enhanced-courier",
        "excoco",
    ];
    assert_eq!(Variant::built_in_names(), tested);
}
