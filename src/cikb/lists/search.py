"""Search providers: the Responses API web_search tool through the model, or fixed local results.

Both answer ``search(task, columns, strategy, description)`` with a list of item dicts (the
columns plus ``url``, ``title``, ``source``) or raise :class:`SearchFailed`, which the pipeline
records as a zero-result search before it goes on.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from importlib import resources
from typing import Any, Protocol

from cikb.core.config import SearchStrategy
from cikb.core.errors import CikbError
from cikb.core.models import LLMResult
from cikb.lists.models import SearchTask
from cikb.lists.parsing import parse_items
from cikb.lists.schemas import items_schema
from cikb.prompts import load_prompt


class SearchFailed(Exception):
    """One search could not run (network, HTTP 429, an answer without items)."""


class JsonModel(Protocol):
    """What the list builder needs of a model: ``cikb.app.llm.LLMClient.respond``."""

    @property
    def chat_only(self) -> bool:
        """True once the endpoint turned out to have no Responses API (so no web_search tool)."""
        ...

    def respond(self, step: str, input: str, *, instructions: str | None = None, model: str | None = None,
                tools: list[dict] | None = None, schema: dict | None = None, **params: Any) -> LLMResult: ...


class SearchProvider(Protocol):
    name: str

    def unavailable(self) -> str | None:
        """Why no search can run (one line), asked before the first approval; None when searches can run."""
        ...

    def search(self, task: SearchTask, columns: list[str], strategy: SearchStrategy, description: str) -> list[dict[str, Any]]: ...


class WebSearch:
    """A web-capable model with the ``web_search`` tool, answering in the items schema."""

    name = "web"

    def __init__(self, model: JsonModel, model_name: str | None = None, max_output_tokens: int = 4000) -> None:
        self.model = model
        self.model_name = model_name
        self.max_output_tokens = max_output_tokens

    def unavailable(self) -> str | None:
        # The planning steps ran before: an endpoint without /responses answered them as chat completions.
        if self.model.chat_only:
            return ("the LLM endpoint offers no Responses API (/responses answered 404), so it cannot search the web: "
                    "use an endpoint with the Responses API web_search tool, or --mock-search for cikb's fictional results")
        return None

    def search(self, task: SearchTask, columns: list[str], strategy: SearchStrategy, description: str) -> list[dict[str, Any]]:
        instructions = (load_prompt("build_web_search").replace("{max_results}", str(strategy.max_results))
                        .replace("{hint}", strategy.hint).replace("{columns}", ", ".join(columns)))
        request = json.dumps({"list": description, "query": task.query}, ensure_ascii=False)
        tool = {"type": "web_search", "search_context_size": strategy.search_context_size}
        try:
            result = self.model.respond(f"build:search:{task.strategy}", request, instructions=instructions, model=self.model_name,
                                        tools=[tool], schema=items_schema(columns), max_output_tokens=self.max_output_tokens)
        except CikbError as err:
            raise SearchFailed(str(err)) from None
        try:
            return parse_items(result.text)[: strategy.max_results]
        except ValueError as err:
            raise SearchFailed(f"the answer held no items ({err})") from None


MOCK_RESULTS = "mock_results.json"


@cache
def _mock_pool() -> tuple[dict[str, str], ...]:
    return tuple(json.loads(resources.files(__package__).joinpath(MOCK_RESULTS).read_text(encoding="utf-8")))


class MockSearch:
    """Fixed local results (fictional companies shipped with cikb): each query gets a deterministic slice.

    Different queries overlap, so dedupe and retry rounds run as they would on the web.
    """

    name = "mock"

    def __init__(self, pool: list[dict[str, str]] | None = None) -> None:
        self.pool = tuple(pool) if pool is not None else _mock_pool()

    def unavailable(self) -> str | None:
        return None

    def search(self, task: SearchTask, columns: list[str], strategy: SearchStrategy, description: str) -> list[dict[str, Any]]:
        if not self.pool:
            return []
        start = int(hashlib.sha256(task.query.lower().encode()).hexdigest(), 16) % len(self.pool)
        count = min(strategy.max_results, len(self.pool))
        return [dict(self.pool[(start + i) % len(self.pool)]) for i in range(count)]
