//! Fairy-Stockfish's `variants.ini`: its sections, each a variant, and
//! their inheritance (`[gothic:capablanca]`), read as Fairy-Stockfish
//! reads them (`src/variant.cpp`, `VariantMap::parse_istream`).

/// One `key = value` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The key, e.g. `customPiece1`.
    pub key: String,
    /// The value, trimmed.
    pub value: String,
    /// The line, from 1.
    pub line: usize,
}

/// One section, `[name]` or `[name:parent]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    /// The variant's name.
    pub name: String,
    /// The section or built-in variant it inherits from.
    pub parent: Option<String>,
    /// The line of its header.
    pub line: usize,
    /// Its keys in file order.
    pub entries: Vec<Entry>,
}

/// Splits the file into sections; lines before the first section and
/// comments (`#`, `;`) are skipped. A line that is neither blank, a
/// comment, a header nor `key = value` is an error naming it.
pub fn sections(text: &str) -> Result<Vec<Section>, (usize, String)> {
    let mut out: Vec<Section> = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let trimmed = raw.trim();
        if trimmed.is_empty() || raw.starts_with('#') || raw.starts_with(';') {
            continue;
        }
        if let Some(header) = trimmed.strip_prefix('[') {
            let header = header
                .strip_suffix(']')
                .ok_or_else(|| (line, format!("{trimmed:?}: a section header ends with ']'")))?;
            let (name, parent) = match header.split_once(':') {
                Some((name, parent)) => (name.trim(), Some(parent.trim().to_string())),
                None => (header.trim(), None),
            };
            if name.is_empty() {
                return Err((line, "a section header with no name".into()));
            }
            if out.iter().any(|s| s.name == name) {
                return Err((line, format!("section [{name}] is defined twice")));
            }
            out.push(Section {
                name: name.to_string(),
                parent,
                line,
                entries: Vec::new(),
            });
            continue;
        }
        let Some(section) = out.last_mut() else {
            continue;
        };
        let (key, value) = trimmed
            .split_once('=')
            .ok_or_else(|| (line, format!("{trimmed:?}: expected `key = value`")))?;
        section.entries.push(Entry {
            key: key.trim().to_string(),
            value: value.trim().to_string(),
            line,
        });
    }
    Ok(out)
}

/// A variant's template (`None` or `Some("chess")`) and its sections,
/// the root first.
pub type Chain<'a> = (Option<&'static str>, Vec<&'a Section>);

/// The chain of sections a variant is built from, the root first; the
/// root's parent is `None` (Fairy-Stockfish's empty template) or
/// `Some("chess")` (its built-in chess). A parent must come earlier in
/// the file, as Fairy-Stockfish reads the file top down. An error gives
/// the line of the section that cannot be built (0: no such section).
pub fn chain<'a>(all: &'a [Section], name: &str) -> Result<Chain<'a>, (usize, String)> {
    let position = all.iter().position(|s| s.name == name).ok_or_else(|| {
        (
            0,
            format!(
                "no section [{name}] (the file has {})",
                all.iter()
                    .map(|s| s.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )
    })?;
    let mut chain = vec![&all[position]];
    let mut before = position;
    loop {
        let current = chain[chain.len() - 1];
        let Some(parent) = &current.parent else {
            chain.reverse();
            return Ok((None, chain));
        };
        match all[..before].iter().position(|s| &s.name == parent) {
            Some(index) => {
                chain.push(&all[index]);
                before = index;
            }
            None if parent == "chess" => {
                chain.reverse();
                return Ok((Some("chess"), chain));
            }
            None => {
                return Err((
                    current.line,
                    format!(
                        "inherits from '{parent}', which is not an earlier section of this file: \
                         a variant built into Fairy-Stockfish, whose rules only it knows (Kurier reads `chess` alone)"
                    ),
                ))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_inherit_from_earlier_ones_and_from_chess() {
        let text =
            "# comment\n[a:chess]\nmaxRank = 10\n\n[b:a]\n; note\nmaxFile=k\n[c:crazyhouse]\n";
        let all = sections(text).unwrap();
        assert_eq!(all.len(), 3);
        assert_eq!(all[1].entries[0].key, "maxFile");
        assert_eq!(all[1].entries[0].value, "k");
        assert_eq!(all[1].entries[0].line, 7);
        let (root, chain_b) = chain(&all, "b").unwrap();
        assert_eq!(root, Some("chess"));
        assert_eq!(
            chain_b.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(),
            ["a", "b"]
        );
        assert_eq!(chain(&all, "c").unwrap_err().0, 8);
        assert!(chain(&all, "d").unwrap_err().1.contains("no section [d]"));
    }

    #[test]
    fn a_line_that_is_not_a_key_is_named() {
        assert_eq!(sections("[a]\nmaxRank 10\n").unwrap_err().0, 2);
        assert_eq!(sections("[a\n").unwrap_err().0, 1);
    }
}
