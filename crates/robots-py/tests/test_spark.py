"""robots.spark: the job run as users run it (`python -m robots.spark check`, local
mode, local[2]) over a small WARC written here, every verdict row checked."""

from __future__ import annotations

import io
import json
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

from conftest import need
from robots.spark import origin_of


def write_warc(path, captures):
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    with open(path, "wb") as f:
        writer = WARCWriter(f, gzip=True)
        for url, status, headers, body in captures:
            http = StatusAndHeaders(f"{status} X", headers, protocol="HTTP/1.1")
            writer.write_record(writer.create_warc_record(url, "response", payload=io.BytesIO(body),
                                                          http_headers=http))
        # A request record, which the job skips.
        writer.write_record(writer.create_warc_record("http://a.example/robots.txt", "request",
                                                      payload=io.BytesIO(b"GET /robots.txt HTTP/1.1\r\n\r\n")))


def test_origin_of():
    assert origin_of("HTTP://Example.COM:80/a?b") == "http://example.com"
    assert origin_of("https://example.com:8443/") == "https://example.com:8443"
    assert origin_of("https://[::1]:443/x") == "https://[::1]"
    assert origin_of("ftp://example.com/") is None
    assert origin_of("/relative") is None


def test_spark_job_in_local_mode(tmp_path):
    need("java (scripts/test-py installs openjdk-17-jre-headless)", shutil.which("java") is not None)
    text = [("Content-Type", "text/plain")]
    chain = [(f"http://e.example/r{i}", 301, [("Location", f"/r{i + 1}")], b"") for i in range(1, 6)]
    write_warc(tmp_path / "robots.warc.gz", [
        ("http://a.example/robots.txt", 200, text,
         b"User-agent: *\nDisallow: /private\n\nUser-agent: TestBot\nDisallow: /\n"),
        ("http://b.example/robots.txt", 503, text, b"User-agent: *\nAllow: /\n"),
        ("http://c.example/robots.txt", 404, text, b"User-agent: *\nDisallow: /\n"),
        ("http://d.example/robots.txt", 301, [("Location", "https://www.d.example/robots.txt")], b""),
        ("https://www.d.example/robots.txt", 200, text, b"User-agent: *\nDisallow: /x\n"),
        ("http://e.example/robots.txt", 301, [("Location", "/r1")], b""),
        *chain,
        ("http://e.example/r6", 200, text, b"User-agent: *\nDisallow: /\n"),
        ("http://g.example/robots.txt", 302, [("Location", "/missing.txt")], b""),
        ("http://h.example/robots.txt", 200, text,
         b"User-agent: *\nArchive-Embargo: w\nEmbargo-Allow: /news\nDisallow: /\n"),
        ("http://i.example/robots.txt", 200, text,
         b"User-agent: *\nContent-Usage: /data train-ai=n\nContent-Signal: search=yes\nDisallow: /x\n"),
    ])
    urls = ["http://a.example/private/1", "http://a.example/open", "http://b.example/p",
            "http://b.example/robots.txt", "http://c.example/p", "http://d.example/x/1",
            "http://d.example/y", "http://e.example/p", "http://f.example/p", "http://g.example/p",
            "http://h.example/news/1", "http://i.example/data/1", "http://i.example/x"]
    (tmp_path / "urls.txt").write_text("\n".join(urls) + "\n")
    out = tmp_path / "out"
    # No PYSPARK_PYTHON: in local mode the job's workers run the interpreter it runs in,
    # which has robots (PATH's python3 may not).
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYSPARK_")}
    run = subprocess.run(
        [sys.executable, "-m", "robots.spark", "check", "--robots-warc", str(tmp_path / "robots.warc.gz"),
         "--urls", str(tmp_path / "urls.txt"), "--agent", "OtherBot", "--agent", "TestBot", "--embargo",
         "--out", str(out), "--master", "local[2]", "--partitions", "3"],
        capture_output=True, text=True, env=env, timeout=600)
    assert run.returncode == 0, run.stderr[-4000:]
    assert "robots.spark: master local[2]" in run.stderr
    rows = [json.loads(line) for part in sorted(out.glob("part-*")) for line in part.read_text().splitlines()]
    got = {(r["url"], r["agent"]): r for r in rows}
    assert len(rows) == len(urls) * 2 == len(got)
    assert all(list(r) == ["url", "agent", "allowed", "line", "rule", "reason", "embargo_days",
                           "content_usage", "content_signal"] for r in rows)

    def verdict(url, agent="OtherBot"):
        r = got[(url, agent)]
        return (r["allowed"], r["line"], r["rule"], r["reason"])

    assert verdict("http://a.example/private/1") == (False, 2, "disallow", "longest")
    assert verdict("http://a.example/open") == (True, None, None, "no-match")
    assert verdict("http://a.example/open", "TestBot") == (False, 5, "disallow", "longest")
    # 503: unreachable, all disallowed but /robots.txt; 404: all allowed.
    assert verdict("http://b.example/p") == (False, None, None, "unreachable")
    assert verdict("http://b.example/robots.txt") == (True, None, None, "robots-txt")
    assert verdict("http://c.example/p") == (True, None, None, "unavailable")
    # The redirect to another origin is followed through the captures.
    assert verdict("http://d.example/x/1") == (False, 2, "disallow", "longest")
    assert verdict("http://d.example/y")[0] is True
    # Six redirects: past the limit, unavailable.
    assert verdict("http://e.example/p") == (True, None, None, "unavailable")
    # No capture, or a redirect to a URL not captured: no verdict.
    assert verdict("http://f.example/p") == (None, None, None, "no-robots-txt")
    assert verdict("http://g.example/p") == (None, None, None, "no-robots-txt")
    # With --embargo the agents honour Archive-Embargo: Embargo-Allow decides, a week.
    assert verdict("http://h.example/news/1") == (True, 3, "embargo-allow", "longest")
    assert got[("http://h.example/news/1", "OtherBot")]["embargo_days"] == 7
    assert got[("http://a.example/open", "OtherBot")]["embargo_days"] is None
    # The AI usage preferences beside the verdict: none for a disallowed URL's content.
    data = got[("http://i.example/data/1", "OtherBot")]
    assert (data["content_usage"], data["content_signal"]) == ({"train-ai": "n"}, {"search": "yes"})
    blocked = got[("http://i.example/x", "OtherBot")]
    assert (blocked["allowed"], blocked["content_usage"], blocked["content_signal"]) == (
        False, None, {"search": "yes"})
    assert got[("http://a.example/open", "OtherBot")]["content_usage"] is None


