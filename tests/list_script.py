"""A scripted model for `cikb build` tests: answers each list-builder step the way a real model would.

Served through tests/fake_openai.py (``fake_openai.respond_with(ListScript(...))``), it tells the
steps apart by the JSON the pipeline sends: ``candidates`` (filter), ``performance_report``
(retry), ``query`` (web search), ``batch`` (generate), else the schema. A step named in ``prose``
answers with sentences instead of the asked JSON, as small models do.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

from fake_openai import FakeError


@dataclass
class ListScript:
    """``companies``: the pool each web search answers from (``per_search`` of them, rotating)."""

    companies: list[dict[str, str]] = field(default_factory=list)
    per_search: int = 3
    filter_ids: list[str] | None = None  # None: the first `count` candidates
    search_delay: float = 0.0
    failing_queries: set[str] = field(default_factory=set)  # searches answered with HTTP 429
    prose: set[str] = field(default_factory=set)  # steps answered with PROSE: "schema", "filter", "retry", "batch1", "batch2"...
    schema_columns: list[str] = field(default_factory=lambda: ["Company", "Website", "City"])  # the schema step's answer
    failing_steps: set[str] = field(default_factory=set)  # steps answered with HTTP 500, named as in `prose`
    retry_queries: list[str] | None = None  # what a retry round plans (None: "retry query 1".."N")
    id_format: str = "{prefix}-{n}"  # the ids the odd batches and retry rounds carry
    searches_seen: list[str] = field(default_factory=list)
    _next: int = 0

    def __call__(self, request: dict[str, Any]) -> str | FakeError:
        payload = _payload(request)
        if "query" in payload:
            return self.search(payload["query"])
        if _step(payload) in self.prose:
            return PROSE
        if _step(payload) in self.failing_steps:
            return FakeError(500, "upstream overloaded")
        if "candidates" in payload:
            ids = self.filter_ids if self.filter_ids is not None else [c["id"] for c in payload["candidates"][: payload["count"]]]
            return json.dumps({"ids": ids})
        if "performance_report" in payload:
            return _searches("retry", payload["count"], self.id_format, self.retry_queries)
        if "batch" in payload:
            return _searches(f"b{payload['batch']}", payload["count"], self.id_format if payload["batch"] % 2 == 1 else None)
        return json.dumps({"columns": self.schema_columns})

    def search(self, query: str) -> str | FakeError:
        self.searches_seen.append(query)
        time.sleep(self.search_delay)
        if query in self.failing_queries:
            return FakeError(429, "rate limited")
        items = []
        for _ in range(self.per_search):
            if not self.companies:
                break
            items.append(self.companies[self._next % len(self.companies)])
            self._next += 1
        return json.dumps({"items": items})


def _payload(request: dict[str, Any]) -> dict[str, Any]:
    text = request.get("input") if request["_path"].endswith("/responses") else request["messages"][-1]["content"]
    return json.loads(text)


PROSE = ("Sure! Here are some searches that could help you build this list.\n"
         "Cloud monitoring startups funded in 2024\n"
         "Observability vendors with a Series A round")


def _step(payload: dict[str, Any]) -> str:
    for key, step in (("candidates", "filter"), ("performance_report", "retry")):
        if key in payload:
            return step
    return f"batch{payload['batch']}" if "batch" in payload else "schema"


def _searches(prefix: str, count: int, id_format: str | None, queries: list[str] | None = None) -> str:
    """``count`` searches (``queries`` when given); the odd batches carry ids, the even ones leave them to the pipeline."""
    strategies = ["web", "news", "agg"]
    queries = queries if queries is not None else [f"{prefix} query {n}" for n in range(1, count + 1)]
    searches = [{"query": query, "strategy": strategies[n % 3], "rationale": "scripted"} for n, query in enumerate(queries, start=1)]
    if id_format:
        for n, search in enumerate(searches, start=1):
            search["id"] = id_format.format(prefix=prefix, n=n)
    return json.dumps({"searches": searches})


def build_settings(base_url: str, export_dir: str) -> dict[str, str]:
    """The environment variables of a `cikb build` against the scripted endpoint: small batches, one retry round."""
    return {
        "CIKB_LLM__BASE_URL": base_url, "CIKB_LLM__MODEL": "fake-model", "CIKB_LLM__MAX_RETRIES": "0",
        "CIKB_LISTS__INITIAL_BATCHES": "2", "CIKB_LISTS__PER_BATCH": "4", "CIKB_LISTS__FILTERED_COUNT": "3",
        "CIKB_LISTS__MAX_RETRY_ROUNDS": "1", "CIKB_LISTS__EXPORT_DIR": export_dir,
    }


def company(n: int, website: str | None = None) -> dict[str, str]:
    return {"Company": f"Company {n}", "Website": website or f"https://company{n}.example/", "City": "Springfield",
            "url": website or f"https://company{n}.example/", "title": f"Company {n}", "source": "https://list.example/"}
