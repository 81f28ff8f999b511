"""Run a strategy over rows (spec N6): concurrency per strategy, progress events, cancellation, coercion.

Per row: the strategy's steps are collected as the trace, its final
``answer`` step is coerced to the column's type (spec N5), and the row
becomes a :class:`~cikb.core.models.RowLog`. A row that fails is logged with
status ``error``; it never stops the other rows.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal

from cikb.enrich.base import EnrichContext, RowInput, RowStrategy
from cikb.enrich.coerce import coerce_value, min_confidence
from cikb.enrich.memo import AnswerMemo
from cikb.enrich.models import EnrichSource, RowLog, RowStep
from cikb.enrich.retry import cell_score, feedback, is_weak, outside_knowledge_base, summary

Stage = Literal["starting", "searching", "fetching", "computing", "retrying", "row_done", "row_skipped", "complete", "cancelled"]
_STEP_STAGE: dict[str, Stage] = {"retrieve": "searching", "search": "searching", "fetch": "fetching", "compute": "computing"}
DEFAULT_CONCURRENCY = 3


@dataclass(frozen=True)
class ProgressEvent:
    """One progress report; ``fraction`` is finished rows / all rows, 0.0 to 1.0."""

    stage: Stage
    fraction: float
    done: int
    total: int
    row_id: int | None = None
    label: str = ""
    detail: str = ""
    value: str | None = None
    confidence: str | None = None


ProgressCallback = Callable[[ProgressEvent], None]
RowCallback = Callable[[RowLog], None]  # called as each row finishes, before the next progress event
ReuseLookup = Callable[[RowInput], RowLog | None]  # an earlier run's answer for this row, or None to run it


class CancellationToken:
    """Set from anywhere (a signal handler, another thread); the run stops starting rows and keeps the finished ones."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def cancel(self) -> None:
        self._event.set()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()


def concurrency_limit(strategy: RowStrategy, params: dict, ctx: EnrichContext) -> int:
    limits = ctx.settings.enrich.concurrency
    return max(1, limits.get(strategy.concurrency_key(params), limits.get(strategy.name, DEFAULT_CONCURRENCY)))


class _Run:
    """The shared state of one run: finished rows (kept only when asked) and the progress reporter."""

    def __init__(self, total: int, on_progress: ProgressCallback | None, done_before: int = 0) -> None:
        self.total = total
        self.logs: dict[int, RowLog] = {}
        self.done = done_before
        self.on_progress = on_progress

    def emit(self, stage: Stage, **fields: object) -> None:
        if self.on_progress is not None:
            self.on_progress(ProgressEvent(stage=stage, fraction=self.done / self.total if self.total else 1.0,
                                           done=self.done, total=self.total, **fields))  # type: ignore[arg-type]


async def run_rows(strategy: RowStrategy, rows: Iterable[RowInput], params: dict, ctx: EnrichContext, *,
                   on_progress: ProgressCallback | None = None, cancel: CancellationToken | None = None,
                   on_row: RowCallback | None = None, done_before: int = 0, total: int | None = None,
                   keep_logs: bool = True, reuse: ReuseLookup | None = None) -> tuple[list[RowLog], bool]:
    """Work every row under the strategy's concurrency limit; return (logs in row order, cancelled).

    Rows stream: as many workers as the limit allows pull the next row when they finish
    one, so a table of any length runs in the same memory. ``on_row`` sees each finished
    row at once (a job store writes it there, so a killed run loses no finished row);
    with ``keep_logs=False`` the logs are not also kept here. ``total`` is the number of
    rows when ``rows`` is an iterator; ``done_before`` counts rows a resumed job finished
    earlier, for the progress fraction. ``reuse`` may hand back an earlier run's answer
    for a row (same question, row and knowledge base): the row is then not run again.
    Rows with the same answer key (``strategy.answer_key``: the same company, generation and
    question) are worked once, and the others take that answer (enrich.memo).
    """
    if total is None:
        rows = list(rows)
        total = len(rows)
    cancel = cancel or CancellationToken()
    run = _Run(total + done_before, on_progress, done_before)
    pending = iter(rows)
    answers = AnswerMemo()
    run.emit("starting", detail=strategy.display_name)

    async def work(row: RowInput) -> RowLog:
        return (reuse(row) if reuse is not None else None) or await _run_cell(strategy, row, params, ctx, run)

    async def worker() -> None:
        while not cancel.cancelled:  # checked before a row starts: cancellation falls between rows
            row = next(pending, None)
            if row is None:
                return
            log = await answers.answer(await strategy.answer_key(row, params, ctx), row, lambda: work(row))
            if on_row is not None:
                on_row(log)
            if keep_logs:
                run.logs[row.row_id] = log
            run.done += 1
            stage: Stage = "row_skipped" if log.status == "skipped" else "row_done"
            run.emit(stage, row_id=row.row_id, label=row.label, value=log.value, confidence=log.confidence)

    await _wait([asyncio.create_task(worker()) for _ in range(concurrency_limit(strategy, params, ctx))], cancel)
    cancelled = cancel.cancelled and run.done < total + done_before
    run.emit("cancelled" if cancelled else "complete")
    return [run.logs[row_id] for row_id in sorted(run.logs)], cancelled


