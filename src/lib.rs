//! xpgn: chess game records with extended, variant-aware notation.
//!
//! The layers run one way: bytes ([`source`]) -> PGN and transcript syntax with spans
//! ([`pgn`], [`transcript`]) -> move notation as written ([`notation`]) -> diagnostics
//! ([`diagnostic`]) -> reporters ([`report`]). The library never prints; reporters write
//! to the writer they are given.

pub mod board_view;
pub mod command;
pub mod convert;
pub mod diagnostic;
pub mod document;
pub mod games;
pub mod layout;
pub mod lint;
pub mod notation;
pub mod pgn;
pub mod pipeline;
pub mod replay;
pub mod report;
pub mod rules;
mod scan;
pub mod source;
pub mod span;
pub mod transcript;
pub mod write;
