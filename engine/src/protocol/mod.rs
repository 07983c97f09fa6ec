//! What talks to the outside: the UCI and XBoard protocols, the session
//! state they share, and the `bench` command.

pub mod bench;
pub mod session;
pub mod uci;
pub mod xboard;
