"""Serve the demo's sample company site on 127.0.0.1 (this machine has no internet).

The site is package data (``cikb/app/samples/acme-site``), so a wheel install
serves it too: a small company website with a
robots.txt, a sitemap, an RSS feed under /news/, a German page and a
Wikipedia-like article under /wiki/.
"""

from __future__ import annotations

import csv
import functools
import io
import threading
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from typing import Iterator
from urllib.parse import urlsplit

# A regular package's resources are files on disk (wheel and editable installs alike),
# so the HTTP server can serve the folder in place.
_SAMPLES = Path(str(resources.files("cikb.app") / "samples"))
SAMPLE_SITE = _SAMPLES / "acme-site"
SAMPLE_TABLE = _SAMPLES / "companies.csv"
# The sample company's own domain: its pages (e-mail addresses) and the sample table name it. This machine
# cannot resolve it, so the site is served on 127.0.0.1 instead (serve_sample_site).
SAMPLE_DOMAIN = "acme.example"


class _SiteHandler(SimpleHTTPRequestHandler):
    """Static files; files without a known extension (wiki articles) are HTML, feeds are RSS."""

    def guess_type(self, path: str | Path) -> str:
        name = Path(str(path)).name
        if name.endswith(".xml") and "rss" in name:
            return "application/rss+xml"
        guessed = super().guess_type(path)
        # Wiki-style names ("Acme_Corp", "Arsenal_F.C.") have no known extension: they are pages.
        return "text/html; charset=utf-8" if guessed == "application/octet-stream" else guessed

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the stdlib's name
        pass


def sample_table(site: str) -> str:
    """The sample table (CSV text) with each website on SAMPLE_DOMAIN pointing at ``site``, where the sample
    company's site is served. An enrich row whose website is on none of the domains its company was gathered
    from is another company of that name (CompanyIdentity.gathered_elsewhere_than), so a row saying acme.example would
    not be the Acme Corp gathered from 127.0.0.1, and its cells would stay empty."""
    with open(SAMPLE_TABLE, newline="", encoding="utf-8") as handle:
        rows = [[_served(cell, site) for cell in row] for row in csv.reader(handle)]
    text = io.StringIO()
    csv.writer(text, lineterminator="\n").writerows(rows)
    return text.getvalue()


def _served(cell: str, site: str) -> str:
    parts = urlsplit(cell.strip()) if "://" in cell else None
    if parts is None or parts.hostname != SAMPLE_DOMAIN:
        return cell
    return site.rstrip("/") + (parts.path or "/")


@contextmanager
def serve_sample_site(directory: Path = SAMPLE_SITE, port: int = 0) -> Iterator[str]:
    """Serve `directory` on 127.0.0.1 at ``port`` (0: an ephemeral one); yields the base URL.
    A port in use raises OSError (EADDRINUSE)."""
    handler = functools.partial(_SiteHandler, directory=str(directory))
    server = ThreadingHTTPServer(("127.0.0.1", port), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
