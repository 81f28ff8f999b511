"""Repeated questions once (issue 26, item 4): rows that ask the same question of the same company are
answered once per knowledge-base generation; the searches are counted at the knowledge base."""

from __future__ import annotations

import asyncio
import os
import shutil
from datetime import datetime, timezone
from pathlib import Path

import pytest

from cikb.app.jobs import ColumnRequest, JobRequest, run_job
from cikb.app.pipeline import gather_company
from cikb.app.sample_site import SAMPLE_SITE, serve_sample_site
from cikb.core.config import Settings
from cikb.core.models import Chunk, ChunkMetadata, ScoredChunk
from cikb.enrich import enrich_table_async, load_proposal
from cikb.retrieve import Retriever


class FoundingPages:
    """One page per company, counted searches; the first ``failures`` searches raise."""

    def __init__(self, year: str = "1999", failures: int = 0) -> None:
        self.year, self.failures, self.searches = year, failures, 0

    def search(self, question: str, company: str | None) -> list[ScoredChunk]:
        self.searches += 1
        if self.searches <= self.failures:
            raise OSError("the store is busy")
        metadata = ChunkMetadata(url=f"https://{company}.test/about", title="About", company=company or "", source_type="website",
                                 chunk_index=0, scraped_at=datetime(2024, 1, 1, tzinfo=timezone.utc))
        name = {"acme-corp": "Acme Corp", "beta": "Beta Inc"}[company or ""]
        text = f"{name} was founded in {self.year} in Springfield."
        return [ScoredChunk(chunk=Chunk(id=f"{company}-{self.year}", text=text, token_count=9, metadata=metadata), score=1.0, rank=1)]


def _table(tmp_path: Path, rows: int, name: str = "Acme Corp") -> Path:
    table = tmp_path / "same.csv"
    table.write_text("Company,Note\n" + "".join(f"{name},note {i}\n" for i in range(rows)), encoding="utf-8")
    return table


def _enrich(table: Path, kb, question: str = "What year was {Company} founded?", **options):
    return asyncio.run(enrich_table_async(table, "Founded", question=question, column_type="number",
                                          settings=Settings(), kb=kb, web=None, llm=None, **options))


def test_identical_rows_search_once_and_each_row_gets_the_same_answer(tmp_path: Path) -> None:
    kb = FoundingPages()
    logs = _enrich(_table(tmp_path, 200), kb).research_log
    assert kb.searches == 1
    assert [log.row_id for log in logs] == list(range(200))
    assert {(log.status, log.value, log.confidence, log.answered_by, tuple(s.url for s in log.sources)) for log in logs} == {
        ("found", "1999", "high", "kb", ("https://acme-corp.test/about",))}
    first = [log for log in logs if log.same_as_row is None]
    assert len(first) == 1 and all(log.same_as_row == first[0].row_id for log in logs if log is not first[0])
    assert logs[-1].steps[-1].detail == f"answered once: row {first[0].row_id} asked the same question of the same company"


def test_another_company_or_another_question_is_asked_on_its_own(tmp_path: Path) -> None:
    table = tmp_path / "mixed.csv"
    table.write_text("Company,Note\nAcme Corp,a\nBeta Inc,b\nAcme Corp,c\nBeta Inc,d\n", encoding="utf-8")
    kb = FoundingPages()
    _enrich(table, kb)
    assert kb.searches == 2
    _enrich(table, kb, question="When was {Company} founded? ({Note})")  # the question names a cell that differs per row
    assert kb.searches == 2 + 4


def test_a_new_generation_asks_again_and_its_rows_get_the_new_answer(tmp_path: Path) -> None:
    kb, generations = FoundingPages(), {"acme-corp": "g1"}

    def regathered(event) -> None:  # a gather commits a new generation once 50 rows are done
        if event.stage == "row_done" and event.done == 50:
            generations["acme-corp"], kb.year = "g2", "2001"

    logs = _enrich(_table(tmp_path, 200), kb, generation=generations.get, on_progress=regathered).research_log
    assert kb.searches == 2
    values = [log.value for log in logs]
    switch = values.index("2001")
    assert 50 <= switch < 60 and values == ["1999"] * switch + ["2001"] * (200 - switch)


