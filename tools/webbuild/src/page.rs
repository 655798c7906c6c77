//! The page template: `index.html` with trunk-style build markers
//! (`<link data-trunk rel="…">`), which both this tool and (optionally) trunk read.
//!
//! Markers understood, with what each becomes in `dist/index.html`:
//! - `rel="css" href="styles/x.css"`: the file is copied to `dist/x.css` and the marker becomes
//!   `<link rel="stylesheet" href="/x.css" integrity="sha384-…"/>`; a marker in `<body>` also
//!   gets `<link rel="preload" href="/x.css" as="style" integrity="…"/>` at the end of `<head>`;
//! - `rel="icon" href="styles/x.svg"`: copied to `dist/x.svg`, `<link rel="icon" href="/x.svg" integrity="…"/>`;
//! - `rel="copy-file" href="x.js"`: copied to `dist/x.js`, the marker is removed;
//! - `rel="rust" data-bin="…" data-wasm-opt="…" data-cargo-profile-release="…"`: names the binary to
//!   build, the wasm-opt level and the cargo profile of a release build; the marker becomes a
//!   `<link rel="modulepreload" href="/<bin>.js" integrity="…"/>` of the generated JS glue and a
//!   `<link rel="preload" href="/<bin>_bg.wasm" as="fetch" type="application/wasm" crossorigin/>`
//!   of the wasm.
//!
//! A plain `<script src="/x.js">` whose file is in `dist/` gets an `integrity` attribute too.
//! Any other `data-trunk` marker is an error, so nothing is silently left out of the page.

use anyhow::{anyhow, bail, Context, Result};

/// One `<link …>` or `<script …>` start tag of the template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tag {
    /// `link` or `script`.
    pub name: String,
    /// Attributes in source order; a bare attribute (`data-trunk`) has an empty value.
    pub attrs: Vec<(String, String)>,
    /// Byte range of the whole tag (`<` to `>`) in the template.
    pub span: std::ops::Range<usize>,
}

