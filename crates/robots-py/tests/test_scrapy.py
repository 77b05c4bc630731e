"""robots.scrapy in real Scrapy crawls of local sites on 127.0.0.1: each test asserts
which paths each site's server was asked for."""

from __future__ import annotations

import json
import pathlib
import socket
import subprocess
import sys

import pytest

from sites import Site, redirect, robots_txt

HERE = pathlib.Path(__file__).parent
UA = "Mozilla/5.0 (compatible; TestBot/1.0; +http://127.0.0.1/bot)"
OURS = {
    "ROBOTSTXT_OBEY": True,
    "ROBOTSTXT_PARSER": "robots.scrapy.RobotParser",
    "DOWNLOADER_MIDDLEWARES": {
        "scrapy.downloadermiddlewares.robotstxt.RobotsTxtMiddleware": None,
        "robots.scrapy.RobotsTxtMiddleware": 100,
    },
    "USER_AGENT": UA,
}
DISALLOW_PRIVATE = b"User-agent: *\nDisallow: /private\n"


def crawl(tmp_path, settings, requests) -> dict:
    """Runs one Scrapy crawl of `requests` (URLs, or (URL, meta) pairs); its stats."""
    config = tmp_path / "crawl.json"
    out = tmp_path / "stats.json"
    reqs = [{"url": r} if isinstance(r, str) else {"url": r[0], "meta": r[1]} for r in requests]
    config.write_text(json.dumps({"settings": settings, "requests": reqs, "out": str(out),
                                  "seen": str(tmp_path / "seen.jsonl")}))
    run = subprocess.run([sys.executable, str(HERE / "crawl.py"), str(config)],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-4000:]
    return json.loads(out.read_text())


@pytest.fixture
def sites():
    made: list[Site] = []

    def make(routes):
        site = Site(routes)
        made.append(site)
        return site

    yield make
    for site in made:
        site.close()


def pages(site: Site) -> list[str]:
    return [site.url(p) for p in ["/public", "/private/a", "/late"]]


def test_statuses_redirects_own_group_and_parse_limit(tmp_path, sites):
    ok = sites({"/robots.txt": robots_txt(DISALLOW_PRIVATE)})
    # An error page that would allow everything if parsed, and one that would forbid.
    down = sites({"/robots.txt": robots_txt(b"<html>Service Unavailable</html>", 503)})
    missing = sites({"/robots.txt": robots_txt(b"User-agent: *\nDisallow: /\n", 404)})
    moved = sites({"/robots.txt": redirect("/config/robots.txt"),
                   "/config/robots.txt": robots_txt(DISALLOW_PRIVATE)})
    own = sites({"/robots.txt": robots_txt(
        b"User-agent: *\nDisallow: /\n\nUser-agent: testbot\nDisallow: /private\n")})
    late = b"# " + b"x" * 600_000 + b"\nUser-agent: *\nDisallow: /late\nDisallow: /private\n"
    big = sites({"/robots.txt": robots_txt(b"User-agent: *\nDisallow: /private\n" + late)})
    everything = [ok, down, missing, moved, own, big]
    stats = crawl(tmp_path, OURS, [u for s in everything for u in pages(s)])

    assert ok.paths() == {"/robots.txt", "/public", "/late"}
    # 503: unreachable, everything disallowed (Scrapy's own would parse the page).
    assert ok.count("/robots.txt") == 1
    assert down.paths() == {"/robots.txt"}
    # 404: unavailable, everything allowed, whatever the body says.
    assert missing.paths() == {"/robots.txt", "/public", "/private/a", "/late"}
    # The redirect is followed, and the file it leads to obeyed.
    assert moved.paths() == {"/robots.txt", "/config/robots.txt", "/public", "/late"}
    # The group naming the crawler's own token (from its User-Agent) applies.
    assert own.paths() == {"/robots.txt", "/public", "/late"}
    # The rule past 500 KiB is not parsed: /late is fetched; the early rule holds.
    assert big.paths() == {"/robots.txt", "/public", "/late"}

    assert stats["robotstxt/forbidden"] == 1 + 3 + 1 + 1 + 1  # ok, down, moved, own, big
    assert stats["robotstxt/response_status_count/503"] >= 1
    assert stats["robotstxt/response_status_count/404"] == 1
    assert stats["robotstxt/response_status_count/301"] == 1
    assert stats["robotstxt/unreachable"] == 1 and stats["robotstxt/unavailable"] == 1


def test_redirect_limit_loop_and_unreachable_site(tmp_path, sites):
    # Six redirects: past RFC 9309's five, so the file is unavailable: allow all.
    chain = {"/robots.txt": redirect("/r1")}
    chain.update({f"/r{i}": redirect(f"/r{i + 1}") for i in range(1, 6)})
    chain["/r6"] = robots_txt(b"User-agent: *\nDisallow: /\n")
    far = sites(chain)
    # Five redirects are followed to the file.
    five = {"/robots.txt": redirect("/r1")}
    five.update({f"/r{i}": redirect(f"/r{i + 1}") for i in range(1, 5)})
    five["/r5"] = robots_txt(DISALLOW_PRIVATE)
    near = sites(five)
    loop = sites({"/robots.txt": redirect("/again"), "/again": redirect("/robots.txt")})
    # A port nobody listens on: no answer, so unreachable.
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{s.getsockname()[1]}"
    stats = crawl(tmp_path, OURS, pages(far) + pages(near) + pages(loop) + [dead + "/public"])
    assert far.paths() == {"/robots.txt", "/r1", "/r2", "/r3", "/r4", "/r5", "/public", "/private/a", "/late"}
    assert "/r6" not in far.paths()
    assert near.paths() == {"/robots.txt", "/r1", "/r2", "/r3", "/r4", "/r5", "/public", "/late"}
    assert loop.paths() == {"/robots.txt", "/again", "/public", "/private/a", "/late"}
    assert any(k.startswith("robotstxt/exception_count/") for k in stats)
    assert stats["robotstxt/forbidden"] == 1 + 1  # near's /private/a, dead's /public


