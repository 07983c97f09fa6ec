//! Tactics suites (`data/tactics/<variant>.epd`) and a brute-force solver
//! for the short forced wins among them.
//!
//! A suite line is
//! `FEN;bm <uci> [<uci> ...];id "<id>";c0 "<comment>"`; `#` lines and
//! blank lines are skipped. Quoted operands may contain `;` but not `"`.
//! `bm` lists every move that solves the position, in UCI as
//! [`Position::uci`] writes it. The comment starts with the kind of the
//! position, which says how the test checks it:
//!
//! - `mate in N: ...` and `win in N: ...` (N from 1 to 3): the side to
//!   move forces a win in N moves (by mate, or, where the variant has
//!   them, by stalemate or bare king), not faster, and the `bm` moves are
//!   exactly the first moves that do;
//! - `draw, others lose in N: ...`: each `bm` move holds (the position
//!   after it is a draw by rule, or the opponent cannot force a win in N
//!   moves), and every other move lets the opponent force a win in at
//!   most N moves;
//! - `material: ...`: a tactic that wins material; too deep for brute
//!   force, the comment gives the line and why the alternatives fail.
//!
//! # The game-end rules, from `docs/RULES.md`
//!
//! [`outcome`] decides, for the side to move, in the order of docs/RULES.md
//! "Game end, precisely":
//!
//! 1. in check with no legal move: checkmate, a loss;
//! 2. each side has only its king: a draw;
//! 3. bare king, in `courier`, `courier-moderno` and `enhanced-courier`
//!    (the variant file's `bare_king`): if the side to move has only its
//!    king, it has lost unless the opponent has exactly one man besides
//!    the king and the side to move has a legal move onto that man's
//!    square (a capture; a lone king cannot capture en passant). Then
//!    the game goes on for that one move: the capture leaves K vs K (a
//!    draw by 2.), and any other move leaves the bared side, now not to
//!    move, lost (next point). A bared side that is stalemated has no
//!    capture and so has lost, also in `courier-moderno`. If the side
//!    *not* to move has only its king, that side has lost: a win for the
//!    side to move (this happens only after a bared king declined the
//!    saving capture, or in a set-up position);
//! 4. the halfmove clock has reached 100: a draw (a mate on that ply was
//!    caught by 1.);
//! 5. the third occurrence of the same position (the Zobrist key, which
//!    covers pieces, side to move, rights and the legal en-passant
//!    captures) along the line searched from the root: a draw. A FEN has
//!    no history, so only repetitions inside the search count; they need
//!    at least eight plies, more than a mate in 3 searches;
//! 6. no legal move (not in check): stalemate, a draw, or a loss for the
//!    stalemated side where the variant says so (`courier`,
//!    `enhanced-courier`).

use kurier_engine::board::bitboard::Bitboard;
use kurier_engine::position::state::Position;
use kurier_engine::types::{Color, Move, MoveKind, Square};
use kurier_engine::variant::spec::StalemateResult;

/// One line of a tactics suite.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TacticsEntry {
    /// Line number in the file (from 1), for messages.
    pub line: usize,
    /// The position.
    pub fen: String,
    /// The solving moves in UCI notation.
    pub bm: Vec<String>,
    /// The `id` operand.
    pub id: String,
    /// The `c0` operand: kind, solution and reasons.
    pub comment: String,
}

/// What a position's comment says it is (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TacticKind {
    /// `mate in N`: a forced mate in N moves.
    Mate(u32),
    /// `win in N`: a forced win in N moves by any game-end rule.
    Win(u32),
    /// `draw, others lose in N`: the `bm` moves hold, all others lose in
    /// at most N moves.
    Draw(u32),
    /// `material`: wins material, checked by reasoning only.
    Material,
}

