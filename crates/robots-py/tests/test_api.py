"""The Python API: construction, errors, verdict fields, the other questions, and the
fetch-status rules of from_response (RFC 9309 §2.3.1)."""

import json
import subprocess
import sys
import threading
import time

import pytest

import robots

BODY = b"""\
User-agent: *
Disallow: /private
Allow: /private/open
Crawl-delay: 2.5
Request-rate: 10/1m

User-agent: ArchiveBot
Archive-Embargo: m
Embargo-Allow: /news
Disallow: /

Sitemap: https://example.com/sitemap.xml
Host: example.com
"""


def test_verdict_fields_name_the_deciding_rule():
    r = robots.Robots(BODY)
    v = r.check("ExampleBot", "https://example.com/private/x")
    assert (v.url, v.allowed, v.line, v.rule, v.pattern, v.reason, v.embargo_days) == (
        "https://example.com/private/x", False, 2, "disallow", "/private", "longest", None)
    v = r.check("ExampleBot", "/private/open/1")
    assert (v.allowed, v.line, v.rule, v.pattern) == (True, 3, "allow", "/private/open")
    v = r.check("ExampleBot", "/elsewhere")
    assert (v.allowed, v.line, v.rule, v.reason) == (True, None, None, "no-match")
    assert r.check("ExampleBot", "/robots.txt").reason == "robots-txt"


def test_embargo_applies_to_an_agent_that_honours_it():
    r = robots.Robots(BODY)
    archiver = robots.Agent("ArchiveBot", embargo=True)
    v = r.check(archiver, "/news/today")
    assert (v.allowed, v.rule, v.embargo_days) == (True, "embargo-allow", 31)
    # Without embargo support the group's Disallow: / decides.
    v = r.check("ArchiveBot", "/news/today")
    assert (v.allowed, v.line) == (False, 10)


def test_to_dict_has_the_keys_of_robots_check_json_in_order():
    v = robots.Robots(BODY).check("ExampleBot", "/private")
    assert list(v.to_dict()) == ["url", "allowed", "line", "rule", "pattern", "embargo_days", "reason",
                                 "content_usage", "content_usage_line", "content_signal",
                                 "content_signal_line"]


def test_ai_usage_preferences_beside_the_verdict():
    body = (b"User-agent: *\nContent-Signal: search=yes, ai-train=no\nDisallow: /private\n"
            b"Content-Usage: /blog train-ai=n\nContent-Usage: /blog/open\n")
    r = robots.Robots(body)
    v = r.check("ExampleBot", "/blog/a")
    assert (v.content_usage, v.content_usage_line) == ({"train-ai": "n"}, 4)
    assert (v.content_signal, v.content_signal_line) == ({"search": "yes", "ai-train": "no"}, 2)
    assert r.check("ExampleBot", "/blog/open/1").content_usage == {}
    # A disallowed URL has no preferences (attach-05 §3.1); the group's signal stands.
    v = r.check("ExampleBot", "/private/x")
    assert (v.allowed, v.content_usage, v.content_signal_line) == (False, None, 2)
    # A file without them, and a site without a file, give None throughout.
    for v in [robots.Robots(BODY).check("ExampleBot", "/a"),
              robots.from_response(404, None).check("ExampleBot", "/a")]:
        assert (v.content_usage, v.content_usage_line, v.content_signal, v.content_signal_line) == (
            None, None, None, None)


