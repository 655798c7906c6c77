//! Text that names from a scenario reach terminals and documents through.
//!
//! A shared link is untrusted input: a broker, instance, vertex or topic name
//! may hold ESC / OSC sequences (window titles, screen clears, OSC 8 links,
//! OSC 52 clipboard writes), C1 controls, bidirectional overrides, or the
//! noncharacters U+FFFE / U+FFFF that XML forbids. What lbscope prints for a
//! terminal replaces them with U+FFFD (as the importers do); JSON it prints
//! escapes them (`\u001b`), so the value read back is unchanged.

use std::borrow::Cow;

/// Whether `c` must not reach a terminal or an XML document as it is: a
/// control character (C0, DEL, C1), a bidirectional override or isolate, a
/// line or paragraph separator, or U+FFFE / U+FFFF.
pub fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{2028}' | '\u{2029}' | '\u{FFFE}' | '\u{FFFF}'
        )
}

/// `s` with every [`is_unsafe`] character but `keep` replaced by U+FFFD.
fn replace<'a>(s: &'a str, keep: &[char]) -> Cow<'a, str> {
    if !s.chars().any(|c| is_unsafe(c) && !keep.contains(&c)) {
        return Cow::Borrowed(s);
    }
    Cow::Owned(
        s.chars()
            .map(|c| {
                if is_unsafe(c) && !keep.contains(&c) {
                    '\u{FFFD}'
                } else {
                    c
                }
            })
            .collect(),
    )
}

/// One line for a terminal: every [`is_unsafe`] character (newlines too)
/// becomes U+FFFD.
pub fn line(s: &str) -> Cow<'_, str> {
    replace(s, &[])
}

/// A message for a terminal (it may span lines): as [`line`], but newlines
/// and tabs are kept.
pub fn message(s: &str) -> Cow<'_, str> {
    replace(s, &['\n', '\t'])
}

/// JSON text with every [`is_unsafe`] character that serde_json writes as it
/// is (DEL, C1, overrides, separators, U+FFFE / U+FFFF) written as a `\uXXXX`
/// escape instead: the same JSON value, safe to print. Such characters can
/// only be inside strings, so every one is replaced.
pub fn json(s: &str) -> Cow<'_, str> {
    let bad = |c: char| is_unsafe(c) && !matches!(c, '\n' | '\t' | '\r');
    if !s.chars().any(bad) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 16);
    for c in s.chars() {
        if bad(c) {
            out.push_str(&format!("\\u{:04x}", c as u32));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// A serde_json formatter around `F` that escapes every [`is_unsafe`]
/// character inside strings (see [`json`]), for JSON streamed to a terminal.
pub struct JsonFormatter<F>(pub F);

impl<F: serde_json::ser::Formatter> serde_json::ser::Formatter for JsonFormatter<F> {
    fn write_string_fragment<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        fragment: &str,
    ) -> std::io::Result<()> {
        // The fragments serde_json hands over hold no C0 character (those are
        // escaped separately), so this is only the rest.
        w.write_all(json(fragment).as_bytes())
    }

    fn write_null<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.write_null(w)
    }
    fn write_bool<W: ?Sized + std::io::Write>(&mut self, w: &mut W, v: bool) -> std::io::Result<()> {
        self.0.write_bool(w, v)
    }
    fn write_i64<W: ?Sized + std::io::Write>(&mut self, w: &mut W, v: i64) -> std::io::Result<()> {
        self.0.write_i64(w, v)
    }
    fn write_u64<W: ?Sized + std::io::Write>(&mut self, w: &mut W, v: u64) -> std::io::Result<()> {
        self.0.write_u64(w, v)
    }
    fn write_f64<W: ?Sized + std::io::Write>(&mut self, w: &mut W, v: f64) -> std::io::Result<()> {
        self.0.write_f64(w, v)
    }
    fn write_number_str<W: ?Sized + std::io::Write>(&mut self, w: &mut W, v: &str) -> std::io::Result<()> {
        self.0.write_number_str(w, v)
    }
    fn begin_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.begin_array(w)
    }
    fn end_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_array(w)
    }
    fn begin_array_value<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.0.begin_array_value(w, first)
    }
    fn end_array_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_array_value(w)
    }
    fn begin_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.begin_object(w)
    }
    fn end_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_object(w)
    }
    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.0.begin_object_key(w, first)
    }
    fn end_object_key<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_object_key(w)
    }
    fn begin_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.begin_object_value(w)
    }
    fn end_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_object_value(w)
    }
}

