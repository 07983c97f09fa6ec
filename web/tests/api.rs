//! Every endpoint of the server, with good input and with bad: malformed
//! JSON, unknown variants and games, illegal moves, huge FENs, broken
//! files. Each bad request gets its status and a message saying what is
//! wrong; none panics. Requests go to the router in process.

use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use kurier_engine::position::any_game::AnyGame;
use kurier_engine::with_game;
use kurier_tuner::records::pgn::{read_games, replay};
use kurier_web::api::{router, AppState, MAX_JSON_BYTES};
use kurier_web::game_request::MAX_FEN_BYTES;
use kurier_web::games::MAX_GAMES;
use serde_json::{json, Value};
use tokio_stream::StreamExt;
use tower::ServiceExt;

const RUN_FOLDER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/courier-match");

fn app() -> Router {
    router(AppState::new(1).expect("the engine's threads start"))
}

/// The status and the body (JSON, or the text as a JSON string).
async fn call(
    app: &Router,
    method: &str,
    uri: &str,
    content_type: Option<&str>,
    body: impl Into<Body>,
) -> (StatusCode, Value) {
    let mut request = Request::builder().method(method).uri(uri);
    if let Some(content_type) = content_type {
        request = request.header("content-type", content_type);
    }
    let request = request.body(body.into()).expect("a well-formed request");
    let response = app
        .clone()
        .oneshot(request)
        .await
        .expect("the router answers");
    let status = response.status();
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .expect("the whole body");
    let text = String::from_utf8_lossy(&bytes).to_string();
    let value = serde_json::from_str(&text).unwrap_or(Value::String(text));
    (status, value)
}

async fn get(app: &Router, uri: &str) -> (StatusCode, Value) {
    call(app, "GET", uri, None, Body::empty()).await
}

async fn post_json(app: &Router, uri: &str, body: Value) -> (StatusCode, Value) {
    call(app, "POST", uri, Some("application/json"), body.to_string()).await
}

async fn post_text(app: &Router, uri: &str, text: impl Into<Body>) -> (StatusCode, Value) {
    call(app, "POST", uri, Some("text/plain"), text).await
}

/// The error message of a failed request, checked to have `status`.
fn error_of((status, body): (StatusCode, Value), expected: StatusCode) -> String {
    assert_eq!(status, expected, "{body}");
    body["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error message in {body}"))
        .to_string()
}

fn new_game(variant: &str, human: &str, nodes: u64) -> Value {
    json!({ "variant": variant, "human": human, "limit": { "kind": "nodes", "nodes": nodes } })
}

async fn create(app: &Router, request: Value) -> Value {
    let (status, view) = post_json(app, "/api/games", request).await;
    assert_eq!(status, StatusCode::OK, "{view}");
    view
}

