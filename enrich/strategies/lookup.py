"""`lookup`: the knowledge base, then at most two web searches read from their snippets (spec N4)."""

from __future__ import annotations

from collections.abc import AsyncIterator

from cikb.errors import BadInputError
from cikb.models import RowStep
from enrich.base import EnrichContext, RowInput, RowStrategy, register_strategy
from enrich.evidence import better, extract, final_answer, good_enough, kb_first, passages_from_hits
from enrich.providers import SearchError
from enrich.template import check_template, interpolate_template


def require_question(params: dict, ctx: EnrichContext) -> None:
    question = params.get("question")
    if not isinstance(question, str) or not question.strip():
        raise BadInputError("this strategy needs a question (e.g. --question 'What year was {Company} founded?')")
    check_template(question, ctx.columns)


def refined_query(question: str, row: RowInput) -> str:
    """The second turn's query: the company's name quoted, so results are about it."""
    return f'"{row.label}" {question}' if row.label and row.label not in question else f"{question} {row.label}".strip()


class LookupStrategy(RowStrategy):
    name = "lookup"
    display_name = "Quick Lookup"
    max_steps = 2  # web search turns after the knowledge base

    def validate_params(self, params: dict, ctx: EnrichContext) -> None:
        require_question(params, ctx)

    async def execute_one(self, row: RowInput, params: dict, ctx: EnrichContext) -> AsyncIterator[RowStep]:
        question = interpolate_template(params["question"], row.data)
        steps, best = await kb_first(question, row, ctx)
        for step in steps:
            yield step
        if good_enough(best, ctx.column) or ctx.web is None:
            yield final_answer(best, "kb")
            return
        answered_by = "kb"
        query = question
        for _ in range(self.max_steps):
            try:
                hits = await ctx.web.search(query, ctx.settings.enrich.search_results)
            except SearchError as err:
                yield RowStep(type="error", detail=str(err))
                break
            yield RowStep(type="search", detail=query, data={"query": query, "results": [h.url for h in hits]})
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
