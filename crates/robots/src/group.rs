//! Reading what a file says beyond verdicts: groups with their agents, rules,
//! crawl-delay and embargo; sitemaps, host and every other record with its line.

use std::time::Duration;

use crate::robots::{GroupData, RecordLine};
use crate::{Agent, Directive, Embargo, RequestRate, Robots, Rule};

/// One group of the file, as written.
#[derive(Clone, Copy)]
pub struct Group<'r> {
    robots: &'r Robots,
    index: usize,
    data: &'r GroupData,
}

impl<'r> Group<'r> {
    /// The group's position among the file's groups (0-based).
    pub fn index(&self) -> usize {
        self.index
    }

    /// The line of the group's first user-agent line.
    pub fn line(&self) -> u32 {
        self.agent_lines().next().map_or(0, |(_, line)| line)
    }

    /// The user-agent values as written (trimmed, invalid UTF-8 replaced by U+FFFD),
    /// with their lines.
    pub fn agent_lines(&self) -> impl Iterator<Item = (&'r str, u32)> + 'r {
        let robots = self.robots;
        robots
            .agents_of(self.data)
            .iter()
            .map(move |a| (robots.str(a.value), a.line))
    }

    /// Whether one of the group's user-agent lines is `*`.
    pub fn is_global(&self) -> bool {
        self.robots.agents_of(self.data).iter().any(|a| a.global())
    }

    /// The group's rules in file order (Google's `index.html` rules appear as the extra
    /// rule they stand for, on the same line).
    pub fn rules(&self) -> impl Iterator<Item = Rule<'r>> + 'r {
        let robots = self.robots;
        self.rules_in_file_order()
            .into_iter()
            .map(move |r| robots.rule_view(r))
    }

    /// The rules in file order; they are stored in rank order for matching.
    pub(crate) fn rules_in_file_order(&self) -> Vec<&'r crate::robots::RuleLine> {
        let mut rules: Vec<_> = self.robots.group_rules(self.data).iter().collect();
        rules.sort_by_key(|r| r.line);
        rules
    }

    /// The embargo the group's `Archive-Embargo` lines give: the longest valid period,
    /// whoever asks ([`AgentGroups::embargo`] is what an agent gets).
    pub fn embargo(&self) -> Option<Embargo> {
        self.data.embargo.map(Embargo::new)
    }

    /// The group's Crawl-delay (the largest valid one, if it gives several).
    pub fn crawl_delay(&self) -> Option<Duration> {
        self.robots.pacing_of(self.data).crawl_delay
    }

    /// The group's first valid Request-rate.
    pub fn request_rate(&self) -> Option<RequestRate> {
        self.robots.pacing_of(self.data).request_rate
    }

    /// The records that stand in this group (those after its user-agent lines and
    /// before the next group's), in file order: `Crawl-delay`, `Visit-time`,
    /// `Content-Signal`, any key but a rule's or a user-agent's.
    pub fn records(&self) -> impl Iterator<Item = Record<'r>> + 'r {
        let (robots, index) = (self.robots, self.index);
        robots
            .records
            .iter()
            .filter(move |data| data.group() == Some(index as u32))
            .map(move |data| Record { robots, data })
    }
}

/// The groups that apply to one agent, merged (RFC 9309 §2.2.1).
#[derive(Debug, Clone)]
pub struct AgentGroups<'r> {
    groups: Vec<Group<'r>>,
    honours_embargo: bool,
}

impl<'r> AgentGroups<'r> {
    /// The merged groups, in file order; empty when no group applies.
    pub fn groups(&self) -> &[Group<'r>] {
        &self.groups
    }

    /// The largest Crawl-delay among the merged groups: the politest reading. `None`
    /// when no group applies or none gives a valid one (a value that is not a
    /// non-negative number of seconds is reported as [`Code::InvalidCrawlDelay`]).
    /// Crawl-delay is not in RFC 9309, which leaves such records to crawlers (§2.2.4).
    ///
    /// [`Code::InvalidCrawlDelay`]: crate::Code::InvalidCrawlDelay
    pub fn crawl_delay(&self) -> Option<Duration> {
        self.groups.iter().filter_map(Group::crawl_delay).max()
    }

