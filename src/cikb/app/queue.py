"""Gathers spread over the workers of a task queue: Celery, with Redis as its broker (issue 27).

    job = enqueue_gather(settings, "redis://10.0.0.5:6379/0", rows, source="companies.csv")  # one task per row; returns at once
    results = follow("redis://10.0.0.5:6379/0", job, on_event=print)                        # BatchEvents as workers report them
    run_worker(settings, "redis://10.0.0.5:6379/0")                                         # `cikb worker`: gathers until stopped

Each task is one row of the CSV, gathered by :func:`cikb.app.batch.gather_row`, the function a
local ``--from-csv`` run calls, into the worker's own data directory and store. Nothing lost:
a task is acknowledged only after its row's outcome is recorded, which is after the gather's
commit (``task_acks_late``, one task reserved at a time: ``worker_prefetch_multiplier=1``); a
worker that dies mid-gather leaves its task unacknowledged, and Redis hands it to another
worker after ``[queue] visibility_timeout``, while the company's previous generation stays
current. Nothing twice: a row's outcome is recorded once (an atomic HSETNX); a redelivered
task whose row is recorded does nothing, and one whose last worker reached its commit and
whose company was gathered since that worker started it (it died between the commit and the
record) records that gather instead of crawling again. A task delivered again while its first worker is still gathering (a gather
longer than the visibility timeout) finds the row's lease held (:class:`RowLease`) and tries
again later, as does a gather of a company whose lock another gather on this machine holds.

Enrichments go the same way (:func:`enqueue_enrich`): one task per batch of rows of a job
created queued in the jobs database (``cikb.app.jobs.queue_job``), run by
``cikb.app.jobs.run_job_rows``, the per-row path of a local ``cikb enrich``. Nothing twice:
each cell is recorded in the job's SQLite once (a batch delivered again skips the cells
recorded before), and the proposals are written once, in one transaction with the job's
status, by the worker whose batch recorded the last cell (or by its batch's redelivery, when
it died first). The workers read the jobs database, the CSV and the knowledge base of their
data directory: enrichment through the queue needs the enqueuing machine's data directory.

Progress lives in Redis beside the queue (``cikb:job:<id>:...``), so ``cikb jobs`` and
``gather --wait`` work from any machine that reaches the broker. Each worker keeps a heartbeat there
(``cikb:workers:<name>``, :class:`WorkerHeartbeat`, gone a few seconds after it dies): a follow with
no worker alive says so once and goes on waiting, and ``cikb jobs`` shows such a job's rows waiting
for a worker rather than running. Workers crawl through
:mod:`cikb.gather.shared_politeness`: one request per ``download_delay`` per registered domain
across all of them.
"""

from __future__ import annotations

import json
import os
import socket
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from cikb.app.batch import BatchEvent, CompanyResult, CompanyRow, OnBatchEvent, gather_row, plan_rows, short_reason
from cikb.app.models import GatherEvent
from cikb.app.workspace import CompanyDir
from cikb.core.config import Settings
from cikb.core.errors import BadInputError, CikbError, LockedError
from cikb.core.models import CrawlEvent, SourceSummary
from cikb.core.slug import company_from_name

if TYPE_CHECKING:
    from celery import Celery
    from redis import Redis

    from cikb.embed import DenseEmbedder

TASK = "cikb.gather_row"
ENRICH_TASK = "cikb.enrich_rows"
ENRICH_BATCH = 50  # rows per enrichment task
QUEUE = "cikb"
JOBS_KEY = "cikb:jobs"  # sorted set: job id -> queued time
JOB_TTL = 30 * 86_400  # seconds a job's progress stays in Redis
LOCKED_RETRY = 5.0  # seconds before a task whose company another gather holds tries again
WORKERS_KEY = "cikb:workers:"  # + a worker's name: its heartbeat (WorkerHeartbeat)
HEARTBEAT = 3.0  # seconds a worker's heartbeat outlives it, at most (renewed every third of that)
INSTALL = "pip install 'cikb[queue]'"
# Record a row's outcome once: KEYS results, status; ARGV row, result JSON, status.
FINISH = """
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 1 then
  redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
  return 1
end
return 0
"""


class QueueUnavailableError(CikbError):
    """The broker cannot be reached, or the queue's packages are not installed."""

    exit_code = 4


