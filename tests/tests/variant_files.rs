//! Variant files (`data/variants/README.md`): the worked Courier-Spiel
//! example loads and has the hand-counted number of moves from its start
//! position, the `kurier` binary accepts it, and broken variant files are
//! rejected with an error whose `key` names the offending key and whose
//! message says what is wrong.
//!
//! The broken files are made by editing the text of the built-in `courier`
//! file; each edit first checks that the text it replaces is there, so a
//! change to `courier.toml` breaks these tests loudly instead of making
//! them test nothing.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;

use kurier_engine::position::any_game::AnyGame;
use kurier_engine::position::perft::perft;
use kurier_engine::position::state::Position;
use kurier_engine::types::Square;
use kurier_engine::variant::definition::{Variant, VariantError, BUILT_IN};
use kurier_engine::with_game;

/// The number of legal moves from the Courier-Spiel start position, counted
/// by hand in `data/variants/README.md`.
const COURIER_SPIEL_MOVES: usize = 34;

fn example_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../data/variants/examples/courier-spiel.toml")
}

fn built_in_text(name: &str) -> &'static str {
    BUILT_IN
        .iter()
        .find(|(built_in, _)| *built_in == name)
        .map(|(_, text)| *text)
        .unwrap_or_else(|| panic!("no built-in variant {name}"))
}

/// The courier file with `from` replaced by `to` (once, and it must be there).
fn courier_with(from: &str, to: &str) -> String {
    edited(built_in_text("courier"), from, to)
}

fn edited(text: &str, from: &str, to: &str) -> String {
    assert!(
        text.contains(from),
        "the variant file no longer contains {from:?}"
    );
    text.replacen(from, to, 1)
}

/// The courier file with one castling table appended (White's, f1-c1 with the
/// a1 rook unless a field is changed).
fn courier_with_castling(fields: &[(&str, &str)]) -> String {
    let mut entry = vec![
        ("color", "white"),
        ("king", "f1"),
        ("king_to", "c1"),
        ("partner", "a1"),
        ("partner_to", "d1"),
        ("san", "O-O-Oc"),
    ];
    for (key, value) in fields {
        let slot = entry
            .iter_mut()
            .find(|(name, _)| name == key)
            .unwrap_or_else(|| panic!("no castling field {key}"));
        slot.1 = value;
    }
    let mut text = built_in_text("courier").to_string();
    text.push_str("\n[[castling]]\n");
    for (key, value) in entry {
        text.push_str(&format!("{key} = \"{value}\"\n"));
    }
    text
}

fn check_error(error: &VariantError, text_source: &str, key: &str, words: &[&str]) {
    assert_eq!(error.key, key, "wrong key in: {error}");
    for word in words {
        assert!(
            error.message.contains(word),
            "the message of {error} lacks {word:?}"
        );
    }
    let shown = error.to_string();
    assert!(
        shown.contains(text_source) && shown.contains(key),
        "{shown:?} names neither the file nor the key"
    );
}

/// `Variant::from_toml` rejects `text` at `key` with a message containing
/// every one of `words`.
fn rejected(text: &str, key: &str, words: &[&str]) {
    match Variant::from_toml(text, "broken.toml") {
        Ok(variant) => panic!(
            "accepted a broken variant file as {:?} (expected an error at {key})",
            variant.name
        ),
        Err(error) => check_error(&error, "broken.toml", key, words),
    }
}

/// `Variant::from_toml` accepts `text` but `AnyGame::new` (which reads the
/// start position and matches castlings to it) rejects it.
fn rejected_at_load(text: &str, key: &str, words: &[&str]) {
    let variant = Variant::from_toml(text, "broken.toml")
        .unwrap_or_else(|e| panic!("expected the file to parse and fail at load: {e}"));
    let name = variant.name.clone();
    match AnyGame::new(variant) {
        Ok(_) => panic!("loaded a broken variant file (expected an error at {key})"),
        Err(error) => check_error(&error, &name, key, words),
    }
}