    /// The first valid Request-rate among the merged groups; `None` when no group
    /// applies or none gives one.
    pub fn request_rate(&self) -> Option<RequestRate> {
        self.groups.iter().find_map(Group::request_rate)
    }

    /// The records that stand in the merged groups, in file order: what the file tells
    /// this agent beyond rules, such as `Visit-time`, which the crate does not interpret,
    /// or `Content-Signal`, which [`Robots::content_signal`] reads. None when no group applies. A record before the first
    /// user-agent line stands in no group (RFC 9309 §2.2.4 lets other records stand
    /// anywhere), so it is not among them: [`Robots::records`] lists every record.
    ///
    /// ```
    /// use robots::{Agent, Robots};
    ///
    /// let robots = Robots::parse(b"\
    /// Content-Signal: search=yes
    /// User-agent: *
    /// Visit-time: 0600-0845
    /// Disallow: /tmp
    ///
    /// User-agent: ExampleBot
    /// Content-Signal: ai-train=no
    /// ");
    /// let bot = robots.group_for(&Agent::new("ExampleBot").unwrap());
    /// let signal = bot.records().find(|r| r.is("content-signal")).unwrap();
    /// assert_eq!((signal.value(), signal.line()), ("ai-train=no", 7));
    /// assert!(bot.records().all(|r| !r.is("visit-time")));
    ///
    /// let other = robots.group_for(&Agent::new("OtherBot").unwrap());
    /// let visit: Vec<_> = other.records().map(|r| (r.key(), r.value())).collect();
    /// assert_eq!(visit, [("Visit-time", "0600-0845")]);
    /// ```
    pub fn records(&self) -> impl Iterator<Item = Record<'r>> + '_ {
        self.groups.iter().flat_map(Group::records)
    }

    /// The embargo that applies to this agent, as [`Verdict::embargo`](crate::Verdict::embargo)
    /// gives it: the longest valid period among the merged groups, when the agent honours
    /// embargoes (RFC 9309 profile only).
    pub fn embargo(&self) -> Option<Embargo> {
        if !self.honours_embargo {
            return None;
        }
        self.groups
            .iter()
            .filter_map(|g| g.data.embargo)
            .max()
            .map(Embargo::new)
    }
}

/// A line that is not a rule or user-agent line: `Sitemap`, `Crawl-delay`, `Host`,
/// `Request-rate`, or any other key (`Content-Signal`, `Clean-param`, …).
#[derive(Clone, Copy)]
pub struct Record<'r> {
    robots: &'r Robots,
    data: &'r RecordLine,
}

impl<'r> Record<'r> {
    /// The key as written.
    pub fn key(&self) -> &'r str {
        self.robots.str(self.data.key())
    }

    /// What the key was recognised as (`Directive::Other` for unknown keys).
    pub fn directive(&self) -> Directive {
        self.data.directive
    }

    /// Whether the key is `name`, ignoring ASCII case.
    pub fn is(&self, name: &str) -> bool {
        self.key().eq_ignore_ascii_case(name)
    }

    /// The value, trimmed (invalid UTF-8 replaced by U+FFFD).
    pub fn value(&self) -> &'r str {
        self.robots.str(self.data.value)
    }

    /// The 1-based line.
    pub fn line(&self) -> u32 {
        self.data.line
    }

    /// The group the record stands in, if it comes after a user-agent line.
    pub fn group(&self) -> Option<Group<'r>> {
        self.data.group().map(|g| self.robots.group(g as usize))
    }
}

/// What the group says, not the whole file it points into.
impl std::fmt::Debug for Group<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Group")
            .field("index", &self.index)
            .field("line", &self.line())
            .field(
                "agents",
                &self.agent_lines().map(|(a, _)| a).collect::<Vec<_>>(),
            )
            .field("rules", &self.robots.group_rules(self.data).len())
            .field("embargo", &self.embargo())
            .field("crawl_delay", &self.crawl_delay())
            .finish()
    }
}

