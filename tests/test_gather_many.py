"""`cikb gather --from-csv`: many companies in one command (issue 11, item 4).

The end-to-end test serves 30 small company sites on 127.0.0.2 ... 127.0.0.31 and checks,
from the servers' side, that every domain's requests stay ``download_delay`` apart (across
companies too: a second company shares one site), that at most ``max_parallel_companies``
companies crawl at once and more than one does, and that the whole run beats the politeness
floor of gathering them one after another.
"""

from __future__ import annotations

import json
import math
import os
import re
import signal
import subprocess
import sys
import threading
import time
from datetime import datetime, timezone
from pathlib import Path

import pytest
from _store_corpus import model
from child_env import sigint_as_in_a_terminal
from company_sites import PAGES, companies_csv, serve_companies
from sites import TOLERANCE, gaps

from cikb.app import batch
from cikb.app.batch import CompanyRow, gather_many, read_company_rows
from cikb.app.models import GatherSummary
from cikb.core.config import Settings
from cikb.core.errors import BadInputError, GatherFailedError, LockedError
from cikb.core.slug import company_from_name
from cikb.store import open_store

REPO = Path(__file__).resolve().parents[1]
COMPANIES = 30
DELAY = 0.3
PARALLEL = 4


def cikb(*args: str, cwd: Path = REPO, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cikb", *args], cwd=cwd, capture_output=True, text=True, timeout=timeout)


def error_lines(result: subprocess.CompletedProcess[str]) -> list[str]:
    return [line for line in result.stderr.splitlines() if line.startswith("error:")]


def max_overlap(spans: list[tuple[float, float]]) -> int:
    """The most spans open at one moment."""
    edges = sorted([(start, 1) for start, _ in spans] + [(end, -1) for _, end in spans])
    open_now = most = 0
    for _, step in edges:
        open_now += step
        most = max(most, open_now)
    return most


@pytest.mark.slow
def test_thirty_companies_from_a_csv_gather_in_parallel_politely_and_name_the_failures(
    tmp_path: Path, isolated_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CIKB_GATHER__MAX_PARALLEL_COMPANIES", str(PARALLEL))
    with serve_companies(COMPANIES) as sites:
        extra = [
            ("Sister Co", sites[0].url + "about/"),  # shares a domain with Testco 00: never crawled at the same time
            ("Unreachable Co", "http://127.0.0.1:9/"),
            ("Bad Url Co", "http://acme.example:port/"),
            ("No Source Co", ""),
        ]
        csv_path = tmp_path / "companies.csv"
        csv_path.write_text(companies_csv(sites, extra), encoding="utf-8")
        started = time.monotonic()
        result = cikb("gather", "--from-csv", str(csv_path), "--delay", str(DELAY), "--json")
        total = time.monotonic() - started
        logs = [site.server.log for site in sites]

    # Keeps going past the failures, and names them (and only them) in one error line.
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    [error] = error_lines(result)
    assert error == "error: 3 of 34 companies failed (rows 32, 33, 34)"  # names and reasons are in the table (or --json), once

    # --json: one object per row, in row order, with a single gather's fields plus row and status.
    results = json.loads(result.stdout)
    assert [r["row"] for r in results] == list(range(1, 35))
    assert {tuple(sorted(r)) for r in results} == {tuple(sorted(set(GatherSummary.model_fields) | {"row", "status", "reason"}))}
    assert [r["status"] for r in results] == ["ok"] * 31 + ["failed"] * 3
    assert all(r["ok"] and r["error"] is None and r["reason"] is None and r["documents"] >= len(PAGES) for r in results[:31])
    unreachable, bad_url, no_source = results[31:]
    assert "nothing gathered" in unreachable["error"] and "website" in unreachable["error"]
    assert "malformed URL" in bad_url["error"]
    assert "no source" in no_source["error"]

    # Every company is in the knowledge base.
    listed = json.loads(cikb("companies", "--json").stdout)
    assert {c["slug"] for c in listed} == {r["company"]["slug"] for r in results[:31]}

    # Politeness per domain, from the servers' side, across companies too.
    for log in logs:
        paths = [entry.path for entry in log]
        assert set(PAGES) <= set(paths)
        assert min(gaps([entry.time for entry in log])) >= DELAY - TOLERANCE
    assert [entry.path for entry in logs[0]].count("/robots.txt") == 2  # two crawls (Testco 00, Sister Co) of one site

    # Parallel within the limit: each single-company site's crawl is a span of time.
    spans = [(log[0].time, log[-1].time) for log in logs[1:]]
    assert 2 <= max_overlap(spans) <= PARALLEL

    # The bound: no one-at-a-time run can finish before the sum of the sites' politeness floors
    # (each crawl's requests at least DELAY apart), however fast the machine; in parallel the run
    # must beat that. It cannot beat ceil(N / P) x the slowest floor, and the work beside each
    # crawl (a Scrapy process, loading the model, the commit: about 2 s a company on 2 cores)
    # keeps it above that: 62 s against a sequential floor of 121 s and 31 s for ceil(N / P) x
    # the slowest floor, on 2 cores shared with other jobs (load average 20).
    floors = [(len(log) - 1) * DELAY for log in logs]
    floors[0] -= DELAY  # two crawls: one gap between them is not a politeness floor
    sequential_floor = sum(floors)
    parallel_floor = math.ceil(len(results[:31]) / PARALLEL) * max(floors[1:])
    figures = f"{total:.1f} s; sequential floor {sequential_floor:.1f} s; ceil(N/P) x slowest floor {parallel_floor:.1f} s"
    print(f"gather --from-csv of {len(logs) + 1} companies, {PARALLEL} at once: {figures}")
    assert total < sequential_floor, figures


def test_ctrl_c_stops_every_gather_and_commits_nothing(tmp_path: Path, isolated_env: Path) -> None:
    with serve_companies(3, first_host=40) as sites:
        csv_path = tmp_path / "companies.csv"
        csv_path.write_text(companies_csv(sites), encoding="utf-8")
        run = subprocess.Popen([sys.executable, "-m", "cikb", "gather", "--from-csv", str(csv_path), "--delay", "1"], cwd=REPO,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                               preexec_fn=sigint_as_in_a_terminal)
        deadline = time.monotonic() + 60
        while not any(len(site.server.log) >= 2 for site in sites) and time.monotonic() < deadline and run.poll() is None:
            time.sleep(0.1)  # until a crawl is under way (each needs 9 s or more at 1 s a request)
        under_way = [len(site.server.log) for site in sites]
        assert run.poll() is None and max(under_way) >= 2, f"no crawl under way to interrupt: {under_way} requests, exit {run.poll()}"
        os.killpg(run.pid, signal.SIGINT)  # as Ctrl-C in a terminal: the command and its crawlers
        _, stderr = run.communicate(timeout=30)
        requests = sum(len(site.server.log) for site in sites)
        time.sleep(1.5)
        assert sum(len(site.server.log) for site in sites) == requests  # no crawler left running
    assert run.returncode == 130, stderr
    assert "interrupted" in stderr and "Traceback" not in stderr
    # Each company under way says why it failed (no table follows): Ctrl-C, whether its next step or its crawler
    # (stopped by the same Ctrl-C) ended it.
    failed = [line for line in stderr.splitlines() if line.startswith("failed ")]
    assert failed and all(line.endswith("): interrupted before its commit") for line in failed), stderr
    assert json.loads(cikb("companies", "--json").stdout) == []
    # Each running gather stopped at its next step and cleaned up as a single gather does: no lock file, no
    # folder of a company that holds nothing (Thread.join interrupted by Ctrl-C used to end the wait at once).
    assert sorted(p.name for p in isolated_env.iterdir() if not p.name.startswith("_")) == []


def test_rows_take_their_sources_from_columns_of_any_case(tmp_path: Path) -> None:
    path = tmp_path / "list.csv"
    path.write_text(
        "company,WEBSITE,Wikipedia,news,Employees\n"
        "Acme Corp,https://acme.example/,Acme_Corp,https://news.example/a.rss https://news.example/b.rss,10\n"
        "Globex,,,,\n"
        " ,https://nameless.example/,,,\n",
        encoding="utf-8",
    )
    acme, globex, nameless = read_company_rows(path)
    assert acme == CompanyRow(1, "Acme Corp", {"website": "https://acme.example/", "wikipedia": "Acme_Corp",
                                               "news": ["https://news.example/a.rss", "https://news.example/b.rss"]})
    assert globex == CompanyRow(2, "Globex", {})
    assert nameless == CompanyRow(3, "", {"website": "https://nameless.example/"})


@pytest.mark.parametrize(
    "content, message",
    [
        (None, "no such file"),
        ("", "no header row"),
        ("Name,Website\nAcme,https://acme.example/\n", "has no Company column (columns: Name, Website)"),
        ("Company,Website\n", "lists no companies"),
        ("Company,Website\nAcme,https://acme.example/,extra\n", "line 2 has 3 fields"),
    ],
)
def test_a_csv_that_cannot_be_used_gets_one_error_line(tmp_path: Path, content: str | None, message: str) -> None:
    path = tmp_path / "companies.csv"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    with pytest.raises(BadInputError, match=re.escape(message)):
        read_company_rows(path)
    result = cikb("gather", "--from-csv", str(path))
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:") and message in lines[0], result.stderr


@pytest.mark.parametrize(
    "args, message",
    [
        (["gather", "--from-csv", "x.csv", "Acme"], "give no company name or source option"),
        (["gather", "--from-csv", "x.csv", "--website", "https://acme.example/"], "give no company name or source option"),
        (["gather", "--website", "https://acme.example/"], "Missing argument 'company' (or --from-csv FILE). (see `cikb gather --help`)"),
    ],
)
def test_from_csv_and_a_single_company_do_not_mix(args: list[str], message: str) -> None:
    result = cikb(*args)
    assert result.returncode == 2
    [line] = [line for line in result.stderr.splitlines() if line.strip()]
    assert line.startswith("error:") and message in line


class FakeGathers:
    """Stands in for gather_company: records when each company ran, fails the ones named to fail."""

    def __init__(self, seconds: float, failing: set[str]) -> None:
        self.seconds = seconds
        self.failing = failing
        self.spans: dict[str, tuple[float, float]] = {}
        self.full: dict[str, bool] = {}
        self.lock = threading.Lock()

    def __call__(self, settings: Settings, name: str, sources: dict, on_event=None, full: bool = False, embedder=None) -> GatherSummary:
        started = time.monotonic()
        self.full[name] = full
        time.sleep(self.seconds)
        with self.lock:
            self.spans[name] = (started, time.monotonic())
        if name in self.failing:
            raise GatherFailedError(f"nothing gathered for {name!r}")
        company = company_from_name(name)
        return GatherSummary(company=company, sources=[], documents=1, chunks=1, raw_dir=f"data/{company.slug}/raw",
                             started_at=datetime.now(timezone.utc))


def test_companies_sharing_a_domain_never_run_at_once_and_a_failure_stops_no_other(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeGathers(seconds=0.3, failing={"Other 1"})
    monkeypatch.setattr(batch, "gather_company", fake)
    monkeypatch.setattr(batch, "load_embedder", lambda settings: object())  # the stand-in embeds nothing
    rows = [CompanyRow(1, "Shared A", {"website": "https://www.shared.co.uk/"}),
            CompanyRow(2, "Shared B", {"website": "https://blog.shared.co.uk/b/"}),  # one registered domain, shared.co.uk
            CompanyRow(3, "Shared C", {"news": ["https://news.example.com/c.rss"], "wikipedia": "https://shared.co.uk/wiki/C"})]
    rows += [CompanyRow(3 + n, f"Other {n}", {"website": f"https://other{n}.com/"}) for n in range(1, 5)]
    settings = Settings(gather={"max_parallel_companies": 3, "download_delay": 0.5})
    results = gather_many(settings, rows)
    assert [r.row for r in results] == [r.number for r in rows]
    assert [r.status for r in results] == ["ok", "ok", "ok", "failed", "ok", "ok", "ok"]
    assert "nothing gathered" in results[3].error
    shared = sorted(fake.spans[name] for name in ("Shared A", "Shared B", "Shared C"))
    # One after another, and download_delay apart: the next one's first request may come at once when it starts.
    assert all(later[0] - earlier[1] >= 0.5 for earlier, later in zip(shared, shared[1:]))
    assert 2 <= max_overlap(list(fake.spans.values())) <= 3
    assert not any(fake.full.values())
    gather_many(settings, rows[4:5], full=True)  # --full reaches every company's gather
    assert fake.full["Other 2"] is True


def test_threads_take_turns_with_the_embedded_store(tmp_path: Path) -> None:
    # Gathers in threads share one process: a second open waits for the first to close (up to
    # store.lock_timeout), even before the shard exists, when there is no WAL lock to meet: two
    # first gathers must not both create it.
    waiting = Settings(data_dir=tmp_path / "data", store={"lock_timeout": 10})
    opened_at: list[float] = []

    def second_open() -> None:
        with open_store(waiting) as store:
            opened_at.append(time.monotonic())
            assert store.record() is not None

    with open_store(waiting) as first:
        with pytest.raises(LockedError, match="another cikb process"):
            open_store(Settings(data_dir=tmp_path / "data", store={"lock_timeout": 0}))
        thread = threading.Thread(target=second_open)
        thread.start()
        time.sleep(0.5)
        assert not opened_at  # still waiting for its turn
        first.ensure_collection(model())
        closed_at = time.monotonic()
    thread.join(timeout=10)
    assert len(opened_at) == 1 and opened_at[0] >= closed_at
