//! The HTTP interface: the page and its files, and the JSON endpoints
//! the page calls (listed in the crate's documentation). Every failure
//! is a JSON `{"error": ...}` with a fitting status; no request panics.

use std::convert::Infallible;
use std::sync::{Arc, Mutex, MutexGuard, RwLock, RwLockReadGuard, RwLockWriteGuard};

use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{header, Method, StatusCode, Uri};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use tokio_stream::wrappers::BroadcastStream;
use tokio_stream::{Stream, StreamExt};

use crate::engine_pool::EnginePool;
use crate::error::{ApiError, JsonBody, TextBody};
use crate::game_request::NewGame;
use crate::game_view::{GameEvent, GameView};
use crate::games::{engine_turn, lock, Games, SharedSeat};
use crate::live::new_game;
use crate::page;
use crate::report::{report_view, ReportView};
use crate::study::{study_game, Document, DocumentView, Documents, StudyGame};
use crate::variants::{VariantInfo, VariantRegistry};

/// The largest file the page may send (a PGN, a journal, a report).
pub const MAX_UPLOAD_BYTES: usize = 64 * 1024 * 1024;
/// The largest JSON request body.
pub const MAX_JSON_BYTES: usize = 64 * 1024;

/// Everything the server keeps.
pub struct AppState {
    variants: RwLock<VariantRegistry>,
    games: Mutex<Games>,
    documents: Mutex<Documents>,
    hash_mb: usize,
    /// After the games: dropping them stops their searches first.
    engine: EnginePool,
}

/// The state the handlers share.
pub type SharedState = Arc<AppState>;

impl AppState {
    /// The built-in variants, no games; each game's engine gets a hash
    /// table of `hash_mb` MiB; the searches run on a pool of a thread per
    /// core ([`EnginePool::for_this_machine`]).
    pub fn new(hash_mb: usize) -> Result<SharedState, String> {
        Ok(Arc::new(AppState {
            variants: RwLock::new(VariantRegistry::new()),
            games: Mutex::new(Games::new()),
            documents: Mutex::new(Documents::new()),
            hash_mb: hash_mb.max(1),
            engine: EnginePool::for_this_machine()?,
        }))
    }

    /// The pool the engine's searches run on.
    pub fn engine(&self) -> &EnginePool {
        &self.engine
    }

    // A panic while a lock was held would be a bug; what it guarded is
    // still used as that request left it.
    fn variants(&self) -> RwLockReadGuard<'_, VariantRegistry> {
        self.variants
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn variants_mut(&self) -> RwLockWriteGuard<'_, VariantRegistry> {
        self.variants
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn games(&self) -> MutexGuard<'_, Games> {
        self.games
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn documents(&self) -> MutexGuard<'_, Documents> {
        self.documents
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn seat(&self, id: &str) -> Result<SharedSeat, ApiError> {
        self.games().get(id)
    }
}

/// The server's routes (which [`crate::server::serve_on`] serves behind
/// [`crate::guard::only_own_page`]).
pub fn router(state: SharedState) -> Router {
    let uploads = Router::new()
        .route("/api/variants", get(list_variants).post(load_variant))
        .route("/api/study/pgn", post(open_pgn))
        .route("/api/study/journal", post(open_journal))
        .route("/api/report", post(open_report))
        .layer(DefaultBodyLimit::max(MAX_UPLOAD_BYTES));
    let requests = Router::new()
        .route("/", get(page::index))
        .route("/board.js", get(page::board_js))
        .route("/app.js", get(page::app_js))
        .route("/style.css", get(page::style_css))
        .route("/api/games", post(create_game))
        .route("/api/games/{id}", get(show_game).delete(delete_game))
        .route("/api/games/{id}/move", post(play_move))
        .route("/api/games/{id}/takeback", post(take_back))
        .route("/api/games/{id}/events", get(game_events))
        .route("/api/games/{id}/pgn", get(download_pgn))
        .route("/api/study/{id}/games/{index}", get(show_study_game))
        .layer(DefaultBodyLimit::max(MAX_JSON_BYTES));
    uploads
        .merge(requests)
        .fallback(no_such_endpoint)
        .method_not_allowed_fallback(method_not_allowed)
        .with_state(state)
}

async fn no_such_endpoint(method: Method, uri: Uri) -> ApiError {
    ApiError::not_found(format!("no such endpoint: {method} {}", uri.path()))
}

async fn method_not_allowed(method: Method, uri: Uri) -> ApiError {
    ApiError {
        status: StatusCode::METHOD_NOT_ALLOWED,
        message: format!("{method} is not allowed on {}", uri.path()),
    }
}

/// A path parameter, or the reason there is none.
fn path_value<T>(path: Result<Path<T>, PathRejection>) -> Result<T, ApiError> {
    path.map(|Path(value)| value).map_err(|rejection| ApiError {
        status: rejection.status(),
        message: rejection.body_text(),
    })
}

/// The `?name=` an upload gives its file, for messages.
#[derive(Deserialize)]
struct UploadName {
    name: Option<String>,
}

