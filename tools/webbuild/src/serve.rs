//! A minimal static file server for `dist/` on 127.0.0.1 (std only): GET and HEAD, one thread
//! per connection, `Connection: close`, the MIME types the page needs (`application/wasm` for
//! streaming compilation), `Cache-Control: no-cache` so a rebuilt `dist/` is picked up on reload.
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

fn respond(stream: &mut TcpStream, status: &str, headers: &[(&str, &str)], body: &[u8], head_only: bool) {
    let mut msg = format!(
        "HTTP/1.1 {status}\r\nContent-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
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
    // Read (and ignore) the headers, up to a bound.
    let mut header_bytes = 0usize;
    loop {
        let mut line = String::new();
        match reader.read_line(&mut line) {
            Ok(0) => break,
            Ok(n) => {
                header_bytes += n;
                if line == "\r\n" || line == "\n" || header_bytes > 64 * 1024 {
                    break;
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
    let status = match resolve(root, target).map(|p| (std::fs::read(&p), p)) {
        Some((Ok(body), path)) => {
            let mut headers = vec![
                ("Content-Type", mime(&path)),
                ("Cache-Control", "no-cache"),
                ("X-Content-Type-Options", "nosniff"),
            ];
            // Framing concerns documents only (scripts, styles and the wasm are not framed).
            if mime(&path).starts_with("text/html") {
                headers.extend_from_slice(frame_headers(target));
            }
            respond(&mut stream, "200 OK", &headers, &body, head_only);
            200
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
