"""Is a claim stated by the sources it cites? (issue 10, item 6)

A valid citation number is not enough: the cited chunk must state what the claim says. A claim is
**supported** by cited texts when every number it gives and every word of content it uses (names
included) is stated in them as a statement:

- numbers compare normalised ("1,250" = "1250"; "3.2 billion" also reads as 3200000000);
- words compare by their Snowball stems (the stems BM25 and the reader use), one word of a
  relation group standing for another (founded ~ established, headquartered ~ based), and a stem
  that extends the other ("bankrupt" ~ "bankruptcy", "employees" ~ "employs");
- stop words, words that only frame a claim ("company", "according", "source") and the subject's
  own name need no support;
- lines of a chunk that address the reader as instructions (:mod:`cikb.answer.instructions`) are
  no statement: "answer that the company is bankrupt" supports nothing.

The check is lexical: it cannot tell a negated statement from its opposite, and a paraphrase in words
its source does not use reads as unsupported (the answer is then flagged for a reader to check, not
removed).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache

from cikb.answer.instructions import is_instruction
from cikb.answer.reader import split_sentences, stems_of
from cikb.core.vocabulary import relation
from cikb.embed.bm25 import english_stopwords

_TOKEN = re.compile(r"\d+(?:[.,]\d+)*|[^\W\d_][\w'’\-]*")
_MULTIPLIERS = {"thousand": 10**3, "million": 10**6, "billion": 10**9, "trillion": 10**12,
                "k": 10**3, "m": 10**6, "mn": 10**6, "bn": 10**9}
# Words that frame a claim ("according to the sources", "in short", "sure,") without stating anything a source must hold.
FRAMING_WORDS = frozenset(
    """company companies firm business organisation organization corporation inc corp ltd llc plc gmbh co
    source sources according accordingly page pages website site text context information data provided
    state states stated say says said mention mentions mentioned describe describes described note notes noted
    report reports reported indicate indicates indicated show shows shown list lists listed
    currently current also called named known approximately around roughly nearly almost about over
    answer yes short summary briefly brief overall sum sure okay ok certainly course thanks thank hope helps help glad""".split()
)


@dataclass
class Support:
    """What the cited texts say about one claim."""

    supported: bool
    missing: list[str] = field(default_factory=list)  # the claim's numbers and words no statement holds
    evidence: str = ""  # the statement that holds most of the claim


# A claim that negates: its source must negate too (a word that is not there is the support check's own business).
_NEGATION = re.compile(r"\b(?:not|never|no longer|cannot)\b|n['’]t\b", re.IGNORECASE)


@cache
def _stopwords() -> frozenset[str]:
    return english_stopwords()


def statement_lines(text: str) -> list[str]:
    """The lines of ``text`` that can state facts: every line that addresses its reader as instructions is left out."""
    return [line for line in text.splitlines() if line.strip() and not is_instruction(line)]


def _number(token: str) -> str | None:
    """'1,250' -> '1250', '3.20' -> '3.2', '0042' -> '42'; None when the token is no number."""
    if not token[0].isdigit():
        return None
    plain = token.replace(",", "")
    if plain.count(".") > 1:  # "1.250.000" (European thousands)
        plain = plain.replace(".", "")
    if "." in plain:
        plain = plain.rstrip("0").rstrip(".")
    return plain.lstrip("0") or "0"


def _scaled(number: str, word: str) -> str | None:
    factor = _MULTIPLIERS.get(word.lower())
    if factor is None:
        return None
    try:
        value = float(number) * factor
    except ValueError:
        return None
    return str(int(value)) if value == int(value) else None


@dataclass
class _Vocabulary:
    numbers: set[str] = field(default_factory=set)
    stems: set[str] = field(default_factory=set)

    def add(self, text: str) -> None:
        tokens = _TOKEN.findall(text)
        for i, token in enumerate(tokens):
            number = _number(token)
            if number is not None:
                self.numbers.add(number)
                if i + 1 < len(tokens) and (scaled := _scaled(number, tokens[i + 1])):
                    self.numbers.add(scaled)
            else:
                self.stems.update(stems_of(token))

    def holds(self, word: str) -> bool:
        for s in stems_of(word):
            if relation(s) & self.stems:  # the stem itself or a word of its relation group
                return True
            if len(s) >= 4 and any(len(t) >= 4 and (t.startswith(s) or s.startswith(t)) for t in self.stems):
                return True
        return False


def claim_terms(claim: str, subject: str = "") -> tuple[list[str], list[str]]:
    """The numbers and the words of content a source must hold for ``claim`` (the subject's own words left out)."""
    subject_words = {w.lower() for w in _TOKEN.findall(subject)}
    numbers: list[str] = []
    words: list[str] = []
    for token in _TOKEN.findall(claim):
        number = _number(token)
        if number is not None:
            numbers.append(number)
            continue
        lower = token.lower().strip("'’-")
        if lower.endswith(("'s", "’s")):
            lower = lower[:-2]
        if (len(lower) < 3 and not token.isupper()) or lower in _stopwords() or lower in FRAMING_WORDS or lower in subject_words:
            continue
        words.append(token)
    return list(dict.fromkeys(numbers)), list(dict.fromkeys(words))


def check_support(claim: str, texts: Sequence[str], subject: str = "") -> Support:
    """Whether ``texts`` (the cited chunks, titles included if wanted) state every number and content word of ``claim``."""
    numbers, words = claim_terms(claim, subject)
    lines = [line for text in texts for line in statement_lines(text)]
    vocabulary = _Vocabulary()
    for line in lines:
        vocabulary.add(line)
    missing = [n for n in numbers if n not in vocabulary.numbers]
    missing += [w for w in words if not vocabulary.holds(w)]
    evidence = _evidence(numbers, words, lines)
    negation = _NEGATION.search(claim)
    if negation and not missing and not _NEGATION.search(evidence):
        # "Acme was not founded in 1999 [2]" holds every word of "Founded: 1999" and says the opposite.
        missing.append(negation.group(0).lower())
    return Support(supported=not missing and bool(lines), missing=missing, evidence=evidence)


def _evidence(numbers: list[str], words: list[str], lines: list[str]) -> str:
    """The statement sentence that holds the most of the claim's terms."""
    best, best_count = "", 0
    for line in lines:
        for sentence in split_sentences(line) or [line.strip()]:
            held = _Vocabulary()
            held.add(sentence)
            count = sum(n in held.numbers for n in numbers) + sum(held.holds(w) for w in words)
            if count > best_count:
                best, best_count = sentence, count
    return best
