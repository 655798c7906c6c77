//! Share links: `#s=<version>.<base64url(deflate(json))>` in the URL fragment.
//!
//! Every format version ever written keeps a decoder here.

use super::{Scenario, ScenarioError, FORMAT_VERSION};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;

/// Most bytes a share link's scenario may inflate to.
pub const MAX_INFLATED: usize = 4 << 20;
/// Most characters of a share link we try to decode.
pub const MAX_LINK: usize = 1 << 20;

/// Why a share link could not be opened.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LinkError {
    /// No `s=` parameter in the fragment.
    #[error("the link holds no scenario (expected #s=<version>.<data>)")]
    NoScenario,
    /// The version part is not a whole number.
    #[error("the link's version {0:?} is not a number (expected #s=<version>.<data>, e.g. #s=2.…)")]
    BadVersion(String),
    /// Version 0 or a negative version: link versions start at 1.
    #[error("the link's version {0} does not exist: link versions start at 1 (this lbscope reads 1 to {max})", max = FORMAT_VERSION)]
    NoSuchVersion(String),
    /// A version this build does not know.
    #[error("the link was made by a newer lbscope (link version {found}, this one reads 1 to {max})")]
    FutureVersion {
        /// Found.
        found: u64,
        /// Highest supported.
        max: u32,
    },
    /// A version number larger than any lbscope could write.
    #[error("the link's version {0} is larger than any lbscope link version (this one reads 1 to {max}; was it edited?)", max = FORMAT_VERSION)]
    VersionOutOfRange(String),
    /// A character base64url does not use.
    #[error("the link's data is not valid base64url: {found:?} at character {at} is not one of A-Z a-z 0-9 - _ (was it cut or edited?)")]
    Base64 {
        /// Position in the data part.
        at: usize,
        /// The character found there.
        found: char,
    },
    /// A length base64url cannot have, or stray bits at the end.
    #[error("the link's data is not valid base64url: {0} (was it cut?)")]
    Base64Length(String),
    /// The data does not inflate.
    #[error("the link's data is damaged: it does not decompress, {0} (was it cut or edited?)")]
    Inflate(&'static str),
    /// Inflated to bytes that are not UTF-8 text.
    #[error("the link's data decompresses, but to bytes that are not UTF-8 text (byte {at} is not valid UTF-8): it was not made by lbscope")]
    NotText {
        /// Offset of the first byte that is not UTF-8.
        at: usize,
    },
    /// Too large.
    #[error("the link is too large (limit {limit} bytes; share the scenario's JSON file instead)")]
    TooLarge {
        /// The limit that was passed.
        limit: usize,
    },
    /// Bytes follow the end of the compressed data.
    #[error("the link's data has {0} byte(s) after the end of its compressed scenario (was it edited, or two links joined?)")]
    TrailingData(usize),
    /// The version in front says less than the scenario inside: version 1
    /// links were written before format 2 existed.
    #[error("the link says version {link}, but the scenario inside is format {format}, which version {link} links never held (was it edited?)")]
    VersionMismatch {
        /// The link's version.
        link: u64,
        /// The scenario's `format`.
        format: u32,
    },
    /// The page address in front of the fragment holds a `#` already.
    #[error("the page address {0:?} holds a '#': the scenario must be the link's only fragment (#s=...)")]
    BaseHasFragment(String),
    /// Decompresses to more than [`MAX_INFLATED`].
    #[error("the link's data decompresses to more than {limit} bytes, the most a scenario link may hold; it was stopped there", limit = MAX_INFLATED)]
    InflatesTooLarge,
    /// Inflated, but not a valid scenario.
    #[error("the link decompresses but is not a valid scenario: {0}")]
    Scenario(#[from] ScenarioError),
}

/// Encode a scenario as the fragment value `"<version>.<data>"` (without `#s=`).
pub fn encode(s: &Scenario) -> String {
    let json = serde_json::to_vec(s).unwrap_or_default();
    let packed = miniz_oxide::deflate::compress_to_vec(&json, 9);
    format!("{FORMAT_VERSION}.{}", URL_SAFE_NO_PAD.encode(packed))
}

/// Whether `link` (the share link of `sc`) stays within what [`decode`]
/// reads: at most [`MAX_LINK`] characters, inflating to at most
/// [`MAX_INFLATED`] bytes. A scenario too large for a link is shared as its
/// JSON file instead.
pub fn check_openable(sc: &Scenario, link: &str) -> Result<(), LinkError> {
    // The fragment must be the scenario's: a page address with a `#` of its
    // own would make `##s=` (or `#embed#s=`), which no reader opens.
    if let Some((base, _)) = link.split_once("#s=") {
        if base.contains('#') {
            return Err(LinkError::BaseHasFragment(base.to_string()));
        }
    }
    if link.len() > MAX_LINK {
        return Err(LinkError::TooLarge { limit: MAX_LINK });
    }
    if serde_json::to_vec(sc).map_or(0, |j| j.len()) > MAX_INFLATED {
        return Err(LinkError::InflatesTooLarge);
    }
    Ok(())
}

/// Encode as a fragment, `#s=...`.
pub fn to_fragment(s: &Scenario) -> String {
    format!("#s={}", encode(s))
}

/// Decode a full URL, a fragment (`#s=...`), or a bare `"<version>.<data>"`.
pub fn decode(link: &str) -> Result<Scenario, LinkError> {
    if link.len() > MAX_LINK {
        return Err(LinkError::TooLarge { limit: MAX_LINK });
    }
    let value = extract(link).ok_or(LinkError::NoScenario)?;
    let (ver, data) = value.split_once('.').ok_or(LinkError::NoScenario)?;
    match version(ver)? {
        v @ (1 | 2) => {
            let sc = decode_packed(data)?;
            if u64::from(sc.format) > v {
                return Err(LinkError::VersionMismatch {
                    link: v,
                    format: sc.format,
                });
            }
            Ok(sc)
        }
        found => Err(LinkError::FutureVersion {
            found,
            max: FORMAT_VERSION,
        }),
    }
}

/// Read the version part: a whole number from 1 up, each other case named.
fn version(ver: &str) -> Result<u64, LinkError> {
    let shown = || ver.chars().take(20).collect::<String>();
    let digits = ver.strip_prefix('-').unwrap_or(ver);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(LinkError::BadVersion(shown()));
    }
    if ver.starts_with('-') {
        return Err(LinkError::NoSuchVersion(shown()));
    }
    // Versions are u32 in the scenario format; anything wider was never written.
    match digits.parse::<u32>() {
        Ok(0) => Err(LinkError::NoSuchVersion("0".into())),
        Ok(v) => Ok(u64::from(v)),
        Err(_) => Err(LinkError::VersionOutOfRange(shown())),
    }
}

