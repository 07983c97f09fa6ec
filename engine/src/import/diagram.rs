//! H. G. Muller's Interactive Diagram (the Chess Variant Pages,
//! "Interactive diagrams") as a Kurier variant.
//!
//! A diagram is a list of parameters `key=value` and piece lines
//! `name:id:moves:image:squares`, one a line or separated by spaces as a
//! page's text shows them (a piece name may hold spaces: `woody
//! rook:W:WD:...`). The squares are White's, then after `,,` Black's,
//! single squares or ranges along a rank or file (`a2-l2`). The moves are
//! XBetza (`super::xbetza`).
//!
//! The Diagram's own rules, as its author describes them: the last piece
//! type is royal unless `royal=N` names another (counting from 1); the
//! first piece type is the one that promotes (on the `promoZone` last
//! ranks, to the ids of `promoChoice`); `stalemate=win` makes stalemate a
//! win for the side that gives it, `draw` (the default) a draw;
//! `baring=0` makes every non-royal piece count for the bare-king rule
//! (as in Shatranj). Two piece lines with one id are two piece types, as
//! in the Diagram; the second gets another letter here, because Kurier
//! writes every type with its own letter in a FEN. What Kurier cannot
//! play is refused with the parameter or piece line and its line number;
//! `data/variants/README.md`, "Interactive Diagrams", lists it all.

use std::collections::{BTreeMap, BTreeSet};

use super::moves::MoveSet;
use super::xbetza::{self, Castling, GRYPHON};
use super::Refusal;
use crate::variant::spec::{
    CastlingSpec, PieceSpec, PromotionSpec, RightsNotation, StalemateResult, VariantSpec,
};

/// Parameters that change only how the page shows the diagram.
const PRESENTATION: [&str; 12] = [
    "graphicsDir",
    "graphicsType",
    "squareSize",
    "darkShade",
    "lightShade",
    "whitePrefix",
    "blackPrefix",
    "satellite",
    "useMarkers",
    "coordColor",
    "borderColor",
    "rimColor",
];

/// Parameters of rules Kurier has not, with what they are.
const REFUSED: [(&str, &str); 7] = [
    ("holdingsType", "pieces in hand (drops)"),
    ("hole", "holes in the board"),
    ("promoOffset", "Shogi-style promotion of pieces"),
    ("captureMatrix", "immunities between piece types"),
    ("shuffle", "a shuffled start position"),
    ("autoGate", "gating"),
    (
        "maxPromote",
        "a limit on promotion (Kurier reads the Diagram's default: the first piece type promotes)",
    ),
];

/// A square: (file, rank), both from 0.
type Square = (u8, u8);

/// One `key=value` and its line.
struct Parameter {
    key: String,
    value: String,
    line: usize,
}

impl Parameter {
    fn refusal(&self, message: String) -> Refusal {
        Refusal {
            key: format!("line {}: {}", self.line, self.key),
            message: format!("{:?}: {message}", self.value),
        }
    }

    fn number(&self, low: u32, high: u32) -> Result<u32, Refusal> {
        self.value
            .parse::<u32>()
            .ok()
            .filter(|n| (low..=high).contains(n))
            .ok_or_else(|| self.refusal(format!("not a number from {low} to {high}")))
    }
}

/// How Black's squares follow from White's when a piece line gives none.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Symmetry {
    None,
    Mirror,
    Rotate,
}

/// The rules the parameters set.
struct Settings {
    files: u8,
    ranks: u8,
    promo_choice: Option<Parameter>,
    stalemate: StalemateResult,
    bare_king: bool,
    /// The royal piece's number (from 1) and its parameter's line.
    royal: Option<(usize, usize)>,
    symmetry: Symmetry,
}

/// A piece line, read.
struct Line {
    name: String,
    id: Option<char>,
    moves: String,
    white: Vec<Square>,
    black: Option<Vec<Square>>,
    line: usize,
}

impl Line {
    fn key(&self) -> String {
        format!("line {}: piece '{}'", self.line, self.name)
    }

    fn refusal(&self, message: String) -> Refusal {
        Refusal {
            key: self.key(),
            message,
        }
    }

    /// The id the Diagram shows: the one written, else the name's first
    /// letter.
    fn shown_id(&self) -> Option<char> {
        self.id.or_else(|| {
            self.name
                .chars()
                .find(char::is_ascii_alphabetic)
                .map(|c| c.to_ascii_uppercase())
        })
    }
}

/// Whether a text looks like a diagram: a `files=` parameter, a piece
/// line, and no `[section]` header.
pub fn looks_like_diagram(text: &str) -> bool {
    if text.lines().any(|line| line.trim_start().starts_with('[')) {
        return false;
    }
    let mut words = text.split_whitespace();
    words.clone().any(|w| w.starts_with("files=")) && words.any(|w| w.matches(':').count() >= 4)
}

