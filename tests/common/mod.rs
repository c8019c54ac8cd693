//! Running the built `xpgn` binary as scripts do, for the CLI test files.

use std::process::{Command, Output};

/// Runs `xpgn` with `args` from the repository root, without colour.
pub fn xpgn(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xpgn"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .output()
        .expect("xpgn runs")
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}
