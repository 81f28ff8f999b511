"""Repeated questions once (issue 26, item 4): rows of one run that ask the same question of the same company
share one answer.

A strategy says what decides a row's answer (:meth:`RowStrategy.answer_key`; for the knowledge-first
strategies the company the row resolves to, that company's knowledge-base generation and the rendered
question). The first row with a key is worked; rows with the same key wait for it and take its answer
under their own row id and label, with a step naming the row that answered. A new generation makes a new
key, so once a gather changes the company, its rows are asked again.

Only answers (found, not found) reached without an error are shared: when the first row fails (a search
that raised, an LLM that did not answer), the next row with the key tries again. The newest :data:`MEMO_KEYS` keys are kept, so memory stays bounded on a table of any length.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable

from cikb.enrich.base import RowInput
from cikb.enrich.models import RowLog, RowStep

MEMO_KEYS = 4096
SHARED = ("found", "not_found")  # an error or a skipped row is no answer to hand on


class AnswerMemo:
    """The answers of one run by key; a key being worked holds the future its repeats wait on."""

    def __init__(self, limit: int = MEMO_KEYS) -> None:
        self.limit = limit
        self._answers: OrderedDict[str, asyncio.Future[RowLog | None]] = OrderedDict()

    async def answer(self, key: str | None, row: RowInput, work: Callable[[], Awaitable[RowLog]]) -> RowLog:
        """The row's log: ``work()`` for the first row with ``key`` (and every row without one), else its answer."""
        if key is None:
            return await work()
        earlier = self._answers.get(key)
        if earlier is None:
            return await self._first(key, work)
        self._answers.move_to_end(key)
        first = await asyncio.shield(earlier)  # a waiter cancelled must not cancel the answer the others wait on
        if first is None:  # the first row failed and its key was dropped: this one tries (or waits for the row that does)
            return await self.answer(key, row, work)
        return repeated(first, row)

    async def _first(self, key: str, work: Callable[[], Awaitable[RowLog]]) -> RowLog:
        future: asyncio.Future[RowLog | None] = asyncio.get_running_loop().create_future()
        self._answers[key] = future
        if len(self._answers) > self.limit:
            self._answers.popitem(last=False)
        try:
            log = await work()
        except BaseException:
            self._forget(key, future)
            raise
        if not shareable(log):
            self._forget(key, future)
        elif not future.done():
            future.set_result(log)
        return log

    def _forget(self, key: str, future: asyncio.Future[RowLog | None]) -> None:
        if self._answers.get(key) is future:
            del self._answers[key]
        if not future.done():
            future.set_result(None)


def shareable(log: RowLog) -> bool:
    """An answer, reached without trouble: a failed search's 'not found' says nothing of the other rows."""
    return log.status in SHARED and not any(step.type == "error" for step in log.steps)


def repeated(first: RowLog, row: RowInput) -> RowLog:
    """``first``'s answer as ``row``'s: its trace, and a last step saying which row asked."""
    step = RowStep(type="thinking", detail=f"answered once: row {first.row_id} asked the same question of the same company",
                   data={"same_as_row": first.row_id})
    return first.model_copy(update={"row_id": row.row_id, "label": row.label, "steps": [*first.steps, step],
                                    "same_as_row": first.row_id})
