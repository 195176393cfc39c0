//! LZ-string's `decompressFromBase64` (the lz-string JavaScript library, 1.x), the coding of
//! f-puzzles and SudokuPad `fpuzzles` links: the link's payload is the puzzle's JSON,
//! compressed. Written from the format: a stream of bits, read low bit first from 6-bit
//! base64 symbols taken high bit first; codes of a growing width; code 0 and 1 bring a new
//! 8- or 16-bit character, 2 ends the stream, others name a dictionary entry (an earlier
//! entry plus one character).

/// Why a payload could not be decompressed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LzError {
    /// A character outside the base64 alphabet.
    #[error("the link's data has a character {0:?} outside base64")]
    BadChar(char),
    /// The stream names a dictionary entry that does not exist, or ends early.
    #[error("the link's data is not LZ-string compressed data (cut short or corrupt)")]
    Corrupt,
    /// The decompressed text would exceed the limit.
    #[error("the link's data decompresses to more than {0} characters")]
    TooLong(usize),
}

/// The base64 symbol value of `b` (`+` and `-`, `/` and `_` both read, as links use either).
fn symbol(b: u8) -> Option<u32> {
    Some(match b {
        b'A'..=b'Z' => u32::from(b - b'A'),
        b'a'..=b'z' => u32::from(b - b'a') + 26,
        b'0'..=b'9' => u32::from(b - b'0') + 52,
        b'+' | b'-' => 62,
        b'/' | b'_' => 63,
        _ => return None,
    })
}

/// Bits of the input, low bit of each code first, from 6-bit symbols read high bit first.
struct Bits<'a> {
    input: &'a [u8],
    index: usize,
    value: u32,
    position: u32,
}

impl Bits<'_> {
    fn new(input: &[u8]) -> Result<Bits<'_>, LzError> {
        let mut bits = Bits {
            input,
            index: 0,
            value: 0,
            position: 0,
        };
        bits.refill()?;
        Ok(bits)
    }

    fn refill(&mut self) -> Result<(), LzError> {
        // Past the end the library reads 0 bits (its stream always ends with code 2 first).
        self.value = match self.input.get(self.index) {
            Some(&b) => symbol(b).ok_or(LzError::BadChar(char::from(b)))?,
            None => 0,
        };
        self.index += 1;
        self.position = 32;
        Ok(())
    }

    /// A number of `width` bits, low bit first.
    fn read(&mut self, width: u32) -> Result<u32, LzError> {
        let mut out = 0;
        for k in 0..width {
            let bit = self.value & self.position != 0;
            self.position >>= 1;
            if self.position == 0 {
                self.refill()?;
            }
            out |= u32::from(bit) << k;
        }
        Ok(out)
    }
}

/// A dictionary entry: an earlier entry (or none) plus one UTF-16 unit.
#[derive(Clone, Copy)]
struct Entry {
    prefix: u32,
    unit: u16,
    first: u16,
    len: u32,
}

const NONE: u32 = u32::MAX;

/// The dictionary: entries 0 to 2 are the codes, then one per character or phrase.
struct Dict {
    entries: Vec<Entry>,
}

impl Dict {
    fn push_unit(&mut self, unit: u16) {
        self.entries.push(Entry {
            prefix: NONE,
            unit,
            first: unit,
            len: 1,
        });
    }

    fn push_phrase(&mut self, prefix: u32, unit: u16) {
        let p = self.entries[prefix as usize];
        self.entries.push(Entry {
            prefix,
            unit,
            first: p.first,
            len: p.len + 1,
        });
    }

    /// Append entry `code` to `out`.
    fn write(&self, code: u32, out: &mut Vec<u16>) {
        let len = self.entries[code as usize].len as usize;
        let start = out.len();
        out.resize(start + len, 0);
        let mut c = code;
        for slot in out[start..].iter_mut().rev() {
            let e = self.entries[c as usize];
            *slot = e.unit;
            c = e.prefix;
        }
    }
}

