"""The one LLM client: any OpenAI-compatible endpoint, every call logged (spec A3, A5).

    client = LLMClient.from_settings(settings)
    if client.configured:
        result = client.complete("answer", [{"role": "user", "content": "..."}])

Without ``settings.llm.base_url`` and ``settings.llm.model`` the client is not
configured and callers fall back to their offline modes (extractive answers,
rule-based enrichment). Every call, failed ones included, is a row of
``<data_dir>/logs.db`` (step, model, messages, response, tokens, latency, error),
like simonw/llm's ``logs.db``; its schema grows by forward-only named migrations. The ``openai`` package
(~0.7 s to import) is imported by the calls that reach an endpoint, never in the offline mode.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import closing, contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cikb.app.migrations import Migration
from cikb.app.migrations import migrate as apply_migrations
from cikb.app.models import LLMCall
from cikb.core.config import LLMSettings, Settings
from cikb.core.damage import is_damage, move_aside
from cikb.core.errors import CikbError
from cikb.core.models import LLMResult
from cikb.core.secrets import mask_secrets, mask_url, secrets_in

if TYPE_CHECKING:
    import openai

LOG_DB_NAME = "logs.db"
# Keyless local servers (llama.cpp, vLLM) still need some bearer token for the client.
PLACEHOLDER_API_KEY = "not-needed"


class LLMError(CikbError):
    """The LLM endpoint failed (unreachable, refused the key, errored or timed out)."""

    exit_code = 1


class LLMNotConfiguredError(CikbError):
    """An LLM call was asked for, but no endpoint is configured."""


# --- the call log -------------------------------------------------------------

MIGRATIONS: list[tuple[str, Migration]] = []


def migration(fn: Migration) -> Migration:
    """Register a schema step. Steps run once each, in definition order, forever forward.

    A step runs inside ``migrate``'s transaction: it uses ``execute``, never ``executescript``
    (which commits first, and the step would no longer be atomic with its record).
    """
    MIGRATIONS.append((fn.__name__, fn))
    return fn


@migration
def m001_calls(db: sqlite3.Connection) -> None:
    db.execute(
        """CREATE TABLE calls (
            id INTEGER PRIMARY KEY,
            step TEXT NOT NULL,
            model TEXT NOT NULL,
            messages TEXT NOT NULL,
            params TEXT NOT NULL DEFAULT '{}',
            response TEXT,
            prompt_tokens INTEGER,
            completion_tokens INTEGER,
            latency_s REAL,
            error TEXT,
            created_at TEXT NOT NULL
        )"""
    )


@migration
def m002_calls_created_index(db: sqlite3.Connection) -> None:
    db.execute("CREATE INDEX calls_created_at ON calls (created_at)")


def migrate(db: sqlite3.Connection, migrations: list[tuple[str, Migration]] = MIGRATIONS) -> list[str]:
    """Apply the migrations this database has not seen (the call log's by default); return their names (cikb.app.migrations)."""
    return apply_migrations(db, migrations)


class CallLog:
    """The SQLite log of LLM calls (``<data_dir>/logs.db``).

    Nothing secret is written or read back: ``secrets`` (the configured API key, credentials
    in the endpoint's URL) and any URL credentials or tokens are masked as ``****``.
    """

    def __init__(self, path: Path, secrets: Iterable[str | None] = ()) -> None:
        self.path = path
        self.secrets = frozenset(s for s in secrets if s)

    def _mask(self, text: str | None) -> str | None:
        return None if text is None else mask_secrets(text, self.secrets)

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with closing(self._open()) as db:
            yield db

    def _open(self) -> sqlite3.Connection:
        """A connection with the schema migrated. The log only records: a damaged one is moved aside with one
        warning and a new one started (cikb.core.damage); a locked or read-only one is an error as it is."""
        try:
            return self._migrated()
        except sqlite3.DatabaseError as err:
            if not is_damage(err, schema=True):
                raise
            move_aside(self.path, err, "LLM call log")
            return self._migrated()

    def _migrated(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=10)
        try:
            migrate(db)
        except BaseException:
            db.close()
            raise
        return db

    def record(
        self,
        *,
        step: str,
        model: str,
        messages: list[dict],
        params: dict[str, Any],
        response: str | None,
        prompt_tokens: int | None,
        completion_tokens: int | None,
        latency_s: float,
        error: str | None,
    ) -> int:
        """Append one call; return its id."""
        row = (
            self._mask(step), self._mask(model), self._mask(json.dumps(messages, ensure_ascii=False)),
            self._mask(json.dumps(params, default=str)), self._mask(response), prompt_tokens, completion_tokens,
            latency_s, self._mask(error), _now().isoformat(),
        )
        with self._connect() as db, db:
            cursor = db.execute(
                "INSERT INTO calls (step, model, messages, params, response, prompt_tokens,"
                " completion_tokens, latency_s, error, created_at) VALUES (?,?,?,?,?,?,?,?,?,?)",
                row,
            )
            return int(cursor.lastrowid)

    def recent(self, limit: int = 10, step: str | None = None) -> list[LLMCall]:
        """The newest calls first."""
        if not self.path.exists():
            return []
        where, args = ("WHERE step = ?", [step]) if step else ("", [])
        with self._connect() as db:
            db.row_factory = sqlite3.Row
            rows = db.execute(f"SELECT * FROM calls {where} ORDER BY id DESC LIMIT ?", [*args, limit]).fetchall()
        return [_call_from_row(row, self._mask) for row in rows]

    def count(self) -> int:
        if not self.path.exists():
            return 0
        with self._connect() as db:
            return int(db.execute("SELECT COUNT(*) FROM calls").fetchone()[0])


def _call_from_row(row: sqlite3.Row, mask: Callable[[str | None], str | None]) -> LLMCall:
    # Masked again on the way out: rows written before masking existed show no credentials either.
    data = {key: mask(value) if isinstance(value, str) and key != "created_at" else value for key, value in dict(row).items()}
    data["messages"] = json.loads(data["messages"])
    data["params"] = json.loads(data["params"] or "{}")
    return LLMCall(**data)


def _now() -> datetime:
    return datetime.now(timezone.utc)


# --- the client ---------------------------------------------------------------


class LLMClient:
    """Chat completions and Responses API calls to the configured endpoint through the ``openai`` client, logged."""

    def __init__(self, settings: LLMSettings, log: CallLog) -> None:
        self.settings = settings
        self.log = log
        self._client: openai.OpenAI | None = None
        self._chat_only = False  # set once the endpoint answered 404 for /responses
        self._no_json_schema = False  # set once its chat completions refused a json_schema response_format

    @classmethod
    def from_settings(cls, settings: Settings) -> LLMClient:
        return cls(settings.llm, CallLog(settings.data_dir / LOG_DB_NAME, secrets=llm_secrets(settings.llm)))

    @property
    def configured(self) -> bool:
        """False means: use the offline mode (no endpoint to call)."""
        return self.settings.configured

    @property
    def model(self) -> str | None:
        return self.settings.model

    @property
    def chat_only(self) -> bool:
        """True once the endpoint answered 404 for ``/responses``: it has no Responses API, so no ``web_search`` tool."""
        return self._chat_only

    def _require_configured(self) -> None:
        if not self.configured:
            raise LLMNotConfiguredError("no LLM endpoint configured (set llm.base_url and llm.model)")

    def complete(self, step: str, messages: list[dict], **params: Any) -> LLMResult:
        """One chat completion. ``step`` names the caller in the log (e.g. ``answer``, ``enrich:lookup``).

        ``params`` go to ``chat.completions.create`` as they are (``stop``,
        ``response_format``...) and override the configured ``max_tokens`` and
        ``temperature``; ``model`` overrides ``llm.model``. Raises :class:`LLMError` on any endpoint failure,
        after logging it.
        """
        self._require_configured()
        import openai  # ~0.7 s to import: only once an endpoint is called, never in the offline mode

        model = str(params.pop("model", None) or self.settings.model)
        request = {"max_tokens": self.settings.max_tokens, "temperature": self.settings.temperature, **params}
        started = time.perf_counter()
        try:
            response = self._openai().chat.completions.create(model=model, messages=messages, **request)
        except openai.OpenAIError as err:
            self._log_failure(step, model, messages, request, started, err)
            raise LLMError(self._masked(err)) from err
        latency = time.perf_counter() - started
        return self._result(step, model, messages, request, response, latency)

    def respond(
        self,
        step: str,
        input: str,
        *,
        instructions: str | None = None,
        model: str | None = None,
        tools: list[dict] | None = None,
        schema: dict | None = None,
        **params: Any,
    ) -> LLMResult:
        """One Responses API call (``responses.create``), logged like a chat completion.

        ``schema`` is ``{"name": ..., "schema": {JSON schema}}``: the answer is JSON of that shape
        (structured outputs). ``tools`` are Responses tools, e.g. ``[{"type": "web_search"}]``.
        ``model`` overrides ``llm.model`` for this call. An endpoint without ``/responses``
        (HTTP 404) gets the same request as a chat completion instead, when no tool is asked for:
        local servers (llama.cpp, vLLM) often only speak chat completions.
        """
        self._require_configured()
        import openai

        model = model or str(self.settings.model)
        messages = ([{"role": "system", "content": instructions}] if instructions else []) + [{"role": "user", "content": input}]
        if self._chat_only and not tools:
            return self._respond_by_chat(step, messages, model, schema, params)
        if self._chat_only:  # a chat completion has no such tool: asking /responses again would only 404 again
            raise LLMError(f"LLM endpoint {mask_url(self.settings.base_url or '')} offers no Responses API (/responses answered 404), "
                           f"so no {', '.join(str(tool.get('type')) for tool in tools or [])} tool")
        request: dict[str, Any] = {"max_output_tokens": self.settings.max_tokens, **params}
        if tools:
            request["tools"] = tools
        if schema:
            request["text"] = {"format": {"type": "json_schema", "name": schema["name"], "schema": schema["schema"], "strict": True}}
        logged = {"api": "responses", **request}
        started = time.perf_counter()
        try:
            response = self._openai().responses.create(model=model, input=input, **({"instructions": instructions} if instructions else {}), **request)
        except openai.OpenAIError as err:
            falls_back = isinstance(err, openai.NotFoundError) and not tools
            self._log_failure(step, model, messages, logged, started, err, "; asked again as a chat completion" if falls_back else "")
            if falls_back:
                self._chat_only = True
                return self._respond_by_chat(step, messages, model, schema, params)
            raise LLMError(self._masked(err)) from err
        latency = time.perf_counter() - started
        text = _output_text(response)
        if not isinstance(text, str) or not text.strip():
            raise self._answered_nothing(step, model, messages, logged, latency,
                                         "an empty answer" if text is not None else "no Responses API answer (another kind of page or JSON)")
        usage = getattr(response, "usage", None)
        return self._logged_result(step, getattr(response, "model", None) or model, messages, logged, text,
                                   getattr(usage, "input_tokens", None), getattr(usage, "output_tokens", None), latency)

    def _respond_by_chat(self, step: str, messages: list[dict], model: str, schema: dict | None, params: dict) -> LLMResult:
        chat_params: dict[str, Any] = {"max_tokens": params.pop("max_output_tokens", self.settings.max_tokens)}
        if not schema or self._no_json_schema:
            return self.complete(step, messages, model=model, **chat_params, **params)
        json_schema = {"name": schema["name"], "schema": schema["schema"], "strict": True}
        try:
            return self.complete(step, messages, model=model, response_format={"type": "json_schema", "json_schema": json_schema},
                                 **chat_params, **params)
        except LLMError as err:
            if "response_format" not in str(err):
                raise
        # Some local servers (llama-cpp-python) refuse json_schema: the prompt's own JSON instructions remain.
        self._no_json_schema = True
        return self.complete(step, messages, model=model, **chat_params, **params)

    def _log_failure(self, step: str, model: str, messages: list[dict], request: dict, started: float,
                     err: openai.OpenAIError, note: str = "") -> None:
        self.log.record(step=step, model=model, messages=messages, params=request, response=None, prompt_tokens=None,
                        completion_tokens=None, latency_s=time.perf_counter() - started, error=self._masked(err) + note)

    def _masked(self, err: openai.OpenAIError) -> str:
        return mask_secrets(self._describe(err), self.log.secrets | llm_secrets(self.settings))

    def _logged_result(self, step: str, model: str, messages: list[dict], request: dict, text: str,
                       prompt_tokens: int | None, completion_tokens: int | None, latency: float, truncated: bool = False) -> LLMResult:
        log_id = self.log.record(step=step, model=model, messages=messages, params=request, response=text,
                                 prompt_tokens=prompt_tokens, completion_tokens=completion_tokens,
                                 latency_s=latency, error=None)
        return LLMResult(text=text, model=model, prompt_tokens=prompt_tokens,
                         completion_tokens=completion_tokens, latency_s=latency, log_id=log_id, truncated=truncated)

    def _result(self, step: str, model: str, messages: list[dict], request: dict, response: Any, latency: float) -> LLMResult:
        choices = getattr(response, "choices", None) or []
        text = getattr(getattr(choices[0], "message", None), "content", None) if choices else None
        if not isinstance(text, str) or not text.strip():
            raise self._answered_nothing(step, model, messages, request, latency,
                                         "an empty answer" if choices else "no chat completion (another kind of page or JSON)")
        usage = getattr(response, "usage", None)
        prompt_tokens = usage.prompt_tokens if usage else None
        completion_tokens = usage.completion_tokens if usage else None
        truncated = getattr(choices[0], "finish_reason", None) == "length"
        return self._logged_result(step, response.model or model, messages, request, text, prompt_tokens, completion_tokens, latency,
                                   truncated)

    def _answered_nothing(self, step: str, model: str, messages: list[dict], request: dict, latency: float, what: str) -> LLMError:
        # An endpoint that answers 200 with an HTML page (the SDK gives its text), a JSON object of another shape, no
        # choice or an empty message has answered nothing: an error, as a 500 is, not an empty answer read as "I don't know".
        error = mask_secrets(f"LLM endpoint {self.settings.base_url} returned {what}", self.log.secrets | llm_secrets(self.settings))
        self.log.record(step=step, model=model, messages=messages, params=request, response=None, prompt_tokens=None,
                        completion_tokens=None, latency_s=latency, error=error)
        return LLMError(error)

    def _openai(self) -> openai.OpenAI:
        import openai

        if self._client is None:
            self._client = openai.OpenAI(
                base_url=self.settings.base_url,
                api_key=self.settings.api_key or PLACEHOLDER_API_KEY,
                timeout=self.settings.timeout,
                max_retries=self.settings.max_retries,
            )
        return self._client

    def _describe(self, err: openai.OpenAIError) -> str:
        """One line a user can act on."""
        import openai

        where = f"LLM endpoint {mask_url(self.settings.base_url or '')}"
        if isinstance(err, openai.APITimeoutError):
            return f"{where} timed out after {self.settings.timeout:g} s"
        if isinstance(err, openai.APIConnectionError):
            return f"{where} is unreachable ({err.__cause__ or err})"
        if isinstance(err, openai.AuthenticationError):
            return f"{where} refused the API key (HTTP 401): check llm.api_key"
        if isinstance(err, openai.NotFoundError):
            return f"{where} answered 404 for model {self.settings.model!r}: check llm.base_url and llm.model"
        if isinstance(err, openai.APIStatusError):
            body = err.body if isinstance(err.body, dict) else {}
            return f"{where} answered HTTP {err.status_code}: {one_line(str(body.get('message') or err.message))}"
        return f"{where} failed: {one_line(str(err))}"


def _output_text(response: Any) -> str | None:
    """A Responses API answer's text; None when the reply is none (the SDK gives an HTML page's text as a str, and
    JSON of another shape as a Response without ``output``, whose ``output_text`` then fails)."""
    try:
        return response.output_text
    except (AttributeError, TypeError):
        return None


def llm_secrets(settings: LLMSettings) -> set[str]:
    """The values of the LLM settings that must never be shown: the API key and the endpoint URL's credentials."""
    return secrets_in(settings.model_dump(mode="json"))


def one_line(text: str, limit: int = 200) -> str:
    """``text`` on one line (whitespace runs as single spaces), cut to ``limit`` characters with an ellipsis."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
