"""Gathers on the workers of a task queue (issue 27): `cikb worker`, `gather --from-csv FILE --queue URL`, `cikb jobs --queue`.

Started as a user would: Debian's redis-server on a loopback port (no Docker), `cikb worker`
processes and loopback company sites (tests/company_sites.py), some sharing a domain. The
servers' own logs say how often each page was asked for and how far apart.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import datetime
from pathlib import Path

import numpy as np
import pytest
from child_env import sigint_as_in_a_terminal
from company_sites import PAGES, serve_companies
from sites import TOLERANCE, gaps

from cikb.app.batch import BatchEvent, CompanyRow, gather_many
from cikb.app.models import GatherEvent
from cikb.app.indexing import load_index
from cikb.app.workspace import CompanyDir
from cikb.core.config import Settings, load_settings
from cikb.core.slug import company_from_name
from cikb.store import open_store

REPO = Path(__file__).resolve().parents[1]
DELAY = 0.3


def cikb(*args: str, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cikb", *args], cwd=REPO, capture_output=True, text=True, timeout=timeout)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def running_redis(folder: Path) -> Iterator[str]:
    """Debian's redis-server on a loopback port, nothing saved; its base URL while it runs."""
    if shutil.which("redis-server") is None:
        pytest.fail("redis-server not found: install it with `sudo apt-get install -y redis-server` (scripts/setup.sh test does, as root)")
    port = free_port()
    server = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", str(folder)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"redis://127.0.0.1:{port}"
    import redis

    deadline = time.monotonic() + 10
    while True:
        try:
            redis.Redis.from_url(url).ping()
            break
        except redis.ConnectionError:
            assert time.monotonic() < deadline and server.poll() is None, "redis-server did not start"
            time.sleep(0.05)
    try:
        yield url
    finally:
        server.terminate()
        server.wait(10)


@pytest.fixture(scope="module")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_redis(tmp_path_factory.mktemp("redis")) as url:
        yield url


@pytest.fixture
def queue_url(redis_server: str) -> str:
    """An empty database of the test's Redis."""
    import redis

    url = f"{redis_server}/0"
    redis.Redis.from_url(url).flushdb()
    return url


