"""Quality gate and retries (spec Q1, Q2): weak cells only, another phrasing and other chunks, at most 3 attempts,
an early stop without improvement, the LLM told what was tried, and the history in review and in the job."""

from __future__ import annotations

import asyncio
import json
from datetime import datetime, timezone
from pathlib import Path

import pytest
from enrich_support import run_cli

from cikb.app import reading
from cikb.app.jobs import ColumnRequest, JobRequest, JobStore, run_job
from cikb.core.config import Settings
from cikb.core.models import Chunk, ChunkMetadata, ScoredChunk
from cikb.enrich import enrich_table, load_proposal, review_rows
from cikb.enrich.retry import phrasings, rephrase

# What each company's site says, and the query words that find it: the KB answers only a search
# that uses one of the words, as a real index answers only the words a page has.
PAGES = {
    "acme": ("based", "Acme Corp is based in Portland, Oregon."),       # found only by another phrasing
    "beta": ("headquartered", "Beta Inc is headquartered in Berlin, Germany."),  # found at once
    "gamma": ("nowhere-to-be-found", "Gamma Ltd sells garden tools."),   # never found
}


class PhrasingKnowledgeBase:
    """Returns a company's page only to a query holding its word; records every search."""

    def __init__(self) -> None:
        self.searches: list[tuple[str, str | None]] = []

    def search(self, question: str, company: str | None) -> list[ScoredChunk]:
        self.searches.append((question, company))
        word, text = PAGES.get(company or "", ("", ""))
        if not word or word not in question.lower():
            return []
        metadata = ChunkMetadata(url=f"https://{company}.test/about", title="About", company=company or "", source_type="website",
                                 chunk_index=0, scraped_at=datetime(2024, 1, 1, tzinfo=timezone.utc))
        return [ScoredChunk(chunk=Chunk(id=f"{company}-1", text=text, token_count=len(text.split()), metadata=metadata), score=1.0, rank=1)]

    def asked(self, company: str) -> list[str]:
        return [q for q, c in self.searches if c == company]


@pytest.fixture
def table(tmp_path: Path) -> Path:
    path = tmp_path / "companies.csv"
    path.write_text("Company\nAcme\nBeta\nGamma\n", encoding="utf-8")
    return path


def test_phrasings_swap_general_words_and_end_with_keywords() -> None:
    others = phrasings("Where is Acme headquartered?")
    assert others[:2] == ["Where is Acme based?", "Where is Acme located?"]
    assert others[-1] == "Acme headquartered"
    assert rephrase("Where is Acme headquartered?", ["Where is Acme based?"]) == "Where is Acme located?"
    assert rephrase("Who is Acme?", ["Acme"]) is None  # nothing general to swap, keywords tried: no phrasing left


def test_only_weak_cells_are_retried_with_another_phrasing_and_an_early_stop(table: Path) -> None:
    kb = PhrasingKnowledgeBase()
    proposal = enrich_table(table, "HQ", question="Where is {Company} headquartered?", kb=kb, web=None, llm=None)
    acme, beta, gamma = proposal.research_log

    assert kb.asked("beta") == ["Where is Beta headquartered?"]  # good at once: never retried
    assert beta.attempts == []

    assert kb.asked("acme") == ["Where is Acme headquartered?", "Where is Acme based?"]
    assert acme.value and "Portland" in acme.value and acme.confidence in ("high", "medium")
    assert [(a.attempt, a.status, a.kept) for a in acme.attempts] == [(1, "not_found", False), (2, "found", True)]
    assert acme.attempts[0].why and acme.attempts[1].why == ""
    assert acme.attempts[1].question == "Where is Acme based?"

    # Gamma: the retry found nothing either, so it stopped after 2 of its 3 attempts.
    assert len(kb.asked("gamma")) == 2 and gamma.status == "not_found"
    assert [(a.attempt, a.kept) for a in gamma.attempts] == [(1, True), (2, False)]


