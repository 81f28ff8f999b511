"""Reused answers (spec Q3): a later job over the same rows, column and knowledge base makes no search and no
LLM call for the cells an earlier job answered (the scripted server counts the calls); --fresh asks again."""

from __future__ import annotations

import asyncio
from datetime import datetime, timezone
from pathlib import Path

import pytest
from enrich_support import run_cli

from cikb.app.jobs import ColumnRequest, JobRequest, run_job
from cikb.core.config import Settings
from cikb.core.models import Chunk, ChunkMetadata, ScoredChunk
from cikb.enrich import load_proposal

PAGES = {"acme": "Acme Corp was founded in 1999 in Springfield.", "beta": "Beta Inc was founded in 2004 in Berlin."}


class CountingKnowledgeBase:
    def __init__(self) -> None:
        self.searches = 0

    def search(self, question: str, company: str | None) -> list[ScoredChunk]:
        self.searches += 1
        text = PAGES.get(company or "")
        if text is None:
            return []
        metadata = ChunkMetadata(url=f"https://{company}.test/", title="About", company=company or "", source_type="website",
                                 chunk_index=0, scraped_at=datetime(2024, 1, 1, tzinfo=timezone.utc))
        return [ScoredChunk(chunk=Chunk(id=f"{company}-1", text=text, token_count=9, metadata=metadata), score=1.0, rank=1)]


@pytest.fixture
def settings(tmp_path: Path, fake_openai) -> Settings:
    fake_openai.respond_with(lambda body: "Answer: 1999\nConfidence: high\nSources: [1]" if "Acme" in body["messages"][-1]["content"]
                             else "Answer: 2004\nConfidence: high\nSources: [1]")
    settings = Settings(data_dir=tmp_path / "data")
    settings.llm.base_url, settings.llm.model = fake_openai.base_url, "fake-model"
    return settings


def _run(settings: Settings, table: Path, out: Path, **options) -> tuple:
    request = JobRequest(csv_path=str(table), columns=[ColumnRequest(name="Founded", question="When was {Company} founded?",
                                                                     column_type="number", proposal_path=str(out))])
    kb = CountingKnowledgeBase()
    job, _ = asyncio.run(run_job(settings, request, kb=kb, web=None, **options))
    return job, kb.searches, load_proposal(out)


def test_a_second_job_reuses_the_answers_without_a_search_or_an_llm_call(settings: Settings, fake_openai, tmp_path: Path) -> None:
    table = tmp_path / "t.csv"
    table.write_text("Company\nAcme\nBeta\n", encoding="utf-8")
    first, searches, proposal = _run(settings, table, tmp_path / "1.json")
    calls = len(fake_openai.chat_requests)
    assert (first.reused, searches) == (0, 2) and calls >= 2  # (a request the client retried under load counts twice)

    second, searches, again = _run(settings, table, tmp_path / "2.json")
    assert (second.reused, searches, len(fake_openai.chat_requests)) == (2, 0, calls)  # no search, no LLM call
    assert [op.changes for op in again.operations] == [op.changes for op in proposal.operations] == [{"Founded": "1999"}, {"Founded": "2004"}]
    assert all(log.reused_from == first.id for log in again.research_log)

    third, searches, _ = _run(settings, table, tmp_path / "3.json", fresh=True)
    assert (third.reused, searches) == (0, 2) and len(fake_openai.chat_requests) >= calls + 2


def test_a_changed_row_or_another_llm_is_asked_again(settings: Settings, fake_openai, tmp_path: Path) -> None:
    table = tmp_path / "t.csv"
    table.write_text("Company\nAcme\nBeta\n", encoding="utf-8")
    _run(settings, table, tmp_path / "1.json")
    table.write_text("Company\nAcme\nBeta Inc\n", encoding="utf-8")
    job, searches, _ = _run(settings, table, tmp_path / "2.json")
    assert (job.reused, searches) == (1, 1)  # Acme's row is the same; Beta's cell changed
    settings.llm.model = "another-model"
    job, searches, _ = _run(settings, table, tmp_path / "3.json")
    assert (job.reused, searches) == (0, 2)


