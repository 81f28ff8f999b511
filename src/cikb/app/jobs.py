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
import json
import os
import secrets
import sqlite3
from collections.abc import Callable, Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Literal

from cikb.enrich import get_strategy
from cikb.enrich.models import DataProposal, ProposalTarget, RowLog
from cikb.enrich.proposal import build_proposal, save_proposal
from pydantic import BaseModel, Field

from cikb.app.llm import Migration, migrate
from cikb.app.workspace import process_alive
from cikb.core.config import Settings
from cikb.core.errors import BadInputError, CikbError

JOBS_FILE = "_jobs.sqlite"
JobStatus = Literal["running", "done", "cancelled", "failed", "interrupted"]


def m001_jobs(db: sqlite3.Connection) -> None:
    for statement in (s.strip() for s in _SCHEMA_001.split(";")):
        if statement:
            db.execute(statement)


MIGRATIONS: list[tuple[str, Migration]] = [("m001_jobs", m001_jobs)]  # forward only: append, never edit

_SCHEMA_001 = """
    CREATE TABLE jobs (
        id TEXT PRIMARY KEY,
        csv_path TEXT NOT NULL,
        csv_sha256 TEXT,
        columns TEXT NOT NULL,          -- JSON list of column names
        strategy TEXT NOT NULL,
        params TEXT NOT NULL,           -- JSON: question / formula / thoroughness
        request TEXT NOT NULL,          -- JSON: everything needed to run the job again
        target TEXT,                    -- JSON ProposalTarget, once the table was read
        status TEXT NOT NULL,
        total INTEGER NOT NULL DEFAULT 0,
        done INTEGER NOT NULL DEFAULT 0,
        found INTEGER NOT NULL DEFAULT 0,
        errors INTEGER NOT NULL DEFAULT 0,
        pid INTEGER,
        proposal_path TEXT,
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
        sources TEXT,                   -- JSON list of sources
        error TEXT,
        log TEXT NOT NULL,              -- the whole RowLog (steps included) as JSON
        created_at TEXT NOT NULL,
        PRIMARY KEY (job_id, column_name, row_id, attempt)
    );
    CREATE INDEX attempts_final ON attempts (job_id, column_name, final, row_id);
    """