// ---------------------------------------------------------------------------
// The worked example.

#[test]
fn courier_spiel_example_has_its_hand_counted_start_moves() {
    let variant = Variant::from_file(&example_path()).expect("the example loads");
    assert_eq!(variant.name, "courier-spiel");
    assert_eq!((variant.files, variant.ranks), (12, 8));
    assert_eq!(variant.castlings.len(), 4);
    let start = variant.start.clone();
    let game = AnyGame::new(variant).expect("the example compiles");
    let (count, by_letter, fen, depth_two) = with_game!(&game, g => {
        let position = Position::startpos(g.clone());
        let moves = position.legal_moves();
        let mut by_letter = BTreeMap::new();
        for legal in &moves {
            let piece = position
                .piece_at(Square::new(legal.from()))
                .expect("a move starts on a piece");
            *by_letter
                .entry(g.variant.pieces[piece.piece_type()].letter)
                .or_insert(0usize) += 1;
        }
        let depth_two = perft(&mut Position::startpos(g.clone()), 2);
        (moves.len(), by_letter, position.fen(), depth_two)
    });
    assert_eq!(count, COURIER_SPIEL_MOVES);
    // The README's breakdown: 12 pawns x 2, knights 2 + 2, bishops
    // (ferz + alfil) 2 + 2 alfil leaps, councillor 2 knight leaps.
    let expected: BTreeMap<char, usize> = [('P', 24), ('N', 4), ('B', 4), ('U', 2)].into();
    assert_eq!(by_letter, expected);
    // The start FEN is written back as the file gives it (rights AFLafl).
    assert_eq!(fen, start);
    // No first move of White changes Black's 34 replies.
    assert_eq!(depth_two, 34 * 34);
}

/// The `kurier` binary built beside the tests (`<target>/<profile>/kurier`),
/// if there is one: Cargo builds a package's binaries only for that
/// package's own tests, so this is there after `cargo build -p kurier-engine`
/// (or `cargo build --workspace`) with the same profile directory.
fn kurier_binary() -> Option<PathBuf> {
    let test_exe = std::env::current_exe().ok()?;
    // The test runs from <target>/<profile>/deps/.
    let profile_dir = test_exe.parent()?.parent()?;
    let path = profile_dir.join(format!("kurier{}", std::env::consts::EXE_SUFFIX));
    path.is_file().then_some(path)
}

#[test]
fn the_binary_reads_the_example_and_rejects_a_broken_file() {
    let Some(kurier) = kurier_binary() else {
        eprintln!(
            "skipped: no kurier binary beside the test executable; \
             run `cargo build -p kurier-engine` first"
        );
        return;
    };
    for (depth, nodes) in [
        (1, COURIER_SPIEL_MOVES),
        (2, COURIER_SPIEL_MOVES * COURIER_SPIEL_MOVES),
    ] {
        let output = Command::new(&kurier)
            .args(["perft", "--variant-file"])
            .arg(example_path())
            .args(["--depth", &depth.to_string()])
            .output()
            .expect("kurier runs");
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            output.status.success(),
            "kurier perft failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        assert_eq!(
            stdout.lines().last(),
            Some(format!("nodes {nodes}").as_str()),
            "depth {depth}: {stdout}"
        );
    }

    let broken = courier_with("betza = \"A\"", "betza = \"FfX\"");
    let path = std::env::temp_dir().join(format!("kurier-broken-{}.toml", std::process::id()));
    std::fs::write(&path, broken).expect("write a temporary variant file");
    let output = Command::new(&kurier)
        .args(["perft", "--variant-file"])
        .arg(&path)
        .args(["--depth", "1"])
        .output()
        .expect("kurier runs");
    let _ = std::fs::remove_file(&path);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "kurier accepted a broken file");
    assert!(
        stderr.contains("pieces[4].betza") && stderr.contains("at character 3"),
        "unhelpful error: {stderr}"
    );
}