def test_the_cli_says_how_many_cells_it_reused(monkeypatch, capsys, tmp_path: Path) -> None:
    table = tmp_path / "p.csv"
    table.write_text("Company,A\nAcme,2\n", encoding="utf-8")
    args = ("enrich", str(table), "--column", "B", "--strategy", "computation", "--formula", "{A} * 3", "--type", "number")
    assert run_cli(monkeypatch, capsys, *args)[0] == 0
    code, _, err = run_cli(monkeypatch, capsys, *args, "--out", str(tmp_path / "again.json"))
    assert code == 0 and "1 cell(s) reused" in err
    code, _, err = run_cli(monkeypatch, capsys, *args, "--out", str(tmp_path / "fresh.json"), "--fresh")
    assert code == 0 and "reused" not in err


def test_llm_phrasings_are_cached_per_column_and_a_hit_makes_no_llm_call(tmp_path: Path, fake_openai) -> None:
    def reply(body: dict) -> str:
        system, user = body["messages"][0]["content"], body["messages"][-1]["content"]
        if "reword" in system:
            return "Where is the head office of {Company}?\nWhere is it?\nWhat is {Company}'s principal place of business?"
        if "Question: Where is the head office of" in user:
            return "Answer: Portland, Oregon\nConfidence: high\nSources: [1]"
        return "Answer: Could not determine an answer.\nConfidence: low\nSources:"

    fake_openai.respond_with(reply)
    settings = Settings(data_dir=tmp_path / "data")
    settings.llm.base_url, settings.llm.model = fake_openai.base_url, "fake-model"
    PAGES["acme"] = "Acme Corp's head office is in Portland, Oregon."
    table = tmp_path / "t.csv"
    table.write_text("Company\nAcme\n", encoding="utf-8")

    def run(out: str):
        request = JobRequest(csv_path=str(table), columns=[ColumnRequest(name="HQ", question="Where is {Company} headquartered?",
                                                                         proposal_path=str(tmp_path / out))])
        job, _ = asyncio.run(run_job(settings, request, kb=CountingKnowledgeBase(), web=None, fresh=True))
        phrasing_calls = [r for r in fake_openai.chat_requests if "reword" in r["messages"][0]["content"]]
        return job, len(phrasing_calls), load_proposal(tmp_path / out).research_log[0]

    try:
        first, calls, log = run("1.json")
        assert (calls, first.cache_hits) == (1, 0)
        assert (log.value, log.confidence) == ("Portland, Oregon", "high")
        assert [a.question for a in log.attempts] == ["Where is Acme headquartered?", "Where is the head office of Acme?"]
        second, calls, log = run("2.json")
        assert (calls, second.cache_hits) == (1, 1)  # the column's phrasings came from the cache: no new call
        assert log.value == "Portland, Oregon"
    finally:
        PAGES["acme"] = "Acme Corp was founded in 1999 in Springfield."


def test_research_search_queries_are_written_once_per_column_and_cached(tmp_path: Path, fake_openai) -> None:
    from enrich_support import SearchServer

    def reply(body: dict) -> str:
        if "plan web searches" in body["messages"][0]["content"]:
            return "{Company} founding year\n{Company} company history"
        return "Answer: Could not determine an answer.\nConfidence: low\nSources:"

    fake_openai.respond_with(reply)
    server = SearchServer(lambda q: [{"url": "https://x.test/", "title": "Nothing", "snippet": "No dates here."}])
    table = tmp_path / "t.csv"
    table.write_text("Company\nAcme\n", encoding="utf-8")
    settings = Settings(data_dir=tmp_path / "data")
    settings.llm.base_url, settings.llm.model = fake_openai.base_url, "fake-model"
    settings.enrich.search_provider, settings.enrich.search_url, settings.enrich.pages_per_query = "http", server.url, 0
    settings.enrich.max_attempts = 1

    def run(out: str):
        request = JobRequest(csv_path=str(table), columns=[ColumnRequest(name="Founded", strategy="research", column_type="number",
                                                                         question="When was {Company} founded?", proposal_path=str(tmp_path / out))])
        job, _ = asyncio.run(run_job(settings, request, kb=CountingKnowledgeBase(), fresh=True))
        return job, sum(1 for r in fake_openai.chat_requests if "plan web searches" in r["messages"][0]["content"])

    try:
        first, calls = run("1.json")
        assert calls == 1 and "Acme founding year" in server.queries
        second, calls = run("2.json")
        assert calls == 1 and second.cache_hits >= 1  # the column's queries came from the cache
        assert server.queries.count("Acme founding year") == 2
    finally:
        server.close()