class Workers:
    """`cikb worker` processes, each in its own process group (its crawler children with it)."""

    def __init__(self, url: str, log_dir: Path) -> None:
        self.url, self.log_dir = url, log_dir
        self.procs: dict[str, subprocess.Popen[str]] = {}

    def start(self, count: int, **env: str) -> None:
        names = [f"w{len(self.procs) + n}" for n in range(count)]
        for name in names:
            log = open(self.log_dir / f"{name}.log", "w")
            self.procs[name] = subprocess.Popen([sys.executable, "-m", "cikb", "worker", "--queue", self.url, "--name", name], cwd=REPO,
                                                env={**os.environ, **env}, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 90
        while not all("ready" in self.log(name) for name in names):
            dead = [name for name in names if self.procs[name].poll() is not None]
            assert not dead and time.monotonic() < deadline, "\n".join(self.log(name) for name in names)
            time.sleep(0.1)

    def log(self, name: str) -> str:
        return (self.log_dir / f"{name}.log").read_text()

    def kill(self, name: str) -> None:
        os.killpg(self.procs[name].pid, signal.SIGKILL)
        self.procs[name].wait(10)

    def stop(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in self.procs.values():
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(10)


@pytest.fixture
def workers(queue_url: str, tmp_path: Path) -> Iterator[Workers]:
    pool = Workers(queue_url, tmp_path)
    yield pool
    pool.stop()


def snapshot(settings: Settings, slug: str) -> dict:
    """Raw files (scraped_at aside), chunk ids and the company's points with their vectors."""
    company = CompanyDir(settings.data_dir, slug)
    files = {p.name: "\n".join(line for line in p.read_text().splitlines() if not line.startswith("scraped_at: "))
             for p in sorted(company.raw_link.glob("*.md"))}
    ids = [c.id for c in load_index(company.current()).chunks]
    with open_store(settings) as store:
        points = {p.chunk.id: (np.asarray(p.dense), p.sparse.model_dump(), p.chunk.text) for p in store.points(ids)}
        count = store.count(slug)
    return {"files": files, "ids": ids, "points": points, "count": count}


def test_three_workers_gather_every_company_once_politely_and_as_a_local_run(
    workers: Workers, queue_url: str, tmp_path: Path, isolated_env: Path
) -> None:
    with serve_companies(4, first_host=70) as sites:
        extra = [
            ("Sister Co", sites[0].url + "about/"),  # shares 127.0.0.70 with Testco 00: the two are taken at once by two workers
            ("Twin Co", sites[1].url + "team/"),  # shares 127.0.0.71 with Testco 01
            ("No Source Co", ""),  # failed when queued, as a local run fails it before fetching anything
        ]
        csv_path = tmp_path / "companies.csv"
        rows = [(sites[0].name, sites[0].url), extra[0], (sites[1].name, sites[1].url), extra[1], *[(s.name, s.url) for s in sites[2:]], extra[2]]
        csv_path.write_text("Company,Website\n" + "".join(f"{name},{url}\n" for name, url in rows), encoding="utf-8")
        workers.start(3)
        result = cikb("gather", "--from-csv", str(csv_path), "--queue", queue_url, "--wait", "--delay", str(DELAY), "--json")
        logs = [list(site.server.log) for site in sites]  # before the local run below asks again
        jobs = json.loads(cikb("jobs", "--queue", queue_url, "--json").stdout)

        # The same files, chunk ids and vectors as a local --from-csv run (two companies, into another data directory).
        local = load_settings(data_dir=tmp_path / "local")
        local.gather.download_delay = DELAY
        local_results = gather_many(local, [CompanyRow(1, sites[2].name, {"website": sites[2].url}), CompanyRow(2, sites[3].name, {"website": sites[3].url})])
    assert [r.status for r in local_results] == ["ok", "ok"]

    # Every company once, failures named as a local run names them.
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert [line for line in result.stderr.splitlines() if line.startswith("error:")] == ["error: 1 of 7 companies failed (row 7)"]
    results = json.loads(result.stdout)
    assert [(r["row"], r["status"]) for r in results] == [(n, "ok") for n in range(1, 7)] + [(7, "failed")]
    assert "no source" in results[6]["error"]
    listed = {c["slug"]: c for c in json.loads(cikb("companies", "--json").stdout)}
    assert set(listed) == {r["company"]["slug"] for r in results[:6]}
    assert all(listed[r["company"]["slug"]]["chunks"] == r["chunks"] > 0 for r in results[:6])

    # From the servers' side: each page asked for once per company on the host, robots.txt once per host,
    # never faster than the delay across workers: the shared hosts were crawled by two workers at the same
    # time (their requests interleaved), so only the turns taken in Redis kept them apart.
    for log, companies in zip(logs, (2, 2, 1, 1)):
        paths = [entry.path for entry in log]
        assert all(paths.count(path) == companies for path in PAGES), paths
        assert paths.count("/robots.txt") == 1
        assert min(gaps([entry.time for entry in log])) >= DELAY - TOLERANCE, gaps([entry.time for entry in log])
    spans = {r["row"]: (datetime.fromisoformat(r["started_at"]).timestamp(), r["seconds"]) for r in results[:6]}
    for first, second, log in ((1, 2, logs[0]), (3, 4, logs[1])):
        paths = [entry.path for entry in log]
        (start_a, seconds_a), (start_b, seconds_b) = spans[first], spans[second]
        if start_a < start_b + seconds_b and start_b < start_a + seconds_a:  # gathered at once: the crawls took turns
            first_half = paths[: len(paths) // 2]
            assert len(set(first_half)) < len(first_half), paths  # one after the other, the first half would be one crawl's
    assert spans[1][0] < spans[2][0] + spans[2][1] and spans[2][0] < spans[1][0] + spans[1][1]  # rows 1 and 2: the first taken, at once

    # `cikb jobs --queue`: the job, done, gathered by more than one worker.
    [job] = jobs["queued"]
    assert (job["status"], job["total"], job["ok"], job["failed"], job["queued"], job["running"]) == ("done", 7, 6, 1, 0, 0)
    assert len(job["workers"]) >= 2 and set(job["workers"]) <= {"w0", "w1", "w2"}
    assert jobs["enrichment"] == []

    queued = Settings(data_dir=isolated_env)
    for site in sites[2:]:
        slug = company_from_name(site.name).slug
        here, there = snapshot(queued, slug), snapshot(local, slug)
        assert (here["files"], here["ids"], here["count"]) == (there["files"], there["ids"], there["count"])
        for chunk_id, (dense, sparse, text) in there["points"].items():
            assert np.allclose(here["points"][chunk_id][0], dense, atol=1e-6)
            assert (here["points"][chunk_id][1], here["points"][chunk_id][2]) == (sparse, text)


def follow_within(seconds: float, url: str, job_id: str) -> list:
    """The job's results by :func:`cikb.app.queue.follow`, which must end within ``seconds`` (a failure, not a hang)."""
    import threading

    import redis

    from cikb.app.queue import JobBoard, follow

    ended: list = []
    following = threading.Thread(target=lambda: ended.append(follow(url, job_id, poll=0.2)), daemon=True)
    following.start()
    following.join(seconds)
    board = JobBoard(redis.Redis.from_url(url), job_id)
    assert ended, f"the follow did not end in {seconds} s: {board.statuses()} {board.progress()}"
    return ended[0]


def test_a_worker_killed_mid_gather_has_its_company_gathered_by_another_and_a_redelivery_does_nothing(
    workers: Workers, queue_url: str, tmp_path: Path, isolated_env: Path
) -> None:
    import redis

    from kombu.transport.redis import Channel

    from cikb.app.queue import TASK, JobBoard, celery_app

    KOMBU_MUTEX_EXPIRE = Channel.unacked_mutex_expire  # noqa: N806  (Kombu's own: 300 s)
    client = redis.Redis.from_url(queue_url)
    with serve_companies(3, first_host=80) as sites:
        workers.start(2, CIKB_QUEUE__VISIBILITY_TIMEOUT="8")  # a gather here takes 3-5 s: none is delivered twice while it runs
        csv_path = tmp_path / "companies.csv"
        csv_path.write_text("Company,Website\n" + "".join(f"{site.name},{site.url}\n" for site in sites), encoding="utf-8")
        queued = cikb("gather", "--from-csv", str(csv_path), "--queue", queue_url, "--delay", "0.5", "--max-pages", "2")
        assert queued.returncode == 0, queued.stderr
        job_id = queued.stdout.strip()
        board = JobBoard(client, job_id)

        deadline = time.monotonic() + 60
        while not (crawling := [(n, p["worker"]) for n, p in board.progress().items() if p.get("pages", 0) >= 1 and not board.finished(n)]):
            assert time.monotonic() < deadline, board.progress()
            time.sleep(0.05)
        row, victim = crawling[0]
        # Killed, as may happen, while it held Kombu's mutex for looking for unacknowledged tasks (every
        # worker looks each second): the mutex stays for as long as the victim's configuration keeps it.
        victim_settings = load_settings()
        victim_settings.queue.visibility_timeout = 8
        held = celery_app(queue_url, victim_settings).conf.broker_transport_options
        client.set("unacked_mutex", "the victim's token", px=int(held.get("unacked_mutex_expire", KOMBU_MUTEX_EXPIRE) * 1000))
        workers.kill(victim)  # SIGKILL, crawler child with it, before its commit
        requests_at_kill = len(sites[row - 1].server.log)
        results = follow_within(90, queue_url, job_id)  # the kill test's slowest pass under load: 30 s
        logs = [list(site.server.log) for site in sites]

        # Nothing lost, nothing twice: every company gathered, the killed one again by the other worker.
        assert [(r.row, r.status) for r in results] == [(1, "ok"), (2, "ok"), (3, "ok")], [r.error for r in results]
        assert board.progress()[row]["worker"] != victim
        assert [entry.path for entry in logs[row - 1]].count("/") == 2 and requests_at_kill < len(logs[row - 1])
        settings = Settings(data_dir=isolated_env)
        with open_store(settings) as store:
            assert {slug: store.count(slug) for slug in store.companies()} == {r.company.slug: r.chunks for r in results}
        generation = CompanyDir(settings.data_dir, results[row - 1].company.slug).current().id

        # A task delivered again finds its row recorded and does nothing; one whose row lost its record (its worker
        # died between the commit and the record) records the committed gather without crawling again.
        row_data = {"number": row, "name": results[row - 1].company.name, "sources": {"website": sites[row - 1].url}}
        options = {"download_delay": 0.5, "max_pages_per_source": 2, "max_age": 0.0, "full": False}
        client.hdel(f"cikb:job:{job_id}:results", row % 3 + 1)
        app = celery_app(queue_url, settings)
        app.send_task(TASK, args=[job_id, row_data, options], queue="cikb")
        other = {"number": row % 3 + 1, "name": sites[row % 3].name, "sources": {"website": sites[row % 3].url}}
        app.send_task(TASK, args=[job_id, other, options], queue="cikb")
        deadline = time.monotonic() + 30
        while client.llen("cikb") or client.zcard("unacked_index") or not board.finished(row % 3 + 1):
            assert time.monotonic() < deadline
            time.sleep(0.1)
        assert [len(site.server.log) for site in sites] == [len(log) for log in logs]
        assert CompanyDir(settings.data_dir, results[row - 1].company.slug).current().id == generation
        recorded = board.results([row % 3 + 1])[row % 3 + 1]
        assert (recorded.status, recorded.chunks, recorded.company) == ("ok", results[row % 3].chunks, results[row % 3].company)


@pytest.mark.parametrize("command", [["worker", "--queue", "redis://127.0.0.1:9/0"],
                                     ["gather", "--from-csv", "companies.csv", "--queue", "redis://127.0.0.1:9/0"]])
def test_without_the_queue_extra_the_queue_commands_say_how_to_install_it(command: list[str], tmp_path: Path) -> None:
    (tmp_path / "companies.csv").write_text("Company,Website\nAcme,http://127.0.0.1:9/\n", encoding="utf-8")
    code = ("import sys\nsys.modules['celery'] = sys.modules['redis'] = None  # as if not installed\n"
            f"sys.argv = ['cikb', *{command!r}]\nfrom cikb.cli import main\nmain()\n")
    result = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert result.returncode == 4, result.stderr
    assert result.stderr.strip().splitlines() == ["error: the task queue needs Celery and Redis's client: pip install 'cikb[queue]'"]


def test_an_unreachable_broker_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "companies.csv").write_text("Company,Website\nAcme,http://127.0.0.1:9/\n", encoding="utf-8")
    result = cikb("gather", "--from-csv", str(tmp_path / "companies.csv"), "--queue", f"redis://:secret@127.0.0.1:{free_port()}/0")
    assert result.returncode == 4
    [line] = result.stderr.strip().splitlines()
    assert line.startswith("error: cannot reach the task queue at redis://127.0.0.1:") and "secret" not in line


def test_a_url_that_is_no_redis_url_is_bad_input_not_an_unreachable_broker() -> None:
    # It was "cannot reach the task queue" (exit 4, as for a broker that is down): the user's input is wrong.
    result = cikb("jobs", "--queue", "http://user:secret@127.0.0.1:9/")
    assert result.returncode == 2
    [line] = result.stderr.strip().splitlines()
    assert line.startswith("error: not a Redis URL: http://127.0.0.1:9/") and "secret" not in line


def test_queue_and_wait_go_with_from_csv() -> None:
    result = cikb("gather", "Acme", "--website", "http://127.0.0.1:9/", "--queue", "redis://127.0.0.1:9/0")
    assert (result.returncode, result.stderr.strip()) == (2, "error: --queue and --wait go with --from-csv FILE")


def test_a_task_delivered_again_while_its_gather_runs_on_another_machine_waits_for_it(
    workers: Workers, queue_url: str, tmp_path: Path
) -> None:
    """Two workers with data directories of their own, as on two machines (no shared company lock): the visibility
    timeout (2 s) is shorter than the gather, so Redis hands the task to the second worker while the first gathers;
    the row's lease sends it back to the queue instead of gathering the company a second time."""
    import redis

    from cikb.app.queue import JobBoard, follow

    client = redis.Redis.from_url(queue_url)
    with serve_companies(1, first_host=90) as [site]:
        workers.start(1, CIKB_QUEUE__VISIBILITY_TIMEOUT="2", CIKB_DATA_DIR=str(tmp_path / "machine-a"))
        csv_path = tmp_path / "companies.csv"
        csv_path.write_text(f"Company,Website\n{site.name},{site.url}\n", encoding="utf-8")
        queued = cikb("gather", "--from-csv", str(csv_path), "--queue", queue_url, "--delay", "0.5")
        job_id = queued.stdout.strip()
        while not JobBoard(client, job_id).progress([1]):
            time.sleep(0.05)
        workers.start(1, CIKB_QUEUE__VISIBILITY_TIMEOUT="2", CIKB_DATA_DIR=str(tmp_path / "machine-b"))
        [result] = follow(queue_url, job_id)
        deadline = time.monotonic() + 30
        while client.llen("cikb") or client.zcard("unacked_index"):  # every copy of the task taken and acknowledged
            assert time.monotonic() < deadline
            time.sleep(0.1)
        paths = [entry.path for entry in site.server.log]
    assert result.status == "ok"
    assert paths.count("/") == 1, paths
    slug = company_from_name(site.name).slug
    assert [CompanyDir(tmp_path / machine, slug).exists() for machine in ("machine-a", "machine-b")] == [True, False]


def test_a_task_waits_for_its_companys_lock_as_long_as_it_is_held(workers: Workers, queue_url: str, tmp_path: Path, isolated_env: Path) -> None:
    """A gather of the company holds its lock (here the test does) for many retry intervals: the queued task is
    tried again until the lock is free, then gathered; Celery's default of 3 retries dropped it for good."""
    import redis

    from cikb.app.queue import JobBoard

    client = redis.Redis.from_url(queue_url)
    with serve_companies(1, first_host=96) as [site]:
        workers.start(1, CIKB_QUEUE__VISIBILITY_TIMEOUT="3")  # a retry each second
        csv_path = tmp_path / "companies.csv"
        csv_path.write_text(f"Company,Website\n{site.name},{site.url}\n", encoding="utf-8")
        with CompanyDir(isolated_env, company_from_name(site.name).slug).lock():
            job_id = cikb("gather", "--from-csv", str(csv_path), "--queue", queue_url, "--delay", "0.05").stdout.strip()
            time.sleep(7)  # six retries and more
            assert JobBoard(client, job_id).statuses() != {1: "ok"}
        deadline = time.monotonic() + 90
        while JobBoard(client, job_id).statuses().get(1) not in ("ok", "failed"):
            assert time.monotonic() < deadline, workers.log("w0")
            time.sleep(0.2)
    assert JobBoard(client, job_id).statuses() == {1: "ok"}, workers.log("w0")


def test_a_broker_restart_mid_gather_loses_no_outcome() -> None:
    """Redis restarting while a worker gathers: its progress is skipped and its outcome written once Redis is back
    (the error failed the task, and Celery drops a failed task for good: the row stayed "running")."""
    import redis

    from cikb.app.queue import _reporter, _until_reachable

    class Restarting:
        def __init__(self, failures: int) -> None:
            self.failures, self.recorded = failures, 0

        def report(self, number: int, **progress: object) -> None:
            raise redis.ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

        def finish(self) -> None:
            if self.failures:
                self.failures -= 1
                raise redis.ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
            self.recorded += 1

    board = Restarting(failures=2)
    event = BatchEvent(CompanyRow(1, "Acme", {}), "progress", event=GatherEvent(stage="store", message="writing"))
    _reporter(board, 1, "w0", "2026-12-05T00:00:00+00:00")(event)  # type: ignore[arg-type]  # no exception: progress is skipped
    _until_reachable(board.finish, 10)
    assert (board.failures, board.recorded) == (0, 1)
    with pytest.raises(redis.ConnectionError):  # down longer than the bound (the visibility timeout): the task fails
        _until_reachable(Restarting(failures=99).finish, 1.5)


def test_a_follow_whose_broker_goes_away_is_one_line(tmp_path: Path) -> None:
    import redis

    from cikb.app.queue import QueueUnavailableError, enqueue_gather, follow

    with running_redis(tmp_path) as url:
        job_id = enqueue_gather(load_settings(), f"{url}/0", [CompanyRow(1, "Acme", {"website": "http://127.0.0.1:9/"})], source="t.csv")
        failures: list[BaseException] = []

        def follow_it() -> None:
            try:
                follow(f"{url}/0", job_id, poll=0.05)
            except BaseException as err:  # noqa: BLE001 - what the follow ended with is the test's finding
                failures.append(err)

        thread = threading.Thread(target=follow_it, daemon=True)
        thread.start()
        time.sleep(0.5)
        redis.Redis.from_url(url).shutdown(nosave=True)
        thread.join(30)
    assert not thread.is_alive()
    assert len(failures) == 1 and isinstance(failures[0], QueueUnavailableError), failures  # a redis ConnectionError before
    assert f"while following job {job_id}" in str(failures[0]) and "cikb jobs --queue URL" in str(failures[0])


def test_a_row_whose_worker_died_is_queued_while_other_workers_live(queue_url: str) -> None:
    import redis

    from cikb.app.queue import GatherOptions, JobBoard, RowLease

    board = JobBoard(redis.Redis.from_url(queue_url), "j1")
    board.create("t.csv", [CompanyRow(1, "Acme", {"website": "http://a.example/"}), CompanyRow(2, "Globex", {"website": "http://g.example/"})],
                 GatherOptions.of(load_settings()))
    board.start(1, "w-gone")  # its worker died: running, no lease
    with RowLease(board, 2, "w-alive", 30):
        board.start(2, "w-alive")
        job = board.summary(workers_alive=True)
    assert (job.queued, job.running) == (1, 1)  # it said 2 running for an hour (the visibility timeout)


def test_jobs_json_keeps_its_shape_when_the_configured_queue_cannot_be_reached(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CIKB_QUEUE__URL", f"redis://127.0.0.1:{free_port()}/0")  # nothing listens there
    result = cikb("jobs", "--json")
    assert result.returncode == 0 and "warning:" in result.stderr, result.stderr
    assert json.loads(result.stdout) == {"queued": None, "enrichment": [], "workers_alive": None}  # a plain list before


def test_a_second_ctrl_c_stops_a_worker_at_once_and_its_task_is_gathered_again(workers: Workers, queue_url: str, tmp_path: Path) -> None:
    """Celery's second Ctrl-C is a cold shutdown its thread pool cannot do (tracebacks, and the worker ran on):
    here it stops the worker at once, as a kill does, and another worker gathers the company."""
    from cikb.app.queue import follow

    with serve_companies(1, first_host=97) as [site]:
        workers.start(1, CIKB_QUEUE__VISIBILITY_TIMEOUT="3")
        csv_path = tmp_path / "companies.csv"
        csv_path.write_text(f"Company,Website\n{site.name},{site.url}\n", encoding="utf-8")
        job_id = cikb("gather", "--from-csv", str(csv_path), "--queue", queue_url, "--delay", "1").stdout.strip()
        deadline = time.monotonic() + 60
        while len(site.server.log) < 2:  # its gather under way
            assert time.monotonic() < deadline, workers.log("w0")
            time.sleep(0.1)
        worker = workers.procs["w0"]
        worker.send_signal(signal.SIGINT)
        # The second Ctrl-C once the first is taken, as a user presses it after the worker's answer: two signals
        # that arrive before the process runs its handler are one (CPython keeps one flag per signal).
        while "Ctrl-C again to stop at once" not in workers.log("w0"):
            assert time.monotonic() < deadline, workers.log("w0")
            time.sleep(0.1)
        worker.send_signal(signal.SIGINT)
        assert worker.wait(10) == 130
        log = workers.log("w0")
        assert "Traceback" not in log and "stopped at once" in log, log
        workers.start(1, CIKB_QUEUE__VISIBILITY_TIMEOUT="3")
        [result] = follow(queue_url, job_id)
    assert result.status == "ok"


def test_a_row_failed_when_queued_says_nothing_of_this_machines_knowledge_base(queue_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import redis

    from cikb.app.queue import JobBoard, enqueue_gather

    monkeypatch.setattr(CompanyDir, "exists", lambda self: True)  # the queuing machine has gathered the company; the workers may not have
    job_id = enqueue_gather(load_settings(), queue_url, [CompanyRow(1, "Gamma Corp", {"website": "htp:/x"})], source="t.csv")
    outcome = JobBoard(redis.Redis.from_url(queue_url), job_id).outcome(1)
    assert outcome is not None and outcome["status"] == "failed" and "scheme" in outcome["reason"], outcome
    assert "kept" not in outcome["reason"] and outcome["raw_dir"] == ""


def test_wait_without_queue_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "companies.csv").write_text("Company,Website\nAcme,http://127.0.0.1:9/\n", encoding="utf-8")
    result = cikb("gather", "--from-csv", str(tmp_path / "companies.csv"), "--wait")
    assert (result.returncode, result.stderr.strip()) == (2, "error: --wait follows the companies queued with --queue URL: a run without --queue is followed anyway")


def test_a_crawl_waits_for_its_slow_answer_before_its_next_turn_on_the_domain(queue_url: str, tmp_path: Path) -> None:
    """Two gathers sharing one host through the shared turns (data directories of their own, as on two machines):
    a news feed whose articles answer slower than the delay, fetched several at a time (one per domain in
    flight), and a quick website. Turns booked for articles still waiting behind a slow one went out late,
    right before the website's next (0.1 s apart for a 0.3 s delay); now an article takes its turn once the
    one before it is answered."""
    from sites import Reply, SiteServer, _rss, page, paragraphs

    def text(path: str) -> str:
        return paragraphs(f"The page at {path} is written for the customers of Newsco and Quickco who ask about it.",
                          f"Both companies have answered questions about {path} since they opened their offices in the harbour.")

    articles, pages = [f"/news/{n}.html" for n in range(3)], [f"/quick/{n}/" for n in range(3)]
    routes = {"/quick/": page("Quickco", text("/quick/"), links=pages)} | {path: page(f"Page {path}", text(path)) for path in pages}
    routes |= {path: replace(page(f"Article {path}", text(path)), delay=0.8) for path in articles}
    env = {**os.environ, "CIKB_GATHER__POLITENESS_URL": queue_url}
    with SiteServer(routes, host="127.0.0.95") as site:
        site.routes["/feed.xml"] = Reply(body=_rss(site.url, articles), content_type="application/rss+xml")
        sources = {"Newsco": ["--news", f"{site.url}/feed.xml"], "Quickco": ["--website", f"{site.url}/quick/"]}
        gathers = [subprocess.Popen([sys.executable, "-m", "cikb", "gather", name, *source, "--delay", str(DELAY)], cwd=REPO,
                                    env={**env, "CIKB_DATA_DIR": str(tmp_path / name)}, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
                   for name, source in sources.items()]
        errors = [gather.communicate(timeout=120)[1] for gather in gathers]
        log = list(site.log)
    assert [gather.returncode for gather in gathers] == [0, 0], errors
    paths, spacing = [entry.path for entry in log], gaps([entry.time for entry in log])
    assert set(site.routes) <= set(paths), paths
    assert min(spacing) >= DELAY - TOLERANCE, list(zip(paths[1:], spacing))


class Lines:
    """A process's stderr, line by line as it comes (a reader thread), for waiting on a line."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        import threading

        self.lines: list[str] = []
        self._reader = threading.Thread(target=lambda: self.lines.extend(proc.stderr or []), daemon=True)
        self._reader.start()

    def finish(self) -> list[str]:
        """Every line, once the process has closed its stderr."""
        self._reader.join(30)
        return [line.rstrip("\n") for line in self.lines]

    def wait_for(self, start: str, seconds: float) -> None:
        """Until a line starting with ``start`` was read (an assertion after ``seconds``)."""
        deadline = time.monotonic() + seconds
        while not any(line.startswith(start) for line in self.lines):
            assert time.monotonic() < deadline, f"no line {start!r} in {seconds} s: {self.lines}"
            time.sleep(0.05)


def test_a_follow_with_no_worker_alive_says_so_once_and_ends_when_one_starts(workers: Workers, queue_url: str, tmp_path: Path) -> None:
    """`gather --queue --wait` with no worker: one line saying so within a few seconds, the wait going on; `cikb jobs`
    shows the job waiting for a worker (a row whose worker died, its lease lapsed, too) and no worker alive. A worker
    started then is announced once, gathers both companies, and the follow ends as a local run does."""
    import redis

    from cikb.app.queue import HEARTBEAT, JobBoard, alive_workers, no_worker_line

    client = redis.Redis.from_url(queue_url)
    with serve_companies(2, first_host=100) as sites:
        csv_path = tmp_path / "companies.csv"
        csv_path.write_text("Company,Website\n" + "".join(f"{site.name},{site.url}\n" for site in sites), encoding="utf-8")
        following = subprocess.Popen([sys.executable, "-m", "cikb", "gather", "--from-csv", str(csv_path), "--queue", queue_url, "--wait",
                                      "--delay", "0.05", "--max-pages", "2"], cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            stderr = Lines(following)
            stderr.wait_for("job ", 60)
            stderr.wait_for("warning: no worker is running", 3 * HEARTBEAT)
            job_id = next(line for line in stderr.lines if line.startswith("job ")).split()[1].rstrip(":")
            JobBoard(client, job_id).start(1, "w-gone")  # as a worker that died mid-gather leaves its row: running, its lease lapsed

            listing = subprocess.run([sys.executable, "-m", "cikb", "jobs", "--queue", queue_url], cwd=REPO, capture_output=True, text=True,
                                     timeout=60, env={**os.environ, "COLUMNS": "300"})
            assert f"1 queued job(s) on {queue_url}; no worker alive: start one with `cikb worker --queue {queue_url}`" in listing.stdout
            [row] = [line for line in listing.stdout.splitlines() if job_id in line]
            cells = [cell.strip() for cell in row.split("│")[1:-1]]
            assert cells[:8] == [job_id, "gather", "queued (no worker)", "2", "2", "0", "0", "0"], cells
            assert following.poll() is None  # still waiting

            workers.start(1)
            stderr.wait_for("worker w0 is running on", 3 * HEARTBEAT)
            following.wait(120)
            out = following.stdout.read()  # type: ignore[union-attr]
        finally:
            following.kill()
    lines = stderr.finish()
    assert following.returncode == 0, lines
    assert [line for line in lines if "worker" in line] == [no_worker_line(queue_url), f"worker w0 is running on {queue_url}: the job goes on"]
    assert sum(line.startswith("ok ") for line in lines) == 2 and "gathered 2 of 2 companies" in out

    jobs = json.loads(cikb("jobs", "--queue", queue_url, "--json").stdout)
    assert jobs["workers_alive"] == ["w0"]
    assert [(job["status"], job["ok"], job["no_worker"]) for job in jobs["queued"]] == [("done", 2, False)]
    workers.stop()  # SIGTERM: a clean stop takes the heartbeat with it, not left to lapse
    assert alive_workers(client) == []


def test_an_enrichment_followed_with_no_worker_alive_says_so_and_ctrl_c_leaves_it_queued(queue_url: str, tmp_path: Path, isolated_env: Path) -> None:
    """`enrich --queue --wait` with no worker: the same line; a heartbeat (as a starting worker keeps) is announced once;
    Ctrl-C stops the following, and the job stays queued for the workers to come."""
    import redis

    from cikb.app.jobs import JobStore
    from cikb.app.queue import HEARTBEAT, QUEUE, JobBoard, WorkerHeartbeat, no_worker_line

    client = redis.Redis.from_url(queue_url)
    csv_path = tmp_path / "companies.csv"
    csv_path.write_text("Company,Website\nAcme,http://127.0.0.1:9/\n", encoding="utf-8")
    following = subprocess.Popen([sys.executable, "-m", "cikb", "enrich", str(csv_path), "--column", "Founded", "--question", "What year was {Company} founded?",
                                  "--queue", queue_url, "--wait"], cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                  preexec_fn=sigint_as_in_a_terminal)
    try:
        stderr = Lines(following)
        stderr.wait_for("warning: no worker is running", 60)
        with WorkerHeartbeat(client, "w-here", HEARTBEAT):
            stderr.wait_for("worker w-here is running on", 3 * HEARTBEAT)
        following.send_signal(signal.SIGINT)
        following.wait(30)
    finally:
        following.kill()
    lines = stderr.finish()
    assert following.returncode == 130, lines
    assert [line for line in lines if "worker" in line] == [no_worker_line(queue_url), f"worker w-here is running on {queue_url}: the job goes on"]
    job_id = next(line for line in lines if line.startswith("job ")).split()[1]
    assert JobBoard(client, job_id).statuses() == {1: "queued"} and client.llen(QUEUE) == 1
    with JobStore(isolated_env) as jobs:
        assert jobs.get(job_id).status == "queued"
