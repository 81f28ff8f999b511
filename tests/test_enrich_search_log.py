"""LLM mode's log (issue 12 item 5): web searches are logged in logs.db beside the LLM calls."""

from __future__ import annotations

import json
from pathlib import Path

from enrich_support import SearchServer

from cikb.app import reading
from cikb.app.llm import CallLog
from cikb.core.config import Settings


class EmptyKnowledgeBase:
    def search(self, question: str, company: str | None) -> list:
        return []


def test_every_web_search_of_an_enrichment_is_in_the_call_log(tmp_path: Path) -> None:
    table = tmp_path / "t.csv"
    table.write_text("Company\nAcme Corp\n", encoding="utf-8")
    server = SearchServer(lambda q: [{"url": "https://news.test/acme", "title": "Acme", "snippet": "Acme Corp was founded in 1999."}])
    try:
        settings = Settings(data_dir=tmp_path / "data")
        settings.enrich.search_provider, settings.enrich.search_url = "http", server.url
        settings.enrich.pages_per_query = 0
        proposal = reading.enrich_table(table, "Founded", question="What year was {Company} founded?", column_type="number",
                                        settings=settings, kb=EmptyKnowledgeBase(), llm=None)
    finally:
        server.close()
    assert proposal.research_log[0].value == "1999"
    calls = CallLog(settings.data_dir / "logs.db").recent(10, step="enrich:web-search")
    assert [c.messages[0]["content"] for c in calls] == server.queries[::-1] and calls
    assert json.loads(calls[0].response) == ["https://news.test/acme"] and calls[0].model == "http"