impl TacticsEntry {
    /// The kind, read from the start of the comment.
    pub fn kind(&self) -> Result<TacticKind, String> {
        let text = self.comment.as_str();
        let number = |rest: &str, what: &str| -> Result<u32, String> {
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            let after = &rest[digits.len()..];
            if digits.is_empty() || !after.starts_with(':') {
                return Err(format!(
                    "line {}: comment should start '{what} N:'",
                    self.line
                ));
            }
            digits
                .parse()
                .map_err(|_| format!("line {}: bad number '{digits}'", self.line))
        };
        if let Some(rest) = text.strip_prefix("mate in ") {
            number(rest, "mate in").map(TacticKind::Mate)
        } else if let Some(rest) = text.strip_prefix("win in ") {
            number(rest, "win in").map(TacticKind::Win)
        } else if let Some(rest) = text.strip_prefix("draw, others lose in ") {
            number(rest, "draw, others lose in").map(TacticKind::Draw)
        } else if text.starts_with("material:") {
            Ok(TacticKind::Material)
        } else {
            Err(format!(
                "line {}: the comment must start with 'mate in N:', 'win in N:', \
                 'draw, others lose in N:' or 'material:'",
                self.line
            ))
        }
    }
}

/// Parses a tactics suite; an error names the line and what is wrong.
pub fn parse_tactics(text: &str) -> Result<Vec<TacticsEntry>, String> {
    let mut entries = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let raw = raw.trim();
        if raw.is_empty() || raw.starts_with('#') {
            continue;
        }
        let (fen, mut rest) = raw
            .split_once(';')
            .ok_or_else(|| format!("line {line}: no ';' after the FEN"))?;
        let fen = fen.trim().to_string();
        if fen.is_empty() {
            return Err(format!("line {line}: empty FEN"));
        }
        let (mut bm, mut id, mut comment) = (None, None, None);
        loop {
            rest = rest.trim_start_matches(|c: char| c == ';' || c.is_whitespace());
            if rest.is_empty() {
                break;
            }
            let opcode_end = rest
                .find(|c: char| c.is_whitespace() || c == ';')
                .unwrap_or(rest.len());
            let opcode = &rest[..opcode_end];
            let after = rest[opcode_end..].trim_start();
            let (operand, remaining) = if let Some(quoted) = after.strip_prefix('"') {
                let close = quoted
                    .find('"')
                    .ok_or_else(|| format!("line {line}: unclosed '\"' after {opcode}"))?;
                let remaining = &quoted[close + 1..];
                if !(remaining.is_empty() || remaining.trim_start().starts_with(';')) {
                    return Err(format!(
                        "line {line}: text after the quoted {opcode} operand"
                    ));
                }
                (&quoted[..close], remaining)
            } else {
                let end = after.find(';').unwrap_or(after.len());
                (after[..end].trim(), &after[end..])
            };
            let duplicate = |name: &str| format!("line {line}: '{name}' given twice");
            match opcode {
                "bm" => {
                    let moves: Vec<String> =
                        operand.split_whitespace().map(str::to_string).collect();
                    if moves.is_empty() {
                        return Err(format!("line {line}: 'bm' without moves"));
                    }
                    if bm.replace(moves).is_some() {
                        return Err(duplicate("bm"));
                    }
                }
                "id" => {
                    if id.replace(operand.to_string()).is_some() {
                        return Err(duplicate("id"));
                    }
                }
                "c0" => {
                    if comment.replace(operand.to_string()).is_some() {
                        return Err(duplicate("c0"));
                    }
                }
                "" => return Err(format!("line {line}: empty operation")),
                other => return Err(format!("line {line}: unknown operation '{other}'")),
            }
            rest = remaining;
        }
        let entry = TacticsEntry {
            line,
            fen,
            bm: bm.ok_or_else(|| format!("line {line}: no 'bm'"))?,
            id: id.ok_or_else(|| format!("line {line}: no 'id'"))?,
            comment: comment.ok_or_else(|| format!("line {line}: no 'c0'"))?,
        };
        entry.kind()?;
        entries.push(entry);
    }
    Ok(entries)
}

/// How the game stands for the side to move, when it has ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The side to move has won (its opponent is a bared king that did
    /// not capture).
    Win,
    /// The side to move has lost.
    Loss,
    /// Drawn.
    Draw,
}