/// A diagram's text as a Kurier variant file named `name`.
pub fn to_spec(text: &str, name: &str) -> Result<VariantSpec, Refusal> {
    let (parameters, piece_lines) = items(text)?;
    let settings = settings(parameters)?;
    let lines = piece_lines
        .iter()
        .map(|(text, line)| piece_line(text, *line, &settings))
        .collect::<Result<Vec<_>, _>>()?;
    if lines.is_empty() {
        return Err(Refusal {
            key: "pieces".into(),
            message: "the diagram has no piece lines (name:id:moves:image:squares)".into(),
        });
    }
    let royal = match settings.royal {
        Some((number, line)) if number > lines.len() => {
            return Err(Refusal {
                key: format!("line {line}: royal"),
                message: format!(
                    "piece {number} is royal, but the diagram has {} piece lines",
                    lines.len()
                ),
            })
        }
        Some((number, _)) => number - 1,
        None => lines.len() - 1,
    };
    let pawn = (royal != 0).then_some(0);
    let (letters, notes) = letters(&lines)?;
    let mut pieces = Vec::new();
    for (index, line) in lines.iter().enumerate() {
        let piece = xbetza::parse(&line.moves)
            .map_err(|message| line.refusal(format!("{:?}: {message}", line.moves)))?;
        check_mirror_symmetric(line, &piece)?;
        if !piece.castling.is_empty() && index != royal {
            return Err(line.refusal(format!(
                "{:?}: castling by a piece that is not royal: Kurier castles the king",
                line.moves
            )));
        }
        pieces.push(piece);
    }
    let board = place(&lines)?;
    check_en_passant(&lines, &pieces, pawn)?;
    let promotion = match pawn {
        Some(pawn) => Some(promotion(&lines, &letters, (pawn, royal), &settings)?),
        None => None,
    };
    let mut rights = BTreeSet::new();
    let mut specs = Vec::new();
    for (index, (line, piece)) in lines.iter().zip(&pieces).enumerate() {
        let starts: Vec<(Square, bool)> = board
            .iter()
            .filter(|(_, &(t, _))| t == index)
            .map(|(&square, &(_, white))| (square, white))
            .collect();
        let mut initial_rank = None;
        if piece.moves.has_initial() {
            if Some(index) == pawn {
                initial_rank = pawn_initial_rank(line, piece, &starts, settings.ranks)?;
            } else {
                for &((file, rank), white) in &starts {
                    if rank != back_rank(white, settings.ranks) {
                        return Err(line.refusal(format!(
                            "first moves ('i') of a piece that starts on {}, off its back rank: Kurier keeps first-move rights on the back rank only",
                            square_name((file, rank))
                        )));
                    }
                    rights.insert(((file, rank), white));
                }
            }
        }
        let betza = kurier_moves(piece)
            .map_err(|message| line.refusal(format!("{:?}: {message}", line.moves)))?;
        specs.push(PieceSpec {
            letter: letters[index].to_string(),
            name: line.name.clone(),
            betza,
            royal: index == royal,
            pawn: Some(index) == pawn,
            initial_rank,
        });
    }
    let castling = castlings(
        &lines[royal],
        &pieces[royal],
        royal,
        &board,
        &settings,
        &mut rights,
    )?;
    let start = format!(
        "{} w {} - 0 1",
        placement(&board, &letters, &settings),
        rights_field(&rights)
    );
    let description = if notes.is_empty() {
        "Imported from an Interactive Diagram".to_string()
    } else {
        format!(
            "Imported from an Interactive Diagram ({})",
            notes.join("; ")
        )
    };
    Ok(VariantSpec {
        name: name.to_string(),
        description,
        files: settings.files,
        ranks: settings.ranks,
        start,
        stalemate: settings.stalemate,
        bare_king: settings.bare_king,
        rights: RightsNotation::Files,
        pieces: specs,
        promotion,
        castling,
    })
}

/// The parameters and the piece lines (with their line numbers). Words
/// before a piece line's first field on the same line are its name.
type Items = (Vec<Parameter>, Vec<(String, usize)>);

fn items(text: &str) -> Result<Items, Refusal> {
    let mut parameters = Vec::new();
    let mut pieces = Vec::new();
    for (index, text_line) in text.lines().enumerate() {
        let line = index + 1;
        let mut name_words: Vec<&str> = Vec::new();
        for word in text_line.split_whitespace() {
            let equals = word.find('=');
            let colon = word.find(':');
            match (equals, colon) {
                (Some(e), colon) if colon.is_none_or(|c| e < c) => {
                    if !name_words.is_empty() {
                        return Err(stray(line, &name_words));
                    }
                    parameters.push(Parameter {
                        key: word[..e].to_string(),
                        value: word[e + 1..].to_string(),
                        line,
                    });
                }
                (_, Some(_)) => {
                    name_words.push(word);
                    pieces.push((name_words.join(" "), line));
                    name_words.clear();
                }
                _ => name_words.push(word),
            }
        }
        if !name_words.is_empty() {
            return Err(stray(line, &name_words));
        }
    }
    Ok((parameters, pieces))
}

/// Words on `line` that are neither a parameter nor a piece line.
fn stray(line: usize, words: &[&str]) -> Refusal {
    Refusal {
        key: format!("line {line}"),
        message: format!(
            "{:?}: neither a parameter (key=value) nor a piece line (name:id:moves:image:squares)",
            words.join(" ")
        ),
    }
}

