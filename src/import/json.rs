//! JSON helpers shared by the importers: recognising an input by its top-level
//! keys, reading it with a bound on the values it may hold, messages that name
//! the line or the field, and a field reader that remembers which fields were
//! read (so the others can be named in a notice).

use super::{thousands, ImportError, InputKind, MAX_JSON_VALUES};
use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use std::cell::RefCell;
use std::collections::BTreeSet;
use std::fmt;

/// Top-level keys kept for recognition.
const DETECT_KEYS: usize = 64;

/// What the top level of a JSON text holds (as far as it parses).
#[derive(Debug, Default)]
struct Shape {
    object: bool,
    array: bool,
    keys: Vec<String>,
    /// First array element: a string?
    first_string: Option<String>,
    first_is_other: bool,
    len: usize,
}

struct ShapeSeed<'a>(&'a mut Shape);

impl<'de> DeserializeSeed<'de> for ShapeSeed<'_> {
    type Value = ();
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ShapeSeed<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object or array")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<(), A::Error> {
        self.0.object = true;
        while let Some(k) = m.next_key::<String>()? {
            if self.0.keys.len() < DETECT_KEYS {
                self.0.keys.push(k);
            }
            m.next_value::<IgnoredAny>()?;
        }
        Ok(())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<(), A::Error> {
        self.0.array = true;
        while let Some(v) = s.next_element::<FirstElem>()? {
            if self.0.len == 0 {
                match v {
                    FirstElem::Str(s) => self.0.first_string = Some(s),
                    FirstElem::Other => self.0.first_is_other = true,
                }
            }
            self.0.len += 1;
        }
        Ok(())
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }
}

enum FirstElem {
    Str(String),
    Other,
}

