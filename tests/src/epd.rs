//! Reads perft suites: `FEN;D1 n1;D2 n2;...` per line, `#` comments.

/// One position with its expected perft counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftEntry {
    /// Line number in the file (from 1), for messages.
    pub line: usize,
    /// The position.
    pub fen: String,
    /// (depth, leaf nodes) pairs.
    pub counts: Vec<(u32, u64)>,
}

/// Parses a suite; an error names the line and what is wrong.
pub fn parse_epd(text: &str) -> Result<Vec<PerftEntry>, String> {
    let mut entries = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let raw = raw.trim();
        if raw.is_empty() || raw.starts_with('#') {
            continue;
        }
        let mut fields = raw.split(';');
        let fen = fields.next().unwrap_or_default().trim().to_string();
        let mut counts = Vec::new();
        for field in fields {
            let (depth, nodes) = field
                .trim()
                .strip_prefix('D')
                .and_then(|rest| rest.split_once(' '))
                .ok_or_else(|| format!("line {line}: '{field}' is not 'D<depth> <nodes>'"))?;
            let depth: u32 = depth
                .parse()
                .map_err(|_| format!("line {line}: bad depth '{depth}'"))?;
            let nodes: u64 = nodes
                .trim()
                .parse()
                .map_err(|_| format!("line {line}: bad node count '{nodes}'"))?;
            counts.push((depth, nodes));
        }
        if counts.is_empty() {
            return Err(format!("line {line}: no perft counts"));
        }
        entries.push(PerftEntry { line, fen, counts });
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_entries_and_reports_bad_lines() {
        let entries = parse_epd("# comment\n\n8/8/8/8/8/8/8/K6k w - - 0 1;D1 3;D2 9\n").unwrap();
        assert_eq!(entries.len(), 1);
        assert_eq!(entries[0].line, 3);
        assert_eq!(entries[0].counts, vec![(1, 3), (2, 9)]);
        assert!(parse_epd("fen;E1 3").unwrap_err().contains("line 1"));
        assert!(parse_epd("fen;D1 x")
            .unwrap_err()
            .contains("bad node count"));
        assert!(parse_epd("fen").unwrap_err().contains("no perft counts"));
    }
}
