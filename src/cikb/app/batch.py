"""Many companies in one run: ``cikb gather --from-csv companies.csv``.

    rows = read_company_rows("companies.csv")
    results = gather_many(settings, rows, on_event=print)   # one CompanyResult per row, in row order

Every company is gathered by :func:`cikb.app.pipeline.gather_company`, so each keeps the
single gather's bounds and guarantees (a staged generation, one atomic swap, its own lock).
Up to ``gather.max_parallel_companies`` run at once, in threads of this process. Each
gather crawls in its own Scrapy child process, which keeps one domain's requests
``download_delay`` apart only within that crawl; so two companies whose sources share a
registered domain never run at the same time, and politeness per domain holds across
companies too. The threads share the embedded store safely: its opens take turns (see
``cikb.store.edge``). A company that fails is recorded with its error and the others go on.
"""

from __future__ import annotations

import textwrap
import threading
from collections.abc import Callable, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from time import monotonic
from typing import Literal

from cikb.embed import DenseEmbedder, load_embedder
from cikb.enrich.table import read_table
from cikb.gather.urls import site_of

from cikb.app.models import GatherEvent, GatherSummary
from cikb.app.pipeline import NothingGatheredError, gather_company, resolve_sources, unreachable_note
from cikb.app.workspace import CompanyDir
from cikb.core.config import Settings
from cikb.core.errors import BadInputError, CikbError
from cikb.core.models import Company, SourceSummary
from cikb.core.slug import company_from_name

# The list builder's columns (any case); an empty cell means no such source.
SOURCE_COLUMNS = ("website", "wikipedia", "news", "crunchbase")
MULTI_URL_COLUMNS = ("news",)  # several URLs in one cell, separated by whitespace
REASON_WIDTH = 119  # a failure's reason in the summary table: under 120 characters (``error`` has the whole text)
KEPT = "previous knowledge base kept"
INTERRUPTED = "interrupted before its commit"  # a gather stopped by Ctrl-C: nothing of the company changed
STOP_WAIT_SECONDS = 10.0  # after Ctrl-C, how long running gathers get to stop at their next step and clean up


@dataclass(frozen=True)
class CompanyRow:
    """One company of the CSV: its row number (the first row under the header is 1), name and source cells."""

    number: int
    name: str
    sources: dict[str, str | list[str]] = field(default_factory=dict)


class CompanyResult(GatherSummary):
    """A single gather's summary, plus where the company came from and whether its gather succeeded."""

    row: int
    status: Literal["ok", "failed"]
    reason: str | None = None  # a failure's reason (for a company gathered, a source's failure) in one short line; ``error`` is the whole text


@dataclass(frozen=True)
class BatchEvent:
    """Progress of one company: ``started``, ``progress`` (with its GatherEvent) or ``finished`` (with its result)."""

    row: CompanyRow
    kind: Literal["started", "progress", "finished"]
    event: GatherEvent | None = None
    result: CompanyResult | None = None


OnBatchEvent = Callable[[BatchEvent], None]


def read_company_rows(path: str | Path) -> list[CompanyRow]:
    """The companies of a CSV with a Company column; BadInputError (one line) when the file cannot be used."""
    table = read_table(path)
    name_column = table.find_column("company")
    if name_column is None:
        raise BadInputError(f"{table.path.name} has no Company column (columns: {', '.join(table.columns)})")
    if not table.rows:
        raise BadInputError(f"{table.path.name} lists no companies under its header")
    columns = {kind: table.find_column(kind) for kind in SOURCE_COLUMNS}
    return [
        CompanyRow(number, row[name_column].strip(), _sources(row, columns))
        for number, row in enumerate(table.rows, start=1)
    ]


def _sources(row: dict[str, str], columns: dict[str, str | None]) -> dict[str, str | list[str]]:
    sources: dict[str, str | list[str]] = {}
    for kind, column in columns.items():
        cell = row[column].strip() if column else ""
        if cell:
            sources[kind] = cell.split() if kind in MULTI_URL_COLUMNS else cell
    return sources


