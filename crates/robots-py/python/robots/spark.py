"""PySpark: robots.txt verdicts for many URLs from robots.txt captures in WARC files,
at corpus scale.

    python -m robots.spark check --robots-warc WARC [WARC ...] --urls FILE \\
        --agent A [--agent B ...] [--profile rfc9309|google] [--embargo] \\
        --out DIR [--master URL] [--partitions N]

Reads every robots.txt capture (``response`` records, any status) from the WARC files,
follows each origin's redirects through the captured records (up to 5 hops, RFC 9309
§2.3.1.2), reads the final status as ``robots.from_response`` does (RFC 9309 §2.3.1),
joins the URLs of ``--urls`` (one a line) to their origin's robots.txt, and writes JSON
lines with ``url``, ``agent``, ``allowed``, ``line``, ``rule``, ``reason``,
``embargo_days`` and the AI usage preferences ``content_usage`` and ``content_signal``
(as ``Verdict`` gives them) into ``DIR`` (Spark's part files). An origin with no capture, or whose
redirect leads to a URL not captured, gets ``allowed`` null and reason
``no-robots-txt``.

Partitioning: captures and URLs are both keyed by origin (``scheme://host[:port]``)
and co-grouped, so each origin's robots.txt is parsed once, in the task that checks all
of that origin's URLs. Runs in local mode by default and
unchanged on a cluster (``--master``, or ``spark-submit --master URL
$(python -c 'import robots.spark as s; print(s.__file__)') check ...``); WARC paths must
then be readable by every executor.

For your own jobs: ``read_robots_warcs(spark, paths)`` gives the captures as a
DataFrame (``url``, ``date``, ``status``, ``location``, ``body``) and
``check_urls(captures, urls, agents)`` the verdicts as a DataFrame.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Iterable, Iterator, Optional, Sequence
from urllib.parse import urljoin, urlsplit

# Absolute, so that `spark-submit .../robots/spark.py` runs this file as a script too.
# `origin_of` is the engine's reading (robots::Origin::of), so that captures and URLs are
# keyed by origin (RFC 9309 §2.3) as the Rust crates key them.
from robots import Agent, from_response, origin_of

#: RFC 9309 §2.3.1.2: crawlers SHOULD follow at least five consecutive redirects.
MAX_REDIRECTS = 5

VERDICT_FIELDS = ["url", "agent", "allowed", "line", "rule", "reason", "embargo_days",
                  "content_usage", "content_signal"]


def _captures_in(path: str) -> Iterator[tuple]:
    """(url, date, status, location, body) of every HTTP response record in one WARC."""
    from warcio.archiveiterator import ArchiveIterator

    with open(path, "rb") as stream:
        for record in ArchiveIterator(stream):
            if record.rec_type != "response" or record.http_headers is None:
                continue
            url = record.rec_headers.get_header("WARC-Target-URI")
            if not url:
                continue
            try:
                status = int(record.http_headers.get_statuscode())
            except (TypeError, ValueError):
                status = None
            yield (
                url.strip("<>"),
                record.rec_headers.get_header("WARC-Date") or "",
                status,
                record.http_headers.get_header("Location"),
                record.content_stream().read(),
            )


def read_robots_warcs(spark, paths: Sequence[str]):
    """The HTTP responses in `paths` (WARC files, read where the tasks run, one task per
    file) as a DataFrame of ``url``, ``date``, ``status``, ``location``, ``body``."""
    from pyspark.sql.types import BinaryType, IntegerType, StringType, StructField, StructType

    schema = StructType([
        StructField("url", StringType(), False),
        StructField("date", StringType(), True),
        StructField("status", IntegerType(), True),
        StructField("location", StringType(), True),
        StructField("body", BinaryType(), True),
    ])
    rdd = spark.sparkContext.parallelize(list(paths), max(1, len(paths))).flatMap(_captures_in)
    return spark.createDataFrame(rdd, schema)


def _latest(a: tuple, b: tuple) -> tuple:
    return a if a[0] >= b[0] else b


def _next_hop(url: str, capture: tuple) -> Optional[str]:
    """Where a captured 3xx sends the crawler, if anywhere."""
    _, status, location, _ = capture
    if status is None or not 300 <= status < 400 or not location:
        return None
    target = urljoin(url, location.strip())
    return target if origin_of(target) else None


def _start(url: str) -> list:
    """(url, origin) when `url` is an origin's /robots.txt."""
    origin = origin_of(url)
    if origin is None:
        return []
    parts = urlsplit(url)
    return [(url, origin)] if parts.path == "/robots.txt" and not parts.query else []