def test_same_json_as_robots_check(tmp_path, robots_cli):
    path = tmp_path / "robots.txt"
    body = BODY + (b"User-agent: Latin\nDisallow: /caf\xe9\nDisallow: /x*\nAllow: /x$\n"
                   b"Content-Usage: /x train-ai=n, search=y\nContent-Signal: ai-input=no\n")
    path.write_bytes(body)
    urls = ["/private/a", "/private/open", "/robots.txt", "/a", "/caf%E9", "/x", "/xy"]
    for agent, embargo in [("ExampleBot", False), ("ArchiveBot", True), ("Latin", False)]:
        args = [robots_cli, "check", "--robots", path, "--agent", agent, "--format", "json"]
        if embargo:
            args.append("--embargo")
        out = subprocess.run(args + urls, check=True, capture_output=True).stdout
        expected = [json.loads(line) for line in out.splitlines()]
        r = robots.Robots(body)
        got = [r.check(robots.Agent(agent, embargo=embargo), u).to_dict() for u in urls]
        assert got == expected
    # The Google profile reads a str agent as Google's matcher does.
    for agent in ["ExampleBot", "Latin/1.0"]:
        args = [robots_cli, "check", "--robots", path, "--agent", agent, "--format", "json",
                "--profile", "google"]
        out = subprocess.run(args + urls, check=True, capture_output=True).stdout
        expected = [json.loads(line) for line in out.splitlines()]
        r = robots.Robots(body, profile="google")
        assert [r.check(agent, u).to_dict() for u in urls] == expected


def test_str_agent_is_a_token_or_a_user_agent_header():
    r = robots.Robots(b"User-agent: MJ12bot\nDisallow: /\n")
    assert not r.check("mj12bot", "/a").allowed
    assert not r.check("Mozilla/5.0 (compatible; MJ12bot/v1.4.8; http://mj12bot.com/)", "/a").allowed
    # Google's matcher compares the name as given: `MJ12bot` is `MJ` on the line.
    g = robots.Robots(b"User-agent: MJ12bot\nDisallow: /\n", profile="google")
    assert g.check("MJ12bot", "/a").allowed
    assert g.check("MJ12bot", "/a").reason == "no-group"


def test_agent():
    a = robots.Agent("ExampleBot")
    assert (a.token, a.embargo) == ("ExampleBot", False)
    assert robots.Agent("ExampleBot", embargo=True).embargo
    assert robots.Agent.from_user_agent("Mozilla/5.0 (compatible; ExampleBot/2.1)").token == "ExampleBot"
    assert robots.Agent("examplebot") == a and hash(robots.Agent("examplebot")) == hash(a)
    with pytest.raises(ValueError, match="' '"):
        robots.Agent("Example Bot")
    with pytest.raises(ValueError, match="'/'"):
        robots.Agent("ExampleBot/2.1")
    with pytest.raises(ValueError, match="empty"):
        robots.Agent("")
    with pytest.raises(ValueError, match="no product token"):
        robots.Agent.from_user_agent("(just a comment)")


def test_errors():
    with pytest.raises(TypeError, match="bytes or str"):
        robots.Robots(123)
    with pytest.raises(ValueError, match="unknown profile `bing`"):
        robots.Robots(b"", profile="bing")
    with pytest.raises(ValueError, match="512,000"):
        robots.Robots(b"", max_bytes=1000)
    with pytest.raises(ValueError, match="negative"):
        robots.Robots(b"", max_bytes=-1)
    r = robots.Robots(b"")
    with pytest.raises(TypeError, match="must be a str"):
        r.check("Bot", b"/a")
    with pytest.raises(TypeError, match="must be a str"):
        r.check_many("Bot", ["/a", 3])
    with pytest.raises(TypeError, match="agent must be"):
        r.check(3, "/a")
    with pytest.raises(ValueError, match="product token"):
        r.check("Bad(bot", "/a")


def test_body_may_be_str_bytes_or_bytearray_and_never_raises():
    for body in ["User-agent: *\nDisallow: /a\n", b"User-agent: *\nDisallow: /a\n",
                 bytearray(b"User-agent: *\nDisallow: /a\n")]:
        assert not robots.Robots(body).check("Bot", "/a").allowed
    for body in [b"\xff\xfe\x00garbage", b"<html><body>503</body></html>", b"\0" * 100,
                 b"User-agent: *\r\nDisallow: /%\xc3\n" * 1000]:
        robots.Robots(body).lint()


def test_parse_limit():
    late = b"# " + b"x" * 600_000 + b"\nUser-agent: *\nDisallow: /late\n"
    assert robots.Robots(late).check("Bot", "/late").allowed
    assert not robots.Robots(late, max_bytes=1_000_000).check("Bot", "/late").allowed
    codes = {f.code for f in robots.Robots(late).lint()}
    assert "truncated" in codes or any("limit" in c for c in codes), codes


