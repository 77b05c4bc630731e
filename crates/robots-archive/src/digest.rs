//! Payload and block digests in the form WARC and CDX use: SHA-1, written in RFC 4648
//! base32 (`sha1:` + 32 characters), as Heritrix, wget and pywb all do.

use sha1::{Digest as _, Sha1};

/// A SHA-1 digest as written in WARC headers (`sha1:…`) and, without the prefix, in CDX.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Digest(String);

impl Digest {
    /// The digest of `bytes`.
    pub fn of(bytes: &[u8]) -> Digest {
        let mut h = DigestWriter::new();
        h.update(bytes);
        h.finish()
    }

    /// Takes a digest from a WARC header value as written (`sha1:ABC…`), keeping other
    /// algorithms as they are so that they are still shown.
    pub fn from_header(value: &str) -> Digest {
        Digest(value.trim().to_owned())
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

/// Computes a [`Digest`] over data given in pieces.
pub struct DigestWriter(Sha1);

impl DigestWriter {
    pub fn new() -> DigestWriter {
        DigestWriter(Sha1::new())
    }

    pub fn update(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }

    pub fn finish(self) -> Digest {
        Digest(format!("sha1:{}", base32(&self.0.finalize())))
    }
}

impl Default for DigestWriter {
    fn default() -> Self {
        DigestWriter::new()
    }
}

/// RFC 4648 base32 (upper case, padded); a SHA-1's 20 bytes need no padding.
fn base32(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    let mut out = String::with_capacity(bytes.len().div_ceil(5) * 8);
    for chunk in bytes.chunks(5) {
        let mut buf = [0u8; 5];
        buf[..chunk.len()].copy_from_slice(chunk);
        let n = buf.iter().fold(0u64, |acc, &b| (acc << 8) | u64::from(b));
        let chars = (chunk.len() * 8).div_ceil(5);
        for i in 0..8 {
            if i < chars {
                out.push(char::from(ALPHABET[((n >> (35 - i * 5)) & 31) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base32_matches_rfc4648_vectors() {
        assert_eq!(base32(b"f"), "MY======");
        assert_eq!(base32(b"fo"), "MZXQ====");
        assert_eq!(base32(b"foob"), "MZXW6YQ=");
        assert_eq!(base32(b"foobar"), "MZXW6YTBOI======");
    }

    #[test]
    fn sha1_of_empty_payload_is_the_well_known_value() {
        let d = Digest::of(b"");
        assert_eq!(d.as_header(), "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ");
        assert_eq!(d.bare(), "3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ");
    }
}