/// The value of `s=` in the fragment (or the string itself when it has no `#`/`s=`).
fn extract(link: &str) -> Option<&str> {
    let frag = link.split_once('#').map_or(link, |(_, f)| f);
    for part in frag.split('&') {
        if let Some(v) = part.strip_prefix("s=") {
            return Some(v.trim());
        }
    }
    (!link.contains('#') && !frag.contains('=') && frag.contains('.')).then_some(frag.trim())
}

/// Versions 1 and 2 share the container (the JSON inside carries its own format).
///
/// The data part is at most [`MAX_LINK`] characters, and inflating stops at
/// [`MAX_INFLATED`] bytes, so a small link that would inflate to gigabytes
/// (a "zip bomb") costs at most that much memory and is refused.
fn decode_packed(data: &str) -> Result<Scenario, LinkError> {
    use base64::DecodeError;
    let data = data.trim_end_matches('=');
    let packed = URL_SAFE_NO_PAD.decode(data).map_err(|e| match e {
        DecodeError::InvalidByte(at, _) | DecodeError::InvalidLastSymbol(at, _) if !is_b64(data, at) => {
            LinkError::Base64 {
                at,
                found: data.get(at..).and_then(|r| r.chars().next()).unwrap_or('?'),
            }
        }
        DecodeError::InvalidLength(n) => {
            LinkError::Base64Length(format!("{n} characters is a length base64url never has"))
        }
        DecodeError::InvalidByte(at, _) | DecodeError::InvalidLastSymbol(at, _) => {
            LinkError::Base64Length(format!("the last character (at {at}) carries stray bits"))
        }
        DecodeError::InvalidPadding => LinkError::Base64Length("bad padding".into()),
    })?;
    let json = inflate_exact(&packed)?;
    let text = String::from_utf8(json).map_err(|e| LinkError::NotText {
        at: e.utf8_error().valid_up_to(),
    })?;
    Ok(Scenario::from_json(&text)?)
}