impl Tag {
    pub fn get(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn has(&self, name: &str) -> bool {
        self.attrs.iter().any(|(k, _)| k == name)
    }

    /// The attribute, or a clear error naming the marker.
    pub fn require(&self, name: &str) -> Result<&str> {
        self.get(name).ok_or_else(|| {
            anyhow!(
                "index.html: <{} data-trunk rel=\"{}\"> needs a `{name}` attribute",
                self.name,
                self.get("rel").unwrap_or("")
            )
        })
    }
}

/// Every `<link …>` and `<script …>` start tag of `html`, in order.
pub fn tags(html: &str) -> Result<Vec<Tag>> {
    let mut out = Vec::new();
    let bytes = html.as_bytes();
    let mut i = 0;
    while let Some(off) = html[i..].find('<') {
        let start = i + off;
        i = start + 1;
        if html[i..].starts_with("!--") {
            let end = html[i..]
                .find("-->")
                .ok_or_else(|| anyhow!("index.html: unterminated comment"))?;
            i += end + 3;
            continue;
        }
        let name_len = html[i..]
            .find(|c: char| !c.is_ascii_alphanumeric())
            .unwrap_or(html.len() - i);
        let name = html[i..i + name_len].to_ascii_lowercase();
        if name != "link" && name != "script" {
            continue;
        }
        let mut j = i + name_len;
        let mut attrs = Vec::new();
        loop {
            while j < bytes.len() && bytes[j].is_ascii_whitespace() {
                j += 1;
            }
            match bytes.get(j) {
                None => bail!("index.html: unterminated <{name}> tag"),
                Some(b'>') => {
                    j += 1;
                    break;
                }
                Some(b'/') if bytes.get(j + 1) == Some(&b'>') => {
                    j += 2;
                    break;
                }
                _ => {}
            }
            let key_start = j;
            while j < bytes.len()
                && !matches!(bytes[j], b'=' | b'>' | b'/')
                && !bytes[j].is_ascii_whitespace()
            {
                j += 1;
            }
            let key = html[key_start..j].to_ascii_lowercase();
            if key.is_empty() {
                bail!("index.html: cannot read the attributes of <{name}> at byte {start}");
            }
            let mut value = String::new();
            if bytes.get(j) == Some(&b'=') {
                j += 1;
                match bytes.get(j) {
                    Some(&q @ (b'"' | b'\'')) => {
                        let end = html[j + 1..]
                            .find(q as char)
                            .ok_or_else(|| anyhow!("index.html: unterminated attribute `{key}`"))?;
                        value = html[j + 1..j + 1 + end].to_string();
                        j += end + 2;
                    }
                    _ => {
                        let v_start = j;
                        while j < bytes.len() && bytes[j] != b'>' && !bytes[j].is_ascii_whitespace() {
                            j += 1;
                        }
                        value = html[v_start..j].to_string();
                    }
                }
            }
            attrs.push((key, value));
        }
        out.push(Tag {
            name,
            attrs,
            span: start..j,
        });
        i = j;
    }
    Ok(out)
}

/// `"` and `&` are the only characters that need escaping in our double-quoted attribute values.
fn attr_escape(v: &str) -> String {
    v.replace('&', "&amp;").replace('"', "&quot;")
}

/// Write a start tag: `<name k="v" …/>` (trunk's form for the links it writes).
pub fn write_tag(name: &str, attrs: &[(&str, &str)], self_closing: bool) -> String {
    let mut s = format!("<{name}");
    for (k, v) in attrs {
        s.push(' ');
        s.push_str(k);
        if !v.is_empty() {
            s.push_str("=\"");
            s.push_str(&attr_escape(v));
            s.push('"');
        }
    }
    s.push_str(if self_closing { "/>" } else { ">" });
    s
}

/// Attributes of a marker that are copied onto the tag it becomes (all but the marker's own).
pub fn passthrough(tag: &Tag) -> Vec<(&str, &str)> {
    tag.attrs
        .iter()
        .filter(|(k, _)| !(k == "rel" || k == "href" || k.starts_with("data-")))
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect()
}

/// Replace each tag's span by the text `f` returns for it (`None` keeps the tag as it is).
pub fn rewrite(
    html: &str,
    tags: &[Tag],
    mut f: impl FnMut(&Tag) -> Result<Option<String>>,
) -> Result<String> {
    let mut out = String::with_capacity(html.len() + 512);
    let mut at = 0;
    for tag in tags {
        let Some(text) = f(tag).with_context(|| format!("index.html: {}", &html[tag.span.clone()]))? else {
            continue;
        };
        let (mut start, mut end) = (tag.span.start, tag.span.end);
        if text.is_empty() {
            // A removed tag alone on its line takes its line with it.
            let line_start = html[..start].rfind('\n').map_or(0, |p| p + 1);
            let line_end = html[end..].find('\n').map_or(html.len(), |p| end + p + 1);
            if line_start >= at
                && html[line_start..start].trim().is_empty()
                && html[end..line_end].trim().is_empty()
            {
                (start, end) = (line_start, line_end);
            }
        }
        out.push_str(&html[at..start]);
        out.push_str(&text);
        at = end;
    }
    out.push_str(&html[at..]);
    Ok(out)
}

/// The empty element of the loading frame that `dist` fills with the engine's size.
pub const ENGINE_SIZE: &str = r#"<span id="boot-size"></span>"#;

/// The template's loading line, told the wasm's size: [`ENGINE_SIZE`] becomes
/// `<span id="boot-size" data-bytes="RAW"> (1.3 MB)</span>`, the download's size (`gz`, what a
/// host that serves the `.gz` copies sends) and the decoded size the boot module counts its
/// progress against. A template without it is left as it is.
pub fn fill_engine_size(html: &str, raw: u64, gz: u64) -> String {
    html.replacen(
        ENGINE_SIZE,
        &format!(
            r#"<span id="boot-size" data-bytes="{raw}"> ({})</span>"#,
            crate::compress::human(gz)
        ),
        1,
    )
}

/// `tags`, one a line, inserted just before `</head>`.
pub fn insert_in_head(html: &str, tags: &[String]) -> Result<String> {
    if tags.is_empty() {
        return Ok(html.to_string());
    }
    let at = html
        .find("</head>")
        .ok_or_else(|| anyhow!("index.html has no </head> to put the stylesheets' preloads in"))?;
    let mut out = String::with_capacity(html.len() + 200 * tags.len());
    out.push_str(&html[..at]);
    for t in tags {
        out.push_str("  ");
        out.push_str(t);
        out.push('\n');
    }
    out.push_str(&html[at..]);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_markers_and_plain_tags() {
        let html = r#"<head><!-- <link data-trunk rel="css" href="no.css"> -->
  <link data-trunk rel="css" href="styles/app.css">
  <link data-trunk rel="rust" data-bin="lbscope-web" data-wasm-opt="z"/>
  <script type="module" src="/index.js"></script>
  <linkx rel="x"><meta charset=utf-8>
</head>"#;
        let t = tags(html).unwrap();
        assert_eq!(t.len(), 3);
        assert_eq!(t[0].get("href"), Some("styles/app.css"));
        assert!(t[0].has("data-trunk"));
        assert_eq!(t[1].get("data-wasm-opt"), Some("z"));
        assert_eq!(t[2].name, "script");
        assert_eq!(
            &html[t[2].span.clone()],
            r#"<script type="module" src="/index.js">"#
        );
    }

    #[test]
    fn rewrites_only_what_it_is_asked_to() {
        let html = r#"a<link data-trunk rel="copy-file" href="x.js">b<script src="/x.js">c"#;
        let t = tags(html).unwrap();
        let out = rewrite(html, &t, |tag| {
            Ok(if tag.has("data-trunk") {
                Some(String::new())
            } else {
                None
            })
        })
        .unwrap();
        assert_eq!(out, r#"ab<script src="/x.js">c"#);
        let html = "<head>\n  <link data-trunk rel=\"copy-file\" href=\"x.js\">\n  <script src=\"/x.js\">\n";
        let t = tags(html).unwrap();
        let out = rewrite(html, &t, |tag| Ok(tag.has("data-trunk").then(String::new))).unwrap();
        assert_eq!(out, "<head>\n  <script src=\"/x.js\">\n");
    }

    #[test]
    fn writes_escaped_attributes() {
        let s = write_tag(
            "link",
            &[("rel", "icon"), ("href", "/a\"b&c.svg"), ("crossorigin", "")],
            true,
        );
        assert_eq!(s, r#"<link rel="icon" href="/a&quot;b&amp;c.svg" crossorigin/>"#);
    }

    #[test]
    fn the_loading_line_gets_the_engine_size() {
        let html = r#"<p>Loading the engine<span id="boot-size"></span>…</p>"#;
        assert_eq!(
            fill_engine_size(html, 3_373_974, 1_286_851),
            r#"<p>Loading the engine<span id="boot-size" data-bytes="3373974"> (1.3 MB)</span>…</p>"#
        );
        assert_eq!(fill_engine_size("<p>x</p>", 1, 1), "<p>x</p>");
    }

    #[test]
    fn preloads_go_at_the_end_of_head() {
        let html = "<head>\n  <title>x</title>\n</head>\n<body></body>";
        let out = insert_in_head(
            html,
            &[r#"<link rel="preload" href="/a.css" as="style"/>"#.into()],
        )
        .unwrap();
        assert_eq!(
            out,
            "<head>\n  <title>x</title>\n  <link rel=\"preload\" href=\"/a.css\" as=\"style\"/>\n</head>\n<body></body>"
        );
        assert_eq!(insert_in_head("<p>", &[]).unwrap(), "<p>");
        assert!(insert_in_head("<p>", &["<link>".into()]).is_err());
    }

    #[test]
    fn unterminated_tags_are_errors() {
        assert!(tags("<link rel=\"css").is_err());
        assert!(tags("<link rel=css").is_err());
    }
}
