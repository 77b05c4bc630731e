"""The Spark job's throughput in local mode on the corpus: verdict rows per second.

    python crates/robots-py/bench/spark_rate.py [--corpus DIR] [--agent A ...] [--master local[*]] [--record DIR]

Writes a WARC holding each public corpus file as the 200 answer of its site's
https://SITE/robots.txt and a URL list of every distinct URL of cases.jsonl, then runs
`robots.spark.check_urls` over them twice (a SparkSession already started, so the JVM
start is not counted; the first run still pays for warm-up) and writes the verdicts as JSON lines, as `python -m robots.spark check`
does. Prints rows, seconds and rows/s; with --record, writes them as JSON (date, CPU,
command, figures) into DIR/spark-<date>.json.
"""

from __future__ import annotations

import argparse
import csv
import datetime
import io
import json
import os
import pathlib
import shutil
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[3]
sys.path.insert(0, str(pathlib.Path(__file__).parent))

from vs_protego import cpu  # noqa: E402


def main() -> int:
    default_corpus = pathlib.Path(os.environ.get("ROBOTS_SHARED", ROOT.parent / "shared")) / "corpus"
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=pathlib.Path, default=default_corpus)
    ap.add_argument("--agent", action="append", default=None)
    ap.add_argument("--master", default="local[*]")
    ap.add_argument("--record", type=pathlib.Path)
    args = ap.parse_args()
    agents = args.agent or ["ExampleBot", "GPTBot"]
    if not (args.corpus / "cases.jsonl").is_file():
        print(f"notice: no corpus at {args.corpus}; nothing measured")
        return 0
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    with open(args.corpus / "manifest.tsv", encoding="utf-8") as f:
        sites = {row["file"]: row["site"] for row in csv.DictReader(f, delimiter="\t")}
    files, urls = set(), set()
    with open(args.corpus / "cases.jsonl", encoding="utf-8") as f:
        for line in f:
            case = json.loads(line)
            files.add(case["file"])
            urls.add(case["url"])
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="robots-spark-bench-"))
    with open(tmp / "robots.warc.gz", "wb") as out:
        writer = WARCWriter(out, gzip=True)
        for name in sorted(files):
            http = StatusAndHeaders("200 OK", [("Content-Type", "text/plain")], protocol="HTTP/1.1")
            body = (args.corpus / "robots" / name).read_bytes()
            writer.write_record(writer.create_warc_record(f"https://{sites[name]}/robots.txt", "response",
                                                          payload=io.BytesIO(body), http_headers=http))
    (tmp / "urls.txt").write_text("\n".join(sorted(urls)) + "\n")

    from pyspark.sql import SparkSession

    from robots.spark import check_urls, read_robots_warcs, use_this_python

    if args.master.startswith("local"):
        use_this_python()
    spark = SparkSession.builder.master(args.master).appName("robots.spark bench").getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    try:
        # Twice: the first run pays for the JVM's warm-up and Python workers' start,
        # which a job over millions of rows amortises; both are reported.
        runs = []
        for _ in range(2):
            start = time.perf_counter()
            captures = read_robots_warcs(spark, [str(tmp / "robots.warc.gz")])
            url_df = spark.read.text(str(tmp / "urls.txt")).withColumnRenamed("value", "url")
            verdicts = check_urls(captures, url_df, agents)
            verdicts.write.mode("overwrite").option("ignoreNullFields", "false").json(str(tmp / "out"))
            runs.append(time.perf_counter() - start)
        rows = spark.read.json(str(tmp / "out")).count()
        parallelism = spark.sparkContext.defaultParallelism
    finally:
        spark.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    for label, seconds in zip(["first run", "second run"], runs):
        print(f"{label}: {len(files)} robots.txt, {len(urls)} URLs x {len(agents)} agents = {rows} rows "
              f"in {seconds:.1f} s: {rows / seconds:,.0f} rows/s ({args.master}, parallelism {parallelism})")
    if args.record:
        now = datetime.datetime.now(datetime.timezone.utc)
        record = {
            "date": now.isoformat(timespec="seconds"),
            "cpu": cpu(),
            "cores": os.cpu_count(),
            "load_average_1m": round(os.getloadavg()[0], 2),
            "python": sys.version.split()[0],
            "command": " ".join(["python"] + [os.path.relpath(os.path.abspath(a), ROOT) if a.endswith(".py") else a
                                             for a in sys.argv]),
            "master": args.master,
            "robots_txt": len(files),
            "urls": len(urls),
            "agents": agents,
            "rows": rows,
            "seconds": {"first_run": round(runs[0], 2), "second_run": round(runs[1], 2)},
            "rows_per_second": {"first_run": round(rows / runs[0]), "second_run": round(rows / runs[1])},
        }
        args.record.mkdir(parents=True, exist_ok=True)
        path = args.record / f"spark-{now:%Y-%m-%dT%H%M%SZ}.json"
        path.write_text(json.dumps(record, indent=2) + "\n")
        print(f"recorded in {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