def test_at_most_max_attempts_and_a_threshold_of_zero_retries_nothing(table: Path) -> None:
    settings = Settings()
    settings.enrich.max_attempts = 1
    kb = PhrasingKnowledgeBase()
    enrich_table(table, "HQ", question="Where is {Company} headquartered?", settings=settings, kb=kb, web=None, llm=None)
    assert len(kb.searches) == 3
    settings.enrich.max_attempts, settings.enrich.retry_threshold = 3, 0.0
    kb = PhrasingKnowledgeBase()
    enrich_table(table, "HQ", question="Where is {Company} headquartered?", settings=settings, kb=kb, web=None, llm=None)
    assert len(kb.searches) == 3


def test_review_and_the_job_show_the_attempt_history(monkeypatch, capsys, table: Path, tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "data")
    request = JobRequest(csv_path=str(table), columns=[ColumnRequest(name="HQ", question="Where is {Company} headquartered?",
                                                                     proposal_path=str(tmp_path / "hq.proposal.json"))])
    job, _ = asyncio.run(run_job(settings, request, kb=PhrasingKnowledgeBase(), llm=None, web=None))
    proposal = load_proposal(tmp_path / "hq.proposal.json")
    with JobStore(settings.data_dir) as jobs:
        attempts = [(a.row_id, a.attempt, a.final, a.status) for a in jobs.attempts(job.id)]
    assert attempts == [(0, 1, False, "not_found"), (0, 2, True, "found"), (1, 1, True, "found"),
                        (2, 1, True, "not_found"), (2, 2, False, "not_found")]
    assert (job.done, job.total, job.found) == (3, 3, 2)

    rows = list(review_rows(proposal))
    assert [len(r["attempts"]) for r in rows] == [2, 0, 2]
    assert "«Portland" in rows[0]["evidence"]
    assert rows[2]["value"] is None and rows[2]["reason"]
    code, out, _ = run_cli(monkeypatch, capsys, "review", str(tmp_path / "hq.proposal.json"), "--json")
    shown = json.loads(out)["rows"][0]["attempts"]
    assert code == 0 and [(a["question"], a["kept"]) for a in shown] == [("Where is Acme headquartered?", False), ("Where is Acme based?", True)]
    code, out, _ = run_cli(monkeypatch, capsys, "review", str(tmp_path / "hq.proposal.json"))
    assert code == 0 and "kept" in out
    code, out, _ = run_cli(monkeypatch, capsys, "--data-dir", str(settings.data_dir), "jobs", "show", job.id)
    assert code == 0 and "5 attempt(s)" in out


def test_with_an_llm_a_retry_sends_the_feedback_in_the_retry_prompt(table: Path, fake_openai) -> None:
    fake_openai.respond_with(lambda body: "Answer: Portland, Oregon\nConfidence: high\nSources: [1]"
                             if "Portland" in body["messages"][-1]["content"] else "Answer: Could not determine an answer.\nConfidence: low\nSources:")
    settings = Settings()
    settings.llm.base_url, settings.llm.model = fake_openai.base_url, "fake-model"
    kb = PhrasingKnowledgeBase()
    PAGES_BEFORE = dict(PAGES)
    try:
        PAGES["acme"] = ("acme", "Acme Corp is headquartered near the sea.")  # found by every phrasing, but no place: weak
        first = reading.enrich_table(table, "HQ", question="Where is {Company} headquartered?", settings=settings, kb=kb, web=None)
    finally:
        PAGES.clear()
        PAGES.update(PAGES_BEFORE)
    retries = [r for r in fake_openai.chat_requests if "This is a retry" in r["messages"][-1]["content"]]
    assert retries, "no retry reached the LLM"
    user = retries[0]["messages"][-1]["content"]
    assert "<tried>" in user and "question asked: Where is Acme headquartered?" in user and "https://acme.test/about" in user
    assert first.research_log[0].attempts and first.research_log[0].attempts[0].why
