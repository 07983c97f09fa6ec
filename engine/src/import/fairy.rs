//! A section of Fairy-Stockfish's `variants.ini` as a Kurier variant.
//!
//! The section and the sections it inherits from are applied in order to
//! Fairy-Stockfish's template (its empty one, or its built-in `chess`),
//! as `VariantParser::parse` applies them: board size, then the pieces in
//! Fairy-Stockfish's order of piece types (a letter given to a second type
//! takes it from the first), then every other key. The result is checked
//! against what Kurier can play; a key whose rule Kurier has not is
//! refused with its line, never dropped.

use std::collections::BTreeMap;

use super::fairy_betza;
use super::fairy_ini::{self, Section};
use super::fairy_regions::{parse_extent, parse_file, parse_region, whole_ranks, Region};
use super::moves::{Modality, MoveSet};
use super::Refusal;
use crate::variant::spec::{
    CastlingSpec, PieceSpec, PromotionSpec, RightsNotation, StalemateResult, VariantSpec,
};

/// Fairy-Stockfish's predefined piece types in its order, with their moves.
const PREDEFINED: [(&str, &str); 36] = [
    ("pawn", "fmWfceF"),
    ("knight", "N"),
    ("bishop", "B"),
    ("rook", "R"),
    ("queen", "Q"),
    ("fers", "F"),
    ("alfil", "A"),
    ("fersAlfil", "FA"),
    ("silver", "FfW"),
    ("aiwok", "RNF"),
    ("bers", "RF"),
    ("archbishop", "BN"),
    ("chancellor", "RN"),
    ("amazon", "QN"),
    ("knibis", "mNcB"),
    ("biskni", "mBcN"),
    ("kniroo", "mNcR"),
    ("rookni", "mRcN"),
    ("shogiPawn", "fW"),
    ("lance", "fR"),
    ("shogiKnight", "fN"),
    ("gold", "WfF"),
    ("dragonHorse", "BW"),
    ("clobber", "cW"),
    ("breakthrough", "fmWfF"),
    ("immobile", ""),
    ("cannon", "mRcpR"),
    ("janggiCannon", "pR"),
    ("soldier", "fsW"),
    ("horse", "nN"),
    ("elephant", "nA"),
    ("janggiElephant", "nZ"),
    ("banner", "RcpRnN"),
    ("wazir", "W"),
    ("commoner", "K"),
    ("centaur", "KN"),
];

/// Custom piece slots: `customPiece1` to `customPiece25`.
const CUSTOM_SLOTS: usize = 25;

/// Where a value came from: a line of the file, or the template.
#[derive(Clone, Debug)]
struct Origin {
    section: String,
    line: Option<usize>,
}

/// A value with where it came from.
#[derive(Clone, Debug)]
struct Setting {
    value: String,
    origin: Origin,
}

/// A piece type as Fairy-Stockfish holds it.
#[derive(Clone, Debug)]
struct FairyPiece {
    /// `pawn`, `customPiece3`, `king`, ...
    kind: String,
    /// Its letter, lower case.
    letter: char,
    /// Its moves in Fairy-Stockfish's dialect.
    betza: String,
    origin: Origin,
}

/// The state the sections build up.
#[derive(Default)]
struct FairyVariant {
    pieces: Vec<FairyPiece>,
    promotion: [Vec<String>; 2],
    settings: BTreeMap<String, Setting>,
}

fn refusal(key: &str, origin: &Origin, message: String) -> Refusal {
    Refusal {
        key: match origin.line {
            Some(line) => format!("[{}] line {line}: {key}", origin.section),
            None => format!("{key} (Fairy-Stockfish's default for [{}])", origin.section),
        },
        message,
    }
}

/// Keys that change only how a GUI shows the game or how Fairy-Stockfish
/// evaluates it, or that qualify a rule Kurier refuses when it is on
/// (drops, connect wins).
const PRESENTATION: [&str; 11] = [
    "pieceToCharTable",
    "variantTemplate",
    "pocketSize",
    "pieceValueMg",
    "pieceValueEg",
    "dropChecks",
    "connectVertical",
    "connectHorizontal",
    "connectDiagonal",
    "connectPieceTypes",
    "connectValue",
];