/// Inflate the raw deflate stream `packed` into at most [`MAX_INFLATED`]
/// bytes (the output grows by doubling from twice the input), refusing bytes
/// after the end of the stream.
fn inflate_exact(mut packed: &[u8]) -> Result<Vec<u8>, LinkError> {
    use miniz_oxide::inflate::core::{decompress, inflate_flags, DecompressorOxide};
    use miniz_oxide::inflate::TINFLStatus;
    let flags = inflate_flags::TINFL_FLAG_USING_NON_WRAPPING_OUTPUT_BUF;
    let mut out = vec![0u8; packed.len().saturating_mul(2).clamp(64, MAX_INFLATED)];
    let mut state = Box::<DecompressorOxide>::default();
    let mut at = 0;
    loop {
        let (status, used, written) = decompress(&mut state, packed, &mut out, at, flags);
        at += written;
        packed = packed.get(used..).unwrap_or_default();
        match status {
            TINFLStatus::Done if packed.is_empty() => {
                out.truncate(at);
                return Ok(out);
            }
            TINFLStatus::Done => return Err(LinkError::TrailingData(packed.len())),
            TINFLStatus::HasMoreOutput if out.len() >= MAX_INFLATED => {
                return Err(LinkError::InflatesTooLarge)
            }
            TINFLStatus::HasMoreOutput => {
                let grown = out.len().saturating_mul(2).min(MAX_INFLATED);
                out.resize(grown, 0);
            }
            TINFLStatus::FailedCannotMakeProgress | TINFLStatus::NeedsMoreInput => {
                return Err(LinkError::Inflate("the compressed data ends early"))
            }
            TINFLStatus::Adler32Mismatch => return Err(LinkError::Inflate("its checksum does not match")),
            _ => return Err(LinkError::Inflate("the compressed data is corrupt")),
        }
    }
}

