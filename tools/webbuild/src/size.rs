//! `lbscope-webbuild size [FILE] [--top N]`: where the bytes of a wasm file go.
//!
//! Reads the module's sections and its `name` section (function names, which `dist --release`
//! keeps in a side copy of the optimised wasm, `webbuild/<out>-names.wasm` in cargo's target
//! directory), then prints the bytes per section, per crate (function bodies grouped by the crate their name belongs
//! to; the app's own code by module), the code that serde generated or instantiated, and the
//! largest functions. Each group's "gz" is its bodies compressed alone (deflate level 9): a
//! guide to what removing the group would save, not a share of the file's gzipped size.

use anyhow::{Context, Result};
use std::collections::HashMap;
use std::path::Path;
use wasmparser::{KnownCustom, Name, Parser, Payload, TypeRef};

/// One function body of the code section.
#[derive(Debug)]
pub struct Func {
    pub name: String,
    /// Bytes of the body (locals and instructions).
    pub size: usize,
    range: std::ops::Range<usize>,
}

#[derive(Debug, Default)]
pub struct Report {
    pub total: usize,
    /// (section, bytes), in file order; custom sections as `custom "<name>"`.
    pub sections: Vec<(String, usize)>,
    pub funcs: Vec<Func>,
    /// Bytes of the data segments (string literals, tables, the static data of the program).
    pub data: usize,
}

const SECTION_NAMES: [&str; 14] = [
    "custom",
    "type",
    "import",
    "function",
    "table",
    "memory",
    "global",
    "export",
    "start",
    "element",
    "code",
    "data",
    "data count",
    "tag",
];

/// Parse `bytes`: section sizes, every function body with its name (`func[N]` without one).
pub fn analyse(bytes: &[u8]) -> Result<Report> {
    let mut report = Report {
        total: bytes.len(),
        ..Default::default()
    };
    let mut imported_funcs = 0u32;
    let mut bodies = Vec::new();
    let mut names: HashMap<u32, String> = HashMap::new();
    for payload in Parser::new(0).parse_all(bytes) {
        let payload = payload.context("not a valid wasm module")?;
        match &payload {
            Payload::ImportSection(r) => {
                for import in r.clone().into_imports() {
                    if matches!(import?.ty, TypeRef::Func(_) | TypeRef::FuncExact(_)) {
                        imported_funcs += 1;
                    }
                }
            }
            Payload::CodeSectionEntry(body) => bodies.push(body.range()),
            Payload::DataSection(r) => {
                for data in r.clone() {
                    report.data += data?.data.len();
                }
            }
            Payload::CustomSection(c) => {
                if let KnownCustom::Name(reader) = c.as_known() {
                    for sub in reader {
                        if let Ok(Name::Function(map)) = sub {
                            for naming in map {
                                let naming = naming?;
                                names.insert(naming.index, naming.name.to_string());
                            }
                        }
                    }
                }
                report
                    .sections
                    .push((format!("custom \"{}\"", c.name()), c.range().len()));
                continue;
            }
            _ => {}
        }
        if let Some((id, range)) = payload.as_section() {
            if !matches!(payload, Payload::CustomSection(_)) {
                let name = SECTION_NAMES.get(id as usize).copied().unwrap_or("unknown");
                report.sections.push((name.to_string(), range.len()));
            }
        }
    }
    report.funcs = bodies
        .into_iter()
        .enumerate()
        .map(|(i, range)| {
            let index = imported_funcs + i as u32;
            let name = names
                .remove(&index)
                .map(|n| demangle(&n))
                .unwrap_or_else(|| format!("func[{index}]"));
            Func {
                name,
                size: range.len(),
                range,
            }
        })
        .collect();
    Ok(report)
}

/// The readable name (wasm-bindgen usually demangled it already), without the trailing hash.
fn demangle(name: &str) -> String {
    let s = match rustc_demangle::try_demangle(name) {
        Ok(d) => format!("{d:#}"),
        Err(_) => name.to_string(),
    };
    // `path::h0123456789abcdef`: drop the hash.
    match s.rsplit_once("::h") {
        Some((head, hash)) if hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()) => {
            head.to_string()
        }
        _ => s,
    }
}

/// The first path of a (demangled) name: `<a::B as c::D>::f` -> `a::B`, `&mut x::Y` -> `x::Y`,
/// `core::ptr::drop_in_place<a::B>` -> `a::B` (drop glue belongs to the dropped type).
fn owner_path(name: &str) -> &str {
    let mut s = name.trim_start();
    if let Some(inner) = s.strip_prefix("core::ptr::drop_in_place<") {
        s = inner;
    }
    loop {
        let t = s
            .trim_start_matches(['<', '&', '*', '[', '(', ' '])
            .trim_start_matches("mut ")
            .trim_start_matches("const ")
            .trim_start_matches("dyn ");
        if t.len() == s.len() {
            break;
        }
        s = t;
    }
    let end = s
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
        .unwrap_or(s.len());
    s[..end].trim_end_matches(':')
}

