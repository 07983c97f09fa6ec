//! PGN: writing games (export format: the Seven Tag Roster first, SAN
//! movetext with move numbers, lines of at most 80 columns), a tolerant
//! reader, and replaying a read game through the engine's SAN parser.
//!
//! Variant games follow docs/RULES.md: the tag `Variant` names the variant,
//! and a game from a set-up position carries `SetUp "1"` and `FEN`.

use std::fmt;
use std::sync::Arc;

use kurier_engine::board::bitboard::Bitboard;
use kurier_engine::position::game::Game;
use kurier_engine::position::state::Position;
use kurier_engine::types::{Color, Move};

/// The Seven Tag Roster, in the order PGN writes it, with the value used
/// when the caller gives none (`Result` always comes from the result).
const SEVEN_TAG_ROSTER: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

/// Tags the writer derives from its arguments; copies in the caller's
/// tags are ignored.
const DERIVED_TAGS: [&str; 4] = ["Variant", "SetUp", "FEN", "PlyCount"];

/// The widest movetext line.
const LINE_WIDTH: usize = 80;

/// The game-termination markers.
const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// One game as read: tags, SAN moves of the main line, their comments,
/// result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnGame {
    /// The tag pairs in file order, values unescaped.
    pub tags: Vec<(String, String)>,
    /// The moves of the main line in SAN, without annotation marks
    /// (`!`, `?`) but with check signs as written.
    pub moves: Vec<String>,
    /// Per move of `moves`, the `{...}` comments that follow it in the
    /// main line, joined by a space, with runs of white space made one
    /// space (empty when there is none); e.g. kurier-tune's
    /// `+0.35/12 0.105s`.
    pub comments: Vec<String>,
    /// The result token (`1-0`, `0-1`, `1/2-1/2`, `*`); the `Result` tag,
    /// or `*`, when the movetext has none.
    pub result: String,
}

impl PgnGame {
    /// The value of the first tag called `name`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(tag, _)| tag == name)
            .map(|(_, value)| value.as_str())
    }

    /// The name of the game's variant: its `Variant` tag in lower case
    /// (`Standard` is `chess`), or `chess` without one.
    pub fn variant_name(&self) -> String {
        match self.tag("Variant").map(|v| v.trim().to_ascii_lowercase()) {
            Some(named) if named != "standard" => named,
            _ => "chess".to_string(),
        }
    }
}

/// What is wrong with a PGN text or game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PgnError {
    /// The text cannot be read as PGN.
    Syntax {
        /// The line (from 1) where the problem is.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The game's tags do not give a start position of the variant.
    Setup(String),
    /// A move of the game is not legal, or cannot be read.
    Move {
        /// The move's ply (from 1) in the game.
        ply: usize,
        /// The move as written.
        text: String,
        /// Why it was not accepted.
        message: String,
    },
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PgnError::Syntax { line, message } => write!(f, "PGN line {line}: {message}"),
            PgnError::Setup(message) => write!(f, "PGN set-up: {message}"),
            PgnError::Move { ply, text, message } => {
                write!(f, "PGN ply {ply}, move '{text}': {message}")
            }
        }
    }
}

impl std::error::Error for PgnError {}

/// Writes one game in PGN export format.
///
/// Tags: the Seven Tag Roster first, in its order, with the caller's
/// values (`?` or `????.??.??` where none is given; `Result` is always
/// `result`); then `Variant` (for every variant but `chess`), `SetUp "1"`
/// and `FEN` (when `start` is not the variant's start position); then the
/// caller's other tags in their order (e.g. `Termination`, `TimeControl`);
/// last `PlyCount`. `Variant`, `SetUp`, `FEN` and `PlyCount` are always
/// derived from the arguments; the caller's copies are ignored. In
/// values, `\` and `"` are escaped and line breaks become spaces; in
/// names, characters other than letters, digits and `_` become `_`.
///
/// Movetext: SAN with move numbers (`N...` before a Black move that
/// opens the movetext or follows a comment), the comment `{...}` of each
/// move after it when `comments` has a non-empty one (a `}` in it becomes
/// `)`), lines of at most 80 columns, the result, and a blank line.
///
/// `moves` must be legal in turn from `start`; at the first that is not,
/// the movetext ends with a comment saying so.
pub fn write_game<B: Bitboard>(
    tags: &[(String, String)],
    start: &Position<B>,
    moves: &[Move],
    result: &str,
    comments: Option<&[String]>,
) -> String {
    let game = start.game();
    let caller = |name: &str| {
        tags.iter()
            .find(|(tag, _)| tag == name)
            .map(|(_, value)| value.as_str())
    };
    let mut header: Vec<(String, String)> = SEVEN_TAG_ROSTER
        .iter()
        .map(|&(name, default)| {
            let value = if name == "Result" {
                result
            } else {
                caller(name).unwrap_or(default)
            };
            (name.to_string(), value.to_string())
        })
        .collect();
    if game.variant.name != "chess" {
        header.push(("Variant".into(), game.variant.name.clone()));
    }
    let fen = start.fen();
    if fen != Position::startpos(game.clone()).fen() {
        header.push(("SetUp".into(), "1".into()));
        header.push(("FEN".into(), fen));
    }
    header.extend(
        tags.iter()
            .filter(|(name, _)| {
                !SEVEN_TAG_ROSTER.iter().any(|(roster, _)| roster == name)
                    && !DERIVED_TAGS.contains(&name.as_str())
            })
            .cloned(),
    );
    header.push(("PlyCount".into(), moves.len().to_string()));

    let mut text = String::new();
    for (name, value) in &header {
        text.push_str(&format!(
            "[{} \"{}\"]\n",
            tag_name(name),
            escape_tag_value(value)
        ));
    }
    text.push('\n');
    let mut tokens = movetext_tokens(start, moves, comments);
    tokens.push(result.to_string());
    for line in wrap(&tokens) {
        text.push_str(&line);
        text.push('\n');
    }
    text.push('\n');
    text
}

