"""The LLM client over real HTTP against the fake endpoint; the call log and its migrations."""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from contextlib import closing
from pathlib import Path

import pytest
from fake_openai import FakeError, FakeRaw
from typer.testing import CliRunner

from cikb.app.llm import (
    MIGRATIONS,
    CallLog,
    LLMClient,
    LLMError,
    LLMNotConfiguredError,
    migrate,
)
from cikb.cli import app
from cikb.core.config import Settings


def _settings(tmp_path: Path, base_url: str | None, **llm: object) -> Settings:
    return Settings(data_dir=tmp_path / "data", llm={"base_url": base_url, "model": "fake-model", "max_retries": 0, **llm})


def test_complete_returns_text_tokens_and_logs_the_call(tmp_path, fake_openai):
    fake_openai.reply("Acme was founded in 1999 [1].")
    client = LLMClient.from_settings(_settings(tmp_path, fake_openai.base_url, api_key="sk-test"))
    messages = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "When was Acme founded?"}]

    result = client.complete("answer", messages)

    assert result.text == "Acme was founded in 1999 [1]."
    assert result.model == "fake-model"
    assert result.prompt_tokens == 6 and result.completion_tokens == 6
    assert result.latency_s > 0
    sent = fake_openai.chat_requests[0]
    assert sent["messages"] == messages
    assert sent["model"] == "fake-model" and sent["temperature"] == 0.0 and sent["max_tokens"] == 512
    assert sent["_headers"]["authorization"] == "Bearer sk-test"
    [call] = client.log.recent()
    assert (call.id, call.step, call.model, call.messages, call.response) == (result.log_id, "answer", "fake-model", messages, result.text)
    assert call.prompt_tokens == 6 and call.error is None and call.params["max_tokens"] == 512


def test_keyword_parameters_override_the_configured_ones(tmp_path, fake_openai):
    client = LLMClient.from_settings(_settings(tmp_path, fake_openai.base_url))
    client.complete("enrich:lookup", [{"role": "user", "content": "x"}], max_tokens=20, stop=["\n"])
    sent = fake_openai.chat_requests[0]
    assert sent["max_tokens"] == 20 and sent["stop"] == ["\n"]
    assert sent["_headers"]["authorization"] == "Bearer not-needed"  # keyless local servers still get a token


def test_unconfigured_client_refuses_without_a_request(tmp_path):
    client = LLMClient.from_settings(Settings(data_dir=tmp_path / "data"))
    assert not client.configured
    with pytest.raises(LLMNotConfiguredError):
        client.complete("answer", [{"role": "user", "content": "x"}])
    assert client.log.count() == 0


@pytest.mark.parametrize(
    ("error", "expected"),
    [(FakeError(401, "bad key"), "refused the API key"), (FakeError(500, "engine on fire"), "HTTP 500: engine on fire"),
     (FakeError(404, "no such model"), "404 for model 'fake-model'")],
)
def test_endpoint_errors_become_one_clear_line_and_are_logged(tmp_path, fake_openai, error, expected):
    fake_openai.reply(error)
    client = LLMClient.from_settings(_settings(tmp_path, fake_openai.base_url))
    with pytest.raises(LLMError, match=expected) as info:
        client.complete("answer", [{"role": "user", "content": "x"}])
    assert "\n" not in str(info.value)
    [call] = client.log.recent()
    assert call.error == str(info.value) and call.response is None


@pytest.mark.parametrize(("reply", "expected"), [
    (FakeRaw("<html><body>Welcome to nginx!</body></html>", "text/html"), "returned no chat completion"),
    (FakeRaw('{"foo": 1}'), "returned no chat completion"),
    (FakeRaw('{"id": "x", "object": "chat.completion", "created": 0, "model": "m", "choices": []}'), "returned no chat completion"),
    ("", "returned an empty answer"),
], ids=["html", "other-json", "no-choice", "empty"])
def test_a_reply_that_answers_nothing_is_an_error_not_an_empty_answer(tmp_path, fake_openai, reply, expected):
    # An HTML page was a traceback ('str' object has no attribute 'choices'); the others an empty text, which ask then
    # gave as "I don't have enough information" with `abstained: false`, exit 0 (found by a review of ask as a user).
    fake_openai.reply(reply)
    client = LLMClient.from_settings(_settings(tmp_path, fake_openai.base_url))
    with pytest.raises(LLMError, match=expected) as info:
        client.complete("answer", [{"role": "user", "content": "x"}])
    [call] = client.log.recent()
    assert call.error == str(info.value) and call.response is None


