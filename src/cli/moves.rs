//! `xpgn moves`: the legal moves of a position, one per line in canonical SAN (scripts
//! parse this), or as JSON with SAN, LAN and UCI.

use std::io::{self, Write};

use serde::Serialize;
use xpgn::rules::san::{lan, san, uci};

use super::{ExitStatus, ListFormat, PositionArgs};

#[derive(clap::Args, Debug)]
pub struct MovesArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// `text`: one SAN a line; `json`: an array of objects with `san`, `lan`, `uci`.
    #[arg(long, value_enum, default_value_t = ListFormat::Text)]
    format: ListFormat,
}

#[derive(Serialize)]
struct JsonMove {
    san: String,
    lan: String,
    /// Absent for moves UCI cannot spell (through a pass).
    #[serde(skip_serializing_if = "Option::is_none")]
    uci: Option<String>,
}

pub fn run(args: MovesArgs) -> ExitStatus {
    let (variant, pos) = match args.position.position() {
        Ok(found) => found,
        Err(status) => return status,
    };
    let mut moves = Vec::new();
    variant.legal_moves(&pos, &mut moves);
    let mut out = io::BufWriter::new(io::stdout().lock());
    let written = match args.format {
        ListFormat::Text => moves
            .iter()
            .try_for_each(|mv| writeln!(out, "{}", san(variant, &pos, mv))),
        ListFormat::Json => {
            let list: Vec<JsonMove> = moves
                .iter()
                .map(|mv| JsonMove {
                    san: san(variant, &pos, mv),
                    lan: lan(variant, &pos, mv),
                    uci: uci(variant, mv),
                })
                .collect();
            serde_json::to_writer(&mut out, &list)
                .map_err(io::Error::from)
                .and_then(|()| writeln!(out))
        }
    };
    super::finish_output(written.and_then(|()| out.flush()))
}
