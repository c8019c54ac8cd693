//! Finding bytes eight at a time in the short stretches of a PGN file (lines, comments,
//! tag pairs), where `memchr` costs more to set up than a word-at-a-time scan takes.

pub(crate) const LOW: u64 = u64::from_le_bytes([1; 8]);
pub(crate) const HIGH: u64 = u64::from_le_bytes([0x80; 8]);

/// Flags (sets the high bit of) the bytes of `w` below `n`, for `n` up to 128. Only the
/// lowest flag is sure: a flagged byte borrows from the ones above it.
#[inline(always)]
pub(crate) fn below(w: u64, n: u8) -> u64 {
    w.wrapping_sub(LOW * u64::from(n)) & !w & HIGH
}

/// Flags the bytes of `w` equal to `b`, the lowest flag sure as in [`below`].
#[inline(always)]
pub(crate) fn equal(w: u64, b: u8) -> u64 {
    below(w ^ (LOW * u64::from(b)), 1)
}

/// The first byte from `from` on that `is` accepts, among those `flags` flags eight at a
/// time (flagging at least those `is` accepts). Lines and comments are mostly short:
/// `memchr` costs more to set up than this takes to cross one.
#[inline(always)]
pub(crate) fn find(
    bytes: &[u8],
    from: usize,
    flags: impl Fn(u64) -> u64,
    is: impl Fn(u8) -> bool,
) -> Option<usize> {
    let mut i = from;
    loop {
        // Two words a turn while sixteen bytes are left (one bounds check for both), then
        // one; `flagged` flags the bytes from `at_word` on.
        let (at_word, flagged, width) = match bytes.get(i..i + 16) {
            Some(pair) => {
                let word = |k: usize| u64::from_le_bytes(pair[k..k + 8].try_into().unwrap());
                match flags(word(0)) {
                    0 => (i + 8, flags(word(8)), 16),
                    low => (i, low, 16),
                }
            }
            None => {
                // The last few bytes, padded with bytes never flagged.
                let rest = bytes.get(i..)?;
                let mut word = [0xFF; 8];
                let len = rest.len().min(8);
                word[..len].copy_from_slice(&rest[..len]);
                (i, flags(u64::from_le_bytes(word)), 8)
            }
        };
        if flagged == 0 {
            i += width;
            continue;
        }
        let at = at_word + flagged.trailing_zeros() as usize / 8;
        if is(bytes[at]) {
            return Some(at);
        }
        i = at + 1;
    }
}
