"""The rows found so far: normalised to the schema, each once (seed 6.4, 8.1)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from cikb.lists.models import SearchTask

SOURCE_FIELDS = ("source_query_id", "source_strategy")
# Columns that hold an item's own address: the dedupe key when a result has no `url`.
_ADDRESS_COLUMNS = ("website", "url", "homepage", "domain", "site")


class ItemTable:
    """Rows with every schema column (missing: empty string) plus ``source_query_id`` and ``source_strategy``.

    A row is kept once: keyed by its URL (scheme, ``www.`` and a trailing slash ignored), else by its
    lower-cased title and source.
    """

    def __init__(self, columns: list[str]) -> None:
        self.columns = columns
        self.rows: list[dict[str, str]] = []
        self._seen: set[tuple[str, ...]] = set()

    def __len__(self) -> int:
        return len(self.rows)

    def add(self, item: dict[str, Any], task: SearchTask) -> bool:
        """Normalise and insert ``item``; False when it is empty or a duplicate."""
        by_name = {str(key).strip().lower(): _text(value) for key, value in item.items()}
        row = {column: by_name.get(column.lower(), "") for column in self.columns}
        if not any(row.values()):
            return False
        key = self._key(row, by_name)
        if key in self._seen:
            return False
        self._seen.add(key)
        self.rows.append({**row, "source_query_id": task.id, "source_strategy": task.strategy})
        return True

    def _key(self, row: dict[str, str], by_name: dict[str, str]) -> tuple[str, ...]:
        address = by_name.get("url") or next((row[c] for c in self.columns if c.lower() in _ADDRESS_COLUMNS and row[c]), "")
        if address:
            return ("url", normalise_url(address))
        title = by_name.get("title") or next(iter(row.values()), "")
        return ("title", title.lower(), by_name.get("source", "").lower())


def normalise_url(url: str) -> str:
    """``https://www.Acme.example/`` and ``acme.example`` are one key."""
    url = url.strip()
    parts = urlsplit(url if "//" in url else f"//{url}")
    host = (parts.hostname or "").removeprefix("www.")
    return f"{host}{parts.path.rstrip('/')}" + (f"?{parts.query}" if parts.query else "")


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, list):
        return "; ".join(_text(v) for v in value if v is not None)
    return " ".join(str(value).split())
