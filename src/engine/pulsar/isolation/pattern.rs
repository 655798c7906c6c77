//! The regular expressions of the isolation policies, matched as Java's
//! `String.matches` (the whole name) with Java's default ASCII classes.
//!
//! Compiled by the `regex-lite` crate (a small engine: the web app carries a
//! fraction of the `regex` crate's code) with the meaning the `regex` crate gives a
//! pattern in its byte-oriented ASCII mode (`regex::bytes`, Unicode off), which is
//! how lbscope has always read them:
//!
//! * a name is matched byte by byte: `.` or `[^a]` takes one byte of a non-ASCII
//!   name. `regex-lite` matches characters, so a name with non-ASCII bytes is
//!   matched as the string of its bytes, each read as the character of the same
//!   number (`\xE9` in a pattern is that byte);
//! * `\d`, `\w`, `\s`, `\b`, POSIX classes and `(?i)` are ASCII-only in both;
//! * look-around, back-references, `\p{..}` classes are refused by both.
//!
//! A non-ASCII character of a pattern stands for its UTF-8 bytes, as in the `regex`
//! crate's bytes mode. What the two engines would read differently is refused
//! with a message, never matched differently: a non-ASCII character in a class,
//! the `u` flag, escapes of characters above `\xFF`, and (`regex-lite` refuses them itself) class intersection /
//! difference (`&&`, `--`, `~~`) and classes nested in classes. Patterns over
//! [`SIZE_LIMIT`] bytes compiled are refused; where that limit falls for a huge
//! repetition differs from the `regex` crate's count.

use std::fmt;

/// Most bytes a compiled pattern may take (refuses pathological patterns).
pub const SIZE_LIMIT: usize = 1 << 20;

/// A regular expression that must match a whole name (Java's `String.matches`).
#[derive(Clone)]
pub struct Pattern {
    source: String,
    re: regex_lite::Regex,
}

impl Pattern {
    /// Compile `source`; `Err` carries the reason.
    pub fn new(source: &str) -> Result<Pattern, String> {
        let refuse = |why: &dyn fmt::Display| format!("regex {source:?} does not compile: {why}");
        let translated = translate(source).map_err(|why| refuse(&why))?;
        let re = regex_lite::RegexBuilder::new(&format!("^(?:{translated})$"))
            .size_limit(SIZE_LIMIT)
            .build()
            .map_err(|e| refuse(&e))?;
        Ok(Pattern {
            source: source.to_string(),
            re,
        })
    }

    /// Whether the whole of `s` matches (byte by byte, see the module documentation).
    pub fn matches(&self, s: &str) -> bool {
        if s.is_ascii() {
            self.re.is_match(s)
        } else {
            let bytes: String = s.bytes().map(char::from).collect();
            self.re.is_match(&bytes)
        }
    }

    /// The pattern as written.
    pub fn as_str(&self) -> &str {
        &self.source
    }
}

impl PartialEq for Pattern {
    fn eq(&self, other: &Self) -> bool {
        self.source == other.source
    }
}

impl fmt::Debug for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.source)
    }
}

/// `source` as `regex-lite` is given it: a non-ASCII character outside a class
/// becomes its UTF-8 bytes (`ø` is `(?:\xC3\xB8)`, as the `regex` crate's bytes
/// mode reads it); `Err` for what the two would not read alike.
fn translate(source: &str) -> Result<String, String> {
    let mut out = String::with_capacity(source.len());
    // Inside a bracketed class (its nesting depth), and the class's first position
    // (where `]` and `^` are literal / negation).
    let mut class = 0usize;
    // Whether the `x` flag (whitespace and `#` comments ignored) is on, and what
    // it was when each open group began (a group's flags end with it).
    let mut verbose = false;
    let mut groups: Vec<bool> = Vec::new();
    let mut chars = source.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => {
                out.push(c);
                let Some((_, e)) = chars.next() else { break };
                out.push(e);
                check_escape(&source[i + 1 + e.len_utf8()..], e)?;
            }
            '[' => {
                out.push(c);
                if class > 0 && chars.peek().is_some_and(|&(_, n)| n == ':') {
                    // A POSIX class `[:name:]`: copy it through its `:]`.
                    for (_, n) in chars.by_ref() {
                        out.push(n);
                        if n == ']' {
                            break;
                        }
                    }
                    continue;
                }
                class += 1;
                if chars.peek().is_some_and(|&(_, n)| n == '^') {
                    out.push('^');
                    chars.next();
                }
                if chars.peek().is_some_and(|&(_, n)| n == ']') {
                    out.push(']');
                    chars.next();
                }
            }
            ']' if class > 0 => {
                out.push(c);
                class -= 1;
            }
            '(' if class == 0 && source[i + 1..].starts_with('?') => {
                open_flags_group(&source[i + 2..], &mut verbose, &mut groups)?;
                out.push(c);
            }
            '(' if class == 0 => {
                groups.push(verbose);
                out.push(c);
            }
            ')' if class == 0 => {
                if let Some(was) = groups.pop() {
                    verbose = was;
                }
                out.push(c);
            }
            c if !c.is_ascii() => {
                if class > 0 {
                    return Err(format!(
                        "{c:?} in a class is not ASCII (names are matched byte by byte)"
                    ));
                }
                out.push_str("(?:");
                for b in c.to_string().bytes() {
                    out.push_str(&format!("\\x{b:02X}"));
                }
                out.push(')');
            }
            c => out.push(c),
        }
    }
    Ok(out)
}