/// Whether `color` has only its king.
fn bared<B: Bitboard>(position: &Position<B>, color: Color) -> bool {
    !position.color_pieces(color).several()
}

/// The game-end rules of docs/RULES.md for the side to move, in their order
/// (see the module documentation); `None` while the game goes on.
/// `repetitions` is how often this position occurred before on the line
/// (0 for a new one). `legal` must be the position's legal moves.
pub fn outcome<B: Bitboard>(
    position: &Position<B>,
    legal: &[Move],
    repetitions: usize,
) -> Option<Outcome> {
    let variant = &position.game().variant;
    let us = position.side_to_move();
    let them = us.flip();
    // 1. Checkmate.
    if legal.is_empty() && position.in_check() {
        return Some(Outcome::Loss);
    }
    // 2. K vs K.
    if bared(position, us) && bared(position, them) {
        return Some(Outcome::Draw);
    }
    // 3. Bare king.
    if variant.bare_king {
        if bared(position, us) {
            let king = position.game().king;
            let men = position.color_pieces(them) & !position.pieces(them, king);
            let saving_capture = !men.several()
                && legal
                    .iter()
                    .any(|m| m.kind() != MoveKind::Castling && Square::new(m.to()) == men.lsb());
            return if saving_capture {
                None
            } else {
                Some(Outcome::Loss)
            };
        }
        if bared(position, them) {
            return Some(Outcome::Win);
        }
    }
    // 4. Fifty moves.
    if position.halfmove_clock() >= 100 {
        return Some(Outcome::Draw);
    }
    // 5. Threefold repetition.
    if repetitions >= 2 {
        return Some(Outcome::Draw);
    }
    // 6. Stalemate.
    if legal.is_empty() {
        return Some(match variant.stalemate {
            StalemateResult::Draw => Outcome::Draw,
            StalemateResult::Loss => Outcome::Loss,
        });
    }
    None
}

/// The exhaustive search: the keys of the positions on the current line
/// (for repetitions).
struct Solver {
    line: Vec<u64>,
}

impl Solver {
    fn repetitions<B: Bitboard>(&self, position: &Position<B>) -> usize {
        let key = position.key();
        self.line.iter().filter(|&&k| k == key).count()
    }

    fn play<B: Bitboard>(&mut self, position: &mut Position<B>, played: Move) {
        self.line.push(position.key());
        position.make_move(played);
    }

    fn take_back<B: Bitboard>(&mut self, position: &mut Position<B>) {
        position.unmake_move();
        self.line.pop();
    }

    /// Whether the side to move has lost right now (a cheap test first:
    /// with a draw for stalemate, a loss needs check or a bare king).
    fn lost_now<B: Bitboard>(&self, position: &Position<B>) -> bool {
        let variant = &position.game().variant;
        let us = position.side_to_move();
        if variant.stalemate == StalemateResult::Draw
            && !position.in_check()
            && !(variant.bare_king && bared(position, us))
        {
            return false;
        }
        let legal = position.legal_moves();
        outcome(position, &legal, self.repetitions(position)) == Some(Outcome::Loss)
    }

    /// Whether the side to move wins by force within `moves` of its moves.
    fn wins<B: Bitboard>(&mut self, position: &mut Position<B>, moves: u32) -> bool {
        let legal = position.legal_moves();
        if let Some(result) = outcome(position, &legal, self.repetitions(position)) {
            return result == Outcome::Win;
        }
        if moves == 0 {
            return false;
        }
        // Captures and promotions first: they decide most lines sooner.
        let (mut ordered, quiet): (Vec<Move>, Vec<Move>) = legal.into_iter().partition(|m| {
            m.kind() == MoveKind::Promotion || position.piece_at(Square::new(m.to())).is_some()
        });
        ordered.extend(quiet);
        ordered
            .into_iter()
            .any(|m| self.wins_with(position, m, moves))
    }

    /// Whether `first` wins by force within `moves` moves (counting it).
    fn wins_with<B: Bitboard>(
        &mut self,
        position: &mut Position<B>,
        first: Move,
        moves: u32,
    ) -> bool {
        self.play(position, first);
        let won = self.opponent_loses(position, moves);
        self.take_back(position);
        won
    }