#[test]
fn the_courier_text_used_below_is_valid() {
    // The controls: the unedited file, and the file with a good castling.
    let game = AnyGame::new(Variant::from_toml(built_in_text("courier"), "courier").unwrap());
    assert!(game.is_ok());
    let castling = Variant::from_toml(&courier_with_castling(&[]), "courier").unwrap();
    assert_eq!(castling.castlings.len(), 1);
    assert!(AnyGame::new(castling).is_ok());
}

#[test]
fn a_missing_file_names_the_file() {
    let error = Variant::from_file(&PathBuf::from("/nonexistent/kurier/variant.toml")).unwrap_err();
    assert_eq!(error.key, "file");
    assert!(error.message.contains("cannot read"), "{error}");
}

// ---------------------------------------------------------------------------
// Broken files: TOML and the shape of the file.

#[test]
fn toml_syntax_error() {
    rejected(
        &courier_with("files = 12", "files = = 12"),
        "syntax",
        &["TOML parse error", "files = = 12"],
    );
}

#[test]
fn unknown_top_level_key() {
    rejected(
        &courier_with("files = 12", "files = 12\ncolour = \"white\""),
        "syntax",
        &["unknown field `colour`", "expected one of"],
    );
}

#[test]
fn unknown_piece_key() {
    rejected(
        &courier_with("name = \"man\"", "name = \"man\"\nvalue = 3"),
        "syntax",
        &["unknown field `value`", "`betza`"],
    );
}

#[test]
fn missing_key() {
    rejected(
        &courier_with("stalemate = \"loss\"\n", ""),
        "syntax",
        &["missing field `stalemate`"],
    );
}

#[test]
fn wrong_value_type_and_unknown_choice() {
    rejected(
        &courier_with("bare_king = true", "bare_king = \"yes\""),
        "syntax",
        &["expected a boolean"],
    );
    rejected(
        &courier_with("stalemate = \"loss\"", "stalemate = \"win\""),
        "syntax",
        &["unknown variant `win`", "`draw` or `loss`"],
    );
    rejected(
        &courier_with("bare_king = true", "bare_king = true\nrights = \"fide\""),
        "syntax",
        &["unknown variant `fide`", "`files` or `kq`"],
    );
}

#[test]
fn name_must_be_one_word() {
    rejected(
        &courier_with("name = \"courier\"", "name = \"my courier\""),
        "name",
        &["one word", "\"my courier\""],
    );
}

// ---------------------------------------------------------------------------
// Broken files: the board.

#[test]
fn too_many_files() {
    rejected(
        &courier_with("files = 12", "files = 27"),
        "files",
        &["1 to 26", "not 27"],
    );
    // Beyond a byte, TOML itself refuses the number.
    rejected(
        &courier_with("files = 12", "files = 300"),
        "syntax",
        &["expected u8"],
    );
}

#[test]
fn too_many_or_no_ranks() {
    rejected(
        &courier_with("ranks = 8", "ranks = 0"),
        "ranks",
        &["1 to 99", "not 0"],
    );
    rejected(
        &courier_with("ranks = 8", "ranks = 100"),
        "ranks",
        &["1 to 99", "not 100"],
    );
}

#[test]
fn too_big_a_board() {
    // 26 x 10 = 260 squares; 256 is the limit.
    let text = courier_with("files = 12", "files = 26");
    rejected(
        &edited(&text, "ranks = 8", "ranks = 10"),
        "ranks",
        &["260 squares", "at most 256"],
    );
}

// ---------------------------------------------------------------------------
// Broken files: pieces.

#[test]
fn bad_letter() {
    // The elephant is pieces[4] in courier.toml.
    rejected(
        &courier_with("letter = \"E\"", "letter = \"e\""),
        "pieces[4].letter",
        &["one upper-case letter", "\"e\""],
    );
    rejected(
        &courier_with("letter = \"E\"", "letter = \"EL\""),
        "pieces[4].letter",
        &["one upper-case letter", "\"EL\""],
    );
    rejected(
        &courier_with("letter = \"E\"", "letter = \"\""),
        "pieces[4].letter",
        &["one upper-case letter"],
    );
}