/// The `?name=` of an uploaded variant file, and `&variant=` the section
/// of a Fairy-Stockfish `variants.ini` to load (without it, every section
/// Kurier can play).
#[derive(Deserialize)]
struct VariantUpload {
    name: Option<String>,
    variant: Option<String>,
}

fn upload_name(query: Result<Query<UploadName>, QueryRejection>, default: &str) -> String {
    query
        .ok()
        .and_then(|Query(upload)| upload.name)
        .filter(|name| !name.trim().is_empty())
        .unwrap_or_else(|| default.to_string())
}

/// Runs the work of reading a large upload off the request threads.
async fn off_thread<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, String> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| ApiError {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            message: format!("reading the file failed: {e}"),
        })?
        .map_err(ApiError::bad_request)
}

/// `GET /api/variants`: every variant on offer.
async fn list_variants(State(app): State<SharedState>) -> Json<Vec<VariantInfo>> {
    Json(app.variants().infos())
}

/// `POST /api/variants?name=FILE[&variant=SECTION]`, a variant file's
/// text (Kurier TOML or a Fairy-Stockfish `variants.ini`): offers it.
async fn load_variant(
    State(app): State<SharedState>,
    query: Result<Query<VariantUpload>, QueryRejection>,
    TextBody(text): TextBody,
) -> Result<Json<VariantInfo>, ApiError> {
    let (name, section) = match query {
        Ok(Query(upload)) => (upload.name, upload.variant),
        Err(_) => (None, None),
    };
    let source = upload_name(Ok(Query(UploadName { name })), "the variant file");
    let game = app
        .variants_mut()
        .load(&text, &source, section.as_deref())
        .map_err(ApiError::bad_request)?;
    Ok(Json(VariantInfo::new(game.variant(), false)))
}

/// `POST /api/games`, a [`NewGame`]: starts a game; the engine moves
/// first when the person plays Black (then, with the engine busy, no
/// game is made: `503`).
async fn create_game(
    State(app): State<SharedState>,
    JsonBody(request): JsonBody<NewGame>,
) -> Result<Json<GameView>, ApiError> {
    let (game, info) = {
        let variants = app.variants();
        let game = variants
            .get(&request.variant)
            .map_err(ApiError::bad_request)?;
        let info = VariantInfo::new(game.variant(), variants.is_built_in(&request.variant));
        (game, info)
    };
    let (seat, place) = {
        let mut games = app.games();
        let live = new_game(games.next_id(), &game, info, &request, app.hash_mb)?;
        let place = if live.engine_to_move() {
            Some(app.engine.reserve()?)
        } else {
            None
        };
        (games.insert(live).1, place)
    };
    if let Some(place) = place {
        engine_turn(&seat, &app.engine, place);
    }
    let view = lock(&seat).game().view();
    Ok(Json(view))
}

/// `GET /api/games/{id}`: the game now.
async fn show_game(
    State(app): State<SharedState>,
    path: Result<Path<String>, PathRejection>,
) -> Result<Json<GameView>, ApiError> {
    let seat = app.seat(&path_value(path)?)?;
    let mut locked = lock(&seat);
    let before = locked.game().version();
    let view = locked.game().view();
    // A person's clock may have run out since the last look.
    if view.version != before {
        locked.publish();
    }
    Ok(Json(view))
}

/// `DELETE /api/games/{id}`: forgets the game (and stops its search).
async fn delete_game(
    State(app): State<SharedState>,
    path: Result<Path<String>, PathRejection>,
) -> Result<StatusCode, ApiError> {
    app.games().remove(&path_value(path)?)?;
    Ok(StatusCode::NO_CONTENT)
}

/// The body of `POST /api/games/{id}/move`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveRequest {
    /// The move in UCI notation, e.g. `e2e4`, `a7a8q`.
    uci: String,
}

/// Runs `action` on the game `id`, tells its listeners of any change,
/// lets the engine answer when `answer` (for which a place on the
/// engine's pool is taken first: busy, the action is not done), and
/// returns the game.
fn act(
    app: &AppState,
    id: &str,
    answer: bool,
    action: impl FnOnce(&mut dyn crate::live::LiveGame) -> Result<(), ApiError>,
) -> Result<Json<GameView>, ApiError> {
    let seat = app.seat(id)?;
    let place = if answer {
        Some(app.engine.reserve()?)
    } else {
        None
    };
    let outcome = {
        let mut locked = lock(&seat);
        let before = locked.game().version();
        let outcome = action(locked.game());
        if locked.game().version() != before {
            locked.publish();
        }
        outcome
    };
    outcome?;
    if let Some(place) = place {
        engine_turn(&seat, &app.engine, place);
    }
    let view = lock(&seat).game().view();
    Ok(Json(view))
}

/// `POST /api/games/{id}/move`, `{"uci": "e2e4"}`: plays the person's
/// move; the engine starts thinking about its answer (with the engine
/// busy, the move is not played: `503`).
async fn play_move(
    State(app): State<SharedState>,
    path: Result<Path<String>, PathRejection>,
    JsonBody(request): JsonBody<MoveRequest>,
) -> Result<Json<GameView>, ApiError> {
    act(&app, &path_value(path)?, true, |game| {
        game.play(&request.uci)
    })
}