class GatherOptions(BaseModel):
    """What the enqueuing command line asked of every gather; everything else is the worker's own configuration."""

    download_delay: float
    max_pages_per_source: int
    max_age: float
    full: bool = False

    @classmethod
    def of(cls, settings: Settings, full: bool = False) -> GatherOptions:
        g = settings.gather
        return cls(download_delay=g.download_delay, max_pages_per_source=g.max_pages_per_source, max_age=g.max_age, full=full)

    def apply(self, settings: Settings) -> Settings:
        copy = settings.model_copy(deep=True)
        copy.gather.download_delay, copy.gather.max_pages_per_source, copy.gather.max_age = self.download_delay, self.max_pages_per_source, self.max_age
        return copy


class QueuedJob(BaseModel):
    """A job of the queue, as `cikb jobs` lists it: its rows by status."""

    id: str
    source: str
    queued_at: datetime
    kind: str = "gather"  # gather: one task per company; enrich: one per batch of rows
    total: int
    queued: int
    running: int
    ok: int
    failed: int
    workers: list[str]  # the workers that ran its rows
    no_worker: bool = False  # no worker is alive on the broker: its unfinished rows wait for one

    @property
    def status(self) -> str:
        if self.ok + self.failed == self.total:
            return "done"
        if self.running:
            return "running"
        return "queued (no worker)" if self.no_worker else "queued"


class QueueListing(BaseModel):
    """What `cikb jobs --queue` shows: the workers alive on the broker and its newest jobs."""

    workers_alive: list[str]
    jobs: list[QueuedJob]


# --- the job's record in Redis -------------------------------------------------------------------------------


class JobBoard:
    """One job's rows, statuses (queued, running, ok, failed), progress and results, in Redis."""

    def __init__(self, client: Redis, job_id: str) -> None:
        self.client, self.id = client, job_id
        self.key = f"cikb:job:{job_id}"

    def _k(self, part: str) -> str:
        return f"{self.key}:{part}"

    def create(self, source: str, rows: Sequence[CompanyRow], options: GatherOptions) -> None:
        queued_at = datetime.now(timezone.utc)
        pipe = self.client.pipeline()
        pipe.hset(self.key, mapping={"source": source, "total": len(rows), "queued_at": queued_at.isoformat(), "options": options.model_dump_json()})
        pipe.hset(self._k("rows"), mapping={row.number: json.dumps(asdict(row)) for row in rows})
        pipe.hset(self._k("status"), mapping={row.number: "queued" for row in rows})
        for key in (self.key, self._k("rows"), self._k("status")):
            pipe.expire(key, JOB_TTL)
        pipe.zadd(JOBS_KEY, {self.id: queued_at.timestamp()})
        pipe.execute()

    def exists(self) -> bool:
        return bool(self.client.exists(self.key))

    def rows(self) -> dict[int, CompanyRow]:
        return {int(n): CompanyRow(**json.loads(data)) for n, data in self.client.hgetall(self._k("rows")).items()}

    def statuses(self) -> dict[int, str]:
        return {int(n): status.decode() for n, status in self.client.hgetall(self._k("status")).items()}

    def progress(self, numbers: Sequence[int] | None = None) -> dict[int, dict[str, Any]]:
        """Each row's last progress report (worker, pages, note): of ``numbers`` only, or of every row that had one."""
        if numbers is None:
            return {int(n): json.loads(data) for n, data in self.client.hgetall(self._k("progress")).items()}
        if not numbers:
            return {}
        found = self.client.hmget(self._k("progress"), list(numbers))
        return {n: json.loads(data) for n, data in zip(numbers, found) if data is not None}

    def results(self, numbers: Sequence[int]) -> dict[int, CompanyResult]:
        if not numbers:
            return {}
        found = self.client.hmget(self._k("results"), list(numbers))
        return {n: CompanyResult.model_validate_json(data) for n, data in zip(numbers, found) if data is not None}

    def finished(self, number: int) -> bool:
        return bool(self.client.hexists(self._k("results"), number))

    def report(self, number: int, **progress: Any) -> None:
        pipe = self.client.pipeline()
        pipe.hset(self._k("progress"), number, json.dumps(progress))
        pipe.expire(self._k("progress"), JOB_TTL)
        pipe.execute()

    def start(self, number: int, worker: str) -> str:
        """Mark the row running on ``worker``; the time it started, by the worker's clock (ISO), kept in every report."""
        started = datetime.now(timezone.utc).isoformat()
        self.client.hset(self._k("status"), number, "running")
        self.report(number, worker=worker, started=started, pages=0, note="starting")
        return started

    def finish(self, result: CompanyResult) -> bool:
        """Record the row's outcome unless one is recorded already; True when this call recorded it."""
        return self.record(result.row, result.model_dump_json(), result.status)

    def record(self, number: int, outcome: str, status: str) -> bool:
        """Record task ``number``'s outcome (JSON) and status unless one is recorded already; True when this call did."""
        keys = [self._k("results"), self._k("status")]
        recorded = self.client.eval(FINISH, len(keys), *keys, number, outcome, status)
        self.client.expire(self._k("results"), JOB_TTL)
        return bool(recorded)

    def lease_key(self, number: int) -> str:
        return self._k(f"lease:{number}")

    def outcome(self, number: int) -> dict[str, Any] | None:
        found = self.client.hget(self._k("results"), number)
        return json.loads(found) if found is not None else None

    def summary(self, workers_alive: bool = True) -> QueuedJob:
        """The job's rows by status. A row marked running whose lease has lapsed (its worker died) counts as
        queued, whether other workers are alive or not: nobody runs it, and it waits for its task's redelivery."""
        info = {k.decode(): v.decode() for k, v in self.client.hgetall(self.key).items()}
        by_row = self.statuses()
        running = [n for n, s in by_row.items() if s == "running"]
        pipe = self.client.pipeline()
        for number in running:
            pipe.exists(self.lease_key(number))
        by_row |= {n: "queued" for n, leased in zip(running, pipe.execute()) if not leased}
        statuses = list(by_row.values())
        workers = sorted({p.get("worker", "") for p in self.progress().values()} - {""})
        return QueuedJob(id=self.id, source=info.get("source", ""), queued_at=datetime.fromisoformat(info["queued_at"]), kind=info.get("kind", "gather"),
                         total=int(info.get("total", len(statuses))), workers=workers, no_worker=not workers_alive,
                         **{s: statuses.count(s) for s in ("queued", "running", "ok", "failed")})