/// Keys whose rule Kurier has only in one setting: the values it accepts
/// (Kurier's own rule) and what the key is.
const FIXED: [(&str, &[&str], &str); 64] = [
    ("checking", &["true", "1"], "ban on giving check"),
    ("nMoveRule", &["50"], "move-count rule other than 50 moves"),
    ("nFoldRule", &["3"], "repetition rule other than threefold"),
    (
        "nFoldValue",
        &["draw"],
        "repetition result other than a draw",
    ),
    (
        "checkmateValue",
        &["loss"],
        "checkmate result other than a loss",
    ),
    ("chess960", &["false", "0"], "Chess960 castling"),
    ("twoBoards", &["false", "0"], "second board"),
    ("sittuyinPromotion", &["false", "0"], "Sittuyin promotion"),
    ("promotionLimit", &["", "-"], "promotion limits"),
    (
        "promotedPieceType",
        &["", "-"],
        "promotion of pieces other than pawns",
    ),
    (
        "piecePromotionOnCapture",
        &["false", "0"],
        "promotion by capture",
    ),
    (
        "mandatoryPiecePromotion",
        &["false", "0"],
        "piece promotion",
    ),
    ("pieceDemotion", &["false", "0"], "demotion"),
    ("blastOnCapture", &["false", "0"], "explosions (atomic)"),
    ("blastImmuneTypes", &["", "-"], "explosions (atomic)"),
    (
        "mutuallyImmuneTypes",
        &["", "-"],
        "immunity of pieces to each other",
    ),
    ("petrifyOnCaptureTypes", &["", "-"], "petrification"),
    ("petrifyBlastPieces", &["false", "0"], "petrification"),
    ("enPassantRegion", &[], "en passant limited to some squares"),
    (
        "enPassantRegionWhite",
        &[],
        "en passant limited to some squares",
    ),
    (
        "enPassantRegionBlack",
        &[],
        "en passant limited to some squares",
    ),
    (
        "enPassantTypes",
        &[],
        "en passant by pieces that are not pawns",
    ),
    (
        "enPassantTypesWhite",
        &[],
        "en passant by pieces that are not pawns",
    ),
    (
        "enPassantTypesBlack",
        &[],
        "en passant by pieces that are not pawns",
    ),
    (
        "castlingDroppedPiece",
        &["false", "0"],
        "castling with dropped pieces",
    ),
    (
        "oppositeCastling",
        &["false", "0"],
        "castling limited by the opponent's",
    ),
    ("mustCapture", &["false", "0"], "compulsory captures"),
    ("mustDrop", &["false", "0"], "drops"),
    ("pieceDrops", &["false", "0"], "drops"),
    ("dropLoop", &["false", "0"], "drops"),
    ("capturesToHand", &["false", "0"], "captured pieces in hand"),
    ("firstRankPawnDrops", &["false", "0"], "drops"),
    ("promotionZonePawnDrops", &["false", "0"], "drops"),
    ("enclosingDrop", &["none"], "drops"),
    ("sittuyinRookDrop", &["false", "0"], "drops"),
    ("dropOppositeColoredBishop", &["false", "0"], "drops"),
    ("dropPromoted", &["false", "0"], "drops"),
    (
        "immobilityIllegal",
        &["false", "0"],
        "ban on moves to squares a piece cannot leave",
    ),
    ("gating", &["false", "0"], "gating"),
    ("seirawanGating", &["false", "0"], "gating"),
    ("cambodianMoves", &["false", "0"], "Cambodian first moves"),
    ("wallingRule", &["none"], "walls"),
    ("wallOrMove", &["false", "0"], "walls"),
    ("pass", &["false", "0"], "passing"),
    ("passWhite", &["false", "0"], "passing"),
    ("passBlack", &["false", "0"], "passing"),
    ("passOnStalemate", &["false", "0"], "passing"),
    ("makpongRule", &["false", "0"], "makpong rule"),
    ("flyingGeneral", &["false", "0"], "flying general rule"),
    (
        "perpetualCheckIllegal",
        &["false", "0"],
        "ban on perpetual check",
    ),
    (
        "moveRepetitionIllegal",
        &["false", "0"],
        "ban on repeated moves",
    ),
    ("chasingRule", &["none"], "chasing rules"),
    (
        "stalematePieceCount",
        &["false", "0"],
        "material count at stalemate",
    ),
    ("shatarMateRule", &["false", "0"], "shatar mating rules"),
    ("bikjangRule", &["false", "0"], "bikjang"),
    (
        "extinctionValue",
        &["none"],
        "extinction rule (a side wins by capturing all of some pieces)",
    ),
    (
        "extinctionPseudoRoyal",
        &["false", "0"],
        "pseudo-royal pieces",
    ),
    ("dupleCheck", &["false", "0"], "duple check"),
    (
        "checkCounting",
        &["false", "0"],
        "win by a number of checks",
    ),
    ("connectN", &["0"], "win by a row of pieces"),
    ("connectNxN", &["0"], "win by a square of pieces"),
    ("collinearN", &["0"], "win by pieces in a line"),
    ("materialCounting", &["none"], "material counting"),
    ("countingRule", &["none"], "counting rules"),
];

