//! The layout of the tuner and web crates: no import circle, between files
//! or between the folders (and top-level files) of any one folder, so that
//! every folder imports only those before it.
//!
//! The graph is read from the source text: every `use` tree and every path
//! that starts with `crate`, `self`, `super` or a child module's name is
//! resolved to the file of the longest module that it names; `mod x;`
//! declarations are not imports. A circle is printed with the file, the
//! path and the line that makes each of its steps.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The crates checked here, by their source folder in the workspace.
const CRATES: [&str; 2] = ["tuner/src", "web/src"];

/// One token of Rust source, comments and literals taken out.
#[derive(Clone, Debug, PartialEq)]
enum Token {
    /// A word: an identifier or keyword.
    Word(String),
    /// `::`.
    PathSep,
    /// Any other punctuation character.
    Punct(char),
}

/// The tokens of `text` with the line of each; comments, strings and
/// character literals are left out (a lifetime is a `'` and a word).
fn tokens(text: &str) -> Vec<(Token, usize)> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut line = 1;
    let mut i = 0;
    let skip_to = |i: &mut usize, line: &mut usize, end: usize| {
        for &c in &chars[*i..end.min(chars.len())] {
            if c == '\n' {
                *line += 1;
            }
        }
        *i = end;
    };
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == '/' && next == Some('/') {
            let end = chars[i..]
                .iter()
                .position(|&c| c == '\n')
                .map_or(chars.len(), |p| i + p);
            skip_to(&mut i, &mut line, end);
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            let mut j = i;
            while j < chars.len() {
                if chars[j] == '/' && chars.get(j + 1) == Some(&'*') {
                    depth += 1;
                    j += 2;
                } else if chars[j] == '*' && chars.get(j + 1) == Some(&'/') {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    j += 1;
                }
            }
            skip_to(&mut i, &mut line, j);
        } else if c == 'r'
            && matches!(next, Some('#') | Some('"'))
            && raw_string_end(&chars, i).is_some()
        {
            let end = raw_string_end(&chars, i).unwrap_or(chars.len());
            skip_to(&mut i, &mut line, end);
        } else if c == 'b' && next == Some('"') {
            i += 1;
        } else if c == '"' {
            let mut j = i + 1;
            while j < chars.len() && chars[j] != '"' {
                j += if chars[j] == '\\' { 2 } else { 1 };
            }
            skip_to(&mut i, &mut line, j + 1);
        } else if c == '\'' {
            if next == Some('\\') {
                let end = chars[i + 2..]
                    .iter()
                    .position(|&c| c == '\'')
                    .map_or(chars.len(), |p| i + 2 + p + 1);
                skip_to(&mut i, &mut line, end);
            } else if chars.get(i + 2) == Some(&'\'') {
                i += 3;
            } else {
                i += 1;
            }
        } else if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push((Token::Word(chars[start..i].iter().collect()), line));
        } else if c == ':' && next == Some(':') {
            out.push((Token::PathSep, line));
            i += 2;
        } else {
            out.push((Token::Punct(c), line));
            i += 1;
        }
    }
    out
}

/// Where the raw string starting at `start` (`r"…"` or `r#"…"#`) ends, or
/// `None` when `r` starts a word instead.
fn raw_string_end(chars: &[char], start: usize) -> Option<usize> {
    let mut j = start + 1;
    let mut hashes = 0;
    while chars.get(j) == Some(&'#') {
        hashes += 1;
        j += 1;
    }
    if chars.get(j) != Some(&'"') {
        return None;
    }
    j += 1;
    while j < chars.len() {
        if chars[j] == '"' && (1..=hashes).all(|k| chars.get(j + k) == Some(&'#')) {
            return Some(j + 1 + hashes);
        }
        j += 1;
    }
    Some(chars.len())
}

/// A crate's module files: module path (from the crate root) to file.
struct Crate {
    /// The folder of the crate root.
    src: PathBuf,
    /// Every module with a file of its own.
    files: BTreeMap<Vec<String>, PathBuf>,
    /// Every module, file or inline, to the module whose file holds it.
    modules: BTreeMap<Vec<String>, Vec<String>>,
}

