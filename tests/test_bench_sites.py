"""The written sites of bench/sites are what their facts files say: each fact's evidence sentence stands word for word
in the visible text of its page, and its answer in the evidence (bench/ask.py --written scores against them)."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

SITES = Path(__file__).resolve().parents[1] / "bench" / "sites"


class _VisibleText(HTMLParser):
    """The text a browser shows: everything outside <head>, <script> and <style>."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs) -> None:  # noqa: ANN001 - html.parser's attribute list
        self._hidden += tag in ("head", "script", "style")

    def handle_endtag(self, tag: str) -> None:
        self._hidden -= tag in ("head", "script", "style")

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self.parts.append(data)


def visible_text(page: Path) -> str:
    parser = _VisibleText()
    parser.feed(page.read_text(encoding="utf-8"))
    return re.sub(r"\s+", " ", " ".join(parser.parts))


def page_file(site: Path, path: str) -> Path:
    folder = site / "site" / path.strip("/")
    return folder / "index.html" if not path.endswith(".html") else folder


@pytest.mark.parametrize("site", sorted(p for p in SITES.iterdir() if p.is_dir()), ids=lambda p: p.name)
def test_each_facts_evidence_is_on_its_page(site: Path) -> None:
    facts = json.loads((site / "facts.json").read_text(encoding="utf-8"))["facts"]
    assert len(facts) == 15 and len({f["id"] for f in facts}) == 15
    for fact in facts:
        evidence = re.sub(r"\s+", " ", fact["evidence"])
        assert fact["answer"] in evidence, fact["id"]
        assert evidence in visible_text(page_file(site, fact["page"])), (fact["id"], fact["page"])