/// Whether the character at byte `at` of `data` is in the base64url alphabet.
fn is_b64(data: &str, at: usize) -> bool {
    data.as_bytes()
        .get(at)
        .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'-' || *b == b'_')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::pulsar;
    use crate::scenario::{Body, Log};

    fn sample() -> Scenario {
        let mut s = Scenario::of::<crate::engine::pulsar::Sim>(7, Log::default());
        if let Body::Pulsar(log) = &mut s.body {
            log.setup.push(pulsar::Action::CreateNamespace {
                namespace: "public/default".into(),
                bundles: Some(4),
            });
            for i in 0..100 {
                log.actions.push(pulsar::Action::CreateTopic {
                    topic: format!("t-{i}"),
                });
            }
        }
        s
    }

    #[test]
    fn round_trip_and_size() {
        let s = sample();
        let frag = to_fragment(&s);
        assert!(frag.starts_with("#s=2."));
        assert!(frag.len() < 2000, "100-action link is {} chars", frag.len());
        assert_eq!(decode(&format!("http://127.0.0.1:8080/{frag}")).unwrap(), s);
        assert_eq!(decode(&frag).unwrap(), s);
        assert_eq!(decode(&encode(&s)).unwrap(), s);
    }

    #[test]
    fn bad_links_are_named() {
        let good = encode(&sample());
        assert_eq!(decode("http://x/#foo=1"), Err(LinkError::NoScenario));
        assert_eq!(decode("#s=abc"), Err(LinkError::NoScenario));
        assert!(matches!(decode("#s=x.abc"), Err(LinkError::BadVersion(_))));
        assert_eq!(
            decode(&format!("#s=9.{}", &good[2..])),
            Err(LinkError::FutureVersion { found: 9, max: 2 })
        );
        assert_eq!(decode("#s=1.!!!"), Err(LinkError::Base64 { at: 0, found: '!' }));
        // Truncated data.
        assert!(matches!(
            decode(&format!("#s={}", &good[..good.len() / 2])),
            Err(LinkError::Inflate(_) | LinkError::Base64Length(_))
        ));
        // Tampered: a valid deflate stream of something that is not a scenario.
        let junk = URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(b"{\"format\":1}", 9));
        assert!(matches!(
            decode(&format!("#s=1.{junk}")),
            Err(LinkError::Scenario(_))
        ));
        // A bomb: inflates past the limit.
        let bomb = URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(
            &vec![b' '; MAX_INFLATED + 10],
            9,
        ));
        assert_eq!(decode(&format!("#s=1.{bomb}")), Err(LinkError::InflatesTooLarge));
    }

    #[test]
    fn each_bad_version_names_what_is_wrong() {
        let good = encode(&sample());
        let data = &good[2..];
        let msg = |v: &str| decode(&format!("#s={v}.{data}")).unwrap_err().to_string();
        let zero = msg("0");
        assert!(
            zero.contains("version 0 does not exist") && zero.contains("start at 1"),
            "{zero}"
        );
        let neg = msg("-1");
        assert!(neg.contains("version -1 does not exist"), "{neg}");
        let wide = msg("4294967296");
        assert!(
            wide.contains("4294967296 is larger than any lbscope link version"),
            "{wide}"
        );
        let max = msg("4294967295");
        assert!(max.contains("newer lbscope (link version 4294967295"), "{max}");
        for bad in ["", "x", "1e3", "+1", "--1", "2 "] {
            let m = msg(bad);
            assert!(m.contains("is not a number"), "{bad:?}: {m}");
        }
    }

    #[test]
    fn bad_data_names_what_is_wrong() {
        // Deflate of bytes that are not UTF-8.
        let not_text = URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(b"{\"a\":\xff}", 9));
        assert_eq!(
            decode(&format!("#s=2.{not_text}")),
            Err(LinkError::NotText { at: 5 })
        );
        let m = decode(&format!("#s=2.{not_text}")).unwrap_err().to_string();
        assert!(
            m.contains("not UTF-8") && !m.contains("does not decompress"),
            "{m}"
        );
        // A character outside base64url, named with its place.
        let m = decode("#s=2.AAAA*AAA").unwrap_err().to_string();
        assert!(m.contains("'*' at character 4"), "{m}");
        // A length base64 never has (one character in the last group).
        assert!(matches!(decode("#s=2.AAAAA"), Err(LinkError::Base64Length(_))));
        // Valid base64 that is not deflate.
        let m = decode(&format!("#s=2.{}", URL_SAFE_NO_PAD.encode(b"hello, not deflate")))
            .unwrap_err()
            .to_string();
        assert!(m.contains("does not decompress"), "{m}");
        // Empty data.
        assert!(matches!(decode("#s=2."), Err(LinkError::Inflate(_))));
    }

    #[test]
    fn a_zip_bomb_stops_at_the_cap() {
        // 64 MiB of zeros packs into about 64 KiB: inflating stops at the cap.
        let packed = miniz_oxide::deflate::compress_to_vec(&vec![0u8; 64 << 20], 9);
        assert!(packed.len() < 128 << 10);
        let link = format!("#s=2.{}", URL_SAFE_NO_PAD.encode(&packed));
        assert_eq!(decode(&link), Err(LinkError::InflatesTooLarge));
        // A link longer than the cap is not even decoded.
        let huge = format!("#s=2.{}", "A".repeat(MAX_LINK));
        assert_eq!(decode(&huge), Err(LinkError::TooLarge { limit: MAX_LINK }));
    }

    #[test]
    fn a_scenario_too_large_for_a_link_is_not_given_one() {
        let s = sample();
        check_openable(&s, &to_fragment(&s)).unwrap();
        // Names that do not compress: the link passes the cap.
        let mut big = Scenario::of::<crate::engine::pulsar::Sim>(1, Log::default());
        if let Body::Pulsar(log) = &mut big.body {
            let mut x: u64 = 1;
            for _ in 0..60_000 {
                let name: String = (0..24)
                    .map(|_| {
                        x = x
                            .wrapping_mul(6_364_136_223_846_793_005)
                            .wrapping_add(1_442_695_040_888_963_407);
                        char::from(b'a' + (x >> 59) as u8 % 26)
                    })
                    .collect();
                log.actions.push(pulsar::Action::CreateTopic { topic: name });
            }
        }
        let frag = to_fragment(&big);
        assert!(frag.len() > MAX_LINK, "{}", frag.len());
        assert_eq!(
            check_openable(&big, &frag),
            Err(LinkError::TooLarge { limit: MAX_LINK })
        );
    }
}
