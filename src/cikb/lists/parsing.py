"""Reading the model's JSON answers. An answer without the asked JSON is a ValueError: prose is never read as searches."""

from __future__ import annotations

import json
import re
from typing import Any

from cikb.lists.models import SearchTask

_FENCE = re.compile(r"^```[a-zA-Z]*\s*|\s*```$")


def load_json(text: str) -> Any:
    """The JSON value in ``text``: as is, inside a Markdown fence, or the outermost {...} / [...]. ValueError if none."""
    text = _FENCE.sub("", text.strip())
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        pass
    for opener, closer in ("{}", "[]"):
        start, end = text.find(opener), text.rfind(closer)
        if 0 <= start < end:
            try:
                return json.loads(text[start:end + 1])
            except json.JSONDecodeError:
                continue
    raise ValueError("no JSON in the answer")


def _items(value: Any, key: str) -> list:
    """``value[key]`` when ``value`` is an object holding a list there, ``value`` when it is a list itself."""
    if isinstance(value, dict):
        value = value.get(key)
    if not isinstance(value, list):
        raise ValueError(f"expected a list under {key!r}")
    return value


def parse_searches(text: str, batch: int, taken: set[str], strategies: set[str]) -> list[SearchTask]:
    """Searches from ``{"searches": [{id, query, strategy, rationale}]}``; ValueError when there is no such list,
    or when none of its entries is a search. An empty list is the asked JSON: the model planned none.

    An id that is missing or already ``taken`` becomes ``<batch>_<n>`` (deterministic); an unknown strategy is ``web``.
    """
    tasks = []
    entries = _items(load_json(text), "searches")
    for n, raw in enumerate(entries, start=1):
        if isinstance(raw, str):
            raw = {"query": raw}
        if not isinstance(raw, dict) or not str(raw.get("query") or "").strip():
            continue
        task_id = _unique_id(str(raw.get("id") or "").strip(), f"{batch}_{n}", taken)
        strategy = str(raw.get("strategy") or "web").strip().lower()
        tasks.append(SearchTask(id=task_id, query=" ".join(str(raw["query"]).split()),
                                strategy=strategy if strategy in strategies else "web",
                                rationale=str(raw.get("rationale") or "").strip() or None))
    if entries and not tasks:
        raise ValueError("no searches in the answer")
    return tasks


def _unique_id(wanted: str, default: str, taken: set[str]) -> str:
    candidate = wanted if wanted and wanted not in taken else default
    suffix = 2
    while candidate in taken:
        candidate = f"{default}_{suffix}"
        suffix += 1
    taken.add(candidate)
    return candidate


def parse_ids(text: str) -> list[str]:
    """Ids from ``{"ids": [...]}`` (strings or numbers)."""
    return [str(i).strip() for i in _items(load_json(text), "ids") if str(i).strip()]


def parse_columns(text: str) -> list[str]:
    """Column names from ``{"columns": [...]}``, blanks and case-insensitive repeats dropped, order kept.

    A column may come as an object with its ``name`` (``{"name": "Company", "type": "string"}``); any other
    value is not the asked JSON: a repr is no column name.
    """
    columns: list[str] = []
    for entry in _items(load_json(text), "columns"):
        name = entry.get("name") if isinstance(entry, dict) else entry
        if not isinstance(name, str):
            raise ValueError(f"a column is {type(entry).__name__}, not a name")
        name = " ".join(name.split())
        if name and name.lower() not in {c.lower() for c in columns}:
            columns.append(name)
    if not columns:
        raise ValueError("no columns in the answer")
    return columns


def parse_items(text: str) -> list[dict[str, Any]]:
    """Result items from ``{"items": [{...}]}``; ValueError when there is no such list."""
    return [item for item in _items(load_json(text), "items") if isinstance(item, dict)]