fn settings(parameters: Vec<Parameter>) -> Result<Settings, Refusal> {
    let mut settings = Settings {
        files: 8,
        ranks: 8,
        promo_choice: None,
        stalemate: StalemateResult::Draw,
        bare_king: false,
        royal: None,
        symmetry: Symmetry::None,
    };
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for parameter in parameters {
        let key = parameter.key.as_str();
        if PRESENTATION.contains(&key) {
            continue;
        }
        if let Some(&(_, rule)) = REFUSED.iter().find(|(refused, _)| *refused == key) {
            return Err(parameter.refusal(format!("Kurier has no {rule}")));
        }
        if key != "baring" {
            if let Some(first) = seen.insert(key.to_string(), parameter.line) {
                return Err(parameter.refusal(format!("given twice (also on line {first})")));
            }
        }
        match key {
            "files" => settings.files = parameter.number(1, 26)? as u8,
            "ranks" => settings.ranks = parameter.number(1, 99)? as u8,
            "promoZone" => {
                if parameter.number(1, 99)? != 1 {
                    return Err(parameter.refusal(
                        "a promotion zone deeper than the last rank, where the Diagram may let a pawn wait: Kurier's pawns promote on entering the zone".into(),
                    ));
                }
            }
            "promoChoice" => settings.promo_choice = Some(parameter),
            "stalemate" => {
                settings.stalemate = match parameter.value.as_str() {
                    "win" => StalemateResult::Loss,
                    "draw" => StalemateResult::Draw,
                    "loss" | "lose" => {
                        return Err(parameter.refusal(
                            "stalemate lost by the side that gives it: Kurier's stalemate is a draw or a loss for the stalemated side".into(),
                        ))
                    }
                    _ => return Err(parameter.refusal("not win, draw or loss".into())),
                }
            }
            "baring" => {
                if parameter.number(0, 99)? != 0 {
                    return Err(parameter.refusal(
                        "a bare-king rule counting some piece types only: Kurier's counts every piece but the king (baring=0)".into(),
                    ));
                }
                settings.bare_king = true;
            }
            "royal" => settings.royal = Some((parameter.number(1, 99)? as usize, parameter.line)),
            "symmetry" => {
                settings.symmetry = match parameter.value.as_str() {
                    "none" => Symmetry::None,
                    "mirror" => Symmetry::Mirror,
                    "rotate" => Symmetry::Rotate,
                    _ => return Err(parameter.refusal("not none, mirror or rotate".into())),
                }
            }
            "firstRank" => {
                if parameter.value != "1" {
                    return Err(parameter.refusal(
                        "ranks numbered from other than 1, which Kurier's squares are not".into(),
                    ));
                }
            }
            _ => {
                return Err(parameter.refusal(
                    "not a parameter Kurier reads (data/variants/README.md, \"Interactive Diagrams\", lists them)".into(),
                ))
            }
        }
    }
    Ok(settings)
}

fn piece_line(text: &str, line: usize, settings: &Settings) -> Result<Line, Refusal> {
    let fields: Vec<&str> = text.split(':').collect();
    let malformed = |message: String| Refusal {
        key: format!("line {line}: piece line"),
        message: format!("{text:?}: {message}"),
    };
    if fields.len() < 5 {
        return Err(malformed(format!(
            "{} fields; a piece line has five, name:id:moves:image:squares",
            fields.len()
        )));
    }
    let name = fields[0].trim();
    if name.is_empty() {
        return Err(malformed("no piece name".into()));
    }
    let mut read = Line {
        name: name.to_string(),
        id: None,
        moves: fields[2].trim().to_string(),
        white: Vec::new(),
        black: None,
        line,
    };
    if let Some(extra) = fields[5..].iter().find(|field| !field.trim().is_empty()) {
        return Err(read.refusal(format!(
            "{extra:?}: a field after the squares, which Kurier does not read"
        )));
    }
    let id = fields[1].trim();
    let mut id_chars = id.chars();
    read.id = match (id_chars.next(), id_chars.next()) {
        (None, _) => None,
        (Some(c), None) if c.is_ascii_alphabetic() => Some(c.to_ascii_uppercase()),
        _ => return Err(read.refusal(format!("id {id:?}: Kurier reads one letter"))),
    };
    if read.moves.is_empty() {
        return Err(read.refusal(
            "no moves: the Diagram would take them from its own table of known pieces; write the XBetza"
                .into(),
        ));
    }
    let squares_field = fields[4].trim();
    let halves: Vec<&str> = squares_field.split(",,").collect();
    if halves.len() > 2 {
        return Err(read.refusal(format!(
            "squares {squares_field:?}: ',,' separates White's squares from Black's, once"
        )));
    }
    let list = |text: &str| squares(text, settings).map_err(|message| read.refusal(message));
    let white = list(halves[0])?;
    let black = halves.get(1).map(|half| list(half)).transpose()?;
    let derive = |&(file, rank): &Square| match settings.symmetry {
        Symmetry::Mirror => Some((file, settings.ranks - 1 - rank)),
        Symmetry::Rotate => Some((settings.files - 1 - file, settings.ranks - 1 - rank)),
        Symmetry::None => None,
    };
    read.black = match (black, settings.symmetry) {
        (Some(_), Symmetry::Mirror | Symmetry::Rotate) => {
            return Err(read.refusal(
                "Black's squares listed although symmetry= places them: Kurier does not guess which wins".into(),
            ))
        }
        (Some(black), Symmetry::None) => Some(black),
        (None, _) => Some(white.iter().filter_map(derive).collect()),
    };
    read.white = white;
    Ok(read)
}