/// Keys this importer reads itself.
const READ: [&str; 26] = [
    "maxRank",
    "maxFile",
    "startFen",
    "promotionRegionWhite",
    "promotionRegionBlack",
    "promotionPieceTypes",
    "promotionPieceTypesWhite",
    "promotionPieceTypesBlack",
    "promotionPawnTypes",
    "promotionPawnTypesWhite",
    "promotionPawnTypesBlack",
    "pawnTypes",
    "mandatoryPawnPromotion",
    "doubleStep",
    "doubleStepRegionWhite",
    "doubleStepRegionBlack",
    "tripleStepRegionWhite",
    "tripleStepRegionBlack",
    "castling",
    "castlingKingsideFile",
    "castlingQueensideFile",
    "castlingRank",
    "castlingKingPiece",
    "castlingRookPieces",
    "stalemateValue",
    "king",
];

/// The names of every section of a `variants.ini`.
pub fn section_names(text: &str) -> Result<Vec<String>, Refusal> {
    let all = fairy_ini::sections(text).map_err(|(line, message)| Refusal {
        key: format!("line {line}"),
        message,
    })?;
    Ok(all.into_iter().map(|s| s.name).collect())
}

/// The section `name` of a `variants.ini`, as a Kurier variant file.
pub fn to_spec(text: &str, name: &str) -> Result<VariantSpec, Refusal> {
    let all = fairy_ini::sections(text).map_err(|(line, message)| Refusal {
        key: format!("line {line}"),
        message,
    })?;
    let (root, chain) = fairy_ini::chain(&all, name).map_err(|(line, message)| Refusal {
        key: match line {
            0 => format!("[{name}]"),
            line => format!("line {line}: [{name}]"),
        },
        message,
    })?;
    let mut variant = template(root, name);
    for section in &chain {
        apply(&mut variant, section)?;
    }
    build(&variant, name)
}

fn template(root: Option<&str>, name: &str) -> FairyVariant {
    let origin = Origin {
        section: name.to_string(),
        line: None,
    };
    let mut variant = FairyVariant::default();
    for (key, value) in [
        ("maxRank", "8"),
        ("maxFile", "8"),
        (
            "startFen",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ),
        ("promotionRegionWhite", "*8"),
        ("promotionRegionBlack", "*1"),
        ("doubleStep", "true"),
        ("doubleStepRegionWhite", "*2"),
        ("doubleStepRegionBlack", "*7"),
        ("tripleStepRegionWhite", "-"),
        ("tripleStepRegionBlack", "-"),
        ("castling", "true"),
        ("castlingKingsideFile", "g"),
        ("castlingQueensideFile", "c"),
        ("castlingRank", "1"),
        ("castlingKingPiece", "k"),
        ("castlingRookPieces", "r"),
        ("mandatoryPawnPromotion", "true"),
        ("stalemateValue", "draw"),
    ] {
        variant.settings.insert(
            key.to_string(),
            Setting {
                value: value.to_string(),
                origin: origin.clone(),
            },
        );
    }
    if root == Some("chess") {
        for (kind, letter) in [
            ("pawn", 'p'),
            ("knight", 'n'),
            ("bishop", 'b'),
            ("rook", 'r'),
            ("queen", 'q'),
            ("king", 'k'),
        ] {
            variant.pieces.push(FairyPiece {
                kind: kind.to_string(),
                letter,
                betza: predefined_moves(kind).to_string(),
                origin: origin.clone(),
            });
        }
        let chess: Vec<String> = ["queen", "rook", "bishop", "knight"]
            .map(String::from)
            .to_vec();
        variant.promotion = [chess.clone(), chess];
    }
    variant
}

fn predefined_moves(kind: &str) -> &'static str {
    if kind == "king" {
        return "K";
    }
    PREDEFINED
        .iter()
        .find(|(name, _)| *name == kind)
        .map_or("", |(_, moves)| moves)
}

/// Piece keys in Fairy-Stockfish's order of types.
fn piece_keys() -> Vec<String> {
    let mut keys: Vec<String> = PREDEFINED
        .iter()
        .map(|(name, _)| name.to_string())
        .collect();
    keys.extend((1..=CUSTOM_SLOTS).map(|n| format!("customPiece{n}")));
    keys.push("king".to_string());
    keys
}

