"""The data proposal (spec N7): written by enrich, reviewed by the user, applied only on request.

A proposal records the CSV it was made for (path and sha256 of its bytes) and
the target column. ``apply`` refuses a proposal whose file changed or was
another file, or whose column is not the one asked for, and writes the
result atomically; the input CSV is never modified by ``enrich``.
"""

from __future__ import annotations

import csv
import json
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from datetime import datetime, timezone
from pathlib import Path
from typing import BinaryIO, TextIO

import ijson

from cikb.enrich.coerce import confidence_at_least
from cikb.enrich.models import (
    ApplyResult,
    Confidence,
    DataProposal,
    ProposalOperation,
    ProposalTarget,
    RowLog,
)
from cikb.enrich.retry import why_weak
from cikb.enrich.table import TableScan, atomic_writer, check_writable, scan_table, spreadsheet_safe, write_text_atomic
from cikb.enrich.template import placeholders
from pydantic import BaseModel, ValidationError

from cikb.core.errors import BadInputError

APPLIED_CONFIDENCES: tuple[Confidence, ...] = ("high", "medium", "low")  # a floor for apply; "none" is no value to apply


def build_proposal(*, target: ProposalTarget, strategy_name: str, description: str, params: dict,
                   logs: list[RowLog], rows_total: int, cancelled: bool) -> DataProposal:
    found = [log for log in logs if log.status == "found" and log.value is not None]
    reasoning = proposal_reasoning(description, found=len(found), finished=len(logs), rows_total=rows_total, cancelled=cancelled,
                                   by_confidence=Counter(log.confidence for log in found))
    operations = [ProposalOperation(row_id=log.row_id, changes={target.column: log.value}) for log in found]  # type: ignore[dict-item]
    return DataProposal(reasoning=reasoning, target=target, strategy=strategy_name, params=params,
                        rows_total=rows_total, cancelled=cancelled, created_at=datetime.now(timezone.utc),
                        operations=operations, research_log=logs)


def proposal_reasoning(description: str, *, found: int, finished: int, rows_total: int, cancelled: bool,
                       by_confidence: Mapping[str, int] | None = None) -> str:
    """The proposal's one-line summary: what was asked, and how many rows got a value (of which confidence)."""
    reasoning = f"{description} — found {found} of {rows_total} rows"
    levels = ", ".join(f"{n} {level}" for level in ("high", "medium", "low") if (n := (by_confidence or {}).get(level)))
    reasoning += f" ({levels})" if levels else ""
    if cancelled:
        reasoning += f" (cancelled after {finished} rows; unfinished rows are not in this proposal)"
    return reasoning


def save_proposal(proposal: DataProposal, path: str | Path) -> Path:
    """Write the proposal JSON atomically."""
    path = Path(path)
    write_text_atomic(path, proposal.model_dump_json(indent=2) + "\n")
    return path


def save_proposal_rows(proposal: DataProposal, path: str | Path, logs: Callable[[], Iterable[RowLog]]) -> Path:
    """Write a proposal whose rows stream from ``logs()`` (called twice: operations, then research log), atomically.

    ``proposal`` gives every other field; its own operations and research log are ignored. The
    file is the one :func:`save_proposal` writes, built in memory that does not grow with the table.
    """
    head = proposal.model_dump(mode="json", exclude={"operations", "research_log"})
    column = proposal.target.column
    with atomic_writer(Path(path)) as handle:
        handle.write(json.dumps(head, indent=2, ensure_ascii=False)[: -len("\n}")] + ',\n  "operations": [')
        found = (ProposalOperation(row_id=log.row_id, changes={column: log.value}) for log in logs()
                 if log.status == "found" and log.value is not None)
        _write_items(handle, found)
        handle.write(',\n  "research_log": [')
        _write_items(handle, logs())
        handle.write("\n}\n")
    return Path(path)


def _write_items(handle: TextIO, items: Iterable[BaseModel]) -> None:
    first = True
    for item in items:
        handle.write(("\n    " if first else ",\n    ") + item.model_dump_json())
        first = False
    handle.write("]" if first else "\n  ]")


