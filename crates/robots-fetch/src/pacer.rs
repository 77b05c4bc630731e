//! Optional politeness: spaces a crawler's requests to one origin by the Crawl-delay its
//! group asks for (a de facto extension, not in RFC 9309), capped so a site cannot stall a crawl.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use tokio::time::Instant;

use robots::Agent;

use crate::{Answer, Origin};

/// Hands out request slots per origin, `delay` apart.
///
/// It remembers an origin while its next slot lies ahead, and forgets the others from
/// time to time: it holds at most twice as many origins as wait at once (at least 4,096),
/// and a request costs the same with a hundred thousand origins waiting as with ten.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")] async fn main() {
/// use std::time::Duration;
/// use robots_fetch::{origin_of, Pacer};
/// let pacer = Pacer::new(Duration::from_secs(10));
/// let origin = origin_of("https://example.com/").unwrap();
/// pacer.wait(&origin, None).await; // no Crawl-delay: no wait
/// # }
/// ```
#[derive(Debug)]
pub struct Pacer {
    max_delay: Duration,
    slots: Mutex<Slots>,
}

/// The next free slot of each origin remembered, and when to forget those that are past.
#[derive(Debug)]
struct Slots {
    next: HashMap<Origin, Instant>,
    /// At this many origins, those whose slots are past are forgotten.
    prune_at: usize,
}

/// The least number of remembered origins that sets off forgetting past slots.
const PRUNE_AT: usize = 4096;

impl Pacer {
    /// A pacer that never waits longer than `max_delay` between two requests to one
    /// origin, whatever Crawl-delay says (`Duration::MAX` for no cap).
    pub fn new(max_delay: Duration) -> Pacer {
        Pacer {
            max_delay,
            slots: Mutex::new(Slots {
                next: HashMap::new(),
                prune_at: PRUNE_AT,
            }),
        }
    }

    /// Reserves the next request slot for `origin`, `delay` (capped) after the previous
    /// one, and returns how long to wait for it.
    pub fn reserve(&self, origin: &Origin, delay: Option<Duration>) -> Duration {
        self.reserve_after(origin, delay, None)
    }

    /// [`Pacer::reserve`], the slot also at least `delay` after `earlier`, a request to
    /// the origin the pacer did not hand a slot to.
    fn reserve_after(
        &self,
        origin: &Origin,
        delay: Option<Duration>,
        earlier: Option<Instant>,
    ) -> Duration {
        let delay = delay.unwrap_or_default().min(self.max_delay);
        let now = Instant::now();
        let mut slots = self.slots.lock().unwrap_or_else(|e| e.into_inner());
        let Slots { next, prune_at } = &mut *slots;
        if next.len() >= *prune_at {
            next.retain(|_, slot| *slot > now);
            // A crawl with more origins waiting than PRUNE_AT would otherwise walk them
            // all at every request; once twice as many are remembered, each request's
            // share of a walk stays constant.
            *prune_at = PRUNE_AT.max(2 * next.len());
        }
        // A site's Crawl-delay can be 2^63 seconds: past what an Instant holds, the
        // next slot is a century on rather than a panic.
        let after_earlier = earlier.map(|at| crate::clock::deadline(at, delay));
        let slot = [next.get(origin).copied(), after_earlier]
            .into_iter()
            .flatten()
            .fold(now, Instant::max);
        next.insert(origin.clone(), crate::clock::deadline(slot, delay));
        slot - now
    }

    /// Waits for the next request slot for `origin`.
    pub async fn wait(&self, origin: &Origin, delay: Option<Duration>) {
        Self::sleep(self.reserve(origin, delay)).await;
    }

    /// Waits for the next request slot for the answer's origin, spaced by the
    /// Crawl-delay of `agent`'s group in it. The robots.txt request behind the answer
    /// ([`Answer::requested_at`]) counts as a request to the origin: the first page
    /// after it waits the Crawl-delay too.
    pub async fn pace(&self, answer: &Answer, agent: &Agent) {
        let earlier = Instant::from_std(answer.requested_at());
        let delay = answer.crawl_delay(agent);
        Self::sleep(self.reserve_after(answer.origin(), delay, Some(earlier))).await;
    }