/// `name` with characters PGN does not allow in a tag name replaced.
fn tag_name(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// A tag value with `\` and `"` escaped and line breaks made spaces.
fn escape_tag_value(value: &str) -> String {
    let mut escaped = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\\' | '"' => {
                escaped.push('\\');
                escaped.push(c);
            }
            '\n' | '\r' | '\t' => escaped.push(' '),
            _ => escaped.push(c),
        }
    }
    escaped
}

/// The movetext without the result: move numbers, SAN, comments (split
/// into words, so that lines can break inside them).
fn movetext_tokens<B: Bitboard>(
    start: &Position<B>,
    moves: &[Move],
    comments: Option<&[String]>,
) -> Vec<String> {
    let mut position = start.clone();
    let mut tokens = Vec::new();
    let mut number_needed = true;
    for (ply, &played) in moves.iter().enumerate() {
        let number = position.fullmove_number();
        match position.side_to_move() {
            Color::White => tokens.push(format!("{number}.")),
            Color::Black if number_needed => tokens.push(format!("{number}...")),
            Color::Black => {}
        }
        if !position.legal_moves().contains(&played) {
            tokens.extend(comment_words(&format!(
                "{} is not legal here; the game record ends",
                position.uci(played)
            )));
            break;
        }
        tokens.push(position.san(played));
        position.make_move(played);
        let comment = comments
            .and_then(|all| all.get(ply))
            .filter(|c| !c.trim().is_empty());
        number_needed = comment.is_some();
        if let Some(comment) = comment {
            tokens.extend(comment_words(comment));
        }
    }
    tokens
}

/// A comment as tokens: `{first`, ..., `last}`.
fn comment_words(comment: &str) -> Vec<String> {
    let cleaned = comment.replace('}', ")");
    let mut words: Vec<String> = cleaned.split_whitespace().map(str::to_string).collect();
    if let Some(first) = words.first_mut() {
        first.insert(0, '{');
    }
    if let Some(last) = words.last_mut() {
        last.push('}');
    }
    words
}