/// The record's line, not the whole file it points into.
impl std::fmt::Debug for Record<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Record")
            .field("line", &self.line())
            .field("directive", &self.directive())
            .field("key", &self.key())
            .field("value", &self.value())
            .field("group", &self.data.group())
            .finish()
    }
}

impl Robots {
    fn group(&self, index: usize) -> Group<'_> {
        Group {
            robots: self,
            index,
            data: &self.groups[index],
        }
    }

    /// Every group, in file order; none when the file has no user-agent line.
    pub fn groups(&self) -> impl Iterator<Item = Group<'_>> {
        (0..self.groups.len()).map(|i| self.group(i))
    }

    /// The groups that apply to `agent`, merged: those naming it, else the `*` groups
    /// (RFC 9309 §2.2.1).
    ///
    /// ```
    /// use robots::{Agent, Robots};
    /// use std::time::Duration;
    ///
    /// let robots = Robots::parse(b"\
    /// User-agent: *
    /// Disallow: /tmp
    /// Crawl-delay: 1
    ///
    /// User-agent: ExampleBot
    /// Disallow: /x
    /// Crawl-delay: 5
    /// ");
    /// let groups = robots.group_for(&Agent::new("ExampleBot").unwrap());
    /// assert_eq!(groups.groups().len(), 1);
    /// assert_eq!(groups.groups()[0].line(), 5);
    /// assert_eq!(groups.crawl_delay(), Some(Duration::from_secs(5)));
    /// let others = robots.group_for(&Agent::new("OtherBot").unwrap());
    /// assert_eq!(others.crawl_delay(), Some(Duration::from_secs(1)));
    /// ```
    pub fn group_for(&self, agent: &Agent) -> AgentGroups<'_> {
        let mut groups = Vec::new();
        self.for_each_chosen(&self.select(agent), agent, |index, _| {
            groups.push(self.group(index));
        });
        AgentGroups {
            groups,
            honours_embargo: agent.honours_embargo() && !self.behaviour.no_embargo,
        }
    }

    /// Every record that is not a rule or user-agent line, in file order, those before
    /// the first user-agent line included ([`Record::group`] is `None` for them);
    /// [`AgentGroups::records`] gives those of one agent's groups.
    pub fn records(&self) -> impl Iterator<Item = Record<'_>> {
        self.records
            .iter()
            .map(move |data| Record { robots: self, data })
    }

    /// The Sitemap URLs, in file order, wherever they stand (RFC 9309 §2.2.4), as
    /// written: an empty `Sitemap:` gives none, and a relative one (which lint reports
    /// as `relative-sitemap`) is given as it is, for the caller to resolve against the
    /// robots.txt URL or drop.
    ///
    /// ```
    /// let robots = robots::Robots::parse(b"Sitemap:\nSitemap: /map.xml\nsitemap: https://x.test/s.xml\n");
    /// let maps: Vec<_> = robots.sitemaps().collect();
    /// assert_eq!(maps, ["/map.xml", "https://x.test/s.xml"]);
    /// ```
    pub fn sitemaps(&self) -> impl Iterator<Item = &str> {
        self.records()
            .filter(|r| r.directive() == Directive::Sitemap)
            .map(|r| r.value())
            .filter(|value| !value.is_empty())
    }

    /// The first `Host` value, wherever it stands, as written; an empty `Host:` is
    /// passed over, as an empty `Sitemap:` is. `Host` (the preferred host name) is not in
    /// RFC 9309, which leaves such records to crawlers (§2.2.4).
    ///
    /// ```
    /// let robots = robots::Robots::parse(b"Host:\nHost: www.example.com\nHost: example.com\n");
    /// assert_eq!(robots.host(), Some("www.example.com"));
    /// assert_eq!(robots::Robots::parse(b"User-agent: *\n").host(), None);
    /// ```
    pub fn host(&self) -> Option<&str> {
        self.records()
            .filter(|r| r.directive() == Directive::Host)
            .map(|r| r.value())
            .find(|value| !value.is_empty())
    }
}
