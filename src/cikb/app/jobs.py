"""Enrichment jobs in SQLite: a job row and one row per cell attempt, written as each row finishes.

    <data_dir>/_jobs.sqlite       (names starting with _ are never company slugs)

A job records what was asked (CSV path and hash, column, strategy, parameters, where its
proposal goes), its status and counts; every finished cell is one ``attempts`` row holding
its research log, committed before the next progress event. A killed run therefore loses
only the rows in flight: ``cikb enrich --resume ID`` runs the rows without a final attempt
and writes the proposal, which is always built from the job's rows.

The schema moves forward only, by named migrations applied once each (the LLM call log's
mechanism, ``cikb.app.llm.migrate``). The database runs in WAL mode, so `cikb jobs` reads
while an enrichment writes.
"""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import json
import os
import re
import secrets
import sqlite3
import tomllib
from collections.abc import Callable, Collection, Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Literal

from cikb.enrich import get_strategy
from cikb.enrich.base import RowInput
from cikb.enrich.models import AttemptSummary, DataProposal, ProposalTarget, RowLog, RowStep
from cikb.enrich.proposal import proposal_reasoning, save_proposal_rows
from cikb.enrich.table import check_writable
from pydantic import BaseModel, Field, ValidationError, field_validator

from cikb.app.llm import Migration, migrate
from cikb.app.reading import enrich_sources, enrich_table_async, knowledge_base_fingerprint
from cikb.app.workspace import CompanyDir, process_alive
from cikb.core.config import Settings
from cikb.core.errors import BadInputError, CikbError, UnknownJobError, is_no_space, no_space
from cikb.core.sqlite import connect_wal

JOBS_FILE = "_jobs.sqlite"
JobStatus = Literal["queued", "running", "done", "cancelled", "failed", "interrupted"]  # queued: its rows run on a task queue's workers


def m001_jobs(db: sqlite3.Connection) -> None:
    for statement in (s.strip() for s in _SCHEMA_001.split(";")):
        if statement:
            db.execute(statement)


def m002_reuse(db: sqlite3.Connection) -> None:
    """A finished cell's key (column, row data, knowledge base), so a later job reuses its answer."""
    db.execute("ALTER TABLE attempts ADD COLUMN cell_key TEXT")
    db.execute("CREATE INDEX attempts_cell_key ON attempts (cell_key, final)")
    db.execute("ALTER TABLE jobs ADD COLUMN reused INTEGER NOT NULL DEFAULT 0")


def m003_llm_cache(db: sqlite3.Connection) -> None:
    """What an LLM generated for a column (question phrasings), under sha256 of the column's metadata."""
    db.execute("CREATE TABLE llm_cache (key TEXT PRIMARY KEY, value TEXT NOT NULL, created_at TEXT NOT NULL)")
    db.execute("ALTER TABLE jobs ADD COLUMN cache_hits INTEGER NOT NULL DEFAULT 0")


MIGRATIONS: list[tuple[str, Migration]] = [("m001_jobs", m001_jobs), ("m002_reuse", m002_reuse),
                                           ("m003_llm_cache", m003_llm_cache)]  # forward only: append, never edit

_SCHEMA_001 = """
    CREATE TABLE jobs (
        id TEXT PRIMARY KEY,
        csv_path TEXT NOT NULL,
        csv_sha256 TEXT,
        columns TEXT NOT NULL,          -- JSON list of the column names asked for
        strategy TEXT NOT NULL,         -- the columns' strategies, for listing
        request TEXT NOT NULL,          -- JSON JobRequest: everything needed to run the job again
        targets TEXT NOT NULL DEFAULT '{}',  -- JSON: column -> ProposalTarget, once the table was read
        status TEXT NOT NULL,
        total INTEGER NOT NULL DEFAULT 0,
        done INTEGER NOT NULL DEFAULT 0,
        found INTEGER NOT NULL DEFAULT 0,
        errors INTEGER NOT NULL DEFAULT 0,
        pid INTEGER,
        embedding_model TEXT,
        error TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE TABLE attempts (
        job_id TEXT NOT NULL REFERENCES jobs(id),
        column_name TEXT NOT NULL,
        row_id INTEGER NOT NULL,
        attempt INTEGER NOT NULL,
        final INTEGER NOT NULL,         -- 1: the cell's kept attempt
        status TEXT NOT NULL,
        label TEXT,
        value TEXT,
        raw_value TEXT,
        confidence TEXT,
        answered_by TEXT,
        sources TEXT,                   -- JSON list of source URLs
        error TEXT,
        log TEXT NOT NULL,              -- the whole RowLog (steps included) as JSON
        created_at TEXT NOT NULL,
        PRIMARY KEY (job_id, column_name, row_id, attempt)
    );
    CREATE INDEX attempts_final ON attempts (job_id, column_name, final, row_id)
"""


