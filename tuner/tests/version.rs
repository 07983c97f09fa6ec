//! The build names the commit it was built from (`tuner/build.rs`), also
//! where it runs outside the checkout: a run folder elsewhere, another
//! machine. A values run's journal records the same version.

use std::path::Path;
use std::process::Command;

#[test]
fn the_version_names_the_commit_built_from_wherever_it_runs() {
    let checkout = Path::new(env!("CARGO_MANIFEST_DIR"));
    let head = Command::new("git")
        .args(["rev-parse", "--short", "HEAD"])
        .current_dir(checkout)
        .output();
    let head = match head {
        Ok(output) if output.status.success() => {
            String::from_utf8_lossy(&output.stdout).trim().to_string()
        }
        // Built from a source archive: there is no commit to name.
        _ => {
            eprintln!("not a git checkout: no commit to compare with");
            return;
        }
    };
    let expected = format!("{} ({head})", env!("CARGO_PKG_VERSION"));
    assert_eq!(kurier_tuner::values::engine_version(), expected);
    // The system's temporary folder is outside the checkout.
    let output = Command::new(env!("CARGO_BIN_EXE_kurier-tune"))
        .arg("--version")
        .current_dir(std::env::temp_dir())
        .output()
        .expect("kurier-tune runs");
    assert!(output.status.success());
    assert_eq!(
        String::from_utf8_lossy(&output.stdout).trim(),
        format!("kurier-tune {expected}")
    );
}