# --- enqueue, follow, list -------------------------------------------------------------------------------------


def connect(url: str) -> Redis:
    """A Redis client of the broker, checked with a PING: QueueUnavailableError in one line when it cannot be used."""
    try:
        import redis
    except ImportError:
        raise QueueUnavailableError(f"the task queue needs Celery and Redis's client: {INSTALL}") from None
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=5, socket_timeout=30)
    except ValueError as err:  # not a broker URL ("http://x", "redis:/x"): the user's input, not the broker's state
        raise BadInputError(f"not a Redis URL: {where(url)} ({' '.join(str(err).split())[:160]})") from None
    try:
        client.ping()
    except (redis.RedisError, ValueError, OSError) as err:
        raise QueueUnavailableError(f"cannot reach the task queue at {where(url)}: {' '.join(str(err).split())[:160]}") from None
    return client


def where(url: str) -> str:
    """A broker URL without its credentials, for messages."""
    scheme, _, rest = url.partition("://")
    return f"{scheme}://{rest.rsplit('@', 1)[-1]}" if rest else url


def enqueue_gather(settings: Settings, url: str, rows: Sequence[CompanyRow], *, source: str, full: bool = False) -> str:
    """Queue one task per row that can be gathered (the others are recorded failed at once, as a local run
    fails them before fetching anything); returns the job's id."""
    client = connect(url)
    job_id = uuid.uuid4().hex[:12]
    board = JobBoard(client, job_id)
    options = GatherOptions.of(settings, full)
    board.create(source, rows, options)
    to_gather, failed = plan_rows(settings, rows)
    for result in failed:  # failed before any worker: whether a knowledge base was kept is the workers' to say, not this machine's
        board.finish(result.model_copy(update={"reason": short_reason(result.error or "", result.sources), "raw_dir": ""}))
    app = celery_app(url, settings)
    with app.producer_or_acquire() as producer:
        for row in to_gather:
            app.send_task(TASK, args=[job_id, asdict(row), options.model_dump()], queue=QUEUE, producer=producer)
    return job_id


def enqueue_enrich(settings: Settings, url: str, request: Any, *, fresh: bool = False, batch: int = ENRICH_BATCH) -> tuple[str, int]:
    """Create the enrichment job (queued, its table and columns checked) and queue one task per ``batch`` rows;
    (its id, the table's rows). The broker is checked first, so an unreachable one leaves no job."""
    import asyncio

    from cikb.app.jobs import queue_job

    client = connect(url)
    app = celery_app(url, settings)
    job_id, rows = asyncio.run(queue_job(settings, request))
    batches = [range(start, min(start + batch, rows)) for start in range(0, rows, batch)]
    queued_at = datetime.now(timezone.utc)
    board = JobBoard(client, job_id)
    pipe = client.pipeline()
    pipe.hset(board.key, mapping={"source": request.csv_path, "total": len(batches), "queued_at": queued_at.isoformat(), "kind": "enrich",
                                  "rows": rows})
    if batches:
        pipe.hset(board._k("status"), mapping={n: "queued" for n in range(1, len(batches) + 1)})
    for key in (board.key, board._k("status")):
        pipe.expire(key, JOB_TTL)
    pipe.zadd(JOBS_KEY, {job_id: queued_at.timestamp()})
    pipe.execute()
    with app.producer_or_acquire() as producer:
        for number, rows_of in enumerate(batches, start=1):
            app.send_task(ENRICH_TASK, args=[job_id, number, rows_of.start, rows_of.stop, fresh], queue=QUEUE, producer=producer)
    if not batches:  # an empty table: nothing for the workers, the (empty) proposals now
        from cikb.app.jobs import JobStore

        with JobStore(settings.data_dir) as jobs:
            jobs.complete(job_id)
    return job_id, rows


