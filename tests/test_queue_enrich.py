"""Enrichment on the workers of a task queue (issue 27): `cikb enrich ... --queue URL [--wait]`, each cell recorded once.

Started as in tests/test_queue.py: Debian's redis-server on a loopback port and `cikb worker`
processes sharing the test's data directory (its jobs database and knowledge base).
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from test_queue import REPO, Workers, cikb, queue_url, redis_server, workers  # noqa: F401  (fixtures)

from cikb.app.sample_site import serve_sample_site

QUESTION = "What year was {Company} founded?"

SLOW = textwrap.dedent('''
    import asyncio
    import os
    from pathlib import Path

    from cikb.enrich import RowStrategy, answer_step, register_strategy


    class Slow(RowStrategy):
        """The row's label upper-cased, after 0.3 s; each run of a row leaves a file named after it and the process."""

        name = "slow"
        display_name = "Slow echo"

        def validate_params(self, params, ctx):
            pass

        async def execute_one(self, row, params, ctx):
            await asyncio.sleep(0.3)
            (Path(params["question"]) / f"row-{row.row_id}-{os.getpid()}").touch()
            yield answer_step(row.label.upper(), "high", answered_by="kb")


    register_strategy(Slow())
''')


def attempts(data_dir: Path, job_id: str) -> list[tuple[int, int]]:
    """(row, final) of every attempt the job's SQLite holds."""
    with sqlite3.connect(data_dir / "_jobs.sqlite") as db:
        return sorted(db.execute("SELECT row_id, final FROM attempts WHERE job_id=?", (job_id,)).fetchall())


def cells(proposal: dict) -> list[tuple]:
    return [(r["row_id"], r["label"], r["status"], r["value"], r["confidence"]) for r in proposal["research_log"]]


def test_two_workers_enrich_a_table_as_a_local_run_does_each_row_recorded_once(
    workers: Workers, queue_url: str, tmp_path: Path, isolated_env: Path  # noqa: F811
) -> None:
    with serve_sample_site() as site:
        gathered = cikb("gather", "Acme Corp", "--website", f"{site}/", "--delay", "0")
    assert gathered.returncode == 0, gathered.stderr
    table = tmp_path / "rows.csv"
    names = ["Acme Corp", "Acme Corp.", "Globex", "acme corp", "Acme Corp", "Initech", "Acme Corp", "ACME CORP", "Umbrella", "Acme Corp"]
    table.write_text("Company\n" + "".join(f"{name}\n" for name in names), encoding="utf-8")
    workers.start(2)

    queued = cikb("enrich", str(table), "--column", "Founded", "--question", QUESTION, "--queue", queue_url, "--wait", "--batch", "3",
                  "--out", str(tmp_path / "queued.json"), "--json")
    local = cikb("enrich", str(table), "--column", "Founded", "--question", QUESTION, "--fresh", "--out", str(tmp_path / "local.json"),
                 "--json")
    listed = json.loads(cikb("jobs", "--queue", queue_url, "--json").stdout)

    assert queued.returncode == 0, queued.stderr
    assert local.returncode == 0, local.stderr
    here, there = json.loads(queued.stdout), json.loads(local.stdout)
    assert cells(here) == cells(there)
    assert here["operations"] == there["operations"] and here["target"] == there["target"]
    assert [c[3] for c in cells(here)].count("2011") >= 5  # Acme's rows found, from the knowledge base the workers read
    assert here["embedding_model"] == there["embedding_model"] is not None

    [job] = listed["queued"]
    assert (job["kind"], job["status"], job["total"], job["ok"], job["failed"]) == ("enrich", "done", 4, 4, 0)
    assert set(job["workers"]) <= {"w0", "w1"}
    stored = {j["id"]: j for j in listed["enrichment"]}[job["id"]]
    assert (stored["status"], stored["done"], stored["total"]) == ("done", 10, 10)
    assert attempts(isolated_env, job["id"]) == [(row, 1) for row in range(10)]  # each row once


def test_a_worker_killed_mid_batch_still_gives_every_row_once(
    workers: Workers, queue_url: str, tmp_path: Path, isolated_env: Path  # noqa: F811
) -> None:
    import redis

    from cikb.app.queue import JobBoard, follow_enrich
    from cikb.core.config import load_settings

    (tmp_path / "slowplugin.py").write_text(SLOW, encoding="utf-8")
    runs = tmp_path / "runs"
    runs.mkdir()
    env = {"PYTHONPATH": str(tmp_path), "CIKB_ENRICH__PLUGINS": '["slowplugin"]', "CIKB_ENRICH__CONCURRENCY": '{"slow": 1}'}
    os.environ.update(env)  # the enqueuing command checks the strategy too (isolated_env restores CIKB_*; PYTHONPATH is the test's own)
    try:
        workers.start(2, CIKB_QUEUE__VISIBILITY_TIMEOUT="3", **env)
        table = tmp_path / "rows.csv"
        table.write_text("Company\n" + "".join(f"Company {i}\n" for i in range(16)), encoding="utf-8")
        queued = cikb("enrich", str(table), "--column", "Echo", "--strategy", "slow", "--question", str(runs), "--queue", queue_url,
                      "--batch", "8")
        assert queued.returncode == 0, queued.stderr
        job_id = queued.stdout.strip()
        board = JobBoard(redis.Redis.from_url(queue_url), job_id)

        deadline = time.monotonic() + 60
        while len(attempts(isolated_env, job_id)) < 3:  # a few rows recorded, both batches running
            assert time.monotonic() < deadline
            time.sleep(0.05)
        victim = board.progress([1])[1]["worker"]
        workers.kill(victim)
        recorded_at_kill = {row for row, _ in attempts(isolated_env, job_id)}
        job = follow_enrich(load_settings(), queue_url, job_id)
    finally:
        for key in env:
            os.environ.pop(key, None)

    assert (job.status, job.done, job.total) == ("done", 16, 16)
    assert attempts(isolated_env, job_id) == [(row, 1) for row in range(16)]  # every row once
    ran = [path.name.split("-") for path in runs.iterdir()]
    for row in recorded_at_kill:  # recorded before the kill: not run again by the batch's redelivery
        assert sum(1 for _, r, _ in ran if int(r) == row) == 1, (row, ran)
    assert board.progress([1])[1]["worker"] != victim  # batch 1 finished by the other worker
    proposal = json.loads(Path(job.proposals[0]).read_text())
    assert [(r["row_id"], r["value"]) for r in proposal["research_log"]] == [(i, f"COMPANY {i}") for i in range(16)]


def test_a_worker_on_another_data_directory_says_so(workers: Workers, queue_url: str, tmp_path: Path) -> None:  # noqa: F811
    table = tmp_path / "rows.csv"
    table.write_text("Company,Price,Quantity\nA,3,4\nB,5,6\n", encoding="utf-8")
    elsewhere = tmp_path / "other-machine"
    workers.start(1, CIKB_DATA_DIR=str(elsewhere))
    queued = cikb("enrich", str(table), "--column", "Total", "--strategy", "computation", "--formula", "{Price} * {Quantity}",
                  "--queue", queue_url, "--wait")
    assert queued.returncode != 0
    assert f"worker w0's data directory {elsewhere} holds no job" in queued.stderr, queued.stderr  # "no job 'x' (see `cikb jobs`)" before
