//! Kurier's integration tests: a naive reference move generator written
//! from RULES.md alone, hand-counted positions, perft-suite reading, and
//! helpers to walk through random games. The tests themselves are in
//! `tests/`.

pub mod epd;
pub mod hand_counted;
pub mod play;
pub mod reference;
