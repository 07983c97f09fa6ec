//! Checks the tactics suites in `data/tactics/<variant>.epd` (format and
//! kinds in `kurier_tests::tactics`): every FEN loads, every `bm` move is
//! legal, each variant has at least [`MIN_ENTRIES`] positions with at
//! least [`MIN_MATES`] mates (in 1, 2 and 3), and every forced win or
//! forced loss of at most three moves is confirmed by brute force: for a
//! win, the set of first moves that win fastest is exactly the `bm` set.

use std::collections::BTreeSet;
use std::path::PathBuf;

use kurier_engine::board::bitboard::Bitboard;
use kurier_engine::position::any_game::AnyGame;
use kurier_engine::position::state::Position;
use kurier_engine::variant::definition::Variant;
use kurier_engine::with_game;
use kurier_tests::tactics::{
    mate_in, outcome_now, parse_tactics, wins_within, Outcome, TacticKind, TacticsEntry,
};

/// Positions each suite must have.
const MIN_ENTRIES: usize = 15;

/// Mates (kind `mate in N`) each suite must have.
const MIN_MATES: usize = 6;

/// The longest forced win the brute force checks.
const MAX_MOVES: u32 = 3;

fn suite_path(variant: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../data/tactics")
        .join(format!("{variant}.epd"))
}

fn load(variant: &str) -> Vec<TacticsEntry> {
    let path = suite_path(variant);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    parse_tactics(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The `bm` moves, checked legal and written as the engine writes them.
fn bm_set<B: Bitboard>(
    position: &Position<B>,
    entry: &TacticsEntry,
    place: &str,
) -> BTreeSet<String> {
    let mut set = BTreeSet::new();
    for text in &entry.bm {
        let played = position
            .parse_uci(text)
            .unwrap_or_else(|e| panic!("{place}: bm {e}"));
        assert_eq!(
            &position.uci(played),
            text,
            "{place}: bm not in canonical UCI"
        );
        assert!(set.insert(text.clone()), "{place}: bm {text} listed twice");
    }
    set
}

/// The first moves that force a win in at most `moves` moves, in UCI.
fn winning_in<B: Bitboard>(position: &mut Position<B>, moves: u32) -> BTreeSet<String> {
    let found = mate_in(position, moves);
    found.into_iter().map(|m| position.uci(m)).collect()
}

/// Checks one entry; returns whether the brute force checked it.
fn check_entry<B: Bitboard>(position: &mut Position<B>, entry: &TacticsEntry, place: &str) -> bool {
    let bm = bm_set(position, entry, place);
    assert_eq!(
        outcome_now(position),
        None,
        "{place}: the game has already ended"
    );
    match entry.kind().unwrap() {
        TacticKind::Mate(n) | TacticKind::Win(n) => {
            assert!(
                (1..=MAX_MOVES).contains(&n),
                "{place}: win in {n} is not brute-forced"
            );
            let faster = winning_in(position, n - 1);
            assert!(
                faster.is_empty(),
                "{place}: wins faster than in {n}: {faster:?}"
            );
            assert_eq!(
                winning_in(position, n),
                bm,
                "{place}: the moves that win in {n}"
            );
            true
        }
        TacticKind::Draw(n) => {
            assert!(
                (1..=MAX_MOVES).contains(&n),
                "{place}: 'others lose in {n}' is not brute-forced"
            );
            for played in position.legal_moves() {
                let text = position.uci(played);
                position.make_move(played);
                let opponent_wins = wins_within(position, n);
                let result = outcome_now(position);
                position.unmake_move();
                if bm.contains(&text) {
                    assert!(
                        !opponent_wins,
                        "{place}: after bm {text} the opponent wins in {n}"
                    );
                    assert!(
                        matches!(result, None | Some(Outcome::Draw)),
                        "{place}: bm {text} ends the game as {result:?} for the opponent"
                    );
                } else {
                    assert!(opponent_wins, "{place}: {text} does not lose in {n}");
                }
            }
            true
        }
        TacticKind::Material => false,
    }
}

/// Checks a whole suite and the mix of kinds it must have.
fn run_suite(variant: &str) {
    let path = suite_path(variant);
    let entries = load(variant);
    let game = AnyGame::built_in(variant).unwrap();
    let mut ids = BTreeSet::new();
    for entry in &entries {
        let place = format!("{}:{} ({})", path.display(), entry.line, entry.id);
        assert!(
            entry.id.starts_with(&format!("{variant}-")),
            "{place}: the id should start with '{variant}-'"
        );
        assert!(ids.insert(entry.id.clone()), "{place}: duplicate id");
        let checked = with_game!(&game, g => {
            let mut position = Position::from_fen(g.clone(), &entry.fen)
                .unwrap_or_else(|e| panic!("{place}: {e}"));
            check_entry(&mut position, entry, &place)
        });
        assert_eq!(
            checked,
            entry.kind().unwrap() != TacticKind::Material,
            "{place}"
        );
    }
    let kinds: Vec<TacticKind> = entries.iter().map(|e| e.kind().unwrap()).collect();
    let name = path.display();
    assert!(
        entries.len() >= MIN_ENTRIES,
        "{name}: {} positions, at least {MIN_ENTRIES} wanted",
        entries.len()
    );
    let mates = kinds
        .iter()
        .filter(|k| matches!(k, TacticKind::Mate(_)))
        .count();
    assert!(
        mates >= MIN_MATES,
        "{name}: {mates} mates, at least {MIN_MATES} wanted"
    );
    for n in 1..=MAX_MOVES {
        assert!(
            kinds.contains(&TacticKind::Mate(n)),
            "{name}: no mate in {n}"
        );
    }
    assert!(
        kinds.contains(&TacticKind::Material),
        "{name}: no material tactic"
    );
    if game.variant().bare_king {
        assert!(
            kinds.iter().any(|k| matches!(k, TacticKind::Win(_))),
            "{name}: no bare-king or stalemate win"
        );
        assert!(
            kinds.iter().any(|k| matches!(k, TacticKind::Draw(_))),
            "{name}: no bared-king draw"
        );
    }
}

#[test]
fn chess() {
    run_suite("chess");
}

#[test]
fn courier() {
    run_suite("courier");
}

#[test]
fn courier_moderno() {
    run_suite("courier-moderno");
}

#[test]
fn enhanced_courier() {
    run_suite("enhanced-courier");
}

#[test]
fn excoco() {
    run_suite("excoco");
}

#[test]
fn every_variant_has_a_suite() {
    for name in Variant::built_in_names() {
        assert!(suite_path(name).exists(), "no tactics suite for {name}");
    }
}