def gather_many(settings: Settings, rows: Sequence[CompanyRow], on_event: OnBatchEvent | None = None,
                full: bool = False) -> list[CompanyResult]:
    """Gather every row's company; one result per row, in row order. Never raises for one company's failure.

    ``full`` is :func:`gather_company`'s: ignore the HTTP and vector caches.

    A row that cannot be gathered as given (no name, no source, a bad URL, a company
    already listed) fails at once, before anything is fetched. Interrupted (Ctrl-C), it
    raises KeyboardInterrupt at once; see :meth:`_Runner.run` for the gathers still running.
    """
    emit = on_event or (lambda event: None)
    results: dict[int, CompanyResult] = {}
    jobs: list[_Job] = []
    seen: dict[str, int] = {}
    for row in rows:
        planned = _plan(row, settings, seen)
        if isinstance(planned, _Job):
            jobs.append(planned)
        else:
            results[row.number] = planned
            emit(BatchEvent(row, "finished", result=planned))
    runner = _Runner(settings, jobs, emit, full)
    for number, result in runner.run(_parallelism(settings, len(jobs))).items():
        results[number] = result
    return [results[row.number] for row in rows]


def failures_line(results: Sequence[CompanyResult]) -> str | None:
    """One line counting the companies that failed, by row (None when all succeeded); names and reasons are in their results."""
    failed = [r for r in results if r.status == "failed"]
    if not failed:
        return None
    rows = ", ".join(str(r.row) for r in failed)
    return f"{len(failed)} of {len(results)} companies failed (row{'s' if len(failed) > 1 else ''} {rows})"


def short_reason(error: str, sources: Sequence[SourceSummary] = (), kept: bool = False) -> str:
    """Why a company failed, under 120 characters: what each source could not do, else the error itself,
    and whether its previous knowledge base was kept (said only when it had one)."""
    notes = [f"{s.source_type}: {note}" for s in sources if (note := _source_failure(s))]
    text = "; ".join(notes) or error
    suffix = f"; {KEPT}" if kept and KEPT not in text else ""
    return textwrap.shorten(text, REASON_WIDTH - len(suffix), placeholder=" ...") + suffix


def source_trouble(sources: Sequence[SourceSummary]) -> str | None:
    """What the sources of a gathered company could not do (one failed while another gathered pages), under 120
    characters; None when every source did its part. A row said "ok" and nothing of a feed that answered 404."""
    notes = [f"{s.source_type}: {note}" for s in sources if (note := unreachable_note(s) or s.error)]
    return textwrap.shorten("; ".join(notes), REASON_WIDTH, placeholder=" ...") if notes else None


def _source_failure(s: SourceSummary) -> str:
    return unreachable_note(s) or s.error or ", ".join(f"{n} dropped ({reason})" for reason, n in sorted(s.dropped.items()))


def _parallelism(settings: Settings, jobs: int) -> int:
    if settings.store.mode == "local":
        return 1  # qdrant-client's local mode refuses a second open even within one process
    return max(1, min(settings.gather.max_parallel_companies, jobs))


@dataclass(frozen=True)
class _Job:
    row: CompanyRow
    domains: frozenset[str]  # registered domains of its start URLs: two jobs sharing one never run at once


def _plan(row: CompanyRow, settings: Settings, seen: dict[str, int]) -> _Job | CompanyResult:
    """The row as a job, or its failed result when it cannot be gathered as given."""
    started_at = datetime.now(timezone.utc)
    try:
        if not row.name:
            raise BadInputError("no company name")
        if not row.sources:
            raise BadInputError(f"no source: its {', '.join(c.capitalize() for c in SOURCE_COLUMNS)} cells are empty")
        company = company_from_name(row.name)
        if company.slug in seen:
            raise BadInputError(f"the same company as row {seen[company.slug]} ({company.slug})")
        requests = resolve_sources(row.sources, settings)
    except BadInputError as err:
        return _failed(row, settings, str(err), started_at, 0.0)
    seen[company.slug] = row.number
    return _Job(row, frozenset(site_of(url) for request in requests for url in request.start_urls))


