"""robots against Protego on every query of the corpus, in one process and run.

    python crates/robots-py/bench/vs_protego.py [--corpus DIR] [--repeat N] [--record DIR]

Each file of ../shared/corpus/cases.jsonl is parsed once from its raw bytes, then its
queries are asked, file by file, as a crawler would: Protego decodes the bytes as
Scrapy's ProtegoRobotParser does (UTF-8, errors ignored), parses, then asks
can_fetch(url, agent) per query; robots parses the bytes, then asks either
check(agent, url).allowed or allowed(agent, url) per query, or check_many(agent,
urls) per file and agent.
The files and queries are read into memory before timing; each contender's best of
--repeat runs (interleaved) is kept. Prints the times and the ratios; with --record,
writes them as JSON (date, CPU, command, figures) into DIR/<date>.json.
"""

from __future__ import annotations

import argparse
import collections
import datetime
import json
import os
import pathlib
import platform
import sys
import time

import protego
import robots

ROOT = pathlib.Path(__file__).resolve().parents[3]


def load(corpus: pathlib.Path):
    by_file: dict[str, list[tuple[str, str]]] = collections.defaultdict(list)
    with open(corpus / "cases.jsonl", encoding="utf-8") as f:
        for line in f:
            case = json.loads(line)
            by_file[case["file"]].append((case["agent"], case["url"]))
    return [((corpus / "robots" / name).read_bytes(), cases) for name, cases in by_file.items()]


def run_protego(work) -> int:
    allowed = 0
    for body, cases in work:
        rp = protego.Protego.parse(body.decode("utf-8", errors="ignore"))
        for agent, url in cases:
            allowed += rp.can_fetch(url, agent)
    return allowed


def run_robots_check(work, agents) -> int:
    allowed = 0
    for body, cases in work:
        rp = robots.Robots(body)
        for agent, url in cases:
            allowed += rp.check(agents[agent], url).allowed
    return allowed


def run_robots_allowed(work, agents) -> int:
    allowed = 0
    for body, cases in work:
        rp = robots.Robots(body)
        for agent, url in cases:
            allowed += rp.allowed(agents[agent], url)
    return allowed


def run_robots_many(work, agents) -> int:
    allowed = 0
    for body, cases in work:
        rp = robots.Robots(body)
        by_agent: dict[str, list[str]] = collections.defaultdict(list)
        for agent, url in cases:
            by_agent[agent].append(url)
        for agent, urls in by_agent.items():
            allowed += sum(rp.check_many(agents[agent], urls))
    return allowed


def cpu() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def main() -> int:
    default_corpus = pathlib.Path(os.environ.get("ROBOTS_SHARED", ROOT.parent / "shared")) / "corpus"
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=pathlib.Path, default=default_corpus)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--record", type=pathlib.Path, help="directory to write <date>.json into")
    args = ap.parse_args()
    if not (args.corpus / "cases.jsonl").is_file():
        print(f"notice: no corpus at {args.corpus}; nothing measured")
        return 0
    work = load(args.corpus)
    queries = sum(len(c) for _, c in work)
    agents = {a: robots.Agent(a) for _, cases in work for a, _ in cases}
    contenders = {
        "protego": lambda: run_protego(work),
        "robots.check": lambda: run_robots_check(work, agents),
        "robots.allowed": lambda: run_robots_allowed(work, agents),
        "robots.check_many": lambda: run_robots_many(work, agents),
    }
    best = {name: float("inf") for name in contenders}
    allowed = {}
    for _ in range(args.repeat):
        for name, run in contenders.items():
            start = time.perf_counter()
            allowed[name] = run()
            best[name] = min(best[name], time.perf_counter() - start)
    print(f"{len(work)} files, {queries} queries, best of {args.repeat}")
    for name, seconds in best.items():
        ratio = best["protego"] / seconds
        print(f"{name:18} {seconds * 1000:9.1f} ms  {queries / seconds:12,.0f} queries/s  "
              f"{ratio:5.1f}x Protego  ({allowed[name]} allowed)")
    if args.record:
        now = datetime.datetime.now(datetime.timezone.utc)
        record = {
            "date": now.isoformat(timespec="seconds"),
            "cpu": cpu(),
            "cores": os.cpu_count(),
            # Other work on the machine slows every contender alike, but says how noisy.
            "load_average_1m": round(os.getloadavg()[0], 2),
            "python": sys.version.split()[0],
            "protego": getattr(protego, "__version__", None) or _version("protego"),
            "command": " ".join([os.path.relpath(sys.executable, ROOT) if sys.executable.startswith(str(ROOT)) else sys.executable]
                                + [os.path.relpath(os.path.abspath(a), ROOT) if a.endswith(".py") else a for a in sys.argv]),
            "files": len(work),
            "queries": queries,
            "repeat": args.repeat,
            "seconds": {k: round(v, 4) for k, v in best.items()},
            "ratio_vs_protego": {k: round(best["protego"] / v, 1) for k, v in best.items() if k != "protego"},
            "allowed": allowed,
        }
        args.record.mkdir(parents=True, exist_ok=True)
        path = args.record / f"{now:%Y-%m-%dT%H%M%SZ}.json"
        path.write_text(json.dumps(record, indent=2) + "\n")
        print(f"recorded in {path}")
    return 0


def _version(dist: str):
    from importlib.metadata import version
    return version(dist)


if __name__ == "__main__":
    sys.exit(main())
