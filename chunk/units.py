"""Split Markdown into nested units along H1 > H2 > H3 > paragraph > sentence > word > token (spec K1).

A unit is a character span of the document. Units never cut inside a word
unless a single word is too long to fit a chunk, so a chunk's text is an exact
substring of the document that re-tokenizes to the same tokens.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass

# Levels, coarse to fine. A unit's `boundary` is the strength of the break before it.
SECTION, PARAGRAPH, SENTENCE, WORD, TOKEN = range(5)

_HEADING = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t#]*$")
_FENCE = re.compile(r"^\s*(```|~~~)")
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n\s*")
_SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s+|\n\s*")
WORD_RUN = re.compile(r"\S+")


@dataclass(frozen=True)
class Unit:
    start: int
    end: int
    level: int
    boundary: int
    path: tuple[str, ...]


class TokenIndex:
    """Token positions of one document: counts over any character range in O(log n)."""

    def __init__(self, offsets: list[tuple[int, int]]) -> None:
        self.starts = [start for start, _ in offsets]

    def count(self, start: int, end: int) -> int:
        """Tokens that begin in [start, end)."""
        return bisect_left(self.starts, end) - bisect_left(self.starts, start)

    def starts_in(self, start: int, end: int) -> list[int]:
        """Start offsets of the tokens that begin in [start, end)."""
        return self.starts[bisect_left(self.starts, start) : bisect_left(self.starts, end)]


def sections(text: str) -> list[Unit]:
    """One unit per heading section (the text before the first heading is a section with an empty path)."""
    heads: list[tuple[int, int, str]] = []  # (char offset, level, title)
    offset, in_fence = 0, False
    for line in text.splitlines(keepends=True):
        if _FENCE.match(line):
            in_fence = not in_fence
        elif not in_fence and (match := _HEADING.match(line.rstrip("\r\n"))):
            heads.append((offset, len(match.group(1)), match.group(2).strip()))
        offset += len(line)

    bounds = [0] + [pos for pos, _, _ in heads if pos > 0] + [len(text)]
    paths: dict[int, tuple[str, ...]] = {0: ()}
    stack: list[tuple[int, str]] = []
    for pos, level, title in heads:
        stack = [(lvl, t) for lvl, t in stack if lvl < level] + [(level, title)]
        paths[pos] = tuple(t for _, t in stack)
    units = [_trimmed(text, a, b, SECTION, SECTION, paths[a]) for a, b in zip(bounds, bounds[1:])]
    return [unit for unit in units if unit is not None]


def split(unit: Unit, text: str, tokens: TokenIndex) -> list[Unit]:
    """The unit's children at the first finer level that splits it; a single token cannot be split."""
    for level in range(unit.level + 1, TOKEN + 1):
        spans = _token_spans(unit, tokens) if level == TOKEN else _regex_spans(unit, text, level)
        children = [c for a, b in spans if (c := _trimmed(text, a, b, level, level, unit.path)) is not None]
        if len(children) > 1:
            first = children[0]
            return [Unit(first.start, first.end, level, unit.boundary, unit.path), *children[1:]]
    return [unit]


def _regex_spans(unit: Unit, text: str, level: int) -> list[tuple[int, int]]:
    if level == WORD:
        return [(m.start(), m.end()) for m in WORD_RUN.finditer(text, unit.start, unit.end)]
    pattern = _PARAGRAPH_BREAK if level == PARAGRAPH else _SENTENCE_BREAK
    spans, start = [], unit.start
    for match in pattern.finditer(text, unit.start, unit.end):
        spans.append((start, match.start()))
        start = match.end()
    spans.append((start, unit.end))
    return spans


def _token_spans(unit: Unit, tokens: TokenIndex) -> list[tuple[int, int]]:
    starts = tokens.starts_in(unit.start, unit.end)
    return list(zip(starts, starts[1:] + [unit.end]))


def _trimmed(text: str, start: int, end: int, level: int, boundary: int, path: tuple[str, ...]) -> Unit | None:
    """The span without surrounding whitespace, or None when nothing is left."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return Unit(start, end, level, boundary, path) if start < end else None
