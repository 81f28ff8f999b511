"""`research`: the knowledge base, then several searches with page fetching (spec N4).

``exploratory`` (default) stops at the first answer of at least medium
confidence; ``comprehensive`` tries at least three query angles, reads more
pages, and ends with a coverage assessment that caps the confidence (by the
LLM when configured, else by counting independent sites that state the value).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from cikb.answer.reader import read_question
from cikb.enrich.base import EnrichContext, RowInput, register_strategy
from cikb.enrich.coerce import min_confidence
from cikb.enrich.evidence import (
    KnowledgeFirstStrategy,
    better,
    domain,
    extract,
    final_answer,
    good_enough,
    number_sources,
    passage_from_page,
    passages_from_hits,
    web_search,
)
from cikb.enrich.extract import Candidate, Passage
from cikb.enrich.models import Confidence, RowStep
from cikb.enrich.retry import llm_phrasings
from cikb.enrich.template import interpolate_template
from cikb.prompts import load_prompt

from cikb.core.errors import BadInputError

THOROUGHNESS = {"exploratory": 5, "comprehensive": 12}  # step budgets (searches + fetches)
MIN_ANGLES = {"exploratory": 1, "comprehensive": 3}


@dataclass
class _Research:
    """What one row's research has gathered so far."""

    budget: int
    steps: int = 0
    tried: list[str] = field(default_factory=list)
    seen_urls: set[str] = field(default_factory=set)
    passages: list[Passage] = field(default_factory=list)

    @property
    def left(self) -> int:
        return self.budget - self.steps


class ResearchStrategy(KnowledgeFirstStrategy):
    name = "research"
    display_name = "Deep Research"
    max_steps = THOROUGHNESS["exploratory"]

    def validate_params(self, params: dict, ctx: EnrichContext) -> None:
        super().validate_params(params, ctx)
        if params.get("thoroughness", "exploratory") not in THOROUGHNESS:
            raise BadInputError(f"thoroughness must be one of {', '.join(THOROUGHNESS)}")

    def concurrency_key(self, params: dict) -> str:
        return f"research:{params.get('thoroughness', 'exploratory')}"

    async def search_web(self, question: str, kb_best: Candidate, row: RowInput, params: dict,
                         ctx: EnrichContext) -> AsyncIterator[RowStep]:
        thoroughness = params.get("thoroughness", "exploratory")
        state = _Research(budget=THOROUGHNESS[thoroughness])
        web_best = Candidate(None, "none")
        queries = [question]
        while queries and state.left > 0:
            query = queries.pop(0)
            async for step in self._search_and_read(query, question, row, ctx, state, thoroughness):
                yield step
            web_best, thinking = await extract(question, state.passages, row, ctx, step_name="enrich:research")
            for step in thinking:
                yield step
            enough_angles = len(state.tried) >= MIN_ANGLES[thoroughness]
            if enough_angles and good_enough(web_best, ctx.column):
                break
            if not queries and state.left > 0:
                queries = await _more_queries(question, params["question"], row, ctx, state.tried)
        if thoroughness == "comprehensive" and web_best.value:
            coverage, step = await _assess_coverage(question, web_best, state.passages, ctx)
            yield step
            web_best = Candidate(web_best.value, min_confidence(web_best.confidence, coverage), web_best.sources, web_best.evidence)
        if better(web_best, kb_best, ctx.column):
            yield final_answer(web_best, "web")
        else:
            yield final_answer(kb_best, "kb")

    async def _search_and_read(self, query: str, question: str, row: RowInput, ctx: EnrichContext,
                               state: _Research, thoroughness: str) -> AsyncIterator[RowStep]:
        state.tried.append(query)
        state.steps += 1
        hits, step = await web_search(query, ctx)
        yield step
        if hits is None:
            return
        state.passages.extend(passages_from_hits(hits, first_rank=len(state.passages) + 1))
        pages = ctx.settings.enrich.pages_per_query + (1 if thoroughness == "comprehensive" else 0)
        to_fetch = [h.url for h in hits if h.url not in state.seen_urls][: min(pages, state.left)]
        state.seen_urls.update(to_fetch)
        fetched = await asyncio.gather(*(ctx.web.fetch(url) for url in to_fetch))  # type: ignore[union-attr]
        for page in fetched:
            state.steps += 1
            if page.skipped:
                yield RowStep(type="fetch", detail=f"skipped {page.url}: {page.skipped}", data={"url": page.url, "skipped": page.skipped})
                continue
            yield RowStep(type="fetch", detail=page.url, data={"url": page.url, "title": page.title, "chars": len(page.text)})
            if page.text:
                state.passages.append(passage_from_page(page, rank=len(state.passages) + 1))


async def _more_queries(question: str, template: str, row: RowInput, ctx: EnrichContext, tried: list[str]) -> list[str]:
    """New angles: the LLM's search queries for the column when configured (written once per column and
    cached, see enrich.retry.llm_phrasings), else reworded from the question's key terms."""
    generated = [interpolate_template(t, row.data) for t in await llm_phrasings(template, ctx, kind="queries")]
    fresh = [q for q in dict.fromkeys(generated) if q not in tried]
    if fresh:
        return fresh[:3]
    terms = " ".join(read_question(question, ctx.column.type, row.label).keywords)
    angles = [f'"{row.label}" {terms}', f"{row.label} {terms} official site", f"{row.label} {terms} wikipedia"]
    return [q for q in angles if q not in tried]


async def _assess_coverage(question: str, candidate: Candidate, passages: list[Passage],
                           ctx: EnrichContext) -> tuple[Confidence, RowStep]:
    """How well the sources cover the value: high with two independent sites, medium with one, else low."""
    if ctx.llm is not None:
        messages = [
            {"role": "system", "content": load_prompt("enrich_coverage")},
            {"role": "user", "content": f"Sources:\n{number_sources(passages)}\n\nQuestion: {question}\nProposed value: {candidate.value}"},
        ]
        try:
            reply = await asyncio.to_thread(ctx.llm, "enrich:research:coverage", messages)
            level = next((lvl for lvl in ("high", "medium", "low") if f"coverage: {lvl}" in reply.lower()), "low")
            return level, RowStep(type="coverage", detail=f"coverage {level} (LLM)", data={"reply": reply[:1000]})  # type: ignore[return-value]
        except Exception as err:
            return "low", RowStep(type="coverage", detail=f"coverage low: assessment failed ({err})")
    needle = (candidate.value or "").lower()
    sites = sorted({domain(p.source.url) for p in passages if needle and needle in p.text.lower()})
    level: Confidence = "high" if len(sites) >= 2 else "medium" if sites else "low"
    return level, RowStep(type="coverage", detail=f"coverage {level}: {len(sites)} site(s) state the value", data={"sites": sites})


register_strategy(ResearchStrategy())
