//! Checks that need the whole parsed file rather than one line: rules that can never
//! decide, and crawlers that a rule-less group frees from the `*` rules. `Robots::lint`
//! adds them to the parser's own diagnostics.

use std::borrow::Cow;
use std::collections::HashMap;

use crate::diagnostic::{Code, Diagnostic};
use crate::finding::escaped;
use crate::parse::sites_of;
use crate::robots::{RuleLine, Site};
use crate::{Robots, RuleKind};

mod embargo_only;
mod ruleless;

impl Robots {
    /// Every diagnostic: the parser's, plus rules shadowed within their group and
    /// crawlers named only by groups without rules. Sorted by line and column.
    ///
    /// `source` is the text this was parsed from: a parsed file keeps no byte positions
    /// for its rules (they would cost more than the rules), so the lines reported are
    /// found in it again.
    ///
    /// ```
    /// use robots::{Code, Robots};
    /// let source = b"User-agent: *\nDisallow: /a\nDisallow: /a\n";
    /// let found = Robots::parse(source).lint(source);
    /// assert_eq!(found[0].code, Code::ShadowedRule);
    /// assert_eq!((found[0].line, found[0].span.clone()), (3, 27..39));
    /// ```
    pub fn lint(&self, source: &[u8]) -> Vec<Diagnostic> {
        let mut all = self.diagnostics();
        let mut shadowed = Vec::new();
        for group in &self.groups {
            let rules = self.group_rules(group);
            // Only rules with the same pattern (up to trailing `*`s) can shadow each
            // other, so compare within those buckets: linear in the group's size.
            let mut buckets: HashMap<(&[u8], bool), Vec<usize>> = HashMap::new();
            for (i, rule) in rules.iter().enumerate() {
                buckets
                    .entry((self.body(rule), rule.anchored()))
                    .or_default()
                    .push(i);
            }
            for bucket in buckets.values().filter(|b| b.len() > 1) {
                for &i in bucket {
                    let rule = &rules[i];
                    if let Some(&j) = bucket
                        .iter()
                        .find(|&&j| j != i && self.always_beats(&rules[j], j, rule, i))
                    {
                        shadowed.push((rule, &rules[j]));
                    }
                }
            }
        }
        let ruleless = self.ruleless_agents();
        let embargo_only = self.embargo_only_groups();
        let mut lines: Vec<u32> = shadowed.iter().map(|(rule, _)| rule.line).collect();
        lines.extend(&embargo_only);
        lines.extend(ruleless.iter().map(|(agents, _)| agents[0].line));
        // A winner whose value is not UTF-8 is quoted from the source, as written.
        lines.extend(
            shadowed
                .iter()
                .filter(|(_, winner)| self.str(winner.written).contains('\u{FFFD}'))
                .map(|(_, winner)| winner.line),
        );
        lines.sort_unstable();
        lines.dedup();
        let sites = sites_of(source, &self.behaviour, &lines);
        let found = |line: u32| {
            sites
                .binary_search_by_key(&line, |&(line, ..)| line)
                .ok()
                .map(|i| sites[i])
        };
        let site = |line: u32| found(line).map_or(Site::default(), |(_, site, _)| site);
        // A rule's value as the line shows it ([`escaped`]): the parsed file holds
        // U+FFFD for what is not UTF-8.
        let written = |rule: &RuleLine| match found(rule.line) {
            Some((.., value)) if self.str(rule.written).contains('\u{FFFD}') => escaped(value),
            _ => Cow::Borrowed(self.str(rule.written)),
        };
        all.extend(shadowed.into_iter().map(|(rule, winner)| {
            self.shadowed(
                rule,
                winner,
                site(rule.line),
                [written(rule), written(winner)],
            )
        }));
        all.extend(
            ruleless
                .into_iter()
                .map(|(agents, star)| self.ruleless(&agents, star, site(agents[0].line))),
        );
        all.extend(
            embargo_only
                .into_iter()
                .map(|line| self.embargo_only(line, site(line))),
        );
        all.sort_by_key(|d| (d.line, d.column));
        all
    }

    /// Whether `other` (at index `j`) wins wherever `rule` (at `i`) matches: it matches
    /// the same paths (the same pattern, up to trailing `*`s) and ranks at least as high.
    fn always_beats(&self, other: &RuleLine, j: usize, rule: &RuleLine, i: usize) -> bool {
        if other.inert()
            || rule.inert()
            || other.line == rule.line
            || other.kind() == RuleKind::EmbargoAllow
            || other.anchored() != rule.anchored()
            || self.body(other) != self.body(rule)
        {
            return false;
        }
        match other.specificity().cmp(&rule.specificity()) {
            std::cmp::Ordering::Greater => true,
            std::cmp::Ordering::Less => false,
            std::cmp::Ordering::Equal => {
                (other.kind().allows() && !rule.kind().allows())
                    || (other.kind().allows() == rule.kind().allows()
                        && (other.line, j) < (rule.line, i))
            }
        }
    }

