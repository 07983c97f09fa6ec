//! The import graph of a crate's sources, read from the text: which module
//! names which (`crate::a::b`, `use crate::{a, b::{c, d}}`, `super::x`,
//! `$crate::a` in macros, and the `#[macro_export]` macros by name), so
//! that a test can refuse circles between modules and between folders,
//! and folders that import a folder declared after them.
//!
//! What counts: code outside comments, string literals and
//! `#[cfg(test)]` items (a module's unit tests may use any part of the
//! crate; the layering is about the code that ships). Paths that name a
//! module's child by a bare name (`mod x; x::f()`) are not counted: they
//! go down the tree, never across it. Inline modules (`mod x { .. }`)
//! count as part of their file; only `#[cfg(test)]` ones are used.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::io;
use std::path::Path;

/// One source file: its path under the crate's source root (`a/b.rs`,
/// `a/mod.rs`, `lib.rs`) and its text.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// The path under the source root, with `/` separators.
    pub path: String,
    /// The file's text.
    pub text: String,
}

/// Directed edges between modules or folders: `edges[a]` holds what `a`
/// imports.
pub type Graph = BTreeMap<String, BTreeSet<String>>;

/// Reads every `.rs` file under `root`, except those under the folders
/// named in `skip` (e.g. `bin`, whose files are crates of their own).
pub fn read_tree(root: &Path, skip: &[&str]) -> io::Result<Vec<SourceFile>> {
    let mut files = Vec::new();
    read_folder(root, root, skip, &mut files)?;
    files.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(files)
}

fn read_folder(
    root: &Path,
    folder: &Path,
    skip: &[&str],
    files: &mut Vec<SourceFile>,
) -> io::Result<()> {
    for entry in fs::read_dir(folder)? {
        let path = entry?.path();
        let relative = path
            .strip_prefix(root)
            .map_err(io::Error::other)?
            .to_string_lossy()
            .replace('\\', "/");
        if path.is_dir() {
            if !skip.contains(&relative.as_str()) {
                read_folder(root, &path, skip, files)?;
            }
        } else if relative.ends_with(".rs") {
            files.push(SourceFile {
                text: fs::read_to_string(&path)?,
                path: relative,
            });
        }
    }
    Ok(())
}

/// The module a file defines: `a::b` for `a/b.rs` and `a/b/mod.rs`, the
/// empty path for the crate root (`lib.rs`, `main.rs`).
pub fn module_of(path: &str) -> String {
    let stem = path.strip_suffix(".rs").unwrap_or(path);
    let stem = stem.strip_suffix("/mod").unwrap_or(stem);
    if stem == "lib" || stem == "main" {
        String::new()
    } else {
        stem.replace('/', "::")
    }
}

/// The module graph of a crate: an edge from each module to every other
/// module whose items it names. The crate root is left out (it declares
/// the modules).
pub fn module_graph(files: &[SourceFile]) -> Graph {
    let modules: BTreeSet<String> = files.iter().map(|f| module_of(&f.path)).collect();
    let mut macros = BTreeMap::new();
    let cleaned: Vec<(String, String)> = files
        .iter()
        .map(|f| (module_of(&f.path), strip_tests(&clean(&f.text))))
        .collect();
    for (module, code) in &cleaned {
        for name in exported_macros(code) {
            macros.insert(name, module.clone());
        }
    }
    let mut graph = Graph::new();
    for (module, code) in &cleaned {
        if module.is_empty() {
            continue;
        }
        let own: Vec<&str> = module.split("::").collect();
        let targets = graph.entry(module.clone()).or_default();
        for path in referenced_paths(code, &own) {
            let target = resolve(&path, &modules, &macros);
            if let Some(target) = target.filter(|t| !t.is_empty() && t != module) {
                targets.insert(target);
            }
        }
    }
    graph
}

/// The folder graph: modules grouped by their first path segment (a
/// top-level file is a folder of its own).
pub fn folder_graph(modules: &Graph) -> Graph {
    let folder = |module: &str| module.split("::").next().unwrap_or("").to_string();
    let mut graph = Graph::new();
    for (from, targets) in modules {
        let entry = graph.entry(folder(from)).or_default();
        for target in targets {
            if folder(target) != folder(from) {
                entry.insert(folder(target));
            }
        }
    }
    graph
}

