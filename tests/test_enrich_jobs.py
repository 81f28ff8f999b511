"""Enrichment jobs in SQLite: a SIGKILLed run keeps every finished row, and resume completes it exactly."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from child_env import python_path
from enrich_support import run_cli

from cikb.app.jobs import ColumnRequest, JobRequest, JobStore
from cikb.enrich import load_proposal

ROWS = 400

PLUGIN = textwrap.dedent('''
    import asyncio
    import os
    from pathlib import Path

    from cikb.enrich import RowStrategy, answer_step, register_strategy


    class Tally(RowStrategy):
        """A row takes 20 ms; each run of a row leaves a marker naming the process that ran it."""

        name = "tally"
        display_name = "Tally"

        def validate_params(self, params, ctx):
            pass

        async def execute_one(self, row, params, ctx):
            Path(params["question"], f"{os.getpid()}-{row.row_id}").touch()
            await asyncio.sleep(0.02)
            yield answer_step(f"value {row.row_id}", "high" if row.row_id % 3 else "medium", answered_by="compute")


    register_strategy(Tally())
''')


@pytest.fixture
def plugin_env(tmp_path: Path) -> dict[str, str]:
    (tmp_path / "tallyplugin.py").write_text(PLUGIN, encoding="utf-8")
    config = tmp_path / "cikb.toml"
    config.write_text("", encoding="utf-8")
    return {**os.environ, "PYTHONPATH": python_path(tmp_path), "CIKB_ENRICH__PLUGINS": '["tallyplugin"]',
            "CIKB_ENRICH__CONCURRENCY": '{"tally": 4}', "CIKB_CONFIG": str(config)}


def _table(tmp_path: Path) -> Path:
    table = tmp_path / "many.csv"
    table.write_text("Company\n" + "".join(f"Company {i}\n" for i in range(ROWS)), encoding="utf-8")
    return table


def _cikb(env: dict[str, str], data: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cikb", "--data-dir", str(data), *args], env=env,
                          capture_output=True, text=True, timeout=120)


def _comparable(path: Path) -> dict:
    """A proposal without what differs between two runs of the same job (when, which process)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    data.pop("created_at")
    return data