fn apply(variant: &mut FairyVariant, section: &Section) -> Result<(), Refusal> {
    let origin = |line: usize| Origin {
        section: section.name.clone(),
        line: Some(line),
    };
    let keys = piece_keys();
    for kind in &keys {
        let Some(entry) = section.entries.iter().rev().find(|e| &e.key == kind) else {
            continue;
        };
        let mut chars = entry.value.chars();
        match chars.next() {
            Some(letter) if letter.is_ascii_alphabetic() => {
                let letter = letter.to_ascii_lowercase();
                let moves = match chars.as_str().strip_prefix(':') {
                    Some(moves) => moves.to_string(),
                    None if kind.starts_with("customPiece") => {
                        return Err(refusal(
                            kind,
                            &origin(entry.line),
                            format!(
                                "{:?}: a custom piece needs its moves, `letter:betza`",
                                entry.value
                            ),
                        ))
                    }
                    None => predefined_moves(kind).to_string(),
                };
                if !chars.as_str().is_empty() && !chars.as_str().starts_with(':') {
                    return Err(refusal(
                        kind,
                        &origin(entry.line),
                        format!("{:?}: expected a letter, or `letter:betza`", entry.value),
                    ));
                }
                remove_piece(variant, |p| p.letter == letter || &p.kind == kind);
                variant.pieces.push(FairyPiece {
                    kind: kind.clone(),
                    letter,
                    betza: moves,
                    origin: origin(entry.line),
                });
            }
            _ => remove_piece(variant, |p| &p.kind == kind),
        }
    }
    for entry in &section.entries {
        if keys.contains(&entry.key) {
            continue;
        }
        let setting = Setting {
            value: entry.value.clone(),
            origin: origin(entry.line),
        };
        match entry.key.as_str() {
            "promotionPieceTypes" | "promotionPieceTypesWhite" | "promotionPieceTypesBlack" => {
                let kinds = letters_to_kinds(variant, &entry.value)
                    .map_err(|message| refusal(&entry.key, &setting.origin, message))?;
                if entry.key != "promotionPieceTypesBlack" {
                    variant.promotion[0] = kinds.clone();
                }
                if entry.key != "promotionPieceTypesWhite" {
                    variant.promotion[1] = kinds;
                }
            }
            "pawnTypes" => {
                for key in ["promotionPawnTypesWhite", "promotionPawnTypesBlack"] {
                    variant.settings.insert(key.to_string(), setting.clone());
                }
            }
            "promotionPawnTypes" => {
                for key in ["promotionPawnTypesWhite", "promotionPawnTypesBlack"] {
                    variant.settings.insert(key.to_string(), setting.clone());
                }
            }
            "doubleStepRegion" | "tripleStepRegion" | "promotionRegion" => {
                for colour in ["White", "Black"] {
                    variant
                        .settings
                        .insert(format!("{}{colour}", entry.key), setting.clone());
                }
            }
            _ => {
                variant.settings.insert(entry.key.clone(), setting);
            }
        }
    }
    Ok(())
}

fn remove_piece(variant: &mut FairyVariant, matches: impl Fn(&FairyPiece) -> bool) {
    let removed: Vec<String> = variant
        .pieces
        .iter()
        .filter(|p| matches(p))
        .map(|p| p.kind.clone())
        .collect();
    variant.pieces.retain(|p| !matches(p));
    for list in &mut variant.promotion {
        list.retain(|kind| !removed.contains(kind));
    }
}

fn letters_to_kinds(variant: &FairyVariant, letters: &str) -> Result<Vec<String>, String> {
    let mut kinds = Vec::new();
    for letter in letters.chars().filter(|c| *c != '-' && !c.is_whitespace()) {
        let letter = letter.to_ascii_lowercase();
        let piece = variant
            .pieces
            .iter()
            .find(|p| p.letter == letter)
            .ok_or_else(|| format!("'{letter}' is not the letter of a piece of this variant"))?;
        kinds.push(piece.kind.clone());
    }
    Ok(kinds)
}

impl FairyVariant {
    fn setting(&self, key: &str) -> &Setting {
        // The template holds every key this importer reads.
        &self.settings[key]
    }

    fn flag(&self, key: &str) -> Result<bool, Refusal> {
        let setting = self.setting(key);
        match setting.value.as_str() {
            "true" | "1" => Ok(true),
            "false" | "0" => Ok(false),
            other => Err(refusal(
                key,
                &setting.origin,
                format!("{other:?} is not true or false"),
            )),
        }
    }