#[test]
fn duplicate_letter() {
    // The elephant (pieces[4]) takes N; the knight (pieces[6]) then clashes.
    rejected(
        &courier_with("letter = \"E\"", "letter = \"N\""),
        "pieces[6].letter",
        &["'N' is used by two piece types"],
    );
}

#[test]
fn bad_betza_says_where() {
    for (betza, at, words) in [
        ("FfX", 3, "'X' is not a piece letter"),
        ("nD", 1, "modifier 'n' is not supported"),
        ("mcW", 1, "exclude each other"),
        ("NN", 2, "rider 'NN' is not supported"),
        ("N3", 2, "leaper and takes no range"),
        ("R0", 2, "1 to 255"),
        ("ffN", 2, "given twice"),
        ("flW", 1, "leave this part no move"),
        ("Ff", 3, "must be followed by a piece letter"),
        ("", 1, "empty"),
    ] {
        let text = courier_with("betza = \"A\"", &format!("betza = \"{betza}\""));
        rejected(
            &text,
            "pieces[4].betza",
            &[&format!("{betza:?}"), &format!("at character {at}:"), words],
        );
    }
}

#[test]
fn two_royal_pieces() {
    rejected(
        &courier_with("name = \"man\"", "name = \"man\"\nroyal = true"),
        "pieces",
        &["exactly one piece type must be royal", "not 2"],
    );
}

#[test]
fn no_royal_piece() {
    rejected(
        &courier_with("royal = true\n", ""),
        "pieces",
        &["exactly one piece type must be royal", "not 0"],
    );
}

#[test]
fn royal_pawn() {
    rejected(
        &courier_with("pawn = true", "pawn = true\nroyal = true"),
        "pieces[8].pawn",
        &["both royal and a pawn"],
    );
}

#[test]
fn too_many_piece_types() {
    let mut text = built_in_text("courier").to_string();
    for letter in ['A', 'C', 'D', 'G', 'H', 'I', 'J', 'L'] {
        text.push_str(&format!(
            "\n[[pieces]]\nletter = \"{letter}\"\nname = \"wazir {letter}\"\nbetza = \"W\"\n"
        ));
    }
    rejected(&text, "pieces", &["1 to 16 piece types", "not 17"]);
}

#[test]
fn initial_rank_out_of_range() {
    rejected(
        &courier_with("pawn = true\n", "pawn = true\ninitial_rank = 9\n"),
        "pieces[8].initial_rank",
        &["must be 1 to 8", "not 9"],
    );
    rejected(
        &courier_with("pawn = true\n", "pawn = true\ninitial_rank = 0\n"),
        "pieces[8].initial_rank",
        &["must be 1 to 8", "not 0"],
    );
}

#[test]
fn first_move_right_off_the_back_rank() {
    // An `i` move without `initial_rank` needs a first-move right, which
    // the FEN can only write for a piece on its back rank.
    rejected_at_load(
        &courier_with("betza = \"fmWfcF\"", "betza = \"fmWfcFifmR2\""),
        "start",
        &["first-move right off its back rank", "pawn on b2"],
    );
}

// ---------------------------------------------------------------------------
// Broken files: promotion.

#[test]
fn pawns_without_promotion() {
    rejected(
        &courier_with("[promotion]\npieces = [\"F\"]\n", ""),
        "promotion",
        &["pawns needs a [promotion] table"],
    );
}

#[test]
fn promotion_to_the_king() {
    rejected(
        &courier_with("pieces = [\"F\"]", "pieces = [\"K\"]"),
        "promotion.pieces[0]",
        &["cannot promote to the king"],
    );
}

