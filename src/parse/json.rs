//! A small JSON reader for f-puzzles files (the library builds without serde_json): a value
//! tree, objects keeping their members in order. Nesting deeper than [`MAX_DEPTH`] is an
//! error, never a stack overflow.

/// The deepest nesting read (f-puzzles files nest four deep).
pub const MAX_DEPTH: usize = 64;

/// A JSON value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number.
    Number(f64),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<Value>),
    /// An object, members in order.
    Object(Vec<(String, Value)>),
}

impl Value {
    /// The member `key` of an object.
    pub fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Object(m) => m.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The elements of an array (none for other values).
    pub fn items(&self) -> &[Value] {
        match self {
            Value::Array(a) => a,
            _ => &[],
        }
    }

    /// A string's text.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// True for `null`, `false`, an empty array, string or object.
    pub fn is_empty(&self) -> bool {
        match self {
            Value::Null | Value::Bool(false) => true,
            Value::String(s) => s.is_empty(),
            Value::Array(a) => a.is_empty(),
            Value::Object(m) => m.is_empty(),
            _ => false,
        }
    }
}

/// As JSON text, for messages: `"R1C1"`, `1`, `true`, `[1,2]`; long values end in `…`.
impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        /// Characters of a value shown in a message before it is cut.
        const MOST: usize = 60;
        let mut text = String::new();
        self.write(&mut text);
        match text.char_indices().nth(MOST) {
            Some((cut, _)) => write!(f, "{}…", &text[..cut]),
            None => f.write_str(&text),
        }
    }
}

impl Value {
    fn write(&self, out: &mut String) {
        use std::fmt::Write as _;
        match self {
            Value::Null => out.push_str("null"),
            Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            // Whole numbers without a fraction, as the file most likely has them.
            Value::Number(x) if x.fract() == 0.0 && x.abs() < 1e15 => {
                let _ = write!(out, "{}", *x as i64);
            }
            Value::Number(x) => {
                let _ = write!(out, "{x}");
            }
            Value::String(s) => {
                let _ = write!(out, "{s:?}");
            }
            Value::Array(a) => {
                out.push('[');
                for (i, v) in a.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    v.write(out);
                }
                out.push(']');
            }
            Value::Object(m) => {
                out.push('{');
                for (i, (k, v)) in m.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    let _ = write!(out, "{k:?}:");
                    v.write(out);
                }
                out.push('}');
            }
        }
    }
}

/// The byte offset in `text` (a JSON object, valid) of its member `key`'s value, or, along
/// `path`, of the element `path[0]` of that array, then of that element's element `path[1]`,
/// and so on (as far as the arrays go). `None` where the object has no such member.
pub fn locate(text: &str, key: &str, path: &[usize]) -> Option<usize> {
    let mut p = Parser {
        s: text.as_bytes(),
        i: 0,
    };
    if !p.eat(b'{') || p.eat(b'}') {
        return None;
    }
    loop {
        p.blanks();
        let name = p.string().ok()?;
        if !p.eat(b':') {
            return None;
        }
        p.blanks();
        if name == key {
            return Some(p.element(path));
        }
        p.value(1).ok()?;
        if !p.eat(b',') {
            return None;
        }
    }
}

/// A syntax error: the byte offset and what was expected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonError {
    /// Byte offset in the text.
    pub at: usize,
    /// What went wrong.
    pub message: String,
}