/// Polls the game until `done` holds for its view (at most 60 s).
async fn wait_for(app: &Router, id: u64, what: &str, done: impl Fn(&Value) -> bool) -> Value {
    let started = Instant::now();
    loop {
        let (status, view) = get(app, &format!("/api/games/{id}")).await;
        assert_eq!(status, StatusCode::OK, "{view}");
        if done(&view) {
            return view;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "timed out waiting for {what}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

fn moves(view: &Value) -> usize {
    view["moves"].as_array().map_or(0, Vec::len)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_is_played_taken_back_and_written_as_pgn() {
    let app = app();
    let view = create(&app, new_game("chess", "white", 2_000)).await;
    let id = view["id"].as_u64().unwrap();
    assert_eq!(view["position"]["side_to_move"], "white");
    // Twenty legal moves from the start: sixteen pawn moves, four knight moves.
    assert_eq!(view["legal"].as_array().unwrap().len(), 20);
    assert_eq!(view["variant"]["files"], 8);

    let (status, played) = post_json(
        &app,
        &format!("/api/games/{id}/move"),
        json!({"uci": "e2e4"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{played}");
    assert_eq!(played["moves"][0]["san"], "e4");
    assert_eq!(
        &played["position"]["board"].as_str().unwrap()[24..32],
        "....P..."
    );
    let answered = wait_for(&app, id, "the engine's answer", |v| {
        moves(v) == 2 && v["thinking"] == false
    })
    .await;
    let reply = &answered["moves"][1];
    assert!(
        reply["score"].is_object() && reply["depth"].as_u64().unwrap() > 0,
        "{reply}"
    );
    assert!(!answered["legal"].as_array().unwrap().is_empty());

    // The PGN: kurier-tune's form, readable and replayable.
    let (status, pgn) = get(&app, &format!("/api/games/{id}/pgn")).await;
    assert_eq!(status, StatusCode::OK);
    let pgn = pgn.as_str().unwrap().to_string();
    assert!(pgn.starts_with("[Event \"kurier serve\"]\n"), "{pgn}");
    assert!(
        pgn.contains("[White \"Human\"]") && pgn.contains("[Result \"*\"]"),
        "{pgn}"
    );
    let games = read_games(&pgn).unwrap();
    assert_eq!(games[0].moves[0], "e4");
    assert_eq!(games[0].moves[1], reply["san"].as_str().unwrap());
    // The person's move has its time only; the engine's its score/depth too.
    assert!(
        games[0].comments[0].ends_with('s') && !games[0].comments[0].contains('/'),
        "{pgn}"
    );
    assert!(
        games[0].comments[1].contains(&format!("/{} ", reply["depth"])),
        "{pgn}"
    );
    let chess = AnyGame::built_in("chess").unwrap();
    let replayed = with_game!(&chess, g => replay(g, &games[0]).map(|(_, moves)| moves.len()));
    assert_eq!(replayed, Ok(2));

    let (status, back) = post_json(&app, &format!("/api/games/{id}/takeback"), json!({})).await;
    assert_eq!(status, StatusCode::OK, "{back}");
    assert_eq!(moves(&back), 0);
    assert_eq!(back["can_take_back"], false);
    let error = error_of(
        post_json(&app, &format!("/api/games/{id}/takeback"), json!({})).await,
        StatusCode::CONFLICT,
    );
    assert_eq!(error, "there is no move of yours to take back");

    let (status, _) = call(
        &app,
        "DELETE",
        &format!("/api/games/{id}"),
        None,
        Body::empty(),
    )
    .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let error = error_of(
        get(&app, &format!("/api/games/{id}")).await,
        StatusCode::NOT_FOUND,
    );
    assert!(
        error.starts_with(&format!("no game {id} on this server")),
        "{error}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn several_games_run_at_once_and_the_engine_moves_first_as_white() {
    let app = app();
    let black = create(&app, new_game("excoco", "black", 1_000)).await;
    let white = create(&app, new_game("courier-moderno", "white", 1_000)).await;
    let (black_id, white_id) = (black["id"].as_u64().unwrap(), white["id"].as_u64().unwrap());
    assert_ne!(black_id, white_id);
    // Both games' moves at once: the engine's first in the ExCoCo game,
    // the person's in the other.
    let moving = format!("/api/games/{white_id}/move");
    let play = post_json(&app, &moving, json!({"uci": "f2f4"}));
    let answer = wait_for(&app, black_id, "ExCoCo's first move", |v| {
        moves(v) == 1 && v["thinking"] == false
    });
    let ((status, _), first) = tokio::join!(play, answer);
    assert_eq!(status, StatusCode::OK);
    assert_eq!(first["position"]["side_to_move"], "black");
    assert_eq!(first["variant"]["ranks"], 10);
    let other = wait_for(&app, white_id, "the courier-moderno answer", |v| {
        moves(v) == 2
    })
    .await;
    assert_eq!(other["moves"][0]["san"], "f4");
    assert_eq!(other["variant"]["name"], "courier-moderno");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn past_the_bound_the_least_recently_used_game_goes() {
    let app = app();
    let first = create(&app, new_game("chess", "white", 10)).await["id"]
        .as_u64()
        .unwrap();
    let second = create(&app, new_game("chess", "white", 10)).await["id"]
        .as_u64()
        .unwrap();
    for _ in 2..MAX_GAMES {
        create(&app, new_game("chess", "white", 10)).await;
    }
    // Using the first makes the second the least recently used.
    let (status, _) = get(&app, &format!("/api/games/{first}")).await;
    assert_eq!(status, StatusCode::OK);
    create(&app, new_game("chess", "white", 10)).await;
    let (status, _) = get(&app, &format!("/api/games/{first}")).await;
    assert_eq!(status, StatusCode::OK);
    let error = error_of(
        get(&app, &format!("/api/games/{second}")).await,
        StatusCode::NOT_FOUND,
    );
    assert!(
        error.contains(&format!("keeps the {MAX_GAMES} games used last")),
        "{error}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_clock_runs_out_and_the_game_ends_on_time() {
    let app = app();
    let view = create(
        &app,
        json!({"variant": "courier", "human": "white", "limit": {"kind": "clock", "base_ms": 50, "increment_ms": 0}}),
    )
    .await;
    let id = view["id"].as_u64().unwrap();
    assert!(view["clock"]["white_ms"].as_u64().unwrap() <= 50);
    assert_eq!(view["clock"]["running"], "white");
    tokio::time::sleep(Duration::from_millis(120)).await;
    let (_, over) = get(&app, &format!("/api/games/{id}")).await;
    assert_eq!(over["over"]["termination"], "time forfeit", "{over}");
    assert_eq!(over["over"]["winner"], "black");
    assert_eq!(over["over"]["result"], "0-1");
    let error = error_of(
        post_json(
            &app,
            &format!("/api/games/{id}/move"),
            json!({"uci": "e3e4"}),
        )
        .await,
        StatusCode::CONFLICT,
    );
    assert!(
        error.starts_with("the game is over (0-1 by time forfeit)"),
        "{error}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_game_requests_are_refused_with_a_reason() {
    let app = app();
    let games = "/api/games";
    let error = error_of(
        call(
            &app,
            "POST",
            games,
            Some("application/json"),
            "{\"variant\": ",
        )
        .await,
        StatusCode::BAD_REQUEST,
    );
    assert!(error.starts_with("the request body:"), "{error}");
    let error = error_of(
        call(&app, "POST", games, None, "{}").await,
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
    );
    assert!(error.contains("Content-Type"), "{error}");
    let error = error_of(
        post_json(&app, games, json!({"variant": "chess"})).await,
        StatusCode::UNPROCESSABLE_ENTITY,
    );
    assert!(error.contains("missing field"), "{error}");
    let error = error_of(post_json(&app, games, json!({"variant": "chess", "human": "white", "limit": {"kind": "nodes", "nodes": 10}, "colour": 1})).await, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(error.contains("unknown field `colour`"), "{error}");
    let error = error_of(
        post_json(
            &app,
            games,
            json!({"variant": "chess", "human": "green", "limit": {"kind": "nodes", "nodes": 10}}),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
    );
    assert!(error.contains("green"), "{error}");
    let error = error_of(
        post_json(&app, games, new_game("nonesuch", "white", 10)).await,
        StatusCode::BAD_REQUEST,
    );
    assert!(
        error.starts_with("unknown variant 'nonesuch' (known: chess, courier,"),
        "{error}"
    );
    let error = error_of(
        post_json(&app, games, new_game("chess", "white", 0)).await,
        StatusCode::BAD_REQUEST,
    );
    assert_eq!(error, "the node budget must be 1 to 100000000, not 0");
    let clock = json!({"variant": "chess", "human": "white", "limit": {"kind": "clock", "base_ms": 0, "increment_ms": 0}});
    let error = error_of(post_json(&app, games, clock).await, StatusCode::BAD_REQUEST);
    assert!(
        error.starts_with("the clock's base time must be"),
        "{error}"
    );

    // FENs: malformed, longer than a FEN may be, larger than a request.
    let mut request = new_game("chess", "white", 10);
    request["fen"] = json!("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1");
    let error = error_of(
        post_json(&app, games, request.clone()).await,
        StatusCode::BAD_REQUEST,
    );
    assert!(error.starts_with("the FEN: "), "{error}");
    request["fen"] = json!("8/".repeat(3_000));
    let error = error_of(
        post_json(&app, games, request.clone()).await,
        StatusCode::BAD_REQUEST,
    );
    assert_eq!(
        error,
        format!(
            "the FEN is 6000 bytes long; a FEN of this server may have at most {MAX_FEN_BYTES}"
        )
    );
    request["fen"] = json!("8".repeat(MAX_JSON_BYTES + 1));
    let error = error_of(
        post_json(&app, games, request).await,
        StatusCode::PAYLOAD_TOO_LARGE,
    );
    assert!(error.contains("length limit"), "{error}");

    // A game that is over from its start: fool's mate.
    let mut mated = new_game("chess", "white", 10);
    mated["fen"] = json!("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    let over = create(&app, mated).await;
    assert_eq!(over["over"]["termination"], "checkmate");
    assert_eq!(over["over"]["winner"], "black");
    let id = over["id"].as_u64().unwrap();
    let error = error_of(
        post_json(
            &app,
            &format!("/api/games/{id}/move"),
            json!({"uci": "a2a3"}),
        )
        .await,
        StatusCode::CONFLICT,
    );
    assert!(
        error.starts_with("the game is over (0-1 by checkmate)"),
        "{error}"
    );

    // Moves: illegal, not a move, the engine's turn, a bad body.
    let view = create(&app, new_game("chess", "white", 200_000)).await;
    let id = view["id"].as_u64().unwrap();
    let moving = format!("/api/games/{id}/move");
    let error = error_of(
        post_json(&app, &moving, json!({"uci": "e2e5"})).await,
        StatusCode::BAD_REQUEST,
    );
    assert_eq!(
        error,
        "move 'e2e5': it is not a legal move in this position"
    );
    let error = error_of(
        post_json(&app, &moving, json!({"uci": "zz"})).await,
        StatusCode::BAD_REQUEST,
    );
    assert_eq!(
        error,
        "move 'zz': it does not start with a square of the board"
    );
    let error = error_of(
        post_json(&app, &moving, json!({"uci": "e2e4".repeat(10_000)})).await,
        StatusCode::BAD_REQUEST,
    );
    assert_eq!(
        error,
        "move 'e2e4e2e4e2e4...': 40000 characters, too long for a move"
    );
    let error = error_of(
        post_json(&app, &moving, json!({"move": "e2e4"})).await,
        StatusCode::UNPROCESSABLE_ENTITY,
    );
    assert!(error.contains("unknown field `move`"), "{error}");
    let (status, _) = post_json(&app, &moving, json!({"uci": "e2e4"})).await;
    assert_eq!(status, StatusCode::OK);
    let error = error_of(
        post_json(&app, &moving, json!({"uci": "d2d4"})).await,
        StatusCode::CONFLICT,
    );
    assert_eq!(error, "it is Kurier's move; wait for it or take back");
    // Take-back while the engine thinks stops it.
    let (status, back) = post_json(&app, &format!("/api/games/{id}/takeback"), json!({})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!((moves(&back), back["thinking"].as_bool()), (0, Some(false)));

    // Unknown games, on every game endpoint.
    for (method, path) in [
        ("GET", "/api/games/999"),
        ("GET", "/api/games/abc"),
        ("DELETE", "/api/games/999"),
        ("POST", "/api/games/999/takeback"),
        ("GET", "/api/games/999/events"),
        ("GET", "/api/games/999/pgn"),
    ] {
        let error = error_of(
            call(&app, method, path, None, Body::empty()).await,
            StatusCode::NOT_FOUND,
        );
        assert!(error.starts_with("no game "), "{method} {path}: {error}");
    }
    let error = error_of(
        post_json(&app, "/api/games/999/move", json!({"uci": "e2e4"})).await,
        StatusCode::NOT_FOUND,
    );
    assert!(error.starts_with("no game 999"), "{error}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn events_stream_the_state_first() {
    let app = app();
    let view = create(&app, new_game("courier", "white", 1_000)).await;
    let id = view["id"].as_u64().unwrap();
    let request = Request::builder()
        .uri(format!("/api/games/{id}/events"))
        .body(Body::empty())
        .unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["content-type"], "text/event-stream");
    let mut stream = response.into_body().into_data_stream();
    let first = tokio::time::timeout(Duration::from_secs(10), stream.next())
        .await
        .expect("an event within 10 s")
        .expect("an event")
        .expect("its bytes");
    let text = String::from_utf8_lossy(&first).to_string();
    assert!(text.starts_with("event: state\ndata: {"), "{text}");
    assert!(text.contains(&format!("\"id\":{id},")), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn variant_files_load_or_say_what_is_wrong() {
    let app = app();
    let (status, variants) = get(&app, "/api/variants").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(variants.as_array().unwrap().len(), 5);
    let example = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../data/variants/examples/courier-spiel.toml"
    ))
    .unwrap();
    let (status, loaded) = post_text(
        &app,
        "/api/variants?name=courier-spiel.toml",
        example.clone(),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{loaded}");
    let name = loaded["name"].as_str().unwrap().to_string();
    assert_eq!(loaded["built_in"], false);
    let (_, variants) = get(&app, "/api/variants").await;
    assert_eq!(variants.as_array().unwrap().len(), 6);
    let game = create(&app, new_game(&name, "white", 500)).await;
    assert_eq!(game["variant"]["name"], name.as_str());

    let broken = example.replacen("betza = \"N\"", "betza = \"FfX\"", 1);
    assert_ne!(broken, example);
    let error = error_of(
        post_text(&app, "/api/variants?name=mine.toml", broken).await,
        StatusCode::BAD_REQUEST,
    );
    assert!(
        error.starts_with("variant file mine.toml: pieces[") && error.contains("].betza: "),
        "{error}"
    );
    let error = error_of(
        post_text(&app, "/api/variants?name=x.toml", "name = ").await,
        StatusCode::BAD_REQUEST,
    );
    assert!(error.starts_with("variant file x.toml: syntax"), "{error}");
    let courier = kurier_engine::variant::definition::BUILT_IN[1].1;
    let error = error_of(
        post_text(&app, "/api/variants", courier).await,
        StatusCode::BAD_REQUEST,
    );
    assert!(
        error.contains("'courier' is the name of a built-in variant"),
        "{error}"
    );
    let error = error_of(
        post_text(&app, "/api/variants", vec![0xff_u8, 0xfe, 0x00]).await,
        StatusCode::BAD_REQUEST,
    );
    assert!(error.contains("UTF-8"), "{error}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fairy_stockfish_variants_ini_offers_the_sections_kurier_plays() {
    let app = app();
    let ini = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../data/variants/fairy-stockfish/variants.ini"
    ))
    .unwrap();
    let (status, loaded) = post_text(&app, "/api/variants?name=variants.ini", ini.clone()).await;
    assert_eq!(status, StatusCode::OK, "{loaded}");
    assert_eq!(loaded["name"], "indiangreat");
    let (_, variants) = get(&app, "/api/variants").await;
    // The five built-in variants and the file's 13 sections.
    assert_eq!(variants.as_array().unwrap().len(), 5 + 13);
    let game = create(&app, new_game("chessvshp", "white", 500)).await;
    assert_eq!(game["variant"]["name"], "chessvshp");

    let mine = "[mine:chess]\nmustCapture = true\n";
    let error = error_of(
        post_text(&app, "/api/variants?name=mine.ini&variant=mine", mine).await,
        StatusCode::BAD_REQUEST,
    );
    assert!(
        error.starts_with("variant file mine.ini: [mine] line 2: mustCapture"),
        "{error}"
    );
    let error = error_of(
        post_text(&app, "/api/variants?name=mine.ini", mine).await,
        StatusCode::BAD_REQUEST,
    );
    assert!(error.contains("no variant of it can be played"), "{error}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tournament_files_are_listed_and_replayed() {
    let app = app();
    let pgn = std::fs::read_to_string(format!("{RUN_FOLDER}/games.pgn")).unwrap();
    let expected = read_games(&pgn).unwrap();
    let (status, document) = post_text(&app, "/api/study/pgn?name=games.pgn", pgn.clone()).await;
    assert_eq!(status, StatusCode::OK, "{document}");
    let listed = document["games"].as_array().unwrap();
    assert_eq!(listed.len(), expected.len());
    assert_eq!(
        document["title"],
        format!("games.pgn: {} games", expected.len())
    );
    let id = document["id"].as_u64().unwrap();
    let (status, game) = get(&app, &format!("/api/study/{id}/games/2")).await;
    assert_eq!(status, StatusCode::OK);
    let plies = game["plies"].as_array().unwrap();
    assert_eq!(plies.len(), expected[2].moves.len());
    assert_eq!(game["error"], Value::Null);
    // The first move's comment, `{+0.49/8 0.120s}` say, read by hand: the
    // score is the mover's, in pawns.
    let comment = &expected[2].comments[0];
    let (score, rest) = comment.split_once('/').unwrap();
    let depth: u64 = rest.split_whitespace().next().unwrap().parse().unwrap();
    let pawns: f64 = score.parse().unwrap();
    let white_moves_first = game["start"]["side_to_move"] == "white";
    let centipawns = (pawns * 100.0).round() as i64 * if white_moves_first { 1 } else { -1 };
    assert_eq!(
        plies[0]["move"]["score"]["cp"].as_i64(),
        Some(centipawns),
        "{comment}"
    );
    assert_eq!(plies[0]["move"]["depth"].as_u64(), Some(depth));
    assert_eq!(plies[0]["move"]["san"], expected[2].moves[0].as_str());

    // The run's journal holds the same games.
    let journal = std::fs::read_to_string(format!("{RUN_FOLDER}/journal.jsonl")).unwrap();
    let (status, from_journal) =
        post_text(&app, "/api/study/journal?name=journal.jsonl", journal).await;
    assert_eq!(status, StatusCode::OK, "{from_journal}");
    let mut rounds: Vec<(String, u64)> = from_journal["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["round"].as_str().unwrap().to_string(),
                g["plies"].as_u64().unwrap(),
            )
        })
        .collect();
    rounds.sort();
    let mut in_pgn: Vec<(String, u64)> = listed
        .iter()
        .map(|g| {
            (
                g["round"].as_str().unwrap().to_string(),
                g["plies"].as_u64().unwrap(),
            )
        })
        .collect();
    in_pgn.sort();
    assert_eq!(rounds, in_pgn);
    assert!(from_journal["title"]
        .as_str()
        .unwrap()
        .contains("match on courier, kurier vs material-only"));

    // Bad files and unknown documents or games.
    let error = error_of(
        post_text(&app, "/api/study/pgn?name=empty.pgn", "").await,
        StatusCode::BAD_REQUEST,
    );
    assert_eq!(error, "empty.pgn: no game in it");
    let error = error_of(
        post_text(
            &app,
            "/api/study/pgn?name=bad.pgn",
            "[Event \"x\"]\n1. e4 {open\n",
        )
        .await,
        StatusCode::BAD_REQUEST,
    );
    assert!(
        error.starts_with("bad.pgn: PGN line 2: comment '{' is never closed"),
        "{error}"
    );
    let error = error_of(
        post_text(&app, "/api/study/journal?name=j.jsonl", "{\"x\": 1}\n").await,
        StatusCode::BAD_REQUEST,
    );
    assert!(error.contains("not a kurier-tune journal"), "{error}");
    let error = error_of(
        get(&app, "/api/study/999/games/0").await,
        StatusCode::NOT_FOUND,
    );
    assert!(error.starts_with("no document 999"), "{error}");
    let error = error_of(
        get(&app, &format!("/api/study/{id}/games/99")).await,
        StatusCode::NOT_FOUND,
    );
    assert!(
        error.starts_with("no game 99 in this document (it has 4"),
        "{error}"
    );
    let error = error_of(
        get(&app, &format!("/api/study/{id}/games/x")).await,
        StatusCode::NOT_FOUND,
    );
    assert_eq!(error, "'x' is not a game number");
    let (status, shogi) = post_text(
        &app,
        "/api/study/pgn?name=s.pgn",
        "[Variant \"shogi\"]\n1. P7f *\n",
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let error = error_of(
        get(&app, &format!("/api/study/{}/games/0", shogi["id"])).await,
        StatusCode::BAD_REQUEST,
    );
    assert!(error.starts_with("unknown variant 'shogi'"), "{error}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reports_give_their_table_or_say_what_is_wrong() {
    let app = app();
    let results = include_str!("../../reports/courier-spiel-values-results.json");
    let (status, report) = post_text(&app, "/api/report?name=cs.json", results).await;
    assert_eq!(status, StatusCode::OK, "{report}");
    assert_eq!(report["variant"], "courier-spiel");
    // The pawn and the seven pieces but the king of reports/courier-spiel-values.md,
    // in the verdicts and in the values.
    assert_eq!(report["verdict_rows"].as_array().unwrap().len(), 8);
    assert_eq!(report["rows"].as_array().unwrap().len(), 8);
    assert_eq!(report["plots"].as_array().unwrap().len(), 1);
    let error = error_of(
        post_text(&app, "/api/report?name=r.json", "[1, 2").await,
        StatusCode::BAD_REQUEST,
    );
    assert!(
        error.starts_with("r.json: not the results of a values run"),
        "{error}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_is_served_and_unknown_requests_are_named() {
    let app = app();
    for (path, kind) in [
        ("/", "text/html"),
        ("/app.js", "text/javascript"),
        ("/board.js", "text/javascript"),
        ("/style.css", "text/css"),
    ] {
        let request = Request::builder().uri(path).body(Body::empty()).unwrap();
        let response = app.clone().oneshot(request).await.unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        let content_type = response.headers()["content-type"]
            .to_str()
            .unwrap()
            .to_string();
        assert!(content_type.starts_with(kind), "{path}: {content_type}");
    }
    let error = error_of(get(&app, "/nowhere").await, StatusCode::NOT_FOUND);
    assert_eq!(error, "no such endpoint: GET /nowhere");
    let error = error_of(
        call(&app, "PUT", "/api/games", None, Body::empty()).await,
        StatusCode::METHOD_NOT_ALLOWED,
    );
    assert_eq!(error, "PUT is not allowed on /api/games");
}
