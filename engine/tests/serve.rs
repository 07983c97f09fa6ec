//! `kurier serve` runs the `kurier-web` program beside `kurier`; without
//! it, it says how to build it.

use std::process::Command;

#[test]
fn serve_without_the_web_program_names_the_build_command() {
    // A copy of kurier alone in a folder of its own.
    let folder = std::env::temp_dir().join(format!("kurier-serve-{}", std::process::id()));
    std::fs::create_dir_all(&folder).expect("a temporary folder");
    let kurier = folder.join(format!("kurier{}", std::env::consts::EXE_SUFFIX));
    std::fs::copy(env!("CARGO_BIN_EXE_kurier"), &kurier).expect("kurier copies");
    let output = Command::new(&kurier)
        .args(["serve", "--port", "0"])
        .output()
        .expect("kurier runs");
    let _ = std::fs::remove_dir_all(&folder);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(
        stderr.contains("kurier-web") && stderr.contains("cargo build --release -p kurier-web"),
        "{stderr}"
    );
}
