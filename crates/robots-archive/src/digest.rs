//! Payload digests. The archive identifies content by one digest it computes itself from
//! each payload: SHA-1 in RFC 4648 base32 (`sha1:` + 32 characters), the form Heritrix,
//! wget and pywb write and CDX shows. What a record declares in `WARC-Payload-Digest`
//! (`sha1:<base32>`, `sha1:<hex>`, `sha256:<hex>`…) is read and checked against the
//! payload, never taken in its place: the same content spelt two ways is one content.

use sha1::{Digest as _, Sha1};
use sha2::Sha256;

/// A digest in the archive's form: `algorithm:` and the value in upper-case base32.
/// Content identity is always the SHA-1 (`sha1:…`); other algorithms appear only as the
/// checked form of a declared digest.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Digest(String);

impl Digest {
    /// The SHA-1 of `bytes`.
    pub fn of(bytes: &[u8]) -> Digest {
        let mut h = Sha1::new();
        h.update(bytes);
        Digest::sha1(&h.finalize())
    }

    fn sha1(bytes: &[u8]) -> Digest {
        Digest(format!("sha1:{}", base32(bytes)))
    }

    /// A digest as the index stores it.
    pub(crate) fn stored(text: String) -> Digest {
        Digest(text)
    }

    /// `sha1:…`, for WARC headers.
    pub fn as_header(&self) -> &str {
        &self.0
    }

    /// The value without its algorithm label, as CDX lines carry it.
    pub fn bare(&self) -> &str {
        self.0.split_once(':').map_or(&self.0, |(_, v)| v)
    }
}

/// The hash functions a declared digest can be checked with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Algorithm {
    Sha1,
    Sha256,
}

impl Algorithm {
    fn label(self) -> &'static str {
        match self {
            Algorithm::Sha1 => "sha1",
            Algorithm::Sha256 => "sha256",
        }
    }

    fn len(self) -> usize {
        match self {
            Algorithm::Sha1 => 20,
            Algorithm::Sha256 => 32,
        }
    }
}

/// A `WARC-Payload-Digest` value as read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Declared {
    /// In an algorithm the archive checks: the value in the archive's form.
    Known(Algorithm, Digest),
    /// Malformed: a known label whose value is not a digest of that length in hex or
    /// base32, or no label at all. It cannot describe any payload.
    Malformed,
    /// In another algorithm (`md5:…`, `sha512:…`), which the archive neither checks nor
    /// uses.
    Other,
}

impl Declared {
    /// Reads a declared digest: the label in any case, `sha-1` or `sha1`, the value in
    /// hex or in base32 of either case, padded or not.
    pub(crate) fn parse(value: &str) -> Declared {
        let Some((label, text)) = value.trim().split_once(':') else {
            return Declared::Malformed;
        };
        let algorithm = match label.trim().to_ascii_lowercase().as_str() {
            "sha1" | "sha-1" => Algorithm::Sha1,
            "sha256" | "sha-256" => Algorithm::Sha256,
            _ => return Declared::Other,
        };
        let text = text.trim();
        let bytes = if text.len() == 2 * algorithm.len() {
            from_hex(text)
        } else {
            from_base32(text)
        };
        match bytes {
            Some(b) if b.len() == algorithm.len() => Declared::Known(
                algorithm,
                Digest(format!("{}:{}", algorithm.label(), base32(&b))),
            ),
            _ => Declared::Malformed,
        }
    }

    /// The declared digest in the archive's form, when it is in a checked algorithm.
    pub(crate) fn known(&self) -> Option<&Digest> {
        match self {
            Declared::Known(_, d) => Some(d),
            _ => None,
        }
    }
}

/// How a record's declared digest compares with its payload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Check {
    /// None declared, or one in an algorithm the archive does not check.
    Unchecked,
    /// It matches the payload.
    Agrees(Declared),
    /// It does not match, or is malformed.
    Disagrees,
}

/// Digests a payload given in pieces: always its SHA-1, and the SHA-256 too when the
/// record declares one, so that a declaration in either is checked, not trusted.
pub(crate) struct PayloadHasher {
    sha1: Sha1,
    sha256: Option<Sha256>,
    declared: Option<Declared>,
}

impl PayloadHasher {
    /// A hasher for a payload whose record declares `declared` (the header's value).
    pub(crate) fn new(declared: Option<&str>) -> PayloadHasher {
        let declared = declared.map(Declared::parse);
        let sha256 =
            matches!(declared, Some(Declared::Known(Algorithm::Sha256, _))).then(Sha256::new);
        PayloadHasher {
            sha1: Sha1::new(),
            sha256,
            declared,
        }
    }

    pub(crate) fn update(&mut self, bytes: &[u8]) {
        self.sha1.update(bytes);
        if let Some(h) = &mut self.sha256 {
            h.update(bytes);
        }
    }