/// A circle in `graph`, as the list of its nodes with the first repeated
/// at the end, or `None` if there is none.
pub fn find_cycle(graph: &Graph) -> Option<Vec<String>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Open,
        Done,
    }
    fn visit<'g>(
        node: &'g str,
        graph: &'g Graph,
        marks: &mut BTreeMap<&'g str, Mark>,
        stack: &mut Vec<&'g str>,
    ) -> Option<Vec<String>> {
        match marks.get(node) {
            Some(Mark::Done) => return None,
            Some(Mark::Open) => {
                let start = stack.iter().position(|n| *n == node).unwrap_or(0);
                let mut cycle: Vec<String> = stack[start..].iter().map(|n| n.to_string()).collect();
                cycle.push(node.to_string());
                return Some(cycle);
            }
            None => {}
        }
        marks.insert(node, Mark::Open);
        stack.push(node);
        for next in graph.get(node).into_iter().flatten() {
            if let Some(cycle) = visit(next, graph, marks, stack) {
                return Some(cycle);
            }
        }
        stack.pop();
        marks.insert(node, Mark::Done);
        None
    }
    let mut marks = BTreeMap::new();
    graph
        .keys()
        .find_map(|node| visit(node, graph, &mut marks, &mut Vec::new()))
}

/// The folder edges that break `order` (each folder may import only the
/// folders listed before it), and the folders `order` does not list, as
/// readable lines.
pub fn order_violations(folders: &Graph, order: &[&str]) -> Vec<String> {
    let rank = |folder: &str| order.iter().position(|o| *o == folder);
    let mut problems = Vec::new();
    for (from, targets) in folders {
        let Some(from_rank) = rank(from) else {
            problems.push(format!("folder {from} is not in the declared order"));
            continue;
        };
        for target in targets {
            match rank(target) {
                Some(target_rank) if target_rank < from_rank => {}
                Some(_) => problems.push(format!("{from} imports {target}, declared after it")),
                None => problems.push(format!("folder {target} is not in the declared order")),
            }
        }
    }
    problems
}

/// The module `path` (segments from the crate root) names: its longest
/// prefix that is a module, or the module of an exported macro.
fn resolve(
    path: &[String],
    modules: &BTreeSet<String>,
    macros: &BTreeMap<String, String>,
) -> Option<String> {
    for length in (1..=path.len()).rev() {
        let candidate = path[..length].join("::");
        if modules.contains(&candidate) {
            return Some(candidate);
        }
    }
    path.first().and_then(|name| macros.get(name).cloned())
}

/// Every path (from the crate root) that `code`, the cleaned text of
/// module `own`, names through `crate::`, `$crate::` or `super::`.
fn referenced_paths(code: &str, own: &[&str]) -> Vec<Vec<String>> {
    let bytes = code.as_bytes();
    let mut paths = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let starts_word = at == 0 || !is_ident_byte(bytes[at - 1]) || bytes[at - 1] == b'$';
        let rest = &code[at..];
        if starts_word && rest.starts_with("crate::") && (at == 0 || bytes[at - 1] != b':') {
            let (trees, end) = parse_tree(code, at + "crate::".len());
            paths.extend(trees);
            at = end.max(at + 1);
        } else if starts_word && rest.starts_with("super::") && (at == 0 || bytes[at - 1] != b':') {
            let mut base: Vec<String> = own.iter().map(|s| s.to_string()).collect();
            let mut cursor = at;
            while code[cursor..].starts_with("super::") {
                base.pop();
                cursor += "super::".len();
            }
            let (trees, end) = parse_tree(code, cursor);
            for tree in trees {
                let mut full = base.clone();
                full.extend(tree);
                paths.push(full);
            }
            at = end.max(at + 1);
        } else {
            at += 1;
        }
    }
    paths
}

fn is_ident_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_'
}

