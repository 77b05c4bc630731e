"""Every query of the corpus (../shared/corpus/cases.jsonl) from Python, in both
profiles: none raises (a panic in Rust would surface as PanicException), and the Google
profile gives Google's verdicts. Skipped, with a notice, when the corpus is absent."""

import collections
import json

import robots


def test_every_corpus_query_answers_and_google_profile_agrees(corpus):
    by_file = collections.defaultdict(list)
    with open(corpus / "cases.jsonl", encoding="utf-8") as f:
        for line in f:
            case = json.loads(line)
            by_file[case["file"]].append(case)
    checked = disagree = 0
    for name, cases in by_file.items():
        body = (corpus / "robots" / name).read_bytes()
        rfc = robots.Robots(body)
        # Google's matcher reads the whole file, whatever its size.
        google = robots.Robots(body, profile="google", max_bytes=robots.MAX_PARSE_LIMIT)
        rfc.lint()
        for case in cases:
            if _is_token(case["agent"]):
                rfc.check(case["agent"], case["url"])
            v = google.check(case["agent"], case["url"])
            checked += 1
            if (v.allowed, v.line or 0) != (case["allowed"], case["line"]):
                disagree += 1
        urls = [c["url"] for c in cases]
        assert google.check_many(cases[0]["agent"], urls) == [
            google.check(cases[0]["agent"], u).allowed for u in urls]
    assert checked == sum(len(c) for c in by_file.values()) > 100_000
    assert disagree == 0, f"{disagree} of {checked} verdicts differ from Google's"


def test_every_corpus_file_parses_and_lints(corpus):
    files = sorted((corpus / "robots").iterdir())
    assert len(files) > 10_000
    for path in files:
        body = path.read_bytes()
        r = robots.Robots(body)
        for finding in r.lint():
            assert finding.line >= 1 and finding.code
        r.check(robots.Agent("ExampleBot", embargo=True), "https://example.com/a/b?c=d")
        r.explain("ExampleBot", "/")
        r.sitemaps, r.crawl_delay("ExampleBot"), r.request_rate("ExampleBot")


def _is_token(agent: str) -> bool:
    try:
        robots.Agent(agent)
        return True
    except ValueError:
        return False