def iter_research_log(path: str | Path) -> Iterator[RowLog]:
    """A proposal's research log, one row at a time (for tables too big to load whole)."""
    return _stream(path, "research_log.item", RowLog)


def load_proposal_head(path: str | Path) -> DataProposal:
    """A proposal without its operations and research log: read from the top of the file, not the whole of it."""
    try:
        with Path(path).open("rb") as handle:
            return DataProposal.model_validate(_head_fields(handle))
    except FileNotFoundError:
        raise BadInputError(f"no such proposal: {path}") from None
    except (ValidationError, ijson.JSONError, UnicodeDecodeError) as err:
        raise BadInputError(f"not a cikb proposal: {path} ({_first_error(err)})") from None


def _head_fields(handle: BinaryIO) -> dict:
    """The top-level fields before the rows (save_proposal and save_proposal_rows write every other field first)."""
    fields: dict = {}
    key, builder = None, None
    for prefix, event, value in ijson.parse(handle, use_float=True):
        if builder is None:
            if prefix == "" and event == "map_key":
                if value in ("operations", "research_log"):
                    break
                key, builder = value, ijson.ObjectBuilder()
            continue
        builder.event(event, value)
        if prefix == key and event not in ("start_map", "start_array", "map_key"):  # a scalar, or the end of the value's container
            fields[key], builder = builder.value, None
    return fields


