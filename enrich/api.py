"""The Python API under `cikb enrich`: a CSV and a column in, a data proposal out (nothing applied)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Literal

from cikb.enrich.base import (
    ColumnSpec,
    Completer,
    EnrichContext,
    Generation,
    KeyValueCache,
    KnowledgeBase,
    RowInput,
    get_strategy,
    load_plugins,
)
from cikb.enrich.models import ColumnType, DataProposal, ProposalTarget
from cikb.enrich.orchestrator import CancellationToken, ProgressCallback, ReuseLookup, RowCallback, run_rows
from cikb.enrich.proposal import build_proposal
from cikb.enrich.providers import WebProvider, open_web_provider
from cikb.enrich.table import TableHeader, scan_table

from cikb.core.config import Settings, load_settings
from cikb.core.errors import BadInputError, CikbError
from cikb.core.slug import slugify

Auto = Literal["auto"]
StartCallback = Callable[[ProposalTarget, dict, int], None]  # (target, params, rows in the table), before any row runs
COLUMN_TYPES: tuple[ColumnType, ...] = ("text", "number", "boolean", "select")


def enrich_table(csv_path: str | Path, column: str, *, strategy: str = "lookup", question: str | None = None,
                 formula: str | None = None, thoroughness: str | None = None, column_type: ColumnType = "text",
                 options: list[str] | None = None, company_column: str | None = None,
                 settings: Settings | None = None, kb: KnowledgeBase | None = None,
                 web: WebProvider | None | Auto = "auto", llm: Completer | None = None,
                 on_progress: ProgressCallback | None = None, cancel: CancellationToken | None = None) -> DataProposal:
    """Fill ``column`` of the CSV by ``strategy`` and return the proposal; the CSV is only read.

    ``kb`` (the knowledge base) and ``llm`` are what the caller hands in; None
    leaves one out. ``web`` defaults to ``enrich.search_provider``. The
    application's ``cikb.app.reading.enrich_table`` wires the configured
    knowledge base and LLM.
    """
    return asyncio.run(enrich_table_async(
        csv_path, column, strategy=strategy, question=question, formula=formula, thoroughness=thoroughness,
        column_type=column_type, options=options, company_column=company_column, settings=settings,
        kb=kb, web=web, llm=llm, on_progress=on_progress, cancel=cancel,
    ))


async def enrich_table_async(csv_path: str | Path, column: str, *, strategy: str = "lookup",
                             question: str | None = None, formula: str | None = None,
                             thoroughness: str | None = None, column_type: ColumnType = "text",
                             options: list[str] | None = None, company_column: str | None = None,
                             settings: Settings | None = None, kb: KnowledgeBase | None = None,
                             web: WebProvider | None | Auto = "auto", llm: Completer | None = None,
                             on_progress: ProgressCallback | None = None,
                             cancel: CancellationToken | None = None, on_start: StartCallback | None = None,
                             on_row: RowCallback | None = None, skip_rows: Collection[int] = (),
                             reuse: ReuseLookup | None = None, cache: KeyValueCache | None = None,
                             generation: Generation | None = None) -> DataProposal:
    """The same as :func:`enrich_table`, inside a running event loop.

    For a job store: ``on_start`` sees the checked target before any row runs, ``on_row``
    each row as it finishes, ``reuse`` may answer a row from an earlier run, and ``skip_rows``
    names rows this job finished earlier (not run again,
    not in the returned proposal: the job builds the whole proposal from its rows). With
    ``on_row`` the rows are not kept in memory either: the returned proposal has no rows.
    ``generation`` says a company's knowledge-base generation: rows asking the same question of
    the same company are answered once per generation (enrich.memo).
    """
    settings = settings or load_settings()
    load_plugins(settings.enrich.plugins)
    table = scan_table(csv_path)  # checked whole now; the rows stream from the file as the run reads them
    column_spec = _column_spec(table, column, column_type, options)
    identity = table.identity_column(company_column)
    chosen = get_strategy(strategy)
    params = {k: v for k, v in {"question": question, "formula": formula, "thoroughness": thoroughness}.items() if v is not None}
    ctx = EnrichContext(settings=settings, column=column_spec, columns=table.columns,
                        kb=kb, web=open_web_provider(settings) if web == "auto" else web, llm=llm, cache=cache,
                        generation=generation)
    chosen.validate_params(params, ctx)
    target = ProposalTarget(csv_path=str(Path(csv_path).resolve()), csv_sha256=table.sha256, column=column_spec.name,
                            column_type=column_spec.type, options=list(column_spec.options), company_column=identity)
    if on_start is not None:
        on_start(target, params, table.row_count)
    skip = {i for i in skip_rows if 0 <= i < table.row_count}
    website = table.website_column(identity)
    rows = (_row_input(i, row, identity, website) for i, row in enumerate(table.rows()) if i not in skip)
    logs, cancelled = await run_rows(chosen, rows, params, ctx, on_progress=on_progress, cancel=cancel, on_row=on_row,
                                     done_before=len(skip), total=table.row_count - len(skip), keep_logs=on_row is None,
                                     reuse=reuse)
    model = getattr(kb, "model_description", None)  # a LazyKnowledgeBase knows it once a search opened it
    proposal = build_proposal(target=target, strategy_name=chosen.name, description=chosen.describe(params), params=params,
                              logs=logs, rows_total=table.row_count, cancelled=cancelled)
    return proposal.model_copy(update={"embedding_model": model})


def _column_spec(table: TableHeader, column: str, column_type: str, options: list[str] | None) -> ColumnSpec:
    if not column or not column.strip():
        raise BadInputError("the target column name is empty")
    if column_type not in COLUMN_TYPES:
        raise BadInputError(f"unknown column type {column_type!r} (one of: {', '.join(COLUMN_TYPES)})")
    clean_options = tuple(o.strip() for o in options or [] if o.strip())
    if column_type == "select" and not clean_options:
        raise BadInputError("a select column needs its options (e.g. --options B2B,B2C)")
    name = table.find_column(column) or column.strip()
    return ColumnSpec(name=name, type=column_type, options=clean_options)  # type: ignore[arg-type]


def _row_input(row_id: int, row: dict[str, str], identity: str, website_column: str | None = None) -> RowInput:
    label = " ".join((row.get(identity) or "").split())
    try:
        company = slugify(label) if label else None
    except CikbError:
        company = None
    website = (row.get(website_column) or "").strip() if website_column else ""
    return RowInput(row_id=row_id, data=row, label=label, company=company, website=website or None)

