//! Kurier's integration tests: a naive reference move generator written
//! from docs/RULES.md alone, hand-counted positions, perft-suite reading,
//! helpers to walk through random games, tactics-suite reading with a
//! brute-force mate finder, and the import graph of the crates' sources.
//! The tests themselves are in `tests/`.

pub mod epd;
pub mod hand_counted;
pub mod layout;
pub mod play;
pub mod reference;
pub mod tactics;