    /// The payload's digest (SHA-1), and how the declared one compares with it.
    pub(crate) fn finish(self) -> (Digest, Check) {
        let digest = Digest::sha1(&self.sha1.finalize());
        let check = match self.declared {
            None | Some(Declared::Other) => Check::Unchecked,
            Some(Declared::Malformed) => Check::Disagrees,
            Some(Declared::Known(algorithm, declared)) => {
                let computed = match (algorithm, self.sha256) {
                    (Algorithm::Sha256, Some(h)) => {
                        Digest(format!("sha256:{}", base32(&h.finalize())))
                    }
                    _ => digest.clone(),
                };
                if computed == declared {
                    Check::Agrees(Declared::Known(algorithm, declared))
                } else {
                    Check::Disagrees
                }
            }
        };
        (digest, check)
    }
}

const BASE32: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/// RFC 4648 base32 (upper case, padded); a SHA-1's 20 bytes need no padding.
fn base32(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(5) * 8);
    for chunk in bytes.chunks(5) {
        let mut buf = [0u8; 5];
        buf[..chunk.len()].copy_from_slice(chunk);
        let n = buf.iter().fold(0u64, |acc, &b| (acc << 8) | u64::from(b));
        let chars = (chunk.len() * 8).div_ceil(5);
        for i in 0..8 {
            if i < chars {
                out.push(char::from(BASE32[((n >> (35 - i * 5)) & 31) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Undoes [`base32`], in either case and with or without padding; `None` when the text
/// is not base32 or leaves bits over.
fn from_base32(text: &str) -> Option<Vec<u8>> {
    let text = text.trim_end_matches('=');
    let mut out = Vec::with_capacity(text.len() * 5 / 8);
    let (mut acc, mut bits) = (0u32, 0);
    for c in text.bytes() {
        let v = BASE32.iter().position(|&a| a == c.to_ascii_uppercase())?;
        acc = (acc << 5) | v as u32;
        bits += 5;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    // Leftover bits must be the zero padding of the last character.
    (bits < 5 && acc == 0).then_some(out)
}

fn from_hex(text: &str) -> Option<Vec<u8>> {
    let digits = text.as_bytes();
    if !digits.len().is_multiple_of(2) {
        return None;
    }
    digits
        .chunks(2)
        .map(|pair| {
            let pair = std::str::from_utf8(pair).ok()?;
            u8::from_str_radix(pair, 16).ok()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base32_matches_rfc4648_vectors() {
        for (plain, coded) in [
            (&b"f"[..], "MY======"),
            (b"fo", "MZXQ===="),
            (b"foob", "MZXW6YQ="),
            (b"foobar", "MZXW6YTBOI======"),
        ] {
            assert_eq!(base32(plain), coded);
            assert_eq!(from_base32(coded).as_deref(), Some(plain));
            assert_eq!(
                from_base32(&coded.to_ascii_lowercase()).as_deref(),
                Some(plain)
            );
        }
        assert_eq!(from_base32("M1"), None, "1 is not base32");
        assert_eq!(from_base32("MZ"), None, "bits left over that are not zero");
    }

    #[test]
    fn sha1_of_empty_payload_is_the_well_known_value() {
        let d = Digest::of(b"");
        assert_eq!(d.as_header(), "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ");
        assert_eq!(d.bare(), "3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ");
    }

    fn check(declared: &str, payload: &[u8]) -> Check {
        let mut h = PayloadHasher::new(Some(declared));
        h.update(payload);
        let (digest, check) = h.finish();
        assert_eq!(digest, Digest::of(payload));
        check
    }

    #[test]
    fn every_spelling_of_a_right_digest_agrees() {
        let sha1_hex = "da39a3ee5e6b4b0d3255bfef95601890afd80709";
        let sha256_hex = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
        for declared in [
            "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ",
            "SHA-1:3i42h3s6nnfq2msvx7xzkyayscx5qbyj",
            &format!("sha1:{sha1_hex}"),
            &format!("sha1:{}", sha1_hex.to_ascii_uppercase()),
        ] {
            assert_eq!(
                check(declared, b""),
                Check::Agrees(Declared::Known(Algorithm::Sha1, Digest::of(b""))),
                "{declared}"
            );
        }
        let sha256 = check(&format!("sha256:{sha256_hex}"), b"");
        let Check::Agrees(Declared::Known(Algorithm::Sha256, d)) = sha256 else {
            panic!("{sha256:?}");
        };
        assert_eq!(
            d.as_header(),
            "sha256:4OYMIQUY7QOBJGX36TEJS35ZEQT24QPEMSNZGTFESWMRW6CSXBKQ===="
        );
        // The same digest in base32 is the same declaration.
        assert_eq!(
            Declared::parse(d.as_header()),
            Declared::Known(Algorithm::Sha256, d.clone())
        );
    }

    #[test]
    fn wrong_or_malformed_digests_disagree_and_others_are_unchecked() {
        assert_eq!(
            check("sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ", b"x"),
            Check::Disagrees
        );
        assert_eq!(check("sha1:nonsense", b""), Check::Disagrees);
        assert_eq!(
            check("3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ", b""),
            Check::Disagrees
        );
        assert_eq!(check("md5:1B2M2Y8AsgTpgAmY7PhCfg==", b""), Check::Unchecked);
        let mut h = PayloadHasher::new(None);
        h.update(b"");
        assert_eq!(h.finish().1, Check::Unchecked);
    }
}
