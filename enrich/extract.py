"""A typed cell value from retrieved text without an LLM (issue 5 item 8), read by the answer stage's reader.

Enrichment has no extractor of its own: :func:`extract_answer` hands the passages (KB chunks, web
snippets or pages) to :mod:`cikb.answer.reader` — the component ``cikb ask`` reads with — and turns
its answer into a :class:`Candidate`: the value (digits for a number column), the reader's
confidence, the sources that state it and the sentence as the source has it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date

from cikb.answer.reader import KIND_NOUNS, MeaningJudge, Reading, read_asked
from cikb.answer.reader import Passage as ReaderPassage

from cikb.enrich.models import ColumnType, Confidence, EnrichSource


@dataclass(frozen=True)
class Passage:
    """A piece of retrieved text and where it came from."""

    text: str
    source: EnrichSource
    rank: int = 1
    as_of: date | None = None  # when what it says held (a KB chunk's ChunkMetadata.as_of); None for web text
    own_site: bool = False  # a KB chunk from the company's own website (not a web search's page)
    headings: tuple[str, ...] = ()  # a KB chunk's section path (ChunkMetadata.heading_path)


@dataclass
class Candidate:
    """A value a strategy proposes for a cell, with its evidence."""

    value: str | None
    confidence: Confidence
    sources: list[EnrichSource] = field(default_factory=list)
    evidence: str = ""
    note: str = ""


def read_passages(question: str, column_type: ColumnType, passages: list[Passage], *, company: str = "",
                  options: list[str] | None = None, aliases: Sequence[str] = (),
                  close_in_meaning: MeaningJudge | None = None) -> Reading:
    """The reader's reading of ``passages`` for a cell's question (about ``company``, also called ``aliases``;
    ``close_in_meaning`` as ``cikb ask`` reads with it: :func:`cikb.answer.reader.read`)."""
    passages_read = [ReaderPassage(p.text, p.source, p.rank, p.source.title, p.as_of, own_site=p.own_site, headings=p.headings)
                     for p in passages]
    return read_asked(question, passages_read, column_type=column_type, company=company, options=options or [],
                      aliases=aliases, close_in_meaning=close_in_meaning)


def extract_answer(question: str, column_type: ColumnType, passages: list[Passage], *, company: str = "",
                   options: list[str] | None = None, aliases: Sequence[str] = (),
                   close_in_meaning: MeaningJudge | None = None) -> Candidate:
    """The best value of the column's type in ``passages``, with the reader's confidence."""
    reading = read_passages(question, column_type, passages, company=company, options=options, aliases=aliases,
                            close_in_meaning=close_in_meaning)
    answer = reading.answer
    if answer is None:
        note = f"no sentence of the retrieved text states {KIND_NOUNS[reading.question.kind]}"
        if reading.unsure is not None:  # related reading for the reviewer, never the cell's value
            closest = reading.unsure.sentence
            note += f" about the company; closest: “{' '.join(closest.quote.split())[:160]}” ({closest.passage.ref.url})"
        return Candidate(None, "none", note=note)
    value = answer.value
    if column_type == "number":
        key = next(s.key for s in answer.sentence.spans if s.text == answer.value)
        value = key.rsplit(" ", 1)[-1]  # money keys are "<currency> <amount>"
    sources = list({(s.passage.ref.url, s.passage.ref.chunk_id): s.passage.ref for s in answer.support}.values())[:5]
    return Candidate(value, answer.confidence, sources, evidence=answer.sentence.quote)
