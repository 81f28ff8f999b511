"""The review page's model: the proposals made for one CSV as a table of cells, and the user's choices.

Each proposal fills one column; the proposals found for the same CSV become the columns of
one table (the newest proposal wins when two fill the same column). Choices (accept or reject
a cell, a row, a column) live in the server's memory until the table is applied.

A choice names the table's proposals by their digest, the row by its key (its number in the
CSV, which the proposals pin by the CSV's hash) and the column by name: a page rendered before
the proposals changed, or naming a row or column the table lacks, is refused as stale instead
of landing on whatever now sits at that position.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Literal
from urllib.parse import parse_qs, urlencode

from cikb.core.errors import BadInputError, CikbError
from cikb.enrich import apply_proposals, load_proposal, review_rows
from cikb.enrich.models import ApplyResult, DataProposal, RowLog

Decision = Literal["accept", "reject"]


@dataclass(frozen=True)
class Segment:
    """A piece of the evidence text; ``mark`` when it is the value itself."""

    text: str
    mark: bool = False


class StalePageError(CikbError):
    """A choice made on a page that no longer matches the proposals: nothing was changed."""


@dataclass(frozen=True)
class Cell:
    row: int
    column: int
    value: str | None
    confidence: str
    status: str
    evidence: list[Segment]
    source_url: str | None
    source_title: str | None
    decision: Decision | None
    reason: str | None = None  # why an empty (or weak) cell is so, as `cikb review` gives it
    source_published: str | None = None  # the source post's publication date, where its page gives one

    @property
    def actionable(self) -> bool:
        return self.value is not None


@dataclass
class ReviewTable:
    """One CSV's proposals: columns (one proposal each), rows (labels) and cells."""

    key: str
    csv_path: Path
    proposals: list[tuple[Path, DataProposal]]
    ignored: list[Path]
    labels: dict[int, str]
    cells: dict[tuple[int, int], Cell]
    digest: str = ""

    @property
    def columns(self) -> list[str]:
        return [proposal.target.column for _, proposal in self.proposals]

    def column_index(self, name: str) -> int:
        """The position of the column named ``name``; StalePageError when the table has none by that name."""
        for index, column in enumerate(self.columns):
            if column == name:
                return index
        raise StalePageError(f"this review has no column {name!r} any more")

    def proposal_path(self, name: str) -> Path:
        return self.proposals[self.column_index(name)][0]

    def cell(self, row: int, column: int) -> Cell | None:
        return self.cells.get((row, column))

    def has_values(self, row: int | None = None, column: int | None = None) -> bool:
        """Whether the row (or column, or table) has a value to accept or reject."""
        return any(cell.actionable and row in (None, r) and column in (None, c) for (r, c), cell in self.cells.items())


def table_key(csv_path: str | Path) -> str:
    """A URL-safe name for a CSV, so its path never appears in a URL."""
    return hashlib.sha256(str(csv_path).encode("utf-8")).hexdigest()[:12]


@lru_cache(maxsize=64)
def _file_digest(path: Path, mtime_ns: int, size: int) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def proposals_digest(proposals: list[tuple[Path, DataProposal]]) -> str:
    """One digest of the table's proposal files (names and contents): it changes when any column is added, replaced or redone."""
    digest = hashlib.sha256()
    for path, _ in proposals:
        stat = path.stat()
        digest.update(f"{path.name}\0{_file_digest(path, stat.st_mtime_ns, stat.st_size)}\0".encode())
    return digest.hexdigest()[:16]


@lru_cache(maxsize=32)
def _load_proposal(path: Path, mtime_ns: int, size: int) -> DataProposal:
    """A proposal file, parsed once per version: every page of the review lists them all, per request."""
    return load_proposal(path)


