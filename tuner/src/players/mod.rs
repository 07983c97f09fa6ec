//! Who sits at the board: in-process Kurier settings and external UCI
//! engines, the seats through which a game asks them for moves, and their
//! clocks.

pub mod clock;
pub mod engine_pool;
pub mod player_spec;
pub mod seat;
pub mod uci_engine;
