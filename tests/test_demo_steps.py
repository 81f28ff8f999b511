"""`cikb demo` as a user meets it: the table names the site it gathered, the commands it prints can be pasted,
a second demo compares like with like, Ctrl-C stops it, a busy port or a failed gather says what to do."""

from __future__ import annotations

import csv
import io
import os
import shlex
import signal
import socket
import subprocess
import sys
import time
from contextlib import ExitStack
from pathlib import Path

import pytest
from child_env import sigint_as_in_a_terminal

from cikb.app.sample_site import sample_table
from cikb.cli import demo_cmd
from cikb.core.errors import BadInputError, CikbError


def _demo(cwd: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cikb", *args], cwd=cwd, capture_output=True, text=True, timeout=600,
                          env={**os.environ, "COLUMNS": "80", **env})


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_the_sample_table_names_the_served_site_as_the_sample_company_website() -> None:
    # A row whose website is on none of the company's gathered domains is another company of that name: a table
    # still saying acme.example left every cell of the Acme Corp gathered from 127.0.0.1 empty.
    rows = list(csv.DictReader(io.StringIO(sample_table("http://127.0.0.1:8731"))))
    assert [(row["Company"], row["Website"]) for row in rows] == [
        ("Acme Corp", "http://127.0.0.1:8731/"), ("Globex Corporation", "http://globex.example")]


@pytest.mark.slow
def test_the_printed_commands_paste_and_a_second_demo_finds_nothing_changed(isolated_env: Path, tmp_path: Path) -> None:
    port = str(_free_port())
    for run in (1, 2):
        # No --delay: the configured download_delay, here from the environment.
        result = _demo(tmp_path, "--data-dir", "kb", "demo", "--port", port, CIKB_GATHER__DOWNLOAD_DELAY="0")
        assert result.returncode == 0, result.stderr[-3000:]
    printed = [line for line in result.stderr.splitlines() if line.startswith("$ cikb")]
    assert len(printed) == 4 + 3 * 3  # gather, two asks, search; enrich, review, apply per column
    # Whole commands on an 80-column terminal (a rule's title cut them with "…"), with the demo's --data-dir.
    # Not --config: CIKB_CONFIG (isolated_env) gives it to a pasted command as it gave it to the demo.
    assert all(line.startswith("$ cikb --data-dir kb ") and "…" not in line and "--config" not in line for line in printed)
    assert "--delay" not in printed[0]
    # The same port both times: the second gather finds the same pages, not 12 new and 12 removed.
    assert "changes: 0 pages changed, 0 new, 0 removed" in result.stdout
    search = next(line for line in printed if " search " in line)
    pasted = subprocess.run([sys.executable, "-m", "cikb", *shlex.split(search)[2:]], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert pasted.returncode == 0 and "Leadership" in pasted.stdout, pasted.stderr
    assert "Portland, Oregon" in result.stdout[result.stdout.rindex("Company"):]


@pytest.mark.slow
def test_ctrl_c_during_the_gather_stops_the_demo(isolated_env: Path, tmp_path: Path) -> None:
    with open(tmp_path / "err.txt", "w+") as err:
        demo = subprocess.Popen([sys.executable, "-m", "cikb", "demo", "--port", "0", "--delay", "0.5"], cwd=tmp_path,
                                stdout=subprocess.DEVNULL, stderr=err, preexec_fn=sigint_as_in_a_terminal,
                                start_new_session=True)
        deadline = time.monotonic() + 120
        while "gather 'Acme Corp'" not in (tmp_path / "err.txt").read_text() and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(1)  # in the crawl: 12 pages half a second apart
        os.killpg(demo.pid, signal.SIGINT)  # as Ctrl-C in a terminal: the command and its crawler
        code = demo.wait(timeout=60)
    printed = (tmp_path / "err.txt").read_text()
    assert code == 130, printed[-3000:]
    # It went on to ask an empty knowledge base, then failed at search, as if the gather had ended.
    assert "interrupted" in printed and "$ cikb ask" not in printed


def test_a_step_that_returns_an_exit_code_stops_the_demo(monkeypatch: pytest.MonkeyPatch) -> None:
    for code, stops_with in ((130, KeyboardInterrupt), (1, SystemExit)):
        monkeypatch.setattr(demo_cmd, "app", lambda *args, code=code, **kwargs: code)
        with pytest.raises(stops_with):
            demo_cmd._run(["ask", "Who founded Acme Corp?"])


def test_a_busy_port_falls_back_to_a_free_one_unless_given(monkeypatch: pytest.MonkeyPatch) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        taken = busy.getsockname()[1]
        monkeypatch.setattr(demo_cmd, "DEMO_PORT", taken)
        with ExitStack() as stack:
            site = demo_cmd._serve(stack, None)
            assert site.startswith("http://127.0.0.1:") and not site.endswith(f":{taken}")
        with ExitStack() as stack, pytest.raises(BadInputError, match=f"127.0.0.1:{taken}.*--port 0"):
            demo_cmd._serve(stack, taken)


def test_a_failed_gather_says_how_to_run_the_demo_apart(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture,
                                                         isolated_env: Path) -> None:
    def refused(args: list[str]) -> None:
        raise CikbError("'Acme Corp' is kept as 'acme-corp', gathered from acme.com, not from 127.0.0.1")

    monkeypatch.setattr(demo_cmd, "_run", refused)
    with pytest.raises(CikbError):
        demo_cmd._gather(["gather", "Acme Corp"])
    assert "cikb --data-dir cikb-demo-data demo" in capsys.readouterr().err
