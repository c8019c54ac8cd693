//! `xpgn perft`: counts the leaves of the legal move tree, for testing rules against
//! other implementations. The count stands alone on the last line.

use std::io::{self, Write};

use xpgn::rules::san::san;

use super::{ExitStatus, PositionArgs};

#[derive(clap::Args, Debug)]
pub struct PerftArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Plies deep.
    #[arg(long, value_name = "D")]
    depth: u32,
    /// First print `MOVE: COUNT` for every legal move (canonical SAN).
    #[arg(long)]
    divide: bool,
}

pub fn run(args: PerftArgs) -> ExitStatus {
    let (variant, pos) = match args.position.position() {
        Ok(found) => found,
        Err(status) => return status,
    };
    let mut out = io::BufWriter::new(io::stdout().lock());
    let written = (|| {
        if args.divide && args.depth > 0 {
            let mut moves = Vec::new();
            variant.legal_moves(&pos, &mut moves);
            let mut total = 0;
            for mv in &moves {
                let mut next = pos.clone();
                variant.play(&mut next, mv);
                let count = variant.perft(&next, args.depth - 1);
                total += count;
                writeln!(out, "{}: {count}", san(variant, &pos, mv))?;
            }
            writeln!(out, "{total}")
        } else {
            writeln!(out, "{}", variant.perft(&pos, args.depth))
        }
    })();
    super::finish_output(written.and_then(|()| out.flush()))
}
