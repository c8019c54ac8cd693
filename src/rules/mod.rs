//! The rules core: variants as data, positions, legal moves, and the meaning of what a
//! game record wrote.
//!
//! See `ARCHITECTURE.md` for the layers and the hooks events use.

pub mod board;
pub mod definition;
pub mod ending;
pub mod event;
pub mod events;
pub mod fen;
pub mod meta;
pub mod moves;
pub mod piece;
pub mod position;
pub mod san;
pub mod variant;

pub use board::{Bitboard, Direction, Geometry, Sq};
pub use definition::DefinitionError;
pub use ending::Ending;
pub use event::{Condition, Event, EventInfo, EventStart, EventType, Reach};
pub use fen::{FenError, parse_fen, write_fen};
pub use moves::{Move, Special};
pub use piece::{Color, Kind, Piece, PieceDef, Role};
pub use position::Position;
pub use variant::{Variant, Variants};
