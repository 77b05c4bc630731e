//! What the file says a URL's content may be used for: the agent's Content-Usage rule for a
//! path (draft-ietf-aipref-attach-05 §3) and its groups' Content-Signal (contentsignals.org).

use crate::aipref::{split_usage, Preferences, Signals};
use crate::normalize::{rfc_normalize, PathBufs};
use crate::octets::Role;
use crate::pattern::matches;
use crate::robots::RecordLine;
use crate::url::match_path;
use crate::{Agent, Directive, Robots};

/// The Content-Usage rule that applies to a URL, with what it states.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ContentUsage {
    preferences: Preferences,
    line: u32,
    specificity: u32,
    rules: u32,
}

impl ContentUsage {
    /// What the rule states, per category; a preference that does not parse states nothing
    /// (vocab-07 §6.5.1).
    pub fn preferences(&self) -> Preferences {
        self.preferences
    }

    /// The deciding line; when rules of the same length combined, the first of them.
    pub fn line(&self) -> u32 {
        self.line
    }

    /// The matched path's length in octets, the final `$` included (0 for a rule without
    /// a path).
    pub fn specificity(&self) -> u32 {
        self.specificity
    }

    /// How many rules of that length matched and were combined (vocab-07 §5.1).
    pub fn rules(&self) -> u32 {
        self.rules
    }
}

/// The Content-Signal of an agent's groups.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ContentSignal {
    signals: Signals,
    line: u32,
}

impl ContentSignal {
    /// The keys and values given.
    pub fn signals(&self) -> Signals {
        self.signals
    }

    /// The first Content-Signal line of the agent's groups.
    pub fn line(&self) -> u32 {
        self.line
    }
}

impl Robots {
    /// Whether the file states any AI usage preference (a Content-Usage or Content-Signal
    /// line): most files state none, and a caller checking many URLs can then skip
    /// [`Robots::content_usage`] and [`Robots::content_signal`] altogether.
    ///
    /// ```
    /// use robots::Robots;
    /// assert!(Robots::parse(b"User-agent: *\nContent-Signal: ai-train=no\n").states_preferences());
    /// assert!(!Robots::parse(b"User-agent: *\nDisallow: /x\n").states_preferences());
    /// ```
    pub fn states_preferences(&self) -> bool {
        self.records.iter().any(|r| {
            matches!(
                r.directive,
                Directive::ContentUsage | Directive::ContentSignal
            )
        })
    }

    /// The Content-Usage rule for `agent` and `url` (draft-ietf-aipref-attach-05 §3), or
    /// `None` when none applies.
    ///
    /// - The rules are those of the agent's groups, chosen as for Allow and Disallow (a
    ///   group naming the agent replaces `*`; matching groups merge; attach-05 §3.1 and
    ///   RFC 9309 §2.2.1).
    /// - A rule's path matches as an Allow pattern does (`*`, a final `$`, percent-encoding
    ///   normalised, length in octets; attach-05 §3.1); a rule without a path matches every
    ///   path with length 0. The single longest match applies; rules of that length
    ///   combine per category, a disallow winning (vocab-07 §5.1).
    /// - A URL the agent may not crawl gets none (attach-05 §3, §3.1).
    /// - In the Google profile there are no such rules (unknown records there).
    ///
    /// Unlike [`Robots::check`], this allocates: it normalises each rule's path as it
    /// reads it, since a parsed file keeps Content-Usage lines as records.
    ///
    /// ```
    /// use robots::{Agent, Category, Robots, Usage};
    /// // attach-05 §3.4's example.
    /// let robots = Robots::parse(b"\
    /// User-Agent: *
    /// Allow: /
    /// Disallow: /never/
    /// Content-Usage: train-ai=n
    /// Content-Usage: /ai-ok/ train-ai=y
    /// ");
    /// let bot = Agent::new("ExampleBot").unwrap();
    /// let at = |url| robots.content_usage(&bot, url).map(|u| u.preferences().get(Category::TrainAi));
    /// assert_eq!(at("/"), Some(Some(Usage::Disallowed)));
    /// assert_eq!(at("/ai-ok/test"), Some(Some(Usage::Allowed)));
    /// assert_eq!(at("/never/x"), None);
    /// ```
    pub fn content_usage(&self, agent: &Agent, url: &str) -> Option<ContentUsage> {
        self.content_usage_bytes(agent, url.as_bytes())
    }

