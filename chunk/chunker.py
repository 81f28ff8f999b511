"""Heading-aware chunks sized in the embedding model's tokens (spec K1-K3).

Rules, with ``n(text)`` the model's token count *including* special tokens:

- Every chunk has ``n(chunk.text) <= max_tokens`` (512): the model never truncates one.
- Chunks are packed from whole units (sections, else paragraphs, else sentences,
  else words; a token only for a word too long to fit). A chunk closes when it
  holds ``target_tokens``, or when the next unit does not fit or starts a heading
  section and it already holds ``close_at = max(target_tokens // 2, min_tokens)``;
  otherwise the next unit is split to fill it. So every chunk but the last has
  at least ``close_at`` tokens.
- Overlap: chunk ``i+1``'s text begins with a suffix of chunk ``i``'s text
  holding at least ``overlap_tokens`` (50) tokens — the last 50 tokens of chunk
  ``i`` are tokens of chunk ``i+1`` — extended back to the start of the word the
  50th-from-last token sits in (never more than that word), so no word is cut.
- A last chunk with fewer than ``min_tokens`` new tokens merges into the one
  before it when both fit ``max_tokens``; a document smaller than ``min_tokens``
  is one chunk.
- ``chunk.text`` is an exact substring of the document: citable as is, and the
  very text that is embedded and BM25-encoded. The heading path is metadata
  (not prefixed into the text: a prefix would count against the 512 tokens of
  every chunk and break the exact overlap; a chunk that starts a section already
  begins with its ``#`` heading line).
- ``chunk.id`` is ``str(uuid.UUID(bytes=sha256(f"{company}#{url}#{chunk_index}".encode()).digest()[:16]))``:
  the company's slug is part of it, so two companies that gather the same page (a shared
  news article) get points of their own and neither replaces the other's. The ``#``s keep
  it unambiguous (a slug has no ``#``; ``…/a1`` + ``0`` vs ``…/a`` + ``10``).
"""

from __future__ import annotations

import hashlib
import uuid
from bisect import bisect_left, bisect_right
from collections import deque
from dataclasses import dataclass, field

from cikb.chunk.tokenizer import Tokenizer
from cikb.chunk.units import SECTION, WORD_RUN, TokenIndex, Unit, sections, split

from cikb.core.config import ChunkSettings
from cikb.core.models import Chunk, ChunkMetadata, RawDocument


def chunk_id(company: str, url: str, chunk_index: int) -> str:
    """The chunk's point id: a UUID made of the first 16 bytes of sha256(company + "#" + url + "#" + chunk_index)."""
    digest = hashlib.sha256(f"{company}#{url}#{chunk_index}".encode("utf-8")).digest()
    return str(uuid.UUID(bytes=digest[:16]))


def chunk_document(doc: RawDocument, tokenizer: Tokenizer, settings: ChunkSettings) -> list[Chunk]:
    """Split one document into chunks that fit the embedding model (see the module docstring)."""
    text = doc.content
    special = tokenizer.count_tokens("")
    budget = settings.max_tokens - special
    if settings.overlap_tokens * 2 >= budget:
        raise ValueError(f"overlap_tokens={settings.overlap_tokens} leaves no room in max_tokens={settings.max_tokens}")
    tokens = TokenIndex(tokenizer.offsets(text))
    for _ in range(3):
        spans = _Packer(text, tokens, budget, settings, special).pack()
        counts = [tokenizer.count_tokens(text[s.start : s.end]) for s in spans]
        excess = max(counts, default=0) - settings.max_tokens
        if excess <= 0:
            return [_chunk(doc, i, s, n) for i, (s, n) in enumerate(zip(spans, counts))]
        # A tokenizer whose tokens depend on context re-counted a slice higher: pack tighter.
        budget -= excess
    raise ValueError(f"could not fit chunks of {doc.url} into {settings.max_tokens} tokens")