/// Parses a use tree (`a::b`, `a::{b, c::d}`, `{a, b}`, `*`) starting at
/// `at`; returns its paths and where it ends.
fn parse_tree(code: &str, at: usize) -> (Vec<Vec<String>>, usize) {
    let bytes = code.as_bytes();
    let mut at = skip_space(bytes, at);
    if bytes.get(at) == Some(&b'{') {
        let mut paths = Vec::new();
        at += 1;
        loop {
            at = skip_space(bytes, at);
            match bytes.get(at) {
                None => return (paths, at),
                Some(b'}') => return (paths, at + 1),
                Some(b',') => at += 1,
                Some(_) => {
                    let (trees, end) = parse_tree(code, at);
                    paths.extend(trees);
                    if end == at {
                        at += 1;
                    } else {
                        at = end;
                    }
                }
            }
        }
    }
    let start = at;
    while at < bytes.len() && is_ident_byte(bytes[at]) {
        at += 1;
    }
    if start == at {
        return (vec![Vec::new()], at);
    }
    let name = code[start..at].to_string();
    if code[at..].starts_with("::") {
        let (trees, end) = parse_tree(code, at + 2);
        let paths = trees
            .into_iter()
            .map(|tree| {
                let mut path = vec![name.clone()];
                path.extend(tree.into_iter().filter(|s| s != "self"));
                path
            })
            .collect();
        return (paths, end);
    }
    if name == "self" {
        return (vec![Vec::new()], at);
    }
    (vec![vec![name]], at)
}

fn skip_space(bytes: &[u8], mut at: usize) -> usize {
    while at < bytes.len() && bytes[at].is_ascii_whitespace() {
        at += 1;
    }
    at
}

/// The names of the `#[macro_export]` macros defined in `code`.
fn exported_macros(code: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = code;
    while let Some(found) = rest.find("#[macro_export]") {
        rest = &rest[found + "#[macro_export]".len()..];
        let after = rest.trim_start();
        if let Some(definition) = after.strip_prefix("macro_rules!") {
            let name: String = definition
                .trim_start()
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            names.push(name);
        }
    }
    names
}

/// `code` without its `#[cfg(test)]` items (up to the `;` or the matching
/// `}` of the item that follows the attribute).
fn strip_tests(code: &str) -> String {
    let mut kept = String::new();
    let mut rest = code;
    while let Some(found) = rest.find("#[cfg(test)]") {
        kept.push_str(&rest[..found]);
        let item = &rest[found..];
        let mut depth = 0usize;
        let mut end = item.len();
        for (index, c) in item.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        end = index + 1;
                        break;
                    }
                }
                ';' if depth == 0 => {
                    end = index + 1;
                    break;
                }
                _ => {}
            }
        }
        rest = &item[end..];
    }
    kept.push_str(rest);
    kept
}

/// `text` with comments removed and string and character literals
/// emptied, so that neither counts as code.
fn clean(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if c == 'r'
            && (next == Some('"') || next == Some('#'))
            && !preceded_by_ident(&chars, i)
        {
            let mut hashes = 0;
            let mut j = i + 1;
            while chars.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if chars.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                match chars.get(j) {
                    None => break,
                    Some('"') if (1..=hashes).all(|h| chars.get(j + h) == Some(&'#')) => {
                        j += 1 + hashes;
                        break;
                    }
                    Some(_) => j += 1,
                }
            }
            out.push_str("\"\"");
            i = j;
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == '\'' {
            // A character literal ('x', '\n', '\u{1F600}'), or a lifetime.
            let literal_end = if next == Some('\\') {
                (i + 3..chars.len().min(i + 12)).find(|&j| chars[j] == '\'')
            } else if chars.get(i + 2) == Some(&'\'') {
                Some(i + 2)
            } else {
                None
            };
            match literal_end {
                Some(end) => {
                    out.push_str("' '");
                    i = end + 1;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn preceded_by_ident(chars: &[char], at: usize) -> bool {
    at > 0 && (chars[at - 1].is_alphanumeric() || chars[at - 1] == '_')
}