def find_proposals(folder: Path) -> dict[str, tuple[Path, list[tuple[Path, DataProposal]], list[Path]]]:
    """The ``*.proposal.json`` files in ``folder``, grouped by the CSV they were made for.

    Returns key -> (csv path, proposals in column order, files ignored: older ones for a column).
    Files that are not proposals are left out.
    """
    groups: dict[str, list[tuple[Path, DataProposal]]] = {}
    for path in sorted(folder.glob("*.proposal.json")):
        try:
            stat = path.stat()
            proposal = _load_proposal(path, stat.st_mtime_ns, stat.st_size)
        except (CikbError, OSError):
            continue
        groups.setdefault(proposal.target.csv_path, []).append((path, proposal))
    found = {}
    for csv_path, items in groups.items():
        newest: dict[str, tuple[Path, DataProposal]] = {}
        for path, proposal in sorted(items, key=lambda item: item[1].created_at):
            newest[proposal.target.column.strip().lower()] = (path, proposal)
        kept = sorted(newest.values(), key=lambda item: item[1].target.column.lower())
        ignored = sorted({path for path, _ in items} - {path for path, _ in kept})
        found[table_key(csv_path)] = (Path(csv_path), kept, ignored)
    return found


@dataclass
class Decisions:
    """Accept/reject per cell, keyed by CSV key, proposal creation time and column, then row; each with the value it was made on.

    The value is kept because a proposal file rewritten in place keeps its creation time: an accept must hold only
    for the value the reviewer saw, never carry over to another one written into the same cell.
    """

    by_column: dict[tuple[str, str, str], dict[int, tuple[Decision, str]]] = field(default_factory=dict)

    def of(self, key: str, proposal: DataProposal) -> dict[int, tuple[Decision, str]]:
        return self.by_column.setdefault((key, proposal.created_at.isoformat(), proposal.target.column), {})


def build_table(key: str, csv_path: Path, proposals: list[tuple[Path, DataProposal]], ignored: list[Path], decisions: Decisions) -> ReviewTable:
    labels: dict[int, str] = {}
    cells: dict[tuple[int, int], Cell] = {}
    for column, (_, proposal) in enumerate(proposals):
        chosen = decisions.of(key, proposal)
        for line, log in zip(review_rows(proposal), proposal.research_log):  # `cikb review`'s rows, plus the evidence
            labels.setdefault(line["row"], line["label"])
            cells[(line["row"], column)] = _cell(line, evidence_of(log), column, chosen.get(line["row"]))
    return ReviewTable(key, csv_path, proposals, ignored, dict(sorted(labels.items())), cells, proposals_digest(proposals))


def _cell(line: dict, evidence: str, column: int, chosen: tuple[Decision, str] | None) -> Cell:
    value = line["value"] if line["status"] == "found" else None
    decision = chosen[0] if chosen is not None and chosen[1] == value else None  # made on another value: undecided
    return Cell(row=line["row"], column=column, value=value, confidence=line["confidence"], status=line["status"],
                evidence=highlight(evidence, value), source_url=line["source"], source_title=line["source_title"],
                source_published=line.get("source_published"),
                decision=decision, reason=line.get("reason"))


def evidence_of(log: RowLog) -> str:
    """The sentence the value was read from: the last step that recorded one."""
    for step in reversed(log.steps):
        evidence = step.data.get("evidence")
        if isinstance(evidence, str) and evidence.strip():
            return evidence.strip()
    return ""


def highlight(text: str, value: str | None) -> list[Segment]:
    """``text`` cut around each occurrence of ``value`` (case-insensitive), for <mark> in the template."""
    if not text:
        return []
    if not value or not value.strip():
        return [Segment(text)]
    segments = []
    last = 0
    for match in re.finditer(re.escape(value.strip()), text, flags=re.IGNORECASE):
        segments += [Segment(text[last:match.start()]), Segment(match.group(), mark=True)]
        last = match.end()
    segments.append(Segment(text[last:]))
    return [s for s in segments if s.text]


