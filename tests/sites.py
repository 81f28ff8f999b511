"""Web sites on 127.0.0.1 for tests: a fixture company site with the nasty cases, and the real letsencrypt.org build.

Every server records each request it receives (path, monotonic arrival time, headers),
so tests assert politeness from the server's side:

    def test_x(acme_site):
        result = gather.crawl([...acme_site.url...], settings)
        assert "/private/secret.html" not in acme_site.paths()
        assert min(gaps(acme_site.times())) >= delay - TOLERANCE

Fixtures (function scope; each gets a fresh server and log):
- ``make_site(routes=None, *, directory=None, host="127.0.0.1") -> SiteServer``: a factory.
- ``offsite_site``: a second host (127.0.0.2) that acme links to; nothing may request it.
- ``acme_site``: Acme Corp's site, see :func:`acme_routes` for its pages.
- ``letsencrypt_site``: ``../shared/corpora/site_letsencrypt`` served in place.

Behaviours are :class:`Reply` values, or functions of the hit count (1 on the first
request of that path) returning one: ``flaky(...)`` and ``slow(...)`` are examples; ``drip(...)``
is a page that never finishes.
"""

from __future__ import annotations

import hashlib
import socket
import struct
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

# Seconds of noise in server-side arrival times: a busy 2-core machine delays a handler thread
# by tens of milliseconds now and then. Tests use delays well above it (0.3 s).
TOLERANCE = 0.1
SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)  # Linux's receive timestamps (socket(7)); Python names it from 3.14 on


@dataclass(frozen=True)
class Reply:
    """One HTTP answer."""

    status: int = 200
    body: bytes | str = b""
    content_type: str = "text/html; charset=utf-8"
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0  # seconds before answering: slower than the client's timeout means a timeout
    drip: float = 0.0  # when set: headers at once, then the body one byte per ``drip`` seconds, never ending


Behaviour = Reply | Callable[[int], Reply]


@dataclass(frozen=True)
class LoggedRequest:
    """A request as the server saw it."""

    path: str
    time: float  # time.monotonic() at arrival: when the kernel received it (see _Handler.handle_one_request)
    headers: dict[str, str]


def flaky(fails: int, status: int, then: Reply) -> Behaviour:
    """Answer ``status`` to the first ``fails`` requests, then ``then``."""
    return lambda hit: Reply(status=status, body=f"<h1>{status}</h1>") if hit <= fails else then


def slow(seconds: float, then: Reply) -> Behaviour:
    """Answer ``then`` after ``seconds``."""
    return replace(then, delay=seconds)


def drip(seconds_per_byte: float) -> Reply:
    """A page whose server sends its headers, then one byte every ``seconds_per_byte`` until the client hangs up."""
    return Reply(drip=seconds_per_byte)


def gaps(times: list[float]) -> list[float]:
    """Seconds between consecutive times (sorted)."""
    ordered = sorted(times)
    return [b - a for a, b in zip(ordered, ordered[1:])]


class SiteServer:
    """A threaded HTTP/1.1 server on ``host``:0 serving ``routes`` (exact path, then path without query),
    then files under ``directory`` if given, else 404. Records every request in ``log``.

    With ``etags``, a route's 200 answers carry an ETag (a hash of the body) and a request whose
    If-None-Match names it gets 304 Not Modified, counted in ``not_modified``."""

    def __init__(self, routes: dict[str, Behaviour] | None = None, *, directory: Path | None = None, host: str = "127.0.0.1", etags: bool = False):
        self.routes: dict[str, Behaviour] = dict(routes or {})
        self.directory = directory
        self.etags = etags
        self.not_modified = 0
        self.log: list[LoggedRequest] = []
        self._hits: dict[str, int] = {}
        self._lock = threading.Lock()
        handler = partial(_Handler, self, directory=str(directory or Path.cwd()))
        self.httpd = ThreadingHTTPServer((host, 0), handler)
        self.httpd.socket.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)  # accepted connections inherit it
        self.httpd.daemon_threads = True
        self.host = host
        self.port = self.httpd.server_address[1]
        self.url = f"http://{host}:{self.port}"
        self._thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    def start(self) -> SiteServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def __enter__(self) -> SiteServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def url_for(self, path: str) -> str:
        return self.url + path

    def paths(self) -> list[str]:
        """Requested paths (with query), in arrival order."""
        return [entry.path for entry in self.log]

    def times(self, path: str | None = None) -> list[float]:
        """Arrival times of every request, or of one path's requests."""
        return [entry.time for entry in self.log if path is None or entry.path == path]

    def record(self, path: str, headers: dict[str, str], received: float | None = None) -> int:
        """Log a request (``received``: its arrival, time.monotonic(); now if not known); return how many times
        this path has been requested, this one included."""
        with self._lock:
            self.log.append(LoggedRequest(path, time.monotonic() if received is None else received, headers))
            self._hits[path] = self._hits.get(path, 0) + 1
            return self._hits[path]

    def behaviour(self, path: str) -> Behaviour | None:
        return self.routes.get(path) or self.routes.get(urlsplit(path).path)