/// The squares of a comma-separated list with ranges.
fn squares(text: &str, settings: &Settings) -> Result<Vec<Square>, String> {
    let mut all = Vec::new();
    if text.is_empty() {
        return Ok(all);
    }
    for entry in text.split(',') {
        match entry.split_once('-') {
            Some((from, to)) => {
                let (a, b) = (square(from, settings)?, square(to, settings)?);
                if a.0 != b.0 && a.1 != b.1 {
                    return Err(format!(
                        "range {entry:?}: neither along one rank nor along one file"
                    ));
                }
                for file in a.0.min(b.0)..=a.0.max(b.0) {
                    for rank in a.1.min(b.1)..=a.1.max(b.1) {
                        all.push((file, rank));
                    }
                }
            }
            None => all.push(square(entry, settings)?),
        }
    }
    Ok(all)
}

fn square(text: &str, settings: &Settings) -> Result<Square, String> {
    let mut chars = text.chars();
    let file = chars.next().filter(char::is_ascii_lowercase);
    let rank: Option<u32> = chars.as_str().parse().ok();
    match (file, rank) {
        (Some(file), Some(rank))
            if (file as u32 - 'a' as u32) < u32::from(settings.files)
                && (1..=u32::from(settings.ranks)).contains(&rank) =>
        {
            Ok(((file as u32 - 'a' as u32) as u8, (rank - 1) as u8))
        }
        _ => Err(format!(
            "square {text:?}: not a square of the {}x{} board",
            settings.files, settings.ranks
        )),
    }
}

fn square_name((file, rank): Square) -> String {
    format!("{}{}", (b'a' + file) as char, rank + 1)
}

fn back_rank(white: bool, ranks: u8) -> u8 {
    if white {
        0
    } else {
        ranks - 1
    }
}

/// The Kurier letter of every piece line, and a note for each that is
/// not the id the Diagram shows (two lines with one id are two types).
fn letters(lines: &[Line]) -> Result<(Vec<char>, Vec<String>), Refusal> {
    let mut letters: Vec<Option<char>> = Vec::new();
    let mut taken = BTreeSet::new();
    for line in lines {
        let id = line.shown_id().ok_or_else(|| {
            line.refusal("no id, and no letter in the name to take one from".into())
        })?;
        letters.push(taken.insert(id).then_some(id));
    }
    let mut notes = Vec::new();
    for (index, line) in lines.iter().enumerate() {
        if letters[index].is_some() {
            continue;
        }
        let id = line.shown_id().unwrap_or('?');
        let first = lines
            .iter()
            .find(|l| l.shown_id() == Some(id))
            .map_or("", |l| &l.name);
        let letter = line
            .name
            .chars()
            .filter(char::is_ascii_alphabetic)
            .map(|c| c.to_ascii_uppercase())
            .chain('A'..='Z')
            .find(|c| !taken.contains(c))
            .ok_or_else(|| line.refusal("no letter left for this piece type".into()))?;
        taken.insert(letter);
        letters[index] = Some(letter);
        notes.push(format!(
            "'{}' is written {letter}, its id {id} being that of '{first}' too",
            line.name
        ));
    }
    Ok((letters.into_iter().flatten().collect(), notes))
}

/// Where every piece stands: its line's index and whether it is White's.
fn place(lines: &[Line]) -> Result<BTreeMap<Square, (usize, bool)>, Refusal> {
    let mut board: BTreeMap<Square, (usize, bool)> = BTreeMap::new();
    for (index, line) in lines.iter().enumerate() {
        let black = line.black.iter().flatten().map(|&square| (square, false));
        for (square, white) in line.white.iter().map(|&square| (square, true)).chain(black) {
            if let Some(&(other, _)) = board.get(&square) {
                return Err(line.refusal(format!(
                    "two pieces on {}: this one and '{}'",
                    square_name(square),
                    lines[other].name
                )));
            }
            board.insert(square, (index, white));
        }
    }
    Ok(board)
}

/// A piece's moves in Kurier's notation (the gryphon's move written as
/// it is: it is Kurier's one bent slider).
fn kurier_moves(piece: &xbetza::Piece) -> Result<String, String> {
    if piece.gryphon && piece.moves == MoveSet::default() {
        return Ok(GRYPHON.to_string());
    }
    let plain = piece.moves.to_betza()?;
    Ok(if piece.gryphon {
        plain + GRYPHON
    } else {
        plain
    })
}

/// Kurier turns Black's moves half a turn; whether the Diagram mirrors
/// them instead does not matter only for pieces that move alike to the
/// left and right, the only ones read.
fn check_mirror_symmetric(line: &Line, piece: &xbetza::Piece) -> Result<(), Refusal> {
    let mirror = |(dx, dy): (i32, i32)| (-dx, dy);
    let moves = &piece.moves;
    let symmetric_steps = [
        &moves.quiet,
        &moves.capture,
        &moves.initial_quiet,
        &moves.initial_capture,
    ]
    .iter()
    .all(|set| {
        set.iter().all(|s| {
            set.iter()
                .any(|t| (t.dx, t.dy, t.ride) == (-s.dx, s.dy, s.ride))
        })
    });
    let symmetric = symmetric_steps
        && piece
            .en_passant
            .iter()
            .all(|&step| piece.en_passant.contains(&mirror(step)))
        && piece.castling.iter().all(|c| {
            piece.castling.contains(&Castling {
                side: -c.side,
                distance: c.distance,
            })
        });
    if symmetric {
        Ok(())
    } else {
        Err(line.refusal(format!(
            "{:?}: moves that differ to the left and to the right; whether Black's are White's mirrored or turned half a turn (as Kurier's are) is not settled, so Kurier reads only pieces that move alike both ways",
            line.moves
        )))
    }
}

