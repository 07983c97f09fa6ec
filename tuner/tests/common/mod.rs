//! What the tests of `kurier-tune` through its binary share: running it,
//! and a fresh folder per test.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The binary under test.
pub const TUNE: &str = env!("CARGO_BIN_EXE_kurier-tune");

/// A fresh folder for one test, named after the test binary and `name`.
pub fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("{}-{name}", env!("CARGO_CRATE_NAME")));
    // Left over from an earlier run, if at all.
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("the temporary folder is writable");
    dir
}

/// Runs `kurier-tune` with `args`.
pub fn tune(args: &[&str]) -> Output {
    tune_in(Path::new("."), args)
}

/// Runs `kurier-tune` with `args` in `folder`.
pub fn tune_in(folder: &Path, args: &[&str]) -> Output {
    Command::new(TUNE)
        .current_dir(folder)
        .args(args)
        .output()
        .expect("kurier-tune runs")
}

/// Runs `kurier-tune` with `args`, which must succeed; its stdout.
#[allow(dead_code)] // Not every test binary runs a command that succeeds.
pub fn succeed(args: &[&str]) -> String {
    let output = tune(args);
    assert!(
        output.status.success(),
        "kurier-tune {args:?} failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The one-line error of a command that must fail.
#[allow(dead_code)] // Not every test binary runs a command that fails.
pub fn refused(args: &[&str]) -> String {
    let output = tune(args);
    assert!(!output.status.success(), "kurier-tune {args:?} succeeded");
    let stderr = String::from_utf8_lossy(&output.stderr)
        .trim_end()
        .to_string();
    assert!(!stderr.contains("panicked"), "{stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "not one line: {stderr}");
    assert!(lines[0].starts_with("kurier-tune: "), "{stderr}");
    stderr
}
