//! Input in UTF-16, decoded to UTF-8 as it is read: what Windows tools write for "Unicode" text
//! (Notepad's "UTF-16 LE", PowerShell 5's `>` and `Out-File`). It is told at the start of the
//! input by its byte-order mark (`FF FE` or `FE FF`), or, without one, by a first line whose
//! every other byte is zero (ASCII in UTF-16). Any other input passes through untouched.

use std::io::{self, BufRead, Read};

/// How the input's bytes are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Encoding {
    /// Not looked at yet.
    Unknown,
    /// Bytes as they are (UTF-8, ASCII, or anything else, reported by the reader).
    Plain,
    /// UTF-16, big-endian or not.
    Utf16 { big: bool },
}

/// Bytes of UTF-16 decoded at a time.
const CHUNK: usize = 8 << 10;

/// The replacement character, for a code unit cut off by the end of the input or a surrogate
/// without its other half.
const REPLACEMENT: char = '\u{FFFD}';

/// `input.fill_buf()`, tried again where a signal interrupted it.
pub(super) fn fill<R: BufRead>(input: &mut R) -> io::Result<&[u8]> {
    loop {
        match input.fill_buf() {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
            Ok([]) => return Ok(&[]),
            // (Asked again to return it: data in the buffer is given without a read.)
            Ok(_) => return input.fill_buf(),
        }
    }
}

/// A [`BufRead`] over `inner` that gives UTF-16 input as UTF-8 (see the module docs).
#[derive(Debug)]
pub(super) struct Input<R> {
    inner: R,
    encoding: Encoding,
    /// Decoded bytes; those from `pos` on are not consumed yet.
    out: Vec<u8>,
    pos: usize,
    /// The first byte of a code unit whose second the next read brings.
    odd: Option<u8>,
    /// A high surrogate waiting for its low half.
    high: Option<u16>,
}

impl<R: BufRead> Input<R> {
    pub(super) fn new(inner: R) -> Self {
        Input {
            inner,
            encoding: Encoding::Unknown,
            out: Vec::new(),
            pos: 0,
            odd: None,
            high: None,
        }
    }

    /// Look at the start of the input (its first four bytes, however the reads cut them):
    /// UTF-16 or not. What was read to tell is given back first, decoded or as it was.
    fn detect(&mut self) -> io::Result<()> {
        let mut head = [0u8; 4];
        let mut len = 0;
        while len < head.len() {
            let buf = fill(&mut self.inner)?;
            if buf.is_empty() {
                break;
            }
            let take = buf.len().min(head.len() - len);
            head[len..len + take].copy_from_slice(&buf[..take]);
            self.inner.consume(take);
            len += take;
        }
        let head = &head[..len];
        let (encoding, mark) = match *head {
            // UTF-32 (little-endian) starts the same way: not read here.
            [0xFF, 0xFE, 0, 0] => (Encoding::Plain, 0),
            [0xFF, 0xFE, ..] => (Encoding::Utf16 { big: false }, 2),
            [0xFE, 0xFF, ..] => (Encoding::Utf16 { big: true }, 2),
            [a, 0, b, 0] if a != 0 && b != 0 => (Encoding::Utf16 { big: false }, 0),
            [0, a, 0, b] if a != 0 && b != 0 => (Encoding::Utf16 { big: true }, 0),
            _ => (Encoding::Plain, 0),
        };
        self.encoding = encoding;
        match encoding {
            Encoding::Utf16 { big } => self.decode(&head[mark..], big),
            _ => self.out.extend_from_slice(head),
        }
        Ok(())
    }

    fn push(&mut self, c: char) {
        let mut bytes = [0u8; 4];
        self.out
            .extend_from_slice(c.encode_utf8(&mut bytes).as_bytes());
    }

    /// Decode one code unit.
    fn unit(&mut self, u: u16) {
        if let Some(h) = self.high.take() {
            if (0xDC00..=0xDFFF).contains(&u) {
                let c = 0x10000 + ((u32::from(h) - 0xD800) << 10) + (u32::from(u) - 0xDC00);
                self.push(char::from_u32(c).unwrap_or(REPLACEMENT));
                return;
            }
            self.push(REPLACEMENT);
        }
        if (0xD800..=0xDBFF).contains(&u) {
            self.high = Some(u);
        } else {
            self.push(char::from_u32(u32::from(u)).unwrap_or(REPLACEMENT));
        }
    }

    /// Decode `bytes`, the input's next, onto `out`.
    fn decode(&mut self, mut bytes: &[u8], big: bool) {
        let unit = |pair: [u8; 2]| {
            if big {
                u16::from_be_bytes(pair)
            } else {
                u16::from_le_bytes(pair)
            }
        };
        if let (Some(first), [second, rest @ ..]) = (self.odd, bytes) {
            self.odd = None;
            self.unit(unit([first, *second]));
            bytes = rest;
        }
        let mut pairs = bytes.chunks_exact(2);
        for pair in &mut pairs {
            self.unit(unit([pair[0], pair[1]]));
        }
        if let [last] = *pairs.remainder() {
            self.odd = Some(last);
        }
    }