class _ColumnAsked(BaseModel):
    """What a column is filled by, as the command line and a job file say it."""

    name: str
    strategy: str = "lookup"
    question: str | None = None
    formula: str | None = None
    thoroughness: str | None = None
    options: list[str] | None = None


class ColumnRequest(_ColumnAsked):
    """One column a job fills: its name, how (strategy and question or formula), its type, its proposal file."""

    column_type: str = "text"
    proposal_path: str

    @field_validator("proposal_path")
    @classmethod
    def _absolute(cls, path: str) -> str:
        """A relative path is taken from the folder the request is made in, once: the job is resumed and listed from any."""
        return str(Path(path).resolve())

    def enrich_options(self) -> dict:
        """The keyword arguments of ``enrich_table_async`` for this column (besides the CSV and its name)."""
        return self.model_dump(exclude={"name", "proposal_path"})

    def params(self) -> dict:
        return {k: v for k, v in {"question": self.question, "formula": self.formula,
                                  "thoroughness": self.thoroughness}.items() if v is not None}


class JobRequest(BaseModel):
    """What `cikb enrich` was asked: enough to run the job again on resume."""

    csv_path: str
    company_column: str | None = None
    columns: list[ColumnRequest] = Field(min_length=1)

    @field_validator("csv_path")
    @classmethod
    def _absolute(cls, path: str) -> str:
        """As ColumnRequest's proposal_path: from the folder the request is made in."""
        return str(Path(path).resolve())


class Attempt(BaseModel):
    """One attempt at one cell, as `cikb jobs show` prints it."""

    row_id: int
    column: str
    attempt: int
    final: bool
    status: str
    label: str | None = None
    value: str | None = None
    confidence: str | None = None
    answered_by: str | None = None
    sources: list[str] = Field(default_factory=list)
    error: str | None = None


