//! Reading and writing FEN in the conventions of `docs/RULES.md`.

use super::variant::Variant;
use super::{Color, RefPosition};

impl RefPosition {
    /// Parses `fen` for variant `v`, rejecting anything malformed.
    pub(crate) fn parse_fen(v: Variant, fen: &str) -> Result<RefPosition, String> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.len() != 4 && fields.len() != 6 {
            return Err(format!(
                "a FEN has 4 or 6 fields, this one has {}",
                fields.len()
            ));
        }
        let (files, ranks) = (v.files(), v.ranks());
        let mut pos = RefPosition {
            variant: v,
            board: vec![None; files * ranks],
            side: Color::White,
            rights: vec![false; files * ranks],
            ep: Vec::new(),
            halfmove: 0,
            fullmove: 1,
        };
        pos.parse_placement(fields[0])?;
        pos.side = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            s => return Err(format!("side to move must be 'w' or 'b', not '{s}'")),
        };
        pos.parse_rights(fields[2])?;
        pos.parse_ep(fields[3])?;
        if fields.len() == 6 {
            pos.halfmove = fields[4]
                .parse()
                .map_err(|_| format!("bad halfmove clock '{}'", fields[4]))?;
            pos.fullmove = fields[5]
                .parse()
                .map_err(|_| format!("bad fullmove number '{}'", fields[5]))?;
            if pos.fullmove == 0 {
                return Err("the fullmove number starts at 1".to_string());
            }
        }
        Ok(pos)
    }

    /// The placement field: ranks, letters, kings, pawns.
    fn parse_placement(&mut self, placement: &str) -> Result<(), String> {
        let (files, ranks) = (self.files(), self.ranks());
        let rows: Vec<&str> = placement.split('/').collect();
        if rows.len() != ranks {
            return Err(format!(
                "placement has {} ranks, the board has {ranks}",
                rows.len()
            ));
        }
        let letters = self.variant.piece_letters();
        for (i, row) in rows.iter().enumerate() {
            let rank = ranks - 1 - i;
            let chars: Vec<char> = row.chars().collect();
            let mut file = 0usize;
            let mut j = 0usize;
            while j < chars.len() {
                let c = chars[j];
                if c.is_ascii_digit() {
                    if c == '0' {
                        return Err(format!("rank {}: empty run starting with 0", rank + 1));
                    }
                    let mut n = 0usize;
                    while j < chars.len() && chars[j].is_ascii_digit() {
                        n = n * 10 + (chars[j] as usize - '0' as usize);
                        if n > files {
                            return Err(format!("rank {} is longer than {files}", rank + 1));
                        }
                        j += 1;
                    }
                    file += n;
                } else {
                    let color = if c.is_ascii_uppercase() {
                        Color::White
                    } else if c.is_ascii_lowercase() {
                        Color::Black
                    } else {
                        return Err(format!("unknown character '{c}' in placement"));
                    };
                    let kind = c.to_ascii_uppercase();
                    if !letters.contains(kind) {
                        return Err(format!("unknown piece letter '{c}'"));
                    }
                    if file >= files {
                        return Err(format!("rank {} is longer than {files}", rank + 1));
                    }
                    let s = self.sq(file, rank);
                    self.board[s] = Some((color, kind));
                    file += 1;
                    j += 1;
                }
                if file > files {
                    return Err(format!("rank {} is longer than {files}", rank + 1));
                }
            }
            if file != files {
                return Err(format!(
                    "rank {} has {file} squares, the board has {files} files",
                    rank + 1
                ));
            }
        }
        for c in [Color::White, Color::Black] {
            let kings = self.board.iter().filter(|p| **p == Some((c, 'K'))).count();
            if kings != 1 {
                return Err(format!("{c:?} has {kings} kings, must have exactly 1"));
            }
        }
        for f in 0..files {
            if self.board[self.sq(f, ranks - 1)] == Some((Color::White, 'P'))
                || self.board[self.sq(f, 0)] == Some((Color::Black, 'P'))
            {
                return Err("a pawn stands on its last rank".to_string());
            }
        }
        Ok(())
    }

    /// The rights field.
    fn parse_rights(&mut self, field: &str) -> Result<(), String> {
        if field == "-" {
            return Ok(());
        }
        if self.variant.right_squares(true).is_empty() {
            return Err(format!(
                "rights '{field}' in a variant without first-move rights"
            ));
        }
        let mut seen: Vec<char> = Vec::new();
        for c in field.chars() {
            if seen.contains(&c) {
                return Err(format!("right '{c}' given twice"));
            }
            seen.push(c);
            // (colour, file) pairs this letter stands for.
            let flags: Vec<(Color, usize)> = match (self.variant, c) {
                (Variant::Chess, 'K') => vec![(Color::White, 4), (Color::White, 7)],
                (Variant::Chess, 'Q') => vec![(Color::White, 4), (Color::White, 0)],
                (Variant::Chess, 'k') => vec![(Color::Black, 4), (Color::Black, 7)],
                (Variant::Chess, 'q') => vec![(Color::Black, 4), (Color::Black, 0)],
                (_, c) if c.is_ascii_uppercase() => {
                    vec![(Color::White, c as usize - 'A' as usize)]
                }
                (_, c) if c.is_ascii_lowercase() => {
                    vec![(Color::Black, c as usize - 'a' as usize)]
                }
                _ => return Err(format!("unknown right '{c}'")),
            };
            for (color, file) in flags {
                if file >= self.files() {
                    return Err(format!("right '{c}' is off the board"));
                }
                let white = color == Color::White;
                let allowed = self.variant.right_squares(white);
                let s = self.sq(file, self.back_rank(color));
                let ok = allowed
                    .iter()
                    .any(|&(f, kind)| f == file && self.board[s] == Some((color, kind)));
                if !ok {
                    return Err(format!(
                        "right '{c}': no piece that can hold it on {}",
                        self.square_name(s)
                    ));
                }
                self.rights[s] = true;
            }
        }
        if self.variant == Variant::Chess {
            self.normalize_chess_rights();
        }
        Ok(())
    }

    /// In chess a right is only visible as `KQkq`: a king flag without a
    /// rook flag (or a rook flag without the king flag) means nothing, so
    /// it is dropped to keep the position equal to what its FEN says.
    pub(crate) fn normalize_chess_rights(&mut self) {
        for c in [Color::White, Color::Black] {
            let r = self.back_rank(c);
            let (a, e, h) = (self.sq(0, r), self.sq(4, r), self.sq(7, r));
            if !self.rights[e] {
                self.rights[a] = false;
                self.rights[h] = false;
            }
            if !self.rights[a] && !self.rights[h] {
                self.rights[e] = false;
            }
        }
    }

    /// The en-passant field: `-` or the squares the last multi-step passed
    /// over, in either order; must agree with the board.
    fn parse_ep(&mut self, field: &str) -> Result<(), String> {
        if field == "-" {
            return Ok(());
        }
        let mut squares: Vec<(usize, usize)> = Vec::new(); // (file, rank)
        let chars: Vec<char> = field.chars().collect();
        let mut j = 0;
        while j < chars.len() {
            let fc = chars[j];
            if !fc.is_ascii_lowercase() {
                return Err(format!("bad en-passant field '{field}'"));
            }
            let file = fc as usize - 'a' as usize;
            j += 1;
            let start = j;
            while j < chars.len() && chars[j].is_ascii_digit() {
                j += 1;
            }
            let digits: String = chars[start..j].iter().collect();
            let rank: usize = digits
                .parse()
                .map_err(|_| format!("bad en-passant field '{field}'"))?;
            if digits.starts_with('0') || rank == 0 || rank > self.ranks() || file >= self.files() {
                return Err(format!("en-passant square in '{field}' is off the board"));
            }
            squares.push((file, rank - 1));
        }
        let (start, longest) = self.variant.pawn_multi_step();
        if longest < 2 {
            return Err(format!(
                "en passant '{field}' in a variant without pawn multi-steps"
            ));
        }
        let mover = self.side.opponent();
        let fwd = mover.forward();
        let start_rank = match mover {
            Color::White => start,
            Color::Black => self.ranks() - 1 - start,
        } as i32;
        if squares.is_empty() || squares.len() > longest - 1 {
            return Err(format!("en-passant field '{field}' has a wrong length"));
        }
        let file = squares[0].0;
        // Order passed: by distance from the mover's start rank.
        squares.sort_by_key(|&(_, r)| (r as i32 - start_rank) * fwd);
        for (k, &(f, r)) in squares.iter().enumerate() {
            if f != file || r as i32 != start_rank + fwd * (k as i32 + 1) {
                return Err(format!(
                    "en-passant field '{field}' does not fit a pawn step of {mover:?}"
                ));
            }
            let s = self.sq(f, r);
            if self.board[s].is_some() {
                return Err(format!(
                    "en-passant square {} is occupied",
                    self.square_name(s)
                ));
            }
        }
        let pawn_rank = start_rank + fwd * (squares.len() as i32 + 1);
        let pawn_sq = self.sq(file, pawn_rank as usize);
        if self.board[pawn_sq] != Some((mover, 'P')) {
            return Err(format!(
                "en passant '{field}' but no {mover:?} pawn on {}",
                self.square_name(pawn_sq)
            ));
        }
        let origin = self.sq(file, start_rank as usize);
        if self.board[origin].is_some() {
            return Err(format!(
                "en passant '{field}' but the pawn's start square {} is occupied",
                self.square_name(origin)
            ));
        }
        self.ep = squares.iter().map(|&(f, r)| self.sq(f, r)).collect();
        Ok(())
    }

    /// The FEN of the position.
    pub(crate) fn write_fen(&self) -> String {
        let (files, ranks) = (self.files(), self.ranks());
        let mut out = String::new();
        for rank in (0..ranks).rev() {
            let mut empty = 0;
            for file in 0..files {
                match self.board[self.sq(file, rank)] {
                    None => empty += 1,
                    Some((color, kind)) => {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        out.push(match color {
                            Color::White => kind,
                            Color::Black => kind.to_ascii_lowercase(),
                        });
                    }
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out.push(' ');
        out.push(match self.side {
            Color::White => 'w',
            Color::Black => 'b',
        });
        out.push(' ');
        let mut rights = String::new();
        if self.variant == Variant::Chess {
            let top = ranks - 1;
            for (letter, king, rook) in [
                ('K', self.sq(4, 0), self.sq(7, 0)),
                ('Q', self.sq(4, 0), self.sq(0, 0)),
                ('k', self.sq(4, top), self.sq(7, top)),
                ('q', self.sq(4, top), self.sq(0, top)),
            ] {
                if self.rights[king] && self.rights[rook] {
                    rights.push(letter);
                }
            }
        } else {
            for (rank, base) in [(0, b'A'), (ranks - 1, b'a')] {
                for file in 0..files {
                    if self.rights[self.sq(file, rank)] {
                        rights.push((base + file as u8) as char);
                    }
                }
            }
        }
        if rights.is_empty() {
            rights.push('-');
        }
        out.push_str(&rights);
        out.push(' ');
        if self.ep.is_empty() {
            out.push('-');
        } else {
            for &s in &self.ep {
                out.push_str(&self.square_name(s));
            }
        }
        out.push_str(&format!(" {} {}", self.halfmove, self.fullmove));
        out
    }
}
