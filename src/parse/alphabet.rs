//! Alphabets: which characters stand for which digits on boards above 9×9 (`--alphabet`), how
//! one is recognised when none is given, and how values are written back in it.
//!
//! - [`Alphabet::Standard`] (`1-9A-Z`): `1`-`9`, then `A`-`Z` for 10..=35 (then `a`-`z`, `@`,
//!   `$`, `%` above 35); `.`, `0`, `_`, `*` are empty cells.
//! - [`Alphabet::Hex`] (`0-F`): `0`-`9` are 1..=10, `A`-`Z` 11..=36 (then `a`-`z`, `@`, `$`);
//!   `.`, `_`, `*` are empty (`0` is a digit).
//! - [`Alphabet::Letters`] (`A-Z`): `A`-`Z` are 1..=26 (then `a`-`z`); `.`, `0`, `_`, `*` are
//!   empty.
//! - [`Alphabet::Numbers`]: decimal numbers separated by blanks (grids of numbers), `0` empty.
//!
//! Without `--alphabet`, a board above 9×9 written in characters is read in the standard
//! alphabet unless its characters say otherwise: no digit `1`-`9` and a letter beyond the
//! standard range (`H`-`P` on 16×16) make it letters; a `0` without the board's top standard
//! digit (`G` on 16×16) is ambiguous — an empty cell, or the hex digit for 1 — and an error that
//! asks for `--alphabet`.

use std::fmt;
use std::str::FromStr;

/// The characters that stand for digits on boards above 9×9 (`--alphabet`). Without one, a
/// board is read in [`Alphabet::Standard`] unless its characters say otherwise: no digit `1`-`9`
/// and a letter beyond the standard range make it [`Alphabet::Letters`]; a `0` without the
/// board's top standard digit is an error that asks for an alphabet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Alphabet {
    /// `1-9A-Z` (then `a-z@$%`); `.`, `0`, `_`, `*` empty.
    #[default]
    Standard,
    /// `0-F`: `0`-`9` then letters, 1-based (`0` is 1); `.`, `_`, `*` empty.
    Hex,
    /// `A-Z` (then `a-z`) for 1, 2, …; `.`, `0`, `_`, `*` empty.
    Letters,
    /// Decimal numbers separated by blanks; `0` empty.
    Numbers,
}

impl Alphabet {
    /// The largest side the alphabet can write.
    pub fn max_side(self) -> usize {
        match self {
            Alphabet::Standard | Alphabet::Hex | Alphabet::Numbers => crate::shape::MAX_SIDE,
            Alphabet::Letters => 52,
        }
    }

    /// Value `v` (1..=N) as messages name it: its character, or its number where the
    /// alphabet writes numbers or has no character for it.
    pub fn name(self, v: u8) -> String {
        match self.symbol(v) {
            Some(ch) if self != Alphabet::Numbers => ch.to_string(),
            _ => v.to_string(),
        }
    }

    /// The character for value `v` (0 = empty, written `.`); `None` where the alphabet has no
    /// single character for it (numbers above 9, letters above 52).
    pub fn symbol(self, v: u8) -> Option<char> {
        const STANDARD: &[u8; 65] =
            b".123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz@$%";
        const HEX: &[u8; 65] = b".0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz@$";
        const LETTERS: &[u8; 53] = b".ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
        let table: &[u8] = match self {
            Alphabet::Standard => STANDARD,
            Alphabet::Hex => HEX,
            Alphabet::Letters => LETTERS,
            Alphabet::Numbers if v <= 9 => STANDARD,
            Alphabet::Numbers => return None,
        };
        table.get(usize::from(v)).map(|&b| char::from(b))
    }

    /// Values written one after the other on one line, `.` for empty; numbers are separated by
    /// blanks, `0` for empty (as the reader takes them back).
    pub fn line(self, values: &[u8]) -> String {
        if self == Alphabet::Numbers {
            let words: Vec<String> = values.iter().map(u8::to_string).collect();
            return words.join(" ");
        }
        values
            .iter()
            .map(|&v| self.symbol(v).unwrap_or('?'))
            .collect()
    }