    /// Decode the next chunk of the input into `out` (left empty at the end of the input).
    fn refill(&mut self, big: bool) -> io::Result<()> {
        self.out.clear();
        self.pos = 0;
        let mut chunk = [0u8; CHUNK];
        while self.out.is_empty() {
            let buf = fill(&mut self.inner)?;
            if buf.is_empty() {
                // The end: half a code unit, or half a pair, is no character.
                if self.high.take().is_some() {
                    self.push(REPLACEMENT);
                }
                if self.odd.take().is_some() {
                    self.push(REPLACEMENT);
                }
                return Ok(());
            }
            let take = buf.len().min(CHUNK);
            chunk[..take].copy_from_slice(&buf[..take]);
            self.inner.consume(take);
            self.decode(&chunk[..take], big);
        }
        Ok(())
    }
}

impl<R: BufRead> Read for Input<R> {
    fn read(&mut self, into: &mut [u8]) -> io::Result<usize> {
        let buf = self.fill_buf()?;
        let n = buf.len().min(into.len());
        into[..n].copy_from_slice(&buf[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Input<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.encoding == Encoding::Unknown {
            self.detect()?;
        }
        if self.pos < self.out.len() {
            return Ok(&self.out[self.pos..]);
        }
        match self.encoding {
            Encoding::Utf16 { big } => {
                self.refill(big)?;
                Ok(&self.out[self.pos..])
            }
            _ => self.inner.fill_buf(),
        }
    }

    fn consume(&mut self, n: usize) {
        if self.pos < self.out.len() {
            // What was decoded, or read to tell the encoding.
            self.pos = (self.pos + n).min(self.out.len());
        } else if !matches!(self.encoding, Encoding::Utf16 { .. }) {
            self.inner.consume(n);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decoded(bytes: &[u8], capacity: usize) -> String {
        let mut input = Input::new(io::BufReader::with_capacity(capacity, bytes));
        let mut out = Vec::new();
        input.read_to_end(&mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    fn utf16(text: &str, big: bool, mark: bool) -> Vec<u8> {
        let mut out = Vec::new();
        let units = mark
            .then_some(0xFEFF)
            .into_iter()
            .chain(text.encode_utf16());
        for u in units {
            out.extend(if big {
                u.to_be_bytes()
            } else {
                u.to_le_bytes()
            });
        }
        out
    }

    #[test]
    fn utf16_of_either_order_with_or_without_a_mark_reads_as_utf8() {
        let text = "53..7....\r\n# é, ✓ and 𝄞\n";
        for big in [false, true] {
            for mark in [false, true] {
                // Reads of every size, so that code units and pairs are cut between reads.
                for capacity in [1, 2, 3, 5, 64] {
                    assert_eq!(decoded(&utf16(text, big, mark), capacity), text);
                }
            }
        }
    }

    #[test]
    fn other_input_passes_through() {
        for text in ["", "5", "53", "\u{feff}53..7\n", "a\0b\0"] {
            let got = decoded(text.as_bytes(), 3);
            // Two ASCII characters each followed by a zero byte are UTF-16 without a mark.
            if text == "a\0b\0" {
                assert_eq!(got, "ab");
            } else {
                assert_eq!(got, text);
            }
        }
        // Not UTF-16: bytes that are no byte-order mark, and UTF-32's mark.
        for bytes in [&b"\xff\xff\x00"[..], b"\xff\xfe\x00\x00\x35\x00\x00\x00"] {
            let mut out = Vec::new();
            Input::new(bytes).read_to_end(&mut out).unwrap();
            assert_eq!(out, bytes);
        }
    }

    /// A read interrupted by a signal is tried again, at the start and later.
    #[test]
    fn interrupted_reads_are_tried_again() {
        struct Flaky<'a>(&'a [u8], bool);
        impl Read for Flaky<'_> {
            fn read(&mut self, into: &mut [u8]) -> io::Result<usize> {
                self.1 = !self.1;
                if self.1 {
                    return Err(io::ErrorKind::Interrupted.into());
                }
                let n = into.len().min(self.0.len()).min(3);
                into[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        for text in ["53..7....", "\u{feff}53", "a\0b\0c\0"] {
            let mut input = Input::new(io::BufReader::with_capacity(
                4,
                Flaky(text.as_bytes(), false),
            ));
            let mut out = Vec::new();
            while !fill(&mut input).unwrap().is_empty() {
                let buf = fill(&mut input).unwrap();
                out.extend_from_slice(buf);
                let n = buf.len();
                input.consume(n);
            }
            let want = if text.starts_with('a') { "abc" } else { text };
            assert_eq!(String::from_utf8(out).unwrap(), want);
        }
    }

    #[test]
    fn broken_utf16_gives_replacement_characters() {
        // A lone high surrogate, a lone low one, and an odd byte at the end.
        let bytes = [0xFF, 0xFE, 0x3D, 0xD8, b'1', 0, 0x00, 0xDC, b'2', 0, b'3'];
        assert_eq!(decoded(&bytes, 4), "\u{FFFD}1\u{FFFD}2\u{FFFD}");
        let bytes = [0xFF, 0xFE, b'1', 0, 0x3D, 0xD8];
        assert_eq!(decoded(&bytes, 64), "1\u{FFFD}");
    }
}
