//! The search: alpha-beta with its move ordering, move statistics, the
//! transposition table, time management, and the threads of Lazy SMP.

pub mod alpha_beta;
pub mod history;
pub mod interface;
pub mod movepick;
pub mod threads;
pub mod timeman;
pub mod tt;