def test_unreachable_endpoint_is_a_clear_error(tmp_path):
    client = LLMClient.from_settings(_settings(tmp_path, "http://127.0.0.1:9/v1", timeout=2))
    with pytest.raises(LLMError, match="unreachable"):
        client.complete("answer", [{"role": "user", "content": "x"}])


def test_migrations_run_once_in_order_and_keep_old_rows(tmp_path):
    path = tmp_path / "logs.db"
    with sqlite3.connect(path) as db:
        assert migrate(db) == [name for name, _ in MIGRATIONS]
        assert migrate(db) == []
    log = CallLog(path)
    log.record(step="s", model="m", messages=[{"role": "user", "content": "hi"}], params={}, response="yo",
               prompt_tokens=1, completion_tokens=1, latency_s=0.1, error=None)
    # An older database that saw only the first migration gets the rest, rows intact.
    with sqlite3.connect(path) as db:
        db.execute("DELETE FROM _migrations WHERE name != ?", (MIGRATIONS[0][0],))
        db.execute("DROP INDEX calls_created_at")
    assert [c.response for c in log.recent()] == ["yo"]
    with sqlite3.connect(path) as db:
        names = [row[0] for row in db.execute("SELECT name FROM _migrations ORDER BY rowid")]
    assert names == [name for name, _ in MIGRATIONS]


def test_connections_migrating_a_new_database_at_once_apply_each_step_once(tmp_path):
    # A job's threads log their first LLM calls together; a step racing another used to fail
    # the call ("index calls_created_at already exists") and lose its answer.
    path, threads = tmp_path / "logs.db", 6
    start, errors, runs = threading.Barrier(threads), [], []

    def slow_step(db: sqlite3.Connection) -> None:
        runs.append(1)
        time.sleep(0.05)  # long enough for every other connection to reach the same step
        db.execute("CREATE TABLE t (x)")

    def open_and_migrate() -> None:
        start.wait()
        try:
            with closing(sqlite3.connect(path, timeout=10)) as db:
                migrate(db, [*MIGRATIONS, ("m900_slow", slow_step)])
                CallLog(path).record(step="s", model="m", messages=[], params={}, response="ok",
                                     prompt_tokens=None, completion_tokens=None, latency_s=0.0, error=None)
        except Exception as err:  # noqa: BLE001 (the test reports every failure)
            errors.append(err)

    workers = [threading.Thread(target=open_and_migrate) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert errors == [] and len(runs) == 1
    assert CallLog(path).count() == threads


def test_cli_logs_lists_recent_calls(tmp_path, fake_openai, monkeypatch):
    data_dir = tmp_path / "data"
    monkeypatch.setenv("CIKB_DATA_DIR", str(data_dir))
    (tmp_path / "cikb.toml").write_text("")
    monkeypatch.setenv("CIKB_CONFIG", str(tmp_path / "cikb.toml"))  # the CLI's --config insists the file exists
    client = LLMClient.from_settings(_settings(tmp_path, fake_openai.base_url))
    fake_openai.reply("first", "second", "third")
    for question in ("q1", "q2", "q3"):
        client.complete("answer", [{"role": "user", "content": question}])

    runner = CliRunner()
    result = runner.invoke(app, ["logs", "-n", "2", "--json"])
    assert result.exit_code == 0, result.output
    calls = json.loads(result.stdout)
    assert [c["response"] for c in calls] == ["third", "second"]
    assert calls[0]["messages"] == [{"role": "user", "content": "q3"}]

    table = runner.invoke(app, ["logs"])
    assert table.exit_code == 0 and "first" in table.stdout and "answer" in table.stdout

    none = runner.invoke(app, ["logs", "--step", "nope"])
    assert none.exit_code == 0 and none.stdout.strip() == "no LLM calls of step 'nope' logged"  # not "none logged yet"
    CallLog(data_dir / "logs.db").record(step="probe", model="m", messages=[], params={}, response="ok", prompt_tokens=7,
                                         completion_tokens=0, latency_s=0.1, error=None)
    counted = runner.invoke(app, ["logs", "--step", "probe"])
    assert "7/0" in counted.stdout  # an endpoint's 0 is a count, not "unknown"