class JobRequest(BaseModel):
    """What `cikb enrich` was asked: enough to run the job again on resume."""

    csv_path: str
    column: str
    strategy: str = "lookup"
    question: str | None = None
    formula: str | None = None
    thoroughness: str | None = None
    column_type: str = "text"
    options: list[str] | None = None
    company_column: str | None = None
    proposal_path: str

    def enrich_options(self) -> dict:
        """The keyword arguments of ``enrich_table_async`` (besides the CSV and the column)."""
        return self.model_dump(exclude={"csv_path", "column", "proposal_path"})


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
    """One enrichment job; ``done`` counts cells finished out of ``total``."""

    id: str
    status: JobStatus
    csv_path: str
    csv_sha256: str | None
    columns: list[str]
    strategy: str
    params: dict
    done: int
    total: int
    found: int
    errors: int
    proposal_path: str | None
    error: str | None = None
    created_at: str
    updated_at: str
    request: JobRequest
    target: ProposalTarget | None = None
    embedding_model: str | None = None


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class JobStore:
    """The jobs database of one data directory. Use it in a ``with`` block, or ``close()`` it."""

    def __init__(self, data_dir: Path) -> None:
        self.path = Path(data_dir) / JOBS_FILE
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = sqlite3.connect(self.path, timeout=30)
            self._db.row_factory = sqlite3.Row
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")  # WAL: a commit survives a killed process
            migrate(self._db, MIGRATIONS)
        except sqlite3.DatabaseError as err:
            raise CikbError(f"the jobs database {self.path} cannot be read ({err}); move it aside to start a new one") from None

    def __enter__(self) -> JobStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._db.close()

    # -- writing -------------------------------------------------------------------------

    def create(self, request: JobRequest) -> str:
        """A new job in status running; returns its id."""
        job_id = secrets.token_hex(4)
        now = _now()
        with self._db:
            self._db.execute(
                "INSERT INTO jobs (id, csv_path, columns, strategy, params, request, status, pid, proposal_path, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, 'running', ?, ?, ?, ?)",
                (job_id, request.csv_path, json.dumps([request.column]), request.strategy, json.dumps(_params(request)),
                 request.model_dump_json(), os.getpid(), request.proposal_path, now, now),
            )
        return job_id

    def claim(self, job_id: str) -> Job:
        """Take a job over to resume it; refused while another live process runs it, or once it is done."""
        job = self.get(job_id)
        if job.status == "running":
            raise BadInputError(f"job {job_id} is running in another process (pid {self._pid(job_id)}); wait for it or stop it first")
        if job.status == "done":
            raise BadInputError(f"job {job_id} is done; its proposal is {job.proposal_path}")
        with self._db:
            self._db.execute("UPDATE jobs SET status='running', pid=?, error=NULL, updated_at=? WHERE id=?", (os.getpid(), _now(), job_id))
        return self.get(job_id)

    def started(self, job_id: str, target: ProposalTarget, params: dict, rows: int) -> None:
        """The table was read and checked: record its hash, the column's spelling and the cell count."""
        job = self.get(job_id)
        if job.csv_sha256 is not None and job.csv_sha256 != target.csv_sha256:
            raise BadInputError(
                f"{target.csv_path} changed since job {job_id} started (sha256 {job.csv_sha256[:12]}…); start a new job for it"
            )
        with self._db:
            self._db.execute(
                "UPDATE jobs SET csv_sha256=?, target=?, columns=?, params=?, total=?, updated_at=? WHERE id=?",
                (target.csv_sha256, target.model_dump_json(), json.dumps([target.column]), json.dumps(params), rows, _now(), job_id),
            )

    def record(self, job_id: str, log: RowLog, column: str, *, final: bool = True) -> None:
        """Write one finished attempt (and, when final, count the cell done) in one transaction."""
        error = next((s.detail for s in log.steps if s.type == "error"), None) if log.status in ("error", "skipped") else None
        with self._db:
            attempt = self._db.execute(
                "SELECT COALESCE(MAX(attempt), 0) + 1 FROM attempts WHERE job_id=? AND column_name=? AND row_id=?",
                (job_id, column, log.row_id),
            ).fetchone()[0]
            if final:
                self._db.execute("UPDATE attempts SET final=0 WHERE job_id=? AND column_name=? AND row_id=?", (job_id, column, log.row_id))
            self._db.execute(
                "INSERT INTO attempts (job_id, column_name, row_id, attempt, final, status, label, value, raw_value, confidence,"
                " answered_by, sources, error, log, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (job_id, column, log.row_id, attempt, int(final), log.status, log.label, log.value, log.raw_value, log.confidence,
                 log.answered_by, json.dumps([s.url for s in log.sources]), error, log.model_dump_json(), _now()),
            )
            if final:
                self._db.execute(
                    "UPDATE jobs SET done=done+1, found=found+?, errors=errors+?, updated_at=? WHERE id=?",
                    (int(log.status == "found"), int(log.status == "error"), _now(), job_id),
                )

    def finish(self, job_id: str, status: JobStatus, *, error: str | None = None, embedding_model: str | None = None) -> None:
        with self._db:
            self._db.execute(
                "UPDATE jobs SET status=?, error=?, pid=NULL, embedding_model=COALESCE(?, embedding_model), updated_at=? WHERE id=?",
                (status, error, embedding_model, _now(), job_id),
            )

    # -- reading -------------------------------------------------------------------------

    def get(self, job_id: str) -> Job:
        row = self._db.execute("SELECT * FROM jobs WHERE id=?", (job_id.strip(),)).fetchone()
        if row is None:
            raise BadInputError(f"no job {job_id!r} (see `cikb jobs`)")
        return _job(row)

    def list(self) -> list[Job]:
        """Every job, newest first."""
        return [_job(row) for row in self._db.execute("SELECT * FROM jobs ORDER BY created_at DESC, rowid DESC")]

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

    def proposal(self, job_id: str, description: str) -> DataProposal:
        """The job's proposal, built from its rows (not from any one process's memory)."""
        job = self.get(job_id)
        if job.target is None:
            raise BadInputError(f"job {job_id} never read its table ({job.error or 'no error recorded'})")
        column = job.target.column
        proposal = build_proposal(target=job.target, strategy_name=job.strategy, description=description, params=job.params,
                                  logs=list(self.logs(job_id, column)), rows_total=job.total, cancelled=job.done < job.total)
        return proposal.model_copy(update={"embedding_model": job.embedding_model})

    def _pid(self, job_id: str) -> int | None:
        row = self._db.execute("SELECT pid FROM jobs WHERE id=?", (job_id,)).fetchone()
        return row[0] if row else None


