"""Local web sites for the Scrapy tests: each an HTTP server on 127.0.0.1 on its own
ephemeral port (robots.txt is per origin), answering fixed routes and recording every
path asked, with the time it was asked."""

from __future__ import annotations

import http.server
import threading
import time
from typing import Optional

PAGE = b"<html><body>page</body></html>"


class Site:
    """A server whose `routes` map a path to (status, headers, body), or to a list of
    them answered in turn; any other path answers 200 with a small page."""

    def __init__(self, routes: dict[str, tuple[int, dict[str, str], bytes]]):
        self.routes = routes
        self.asked: list[tuple[str, float]] = []
        site = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 - the http.server name
                site.asked.append((self.path, time.monotonic()))
                route = site.routes.get(self.path, (200, {"Content-Type": "text/html"}, PAGE))
                if isinstance(route, list):  # answers in turn, the last one repeated
                    route = route[min(site.count(self.path) - 1, len(route) - 1)]
                status, headers, body = route
                self.send_response(status)
                for k, v in headers.items():
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):  # quiet
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def url(self, path: str) -> str:
        return self.origin + path

    def paths(self) -> set[str]:
        return {p for p, _ in self.asked}

    def count(self, path: str) -> int:
        return sum(1 for p, _ in self.asked if p == path)

    def times(self, prefix: str) -> list[float]:
        return sorted(t for p, t in self.asked if p.startswith(prefix))

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def robots_txt(body: bytes, status: int = 200, headers: Optional[dict[str, str]] = None):
    return (status, {"Content-Type": "text/plain", **(headers or {})}, body)


def redirect(to: str, status: int = 301):
    return (status, {"Location": to}, b"")