/// Tokens joined by spaces into lines of at most [`LINE_WIDTH`] columns
/// (a longer token gets a line of its own).
fn wrap(tokens: &[String]) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for token in tokens {
        if !line.is_empty() && line.len() + 1 + token.len() > LINE_WIDTH {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(token);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// Reads every game of a PGN text. Tolerant: `%` escape lines, `;` and
/// `{}` comments (a `{}` comment after a main-line move is kept as that
/// move's comment, the others are skipped), NAGs (`$n`), variations
/// `(...)` (skipped, nested),
/// move numbers (`12.`, `12...`, attached or not), annotation marks
/// after moves, and a game without a result token (it ends at the next
/// tag section or the end of the text). Errors name the line.
pub fn read_games(text: &str) -> Result<Vec<PgnGame>, PgnError> {
    let mut reader = Reader::new(text);
    let mut games = Vec::new();
    let mut current = GameBuilder::default();
    while let Some(c) = reader.skip_space() {
        match c {
            '[' => {
                if current.has_moves() {
                    games.push(current.finish(None));
                    current = GameBuilder::default();
                }
                let tag = reader.tag()?;
                current.tags.push(tag);
            }
            '{' => {
                let comment = reader.comment()?;
                current.add_comment(&comment);
            }
            ';' => reader.skip_line(),
            '%' if reader.at_line_start() => reader.skip_line(),
            '(' => reader.skip_variation()?,
            '$' => {
                reader.next();
                reader.take_while(|c| c.is_ascii_digit());
            }
            ')' | '}' | ']' => {
                return Err(reader.error(format!("'{c}' without its opening bracket")));
            }
            _ => {
                let token = reader.take_while(|c| !c.is_whitespace() && !"{}()[];$".contains(c));
                if RESULTS.contains(&token.as_str()) {
                    games.push(std::mem::take(&mut current).finish(Some(token)));
                } else if let Some(san) = move_of_token(&token) {
                    current.moves.push(san);
                    current.comments.push(String::new());
                }
            }
        }
    }
    if current.has_moves() || !current.tags.is_empty() {
        games.push(current.finish(None));
    }
    Ok(games)
}

/// The SAN in a movetext token, without move number or annotation marks;
/// `None` for a token that is only a move number or an `e.p.` mark.
fn move_of_token(token: &str) -> Option<String> {
    let digits = token.bytes().take_while(u8::is_ascii_digit).count();
    let rest = &token[digits..];
    let after_number = rest.trim_start_matches('.');
    let san = if digits > 0 && after_number.len() < rest.len() {
        after_number
    } else if digits == token.len() {
        ""
    } else {
        token
    };
    let san = san.trim_end_matches(['!', '?']);
    (!san.is_empty() && san != "e.p.").then(|| san.to_string())
}

/// A game being read.
#[derive(Default)]
struct GameBuilder {
    tags: Vec<(String, String)>,
    moves: Vec<String>,
    comments: Vec<String>,
}

impl GameBuilder {
    /// Adds a comment to the last move read (one before any move is
    /// the game's, and not kept).
    fn add_comment(&mut self, text: &str) {
        if let Some(comment) = self.comments.last_mut() {
            for word in text.split_whitespace() {
                if !comment.is_empty() {
                    comment.push(' ');
                }
                comment.push_str(word);
            }
        }
    }
    /// Whether movetext has been read (a new tag then starts a new game).
    fn has_moves(&self) -> bool {
        !self.moves.is_empty()
    }
    /// The game, ended by `result` (or the `Result` tag, or `*`).
    fn finish(self, result: Option<String>) -> PgnGame {
        let result = result.unwrap_or_else(|| {
            self.tags
                .iter()
                .find(|(name, _)| name == "Result")
                .map_or_else(|| "*".to_string(), |(_, value)| value.clone())
        });
        PgnGame {
            tags: self.tags,
            moves: self.moves,
            comments: self.comments,
            result,
        }
    }
}

/// A cursor over the text that counts lines.
struct Reader<'t> {
    chars: std::iter::Peekable<std::str::Chars<'t>>,
    line: usize,
    line_start: bool,
}

impl<'t> Reader<'t> {
    fn new(text: &'t str) -> Reader<'t> {
        Reader {
            chars: text.trim_start_matches('\u{feff}').chars().peekable(),
            line: 1,
            line_start: true,
        }
    }

    /// The next character, without taking it.
    fn peek(&mut self) -> Option<char> {
        self.chars.peek().copied()
    }

    /// Takes the next character.
    fn next(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        self.line_start = c == '\n';
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    /// Whether the next character is the first of its line.
    fn at_line_start(&self) -> bool {
        self.line_start
    }

    /// Skips white space; the next character after it.
    fn skip_space(&mut self) -> Option<char> {
        while self.peek()?.is_whitespace() {
            self.next();
        }
        self.peek()
    }

    /// Takes characters while `keep` holds.
    fn take_while(&mut self, keep: impl Fn(char) -> bool) -> String {
        let mut taken = String::new();
        while let Some(c) = self.peek().filter(|&c| keep(c)) {
            taken.push(c);
            self.next();
        }
        taken
    }

    /// Skips the rest of the line, its end included.
    fn skip_line(&mut self) {
        while let Some(c) = self.next() {
            if c == '\n' {
                return;
            }
        }
    }

    /// A syntax error at the current line.
    fn error(&self, message: String) -> PgnError {
        PgnError::Syntax {
            line: self.line,
            message,
        }
    }

    /// Reads a `{...}` comment (at its `{`): its text, without the braces.
    fn comment(&mut self) -> Result<String, PgnError> {
        let opened = self.line;
        self.next();
        let mut text = String::new();
        while let Some(c) = self.next() {
            if c == '}' {
                return Ok(text);
            }
            text.push(c);
        }
        Err(PgnError::Syntax {
            line: opened,
            message: "comment '{' is never closed".into(),
        })
    }

    /// Skips a variation (at its `(`), with the comments and variations
    /// inside it.
    fn skip_variation(&mut self) -> Result<(), PgnError> {
        let opened = self.line;
        self.next();
        while let Some(c) = self.peek() {
            match c {
                ')' => {
                    self.next();
                    return Ok(());
                }
                '(' => self.skip_variation()?,
                '{' => {
                    self.comment()?;
                }
                ';' => self.skip_line(),
                _ => {
                    self.next();
                }
            }
        }
        Err(PgnError::Syntax {
            line: opened,
            message: "variation '(' is never closed".into(),
        })
    }

    /// Reads a tag pair (at its `[`): `[Name "value"]`. Errors name the
    /// line of the `[`.
    fn tag(&mut self) -> Result<(String, String), PgnError> {
        let opened = self.line;
        let error = |message: String| PgnError::Syntax {
            line: opened,
            message,
        };
        self.next();
        self.skip_space();
        let name = self.take_while(|c| c.is_ascii_alphanumeric() || c == '_');
        if name.is_empty() {
            return Err(error("a tag has no name".into()));
        }
        if self.skip_space() != Some('"') {
            return Err(error(format!("tag {name}: its value is not in quotes")));
        }
        self.next();
        let mut value = String::new();
        loop {
            match self.next() {
                Some('"') => break,
                Some('\\') => match self.next() {
                    Some(c @ ('"' | '\\')) => value.push(c),
                    Some(c) => {
                        value.push('\\');
                        value.push(c);
                    }
                    None => break,
                },
                Some('\n') | None => {
                    return Err(error(format!("tag {name}: its value has no closing quote")));
                }
                Some(c) => value.push(c),
            }
        }
        if self.skip_space() != Some(']') {
            return Err(error(format!("tag {name}: ']' expected after the value")));
        }
        self.next();
        Ok((name, value))
    }
}

/// The position a game starts from: its `FEN` tag, or the variant's
/// start position. A `Variant` tag must name `game`'s variant (`Standard`
/// counts as `chess`).
pub fn start_position<B: Bitboard>(
    game: &Arc<Game<B>>,
    pgn: &PgnGame,
) -> Result<Position<B>, PgnError> {
    if let Some(variant) = pgn.tag("Variant") {
        if pgn.variant_name() != game.variant.name {
            return Err(PgnError::Setup(format!(
                "the game is {variant}, not {}",
                game.variant.name
            )));
        }
    }
    match pgn.tag("FEN") {
        Some(fen) => Position::from_fen(game.clone(), fen)
            .map_err(|e| PgnError::Setup(format!("FEN tag '{fen}': {e}"))),
        None => Ok(Position::startpos(game.clone())),
    }
}

/// Replays a read game from [`start_position`] through the engine's SAN
/// parser: the position after the last move (its history holds the
/// moves) and the moves.
pub fn replay<B: Bitboard>(
    game: &Arc<Game<B>>,
    pgn: &PgnGame,
) -> Result<(Position<B>, Vec<Move>), PgnError> {
    let mut position = start_position(game, pgn)?;
    let mut moves = Vec::with_capacity(pgn.moves.len());
    for (index, text) in pgn.moves.iter().enumerate() {
        let played = position.parse_san(text).map_err(|e| PgnError::Move {
            ply: index + 1,
            text: text.clone(),
            message: e.message,
        })?;
        position.make_move(played);
        moves.push(played);
    }
    Ok((position, moves))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_give_their_moves() {
        let read = |token: &str| move_of_token(token);
        assert_eq!(read("e4"), Some("e4".into()));
        assert_eq!(read("12."), None);
        assert_eq!(read("12..."), None);
        assert_eq!(read("12"), None);
        assert_eq!(read("12.Nf3!?"), Some("Nf3".into()));
        assert_eq!(read("3...e5"), Some("e5".into()));
        assert_eq!(read("0-0-0+"), Some("0-0-0+".into()));
        assert_eq!(read("e.p."), None);
        assert_eq!(read("Qxf7#!!"), Some("Qxf7#".into()));
    }

    #[test]
    fn lines_wrap_before_the_80th_column() {
        let tokens: Vec<String> = (0..40).map(|i| format!("word{i:02}")).collect();
        let lines = wrap(&tokens);
        // Six-letter words and a space: 11 fit in 76 columns, 12 need 83.
        assert_eq!(lines[0], tokens[..11].join(" "));
        assert_eq!(lines.len(), 4);
        let long = vec!["x".repeat(100), "y".into()];
        assert_eq!(wrap(&long), [&"x".repeat(100), "y"]);
    }
}
