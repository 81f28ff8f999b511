"""The quality gate and retries of a cell (spec Q1, Q2): a weak cell is tried again with feedback.

Each cell's confidence maps to a number (:data:`CONFIDENCE_SCORE`); a cell under the
threshold (``[enrich] retry_threshold``, 0.6: below medium) is tried again, at most
``[enrich] max_attempts`` times in all, and no more once an attempt brings no improvement.
Good cells are never retried, and a retry's value replaces the kept one only when it scores
higher. A retry gets :func:`feedback`: the questions, queries, chunks and URLs tried, and the
earlier values with why they were weak. Strategies that read it (the knowledge-first ones) ask
the knowledge base again with another phrasing of the question (:func:`rephrase`, from the
phrasing table ``phrasings.toml``), prefer chunks not read before, and with an LLM send the
feedback in the retry prompt (``prompts/enrich_retry.txt``).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import tomllib
from collections.abc import Collection
from functools import cache
from importlib import resources

from cikb.enrich.base import EnrichContext
from cikb.enrich.models import AttemptSummary, Confidence, RowLog
from cikb.enrich.template import interpolate_template
from cikb.prompts import load_prompt

CONFIDENCE_SCORE: dict[Confidence, float] = {"high": 0.9, "medium": 0.6, "low": 0.3, "none": 0.0}
RETRYABLE = ("found", "not_found", "error")  # skipped rows (no company) cannot do better


def cell_score(log: RowLog) -> float:
    """The cell's quality as a number: its confidence's score, 0 without a value."""
    return CONFIDENCE_SCORE[log.confidence] if log.status == "found" else 0.0


def is_weak(log: RowLog, threshold: float) -> bool:
    return log.status in RETRYABLE and cell_score(log) < threshold


def outside_knowledge_base(log: RowLog) -> bool:
    """The row's company is not in the knowledge base: another phrasing of the question cannot find it there."""
    return any(s.type == "retrieve" and s.data.get("in_knowledge_base") is False for s in log.steps)


def why_weak(log: RowLog) -> str:
    """One line: why this attempt did not make the cell good."""
    told = [s for s in log.steps if s.detail and not s.data.get("feedback")]  # not a retry's own announcement
    reason = next((s.detail for s in reversed(told) if s.type in ("error", "thinking")), "")
    reason = reason or next((s.detail for s in reversed(told) if s.type in ("retrieve", "search")), "")
    if log.status == "found":
        return f"only {log.confidence} confidence" + (f": {reason}" if reason else "")
    return reason or log.status.replace("_", " ")


def questions_asked(log: RowLog) -> list[str]:
    return [s.data["query"] for s in log.steps if s.type in ("retrieve", "search") and s.data.get("query")]


def chunks_read(log: RowLog) -> list[str]:
    return [c["chunk_id"] for s in log.steps if s.type == "retrieve" for c in s.data.get("chunks", []) if c.get("chunk_id")]


def urls_read(log: RowLog) -> list[str]:
    urls = [c["url"] for s in log.steps if s.type == "retrieve" for c in s.data.get("chunks", []) if c.get("url")]
    urls += [u for s in log.steps if s.type == "search" for u in s.data.get("results", [])]
    urls += [s.data["url"] for s in log.steps if s.type == "fetch" and s.data.get("url")]
    return list(dict.fromkeys(urls))


def summary(log: RowLog, attempt: int, *, kept: bool, threshold: float) -> AttemptSummary:
    asked = questions_asked(log)
    return AttemptSummary(attempt=attempt, status=log.status, value=log.value, confidence=log.confidence,
                          question=asked[0] if asked else "", sources=[s.url for s in log.sources], kept=kept,
                          why="" if not is_weak(log, threshold) else why_weak(log))


def feedback(history: list[RowLog]) -> dict:
    """What a retry is told: everything tried so far and why it was weak (JSON-able, for params)."""
    return {
        "attempt": len(history) + 1,
        "queries": list(dict.fromkeys(q for log in history for q in questions_asked(log))),
        "chunks": list(dict.fromkeys(c for log in history for c in chunks_read(log))),
        "urls": list(dict.fromkeys(u for log in history for u in urls_read(log))),
        "previous": [{"value": log.value, "confidence": log.confidence, "why": why_weak(log)} for log in history],
    }


def feedback_text(feedback: dict) -> str:
    """The feedback as lines for the retry prompt."""
    lines = [f"- attempt {i}: " + (f"{p['value']!r} ({p['confidence']} confidence)" if p["value"] else "no value") + f"; {p['why']}"
             for i, p in enumerate(feedback.get("previous", []), start=1)]
    lines += [f"- question asked: {q}" for q in feedback.get("queries", [])]
    lines += [f"- source read: {u}" for u in feedback.get("urls", [])[:10]]
    return "\n".join(lines)


