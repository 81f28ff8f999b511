"""The Python API under `cikb enrich`: a CSV and a column in, a data proposal out (nothing applied)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Literal

from cikb.config import Settings, load_settings
from cikb.errors import BadInputError, CikbError
from cikb.models import ColumnType, DataProposal, ProposalTarget
from cikb.slug import slugify
from enrich.base import ColumnSpec, Completer, EnrichContext, KnowledgeBase, RowInput, get_strategy, load_plugins
from enrich.kb import LazyKnowledgeBase
from enrich.orchestrator import CancellationToken, ProgressCallback, run_rows
from enrich.proposal import build_proposal
from enrich.providers import WebProvider, open_web_provider
from enrich.table import Table, read_table

Auto = Literal["auto"]
COLUMN_TYPES: tuple[ColumnType, ...] = ("text", "number", "boolean", "select")


def enrich_table(csv_path: str | Path, column: str, *, strategy: str = "lookup", question: str | None = None,
                 formula: str | None = None, thoroughness: str | None = None, column_type: ColumnType = "text",
                 options: list[str] | None = None, company_column: str | None = None,
                 settings: Settings | None = None, kb: KnowledgeBase | None | Auto = "auto",
                 web: WebProvider | None | Auto = "auto", llm: Completer | None | Auto = "auto",
                 on_progress: ProgressCallback | None = None, cancel: CancellationToken | None = None) -> DataProposal:
    """Fill ``column`` of the CSV by ``strategy`` and return the proposal; the CSV is only read.

    ``kb``, ``web`` and ``llm`` default to what ``settings`` configures (the
    knowledge base, ``enrich.search_provider``, ``llm``); pass ``None`` to
    leave one out, or an object of your own (tests, notebooks).
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
                             settings: Settings | None = None, kb: KnowledgeBase | None | Auto = "auto",
                             web: WebProvider | None | Auto = "auto", llm: Completer | None | Auto = "auto",
                             on_progress: ProgressCallback | None = None,
                             cancel: CancellationToken | None = None) -> DataProposal:
    """The same as :func:`enrich_table`, inside a running event loop."""
    settings = settings or load_settings()
    load_plugins(settings.enrich.plugins)
    table = read_table(csv_path)
    column_spec = _column_spec(table, column, column_type, options)
    identity = table.identity_column(company_column)
    chosen = get_strategy(strategy)
    params = {k: v for k, v in {"question": question, "formula": formula, "thoroughness": thoroughness}.items() if v is not None}
    ctx = EnrichContext(settings=settings, column=column_spec, columns=table.columns,
                        kb=LazyKnowledgeBase(settings) if kb == "auto" else kb,
                        web=open_web_provider(settings) if web == "auto" else web,
                        llm=default_completer(settings) if llm == "auto" else llm)
    chosen.validate_params(params, ctx)
    rows = [_row_input(i, row, identity) for i, row in enumerate(table.rows)]
    model = None
    try:
        logs, cancelled = await run_rows(chosen, rows, params, ctx, on_progress=on_progress, cancel=cancel)
    finally:
        if isinstance(ctx.kb, LazyKnowledgeBase):
            model = ctx.kb.model_description
            ctx.kb.close()
    target = ProposalTarget(csv_path=str(Path(csv_path).resolve()), csv_sha256=table.sha256, column=column_spec.name,
                            column_type=column_spec.type, options=list(column_spec.options), company_column=identity)
    proposal = build_proposal(target=target, strategy_name=chosen.name, description=chosen.describe(params), params=params,
                              logs=logs, rows_total=len(rows), cancelled=cancelled)
    return proposal.model_copy(update={"embedding_model": model})


def _column_spec(table: Table, column: str, column_type: str, options: list[str] | None) -> ColumnSpec:
    if not column or not column.strip():
        raise BadInputError("the target column name is empty")
    if column_type not in COLUMN_TYPES:
        raise BadInputError(f"unknown column type {column_type!r} (one of: {', '.join(COLUMN_TYPES)})")
    clean_options = tuple(o.strip() for o in options or [] if o.strip())
    if column_type == "select" and not clean_options:
        raise BadInputError("a select column needs its options (e.g. --options B2B,B2C)")
    name = table.find_column(column) or column.strip()
    return ColumnSpec(name=name, type=column_type, options=clean_options)  # type: ignore[arg-type]


def _row_input(row_id: int, row: dict[str, str], identity: str) -> RowInput:
    label = " ".join((row.get(identity) or "").split())
    try:
        company = slugify(label) if label else None
    except CikbError:
        company = None
    return RowInput(row_id=row_id, data=row, label=label, company=company)


def default_completer(settings: Settings) -> Completer | None:
    """The configured LLM as a Completer (every call logged by cikb.llm), or None offline."""
    from cikb.llm import LLMClient

    client = LLMClient.from_settings(settings)
    if not client.configured:
        return None

    def complete(step: str, messages: list[dict[str, str]]) -> str:
        return client.complete(step, messages).text

    return complete