@dataclass
class _Span:
    start: int
    end: int
    new_start: int
    units: list[Unit] = field(default_factory=list)

    @property
    def heading_path(self) -> list[str]:
        paths = [u.path for u in self.units]
        common: list[str] = []
        for parts in zip(*paths):
            if any(p != parts[0] for p in parts):
                break
            common.append(parts[0])
        return common


class _Packer:
    """Greedy packing of units into chunk spans, one document at a time."""

    def __init__(self, text: str, tokens: TokenIndex, budget: int, settings: ChunkSettings, special: int) -> None:
        self.text = text
        self.tokens = tokens
        self.budget = budget
        self.target = max(settings.target_tokens - special, 1)
        self.close_at = max(self.target // 2, settings.min_tokens - special)
        self.min_new = max(settings.min_tokens - special, 0)
        self.overlap = settings.overlap_tokens
        self.word_starts = [m.start() for m in WORD_RUN.finditer(text)]

    def pack(self) -> list[_Span]:
        spans: list[_Span] = []
        queue = deque(sections(self.text))
        current: _Span | None = None
        while queue:
            unit = queue.popleft()
            start = current.start if current else unit.start
            size = self.tokens.count(start, current.end) if current and current.units else 0
            fits = self.tokens.count(start, unit.end) <= self.budget
            if current and current.units and self._closes_before(unit, size, fits):
                spans.append(current)
                current = self._next_span(current)
                queue.appendleft(unit)
            elif fits:
                current = current or _Span(unit.start, unit.end, unit.start)
                current.units.append(unit)
                current.end = unit.end
            else:
                queue.extendleft(reversed(split(unit, self.text, self.tokens)))
        if current and current.units:
            spans.append(current)
        return self._merge_small_tail(spans)

    def _closes_before(self, unit: Unit, size: int, fits: bool) -> bool:
        if size >= self.target:
            return True
        starts_section = unit.boundary == SECTION
        return size >= self.close_at and (not fits or starts_section)

    def _next_span(self, previous: _Span) -> _Span:
        """An empty span that begins with the overlap taken from the end of ``previous``."""
        start = self._overlap_start(previous) if self.overlap else previous.end
        return _Span(start, start, previous.end)

    def _overlap_start(self, span: _Span) -> int:
        starts = self.tokens.starts_in(span.start, span.end)
        if not starts:
            return span.end
        token_start = starts[max(len(starts) - self.overlap, 0)]
        word_start = self.word_starts[bisect_right(self.word_starts, token_start) - 1]
        if word_start < span.start or self.tokens.count(word_start, token_start) > self.overlap:
            return max(token_start, span.start)  # a giant word: cut inside it rather than double the overlap
        return word_start

    def _merge_small_tail(self, spans: list[_Span]) -> list[_Span]:
        if len(spans) < 2:
            return spans
        previous, last = spans[-2], spans[-1]
        if self.tokens.count(last.new_start, last.end) >= self.min_new:
            return spans
        if self.tokens.count(previous.start, last.end) <= self.budget:
            previous.end = last.end
            previous.units.extend(last.units)
            return spans[:-1]
        # Too big to merge: reach further back into the previous chunk until the last is big enough.
        while self.tokens.count(last.start, last.end) < self.min_new and last.start > previous.start:
            last.start = self.word_starts[max(bisect_left(self.word_starts, last.start) - 1, 0)]
        return spans


def _chunk(doc: RawDocument, index: int, span: _Span, token_count: int) -> Chunk:
    return Chunk(
        id=chunk_id(doc.company, doc.url, index),
        text=doc.content[span.start : span.end],
        token_count=token_count,
        metadata=ChunkMetadata(
            url=doc.url,
            title=doc.title,
            company=doc.company,
            source_type=doc.source_type,
            chunk_index=index,
            scraped_at=doc.scraped_at,
            heading_path=span.heading_path,
            page_kind=doc.page_kind,
            published=doc.published,
        ),
    )