/// Decompress `input` (lz-string `compressToBase64` output, `=` padding and blanks allowed)
/// into text of at most `limit` UTF-16 units.
pub fn decompress_base64(input: &str, limit: usize) -> Result<String, LzError> {
    let clean: Vec<u8> = input
        .bytes()
        .filter(|&b| b != b'=' && !b.is_ascii_whitespace())
        .collect();
    if clean.is_empty() {
        return Ok(String::new());
    }
    let mut bits = Bits::new(&clean)?;
    let mut dict = Dict {
        entries: vec![
            Entry {
                prefix: NONE,
                unit: 0,
                first: 0,
                len: 0,
            };
            3
        ],
    };
    let mut out: Vec<u16> = Vec::new();
    let unit = match bits.read(2)? {
        0 => bits.read(8)? as u16,
        1 => bits.read(16)? as u16,
        _ => return Ok(String::new()),
    };
    dict.push_unit(unit);
    let mut w = 3u32;
    out.push(unit);
    let mut enlarge_in = 4u32;
    let mut num_bits = 3u32;
    loop {
        if bits.index > clean.len() + 1 {
            return Err(LzError::Corrupt);
        }
        let mut code = bits.read(num_bits)?;
        match code {
            0 | 1 => {
                let unit = bits.read(if code == 0 { 8 } else { 16 })? as u16;
                dict.push_unit(unit);
                code = dict.entries.len() as u32 - 1;
                enlarge_in -= 1;
            }
            2 => return Ok(String::from_utf16_lossy(&out)),
            _ => {}
        }
        if enlarge_in == 0 {
            enlarge_in = 1 << num_bits;
            num_bits += 1;
        }
        let size = dict.entries.len() as u32;
        let first = if code < size {
            dict.write(code, &mut out);
            dict.entries[code as usize].first
        } else if code == size {
            // The entry being defined: w plus w's first unit.
            let first = dict.entries[w as usize].first;
            dict.write(w, &mut out);
            out.push(first);
            first
        } else {
            return Err(LzError::Corrupt);
        };
        if out.len() > limit {
            return Err(LzError::TooLong(limit));
        }
        dict.push_phrase(w, first);
        w = if code == size { size } else { code };
        enlarge_in -= 1;
        if enlarge_in == 0 {
            enlarge_in = 1 << num_bits;
            num_bits += 1;
        }
        if num_bits > 31 {
            return Err(LzError::Corrupt);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Vectors from lz-string 1.5.0's compressToBase64 (node).
    const VECTORS: &[(&str, &str)] = &[
        ("", "Q==="),
        ("", ""),
        ("a", "IZA="),
        ("hello, hello, hello", "BYUwNmD2A0AEoRvcUg=="),
        (
            "{\"size\":4,\"grid\":[[{},{}]]}",
            "N4IgzglgXgpiBcAWANCA5gJwgEwQbT2AF9liBdMooA==",
        ),
        ("ééé ünïcödé ☃", "JcgEB+DsHuGMDeAmxSGAyIA="),
        (
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab",
            "IY18ZXTvARkA",
        ),
    ];

    #[test]
    fn vectors_from_the_library() {
        for &(text, b64) in VECTORS {
            assert_eq!(decompress_base64(b64, 1 << 20).unwrap(), text, "{b64}");
        }
    }

    #[test]
    fn bad_input_is_an_error_not_a_panic() {
        assert_eq!(decompress_base64("N4Ig*", 100), Err(LzError::BadChar('*')));
        for junk in [
            "N4Ig",
            "////////",
            "AAAA",
            "N4IgzglgXgpiBcAWANCA5gJwgEwQbT2A",
        ] {
            let _ = decompress_base64(junk, 1000);
        }
        assert!(matches!(
            decompress_base64("N4IgzglgXgpiBcAWANCA5gJwgEwQbT2AF9liBdMooA==", 5),
            Err(LzError::TooLong(5))
        ));
    }
}
