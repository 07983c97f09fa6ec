//! The server on a real socket, as `kurier serve` runs it: only its own
//! page may drive it (a request to another host, or a change from
//! another site's page, is refused with a JSON error), and while a
//! hundred games ask the engine for a move at once the page's requests
//! are still answered, each new game either made or told "busy".

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use kurier_web::api::{AppState, SharedState};
use kurier_web::engine_pool::MAX_WAITING_SEARCHES;
use kurier_web::error::RETRY_AFTER_SECONDS;
use kurier_web::games::MAX_GAMES;
use kurier_web::server::serve_on;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinSet;

/// How long any one answer may take before the test calls it lost.
const PATIENCE: Duration = Duration::from_secs(60);

/// A server on a free port of 127.0.0.1, with its state.
async fn start() -> (SocketAddr, SharedState) {
    let listener = TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a free port on 127.0.0.1");
    let address = listener.local_addr().expect("the port listened on");
    let state = AppState::new(1).expect("the engine's threads start");
    tokio::spawn(serve_on(listener, Arc::clone(&state)));
    (address, state)
}

/// An answer: its status, its `Retry-After`, its body (JSON, or the text
/// as a JSON string).
#[derive(Debug)]
struct Answer {
    status: u16,
    retry_after: Option<String>,
    body: Value,
}

impl Answer {
    /// The error message, checked to come with `status`.
    fn error(&self, status: u16) -> &str {
        assert_eq!(self.status, status, "{self:?}");
        self.body["error"]
            .as_str()
            .unwrap_or_else(|| panic!("no JSON error in {self:?}"))
    }
}

/// Sends `request` (the whole text) on a connection of its own and reads
/// the answer to its end.
async fn exchange(address: SocketAddr, request: String) -> Answer {
    let talk = async {
        let mut stream = TcpStream::connect(address).await.expect("connects");
        stream
            .write_all(request.as_bytes())
            .await
            .expect("sends the request");
        let mut answer = Vec::new();
        stream
            .read_to_end(&mut answer)
            .await
            .expect("reads the answer");
        String::from_utf8(answer).expect("a UTF-8 answer")
    };
    let text = tokio::time::timeout(PATIENCE, talk)
        .await
        .unwrap_or_else(|_| panic!("no answer within {PATIENCE:?} to {request:?}"));
    let (head, body) = text
        .split_once("\r\n\r\n")
        .unwrap_or_else(|| panic!("no end of the head in {text:?}"));
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|line| line.split(' ').nth(1))
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("no status in {head:?}"));
    let retry_after = lines
        .filter_map(|line| line.split_once(':'))
        .find(|(name, _)| name.eq_ignore_ascii_case("retry-after"))
        .map(|(_, value)| value.trim().to_string());
    let body = serde_json::from_str(body).unwrap_or_else(|_| Value::String(body.to_string()));
    Answer {
        status,
        retry_after,
        body,
    }
}

/// An HTTP/1.1 request with `headers` (`Host` among them, or not) and a
/// JSON body, if any.
fn request(method: &str, path: &str, headers: &[(&str, &str)], body: Option<&Value>) -> String {
    let mut text = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\n");
    for (name, value) in headers {
        text.push_str(&format!("{name}: {value}\r\n"));
    }
    let body = body.map(Value::to_string).unwrap_or_default();
    if !body.is_empty() {
        text.push_str("Content-Type: application/json\r\n");
    }
    text.push_str(&format!("Content-Length: {}\r\n\r\n{body}", body.len()));
    text
}

