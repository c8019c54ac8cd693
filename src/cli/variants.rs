//! `xpgn variants`: the variants xpgn plays, built in and loaded with `--variant-file`,
//! one line each (or JSON for scripts).

use std::io::{self, Write};

use clap::ValueEnum;
use serde::Serialize;
use xpgn::rules::{Variant, Variants};

use super::{ExitStatus, VariantArgs};

#[derive(clap::Args, Debug)]
pub struct VariantsArgs {
    #[command(flatten)]
    variant: VariantArgs,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Format {
    Text,
    Json,
}

#[derive(Serialize)]
struct Entry<'a> {
    id: &'a str,
    name: &'a str,
    aliases: &'a [String],
    files: u8,
    ranks: u8,
    description: &'a str,
    /// Read from a `--variant-file` rather than built in.
    loaded: bool,
}

pub fn run(args: VariantsArgs) -> ExitStatus {
    let variants: Variants = match args.variant.variants() {
        Ok(variants) => variants,
        Err(status) => return status,
    };
    let entries: Vec<Entry<'_>> = variants
        .loaded
        .iter()
        .map(|v| (*v, true))
        .chain(Variant::built_in().iter().map(|v| (v, false)))
        .map(|(v, loaded)| Entry {
            id: &v.slug,
            name: &v.name,
            aliases: &v.aliases,
            files: v.geometry.width,
            ranks: v.geometry.height,
            description: &v.description,
            loaded,
        })
        .collect();
    let mut out = io::BufWriter::new(io::stdout().lock());
    let written = match args.format {
        Format::Text => entries.iter().try_for_each(|e| {
            let board = format!("{}x{}", e.files, e.ranks);
            let from = if e.loaded {
                " (from --variant-file)"
            } else {
                ""
            };
            writeln!(out, "{:<24}{board:<7}{}{from}", e.id, e.description)
        }),
        Format::Json => serde_json::to_writer(&mut out, &entries)
            .map_err(io::Error::from)
            .and_then(|()| writeln!(out)),
    };
    super::finish_output(written.and_then(|()| out.flush()))
}
