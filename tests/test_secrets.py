"""Secrets are never printed: keys, tokens and URL credentials are masked in `cikb config`, logs and errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from fake_openai import FAKE_MODEL, FakeError, FakeOpenAI

from cikb.core.config import load_settings
from cikb.core.secrets import MASK, is_secret_name, mask_secrets, mask_tree, mask_url, secrets_in

CIKB = Path(sys.executable).with_name("cikb")
KEY = "sk-PLANTED0secret0key0e4b1"  # distinctive: any output or file holding it leaked it
URL_PASSWORD = "PLANTEDurlPass93"


# --- the helper ---------------------------------------------------------------------------


def test_mask_url_hides_user_information_and_secret_query_values() -> None:
    assert mask_url(f"https://user:{KEY}@api.example/v1") == f"https://{MASK}@api.example/v1"
    assert mask_url(f"https://{KEY}@api.example/v1") == f"https://{MASK}@api.example/v1"
    assert mask_url(f"https://api.example/v1?api_key={KEY}&model=x&access_token=t") == (
        f"https://api.example/v1?api_key={MASK}&model=x&access_token={MASK}")
    assert mask_url("http://127.0.0.1:8080/v1?max_tokens=5") == "http://127.0.0.1:8080/v1?max_tokens=5"


def test_secret_names_are_the_last_word_of_a_key() -> None:
    assert all(map(is_secret_name, ["api_key", "apiKey", "X-Api-Key", "access_token", "password", "token"]))
    assert not any(map(is_secret_name, ["max_tokens", "target_tokens", "key_points", "monkey", "model"]))


def test_mask_secrets_in_free_text() -> None:
    text = (f"LLM endpoint http://me:{URL_PASSWORD}@127.0.0.1:9/v1?key={KEY} failed; "
            f"Authorization: Bearer {KEY}; the raw key {KEY}; the key: value; basic training")
    masked = mask_secrets(text, {KEY, URL_PASSWORD})
    assert KEY not in masked and URL_PASSWORD not in masked
    assert "http://****@127.0.0.1:9/v1?key=****" in masked
    assert masked.endswith("the key: value; basic training")  # prose is left alone
    assert mask_secrets(f"sk-{'a' * 20} leaked") == f"{MASK} leaked"  # a key that announces itself
    assert mask_secrets("short", {"abc"}) == "short"  # too short to search for: it would mask words


def test_mask_tree_and_secrets_in_a_settings_dump() -> None:
    tree = {"llm": {"api_key": KEY, "base_url": f"https://u:{URL_PASSWORD}@h/v1", "max_tokens": 512},
            "store": {"api_key": None}}
    assert secrets_in(tree) == {KEY, "u", URL_PASSWORD}
    assert mask_tree(tree) == {"llm": {"api_key": MASK, "base_url": f"https://{MASK}@h/v1", "max_tokens": 512},
                               "store": {"api_key": None}}


def test_settings_still_load_keys_from_toml_and_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "keys.toml"
    config.write_text(f'[llm]\napi_key = "{KEY}"\nbase_url = "https://u:{URL_PASSWORD}@h/v1"\n[store]\napi_key = "qdrant-{KEY}"\n')
    settings = load_settings(config)
    assert settings.llm.api_key == KEY and settings.store.api_key == f"qdrant-{KEY}"  # the real values, for the clients
    assert KEY not in repr(settings)
    dumped = json.dumps(settings.masked_dump())
    assert KEY not in dumped and URL_PASSWORD not in dumped
    assert settings.masked_dump()["llm"]["api_key"] == MASK
    monkeypatch.setenv("CIKB_LLM__API_KEY", "from-the-environment")
    assert load_settings(config).llm.api_key == "from-the-environment"


def test_the_call_log_masks_what_it_writes_and_what_it_reads(tmp_path: Path) -> None:
    import sqlite3

    from cikb.app.llm import CallLog

    log = CallLog(tmp_path / "logs.db", secrets={KEY})
    log.record(step="answer", model="m", messages=[{"role": "user", "content": f"my key is {KEY}"}], params={},
               response=None, prompt_tokens=None, completion_tokens=None, latency_s=0.1,
               error=f"LLM endpoint https://u:{URL_PASSWORD}@h/v1 failed")
    assert KEY.encode() not in (tmp_path / "logs.db").read_bytes()
    assert URL_PASSWORD.encode() not in (tmp_path / "logs.db").read_bytes()
    # A row an older cikb wrote in clear is masked when it is read back.
    with sqlite3.connect(tmp_path / "logs.db") as db:
        db.execute("UPDATE calls SET error = ?", (f"LLM endpoint https://u:{URL_PASSWORD}@h/v1?api_key={KEY} failed",))
    [call] = CallLog(tmp_path / "logs.db").recent()
    assert call.error == f"LLM endpoint https://{MASK}@h/v1?api_key={MASK} failed"


# --- end to end: every output and every file ------------------------------------------------


def test_no_output_and_no_file_holds_a_planted_key(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    from answer_helpers import build_kb

    data_dir = tmp_path / "kb"
    build_kb(load_settings(data_dir=data_dir))
    base = fake_openai.base_url  # http://127.0.0.1:PORT/v1
    with_credentials = base.replace("http://", f"http://planted:{URL_PASSWORD}@")
    config = tmp_path / "cikb.toml"
    config.write_text(
        f'[llm]\nbase_url = "{with_credentials}"\napi_key = "{KEY}"\nmodel = "{FAKE_MODEL}"\nmax_retries = 0\ntimeout = 5\n'
        f'[store]\napi_key = "{KEY}-qdrant"\n'
    )
    outputs: list[str] = []

    def cikb(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        import os

        environment = {**os.environ, "CIKB_CONFIG": str(config), "CIKB_DATA_DIR": str(data_dir), "COLUMNS": "300", **(env or {})}
        result = subprocess.run([str(CIKB), *args], capture_output=True, text=True, timeout=120, env=environment)
        outputs.extend([result.stdout, result.stderr])
        assert "Traceback" not in result.stderr, result.stderr
        return result

    shown = json.loads(cikb("config", "--json").stdout)
    assert shown["llm"]["api_key"] == MASK and shown["store"]["api_key"] == MASK
    assert shown["llm"]["base_url"] == base.replace("http://", f"http://{MASK}@")
    assert cikb("config").returncode == 0

    fake_openai.reply("Acme Corp was founded in 1949 [1].")
    answered = cikb("ask", "When was Acme founded?")
    assert answered.returncode == 0 and "1949" in answered.stdout, answered.stderr
    assert fake_openai.chat_requests, "the LLM was not called"

    # A failing call whose error echoes the key, one whose URL carries it as a query parameter
    # (the fake answers 404 with the path in its message), and an unreachable endpoint.
    fake_openai.reply(FakeError(500, f"upstream rejected key {KEY} and password {URL_PASSWORD}"))
    failed = cikb("ask", "When was Acme founded?")
    assert failed.returncode == 1 and failed.stderr.strip().splitlines()[-1].startswith("error: LLM endpoint http://****@127.0.0.1")
    assert cikb("ask", "Who runs Acme?", env={"CIKB_LLM__BASE_URL": f"{base}?api_key={KEY}"}).returncode == 1
    unreachable = cikb("ask", "Who runs Acme?", env={"CIKB_LLM__BASE_URL": f"http://planted:{URL_PASSWORD}@127.0.0.1:9/v1"})
    assert unreachable.returncode == 1 and "unreachable" in unreachable.stderr

    listed = cikb("logs", "-n", "10")
    assert listed.returncode == 0
    calls = json.loads(cikb("logs", "--json").stdout)
    assert len(calls) == 4 and sum(1 for call in calls if call["error"]) == 3
    assert any(MASK in call["error"] for call in calls if call["error"])

    for text in outputs:
        assert KEY not in text and URL_PASSWORD not in text, text
    files = [path for path in data_dir.rglob("*") if path.is_file()]
    assert any(path.name == "logs.db" for path in files)
    for path in files:
        content = path.read_bytes()
        assert KEY.encode() not in content and URL_PASSWORD.encode() not in content, path
