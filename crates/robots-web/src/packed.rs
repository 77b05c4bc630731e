//! A verdict packed into one number, for the npm package's hot path: a check answered
//! as a JavaScript number costs no JSON and no allocation on either side.
//!
//! Bit 0 is `allowed`; bits 1–3 index [`reasons`]; bits 4–5 index [`rules`] (0: no
//! rule); bits 6–15 the embargo in days (0: none); the deciding line times 65,536 on
//! top (0: none). Every value is a whole number below 2^48, exact in an `f64`.

use robots::{Reason, RuleKind, Verdict};

use crate::response::Availability;

/// The reasons in the order a packed verdict indexes them; the two a file that could
/// not be read gives ([`Availability::blanket_reason`]) come last, by name.
const REASON_ORDER: [Reason; 6] = [
    Reason::RobotsTxt,
    Reason::NoGroup,
    Reason::NoMatch,
    Reason::Longest,
    Reason::TieWonByAllow,
    Reason::EmptyDisallow,
];
const BLANKET_REASONS: [&str; 2] = ["unavailable", "unreachable"];

/// The rule kinds in the order a packed verdict indexes them, from 1 (0: no rule).
const RULE_ORDER: [RuleKind; 3] = [RuleKind::Allow, RuleKind::Disallow, RuleKind::EmbargoAllow];

/// The reasons' names by their index in a packed verdict.
pub fn reasons() -> Vec<&'static str> {
    REASON_ORDER
        .iter()
        .map(|r| r.name())
        .chain(BLANKET_REASONS)
        .collect()
}

/// The rule kinds' names by their index in a packed verdict; index 0 is `""`, no rule.
pub fn rules() -> Vec<&'static str> {
    std::iter::once("")
        .chain(RULE_ORDER.iter().map(|k| k.name()))
        .collect()
}

const LINE: f64 = 65_536.0;

/// The packed form of a verdict from a parsed file.
pub fn verdict(v: &Verdict<'_>) -> f64 {
    let reason = REASON_ORDER
        .iter()
        .position(|&r| r == v.reason())
        .unwrap_or(0);
    let rule = v.decided_by();
    let kind = rule
        .and_then(|r| RULE_ORDER.iter().position(|&k| k == r.kind()))
        .map_or(0, |k| k + 1);
    let days = v.embargo().map_or(0, |e| e.period().days().min(1023));
    let low = u32::from(v.allowed()) | (reason as u32) << 1 | (kind as u32) << 4 | days << 6;
    f64::from(low) + f64::from(rule.map_or(0, |r| r.line())) * LINE
}

/// The packed form of a verdict when no file was read: allowed or not, and why.
pub fn blanket(availability: Availability, allowed: bool) -> f64 {
    let reason = match availability.blanket_reason(allowed) {
        Some(name) => reasons().iter().position(|&r| r == name).unwrap_or(0),
        None => 0,
    };
    f64::from(u32::from(allowed) | (reason as u32) << 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use robots::{Agent, Robots};

    #[test]
    fn a_packed_verdict_keeps_every_field() {
        let robots = Robots::parse(
            b"User-agent: *\nArchive-Embargo: w\nEmbargo-Allow: /news\nDisallow: /\n",
        );
        let archiver = Agent::new("Archiver").unwrap().honouring_embargo();
        let code = verdict(&robots.check(&archiver, "/news/1")) as u64;
        assert_eq!(code & 1, 1);
        assert_eq!(reasons()[(code >> 1 & 7) as usize], "longest");
        assert_eq!(rules()[(code >> 4 & 3) as usize], "embargo-allow");
        assert_eq!(code >> 6 & 1023, 7);
        assert_eq!(code >> 16, 3);
        let code = blanket(Availability::Unreachable(503), false) as u64;
        assert_eq!(
            (code & 1, reasons()[(code >> 1) as usize]),
            (0, "unreachable")
        );
        let code = blanket(Availability::Unreachable(503), true) as u64;
        assert_eq!(
            (code & 1, reasons()[(code >> 1) as usize]),
            (1, "robots-txt")
        );
    }
}
