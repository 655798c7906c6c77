//! Precompressed copies of the page's files: `dist` writes `<file>.gz` and `<file>.br` next to
//! each text file and the wasm, so that `serve` (or any host that can serve a precompressed
//! sibling, see docs/building.md) sends the compressed bytes without compressing on every
//! request.
//!
//! gzip: miniz_oxide (already linked for `size`) writes the DEFLATE stream and crc32fast
//! (already in the workspace's lock) its checksum. Brotli: the pure-Rust `brotli` crate at its
//! best quality, about a quarter smaller than gzip on the wasm.

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

/// The Brotli quality of the precompressed text files (the best: 11; they are small).
pub const BROTLI_QUALITY: i32 = 11;

/// The Brotli quality of a release build's wasm. Measured on the 3.37 MB release wasm with
/// this tool's build (the encoder's own code optimised, the generic code it is called through
/// not): quality 9 gives 1,087,409 bytes in 2.9 s, 10 gives 1,006,989 in 19.5 s, 11 gives
/// 971,163 in 35.1 s (a busy 2-core machine); 10 keeps most of the gain at half the time.
pub const BROTLI_QUALITY_WASM: i32 = 10;

/// The Brotli quality of a quick build's wasm (`make serve FAST=1`): seconds, not tens.
pub const BROTLI_QUALITY_QUICK: i32 = 9;

/// `data` as a Brotli stream (RFC 7932) at `quality`, with a 4 MiB window.
pub fn brotli(data: &[u8], quality: i32) -> Vec<u8> {
    let params = brotli::enc::BrotliEncoderParams {
        quality,
        lgwin: 22,
        size_hint: data.len(),
        ..Default::default()
    };
    let mut out = Vec::with_capacity(data.len() / 3);
    brotli::BrotliCompress(&mut &data[..], &mut out, &params).expect("writing to memory");
    out
}

/// The compressed copies of one file, written by [`precompress`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    /// The original file.
    pub path: PathBuf,
    /// Its size in bytes.
    pub raw: u64,
    /// The size of `<path>.gz`.
    pub gz: u64,
    /// The size of `<path>.br`, when that copy is smaller than the gzip one.
    pub br: Option<u64>,
}

/// `path` with `ext` appended (`a.js` and `gz` give `a.js.gz`).
fn sibling(path: &Path, ext: &str) -> PathBuf {
    let mut name = path.as_os_str().to_os_string();
    name.push(".");
    name.push(ext);
    PathBuf::from(name)
}

/// The `.gz` sibling of `path`.
pub fn gz_path(path: &Path) -> PathBuf {
    sibling(path, "gz")
}

/// The `.br` sibling of `path`.
pub fn br_path(path: &Path) -> PathBuf {
    sibling(path, "br")
}

/// Writes `<file>.gz` next to `file` when the copy is smaller, and `<file>.br` when that is
/// smaller still; returns their sizes (`None` when the file is not worth compressing, and then
/// no copy is left behind).
pub fn precompress_file(file: &Path, brotli_quality: i32) -> Result<Option<Written>> {
    let data = std::fs::read(file).with_context(|| format!("cannot read {}", file.display()))?;
    let gz = gzip(&data, LEVEL);
    let (gz_target, br_target) = (gz_path(file), br_path(file));
    if gz.len() >= data.len() {
        let _ = std::fs::remove_file(&gz_target);
        let _ = std::fs::remove_file(&br_target);
        return Ok(None);
    }
    let write = |target: &Path, bytes: &[u8]| {
        std::fs::write(target, bytes).with_context(|| format!("cannot write {}", target.display()))
    };
    write(&gz_target, &gz)?;
    let br = brotli(&data, brotli_quality);
    let br = if br.len() < gz.len() {
        write(&br_target, &br)?;
        Some(br.len() as u64)
    } else {
        let _ = std::fs::remove_file(&br_target);
        None
    };
    Ok(Some(Written {
        path: file.to_path_buf(),
        raw: data.len() as u64,
        gz: gz.len() as u64,
        br,
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
        if let Some(w) = precompress_file(&f, BROTLI_QUALITY)? {
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

    fn unbrotli(br: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        brotli::BrotliDecompress(&mut &br[..], &mut out).expect("a valid Brotli stream");
        out
    }

    #[test]
    fn brotli_round_trips_and_beats_gzip_on_text() {
        let text: String = (0..2000)
            .map(|i| format!("bundle-{i} 0x{:08x}\n", (i as u32).wrapping_mul(2_654_435_761)))
            .collect();
        let br = brotli(text.as_bytes(), BROTLI_QUALITY);
        assert_eq!(unbrotli(&br), text.as_bytes());
        assert!(br.len() < gzip(text.as_bytes(), LEVEL).len(), "{}", br.len());
        assert_eq!(unbrotli(&brotli(b"", BROTLI_QUALITY)), b"");
        assert_eq!(
            unbrotli(&brotli(text.as_bytes(), BROTLI_QUALITY_QUICK)),
            text.as_bytes()
        );
    }

    #[test]
    fn the_system_gzip_reads_the_copies() {
        let dir = std::env::temp_dir().join(format!("lbscope-webbuild-gz-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("a.js");
        let text = "export const a = 'abc';\n".repeat(200);
        std::fs::write(&file, &text).unwrap();
        let w = precompress_file(&file, BROTLI_QUALITY).unwrap().unwrap();
        assert_eq!(w.raw, text.len() as u64);
        assert_eq!(w.gz, std::fs::metadata(dir.join("a.js.gz")).unwrap().len());
        assert_eq!(w.br, Some(std::fs::metadata(dir.join("a.js.br")).unwrap().len()));
        assert_eq!(
            unbrotli(&std::fs::read(dir.join("a.js.br")).unwrap()),
            text.as_bytes()
        );
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
        std::fs::write(dir.join("tiny.css.br"), "stale").unwrap();
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
        assert!(dir.join("index.html.br").is_file());
        assert!(!dir.join("photo.png.gz").exists(), "PNG is compressed already");
        assert!(!dir.join("tiny.css.gz").exists(), "a copy no smaller is not kept");
        assert!(!dir.join("tiny.css.br").exists());
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