/// En passant as Kurier plays it, and as the Diagram does for these
/// moves: a pawn's straight non-jumping first move of two or more squares
/// without capture leaves the squares it passed, which a pawn's `e`
/// captures take. Kurier's pawns take en passant with every capture, and
/// leave en-passant squares with every straight forward multi-step.
fn check_en_passant(
    lines: &[Line],
    pieces: &[xbetza::Piece],
    pawn: Option<usize>,
) -> Result<(), Refusal> {
    let any_e = pieces.iter().any(|p| !p.en_passant.is_empty());
    let mut leaves_squares = false;
    if let Some(pawn) = pawn {
        let (line, moves) = (&lines[pawn], &pieces[pawn].moves);
        let normal = moves.normalised();
        let all = normal
            .quiet
            .iter()
            .chain(&normal.capture)
            .chain(&normal.initial_quiet)
            .chain(&normal.initial_capture);
        for step in all {
            let straight = step.dx == 0 && step.dy >= 2;
            let first_push = normal.initial_quiet.contains(step)
                && !normal.initial_capture.contains(step)
                && !normal.quiet.contains(step)
                && !normal.capture.contains(step)
                && step.ride;
            if straight && !first_push {
                return Err(line.refusal(format!(
                    "{:?}: a straight move of {} squares that is not a non-jumping first move without capture: the Diagram leaves no en-passant square after it, Kurier's pawns always do",
                    line.moves, step.dy
                )));
            }
            if !straight && any_e && normal.initial_quiet.contains(step) && step.ride {
                return Err(line.refusal(format!(
                    "{:?}: a first move of several squares that is not straight forward, after which the Diagram allows en passant and Kurier does not",
                    line.moves
                )));
            }
            leaves_squares |= straight;
        }
    }
    if !leaves_squares {
        // No en-passant square ever arises: `e` has nothing to take.
        return Ok(());
    }
    for (index, (line, piece)) in lines.iter().zip(pieces).enumerate() {
        let captures: BTreeSet<(i32, i32)> = piece
            .moves
            .capture
            .iter()
            .chain(&piece.moves.initial_capture)
            .map(|s| (s.dx, s.dy))
            .collect();
        let message = if Some(index) != pawn && !piece.en_passant.is_empty() {
            "en passant by a piece that does not promote: Kurier's pawns alone take en passant"
        } else if Some(index) == pawn && captures != piece.en_passant {
            "captures that cannot take en passant, or en passant without a capture: Kurier's pawns take en passant with every capture"
        } else {
            continue;
        };
        return Err(line.refusal(format!("{:?}: {message}", line.moves)));
    }
    Ok(())
}

/// The rank (from the pawn's own side, from 1) on which a pawn type's
/// first moves apply: where all of them start.
fn pawn_initial_rank(
    line: &Line,
    piece: &xbetza::Piece,
    starts: &[(Square, bool)],
    ranks: u8,
) -> Result<Option<u8>, Refusal> {
    let moves = &piece.moves;
    let backwards = moves
        .quiet
        .iter()
        .chain(&moves.capture)
        .chain(&moves.initial_quiet)
        .chain(&moves.initial_capture)
        .any(|step| step.dy <= 0);
    if backwards {
        return Err(line.refusal(format!(
            "{:?}: first moves ('i') of a pawn that can come back to its start rank, where Kurier would give them again",
            line.moves
        )));
    }
    let relative: BTreeSet<u8> = starts
        .iter()
        .map(|&((_, rank), white)| if white { rank + 1 } else { ranks - rank })
        .collect();
    match relative.len() {
        0 => Ok(None),
        1 => Ok(relative.first().copied()),
        _ => Err(line.refusal(format!(
            "first moves ('i') of pawns that start on ranks {relative:?} (counted from each side): Kurier ties a pawn type's first moves to one rank"
        ))),
    }
}

