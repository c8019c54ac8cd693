//! `xpgn completions SHELL`: a completion script for a shell, generated from the command
//! line's own definition, so it offers every subcommand, flag and value xpgn takes.

use std::io::{self, Write};

use clap::CommandFactory;
use clap_complete::Shell;

use super::{Args, ExitStatus};

#[derive(clap::Args, Debug)]
pub struct CompletionsArgs {
    /// The shell to complete in.
    #[arg(value_enum)]
    shell: Shell,
}

pub fn run(args: CompletionsArgs) -> ExitStatus {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut Args::command(), "xpgn", &mut script);
    super::finish_output(io::stdout().lock().write_all(&script))
}