async def _wait(tasks: list[asyncio.Task], cancel: CancellationToken) -> None:
    """Wait for every task; on cancellation, abandon the rows in flight (finished rows are already kept).

    A worker that fails outside its row (``on_row`` could not record it: a full disk) stops the others and its
    error is raised: the run is not complete. (Its error was never retrieved, and the run ended "done", empty.)
    """
    pending = set(tasks)
    while pending:
        done, pending = await asyncio.wait(pending, timeout=0.05)
        errors = [error for task in done if not task.cancelled() and (error := task.exception()) is not None]  # each retrieved
        failed = errors[0] if errors else None
        if pending and (failed is not None or cancel.cancelled):
            for task in pending:
                task.cancel()
            await asyncio.gather(*pending, return_exceptions=True)
        if failed is not None:
            raise failed
        if cancel.cancelled:
            return


async def _run_cell(strategy: RowStrategy, row: RowInput, params: dict, ctx: EnrichContext, run: _Run) -> RowLog:
    """The row, then retries while it is weak (spec Q1, Q2): each with feedback, kept only when it scores higher."""
    threshold, max_attempts = ctx.settings.enrich.retry_threshold, ctx.settings.enrich.max_attempts
    history = [await _run_row(strategy, row, params, ctx, run)]
    best = 0
    while strategy.retryable and len(history) < max_attempts and is_weak(history[best], threshold) and not _hopeless(history[best], ctx):
        run.emit("retrying", row_id=row.row_id, label=row.label, detail=f"attempt {len(history) + 1}")
        history.append(await _run_row(strategy, row, {**params, "feedback": feedback(history)}, ctx, run))
        if cell_score(history[-1]) <= cell_score(history[best]):
            break  # no improvement: stop early
        best = len(history) - 1
    if len(history) == 1:
        return history[0]
    attempts = [summary(log, i + 1, kept=i == best, threshold=threshold) for i, log in enumerate(history)]
    return history[best].model_copy(update={"attempts": attempts})


def _hopeless(log: RowLog, ctx: EnrichContext) -> bool:
    """A row whose company is not in the knowledge base, with no web search to turn to: a retry would ask nothing new."""
    return ctx.web is None and outside_knowledge_base(log)


async def _run_row(strategy: RowStrategy, row: RowInput, params: dict, ctx: EnrichContext, run: _Run) -> RowLog:
    base = {"row_id": row.row_id, "label": row.label, "strategy": strategy.name,
            "thoroughness": params.get("thoroughness")}
    if strategy.needs_identity and not row.label.strip():
        return RowLog(status="skipped", steps=[RowStep(type="error", detail="the row's company cell is empty")], **base)
    steps: list[RowStep] = []
    try:
        async for step in strategy.execute_one(row, params, ctx):
            steps.append(step)
            if step.type in _STEP_STAGE:
                run.emit(_STEP_STAGE[step.type], row_id=row.row_id, label=row.label, detail=step.detail)
    except asyncio.CancelledError:
        raise
    except Exception as err:  # one failing row is logged, not fatal (datasette-enrichments' way)
        steps.append(RowStep(type="error", detail=f"{type(err).__name__}: {err}"))
        return RowLog(status="error", steps=steps, **base)
    return _log_from_answer(steps, ctx, base)


def _log_from_answer(steps: list[RowStep], ctx: EnrichContext, base: dict) -> RowLog:
    answer = next((s for s in reversed(steps) if s.type == "answer"), None)
    if answer is None:
        steps.append(RowStep(type="error", detail="the strategy ended without an answer"))
        return RowLog(status="error", steps=steps, **base)
    raw = answer.data.get("value")
    value, coerced = coerce_value(raw, ctx.column.type, list(ctx.column.options))
    if value is None:
        return RowLog(status="not_found", raw_value=raw, steps=steps, **base)
    confidence = min_confidence(answer.data.get("confidence", "low"), coerced)
    sources = [EnrichSource(**s) for s in answer.data.get("sources", [])]
    return RowLog(status="found", value=value, raw_value=raw, confidence=confidence,
                  answered_by=answer.data.get("answered_by", "none"), steps=steps, sources=sources, **base)
