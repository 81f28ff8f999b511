"""JSON schemas (structured outputs, strict mode) for each model step's answer."""

from __future__ import annotations

# Fields every search result carries besides the list's columns: what it is and where it was found (for dedupe).
RESULT_FIELDS = ("url", "title", "source")


def _object(properties: dict[str, dict]) -> dict:
    return {"type": "object", "properties": properties, "required": list(properties), "additionalProperties": False}


def _array(items: dict) -> dict:
    return {"type": "array", "items": items}


STRING = {"type": "string"}

SEARCHES = {"name": "searches", "schema": _object({"searches": _array(_object(
    {"id": STRING, "query": STRING, "strategy": STRING, "rationale": STRING}))})}
IDS = {"name": "search_ids", "schema": _object({"ids": _array(STRING)})}
COLUMNS = {"name": "columns", "schema": _object({"columns": _array(STRING)})}


def items_schema(columns: list[str]) -> dict:
    """``{"items": [{<each column>, url, title, source}]}``, every value a string."""
    fields = {name: STRING for name in columns}
    fields.update({name: STRING for name in RESULT_FIELDS if name not in fields})
    return {"name": "items", "schema": _object({"items": _array(_object(fields))})}