    fn region(&self, key: &str, files: u8, ranks: u8) -> Result<Region, Refusal> {
        let setting = self.setting(key);
        parse_region(&setting.value, files, ranks)
            .map_err(|message| refusal(key, &setting.origin, message))
    }

    /// The one rank (from 0, White's) that a pair of White/Black regions
    /// names, mirrored; `None` when both are empty.
    fn mirrored_rank(&self, stem: &str, files: u8, ranks: u8) -> Result<Option<u8>, Refusal> {
        let white_key = format!("{stem}White");
        let black_key = format!("{stem}Black");
        let white = self.region(&white_key, files, ranks)?;
        let black = self.region(&black_key, files, ranks)?;
        if white.is_empty() && black.is_empty() {
            return Ok(None);
        }
        let one_rank = |region: &Region| {
            whole_ranks(region, files)
                .filter(|r| r.len() == 1)
                .and_then(|r| r.first().copied())
        };
        match (one_rank(&white), one_rank(&black)) {
            (Some(w), Some(b)) if b == ranks - 1 - w => Ok(Some(w)),
            _ => Err(refusal(
                &white_key,
                &self.setting(&white_key).origin,
                format!(
                    "{:?} for White and {:?} for Black: Kurier's first moves apply on one whole rank, the same for both sides counted from each side",
                    self.setting(&white_key).value,
                    self.setting(&black_key).value
                ),
            )),
        }
    }
}

fn build(variant: &FairyVariant, name: &str) -> Result<VariantSpec, Refusal> {
    check_keys(variant)?;
    let extent = |key: &str| {
        let setting = variant.setting(key);
        parse_extent(&setting.value).ok_or_else(|| {
            refusal(
                key,
                &setting.origin,
                format!("{:?} is not a board size", setting.value),
            )
        })
    };
    let files = extent("maxFile")?;
    let ranks = extent("maxRank")?;
    let castling = variant.flag("castling")?;
    let pawn_kinds = pawn_kinds(variant)?;
    let mut moves_of = Vec::new();
    for piece in &variant.pieces {
        moves_of.push(piece_moves(piece, pawn_kinds.contains(&piece.kind))?);
    }
    // Fairy-Stockfish's first moves (the pawn's double step, `i` moves)
    // apply on the double-step region; a game without any ignores it.
    let needs_region = moves_of.iter().any(MoveSet::has_initial);
    let double_step = variant.flag("doubleStep")? && needs_region;
    let initial_rank = if double_step {
        variant.mirrored_rank("doubleStepRegion", files, ranks)?
    } else {
        None
    };
    let triple_rank = if double_step && variant.pieces.iter().any(|p| p.kind == "pawn") {
        variant.mirrored_rank("tripleStepRegion", files, ranks)?
    } else {
        None
    };
    if triple_rank.is_some() && triple_rank != initial_rank {
        let setting = variant.setting("tripleStepRegionWhite");
        return Err(refusal(
            "tripleStepRegionWhite",
            &setting.origin,
            "triple steps from another rank than double steps: Kurier's pawn has one first-move rank".into(),
        ));
    }
    let mut pieces = Vec::new();
    for (piece, moves) in variant.pieces.iter().zip(moves_of) {
        let key = &piece.kind;
        let is_pawn = pawn_kinds.contains(key);
        let mut moves = if key == "pawn" {
            pawn_moves(triple_rank.is_some())
        } else {
            moves
        };
        if initial_rank.is_none() {
            moves.initial_quiet.clear();
            moves.initial_capture.clear();
        }
        let betza = moves.to_betza().map_err(|message| {
            refusal(key, &piece.origin, format!("{:?}: {message}", piece.betza))
        })?;
        pieces.push(PieceSpec {
            letter: piece.letter.to_ascii_uppercase().to_string(),
            name: key.clone(),
            betza,
            royal: key == "king",
            pawn: is_pawn,
            initial_rank: (moves.has_initial())
                .then(|| initial_rank.map(|r| r + 1))
                .flatten(),
        });
    }
    let promotion = promotion(variant, &pawn_kinds, files, ranks)?;
    let (start, castlings) = start_and_castling(variant, castling, files, ranks)?;
    let stalemate = match variant.setting("stalemateValue").value.as_str() {
        "draw" => StalemateResult::Draw,
        "loss" => StalemateResult::Loss,
        other => {
            return Err(refusal(
                "stalemateValue",
                &variant.setting("stalemateValue").origin,
                format!("{other:?}: Kurier's stalemate is a draw or a loss"),
            ))
        }
    };
    Ok(VariantSpec {
        name: name.to_string(),
        description: format!("Imported from Fairy-Stockfish's variants.ini, section [{name}]"),
        files,
        ranks,
        start,
        stalemate,
        bare_king: false,
        rights: RightsNotation::Kq,
        pieces,
        promotion,
        castling: castlings,
    })
}

