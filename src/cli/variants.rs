//! `xpgn variants`: the variants xpgn plays, built in and loaded with `--variant-file`,
//! one line each (or JSON for scripts).

use std::io::{self, Write};
use std::path::PathBuf;

use serde::Serialize;
use xpgn::command::EventLabel;
use xpgn::rules::event::ruling_ranges;
use xpgn::rules::events::catalogue::{self, Support};
use xpgn::rules::{Variant, Variants};

use super::{ExitStatus, ListFormat, VariantArgs};

#[derive(clap::Args, Debug)]
pub struct VariantsArgs {
    /// A variant defined in YAML to list too (as the files under `variants/` in xpgn's
    /// repository). May be repeated.
    #[arg(long = "variant-file", value_name = "FILE")]
    variant_files: Vec<PathBuf>,
    /// Lines for people, or one JSON document for scripts.
    #[arg(long, value_enum, default_value_t = ListFormat::Text)]
    format: ListFormat,
}

/// What `--format json` prints.
#[derive(Serialize)]
struct Listing<'a> {
    variants: Vec<Entry<'a>>,
    events: Vec<EventEntry>,
    /// Every event of the catalogue, played or not.
    catalogue: Vec<CatalogueEntry>,
}

#[derive(Serialize)]
struct CatalogueEntry {
    /// A number, or `"4*"` for the early numbering's Portal Chess (PC-9).
    number: EventLabel,
    name: &'static str,
    /// `played`, `not-yet` or `unsupported`.
    status: &'static str,
    /// Why no version can check it (`unsupported` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'static str>,
    /// Its rules page, where it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    page: Option<&'static str>,
}

impl CatalogueEntry {
    fn of((number, name, support): (u16, &'static str, Support)) -> Self {
        let (status, reason, page) = match support {
            Support::Played => (
                "played",
                None,
                xpgn::rules::events::by_number(number).map(|e| e.info().page),
            ),
            Support::NotYet => ("not-yet", None, None),
            Support::Unsupported { reason, page } => ("unsupported", Some(reason), Some(page)),
        };
        CatalogueEntry {
            number: EventLabel(number),
            name,
            status,
            reason,
            page,
        }
    }
}

#[derive(Serialize)]
struct EventEntry {
    /// A number, or `"4*"` for the early numbering's Portal Chess (PC-9).
    number: EventLabel,
    name: &'static str,
    /// The older of its two wordings, played with `[%event N old]`.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    older_wording: bool,
    condition: String,
    rulings: String,
    /// Its rules page, from the root of xpgn's repository.
    page: &'static str,
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
    // Only the files: the default variant and the events of a run mean nothing here.
    let files = VariantArgs {
        variant: None,
        variant_files: args.variant_files,
        events: None,
    };
    let variants: Variants = match files.variants() {
        Ok(variants) => variants,
        Err(status) => return status,
    };
    let entries: Vec<Entry<'_>> = variants
        .loaded
        .iter()
        .map(|v| (*v, true))
        .chain(Variant::built_in().map(|v| (v, false)))
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
    let events: Vec<EventEntry> = xpgn::rules::events::ALL
        .iter()
        .map(|e| {
            let info = e.info();
            EventEntry {
                number: e.label(),
                name: info.name,
                older_wording: e.older_wording(),
                condition: info.condition.to_string(),
                rulings: ruling_ranges(info.rulings),
                page: info.page,
            }
        })
        .collect();
    let catalogue: Vec<CatalogueEntry> = catalogue::events().map(CatalogueEntry::of).collect();
    let mut out = io::BufWriter::new(io::stdout().lock());
    let written = match args.format {
        ListFormat::Text => write_text(&mut out, &entries, &events, &catalogue),
        ListFormat::Json => serde_json::to_writer(
            &mut out,
            &Listing {
                variants: entries,
                events,
                catalogue,
            },
        )
        .map_err(io::Error::from)
        .and_then(|()| writeln!(out)),
    };
    super::finish_output(written.and_then(|()| out.flush()))
}

fn write_text(
    out: &mut impl Write,
    variants: &[Entry<'_>],
    events: &[EventEntry],
    catalogue: &[CatalogueEntry],
) -> io::Result<()> {
    writeln!(out, "Variants:")?;
    for e in variants {
        let board = format!("{}x{}", e.files, e.ranks);
        let from = if e.loaded {
            " (from --variant-file)"
        } else {
            ""
        };
        writeln!(out, "  {:<24}{board:<7}{}{from}", e.id, e.description)?;
    }
    writeln!(out, "Events of Event Chess:")?;
    // By number, the older wording after the current one; the name column as wide as
    // the longest name, so that no name runs into what follows it.
    let mut by_number: Vec<&EventEntry> = events.iter().collect();
    by_number.sort_by_key(|e| (e.number.order(), e.older_wording));
    let width = events
        .iter()
        .map(|e| e.name)
        .chain(catalogue.iter().map(|e| e.name))
        .map(|name| name.chars().count())
        .max()
        .unwrap_or(0)
        + 2;
    for e in by_number {
        let number = format!("#{}", e.number);
        let older = if e.older_wording {
            format!("; older wording, written [%event {} old]", e.number)
        } else {
            String::new()
        };
        writeln!(
            out,
            "  {number:<5}{:<width$}Condition: {}; rulings {}{older}; rules: {}",
            e.name, e.condition, e.rulings, e.page
        )?;
    }
    let not_played: Vec<&CatalogueEntry> =
        catalogue.iter().filter(|e| e.status != "played").collect();
    if !not_played.is_empty() {
        writeln!(
            out,
            "Events of the catalogue not played (a game that starts one is checked up to it):"
        )?;
        for e in not_played {
            let number = format!("#{}", e.number);
            match e.page {
                Some(page) => writeln!(
                    out,
                    "  {number:<5}{:<width$}cannot be checked from a game's record; rules: {page}",
                    e.name
                )?,
                None => writeln!(out, "  {number:<5}{:<width$}not played yet", e.name)?,
            }
        }
    }
    writeln!(
        out,
        "The rules of each variant and event, with their rulings: docs/rules/README.md"
    )?;
    Ok(())
}