impl<'de> de::Deserialize<'de> for FirstElem {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = FirstElem;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("anything")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<FirstElem, E> {
                Ok(FirstElem::Str(s.chars().take(300).collect()))
            }
            fn visit_map<A: MapAccess<'de>>(self, m: A) -> Result<FirstElem, A::Error> {
                IgnoredAny.visit_map(m)?;
                Ok(FirstElem::Other)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, s: A) -> Result<FirstElem, A::Error> {
                IgnoredAny.visit_seq(s)?;
                Ok(FirstElem::Other)
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<FirstElem, E> {
                Ok(FirstElem::Other)
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<FirstElem, E> {
                Ok(FirstElem::Other)
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<FirstElem, E> {
                Ok(FirstElem::Other)
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<FirstElem, E> {
                Ok(FirstElem::Other)
            }
            fn visit_unit<E: de::Error>(self) -> Result<FirstElem, E> {
                Ok(FirstElem::Other)
            }
        }
        d.deserialize_any(V)
    }
}

/// Recognise a JSON input by its top-level keys (a truncated or broken text is
/// recognised by the keys before the damage, so its parser can name the damage).
pub(super) fn detect(text: &str) -> InputKind {
    let mut shape = Shape::default();
    let mut de = serde_json::Deserializer::from_str(text);
    let _ = ShapeSeed(&mut shape).deserialize(&mut de);
    let has = |k: &str| shape.keys.iter().any(|x| x == k);
    if shape.array {
        return match (&shape.first_string, shape.first_is_other) {
            (Some(s), _) if super::looks_like_topic_name(s) => InputKind::PulsarTopicList,
            (None, false) if shape.len == 0 => InputKind::PulsarTopicList,
            _ => InputKind::Unknown,
        };
    }
    if !shape.object {
        return InputKind::Unknown;
    }
    if has("format") && has("system") {
        InputKind::LbscopeScenario
    } else if has("taskmanagers") {
        InputKind::FlinkTaskManagers
    } else if has("jid") && has("vertices") {
        InputKind::FlinkJobDetails
    } else if has("plan") || (has("jid") && has("nodes")) {
        InputKind::FlinkJobPlan
    } else if has("nodes") {
        InputKind::FlinkExecutionPlan
    } else if has("boundaries") {
        InputKind::PulsarBundles
    } else if has("systemResourceUsage") {
        InputKind::PulsarLoadReport
    } else if has("lastStats") || has("loadReportType") || has("webServiceUrl") || has("bandwidthIn") {
        InputKind::PulsarLocalBrokerData
    } else if has("msgRateIn") || has("publishers") || has("subscriptions") || has("msgThroughputIn") {
        InputKind::PulsarUnnamedTopicStats
    } else {
        InputKind::Unknown
    }
}

/// The byte that opens a JSON object (a named constant, so that a lone brace
/// in a byte literal does not read as the start of a block).
pub(super) const OBJECT_OPEN: u8 = b'{';
/// The byte that opens a JSON array.
pub(super) const ARRAY_OPEN: u8 = b'[';

/// Count the JSON values of `text` from its structure (commas and openings
/// outside strings), refusing before parsing when there are too many.
pub(super) fn check_value_count(input: &str, text: &str, max: usize) -> Result<(), ImportError> {
    let mut n = 1usize;
    let mut in_str = false;
    let mut esc = false;
    let mut line = 1usize;
    for b in text.bytes() {
        if b == b'\n' {
            line += 1;
        }
        if in_str {
            if esc {
                esc = false;
            } else if b == b'\\' {
                esc = true;
            } else if b == b'"' {
                in_str = false;
            }
            continue;
        }
        match b {
            b'"' => in_str = true,
            b',' | ARRAY_OPEN | OBJECT_OPEN => {
                n += 1;
                if n > max {
                    return Err(ImportError::too_large(
                        input,
                        format!(
                            "line {line}: more than {} JSON values; lbscope reads at most that many from one input",
                            thousands(max)
                        ),
                    ));
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// Parse a whole JSON input (bounded by [`MAX_JSON_VALUES`]).
pub(super) fn parse(input: &str, text: &str) -> Result<Value, ImportError> {
    check_value_count(input, text, MAX_JSON_VALUES)?;
    serde_json::from_str(text.trim_start_matches('\u{feff}')).map_err(|e| error(input, &e))
}

/// A serde_json error as a message with its line and column.
pub(super) fn error(input: &str, e: &serde_json::Error) -> ImportError {
    use serde_json::error::Category;
    let at = format!("line {} column {}", e.line(), e.column());
    let message = match e.classify() {
        Category::Eof => format!("the JSON ends early at {at} (is the text cut short?)"),
        Category::Syntax => {
            let m = e.to_string();
            let m = m.split(" at line ").next().unwrap_or(&m).to_string();
            if m.contains("recursion limit") {
                format!("{at}: the JSON nests deeper than lbscope reads (128 levels)")
            } else {
                format!("{at}: not valid JSON ({m})")
            }
        }
        Category::Data => {
            let m = e.to_string();
            let m = m.split(" at line ").next().unwrap_or(&m).to_string();
            format!("{at}: {m}")
        }
        Category::Io => format!("{at}: {e}"),
    };
    ImportError::bad(input, message)
}

/// A JSON object being read: remembers the fields read, so the others can be
/// named; every error names the field by its path (`nodes[3].parallelism`).
pub(super) struct Obj<'a> {
    map: &'a Map<String, Value>,
    /// Path of this object, e.g. `nodes[3]` (empty at the top).
    pub path: String,
    input: &'a str,
    used: RefCell<BTreeSet<&'a str>>,
}

/// The JSON type of a value, for messages.
pub(super) fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

impl<'a> Obj<'a> {
    /// Read `v` (which must be an object) at `path`.
    pub fn new(input: &'a str, v: &'a Value, path: &str) -> Result<Obj<'a>, ImportError> {
        match v {
            Value::Object(map) => Ok(Obj {
                map,
                path: path.to_string(),
                input,
                used: RefCell::new(BTreeSet::new()),
            }),
            other => Err(ImportError::bad(
                input,
                format!("{}: expected an object, found {}", show(path), kind_of(other)),
            )),
        }
    }

    /// The path of field `k`.
    pub fn field(&self, k: &str) -> String {
        if self.path.is_empty() {
            k.to_string()
        } else {
            format!("{}.{k}", self.path)
        }
    }

    /// An error about field `k`.
    pub fn err(&self, k: &str, what: impl fmt::Display) -> ImportError {
        ImportError::bad(self.input, format!("{}: {what}", self.field(k)))
    }

    /// The raw value of `k` (marks it read); `null` counts as absent.
    pub fn get(&self, k: &str) -> Option<&'a Value> {
        let (key, v) = self.map.get_key_value(k)?;
        self.used.borrow_mut().insert(key.as_str());
        (!v.is_null()).then_some(v)
    }

    /// Mark fields as read without reading them.
    pub fn touch(&self, keys: &[&str]) {
        for k in keys {
            let _ = self.get(k);
        }
    }

    /// Field `k` as a string, if present.
    pub fn str(&self, k: &str) -> Result<Option<&'a str>, ImportError> {
        match self.get(k) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(v) => Err(self.err(k, format!("expected a string, found {}", kind_of(v)))),
        }
    }

    /// Field `k` as a string; an error when absent.
    pub fn req_str(&self, k: &str) -> Result<&'a str, ImportError> {
        self.str(k)?.ok_or_else(|| self.err(k, "missing"))
    }

    /// Field `k` as a non-negative whole number (a string of digits is accepted,
    /// as some REST fields are written as strings).
    pub fn u64(&self, k: &str) -> Result<Option<u64>, ImportError> {
        match self.get(k) {
            None => Ok(None),
            Some(Value::Number(n)) => n
                .as_u64()
                .map(Some)
                .ok_or_else(|| self.err(k, format!("expected a whole number of 0 or more, found {n}"))),
            Some(Value::String(s)) => s.trim().parse().map(Some).map_err(|_| {
                self.err(
                    k,
                    format!("expected a whole number, found {:?}", super::shorten(s, 40)),
                )
            }),
            Some(v) => Err(self.err(k, format!("expected a whole number, found {}", kind_of(v)))),
        }
    }

    /// Field `k` as a number (finite).
    pub fn f64(&self, k: &str) -> Result<Option<f64>, ImportError> {
        match self.get(k) {
            None => Ok(None),
            Some(Value::Number(n)) => match n.as_f64() {
                Some(x) if x.is_finite() => Ok(Some(x)),
                _ => Err(self.err(k, format!("expected a finite number, found {n}"))),
            },
            Some(v) => Err(self.err(k, format!("expected a number, found {}", kind_of(v)))),
        }
    }

    /// Field `k` as an array.
    pub fn arr(&self, k: &str) -> Result<Option<&'a Vec<Value>>, ImportError> {
        match self.get(k) {
            None => Ok(None),
            Some(Value::Array(a)) => Ok(Some(a)),
            Some(v) => Err(self.err(k, format!("expected an array, found {}", kind_of(v)))),
        }
    }

    /// Field `k` as an object.
    pub fn obj(&self, k: &str) -> Result<Option<Obj<'a>>, ImportError> {
        match self.get(k) {
            None => Ok(None),
            Some(v) => Obj::new(self.input, v, &self.field(k)).map(Some),
        }
    }

    /// The input's name.
    pub fn input(&self) -> &'a str {
        self.input
    }

    /// The raw map.
    pub fn map(&self) -> &'a Map<String, Value> {
        self.map
    }

    /// Fields present but never read (with their path).
    pub fn unused(&self) -> Vec<String> {
        let used = self.used.borrow();
        self.map
            .keys()
            .filter(|k| !used.contains(k.as_str()))
            .map(|k| k.to_string())
            .collect()
    }
}

