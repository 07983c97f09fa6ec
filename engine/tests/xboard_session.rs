//! Scripted XBoard (CECP) sessions with the `kurier` binary over pipes.
//! Every wait is bounded; the engine process is killed when a test ends.

use std::time::{Duration, Instant};

use kurier_engine::position::any_game::AnyGame;
use kurier_engine::position::state::Position;
use kurier_engine::with_game;

mod common;

use common::{assert_legal, Engine};

impl Engine {
    /// `ping` answered with `pong`: everything before is handled. Returns
    /// the lines that came before the `pong`.
    fn sync(&mut self) -> Vec<String> {
        let number = self.lines_so_far();
        let pong = format!("pong {number}");
        self.send(&format!("ping {number}"));
        let mut lines = self.read_until(&pong, |line| line == pong);
        lines.pop();
        lines
    }

    /// The move of the next `move` line.
    fn engine_move(&mut self) -> String {
        let line = self.expect("move ");
        line.trim_start_matches("move ").to_string()
    }

    /// Starts the protocol: `xboard`, `protover 2`, up to `feature done=1`.
    fn handshake(&mut self) -> Vec<String> {
        self.send("xboard");
        self.send("protover 2");
        self.read_until("feature done=1", |line| line == "feature done=1")
    }
}

const VARIANTS: [&str; 5] = [
    "chess",
    "courier",
    "courier-moderno",
    "enhanced-courier",
    "excoco",
];

#[test]
fn features_without_a_subcommand() {
    // No subcommand and a pipe for input: the first line `xboard` decides.
    let mut engine = Engine::start(&[]);
    let features = engine.handshake();
    let first = features
        .iter()
        .find(|l| l.starts_with("feature ") && l.contains("myname="))
        .unwrap_or_else(|| panic!("no myname feature: {features:?}"));
    for feature in [
        "setboard=1",
        "usermove=1",
        "ping=1",
        "sigint=0",
        "sigterm=0",
        "colors=0",
        "myname=\"Kurier ",
        // XBoard 4.9 takes `courier` and `courier-moderno` (a name that
        // begins with `courier` and a non-letter) for its own courier,
        // so those two come with a second, engine-defined name.
        "variants=\"normal,courier,kurier-courier,courier-moderno,kurier-courier-moderno,enhanced-courier,excoco\"",
    ] {
        assert!(first.contains(feature), "{feature} missing: {first}");
    }
    for option in ["Hash -spin", "Threads -spin", "VariantPath -path"] {
        assert!(
            features
                .iter()
                .any(|l| l.starts_with(&format!("feature option=\"{option}"))),
            "{option} missing: {features:?}"
        );
    }
    assert_eq!(engine.sync(), Vec::<String>::new());
    assert!(engine.quit().success());
}

#[test]
fn plays_a_legal_move_in_every_variant() {
    let mut engine = Engine::start(&["xboard"]);
    engine.handshake();
    for variant in VARIANTS {
        engine.send("new");
        if variant != "chess" {
            engine.send(&format!("variant {variant}"));
        }
        let setup = engine.sync();
        if variant == "chess" {
            assert!(setup.is_empty(), "{setup:?}");
        } else {
            let first = setup.first().cloned().unwrap_or_default();
            assert!(first.starts_with("setup ("), "{variant}: {setup:?}");
            assert!(first.contains("+0_"), "{first}");
            let pieces = setup.iter().filter(|l| l.starts_with("piece ")).count();
            assert!(pieces >= 7, "{variant}: {setup:?}");
        }
        engine.send("sd 2");
        engine.send("go");
        let played = engine.engine_move();
        assert_legal(variant, None, &[], &played);
    }
    engine.send("variant shogi");
    engine.expect("Error (");
    assert!(engine.quit().success());
}