@dataclass(frozen=True)
class Choice:
    """What one button asks: accept, reject or clear (None) a cell, a row, a column or everything."""

    decision: Decision | None
    scope: Literal["cell", "row", "column", "all"]
    row: int | None = None
    column: str | None = None

    def encode(self) -> str:
        """The button's value: ``do=accept&scope=cell&row=0&column=Founded`` (the column by name)."""
        fields = {"do": self.decision or "clear", "scope": self.scope, "row": self.row, "column": self.column}
        return urlencode({name: value for name, value in fields.items() if value is not None})

    @classmethod
    def parse(cls, text: str) -> Choice:
        try:
            fields = {name: values[0] for name, values in parse_qs(text, strict_parsing=True).items() if len(values) == 1}
            decision = {"accept": "accept", "reject": "reject", "clear": None}[fields["do"]]
            scope = fields["scope"]
            row = int(fields["row"]) if "row" in fields else None
        except (KeyError, ValueError):
            raise BadInputError(f"not a review choice: {text!r}") from None
        needs = {"cell": (True, True), "row": (True, False), "column": (False, True), "all": (False, False)}.get(scope)
        if needs is None or needs != (row is not None, "column" in fields):
            raise BadInputError(f"not a review choice: {text!r}")
        return cls(decision, scope, row, fields.get("column"))  # type: ignore[arg-type]


def decide(table: ReviewTable, decisions: Decisions, choice: Choice) -> int:
    """Set the choice's decision (None clears) on its cells; returns the cells changed.

    StalePageError, changing nothing, when the row or column it names is not in the table.
    """
    if choice.row is not None and choice.row not in table.labels:
        raise StalePageError(f"this review has no row {choice.row + 1} any more" if choice.row >= 0 else f"no row {choice.row}")
    column = table.column_index(choice.column) if choice.column is not None else None
    changed = 0
    for (cell_row, cell_column), cell in table.cells.items():
        if not cell.actionable or choice.row not in (None, cell_row) or column not in (None, cell_column):
            continue
        chosen = decisions.of(table.key, table.proposals[cell_column][1])
        if choice.decision is None:
            chosen.pop(cell_row, None)
        else:
            chosen[cell_row] = (choice.decision, cell.value)  # type: ignore[assignment]
        changed += 1
    if choice.scope == "cell" and not changed:
        raise StalePageError(f"row {choice.row + 1} has no {choice.column} value to {choice.decision or 'clear'} any more")  # type: ignore[operator]
    return changed


def apply_table(table: ReviewTable, out_name: str) -> list[ApplyResult]:
    """Write the CSV with the accepted cells only, beside the original, through enrich's apply (same checks)."""
    name = out_name.strip()
    if not name or Path(name).name != name or name in (".", ".."):
        raise BadInputError(f"the output must be a file name beside {table.csv_path.name}, not {out_name!r}")
    if not name.isprintable():  # a NUL, a newline or a tab in a file name: refused, never written beside the table
        raise BadInputError(f"the output must be a file name without control characters, not {out_name!r}")
    if not name.lower().endswith(".csv") or not name[:-4].strip():  # ".csv" alone would write a hidden file
        raise BadInputError(f"the output must be a .csv file with a name, not {name!r}")
    target = table.csv_path.with_name(name)
    if target.resolve() == table.csv_path.resolve():
        raise BadInputError("the output must be a new file: the CSV the proposals were made for is never modified")
    if target.exists():  # apply_proposals would say so in the CLI's words (--out, --force)
        raise BadInputError(f"{name} already exists beside {table.csv_path.name}: type another file name under Apply (the page never overwrites a file)")
    # The cells the page shows accepted: a decision made on another value than the cell's now does not count.
    accepted = {proposal.target.column: {row for (row, column), cell in table.cells.items() if column == index and cell.decision == "accept"}
                for index, (_, proposal) in enumerate(table.proposals)}
    return apply_proposals([proposal for _, proposal in table.proposals], table.csv_path, target, accepted=accepted)
