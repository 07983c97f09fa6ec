//! `kurier-tune` tournaments end to end, through the binary: games that
//! replay legally from the PGN and end where the tags say, resume after a
//! kill, shards that merge into the whole run, and external engines that
//! crash, hang or cheat losing their games while the tournament goes on.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use kurier_engine::position::any_game::AnyGame;
use kurier_engine::variant::definition::Variant;
use kurier_engine::with_game;
use kurier_tuner::records::pgn::{read_games, replay, PgnGame};
use kurier_tuner::tournament::results::note_of_comment;
use serde_json::Value;

mod common;

use common::{scratch, succeed, tune, TUNE};

const FAKE: &str = env!("CARGO_BIN_EXE_kurier-fake-engine");

fn json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).expect("the file was written");
    serde_json::from_str(&text).expect("the file is JSON")
}

/// The game lines of a journal (after the settings line), parsed; a last
/// line cut short by a kill is left out.
fn journal_games(dir: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(dir.join("journal.jsonl")).expect("a journal");
    text.split_inclusive('\n')
        .skip(1)
        .filter(|line| line.ends_with('\n'))
        .map(|line| serde_json::from_str(line).expect("a game line"))
        .collect()
}

/// What decides a game: everything but when it was played and how long
/// each move took.
fn essence(game: &Value) -> Value {
    let mut game = game.clone();
    let fields = game.as_object_mut().expect("a game is an object");
    fields.remove("date");
    for note in fields["notes"].as_array_mut().expect("notes") {
        note.as_object_mut()
            .expect("a note is an object")
            .remove("ms");
    }
    game
}

fn pgn_games(dir: &Path) -> Vec<PgnGame> {
    let text = std::fs::read_to_string(dir.join("games.pgn")).expect("a PGN file");
    read_games(&text).expect("the PGN reads")
}

/// `games` with only the score and depth of their move comments: the
/// wall times differ from run to run.
fn timeless(mut games: Vec<PgnGame>) -> Vec<PgnGame> {
    for game in &mut games {
        for comment in &mut game.comments {
            let note = note_of_comment(comment);
            *comment = format!("{:?}/{}", note.score, note.depth);
        }
    }
    games
}

/// Replays every game of `dir`'s PGN through the engine and checks that
/// it ends where its tags say: by the rules exactly when the engine's
/// `Position::outcome` says so (with that result), else by the ply limit
/// or an adjudication or a player's failure with the game still going.
/// Returns the games' results per (white, black, result).
fn check_pgn(dir: &Path, variant: &str, max_plies: usize) -> Vec<PgnGame> {
    let games = pgn_games(dir);
    let game = AnyGame::new(Variant::built_in(variant).expect("built in")).expect("loads");
    for pgn in &games {
        let round = pgn.tag("Round").unwrap_or("?").to_string();
        // Chess is PGN's default variant and goes without the tag.
        let tagged = if variant == "chess" {
            None
        } else {
            Some(variant)
        };
        assert_eq!(pgn.tag("Variant"), tagged, "round {round}");
        assert_eq!(
            pgn.tag("SetUp"),
            Some("1"),
            "round {round}: openings are set up"
        );
        assert!(pgn.tag("FEN").is_some(), "round {round}");
        assert_eq!(
            pgn.tag("PlyCount"),
            Some(pgn.moves.len().to_string().as_str()),
            "round {round}"
        );
        let termination = pgn
            .tag("Termination")
            .expect("a Termination tag")
            .to_string();
        with_game!(&game, g => {
            let (end, _) = replay(g, pgn).unwrap_or_else(|e| panic!("round {round}: {e}"));
            match end.outcome() {
                Some(outcome) => {
                    assert_eq!(termination, outcome.termination.to_string(), "round {round}");
                    assert_eq!(pgn.result, outcome.result.pgn(), "round {round}");
                }
                None => match termination.as_str() {
                    "max plies" => {
                        assert_eq!(pgn.moves.len(), max_plies, "round {round}");
                        assert_eq!(pgn.result, "1/2-1/2", "round {round}");
                    }
                    "draw adjudication" => assert_eq!(pgn.result, "1/2-1/2", "round {round}"),
                    "resign adjudication" | "crash" | "timeout" | "time forfeit"
                    | "illegal move" => assert_ne!(pgn.result, "1/2-1/2", "round {round}"),
                    other => panic!("round {round}: the game goes on, yet ended by '{other}'"),
                },
            }
        });
    }
    games
}