fn promotion(
    lines: &[Line],
    letters: &[char],
    (pawn, royal): (usize, usize),
    settings: &Settings,
) -> Result<PromotionSpec, Refusal> {
    let Some(choice) = &settings.promo_choice else {
        return Err(lines[pawn].refusal(
            "the first piece type promotes in the Diagram, and no promoChoice says to what".into(),
        ));
    };
    let mut pieces = Vec::new();
    for id in choice.value.chars() {
        let id = id.to_ascii_uppercase();
        let holders: Vec<usize> = (0..lines.len())
            .filter(|&i| lines[i].shown_id() == Some(id))
            .collect();
        let letter = match holders.as_slice() {
            [one] if *one == pawn || *one == royal => {
                return Err(choice.refusal(format!(
                    "'{id}' is the {}: Kurier's pawns promote to other pieces",
                    if *one == pawn {
                        "promoting piece itself"
                    } else {
                        "royal piece"
                    }
                )))
            }
            [one] => letters[*one].to_string(),
            [] => return Err(choice.refusal(format!("'{id}' is not the id of a piece"))),
            _ => {
                return Err(choice.refusal(format!(
                    "'{id}' is the id of several pieces ({})",
                    holders
                        .iter()
                        .map(|&i| lines[i].name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )))
            }
        };
        if !pieces.contains(&letter) {
            pieces.push(letter);
        }
    }
    Ok(PromotionSpec { ranks: 1, pieces })
}

/// The king's castlings, as XBoard plays `O`: the king moves its
/// distance towards the corner piece of its rank, which jumps to the
/// square beside it, if every square between them is empty. The king's
/// and the partners' squares are added to `rights`.
fn castlings(
    line: &Line,
    piece: &xbetza::Piece,
    royal: usize,
    board: &BTreeMap<Square, (usize, bool)>,
    settings: &Settings,
    rights: &mut BTreeSet<(Square, bool)>,
) -> Result<Vec<CastlingSpec>, Refusal> {
    let mut specs = Vec::new();
    if piece.castling.is_empty() {
        return Ok(specs);
    }
    for (&(file, rank), &(index, white)) in board {
        if index != royal {
            continue;
        }
        if rank != back_rank(white, settings.ranks) {
            return Err(line.refusal(format!(
                "castling by a king that starts on {}, off its back rank",
                square_name((file, rank))
            )));
        }
        for castling in &piece.castling {
            let corner: i32 = if castling.side < 0 {
                0
            } else {
                i32::from(settings.files) - 1
            };
            let to = i32::from(file) + castling.side * i32::from(castling.distance);
            if (to - corner) * castling.side >= 0 || (to - i32::from(file)) * castling.side <= 0 {
                return Err(line.refusal(format!(
                    "castling {} squares from {}, onto or beyond the corner",
                    castling.distance,
                    square_name((file, rank))
                )));
            }
            let partner = (corner as u8, rank);
            match board.get(&partner) {
                Some(&(other, other_white)) if other_white == white && other != royal => {}
                _ => continue,
            }
            let name = |file: i32| square_name((file as u8, rank));
            rights.insert(((file, rank), white));
            rights.insert((partner, white));
            specs.push(CastlingSpec {
                color: if white { "white" } else { "black" }.into(),
                king: square_name((file, rank)),
                king_to: name(to),
                partner: square_name(partner),
                partner_to: name(to - castling.side),
                san: if castling.side > 0 { "O-O" } else { "O-O-O" }.into(),
                keeps_right: false,
            });
        }
    }
    Ok(specs)
}

/// The FEN placement of the start position.
fn placement(
    board: &BTreeMap<Square, (usize, bool)>,
    letters: &[char],
    settings: &Settings,
) -> String {
    let mut rows = Vec::new();
    for rank in (0..settings.ranks).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for file in 0..settings.files {
            match board.get(&(file, rank)) {
                Some(&(index, white)) => {
                    if empty > 0 {
                        row.push_str(&empty.to_string());
                        empty = 0;
                    }
                    let letter = letters[index];
                    row.push(if white {
                        letter
                    } else {
                        letter.to_ascii_lowercase()
                    });
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        rows.push(row);
    }
    rows.join("/")
}

/// The FEN rights field (Kurier's "files" notation): the file of every
/// piece holding a first-move right, White's upper case first.
fn rights_field(rights: &BTreeSet<(Square, bool)>) -> String {
    let mut field = String::new();
    for white in [true, false] {
        let mut files: Vec<u8> = rights
            .iter()
            .filter(|(_, w)| *w == white)
            .map(|&((file, _), _)| file)
            .collect();
        files.sort_unstable();
        for file in files {
            let letter = (b'a' + file) as char;
            field.push(if white {
                letter.to_ascii_uppercase()
            } else {
                letter
            });
        }
    }
    if field.is_empty() {
        field.push('-');
    }
    field
}

#[cfg(test)]
mod tests {
    use super::super::{read, Format};
    use crate::position::any_game::AnyGame;
    use crate::position::perft::perft;
    use crate::position::state::Position;
    use crate::variant::definition::Variant;
    use crate::variant::spec::StalemateResult;
    use crate::with_game;

    /// The Enhanced Courier Chess page's diagram, as the page writes it.
    const SEED_PAGE: &str =
        include_str!("../../../data/variants/examples/enhanced-courier-page.diagram");

    /// The page's second pawn line, the one difference from the game.
    const SHATRANJ_PAWN: &str = " shatranj pawn:P:fmWfcF:pawn:a3";

    /// Chess as a diagram, one parameter or piece a line.
    const CHESS: &str = "files=8
ranks=8
promoZone=1
promoChoice=QRBN
pawn:P:fmWfceFifmnD:pawn:a2-h2,,a7-h7
knight:N:N:knight:b1,g1,,b8,g8
bishop:B:B:bishop:c1,f1,,c8,f8
rook:R:R:rook:a1,h1,,a8,h8
queen:Q:Q:queen:d1,,d8
king:K:KisO2:king:e1,,e8
";

    /// Courier Chess Moderno without its castling (whose king moves three
    /// squares to one wing and four to the other, which is refused): the
    /// elephants' first moves need first-move rights.
    const COURIER_MODERNO: &str =
        "files=12 ranks=8 promoZone=1 promoChoice=F stalemate=draw baring=0
pawn:P:ifmnDfmWfceF:pawn:a2-l2,,a7-l7 queen:F:F:ferz:g1,,f8 man:M:K:man:e1,,h8
schleich:W:W:wazir:h1,,e8 elephant:E:FfWifAifD:elephant:c1,j1,,c8,j8
bishop:B:B:bishop:d1,i1,,d8,i8 knight:N:N:knight:b1,k1,,b8,k8
rook:R:R:rook:a1,l1,,a8,l8 king:K:K:king:f1,,g8";

    fn imported(text: &str) -> Variant {
        read(text, "test.diagram", Format::Diagram, None)
            .unwrap_or_else(|e| panic!("{e}"))
            .variant
    }

    /// Perft to depths 1, 2, ... `depth` from `fen` or the start.
    fn perfts(text: &str, fen: Option<&str>, depth: u32) -> Vec<u64> {
        let game = AnyGame::new(imported(text)).unwrap_or_else(|e| panic!("{e}"));
        with_game!(&game, g => {
            let mut position = match fen {
                Some(fen) => Position::from_fen(g.clone(), fen).unwrap_or_else(|e| panic!("{e}")),
                None => Position::startpos(g.clone()),
            };
            (1..=depth).map(|d| perft(&mut position, d)).collect()
        })
    }

    fn refusal(text: &str) -> String {
        let error = read(text, "bad.diagram", Format::Diagram, None)
            .expect_err("the diagram is refused")
            .to_string();
        assert!(!error.contains('\n'), "one line: {error}");
        error
    }

    #[test]
    fn a_diagram_is_known_by_its_extension_or_its_content() {
        use std::path::Path;
        let courier_toml = crate::variant::definition::BUILT_IN[1].1;
        assert_eq!(Format::detect(Path::new("x.diagram"), ""), Format::Diagram);
        assert_eq!(
            Format::detect(Path::new("page.txt"), SEED_PAGE),
            Format::Diagram
        );
        assert_eq!(Format::detect(Path::new("game"), CHESS), Format::Diagram);
        assert_eq!(
            Format::detect(Path::new("game"), courier_toml),
            Format::Toml
        );
        let ini = "[mine:chess]\nfiles=8\npawn:P:fmW:pawn:a2\n";
        assert_eq!(Format::detect(Path::new("game"), ini), Format::FairyIni);
    }

    #[test]
    fn the_seed_page_as_written_has_an_extra_white_shatranj_pawn_on_a3() {
        let variant = imported(SEED_PAGE);
        let built_in = Variant::built_in("enhanced-courier").unwrap();
        // The second pawn line is a second piece type, as in the Diagram,
        // written S because P is the first pawn's; it stands on a3.
        assert_eq!(
            variant.start,
            "rnecmkgwcenr/pppppppppppp/12/12/12/S11/PPPPPPPPPPPP/RNECMKGWCENR w - - 0 1"
        );
        assert!(variant.description.contains("'shatranj pawn' is written S"));
        // stalemate=win is a win for the side that gives it, and baring=0
        // the Shatranj bare-king rule: both as the game's rules say.
        assert_eq!(variant.stalemate, StalemateResult::Loss);
        assert!(variant.bare_king);
        assert_eq!(variant.stalemate, built_in.stalemate);
        assert_eq!(variant.bare_king, built_in.bare_king);
        // By hand, from the game's 33 first moves: the a2 pawn loses its
        // two moves, the knight b1 and the elephant c1 their moves to a3,
        // and the shatranj pawn adds a3-a4: 33 - 2 - 1 - 1 + 1 = 30. No
        // White first move reaches rank 5 or gives check, and no Black
        // move goes below rank 6, so Black keeps its 33 replies: 990.
        assert_eq!(perfts(SEED_PAGE, None, 2), [30, 990]);
    }

    #[test]
    fn the_seed_page_without_its_second_pawn_is_enhanced_courier() {
        assert!(SEED_PAGE.contains(SHATRANJ_PAWN));
        let corrected = SEED_PAGE.replacen(SHATRANJ_PAWN, "", 1);
        let built_in = Variant::built_in("enhanced-courier").unwrap();
        assert_eq!(imported(&corrected).start, built_in.start);
        // data/perft/enhanced-courier.epd: docs/RULES.md's numbers for depths 1
        // to 3; depth 4 agreed by the engine and the separate reference
        // generator of tests/src/reference.
        assert_eq!(perfts(&corrected, None, 4), [33, 1_089, 37_428, 1_285_110]);
    }

    #[test]
    fn chess_as_a_diagram_plays_chess_with_castling() {
        let variant = imported(CHESS);
        assert_eq!(
            variant.start,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w AEHaeh - 0 1"
        );
        assert_eq!(variant.castlings.len(), 4);
        // The published perft of the start and of Kiwipete (castling both
        // ways, en passant, promotions).
        assert_eq!(perfts(CHESS, None, 4), [20, 400, 8_902, 197_281]);
        let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w AEHaeh - 0 1";
        assert_eq!(perfts(CHESS, Some(kiwipete), 3), [48, 2_039, 97_862]);
        // symmetry=mirror places Black's pieces from White's squares.
        let mirrored: String = CHESS
            .lines()
            .map(|line| line.split(",,").next().unwrap_or(line))
            .chain(["symmetry=mirror"])
            .collect::<Vec<_>>()
            .join("\n");
        assert_eq!(imported(&mirrored).start, variant.start);
    }

    #[test]
    fn the_last_piece_line_is_royal_unless_royal_names_another() {
        // As the Interactive Diagram page's own example: a piece listed
        // after the King needs royal=N for the King to stay royal.
        let extended = format!("{CHESS}amazon:A:QN:amazon:\n");
        assert!(refusal(&extended)
            .contains("line 10: piece 'king': \"KisO2\": castling by a piece that is not royal"));
        let variant = imported(&format!("{extended}royal=6\n"));
        assert!(variant.pieces[5].royal && !variant.pieces[6].royal);
        assert_eq!(perfts(&format!("{extended}royal=6\n"), None, 2), [20, 400]);
        assert!(refusal(&format!("{extended}royal=9\n"))
            .contains("line 12: royal: piece 9 is royal, but the diagram has 7 piece lines"));
    }

    #[test]
    fn first_moves_of_back_rank_pieces_hold_rights() {
        let variant = imported(COURIER_MODERNO);
        assert_eq!(
            variant.start,
            "rnebwfkmbenr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RNEBMKFWBENR w CJcj - 0 1"
        );
        // data/perft/courier-moderno.epd (engine and reference agree;
        // depths 1-3 are docs/RULES.md's): no castling is possible within four
        // plies, as four pieces stand between each king and rook.
        assert_eq!(
            perfts(COURIER_MODERNO, None, 4),
            [34, 1_156, 40_126, 1_391_868]
        );
        let castling = COURIER_MODERNO.replace("king:K:K:", "king:K:KilO3irO4:");
        assert!(refusal(&castling).contains(
            "line 5: piece 'king': \"KilO3irO4\": moves that differ to the left and to the right"
        ));
    }

    #[test]
    fn bad_diagrams_are_refused_with_the_line_and_what() {
        for (text, says) in [
            (
                "files=8 king:K:K",
                "line 1: piece line: \"king:K:K\": 3 fields; a piece line has five",
            ),
            (
                "files=8\nking:K:K:king:a1-c3",
                "line 2: piece 'king': range \"a1-c3\": neither along one rank nor along one file",
            ),
            (
                "files=8 king:K:K:king:i1",
                "line 1: piece 'king': square \"i1\": not a square of the 8x8 board",
            ),
            (
                "files=8\nstalemate=sometimes\nking:K:K:king:e1,,e8",
                "line 2: stalemate: \"sometimes\": not win, draw or loss",
            ),
            (
                "files=8 stalemate=loss king:K:K:king:e1,,e8",
                "line 1: stalemate: \"loss\": stalemate lost by the side that gives it",
            ),
            (
                "files=eight king:K:K:king:e1,,e8",
                "line 1: files: \"eight\": not a number from 1 to 26",
            ),
            (
                "files=8 king:K:K:king:e1,,e8 royal",
                "line 1: \"royal\": neither a parameter (key=value) nor a piece line",
            ),
            (
                "files=8 king:K:K:king:e1,,e8 man:K:K:man:e1",
                "piece 'man': two pieces on e1: this one and 'king'",
            ),
            // Parameters of rules Kurier has not, or does not know.
            (
                "files=8 holdingsType=1 king:K:K:king:e1,,e8",
                "line 1: holdingsType: \"1\": Kurier has no pieces in hand (drops)",
            ),
            (
                "files=8 nonsense=1 king:K:K:king:e1,,e8",
                "line 1: nonsense: \"1\": not a parameter Kurier reads",
            ),
            (
                "files=8 baring=2 king:K:K:king:e1,,e8",
                "line 1: baring: \"2\": a bare-king rule counting some piece types only",
            ),
            (
                "files=8 promoZone=2 king:K:K:king:e1,,e8",
                "line 1: promoZone: \"2\": a promotion zone deeper",
            ),
            (
                "files=8 ranks=8 ranks=9 king:K:K:king:e1,,e8",
                "line 1: ranks: \"9\": given twice",
            ),
            (
                "files=8 pawn:P:fmWfcF:pawn:a2,,a7 king:K:K:king:e1,,e8",
                "line 1: piece 'pawn': the first piece type promotes in the Diagram, and no promoChoice",
            ),
            (
                "files=8 promoChoice=X pawn:P:fmWfcF:pawn:a2,,a7 king:K:K:king:e1,,e8",
                "line 1: promoChoice: \"X\": 'X' is not the id of a piece",
            ),
            (
                "files=8 promoChoice=K pawn:P:fmWfcF:pawn:a2,,a7 king:K:K:king:e1,,e8",
                "line 1: promoChoice: \"K\": 'K' is the royal piece",
            ),
        ] {
            let error = refusal(text);
            assert!(error.contains(says), "{text}\n{error}");
        }
    }

    #[test]
    fn moves_kurier_cannot_express_are_refused_with_the_piece_line() {
        for (moves, says) in [
            // The shogi knight: its two narrow forward moves.
            ("fN", "\"fN\": its N moves in directions {(-1, 2), (1, 2)}, which Kurier's direction letters cannot pick out"),
            ("mRcpR", "\"mRcpR\": 'p' at character 4: a hopper"),
            ("nN", "\"nN\": 'nN' at character 2: a leaper that pieces beside its path"),
            ("flN", "\"flN\": moves that differ to the left and to the right"),
            ("KisO2", "castling by a piece that is not royal"),
            ("fmWfceF", "en passant by a piece that does not promote"),
        ] {
            let text = format!(
                "files=8 promoChoice=N pawn:P:fmWfceFifmnD:pawn:a2,,a7 knight:N:{moves}:knight:b1,,b8 king:K:K:king:e1,,e8"
            );
            let error = refusal(&text);
            assert!(
                error.contains("line 1: piece 'knight'") && error.contains(says),
                "{moves}\n{error}"
            );
        }
        let pawn = |moves: &str| {
            format!("files=8 promoChoice=N pawn:P:{moves}:pawn:a2,,a7 knight:N:N:knight:b1,,b8 king:K:K:king:e1,,e8")
        };
        assert!(refusal(&pawn("fmWfcFifmnD")).contains("captures that cannot take en passant"));
        assert!(
            refusal(&pawn("fmWfceFifmD")).contains("not a non-jumping first move without capture")
        );
    }
}
