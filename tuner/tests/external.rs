//! External UCI engines, against `kurier-fake-engine` in each of its
//! modes: moves, scores, crashes, hangs, unsupported variants, illegal
//! moves, and no process left behind.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use kurier_engine::position::any_game::AnyGame;
use kurier_engine::position::state::Position;
use kurier_engine::with_game;
use kurier_tuner::players::uci_engine::{EngineFailure, EngineSpec, GoLimit, UciEngine};

/// The wait for each start-up answer; the fake engine answers at once.
const TIMEOUT: Duration = Duration::from_secs(10);
/// A bound no test wait may approach unless something is broken.
const GENEROUS: Duration = Duration::from_secs(8);

fn fake(mode: &str) -> EngineSpec {
    EngineSpec {
        name: format!("fake-{mode}"),
        command: PathBuf::from(env!("CARGO_BIN_EXE_kurier-fake-engine")),
        args: vec!["--mode".into(), mode.into()],
        options: vec![("Hash".into(), "16".into())],
    }
}

/// The start FEN of a built-in variant.
fn start_fen(variant: &str) -> String {
    AnyGame::built_in(variant).unwrap().variant().start.clone()
}

/// Whether the process `pid` exists (a zombie counts: it was not reaped).
fn process_exists(pid: u32) -> bool {
    Path::new(&format!("/proc/{pid}")).exists()
}

/// The number of legal moves after `moves` from `fen`, and whether
/// `text` is one of them.
fn legal_after(variant: &str, fen: &str, moves: &[String], text: &str) -> (usize, bool) {
    let game = AnyGame::built_in(variant).unwrap();
    with_game!(&game, g => {
        let mut position = Position::from_fen(g.clone(), fen).unwrap();
        for m in moves {
            position.make_move(position.parse_uci(m).unwrap());
        }
        (position.legal_moves().len(), position.parse_uci(text).is_ok())
    })
}

#[test]
fn spec_reads_the_cutechess_form_and_names_bad_fields() {
    let spec =
        EngineSpec::parse("name=X,cmd=/opt/e/fsf,option.Hash=64,option.Threads=1,arg=--foo,arg=b")
            .unwrap();
    assert_eq!(
        spec,
        EngineSpec {
            name: "X".into(),
            command: PathBuf::from("/opt/e/fsf"),
            args: vec!["--foo".into(), "b".into()],
            options: vec![("Hash".into(), "64".into()), ("Threads".into(), "1".into())],
        }
    );
    // Option names may hold spaces; the name defaults to the file name.
    let spec = EngineSpec::parse("cmd=/opt/e/fsf,option.Move Overhead=10").unwrap();
    assert_eq!(spec.name, "fsf");
    assert_eq!(spec.options, [("Move Overhead".into(), "10".into())]);
    let error = |text: &str| EngineSpec::parse(text).unwrap_err();
    assert!(error("name=X").contains("no 'cmd=' field"));
    assert!(error("cmd=a,depth=3").contains("unknown engine field 'depth'"));
    assert!(error("cmd=a,arg").contains("'arg' in 'cmd=a,arg' is not key=value"));
    assert!(error("cmd=a,option.=3").contains("names no option"));
    assert!(error("cmd=a,cmd=b").contains("'cmd' given twice"));
    assert!(error("cmd=a,name=").contains("'name=' has an empty value"));
}

#[test]
fn a_normal_engine_returns_a_legal_move_with_its_last_score() {
    for variant in ["chess", "courier", "excoco"] {
        let mut engine = UciEngine::start(&fake("ok"), variant, TIMEOUT).unwrap();
        engine.new_game().unwrap();
        let fen = start_fen(variant);
        let mut moves: Vec<String> = Vec::new();
        for _ in 0..6 {
            let reply = engine
                .go(&fen, &moves, &GoLimit::Nodes(100), Some(GENEROUS))
                .unwrap();
            let (count, legal) = legal_after(variant, &fen, &moves, &reply.best);
            assert!(legal, "{variant}: {} is not legal", reply.best);
            // The fake engine's last info line scores the number of legal
            // moves at depth 2 (see its documentation).
            assert_eq!(reply.score, Some(count as i32));
            assert_eq!(reply.depth, Some(2));
            moves.push(reply.best);
        }
        engine.quit();
    }
}

#[test]
fn clock_limits_are_answered_from_a_set_up_position_with_black_to_move() {
    let fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1";
    let mut engine = UciEngine::start(&fake("ok"), "chess", TIMEOUT).unwrap();
    let clock = GoLimit::Clock {
        wtime: Duration::from_secs(5),
        btime: Duration::from_secs(5),
        winc: Duration::from_millis(100),
        binc: Duration::from_millis(100),
    };
    let reply = engine.go(fen, &[], &clock, None).unwrap();
    // Black's king on e8 has d8, f8, d7, e7 and f7.
    assert_eq!(reply.score, Some(5));
    assert!(legal_after("chess", fen, &[], &reply.best).1);
}