    /// Sleeps for `wait`; returns at once when it is zero.
    async fn sleep(wait: Duration) {
        if !wait.is_zero() {
            tokio::time::sleep(wait).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn origin(host: &str) -> Origin {
        crate::origin_of(&format!("https://{host}/")).unwrap()
    }

    #[tokio::test(start_paused = true)]
    async fn slots_are_spaced_by_the_delay_per_origin() {
        let pacer = Pacer::new(Duration::from_secs(60));
        let a = origin("a.test");
        let d = Some(Duration::from_secs(5));
        assert_eq!(pacer.reserve(&a, d), Duration::ZERO);
        assert_eq!(pacer.reserve(&a, d), Duration::from_secs(5));
        assert_eq!(pacer.reserve(&a, d), Duration::from_secs(10));
        // Another origin has its own slots.
        assert_eq!(pacer.reserve(&origin("b.test"), d), Duration::ZERO);
    }

    #[tokio::test(start_paused = true)]
    async fn no_cap_and_the_longest_crawl_delay_do_not_overflow() {
        let pacer = Pacer::new(Duration::MAX);
        let a = origin("a.test");
        // What a site's `Crawl-delay: 9223372036854775807.5` gives.
        let robots = robots::Robots::parse(b"User-agent: *\nCrawl-delay: 9223372036854775807.5\n");
        let delay = robots.group_for(&Agent::new("Bot").unwrap()).crawl_delay();
        assert!(delay > Some(Duration::from_secs(1 << 62)));
        assert_eq!(pacer.reserve(&a, delay), Duration::ZERO);
        assert!(pacer.reserve(&a, delay) >= Duration::from_secs(99 * 365 * 24 * 3600));
        pacer.reserve(&a, Some(Duration::MAX));
    }

    #[tokio::test(start_paused = true)]
    async fn a_request_the_pacer_did_not_slot_spaces_the_next() {
        let pacer = Pacer::new(Duration::from_secs(60));
        let a = origin("a.test");
        let d = Some(Duration::from_secs(5));
        let robots_txt = Instant::now();
        tokio::time::advance(Duration::from_secs(2)).await;
        assert_eq!(
            pacer.reserve_after(&a, d, Some(robots_txt)),
            Duration::from_secs(3)
        );
        assert_eq!(pacer.reserve(&a, d), Duration::from_secs(8));
        // A request long past, or before the slots handed out, moves nothing.
        assert_eq!(
            pacer.reserve_after(&a, d, Some(robots_txt)),
            Duration::from_secs(13)
        );
        let b = origin("b.test");
        tokio::time::advance(Duration::from_secs(60)).await;
        assert_eq!(pacer.reserve_after(&b, d, Some(robots_txt)), Duration::ZERO);
    }

    #[tokio::test(start_paused = true)]
    async fn the_delay_is_capped() {
        let pacer = Pacer::new(Duration::from_secs(2));
        let a = origin("a.test");
        let d = Some(Duration::from_secs(3600));
        pacer.reserve(&a, d);
        assert_eq!(pacer.reserve(&a, d), Duration::from_secs(2));
    }

    #[tokio::test(start_paused = true)]
    async fn wait_sleeps_until_the_slot() {
        let pacer = Pacer::new(Duration::from_secs(60));
        let a = origin("a.test");
        let start = Instant::now();
        pacer.wait(&a, Some(Duration::from_secs(7))).await;
        pacer.wait(&a, Some(Duration::from_secs(7))).await;
        // Paused tokio time: the clock jumps exactly by what was slept.
        assert_eq!(start.elapsed(), Duration::from_secs(7));
        tokio::time::advance(Duration::from_secs(30)).await;
        assert_eq!(
            pacer.reserve(&a, Some(Duration::from_secs(7))),
            Duration::ZERO
        );
    }

    #[tokio::test(start_paused = true)]
    async fn past_slots_are_forgotten_without_walking_waiting_ones_at_every_request() {
        let pacer = Pacer::new(Duration::from_secs(60));
        let d = Some(Duration::from_secs(10));
        let remembered = |pacer: &Pacer| {
            let slots = pacer.slots.lock().unwrap();
            (slots.next.len(), slots.prune_at)
        };
        // More origins waiting than PRUNE_AT: the walk that finds them all waiting puts
        // the next one off until twice as many are remembered.
        for i in 0..PRUNE_AT + 10 {
            pacer.reserve(&origin(&format!("{i}.test")), d);
        }
        assert_eq!(remembered(&pacer), (PRUNE_AT + 10, 2 * PRUNE_AT));
        tokio::time::advance(Duration::from_secs(11)).await;
        for i in 0..PRUNE_AT - 10 {
            pacer.reserve(&origin(&format!("later-{i}.test")), d);
        }
        assert_eq!(remembered(&pacer), (2 * PRUNE_AT, 2 * PRUNE_AT));
        // The next request walks them: the first origins, whose slots are past, are
        // forgotten; the later ones, still waiting, are kept and keep their spacing.
        assert_eq!(pacer.reserve(&origin("0.test"), d), Duration::ZERO);
        let waiting = PRUNE_AT - 10;
        assert_eq!(remembered(&pacer), (waiting + 1, 2 * waiting));
        assert_eq!(
            pacer.reserve(&origin("later-0.test"), d),
            Duration::from_secs(10)
        );
    }
}