    /// With the opponent to move, after our move: whether we win within
    /// `moves` of our moves, the one just played included.
    fn opponent_loses<B: Bitboard>(&mut self, position: &mut Position<B>, moves: u32) -> bool {
        if moves <= 1 {
            return self.lost_now(position);
        }
        let legal = position.legal_moves();
        if let Some(result) = outcome(position, &legal, self.repetitions(position)) {
            return result == Outcome::Loss;
        }
        legal.into_iter().all(|reply| {
            self.play(position, reply);
            let won = self.wins(position, moves - 1);
            self.take_back(position);
            won
        })
    }
}

/// Every first move of the side to move that forces a win (mate, or
/// stalemate or bare king where the variant makes them wins) in at most
/// `moves` of its moves, by exhaustive minimax over the legal moves. Empty
/// if the game has already ended.
pub fn mate_in<B: Bitboard>(position: &mut Position<B>, moves: u32) -> Vec<Move> {
    let mut solver = Solver { line: Vec::new() };
    let legal = position.legal_moves();
    if moves == 0 || outcome(position, &legal, 0).is_some() {
        return Vec::new();
    }
    legal
        .into_iter()
        .filter(|&m| solver.wins_with(position, m, moves))
        .collect()
}

/// Whether the side to move wins by force within `moves` of its moves
/// (true with no move if the game has already ended in its favour).
pub fn wins_within<B: Bitboard>(position: &mut Position<B>, moves: u32) -> bool {
    Solver { line: Vec::new() }.wins(position, moves)
}

/// The game-end state of a position on its own, for the side to move.
pub fn outcome_now<B: Bitboard>(position: &Position<B>) -> Option<Outcome> {
    outcome(position, &position.legal_moves(), 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_entries_and_reports_bad_lines() {
        let text = "# comment\n\n\
            8/8/8/8/8/8/8/K6k w - - 0 1;bm a1a2 a1b1;id \"x-01\";c0 \"mate in 2: a; b\"\n";
        let entries = parse_tactics(text).unwrap();
        assert_eq!(entries.len(), 1);
        assert_eq!(entries[0].line, 3);
        assert_eq!(entries[0].bm, vec!["a1a2", "a1b1"]);
        assert_eq!(entries[0].id, "x-01");
        assert_eq!(entries[0].comment, "mate in 2: a; b");
        assert_eq!(entries[0].kind(), Ok(TacticKind::Mate(2)));
        let fen = "8/8/8/8/8/8/8/K6k w - - 0 1";
        let bad = |rest: &str| parse_tactics(&format!("\n{fen};{rest}")).unwrap_err();
        assert!(bad("id \"a\";c0 \"material: x\"").contains("line 2: no 'bm'"));
        assert!(bad("bm a1a2;c0 \"material: x\"").contains("no 'id'"));
        assert!(bad("bm a1a2;id \"a\"").contains("no 'c0'"));
        assert!(bad("bm a1a2;id \"a\";c0 \"mate: x\"").contains("must start"));
        assert!(bad("bm a1a2;id \"a\";c0 \"win in x: y\"").contains("win in N:"));
        assert!(bad("bm a1a2;id \"a;c0 \"material: x\"").contains("text after"));
        assert!(bad("bm a1a2;id \"a\";c0 \"material: x").contains("unclosed"));
        assert!(bad("bm;id \"a\";c0 \"material: x\"").contains("without moves"));
        assert!(bad("bm a1a2;bm a1b1;id \"a\";c0 \"material: x\"").contains("twice"));
        assert!(bad("bm a1a2;xx 1;id \"a\";c0 \"material: x\"").contains("unknown operation"));
        let draw = parse_tactics(&format!(
            "{fen};bm a1a2;id \"a\";c0 \"draw, others lose in 1: x\""
        ));
        assert_eq!(draw.unwrap()[0].kind(), Ok(TacticKind::Draw(1)));
    }
}