def resolve_robots(captures, partitions: Optional[int] = None):
    """Each origin's robots.txt as an RDD of (origin, (status, body)): its capture of
    ``/robots.txt``, redirects followed through the captures up to 5 hops. A chain
    longer than that ends on its 3xx (unavailable, RFC 9309 §2.3.1.2); one that leads
    to a URL not captured gives no entry."""
    from pyspark import StorageLevel

    # Read once, used twice (chains, then bodies): kept, spilling to disk when large.
    by_url = (
        captures.rdd.map(lambda r: (r["url"], (r["date"] or "", r["status"], r["location"], r["body"])))
        .reduceByKey(_latest, partitions)
        .persist(StorageLevel.MEMORY_AND_DISK)
    )
    # The redirects among the captures: (URL, where it sends the crawler).
    edges = by_url.flatMap(lambda kv: [(kv[0], n)] if (n := _next_hop(kv[0], kv[1])) else []).cache()
    # (current URL, origin) for each origin whose /robots.txt was captured.
    state = by_url.keys().flatMap(_start)
    if not edges.isEmpty():
        for _ in range(MAX_REDIRECTS):
            # A URL whose capture redirects moves on; others stay where they are.
            state = state.leftOuterJoin(edges, partitions).map(lambda kv: (kv[1][1] or kv[0], kv[1][0]))
    final = state.join(by_url, partitions)  # (url, (origin, capture)): drops uncaptured targets
    return final.map(lambda kv: (kv[1][0], (kv[1][1][1], kv[1][1][3])))


def _verdicts(agent_names: Sequence[str], profile: str, embargo: bool, max_bytes: Optional[int]):
    """The function each origin's co-grouped URLs and robots.txt go through."""

    def agents_of():
        if profile == "google":
            return [(name, name) for name in agent_names]
        out = []
        for name in agent_names:
            try:
                agent = Agent(name, embargo=embargo)
            except ValueError:
                agent = Agent(Agent.from_user_agent(name).token, embargo=embargo)
            out.append((name, agent))
        return out

    def check(item) -> Iterator[tuple]:
        _origin, (urls, robots) = item
        urls = list(urls)
        robots = list(robots)
        agents = agents_of()
        if not robots:
            for url in urls:
                for name, _ in agents:
                    yield (url, name, None, None, None, "no-robots-txt", None, None, None)
            return
        status, body = robots[0]
        rules = from_response(status, body if status is not None and 200 <= status < 300 else None,
                              profile=profile, max_bytes=max_bytes)
        for name, agent in agents:
            for url in urls:
                v = rules.check(agent, url)
                yield (url, name, v.allowed, v.line, v.rule, v.reason, v.embargo_days,
                       v.content_usage, v.content_signal)

    return check