#[test]
fn user_moves_legal_and_illegal() {
    let mut engine = Engine::start(&["xboard"]);
    engine.handshake();
    engine.send("new");
    engine.send("force");
    engine.send("usermove e2e4");
    assert_eq!(engine.sync(), Vec::<String>::new());
    for bad in ["e2e4", "e7e8q", "zz", "e9e1", "e7e5x"] {
        engine.send(&format!("usermove {bad}"));
        assert_eq!(
            engine.expect("Illegal move"),
            format!("Illegal move: {bad}")
        );
    }
    engine.send("frobnicate now");
    assert_eq!(
        engine.expect("Error ("),
        "Error (unknown command): frobnicate now"
    );
    engine.send("setboard this is not a fen");
    assert!(engine
        .expect("Error (")
        .ends_with(": setboard this is not a fen"));
    engine.send("setboard rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra");
    engine.expect("Error (");
    engine.send("level forty 5 0");
    engine.expect("Error (");
    engine.send("sd deep");
    engine.expect("Error (");
    engine.send("option Hash=lots");
    engine.expect("Error (");
    engine.send("option Threads=2");
    engine.send("option Hash=16");
    assert_eq!(engine.sync(), Vec::<String>::new());

    // Castling from an XBoard FEN (KQkq rights), then a promotion; the
    // engine answers as Black.
    engine.send("new");
    engine.send("variant courier-moderno");
    engine.sync();
    engine.send("force");
    engine.send("setboard r5k4r/1P10/12/12/12/12/12/R4K5R w KQkq - 0 1");
    engine.send("usermove f1c1");
    engine.send("usermove g8j8");
    engine.send("usermove b7b8f");
    assert_eq!(engine.sync(), Vec::<String>::new());
    engine.send("sd 2");
    engine.send("go");
    let played = engine.engine_move();
    let fen = "r5k4r/1P10/12/12/12/12/12/R4K5R w AFLagl - 0 1";
    assert_legal(
        "courier-moderno",
        Some(fen),
        &["f1c1", "g8j8", "b7b8f"],
        &played,
    );
    assert!(engine.quit().success());
}

#[test]
fn ping_and_move_now_while_thinking() {
    let mut engine = Engine::start(&["xboard"]);
    engine.handshake();
    engine.send("new");
    engine.send("variant courier");
    engine.send("post");
    engine.send("st 30");
    engine.send("go");
    let mut before = engine.expect_none_for("move ", Duration::from_millis(300));
    let started = Instant::now();
    before.extend(engine.sync());
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "pong took {:?}",
        started.elapsed()
    );
    assert!(!before.iter().any(|l| l.starts_with("move ")), "{before:?}");
    // Thinking output: depth score centiseconds nodes pv.
    let thinking = before
        .iter()
        .find(|l| !l.starts_with("setup") && !l.starts_with("piece"))
        .unwrap_or_else(|| panic!("no thinking output: {before:?}"));
    let fields: Vec<&str> = thinking.split_whitespace().collect();
    assert!(fields.len() >= 5, "{thinking}");
    for (index, field) in fields[..4].iter().enumerate() {
        assert!(
            field.parse::<i64>().is_ok(),
            "field {index} of '{thinking}'"
        );
    }
    let started = Instant::now();
    engine.send("?");
    let played = engine.engine_move();
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "? took {:?}",
        started.elapsed()
    );
    assert_legal("courier", None, &[], &played);
    // The engine (White) moved; the opponent answers, the engine replies.
    engine.send("nopost");
    engine.send("st 1");
    let reply = {
        let game = AnyGame::built_in("courier").unwrap();
        with_game!(&game, g => {
            let mut position = Position::startpos(g.clone());
            position.make_move(position.parse_uci(&played).unwrap());
            let first = position.legal_moves()[0];
            position.uci(first)
        })
    };
    engine.send(&format!("usermove {reply}"));
    let second = engine.engine_move();
    assert_legal("courier", None, &[&played, &reply], &second);
    assert!(engine.quit().success());
}

#[test]
fn force_undo_and_remove() {
    let mut engine = Engine::start(&["xboard"]);
    engine.handshake();
    engine.send("new");
    engine.send("force");
    engine.send("undo");
    assert_eq!(
        engine.expect("Error ("),
        "Error (command not legal now): undo"
    );
    for text in ["e2e4", "e7e5", "g1f3"] {
        engine.send(&format!("usermove {text}"));
    }
    engine.send("undo");
    engine.send("usermove g1f3");
    engine.send("remove");
    // Back to the position after e2e4, Black to move; the engine plays it.
    engine.send("sd 2");
    engine.send("go");
    let played = engine.engine_move();
    assert_legal("chess", None, &["e2e4"], &played);
    engine.send("force");
    engine.send("undo");
    engine.send("undo");
    engine.send("remove");
    assert_eq!(
        engine.expect("Error ("),
        "Error (command not legal now): remove"
    );
    // Bare coordinate moves work too (not only after `usermove`).
    engine.send("d2d4");
    assert_eq!(engine.sync(), Vec::<String>::new());
    engine.send("go");
    let played = engine.engine_move();
    assert_legal("chess", None, &["d2d4"], &played);
    assert!(engine.quit().success());
}

/// Plays `setup` commands and returns the lines up to the first result.
fn until_result(engine: &mut Engine, commands: &[&str]) -> Vec<String> {
    for command in commands {
        engine.send(command);
    }
    engine.read_until("a result", |line| {
        line.starts_with("1-0 {") || line.starts_with("0-1 {") || line.starts_with("1/2-1/2 {")
    })
}