#[test]
fn a_crash_is_reported_with_the_stderr_tail() {
    let mut engine = UciEngine::start(&fake("crash-after=1"), "courier", TIMEOUT).unwrap();
    let fen = start_fen("courier");
    let first = engine
        .go(&fen, &[], &GoLimit::Depth(1), Some(GENEROUS))
        .unwrap();
    let failure = engine
        .go(&fen, &[first.best], &GoLimit::Depth(1), Some(GENEROUS))
        .unwrap_err();
    let EngineFailure::Crashed(message) = &failure else {
        panic!("expected a crash, got {failure}")
    };
    assert!(message.contains("crashing as asked"), "{message}");
    assert!(message.contains("fake-crash-after=1"), "{message}");
}

#[test]
fn a_hang_is_a_timeout_at_the_deadline() {
    let mut engine = UciEngine::start(&fake("hang-after=0"), "chess", TIMEOUT).unwrap();
    let fen = start_fen("chess");
    let began = Instant::now();
    let failure = engine
        .go(
            &fen,
            &[],
            &GoLimit::Nodes(1),
            Some(Duration::from_millis(300)),
        )
        .unwrap_err();
    assert_timed_out(&failure, began, Duration::from_millis(300));
}

#[test]
fn without_a_deadline_a_clock_gives_the_side_to_move_its_time_plus_grace() {
    // White has 200 ms, Black a minute: waiting on Black's clock would
    // take a minute.
    let grace = Duration::from_millis(300);
    let mut engine = UciEngine::start(&fake("hang-after=0"), "chess", grace).unwrap();
    let clock = GoLimit::Clock {
        wtime: Duration::from_millis(200),
        btime: Duration::from_secs(60),
        winc: Duration::ZERO,
        binc: Duration::ZERO,
    };
    let began = Instant::now();
    let failure = engine
        .go(&start_fen("chess"), &[], &clock, None)
        .unwrap_err();
    assert_timed_out(&failure, began, Duration::from_millis(500));
}

/// Asserts that `failure` is a timeout that came at least `at_least`
/// (and well under [`GENEROUS`]) after `began`.
fn assert_timed_out(failure: &EngineFailure, began: Instant, at_least: Duration) {
    let waited = began.elapsed();
    assert!(matches!(failure, EngineFailure::Timeout(_)), "{failure}");
    assert!(waited >= at_least, "{waited:?}");
    assert!(waited < GENEROUS, "{waited:?}");
}

#[test]
fn an_engine_without_the_variant_fails_to_start() {
    let Err(failure) = UciEngine::start(&fake("no-variant"), "courier-moderno", TIMEOUT) else {
        panic!("the engine lists only xiangqi")
    };
    assert_eq!(
        failure,
        EngineFailure::Unsupported(
            "fake-no-variant does not play courier-moderno; it lists: xiangqi".into()
        )
    );
}

#[test]
fn a_missing_program_fails_to_spawn() {
    let spec = EngineSpec::parse("name=ghost,cmd=/nonexistent/kurier-ghost").unwrap();
    let Err(failure) = UciEngine::start(&spec, "chess", TIMEOUT) else {
        panic!("there is no such program")
    };
    let EngineFailure::Spawn(message) = &failure else {
        panic!("expected a spawn failure, got {failure}")
    };
    assert!(message.contains("/nonexistent/kurier-ghost"), "{message}");
}

#[test]
fn an_illegal_move_comes_back_as_text() {
    let mut engine =
        UciEngine::start(&fake("illegal-after=1"), "enhanced-courier", TIMEOUT).unwrap();
    let fen = start_fen("enhanced-courier");
    let first = engine
        .go(&fen, &[], &GoLimit::Nodes(1), Some(GENEROUS))
        .unwrap();
    assert!(legal_after("enhanced-courier", &fen, &[], &first.best).1);
    let moves = vec![first.best];
    let second = engine
        .go(&fen, &moves, &GoLimit::Nodes(1), Some(GENEROUS))
        .unwrap();
    assert_eq!(second.best, "a1a1");
    assert!(!legal_after("enhanced-courier", &fen, &moves, &second.best).1);
}

#[test]
fn drop_and_quit_leave_no_process_behind() {
    // A hung engine ignores `quit`: both ways must still end it.
    let mut hung = UciEngine::start(&fake("hang-after=0"), "chess", TIMEOUT).unwrap();
    let fen = start_fen("chess");
    let _ = hung.go(
        &fen,
        &[],
        &GoLimit::Nodes(1),
        Some(Duration::from_millis(50)),
    );
    let pid = hung.pid();
    assert!(process_exists(pid));
    drop(hung);
    assert!(
        !process_exists(pid),
        "process {pid} is still there after drop"
    );

    let mut hung = UciEngine::start(&fake("hang-after=0"), "chess", TIMEOUT).unwrap();
    let _ = hung.go(
        &fen,
        &[],
        &GoLimit::Nodes(1),
        Some(Duration::from_millis(50)),
    );
    let pid = hung.pid();
    let began = Instant::now();
    hung.quit();
    assert!(began.elapsed() < GENEROUS);
    assert!(
        !process_exists(pid),
        "process {pid} is still there after quit"
    );

    let polite = UciEngine::start(&fake("ok"), "chess", TIMEOUT).unwrap();
    let pid = polite.pid();
    polite.quit();
    assert!(
        !process_exists(pid),
        "process {pid} is still there after quit"
    );
}
