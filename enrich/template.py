"""`{Column Name}` placeholders filled from a row (spec N2)."""

from __future__ import annotations

import re
from collections.abc import Mapping

from cikb.core.errors import BadInputError

PLACEHOLDER = re.compile(r"\{([^{}]+)\}")


def placeholders(template: str) -> list[str]:
    """The column names a template refers to, in order of appearance."""
    return [name.strip() for name in PLACEHOLDER.findall(template)]


def check_template(template: str, columns: list[str]) -> None:
    """Raise BadInputError when a placeholder names no column (case-insensitive), or a brace is no placeholder's
    ("{}", "{Company founded?"): sent as typed, it would be asked of every row."""
    known = {c.strip().lower() for c in columns}
    if {"{", "}"} & set(PLACEHOLDER.sub("", template)):
        raise BadInputError(f"a brace that is no {{Column}} placeholder in template: {template!r} (columns: {', '.join(columns)})")
    missing = [p for p in placeholders(template) if p.lower() not in known]
    if missing:
        raise BadInputError(f"unknown column in template: {{{missing[0]}}} (columns: {', '.join(columns)})")


def interpolate_template(template: str, row: Mapping[str, object], render=str) -> str:
    """Replace each `{Column}` with the row's value, matching column names case-insensitively.

    ``render`` turns a cell into text (the computation strategy passes a
    literal-quoting renderer); an unknown placeholder raises BadInputError.
    """
    by_lower = {str(k).strip().lower(): v for k, v in row.items()}

    def fill(match: re.Match[str]) -> str:
        key = match.group(1).strip().lower()
        if key not in by_lower:
            raise BadInputError(f"unknown column in template: {{{match.group(1)}}}")
        value = by_lower[key]
        return render("" if value is None else value)

    return PLACEHOLDER.sub(fill, template)
