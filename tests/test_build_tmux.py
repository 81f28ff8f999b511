"""`cikb build` in a real terminal (tmux), as a person drives it: the numbered plan, line editing and
history at the prompt, a model that answers prose, repeated queries, unused feedback, an empty list.

Needs tmux (`scripts/setup.sh test` installs Debian's package when run as root). The model is the
scripted OpenAI-compatible endpoint (tests/fake_openai.py, tests/list_script.py) on 127.0.0.1.
The session's screen is saved to tests/output/build-tmux.txt.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from list_script import ListScript, build_settings, company

CIKB = Path(sys.executable).with_name("cikb")
OUTPUT = Path(__file__).resolve().parent / "output"
INSTALL = "apt-get install -y tmux (as root; `bash scripts/setup.sh test` does it)"


class Tmux:
    """One command in a detached tmux session on a private server; keys in, the screen out."""

    def __init__(self, socket: Path, env: dict[str, str]) -> None:
        tmux = shutil.which("tmux")
        if tmux is None:
            pytest.fail(f"tmux is not installed: {INSTALL}")
        self.base = [tmux, "-S", str(socket), "-f", "/dev/null"]
        self.env = {key: value for key, value in env.items() if key != "TMUX"}

    def start(self, args: list[str]) -> None:
        # The shell stays a moment after cikb so its exit status is on the screen.
        command = f"{shlex.join([str(CIKB), 'build', *args])}; echo EXIT=$?; sleep 60"
        self._tmux("new-session", "-d", "-s", "build", "-x", "200", "-y", "60", command)
        self._tmux("set-option", "-t", "build", "history-limit", "5000")

    def keys(self, *keys: str) -> None:
        """tmux key names: "Left", "Up", "Enter"."""
        self._tmux("send-keys", "-t", "build", *keys)

    def type(self, text: str) -> None:
        self._tmux("send-keys", "-t", "build", "-l", text)

    def screen(self) -> str:
        """The whole pane, scrollback included, wrapped lines joined."""
        return self._tmux("capture-pane", "-p", "-J", "-S", "-", "-t", "build").stdout

    def wait_for(self, text: str, after: int = 0, timeout: float = 30) -> str:
        """The screen once ``text`` shows after its first ``after`` characters."""
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if text in screen[after:]:
                return screen
            if time.monotonic() > deadline:
                pytest.fail(f"{text!r} never showed; the screen:\n{screen}")
            time.sleep(0.05)

    def prompt(self, count: int) -> str:
        """The screen once the approval prompt has shown ``count`` times, the last one empty (waiting)."""
        deadline = time.monotonic() + 30
        while True:
            screen = self.screen()
            if screen.count("approve> ") >= count and screen.rstrip().endswith("approve>"):
                return screen
            if time.monotonic() > deadline:
                pytest.fail(f"prompt {count} never showed; the screen:\n{screen}")
            time.sleep(0.05)

    def close(self) -> None:
        self._tmux("kill-server", check=False)

    def _tmux(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        return subprocess.run([*self.base, *args], env=self.env, capture_output=True, text=True, timeout=30, check=check)


@pytest.fixture
def tmux(tmp_path: Path, fake_openai, monkeypatch: pytest.MonkeyPatch):
    """A tmux server whose sessions run `cikb build` against the scripted endpoint, with small batches."""
    for key, value in build_settings(fake_openai.base_url, str(tmp_path / "lists")).items():
        monkeypatch.setenv(key, value)
    # A short socket path: tmux's lives under the 108-byte limit of a Unix socket name.
    session = Tmux(Path(f"/tmp/cikb-tmux-{os.getpid()}-{tmp_path.name[-20:]}"), {**os.environ, "NO_COLOR": "1"})
    try:
        yield session
    finally:
        session.close()


def test_a_build_session_at_the_terminal(tmp_path: Path, fake_openai, tmux: Tmux) -> None:
    # The model's ids hold spaces and commas; its second batch is prose; its retry round plans two queries again.
    said = "Cloud monitoring startups funded in 2024"
    script = ListScript(companies=[company(n) for n in range(1, 7)], per_search=2, prose={"batch2"}, id_format="{prefix} s{n},x",
                        retry_queries=["b1 query 2", "Monitoring startups  series A", "retry query 1", "retry query 2"])
    fake_openai.respond_with(script)
    tmux.start(["cloud monitoring startups in the US", "--min-items", "20", "--columns", "Company,Website,City"])

    screen = tmux.prompt(1)
    assert ("generating searches: batch 2/2 failed: the model answered 'Sure! Here are some searches that could help you build th...', "
            "not the asked JSON (asked twice)") in screen
    assert "Planned searches (3):\n1. [news] b1 query 1\n2. [agg] b1 query 2\n3. [web] b1 query 3\n" in screen
    # Line editing: "d 3", the cursor one left, "1 " typed there: the line sent is "d 1 3".
    tmux.type("d 3")
    tmux.keys("Left")
    tmux.type("1 ")
    tmux.keys("Enter")
    screen = tmux.prompt(2)
    assert "approve> d 1 3\ndropped 1, 3; 1 searches left\n2. [agg] b1 query 2\n" in screen
    tmux.type("+ monitoring startups series A")
    tmux.keys("Enter")
    screen = tmux.prompt(3)
    assert "added 4. [web] monitoring startups series A\n2. [agg] b1 query 2\n4. [web] monitoring startups series A\n" in screen
    tmux.type("f more companies outside California")
    tmux.keys("Enter")
    tmux.prompt(4)
    tmux.keys("Enter")

    screen = tmux.prompt(5)
    assert "approved 2 searches\nsearching 1/2 b1 query 2: 2 new (2 in all)\nsearching 2/2 monitoring startups series A: 2 new (4 in all)\n" in screen
    assert "left out 2 of 4 searches: planned before\nRetry round 1: planned searches (2):\n1. [web] retry query 1\n2. [news] retry query 2\n" in screen
    # History: Up brings back the last command of round 0, the feedback; no round follows to use it.
    mark = screen.rindex("approve> ")
    tmux.keys("Up")
    tmux.wait_for("approve> f more companies outside California", after=mark)
    tmux.keys("Enter")
    tmux.prompt(6)
    tmux.keys("Enter")

    screen = tmux.wait_for("EXIT=")
    (OUTPUT.mkdir(exist_ok=True), (OUTPUT / "build-tmux.txt").write_text(screen, encoding="utf-8"))
    assert "searching 2/2 retry query 2: 0 new (6 in all)\n" in screen
    assert ("feedback not used: no retry round was planned after it (lists.max_retry_rounds = 1 reached): "
            "more companies outside California\n") in screen
    assert "list written to " in screen and "next: cikb gather --from-csv" in screen and "EXIT=0" in screen
    assert "s1,x" not in screen and "^[" not in screen and "Traceback" not in screen  # no model id, no raw escape
    assert script.searches_seen == ["b1 query 2", "monitoring startups series A", "retry query 1", "retry query 2"]
    assert not any(said.lower() in query.lower() for query in script.searches_seen)  # the prose never ran
    [retry] = [json.loads(r["input"]) for r in fake_openai.responses_requests if "performance_report" in json.loads(r["input"])]
    assert retry["user_feedback"] == "more companies outside California"
    assert retry["already_planned"] == ["b1 query 1", "b1 query 2", "b1 query 3", "monitoring startups series A"]


@pytest.mark.parametrize("case", ["no rows", "only prose"])
def test_a_build_that_finds_nothing_exits_1_with_the_reason_and_writes_nothing(case: str, tmp_path: Path, fake_openai, tmux: Tmux) -> None:
    if case == "no rows":  # every search answers no item, one fails; the retry round plans the same queries again
        script = ListScript(companies=[], failing_queries={"b1 query 2"}, retry_queries=["b1 query 1", "B1 QUERY 2"])
        reason = ("error: the list is empty: none of the 3 searches found an item (1 failed, e.g. ")
        tail = "; retry round 1: the model planned no new searches; no more rounds; nothing written\n"
    else:
        script = ListScript(companies=[company(1)], prose={"batch1", "batch2"})
        reason = "error: the model planned no searches (generating searches: batch 2/2 failed: the model answered 'Sure! "
        tail = "not the asked JSON (asked twice)): nothing written\n"
    fake_openai.respond_with(script)
    tmux.start(["anything", "--columns", "Company,Website", "--yes"])
    screen = tmux.wait_for("EXIT=")
    assert "EXIT=1" in screen and reason in screen and tail in screen, screen
    assert "next:" not in screen and "list written" not in screen and "Traceback" not in screen
    assert not list((tmp_path / "lists").glob("*.csv"))
    assert script.searches_seen == (["b1 query 1", "b1 query 2", "b1 query 3"] if case == "no rows" else [])