/// `POST /api/games/{id}/takeback`: takes back the person's last move
/// and the engine's answer (or stops the engine thinking about it).
async fn take_back(
    State(app): State<SharedState>,
    path: Result<Path<String>, PathRejection>,
) -> Result<Json<GameView>, ApiError> {
    // The person is to move after it: the engine has nothing to answer.
    act(&app, &path_value(path)?, false, |game| game.take_back())
}

/// An SSE event named `name` with `value` as JSON.
fn sse_event(name: &str, value: &impl Serialize) -> Event {
    match serde_json::to_string(value) {
        Ok(json) => Event::default().event(name).data(json),
        // Plain structs with string keys always serialise.
        Err(e) => Event::default().event("error").data(e.to_string()),
    }
}

fn game_event(event: GameEvent) -> Event {
    match event {
        GameEvent::State(view) => sse_event("state", &view),
        GameEvent::Thinking(thinking) => sse_event("thinking", &thinking),
    }
}

/// `GET /api/games/{id}/events`: Server-Sent Events, `state` (a
/// [`GameView`], first the current one) after every change and
/// `thinking` for each search report of the engine.
async fn game_events(
    State(app): State<SharedState>,
    path: Result<Path<String>, PathRejection>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let seat = app.seat(&path_value(path)?)?;
    let (receiver, now) = {
        let mut locked = lock(&seat);
        (locked.subscribe(), locked.game().view())
    };
    let first = tokio_stream::once(GameEvent::State(Box::new(now)));
    // A page that fell behind misses some reports; the next state
    // brings it up to date.
    let later = BroadcastStream::new(receiver).filter_map(Result::ok);
    let events = first.chain(later).map(|event| Ok(game_event(event)));
    Ok(Sse::new(events).keep_alive(KeepAlive::default()))
}

/// `GET /api/games/{id}/pgn`: the game in PGN, as a download.
async fn download_pgn(
    State(app): State<SharedState>,
    path: Result<Path<String>, PathRejection>,
) -> Result<Response, ApiError> {
    let seat = app.seat(&path_value(path)?)?;
    let (pgn, file) = {
        let mut locked = lock(&seat);
        let game = locked.game();
        (game.pgn(), game.file_name())
    };
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "application/x-chess-pgn; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{file}\""),
            ),
        ],
        pgn,
    )
        .into_response())
}

/// Reads an uploaded file of games with `read` (off the request
/// threads), keeps them and lists them.
async fn open_document(
    app: &AppState,
    source: String,
    text: String,
    read: fn(&str, &str) -> Result<Document, String>,
) -> Result<Json<DocumentView>, ApiError> {
    let document = off_thread(move || read(&text, &source)).await?;
    let (id, document) = app.documents().insert(document);
    Ok(Json(DocumentView::new(id, &document)))
}

/// `POST /api/study/pgn?name=FILE`, a PGN text: keeps its games and
/// lists them.
async fn open_pgn(
    State(app): State<SharedState>,
    query: Result<Query<UploadName>, QueryRejection>,
    TextBody(text): TextBody,
) -> Result<Json<DocumentView>, ApiError> {
    let source = upload_name(query, "the PGN");
    open_document(&app, source, text, Document::from_pgn).await
}

/// `POST /api/study/journal?name=FILE`, a kurier-tune run's
/// `journal.jsonl`: keeps its games and lists them.
async fn open_journal(
    State(app): State<SharedState>,
    query: Result<Query<UploadName>, QueryRejection>,
    TextBody(text): TextBody,
) -> Result<Json<DocumentView>, ApiError> {
    let source = upload_name(query, "the journal");
    open_document(&app, source, text, Document::from_journal).await
}

/// `GET /api/study/{id}/games/{index}`: game `index` (from 0) of a kept
/// document, replayed.
async fn show_study_game(
    State(app): State<SharedState>,
    path: Result<Path<(String, String)>, PathRejection>,
) -> Result<Json<StudyGame>, ApiError> {
    let (id, index) = path_value(path)?;
    let document = app.documents().get(&id).ok_or_else(|| {
        ApiError::not_found(format!(
            "no document {id} on this server (it keeps the last {}); open the file again",
            crate::study::MAX_DOCUMENTS
        ))
    })?;
    let index: usize = index
        .parse()
        .map_err(|_| ApiError::not_found(format!("'{index}' is not a game number")))?;
    let variants = app.variants();
    study_game(&document, index, &variants).map(Json)
}

/// `POST /api/report?name=FILE`, a piece-value run's results: its values
/// table and plots.
async fn open_report(
    query: Result<Query<UploadName>, QueryRejection>,
    TextBody(text): TextBody,
) -> Result<Json<ReportView>, ApiError> {
    let source = upload_name(query, "the journal");
    off_thread(move || report_view(&text, &source))
        .await
        .map(Json)
}