/// After the escape `\e`, with `rest` what follows it: `Err` for a `\x{…}`,
/// `\u` or `\U` naming a character beyond ASCII.
fn check_escape(rest: &str, e: char) -> Result<(), String> {
    let digits = match e {
        'x' => 2,
        'u' => 4,
        'U' => 8,
        _ => return Ok(()),
    };
    let braced = rest.strip_prefix('{');
    let hex = match braced {
        Some(r) => r.split('}').next().unwrap_or(""),
        None => rest.get(..digits).unwrap_or(""),
    };
    // `\xHH` is one byte; the other forms name a character, which the
    // `regex` crate's bytes mode matches as its UTF-8 bytes: kept to ASCII.
    let byte = e == 'x' && braced.is_none();
    if !byte && u32::from_str_radix(hex.trim(), 16).is_ok_and(|v| v > 0x7F) {
        return Err(format!("\\{e}{hex} is not ASCII (write a byte as \\xHH)"));
    }
    Ok(())
}

/// What may not follow a flags group `(?flags)`: it would repeat nothing.
const REPETITION: [char; 4] = ['*', '+', '?', '{'];

/// A `(?` group, with `rest` what follows the `?`: flags alone (`(?i)`) change
/// `verbose` from here on; a group (`(?i:…)`, `(?:…)`, `(?=…)`) is pushed on
/// `groups` with the `verbose` it began with.
fn open_flags_group(rest: &str, verbose: &mut bool, groups: &mut Vec<bool>) -> Result<(), String> {
    let flags = rest.split([':', ')']).next().unwrap_or("");
    let is_flags = flags.bytes().all(|f| f.is_ascii_alphabetic() || f == b'-');
    if is_flags && flags.contains('u') {
        return Err("the u flag (Unicode mode) is not supported".into());
    }
    let after = &rest[flags.len()..];
    // The `x` flag as these flags leave it (`-` turns the ones after it off).
    let x_after = |was: bool| match (flags.find('x'), flags.find('-')) {
        (Some(x), Some(minus)) => x < minus,
        (Some(_), None) => true,
        (None, _) => was,
    };
    if let Some(behind) = after.strip_prefix(')') {
        if is_flags {
            *verbose = x_after(*verbose);
        }
        // `(?i)*`, or in verbose mode `(?x) *`: `regex-lite` would
        // repeat what precedes the flags.
        if next_significant(behind, *verbose).starts_with(REPETITION) {
            return Err("repetition operator missing expression".into());
        }
    } else {
        groups.push(*verbose);
        if is_flags && after.starts_with(':') {
            *verbose = x_after(*verbose);
        }
    }
    Ok(())
}