/// A piece's moves as Fairy-Stockfish reads them (its own pawn: with a
/// double step).
fn piece_moves(piece: &FairyPiece, is_pawn: bool) -> Result<MoveSet, Refusal> {
    let key = &piece.kind;
    if key == "pawn" {
        return Ok(pawn_moves(false));
    }
    let moves = fairy_betza::parse(&piece.betza)
        .map_err(|message| refusal(key, &piece.origin, format!("{:?}: {message}", piece.betza)))?;
    if piece.betza.contains('e') && !is_pawn {
        return Err(refusal(
            key,
            &piece.origin,
            format!(
                "{:?}: en passant by a piece that is not a pawn",
                piece.betza
            ),
        ));
    }
    if is_pawn && has_forward_multi_step(&moves) {
        return Err(refusal(
            key,
            &piece.origin,
            format!(
                "{:?}: a custom pawn's multi-step, after which Fairy-Stockfish allows no en passant; Kurier's pawns always allow it",
                piece.betza
            ),
        ));
    }
    Ok(moves)
}

/// Every key must be one this importer reads, one that changes only the
/// presentation, or one whose rule Kurier has in the setting given.
fn check_keys(variant: &FairyVariant) -> Result<(), Refusal> {
    for (key, setting) in &variant.settings {
        if READ.contains(&key.as_str()) || PRESENTATION.contains(&key.as_str()) {
            continue;
        }
        match FIXED.iter().find(|(fixed, _, _)| fixed == key) {
            Some((_, accepted, _)) if accepted.contains(&setting.value.as_str()) => {}
            Some((_, _, rule)) => {
                return Err(refusal(
                    key,
                    &setting.origin,
                    format!("{:?}: Kurier has no {rule}", setting.value),
                ))
            }
            None => {
                return Err(refusal(
                    key,
                    &setting.origin,
                    format!(
                        "{:?}: a rule Kurier does not have (data/variants/README.md lists what it can play)",
                        setting.value
                    ),
                ))
            }
        }
    }
    Ok(())
}

fn pawn_kinds(variant: &FairyVariant) -> Result<Vec<String>, Refusal> {
    let mut lists = Vec::new();
    for key in ["promotionPawnTypesWhite", "promotionPawnTypesBlack"] {
        let kinds = match variant.settings.get(key) {
            None => variant
                .pieces
                .iter()
                .filter(|p| p.kind == "pawn")
                .map(|p| p.kind.clone())
                .collect(),
            Some(setting) => letters_to_kinds(variant, &setting.value)
                .map_err(|message| refusal(key, &setting.origin, message))?,
        };
        lists.push(kinds);
    }
    if lists[0] != lists[1] {
        // One of the two keys differs from the default: name it.
        let (key, setting) = ["promotionPawnTypesWhite", "promotionPawnTypesBlack"]
            .into_iter()
            .find_map(|key| variant.settings.get(key).map(|setting| (key, setting)))
            .expect("two lists differ only when a key sets one");
        return Err(refusal(
            key,
            &setting.origin,
            "other pawns for White than for Black: Kurier's armies move alike".into(),
        ));
    }
    if let Some(pawn) = variant.pieces.iter().find(|p| p.kind == "pawn") {
        if !lists[0].contains(&pawn.kind) {
            return Err(refusal(
                "pawn",
                &pawn.origin,
                "a pawn that does not promote: Kurier's pawns always promote".into(),
            ));
        }
    }
    Ok(lists.swap_remove(0))
}

/// Fairy-Stockfish's own pawn: one step forward, captures diagonally
/// forward, and a double (or triple) first step.
fn pawn_moves(triple: bool) -> MoveSet {
    let mut moves = MoveSet::default();
    let quiet = Modality {
        quiet: true,
        capture: false,
        initial: false,
    };
    moves.add_leap((0, 1), quiet);
    for side in [-1, 1] {
        moves.add_leap(
            (side, 1),
            Modality {
                quiet: false,
                capture: true,
                initial: false,
            },
        );
    }
    moves.add_ride(
        (0, 1),
        if triple { 3 } else { 2 },
        Modality {
            initial: true,
            ..quiet
        },
    );
    moves
}

fn has_forward_multi_step(moves: &MoveSet) -> bool {
    moves
        .quiet
        .iter()
        .chain(&moves.initial_quiet)
        .any(|s| s.dx == 0 && s.dy > 1)
}

