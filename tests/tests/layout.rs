//! The layout of the sources: no import circle between modules or
//! between folders, and each engine folder imports only the folders
//! before it in the declared order (the order `engine/src/lib.rs`
//! documents). A synthetic tree with the circles the engine once had
//! checks that the reader finds them.

use std::path::{Path, PathBuf};

use kurier_tests::layout::{
    find_cycle, folder_graph, module_graph, order_violations, read_tree, Graph, SourceFile,
};

/// The engine's folders, each importing only those before it.
const ENGINE_ORDER: [&str; 8] = [
    "types", "variant", "board", "position", "import", "eval", "search", "protocol",
];

/// The tuner's folders, each importing only those before it.
const TUNER_ORDER: [&str; 9] = [
    "util",
    "stats",
    "records",
    "positions",
    "players",
    "tournament",
    "texel",
    "values",
    "cli",
];

fn sources(crate_folder: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(crate_folder)
        .join("src")
}

fn graph_of(crate_folder: &str) -> Graph {
    let files = read_tree(&sources(crate_folder), &["bin"])
        .unwrap_or_else(|e| panic!("reading {crate_folder}/src: {e}"));
    assert!(
        files.len() > 10,
        "{crate_folder}/src has only {} files",
        files.len()
    );
    module_graph(&files)
}

fn assert_no_cycle(graph: &Graph, what: &str) {
    if let Some(cycle) = find_cycle(graph) {
        panic!("{what} import circle: {}", cycle.join(" -> "));
    }
}

#[test]
fn engine_modules_import_no_circle() {
    assert_no_cycle(&graph_of("engine"), "engine module");
}

#[test]
fn engine_folders_import_only_folders_before_them() {
    let folders = folder_graph(&graph_of("engine"));
    assert_no_cycle(&folders, "engine folder");
    let problems = order_violations(&folders, &ENGINE_ORDER);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn tuner_modules_import_no_circle() {
    assert_no_cycle(&graph_of("tuner"), "tuner module");
}

#[test]
fn tuner_folders_import_only_folders_before_them() {
    let folders = folder_graph(&graph_of("tuner"));
    assert_no_cycle(&folders, "tuner folder");
    let problems = order_violations(&folders, &TUNER_ORDER);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn web_modules_import_no_circle() {
    let graph = graph_of("web");
    assert_no_cycle(&graph, "web module");
    assert_no_cycle(&folder_graph(&graph), "web folder");
}

fn file(path: &str, text: &str) -> SourceFile {
    SourceFile {
        path: path.into(),
        text: text.into(),
    }
}

/// The engine's old circles in miniature, written in each of the forms
/// the reader must follow: `use crate::a::B`, a grouped `use crate::{..}`,
/// an inline `crate::a::f()`, `super::`, and an exported macro.
fn old_engine() -> Vec<SourceFile> {
    vec![
        file(
            "lib.rs",
            "pub mod bitboard;\npub mod geometry;\npub mod sliders;\n",
        ),
        file(
            "bitboard.rs",
            "use crate::{geometry::Square, sliders::{SliderTechnique}};\npub trait Bitboard {}\n",
        ),
        file(
            "geometry.rs",
            "use crate::bitboard::Bitboard;\npub struct Square;\n",
        ),
        file(
            "sliders/mod.rs",
            "pub mod ray_scan;\npub enum SliderTechnique { RayScan }\n",
        ),
        file(
            "sliders/ray_scan.rs",
            "pub fn line() { let _ = crate::geometry::Square; super::SliderTechnique::RayScan; }\n",
        ),
        file(
            "game.rs",
            "#[macro_export]\nmacro_rules! with_game { () => { $crate::game::AnyGame } }\n\
             pub fn new() { crate::position::Position::from_fen(); }\n",
        ),
        file(
            "position.rs",
            "use crate::game::Game;\npub struct Position;\n",
        ),
        file("fen.rs", "use crate::with_game;\nfn f() {}\n"),
    ]
}

#[test]
fn the_old_circles_are_found() {
    let graph = module_graph(&old_engine());
    let edges = |from: &str| -> Vec<&str> { graph[from].iter().map(String::as_str).collect() };
    assert_eq!(edges("bitboard"), ["geometry", "sliders"]);
    assert_eq!(edges("geometry"), ["bitboard"]);
    assert_eq!(edges("sliders::ray_scan"), ["geometry", "sliders"]);
    assert_eq!(edges("game"), ["position"]);
    assert_eq!(edges("position"), ["game"]);
    assert_eq!(edges("fen"), ["game"]);
    let cycle = find_cycle(&graph).expect("the old tree has circles");
    assert_eq!(cycle.first(), cycle.last());
    assert!(cycle.len() == 3, "a two-module circle, got {cycle:?}");

    let folders = folder_graph(&graph);
    assert_eq!(
        folders["sliders"].iter().collect::<Vec<_>>(),
        ["geometry"],
        "a folder's imports of itself are not edges"
    );
    let problems = order_violations(&folders, &["geometry", "bitboard", "sliders"]);
    assert!(
        problems.contains(&"geometry imports bitboard, declared after it".to_string()),
        "{problems:?}"
    );
    assert!(problems.contains(&"folder game is not in the declared order".to_string()));
}

#[test]
fn comments_strings_and_unit_tests_are_not_imports() {
    let files = vec![
        file("lib.rs", "pub mod a;\npub mod b;\n"),
        file(
            "a.rs",
            "//! See [`crate::b`].\n/* crate::b::X */\nconst S: &str = \"crate::b::X\";\n\
             const R: &str = r#\"crate::b\"#;\nconst C: char = '{';\n\
             #[cfg(test)]\nmod tests { use crate::b::X; fn f() { let _ = '}'; } }\n\
             #[cfg(test)]\nuse crate::b::Y;\n",
        ),
        file("b.rs", "use crate::a::S;\n"),
    ];
    let graph = module_graph(&files);
    assert!(graph["a"].is_empty(), "{:?}", graph["a"]);
    assert_eq!(graph["b"].iter().collect::<Vec<_>>(), ["a"]);
    assert_eq!(find_cycle(&graph), None);
}
