"""The numbered context an answer cites: [1] is the best-ranked chunk in the context (spec A1).

Chunk text is data, never instructions (A4): it is framed in ``<source>``
elements inside one ``<context>`` element, and any text in a chunk that
imitates those tags is neutralised so a page cannot close the frame early
and speak as the user or the system.
"""

from __future__ import annotations

import re

from cikb.answer.models import Source

from cikb.core.models import ScoredChunk

_FRAME_TAG = re.compile(r"<(\s*/?\s*(?:context|sources?|question|system|user|assistant)\b)", re.IGNORECASE)


def sources_of(context: list[ScoredChunk]) -> list[Source]:
    """The context as numbered sources: title, url, crawl date, publication date."""
    return [
        Source(
            number=number, title=item.chunk.metadata.title, url=item.chunk.metadata.url,
            source_type=item.chunk.metadata.source_type, company=item.chunk.metadata.company,
            crawled_at=item.chunk.metadata.scraped_at, published=item.chunk.metadata.published, chunk_id=item.chunk.id,
            score=item.score, dense_score=item.dense_score,
        )
        for number, item in enumerate(context, start=1)
    ]


def neutralise(text: str) -> str:
    """Chunk text with anything that looks like one of our frame tags defanged (``<source`` -> ``‹source``)."""
    return _FRAME_TAG.sub(lambda m: "‹" + m.group(1), text)


def numbered_context(context: list[ScoredChunk]) -> str:
    """The context block of the prompt: one ``<source id="n">`` element per chunk."""
    parts = []
    for number, item in enumerate(context, start=1):
        meta = item.chunk.metadata
        title = neutralise(meta.title).replace('"', "'")
        published = f' published="{meta.published:%Y-%m-%d}"' if meta.published is not None else ""
        parts.append(
            f'<source id="{number}" title="{title}" url="{neutralise(meta.url)}" '
            f'crawled="{meta.scraped_at:%Y-%m-%d}"{published}>\n{neutralise(item.chunk.text).strip()}\n</source>'
        )
    return "<context>\n" + "\n\n".join(parts) + "\n</context>"