def test_other_questions():
    r = robots.Robots(BODY)
    assert r.crawl_delay("ExampleBot") == 2.5
    assert r.crawl_delay("ArchiveBot") is None
    rate = r.request_rate("ExampleBot")
    assert (rate.requests, rate.seconds) == (10, 60.0)
    assert r.sitemaps == ["https://example.com/sitemap.xml"]
    assert r.host == "example.com"
    assert (r.profile, r.state) == ("rfc9309", "parsed")


def test_lint_findings():
    r = robots.Robots(b"Disallow: /before\nUser-agent: *\nDisallow: /a\nDisallow: /a\n")
    found = [(f.code, f.severity, f.line, f.column) for f in r.lint()]
    assert ("rule-before-user-agent", "warning", 1, 1) in found or found[0][2] == 1
    assert any(code == "shadowed-rule" and line == 4 for code, _, line, _ in found)
    assert all(isinstance(f.message, str) and f.message for f in r.lint())


def test_explain_is_robots_explains_text(tmp_path, robots_cli):
    # The same words and layout, from one presentation layer; the command line adds the
    # file's lines around the deciding rule, after a blank line.
    body = (b"User-agent: *\nDisallow: /private\n\nUser-agent: ExampleBot\nAllow: /open\n"
            b"Disallow: /caf\xe9\nContent-Usage: /open train-ai=n\n")
    path = tmp_path / "robots.txt"
    path.write_bytes(body)
    r = robots.Robots(body)
    for agent, url in [("ExampleBot", "/private/x"), ("ExampleBot", "/open/a"),
                       ("OtherBot", "/private/x"), ("ExampleBot", "/caf%E9")]:
        out = subprocess.run([robots_cli, "explain", "--robots", path, "--agent", agent, url],
                             check=True, capture_output=True, text=True).stdout
        assert r.explain(agent, url) == out.split("\n\n")[0].rstrip("\n") + "\n", (agent, url)
    assert "the `*` group (line 1) does not apply" in r.explain("ExampleBot", "/private/x")


def test_explain():
    text = robots.Robots(BODY).explain("ExampleBot", "/private/open/x")
    assert "line 3" in text and "<- decides" in text and "ALLOWED" in text
    assert "DISALLOWED" in robots.from_response(500, None).explain("Bot", "/x")


@pytest.mark.parametrize("status,body,url,allowed,reason", [
    (200, b"User-agent: *\nDisallow: /a\n", "/a", False, "longest"),
    (204, None, "/a", True, "no-group"),
    (404, b"User-agent: *\nDisallow: /\n", "/a", True, "unavailable"),
    (410, None, "/a", True, "unavailable"),
    (429, None, "/a", True, "unavailable"),
    (301, None, "/a", True, "unavailable"),
    (503, b"User-agent: *\nAllow: /\n", "/a", False, "unreachable"),
    (500, None, "/robots.txt", True, "robots-txt"),
    (None, None, "/a", False, "unreachable"),
    (None, None, "https://example.com/robots.txt", True, "robots-txt"),
    (600, None, "/a", False, "unreachable"),
])
def test_from_response(status, body, url, allowed, reason):
    v = robots.from_response(status, body).check("Bot", url)
    assert (v.allowed, v.reason) == (allowed, reason)


def test_from_response_google_profile_and_errors():
    # Google's matcher knows no always-allowed /robots.txt.
    assert not robots.from_response(503, None, profile="google").check("Bot", "/robots.txt").allowed
    assert robots.from_response(503, None).state == "unreachable"
    assert robots.from_response(404, None).state == "unavailable"
    assert robots.from_response(404, None).crawl_delay("Bot") is None
    with pytest.raises(ValueError, match="no HTTP status"):
        robots.from_response(-1, None)
    with pytest.raises(ValueError, match="512,000"):
        robots.from_response(200, b"", max_bytes=10)