#[test]
fn announces_mates_bare_kings_and_stalemates() {
    let mut engine = Engine::start(&["xboard"]);
    engine.handshake();
    let mate = "setboard 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
    // The user mates the engine.
    let lines = until_result(&mut engine, &["new", mate, "usermove a1a8"]);
    assert_eq!(lines.last().unwrap(), "1-0 {White mates}");
    assert!(!lines.iter().any(|l| l.starts_with("move ")), "{lines:?}");
    // The engine mates.
    let lines = until_result(&mut engine, &["new", "force", mate, "sd 3", "go"]);
    assert_eq!(lines[lines.len() - 2..], ["move a1a8", "1-0 {White mates}"]);

    // Courier: the user takes Black's last man.
    let lines = until_result(
        &mut engine,
        &[
            "new",
            "variant courier",
            "setboard 5k6/12/12/5f6/12/12/12/5R4K1 w - - 0 1",
            "usermove f1f5",
        ],
    );
    assert_eq!(lines.last().unwrap(), "1-0 {Bare king}");
    // A bared king that can take the last man does so: a draw.
    let lines = until_result(
        &mut engine,
        &[
            "new",
            "variant courier",
            "force",
            "setboard 12/12/12/4kF6/12/12/12/10K1 b - - 0 1",
            "sd 3",
            "go",
        ],
    );
    assert_eq!(
        lines[lines.len() - 2..],
        ["move e5f5", "1/2-1/2 {Bare king}"]
    );
    // Courier: the stalemated side loses.
    let lines = until_result(
        &mut engine,
        &[
            "new",
            "variant courier",
            "force",
            "setboard k11/p11/P11/12/12/12/12/1R8K1 b - - 0 1",
            "go",
        ],
    );
    assert_eq!(lines.last().unwrap(), "1-0 {Stalemate}");
    assert!(!lines.iter().any(|l| l.starts_with("move ")), "{lines:?}");
    // Chess: stalemate is a draw.
    let lines = until_result(
        &mut engine,
        &[
            "new",
            "force",
            "setboard 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
            "go",
        ],
    );
    assert_eq!(lines.last().unwrap(), "1/2-1/2 {Stalemate}");
    assert!(engine.quit().success());
}

#[test]
fn time_controls() {
    let mut engine = Engine::start(&["xboard"]);
    engine.handshake();
    // Each limit is the most the time manager may plan for the clock
    // (`TimeManager::for_clock`: at most 40% of the time left, at most
    // five optima) plus a second of slack, so that only a clock ignored
    // fails, not a busy machine: 5 s with 500 cs has a 470 ms maximum;
    // 1000 cs and a 2 s increment a 4 s maximum (its optimum 2.2 s).
    for (commands, limit) in [
        (&["level 40 0:05 0", "time 500", "otim 500"][..], 3),
        (&["level 0 1 2", "time 1000", "otim 1000"][..], 5),
        (&["st 1"][..], 3),
        (&["st 30", "sd 2"][..], 5),
    ] {
        engine.send("new");
        engine.send("variant enhanced-courier");
        for command in commands {
            engine.send(command);
        }
        engine.sync();
        let started = Instant::now();
        engine.send("go");
        let played = engine.engine_move();
        let took = started.elapsed();
        assert!(
            took < Duration::from_secs(limit),
            "{commands:?} took {took:?}"
        );
        assert_legal("enhanced-courier", None, &[], &played);
    }
    assert!(engine.quit().success());
}

/// The `setup` and `piece` lines the engine answers `variant NAME` with.
fn setup_for(engine: &mut Engine, name: &str) -> Vec<String> {
    engine.send("new");
    engine.send(&format!("variant {name}"));
    engine.sync()
}