/// The names of the modules declared in `tokens`: `(name, inline)`, with
/// the module path of the inline module that declares them.
fn declarations(tokens: &[(Token, usize)]) -> Vec<(Vec<String>, String, bool)> {
    let mut found = Vec::new();
    let mut scopes: Vec<(String, usize)> = Vec::new();
    let mut depth = 0;
    for (k, (token, _)) in tokens.iter().enumerate() {
        match token {
            Token::Punct('{') => depth += 1,
            Token::Punct('}') => {
                depth -= 1;
                if scopes.last().is_some_and(|(_, d)| *d == depth) {
                    scopes.pop();
                }
            }
            Token::Word(word) if word == "mod" => {
                if let (Some((Token::Word(name), _)), Some((after, _))) =
                    (tokens.get(k + 1), tokens.get(k + 2))
                {
                    let inside: Vec<String> = scopes.iter().map(|(n, _)| n.clone()).collect();
                    match after {
                        Token::Punct(';') => found.push((inside, name.clone(), false)),
                        Token::Punct('{') => {
                            found.push((inside, name.clone(), true));
                            scopes.push((name.clone(), depth));
                        }
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }
    found
}

/// The modules of the crate whose root is `src/lib.rs`.
fn crate_modules(src: &Path) -> Crate {
    let mut krate = Crate {
        src: src.to_path_buf(),
        files: BTreeMap::new(),
        modules: BTreeMap::new(),
    };
    let mut pending = vec![(Vec::new(), src.join("lib.rs"))];
    while let Some((path, file)) = pending.pop() {
        let text =
            std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let name = file.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        let folder = if matches!(name, "lib" | "mod" | "main") {
            file.parent().map(Path::to_path_buf).unwrap_or_default()
        } else {
            file.with_extension("")
        };
        krate.modules.insert(path.clone(), path.clone());
        for (inside, child, inline) in declarations(&tokens(&text)) {
            let mut child_path = path.clone();
            child_path.extend(inside.iter().cloned());
            child_path.push(child.clone());
            if inline {
                krate.modules.insert(child_path, path.clone());
            } else if inside.is_empty() {
                let flat = folder.join(format!("{child}.rs"));
                let nested = folder.join(&child).join("mod.rs");
                let child_file = if flat.exists() { flat } else { nested };
                pending.push((child_path, child_file));
            }
        }
        krate.files.insert(path, file);
    }
    krate
}

/// The paths of a `use` tree starting at `tokens[*k]`, up to its `;`.
fn use_paths(
    tokens: &[(Token, usize)],
    k: &mut usize,
    prefix: &[String],
    out: &mut Vec<Vec<String>>,
) {
    let mut path = prefix.to_vec();
    while let Some((token, _)) = tokens.get(*k) {
        match token {
            Token::Word(word) if word == "as" => *k += 2,
            Token::Word(word) => {
                path.push(word.clone());
                *k += 1;
            }
            Token::PathSep => *k += 1,
            Token::Punct('{') => {
                *k += 1;
                loop {
                    use_paths(tokens, k, &path, out);
                    match tokens.get(*k) {
                        Some((Token::Punct(','), _)) => *k += 1,
                        Some((Token::Punct('}'), _)) => {
                            *k += 1;
                            return;
                        }
                        _ => return,
                    }
                }
            }
            Token::Punct('*') => *k += 1,
            Token::Punct(',') | Token::Punct('}') | Token::Punct(';') => {
                if path.len() > prefix.len() || path.is_empty() {
                    out.push(path);
                } else {
                    out.push(prefix.to_vec());
                }
                return;
            }
            Token::Punct(_) => *k += 1,
        }
    }
}

/// One import: from the file of `from`, the path `text` at `line`.
#[derive(Clone, Debug)]
struct Import {
    /// The file that imports.
    file: PathBuf,
    /// The path as written.
    text: String,
    /// Its line.
    line: usize,
}

/// The file-level import edges of `krate`: (from, to) to the first import
/// that makes it.
fn file_edges(krate: &Crate) -> BTreeMap<(PathBuf, PathBuf), Import> {
    let mut edges = BTreeMap::new();
    for (module, file) in &krate.files {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        let tokens = tokens(&text);
        let mut scopes: Vec<(String, usize)> = Vec::new();
        let mut depth = 0;
        let mut k = 0;
        while k < tokens.len() {
            let here: Vec<String> = module
                .iter()
                .cloned()
                .chain(scopes.iter().map(|(n, _)| n.clone()))
                .collect();
            let line = tokens[k].1;
            let mut found = Vec::new();
            match &tokens[k].0 {
                Token::Punct('{') => {
                    depth += 1;
                    k += 1;
                }
                Token::Punct('}') => {
                    depth -= 1;
                    if scopes.last().is_some_and(|(_, d)| *d == depth) {
                        scopes.pop();
                    }
                    k += 1;
                }
                Token::Word(word) if word == "mod" => {
                    if let (Some((Token::Word(name), _)), Some((Token::Punct('{'), _))) =
                        (tokens.get(k + 1), tokens.get(k + 2))
                    {
                        scopes.push((name.clone(), depth));
                    }
                    k += 2;
                }
                Token::Word(word) if word == "use" => {
                    k += 1;
                    use_paths(&tokens, &mut k, &[], &mut found);
                }
                Token::Word(_) if k == 0 || tokens[k - 1].0 != Token::PathSep => {
                    let mut path = Vec::new();
                    while let Some((Token::Word(word), _)) = tokens.get(k) {
                        path.push(word.clone());
                        k += 1;
                        if tokens.get(k).map(|t| &t.0) == Some(&Token::PathSep) {
                            k += 1;
                        } else {
                            break;
                        }
                    }
                    if path.len() > 1 {
                        found.push(path);
                    }
                }
                _ => k += 1,
            }
            for path in found {
                let Some(target) = resolve(krate, &here, &path) else {
                    continue;
                };
                let Some(to) = krate.files.get(&target) else {
                    continue;
                };
                if to != file {
                    edges
                        .entry((file.clone(), to.clone()))
                        .or_insert_with(|| Import {
                            file: file.clone(),
                            text: path.join("::"),
                            line,
                        });
                }
            }
        }
    }
    edges
}

/// The module with a file that `path`, written in module `here`, names,
/// or `None` for a path outside the crate.
fn resolve(krate: &Crate, here: &[String], path: &[String]) -> Option<Vec<String>> {
    let mut segments = path.iter().peekable();
    let mut base: Vec<String> = match segments.peek().map(|s| s.as_str()) {
        Some("crate") => {
            segments.next();
            Vec::new()
        }
        Some("self") | Some("super") => here.to_vec(),
        Some(first) => {
            let mut child = here.to_vec();
            child.push(first.to_string());
            if !krate.modules.contains_key(&child) {
                return None;
            }
            here.to_vec()
        }
        None => return None,
    };
    while let Some(segment) = segments.peek() {
        match segment.as_str() {
            "self" => {}
            "super" => {
                base.pop();
            }
            _ => break,
        }
        segments.next();
    }
    let mut longest = base.clone();
    for segment in segments {
        base.push(segment.clone());
        if krate.modules.contains_key(&base) {
            longest = base.clone();
        } else {
            break;
        }
    }
    krate.modules.get(&longest).cloned()
}

/// The strongly connected components of more than one node in `edges`.
fn circles<N: Ord + Clone>(nodes: &BTreeSet<N>, edges: &BTreeSet<(N, N)>) -> Vec<Vec<N>> {
    let reach = |from: &N| -> BTreeSet<N> {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from.clone()];
        while let Some(node) = stack.pop() {
            for (a, b) in edges {
                if *a == node && seen.insert(b.clone()) {
                    stack.push(b.clone());
                }
            }
        }
        seen
    };
    let reachable: BTreeMap<N, BTreeSet<N>> = nodes.iter().map(|n| (n.clone(), reach(n))).collect();
    let mut done = BTreeSet::new();
    let mut found = Vec::new();
    for node in nodes {
        if done.contains(node) || !reachable[node].contains(node) {
            continue;
        }
        let component: Vec<N> = nodes
            .iter()
            .filter(|other| reachable[node].contains(*other) && reachable[*other].contains(node))
            .cloned()
            .collect();
        done.extend(component.iter().cloned());
        found.push(component);
    }
    found
}

/// The circles of `src`'s import graph, described: between files, then
/// between the children (folders and files) of each folder.
fn layout_problems(src: &Path) -> Vec<String> {
    let krate = crate_modules(src);
    let edges = file_edges(&krate);
    let files: BTreeSet<PathBuf> = krate.files.values().cloned().collect();
    let file_pairs: BTreeSet<(PathBuf, PathBuf)> = edges.keys().cloned().collect();
    let mut problems = Vec::new();
    let relative = |file: &Path| {
        file.strip_prefix(&krate.src)
            .unwrap_or(file)
            .display()
            .to_string()
    };
    let describe = |pairs: Vec<&Import>| {
        pairs
            .iter()
            .map(|import| {
                format!(
                    "    {}:{} uses {}",
                    relative(&import.file),
                    import.line,
                    import.text
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    for circle in circles(&files, &file_pairs) {
        let inside: BTreeSet<&PathBuf> = circle.iter().collect();
        let steps = edges
            .iter()
            .filter(|((a, b), _)| inside.contains(a) && inside.contains(b))
            .map(|(_, import)| import)
            .collect();
        problems.push(format!(
            "files import each other in a circle: {}\n{}",
            circle
                .iter()
                .map(|f| relative(f))
                .collect::<Vec<_>>()
                .join(", "),
            describe(steps)
        ));
    }
    let folders: BTreeSet<PathBuf> = files
        .iter()
        .filter_map(|f| f.parent().map(Path::to_path_buf))
        .collect();
    for folder in folders {
        // The child of `folder` that holds `file` (`x.rs` and `x/` are one).
        let unit = |file: &PathBuf| -> Option<String> {
            let rest = file.strip_prefix(&folder).ok()?;
            let first = rest.components().next()?.as_os_str().to_str()?.to_string();
            Some(first.trim_end_matches(".rs").to_string())
        };
        let mut pairs = BTreeSet::new();
        let mut why: BTreeMap<(String, String), Vec<&Import>> = BTreeMap::new();
        for ((a, b), import) in &edges {
            if let (Some(ua), Some(ub)) = (unit(a), unit(b)) {
                if ua != ub {
                    pairs.insert((ua.clone(), ub.clone()));
                    why.entry((ua, ub)).or_default().push(import);
                }
            }
        }
        let units: BTreeSet<String> = files.iter().filter_map(unit).collect();
        for circle in circles(&units, &pairs) {
            let inside: BTreeSet<&String> = circle.iter().collect();
            let steps = why
                .iter()
                .filter(|((a, b), _)| inside.contains(a) && inside.contains(b))
                .flat_map(|(_, imports)| imports.iter().copied())
                .collect();
            problems.push(format!(
                "the children of {}/ import each other in a circle: {}\n{}",
                relative(&folder),
                circle.join(", "),
                describe(steps)
            ));
        }
    }
    problems
}

#[test]
fn the_tuner_and_web_crates_import_in_one_direction() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut problems = Vec::new();
    for src in CRATES {
        for problem in layout_problems(&workspace.join(src)) {
            problems.push(format!("{src}: {problem}"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn a_circle_of_two_files_is_found() {
    let folder = std::env::temp_dir().join(format!("kurier-layout-{}", std::process::id()));
    std::fs::create_dir_all(folder.join("a")).unwrap();
    std::fs::write(folder.join("lib.rs"), "pub mod a;\npub mod b;\n").unwrap();
    std::fs::write(folder.join("a/mod.rs"), "pub mod inner;\n").unwrap();
    std::fs::write(
        folder.join("a/inner.rs"),
        "// crate::b::nothing in a comment\nuse crate::{b::{One, Two}};\n",
    )
    .unwrap();
    std::fs::write(
        folder.join("b.rs"),
        "fn f() -> u8 { let s = \"crate::a\"; super::a::inner::g() }\n",
    )
    .unwrap();
    let problems = layout_problems(&folder);
    std::fs::remove_dir_all(&folder).unwrap();
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(problems[0].contains("a/inner.rs, b.rs"), "{}", problems[0]);
    assert!(problems[0].contains("a/inner.rs:2 uses crate::b::One"));
    assert!(problems[0].contains("b.rs:1 uses super::a::inner::g"));
    assert!(problems[1].contains("children of / import each other in a circle: a, b"));
}
