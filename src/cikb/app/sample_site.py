"""Serve the demo's sample company site on 127.0.0.1 (this machine has no internet).

The site is package data (``cikb/app/samples/acme-site``), so a wheel install
serves it too: a small company website with a
robots.txt, a sitemap, an RSS feed under /news/, a German page and a
Wikipedia-like article under /wiki/.
"""

from __future__ import annotations

import functools
import threading
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from typing import Iterator

# A regular package's resources are files on disk (wheel and editable installs alike),
# so the HTTP server can serve the folder in place.
_SAMPLES = Path(str(resources.files("cikb.app") / "samples"))
SAMPLE_SITE = _SAMPLES / "acme-site"
SAMPLE_TABLE = _SAMPLES / "companies.csv"


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


@contextmanager
def serve_sample_site(directory: Path = SAMPLE_SITE) -> Iterator[str]:
    """Serve `directory` on an ephemeral 127.0.0.1 port; yields the base URL."""
    handler = functools.partial(_SiteHandler, directory=str(directory))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