def check_urls(captures, urls, agents: Sequence[str], profile: str = "rfc9309", embargo: bool = False,
               max_bytes: Optional[int] = None, partitions: Optional[int] = None):
    """The verdict of each URL of `urls` (a DataFrame with a ``url`` column) for each of
    `agents`, from the robots.txt `captures` (``read_robots_warcs``'s columns): a
    DataFrame of ``url``, ``agent``, ``allowed``, ``line``, ``rule``, ``reason``,
    ``embargo_days``, and the AI usage preferences ``content_usage`` (category to ``y`` or
    ``n``: whether the page may be used to train AI, draft-ietf-aipref-vocab) and
    ``content_signal`` (key to ``yes`` or ``no``), as ``Verdict`` gives them. Partitioned
    by origin: one parse per origin."""
    from pyspark.sql.types import (BooleanType, IntegerType, MapType, StringType, StructField,
                                   StructType)

    # Checked on the driver, so that a bad profile or agent fails before any task runs.
    from_response(200, b"", profile=profile, max_bytes=max_bytes)
    if profile != "google":
        for name in agents:
            try:
                Agent(name)
            except ValueError:
                Agent.from_user_agent(name)
    spark = captures.sparkSession
    partitions = partitions or spark.sparkContext.defaultParallelism
    robots = resolve_robots(captures, partitions)
    keyed = urls.rdd.map(lambda r: r["url"]).filter(bool).map(lambda u: (origin_of(u) or "", u))
    rows = keyed.cogroup(robots, partitions).filter(lambda kv: len(kv[1][0]) > 0).flatMap(
        _verdicts(list(agents), profile, embargo, max_bytes)
    )
    schema = StructType([
        StructField("url", StringType(), False),
        StructField("agent", StringType(), False),
        StructField("allowed", BooleanType(), True),
        StructField("line", IntegerType(), True),
        StructField("rule", StringType(), True),
        StructField("reason", StringType(), False),
        StructField("embargo_days", IntegerType(), True),
        StructField("content_usage", MapType(StringType(), StringType()), True),
        StructField("content_signal", MapType(StringType(), StringType()), True),
    ])
    return spark.createDataFrame(rows, schema)


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python -m robots.spark", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    check = sub.add_parser("check", help="verdicts for URLs from robots.txt captures in WARC files")
    check.add_argument("--robots-warc", nargs="+", required=True, metavar="WARC",
                       help="WARC files holding robots.txt captures (any status)")
    check.add_argument("--urls", required=True, metavar="FILE", help="URLs to check, one a line")
    check.add_argument("--agent", action="append", required=True,
                       help="a crawler's product token (or User-Agent header); repeat for more")
    check.add_argument("--profile", choices=["rfc9309", "google"], default="rfc9309")
    check.add_argument("--embargo", action="store_true", help="the agents honour Archive-Embargo")
    check.add_argument("--max-bytes", type=int, default=None, help="parse limit (at least 512000)")
    check.add_argument("--out", required=True, metavar="DIR", help="output directory (JSON lines)")
    check.add_argument("--master", default=None, help="Spark master URL (default: local[*], or spark-submit's)")
    check.add_argument("--partitions", type=int, default=None, help="partitions of the origin join")
    return ap


def use_this_python() -> None:
    """In local mode Spark starts its Python workers on this machine with
    ``PYSPARK_PYTHON``, by default ``python3`` from PATH, which need not have ``robots``
    installed (a virtual environment's python has it, the system's may not): unless
    ``PYSPARK_PYTHON`` names one, the workers run this interpreter."""
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)


def main(argv: Optional[Iterable[str]] = None) -> int:
    args = _parser().parse_args(None if argv is None else list(argv))
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName("robots.spark check")
    master = args.master
    if master:
        builder = builder.master(master)
    else:
        from pyspark import SparkConf, SparkContext

        # Under spark-submit the JVM already holds the master it was given; only a
        # plain `python -m robots.spark` gets local mode.
        SparkContext._ensure_initialized()  # noqa: SLF001 - starts or joins the JVM
        conf = SparkConf()
        master = conf.get("spark.master") if conf.contains("spark.master") else "local[*]"
        builder = builder.master(master)
    if master.startswith("local"):
        use_this_python()
    spark = builder.getOrCreate()
    print(f"robots.spark: master {spark.sparkContext.master}", file=sys.stderr)
    try:
        captures = read_robots_warcs(spark, args.robots_warc)
        urls = spark.read.text(args.urls).withColumnRenamed("value", "url")
        verdicts = check_urls(captures, urls, args.agent, args.profile, args.embargo, args.max_bytes,
                              args.partitions)
        verdicts.write.mode("overwrite").option("ignoreNullFields", "false").json(args.out)
    finally:
        spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
