"""From retrieved text to a candidate cell value: the knowledge base first (spec N3), the LLM when configured.

The pieces every fact-finding strategy shares:

- :func:`kb_first` runs the hybrid retrieval for the row's company and
  extracts a candidate from the chunks, with the chunks as sources;
- :func:`extract` turns passages (KB chunks, search snippets, fetched pages)
  into a candidate: the LLM reads them when one is configured (prompt
  ``enrich_extract``), else :func:`enrich.extract.extract_answer` does;
- :func:`good_enough` is the stop rule: at least medium confidence once the
  value is coerced to the column's type;
- :class:`KnowledgeFirstStrategy` puts these together for every strategy that
  needs outside facts: the knowledge base answers, or the web is searched.
"""

from __future__ import annotations

import asyncio
import json
import re
from abc import abstractmethod
from collections.abc import AsyncIterator, Sequence
from dataclasses import replace
from urllib.parse import urlsplit

from cikb.answer.context import neutralise
from cikb.answer.reader import follow_up_question, follow_up_sources
from cikb.answer.support import check_support
from cikb.enrich.base import (
    ColumnSpec,
    EnrichContext,
    RowInput,
    RowStrategy,
    answer_step,
)
from cikb.enrich.coerce import (
    coerce_value,
    confidence_at_least,
    is_not_found,
    min_confidence,
    strip_preamble,
)
from cikb.enrich.extract import Candidate, Passage, extract_answer
from cikb.enrich.models import CONFIDENCE_ORDER, Confidence, EnrichSource, RowStep
from cikb.enrich.providers import SearchError, SearchHit, WebPage
from cikb.enrich.retry import feedback_text, retry_question
from cikb.enrich.template import check_template, interpolate_template
from cikb.prompts import load_prompt

from cikb.core.errors import BadInputError
from cikb.core.identity import CompanyIdentity, domain_key
from cikb.core.models import ScoredChunk

STOP_CONFIDENCE: Confidence = "medium"
NOT_IN_KB = "not in the knowledge base"
_LEVELS = ("high", "medium", "low")


def passages_from_chunks(chunks: list[ScoredChunk]) -> list[Passage]:
    return [
        Passage(
            text=sc.chunk.text,
            source=EnrichSource(kind="kb", url=sc.chunk.metadata.url, title=sc.chunk.metadata.title, chunk_id=sc.chunk.id,
                                published=sc.chunk.metadata.published),
            rank=sc.rank,
            as_of=sc.chunk.metadata.as_of,
            own_site=sc.chunk.metadata.source_type == "website",
            headings=tuple(sc.chunk.metadata.heading_path),
        )
        for sc in chunks
    ]


def passages_from_hits(hits: list[SearchHit], first_rank: int = 1) -> list[Passage]:
    return [
        Passage(text=f"{hit.title}. {hit.snippet}", source=EnrichSource(kind="web", url=hit.url, title=hit.title), rank=first_rank + i)
        for i, hit in enumerate(hits)
        if hit.snippet or hit.title
    ]


def passage_from_page(page: WebPage, rank: int) -> Passage:
    return Passage(text=page.text, source=EnrichSource(kind="web", url=page.url, title=page.title), rank=rank)


async def web_search(query: str, ctx: EnrichContext) -> tuple[list[SearchHit] | None, RowStep]:
    """One web search and its trace step; the hits are None (and the step an error) when the provider fails."""
    try:
        hits = await ctx.web.search(query, ctx.settings.enrich.search_results)  # type: ignore[union-attr]
    except SearchError as err:
        return None, RowStep(type="error", detail=str(err))
    return hits, RowStep(type="search", detail=query, data={"query": query, "results": [h.url for h in hits]})


def effective_confidence(candidate: Candidate, column: ColumnSpec) -> Confidence:
    """The candidate's confidence after coercion to the column's type (a paragraph in a number column is not 'high')."""
    value, coerced = coerce_value(candidate.value, column.type, list(column.options))
    if value is None:
        return "none"
    return min_confidence(candidate.confidence, coerced)


def good_enough(candidate: Candidate, column: ColumnSpec) -> bool:
    """The stop rule of the KB-first path: a value of at least medium confidence."""
    return confidence_at_least(effective_confidence(candidate, column), STOP_CONFIDENCE)