fn show(path: &str) -> &str {
    if path.is_empty() {
        "the top level"
    } else {
        path
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn value_count_is_bounded_before_parsing() {
        assert!(check_value_count("x", "[1,2,3]", 10).is_ok());
        let err = check_value_count("x", "[1,\n2,3,4]", 3).unwrap_err();
        assert_eq!(
            err.to_string(),
            "x: line 2: more than 3 JSON values; lbscope reads at most that many from one input"
        );
        // Commas inside strings do not count.
        assert!(check_value_count("x", r#"["a,b,c,d,e"]"#, 2).is_ok());
    }

    #[test]
    fn json_errors_name_the_line() {
        let e = parse("p", "{\n\"a\": [1,\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "p: the JSON ends early at line 3 column 0 (is the text cut short?)"
        );
        let e = parse("p", "{\"a\" 1}").unwrap_err();
        assert!(
            e.to_string()
                .starts_with("p: line 1 column 6: not valid JSON (expected `:`"),
            "{e}"
        );
        let deep = "[".repeat(200);
        let e = parse("p", &deep).unwrap_err();
        assert!(e.to_string().contains("nests deeper"), "{e}");
    }

    #[test]
    fn fields_read_are_remembered() {
        let v: Value = serde_json::from_str(r#"{"a": 1, "b": "x", "c": null, "d": -1}"#).unwrap();
        let o = Obj::new("i", &v, "top").unwrap();
        assert_eq!(o.u64("a").unwrap(), Some(1));
        assert_eq!(o.str("c").unwrap(), None);
        assert_eq!(o.unused(), vec!["b".to_string(), "d".to_string()]);
        assert_eq!(
            o.u64("d").unwrap_err().to_string(),
            "i: top.d: expected a whole number of 0 or more, found -1"
        );
        assert_eq!(
            o.str("a").unwrap_err().to_string(),
            "i: top.a: expected a string, found a number"
        );
    }
}