def test_spark_submit_runs_the_same_file(tmp_path):
    need("java (scripts/test-py installs openjdk-17-jre-headless)", shutil.which("java") is not None)
    import robots.spark

    submit = pathlib.Path(sys.executable).parent / "spark-submit"
    need(f"spark-submit ({submit}; pyspark from PyPI has it)", submit.exists())
    write_warc(tmp_path / "r.warc.gz", [
        ("https://a.example/robots.txt", 200, [("Content-Type", "text/plain")], b"User-agent: *\nDisallow: /p\n"),
    ])
    (tmp_path / "urls.txt").write_text("https://a.example/p/1\nhttps://a.example/q\n")
    env = {**os.environ, "PYSPARK_PYTHON": sys.executable, "PYSPARK_DRIVER_PYTHON": sys.executable}
    run = subprocess.run(
        [str(submit), "--master", "local[1]", robots.spark.__file__, "check", "--robots-warc",
         str(tmp_path / "r.warc.gz"), "--urls", str(tmp_path / "urls.txt"), "--agent", "Bot",
         "--out", str(tmp_path / "out")],
        capture_output=True, text=True, env=env, timeout=600)
    assert run.returncode == 0, run.stderr[-4000:]
    rows = [json.loads(line) for part in (tmp_path / "out").glob("part-*") for line in part.read_text().splitlines()]
    assert sorted((r["url"], r["allowed"]) for r in rows) == [("https://a.example/p/1", False),
                                                              ("https://a.example/q", True)]
    # The master spark-submit was given ran the job, not local mode's default.
    assert "robots.spark: master local[1]" in run.stdout + run.stderr
