"""`lookup`: the knowledge base, then at most two web searches read from their snippets (spec N4)."""

from __future__ import annotations

from collections.abc import AsyncIterator

from cikb.enrich.base import EnrichContext, RowInput, register_strategy
from cikb.enrich.evidence import (
    KnowledgeFirstStrategy,
    better,
    extract,
    final_answer,
    good_enough,
    passages_from_hits,
    web_search,
)
from cikb.enrich.extract import Candidate
from cikb.enrich.models import RowStep


def refined_query(question: str, row: RowInput) -> str:
    """The second turn's query: the company's name quoted, so results are about it."""
    return f'"{row.label}" {question}' if row.label and row.label not in question else f"{question} {row.label}".strip()


class LookupStrategy(KnowledgeFirstStrategy):
    name = "lookup"
    display_name = "Quick Lookup"
    max_steps = 2  # web search turns after the knowledge base

    async def search_web(self, question: str, kb_best: Candidate, row: RowInput, params: dict,
                         ctx: EnrichContext) -> AsyncIterator[RowStep]:
        best, answered_by = kb_best, "kb"
        query = question
        for _ in range(self.max_steps):
            hits, step = await web_search(query, ctx)
            yield step
            if hits is None:
                break
            candidate, thinking = await extract(question, passages_from_hits(hits), row, ctx, step_name="enrich:lookup")
            for step in thinking:
                yield step
            if better(candidate, best, ctx.column):
                best, answered_by = candidate, "web"
            if good_enough(best, ctx.column):
                break
            query = refined_query(question, row)
        yield final_answer(best, answered_by)


register_strategy(LookupStrategy())