/// Write `v` as pretty JSON (two-space indent, as `to_string_pretty`), the
/// unsafe characters escaped, starting at indent `depth` (each new line after
/// the first gets `depth` more levels), without building the text first.
pub fn write_pretty<W: std::io::Write, T: serde::Serialize + ?Sized>(
    out: W,
    v: &T,
    depth: usize,
) -> serde_json::Result<()> {
    let f = JsonFormatter(Indented {
        inner: serde_json::ser::PrettyFormatter::with_indent(b"  "),
        extra: "  ".repeat(depth).into_bytes(),
    });
    let mut ser = serde_json::Serializer::with_formatter(out, f);
    v.serialize(&mut ser)
}

/// The pretty formatter, with `extra` written after every newline it writes.
struct Indented {
    inner: serde_json::ser::PrettyFormatter<'static>,
    extra: Vec<u8>,
}

/// Writes `extra` after every `\n` that passes through.
struct Nl<'a, W: ?Sized> {
    w: &'a mut W,
    extra: &'a [u8],
}

impl<W: ?Sized + std::io::Write> std::io::Write for Nl<'_, W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.write_all(buf)?;
        Ok(buf.len())
    }
    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        let mut rest = buf;
        while let Some(i) = rest.iter().position(|&b| b == b'\n') {
            self.w.write_all(&rest[..=i])?;
            self.w.write_all(self.extra)?;
            rest = &rest[i + 1..];
        }
        self.w.write_all(rest)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.w.flush()
    }
}

macro_rules! indented {
    ($($name:ident($($arg:ident: $ty:ty),*);)*) => {$(
        fn $name<W: ?Sized + std::io::Write>(&mut self, w: &mut W $(, $arg: $ty)*) -> std::io::Result<()> {
            let mut nl = Nl { w, extra: &self.extra };
            self.inner.$name(&mut nl $(, $arg)*)
        }
    )*};
}

impl serde_json::ser::Formatter for Indented {
    indented! {
        begin_array();
        end_array();
        begin_array_value(first: bool);
        end_array_value();
        begin_object();
        end_object();
        begin_object_key(first: bool);
        end_object_key();
        begin_object_value();
        end_object_value();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terminal_text_and_json_are_safe() {
        let hostile = "b\u{1b}]0;title\u{7}\u{1b}[2J\u{9b}31m\u{202e}x\u{FFFE}\u{FFFF}\r\n\tend";
        let l = line(hostile);
        assert!(!l.chars().any(is_unsafe), "{l:?}");
        assert_eq!(l.chars().filter(|&c| c == '\u{FFFD}').count(), 10);
        let m = message(hostile);
        assert!(m.contains("\n\tend") && !m.contains('\u{1b}'), "{m:?}");
        assert_eq!(line("plain é 名"), Cow::Borrowed("plain é 名"));
        // JSON: the same value back, nothing raw.
        let v = serde_json::json!({ "name": hostile, "n": [1, 2.5, null, true] });
        let plain = serde_json::to_string_pretty(&v).unwrap();
        let safe = json(&plain);
        assert!(!safe.chars().any(|c| is_unsafe(c) && c != '\n'), "{safe}");
        assert_eq!(serde_json::from_str::<serde_json::Value>(&safe).unwrap(), v);
        // The streamed writer: the pretty printer's bytes, escaped, indented.
        for depth in 0..3 {
            let mut out = Vec::new();
            write_pretty(&mut out, &v, depth).unwrap();
            let pad = "  ".repeat(depth);
            assert_eq!(
                String::from_utf8(out).unwrap(),
                safe.replace('\n', &format!("\n{pad}")),
                "depth {depth}"
            );
        }
    }
}
