//! End to end in a real browser: headless Chromium, driven over WebDriver
//! by chromedriver, opens the page of `kurier serve`, plays courier-moderno
//! and ExCoCo by clicking squares, sees the legal targets of a picked
//! piece, the engine's answers and an illegal move refused, takes a move
//! back, replays a tournament PGN and a run folder's journal, and opens a
//! piece-value report.
//!
//! It needs `chromium` and `chromedriver` (Debian: `apt-get install
//! chromium chromium-driver`). Without them it says it was skipped and
//! passes, unless `KURIER_BROWSER_TEST=1` (set by `.ci/run`) demands it.
//! With `KURIER_SCREENSHOTS=DIR` it writes the README's screenshots
//! there (`docs/` is where they are committed).

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::elements::Element;
use fantoccini::error::CmdError;
use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use kurier_tuner::records::pgn::read_games;

/// Set to `1` to make a missing browser a failure.
const REQUIRE: &str = "KURIER_BROWSER_TEST";
/// A folder for the screenshots.
const SCREENSHOTS: &str = "KURIER_SCREENSHOTS";
/// How long any one thing may take to appear.
const PATIENCE: Duration = Duration::from_secs(30);

/// The tournament the study part replays: `kurier-tune match --variant
/// courier --engine name=kurier --engine name=material-only,eval=material-only
/// --pairs 2 --nodes 2000`.
const RUN_FOLDER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/courier-match");

/// A program on the `PATH`.
fn program(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map(|address| address.port())
        .expect("a free port on 127.0.0.1")
}

/// A child process, killed (by its handle) when dropped.
struct Process(Child);

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `kurier serve --port 0` (the `kurier` beside `kurier-web`) and
/// reads the page's address from its first line.
fn start_server() -> (Process, String) {
    let web = PathBuf::from(env!("CARGO_BIN_EXE_kurier-web"));
    let kurier = web.with_file_name(format!("kurier{}", std::env::consts::EXE_SUFFIX));
    let mut command = if kurier.is_file() {
        let mut command = Command::new(&kurier);
        command.arg("serve");
        command
    } else {
        assert!(
            std::env::var(REQUIRE).is_err(),
            "no {} beside kurier-web: build the workspace (cargo build --workspace)",
            kurier.display()
        );
        eprintln!(
            "note: no kurier beside kurier-web (build kurier-engine to test `kurier serve`); starting kurier-web itself"
        );
        Command::new(&web)
    };
    let mut child = command
        .args(["--port", "0", "--hash", "4"])
        .stdout(Stdio::piped())
        .spawn()
        .expect("kurier serve starts");
    let stdout = child.stdout.take().expect("piped stdout");
    let process = Process(child);
    let mut line = String::new();
    BufReader::new(stdout)
        .read_line(&mut line)
        .expect("kurier serve prints its address");
    let url = line
        .split_whitespace()
        .find(|word| word.starts_with("http://"))
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string();
    (process, url)
}

