"""Test doubles for the enrich tests, built from real text.

- :class:`TextKnowledgeBase`: the KnowledgeBase protocol over chunks cut from
  real pages (the letsencrypt.org build), ranked by word overlap. It stands
  in for ``retrieve.Retriever`` where a test is about enrichment, not retrieval.
- :class:`SearchServer`: a JSON search endpoint on 127.0.0.1 whose results are
  a function of the query, recording each query.
- :func:`letsencrypt_chunks`: chunks of real pages of the shared corpus.
- :func:`run_cli`: the `cikb` command in-process, with its exit code and output.
"""

from __future__ import annotations

import json
import re
import sys
import threading
from collections.abc import Callable
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
import trafilatura

from cikb.core.models import Chunk, ChunkMetadata, ScoredChunk

LETSENCRYPT_PAGES = {
    "/about/": "about/index.html",
    "/2022/02/25/ford-foundation.html": "2022/02/25/ford-foundation.html",
    "/2023/05/24/isrg-10th-anniversary.html": "2023/05/24/isrg-10th-anniversary.html",
    "/2019/02/12/facebook-expands-support-for-letsencrypt.html": "2019/02/12/facebook-expands-support-for-letsencrypt.html",
}


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9]+", text.lower()) if len(w) > 2}


def chunk_text(url: str, title: str, company: str, text: str, size: int = 1200) -> list[Chunk]:
    """Cut text into ~size-character chunks on paragraph boundaries."""
    pieces, current = [], ""
    for paragraph in [p for p in text.split("\n") if p.strip()]:
        if current and len(current) + len(paragraph) > size:
            pieces.append(current)
            current = ""
        current = f"{current}\n{paragraph}".strip()
    if current:
        pieces.append(current)
    now = datetime(2024, 1, 1, tzinfo=timezone.utc)
    return [
        Chunk(id=f"{company}-{abs(hash(url)) % 10**8}-{i}", text=piece, token_count=len(piece.split()),
              metadata=ChunkMetadata(url=url, title=title, company=company, source_type="website", chunk_index=i, scraped_at=now))
        for i, piece in enumerate(pieces)
    ]


def letsencrypt_chunks(corpora: Path, company: str = "isrg") -> list[Chunk]:
    site = corpora / "site_letsencrypt"
    chunks: list[Chunk] = []
    for url_path, file in LETSENCRYPT_PAGES.items():
        html = (site / file).read_text(encoding="utf-8")
        text = trafilatura.extract(html, favor_precision=True) or ""
        title = re.search(r"<title>(.*?)</title>", html, re.S)
        chunks += chunk_text(f"https://letsencrypt.org{url_path}", (title.group(1).strip() if title else url_path), company, text)
    return chunks


class TextKnowledgeBase:
    """Ranks a company's chunks by shared words with the question; records every search."""

    def __init__(self, chunks: list[Chunk], limit: int = 5) -> None:
        self.chunks = chunks
        self.limit = limit
        self.searches: list[tuple[str, str | None]] = []

    def search(self, question: str, company: str | None) -> list[ScoredChunk]:
        self.searches.append((question, company))
        wanted = _words(question)
        scored = [(len(wanted & _words(c.text)), c) for c in self.chunks if c.metadata.company == company]
        ranked = sorted((s for s in scored if s[0] > 0), key=lambda s: -s[0])[: self.limit]
        return [ScoredChunk(chunk=c, score=float(s), dense_score=0.5, rank=i + 1) for i, (s, c) in enumerate(ranked)]


SearchResponder = Callable[[str], list[dict[str, str]]]


class SearchServer:
    """``GET /search?q=...&count=N`` -> ``{"results": responder(q)}`` on 127.0.0.1:0."""

    def __init__(self, responder: SearchResponder) -> None:
        self.responder = responder
        self.queries: list[str] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_GET(self) -> None:  # noqa: N802
                parts = urlsplit(self.path)
                query = parse_qs(parts.query).get("q", [""])[0]
                server.queries.append(query)
                count = int(parse_qs(parts.query).get("count", ["5"])[0])
                body = json.dumps({"results": server.responder(query)[:count]}).encode()
                self.send_response(200 if parts.path == "/search" else 404)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/search"
        threading.Thread(target=self.httpd.serve_forever, args=(0.05,), daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def run_cli(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run `cikb ARGS` in-process through its real entry point; return (exit code, stdout, stderr)."""
    from cikb.cli import main

    monkeypatch.setattr(sys, "argv", ["cikb", *args])
    code = 0
    try:
        main()
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    captured = capsys.readouterr()
    return code, captured.out, captured.err
