"""Type stubs for the extension module ``robots._robots`` (re-exported by ``robots``)."""

from typing import Iterable, Literal, Optional, Union, final

MIN_PARSE_LIMIT: int
MAX_PARSE_LIMIT: int

Profile = Literal["rfc9309", "rfc", "google"]

@final
class Agent:
    """A crawler: its product token, and whether it honours Archive-Embargo.

    >>> Agent("ExampleBot").token
    'ExampleBot'
    >>> Agent("Example Bot")
    Traceback (most recent call last):
    ValueError: the crawler's name `Example Bot` contains ' ', ...
    """

    def __init__(self, token: str, embargo: bool = False) -> None: ...
    @staticmethod
    def from_user_agent(header: str, embargo: bool = False) -> "Agent":
        """The crawler a whole User-Agent header names.

        >>> Agent.from_user_agent("Mozilla/5.0 (compatible; ExampleBot/2.1)").token
        'ExampleBot'
        """
    @property
    def token(self) -> str: ...
    @property
    def embargo(self) -> bool: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

AgentLike = Union[str, Agent]

@final
class Verdict:
    """Whether a URL may be fetched, and why: the fields of ``robots check --format json``.

    ``reason`` is ``robots-txt``, ``no-group``, ``no-match``, ``longest``,
    ``tie-won-by-allow``, ``empty-disallow`` (Google profile), or for a site without a
    file to read ``unavailable`` (all allowed) or ``unreachable`` (all disallowed).

    The AI usage preferences follow: ``content_usage`` (the deciding Content-Usage
    rule's categories, each ``"y"`` or ``"n"``; ``{}`` for a rule stating none; ``None``
    when no rule applies or the URL is disallowed) with ``content_usage_line``, and
    ``content_signal`` (the agent's groups' Content-Signal keys, each ``"yes"`` or
    ``"no"``) with ``content_signal_line``.
    """

    @property
    def url(self) -> str: ...
    @property
    def allowed(self) -> bool: ...
    @property
    def line(self) -> Optional[int]: ...
    @property
    def rule(self) -> Optional[Literal["allow", "disallow", "embargo-allow"]]: ...
    @property
    def pattern(self) -> Optional[str]: ...
    @property
    def embargo_days(self) -> Optional[int]: ...
    @property
    def reason(self) -> str: ...
    @property
    def content_usage(self) -> Optional[dict[str, Literal["y", "n"]]]: ...
    @property
    def content_usage_line(self) -> Optional[int]: ...
    @property
    def content_signal(self) -> Optional[dict[str, Literal["yes", "no"]]]: ...
    @property
    def content_signal_line(self) -> Optional[int]: ...
    def to_dict(self) -> dict[str, object]:
        """The verdict as ``robots check --format json`` writes it, keys in its order."""

@final
class RequestRate:
    """``Request-rate: n/t``: at most ``requests`` every ``seconds``."""

    @property
    def requests(self) -> int: ...
    @property
    def seconds(self) -> float: ...

@final
class Finding:
    """One thing wrong with a robots.txt, from ``Robots.lint()``."""

    @property
    def code(self) -> str: ...
    @property
    def severity(self) -> Literal["error", "warning", "info"]: ...
    @property
    def line(self) -> int: ...
    @property
    def column(self) -> int: ...
    @property
    def message(self) -> str: ...
    @property
    def suggestion(self) -> Optional[str]: ...

@final
class Robots:
    """A parsed robots.txt; parsing never raises on the content.

    >>> r = Robots(b"User-agent: *\\nDisallow: /private\\n")
    >>> v = r.check("ExampleBot", "https://example.com/private/x")
    >>> (v.allowed, v.line, v.rule, v.pattern, v.reason)
    (False, 2, 'disallow', '/private', 'longest')
    """

    def __init__(
        self,
        body: Union[bytes, bytearray, str],
        profile: Profile = "rfc9309",
        max_bytes: Optional[int] = None,
    ) -> None: ...
    def check(self, agent: AgentLike, url: str) -> Verdict: ...
    def allowed(self, agent: AgentLike, url: str) -> bool:
        """``check(agent, url).allowed`` without building the verdict."""
    def check_many(self, agent: AgentLike, urls: Iterable[str]) -> list[bool]:
        """Whether ``agent`` may fetch each URL, in order, checked without the GIL."""
    def crawl_delay(self, agent: AgentLike) -> Optional[float]: ...
    def request_rate(self, agent: AgentLike) -> Optional[RequestRate]: ...
    @property
    def sitemaps(self) -> list[str]: ...
    @property
    def host(self) -> Optional[str]: ...
    @property
    def profile(self) -> Literal["rfc9309", "google"]: ...
    @property
    def state(self) -> Literal["parsed", "unavailable", "unreachable"]: ...
    def lint(self) -> list[Finding]: ...
    def explain(self, agent: AgentLike, url: str) -> str: ...
    def __reduce__(self) -> tuple[object, tuple[str, bytes, str, int]]: ...

def from_response(
    status: Optional[int],
    body: Union[bytes, bytearray, str, None],
    *,
    profile: Profile = "rfc9309",
    max_bytes: Optional[int] = None,
) -> Robots:
    """The rules for one robots.txt fetch (RFC 9309 §2.3.1).

    2xx parses ``body``; 4xx (429 included, as the RFC says) and an unfollowed 3xx
    allow everything; 5xx, other statuses and ``None`` (no answer) disallow everything
    but ``/robots.txt``.
    """

def origin_of(url: str) -> Optional[str]:
    """``scheme://host[:port]`` of an absolute http(s) URL (RFC 9309 §2.3), lower-cased,
    the default port left out, an IPv6 address in brackets; ``None`` for anything else.

    The engine's reading (``robots::Origin::of``): the host as written, no IDNA.
    """