#[test]
fn xboard_names_set_up_rules_start_positions() {
    let mut engine = Engine::start(&["xboard"]);
    engine.handshake();
    // Courier: docs/RULES.md's start, after the four forced moves; XBoard's
    // piece types for Kurier's letters (P N B R . F E . . W M ... K);
    // shatranj rules of the game's end (bare king, stalemate loses); the
    // piece commands in the variant file's order, K F M W E B N R P.
    let courier = [
        "setup (PNBR.FE..WM..........Kpnbr.fe..wm..........k) 12x8+0_shatranj rnebmk1wbenr/1ppppp1pppp1/6f5/p5p4p/P5P4P/6F5/1PPPPP1PPPP1/RNEBMK1WBENR w - - 0 1",
        "piece K& K",
        "piece F& F",
        "piece M& K",
        "piece W& W",
        "piece E& A",
        "piece B& B",
        "piece N& N",
        "piece R& R",
        "piece P& fmWfcF",
    ];
    // The XBoard name and the name other clients use are the same game.
    assert_eq!(setup_for(&mut engine, "kurier-courier"), courier);
    assert_eq!(setup_for(&mut engine, "courier"), courier);
    engine.send("sd 2");
    engine.send("go");
    let played = engine.engine_move();
    assert_legal("courier", None, &[], &played);

    // Courier-moderno: castling as an unmoved king's O atom, three
    // squares toward a, four toward l (White: f1-c1, f1-j1); the
    // elephant's first-move leaps `ifAifD`; the pawn's double step and
    // en passant.
    let moderno = setup_for(&mut engine, "kurier-courier-moderno");
    assert_eq!(
        moderno[0],
        "setup (PNBR.FE..WM..........Kpnbr.fe..wm..........k) 12x8+0_shatranj rnebwfkmbenr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RNEBMKFWBENR w KQkq - 0 1"
    );
    for piece in [
        "piece K& KilO3irO4",
        "piece E& FfWifAifD",
        "piece P& fmWfcFifmW2feF",
    ] {
        assert!(moderno.iter().any(|l| l == piece), "{piece}: {moderno:?}");
    }
    assert_eq!(setup_for(&mut engine, "courier-moderno"), moderno);

    // Enhanced-courier needs no second name.
    let enhanced = setup_for(&mut engine, "enhanced-courier");
    assert_eq!(
        enhanced[0],
        "setup (PNCR..E..WM....G.....Kpncr..e..wm....g.....k) 12x8+0_shatranj rnecmkgwcenr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RNECMKGWCENR w - - 0 1"
    );
    engine.send("variant kurier-enhanced-courier");
    engine.expect("Error (unsupported variant");
    assert!(engine.quit().success());
}

#[test]
fn xboard_fens_without_rights_or_en_passant() {
    let mut engine = Engine::start(&["xboard"]);
    engine.handshake();
    // Under shatranj rules XBoard sends `placement side halfmove
    // fullmove`; pieces on their start squares keep their first-move
    // rights: White castles toward a, Black toward l, then White's
    // unmoved elephant leaps two squares forward.
    setup_for(&mut engine, "kurier-courier-moderno");
    engine.send("force");
    engine.send("setboard r1e3k4r/12/12/12/12/12/12/R4K3E1R w 0 1");
    for text in ["f1c1", "g8j8", "j1j3"] {
        engine.send(&format!("usermove {text}"));
    }
    assert_eq!(engine.sync(), Vec::<String>::new());
    engine.send("sd 2");
    engine.send("go");
    let played = engine.engine_move();
    let fen = "r1e3k4r/12/12/12/12/12/12/R4K3E1R w AFJLacgl - 0 1";
    assert_legal(
        "courier-moderno",
        Some(fen),
        &["f1c1", "g8j8", "j1j3"],
        &played,
    );
    // A variant without first-move rights takes the same form.
    setup_for(&mut engine, "kurier-courier");
    engine.send("force");
    engine.send(
        "setboard rnebmk1wbenr/1ppppp1pppp1/6f5/p5p4p/P5P4P/6F5/1PPPPP1PPPP1/RNEBMK1WBENR b 0 1",
    );
    engine.send("usermove g6h5");
    assert_eq!(engine.sync(), Vec::<String>::new());
    assert!(engine.quit().success());
}

#[test]
fn a_bare_king_win_is_left_to_the_bared_side() {
    let mut engine = Engine::start(&["xboard"]);
    engine.handshake();
    // The engine (White) takes Black's last man; Black's king cannot take
    // back. XBoard would count a win claimed now as false, so the engine
    // only moves.
    setup_for(&mut engine, "kurier-courier");
    engine.send("force");
    engine.send("setboard 5k6/12/12/5f6/12/12/12/5R4K1 w - - 0 1");
    engine.send("sd 3");
    engine.send("go");
    assert_eq!(engine.engine_move(), "f1f5");
    let after = engine.sync();
    assert!(
        !after.iter().any(|l| l.contains("{Bare king}")),
        "{after:?}"
    );
    // Given Black's side of the same game, the engine claims its loss.
    engine.send("new");
    engine.send("variant kurier-courier");
    engine.send("setboard 5k6/12/12/5f6/12/12/12/5R4K1 w - - 0 1");
    engine.send("usermove f1f5");
    assert_eq!(engine.expect("1-0"), "1-0 {Bare king}");
    assert!(engine.quit().success());
}
