"""Scrapy with the robots engine: a ``ROBOTSTXT_PARSER`` and a downloader middleware
that follows RFC 9309 §2.3–2.4 where Scrapy's own does not.

In ``settings.py``::

    ROBOTSTXT_OBEY = True
    ROBOTSTXT_PARSER = "robots.scrapy.RobotParser"
    DOWNLOADER_MIDDLEWARES = {
        "scrapy.downloadermiddlewares.robotstxt.RobotsTxtMiddleware": None,
        "robots.scrapy.RobotsTxtMiddleware": 100,
    }

``RobotParser`` alone replaces Protego but keeps Scrapy's middleware, which parses
whatever body robots.txt answered with, so a 503 error page allows everything (scrapy
#2443). ``RobotsTxtMiddleware`` fixes that: it reads the status as RFC 9309 §2.3.1
says (``robots.from_response``), follows at most 5 redirects itself, parses at most
500 KiB (``ROBOTS_MAX_BYTES`` for more), keeps each site's answer at most 24 hours
(``ROBOTS_CACHE_SECONDS``) and, when the site is down at refresh, goes on with the
answer it had (§2.4), holds every request until its site's robots.txt is known, and
sets each site's download slot delay to its Crawl-delay. ``ROBOTSTXT_USER_AGENT``,
``meta["dont_obey_robotstxt"]`` and Scrapy's ``robotstxt/*`` stats work as with
Scrapy's middleware. ``ROBOTS_PROFILE = "google"`` reads files as Google does. Each
request it lets through carries the page's AI usage preferences for the spider:
``meta["robots_content_usage"]`` (``{"train-ai": "n"}``) and
``meta["robots_content_signal"]``, ``None`` when the site states none.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Optional, Union

from scrapy import signals
from scrapy.exceptions import IgnoreRequest, NotConfigured
from scrapy.http import Request, Response
from scrapy.robotstxt import RobotParser as _ScrapyRobotParser
from scrapy.utils.defer import maybe_deferred_to_future
from scrapy.utils.httpobj import urlparse_cached
from twisted.internet.defer import Deferred

from . import Agent, Robots, from_response

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

try:  # Scrapy 2.8 and later: a request whose callback is never called.
    from scrapy.http.request import NO_CALLBACK
except ImportError:  # pragma: no cover - older Scrapy
    NO_CALLBACK = None

logger = logging.getLogger(__name__)

#: RFC 9309 §2.3.1.2: crawlers SHOULD follow at least five consecutive redirects.
MAX_REDIRECTS = 5
#: RFC 9309 §2.4: a cached robots.txt SHOULD NOT be used for more than 24 hours.
CACHE_SECONDS = 24 * 3600
#: How soon an unreachable robots.txt is asked again.
RETRY_SECONDS = 600


def _text(value: Union[str, bytes]) -> str:
    return value.decode("latin-1") if isinstance(value, bytes) else value


class _Agents:
    """The crawler each User-Agent string names, worked out once per string."""

    def __init__(self, profile: str) -> None:
        self._profile = profile
        self._known: dict[str, Union[Agent, str]] = {}

    def __call__(self, user_agent: Union[str, bytes]) -> Union[Agent, str]:
        text = _text(user_agent)
        agent = self._known.get(text)
        if agent is None:
            agent = self._known[text] = self._named(text)
        return agent

    def _named(self, text: str) -> Union[Agent, str]:
        try:
            agent = Agent(text)
        except ValueError:
            try:
                agent = Agent.from_user_agent(text)
            except ValueError:
                # No product token in it: the crawler no group names, which the `*`
                # groups govern, rather than an exception inside Scrapy.
                agent = Agent("*")
        # Google's matcher compares a name as given: give it the product token.
        return agent.token if self._profile == "google" else agent


class RobotParser(_ScrapyRobotParser):
    """``ROBOTSTXT_PARSER = "robots.scrapy.RobotParser"``: Protego's place, the engine's
    verdicts. It is given a body whatever the status, so with Scrapy's middleware a 5xx
    page is still parsed; use ``RobotsTxtMiddleware`` for RFC 9309's statuses.

    >>> rp = RobotParser(b"User-agent: *\\nDisallow: /private\\nCrawl-delay: 3\\n", None)
    >>> rp.allowed("https://example.com/private/x", "Mozilla/5.0 (compatible; ExampleBot/2.1)")
    False
    >>> rp.crawl_delay(b"ExampleBot")
    3.0
    """

    def __init__(
        self,
        robotstxt_body: Union[bytes, str],
        spider: Any = None,
        profile: str = "rfc9309",
        max_bytes: Optional[int] = None,
    ) -> None:
        self.spider = spider
        self.robots = Robots(robotstxt_body, profile, max_bytes)
        self._agents = _Agents(profile)

    @classmethod
    def from_crawler(cls, crawler: "Crawler", robotstxt_body: bytes) -> "RobotParser":
        settings = crawler.settings
        return cls(
            robotstxt_body,
            getattr(crawler, "spider", None),
            settings.get("ROBOTS_PROFILE", "rfc9309"),
            settings.getint("ROBOTS_MAX_BYTES") or None,
        )

    def allowed(self, url: Union[str, bytes], user_agent: Union[str, bytes]) -> bool:
        return self.robots.check(self._agents(user_agent), _text(url)).allowed

    def crawl_delay(self, user_agent: Union[str, bytes]) -> Optional[float]:
        return self.robots.crawl_delay(self._agents(user_agent))


@dataclass
class _Site:
    """One origin's robots.txt: the rules once known, until when, and who waits."""

    robots: Optional[Robots] = None
    expires: float = 0.0
    waiters: list = field(default_factory=list)
    fetching: bool = False


