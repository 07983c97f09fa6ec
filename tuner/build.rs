//! Sets `KURIER_VERSION`: the crate version and the git commit the tuner
//! is built from, `0.1.0 (abc1234)`, so that a run's journal and
//! `kurier-tune --version` name the build that played the games wherever
//! the binary runs (a run folder outside the checkout, another machine).
//! Built outside a git checkout: the crate version alone.

use std::process::Command;

/// The trimmed output of `git args` in the crate's folder, if it succeeds.
fn git(args: &[&str]) -> Option<String> {
    let output = Command::new("git").args(args).output().ok()?;
    if !output.status.success() {
        return None;
    }
    let text = String::from_utf8(output.stdout).ok()?.trim().to_string();
    (!text.is_empty()).then_some(text)
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let version = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
    let Some(commit) = git(&["rev-parse", "--short", "HEAD"]) else {
        println!("cargo:rustc-env=KURIER_VERSION={version}");
        return;
    };
    println!("cargo:rustc-env=KURIER_VERSION={version} ({commit})");
    // Build again when HEAD moves: a checkout changes HEAD, a commit the
    // branch it names (a loose ref, or the packed ones).
    let mut watched = vec!["HEAD".to_string(), "packed-refs".to_string()];
    watched.extend(git(&["symbolic-ref", "-q", "HEAD"]));
    for name in watched {
        if let Some(path) = git(&["rev-parse", "--git-path", &name]) {
            println!("cargo:rerun-if-changed={path}");
        }
    }
}