fn promotion(
    variant: &FairyVariant,
    pawn_kinds: &[String],
    files: u8,
    ranks: u8,
) -> Result<Option<PromotionSpec>, Refusal> {
    if pawn_kinds.is_empty() {
        return Ok(None);
    }
    if !variant.flag("mandatoryPawnPromotion")? {
        return Err(refusal(
            "mandatoryPawnPromotion",
            &variant.setting("mandatoryPawnPromotion").origin,
            "optional promotion: Kurier's pawns must promote on entering the zone".into(),
        ));
    }
    let white = variant.region("promotionRegionWhite", files, ranks)?;
    let black = variant.region("promotionRegionBlack", files, ranks)?;
    let zone = whole_ranks(&white, files)
        .filter(|r| !r.is_empty() && r.iter().copied().eq(ranks - r.len() as u8..ranks));
    let black_zone = whole_ranks(&black, files).filter(|r| r.iter().copied().eq(0..r.len() as u8));
    let depth = match (zone, black_zone) {
        (Some(w), Some(b)) if w.len() == b.len() => w.len() as u8,
        _ => {
            return Err(refusal(
                "promotionRegionWhite",
                &variant.setting("promotionRegionWhite").origin,
                format!(
                    "{:?} for White and {:?} for Black: Kurier promotes on the last ranks of the board, as many for both sides",
                    variant.setting("promotionRegionWhite").value,
                    variant.setting("promotionRegionBlack").value
                ),
            ))
        }
    };
    if variant.promotion[0] != variant.promotion[1] {
        return Err(Refusal {
            key: "promotionPieceTypesWhite".into(),
            message:
                "other promotion pieces for White than for Black: Kurier's armies promote alike"
                    .into(),
        });
    }
    let letters = variant.promotion[0]
        .iter()
        .filter_map(|kind| variant.pieces.iter().find(|p| &p.kind == kind))
        .map(|p| p.letter.to_ascii_uppercase().to_string())
        .collect();
    Ok(Some(PromotionSpec {
        ranks: depth,
        pieces: letters,
    }))
}

/// The start FEN in Kurier's form and the castlings its rights field
/// gives, as Fairy-Stockfish places them: the king to the castling files
/// (`g` and `c` by default), the outermost rook of that wing beside it.
fn start_and_castling(
    variant: &FairyVariant,
    castling: bool,
    files: u8,
    ranks: u8,
) -> Result<(String, Vec<CastlingSpec>), Refusal> {
    let setting = variant.setting("startFen");
    let fen_error = |message: String| refusal("startFen", &setting.origin, message);
    let fields: Vec<&str> = setting.value.split_whitespace().collect();
    let placement = fields.first().copied().unwrap_or("");
    if let Some(bad) = placement
        .chars()
        .find(|c| matches!(c, '[' | '~' | '*' | '+'))
    {
        return Err(fen_error(format!(
            "'{bad}' in the placement: pieces in hand, promoted pieces or walls, which Kurier has not"
        )));
    }
    if fields.len() > 6 || fields.iter().any(|f| f.contains('+')) {
        return Err(fen_error(format!(
            "{:?}: a field Kurier's FEN has not (check counters?)",
            setting.value
        )));
    }
    let mut fields = fields;
    // Fairy-Stockfish reads a FEN without its en-passant field
    // (`w - 0 1`).
    if fields.len() == 5 && fields[3].parse::<u32>().is_ok() {
        fields.insert(3, "-");
    }
    let side = fields.get(1).copied().unwrap_or("w");
    let rights = fields.get(2).copied().unwrap_or("-");
    let en_passant = fields.get(3).copied().unwrap_or("-");
    let halfmove = fields.get(4).copied().unwrap_or("0");
    let fullmove = fields.get(5).copied().unwrap_or("1");
    let board = read_placement(placement, files, ranks).map_err(fen_error)?;
    let mut castlings = Vec::new();
    let mut kept = String::new();
    if castling {
        for right in rights.chars().filter(|c| *c != '-') {
            if !"KQkq".contains(right) {
                return Err(fen_error(format!(
                    "castling right '{right}': Kurier reads Fairy-Stockfish's KQkq rights only"
                )));
            }
            castlings.push(castling_of(variant, &board, right, files, ranks)?);
            kept.push(right);
        }
    }
    if kept.is_empty() {
        kept.push('-');
    }
    Ok((
        format!("{placement} {side} {kept} {en_passant} {halfmove} {fullmove}"),
        castlings,
    ))
}

