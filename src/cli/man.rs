//! `xpgn man [SUBCOMMAND]`: the manual page, in roff, generated from the command line's
//! own definition: `xpgn(1)`, or `xpgn-SUBCOMMAND(1)` for one subcommand.

use std::io::{self, Write};

use clap::CommandFactory;

use super::{Args, ExitStatus};

#[derive(clap::Args, Debug)]
pub struct ManArgs {
    /// The subcommand to write the page of (`xpgn-check(1)`, ...); without it, `xpgn(1)`,
    /// which lists the subcommands.
    #[arg(value_name = "SUBCOMMAND")]
    subcommand: Option<String>,
}

pub fn run(args: ManArgs) -> ExitStatus {
    let mut command = Args::command();
    // Built, a subcommand holds the flags it inherits and its version.
    command.build();
    let man = match &args.subcommand {
        None => clap_mangen::Man::new(command),
        Some(name) => match command.find_subcommand(name) {
            Some(subcommand) => {
                clap_mangen::Man::new(subcommand.clone()).title(format!("xpgn-{name}"))
            }
            None => {
                let names: Vec<&str> = command.get_subcommands().map(|c| c.get_name()).collect();
                say!(
                    "xpgn: no subcommand `{name}` (xpgn has {})",
                    names.join(", ")
                );
                return ExitStatus::Error;
            }
        },
    };
    let mut roff = Vec::new();
    let rendered = man.render(&mut roff);
    super::finish_output(rendered.and_then(|()| io::stdout().lock().write_all(&roff)))
}