def follow_enrich(settings: Settings, url: str, job_id: str, on_progress: Callable[[int, int], None] | None = None,
                  poll: float = 0.3, on_notice: Callable[[str], None] | None = None) -> Any:
    """Follow a queued enrichment until its proposals are written (``on_progress(cells done, cells)`` meanwhile);
    the job. CikbError with the worker's reason when a batch failed. ``on_notice(line)``: once when no
    worker is alive on the broker (the follow goes on waiting), once more when one is again."""
    from cikb.app.jobs import JobStore

    board = JobBoard(connect(url), job_id)
    watch = WorkerWatch(board.client, url, on_notice)
    with JobStore(settings.data_dir) as jobs, _lost_broker(url, job_id):
        while True:
            job = jobs.get(job_id)
            if on_progress is not None:
                on_progress(job.done, job.total)
            if job.status == "done":
                return job
            if job.status == "failed" or "failed" in board.statuses().values():
                failed = next((board.outcome(n) for n, s in sorted(board.statuses().items()) if s == "failed"), None)
                raise CikbError(f"job {job_id} failed on a worker: {(failed or {}).get('error') or job.error or 'no reason recorded'}")
            watch.check()
            time.sleep(poll)


def follow(url: str, job_id: str, on_event: OnBatchEvent | None = None, poll: float = 0.3,
           on_notice: Callable[[str], None] | None = None) -> list[CompanyResult]:
    """Report the job's rows as BatchEvents (started, pages fetched, finished) until every row is finished;
    their results in row order. ``on_notice(line)``: once when no worker is alive on the broker (the
    follow goes on waiting: one may start), once more when one is again."""
    board = JobBoard(connect(url), job_id)
    if not board.exists():
        raise CikbError(f"no job {job_id!r} on the queue at {where(url)} (see `cikb jobs --queue URL`)")
    emit = on_event or (lambda event: None)
    rows = board.rows()
    shown: dict[int, int] = {}  # row -> pages reported so far (-1: finished)
    results: dict[int, CompanyResult] = {}
    watch = WorkerWatch(board.client, url, on_notice)
    with _lost_broker(url, job_id):
        while len(results) < len(rows):
            statuses = board.statuses()
            for number, result in board.results([n for n, s in statuses.items() if s in ("ok", "failed") and n not in results]).items():
                results[number] = result
                emit(BatchEvent(rows[number], "finished", result=result))
            for number, state in board.progress([n for n, s in statuses.items() if s == "running"]).items():
                _show_progress(rows[number], state, shown, emit)
            if len(results) < len(rows):
                watch.check()
                time.sleep(poll)
    return [results[n] for n in sorted(results)]


@contextmanager
def _lost_broker(url: str, job_id: str) -> Iterator[None]:
    """A follow whose broker went away ends in one QueueUnavailableError line (a traceback before): the job
    itself is in Redis, and its workers go on once Redis is back."""
    import redis

    try:
        yield
    except (redis.ConnectionError, redis.TimeoutError) as err:
        raise QueueUnavailableError(f"lost the task queue at {where(url)} while following job {job_id} "
                                    f"({' '.join(str(err).split())[:120]}); see `cikb jobs --queue URL` once it is back") from None


def _show_progress(row: CompanyRow, state: dict[str, Any], shown: dict[int, int], emit: OnBatchEvent) -> None:
    if row.number not in shown:
        emit(BatchEvent(row, "started"))
        shown[row.number] = 0
    pages = int(state.get("pages", 0))
    for _ in range(pages - shown[row.number]):
        crawl = CrawlEvent(kind="page_fetched", source_index=0, source_type="website", url=state.get("note") or None)
        emit(BatchEvent(row, "progress", event=GatherEvent(stage="crawl", crawl=crawl)))
    if pages == shown[row.number] and state.get("note"):
        emit(BatchEvent(row, "progress", event=GatherEvent(stage="store" if state.get("stage") == "store" else "clean", message=state["note"])))
    shown[row.number] = pages