def better(new: Candidate, old: Candidate, column: ColumnSpec) -> bool:
    """True when ``new`` is strictly more confident than ``old`` once both are coerced to the column's type."""
    return CONFIDENCE_ORDER.index(effective_confidence(new, column)) > CONFIDENCE_ORDER.index(effective_confidence(old, column))


def final_answer(candidate: Candidate, path: str) -> RowStep:
    """The answer step for a candidate; ``path`` (kb | web) is recorded only when there is a value."""
    return answer_step(candidate.value, candidate.confidence, answered_by=path if candidate.value else "none",
                       sources=candidate.sources, evidence=candidate.evidence)


async def kb_first(question: str, row: RowInput, ctx: EnrichContext, tried: dict | None = None) -> tuple[list[RowStep], Candidate]:
    """Retrieve from the knowledge base for the row's company and extract a candidate (never raises for KB trouble).

    ``tried`` is a retry's feedback (enrich.retry.feedback): chunks read before are left out
    while others were found, and the LLM is told what was tried.
    """
    if ctx.kb is None:
        return [RowStep(type="retrieve", detail="no knowledge base configured")], Candidate(None, "none")
    if not row.label and not row.website:
        return [RowStep(type="retrieve", detail="the row names no company")], Candidate(None, "none")
    try:
        identity = await _kb_company(row, ctx)
        if identity is not None:
            row, question = _as_known(row, question, identity)
        chunks = await asyncio.to_thread(ctx.kb.search, question, identity.slug) if identity is not None else []
    except Exception as err:  # a broken store must not lose the other rows
        return [RowStep(type="error", detail=f"knowledge base search failed: {err}")], Candidate(None, "none")
    if identity is None:  # never another company's value: "X Labs" gets nothing of X
        why = await _why_not_in_kb(row, ctx)
        outside = RowStep(type="retrieve", detail=why, data={"query": question, "company": None, "in_knowledge_base": False})
        return [outside], Candidate(None, "none", note=why)
    company = identity.slug
    step = RowStep(
        type="retrieve",
        detail=f"knowledge base: {len(chunks)} chunk(s) for {company}",
        data={"query": question, "company": company, "chunks": [_chunk_data(c) for c in chunks]},
    )
    if not chunks:
        return [step], Candidate(None, "none", note="no chunk passed retrieval")
    if tried:
        read_before = set(tried["chunks"])
        chunks = [c for c in chunks if c.chunk.id not in read_before] or chunks
    candidate, steps = await extract(question, passages_from_chunks(chunks), row, ctx, step_name="enrich:kb",
                                     tried=tried, aliases=identity.aliases)
    if candidate.value is None and ctx.llm is None and (follow_up := follow_up_question(question, company=row.label)):
        more, added = await _follow_up(follow_up, chunks, ctx, company)
        if added:
            again, steps_again = await extract(question, passages_from_chunks(chunks + added), row, ctx,
                                               step_name="enrich:kb", aliases=identity.aliases)
            if again.value is not None:
                return [step, *steps, more, *steps_again], again
    return [step, *steps], candidate


async def _follow_up(follow_up: str, chunks: list[ScoredChunk], ctx: EnrichContext,
                     company: str) -> tuple[RowStep, list[ScoredChunk]]:
    """The offline reader's second retrieval, as ``ask`` makes it: the chunks found for the follow-up question
    ("Who is the CEO of Acme?" for "Who runs Acme?") that ``chunks`` lack (:func:`follow_up_sources`)."""
    assert ctx.kb is not None
    try:
        found = await asyncio.to_thread(ctx.kb.search, follow_up, company)
    except Exception as err:  # a broken store must not lose the other rows
        return RowStep(type="error", detail=f"knowledge base search failed: {err}"), []
    added = follow_up_sources(chunks, found)
    step = RowStep(type="retrieve", detail=f"knowledge base: {len(added)} more chunk(s) for {follow_up!r}",
                   data={"query": follow_up, "company": company, "chunks": [_chunk_data(c) for c in added]})
    return step, added