/// The group a function's bytes count for: its crate; for the app (`app_crate`), the crate and
/// its first two module levels (`lbscope::engine::pulsar`, `lbscope::ui::components`).
pub fn group(name: &str, app_crate: &str) -> String {
    if name.starts_with("func[") {
        return "(no name)".to_string();
    }
    let path = owner_path(name);
    let mut parts = path.split("::").filter(|p| !p.is_empty());
    let Some(krate) = parts.next() else {
        return "(other)".to_string();
    };
    if krate == app_crate {
        let rest: Vec<&str> = parts
            .take(2)
            .take_while(|p| p.starts_with(|c: char| c.is_ascii_lowercase()))
            .collect();
        if rest.is_empty() {
            return krate.to_string();
        }
        return format!("{krate}::{}", rest.join("::"));
    }
    // The std crates print as one (`std`), as do yew's and serde's satellite crates.
    match krate {
        "core" | "alloc" | "std" | "compiler_builtins" | "hashbrown" | "dlmalloc" => "std".into(),
        k if k.starts_with("yew") => "yew".into(),
        k if k.starts_with("serde_json") => "serde_json".into(),
        k if k.starts_with("regex") => "regex".into(),
        k => k.to_string(),
    }
}

/// Code serde generated (derives: `Serialize`/`Deserialize`/`Visitor` impls) or instantiated
/// (serde_json's reader and writer for the app's types).
pub fn is_serde(name: &str) -> bool {
    name.contains("serde")
}

fn deflated(parts: &[&[u8]]) -> usize {
    let all: Vec<u8> = parts.concat();
    miniz_oxide::deflate::compress_to_vec(&all, 9).len()
}

/// Gzip (level 9) size of the whole file: deflate plus the 18 bytes of gzip's frame.
pub fn gzipped(bytes: &[u8]) -> usize {
    deflated(&[bytes]) + 18
}

fn kb(n: usize) -> String {
    format!("{:.1} KB", n as f64 / 1000.0)
}

/// The printed breakdown (`lbscope-webbuild size`, `make bench`).
pub fn to_text(bytes: &[u8], r: &Report, app_crate: &str, top: usize) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let code: usize = r.funcs.iter().map(|f| f.size).sum();
    let _ = writeln!(
        out,
        "wasm size: {} bytes ({}), gzipped {} ({} functions, {} of code, {} of data)",
        r.total,
        kb(r.total),
        kb(gzipped(bytes)),
        r.funcs.len(),
        kb(code),
        kb(r.data)
    );
    // The default file keeps its `name` section (for the breakdown); dist/ ships it without.
    if r.sections.iter().any(|(n, _)| n == "custom \"name\"") {
        if let Ok(shipped) = strip_names(bytes) {
            let _ = writeln!(
                out,
                "as shipped (without the name section): {} bytes, gzipped {}",
                shipped.len(),
                kb(gzipped(&shipped))
            );
        }
    }
    let _ = writeln!(out, "\nper section:");
    for (name, n) in &r.sections {
        let _ = writeln!(out, "  {:<28} {:>10}  {:>5.1}%", name, kb(*n), pct(*n, r.total));
    }

    let mut groups: HashMap<String, (usize, usize, Vec<&[u8]>)> = HashMap::new();
    for f in &r.funcs {
        let g = groups.entry(group(&f.name, app_crate)).or_default();
        g.0 += f.size;
        g.1 += 1;
        g.2.push(&bytes[f.range.clone()]);
    }
    let mut groups: Vec<_> = groups.into_iter().collect();
    groups.sort_by(|a, b| b.1 .0.cmp(&a.1 .0).then(a.0.cmp(&b.0)));
    let _ = writeln!(
        out,
        "\nper crate (function bodies; the app by module; gz = the group's bodies compressed alone):"
    );
    let _ = writeln!(
        out,
        "  {:<36} {:>10} {:>6} {:>10} {:>6}",
        "crate / module", "code", "share", "gz", "fns"
    );
    for (name, (size, n, parts)) in &groups {
        let _ = writeln!(
            out,
            "  {:<36} {:>10} {:>5.1}% {:>10} {:>6}",
            name,
            kb(*size),
            pct(*size, code),
            kb(deflated(parts)),
            n
        );
    }

    let serde: Vec<&Func> = r.funcs.iter().filter(|f| is_serde(&f.name)).collect();
    let serde_size: usize = serde.iter().map(|f| f.size).sum();
    let serde_parts: Vec<&[u8]> = serde.iter().map(|f| &bytes[f.range.clone()]).collect();
    let _ = writeln!(
        out,
        "\nserde (every function whose name mentions serde, any crate): {} in {} functions, {} of code, gz {}",
        kb(serde_size),
        serde.len(),
        format_args!("{:.1}%", pct(serde_size, code)),
        kb(deflated(&serde_parts))
    );

    let mut largest: Vec<&Func> = r.funcs.iter().collect();
    largest.sort_by(|a, b| b.size.cmp(&a.size).then(a.name.cmp(&b.name)));
    let _ = writeln!(out, "\nlargest functions:");
    for f in largest.into_iter().take(top) {
        let _ = writeln!(out, "  {:>10}  {}", kb(f.size), short(&f.name, 110));
    }
    out
}