/// A new game: the person plays `human`, the engine thinks `nodes` nodes.
fn new_game(human: &str, nodes: u64) -> Value {
    json!({ "variant": "chess", "human": human, "limit": { "kind": "nodes", "nodes": nodes } })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_to_another_host_are_refused() {
    let (address, _state) = start().await;
    let port = address.port();
    let own = format!("127.0.0.1:{port}");
    let variants = |host: &str| request("GET", "/api/variants", &[("Host", host)], None);

    for host in [
        own.clone(),
        format!("localhost:{port}"),
        format!("LocalHost:{port}"),
        format!("[::1]:{port}"),
    ] {
        let answer = exchange(address, variants(&host)).await;
        assert_eq!(answer.status, 200, "{host}: {answer:?}");
        let names: Vec<&str> = answer
            .body
            .as_array()
            .expect("a list of variants")
            .iter()
            .filter_map(|v| v["name"].as_str())
            .collect();
        assert!(names.contains(&"chess"), "{host}: {names:?}");
    }

    // The name a rebinding attack uses, with the server's port or without;
    // the right name on another port; another name for this machine.
    let other_port = if port == 1 { 2 } else { port - 1 };
    for host in [
        "evil.example".to_string(),
        format!("evil.example:{port}"),
        format!("127.0.0.1:{other_port}"),
        format!("127.0.0.2:{port}"),
        format!("localhost.:{port}"),
    ] {
        let error = exchange(address, variants(&host))
            .await
            .error(421)
            .to_string();
        assert_eq!(
            error,
            format!("this server answers requests to {own} only, not to '{host}'")
        );
    }
    // The page itself, and a change, to another host: refused alike, and
    // no game made.
    let answer = exchange(
        address,
        request("GET", "/", &[("Host", "evil.example")], None),
    )
    .await;
    answer.error(421);
    let create = request(
        "POST",
        "/api/games",
        &[("Host", "evil.example")],
        Some(&new_game("white", 1_000)),
    );
    exchange(address, create).await.error(421);
    let first_game = request("GET", "/api/games/1", &[("Host", &own)], None);
    exchange(address, first_game).await.error(404);

    // No host at all (HTTP/1.0 needs none), and a target naming another
    // host beside a Host naming this one.
    let error = exchange(address, "GET /api/variants HTTP/1.0\r\n\r\n".to_string())
        .await
        .error(400)
        .to_string();
    assert_eq!(
        error,
        format!(
            "the request names no host (a Host header): this server answers requests to {own} only"
        )
    );
    let absolute = format!(
        "GET http://evil.example/api/variants HTTP/1.1\r\nHost: {own}\r\nConnection: close\r\n\r\n"
    );
    exchange(address, absolute).await.error(421);
    let absolute_own = format!("GET http://{own}/api/variants HTTP/1.0\r\n\r\n");
    assert_eq!(exchange(address, absolute_own).await.status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn changes_from_another_sites_page_are_refused() {
    let (address, _state) = start().await;
    let port = address.port();
    let own = format!("127.0.0.1:{port}");
    let create = |headers: &[(&str, &str)]| {
        let mut all = vec![("Host", own.as_str())];
        all.extend_from_slice(headers);
        request("POST", "/api/games", &all, Some(&new_game("white", 1_000)))
    };

    let other_port = format!("http://127.0.0.1:{}", if port == 1 { 2 } else { port - 1 });
    let https = format!("https://{own}");
    for origin in ["http://evil.example", "null", &other_port, &https] {
        let error = exchange(address, create(&[("Origin", origin)]))
            .await
            .error(403)
            .to_string();
        assert_eq!(
            error,
            format!("POST from the page at '{origin}' refused: only this server's own page, http://{own}/, may change anything")
        );
    }
    for site in ["cross-site", "same-site"] {
        let error = exchange(address, create(&[("Sec-Fetch-Site", site)]))
            .await
            .error(403)
            .to_string();
        assert!(
            error.starts_with(&format!(
                "POST from another site's page (Sec-Fetch-Site: {site}) refused"
            )),
            "{error}"
        );
    }
    // A variant file from another site's page is not loaded either.
    let load = format!(
        "POST /api/variants?name=v.toml HTTP/1.1\r\nHost: {own}\r\nOrigin: http://evil.example\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: close\r\n\r\nx="
    );
    exchange(address, load).await.error(403);
    // Nothing was made: the first game the server makes is number 1.
    let own_page = format!("http://{own}");
    let localhost_page = format!("http://localhost:{port}");
    let made = exchange(address, create(&[("Origin", &own_page)])).await;
    assert_eq!(
        (made.status, &made.body["id"]),
        (200, &json!(1)),
        "{made:?}"
    );

    // The page's own requests, under either name, and programs that send
    // no Origin (curl, these tests) are served.
    for headers in [
        vec![("Origin", localhost_page.as_str())],
        vec![("Sec-Fetch-Site", "same-origin")],
        vec![("Sec-Fetch-Site", "none")],
        vec![],
    ] {
        let answer = exchange(address, create(&headers)).await;
        assert_eq!(answer.status, 200, "{headers:?}: {answer:?}");
    }
    // Reading is no change: another site's page may send a GET (and its
    // browser keeps the answer from it).
    let read = request(
        "GET",
        "/api/games/1",
        &[("Host", &own), ("Origin", "http://evil.example")],
        None,
    );
    assert_eq!(exchange(address, read).await.status, 200);
    let delete = |origin: &str| {
        request(
            "DELETE",
            "/api/games/1",
            &[("Host", &own), ("Origin", origin)],
            None,
        )
    };
    exchange(address, delete("http://evil.example"))
        .await
        .error(403);
    assert_eq!(exchange(address, delete(&own_page)).await.status, 204);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_is_answered_while_a_hundred_games_ask_the_engine() {
    const GAMES: usize = 100;
    const POLLS: usize = 20;
    const ANSWERED_WITHIN: Duration = Duration::from_secs(2);
    let (address, state) = start().await;
    let own = format!("127.0.0.1:{}", address.port());
    let places = state.engine().threads() + MAX_WAITING_SEARCHES;

    // A hundred games at once, the engine (White) to move, 1M nodes each.
    let mut creates = JoinSet::new();
    for _ in 0..GAMES {
        let create = request(
            "POST",
            "/api/games",
            &[("Host", &own)],
            Some(&new_game("black", 1_000_000)),
        );
        creates.spawn(exchange(address, create));
    }
    // Meanwhile the page asks for the variants, again and again.
    let variants = request("GET", "/api/variants", &[("Host", &own)], None);
    let mut slowest = Duration::ZERO;
    for _ in 0..POLLS {
        let asked = Instant::now();
        let answer = exchange(address, variants.clone()).await;
        let took = asked.elapsed();
        assert_eq!(answer.status, 200, "{answer:?}");
        assert!(took < ANSWERED_WITHIN, "GET /api/variants took {took:?}");
        slowest = slowest.max(took);
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    let mut games = Vec::new();
    let mut busy = 0;
    while let Some(answer) = creates.join_next().await {
        let answer = answer.expect("the request's task ends");
        if answer.status == 200 {
            assert_eq!(answer.body["position"]["side_to_move"], "white");
            games.push(answer.body["id"].as_u64().expect("a game id"));
        } else {
            let error = answer.error(503);
            assert!(error.starts_with("the engine is busy: its "), "{error}");
            assert!(
                error.ends_with(&format!("; try again in {RETRY_AFTER_SECONDS} s")),
                "{error}"
            );
            assert_eq!(answer.retry_after, Some(RETRY_AFTER_SECONDS.to_string()));
            busy += 1;
        }
    }
    eprintln!(
        "{} games made, {busy} told busy; the slowest of {POLLS} GET /api/variants took {slowest:?}",
        games.len()
    );
    assert_eq!(games.len() + busy, GAMES);
    // Every place on the pool was taken before the first search could
    // end (a search of 1M nodes outlasts a hundred requests), and only
    // those.
    assert!(
        games.len() >= places.min(GAMES),
        "{} games for {places} places",
        games.len()
    );
    assert!(
        busy >= GAMES.saturating_sub(places),
        "{busy} busy for {places} places"
    );

    // The games dropped, their searches stop: the running ones, and the
    // waiting ones before they start.
    for id in games {
        let delete = request(
            "DELETE",
            &format!("/api/games/{id}"),
            &[("Host", &own)],
            None,
        );
        let status = exchange(address, delete).await.status;
        // 404 only on a machine of so many cores that the games outnumber
        // what the server keeps, and it dropped the oldest already.
        assert!(
            status == 204 || (status == 404 && places > MAX_GAMES),
            "{status}"
        );
    }
    let dropped = Instant::now();
    while state.engine().searches() > 0 {
        assert!(
            dropped.elapsed() < ANSWERED_WITHIN,
            "{} searches still run or wait after their games were dropped",
            state.engine().searches()
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}