def _chunk_data(c: ScoredChunk) -> dict:
    return {"url": c.chunk.metadata.url, "title": c.chunk.metadata.title, "chunk_id": c.chunk.id,
            "score": round(c.score, 4), "dense_score": c.dense_score}


async def _kb_company(row: RowInput, ctx: EnrichContext) -> CompanyIdentity | None:
    """The knowledge-base company of the row, by identity (its name, else its website), when the knowledge
    base can say (``resolve``); else the slug of the row's name, as a knowledge base with only ``search`` takes it."""
    resolve = getattr(ctx.kb, "resolve", None)
    if resolve is None:
        return CompanyIdentity(slug=row.company) if row.company else None
    return await asyncio.to_thread(resolve, row.label, row.website)


async def _why_not_in_kb(row: RowInput, ctx: EnrichContext) -> str:
    """NOT_IN_KB, and when the row's name is a gathered company's but its Website is on another domain (another
    company of that name, or the company's other site), which one, and what to do either way."""
    named = await _kb_company(replace(row, website=None), ctx) if row.website and row.label else None
    if named is None or not named.gathered_elsewhere_than(row.website or ""):
        return NOT_IN_KB
    return (f"{NOT_IN_KB}: its Website is on {domain_key(row.website or '')}, {named.label()} was gathered from "
            f"{', '.join(sorted(named.domains()))} (another company of that name?); if it is that company, empty the "
            "row's Website cell or gather the company from that website")


def _as_known(row: RowInput, question: str, identity: CompanyIdentity) -> tuple[RowInput, str]:
    """The row and question in the knowledge base's name for the company: a row found by a name its pages give
    it ("Roadrunner Supply") or by its website is read about the company its sources name ("Acme Corp")."""
    name = identity.name
    if not name or name == row.label:
        return row, question
    asked = question.replace(row.label, name) if row.label else question
    return replace(row, label=name), asked


async def extract(question: str, passages: list[Passage], row: RowInput, ctx: EnrichContext, *, step_name: str,
                  tried: dict | None = None, aliases: Sequence[str] = ()) -> tuple[Candidate, list[RowStep]]:
    """A candidate from passages: by the LLM when configured (told what a retry tried), else by offline extraction
    (about the row's company, also called ``aliases``: the names its own pages give it, as ``ask`` reads it)."""
    if not passages:
        return Candidate(None, "none"), []
    if ctx.llm is not None:
        return await _llm_extract(question, passages, row, ctx, step_name, tried)
    # The knowledge base's model judges, as for `cikb ask`, whether a sentence says what is asked in other words.
    candidate = extract_answer(question, ctx.column.type, passages, company=row.label, options=list(ctx.column.options),
                               aliases=aliases, close_in_meaning=getattr(ctx.kb, "close_in_meaning", None))
    thinking = RowStep(type="thinking", detail=_describe(candidate, "extracted"),
                       data={"evidence": candidate.evidence, "method": "extractive", "confidence": candidate.confidence})
    return candidate, [thinking]


def _describe(candidate: Candidate, how: str) -> str:
    if candidate.value is None:
        return f"nothing {how}" + (f": {candidate.note}" if candidate.note else "")
    return f"{how} {candidate.value!r} ({candidate.confidence})"


def number_sources(passages: list[Passage], limit_chars: int = 12_000) -> str:
    """Sources as quoted data: one ``<source id="n">`` element per passage inside ``<sources>``, cut to a
    character budget. Text that imitates the frame's tags is defanged, so a page cannot close the frame
    early and speak as the user or the system (as :func:`cikb.answer.context.numbered_context` does for ask)."""
    blocks, used = [], 0
    for i, passage in enumerate(passages, start=1):
        text = passage.text[: max(0, limit_chars - used)]
        if not text:
            break
        title = neutralise(passage.source.title).replace('"', "'")
        url = neutralise(passage.source.url).replace('"', "%22")
        blocks.append(f'<source id="{i}" title="{title}" url="{url}">\n{neutralise(text).strip()}\n</source>')
        used += len(text)
    return "<sources>\n" + "\n\n".join(blocks) + "\n</sources>"