class RobotsTxtMiddleware:
    """A drop-in for Scrapy's ``RobotsTxtMiddleware`` that reads robots.txt as RFC 9309
    §2.3–2.4 says: see the module's documentation for the settings."""

    DOWNLOAD_PRIORITY = 1000

    def __init__(self, crawler: "Crawler", clock=time.monotonic) -> None:
        settings = crawler.settings
        if not settings.getbool("ROBOTSTXT_OBEY"):
            raise NotConfigured
        self.crawler = crawler
        self._stats = crawler.stats
        self._default_useragent = settings.get("USER_AGENT")
        self._robotstxt_useragent = settings.get("ROBOTSTXT_USER_AGENT")
        self._profile = settings.get("ROBOTS_PROFILE", "rfc9309")
        self._max_bytes = settings.getint("ROBOTS_MAX_BYTES") or None
        self._cache_seconds = min(settings.getfloat("ROBOTS_CACHE_SECONDS", CACHE_SECONDS), CACHE_SECONDS)
        self._retry_seconds = settings.getfloat("ROBOTS_RETRY_SECONDS", RETRY_SECONDS)
        # Checked now, so that a bad profile or limit stops the crawl at its start.
        Robots(b"", self._profile, self._max_bytes)
        self._agents = _Agents(self._profile)
        self._sites: dict[tuple[str, str], _Site] = {}
        self._clock = clock

    @classmethod
    def from_crawler(cls, crawler: "Crawler") -> "RobotsTxtMiddleware":
        return cls(crawler)

    async def process_request(self, request: Request, spider: Any = None) -> None:
        if request.meta.get("dont_obey_robotstxt"):
            return None
        if request.url.startswith(("data:", "file:")):
            return None
        robots = await self.robots_for(request)
        useragent = self._robotstxt_useragent or request.headers.get(b"User-Agent", self._default_useragent)
        agent = self._agents(useragent)
        verdict = robots.check(agent, request.url)
        if not verdict.allowed:
            logger.debug("Forbidden by robots.txt: %(request)s", {"request": request},
                         extra={"spider": self.crawler.spider})
            self._stats.inc_value("robotstxt/forbidden")
            raise IgnoreRequest("Forbidden by robots.txt")
        # The page's AI usage preferences, for the spider to keep with what it scrapes
        # (a dataset pipeline drops what says train-ai=n): None when the site states none.
        request.meta["robots_content_usage"] = verdict.content_usage
        request.meta["robots_content_signal"] = verdict.content_signal
        delay = robots.crawl_delay(agent)
        if delay:
            self._apply_delay(request, delay)
        return None

    async def robots_for(self, request: Request) -> Robots:
        """The rules of the request's origin, fetched first if not known or stale; every
        request of the origin waits for the one fetch."""
        parts = urlparse_cached(request)
        key = (parts.scheme, parts.netloc)
        site = self._sites.setdefault(key, _Site())
        if site.robots is not None and self._clock() < site.expires:
            return site.robots
        waiter: Deferred = Deferred()
        site.waiters.append(waiter)
        if not site.fetching:
            site.fetching = True
            try:
                robots = await self._fetch(f"{parts.scheme}://{parts.netloc}/robots.txt", request, site)
            except Exception:  # never leave requests waiting: unreachable, §2.3.1.4
                logger.exception("reading robots.txt of %s failed", parts.netloc)
                robots = site.robots or from_response(None, None, profile=self._profile)
            site.fetching = False
            waiters, site.waiters = site.waiters, []
            for w in waiters:
                w.callback(robots)
        return await maybe_deferred_to_future(waiter)

    async def _fetch(self, url: str, request: Request, site: _Site) -> Robots:
        status: Optional[int] = None
        body: Optional[bytes] = None
        asked: list[str] = []
        for hop in range(MAX_REDIRECTS + 1):
            asked.append(url)
            response = await self._download(url, request)
            if response is None:
                break
            status, body = response.status, response.body
            location = response.headers.get(b"Location")
            if not (300 <= status < 400 and location):
                break
            target = response.urljoin(_text(location))
            if hop == MAX_REDIRECTS or target in asked or not target.startswith(("http://", "https://")):
                # RFC 9309 §2.3.1.2: past five redirects (or in a loop) the file is
                # unavailable; from_response reads the 3xx so.
                self._stats.inc_value("robotstxt/redirect_limit")
                break
            url = target
        robots = from_response(status, body if status is not None and 200 <= status < 300 else None,
                               profile=self._profile, max_bytes=self._max_bytes)
        now = self._clock()
        if robots.state == "unreachable" and site.robots is not None:
            # RFC 9309 §2.4: while the file is unreachable, the cached copy may be used
            # past 24 hours; ask again later.
            self._stats.inc_value("robotstxt/unreachable_kept_cached")
            site.expires = now + self._retry_seconds
            return site.robots
        self._stats.inc_value(f"robotstxt/{robots.state}")
        site.robots = robots
        site.expires = now + (self._retry_seconds if robots.state == "unreachable" else self._cache_seconds)
        if hasattr(signals, "robots_parsed"):
            await _send(self.crawler, signals.robots_parsed, robotparser=robots, request=request)
        return robots

    async def _download(self, url: str, request: Request) -> Optional[Response]:
        """One robots.txt request, redirects not followed (they are counted here), any
        status handed back; `None` when no answer came."""
        meta = {"dont_obey_robotstxt": True, "dont_redirect": True, "handle_httpstatus_all": True}
        if "download_slot" in request.meta:
            meta["download_slot"] = request.meta["download_slot"]
        robots_request = Request(url, priority=self.DOWNLOAD_PRIORITY, meta=meta, callback=NO_CALLBACK)
        self._stats.inc_value("robotstxt/request_count")
        engine = self.crawler.engine
        try:
            if hasattr(engine, "download_async"):
                response = await engine.download_async(robots_request)
            else:  # pragma: no cover - Scrapy before 2.14
                response = await maybe_deferred_to_future(engine.download(robots_request))
        except Exception as exc:  # a failed fetch is an unreachable robots.txt
            if not isinstance(exc, IgnoreRequest):
                self._stats.inc_value(f"robotstxt/exception_count/{type(exc)}")
                logger.info("robots.txt unreachable: %(url)s: %(exc)s", {"url": url, "exc": exc},
                            extra={"spider": self.crawler.spider})
            return None
        self._stats.inc_value("robotstxt/response_count")
        self._stats.inc_value(f"robotstxt/response_status_count/{response.status}")
        return response

    def _apply_delay(self, request: Request, delay: float) -> None:
        """Crawl-delay as the site's download slot delay, never lowering a larger one,
        without the random jitter that could take it below."""
        downloader = self.crawler.engine.downloader
        try:
            _, slot = downloader._get_slot(request)
        except TypeError:  # pragma: no cover - Scrapy before 2.13 wants the spider
            _, slot = downloader._get_slot(request, self.crawler.spider)
        if slot.delay < delay:
            slot.delay = delay
            if hasattr(slot, "jitter"):
                slot.jitter = 0.0
            self._stats.max_value("robotstxt/crawl_delay", delay)


async def _send(crawler: "Crawler", signal: object, **kwargs: Any) -> None:
    send = getattr(crawler.signals, "send_catch_log_async", None)
    if send is not None:
        await send(signal=signal, **kwargs)
    else:  # pragma: no cover - older Scrapy
        await maybe_deferred_to_future(crawler.signals.send_catch_log_deferred(signal=signal, **kwargs))