/// Points of `player` in `games`, counted from the PGN tags.
fn points(games: &[PgnGame], player: &str) -> f64 {
    games
        .iter()
        .filter_map(|game| {
            let white = game.tag("White") == Some(player);
            if !white && game.tag("Black") != Some(player) {
                return None;
            }
            Some(match (game.result.as_str(), white) {
                ("1/2-1/2", _) => 0.5,
                ("1-0", true) | ("0-1", false) => 1.0,
                _ => 0.0,
            })
        })
        .sum()
}

#[test]
fn a_small_match_replays_legally_and_ends_by_the_rules_or_adjudication() {
    for variant in Variant::built_in_names() {
        let dir = scratch(&format!("match-{variant}"));
        let out = dir.join("run");
        let stdout = succeed(&[
            "match",
            "--variant",
            variant,
            "--engine",
            "name=full",
            "--engine",
            "name=material,eval=material-only",
            "--nodes",
            "150",
            "--pairs",
            "2",
            "--random-openings",
            "--max-plies",
            "120",
            "--resign",
            "movecount=3,score=900",
            "--draw",
            "movenumber=30,movecount=4,score=5",
            "--out",
            out.to_str().expect("a UTF-8 path"),
        ]);
        assert!(stdout.contains("full vs material"), "{stdout}");
        let games = check_pgn(&out, variant, 120);
        assert_eq!(games.len(), 4, "{variant}");
        // Game pairs: the same opening with colours swapped.
        assert_eq!(games[0].tag("FEN"), games[1].tag("FEN"));
        assert_eq!(games[0].tag("White"), games[1].tag("Black"));
        let summary = json(&out.join("summary.json"));
        assert_eq!(summary["status"], "finished");
        assert_eq!(summary["settings"]["variant"], variant);
        assert_eq!(summary["games"]["played"], 4);
        assert_eq!(summary["games"]["complete_pairs"], 2);
        let encounter = &summary["encounters"][0];
        assert_eq!(encounter["first"], "full");
        assert_eq!(
            encounter["points"].as_f64(),
            Some(points(&games, "full")),
            "{variant}: the summary's points against the PGN's results"
        );
        let pairs: u64 = encounter["pentanomial"]
            .as_array()
            .expect("five counts")
            .iter()
            .map(|c| c.as_u64().expect("a count"))
            .sum();
        assert_eq!(pairs, 2);
        std::fs::remove_dir_all(&dir).ok();
    }
}

#[test]
fn a_round_robin_on_a_clock_and_a_book_plays_every_encounter() {
    let dir = scratch("roundrobin");
    let book = dir.join("book.epd");
    succeed(&[
        "openings",
        "--variant",
        "courier",
        "--count",
        "3",
        "--nodes",
        "200",
        "--seed",
        "5",
        "--out",
        book.to_str().expect("UTF-8"),
    ]);
    let lines: Vec<String> = std::fs::read_to_string(&book)
        .expect("the book")
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(lines.len(), 3);
    let out = dir.join("run");
    succeed(&[
        "roundrobin",
        "--variant",
        "courier",
        "--engine",
        "name=a,nodes=100",
        "--engine",
        "name=b,depth=2",
        "--engine",
        "name=c,tc=3+0.05",
        "--pairs",
        "1",
        "--max-plies",
        "16",
        "--time-margin",
        "500",
        "--openings",
        book.to_str().expect("UTF-8"),
        "--out",
        out.to_str().expect("UTF-8"),
    ]);
    let games = check_pgn(&out, "courier", 16);
    // Three players: three encounters of one pair each.
    assert_eq!(games.len(), 6);
    let mut meetings: BTreeMap<(String, String), usize> = BTreeMap::new();
    for game in &games {
        let mut names = [
            game.tag("White").unwrap_or("?"),
            game.tag("Black").unwrap_or("?"),
        ];
        names.sort_unstable();
        *meetings
            .entry((names[0].to_string(), names[1].to_string()))
            .or_default() += 1;
        assert!(lines
            .iter()
            .any(|line| Some(line.as_str()) == game.tag("FEN")));
    }
    assert_eq!(meetings.len(), 3);
    assert!(meetings.values().all(|&count| count == 2));
    let summary = json(&out.join("summary.json"));
    assert_eq!(summary["settings"]["openings"]["book"]["positions"], 3);
    assert_eq!(summary["standings"].as_array().map(Vec::len), Some(3));
    std::fs::remove_dir_all(&dir).ok();
}