def column_line(column: ColumnSpec) -> str:
    options = f"; one of: {', '.join(column.options)}" if column.options else ""
    return f"Column: {column.name} (type: {column.type}{options})"


async def _llm_extract(question: str, passages: list[Passage], row: RowInput, ctx: EnrichContext,
                       step_name: str, tried: dict | None = None) -> tuple[Candidate, list[RowStep]]:
    user = f"Sources:\n{number_sources(passages)}\n\n{column_line(ctx.column)}\nQuestion: {question}"
    if tried:  # the earlier values came from sources too: quoted as data, defanged like them
        user += "\n\n" + load_prompt("enrich_retry").format(tried=neutralise(feedback_text(tried)))
        step_name = f"{step_name}:retry"
    messages = [{"role": "system", "content": load_prompt("enrich_extract")}, {"role": "user", "content": user}]
    try:
        reply = await asyncio.to_thread(ctx.llm, step_name, messages)  # type: ignore[arg-type]
    except Exception as err:
        return Candidate(None, "none", note=str(err)), [RowStep(type="error", detail=f"LLM failed: {err}")]
    candidate = parse_extraction(reply, passages, column_type=ctx.column.type, question=question, subject=row.label)
    if candidate.confidence == "high":
        candidate = _read_alike(candidate, question, passages, row, ctx)
    detail = _describe(candidate, "LLM answered") + (f": {candidate.note}" if candidate.value and candidate.note else "")
    data = {"method": "llm", "reply": reply[:2000], "confidence": candidate.confidence, "evidence": candidate.evidence}
    if candidate.value and candidate.note:
        data["unsupported"] = candidate.note
    return candidate, [RowStep(type="thinking", detail=detail, data=data)]


def _read_alike(candidate: Candidate, question: str, passages: list[Passage], row: RowInput, ctx: EnrichContext) -> Candidate:
    """The LLM's `high` when the offline reader, reading the same passages, finds the same value; else `medium` (it
    finds none) or `low` (it finds another). The support check matches the value's words in a cited source, not
    what they answer: "164" of "164 people" was the founding year at high, two readers agreeing is a stronger sign."""
    offline = extract_answer(question, ctx.column.type, passages, company=row.label, options=list(ctx.column.options),
                             close_in_meaning=getattr(ctx.kb, "close_in_meaning", None))
    if offline.value is not None and _same_value(offline.value, candidate.value or "", ctx.column):
        return candidate
    if offline.value is not None and offline.confidence in ("high", "medium"):
        return replace(candidate, confidence="low", note=f"the offline reader reads {offline.value!r} from the sources")
    return replace(candidate, confidence="medium", note="the offline reader does not read it from the sources")


def _same_value(one: str, other: str, column: ColumnSpec) -> bool:
    """Two readings of a cell agree: the same value once coerced to the column's type, or (text) one's words all in the other's."""
    options = list(column.options)
    first, second = (coerce_value(v, column.type, options)[0] or "" for v in (one, other))
    a, b = (set(re.findall(r"\w+", v.casefold())) for v in (first, second))
    return bool(a and b) and (a <= b or b <= a)


def parse_extraction(reply: str, passages: list[Passage], *, column_type: str = "text", question: str = "",
                     subject: str = "") -> Candidate:
    """Read 'Answer: / Confidence: / Sources:' leniently, then check the value against the sources it cites.

    No valid citation caps the confidence at low. So does a cited source that does not state the value
    (normalised: numbers without separators, words by their stems; for a boolean column, what the question
    asks about), or states it only in text that addresses the reader as instructions: the reason is the
    candidate's note, and the statement that holds the value its evidence.
    """
    answer = _field(reply, "answer")
    if answer is None:  # a model that ignored the format: its whole reply is the answer
        answer = reply.strip().splitlines()[0] if reply.strip() else ""
    stated = (_field(reply, "confidence") or "medium").lower().strip(" .")
    confidence: Confidence = next((lvl for lvl in _LEVELS if stated.startswith(lvl)), "medium")  # type: ignore[assignment]
    cited = [int(n) for n in re.findall(r"\d+", _field(reply, "sources") or "")]
    cited_passages = [passages[n - 1] for n in dict.fromkeys(cited) if 1 <= n <= len(passages)]
    sources = [p.source for p in cited_passages]
    value = strip_preamble(answer)
    if is_not_found(value) or value.lower().startswith("could not determine"):
        return Candidate(None, "none", sources=[], note="the LLM found no answer in the sources")
    if not sources:
        return Candidate(value, "low", sources, note="the LLM cited no source in the context")
    # For a yes/no cell the value is not in the text: the source must state what the question asks about.
    claim = question if column_type == "boolean" else value
    support = check_support(claim, [f"{p.source.title}\n{p.text}" for p in cited_passages], subject)
    if not support.supported:
        numbers = "".join(f"[{n}]" for n in dict.fromkeys(cited) if 1 <= n <= len(passages))
        missing = ", ".join(repr(m) for m in support.missing) or repr(value)
        return Candidate(value, "low", sources, evidence=support.evidence,
                         note=f"the cited source {numbers} does not state {missing}")
    return Candidate(value, confidence, sources, evidence=support.evidence)