    /// The value table of this alphabet on a board of side `n`: byte → value, [`NO_VALUE`]
    /// for anything else (values above `n` included: callers compare).
    pub(super) fn table(self, n: usize) -> &'static [u8; 256] {
        match self {
            Alphabet::Standard | Alphabet::Numbers => super::bytes::value_table(n),
            Alphabet::Hex => &HEX_TABLES[usize::from(n > 36)],
            Alphabet::Letters => &LETTER_TABLES[usize::from(n > 26)],
        }
    }

    /// The characters that are empty cells.
    pub(super) fn empties(self) -> &'static str {
        match self {
            Alphabet::Hex => "'.', '_', '*'",
            _ => "'.', '0', '_', '*'",
        }
    }

    /// The value of character `c` on a board of side `n` (0 for an empty cell), `None` for
    /// anything else, including a digit above `n`.
    pub fn value(self, c: u8, n: usize) -> Option<u8> {
        match self.table(n)[usize::from(c)] {
            NO_VALUE => None,
            v if usize::from(v) > n => None,
            v => Some(v),
        }
    }

    /// The names `--alphabet` takes, for messages.
    pub const NAMES: &'static str = "1-9A-Z, 0-F (hex), A-Z (letters) or numbers";
}

use super::bytes::NO_VALUE;

static HEX_TABLES: [[u8; 256]; 2] = [hex_table(36), hex_table(64)];
static LETTER_TABLES: [[u8; 256]; 2] = [letter_table(26), letter_table(52)];

const fn hex_table(n: usize) -> [u8; 256] {
    let mut table = [NO_VALUE; 256];
    let mut i = 0;
    while i < 256 {
        let c = i as u8;
        table[i] = match c {
            b'.' | b'_' | b'*' => 0,
            b'0'..=b'9' => c - b'0' + 1,
            b'A'..=b'Z' => c - b'A' + 11,
            b'a'..=b'z' if n > 36 => c - b'a' + 37,
            b'a'..=b'z' => c - b'a' + 11,
            b'@' if n > 36 => 63,
            b'$' if n > 36 => 64,
            _ => NO_VALUE,
        };
        i += 1;
    }
    table
}

const fn letter_table(n: usize) -> [u8; 256] {
    let mut table = [NO_VALUE; 256];
    let mut i = 0;
    while i < 256 {
        let c = i as u8;
        table[i] = match c {
            b'.' | b'0' | b'_' | b'*' => 0,
            b'A'..=b'Z' => c - b'A' + 1,
            b'a'..=b'z' if n > 26 => c - b'a' + 27,
            b'a'..=b'z' => c - b'a' + 1,
            _ => NO_VALUE,
        };
        i += 1;
    }
    table
}

impl fmt::Display for Alphabet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Alphabet::Standard => "1-9A-Z",
            Alphabet::Hex => "0-F",
            Alphabet::Letters => "A-Z",
            Alphabet::Numbers => "numbers",
        })
    }
}

impl FromStr for Alphabet {
    type Err = String;