def _params(request: JobRequest) -> dict:
    return {k: v for k, v in {"question": request.question, "formula": request.formula,
                              "thoroughness": request.thoroughness}.items() if v is not None}


def _job(row: sqlite3.Row) -> Job:
    status = row["status"]
    if status == "running" and not process_alive(row["pid"]):
        status = "interrupted"  # killed (SIGKILL, a crash, a power cut): resume it
    return Job(
        id=row["id"], status=status, csv_path=row["csv_path"], csv_sha256=row["csv_sha256"], columns=json.loads(row["columns"]),
        strategy=row["strategy"], params=json.loads(row["params"]), done=row["done"], total=row["total"], found=row["found"],
        errors=row["errors"], proposal_path=row["proposal_path"], error=row["error"], created_at=row["created_at"],
        updated_at=row["updated_at"], request=JobRequest.model_validate_json(row["request"]),
        target=ProposalTarget.model_validate_json(row["target"]) if row["target"] else None, embedding_model=row["embedding_model"],
    )


# -- running ---------------------------------------------------------------------------


async def run_job(settings: Settings, request: JobRequest | None = None, *, resume: str | None = None,
                  on_job: Callable[[str], None] | None = None, **options: Any) -> tuple[Job, DataProposal]:
    """Run a new job for ``request``, or resume job ``resume``; write its proposal; return both.

    Each finished row is in the jobs database before the next starts reporting, so a run
    killed at any point is resumed by ``run_job(settings, resume=job_id)``. ``options`` go
    to ``cikb.app.reading.enrich_table_async`` (``on_progress``, ``cancel``, ``kb``, ``llm``...).
    """
    from cikb.app.reading import enrich_table_async  # the read path: loads models only when a row searches

    with JobStore(settings.data_dir) as jobs:
        if resume is not None:
            request = jobs.claim(resume).request
            job_id: str | None = resume
            if on_job is not None:
                on_job(job_id)
        elif request is not None:
            job_id = None  # created once the table and the column check out: bad input leaves no job behind
        else:
            raise ValueError("run_job needs a request or a job id to resume")
        column_name = request.column

        def started(target: ProposalTarget, params: dict, rows: int) -> None:
            nonlocal column_name, job_id
            column_name = target.column
            if job_id is None:
                job_id = jobs.create(request)
                if on_job is not None:
                    on_job(job_id)
            jobs.started(job_id, target, params, rows)

        target = jobs.get(resume).target if resume is not None else None  # None until the table was read once
        try:
            proposal = await enrich_table_async(
                request.csv_path, request.column, settings=settings, on_start=started,
                skip_rows=jobs.finished_rows(resume, target.column) if target is not None else (),
                on_row=lambda log: jobs.record(job_id, log, column_name), **request.enrich_options(), **options,
            )
        except BaseException as err:
            if job_id is not None:
                jobs.finish(job_id, "cancelled" if isinstance(err, (KeyboardInterrupt, asyncio.CancelledError)) else "failed",
                            error=str(err) or type(err).__name__)
            raise
        job = jobs.get(job_id)
        jobs.finish(job_id, "cancelled" if proposal.cancelled else "done", embedding_model=proposal.embedding_model)
        whole = jobs.proposal(job_id, get_strategy(request.strategy).describe(job.params))
        save_proposal(whole, request.proposal_path)
        return jobs.get(job_id), whole