def test_check_many_matches_check_and_shares_across_threads():
    r = robots.Robots(BODY)
    urls = [f"/private/{i}" if i % 3 else f"/private/open/{i}" for i in range(3000)]
    expected = [r.check("ExampleBot", u).allowed for u in urls]
    assert r.check_many("ExampleBot", urls) == expected
    assert [r.allowed("ExampleBot", u) for u in urls] == expected
    assert r.check_many("ExampleBot", iter(urls)) == expected
    assert r.check_many("ExampleBot", []) == []
    results = [None] * 8

    def work(i):
        results[i] = r.check_many(robots.Agent("ExampleBot"), urls)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(res == expected for res in results)


def test_stub_names_what_the_module_has():
    import pathlib
    import re
    stub = (pathlib.Path(robots.__file__).parent / "_robots.pyi").read_text()
    assert (pathlib.Path(robots.__file__).parent / "py.typed").exists()
    for name in re.findall(r"^(?:class|def) (\w+)", stub, re.M):
        assert hasattr(robots, name), name
    for name in ["check", "allowed", "check_many", "crawl_delay", "request_rate", "lint", "explain"]:
        assert f"def {name}(" in stub and hasattr(robots.Robots, name)


def test_pickle_round_trip():
    import pickle

    for r in [robots.Robots(BODY, profile="google", max_bytes=600_000), robots.Robots(BODY),
              robots.from_response(404, None), robots.from_response(503, None)]:
        back = pickle.loads(pickle.dumps(r))
        assert (back.state, back.profile) == (r.state, r.profile)
        for url in ["/private/x", "/private/open", "/robots.txt", "/news/1"]:
            assert back.check("ExampleBot", url).to_dict() == r.check("ExampleBot", url).to_dict()
        assert back.crawl_delay("ExampleBot") == r.crawl_delay("ExampleBot")
    late = b"# " + b"x" * 600_000 + b"\nUser-agent: *\nDisallow: /late\n"
    assert not pickle.loads(pickle.dumps(robots.Robots(late, max_bytes=700_000))).allowed("Bot", "/late")


def test_str_with_lone_surrogates_does_not_raise():
    # Text decoded with surrogateescape stands for the octets it was decoded from.
    body = b"User-agent: *\nDisallow: /caf\xe9\n".decode("utf-8", "surrogateescape")
    r = robots.Robots(body)
    assert r.check("Bot", "/caf%E9").pattern == "/caf\\xE9"
    assert not r.check("Bot", "/caf\udce9").allowed
    # Any other lone surrogate is checked too, never raised on.
    assert robots.Robots("User-agent: *\nDisallow: /\ud800\n").check("Bot", "/\ud800").allowed is False
    assert r.check_many("Bot", ["/\ud800", "/caf\udce9"]) == [True, False]


def test_parsing_and_check_many_release_the_gil():
    # While another thread parses (or checks) inside Rust, this thread runs Python: it
    # could not if the GIL were held for the call. Past the first 10 ms (switch
    # intervals of 1 ms) a call holding the GIL lets no iteration of this loop in.
    body = b"User-agent: *\n" + b"".join(b"Disallow: /p%d/*/x$\n" % i for i in range(700_000))
    urls = [f"/p{i}/a/x" for i in range(600_000)] * 3
    r = robots.Robots(b"User-agent: *\nDisallow: /p1*\n")
    interval = sys.getswitchinterval()
    sys.setswitchinterval(0.001)
    try:
        for work in [lambda: robots.Robots(body, max_bytes=robots.MAX_PARSE_LIMIT),
                     lambda: r.check_many("Bot", urls)]:
            span = []

            def run():
                span.append(time.perf_counter())
                work()
                span.append(time.perf_counter())

            seen = []
            t = threading.Thread(target=run)
            t.start()
            while t.is_alive():
                seen.append(time.perf_counter())
            t.join()
            start, end = span
            inside = [s for s in seen if start + 0.01 < s < end - 0.002]
            assert end - start > 0.03 and len(inside) > 0, (end - start, len(seen))
    finally:
        sys.setswitchinterval(interval)
