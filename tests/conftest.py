"""Shared fixtures: every test gets its own data directory and a clean environment."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from child_env import python_path

import cikb  # noqa: F401  (installs the finder that lets `import chunk` reach our chunk stage on Python < 3.13)
from cikb.cli._app import state as cli_state

REPO_ROOT = Path(__file__).resolve().parents[1]
SHARED = REPO_ROOT.parent / "shared"
CORPORA = SHARED / "corpora"


@pytest.fixture(autouse=True)
def isolated_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No CIKB_* variable from the caller leaks in; data goes to a tmp dir; no hub access."""
    for key in list(os.environ):
        if key.startswith("CIKB_"):
            monkeypatch.delenv(key)
    data_dir = tmp_path / "data"
    monkeypatch.setenv("CIKB_DATA_DIR", str(data_dir))
    empty_config = tmp_path / "cikb.toml"  # never the developer's ./cikb.toml
    empty_config.write_text("")
    monkeypatch.setenv("CIKB_CONFIG", str(empty_config))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    # The processes a test starts run without PyTorch, as the default install does (tests/without_torch); this
    # process and its xdist workers, started before any test, keep it for the sentence-transformers tests.
    monkeypatch.setenv("PYTHONPATH", python_path())
    # A test that calls a command's helpers directly skips the CLI's callback, which resets the invocation's
    # options: without this it would see the --data-dir or settings another test on this worker left behind.
    for option in ("config_file", "data_dir", "settings"):
        monkeypatch.setattr(cli_state, option, None)
    return data_dir


@pytest.fixture(scope="session")
def corpora() -> Path:
    if not CORPORA.is_dir():
        pytest.fail(f"shared corpora not found at {CORPORA}: tests need ../shared beside the repository")
    return CORPORA


from fake_openai import fake_openai  # noqa: E402,F401  (the OpenAI-compatible test server fixture)
from sites import acme_site, letsencrypt_site, make_site, offsite_site  # noqa: E402,F401  (fixture web sites, see tests/sites.py)


# Tests that bound wall-clock time from above (a store query within 1.5x its time alone, a re-gather within 0.1x its
# politeness floor, a redelivery within a deadline) or space requests by a server's clock: `make test` runs them in a
# pytest process of their own, after the rest has run on two workers, so the others' load does not decide them. Files
# all of whose tests do are listed here; elsewhere such a test carries the `timing` mark itself. The tests against the
# local model (marked `llm`) go with them: each request has a deadline, and llama.cpp's threads sharing two cores with
# two busy workers once took past it (a 64-token reply timed out after 120 s in a fresh-clone run).
TIMING_FILES = frozenset({
    "test_queue.py", "test_queue_enrich.py", "test_gather_many.py", "test_gather_max_age.py", "test_gather_politeness.py",
    "test_gather_deadline.py", "test_gather_robots.py", "test_enrich_providers.py",
})


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.name in TIMING_FILES or item.get_closest_marker("llm"):
            item.add_marker(pytest.mark.timing)