class Job(BaseModel):
    """One enrichment job; ``done`` counts cells (rows x columns) finished out of ``total``."""

    id: str
    status: JobStatus
    csv_path: str
    csv_sha256: str | None
    columns: list[str]
    strategy: str
    done: int
    total: int
    found: int
    errors: int
    reused: int = Field(0, description="Cells answered from an earlier job (same column, row and knowledge base).")
    cache_hits: int = Field(0, description="LLM generations (question phrasings) found in the cache instead of asked for.")
    proposals: list[str]
    error: str | None = None
    created_at: str
    updated_at: str
    request: JobRequest
    targets: dict[str, ProposalTarget] = Field(default_factory=dict)
    embedding_model: str | None = None


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class JobStore:
    """The jobs database of one data directory. Use it in a ``with`` block, or ``close()`` it."""

    def __init__(self, data_dir: Path) -> None:
        self.path = Path(data_dir) / JOBS_FILE
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = connect_wal(self.path, timeout=30)
            self._db.row_factory = sqlite3.Row
            self._db.execute("PRAGMA synchronous=NORMAL")  # WAL: a commit survives a killed process
            migrate(self._db, MIGRATIONS)  # safe when two processes open a new database at once
        except sqlite3.DatabaseError as err:
            if is_no_space(err):  # a full disk, not a damaged database: freeing space is the repair
                raise no_space(self.path) from None
            raise CikbError(f"the jobs database {self.path} cannot be read ({err}); move it aside to start a new one") from None

    def __enter__(self) -> JobStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._db.close()

    # -- writing -------------------------------------------------------------------------

    def create(self, request: JobRequest, *, queued: bool = False) -> str:
        """A new job in status running (by this process), or queued (its rows run on the workers of a task queue); its id."""
        job_id = secrets.token_hex(4)
        now = _now()
        strategies = ", ".join(dict.fromkeys(c.strategy for c in request.columns))
        with self._db:
            self._db.execute(
                "INSERT INTO jobs (id, csv_path, columns, strategy, request, status, pid, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (job_id, request.csv_path, json.dumps([c.name for c in request.columns]), strategies,
                 request.model_dump_json(), "queued" if queued else "running", None if queued else os.getpid(), now, now),
            )
        return job_id

    def claim(self, job_id: str) -> Job:
        """Take a job over to resume it; refused while another live process runs it, or once it is done.

        The status is read and written in one write transaction (BEGIN IMMEDIATE): two resumes started at once
        both read "interrupted" and both ran the job otherwise."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            job = self.get(job_id)
            if job.status == "running":
                raise BadInputError(f"job {job.id} is running in another process; wait for it or stop it first")
            if job.status == "queued":
                raise BadInputError(f"job {job.id} is queued on a task queue: its workers run it (`cikb jobs --queue URL` shows them)")
            if job.status == "done":
                raise BadInputError(f"job {job.id} is done; its proposals: {', '.join(job.proposals)}")
            self._db.execute("UPDATE jobs SET status='running', pid=?, error=NULL, updated_at=? WHERE id=?", (os.getpid(), _now(), job.id))
            self._db.commit()
        except BaseException:
            self._db.rollback()
            raise
        return self.get(job.id)

    def started(self, job_id: str, column: str, target: ProposalTarget, rows: int) -> None:
        """A column's table was read and checked: record the table's hash, the column's target, the cell count."""
        job = self.get(job_id)
        if job.csv_sha256 is not None and job.csv_sha256 != target.csv_sha256:
            raise BadInputError(
                f"{target.csv_path} changed since job {job_id} started (sha256 {job.csv_sha256[:12]}…); start a new job for it"
            )
        targets = {name: t.model_dump() for name, t in {**job.targets, column: target}.items()}
        with self._db:
            self._db.execute(
                "UPDATE jobs SET csv_sha256=?, targets=?, total=?, updated_at=? WHERE id=?",
                (target.csv_sha256, json.dumps(targets), rows * len(job.columns), _now(), job_id),
            )

    def record(self, job_id: str, log: RowLog, column: str, cell_key: str | None = None, *, reused: bool = False,
               once: bool = False) -> bool:
        """Write a finished cell in one transaction: one row per attempt (``log.attempts`` when it was retried); False
        when ``once`` and the cell has a final attempt already (a queued batch delivered again: nothing is written).

        The kept attempt's row holds the whole research log and is the cell's final one; a cell
        recorded again (a resumed retry) replaces its earlier final attempt in the counts.
        """
        error = next((s.detail for s in log.steps if s.type == "error"), None)
        tries = log.attempts or [AttemptSummary(attempt=1, status=log.status, value=log.value, confidence=log.confidence, kept=True)]
        with self._db:
            previous = self._db.execute(
                "SELECT attempt, status, error FROM attempts WHERE job_id=? AND column_name=? AND row_id=? AND final=1",
                (job_id, column, log.row_id),
            ).fetchone()
            if once and previous is not None:
                return False
            first = self._db.execute("SELECT COALESCE(MAX(attempt), 0) FROM attempts WHERE job_id=? AND column_name=? AND row_id=?",
                                     (job_id, column, log.row_id)).fetchone()[0]
            self._db.execute("UPDATE attempts SET final=0 WHERE job_id=? AND column_name=? AND row_id=?", (job_id, column, log.row_id))
            for number, attempt in enumerate(tries, start=first + 1):
                kept = attempt.kept
                self._db.execute(
                    "INSERT INTO attempts (job_id, column_name, row_id, attempt, final, status, label, value, raw_value, confidence,"
                    " answered_by, sources, error, log, created_at, cell_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (job_id, column, log.row_id, number, int(kept), attempt.status, log.label, attempt.value,
                     log.raw_value if kept else None, attempt.confidence, log.answered_by if kept else None,
                     json.dumps([s.url for s in log.sources] if kept else attempt.sources),
                     error if kept else attempt.why or None, log.model_dump_json() if kept else attempt.model_dump_json(), _now(),
                     # An answer reached through an error (an LLM or a search that failed) keys no later job's reuse.
                     cell_key if kept and error is None else None),
                )
            was = previous["status"] if previous is not None else None
            was_troubled = previous is not None and (was == "error" or previous["error"] is not None)
            self._db.execute(
                "UPDATE jobs SET done=done+?, found=found+?, errors=errors+?, reused=reused+?, updated_at=? WHERE id=?",
                (int(previous is None), int(log.status == "found") - int(was == "found"),
                 int(log.status == "error" or error is not None) - int(was_troubled), int(reused), _now(), job_id),
            )
        return True

    def finish(self, job_id: str, status: JobStatus, *, error: str | None = None, embedding_model: str | None = None) -> None:
        with self._db:
            self._db.execute(
                "UPDATE jobs SET status=?, error=?, pid=NULL, embedding_model=COALESCE(?, embedding_model), updated_at=? WHERE id=?",
                (status, error, embedding_model, _now(), job_id),
            )

    def complete(self, job_id: str, embedding_model: str | None = None) -> bool:
        """A queued job whose every cell is recorded: write its proposals and mark it done, once. True when this call did.

        One write transaction (BEGIN IMMEDIATE) holds the check, the proposals and the status, so two
        workers finishing the last batches at once write them once, and a worker killed while writing
        leaves the job queued for its batch's redelivery to complete."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            job = self.get(job_id)
            if job.status != "queued" or job.total == 0 or job.done < job.total:
                self._db.rollback()
                return False
            if embedding_model is not None:
                self._db.execute("UPDATE jobs SET embedding_model=? WHERE id=?", (embedding_model, job_id))
            for column in job.request.columns:
                self.write_proposal(job_id, column)
            self._db.execute("UPDATE jobs SET status='done', updated_at=? WHERE id=?", (_now(), job_id))
            self._db.commit()
            return True
        except BaseException:
            self._db.rollback()
            raise

    # -- reading -------------------------------------------------------------------------

    def has(self, job_id: str) -> bool:
        return self._db.execute("SELECT 1 FROM jobs WHERE id=?", (job_id.strip(),)).fetchone() is not None

    def get(self, job_id: str) -> Job:
        row = self._db.execute("SELECT * FROM jobs WHERE id=?", (job_id.strip(),)).fetchone()
        if row is None:
            raise UnknownJobError(f"no job {job_id!r} (see `cikb jobs`)")
        return _job(row)

    def list(self) -> list[Job]:
        """Every job, newest first."""
        return [_job(row) for row in self._db.execute("SELECT * FROM jobs ORDER BY created_at DESC, rowid DESC")]

    def earlier_answer(self, cell_key: str, job_id: str | None) -> tuple[str, RowLog] | None:
        """The newest finished answer (found or not found) another job kept for this cell key: (its job, its log)."""
        row = self._db.execute(
            "SELECT job_id, log FROM attempts WHERE cell_key=? AND final=1 AND status IN ('found', 'not_found') AND job_id IS NOT ?"
            " ORDER BY created_at DESC LIMIT 1", (cell_key, job_id),
        ).fetchone()
        return (row[0], RowLog.model_validate_json(row[1])) if row else None

    def cached(self, key: str, job_id: str | None) -> list[str] | None:
        """A cached LLM generation (counted as a hit of ``job_id``), or None."""
        row = self._db.execute("SELECT value FROM llm_cache WHERE key=?", (key,)).fetchone()
        if row is None:
            return None
        if job_id is not None:
            with self._db:
                self._db.execute("UPDATE jobs SET cache_hits=cache_hits+1 WHERE id=?", (job_id,))
        return json.loads(row[0])

    def cache(self, key: str, value: list[str]) -> None:
        with self._db:
            self._db.execute("INSERT OR REPLACE INTO llm_cache (key, value, created_at) VALUES (?, ?, ?)", (key, json.dumps(value), _now()))

    def finished_rows(self, job_id: str, column: str) -> set[int]:
        """The rows of ``column`` with a final attempt: a resume does not run them again."""
        cursor = self._db.execute("SELECT row_id FROM attempts WHERE job_id=? AND column_name=? AND final=1", (job_id, column))
        return {row[0] for row in cursor}

    def logs(self, job_id: str, column: str) -> Iterator[RowLog]:
        """The final research log of each finished cell of ``column``, by row."""
        cursor = self._db.execute(
            "SELECT log FROM attempts WHERE job_id=? AND column_name=? AND final=1 ORDER BY row_id", (job_id, column)
        )
        for (log,) in cursor:
            yield RowLog.model_validate_json(log)

    def attempts(self, job_id: str) -> list[Attempt]:
        cursor = self._db.execute(
            "SELECT * FROM attempts WHERE job_id=? ORDER BY column_name, row_id, attempt", (job_id,)
        )
        return [Attempt(row_id=r["row_id"], column=r["column_name"], attempt=r["attempt"], final=bool(r["final"]), status=r["status"],
                        label=r["label"], value=r["value"], confidence=r["confidence"], answered_by=r["answered_by"],
                        sources=json.loads(r["sources"] or "[]"), error=r["error"]) for r in cursor]

    def write_proposal(self, job_id: str, column: ColumnRequest) -> DataProposal:
        """Write one column's proposal from the job's rows, streamed from the database; return it without its rows."""
        job = self.get(job_id)
        target = job.targets.get(column.name)
        if target is None:
            raise BadInputError(f"job {job_id} never read its table for column {column.name!r} ({job.error or 'no error recorded'})")
        rows = job.total // len(job.columns)
        finished, found = self._db.execute(
            "SELECT COUNT(*), COALESCE(SUM(status = 'found' AND value IS NOT NULL), 0) FROM attempts"
            " WHERE job_id=? AND column_name=? AND final=1", (job_id, column.name),
        ).fetchone()
        by_confidence = dict(self._db.execute(
            "SELECT confidence, COUNT(*) FROM attempts WHERE job_id=? AND column_name=? AND final=1 AND status = 'found'"
            " AND value IS NOT NULL GROUP BY confidence", (job_id, column.name)).fetchall())
        params, cancelled = column.params(), finished < rows
        description = get_strategy(column.strategy).describe(params)
        head = DataProposal(
            reasoning=proposal_reasoning(description, found=found, finished=finished, rows_total=rows, cancelled=cancelled,
                                         by_confidence=by_confidence),
            target=target, strategy=column.strategy, params=params, rows_total=rows, cancelled=cancelled,
            created_at=datetime.now(timezone.utc), embedding_model=job.embedding_model,
        )
        save_proposal_rows(head, column.proposal_path, lambda: self.logs(job_id, column.name))
        return head


def _job(row: sqlite3.Row) -> Job:
    status = row["status"]
    if status == "running" and not process_alive(row["pid"]):
        status = "interrupted"  # killed (SIGKILL, a crash, a power cut): resume it
    request = JobRequest.model_validate_json(row["request"])
    return Job(
        id=row["id"], status=status, csv_path=row["csv_path"], csv_sha256=row["csv_sha256"], columns=json.loads(row["columns"]),
        strategy=row["strategy"], done=row["done"], total=row["total"], found=row["found"], errors=row["errors"], reused=row["reused"],
        cache_hits=row["cache_hits"],
        proposals=[c.proposal_path for c in request.columns], error=row["error"], created_at=row["created_at"],
        updated_at=row["updated_at"], request=request,
        targets={name: ProposalTarget.model_validate(t) for name, t in json.loads(row["targets"]).items()},
        embedding_model=row["embedding_model"],
    )


# -- running ---------------------------------------------------------------------------


async def run_job(settings: Settings, request: JobRequest | None = None, *, resume: str | None = None,
                  on_job: Callable[[str], None] | None = None, fresh: bool = False,
                  **options: Any) -> tuple[Job, list[DataProposal]]:
    """Run a new job for ``request``, or resume job ``resume``; write one proposal per column; return them without their rows.

    Columns run one after the other over the table. Each finished row is in the jobs database
    before the next progress event, so a run killed at any point is resumed by
    ``run_job(settings, resume=job_id)``. A cell another job already answered for the same
    column, row and knowledge base is reused (no search, no LLM call) unless ``fresh``.
    ``options`` go to ``cikb.app.reading.enrich_table_async`` (``on_progress``, ``cancel``,
    ``kb``, ``llm``...).
    """
    with JobStore(settings.data_dir) as jobs:
        if resume is not None:
            request = jobs.claim(resume).request
        elif request is None:
            raise ValueError("run_job needs a request or a job id to resume")
        run = _JobRun(jobs, request, resume, on_job, None if fresh else knowledge_base_fingerprint(settings), settings.data_dir)
        if resume is not None and on_job is not None:
            on_job(resume)
        sources = {name: options.pop(name) for name in ("kb", "llm", "web") if name in options}
        try:
            check_outputs(request)
            with enrich_sources(settings, **sources) as opened:  # once for the job: every column reads one snapshot
                for column in request.columns:
                    proposal = await enrich_table_async(
                        request.csv_path, column.name, settings=settings, company_column=request.company_column,
                        on_start=run.starter(column), skip_rows=run.finished(column), on_row=run.recorder(column),
                        reuse=run.reuser(column), cache=run, generation=run.generation, **opened, **column.enrich_options(),
                        **options,
                    )
                    if proposal.cancelled:
                        break
        except BaseException as err:
            if run.job_id is not None:
                jobs.finish(run.job_id, "cancelled" if isinstance(err, (KeyboardInterrupt, asyncio.CancelledError)) else "failed",
                            error=str(err) or type(err).__name__)
            raise
        jobs.finish(run.job_id, "cancelled" if proposal.cancelled else "done", embedding_model=proposal.embedding_model)
        written = jobs.get(run.job_id).targets
        proposals = [jobs.write_proposal(run.job_id, column) for column in request.columns if column.name in written]
        return jobs.get(run.job_id), proposals


async def queue_job(settings: Settings, request: JobRequest) -> tuple[str, int]:
    """A new job in status queued, its table read and every column checked as a local run checks them (bad input
    leaves no job), and no row run: (its id, the table's rows). Its rows are then run by :func:`run_job_rows`."""
    from cikb.enrich.table import scan_table

    check_outputs(request)
    rows = scan_table(request.csv_path).row_count
    with JobStore(settings.data_dir) as jobs:
        run = _JobRun(jobs, request, None, None, None, settings.data_dir, queued=True)
        for column in request.columns:
            await enrich_table_async(request.csv_path, column.name, settings=settings, company_column=request.company_column,
                                     on_start=run.starter(column), skip_rows=range(rows), kb=None, web=None, llm=None,
                                     **column.enrich_options())
        return run.job_id, rows  # type: ignore[return-value]


async def run_job_rows(settings: Settings, job_id: str, rows: range, *, fresh: bool = False, **options: Any) -> bool:
    """Run rows ``rows`` of queued job ``job_id`` (a worker's batch) the way :func:`run_job` runs a table, each cell
    recorded once (a batch delivered again skips the cells recorded before); then, when every cell of the job is
    recorded, write its proposals (True: this call wrote them). ``options`` as for :func:`run_job`."""
    with JobStore(settings.data_dir) as jobs:
        job = jobs.get(job_id)
        if job.status not in ("queued", "done"):
            raise BadInputError(f"job {job_id} is {job.status}, not queued: its batches are not run")
        request = job.request
        run = _JobRun(jobs, request, job_id, None, None if fresh else knowledge_base_fingerprint(settings), settings.data_dir, queued=True)
        model = None
        sources = {name: options.pop(name) for name in ("kb", "llm", "web") if name in options}
        with enrich_sources(settings, **sources) as opened:
            for column in request.columns:
                total = job.total // len(request.columns)
                outside = [i for i in range(total) if i not in rows]
                proposal = await enrich_table_async(
                    request.csv_path, column.name, settings=settings, company_column=request.company_column,
                    on_start=run.starter(column), skip_rows={*outside, *run.finished(column)}, on_row=run.recorder(column),
                    reuse=run.reuser(column), cache=run, generation=run.generation, **opened, **column.enrich_options(), **options,
                )
                model = proposal.embedding_model or model
        return jobs.complete(job_id, model)


class _JobRun:
    """The hooks one run of a job hands the enrich stage, per column: create the job, skip, reuse, record; and
    the cache of LLM generations."""

    def __init__(self, jobs: JobStore, request: JobRequest, job_id: str | None, on_job: Callable[[str], None] | None,
                 knowledge_base: str | None, data_dir: Path, *, queued: bool = False) -> None:
        self.jobs, self.request, self.on_job, self.data_dir = jobs, request, on_job, data_dir
        self.queued = queued  # a queued job: created queued, each cell recorded once (its batches may be delivered twice)
        self.job_id = job_id  # a new job is created once the table and the first column check out: bad input leaves none
        self.knowledge_base = knowledge_base  # None: reuse nothing (--fresh)
        self.keys: dict[tuple[str, int], str] = {}  # cells in flight -> their keys

    def starter(self, column: ColumnRequest) -> Callable[[ProposalTarget, dict, int], None]:
        def started(target: ProposalTarget, params: dict, rows: int) -> None:
            if self.job_id is None:
                self.job_id = self.jobs.create(self.request, queued=self.queued)
                if self.on_job is not None:
                    self.on_job(self.job_id)
            self.jobs.started(self.job_id, column.name, target, rows)
        return started

    def finished(self, column: ColumnRequest) -> set[int]:
        return self.jobs.finished_rows(self.job_id, column.name) if self.job_id is not None else set()

    def reuser(self, column: ColumnRequest) -> Callable[[RowInput], RowLog | None]:
        def reuse(row: RowInput) -> RowLog | None:
            key = self.cell_key(column, row)
            self.keys[(column.name, row.row_id)] = key
            earlier = self.jobs.earlier_answer(key, self.job_id) if self.knowledge_base is not None else None
            if earlier is None:
                return None
            job_id, log = earlier
            step = RowStep(type="thinking", detail=f"reused job {job_id}'s answer: same column, row and knowledge base")
            return log.model_copy(update={"row_id": row.row_id, "label": row.label, "steps": [*log.steps, step], "reused_from": job_id})
        return reuse

    def recorder(self, column: ColumnRequest) -> Callable[[RowLog], None]:
        def record(log: RowLog) -> None:
            key = self.keys.pop((column.name, log.row_id), None)
            self.jobs.record(self.job_id, log, column.name, key, reused=log.reused_from is not None, once=self.queued)  # type: ignore[arg-type]
        return record

    def generation(self, company: str) -> str | None:
        """The company's indexed gather, read at each row: a gather committed during the run starts a new
        generation, whose rows the enrich stage asks again instead of taking an answer from the old one."""
        return CompanyDir(self.data_dir, company).indexed_id()

    def get(self, key: str) -> list[str] | None:  # the enrich stage's KeyValueCache, counted in the job
        return self.jobs.cached(key, self.job_id)

    def put(self, key: str, value: list[str]) -> None:
        self.jobs.cache(key, value)

    def cell_key(self, column: ColumnRequest, row: RowInput) -> str:
        """sha256 of what decides a cell's answer: the column as asked, the row's cells and the knowledge base."""
        asked = {"column": column.model_dump(exclude={"proposal_path"}), "company_column": self.request.company_column,
                 "row": dict(row.data), "knowledge_base": self.knowledge_base}
        return hashlib.sha256(json.dumps(asked, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


# -- asking ----------------------------------------------------------------------------


def check_outputs(request: JobRequest) -> None:
    """Raise BadInputError (one line) when a column's proposal cannot be written, or would be written over the table:
    checked before any row runs, so that no run's work ends where it cannot be kept."""
    named: dict[str, str] = {}
    writers: dict[Path, str] = {}
    for column in request.columns:
        key, path = column.name.strip().casefold(), Path(column.proposal_path).resolve()
        if key in named:
            raise BadInputError(f"column {column.name!r} is asked twice in one job ({named[key]!r}; names are compared "
                                "without case, as the table's header is)")
        if path in writers:
            raise BadInputError(f"columns {writers[path]!r} and {column.name!r} would write one proposal file, {path}: "
                                "give each its own `out`")
        named[key], writers[path] = column.name, column.name
        check_writable(path, inputs=[Path(request.csv_path)])


def proposal_path_for(csv_path: Path, column: str, folder: Path | None = None, taken: Collection[Path] = ()) -> Path:
    """Where a column's proposal goes by default: ``<csv stem>.<column>.proposal.json`` beside the CSV (or in ``folder``),
    numbered (``.revenue-usd-2.``) where another column of the job already has that path (``taken``)."""
    # A name, never a path: "a/b" stays beside the CSV; letters of any script are kept ("成立", "総部" apart).
    column_part = "-".join(re.findall(r"[^\W_]+", column.lower())) or "column"
    for n in itertools.count(1):
        path = (folder or csv_path.parent) / f"{csv_path.stem}.{column_part}{f'-{n}' if n > 1 else ''}.proposal.json"
        if path not in taken:
            return path
    raise AssertionError("unreachable")


class _FileColumn(_ColumnAsked, extra="forbid"):
    type: str = "text"
    out: str | None = None


class _JobFile(BaseModel, extra="forbid"):
    csv: str | None = None
    company_column: str | None = None
    column: list[_FileColumn] = Field(min_length=1)


def load_job_file(path: Path, csv_path: Path | None = None) -> JobRequest:
    """A job from a TOML file: ``csv``, ``company_column`` and one ``[[column]]`` table per column.

    Each column has ``name`` and, as on the command line, ``strategy``, ``question`` or
    ``formula``, ``thoroughness``, ``type``, ``options`` and ``out``. Relative paths are taken
    from the file's folder; ``csv_path`` (the command's argument) wins over ``csv``.
    """
    try:
        parsed = _JobFile.model_validate(tomllib.loads(Path(path).read_text(encoding="utf-8")))
    except FileNotFoundError:
        raise BadInputError(f"no such job file: {path}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as err:
        raise BadInputError(f"malformed job file {path}: {err}") from None
    except ValidationError as err:
        first = err.errors()[0]
        raise BadInputError(f"job file {path}: {'.'.join(str(p) for p in first['loc'])}: {first['msg']}") from None
    base = Path(path).resolve().parent
    table = csv_path.resolve() if csv_path is not None else base / parsed.csv if parsed.csv else None
    if table is None:
        raise BadInputError(f"job file {path} names no csv, and no CSV was given")
    columns: list[ColumnRequest] = []
    for c in parsed.column:
        taken = [Path(column.proposal_path) for column in columns]
        target = base / c.out if c.out else proposal_path_for(table, c.name, taken=taken)
        columns.append(ColumnRequest(**c.model_dump(exclude={"type", "out"}), column_type=c.type, proposal_path=str(target)))
    return JobRequest(csv_path=str(table), company_column=parsed.company_column, columns=columns)
