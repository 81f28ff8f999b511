"""Citation checks after generation (spec A1, A2).

A citation is a bracketed source number: ``[1]``, ``[1, 3]``, ``[1][2]``,
``[2-4]``, ``[Source 2]``. Numbers that are not in the context are removed and
reported; every sentence of substance must keep at least one valid citation,
or the answer is not grounded.

Given the cited texts, a valid number is not enough either: a sentence that cites
[n] must be *supported* by chunk n — its numbers and words of content stated there
as a statement, not in text that addresses the reader as instructions
(:mod:`cikb.answer.support`). An unsupported sentence makes the answer ungrounded.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from cikb.answer.support import check_support, claim_terms
from cikb.core import sentences as sentence_splitter

_NUMBER_LIST = r"\d+(?:\s*(?:,|;|and|-|–)\s*\d+)*"
CITATION = re.compile(rf"\[\s*(?:sources?\s*:?\s*)?({_NUMBER_LIST})\s*\]", re.IGNORECASE)
# A sentence of this many words (citations aside) is a claim worth citing; a shorter one when it states a number or a word of content.
SUBSTANTIVE_WORDS = 4
MAX_RANGE = 20


@dataclass(frozen=True)
class UnsupportedClaim:
    """A sentence whose cited sources do not state what it says."""

    sentence: str
    cited: list[int]
    missing: list[str]  # its numbers and words that no statement of the cited sources holds

    def describe(self) -> str:
        sources = "".join(f"[{n}]" for n in self.cited)
        said = ", ".join(repr(m) for m in self.missing) or "anything it says"
        return f"unsupported claim: {self.sentence} (source {sources} does not state {said})"


@dataclass
class CheckedCitations:
    """The answer with invalid citations removed, and what the check found."""

    text: str
    valid: list[int] = field(default_factory=list)
    removed: list[int] = field(default_factory=list)
    uncited: list[str] = field(default_factory=list)
    unsupported: list[UnsupportedClaim] = field(default_factory=list)

    @property
    def grounded(self) -> bool:
        return bool(self.valid) and not self.uncited and not self.unsupported


def cited_numbers(group: str) -> list[int]:
    """The numbers of one bracket's content: "1, 3" -> [1, 3]; "2-4" -> [2, 3, 4]."""
    numbers: list[int] = []
    for part in re.split(r"\s*(?:,|;|and)\s*", group):
        bounds = [int(n) for n in re.split(r"\s*[-–]\s*", part) if n]
        if len(bounds) == 2 and 0 <= bounds[1] - bounds[0] <= MAX_RANGE:
            numbers.extend(range(bounds[0], bounds[1] + 1))
        else:
            numbers.extend(bounds)
    return numbers


def check_citations(text: str, available: int, sources: Sequence[str] | None = None, subject: str = "") -> CheckedCitations:
    """Keep citations of sources 1..``available``, drop the rest, and find uncited claims.

    With ``sources`` (the text of source n at index n - 1), every sentence that cites a source is
    also checked against the sources it cites; ``subject`` names the company, whose own name needs no source.
    """
    result = CheckedCitations(text="")

    def rewrite(match: re.Match[str]) -> str:
        kept = []
        for number in cited_numbers(match.group(1)):
            if 1 <= number <= available:
                kept.append(number)
                if number not in result.valid:
                    result.valid.append(number)
            elif number not in result.removed:
                result.removed.append(number)
        return "".join(f"[{n}]" for n in dict.fromkeys(kept))

    cleaned = CITATION.sub(rewrite, text)
    result.text = _tidy(cleaned)
    sentences = split_sentences(result.text)
    result.uncited = [s for s in sentences if _is_claim(s, subject) and not CITATION.search(s)]
    if sources is not None:
        result.unsupported = unsupported_claims(sentences, sources, subject)
    return result


def unsupported_claims(sentences: list[str], sources: Sequence[str], subject: str = "") -> list[UnsupportedClaim]:
    """The sentences with citations whose cited sources do not state them."""
    found = []
    for sentence in sentences:
        cited = [n for m in CITATION.finditer(sentence) for n in cited_numbers(m.group(1)) if 1 <= n <= len(sources)]
        if not cited:
            continue
        cited = list(dict.fromkeys(cited))
        claim = CITATION.sub(" ", sentence)
        support = check_support(claim, [sources[n - 1] for n in cited], subject)
        if not support.supported:
            found.append(UnsupportedClaim(sentence, cited, support.missing))
    return found


def split_sentences(text: str) -> list[str]:
    """Sentences of an answer, each with its trailing citations; lines are kept apart (a citation ends its line)."""
    return _attach_trailing_citations([s for line in text.splitlines() for s in sentence_splitter.split_sentences(line)])


def _attach_trailing_citations(sentences: list[str]) -> list[str]:
    # "Acme sells anvils. [1]" splits into "Acme sells anvils." and "[1]": the citation belongs to the claim.
    merged: list[str] = []
    for sentence in sentences:
        if merged and not CITATION.sub("", sentence).strip(" .,;"):
            merged[-1] = f"{merged[-1]} {sentence}"
        else:
            merged.append(sentence)
    return merged


def _is_claim(sentence: str, subject: str = "") -> bool:
    """A sentence of substance: four words or more, or fewer that still state something ("It is bankrupt.",
    "Founded in 2004."); a lead-in ending in a colon is none."""
    text = CITATION.sub(" ", sentence)
    if sentence.rstrip().endswith(":"):
        return False
    if len(text.split()) >= SUBSTANTIVE_WORDS:
        return True
    numbers, words = claim_terms(text, subject)
    return bool(numbers or words)


def _tidy(text: str) -> str:
    text = re.sub(r"[ \t]+([.,;:!?])", r"\1", text)  # "claim ." after a removed citation
    text = re.sub(r"[ \t]{2,}", " ", text)
    text = re.sub(r"\(\s*\)", "", text)
    return text.strip()
