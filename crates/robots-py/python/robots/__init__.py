"""robots.txt as RFC 9309 defines it, with Archive-Embargo and a Google-exact profile.

The engine is the Rust crate ``robots``; this package is a thin layer over it, so the
verdicts are those of ``robots check`` on the command line.

>>> import robots
>>> r = robots.Robots(b"User-agent: *\\nDisallow: /private\\nCrawl-delay: 2\\n")
>>> r.check("ExampleBot", "https://example.com/private/x").allowed
False
>>> r.check_many("ExampleBot", ["/a", "/private/b"])
[True, False]
>>> r.crawl_delay("ExampleBot")
2.0
>>> robots.from_response(503, b"Service Unavailable").check("ExampleBot", "/a").reason
'unreachable'

``robots.scrapy`` holds the Scrapy parser and downloader middleware, ``robots.spark``
the PySpark job (``python -m robots.spark check --help``).
"""

from ._robots import (
    MAX_PARSE_LIMIT,
    MIN_PARSE_LIMIT,
    Agent,
    Finding,
    RequestRate,
    Robots,
    Verdict,
    from_response,
    origin_of,
)

__all__ = [
    "MAX_PARSE_LIMIT",
    "MIN_PARSE_LIMIT",
    "Agent",
    "Finding",
    "RequestRate",
    "Robots",
    "Verdict",
    "from_response",
    "origin_of",
]