/// The pieces of a placement by (file, rank), as letters.
fn read_placement(
    placement: &str,
    files: u8,
    ranks: u8,
) -> Result<BTreeMap<(u8, u8), char>, String> {
    let mut board = BTreeMap::new();
    let rows: Vec<&str> = placement.split('/').collect();
    if rows.len() != usize::from(ranks) {
        return Err(format!(
            "{} ranks in the placement, the board has {ranks}",
            rows.len()
        ));
    }
    for (row, text) in rows.iter().enumerate() {
        let rank = ranks - 1 - row as u8;
        let mut file = 0u32;
        let mut digits = String::new();
        for c in text.chars().chain(std::iter::once('/')) {
            if c.is_ascii_digit() {
                digits.push(c);
                continue;
            }
            if !digits.is_empty() {
                file += digits.parse::<u32>().unwrap_or(0);
                digits.clear();
            }
            if c.is_ascii_alphabetic() {
                if file < u32::from(files) {
                    board.insert((file as u8, rank), c);
                }
                file += 1;
            }
        }
        if file != u32::from(files) {
            return Err(format!(
                "rank {} of the placement has {file} squares, the board {files}",
                rank + 1
            ));
        }
    }
    Ok(board)
}

fn castling_of(
    variant: &FairyVariant,
    board: &BTreeMap<(u8, u8), char>,
    right: char,
    files: u8,
    ranks: u8,
) -> Result<CastlingSpec, Refusal> {
    let white = right.is_ascii_uppercase();
    let king_side = right.eq_ignore_ascii_case(&'k');
    let castling_rank = variant.setting("castlingRank");
    let relative: u8 = castling_rank.value.parse().unwrap_or(0);
    if relative != 1 {
        return Err(refusal(
            "castlingRank",
            &castling_rank.origin,
            format!("{:?}: Kurier castles on the back rank", castling_rank.value),
        ));
    }
    let rank = if white { 0 } else { ranks - 1 };
    let letter_of = |key: &str| -> Result<char, Refusal> {
        let setting = variant.setting(key);
        setting
            .value
            .chars()
            .next()
            .map(|c| c.to_ascii_lowercase())
            .ok_or_else(|| refusal(key, &setting.origin, "no piece letter".into()))
    };
    let king_letter = letter_of("castlingKingPiece")?;
    let rook_letters: Vec<char> = variant
        .setting("castlingRookPieces")
        .value
        .chars()
        .map(|c| c.to_ascii_lowercase())
        .collect();
    let own = |c: char| c.is_ascii_uppercase() == white;
    let fen = variant.setting("startFen");
    let king_file = (0..files)
        .find(|&f| {
            board
                .get(&(f, rank))
                .is_some_and(|&c| own(c) && c.to_ascii_lowercase() == king_letter)
        })
        .ok_or_else(|| {
            refusal(
                "startFen",
                &fen.origin,
                format!("castling right '{right}' with no castling king on its back rank"),
            )
        })?;
    let rook_file = if king_side {
        (king_file + 1..files).rev().find(|&f| {
            board
                .get(&(f, rank))
                .is_some_and(|&c| own(c) && rook_letters.contains(&c.to_ascii_lowercase()))
        })
    } else {
        (0..king_file).find(|&f| {
            board
                .get(&(f, rank))
                .is_some_and(|&c| own(c) && rook_letters.contains(&c.to_ascii_lowercase()))
        })
    }
    .ok_or_else(|| {
        refusal(
            "startFen",
            &fen.origin,
            format!("castling right '{right}' with no rook on that wing"),
        )
    })?;
    let destination_key = if king_side {
        "castlingKingsideFile"
    } else {
        "castlingQueensideFile"
    };
    let destination = variant.setting(destination_key);
    let king_to = parse_file(&destination.value)
        .filter(|&f| f > 0 && f + 1 < files)
        .ok_or_else(|| {
            refusal(
                destination_key,
                &destination.origin,
                format!(
                    "{:?} is not a file for the king to castle to",
                    destination.value
                ),
            )
        })?;
    let partner_to = if king_side { king_to - 1 } else { king_to + 1 };
    let square = |file: u8| format!("{}{}", (b'a' + file) as char, rank + 1);
    Ok(CastlingSpec {
        color: if white { "white" } else { "black" }.into(),
        king: square(king_file),
        king_to: square(king_to),
        partner: square(rook_file),
        partner_to: square(partner_to),
        san: if king_side { "O-O" } else { "O-O-O" }.into(),
        keeps_right: false,
    })
}
