//! What games leave behind: the record of a game, PGN, the JSON-lines
//! journals of runs, and the variant a run plays.

pub mod game_record;
pub mod line_journal;
pub mod pgn;
pub mod variant_source;