#[test]
fn promotion_letter_unknown() {
    rejected(
        &courier_with("pieces = [\"F\"]", "pieces = [\"F\", \"Q\"]"),
        "promotion.pieces[1]",
        &["'Q' is not the letter of a piece type"],
    );
    // Lower case is not a piece letter either.
    rejected(
        &courier_with("pieces = [\"F\"]", "pieces = [\"f\"]"),
        "promotion.pieces[0]",
        &["'f' is not the letter of a piece type"],
    );
}

#[test]
fn promotion_listed_twice_or_empty() {
    rejected(
        &courier_with("pieces = [\"F\"]", "pieces = [\"F\", \"F\"]"),
        "promotion.pieces[1]",
        &["'F' is listed twice"],
    );
    rejected(
        &courier_with("pieces = [\"F\"]", "pieces = []"),
        "promotion.pieces",
        &["at least one piece letter"],
    );
}

#[test]
fn promotion_ranks_out_of_range() {
    rejected(
        &courier_with("[promotion]\n", "[promotion]\nranks = 8\n"),
        "promotion.ranks",
        &["must be 1 to 7", "not 8"],
    );
}

// ---------------------------------------------------------------------------
// Broken files: castling.

#[test]
fn castling_square_off_the_board() {
    rejected(
        &courier_with_castling(&[("king", "m1")]),
        "castling[0].king",
        &["'m1' is not a square of a 12x8 board"],
    );
    rejected(
        &courier_with_castling(&[("partner_to", "d9")]),
        "castling[0].partner_to",
        &["'d9' is not a square of a 12x8 board"],
    );
}

#[test]
fn castling_square_not_on_the_back_rank() {
    rejected(
        &courier_with_castling(&[("partner_to", "d2")]),
        "castling[0].partner_to",
        &["d2 is not on white's back rank"],
    );
    rejected(
        &courier_with_castling(&[("color", "black")]),
        "castling[0].king",
        &["f1 is not on black's back rank"],
    );
}

#[test]
fn castling_colour_and_moves() {
    rejected(
        &courier_with_castling(&[("color", "White")]),
        "castling[0].color",
        &["\"white\" or \"black\"", "\"White\""],
    );
    rejected(
        &courier_with_castling(&[("partner_to", "a1")]),
        "castling[0].king",
        &["two different moves of two pieces"],
    );
    rejected(
        &courier_with_castling(&[("san", "")]),
        "castling[0].san",
        &["must not be empty"],
    );
}

#[test]
fn castling_partner_not_in_the_start_position() {
    // g1 is empty in the courier start position (the ferz has gone to g3).
    rejected_at_load(
        &courier_with_castling(&[("king_to", "i1"), ("partner", "g1"), ("partner_to", "h1")]),
        "castling[0].partner",
        &["no white piece other than the king on g1"],
    );
}

#[test]
fn castling_king_not_in_the_start_position() {
    rejected_at_load(
        &courier_with_castling(&[("king", "e1")]),
        "castling[0].king",
        &["white king neither starts on e1"],
    );
}

#[test]
fn kq_rights_with_too_many_castlings() {
    let mut text = courier_with("bare_king = true", "bare_king = true\nrights = \"kq\"");
    for (king_to, partner, partner_to) in
        [("c1", "a1", "d1"), ("j1", "l1", "i1"), ("b1", "a1", "c1")]
    {
        text.push_str(&format!(
            "\n[[castling]]\ncolor = \"white\"\nking = \"f1\"\nking_to = \"{king_to}\"\n\
             partner = \"{partner}\"\npartner_to = \"{partner_to}\"\nsan = \"O-O\"\n"
        ));
    }
    rejected(&text, "rights", &["one castling per wing"]);
}

// ---------------------------------------------------------------------------
// Broken files: the start position (checked by `AnyGame::new`).

#[test]
fn start_with_wrong_rank_count() {
    rejected_at_load(
        &courier_with("/6f5/", "/"),
        "start",
        &["placement", "7 ranks given, courier has 8"],
    );
}

