"""Plain-text helpers of the clean stage: normalization, bounds, Markdown stripping.

Everything here is a pure function of its input, so the same HTML always
yields the same document (spec G4).
"""

from __future__ import annotations

import re
import unicodedata

_SPACES = re.compile(r"[ \t\u00a0]+")
_BLANK_LINES = re.compile(r"\n{3,}")
# Controls other than tab and newline: they come from broken encodings and
# would end up in files and embeddings.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_SENTENCE_END = re.compile(r"[.!?…][\"'”’)\]]*\s")

_MD_HEADING = re.compile(r"^#{1,6}\s+", re.MULTILINE)
_MD_LIST = re.compile(r"^\s*(?:[-*+]|\d+\.)\s+", re.MULTILINE)
_MD_QUOTE = re.compile(r"^>\s?", re.MULTILINE)
_MD_TABLE_RULE = re.compile(r"^\|?[\s:|-]+\|[\s:|-]*$", re.MULTILINE)
_MD_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_MD_EMPHASIS = re.compile(r"(\*\*|__|\*|_|`)(?=\S)(.+?)(?<=\S)\1")


def normalize(text: str) -> str:
    """NFC, no control characters, single spaces, at most one blank line in a row (spec C2)."""
    text = unicodedata.normalize("NFC", text)
    text = _CONTROL.sub("", text.replace("\r\n", "\n").replace("\r", "\n"))
    lines = (_SPACES.sub(" ", line).strip() for line in text.split("\n"))
    return _BLANK_LINES.sub("\n\n", "\n".join(lines)).strip()


def bound_bytes(text: str, max_bytes: int) -> str:
    """At most ``max_bytes`` of UTF-8, cut on a character (never inside one)."""
    encoded = text.encode("utf-8")
    if len(encoded) <= max_bytes:
        return text
    return encoded[:max_bytes].decode("utf-8", errors="ignore")


def truncate(text: str, max_chars: int) -> str:
    """At most ``max_chars`` characters, cut at the last paragraph end, else sentence end, else word.

    A boundary is only used when it keeps at least half of the allowed text,
    so one huge paragraph does not shrink the document to its first line.
    """
    if len(text) <= max_chars:
        return text
    head = text[:max_chars]
    floor = max_chars // 2
    paragraph = head.rfind("\n\n")
    if paragraph >= floor:
        return head[:paragraph].rstrip()
    sentence_ends = [m.end() for m in _SENTENCE_END.finditer(head + " ")]
    if sentence_ends and sentence_ends[-1] >= floor:
        return head[: sentence_ends[-1]].rstrip()
    space = head.rfind(" ")
    return (head[:space] if space >= floor else head).rstrip()


def strip_markdown(markdown: str) -> str:
    """The words of a Markdown text without its markup (for language detection and scoring)."""
    text = _MD_TABLE_RULE.sub("", markdown)
    text = _MD_LINK.sub(r"\1", text)
    text = _MD_HEADING.sub("", text)
    text = _MD_LIST.sub("", text)
    text = _MD_QUOTE.sub("", text)
    text = _MD_EMPHASIS.sub(r"\2", text)
    return text.replace("|", " ")
