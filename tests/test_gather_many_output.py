"""Many companies, said once (issue 25, item 5): `cikb gather --from-csv` shows one line per company
while it runs and one table at the end, each failure's reason once and under 120 characters (the
whole text in `--json`); no gather leaves a lock file behind, a company never gathered leaves no
folder, and "previous knowledge base kept" is said only for a company that had one.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from sites import SiteServer
from test_gather_live import gathered, routes, take_down
from test_pipeline import snapshot

from cikb.app.batch import KEPT, REASON_WIDTH, failures_line, short_reason
from cikb.app.workspace import CompanyDir
from cikb.core.errors import LockedError
from cikb.core.models import SourceSummary

REPO = Path(__file__).resolve().parents[1]
UNREACHABLE = 10  # each on its own loopback host (its own domain), port 9 where nothing listens: refused at once


def cikb(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "400"}  # a table row per line: a reason is found whole, not wrapped in its cell
    return subprocess.run([sys.executable, "-m", "cikb", *args], cwd=REPO, capture_output=True, text=True, timeout=240, env=env)


def leftovers(data_dir: Path) -> tuple[list[Path], set[str]]:
    """Every lock file under the data directory, and the company folders (names not starting with _)."""
    return sorted(data_dir.rglob(".lock")), {p.name for p in data_dir.iterdir() if not p.name.startswith("_")}


@pytest.mark.slow
def test_many_failing_companies_are_said_once_and_leave_nothing_behind(make_site: Callable[..., SiteServer], tmp_path: Path) -> None:
    site, settings, before = gathered(make_site)  # Initech: a knowledge base, then its site goes down
    take_down(site, "refused")
    live = make_site(routes("Hooli"), host="127.0.0.3")
    rows = [("Initech", site.url + "/"), ("Hooli", live.url + "/")]
    rows += [(f"Gone Works {n}", f"http://127.0.0.{120 + n}:9/") for n in range(UNREACHABLE)]
    table = tmp_path / "companies.csv"
    table.write_text("Company,Website\n" + "".join(f"{name},{url}\n" for name, url in rows), encoding="utf-8")

    shown = cikb("gather", "--from-csv", str(table), "--delay", "0.05")
    assert shown.returncode == 1, shown.stderr
    assert leftovers(settings.data_dir) == ([], {"initech", "hooli"})
    listed = cikb("gather", "--from-csv", str(table), "--delay", "0.05", "--json")
    assert listed.returncode == 1, listed.stderr
    assert leftovers(settings.data_dir) == ([], {"initech", "hooli"})
    assert snapshot(settings, "initech") == before

    results = json.loads(listed.stdout)
    failed = [r for r in results if r["status"] == "failed"]
    assert [r["company"]["name"] for r in failed] == ["Initech"] + [f"Gone Works {n}" for n in range(UNREACHABLE)]
    text = shown.stdout + shown.stderr
    for r in failed:
        assert len(r["reason"]) < 120 and len(r["error"]) > len(r["reason"])  # the whole text is in --json only
        assert text.count(r["reason"]) == sum(other["reason"] == r["reason"] for other in failed), r["reason"]  # in its table row only
        assert r["error"] not in text
    # Said only where there was a knowledge base to keep: Initech's.
    assert [r["company"]["name"] for r in failed if KEPT in r["error"]] == ["Initech"]
    assert [r["company"]["name"] for r in failed if KEPT in r["reason"]] == ["Initech"]
    assert text.count(KEPT) == 1

    # stderr: one line per company while running, then the one error line; stdout: one table.
    lines = [line for line in shown.stderr.splitlines() if line.strip()]
    assert sorted(lines[:-1]) == sorted(
        [f"failed  {name} (row {n})" for n, (name, _) in enumerate(rows, start=1) if name != "Hooli"]
        + [next(line for line in lines if line.startswith("ok      Hooli (row 2): "))]
    )
    assert lines[-1] == f"error: {len(failed)} of {len(rows)} companies failed (rows 1, {', '.join(str(n) for n in range(3, len(rows) + 1))})"
    assert shown.stdout.count(f"gathered 1 of {len(rows)} companies") == 1
    for name, _ in rows:
        assert shown.stdout.count(f" {name} ") == 1, name  # its table row, and nothing else


def test_a_reason_is_under_120_characters_and_says_kept_only_when_kept() -> None:
    down = SourceSummary(source_type="website", unreachable=5, unreachable_reason="connection refused")
    erring = SourceSummary(source_type="news", error="feed not found: " + "x" * 200)
    reason = short_reason("nothing gathered for 'Initech': " + "a very long explanation " * 20, [down, erring], kept=True)
    assert len(reason) <= REASON_WIDTH and reason.endswith(f"; {KEPT}")
    assert reason.startswith("website: 5 pages unreachable (connection refused); news: feed not found")
    assert KEPT not in short_reason("nothing gathered", [down], kept=False)
    assert short_reason("no source: its Website cells are empty") == "no source: its Website cells are empty"
    assert short_reason(f"nothing gathered for 'X', {KEPT}; website: no pages", kept=True).count(KEPT) == 1


def test_the_last_line_counts_the_failures_by_row_and_is_none_without_one() -> None:
    class Result:
        def __init__(self, row: int, status: str) -> None:
            self.row, self.status = row, status

    assert failures_line([Result(1, "ok"), Result(2, "failed")]) == "1 of 2 companies failed (row 2)"
    assert failures_line([Result(1, "ok")]) is None


def test_a_lock_leaves_no_file_and_a_company_holding_nothing_no_folder(tmp_path: Path) -> None:
    empty = CompanyDir(tmp_path, "acme-corp")
    with empty.lock():
        assert empty.lock_file.is_file()
        (empty.http_cache_dir / "pages").mkdir(parents=True)  # what a first gather that failed may leave
    assert not empty.root.exists()

    gathered_company = CompanyDir(tmp_path, "initech")
    generation = gathered_company.new_generation()
    (generation.raw_dir / "index.md").write_text("---\nurl: https://initech.example/\n---\nInitech.\n")
    gathered_company.seal(generation, {"company": {"name": "Initech"}})
    gathered_company.swap_in(generation)
    with gathered_company.lock():
        pass
    assert not gathered_company.lock_file.exists() and gathered_company.current() == generation


def test_a_waiter_takes_the_lock_after_its_file_is_gone_and_no_one_shares_it(tmp_path: Path) -> None:
    # A waiter opened the lock file before its holder unlinked it: it must not hold that unlinked file
    # while a newcomer holds a new one (filelock sees the link count at 0 and opens the path again).
    first = CompanyDir(tmp_path, "acme-corp").lock()
    first.__enter__()
    waited: list[str] = []
    waiter_holds, release_waiter = threading.Event(), threading.Event()

    def waiter() -> None:
        with CompanyDir(tmp_path, "acme-corp").lock(timeout=10):
            waited.append("held")
            waiter_holds.set()
            release_waiter.wait(10)

    thread = threading.Thread(target=waiter)
    thread.start()
    assert not waiter_holds.wait(0.3)  # it waits while the lock is held
    first.__exit__(None, None, None)
    assert waiter_holds.wait(5)
    with pytest.raises(LockedError):
        with CompanyDir(tmp_path, "acme-corp").lock():
            pass
    release_waiter.set()
    thread.join(5)
    assert waited == ["held"] and not (tmp_path / "acme-corp").exists()


def test_a_gathered_company_whose_other_source_failed_says_which(make_site: Callable[..., SiteServer], tmp_path: Path) -> None:
    live = make_site(routes("Hooli"), host="127.0.0.3")
    table = tmp_path / "companies.csv"
    table.write_text(f"Company,Website,News\nHooli,{live.url}/,{live.url}/gone.xml\n", encoding="utf-8")
    shown = cikb("gather", "--from-csv", str(table), "--delay", "0.05")
    assert shown.returncode == 0, shown.stderr
    [line] = [line for line in shown.stderr.splitlines() if line.startswith("ok ")]
    assert "; news: could not fetch" in line and "HTTP 404" in line, line  # "ok" and nothing of the feed before
    assert "news: could not fetch" in shown.stdout  # its table row's reason
