"""Value coercion after every strategy (spec N5).

Raw answers (an LLM's sentence, a snippet, an extracted span) become clean cell
values in three steps: strip preambles and wrapping quotes, map not-found
sentinels to an empty cell, then coerce to the column's type with a
confidence. This layer cannot make research better; it keeps raw research
output from corrupting a table ("paragraphs in select columns").
"""

from __future__ import annotations

import difflib
import re

from cikb.answer.models import says_not_there
from cikb.answer.reader import format_number, number_value
from cikb.enrich.models import CONFIDENCE_ORDER, ColumnType, Confidence

MAX_TEXT_CHARS = 2000

_PREAMBLES = [
    r"based on (?:my|the|our) (?:research|search results|searches|search|findings|information(?: provided)?|context|sources?)\b",
    r"according to (?:the |my )?(?:website|search results|sources?|context|information|research|knowledge base|documents?)\b",
    r"(?:from|after|upon) (?:reviewing |checking |searching )?(?:the |my )?(?:search results|research|searching|sources?|context|documents?)\b",
    r"(?:the )?(?:final )?(?:answer|result|value)(?:\s*:|\s+is\b)",  # never a bare word: 'Answer Inc' is a name
    r"it (?:appears|seems)(?: that)?\b",
    r"i found(?: that)?\b",
]
_PREAMBLE_RE = re.compile(r"^\s*(?:" + "|".join(_PREAMBLES) + r")\s*[:,\-–—]?\s*", re.IGNORECASE)
_QUOTE_PAIRS = {'"': '"', "'": "'", "“": "”", "‘": "’", "`": "`", "«": "»"}

NOT_FOUND_SENTINELS = frozenset(
    {
        "", "n/a", "na", "n.a", "none", "null", "nil", "nan", "-", "--", "—", "?", "unknown", "not known",
        "not found", "not available", "unavailable", "no data", "no information", "not applicable",
        "not specified", "not stated", "not mentioned", "not provided", "tbd", "no answer",
        "could not determine", "could not determine an answer", "cannot determine", "unable to determine",
        "i don't know", "i do not know", "i don't have enough information about that",
        "no information available", "information not available",
    }
)

_CURRENCY = "$€£¥₹"
# A number and nothing else: the only shape a number cell is sure of.
_PLAIN_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")

_TRUE_WORDS = frozenset({"yes", "true", "1", "y"})
_FALSE_WORDS = frozenset({"no", "false", "0", "n"})


def strip_preamble(text: str) -> str:
    """'Based on my research, 2010' -> '2010'; also drops wrapping quotes and a trailing period on short answers."""
    value = text.strip()
    for _ in range(3):  # "Answer: Based on the context, ..." has two layers
        stripped = _PREAMBLE_RE.sub("", value, count=1).strip()
        if stripped == value or not stripped:
            break
        value = stripped
    return _unquote(value)


def _unquote(value: str) -> str:
    while len(value) >= 2 and _QUOTE_PAIRS.get(value[0]) == value[-1]:
        value = value[1:-1].strip()
    return value


def is_not_found(text: str | None) -> bool:
    """True for 'n/a', 'Unknown.', 'not found', empty... (case-insensitive, trailing periods ignored)."""
    if text is None:
        return True
    key = " ".join(text.strip().lower().split()).rstrip(".!").strip()
    return key in NOT_FOUND_SENTINELS or says_not_there(key)


def coerce_value(raw: str | None, column_type: ColumnType, options: list[str] | None = None) -> tuple[str | None, Confidence]:
    """Clean a raw answer for a column of ``column_type``: ``(value or None, confidence)``."""
    if raw is None:
        return None, "none"
    text = strip_preamble(str(raw))
    if is_not_found(text):
        return None, "none"
    if column_type == "number":
        return coerce_number(text)
    if column_type == "boolean":
        return coerce_boolean(text)
    if column_type == "select":
        return coerce_select(text, options or [])
    return coerce_text(text)


def coerce_number(text: str) -> tuple[str | None, Confidence]:
    """The number the text states (the reader's one number parser: separators, multipliers, words);
    high only when the text is a bare number and nothing else."""
    cleaned = text.strip().rstrip(".")
    bare = cleaned.lstrip(_CURRENCY).strip()
    number = number_value(bare)
    if number is None:
        return None, "none"
    clean = bool(_PLAIN_NUMBER.fullmatch(bare)) and bare == cleaned
    return format_number(number), "high" if clean else "medium"


def coerce_boolean(text: str) -> tuple[str | None, Confidence]:
    """yes/true/1/y -> 'true', no/false/0/n -> 'false'; a leading yes/no with more words is medium; anything else low."""
    key = text.strip().lower().rstrip(".!")
    if key in _TRUE_WORDS:
        return "true", "high"
    if key in _FALSE_WORDS:
        return "false", "high"
    words = re.findall(r"[a-z0-9]+", key)
    if words and words[0] in _TRUE_WORDS | {"true"}:
        return "true", "medium"
    if words and words[0] in _FALSE_WORDS | {"false"}:
        return "false", "medium"
    said_true = any(w in ("yes", "true") for w in words)
    said_false = any(w in ("no", "false", "not") for w in words)
    if said_true != said_false:
        return ("true" if said_true else "false"), "low"
    return _truncate(text)[0], "low"


def coerce_select(text: str, options: list[str]) -> tuple[str | None, Confidence]:
    """Exact (case-insensitive) option -> high; one option found inside the answer, or a near spelling -> medium; else the answer as-is, low."""
    key = text.strip().rstrip(".").lower()
    for option in options:
        if option.strip().lower() == key:
            return option, "high"
    inside = [o for o in options if o.strip() and re.search(r"(?<!\w)" + re.escape(o.strip().lower()) + r"(?!\w)", key)]
    if len(inside) == 1:
        return inside[0], "medium"
    containing = [o for o in options if key and key in o.lower()]
    if not inside and len(containing) == 1:
        return containing[0], "medium"
    close = difflib.get_close_matches(key, [o.lower() for o in options], n=2, cutoff=0.8)
    if len(close) == 1:
        return next(o for o in options if o.lower() == close[0]), "medium"
    return _truncate(text)[0], "low"


def coerce_text(text: str) -> tuple[str | None, Confidence]:
    """Text is kept whole up to 2,000 characters (high); longer is truncated (medium)."""
    value, truncated = _truncate(text)
    return value, "medium" if truncated else "high"


def _truncate(text: str) -> tuple[str, bool]:
    if len(text) <= MAX_TEXT_CHARS:
        return text, False
    return text[:MAX_TEXT_CHARS], True


def min_confidence(*levels: Confidence) -> Confidence:
    """The weakest of several confidences."""
    return min(levels, key=CONFIDENCE_ORDER.index)


def confidence_at_least(level: Confidence, floor: Confidence) -> bool:
    """True when ``level`` is ``floor`` or stronger."""
    return CONFIDENCE_ORDER.index(level) >= CONFIDENCE_ORDER.index(floor)