def list_jobs(url: str, limit: int = 20) -> QueueListing:
    """The workers alive on the broker and the queue's newest jobs first (those whose record has expired
    are dropped from the list)."""
    client = connect(url)
    alive = alive_workers(client)
    jobs = []
    for raw_id in client.zrevrange(JOBS_KEY, 0, limit - 1):
        board = JobBoard(client, raw_id.decode())
        if board.exists():
            jobs.append(board.summary(workers_alive=bool(alive)))
        else:
            client.zrem(JOBS_KEY, raw_id)
    return QueueListing(workers_alive=alive, jobs=jobs)


# --- the worker ------------------------------------------------------------------------------------------------


def celery_app(url: str, settings: Settings) -> Celery:
    """The Celery app of cikb's queue on the broker at ``url``: late acknowledgement, one task reserved at a time."""
    try:
        from celery import Celery
    except ImportError:
        raise QueueUnavailableError(f"the task queue needs Celery: {INSTALL}") from None
    visibility = settings.queue.visibility_timeout
    app = Celery("cikb", broker=url, set_as_current=False)
    app.conf.update(
        task_acks_late=True,  # acknowledged when the row's outcome is recorded, after its commit
        task_acks_on_failure_or_timeout=False,  # a task that failed to record its outcome is delivered again, not dropped
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,  # a worker reserves only what it runs: the others take the rest
        task_default_queue=QUEUE,
        task_serializer="json",
        accept_content=["json"],
        task_ignore_result=True,  # outcomes live in the job's record (JobBoard), readable from any machine
        broker_connection_retry_on_startup=True,
        broker_transport_options=transport_options(visibility),
        worker_hijack_root_logger=False,
        worker_redirect_stdouts=False,
        worker_send_task_events=False,
    )
    # max_retries=None on the task: a task waiting for its company's lock or its row's lease is tried again until
    # it can run (retry's own max_retries=None means the task's default, which Celery sets to 3: then it was dropped).
    app.task(name=TASK, bind=True, max_retries=None)(_gather_task)
    app.task(name=ENRICH_TASK, bind=True, max_retries=None)(_enrich_task)
    return app


def transport_options(visibility: float) -> dict[str, float]:
    """Kombu's Redis options: how long a task waits unacknowledged before it is delivered again, and how soon.

    Every worker looks for such tasks every tenth of the timeout (10 s at most, Kombu's own interval),
    one worker at a time through a mutex in Redis. Kombu keeps that mutex 300 s when its holder dies
    while looking (SIGKILL, a lost machine), and no worker delivers a dead worker's task again in the
    meantime: a killed worker's company then waited five minutes (a follow looked hung). Here it
    lapses after one interval. Two workers looking at once restore nothing twice (each task is taken
    out of the unacknowledged set in a transaction), so a short mutex costs at most a repeated look.
    """
    interval = max(1.0, min(10.0, visibility / 10))
    return {"visibility_timeout": visibility, "unacked_restore_interval": interval, "unacked_restore_throttle": 1,
            "unacked_mutex_expire": interval}


def retry_after(settings: Settings) -> float:
    """Seconds before a task whose row or company is held elsewhere is tried again. A task waiting for its
    moment stays unacknowledged, so it must come due well inside the visibility timeout: a longer wait
    had Redis deliver it again meanwhile, and each copy waited and was copied again."""
    return min(LOCKED_RETRY, settings.queue.visibility_timeout / 3)


@dataclass
class _Worker:
    """What the tasks of this worker process share: its settings, its name, the broker and one loaded model."""

    settings: Settings
    name: str
    board_client: Redis
    _embedder: DenseEmbedder | None = None

    def __post_init__(self) -> None:
        self._lock = threading.Lock()

    def embedder(self) -> DenseEmbedder:
        from cikb.embed import load_embedder

        with self._lock:
            if self._embedder is None:
                self._embedder = load_embedder(self.settings.embed)
            return self._embedder


_worker: _Worker | None = None