def _failed(row: CompanyRow, settings: Settings, error: str, started_at: datetime, seconds: float,
            sources: Sequence[SourceSummary] = ()) -> CompanyResult:
    try:
        company = company_from_name(row.name)
    except BadInputError:
        company = Company(name=row.name, slug="")
    folder = CompanyDir(settings.data_dir, company.slug) if company.slug else None
    kept = folder is not None and folder.exists()  # a failed gather changed nothing: a knowledge base now is the previous one
    return CompanyResult(
        company=company, sources=list(sources), raw_dir=str(folder.raw_link) if folder else "", seconds=round(seconds, 3),
        started_at=started_at, ok=False, error=error, row=row.number, status="failed", reason=short_reason(error, sources, kept),
    )


class _Interrupted(Exception):
    """Raised inside a running gather (from its progress callback) to stop it before its commit."""


class _Runner:
    """Worker threads taking jobs whose domains no running job holds."""

    def __init__(self, settings: Settings, jobs: list[_Job], emit: OnBatchEvent, full: bool = False) -> None:
        self.settings, self.full = settings, full
        self.pending = list(jobs)
        self.emit = emit
        self.busy: set[str] = set()
        # A domain stays held download_delay after its gather ends: the next company's first request on it must not
        # follow the last one's sooner than a single crawl's would (each crawl keeps the delay only within itself).
        self.free_at: dict[str, float] = {}
        self.results: dict[int, CompanyResult] = {}
        self.changed = threading.Condition()
        self.interrupted = threading.Event()
        self.working = 0  # worker threads not yet ended
        self._embedder: DenseEmbedder | None = None  # one model for every company (~150 MB and a load each, else)
        self._embedder_lock = threading.Lock()

    def _shared_embedder(self) -> DenseEmbedder:
        with self._embedder_lock:  # the first gather loads it; a load error fails that company as before
            if self._embedder is None:
                self._embedder = load_embedder(self.settings.embed)
            return self._embedder

    def run(self, workers: int) -> dict[int, CompanyResult]:
        self.working = workers if self.pending else 0
        for n in range(self.working):
            threading.Thread(target=self._work, name=f"cikb-gather-{n}", daemon=True).start()
        try:
            self._wait_for_workers()
        except KeyboardInterrupt:
            # No company starts after this, and a running one stops at its next step before its
            # commit, releasing its lock and removing what a first gather had begun, as a single
            # gather does. That is waited for a few seconds (a second Ctrl-C stops waiting); one
            # whose crawler is still mid-request then ends with this process (its crawler sees its
            # stdin close), as a killed gather does, having changed nothing current unless its
            # commit had begun.
            self.interrupted.set()
            with self.changed:
                self.pending.clear()
                self.changed.notify_all()
            with suppress(KeyboardInterrupt):
                self._wait_for_workers(monotonic() + STOP_WAIT_SECONDS)
            raise
        return self.results

    def _wait_for_workers(self, deadline: float = float("inf")) -> None:
        # A condition, not Thread.join: on Python < 3.13 a join that Ctrl-C interrupts marks the
        # thread as stopped while it runs on (CPython gh-90882), so a second join returns at once.
        with self.changed:
            while self.working and monotonic() < deadline:
                self.changed.wait(0.2)  # timed, so that Ctrl-C reaches this thread

    def _work(self) -> None:
        try:
            self._take_jobs()
        finally:
            with self.changed:
                self.working -= 1
                self.changed.notify_all()

    def _take_jobs(self) -> None:
        while (job := self._take()) is not None:
            try:
                self.results[job.row.number] = self._gather(job)
            except BaseException:
                if not self.interrupted.is_set():
                    raise
                # Ctrl-C: the process is ending under this thread, and what it was doing fails with it (a progress
                # line written as the interpreter shuts down); the user was told "interrupted", not this traceback.
                return
            finally:
                self._release(job)

    def _take(self) -> _Job | None:
        """The first pending job whose domains are all free (waiting while every one is blocked); None when none is left."""
        with self.changed:
            while self.pending:
                now = monotonic()
                job = next((j for j in self.pending if not j.domains & self.busy and self._free(j, now)), None)
                if job is not None:
                    self.pending.remove(job)
                    self.busy |= job.domains
                    return job
                soonest = min((at for at in self.free_at.values() if at > now), default=None)
                self.changed.wait(None if soonest is None else soonest - now)
            return None

    def _free(self, job: _Job, now: float) -> bool:
        return all(self.free_at.get(domain, now) <= now for domain in job.domains)

    def _release(self, job: _Job) -> None:
        with self.changed:
            self.busy -= job.domains
            free_at = monotonic() + self.settings.gather.download_delay
            self.free_at.update(dict.fromkeys(job.domains, free_at))
            self.changed.notify_all()

    def _gather(self, job: _Job) -> CompanyResult:
        return gather_row(self.settings, job.row, self.emit, full=self.full, embedder=self._shared_embedder, interrupted=self.interrupted)


