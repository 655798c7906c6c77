//! Precompressed copies of the page's files: `dist` writes `<file>.gz` next to each text file and
//! the wasm, so that `serve` (or any host that can serve a precompressed sibling, see
//! docs/building.md) sends the compressed bytes without compressing on every request.
//!
//! gzip only: miniz_oxide (already linked for `size`) writes the DEFLATE stream and crc32fast
//! (already in the workspace's lock) its checksum. A Brotli encoder would save about a tenth
//! more on the wasm, at the cost of a much larger crate to compile in an unoptimised tool.

use anyhow::{Context, Result};
use std::path::{Path, PathBuf};

/// The DEFLATE level of the precompressed files (miniz_oxide's best: 10).
pub const LEVEL: u8 = 10;

/// Whether a file is worth a compressed copy: text and wasm (images other than SVG are
/// compressed already).
pub fn compressible(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|e| e.to_str()).unwrap_or(""),
        "html" | "htm" | "js" | "mjs" | "css" | "wasm" | "json" | "map" | "svg" | "txt"
    )
}

/// `data` as a gzip member (RFC 1952): a 10-byte header without name or time (so the output
/// depends on the input alone), the DEFLATE stream, the CRC-32 and the length mod 2^32.
pub fn gzip(data: &[u8], level: u8) -> Vec<u8> {
    let deflated = miniz_oxide::deflate::compress_to_vec(data, level);
    let mut out = Vec::with_capacity(deflated.len() + 18);
    // ID1 ID2, CM = 8 (deflate), FLG = 0, MTIME = 0, XFL = 2 (best compression), OS = 255.
    out.extend_from_slice(&[0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 2, 255]);
    out.extend_from_slice(&deflated);
    out.extend_from_slice(&crc32fast::hash(data).to_le_bytes());
    out.extend_from_slice(&(data.len() as u32).to_le_bytes());
    out
}

/// One compressed copy written by [`precompress`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    /// The original file.
    pub path: PathBuf,
    /// Its size in bytes.
    pub raw: u64,
    /// The size of `<path>.gz`.
    pub gz: u64,
}

/// The `.gz` sibling of `path`.
pub fn gz_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_os_string();
    name.push(".gz");
    PathBuf::from(name)
}

/// Writes `<file>.gz` next to `file` when the copy is smaller; returns its size (`None` when
/// the file is not worth compressing, and then no copy is left behind).
pub fn precompress_file(file: &Path) -> Result<Option<Written>> {
    let data = std::fs::read(file).with_context(|| format!("cannot read {}", file.display()))?;
    let gz = gzip(&data, LEVEL);
    let target = gz_path(file);
    if gz.len() >= data.len() {
        let _ = std::fs::remove_file(&target);
        return Ok(None);
    }
    std::fs::write(&target, &gz).with_context(|| format!("cannot write {}", target.display()))?;
    Ok(Some(Written {
        path: file.to_path_buf(),
        raw: data.len() as u64,
        gz: gz.len() as u64,
    }))
}

/// Compressed copies of every [`compressible`] file directly in `dir` (the page is flat) but
/// those in `done` (compressed already), in name order.
pub fn precompress(dir: &Path, done: &[PathBuf]) -> Result<Vec<Written>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot list {}", dir.display()))?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.is_file() && compressible(p) && !done.contains(p))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        if let Some(w) = precompress_file(&f)? {
            out.push(w);
        }
    }
    Ok(out)
}

/// `1288123` as `1.3 MB` (decimal megabytes, as a download is counted), `850 KB` below one MB.
pub fn human(bytes: u64) -> String {
    if bytes >= 1_000_000 {
        format!("{:.1} MB", bytes as f64 / 1e6)
    } else if bytes < 1000 {
        format!("{bytes} bytes")
    } else {
        format!("{} KB", (bytes + 500) / 1000)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Decodes a gzip member written by [`gzip`] and checks its trailer.
    fn gunzip(gz: &[u8]) -> Vec<u8> {
        assert_eq!(&gz[..4], &[0x1f, 0x8b, 8, 0], "gzip magic, deflate, no flags");
        let body = &gz[10..gz.len() - 8];
        let data = miniz_oxide::inflate::decompress_to_vec(body).expect("a valid DEFLATE stream");
        let trailer = &gz[gz.len() - 8..];
        assert_eq!(trailer[..4], crc32fast::hash(&data).to_le_bytes());
        assert_eq!(trailer[4..], (data.len() as u32).to_le_bytes());
        data
    }

    #[test]
    fn gzip_round_trips_and_shrinks_text() {
        let text = "Loading the engine… ".repeat(500);
        let gz = gzip(text.as_bytes(), LEVEL);
        assert!(gz.len() < text.len() / 10, "{} of {}", gz.len(), text.len());
        assert_eq!(gunzip(&gz), text.as_bytes());
        assert_eq!(gunzip(&gzip(b"", LEVEL)), b"");
        // The same input gives the same bytes (no time stamp in the header).
        assert_eq!(gzip(text.as_bytes(), LEVEL), gz);
    }

    #[test]
    fn the_system_gzip_reads_the_copies() {
        let dir = std::env::temp_dir().join(format!("lbscope-webbuild-gz-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("a.js");
        let text = "export const a = 'abc';\n".repeat(200);
        std::fs::write(&file, &text).unwrap();
        let w = precompress_file(&file).unwrap().unwrap();
        assert_eq!(w.raw, text.len() as u64);
        assert_eq!(w.gz, std::fs::metadata(dir.join("a.js.gz")).unwrap().len());
        match std::process::Command::new("gzip")
            .args(["-dc"])
            .arg(dir.join("a.js.gz"))
            .output()
        {
            Ok(out) => {
                assert!(out.status.success());
                assert_eq!(out.stdout, text.as_bytes());
            }
            Err(_) => eprintln!("no gzip command: checked with miniz_oxide only"),
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn only_text_and_wasm_get_copies_and_only_when_smaller() {
        let dir = std::env::temp_dir().join(format!("lbscope-webbuild-gzdir-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("index.html"), "<p>hello</p>".repeat(100)).unwrap();
        std::fs::write(dir.join("app_bg.wasm"), [0u8; 4096]).unwrap();
        std::fs::write(dir.join("tiny.css"), "a{}").unwrap();
        std::fs::write(dir.join("tiny.css.gz"), "stale").unwrap();
        std::fs::write(dir.join("photo.png"), "x".repeat(1000)).unwrap();
        std::fs::write(dir.join("done.js"), "x".repeat(1000)).unwrap();
        let written = precompress(&dir, &[dir.join("done.js")]).unwrap();
        assert!(!dir.join("done.js.gz").exists(), "compressed already: left alone");
        let names: Vec<_> = written
            .iter()
            .map(|w| w.path.file_name().unwrap().to_str().unwrap())
            .collect();
        assert_eq!(names, ["app_bg.wasm", "index.html"]);
        assert!(dir.join("index.html.gz").is_file());
        assert!(!dir.join("photo.png.gz").exists(), "PNG is compressed already");
        assert!(!dir.join("tiny.css.gz").exists(), "a copy no smaller is not kept");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn sizes_read_as_a_download_is_counted() {
        assert_eq!(human(1_288_123), "1.3 MB");
        assert_eq!(human(899_600), "900 KB");
        assert_eq!(human(999_499), "999 KB");
        assert_eq!(human(1_000_000), "1.0 MB");
        assert_eq!(human(12), "12 bytes");
    }
}