def run_worker(settings: Settings, url: str, *, name: str | None = None, concurrency: int | None = None,
               on_ready: Callable[[str], None] | None = None) -> int:
    """`cikb worker`: take gather tasks from the queue at ``url`` until stopped (SIGTERM or Ctrl-C finish the
    running gathers first); the exit code. The configured model is loaded before the first task is taken."""
    global _worker
    client = connect(url)
    settings = settings.model_copy(deep=True)
    settings.gather.politeness_url = url  # every crawl of every worker takes its turn per domain through the broker
    name = name or f"cikb-{os.getpid()}@{socket.gethostname()}"
    with WorkerHeartbeat(client, name, heartbeat_seconds(settings)):  # alive from here, loading its model included
        _worker = _Worker(settings, name, client)
        _worker.embedder()
        app = celery_app(url, settings)
        from celery.signals import worker_ready

        worker_ready.connect(lambda **_: _stop_at_once_on_a_second_interrupt(), weak=False)
        if on_ready is not None:
            worker_ready.connect(lambda **_: on_ready(name), weak=False)
        worker = app.Worker(hostname=name, pool_cls="threads", concurrency=concurrency or settings.queue.concurrency, loglevel="WARNING",
                            quiet=True, without_gossip=True, without_mingle=True, without_heartbeat=True, queues=[QUEUE])
        worker.start()
    return worker.exitcode or 0


def _stop_at_once_on_a_second_interrupt() -> None:
    """Ctrl-C stops the worker after its running tasks (Celery's warm shutdown); a second Ctrl-C stops it now.

    Celery's own second Ctrl-C is a cold shutdown that cancels the running tasks, which its thread pool
    cannot do: it printed tracebacks and the worker ran on. Stopping now is what a killed worker does,
    which the queue is made for: each unfinished task is delivered again after the visibility timeout.
    """
    import signal

    warm = signal.getsignal(signal.SIGINT)
    if not callable(warm):
        return
    interrupted = threading.Event()

    def on_interrupt(signum: int, frame: Any) -> None:
        if interrupted.is_set():
            os.write(2, b"worker: stopped at once; its unfinished tasks are delivered again after [queue] visibility_timeout\n")
            os._exit(130)
        interrupted.set()
        os.write(2, b"worker: stopping after the running tasks (Ctrl-C again to stop at once)\n")
        from celery.worker import state

        state.should_stop = 0  # Celery's warm shutdown, as its own first Ctrl-C asks (without its promise to cancel tasks)

    signal.signal(signal.SIGINT, on_interrupt)


def _gather_task(task: Any, job_id: str, row_data: dict, options_data: dict) -> str:
    """One row: skipped when its outcome is recorded, recorded from the store when its commit happened, else gathered."""
    worker = _worker
    if worker is None:  # a process that is not `cikb worker` was given the task
        raise RuntimeError("cikb gather tasks run in `cikb worker` processes")
    board = JobBoard(worker.board_client, job_id)
    row = CompanyRow(**row_data)
    if not board.exists():  # its record expired (JOB_TTL) or was deleted: nobody follows it, and failing would deliver it again forever
        return "no such job"
    if board.finished(row.number):
        return "already recorded"
    options = GatherOptions.model_validate(options_data)
    with RowLease(board, row.number, worker.name, lease_seconds(worker.settings)) as leased:
        if not leased:  # another worker, on any machine, is gathering this row (its gather outlasted the visibility timeout)
            raise task.retry(countdown=retry_after(worker.settings))
        committed = committed_since(worker.settings, row, board.progress([row.number]).get(row.number))
        if committed is not None:
            board.finish(committed)
            return "already committed"
        started = board.start(row.number, worker.name)
        try:
            result = gather_row(options.apply(worker.settings), row, _reporter(board, row.number, worker.name, started), full=options.full,
                                embedder=worker.embedder, reraise=(LockedError,))
        except LockedError:  # another gather of this company is running here (a local gather, or another job's)
            raise task.retry(countdown=retry_after(worker.settings)) from None
        _until_reachable(lambda: board.finish(result), worker.settings.queue.visibility_timeout)
        return result.status


def _enrich_task(task: Any, job_id: str, number: int, start: int, stop: int, fresh: bool) -> str:
    """One batch of an enrichment's rows: skipped when recorded, else run (cells recorded before skipped), then recorded."""
    import asyncio

    from cikb.app.jobs import JobStore, run_job_rows

    worker = _worker
    if worker is None:
        raise RuntimeError("cikb enrich tasks run in `cikb worker` processes")
    board = JobBoard(worker.board_client, job_id)
    if not board.exists():
        return "no such job"
    if board.finished(number):
        return "already recorded"
    with RowLease(board, number, worker.name, lease_seconds(worker.settings)) as leased:
        if not leased:  # another worker runs this batch (it outlasted the visibility timeout)
            raise task.retry(countdown=retry_after(worker.settings))
        board.start(number, worker.name)
        try:
            asyncio.run(run_job_rows(worker.settings, job_id, range(start, stop), fresh=fresh))
        except CikbError as err:  # bad input (the table changed, no such job here): failed, not delivered again forever
            error = " ".join(str(err).split())
            with JobStore(worker.settings.data_dir) as jobs:
                if not jobs.has(job_id):  # "no job 'x' (see `cikb jobs`)" read as if the submitter's job were gone
                    error = (f"worker {worker.name}'s data directory {worker.settings.data_dir} holds no job {job_id}: a queued "
                             "enrichment runs on workers that share the data directory of the machine that queued it")
                jobs.finish(job_id, "failed", error=error)  # changes nothing where this data directory has no such job
            _until_reachable(lambda: board.record(number, json.dumps({"rows": [start, stop], "error": error}), "failed"),
                             worker.settings.queue.visibility_timeout)
            return "failed"
        _until_reachable(lambda: board.record(number, json.dumps({"rows": [start, stop]}), "ok"), worker.settings.queue.visibility_timeout)
        return "ok"


