"""The rows found so far: normalised to the schema, each once (seed 6.4, 8.1)."""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import urlsplit

from cikb.lists.models import SearchTask
from cikb.lists.schemas import RESULT_FIELDS
# Columns that hold an item's own address: the dedupe key when a result has no `url`.
_ADDRESS_COLUMNS = ("website", "url", "homepage", "domain", "site")
# A host name as written without a scheme (acme.example, 127.0.0.1): "N/A", "unknown" or "-" is none.
_DOTTED_HOST = re.compile(r"[\w-]+(\.[\w-]+)+\.?")


class ItemTable:
    """Rows with every schema column (missing: empty string) plus ``source_query_id`` and ``source_strategy``.

    A row is kept once: keyed by its URL (scheme, ``www.`` and a trailing slash ignored), else by its
    lower-cased title and source. A column and a result field that differ in case only ("Title" and ``title``)
    are two fields, as in the items schema.
    """

    def __init__(self, columns: list[str]) -> None:
        self.columns = columns
        self.rows: list[dict[str, str]] = []
        self._seen: set[tuple[str, ...]] = set()

    def __len__(self) -> int:
        return len(self.rows)

    def add(self, item: dict[str, Any], task: SearchTask) -> bool:
        """Normalise and insert ``item``; False when it is empty or a duplicate."""
        fields = _fields(item, [*self.columns, *RESULT_FIELDS])
        row = {column: fields[column] for column in self.columns}
        if not any(row.values()):
            return False
        key = self._key(row, fields)
        if key in self._seen:
            return False
        self._seen.add(key)
        self.rows.append({**row, "source_query_id": task.id, "source_strategy": task.strategy})
        return True

    def _key(self, row: dict[str, str], fields: dict[str, str]) -> tuple[str, ...]:
        addresses = [fields["url"], *(row[c] for c in self.columns if c.lower() in _ADDRESS_COLUMNS)]
        address = next((key for key in map(normalise_url, addresses) if key), "")
        if address:
            return ("url", address)
        title = fields["title"] or next(iter(row.values()), "")
        return ("title", title.lower(), fields["source"].lower())


def _fields(item: dict[str, Any], names: list[str]) -> dict[str, str]:
    """Each of ``names`` from ``item`` as text: under its own key, else under a key differing only in case that
    is none of ``names`` (a model writes "company" for Company; "title" is never read as the column Title)."""
    item = {str(key).strip(): value for key, value in item.items()}
    by_lower: dict[str, Any] = {}
    for key, value in item.items():
        if key not in names:
            by_lower.setdefault(key.lower(), value)
    return {name: _text(item[name] if name in item else by_lower.get(name.lower())) for name in names}


def normalise_url(url: str) -> str:
    """``https://www.Acme.example/`` and ``acme.example`` are one key; "" when ``url`` is no web address
    (a placeholder such as "N/A", "unknown", "-"), which keys no row: distinct items must not become one."""
    url = url.strip()
    try:
        parts = urlsplit(url if "//" in url else f"//{url}")
        host = parts.hostname or ""
    except ValueError:  # a malformed address, e.g. "http://[oops"
        return ""
    if not (parts.scheme and host) and not _DOTTED_HOST.fullmatch(host):
        return ""
    return f"{host.removeprefix('www.')}{parts.path.rstrip('/')}" + (f"?{parts.query}" if parts.query else "")


def _text(value: Any) -> str:
    """A cell's text: a list's items joined by "; ", an object's name (else its values), never a Python repr."""
    if value is None:
        return ""
    if isinstance(value, dict):
        return _text(value["name"]) if "name" in value else _text(list(value.values()))
    if isinstance(value, list):
        return "; ".join(text for text in map(_text, value) if text)
    if isinstance(value, bool):
        return json.dumps(value)  # JSON's true/false, as the model wrote it
    return " ".join(str(value).split())
