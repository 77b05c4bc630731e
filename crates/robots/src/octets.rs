//! The octet classes of RFC 9309 §2.2.2 normalisation: which octets it escapes, which it
//! may change in a pattern or a path, and which Google's escaping touches.

/// Octets RFC 9309 §2.2.2 wants percent-encoded: non-ASCII, controls and space.
pub(crate) const fn must_escape(b: u8) -> bool {
    (b >= 0x7F) | (b <= 0x20)
}

/// Whether [`google_escape`](crate::normalize::google_escape) may change octet `b`: an
/// escape, or an octet to escape.
pub(crate) fn google_changes(b: u8) -> bool {
    (b == b'%') | (b >= 0x80)
}

/// What is being normalised: the two differ only in `*`, a wildcard in patterns and a
/// literal in paths.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    /// A rule's pattern, without its final `$`.
    Pattern,
    /// The path of a URL.
    Path,
}

/// Whether `b` is a character that RFC 9309 §2.2.3 gives a special meaning in patterns,
/// and so stands for itself only when percent-encoded (`%2A`, `%24`).
pub(crate) const fn is_special_literal(b: u8, role: Role) -> bool {
    (b == b'$') | ((b == b'*') & matches!(role, Role::Path))
}

/// Whether [normalising](crate::normalize::rfc_normalize) may change octet `b`: escapes,
/// octets to escape, special literals.
pub(crate) const fn may_change(b: u8, role: Role) -> bool {
    must_escape(b) | (b == b'%') | is_special_literal(b, role)
}