    /// `1-9A-Z` (also `standard`, `1-9A-G`, …), `0-F` (`hex`, `0-9A-F`, …), `A-Z` (`letters`,
    /// `A-P`, …) or `numbers`.
    fn from_str(s: &str) -> Result<Alphabet, String> {
        let t = s.trim();
        let lower = t.to_ascii_lowercase();
        let range = |prefix: &str| {
            lower.len() == prefix.len() + 3
                && lower.starts_with(prefix)
                && lower.as_bytes()[prefix.len()] == b'a'
                && lower.as_bytes()[prefix.len() + 1] == b'-'
                && lower.as_bytes()[prefix.len() + 2].is_ascii_lowercase()
        };
        match lower.as_str() {
            "standard" | "default" | "1-9a-z" => Ok(Alphabet::Standard),
            "hex" | "0-f" | "0-9a-f" | "0-9a-z" => Ok(Alphabet::Hex),
            "letters" | "a-z" => Ok(Alphabet::Letters),
            "numbers" | "number" | "numeric" => Ok(Alphabet::Numbers),
            _ if range("1-9") => Ok(Alphabet::Standard),
            _ if range("0-9") => Ok(Alphabet::Hex),
            _ if lower.len() == 3 && lower.starts_with("a-") => Ok(Alphabet::Letters),
            _ if lower.len() == 3 && lower.starts_with("0-") => Ok(Alphabet::Hex),
            _ => Err(format!(
                "unknown alphabet {t:?}: expected {}",
                Alphabet::NAMES
            )),
        }
    }
}

/// What the characters of a board of side `n` (above 9) say about its alphabet when none was
/// given: `Ok` with the alphabet, or `Err(i)` with the index of a `0` that is ambiguous.
pub(super) fn detect(symbols: &[u8], n: usize) -> Result<Alphabet, usize> {
    if n <= 9 {
        return Ok(Alphabet::Standard);
    }
    let standard = super::bytes::value_table(n);
    let (mut digits, mut beyond, mut top, mut zero) = (false, false, false, None);
    for (i, &b) in symbols.iter().enumerate() {
        match b {
            b'1'..=b'9' => digits = true,
            b'0' => {
                zero.get_or_insert(i);
            }
            _ if b.is_ascii_alphabetic() => {
                let v = usize::from(standard[usize::from(b)]);
                beyond |= v > n && v != usize::from(NO_VALUE);
                top |= v == n;
            }
            _ => {}
        }
    }
    if !digits && beyond && n <= Alphabet::Letters.max_side() {
        return Ok(Alphabet::Letters);
    }
    match zero {
        Some(i) if !top => Err(i),
        _ => Ok(Alphabet::Standard),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_symbols_round_trip() {
        for (name, a) in [
            ("1-9A-Z", Alphabet::Standard),
            ("1-9A-G", Alphabet::Standard),
            ("0-F", Alphabet::Hex),
            ("hex", Alphabet::Hex),
            ("0-9A-F", Alphabet::Hex),
            ("A-P", Alphabet::Letters),
            ("letters", Alphabet::Letters),
            ("numbers", Alphabet::Numbers),
        ] {
            assert_eq!(name.parse::<Alphabet>(), Ok(a), "{name}");
        }
        assert!("xyz".parse::<Alphabet>().is_err());
        for a in [Alphabet::Standard, Alphabet::Hex, Alphabet::Letters] {
            for n in [16usize, 25, 36] {
                for v in 0..=n as u8 {
                    let c = a.symbol(v).unwrap() as u8;
                    assert_eq!(a.value(c, n), Some(v), "{a} {n} {v}");
                }
            }
        }
        assert_eq!(Alphabet::Hex.line(&[1, 10, 11, 16, 0]), "09AF.");
        assert_eq!(Alphabet::Letters.line(&[1, 16, 0]), "AP.");
        assert_eq!(Alphabet::Numbers.line(&[1, 16, 0]), "1 16 0");
    }

    #[test]
    fn detection() {
        let n = 16;
        assert_eq!(detect(b"1.3G0", n), Ok(Alphabet::Standard));
        assert_eq!(detect(b"1.3F.", n), Ok(Alphabet::Standard));
        assert_eq!(detect(b"1.30F", n), Err(3));
        assert_eq!(detect(b"AB.P.", n), Ok(Alphabet::Letters));
        assert_eq!(detect(b"AB.G.", n), Ok(Alphabet::Standard));
        assert_eq!(detect(b"0123", 9), Ok(Alphabet::Standard));
    }
}