def _until_reachable(record: Callable[[], object], seconds: float) -> None:
    """A row's outcome written to the broker, tried again each second while the broker cannot be reached (a
    restart), for ``seconds`` at most. A task that fails is rejected, and a rejected task is dropped, not
    delivered again: its company stayed "running" for ever."""
    import redis

    deadline = time.monotonic() + seconds
    while True:
        try:
            record()
            return
        except (redis.ConnectionError, redis.TimeoutError):
            if time.monotonic() >= deadline:
                raise
            time.sleep(1.0)


def lease_seconds(settings: Settings) -> float:
    """How long a row's lease outlives its worker: short beside the visibility timeout, so a dead worker's row
    is free by the time its task is delivered again (a live worker renews it every third of this)."""
    return max(2.0, min(60.0, settings.queue.visibility_timeout / 2))


class RenewedKey:
    """A key in Redis that lives while this process holds it: set with a time to live, renewed by a daemon
    thread every third of it, deleted on exit; gone within the time to live when the process dies.

    ``exclusive``: taken only when no other process holds it (``with ... as held``: False when another
    does), and renewed only while it is still this holder's; otherwise set, and set again at each
    renewal (so a key that lapsed during a stall, or a broker that lost it, has it back).
    """

    RENEW = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0"
    RELEASE = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0"

    def __init__(self, client: Redis, key: str, holder: str, seconds: float, *, exclusive: bool = True) -> None:
        self.client, self.key, self.exclusive = client, key, exclusive
        self.holder, self.ms = f"{holder}:{uuid.uuid4().hex[:8]}", int(seconds * 1000)
        self._stop = threading.Event()
        self._renewer: threading.Thread | None = None

    def __enter__(self) -> bool:
        if not self.client.set(self.key, self.holder, nx=self.exclusive, px=self.ms):
            return False
        self._renewer = threading.Thread(target=self._renew, name=f"cikb-renew {self.key}", daemon=True)
        self._renewer.start()
        return True

    def _renew(self) -> None:
        while not self._stop.wait(self.ms / 3000):
            try:
                if self.exclusive:
                    self.client.eval(self.RENEW, 1, self.key, self.holder, self.ms)
                else:
                    self.client.set(self.key, self.holder, px=self.ms)
            except Exception:  # noqa: BLE001  (a broker hiccup: the next renewal tries again; the key lasts three periods)
                pass

    def __exit__(self, *exc: object) -> None:
        if self._renewer is None:
            return
        self._stop.set()
        self._renewer.join()
        self.client.eval(self.RELEASE, 1, self.key, self.holder)


class RowLease(RenewedKey):
    """A row held by one worker while it gathers it, in Redis, renewed by a thread while held.

    Redis delivers a task again when its worker has not acknowledged it within the visibility
    timeout, whether the worker died or is still gathering; the lease tells the two apart, so
    no two workers on any machines gather one row at once. ``with RowLease(...) as leased``:
    ``leased`` is False when another worker holds it.
    """

    def __init__(self, board: JobBoard, number: int, holder: str, seconds: float) -> None:
        super().__init__(board.client, board.lease_key(number), holder, seconds)


def heartbeat_seconds(settings: Settings) -> float:
    """How long a worker's heartbeat outlives it: a few seconds, so a follower hears soon that no worker is
    left, and never longer than a row's lease, so a row whose lease lapsed has no live heartbeat of its
    worker either (``cikb jobs`` then shows it waiting for a worker)."""
    return min(HEARTBEAT, lease_seconds(settings))


class WorkerHeartbeat(RenewedKey):
    """``cikb:workers:<name>`` while the worker runs (from before its model loads): what followers and
    ``cikb jobs`` count as a worker alive on the broker."""

    def __init__(self, client: Redis, name: str, seconds: float) -> None:
        super().__init__(client, WORKERS_KEY + name, name, seconds, exclusive=False)


