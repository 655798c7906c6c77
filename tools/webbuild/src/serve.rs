//! A minimal static file server for `dist/` on 127.0.0.1 (std only): GET and HEAD, one thread
//! per connection, `Connection: close`, the MIME types the page needs (`application/wasm` for
//! streaming compilation).
//!
//! Compression: `dist` leaves `<file>.br` and `<file>.gz` next to each text file and the wasm
//! (`compress.rs`); a request whose `Accept-Encoding` takes Brotli gets the `.br` bytes with
//! `Content-Encoding: br`, else one that takes gzip the `.gz` bytes with `Content-Encoding:
//! gzip`, and every file that has a copy is sent with `Vary: Accept-Encoding` (a cache keeps the
//! versions apart). A copy older than its file (a file edited in `dist/` by hand) is not used.
//!
//! Caching: the files keep their names from build to build (`index.js` names the wasm), so
//! none may be cached without asking: `Cache-Control: no-cache` and an `ETag` (size and time
//! of the bytes sent), so that a reload of an unchanged build costs a `304 Not Modified` per
//! file instead of the download.
//!
//! Framing: the page's CSP is a `<meta>` element, which cannot carry `frame-ancestors`, so the
//! server says who may frame a page ([`frame_headers`]): nobody for the playground, any origin
//! for an embed link (`?embed=…` in the query, which reaches the server; the scenario itself is
//! in the fragment, which does not).