fn pct(n: usize, of: usize) -> f64 {
    if of == 0 {
        0.0
    } else {
        n as f64 * 100.0 / of as f64
    }
}

fn short(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let head: String = s.chars().take(max - 3).collect();
    format!("{head}...")
}

/// `bytes` without the `name` custom section (what `wasm-opt` without `-g` writes).
pub fn strip_names(bytes: &[u8]) -> Result<Vec<u8>> {
    let mut out = Vec::with_capacity(bytes.len());
    out.extend_from_slice(&bytes[..8]);
    let mut drop = Vec::new();
    for payload in Parser::new(0).parse_all(bytes) {
        if let Payload::CustomSection(c) = payload.context("not a valid wasm module")? {
            if c.name() == "name" {
                drop.push(c.range());
            }
        }
    }
    // A custom section's range covers its name and data; its header (id byte and LEB128 size)
    // comes just before: walk the sections from the top to find each one's start.
    let mut pos = 8;
    while pos < bytes.len() {
        let start = pos;
        let id = bytes[pos];
        pos += 1;
        let (len, n) = leb128(&bytes[pos..]).context("bad section size")?;
        pos += n;
        let end = pos + len;
        let is_dropped = id == 0 && drop.iter().any(|r| r.start == pos && r.end == end);
        if !is_dropped {
            out.extend_from_slice(&bytes[start..end]);
        }
        pos = end;
    }
    Ok(out)
}

fn leb128(b: &[u8]) -> Option<(usize, usize)> {
    let mut v = 0usize;
    for (i, byte) in b.iter().enumerate().take(5) {
        v |= ((byte & 0x7f) as usize) << (7 * i);
        if byte & 0x80 == 0 {
            return Some((v, i + 1));
        }
    }
    None
}

pub fn run(file: &Path, top: usize) -> Result<()> {
    let bytes = std::fs::read(file).with_context(|| {
        format!(
            "cannot read {} (`lbscope-webbuild dist --release` writes it)",
            file.display()
        )
    })?;
    let report = analyse(&bytes)?;
    print!("{}", to_text(&bytes, &report, "lbscope", top));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_by_owner() {
        let g = |n| group(n, "lbscope");
        assert_eq!(
            g("lbscope::engine::pulsar::split::check"),
            "lbscope::engine::pulsar"
        );
        assert_eq!(
            g("<lbscope::engine::pulsar::Event as serde::ser::Serialize>::serialize"),
            "lbscope::engine::pulsar"
        );
        assert_eq!(g("<&mut serde_json::de::Deserializer<R>>::parse"), "serde_json");
        assert_eq!(
            g("core::ptr::drop_in_place<lbscope::scenario::Scenario>"),
            "lbscope::scenario"
        );
        assert_eq!(g("lbscope::engine::Engine::apply"), "lbscope::engine");
        assert_eq!(g("core::fmt::write"), "std");
        assert_eq!(g("yew::html::component::lifecycle::X"), "yew");
        assert_eq!(g("func[12]"), "(no name)");
        assert_eq!(demangle("a::b::h0123456789abcdef"), "a::b");
    }

    /// A module of one imported and two defined functions, named `imp`, `first` and `second`;
    /// the name section is dropped by `strip_names`.
    #[test]
    fn reads_bodies_and_names() {
        #[rustfmt::skip]
        let wasm: Vec<u8> = vec![
            0, b'a', b's', b'm', 1, 0, 0, 0,
            1, 4, 1, 0x60, 0, 0,                               // type: () -> ()
            2, 7, 1, 1, b'm', 1, b'f', 0, 0,                   // import m.f
            3, 3, 2, 0, 0,                                     // two functions
            10, 9, 2, 2, 0, 0x0b, 4, 0, 1, 1, 0x0b,            // bodies of 2 and 4 bytes
            0, 28, 4, b'n', b'a', b'm', b'e',                  // name section
            1, 21, 3, 0, 3, b'i', b'm', b'p', 1, 5, b'f', b'i', b'r', b's', b't',
            2, 6, b's', b'e', b'c', b'o', b'n', b'd',
        ];
        let r = analyse(&wasm).unwrap();
        let got: Vec<(&str, usize)> = r.funcs.iter().map(|f| (f.name.as_str(), f.size)).collect();
        assert_eq!(got, [("first", 2), ("second", 4)]);
        assert!(r.sections.iter().any(|(n, _)| n == "custom \"name\""));
        let stripped = strip_names(&wasm).unwrap();
        assert_eq!(stripped.len(), wasm.len() - 30);
        let r = analyse(&stripped).unwrap();
        assert_eq!(r.funcs[0].name, "func[1]");
    }
}