def test_robotstxt_user_agent_dont_obey_parse_limit_and_crawl_delay(tmp_path, sites):
    body = (b"User-agent: *\nDisallow: /\n\nUser-agent: OtherBot\nDisallow: /private\nCrawl-delay: 1\n"
            + b"# " + b"x" * 600_000 + b"\nDisallow: /late\n")
    site = sites({"/robots.txt": robots_txt(body)})
    settings = {**OURS, "ROBOTSTXT_USER_AGENT": "OtherBot", "ROBOTS_MAX_BYTES": 1_000_000}
    requests = [site.url(f"/public/{i}") for i in range(3)] + [
        site.url("/late"), (site.url("/private/b"), {"dont_obey_robotstxt": True}), site.url("/private/a")]
    stats = crawl(tmp_path, settings, requests)
    # ROBOTSTXT_USER_AGENT names the group; the larger limit reaches /late's rule;
    # dont_obey_robotstxt skips the check.
    assert site.paths() == {"/robots.txt", "/public/0", "/public/1", "/public/2", "/private/b"}
    assert stats["robotstxt/forbidden"] == 2
    assert stats["robotstxt/crawl_delay"] == 1
    # Crawl-delay: 1 spaces the site's pages a second apart (the slot's delay).
    times = site.times("/public/")
    assert len(times) == 3 and all(b - a >= 0.9 for a, b in zip(times, times[1:])), times


def test_parser_with_scrapys_own_middleware(tmp_path, sites):
    site = sites({"/robots.txt": robots_txt(
        b"User-agent: *\nDisallow: /\n\nUser-agent: TestBot\nDisallow: /private\n")})
    settings = {"ROBOTSTXT_OBEY": True, "ROBOTSTXT_PARSER": "robots.scrapy.RobotParser", "USER_AGENT": UA}
    stats = crawl(tmp_path, settings, pages(site))
    assert site.paths() == {"/robots.txt", "/public", "/late"}
    assert stats["robotstxt/forbidden"] == 1


def test_parser_api():
    from robots.scrapy import RobotParser

    rp = RobotParser(b"User-agent: *\nDisallow: /private\nCrawl-delay: 3\n", None)
    assert not rp.allowed("https://example.com/private/x", UA)
    assert rp.allowed(b"https://example.com/public", UA.encode())
    assert rp.crawl_delay(b"TestBot") == 3.0
    # A User-Agent without a product token is the crawler no group names.
    assert not rp.allowed("/private", "(compatible)")


def test_cache_expires_and_a_site_down_at_refresh_keeps_its_rules(tmp_path, sites):
    # First answer: the rules; every later one: 503. RFC 9309 §2.4: the cached rules
    # go on applying while the file is unreachable.
    site = sites({"/robots.txt": [robots_txt(DISALLOW_PRIVATE), robots_txt(b"down", 503)]})
    settings = {**OURS, "ROBOTS_CACHE_SECONDS": 1, "ROBOTS_RETRY_SECONDS": 1, "RETRY_ENABLED": False,
                "CONCURRENT_REQUESTS": 1, "DOWNLOAD_DELAY": 1.3}
    requests = [site.url("/public/0"), site.url("/private/a"), site.url("/public/1"), site.url("/private/b")]
    stats = crawl(tmp_path, settings, requests)
    assert site.count("/robots.txt") >= 2
    assert site.paths() == {"/robots.txt", "/public/0", "/public/1"}
    assert stats["robotstxt/unreachable_kept_cached"] >= 1
    assert stats["robotstxt/forbidden"] == 2


def test_the_spider_gets_the_pages_ai_usage_preferences(tmp_path, sites):
    # A site stating Content-Usage for one path and a Content-Signal for all; another
    # stating none. The middleware hands the spider what applies to each page.
    stated = sites({"/robots.txt": robots_txt(
        b"User-agent: *\nContent-Signal: search=yes, ai-train=no\nContent-Usage: /blog train-ai=n\n"
        b"Disallow: /private\n")})
    silent = sites({"/robots.txt": robots_txt(DISALLOW_PRIVATE)})
    crawl(tmp_path, OURS, [stated.url("/blog/a"), stated.url("/public"), stated.url("/private/a"),
                           silent.url("/public")])
    seen = {r["url"]: r for r in map(json.loads, (tmp_path / "seen.jsonl").read_text().splitlines())}
    assert stated.paths() == {"/robots.txt", "/blog/a", "/public"}
    assert seen[stated.url("/blog/a")]["content_usage"] == {"train-ai": "n"}
    assert seen[stated.url("/blog/a")]["content_signal"] == {"search": "yes", "ai-train": "no"}
    assert seen[stated.url("/public")]["content_usage"] is None
    assert seen[stated.url("/public")]["content_signal"] == {"search": "yes", "ai-train": "no"}
    assert (seen[silent.url("/public")]["content_usage"], seen[silent.url("/public")]["content_signal"]) == (
        None, None)