/// A match at fixed nodes that plays more pairs than its book has
/// openings: the replayed pair repeats the first move for move (so its
/// games would only seem to add information), and the run says so; a
/// clock, under which games differ, and a book large enough say nothing.
#[test]
fn pairs_past_the_book_at_fixed_nodes_repeat_their_games_and_are_warned_of() {
    let dir = scratch("replay");
    let book = dir.join("one.epd");
    succeed(&[
        "openings",
        "--variant",
        "courier",
        "--count",
        "1",
        "--nodes",
        "200",
        "--out",
        book.to_str().expect("UTF-8"),
    ]);
    let book = book.to_str().expect("UTF-8");
    let run = |name: &str, limit: &[&str], pairs: &str| {
        let out = dir.join(name);
        let mut args = vec![
            "match",
            "--variant",
            "courier",
            "--engine",
            "name=a",
            "--engine",
            "name=b",
            "--pairs",
            pairs,
            "--max-plies",
            "40",
            "--concurrency",
            "1",
            "--openings",
            book,
            "--time-margin",
            "500",
            "--out",
            out.to_str().expect("UTF-8"),
        ];
        args.extend_from_slice(limit);
        let output = tune(&args);
        assert!(output.status.success(), "{args:?} failed");
        (String::from_utf8_lossy(&output.stderr).into_owned(), out)
    };
    let (stderr, out) = run("nodes", &["--nodes", "300"], "2");
    assert!(
        stderr.contains("warning: 2 pairs from the 1 openings"),
        "{stderr}"
    );
    let games = journal_games(&out);
    assert_eq!(games.len(), 4);
    assert_eq!(games[0]["moves"], games[2]["moves"]);
    assert_eq!(games[1]["moves"], games[3]["moves"]);
    let (stderr, _) = run("one-pair", &["--nodes", "300"], "1");
    assert!(!stderr.contains("warning"), "{stderr}");
    let (stderr, _) = run("clock", &["--tc", "2+0.02"], "2");
    assert!(!stderr.contains("warning"), "{stderr}");
    std::fs::remove_dir_all(&dir).ok();
}

/// The arguments of the run used by the resume and shard tests.
fn run_args<'a>(out: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "match",
        "--variant",
        "courier",
        "--engine",
        "name=one",
        "--engine",
        "name=two,selective=off",
        "--nodes",
        "300",
        "--pairs",
        "8",
        "--random-openings",
        "--max-plies",
        "100",
        "--out",
        out,
    ];
    args.extend_from_slice(extra);
    args
}