/// `rest` from its first character that counts: in verbose mode whitespace and
/// `#` comments (to the end of the line) are skipped.
fn next_significant(mut rest: &str, verbose: bool) -> &str {
    if !verbose {
        return rest;
    }
    loop {
        let trimmed = rest.trim_start();
        match trimmed.strip_prefix('#') {
            Some(comment) => rest = comment.split_once('\n').map_or("", |(_, r)| r),
            None => return trimmed,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// How lbscope read the patterns before: the `regex` crate, bytes, Unicode off.
    fn reference(source: &str) -> Option<regex::bytes::Regex> {
        regex::bytes::RegexBuilder::new(&format!("^(?:{source})$"))
            .unicode(false)
            .size_limit(SIZE_LIMIT)
            .build()
            .ok()
    }

    /// Constructs refused here that the `regex` crate compiled.
    fn known_refusal(source: &str) -> bool {
        ["&&", "--", "~~", "[[", "(?u", "u)", "u:", "\\u", "\\U", "\\x{"]
            .iter()
            .any(|s| source.contains(s))
            || source.matches('[').count() > 1
            || (source.contains('[') && !source.is_ascii())
    }

    fn same_as_reference(source: &str, names: &[String]) -> Result<(), TestCaseError> {
        let ours = Pattern::new(source);
        match (reference(source), ours) {
            (Some(re), Ok(p)) => {
                for n in names {
                    prop_assert_eq!(re.is_match(n.as_bytes()), p.matches(n), "{:?} on {:?}", source, n);
                }
            }
            (None, Ok(_)) => prop_assert!(false, "{:?} compiles here only", source),
            (Some(_), Err(e)) => prop_assert!(known_refusal(source), "{:?} refused here only: {}", source, e),
            (None, Err(e)) => prop_assert!(e.contains("does not compile")),
        }
        Ok(())
    }

    const TOKENS: &[&str] = &[
        "a",
        "b",
        "B",
        "1",
        "-",
        "_",
        ".",
        "*",
        "+",
        "?",
        "*?",
        "{2}",
        "{1,3}",
        "{2,}",
        "|",
        "(",
        ")",
        "(?:",
        "(?i)",
        "(?-i)",
        "(?s)",
        "(?x)",
        " ",
        "#",
        "[",
        "]",
        "[^",
        "^",
        "$",
        "\\d",
        "\\w",
        "\\s",
        "\\D",
        "\\W",
        "\\b",
        "\\B",
        "\\.",
        "\\",
        "\\xE9",
        "\\xC3",
        "\\x2D",
        "\\x{FF}",
        "[a-z]",
        "[^a]",
        "[[:alpha:]]",
        "[[:^digit:]]",
        "[\\d-]",
        "\\A",
        "\\z",
        "\\pL",
        "(?=",
        "\\1",
        "ø",
        "&&",
        "\\n",
        "(?u)",
        "\\u00E9",
    ];
    const CHARS: &[&str] = &[
        "a", "b", "B", "A", "1", "2", "-", "_", ".", " ", "\n", "é", "ø", "Ã",
    ];

    /// A repetition right after a flags group, past verbose-mode whitespace or a
    /// comment, repeats nothing: refused, as the `regex` crate refuses it.
    #[test]
    fn repetition_after_flags_and_verbose_whitespace_is_refused() {
        for bad in [" (?x) *", "(?x)  +", "(?x)#c\n*", "a(?ix)\t?", "(?s)*"] {
            assert!(reference(bad).is_none(), "{bad:?}");
            assert!(Pattern::new(bad).is_err(), "{bad:?}");
        }
        // Whitespace is a literal outside verbose mode, so these repeat it.
        for good in [" (?i) *", "(?x)(?-x) *", "(?x: a) *", "((?x)) *"] {
            assert!(reference(good).is_some(), "{good:?}");
            assert!(Pattern::new(good).is_ok(), "{good:?}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]
        /// Random patterns from pieces of the syntax, random names: wherever both
        /// compile a pattern they match the same names, and what only the `regex`
        /// crate compiled is one of the constructs refused on purpose.
        #[test]
        fn matches_as_the_regex_crate_in_bytes_mode(
            pattern in proptest::collection::vec(proptest::sample::select(TOKENS), 0..7),
            names in proptest::collection::vec(proptest::collection::vec(proptest::sample::select(CHARS), 0..6), 1..12),
        ) {
            let source: String = pattern.concat();
            let names: Vec<String> = names.iter().map(|n| n.concat()).collect();
            same_as_reference(&source, &names)?;
        }
    }

    #[test]
    fn policy_like_patterns() {
        let names: Vec<String> = [
            "broker-1",
            "broker-12",
            "Broker-2",
            "brøker-3",
            "br\u{e9}ker-1",
            "tenant/ns",
            "tenant/ns-2",
            "t/x",
            "my-tenant/prod-eu",
            "10.0.0.1",
            "broker1.example.com",
            "",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        for p in [
            "broker-[12]",
            r"broker-\d+",
            "(?i)BROKER-.*",
            "my-tenant/.*",
            "tenant/ns(-\\d)?",
            ".*",
            "",
            r"10\.0\.0\.\d{1,3}",
            "br.ker-3",
            "br..ker-3",
            r"br\xC3\xB8ker-3",
            r"[^/]+/ns",
            "broker-(1|2)",
            r"\w+-\d",
            ".{0,5}",
            "a{1000000}",
            "(a|b",
            "[",
            "\\",
            "*",
            r"\p{L}+",
            "b(?=1)",
            r"(a)\1",
        ] {
            same_as_reference(p, &names).unwrap();
        }
        // A non-ASCII name is matched byte by byte, as before.
        let p = Pattern::new("br..ker-3").unwrap();
        assert!(p.matches("brøker-3"));
        assert!(!Pattern::new("br.ker-3").unwrap().matches("brøker-3"));
        assert!(Pattern::new("br\\xC3\\xB8ker-3").unwrap().matches("brøker-3"));
        assert!(Pattern::new("brøker-.").unwrap().matches("brøker-3"));
        assert!(Pattern::new("brø+ker").unwrap().matches("brøøker"));
        assert!(Pattern::new("[ø]").unwrap_err().contains("does not compile"));
        assert!(Pattern::new("(?u).").unwrap_err().contains("u flag"));
        assert!(Pattern::new("\\x{100}").unwrap_err().contains("not ASCII"));
    }
}
