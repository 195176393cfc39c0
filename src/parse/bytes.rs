//! Bytes: which bytes are blanks and cell characters, and the byte → value tables (the
//! one-line path looks up every character, so these are arithmetic or tables, and scans
//! go 16 bytes at a time).

/// The UTF-8 byte order mark, skipped at the start of the input.
pub(super) const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Parse the digit character `c` for a board of side `n`: `'1'`-`'9'`, then `'A'`-`'Z'` for
/// 10..=35 (lowercase is the same when 10 ≤ n ≤ 35); for n > 35, `'a'`-`'z'` are 36..=61 and
/// `'@'`, `'$'`, `'%'` are 62..=64 (the mirror of [`digit_char`](crate::puzzle::digit_char)).
/// `'.'`, `'0'`, `'_'` and `'*'` are empty: `Some(0)`. Returns `None` for anything else,
/// including a digit above `n`.
pub fn cell_value(c: u8, n: usize) -> Option<u8> {
    symbol_value(c, n).filter(|&v| usize::from(v) <= n)
}

/// The value a character stands for on a board of side `n`, even when above `n`: uppercase
/// letters are digits 10..=35 on every board (so `G` on a 9×9 board is a digit out of range),
/// lowercase letters only on boards that use letters (so `g` on a 9×9 board is a bad character).
pub(super) fn symbol_value(c: u8, n: usize) -> Option<u8> {
    match value_table(n)[usize::from(c)] {
        NO_VALUE => None,
        v => Some(v),
    }
}

/// Marks a byte that is no cell character in [`VALUE_TABLES`]; above every side.
pub(super) const NO_VALUE: u8 = u8::MAX;

/// Byte → value tables (the one-line path looks up every character): for sides up to 9, up to
/// 35 and above 35, which differ in lowercase letters and `@` `$` `%`.
pub(super) static VALUE_TABLES: [[u8; 256]; 3] =
    [value_table_for(9), value_table_for(35), value_table_for(64)];

pub(super) fn value_table(n: usize) -> &'static [u8; 256] {
    &VALUE_TABLES[usize::from(n > 9) + usize::from(n > 35)]
}

/// [`symbol_value`] for boards up to 9×9 as arithmetic (vectorises, unlike table lookups):
/// the value of a digit, 0 for an empty-cell mark, a letter's value 10..=35, else [`NO_VALUE`].
pub(super) fn small_value(b: u8) -> u8 {
    let digit = b.wrapping_sub(b'0');
    let letter = b.wrapping_sub(b'A');
    if digit < 10 {
        digit
    } else if (b == b'.') | (b == b'_') | (b == b'*') {
        0
    } else if letter < 26 {
        letter + 10
    } else {
        NO_VALUE
    }
}

const fn value_table_for(n: usize) -> [u8; 256] {
    let mut table = [NO_VALUE; 256];
    let mut i = 0;
    while i < 256 {
        let c = i as u8;
        table[i] = match c {
            b'.' | b'0' | b'_' | b'*' => 0,
            b'1'..=b'9' => c - b'0',
            b'A'..=b'Z' => c - b'A' + 10,
            b'a'..=b'z' if n > 35 => c - b'a' + 36,
            b'a'..=b'z' if n > 9 => c - b'a' + 10,
            b'@' if n > 35 => 62,
            b'$' if n > 35 => 63,
            b'%' if n > 35 => 64,
            _ => NO_VALUE,
        };
        i += 1;
    }
    table
}

/// Blanks inside a line (line ends are handled by the reader).
pub(super) fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\x0B' | b'\x0C')
}

/// Characters that can be part of a run of cells on some board.
/// Digits, letters, `.`, `_`, `*`, `@`, `$`, `%`: the cell characters of the largest boards.
/// (Arithmetic rather than a table lookup, so that scans over whole chunks vectorise.)
pub(super) fn is_cell_char(b: u8) -> bool {
    (b.wrapping_sub(b'0') < 10)
        | ((b | 0x20).wrapping_sub(b'a') < 26)
        | (b == b'.')
        | (b == b'_')
        | (b == b'*')
        | (b == b'@')
        | (b == b'$')
        | (b == b'%')
}

/// The index of the first byte of `bytes` for which `stop` holds, else `bytes.len()`.
/// Checks 16 bytes at a time without early exit (vectorised) before looking closer: the
/// one-line path runs this over every line.
pub(super) fn find_first(bytes: &[u8], stop: impl Fn(u8) -> bool) -> usize {
    let mut done = 0;
    for chunk in bytes.chunks_exact(16) {
        if chunk.iter().fold(false, |any, &b| any | stop(b)) {
            break;
        }
        done += 16;
    }
    let tail = &bytes[done..];
    done + tail.iter().position(|&b| stop(b)).unwrap_or(tail.len())
}

/// Characters that may end a one-line puzzle's run before trailing text.
pub(super) fn is_soft_end(b: u8) -> bool {
    is_ws(b) || matches!(b, b':' | b';' | b',')
}

pub(super) fn trim_end(line: &[u8]) -> usize {
    line.iter().rposition(|&b| !is_ws(b)).map_or(0, |i| i + 1)
}

pub(super) fn isqrt(n: usize) -> usize {
    let mut r = (n as f64).sqrt() as usize;
    while r * r > n {
        r -= 1;
    }
    while (r + 1) * (r + 1) <= n {
        r += 1;
    }
    r
}