class _Handler(SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as real servers: no connect time between requests

    def __init__(self, site: SiteServer, *args: Any, **kwargs: Any):
        self.site = site
        super().__init__(*args, **kwargs)

    def handle_one_request(self) -> None:
        """Note when the kernel received the request before this thread reads it: on a busy machine the handler
        runs tens of milliseconds later, by a different lag for each request, and politeness tests measure gaps."""
        self.received = None
        try:
            _, ancillary, _, _ = self.connection.recvmsg(1, 64, socket.MSG_PEEK)  # waits for the request, reads nothing
            for level, kind, data in ancillary:
                if (level, kind) == (socket.SOL_SOCKET, SO_TIMESTAMPNS):
                    seconds, nanoseconds = struct.unpack("qq", data[:16])
                    self.received = seconds + nanoseconds / 1e9 - time.time() + time.monotonic()  # the kernel's clock is wall time
        except OSError:
            pass  # a closed connection: handle_one_request below ends it as before
        super().handle_one_request()

    def do_GET(self) -> None:  # noqa: N802 -- http.server's naming
        hit = self.site.record(self.path, dict(self.headers.items()), self.received)
        behaviour = self.site.behaviour(self.path)
        if behaviour is None:
            if self.site.directory is not None:
                super().do_GET()
            else:
                self.send_error(404, "Not Found")
            return
        reply = behaviour(hit) if callable(behaviour) else behaviour
        if self.site.etags and reply.status == 200:
            reply = self._validated(reply)
        self._send(reply)

    def _validated(self, reply: Reply) -> Reply:
        body = reply.body.encode("utf-8") if isinstance(reply.body, str) else reply.body
        tag = '"' + hashlib.sha256(body).hexdigest()[:16] + '"'
        if self.headers.get("If-None-Match") == tag:
            with self.site._lock:
                self.site.not_modified += 1
            return Reply(status=304, body=b"", content_type="", headers={"ETag": tag})  # as servers do: no body, no Content-Type
        return replace(reply, headers={**reply.headers, "ETag": tag})

    def _send(self, reply: Reply) -> None:
        if reply.delay:
            time.sleep(reply.delay)
        if reply.drip:
            return self._drip(reply)
        body = reply.body.encode("utf-8") if isinstance(reply.body, str) else reply.body
        try:
            self.send_response(reply.status)
            if reply.content_type:
                self.send_header("Content-Type", reply.content_type)
            self.send_header("Content-Length", str(len(body)))
            for name, value in reply.headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (a timeout): that is the point of a slow page

    def _drip(self, reply: Reply, limit_s: float = 120.0) -> None:
        self.send_response(reply.status)
        self.send_header("Content-Type", reply.content_type)
        self.send_header("Connection", "close")  # no Content-Length: the body ends when the connection does
        self.end_headers()
        ends = time.monotonic() + limit_s  # a bound for the test run, far past any client's deadline
        try:
            self.wfile.write(b"<html><body><p>")
            while time.monotonic() < ends:
                self.wfile.write(b"x")
                self.wfile.flush()
                time.sleep(reply.drip)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up: that is what it should do
        self.close_connection = True

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass  # the request log is self.site.log


# --- Acme Corp: the fixture company site --------------------------------------

COOKIE_BANNER = (
    '<div id="cookie-banner" class="cookie-consent" role="dialog">We use cookies to improve your experience. '
    "By continuing you accept our cookie policy. <button>Accept all cookies</button> <button>Reject</button></div>"
)


def page(title: str, body: str, *, lang: str = "en", links: list[str] | None = None) -> Reply:
    """An HTML page with navigation, a cookie banner and a footer around ``body``."""
    nav = "".join(f'<li><a href="{href}">{href}</a></li>' for href in ["/", "/about/", "/products/", "/news/", "/contact/"])
    more = "".join(f'<li><a href="{href}">{href}</a></li>' for href in links or [])
    html = f"""<!DOCTYPE html>
<html lang="{lang}"><head><meta charset="utf-8"><title>{title}</title></head>
<body>{COOKIE_BANNER}
<header><nav><ul>{nav}</ul></nav></header>
<main><article><h1>{title}</h1>
{body}
<ul>{more}</ul></article></main>
<footer><p>&copy; 2024 Acme Corp. All rights reserved.</p><a href="/legal/">Legal</a> <a href="/about/?ref=footer">About us</a></footer>
</body></html>"""
    return Reply(body=html)


def paragraphs(*texts: str) -> str:
    return "\n".join(f"<p>{text}</p>" for text in texts)


ABOUT = paragraphs(
    "Acme Corp was founded in 1999 in Springfield, Oregon, by Jane Doe and Richard Roe.",
    "Acme Corp makes industrial anvils, rocket skates and portable holes for customers in 40 countries.",
    "The company employs 1,250 people and is headquartered at 100 Main Street, Springfield.",
)
TEAM = paragraphs(
    "Jane Doe is the chief executive officer of Acme Corp.",
    "Richard Roe is the chief technology officer and leads the rocket skate division.",
)
CONTACT = paragraphs("Write to Acme Corp at 100 Main Street, Springfield, OR 97477, or call +1 555 0100.")
LEGAL = paragraphs("Acme Corp is a Delaware corporation, registration number 1234567. Imprint and terms of use.")
GERMAN = paragraphs(
    "Die Acme Corp wurde 1999 in Springfield gegründet und stellt Ambosse und Raketenschuhe her.",
    "Unser Unternehmen beschäftigt mehr als tausend Mitarbeiterinnen und Mitarbeiter in vierzig Ländern.",
)
BLOG_POSTS = [f"/blog/post-{n:02d}.html" for n in range(1, 13)]
NEWS_ARTICLES = ["/news/2024/acme-raises-series-b.html", "/news/2023/acme-opens-berlin-office.html"]


def big_text(min_bytes: int = 120_000) -> str:
    """Paragraphs of plain English adding up to more than ``min_bytes`` of text."""
    sentence = "Acme Corp publishes this long annual report so that every shareholder can read every detail of the year. "
    parts, size, n = [], 0, 0
    while size < min_bytes:
        n += 1
        text = f"Section {n}. " + sentence * 8
        parts.append(f"<p>{text}</p>")
        size += len(text)
    return "\n".join(parts)


def acme_routes(base_url: str, offsite_url: str) -> dict[str, Behaviour]:
    """Acme Corp's site. Nasty cases: robots.txt disallows /private/ and /organization/; a German page
    (/de/ueber-uns/); a page over 100 KB of text (/big.html); links to a PDF and an image; a download
    served as application/pdf without extension; a 404 (/missing.html); a page that fails twice with 503
    and then succeeds (/flaky.html); a page 2 s slow (/slow.html); an off-site link; a cookie banner on
    every page; /about/ also reachable as /about/?ref=footer; fact pages (about, team, leadership,
    contact, legal, news); 12 blog posts that are not facts; an RSS feed (/feed.xml); a Wikipedia-like
    article (/wiki/Acme_Corp) and a Crunchbase-like page (/organization/acme-corp, disallowed)."""
    home_links = [
        "/team/", "/leadership/", "/legal/", "/blog/", "/private/secret.html", "/de/ueber-uns/", "/big.html",
        "/files/report.pdf", "/images/logo.png", "/download/brochure", "/missing.html", "/flaky.html",
        "/slow.html", f"{offsite_url}/partner.html", "mailto:info@acme.example", "#top",
    ]
    routes: dict[str, Behaviour] = {
        "/robots.txt": Reply(
            body="User-agent: *\nDisallow: /private/\nDisallow: /organization/\nSitemap: /sitemap.xml\n",
            content_type="text/plain",
        ),
        "/sitemap.xml": Reply(body=_sitemap(["/", "/about/", "/products/", NEWS_ARTICLES[0], BLOG_POSTS[0]]), content_type="application/xml"),
        "/": page("Acme Corp", paragraphs("Acme Corp: anvils, rocket skates and portable holes since 1999."), links=home_links),
        "/about/": page("About Acme Corp", ABOUT),
        "/team/": page("Our team", TEAM),
        "/leadership/": page("Leadership", TEAM),
        "/contact/": page("Contact Acme Corp", CONTACT),
        "/legal/": page("Legal notice", LEGAL),
        "/products/": page("Products", paragraphs("Anvils from 10 kg to 2 tonnes. Rocket skates. Portable holes.")),
        "/news/": page("Newsroom", paragraphs("Press releases from Acme Corp."), links=NEWS_ARTICLES),
        NEWS_ARTICLES[0]: page("Acme raises Series B", paragraphs("Acme Corp raised 50 million dollars in a Series B round led by Example Ventures in March 2024.")),
        NEWS_ARTICLES[1]: page("Acme opens Berlin office", paragraphs("Acme Corp opened its first European office in Berlin in 2023 with 40 staff.")),
        "/blog/": page("Blog", paragraphs("Notes from the workshop."), links=BLOG_POSTS),
        "/private/secret.html": page("Secret", paragraphs("Robots may not read this page.")),
        "/de/ueber-uns/": page("Über uns", GERMAN, lang="de"),
        "/big.html": page("Annual report", big_text()),
        "/files/report.pdf": Reply(body=b"%PDF-1.4 fixture", content_type="application/pdf"),
        "/images/logo.png": Reply(body=b"\x89PNG\r\n\x1a\nfixture", content_type="image/png"),
        "/download/brochure": Reply(body=b"%PDF-1.4 brochure", content_type="application/pdf"),
        "/flaky.html": flaky(2, 503, page("Flaky page", paragraphs("This page failed twice before it answered."))),
        "/slow.html": slow(2.0, page("Slow page", paragraphs("This page answers after two seconds."))),
        "/feed.xml": Reply(body=_rss(base_url, NEWS_ARTICLES), content_type="application/rss+xml"),
        "/wiki/Acme_Corp": page("Acme Corp - Wikipedia", ABOUT),
        "/organization/acme-corp": page("Acme Corp - Crunchbase", ABOUT),
    }
    for n, path in enumerate(BLOG_POSTS, start=1):
        routes[path] = page(f"Workshop note {n}", paragraphs(f"Workshop note number {n} about sharpening anvils and polishing skates."))
    return routes


def _sitemap(paths: list[str]) -> str:
    entries = "".join(f"<url><loc>{path}</loc></url>" for path in paths)
    return f'<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{entries}</urlset>'


def _rss(base_url: str, paths: list[str]) -> str:
    items = "".join(f"<item><title>{path}</title><link>{base_url}{path}</link></item>" for path in paths)
    return f'<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Acme news</title>{items}</channel></rss>'


# --- fixtures -------------------------------------------------------------------


@pytest.fixture
def make_site() -> Iterator[Callable[..., SiteServer]]:
    """Factory: ``make_site(routes, directory=None, host="127.0.0.1", etags=False)`` -> a started SiteServer, stopped after the test."""
    servers: list[SiteServer] = []

    def make(routes: dict[str, Behaviour] | None = None, *, directory: Path | None = None, host: str = "127.0.0.1", etags: bool = False) -> SiteServer:
        server = SiteServer(routes, directory=directory, host=host, etags=etags).start()
        servers.append(server)
        return server

    yield make
    for server in servers:
        server.stop()


@pytest.fixture
def offsite_site(make_site: Callable[..., SiteServer]) -> SiteServer:
    """Another host (127.0.0.2) that Acme links to."""
    return make_site({"/partner.html": page("Partner", paragraphs("A partner site."))}, host="127.0.0.2")


@pytest.fixture
def acme_site(make_site: Callable[..., SiteServer], offsite_site: SiteServer) -> SiteServer:
    """Acme Corp's site with the nasty cases (see acme_routes)."""
    server = make_site()
    server.routes.update(acme_routes(server.url, offsite_site.url))
    return server


@pytest.fixture
def letsencrypt_site(make_site: Callable[..., SiteServer], corpora: Path) -> SiteServer:
    """The static build of letsencrypt.org, served in place from the shared corpora."""
    return make_site(directory=corpora / "site_letsencrypt")