#[test]
fn start_with_a_rank_too_long() {
    rejected_at_load(
        &courier_with("/6f5/", "/6f6/"),
        "start",
        &["placement", "rank 6 has at least 13 squares", "12 files"],
    );
}

#[test]
fn start_with_unknown_piece() {
    rejected_at_load(
        &courier_with("/6f5/", "/6x5/"),
        "start",
        &["placement", "'x' is not a piece of courier"],
    );
}

#[test]
fn start_with_rights_the_variant_has_not() {
    rejected_at_load(
        &courier_with("w - - 0 1", "w AL - 0 1"),
        "start",
        &["rights", "no first-move rights"],
    );
}

#[test]
fn start_with_too_few_fields() {
    rejected_at_load(
        &courier_with(" w - - 0 1\"", " w\""),
        "start",
        &["2 fields given"],
    );
}

// ---------------------------------------------------------------------------
// Files that once loaded although they should not (found while writing
// these tests, fixed in the engine since).

#[test]
fn duplicate_castling_is_rejected() {
    let text = courier_with_castling(&[]);
    let entry = &text[text.find("\n[[castling]]").unwrap()..];
    let doubled = format!("{text}{entry}");
    rejected(
        &doubled,
        "castling[1]",
        &["the same king move is given twice"],
    );
}

#[test]
fn kq_rights_refuse_other_first_move_rights() {
    // Courier Moderno's elephants leap on their first move; "kq" rights
    // could not write that right, so the file is refused.
    let text = edited(
        built_in_text("courier-moderno"),
        "bare_king = true",
        "bare_king = true\nrights = \"kq\"",
    );
    rejected(
        &text,
        "rights",
        &["cannot write the first-move right of the elephant"],
    );
}

#[test]
fn pawn_multi_step_fen_round_trip() {
    // An unlimited first-move slide (`ifmR`), and a two-step allowed
    // anywhere (`fmR2`, no initial_rank): after e2-e4 the FEN the engine
    // writes must read back to the same position.
    for (betza, initial_rank) in [("fmWfcFifmR", "initial_rank = 2\n"), ("fmR2fcF", "")] {
        let text = courier_with("betza = \"fmWfcF\"", &format!("betza = \"{betza}\""));
        let text = edited(
            &text,
            "pawn = true\n",
            &format!("pawn = true\n{initial_rank}"),
        );
        let game = AnyGame::new(Variant::from_toml(&text, "pawns.toml").unwrap()).unwrap();
        with_game!(&game, g => {
            let mut position =
                Position::from_fen(g.clone(), "5k6/12/12/12/12/12/4P7/5K6 w - - 0 1").unwrap();
            let double = position
                .legal_moves()
                .into_iter()
                .find(|m| position.uci(*m) == "e2e4")
                .expect("e2e4 is legal");
            position.make_move(double);
            let fen = position.fen();
            assert!(fen.contains(" b - e3 "), "{betza}: {fen}");
            match Position::from_fen(g.clone(), &fen) {
                Ok(again) => assert_eq!(again.fen(), fen),
                Err(error) => panic!("{betza}: the engine wrote {fen:?} and refuses it: {error}"),
            }
        });
    }
}

#[test]
fn promotion_to_a_pawn_is_rejected() {
    // b7-b8=P would leave a pawn on its last rank.
    rejected(
        &courier_with("pieces = [\"F\"]", "pieces = [\"F\", \"P\"]"),
        "promotion.pieces[1]",
        &["a pawn cannot promote to a pawn"],
    );
}

#[test]
fn range_after_k_is_explained() {
    let text = courier_with("betza = \"A\"", "betza = \"K2\"");
    let error = Variant::from_toml(&text, "broken.toml").unwrap_err();
    assert!(
        error.message.contains("takes no range"),
        "{}",
        error.message
    );
}