    /// [`Robots::content_usage`] for a URL given as bytes, which need not be UTF-8 (read
    /// as [`Robots::check_bytes`] reads it).
    pub fn content_usage_bytes(&self, agent: &Agent, url: &[u8]) -> Option<ContentUsage> {
        // The rules first: most files have none, and then no check is made at all.
        let found = self.matching_usage(agent, url)?;
        self.check_bytes(agent, url).allowed().then_some(found)
    }

    /// The longest matching Content-Usage rules for `url`, combined, before asking
    /// whether the URL may be crawled.
    fn matching_usage(&self, agent: &Agent, url: &[u8]) -> Option<ContentUsage> {
        let mut bufs = PathBufs::default();
        let path = match_path(&self.behaviour, url, &mut bufs);
        let mut best: Option<ContentUsage> = None;
        let mut pattern = Vec::new();
        for record in self.chosen_records(agent, Directive::ContentUsage) {
            let (rule_path, preference) = split_usage(self.text(record.value));
            let specificity = match rule_path {
                None => 0,
                Some(written) => {
                    let anchored = written.ends_with(b"$");
                    let body = &written[..written.len() - usize::from(anchored)];
                    pattern.clear();
                    rfc_normalize(body, Role::Pattern, &mut pattern);
                    let wildcard = pattern.contains(&b'*');
                    if !matches(&pattern, wildcard, anchored, path) {
                        continue;
                    }
                    (pattern.len() + usize::from(anchored)) as u32
                }
            };
            let found = ContentUsage {
                preferences: Preferences::parse(preference),
                line: record.line,
                specificity,
                rules: 1,
            };
            best = Some(match best {
                Some(b) if b.specificity > specificity => b,
                Some(b) if b.specificity == specificity => ContentUsage {
                    preferences: b.preferences.combine(found.preferences),
                    line: b.line.min(found.line),
                    specificity,
                    rules: b.rules + 1,
                },
                _ => found,
            });
        }
        best
    }

    /// The Content-Signal of `agent`'s groups (chosen as for Allow and Disallow), or `None`
    /// when they have none. Several lines combine per key, `no` winning.
    ///
    /// ```
    /// use robots::{Agent, Robots, SignalKey, Usage};
    /// let robots = Robots::parse(b"User-Agent: *\nContent-Signal: ai-train=no, search=yes, ai-input=yes\nAllow: /\n");
    /// let signal = robots.content_signal(&Agent::new("ExampleBot").unwrap()).unwrap();
    /// assert_eq!(signal.signals().get(SignalKey::AiTrain), Some(Usage::Disallowed));
    /// assert_eq!(signal.line(), 2);
    /// ```
    pub fn content_signal(&self, agent: &Agent) -> Option<ContentSignal> {
        let mut found: Option<ContentSignal> = None;
        for record in self.chosen_records(agent, Directive::ContentSignal) {
            let signals = Signals::parse(self.str(record.value));
            found = Some(match found {
                None => ContentSignal {
                    signals,
                    line: record.line,
                },
                Some(f) => ContentSignal {
                    signals: f.signals.combine(signals),
                    line: f.line.min(record.line),
                },
            });
        }
        found
    }

    /// The records of `directive` standing in the groups chosen for `agent`, in file order.
    fn chosen_records<'s>(
        &'s self,
        agent: &Agent,
        directive: Directive,
    ) -> impl Iterator<Item = &'s RecordLine> + 's {
        let mut chosen = Vec::new();
        let selection = self.select(agent);
        self.for_each_chosen(&selection, agent, |i, _| chosen.push(i as u32));
        self.records.iter().filter(move |r| {
            r.directive == directive && r.group().is_some_and(|g| chosen.binary_search(&g).is_ok())
        })
    }
}