def _field(reply: str, name: str) -> str | None:
    match = re.search(rf"^\s*\**{name}\**\s*:\s*(.*)$", reply, re.I | re.M)
    return match.group(1).strip() if match else None


def domain(url: str) -> str:
    host = urlsplit(url).hostname or url
    return host[4:] if host.startswith("www.") else host


def require_question(params: dict, ctx: EnrichContext) -> None:
    question = params.get("question")
    if not isinstance(question, str) or not question.strip():
        raise BadInputError("this strategy needs a question (e.g. --question 'What year was {Company} founded?')")
    check_template(question, ctx.columns)


class KnowledgeFirstStrategy(RowStrategy):
    """A strategy that needs outside facts (spec N3): the knowledge base for the row's company first; the
    web only when it gives no answer of at least medium confidence and a search provider is configured."""

    def validate_params(self, params: dict, ctx: EnrichContext) -> None:
        require_question(params, ctx)

    retryable = True

    async def answer_key(self, row: RowInput, params: dict, ctx: EnrichContext) -> str | None:
        """The company the row resolves to, its knowledge-base generation and the rendered question (which holds
        every cell the question names): rows that agree on all three get one answer. A row outside the knowledge
        base is known by its name and website instead; None (work the row) when the knowledge base cannot say."""
        try:
            identity = await _kb_company(row, ctx) if ctx.kb is not None and (row.label or row.website) else None
        except Exception:  # the row's own search reports the trouble
            return None
        generation = ctx.generation(identity.slug) if identity is not None and ctx.generation is not None else None
        company = {"slug": identity.slug, "generation": generation} if identity is not None else {"row": [row.label, row.website]}
        question = interpolate_template(params["question"], row.data)
        if identity is not None:  # the question as asked: in the knowledge base's name for the company ("ACME Corp." -> "Acme Corp")
            question = _as_known(row, question, identity)[1]
        return json.dumps({**company, "question": question}, sort_keys=True)

    async def execute_one(self, row: RowInput, params: dict, ctx: EnrichContext) -> AsyncIterator[RowStep]:
        question = interpolate_template(params["question"], row.data)
        tried = params.get("feedback")
        if tried:  # a retry of a weak cell (enrich.retry): another phrasing, other chunks, the LLM told what failed
            other = await retry_question(params["question"], question, dict(row.data), tried["queries"], ctx)
            if other is None:
                yield RowStep(type="thinking", detail="retry: every other phrasing of the question was tried")
                yield final_answer(Candidate(None, "none"), "kb")
                return
            yield RowStep(type="thinking", detail=f"retry {tried['attempt']}: asking {other!r}", data={"feedback": tried})
            question = other
        steps, best = await kb_first(question, row, ctx, tried)
        for step in steps:
            yield step
        if good_enough(best, ctx.column) or ctx.web is None:
            yield final_answer(best, "kb")
            return
        async for step in self.search_web(question, best, row, params, ctx):
            yield step

    @abstractmethod
    def search_web(self, question: str, kb_best: Candidate, row: RowInput, params: dict,
                   ctx: EnrichContext) -> AsyncIterator[RowStep]:
        """The web path: yield search/fetch steps and end with the answer step (the KB's if the web does no better)."""