def alive_workers(client: Redis) -> list[str]:
    """The names of the workers whose heartbeat is in Redis, sorted."""
    return sorted(key.decode()[len(WORKERS_KEY):] for key in client.scan_iter(match=WORKERS_KEY + "*", count=1000))


class WorkerWatch:
    """Tells a follower once that no worker is alive on the broker (no heartbeat for ``grace`` seconds of
    following, on top of the heartbeat's own time to live), and once more when one is again."""

    def __init__(self, client: Redis, url: str, on_notice: Callable[[str], None] | None, grace: float = HEARTBEAT) -> None:
        self.client, self.url, self.grace = client, url, grace
        self.notice = on_notice or (lambda line: None)
        self.missing_since: float | None = None
        self.told = False
        self._next_look = 0.0

    def check(self) -> None:
        now = time.monotonic()
        if now < self._next_look:
            return  # a look scans the broker's keys: once a third of a heartbeat, not at every poll of the follow
        self._next_look = now + HEARTBEAT / 3
        alive = alive_workers(self.client)
        if alive:
            self.missing_since = None
            if self.told:
                self.told = False
                self.notice(f"worker {alive[0]} is running on {where(self.url)}" + (f" (and {len(alive) - 1} more)" if len(alive) > 1 else "")
                            + ": the job goes on")
            return
        if self.missing_since is None:
            self.missing_since = now
        if not self.told and now - self.missing_since >= self.grace:
            self.told = True
            self.notice(no_worker_line(self.url))


def no_worker_line(url: str) -> str:
    return (f"warning: no worker is running on {where(url)}: start one with \"cikb worker --queue {where(url)}\"; "
            "still waiting (Ctrl-C stops waiting, the job stays queued)")


def _reporter(board: JobBoard, number: int, worker: str, started: str) -> OnBatchEvent:
    """Writes a running row's pages fetched and current step to the job's record (what `follow` shows)."""
    pages = 0

    def report(event: BatchEvent) -> None:
        nonlocal pages
        gathered = event.event
        if event.kind != "progress" or gathered is None:
            return
        if gathered.crawl is not None:
            if gathered.crawl.kind != "page_fetched":
                return
            pages += 1
            _shown(lambda: board.report(number, worker=worker, started=started, pages=pages, note=gathered.crawl.url or ""))
        elif gathered.stage == "store" or gathered.message:
            _shown(lambda: board.report(number, worker=worker, started=started, pages=pages,
                                        note=f"{gathered.stage} {gathered.message}".strip(), stage=gathered.stage))

    return report


def _shown(report: Callable[[], None]) -> None:
    """Progress is for the eye: a broker that cannot be reached for a moment must not fail the gather under way."""
    import redis

    try:
        report()
    except (redis.ConnectionError, redis.TimeoutError):
        pass


def committed_since(settings: Settings, row: CompanyRow, progress: dict[str, Any] | None) -> CompanyResult | None:
    """The row's outcome when its last worker reached its commit (``progress``: its last report, at the store stage)
    and the company's current generation here was gathered since that worker started the row: the worker
    committed and died before recording it. None otherwise. Both times are that worker's clock (the
    manifest's gather time is taken at its start), so machines whose clocks disagree do not matter."""
    if not progress or progress.get("stage") != "store" or not progress.get("started"):
        return None
    since = datetime.fromisoformat(progress["started"])
    try:
        company = company_from_name(row.name)
    except CikbError:
        return None
    folder = CompanyDir(settings.data_dir, company.slug)
    manifest = folder.manifest()
    gathered = manifest.get("gathered_at")
    if not gathered or datetime.fromisoformat(gathered) < since:
        return None
    return CompanyResult(
        company=company, sources=[SourceSummary.model_validate(s) for s in manifest.get("sources") or []],
        documents=int(manifest.get("documents", 0)), chunks=int(manifest.get("chunks", 0)), raw_dir=str(folder.raw_link),
        started_at=datetime.fromisoformat(gathered), row=row.number, status="ok",
    )


__all__ = ["GatherOptions", "JobBoard", "QueueListing", "QueueUnavailableError", "QueuedJob", "RenewedKey", "RowLease", "WorkerHeartbeat", "WorkerWatch",
           "alive_workers", "celery_app", "committed_since", "connect", "enqueue_enrich", "enqueue_gather", "follow", "follow_enrich",
           "heartbeat_seconds", "list_jobs", "no_worker_line", "retry_after", "run_worker", "transport_options", "where"]