/// Starts chromedriver and a headless Chromium session.
async fn start_browser(chromium: &Path, chromedriver: &Path) -> (Process, Client, PathBuf) {
    let port = free_port();
    let driver = Process(
        Command::new(chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts"),
    );
    let profile = std::env::temp_dir().join(format!("kurier-chromium-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&profile);
    // The network is closed here: without these flags Chromium waits on
    // refused connections.
    let args = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        "--window-size=1400,1000",
        &format!("--user-data-dir={}", profile.display()),
    ];
    let mut capabilities = serde_json::Map::new();
    capabilities.insert(
        "goog:chromeOptions".to_string(),
        serde_json::json!({ "binary": chromium, "args": args }),
    );
    let started = Instant::now();
    let client = loop {
        let attempt = ClientBuilder::new(HttpConnector::new())
            .capabilities(capabilities.clone())
            .connect(&format!("http://127.0.0.1:{port}"))
            .await;
        match attempt {
            Ok(client) => break client,
            // chromedriver may not listen yet.
            Err(_) if started.elapsed() < PATIENCE => {
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            Err(e) => panic!("no WebDriver session with chromedriver: {e}"),
        }
    };
    (driver, client, profile)
}

/// Waits until `check` holds; fails naming `what`.
async fn wait_for<F, Fut>(what: &str, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<bool, CmdError>>,
{
    let started = Instant::now();
    loop {
        if let Ok(true) = check().await {
            return;
        }
        assert!(started.elapsed() < PATIENCE, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn element(client: &Client, css: &str) -> Element {
    client
        .wait()
        .at_most(PATIENCE)
        .for_element(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("no element {css}: {e}"))
}

async fn text(client: &Client, css: &str) -> String {
    element(client, css).await.text().await.unwrap_or_default()
}

async fn count(client: &Client, css: &str) -> usize {
    client
        .find_all(Locator::Css(css))
        .await
        .map(|found| found.len())
        .unwrap_or(0)
}

async fn click(client: &Client, css: &str) {
    element(client, css)
        .await
        .click()
        .await
        .unwrap_or_else(|e| panic!("cannot click {css}: {e}"));
}

async fn click_square(client: &Client, square: &str) {
    click(client, &format!("#play-board rect[data-square='{square}']")).await;
}

/// The squares marked as targets of the picked piece.
async fn targets(client: &Client) -> BTreeSet<String> {
    let mut squares = BTreeSet::new();
    for target in client
        .find_all(Locator::Css("#play-board [data-target]"))
        .await
        .unwrap_or_default()
    {
        if let Ok(Some(square)) = target.attr("data-target").await {
            squares.insert(square);
        }
    }
    squares
}

/// The piece drawn on `square` of the play board (`P`, `n`, ...).
async fn piece_on(client: &Client, square: &str) -> Option<String> {
    let found = client
        .find(Locator::Css(&format!("#play-board [data-on='{square}']")))
        .await
        .ok()?;
    found.attr("data-piece").await.ok().flatten()
}

async fn moves_played(client: &Client) -> usize {
    count(client, "#move-list .move").await
}

/// Waits for the person's move: the engine has answered.
async fn wait_for_our_move(client: &Client, moves: usize) {
    wait_for(&format!("{moves} moves and our turn"), || async {
        Ok(moves_played(client).await == moves
            && text(client, "#status").await.starts_with("Your move"))
    })
    .await;
}

async fn choose(client: &Client, select: &str, value: &str) {
    element(client, &format!("{select} option[value='{value}']"))
        .await
        .click()
        .await
        .unwrap_or_else(|e| panic!("cannot choose {value} in {select}: {e}"));
}

async fn set_input(client: &Client, css: &str, value: &str) {
    let input = element(client, css).await;
    input.clear().await.expect("an input to clear");
    input.send_keys(value).await.expect("an input to type into");
}

/// Starts a game of `variant` as White with `nodes` per engine move.
async fn new_game(client: &Client, variant: &str, nodes: &str) {
    choose(client, "#variant", variant).await;
    set_input(client, "#nodes", nodes).await;
    click(client, "#new-game-button").await;
    wait_for(&format!("a new {variant} game"), || async {
        let board = element(client, "#play-board svg").await;
        Ok(board.attr("data-files").await?.is_some()
            && moves_played(client).await == 0
            && text(client, "#status").await.starts_with("Your move"))
    })
    .await;
}

async fn screenshot(client: &Client, name: &str) {
    let png = client.screenshot().await.expect("a screenshot");
    let dir = std::env::var_os(SCREENSHOTS)
        .map(PathBuf::from)
        .unwrap_or_else(|| std::env::temp_dir().join("kurier-screenshots"));
    std::fs::create_dir_all(&dir).expect("the screenshot folder");
    let path = dir.join(name);
    std::fs::write(&path, png).expect("the screenshot is written");
    eprintln!("screenshot: {}", path.display());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_plays_replays_and_reports_in_chromium() {
    let (Some(chromium), Some(chromedriver)) = (program("chromium"), program("chromedriver"))
    else {
        assert!(
            std::env::var(REQUIRE).is_err(),
            "{REQUIRE} is set but chromium or chromedriver is missing: apt-get install chromium chromium-driver"
        );
        eprintln!("skipped: no chromium and chromedriver on the PATH (apt-get install chromium chromium-driver)");
        return;
    };
    let started = Instant::now();
    let (_server, url) = start_server();
    let (_driver, client, profile) = start_browser(&chromium, &chromedriver).await;
    client.goto(&url).await.expect("the page opens");
    run_scenario(&client).await;
    let _ = client.close().await;
    let _ = std::fs::remove_dir_all(profile);
    eprintln!("browser test: {:.1} s", started.elapsed().as_secs_f64());
}

async fn run_scenario(client: &Client) {
    // courier-moderno (12x8): the pawn on f2 may step to f3 or f4.
    new_game(client, "courier-moderno", "3000").await;
    assert_eq!(
        element(client, "#play-board svg")
            .await
            .attr("data-files")
            .await
            .unwrap(),
        Some("12".to_string())
    );
    click_square(client, "f2").await;
    assert_eq!(targets(client).await, ["f3", "f4"].map(String::from).into());
    click_square(client, "f4").await;
    wait_for("the pawn on f4", || async {
        Ok(piece_on(client, "f4").await.as_deref() == Some("P"))
    })
    .await;
    assert_eq!(piece_on(client, "f2").await, None);
    wait_for_our_move(client, 2).await;
    assert_eq!(text(client, "#move-list .move").await, "f4");
    // The knight on b1 goes to a3 or c3 (d2 holds a pawn); b3 is refused.
    click_square(client, "b1").await;
    assert_eq!(targets(client).await, ["a3", "c3"].map(String::from).into());
    click_square(client, "b3").await;
    wait_for("the illegal move's message", || async {
        Ok(text(client, "#message").await.contains("not a legal move"))
    })
    .await;
    assert_eq!(
        text(client, "#message").await,
        "move 'b1b3': it is not a legal move in this position"
    );
    assert_eq!(moves_played(client).await, 2);
    click_square(client, "b1").await;
    click_square(client, "c3").await;
    wait_for_our_move(client, 4).await;
    // Take back: the knight's move and the engine's answer go.
    click(client, "#take-back").await;
    wait_for("the take-back", || async {
        Ok(moves_played(client).await == 2 && piece_on(client, "c3").await.is_none())
    })
    .await;
    assert_eq!(piece_on(client, "b1").await.as_deref(), Some("N"));

    // ExCoCo (18x10): the knight on e2 reaches d4 and f4 only (c3 and
    // g3 hold pawns, c1 and g1 pieces of its own).
    new_game(client, "excoco", "3000").await;
    assert_eq!(count(client, "#play-board rect[data-square]").await, 180);
    click_square(client, "e2").await;
    assert_eq!(targets(client).await, ["d4", "f4"].map(String::from).into());
    click_square(client, "e2").await;
    assert!(targets(client).await.is_empty(), "the knight is put down");
    // A pawn of rank 3 may advance one, two or three squares.
    click_square(client, "i3").await;
    assert_eq!(
        targets(client).await,
        ["i4", "i5", "i6"].map(String::from).into()
    );
    click_square(client, "i5").await;
    wait_for_our_move(client, 2).await;
    // Black's first move reaches rank 5 at most: j4 is free.
    click_square(client, "j3").await;
    click_square(client, "j4").await;
    wait_for_our_move(client, 4).await;
    assert!(
        text(client, "#thinking").await.starts_with("depth "),
        "the engine's last report shows"
    );
    click_square(client, "n2").await;
    assert!(
        !targets(client).await.is_empty(),
        "the knight on n2 has moves"
    );
    screenshot(client, "web-excoco.png").await;
    click_square(client, "n2").await;

    // Watch and study: a tournament PGN, then the run folder's journal.
    click(client, "#tab-study").await;
    let pgn_path = format!("{RUN_FOLDER}/games.pgn");
    let pgn = std::fs::read_to_string(&pgn_path).expect("the tournament PGN");
    let games = read_games(&pgn).expect("the tournament PGN reads");
    element(client, "#pgn-file")
        .await
        .send_keys(&pgn_path)
        .await
        .expect("the PGN is chosen");
    wait_for("the PGN's games", || async {
        Ok(count(client, "#study-games tbody tr").await == games.len())
    })
    .await;
    // The third game, to its 40th move.
    click(client, "#study-games tbody tr:nth-child(3)").await;
    wait_for("the third game", || async {
        Ok(count(client, "#study-moves .move").await == games[2].moves.len())
    })
    .await;
    let first = text(client, "#study-moves .move").await;
    assert_eq!(first, games[2].moves[0]);
    click(client, "#study-moves .move[data-ply='40']").await;
    assert!(text(client, "#study-ply").await.starts_with("40 / "));
    // Both players reported scores: a line each.
    assert_eq!(count(client, "#study-graph polyline").await, 2);
    screenshot(client, "web-study.png").await;
    click(client, "#study-last").await;
    assert!(text(client, "#study-ply").await.starts_with(&format!(
        "{} / {}",
        games[2].moves.len(),
        games[2].moves.len()
    )));

    let journal_path = format!("{RUN_FOLDER}/journal.jsonl");
    element(client, "#run-folder")
        .await
        .send_keys(RUN_FOLDER)
        .await
        .expect("the run folder is chosen");
    wait_for("the journal's games", || async {
        Ok(text(client, "#study-title")
            .await
            .contains("match on courier"))
    })
    .await;
    let journal_games = std::fs::read_to_string(journal_path)
        .expect("the journal")
        .lines()
        .count()
        - 1;
    assert_eq!(count(client, "#study-games tbody tr").await, journal_games);

    // A piece-value report: the Courier-Spiel verdicts, table and plot.
    click(client, "#tab-report").await;
    // chromedriver takes only canonical paths.
    let report = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../reports/courier-spiel-values-results.json")
        .canonicalize()
        .expect("the Courier-Spiel report's results");
    element(client, "#report-file")
        .await
        .send_keys(&report.display().to_string())
        .await
        .expect("the report is chosen");
    wait_for("the report's tables", || async {
        Ok(count(client, "#report-table tbody tr").await == 8
            && count(client, "#report-verdicts tbody tr").await == 8)
    })
    .await;
    assert_eq!(
        text(client, "#report-verdicts tbody tr:nth-child(6) td").await,
        "bishop (B)"
    );
    assert_eq!(
        text(client, "#report-table tbody tr:nth-child(2) td").await,
        "queen (Q)"
    );
    assert_eq!(count(client, "#report-plots img").await, 1);
    screenshot(client, "web-report.png").await;
}
