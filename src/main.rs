//! The `xpgn` command line: the library's `cli` feature does the work (so that the
//! plumbing it needs stays private to the crate); this file only picks the allocator.

use std::process::ExitCode;

/// A game tree is many small allocations made and dropped together: mimalloc serves
/// them several times faster than the system allocator (as ruff and other Rust tools use
/// it for the same reason).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    xpgn::run_cli()
}