    /// A rule's normalised pattern without trailing `*`s, which change nothing.
    fn body(&self, rule: &RuleLine) -> &[u8] {
        let text = self.text(rule.pattern());
        &text[..text.iter().rposition(|&b| b != b'*').map_or(0, |p| p + 1)]
    }

    /// `written` holds the two rules' values as the lines show them.
    fn shadowed(
        &self,
        rule: &RuleLine,
        winner: &RuleLine,
        site: Site,
        written: [Cow<'_, str>; 2],
    ) -> Diagnostic {
        let [rule_text, winner_text] = &written;
        let show = |r: &RuleLine, text: &str| {
            let text = crate::finding::cut(text, text.len());
            format!("{}: {text}", r.kind().directive())
        };
        Diagnostic {
            code: Code::ShadowedRule,
            line: rule.line,
            column: site.column.max(1),
            span: site.start as usize..site.end as usize,
            message: format!(
                "`{}` can never decide: `{}` on line {} matches the same paths and wins",
                show(rule, rule_text),
                show(winner, winner_text),
                winner.line
            )
            .into(),
            suggestion: Some("remove one of the two lines".into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{Code, Robots};

    fn shadowed_lines(file: &str) -> Vec<u32> {
        Robots::parse(file.as_bytes())
            .lint(file.as_bytes())
            .iter()
            .filter(|d| d.code == Code::ShadowedRule)
            .map(|d| d.line)
            .collect()
    }

    #[test]
    fn duplicates_and_ties_lost_to_allow_are_shadowed() {
        assert_eq!(
            shadowed_lines("User-agent: *\nDisallow: /a\nDisallow: /a\n"),
            [3]
        );
        assert_eq!(
            shadowed_lines("User-agent: *\nDisallow: /a\nAllow: /a\n"),
            [2]
        );
        assert_eq!(
            shadowed_lines("User-agent: *\nDisallow: /a\nAllow: /a*\n"),
            [2]
        );
    }

    #[test]
    fn different_or_separately_deciding_rules_are_not() {
        assert!(shadowed_lines("User-agent: *\nAllow: /a\nDisallow: /ab\n").is_empty());
        assert!(shadowed_lines("User-agent: *\nDisallow: /a\nAllow: /a$\n").is_empty());
        assert!(
            shadowed_lines("User-agent: a\nDisallow: /a\nUser-agent: b\nDisallow: /a\n").is_empty()
        );
    }
}

#[cfg(test)]
mod quoting {
    use crate::{Code, Options, Profile, Robots};

    /// Each message of `code` in the lint of `source`.
    fn messages(source: &[u8], profile: Profile, code: Code) -> Vec<String> {
        Robots::parse_with(source, Options::new().profile(profile))
            .lint(source)
            .into_iter()
            .filter(|d| d.code == code)
            .map(|d| d.message.into_owned())
            .collect()
    }

    /// A file saved in Latin-1: messages quote its octets as `\xE9`, as a tool shows the
    /// line, not as U+FFFD, which would hide which octet it was.
    #[test]
    fn messages_quote_octets_that_are_not_utf8_as_the_line_shows_them() {
        let latin1 = b"User-agent: *\nDisallow: caf\xe9\nAllow: /\xe9\nAllow: /\xe9\n\
            User-agent: Bot\xe9/1.0\nDisallow: /x\nCrawl-delay: 1\xe9\nFoo\xe9: bar\n\
            Archive-embargo: \xe9\n\xe9\xe9\n";
        let rfc = |code| messages(latin1, Profile::Rfc9309, code);
        assert_eq!(
            rfc(Code::PatternStart),
            ["`caf\\xE9` does not start with `/` or `*`, so it matches no path"]
        );
        assert_eq!(
            rfc(Code::ShadowedRule),
            ["`Allow: /\\xE9` can never decide: `Allow: /\\xE9` on line 3 matches the same paths and wins"]
        );
        // Two texts split where the stored text split them.
        assert_eq!(
            rfc(Code::AgentWithVersion),
            ["only `Bot\\xE9` of `Bot\\xE9/1.0` names the crawler"]
        );
        assert_eq!(
            rfc(Code::InvalidCrawlDelay),
            ["Crawl-delay `1\\xE9` is not a number of seconds"]
        );
        // Keys are quoted in lower case, the octet's hex digits as the line shows them.
        assert_eq!(
            rfc(Code::UnknownDirective)[0],
            "`foo\\xE9` is not a directive crawlers know; the line is kept as a record only"
        );
        assert!(rfc(Code::InvalidEmbargo)[0].contains("`\\xE9`"));
        assert!(rfc(Code::JunkLine)[0].starts_with("`\\xE9\\xE9`"));
        for d in Robots::parse(latin1).lint(latin1) {
            assert!(!d.message.contains('\u{FFFD}'), "{}", d.message);
        }
        // A UTF-8 file's text, U+FFFD included, is quoted as it is.
        let utf8 = "User-agent: *\nDisallow: caf\u{FFFD}é\n".as_bytes();
        assert_eq!(
            messages(utf8, Profile::Google, Code::PatternStart),
            ["`caf\u{FFFD}é` does not start with `/` or `*`, so it matches no path"]
        );
    }
}