/// Parse one JSON value (blanks around it allowed, nothing else).
pub fn parse(text: &str) -> Result<Value, JsonError> {
    let mut p = Parser {
        s: text.as_bytes(),
        i: 0,
    };
    let v = p.value(0)?;
    p.blanks();
    if p.i < p.s.len() {
        return Err(p.error("the end of the JSON value"));
    }
    Ok(v)
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn error(&self, expected: &str) -> JsonError {
        JsonError {
            at: self.i,
            message: match self.s.get(self.i) {
                // The character that starts there (a byte of UTF-8 is not one by itself).
                Some(&b) if b >= 0x80 => {
                    let rest = &self.s[self.i..self.s.len().min(self.i + 4)];
                    let valid = match std::str::from_utf8(rest) {
                        Ok(t) => t,
                        Err(e) => std::str::from_utf8(&rest[..e.valid_up_to()]).unwrap_or(""),
                    };
                    match valid.chars().next() {
                        Some(c) => format!("expected {expected}, found {c:?}"),
                        None => format!("expected {expected}, found the byte 0x{b:02X}"),
                    }
                }
                Some(&b) => format!("expected {expected}, found {:?}", char::from(b)),
                None => format!("expected {expected}, found the end of the text"),
            },
        }
    }

    fn blanks(&mut self) {
        while self.s.get(self.i).is_some_and(|b| b" \t\r\n".contains(b)) {
            self.i += 1;
        }
    }

    fn eat(&mut self, b: u8) -> bool {
        self.blanks();
        if self.s.get(self.i) == Some(&b) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn value(&mut self, depth: usize) -> Result<Value, JsonError> {
        if depth > MAX_DEPTH {
            return Err(self.error(&format!("at most {MAX_DEPTH} levels of nesting")));
        }
        self.blanks();
        match self.s.get(self.i) {
            Some(b'{') => {
                self.i += 1;
                let mut members = Vec::new();
                if self.eat(b'}') {
                    return Ok(Value::Object(members));
                }
                loop {
                    self.blanks();
                    let key = self.string()?;
                    if !self.eat(b':') {
                        return Err(self.error("':'"));
                    }
                    members.push((key, self.value(depth + 1)?));
                    if self.eat(b'}') {
                        return Ok(Value::Object(members));
                    }
                    if !self.eat(b',') {
                        return Err(self.error("',' or '}'"));
                    }
                }
            }
            Some(b'[') => {
                self.i += 1;
                let mut items = Vec::new();
                if self.eat(b']') {
                    return Ok(Value::Array(items));
                }
                loop {
                    items.push(self.value(depth + 1)?);
                    if self.eat(b']') {
                        return Ok(Value::Array(items));
                    }
                    if !self.eat(b',') {
                        return Err(self.error("',' or ']'"));
                    }
                }
            }
            Some(b'"') => self.string().map(Value::String),
            Some(b't') => self.word("true", Value::Bool(true)),
            Some(b'f') => self.word("false", Value::Bool(false)),
            Some(b'n') => self.word("null", Value::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => Err(self.error("a JSON value")),
        }
    }

    /// The offset of the element along `path` below the value here (see [`locate`]): the
    /// deepest one reached where an array ends early or a value is not an array.
    fn element(&mut self, path: &[usize]) -> usize {
        let mut at = self.i;
        for &k in path {
            self.i = at;
            if !self.eat(b'[') || self.eat(b']') {
                break;
            }
            for _ in 0..k {
                if self.value(1).is_err() || !self.eat(b',') {
                    return at;
                }
            }
            self.blanks();
            at = self.i;
        }
        at
    }

    fn word(&mut self, w: &str, v: Value) -> Result<Value, JsonError> {
        if self.s[self.i..].starts_with(w.as_bytes()) {
            self.i += w.len();
            Ok(v)
        } else {
            Err(self.error(w))
        }
    }

    fn number(&mut self) -> Result<Value, JsonError> {
        let start = self.i;
        while self
            .s
            .get(self.i)
            .is_some_and(|b| b"+-.eE".contains(b) || b.is_ascii_digit())
        {
            self.i += 1;
        }
        std::str::from_utf8(&self.s[start..self.i])
            .ok()
            .and_then(|t| t.parse::<f64>().ok())
            .map(Value::Number)
            .ok_or(JsonError {
                at: start,
                message: "a malformed number".into(),
            })
    }

    fn hex4(&mut self) -> Result<u16, JsonError> {
        let digits = self
            .s
            .get(self.i..self.i + 4)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u16::from_str_radix(h, 16).ok())
            .ok_or_else(|| self.error("four hex digits"))?;
        self.i += 4;
        Ok(digits)
    }

    fn string(&mut self) -> Result<String, JsonError> {
        if self.s.get(self.i) != Some(&b'"') {
            return Err(self.error("a string"));
        }
        self.i += 1;
        let mut out: Vec<u8> = Vec::new();
        let mut units: Vec<u16> = Vec::new();
        loop {
            let Some(&b) = self.s.get(self.i) else {
                return Err(self.error("the string's closing '\"'"));
            };
            self.i += 1;
            if b != b'\\' && !units.is_empty() {
                out.extend(String::from_utf16_lossy(&units).bytes());
                units.clear();
            }
            match b {
                b'"' => {
                    return Ok(String::from_utf8_lossy(&out).into_owned());
                }
                b'\\' => {
                    let Some(&e) = self.s.get(self.i) else {
                        return Err(self.error("an escape"));
                    };
                    self.i += 1;
                    if e == b'u' {
                        units.push(self.hex4()?);
                        continue;
                    }
                    if !units.is_empty() {
                        out.extend(String::from_utf16_lossy(&units).bytes());
                        units.clear();
                    }
                    out.push(match e {
                        b'"' => b'"',
                        b'\\' => b'\\',
                        b'/' => b'/',
                        b'b' => 8,
                        b'f' => 12,
                        b'n' => b'\n',
                        b'r' => b'\r',
                        b't' => b'\t',
                        _ => {
                            self.i -= 1;
                            return Err(
                                self.error("an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u)")
                            );
                        }
                    });
                }
                _ => out.push(b),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values() {
        let v = parse(r#" {"a": [1, -2.5e1, true, null], "b": "x\"\u00e9\ud83d\ude00", "c": {}} "#)
            .unwrap();
        assert_eq!(
            v.get("a").unwrap().items(),
            &[
                Value::Number(1.0),
                Value::Number(-25.0),
                Value::Bool(true),
                Value::Null
            ]
        );
        assert_eq!(v.get("b").unwrap().as_str(), Some("x\"é😀"));
        assert!(v.get("c").unwrap().is_empty());
    }

    #[test]
    fn errors() {
        assert!(parse("{\"a\" 1}").unwrap_err().message.contains("':'"));
        assert!(parse("[1,]").is_err());
        assert!(parse("[1] x").is_err());
        assert!(parse("\"abc").is_err());
        assert!(parse(&"[".repeat(10_000)).is_err());
        // A character beyond ASCII is named whole, a byte that starts none as a byte.
        let e = parse("[é]").unwrap_err().message;
        assert!(e.ends_with("found 'é'"), "{e}");
        let e = parse("[1, 😀]").unwrap_err().message;
        assert!(e.ends_with("found '😀'"), "{e}");
        let bytes = [b'[', 0xFF, b']'];
        let e = parse(&String::from_utf8_lossy(&bytes)).unwrap_err().message;
        assert!(e.ends_with("found '\u{fffd}'"), "{e}");
    }

    #[test]
    fn values_display_as_json() {
        let v = parse(r#"{"a":[1,2.5,-3,true,null,"x\"y"],"b":{}}"#).unwrap();
        assert_eq!(v.to_string(), r#"{"a":[1,2.5,-3,true,null,"x\"y"],"b":{}}"#);
        let long = parse(&format!("[{}]", vec!["1"; 100].join(","))).unwrap();
        let shown = long.to_string();
        assert!(
            shown.ends_with('…') && shown.chars().count() == 61,
            "{shown}"
        );
    }

    #[test]
    fn members_and_elements_are_located() {
        let text = r#"{ "a": 1, "b" : [ [1, "x,]"], {"c": [2]} , 3 ], "c":{"d":[]} }"#;
        let at = |key, path: &[usize]| locate(text, key, path).map(|i| &text[i..i + 3]);
        assert_eq!(at("a", &[]), Some("1, "));
        assert_eq!(at("b", &[]), Some("[ ["));
        assert_eq!(at("b", &[0]), Some("[1,"));
        assert_eq!(at("b", &[0, 1]), Some("\"x,"));
        assert_eq!(at("b", &[1]), Some("{\"c"));
        assert_eq!(at("b", &[2]), Some("3 ]"));
        // Past the array's end or into a non-array: the deepest place reached.
        assert_eq!(at("b", &[3]), Some("[ ["));
        assert_eq!(at("b", &[2, 0]), Some("3 ]"));
        assert_eq!(at("c", &[]), Some("{\"d"));
        // Only the top object's members: "c" inside "b" is not it, "d" is not one.
        assert_eq!(at("d", &[]), None);
        assert_eq!(locate("[1]", "a", &[]), None);
    }
}