use anyhow::{bail, Context, Result};
use std::io::{BufRead, BufReader, Write};
use std::net::{IpAddr, SocketAddr, TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::time::Duration;

/// The `Content-Type` of a file, by extension.
pub fn mime(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" | "htm" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "wasm" => "application/wasm",
        "css" => "text/css; charset=utf-8",
        "json" | "map" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "txt" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// Whether a request target is an embed link: its query has an `embed` parameter
/// (`?embed=ring`, `?embed`, `?controls&embed=slots`), the flag the page reads too.
pub fn is_embed(target: &str) -> bool {
    let before_fragment = target.split('#').next().unwrap_or("");
    let Some((_, query)) = before_fragment.split_once('?') else {
        return false;
    };
    query
        .split('&')
        .any(|p| p.split_once('=').map_or(p, |(k, _)| k) == "embed")
}

/// The framing headers of an HTML page: an embed link may be framed by any page
/// (`frame-ancestors *`); every other page by none (`frame-ancestors 'none'`, and
/// `X-Frame-Options: DENY` for browsers without CSP level 2).
pub fn frame_headers(target: &str) -> &'static [(&'static str, &'static str)] {
    if is_embed(target) {
        &[("Content-Security-Policy", "frame-ancestors *")]
    } else {
        &[
            ("Content-Security-Policy", "frame-ancestors 'none'"),
            ("X-Frame-Options", "DENY"),
        ]
    }
}

/// Decode `%XX` escapes; `None` for a malformed escape or a result that is not UTF-8.
fn percent_decode(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The file under `root` that a request target names, or `None` if it names none
/// (a `..`, an absolute or a malformed path never leaves `root`).
pub fn resolve(root: &Path, target: &str) -> Option<PathBuf> {
    let path = target.split(['?', '#']).next().unwrap_or("");
    let path = percent_decode(path)?;
    let rel = path.strip_prefix('/')?;
    let mut out = root.to_path_buf();
    for c in Path::new(rel).components() {
        match c {
            Component::Normal(part) => out.push(part),
            Component::CurDir => {}
            _ => return None,
        }
    }
    if out.is_dir() {
        out.push("index.html");
    }
    out.is_file().then_some(out)
}

/// Whether an `Accept-Encoding` value takes `coding` (RFC 9110 §12.5.3): named, or through
/// `*`, with a q-value above zero.
pub fn accepts(accept_encoding: &str, coding: &str) -> bool {
    let mut named = None;
    let mut star = None;
    for item in accept_encoding.split(',') {
        let mut parts = item.split(';');
        let name = parts.next().unwrap_or("").trim();
        let q = parts
            .filter_map(|p| {
                p.trim()
                    .strip_prefix("q=")
                    .or_else(|| p.trim().strip_prefix("Q="))
            })
            .filter_map(|v| v.trim().parse::<f32>().ok())
            .next_back()
            .unwrap_or(1.0);
        if name.eq_ignore_ascii_case(coding) {
            named = Some(q > 0.0);
        } else if name == "*" {
            star = Some(q > 0.0);
        }
    }
    named.or(star).unwrap_or(false)
}

/// What answers a request for an existing file: the bytes to send and their headers.
#[derive(Debug, PartialEq)]
pub struct Reply {
    /// The file whose bytes are sent: `file`, or its `.gz` copy.
    pub body: PathBuf,
    /// `304 Not Modified` (the client's `If-None-Match` names this version) or `200 OK`.
    pub not_modified: bool,
    /// Response headers, in order.
    pub headers: Vec<(&'static str, String)>,
}

/// An entity tag of the bytes at `path`: their length and modification time, quoted.
fn etag(path: &Path) -> Option<String> {
    let meta = std::fs::metadata(path).ok()?;
    let mtime = meta.modified().ok()?.duration_since(std::time::UNIX_EPOCH).ok()?;
    Some(format!("\"{:x}-{:x}\"", meta.len(), mtime.as_nanos()))
}

/// Whether an `If-None-Match` value names `tag` (or is `*`).
fn none_match(if_none_match: &str, tag: &str) -> bool {
    if_none_match.trim() == "*"
        || if_none_match
            .split(',')
            .any(|t| t.trim().trim_start_matches("W/") == tag)
}

/// The reply for `file` (resolved from `target`), given the request's `Accept-Encoding` and
/// `If-None-Match` headers.
pub fn reply(file: &Path, target: &str, accept_encoding: &str, if_none_match: &str) -> Reply {
    // A copy counts only if it is at least as new as its file.
    let fresh = |copy: &Path| match (std::fs::metadata(file), std::fs::metadata(copy)) {
        (Ok(f), Ok(c)) => match (f.modified(), c.modified()) {
            (Ok(f), Ok(c)) => c >= f,
            _ => true,
        },
        _ => false,
    };
    let copies: Vec<(&'static str, PathBuf)> = [
        ("br", crate::compress::br_path(file)),
        ("gzip", crate::compress::gz_path(file)),
    ]
    .into_iter()
    .filter(|(_, p)| fresh(p))
    .collect();
    // The smallest copy the client takes: Brotli, then gzip.
    let chosen = copies.iter().find(|(coding, _)| accepts(accept_encoding, coding));
    let body = chosen.map_or_else(|| file.to_path_buf(), |(_, p)| p.clone());
    let mime = mime(file);
    let mut headers = vec![
        ("Content-Type", mime.to_string()),
        ("Cache-Control", "no-cache".to_string()),
        ("X-Content-Type-Options", "nosniff".to_string()),
    ];
    if let Some((coding, _)) = chosen {
        headers.push(("Content-Encoding", coding.to_string()));
    }
    if !copies.is_empty() {
        headers.push(("Vary", "Accept-Encoding".to_string()));
    }
    let tag = etag(&body);
    let not_modified = tag
        .as_deref()
        .is_some_and(|t| !if_none_match.is_empty() && none_match(if_none_match, t));
    if let Some(t) = tag {
        headers.push(("ETag", t));
    }
    // Framing concerns documents only (scripts, styles and the wasm are not framed).
    if mime.starts_with("text/html") {
        headers.extend(frame_headers(target).iter().map(|&(k, v)| (k, v.to_string())));
    }
    Reply {
        body,
        not_modified,
        headers,
    }
}

fn respond(stream: &mut TcpStream, status: &str, headers: &[(&str, &str)], body: &[u8], head_only: bool) {
    // A 304 has no body, and the length it would state is the full one's: none is sent.
    let mut msg = if status.starts_with("304") {
        format!("HTTP/1.1 {status}\r\nConnection: close\r\n")
    } else {
        format!(
            "HTTP/1.1 {status}\r\nContent-Length: {}\r\nConnection: close\r\n",
            body.len()
        )
    };
    for (k, v) in headers {
        msg.push_str(&format!("{k}: {v}\r\n"));
    }
    msg.push_str("\r\n");
    let mut data = msg.into_bytes();
    if !head_only {
        data.extend_from_slice(body);
    }
    // The client may have gone away; there is nobody to tell.
    let _ = stream.write_all(&data);
    let _ = stream.flush();
}

fn handle(root: &Path, mut stream: TcpStream, quiet: bool) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let mut reader = BufReader::new(match stream.try_clone() {
        Ok(s) => s,
        Err(_) => return,
    });
    let mut request_line = String::new();
    if reader.read_line(&mut request_line).is_err() {
        return;
    }
    // Read the headers, up to a bound; keep the two this server answers.
    let mut header_bytes = 0usize;
    let (mut accept_encoding, mut if_none_match) = (String::new(), String::new());
    loop {
        let mut line = String::new();
        match reader.read_line(&mut line) {
            Ok(0) => break,
            Ok(n) => {
                header_bytes += n;
                if line == "\r\n" || line == "\n" || header_bytes > 64 * 1024 {
                    break;
                }
                if let Some((name, value)) = line.split_once(':') {
                    let value = value.trim();
                    if name.eq_ignore_ascii_case("accept-encoding") {
                        accept_encoding = value.to_string();
                    } else if name.eq_ignore_ascii_case("if-none-match") {
                        if_none_match = value.to_string();
                    }
                }
            }
            Err(_) => return,
        }
    }
    let mut parts = request_line.split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    let head_only = method == "HEAD";
    let text = [("Content-Type", "text/plain; charset=utf-8")];
    if method != "GET" && !head_only {
        respond(
            &mut stream,
            "405 Method Not Allowed",
            &[("Allow", "GET, HEAD"), text[0]],
            b"only GET and HEAD\n",
            false,
        );
        return;
    }
    let found = resolve(root, target).map(|p| reply(&p, target, &accept_encoding, &if_none_match));
    let status = match found.map(|r| (std::fs::read(&r.body), r)) {
        Some((Ok(body), r)) => {
            let headers: Vec<(&str, &str)> = r.headers.iter().map(|(k, v)| (*k, v.as_str())).collect();
            if r.not_modified {
                respond(&mut stream, "304 Not Modified", &headers, b"", true);
                304
            } else {
                respond(&mut stream, "200 OK", &headers, &body, head_only);
                200
            }
        }
        _ => {
            respond(&mut stream, "404 Not Found", &text, b"not found\n", head_only);
            404
        }
    };
    if !quiet {
        eprintln!("{status} {method} {target}");
    }
}

/// Serve `root` on `ip:port` until the process is stopped.
pub fn serve(root: &Path, ip: IpAddr, port: u16, quiet: bool) -> Result<()> {
    if !root.join("index.html").is_file() {
        bail!(
            "{} has no index.html: build it first (`make serve` does)",
            root.display()
        );
    }
    let root = root
        .canonicalize()
        .with_context(|| format!("cannot open {}", root.display()))?;
    let addr = SocketAddr::new(ip, port);
    let listener = TcpListener::bind(addr).with_context(|| {
        format!(
            "cannot listen on {addr} (is another server using it? choose another port: make serve PORT=8081)"
        )
    })?;
    // The address bound (with `--port 0` the system chose the port).
    let addr = listener.local_addr().unwrap_or(addr);
    let url = format!("http://{addr}/");
    println!("lbscope: serving {} on {url}  (Ctrl-C to stop)", root.display());
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        let root = root.clone();
        std::thread::spawn(move || handle(&root, stream, quiet));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn mime_types_of_the_page() {
        assert_eq!(mime(Path::new("a/lbscope-web_bg.wasm")), "application/wasm");
        assert_eq!(mime(Path::new("index.js")), "text/javascript; charset=utf-8");
        assert_eq!(mime(Path::new("index.html")), "text/html; charset=utf-8");
        assert_eq!(mime(Path::new("app.css")), "text/css; charset=utf-8");
        assert_eq!(mime(Path::new("favicon.svg")), "image/svg+xml");
        assert_eq!(mime(Path::new("LICENSE")), "application/octet-stream");
    }

    fn scratch() -> PathBuf {
        let dir = std::env::temp_dir().join(format!("lbscope-webbuild-test-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::write(dir.join("index.html"), "<!doctype html>").unwrap();
        std::fs::write(dir.join("sub/a b.js"), "x").unwrap();
        dir
    }

    #[test]
    fn resolves_inside_the_root_only() {
        let root = scratch();
        assert_eq!(resolve(&root, "/"), Some(root.join("index.html")));
        assert_eq!(
            resolve(&root, "/index.html?x=1#s=1.abc"),
            Some(root.join("index.html"))
        );
        assert_eq!(resolve(&root, "/sub/a%20b.js"), Some(root.join("sub/a b.js")));
        assert_eq!(resolve(&root, "/../etc/passwd"), None);
        assert_eq!(resolve(&root, "/sub/../../x"), None);
        assert_eq!(resolve(&root, "/%2e%2e/x"), None);
        assert_eq!(resolve(&root, "/%zz"), None);
        assert_eq!(resolve(&root, "index.html"), None);
        assert_eq!(resolve(&root, "/missing.js"), None);
    }

    #[test]
    fn serves_files_with_their_type() {
        let root = scratch();
        std::fs::write(root.join("m.wasm"), b"\0asm").unwrap();
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let r = root.clone();
        std::thread::spawn(move || {
            for s in listener.incoming().take(5) {
                handle(&r, s.unwrap(), true);
            }
        });
        let get = |req: &str| {
            let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
            s.write_all(req.as_bytes()).unwrap();
            let mut out = String::new();
            s.read_to_string(&mut out).unwrap();
            out
        };
        let wasm = get("GET /m.wasm HTTP/1.1\r\nHost: x\r\n\r\n");
        assert!(wasm.starts_with("HTTP/1.1 200 OK\r\n"), "{wasm}");
        assert!(wasm.contains("Content-Type: application/wasm\r\n"));
        assert!(wasm.ends_with("\0asm"));
        assert!(
            !wasm.contains("frame-ancestors"),
            "only documents carry framing headers"
        );
        let missing = get("GET /nope HTTP/1.1\r\n\r\n");
        assert!(missing.starts_with("HTTP/1.1 404 Not Found\r\n"));
        let post = get("POST / HTTP/1.1\r\n\r\n");
        assert!(post.starts_with("HTTP/1.1 405 "));
        // The playground may not be framed; an embed link may be, by any page.
        let page = get("GET / HTTP/1.1\r\n\r\n");
        assert!(
            page.contains("Content-Security-Policy: frame-ancestors 'none'\r\n"),
            "{page}"
        );
        assert!(page.contains("X-Frame-Options: DENY\r\n"));
        let embed = get("GET /?embed=ring&controls HTTP/1.1\r\n\r\n");
        assert!(embed.starts_with("HTTP/1.1 200 OK\r\n"), "{embed}");
        assert!(
            embed.contains("Content-Security-Policy: frame-ancestors *\r\n"),
            "{embed}"
        );
        assert!(!embed.contains("X-Frame-Options"));
    }

    #[test]
    fn accept_encoding_is_read_with_its_q_values() {
        for (header, gzip) in [
            ("gzip, deflate, br, zstd", true),
            ("GZIP", true),
            ("deflate, gzip;q=0.5", true),
            ("gzip ; q=1.0", true),
            ("*", true),
            ("br, *;q=0.1", true),
            ("gzip;q=0", false),
            ("gzip;q=0.000, *", false),
            ("*;q=0", false),
            ("br, deflate", false),
            ("identity", false),
            ("", false),
            ("x-gzip", false),
        ] {
            assert_eq!(accepts(header, "gzip"), gzip, "{header:?}");
        }
    }

    /// Serves `root` for the next `n` connections; returns the port.
    fn server(root: &Path, n: usize) -> u16 {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let r = root.to_path_buf();
        std::thread::spawn(move || {
            for s in listener.incoming().take(n) {
                handle(&r, s.unwrap(), true);
            }
        });
        port
    }

    /// A raw request; returns the head (status line and headers) and the body.
    fn request(port: u16, req: &str) -> (String, Vec<u8>) {
        let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
        s.write_all(req.as_bytes()).unwrap();
        let mut out = Vec::new();
        s.read_to_end(&mut out).unwrap();
        let split = out.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
        let head = String::from_utf8(out[..split + 2].to_vec()).unwrap();
        (head, out[split + 4..].to_vec())
    }

    fn header<'a>(head: &'a str, name: &str) -> Option<&'a str> {
        head.lines().find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.eq_ignore_ascii_case(name).then(|| v.trim())
        })
    }

    #[test]
    fn precompressed_copies_answer_accept_encoding() {
        let root = std::env::temp_dir().join(format!("lbscope-webbuild-gzserve-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(&root).unwrap();
        let js = "console.log('the engine');\n".repeat(300);
        std::fs::write(root.join("index.html"), "<!doctype html><p>frame</p>".repeat(50)).unwrap();
        std::fs::write(root.join("app.js"), &js).unwrap();
        std::fs::write(root.join("m.wasm"), [0u8, 97, 115, 109].repeat(1000)).unwrap();
        std::fs::write(root.join("plain.txt"), "no copy").unwrap();
        for f in ["index.html", "app.js", "m.wasm"] {
            crate::compress::precompress_file(&root.join(f), crate::compress::BROTLI_QUALITY)
                .unwrap()
                .unwrap();
        }
        let gz = std::fs::read(root.join("app.js.gz")).unwrap();
        let br = std::fs::read(root.join("app.js.br")).unwrap();
        let port = server(&root, 12);

        // Brotli first when it is taken (Chromium sends "gzip, deflate, br, zstd").
        let (head, body) = request(
            port,
            "GET /app.js HTTP/1.1\r\nAccept-Encoding: gzip, deflate, br, zstd\r\n\r\n",
        );
        assert!(head.starts_with("HTTP/1.1 200 OK\r\n"), "{head}");
        assert_eq!(header(&head, "Content-Encoding"), Some("br"));
        assert_eq!(header(&head, "Vary"), Some("Accept-Encoding"));
        assert_eq!(body, br);
        let br_tag = header(&head, "ETag").unwrap().to_string();
        let (head, _) = request(
            port,
            "GET /app.js HTTP/1.1\r\nAccept-Encoding: br;q=0, gzip\r\n\r\n",
        );
        assert_eq!(header(&head, "Content-Encoding"), Some("gzip"));

        // Taken: the .gz bytes, labelled, with the original's type.
        let (head, body) = request(
            port,
            "GET /app.js HTTP/1.1\r\nAccept-Encoding: gzip, deflate\r\n\r\n",
        );
        assert!(head.starts_with("HTTP/1.1 200 OK\r\n"), "{head}");
        assert_eq!(header(&head, "Content-Encoding"), Some("gzip"));
        assert_eq!(
            header(&head, "Content-Type"),
            Some("text/javascript; charset=utf-8")
        );
        assert_eq!(header(&head, "Vary"), Some("Accept-Encoding"));
        assert_eq!(header(&head, "Cache-Control"), Some("no-cache"));
        assert_eq!(
            header(&head, "Content-Length"),
            Some(gz.len().to_string().as_str())
        );
        assert_eq!(body, gz);
        let gz_tag = header(&head, "ETag").unwrap().to_string();
        assert_ne!(gz_tag, br_tag, "each encoding has its own tag");

        // Not taken (or refused with q=0): the original bytes, still with Vary.
        for accept in [
            "",
            "Accept-Encoding: zstd\r\n",
            "Accept-Encoding: gzip;q=0, br;q=0, *\r\n",
        ] {
            let (head, body) = request(port, &format!("GET /app.js HTTP/1.1\r\n{accept}\r\n"));
            assert_eq!(header(&head, "Content-Encoding"), None, "{accept}");
            assert_eq!(header(&head, "Vary"), Some("Accept-Encoding"));
            assert_eq!(body, js.as_bytes());
            assert_ne!(
                header(&head, "ETag").unwrap(),
                gz_tag,
                "each encoding has its own tag"
            );
        }

        // The wasm keeps application/wasm (streaming compilation), compressed.
        let (head, body) = request(port, "GET /m.wasm HTTP/1.1\r\nAccept-Encoding: gzip\r\n\r\n");
        assert_eq!(header(&head, "Content-Type"), Some("application/wasm"));
        assert_eq!(header(&head, "Content-Encoding"), Some("gzip"));
        assert!(body.len() < 4000);

        // The page itself: compressed, never cached without asking, framing headers kept.
        let (head, _) = request(port, "GET / HTTP/1.1\r\nAccept-Encoding: gzip\r\n\r\n");
        assert_eq!(header(&head, "Content-Encoding"), Some("gzip"));
        assert_eq!(header(&head, "Cache-Control"), Some("no-cache"));
        assert_eq!(header(&head, "X-Frame-Options"), Some("DENY"));

        // A file without a copy: no Vary, no encoding.
        let (head, body) = request(port, "GET /plain.txt HTTP/1.1\r\nAccept-Encoding: gzip\r\n\r\n");
        assert_eq!(
            (header(&head, "Vary"), header(&head, "Content-Encoding")),
            (None, None)
        );
        assert_eq!(body, b"no copy");

        // Revalidation: the tag sent back gets a 304 without a body; another tag the bytes.
        let (head, body) = request(
            port,
            &format!("GET /app.js HTTP/1.1\r\nAccept-Encoding: gzip\r\nIf-None-Match: {gz_tag}\r\n\r\n"),
        );
        assert!(head.starts_with("HTTP/1.1 304 Not Modified\r\n"), "{head}");
        assert_eq!(header(&head, "Content-Length"), None);
        assert_eq!(header(&head, "ETag"), Some(gz_tag.as_str()));
        assert!(body.is_empty());
        let (head, _) = request(
            port,
            "GET /app.js HTTP/1.1\r\nAccept-Encoding: gzip\r\nIf-None-Match: \"other\"\r\n\r\n",
        );
        assert!(head.starts_with("HTTP/1.1 200 OK\r\n"), "{head}");

        // A copy older than its file (the file edited by hand) is not used.
        let file = std::fs::File::options()
            .write(true)
            .open(root.join("app.js"))
            .unwrap();
        let later = std::fs::metadata(root.join("app.js.gz"))
            .unwrap()
            .modified()
            .unwrap()
            + Duration::from_secs(5);
        file.set_modified(later).unwrap();
        let (head, body) = request(port, "GET /app.js HTTP/1.1\r\nAccept-Encoding: gzip\r\n\r\n");
        assert_eq!(header(&head, "Content-Encoding"), None, "{head}");
        assert_eq!(body, js.as_bytes());
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn embed_links_are_told_by_their_query() {
        for t in [
            "/?embed=ring",
            "/?embed",
            "/index.html?embed=slots&controls",
            "/?controls&embed=instances",
            "/?embed=",
        ] {
            assert!(is_embed(t), "{t}");
        }
        for t in [
            "/",
            "/index.html",
            "/?embedded=1",
            "/?x=embed",
            "/embed",
            "/#embed=ring",
            "/?a=1#embed",
        ] {
            assert!(!is_embed(t), "{t}");
        }
        assert_eq!(
            frame_headers("/?embed=ring"),
            &[("Content-Security-Policy", "frame-ancestors *")]
        );
        assert_eq!(frame_headers("/")[0].1, "frame-ancestors 'none'");
    }
}
