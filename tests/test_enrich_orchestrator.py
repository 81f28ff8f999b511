"""Spec N6: per-strategy concurrency, progress events in order, cancellation that keeps finished rows."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

import pytest
from cikb.enrich import (
    CancellationToken,
    ProgressEvent,
    RowInput,
    RowStrategy,
    answer_step,
    enrich_table,
    get_strategy,
    register_strategy,
)
from cikb.enrich.base import ColumnSpec, EnrichContext
from cikb.enrich.models import RowStep
from cikb.enrich.orchestrator import concurrency_limit, run_rows
from enrich_support import chunk_text

from cikb import enrich
from cikb.core.config import Settings
from cikb.core.models import ScoredChunk


def companies_csv(tmp_path: Path, n: int, blank: tuple[int, ...] = ()) -> Path:
    lines = ["Company,Note"] + [f"{'' if i in blank else f'Company {i:02d}'},note {i}" for i in range(n)]
    path = tmp_path / "companies.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


class InFlight:
    """Counts how many calls are inside a block at once, from any thread."""

    def __init__(self) -> None:
        self.now = 0
        self.peak = 0
        self.lock = threading.Lock()

    def __enter__(self) -> None:
        with self.lock:
            self.now += 1
            self.peak = max(self.peak, self.now)

    def __exit__(self, *exc: object) -> None:
        with self.lock:
            self.now -= 1


class SlowKnowledgeBase:
    """A KB whose search takes a moment (in the worker thread), counting searches in flight."""

    def __init__(self, seconds: float = 0.03) -> None:
        self.seconds = seconds
        self.in_flight = InFlight()

    def search(self, question: str, company: str | None) -> list[ScoredChunk]:
        with self.in_flight:
            time.sleep(self.seconds)
        chunk = chunk_text(f"https://{company}.test/", company or "", company or "", "The company was founded in 2001.")[0]
        return [ScoredChunk(chunk=chunk, score=1.0, dense_score=0.9, rank=1)]


@pytest.mark.parametrize(
    ("strategy", "thoroughness", "limit"),
    [("lookup", None, 3), ("research", "exploratory", 3), ("research", "comprehensive", 2)],
)
def test_builtin_strategies_keep_to_their_concurrency_limit(tmp_path: Path, strategy: str, thoroughness: str | None,
                                                           limit: int) -> None:
    kb = SlowKnowledgeBase()
    proposal = enrich_table(companies_csv(tmp_path, 10), "Founded", strategy=strategy, thoroughness=thoroughness,
                            question="When was {Company} founded?", column_type="number", kb=kb, web=None, llm=None)
    assert [r.value for r in proposal.research_log] == ["2001"] * 10
    assert kb.in_flight.peak == limit


def test_the_limits_come_from_settings() -> None:
    settings = Settings()
    ctx = EnrichContext(settings=settings, column=ColumnSpec("X"), columns=["Company"])
    assert concurrency_limit(get_strategy("computation"), {}, ctx) == 10
    assert concurrency_limit(get_strategy("lookup"), {}, ctx) == 3
    assert concurrency_limit(get_strategy("research"), {"thoroughness": "comprehensive"}, ctx) == 2
    settings.enrich.concurrency["lookup"] = 7
    assert concurrency_limit(get_strategy("lookup"), {}, ctx) == 7


class Sleepy(RowStrategy):
    """Sleeps per row, counting rows in flight; fails on rows whose note says so."""

    name = "sleepy"
    display_name = "Sleepy"
    max_steps = 1

    def __init__(self) -> None:
        self.in_flight = InFlight()

    def validate_params(self, params, ctx) -> None:
        pass

    async def execute_one(self, row, params, ctx):
        with self.in_flight:
            yield RowStep(type="search", detail=f"looking up {row.label}")
            await asyncio.sleep(0.02)
            if row.data["Note"] == "note 3" and params.get("question") == "fail-row-3":
                raise RuntimeError("boom")
        yield answer_step(f"value {row.row_id}", "high", answered_by="compute")


@pytest.fixture
def sleepy():
    strategy = register_strategy(Sleepy())
    yield strategy
    enrich.unregister_strategy("sleepy")


def test_a_plugin_strategy_gets_its_limit_from_settings_too(tmp_path: Path, sleepy: Sleepy) -> None:
    settings = Settings()
    settings.enrich.concurrency["sleepy"] = 4
    enrich_table(companies_csv(tmp_path, 12), "V", strategy="sleepy", question="q", settings=settings, kb=None, web=None, llm=None)
    assert sleepy.in_flight.peak == 4


def test_progress_events_arrive_in_order_with_a_fraction(tmp_path: Path, sleepy: Sleepy) -> None:
    events: list[ProgressEvent] = []
    proposal = enrich_table(companies_csv(tmp_path, 6, blank=(2,)), "V", strategy="sleepy", question="q",
                            kb=None, web=None, llm=None, on_progress=events.append)
    stages = [e.stage for e in events]
    assert stages[0] == "starting" and stages[-1] == "complete"
    assert stages.count("row_done") == 5 and stages.count("row_skipped") == 1
    assert stages.count("searching") == 5
    fractions = [e.fraction for e in events]
    assert fractions == sorted(fractions) and fractions[0] == 0.0 and fractions[-1] == 1.0
    assert all(0.0 <= f <= 1.0 for f in fractions)
    for row_id in (0, 1, 3, 4, 5):  # each row searches before it is done
        row_stages = [e.stage for e in events if e.row_id == row_id]
        assert row_stages == ["searching", "row_done"]
    done = [e for e in events if e.stage == "row_done"]
    assert all(e.value and e.confidence == "high" for e in done)
    skipped = proposal.research_log[2]
    assert skipped.status == "skipped" and "empty" in skipped.steps[0].detail


def test_cancellation_keeps_every_finished_row(tmp_path: Path, sleepy: Sleepy) -> None:
    token = CancellationToken()
    events: list[ProgressEvent] = []

    def on_progress(event: ProgressEvent) -> None:
        events.append(event)
        if event.stage == "row_done" and event.done == 4:
            token.cancel()

    proposal = enrich_table(companies_csv(tmp_path, 30), "V", strategy="sleepy", question="q",
                            kb=None, web=None, llm=None, on_progress=on_progress, cancel=token)
    assert proposal.cancelled and events[-1].stage == "cancelled"
    finished = [e.row_id for e in events if e.stage == "row_done"]
    assert len(finished) >= 4 and len(proposal.research_log) == len(finished) < 30
    assert sorted(finished) == [r.row_id for r in proposal.research_log]
    assert all(r.status == "found" and r.value == f"value {r.row_id}" for r in proposal.research_log)
    assert [op.row_id for op in proposal.operations] == sorted(finished)
    assert proposal.rows_total == 30 and "cancelled" in proposal.reasoning


def test_a_failing_row_is_logged_and_the_others_finish(tmp_path: Path, sleepy: Sleepy) -> None:
    proposal = enrich_table(companies_csv(tmp_path, 6), "V", strategy="sleepy", question="fail-row-3",
                            kb=None, web=None, llm=None)
    statuses = [r.status for r in proposal.research_log]
    assert statuses == ["found", "found", "found", "error", "found", "found"]
    assert "RuntimeError: boom" in proposal.research_log[3].steps[-1].detail
    assert not proposal.cancelled


def test_a_row_that_cannot_be_recorded_stops_the_run_with_its_error(sleepy: Sleepy) -> None:
    """A job store writes each finished row (``on_row``); a full disk there is the run's error, raised, not a
    worker's exception never retrieved while the run ends as done with no row."""
    import sqlite3

    recorded: list[int] = []

    def on_row(log) -> None:
        if len(recorded) == 2:
            raise sqlite3.OperationalError("database or disk is full")
        recorded.append(log.row_id)

    rows = [RowInput(row_id=n, data={"Company": f"C{n}", "Note": f"note {n}"}, label=f"C{n}") for n in range(20)]
    ctx = EnrichContext(settings=Settings(), column=ColumnSpec("V"), columns=["Company", "Note"])
    with pytest.raises(sqlite3.OperationalError, match="disk is full"):
        asyncio.run(run_rows(sleepy, rows, {"question": "q"}, ctx, on_row=on_row))
    assert len(recorded) == 2