#[test]
fn resume_after_a_kill_loses_and_repeats_nothing() {
    let dir = scratch("resume");
    let whole = dir.join("whole");
    let whole_text = whole.to_str().expect("UTF-8").to_string();
    succeed(&run_args(&whole_text, &[]));
    let reference: Vec<Value> = journal_games(&whole).iter().map(essence).collect();
    assert_eq!(reference.len(), 16);

    let killed = dir.join("killed");
    let killed_text = killed.to_str().expect("UTF-8").to_string();
    let mut child = Command::new(TUNE)
        .args(run_args(&killed_text, &[]))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("kurier-tune starts");
    wait_for_games(&killed, 3);
    child.kill().expect("the run can be killed");
    child.wait().expect("the run is reaped");
    let before: Vec<Value> = journal_games(&killed);
    assert!(before.len() >= 3);
    assert!(
        before.len() < 16,
        "the run finished before the kill: make it longer"
    );

    let stdout = succeed(&run_args(&killed_text, &["--resume"]));
    assert!(stdout.contains("16 of 16 games"), "{stdout}");
    let after = journal_games(&killed);
    // Nothing lost, nothing repeated: every id once.
    let mut ids: Vec<u64> = after
        .iter()
        .map(|g| g["id"].as_u64().expect("an id"))
        .collect();
    ids.sort_unstable();
    assert_eq!(ids, (0..16).collect::<Vec<u64>>());
    // The games from before the kill are still there, unchanged.
    assert_eq!(after[..before.len()], before[..]);
    // And the resumed run plays the same games as an uninterrupted one
    // (single-threaded node-limited search is deterministic).
    let mut resumed: Vec<Value> = after.iter().map(essence).collect();
    resumed.sort_by_key(|g| g["id"].as_u64());
    let mut reference = reference;
    reference.sort_by_key(|g| g["id"].as_u64());
    assert_eq!(resumed, reference);
    let summary = json(&killed.join("summary.json"));
    assert_eq!(summary["games"]["played"], 16);
    assert_eq!(summary["games"]["complete_pairs"], 8);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn resume_refuses_other_settings_and_a_new_run_refuses_an_old_folder() {
    let dir = scratch("refuse");
    let out = dir.join("run");
    let out_text = out.to_str().expect("UTF-8").to_string();
    let mut args = run_args(&out_text, &[]);
    // Two pairs are enough here.
    let pairs = args.iter().position(|a| *a == "--pairs").expect("--pairs") + 1;
    args[pairs] = "2";
    succeed(&args);
    let again = tune(&args);
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("--resume"));
    let mut other = args.clone();
    other[pairs] = "3";
    other.push("--resume");
    let refused = tune(&other);
    assert!(!refused.status.success());
    let message = String::from_utf8_lossy(&refused.stderr);
    assert!(
        message.contains("settings differ") && message.contains("pairs: 3 vs 2"),
        "{message}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn shards_merge_into_the_whole_run() {
    let dir = scratch("shards");
    let path = |name: &str| dir.join(name).to_str().expect("UTF-8").to_string();
    let (whole, one, two, merged) = (path("whole"), path("one"), path("two"), path("merged"));
    let short = |out: &str, extra: &[&str]| {
        let mut args = run_args(out, extra);
        let pairs = args.iter().position(|a| *a == "--pairs").expect("--pairs") + 1;
        args[pairs] = "3";
        succeed(&args);
    };
    short(&whole, &[]);
    short(&one, &["--shard", "1/2"]);
    short(&two, &["--shard", "2/2"]);
    // Shard 1/2 has pairs 0 and 2, shard 2/2 pair 1.
    let ids = |dir: &str| -> Vec<u64> {
        let mut ids: Vec<u64> = journal_games(Path::new(dir))
            .iter()
            .map(|g| g["id"].as_u64().expect("an id"))
            .collect();
        ids.sort_unstable();
        ids
    };
    assert_eq!(ids(&one), vec![0, 1, 4, 5]);
    assert_eq!(ids(&two), vec![2, 3]);
    let journal = |dir: &str| format!("{dir}/journal.jsonl");
    succeed(&["merge", &journal(&one), &journal(&two), "--out", &merged]);
    let by_id = |dir: &str| {
        let mut games: Vec<Value> = journal_games(Path::new(dir)).iter().map(essence).collect();
        games.sort_by_key(|g| g["id"].as_u64());
        games
    };
    let (merged_games, whole_games) = (by_id(&merged), by_id(&whole));
    assert_eq!(merged_games, whole_games);
    let summary = json(&Path::new(&merged).join("summary.json"));
    let reference = json(&Path::new(&whole).join("summary.json"));
    assert_eq!(summary["encounters"], reference["encounters"]);
    assert_eq!(summary["status"], "finished");
    assert_eq!(
        timeless(pgn_games(Path::new(&merged))),
        timeless(pgn_games(Path::new(&whole)))
    );
    // A shard twice, or journals of different runs, are refused.
    let twice = tune(&[
        "merge",
        &journal(&one),
        &journal(&one),
        "--out",
        &path("bad"),
    ]);
    assert!(String::from_utf8_lossy(&twice.stderr).contains("is in both"));
    let other = path("other");
    short(&other, &["--shard", "2/2", "--seed", "9"]);
    let mismatched = tune(&[
        "merge",
        &journal(&one),
        &journal(&other),
        "--out",
        &path("bad2"),
    ]);
    let message = String::from_utf8_lossy(&mismatched.stderr);
    assert!(
        message.contains("not shards of one run") && message.contains("seed"),
        "{message}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn misbehaving_engines_lose_their_games_and_the_tournament_goes_on() {
    let dir = scratch("fake");
    let out = dir.join("run");
    let fake = |name: &str, mode: &str, limit: &str| {
        format!("name={name},cmd={FAKE},arg=--mode,arg={mode},{limit}")
    };
    let engines = [
        ("crasher", fake("crasher", "crash-after=3", "nodes=1")),
        ("hanger", fake("hanger", "hang-after=3", "nodes=1")),
        ("flagger", fake("flagger", "hang-after=3", "tc=0.4+0")),
        ("cheater", fake("cheater", "illegal-after=3", "nodes=1")),
    ];
    let mut args = vec![
        "gauntlet".to_string(),
        "--variant".to_string(),
        "courier".to_string(),
        "--engine".to_string(),
        "name=kurier,nodes=100".to_string(),
    ];
    for (_, spec) in &engines {
        args.extend(["--engine".to_string(), spec.clone()]);
    }
    args.extend(
        [
            "--pairs",
            "2",
            "--random-openings",
            "--move-timeout",
            "0.4",
            "--out",
            out.to_str().expect("UTF-8"),
        ]
        .map(String::from),
    );
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    succeed(&args);
    let games = check_pgn(&out, "courier", 400);
    // Four opponents, two pairs each: nothing stopped the tournament.
    assert_eq!(games.len(), 16);
    for (name, expected) in [
        ("crasher", "crash"),
        ("hanger", "timeout"),
        ("flagger", "time forfeit"),
        ("cheater", "illegal move"),
    ] {
        let theirs: Vec<&PgnGame> = games
            .iter()
            .filter(|g| g.tag("White") == Some(name) || g.tag("Black") == Some(name))
            .collect();
        assert_eq!(theirs.len(), 4, "{name}");
        let failed = theirs
            .iter()
            .filter(|g| g.tag("Termination") == Some(expected))
            .count();
        assert!(failed > 0, "{name} never lost by {expected}");
        for game in theirs {
            let termination = game.tag("Termination").unwrap_or("?");
            let lost = if game.tag("White") == Some(name) {
                "0-1"
            } else {
                "1-0"
            };
            // Each engine misbehaves at its fourth move; a game that the
            // rules ended before then is the only other way out.
            if termination == expected {
                assert_eq!(game.result, lost, "{name}");
                assert_eq!(
                    game.moves.len() / 2,
                    3,
                    "{name} failed at its fourth move: {termination}"
                );
            } else {
                assert!(
                    game.moves.len() < 8,
                    "{name}: {termination} after {} plies",
                    game.moves.len()
                );
            }
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn an_engine_that_cannot_play_the_variant_stops_the_run_at_once() {
    let dir = scratch("no-variant");
    let spec = format!("name=xiangqi,cmd={FAKE},arg=--mode,arg=no-variant");
    let output = tune(&[
        "match",
        "--variant",
        "courier",
        "--engine",
        "name=kurier",
        "--engine",
        &spec,
        "--pairs",
        "1",
        "--out",
        dir.join("run").to_str().expect("UTF-8"),
    ]);
    assert!(!output.status.success());
    let message = String::from_utf8_lossy(&output.stderr);
    assert!(
        message.contains("xiangqi") && message.contains("courier"),
        "{message}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Waits until `dir`'s journal holds at least `games` complete games
/// (after its settings line). Only lines ending in a newline count: a
/// line being written is no game yet, and a kill may tear it (the
/// journal drops a torn last line on resume).
fn wait_for_games(dir: &Path, games: usize) {
    let journal = dir.join("journal.jsonl");
    let deadline = Instant::now() + Duration::from_secs(60);
    while std::fs::read_to_string(&journal).map_or(0, |t| t.matches('\n').count()) < games + 1 {
        assert!(Instant::now() < deadline, "no {games} games after a minute");
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn ctrl_c_stops_cleanly_and_writes_the_results() {
    let dir = scratch("sigint");
    let out = dir.join("run");
    let out_text = out.to_str().expect("UTF-8").to_string();
    let child = Command::new(TUNE)
        .args(run_args(&out_text, &[]))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("kurier-tune starts");
    wait_for_games(&out, 2);
    let signal = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(signal.success());
    let output = child.wait_with_output().expect("the run ends");
    assert!(output.status.success());
    let summary = json(&out.join("summary.json"));
    let recorded = journal_games(&out);
    assert!(recorded.len() < 16, "the run finished before the signal");
    assert_eq!(summary["status"], "interrupted");
    // Every recorded game, and only those, is in the PGN and the summary.
    assert_eq!(summary["games"]["played"], recorded.len());
    assert_eq!(pgn_games(&out).len(), recorded.len());
    assert!(String::from_utf8_lossy(&output.stdout).contains("interrupted"));
    // The run resumes to its end.
    let stdout = succeed(&run_args(&out_text, &["--resume"]));
    assert!(stdout.contains("16 of 16 games"), "{stdout}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_sprt_stops_a_lopsided_match_with_the_fishtest_llr() {
    let dir = scratch("sprt");
    let out = dir.join("run");
    succeed(&[
        "match",
        "--variant",
        "courier",
        "--engine",
        "name=strong,nodes=1500",
        "--engine",
        "name=weak,nodes=30,eval=material-only,selective=off",
        "--pairs",
        "40",
        "--random-openings",
        "--max-plies",
        "200",
        "--sprt",
        "elo0=0,elo1=200,alpha=0.1,beta=0.1",
        "--out",
        out.to_str().expect("UTF-8"),
    ]);
    let summary = json(&out.join("summary.json"));
    assert_eq!(summary["status"], "sprt_decided");
    assert!(
        summary["games"]["played"].as_u64() < Some(80),
        "the SPRT never stopped the match"
    );
    let sprt = &summary["sprt"];
    assert_eq!(sprt["decision"], "H1");
    // Bounds ln(0.1 / 0.9) and ln(0.9 / 0.1) = -+2.197225.
    assert!((sprt["lower"].as_f64().expect("a bound") + 2.197_225).abs() < 1e-5);
    assert!((sprt["upper"].as_f64().expect("a bound") - 2.197_225).abs() < 1e-5);
    // The LLR again from the complete pairs, by convex duality instead
    // of the Lagrange root the tuner solves for: with observed
    // frequencies p_i of the pair scores v_i (0, 1/4, .., 1; empty cells
    // 0.001 pairs), the likeliest distribution with mean s has log
    // likelihood sum p ln p - max_l sum p_i ln(1 + l (v_i - s)), so LLR =
    // N (max_l g_s0(l) - max_l g_s1(l)); each maximum of the concave g by
    // golden-section search.
    let counts: Vec<f64> = summary["encounters"][0]["pentanomial"]
        .as_array()
        .expect("five counts")
        .iter()
        .map(|c| c.as_f64().expect("a count").max(1e-3))
        .collect();
    let n: f64 = counts.iter().sum();
    let dual_max = |s: f64| -> f64 {
        let g = |l: f64| -> f64 {
            (0..5)
                .map(|k| counts[k] / n * (1.0 + l * (k as f64 / 4.0 - s)).ln())
                .sum()
        };
        let (mut a, mut b) = (-1.0 / (1.0 - s) + 1e-12, 1.0 / s - 1e-12);
        let ratio = (5f64.sqrt() - 1.0) / 2.0;
        for _ in 0..300 {
            let (c, d) = (b - ratio * (b - a), a + ratio * (b - a));
            if g(c) > g(d) {
                b = d;
            } else {
                a = c;
            }
        }
        g(0.5 * (a + b))
    };
    let (s0, s1) = (0.5, 1.0 / (1.0 + 10f64.powf(-0.5)));
    let llr = n * (dual_max(s0) - dual_max(s1));
    assert!(
        (sprt["llr"].as_f64().expect("an LLR") - llr).abs() < 1e-6,
        "{llr} vs {sprt}"
    );
    assert!(llr >= 2.197_225);
    std::fs::remove_dir_all(&dir).ok();
}