# --- other phrasings ------------------------------------------------------------------

_QUESTION_WORDS = {"what", "which", "who", "whom", "whose", "when", "where", "why", "how", "is", "are", "was", "were", "does", "do",
                   "did", "has", "have", "had", "the", "a", "an", "of", "in", "on", "for", "to", "by", "its", "it", "many", "much"}


@cache
def phrase_groups() -> tuple[tuple[str, ...], ...]:
    """The phrasing table: groups of phrases that say the same thing, in the table's order (most natural first)."""
    data = tomllib.loads(resources.files(__package__).joinpath("phrasings.toml").read_text(encoding="utf-8"))
    return tuple(tuple(p.lower() for p in g["phrases"]) for g in data["group"])


def phrasings(question: str) -> list[str]:
    """Other phrasings of ``question``: each general word swapped for the others of its group, then keywords only."""
    found: list[str] = []
    for group in phrase_groups():
        for phrase in sorted(group, key=len, reverse=True):  # "head office" before "head"
            pattern = re.compile(rf"\b{re.escape(phrase)}\b", re.I)
            if pattern.search(question):
                found += [pattern.sub(other, question, count=1) for other in group if other != phrase]
                break
    words = [w for w in re.findall(r"[\w'&.-]+", question) if w.lower() not in _QUESTION_WORDS]
    found.append(" ".join(words).strip(" ?.") if words else "")
    return [p for p in dict.fromkeys(found) if p and p.lower() != question.lower()]


def rephrase(question: str, tried: Collection[str]) -> str | None:
    """The first other phrasing of ``question`` not tried yet, or None when none is left."""
    asked = {t.lower() for t in tried}
    return next((p for p in phrasings(question) if p.lower() not in asked), None)


# --- phrasings from the LLM, cached per column ----------------------------------------

MAX_LLM_PHRASINGS = 4


def column_key(ctx: EnrichContext, question: str) -> str:
    """sha256 of the column's sorted metadata (name, type, options, question): the cache key of its phrasings."""
    metadata = {"name": ctx.column.name, "type": ctx.column.type, "options": sorted(ctx.column.options), "question": question}
    return hashlib.sha256(json.dumps(metadata, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


async def llm_phrasings(template: str, ctx: EnrichContext, kind: str = "phrasings") -> list[str]:
    """What the LLM writes for a column's question template ({Column} placeholders kept): other phrasings of it
    (``kind="phrasings"``, prompt ``enrich_phrasings``) or search queries (``"queries"``, prompt ``enrich_queries``).

    Asked once per column and kept in ``ctx.cache`` under the column's :func:`column_key`: a
    later run (or row) finds them without a call.
    """
    if ctx.llm is None:
        return []
    key = f"{kind}:{column_key(ctx, template)}"
    lock = ctx.memo.setdefault(f"{kind}-lock", asyncio.Lock())
    async with lock:  # type: ignore[union-attr]
        if key in ctx.memo:
            return ctx.memo[key]  # type: ignore[return-value]
        cached = ctx.cache.get(key) if ctx.cache is not None else None
        if cached is None:
            cached = await _ask_llm(template, ctx, kind)
            if cached and ctx.cache is not None:
                ctx.cache.put(key, cached)
        ctx.memo[key] = cached
        return cached


async def _ask_llm(template: str, ctx: EnrichContext, kind: str) -> list[str]:
    messages = [{"role": "system", "content": load_prompt(f"enrich_{kind}").replace("{count}", str(MAX_LLM_PHRASINGS))},
                {"role": "user", "content": f"Column: {ctx.column.name} (type: {ctx.column.type})\nQuestion: {template}"}]
    try:
        reply = await asyncio.to_thread(ctx.llm, f"enrich:{kind}", messages)  # type: ignore[arg-type]
    except Exception:  # the phrasing table (or the offline search angles) still serve
        return []
    placeholders = set(re.findall(r"\{[^{}]+\}", template))
    lines = [line.strip(" -*\t\"") for line in reply.splitlines()]
    return [line for line in lines if line and set(re.findall(r"\{[^{}]+\}", line)) == placeholders][:MAX_LLM_PHRASINGS]


async def retry_question(template: str, question: str, row_data: dict, tried: Collection[str], ctx: EnrichContext) -> str | None:
    """A retry's question: the LLM's phrasings of the column (cached) first when one is configured, then the table's."""
    generated = [interpolate_template(t, row_data) for t in await llm_phrasings(template, ctx)]
    asked = {t.lower() for t in tried}
    return next((p for p in generated if p.lower() not in asked and p.lower() != question.lower()), None) or rephrase(question, tried)