@pytest.mark.slow
def test_a_sigkilled_job_keeps_its_finished_rows_and_resume_completes_it(tmp_path: Path, plugin_env: dict[str, str]) -> None:
    table = _table(tmp_path)
    markers = tmp_path / "markers"
    markers.mkdir()
    data = tmp_path / "data"
    killed_out = tmp_path / "killed.proposal.json"
    process = subprocess.Popen(
        [sys.executable, "-m", "cikb", "--data-dir", str(data), "enrich", str(table), "--column", "V",
         "--strategy", "tally", "--question", str(markers), "--out", str(killed_out)],
        env=plugin_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    seen: dict[int, str] = {}
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and process.poll() is None:
            if (data / "_jobs.sqlite").exists():
                with JobStore(data) as jobs:
                    listed = jobs.list()
                    if listed and listed[0].done >= 100:
                        seen = {log.row_id: log.value for log in jobs.logs(listed[0].id, "V")}
                        break
            time.sleep(0.01)
        process.send_signal(signal.SIGKILL)
        process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == -signal.SIGKILL
    assert len(seen) >= 100, "the run finished or stalled before it could be killed"
    assert not killed_out.exists()  # killed: no proposal was written, only the job's rows hold the work

    listed = json.loads(_cikb(plugin_env, data, "jobs", "--json").stdout)
    assert len(listed) == 1 and listed[0]["status"] == "interrupted" and listed[0]["total"] == ROWS
    job_id = listed[0]["id"]
    with JobStore(data) as jobs:
        survived = {log.row_id: log.value for log in jobs.logs(job_id, "V")}
    assert len(survived) == listed[0]["done"] < ROWS
    assert seen.items() <= survived.items()  # every row finished before the kill is still there, unchanged
    assert all(value == f"value {row}" for row, value in survived.items())

    resumed = _cikb(plugin_env, data, "enrich", "--resume", job_id)
    assert resumed.returncode == 0, resumed.stderr
    assert f"job {job_id} resumed" in resumed.stderr and f"found {ROWS} of {ROWS} rows" in resumed.stderr
    pids = {p.name.split("-")[0] for p in markers.iterdir()} - {str(process.pid)}
    assert len(pids) == 1
    resume_pid = pids.pop()
    rerun = {int(p.name.split("-")[1]) for p in markers.iterdir() if p.name.startswith(f"{resume_pid}-")}
    assert rerun == set(range(ROWS)) - set(survived)  # only the unfinished rows ran again

    done = json.loads(_cikb(plugin_env, data, "jobs", "--json").stdout)[0]
    assert (done["status"], done["done"], done["total"]) == ("done", ROWS, ROWS)
    again = _cikb(plugin_env, data, "enrich", "--resume", job_id)
    assert again.returncode == 2 and "is done" in again.stderr

    whole_out = tmp_path / "whole.proposal.json"
    whole = _cikb(plugin_env, tmp_path / "other-data", "enrich", str(table), "--column", "V", "--strategy", "tally",
                  "--question", str(markers), "--out", str(whole_out))
    assert whole.returncode == 0, whole.stderr
    assert _comparable(killed_out) == _comparable(whole_out)


def test_jobs_list_and_show_with_attempts(monkeypatch, capsys, tmp_path: Path) -> None:
    config = tmp_path / "cikb.toml"
    config.write_text("", encoding="utf-8")
    monkeypatch.setenv("CIKB_CONFIG", str(config))
    prices = tmp_path / "prices.csv"
    prices.write_text("Company,Price,Quantity\nAcme,2.5,4\nBeta,10,x\n", encoding="utf-8")
    data = str(tmp_path / "data")
    code, _, err = run_cli(monkeypatch, capsys, "--data-dir", data, "enrich", str(prices), "--column", "Total",
                           "--strategy", "computation", "--formula", "{Price} * {Quantity}", "--type", "number")
    assert code == 0, err
    job_id = err.split("job ", 1)[1].split()[0]
    code, out, _ = run_cli(monkeypatch, capsys, "--data-dir", data, "jobs", "--json")
    jobs = json.loads(out)
    assert code == 0 and [(j["id"], j["status"], j["done"], j["total"], j["found"]) for j in jobs] == [(job_id, "done", 2, 2, 1)]
    code, out, _ = run_cli(monkeypatch, capsys, "--data-dir", data, "jobs", "show", job_id, "--json")
    shown = json.loads(out)
    assert [(a["row_id"], a["attempt"], a["status"], a["value"]) for a in shown["attempts"]] == [(0, 1, "found", "10"), (1, 1, "not_found", None)]
    code, out, _ = run_cli(monkeypatch, capsys, "--data-dir", data, "jobs", "show", job_id)
    assert code == 0 and "2/2 cells done" in out and "Acme" in out
    code, _, err = run_cli(monkeypatch, capsys, "--data-dir", data, "jobs", "show", "0000")
    assert code == 2 and "no job '0000'" in err


def test_resume_refuses_a_table_that_changed(tmp_path: Path) -> None:
    import asyncio

    from cikb.app.jobs import run_job
    from cikb.core.config import Settings
    from cikb.core.errors import BadInputError

    settings = Settings(data_dir=tmp_path / "data")
    table = tmp_path / "t.csv"
    table.write_text("Company,A\nAcme,1\nBeta,2\n", encoding="utf-8")
    request = JobRequest(csv_path=str(table), columns=[ColumnRequest(name="B", strategy="computation", formula="{A} + 1",
                                                                     column_type="number", proposal_path=str(tmp_path / "t.proposal.json"))])
    with JobStore(settings.data_dir) as jobs:
        job_id = jobs.create(request)
        jobs.finish(job_id, "failed", error="simulated")
    job, [head] = asyncio.run(run_job(settings, resume=job_id))
    proposal = load_proposal(tmp_path / "t.proposal.json")
    assert job.status == "done" and head.reasoning == proposal.reasoning and head.operations == []
    assert [op.changes for op in proposal.operations] == [{"B": "2"}, {"B": "3"}]
    with JobStore(settings.data_dir) as jobs:
        jobs.finish(job_id, "failed")
    table.write_text("Company,A\nAcme,5\nBeta,2\n", encoding="utf-8")
    with pytest.raises(BadInputError, match="changed since job"):
        asyncio.run(run_job(settings, resume=job_id))


def test_a_cell_reached_through_an_error_counts_as_one_and_is_never_reused(tmp_path: Path) -> None:
    """An LLM that failed left the cell not found: the job said "0 errors", and a later job took that "not found"
    as the cell's answer (no LLM call) once the endpoint was back."""
    from cikb.enrich.models import RowLog, RowStep

    table = tmp_path / "t.csv"
    table.write_text("Company\nAcme\n", encoding="utf-8")
    request = JobRequest(csv_path=str(table), columns=[ColumnRequest(name="City", question="Where is {Company}?",
                                                                     proposal_path=str(tmp_path / "t.proposal.json"))])
    failed = RowLog(row_id=0, label="Acme", status="not_found", strategy="lookup",
                    steps=[RowStep(type="error", detail="LLM failed: answered HTTP 500")])
    answered = RowLog(row_id=0, label="Acme", status="not_found", strategy="lookup", steps=[RowStep(type="thinking", detail="nothing")])
    with JobStore(tmp_path / "data") as jobs:
        first, second = jobs.create(request), jobs.create(request)
        jobs.record(first, failed, "City", cell_key="acme/where")
        assert jobs.get(first).errors == 1
        assert jobs.earlier_answer("acme/where", second) is None
        jobs.record(first, answered, "City", cell_key="acme/where")  # recorded again (a resume): the error is gone
        assert jobs.get(first).errors == 0
        assert jobs.earlier_answer("acme/where", second) is not None
