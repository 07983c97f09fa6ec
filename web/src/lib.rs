//! Kurier's browser board, `kurier serve [--port P] [--open]`: a local
//! web server (axum on tokio) and one page of plain HTML, CSS and
//! JavaScript (`web/page/`, built into the binary; nothing is loaded
//! from elsewhere).
//!
//! The page plays any variant (built in, or a variant file it loads)
//! against the engine on a clock or a node budget, shows the engine's
//! depth, score and principal variation while it thinks, takes moves
//! back and downloads the game as PGN; it replays the games of a
//! tournament PGN or of a kurier-tune run's journal with the score of
//! every move and an evaluation graph; and it shows a piece-value
//! report's table and plots. Each tab plays its own game; the server
//! keeps [`games::MAX_GAMES`] of them.
//!
//! The JSON endpoints ([`api`]); every error is `{"error": "..."}`:
//!
//! | request | body | answer |
//! |---|---|---|
//! | `GET /api/variants` | | the variants ([`variants::VariantInfo`]) |
//! | `POST /api/variants?name=F[&variant=S]` | a variant file (TOML, or a Fairy-Stockfish variants.ini: section S, or every section Kurier can play) | the (first) variant loaded |
//! | `POST /api/games` | [`game_request::NewGame`] | the game ([`game_view::GameView`]) |
//! | `GET /api/games/{id}` | | the game |
//! | `POST /api/games/{id}/move` | `{"uci": "e2e4"}` | the game, or why the move is refused |
//! | `POST /api/games/{id}/takeback` | | the game |
//! | `GET /api/games/{id}/events` | | Server-Sent Events: `state` (a game view), `thinking` ([`thinking::Thinking`]) |
//! | `GET /api/games/{id}/pgn` | | the game in PGN |
//! | `DELETE /api/games/{id}` | | `204` |
//! | `POST /api/study/pgn?name=F` | a PGN | its games ([`study::DocumentView`]) |
//! | `POST /api/study/journal?name=F` | a run's `journal.jsonl` | its games |
//! | `GET /api/study/{id}/games/{n}` | | game `n` replayed ([`study::StudyGame`]) |
//! | `POST /api/report?name=F` | a piece-value run's `*-values-results.json` | table and plots ([`report::ReportView`]) |
//!
//! Only the board's own page may drive the server ([`guard`]). It
//! listens on 127.0.0.1 only; a request addressed to another host (its
//! `Host`) is refused with `421` (`400` with no host), so that no web
//! page reaches it by DNS rebinding; a `POST`, `PUT`, `PATCH` or
//! `DELETE` from another site's page (its `Origin`, or without one
//! `Sec-Fetch-Site: cross-site` or `same-site`) with `403`. A request
//! with neither (curl, the tests) comes from a program on this machine
//! and is served. The engine's searches run on a pool of a thread per
//! core ([`engine_pool`]), never on the threads that answer requests;
//! with every thread searching and [`engine_pool::MAX_WAITING_SEARCHES`]
//! waiting, a request that would start one more (a new game with the
//! engine to move, a move) gets `503` with `Retry-After` and changes
//! nothing. A game dropped stops its search.

pub mod api;
pub mod engine_pool;
pub mod error;
pub mod game_request;
pub mod game_view;
pub mod games;
pub mod guard;
pub mod live;
pub mod page;
pub mod report;
pub mod server;
pub mod study;
pub mod thinking;
pub mod variants;
pub mod view;