def test_an_answer_reached_through_an_error_is_not_handed_on(tmp_path: Path) -> None:
    kb = FoundingPages(failures=2)  # the first row's search and its retry's
    first, *others = _enrich(_table(tmp_path, 20), kb).research_log
    assert first.status == "not_found" and "knowledge base search failed: the store is busy" in [s.detail for s in first.steps]
    answered = [log.row_id for log in others if log.same_as_row is None]  # the next row to ask, whichever worker took it
    assert len(answered) == 1 and kb.searches == 3
    assert {(log.value, log.same_as_row) for log in others} == {("1999", None), ("1999", answered[0])}


@pytest.fixture
def searches(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str | None]]:
    """Every search of the real knowledge base, as (query, company)."""
    made: list[tuple[str, str | None]] = []
    real_search = Retriever.search

    def counted(self, query, company=None):
        made.append((query, company))
        return real_search(self, query, company)

    monkeypatch.setattr(Retriever, "search", counted)
    return made


@pytest.mark.slow
def test_a_job_over_the_real_knowledge_base_reads_once_and_a_gather_invalidates(tmp_path: Path, searches: list) -> None:
    settings = Settings(data_dir=tmp_path / "data")
    settings.gather.download_delay, settings.gather.max_pages_per_source = 0, 2
    site = shutil.copytree(SAMPLE_SITE, tmp_path / "site")

    def gather_and_enrich(out: str) -> list:
        with serve_sample_site(site) as url:
            gather_company(settings, "Acme Corp", {"website": [f"{url}/about/"]})
        request = JobRequest(csv_path=str(_table(tmp_path, 300)), columns=[ColumnRequest(
            name="Founded", question="What year was {Company} founded?", column_type="number", proposal_path=str(tmp_path / out))])
        job, _ = asyncio.run(run_job(settings, request, llm=None, web=None))
        assert (job.status, job.done, job.found) == ("done", 300, 300)
        return load_proposal(tmp_path / out).research_log

    logs = gather_and_enrich("first.json")
    assert searches == [("What year was Acme Corp founded?", "acme-corp")]
    assert {(log.value, tuple(s.chunk_id for s in log.sources)) for log in logs} == {("2011", tuple(s.chunk_id for s in logs[0].sources))}

    for page in (site / "about" / "index.html", site / "team" / "index.html"):  # where the founding year is said
        page.write_text(page.read_text(encoding="utf-8").replace("2011", "2012"), encoding="utf-8")
        os.utime(page, (page.stat().st_atime, page.stat().st_mtime + 60))  # a later Last-Modified: no 304 within the second
    again = gather_and_enrich("second.json")  # a new generation of Acme Corp: asked again, once
    assert len(searches) == 2 and {log.value for log in again} == {"2012"}


def test_rows_naming_the_company_another_way_ask_its_question_once(tmp_path: Path, searches: list) -> None:
    """"ACME Corp." is Acme Corp, asked about by its knowledge-base name: the same question of the same company, so
    answered once (the key held the question as the row wrote it, and each spelling searched again)."""
    settings = Settings(data_dir=tmp_path / "data")
    settings.gather.download_delay, settings.gather.max_pages_per_source = 0, 2
    with serve_sample_site() as url:
        gather_company(settings, "Acme Corp", {"website": [f"{url}/about/"]})
    searches.clear()  # the gather searched nothing; the job's searches are counted from here
    table = tmp_path / "names.csv"
    table.write_text("Company\nAcme Corp\nACME Corp.\nacme corp\nAcme Corp\n", encoding="utf-8")
    request = JobRequest(csv_path=str(table), columns=[ColumnRequest(
        name="Founded", question="What year was {Company} founded?", column_type="number", proposal_path=str(tmp_path / "out.json"))])
    job, _ = asyncio.run(run_job(settings, request, llm=None, web=None))
    assert (job.status, job.found) == ("done", 4)
    assert searches == [("What year was Acme Corp founded?", "acme-corp")]
    assert [log.same_as_row for log in load_proposal(tmp_path / "out.json").research_log] == [None, 0, 0, 0]