def load_proposal(path: str | Path) -> DataProposal:
    path = Path(path)
    try:
        return DataProposal.model_validate_json(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BadInputError(f"no such proposal: {path}") from None
    except (ValidationError, UnicodeDecodeError) as err:
        raise BadInputError(f"not a cikb proposal: {path} ({_first_error(err)})") from None


def _first_error(err: Exception) -> str:
    if isinstance(err, ValidationError):
        first = err.errors()[0]
        return f"{'.'.join(str(p) for p in first['loc']) or 'document'}: {first['msg']}"
    return str(err)


def apply_proposal(proposal: DataProposal | str | Path, csv_path: str | Path, out: str | Path, *,
                   min_confidence: Confidence = "low", column: str | None = None, force: bool = False) -> ApplyResult:
    """Write ``csv_path`` plus the proposal's values (at least ``min_confidence``) to ``out``, atomically.

    A proposed value that a spreadsheet would run as a formula gets a leading apostrophe
    (:func:`~cikb.enrich.table.spreadsheet_safe`); the table's own cells are copied as they are.
    """
    return apply_proposals([proposal], csv_path, out, min_confidence=min_confidence, column=column, force=force)[0]


def apply_proposals(proposals: list[DataProposal | str | Path], csv_path: str | Path, out: str | Path, *,
                    min_confidence: Confidence = "low", column: str | None = None, force: bool = False,
                    accepted: Mapping[str, Collection[int]] | None = None) -> list[ApplyResult]:
    """:func:`apply_proposal` for several proposals of one table (the columns of one job, or the review page's), in one write.

    ``csv_path`` is the table the proposals were made for, or the output of an earlier apply of
    it (its rows the same in the original's columns). An existing ``out`` is overwritten only
    with ``force``. ``accepted`` (the review page's choice), keyed by each proposal's column,
    limits a column to the rows named; a column it leaves out gets no value. The table and the
    proposals stream: memory does not grow with them.
    """
    if min_confidence not in APPLIED_CONFIDENCES:
        raise BadInputError(f"min_confidence must be {', '.join(APPLIED_CONFIDENCES[:-1])} or {APPLIED_CONFIDENCES[-1]}, not {min_confidence!r}")
    table = scan_table(csv_path)
    heads = [proposal if isinstance(proposal, DataProposal) else load_proposal_head(proposal) for proposal in proposals]
    # Never over the table read, nor over the one a proposal was made for (through an earlier output), --force or
    # not: the proposals of the table's other columns are checked against it, and would all be refused after.
    check_writable(Path(out), inputs=[Path(csv_path), *(Path(head.target.csv_path) for head in heads)])
    if Path(out).exists() and not force:
        raise BadInputError(f"{out} exists (an earlier output?): give another --out, or --force to overwrite it")
    fills = []
    originals_checked: set[tuple[str, str]] = set()  # the columns of one job share their original: compare it once
    for proposal, head in zip(proposals, heads):
        original = (head.target.csv_path, head.target.csv_sha256)
        if table.sha256 != head.target.csv_sha256 and original not in originals_checked:
            _check_earlier_output(head, table)
            originals_checked.add(original)
        _check_target(head, column)
        keep = None if accepted is None else set(accepted.get(head.target.column, ()))
        fills.append(_Fill(head, proposal, table.find_column(head.target.column) or head.target.column, min_confidence, keep))
    added = [c for c in dict.fromkeys(fill.column for fill in fills) if c not in table.columns]
    columns = [*table.columns, *added]
    rows = 0
    # A copy of the table as written but for the values filled: its byte-order mark (Excel reads UTF-8 by it), line
    # ends, header cells and blank lines too.
    with atomic_writer(Path(out), overwrite=force) as handle:
        if table.bom:
            handle.write("\ufeff")
        writer = csv.writer(handle, delimiter=table.delimiter, lineterminator=table.newline)
        writer.writerow([*table.header_as_written, *added])
        for record in table.records():
            if isinstance(record, list):
                writer.writerow(record)
                continue
            rows += 1
            for fill in fills:
                fill.apply(rows - 1, record)
            writer.writerow([record.get(c, "") for c in columns])
        for fill in fills:
            fill.finish(rows)
    return [fill.result(str(out), rows) for fill in fills]


class _Fill:
    """One proposal's values going into the rows as they stream by (its operations in row order)."""

    def __init__(self, head: DataProposal, source: DataProposal | str | Path, column: str, min_confidence: Confidence,
                 keep: set[int] | None = None) -> None:
        self.head, self.column, self.min_confidence, self.keep = head, column, min_confidence, keep
        whole = source if isinstance(source, DataProposal) else None
        self.operations = iter(whole.operations) if whole else _stream(source, "operations.item", ProposalOperation)  # type: ignore[arg-type]
        self.logs = iter(whole.research_log) if whole else iter_research_log(source)  # type: ignore[arg-type]
        self.next = next(self.operations, None)
        self.confidence: dict[int, Confidence] = {}
        self.count = self.updated = self.below = self.not_accepted = self.replaced = 0
        self.last = -1

    def apply(self, row_id: int, row: dict[str, str]) -> None:
        operation = self.next
        if operation is None or operation.row_id > row_id:
            return
        _check_operation(operation, self.head.target.column, row_id + 1 if operation.row_id == row_id else row_id)
        if operation.row_id <= self.last:
            raise BadInputError(f"proposal operations are out of row order at row {operation.row_id}")
        self.last, self.count, self.next = operation.row_id, self.count + 1, next(self.operations, None)
        if self.keep is not None and row_id not in self.keep:
            self.not_accepted += 1
            return
        if not confidence_at_least(self._confidence(row_id), self.min_confidence):
            self.below += 1
            return
        value = spreadsheet_safe(next(iter(operation.changes.values())))  # a value from the web is data
        self.replaced += int(bool(row.get(self.column, "").strip()) and row[self.column] != value)  # a column the table had
        row[self.column] = value
        self.updated += 1

    def _confidence(self, row_id: int) -> Confidence:
        """The row's confidence from the research log, read alongside (it is in row order too)."""
        for log in self.logs:
            if log.row_id == row_id:
                return log.confidence
            if log.row_id > row_id:
                break
        return "none"

    def finish(self, rows: int) -> None:
        if self.next is not None:  # an operation past the last row (or out of order)
            _check_operation(self.next, self.head.target.column, rows)
            raise BadInputError(f"proposal operations are out of row order at row {self.next.row_id}")

    def result(self, out: str, rows: int) -> ApplyResult:
        return ApplyResult(out=out, column=self.column, updated=self.updated, below_min_confidence=self.below,
                           not_accepted=self.not_accepted, not_found=rows - self.count, replaced=self.replaced)


def _stream(path: str | Path, prefix: str, model: type[BaseModel]) -> Iterator:
    """The items of one array of a proposal file (``prefix``: ijson's path to them), validated as they are read."""
    try:
        with Path(path).open("rb") as handle:
            for item in ijson.items(handle, prefix, use_float=True):
                yield model.model_validate(item)
    except FileNotFoundError:
        raise BadInputError(f"no such proposal: {path}") from None
    except (ValidationError, ijson.JSONError, UnicodeDecodeError) as err:
        raise BadInputError(f"not a cikb proposal: {path} ({_first_error(err)})") from None


def _check_earlier_output(proposal: DataProposal, table: TableScan) -> None:
    """Accept ``table`` in place of the proposal's own when it is an earlier apply's output of that table: the
    original (unchanged, by its hash) has its columns, as many rows, and the same cells in the columns the proposal
    was made from (the company's, the website's, those its question or formula names). Other cells may differ: an
    earlier apply fills a column the original has ("Founded", half empty), which a "Headquarters" proposal never read."""
    mismatch = BadInputError(
        f"this proposal was made for another file or an earlier version of it "
        f"({proposal.target.csv_path}, sha256 {proposal.target.csv_sha256[:12]}…); enrich the file again"
    )
    try:
        original = scan_table(proposal.target.csv_path)
    except BadInputError:
        raise mismatch from None
    if original.sha256 != proposal.target.csv_sha256 or original.row_count != table.row_count:
        raise mismatch
    identity = original.identity_column(proposal.target.company_column)
    named = [original.find_column(name) for key in ("question", "formula") if isinstance(proposal.params.get(key), str)
             for name in placeholders(proposal.params[key])]
    read = {c for c in (identity, original.website_column(identity), *named) if c is not None}
    if not set(original.columns) <= set(table.columns) or any(
            any(row.get(c) != mine.get(c) for c in read) for row, mine in zip(original.rows(), table.rows())):
        raise mismatch


def _check_target(proposal: DataProposal, column: str | None) -> None:
    if column is not None and column.strip().lower() != proposal.target.column.strip().lower():
        raise BadInputError(f"this proposal fills column {proposal.target.column!r}, not {column!r}")


def _check_operation(operation: ProposalOperation, column: str, rows: int) -> None:
    if set(k.lower() for k in operation.changes) != {column.lower()}:
        raise BadInputError(f"proposal operation for row {operation.row_id} changes {list(operation.changes)}, not only {column!r}")
    if not 0 <= operation.row_id < rows:
        raise BadInputError(f"proposal names row {operation.row_id}, the file has {rows} rows")


def review_rows(proposal: DataProposal | Iterable[RowLog]) -> Iterator[dict]:
    """One line per row for `cikb review`: value, confidence, path, first source, the evidence with the value
    marked, why an empty cell is empty, and the attempts of a retried cell. Rows stream from a research log."""
    for log in proposal.research_log if isinstance(proposal, DataProposal) else proposal:
        source = log.sources[0] if log.sources else None
        evidence = next((s.data.get("evidence") or "" for s in reversed(log.steps) if s.type == "answer"), "")
        yield {
            "row": log.row_id, "label": log.label, "status": log.status, "value": log.value,
            "confidence": log.confidence, "answered_by": log.answered_by,
            "source": source.url if source else None, "source_title": source.title if source else None,
            "source_kind": source.kind if source else None,
            "source_published": source.published.isoformat() if source and source.published else None,
            "evidence": mark_value(evidence, log.value) if evidence else None,
            "reason": None if confidence_at_least(log.confidence, "medium") else why_weak(log),  # an empty or weak cell says why
            "attempts": [a.model_dump() for a in log.attempts],
        }


def mark_value(sentence: str, value: str | None) -> str:
    """The sentence with the value marked as «value» where it appears (as written, ignoring case)."""
    if not value:
        return sentence
    at = sentence.lower().find(value.lower())
    if at < 0:
        return sentence
    return f"{sentence[:at]}«{sentence[at:at + len(value)]}»{sentence[at + len(value):]}"