def plan_rows(settings: Settings, rows: Sequence[CompanyRow]) -> tuple[list[CompanyRow], list[CompanyResult]]:
    """The rows that can be gathered as given, and the failed results of those that cannot (no name, no source,
    a bad URL, a company already listed), as :func:`gather_many` plans them (a task queue's enqueuer too)."""
    seen: dict[str, int] = {}
    planned = [_plan(row, settings, seen) for row in rows]
    return [p.row for p in planned if isinstance(p, _Job)], [p for p in planned if isinstance(p, CompanyResult)]


def gather_row(settings: Settings, row: CompanyRow, emit: OnBatchEvent, *, full: bool = False,
               embedder: Callable[[], DenseEmbedder] | None = None, interrupted: threading.Event | None = None,
               reraise: tuple[type[BaseException], ...] = ()) -> CompanyResult:
    """One row's gather by :func:`gather_company`, as its result (a failure is a failed result, never raised,
    but for the ``reraise`` exceptions); ``embedder`` gives the loaded model, ``interrupted`` stops it before its commit."""
    emit(BatchEvent(row, "started"))
    started_at, started = datetime.now(timezone.utc), monotonic()

    def progress(event: GatherEvent) -> None:
        if interrupted is not None and interrupted.is_set() and event.stage != "store":  # from the store stage on, the commit is under way
            raise _Interrupted
        emit(BatchEvent(row, "progress", event=event))

    try:
        summary = gather_company(settings, row.name, row.sources, on_event=progress, full=full,
                                 embedder=embedder() if embedder else None)
        result = CompanyResult(**summary.model_dump(), row=row.number, status="ok", reason=source_trouble(summary.sources))
    except reraise:
        raise
    except _Interrupted:
        result = _failed(row, settings, INTERRUPTED, started_at, monotonic() - started)
    except Exception as err:
        if interrupted is None or not interrupted.is_set():
            result = _result_of_failure(row, settings, err, started_at, monotonic() - started)
        else:  # after Ctrl-C: its crawler, stopped by the same Ctrl-C, failed the gather before its next step could
            result = _failed(row, settings, INTERRUPTED, started_at, monotonic() - started)
    emit(BatchEvent(row, "finished", result=result))
    return result


def _result_of_failure(row: CompanyRow, settings: Settings, err: Exception, started_at: datetime, seconds: float) -> CompanyResult:
    """A failed gather's result: what each source did goes with a NothingGatheredError's reason, and a bug in one
    company's gather is its failure too (it must not lose the others' results)."""
    if isinstance(err, NothingGatheredError):
        return _failed(row, settings, str(err), started_at, seconds, err.sources)
    text = str(err) if isinstance(err, (CikbError, OSError)) else f"{type(err).__name__}: {err}"
    return _failed(row, settings, text, started_at, seconds)


__all__ = ["BatchEvent", "CompanyResult", "CompanyRow", "failures_line", "gather_many", "gather_row", "plan_rows", "read_company_rows", "short_reason"]
