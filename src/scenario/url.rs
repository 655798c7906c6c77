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
    /// The version part is not a number.
    #[error("the link's version {0:?} is not a number")]
    BadVersion(String),
    /// A version this build does not know.
    #[error("the link was made by a newer lbscope (link version {found}, this one reads 1 to {max})")]
    FutureVersion {
        /// Found.
        found: u32,
        /// Highest supported.
        max: u32,
    },
    /// The data is not base64url.
    #[error("the link's data is not valid base64url (was it cut or edited?)")]
    Base64,
    /// The data does not inflate.
    #[error("the link's data is damaged: it does not decompress (was it cut or edited?)")]
    Inflate,
    /// Too large.
    #[error("the link is too large (limit {limit} bytes)")]
    TooLarge {
        /// The limit that was passed.
        limit: usize,
    },
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
    let version: u32 = ver
        .parse()
        .map_err(|_| LinkError::BadVersion(ver.chars().take(20).collect()))?;
    match version {
        1 | 2 => decode_packed(data),
        0 => Err(LinkError::BadVersion("0".into())),
        found => Err(LinkError::FutureVersion {
            found,
            max: FORMAT_VERSION,
        }),
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
fn decode_packed(data: &str) -> Result<Scenario, LinkError> {
    let packed = URL_SAFE_NO_PAD
        .decode(data.trim_end_matches('='))
        .map_err(|_| LinkError::Base64)?;
    let json =
        miniz_oxide::inflate::decompress_to_vec_with_limit(&packed, MAX_INFLATED).map_err(|e| {
            match e.status {
                miniz_oxide::inflate::TINFLStatus::HasMoreOutput => {
                    LinkError::TooLarge { limit: MAX_INFLATED }
                }
                _ => LinkError::Inflate,
            }
        })?;
    let text = String::from_utf8(json).map_err(|_| LinkError::Inflate)?;
    Ok(Scenario::from_json(&text)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{pulsar, System};
    use crate::scenario::Body;

    fn sample() -> Scenario {
        let mut s = Scenario::empty(System::Pulsar, 7);
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
        assert_eq!(decode("#s=1.!!!"), Err(LinkError::Base64));
        // Truncated data.
        assert_eq!(
            decode(&format!("#s={}", &good[..good.len() / 2])),
            Err(LinkError::Inflate)
        );
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
        assert_eq!(
            decode(&format!("#s=1.{bomb}")),
            Err(LinkError::TooLarge { limit: MAX_INFLATED })
        );
    }
}
