"""Extractive answers: the context's best-matching sentences, each with its citation (spec A3, no LLM).

A sentence's score mixes

- lexical match: the IDF-weighted share of the question's BM25 stems it holds
  (IDF over the context's sentences, so rare question words count most);
- dense match: the cosine between the question and the sentence, when an
  embedding model is at hand (only the lexically best candidates are embedded);
- an answer-type cue: a year or date for "when", a number for "how many/much",
  a name for "who", a place name for "where";
- a small prior for better-ranked chunks;
- penalties for negated matches ("we never sell it") and for legal/privacy pages.

The best sentence always answers; up to two more join it when they score close
to it and say something new. For when/how-many/who questions a short answer
(the year, number or name) is lifted from the best sentence.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from cikb.embed.bm25 import english_stopwords

from cikb.core.models import ScoredChunk

MAX_SENTENCES = 3
DENSE_CANDIDATES = 8
# A follow-up sentence joins the best one when it scores at least this share of it.
FOLLOW_UP_SHARE = 0.8
# ...or at least this share when it holds question words the sentences so far do not ("...and what does it sell?").
COVERAGE_SHARE = 0.5
NEAR_DUPLICATE = 0.6
LEXICAL_WEIGHT, DENSE_WEIGHT, CUE_BONUS, RANK_PRIOR = 0.6, 0.4, 0.15, 0.05

_YEAR = r"\b(?:1[5-9]\d\d|20\d\d)s?\b"
_MONTH = r"(?:January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\.?"
_DATE = re.compile(
    rf"\b(?:{_MONTH}\s+\d{{1,2}},?\s+\d{{4}}|\d{{1,2}}\s+{_MONTH}\s+\d{{4}}|{_MONTH}\s+\d{{4}}|{_YEAR})", re.IGNORECASE
)
_NUMBER = re.compile(
    r"(?:[$€£]\s?)?\b\d[\d,.]*(?:\s?(?:%|percent|million|billion|thousand|hundred))?"
    r"|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|thousand|million|billion)\b",
    re.IGNORECASE,
)
_NAME = re.compile(r"\b[A-Z][\w'’&.-]*(?:\s+(?:of|de|van|von|the|and|&)?\s*[A-Z][\w'’&.-]*)*")
_PLACE_CUE = re.compile(r"\b(?:in|at|from|near|based|headquartered|located)\s+(?:the\s+)?[A-Z]")
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"'”’)]?\s+(?=[\"'“(]?[A-Z0-9])")
# Abbreviations that end in a dot without ending a sentence.
_ABBREVIATION = re.compile(
    r"(?:\b(?:Inc|Corp|Co|Ltd|Mr|Mrs|Ms|Dr|Prof|St|Jr|Sr|vs|etc|e\.g|i\.e|approx|No|U\.S|U\.K|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)|\b[A-Z])\.$"
)
_MARKDOWN_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_MARKDOWN_MARKS = re.compile(r"(\*\*|__|\*|`)")
_LABEL = re.compile(r"^\s*[*_]*[A-Z][\w ]{0,30}[*_]*:\s")  # "Employees: about 420"
_LIST_MARKER = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
_WORD = re.compile(r"\w+")

# Words people ask with that pages say otherwise (Snowball stems): each counts half as a match.
RELATED_STEMS = {
    "sell": ("make", "build", "offer", "product", "provid", "produc", "manufactur", "design", "develop"),
    "make": ("build", "produc", "manufactur", "design", "sell", "offer"),
    "found": ("establish", "start", "creat", "co-found", "form"),
    "ceo": ("chief", "execut"),
    "headquart": ("base", "locat", "head", "offic"),
    "employ": ("staff", "peopl", "workforc", "employe"),
    "revenu": ("sale", "turnov", "incom"),
    "acquir": ("bought", "acquisit", "purchas"),
    "own": ("subsidiari", "parent", "owner"),
}
RELATED_WEIGHT = 0.5
NEGATION_PENALTY = 0.5
BOILERPLATE_PENALTY = 0.1
_NEGATION = re.compile(r"\b(?:never|not|no|don't|doesn't|didn't|won't|cannot|can't|neither|nor)\b", re.IGNORECASE)
# Pages whose sentences rarely answer questions about the company itself.
_BOILERPLATE_TITLE = re.compile(r"\b(?:legal|privacy|cookies?|terms|imprint|disclaimer|impressum)\b", re.IGNORECASE)

Stemmer = Callable[[str], list[str]]
SentenceEmbedder = Callable[[list[str]], np.ndarray]


@dataclass
class Candidate:
    """One sentence of the context and how well it answers."""

    text: str
    number: int
    stems: list[str]
    boilerplate: bool = False
    negated: bool = False
    lexical: float = 0.0
    dense: float | None = None
    cue: float = 0.0
    score: float = 0.0


@dataclass(frozen=True)
class ExtractiveAnswer:
    text: str
    sentences: list[Candidate]
    short_answer: str | None


def answer_type(question: str) -> str | None:
    """when | quantity | who | where | None, from the question's wording."""
    q = question.lower()
    if re.search(r"\bwhen\b|\bwhat (?:year|date|month|decade|century)\b|\bwhich (?:year|date|month)\b|\bhow long ago\b", q):
        return "when"
    if re.search(r"\bhow (?:many|much|big|large|old|long|tall|far)\b|\bwhat (?:percentage|percent|number|amount)\b", q):
        return "quantity"
    if re.search(r"\bwho\b|\bwhose\b|\bwhom\b", q):
        return "who"
    if re.search(r"\bwhere\b|\bwhat (?:city|country|state|place)\b|\bwhich (?:city|country|state)\b", q):
        return "where"
    return None


def split_sentences(markdown: str) -> list[str]:
    """The prose sentences of a chunk's Markdown: headings, tables and rules skipped, links and marks undone.

    Lines of a paragraph are joined, except list items and "Label: value" lines, which stand alone.
    """
    sentences: list[str] = []
    for block in re.split(r"\n\s*\n", markdown):
        lines = [line for line in block.splitlines() if line.strip() and not _is_markup_line(line)]
        for piece in _pieces(lines):
            prose = _MARKDOWN_MARKS.sub("", _MARKDOWN_LINK.sub(r"\1", piece))
            sentences.extend(_split_prose(prose))
    return [s for s in sentences if len(_WORD.findall(s)) >= 4]


def _pieces(lines: list[str]) -> list[str]:
    pieces: list[str] = []
    joinable = False
    for line in lines:
        standalone = bool(_LIST_MARKER.match(line) or _LABEL.match(line))
        text = _LIST_MARKER.sub("", line).strip()
        if joinable and not standalone:
            pieces[-1] = f"{pieces[-1]} {text}"
        else:
            pieces.append(text)
        joinable = not standalone
    return pieces


def _is_markup_line(line: str) -> bool:
    stripped = line.strip()
    return stripped.startswith(("#", "|", "---", "===", "```", ">")) and not stripped.startswith("> ")


def _split_prose(prose: str) -> list[str]:
    pieces = _SENTENCE_END.split(prose)
    sentences: list[str] = []
    for piece in pieces:
        if sentences and _ABBREVIATION.search(sentences[-1]):
            sentences[-1] = f"{sentences[-1]} {piece}"  # "Acme Corp. was founded..." is one sentence
        else:
            sentences.append(piece.strip())
    return [s for s in sentences if s]


def extract_answer(
    question: str,
    context: list[ScoredChunk],
    stem: Stemmer,
    embed_sentences: SentenceEmbedder | None = None,
    query_vector: np.ndarray | None = None,
) -> ExtractiveAnswer:
    """The 1-3 best sentences of ``context`` for ``question``, with their source numbers."""
    candidates = _candidates(context, stem)
    if not candidates:
        return ExtractiveAnswer(text="", sentences=[], short_answer=None)
    query_stems = set(stem(question))
    kind = answer_type(question)
    _score_lexical(candidates, query_stems)
    if embed_sentences is not None and query_vector is not None:
        _score_dense(candidates, embed_sentences, query_vector)
    for candidate in candidates:
        candidate.cue = _cue(kind, candidate.text, question)
        candidate.score = _combine(candidate)
    chosen = _choose(sorted(candidates, key=lambda c: (-c.score, c.number)), query_stems)
    text = " ".join(f"{c.text} [{c.number}]" for c in chosen)
    return ExtractiveAnswer(text=text, sentences=chosen, short_answer=short_answer(kind, chosen[0].text, question))


def _candidates(context: list[ScoredChunk], stem: Stemmer) -> list[Candidate]:
    seen: set[str] = set()
    candidates = []
    for number, item in enumerate(context, start=1):
        boilerplate = bool(_BOILERPLATE_TITLE.search(item.chunk.metadata.title))
        for sentence in split_sentences(item.chunk.text):
            key = " ".join(_WORD.findall(sentence.lower()))
            if key in seen:  # overlapping chunks repeat sentences: keep the better-ranked copy
                continue
            seen.add(key)
            candidates.append(Candidate(text=sentence, number=number, stems=stem(sentence), boilerplate=boilerplate))
    return candidates


def _score_lexical(candidates: list[Candidate], query_stems: set[str]) -> None:
    """IDF-weighted share of the question's stems a sentence holds; related words count half, negated ones half again."""
    if not query_stems:
        return
    total = len(candidates)
    holding = Counter(s for c in candidates for s in set(c.stems) & query_stems)
    idf = {s: math.log((total - holding[s] + 0.5) / (holding[s] + 0.5) + 1) for s in query_stems}
    # A question word no sentence holds still counts in the denominator: coverage is honest.
    weight = sum(idf.values()) or 1.0
    for candidate in candidates:
        stems = set(candidate.stems)
        score = 0.0
        for q in query_stems:
            if q in stems:
                score += idf[q]
            elif stems.intersection(RELATED_STEMS.get(q, ())):
                score += RELATED_WEIGHT * idf[q]
        candidate.negated = bool(_NEGATION.search(candidate.text))
        if candidate.negated:  # "we never sell it" does not say what is sold
            score *= NEGATION_PENALTY
        candidate.lexical = score / weight


def _score_dense(candidates: list[Candidate], embed_sentences: SentenceEmbedder, query_vector: np.ndarray) -> None:
    best = sorted(candidates, key=lambda c: (-c.lexical, c.number))[:DENSE_CANDIDATES]
    vectors = np.asarray(embed_sentences([c.text for c in best]), dtype=np.float64)
    query = np.asarray(query_vector, dtype=np.float64).reshape(-1)
    norms = np.linalg.norm(vectors, axis=1) * (np.linalg.norm(query) or 1.0)
    cosines = vectors @ query / np.where(norms > 0, norms, 1.0)
    for candidate, cos in zip(best, cosines):
        candidate.dense = float(cos)


def _cue(kind: str | None, sentence: str, question: str) -> float:
    if kind == "when":
        return CUE_BONUS if _DATE.search(sentence) else 0.0
    if kind == "quantity":
        return CUE_BONUS if _NUMBER.search(sentence) else 0.0
    if kind == "who":
        return CUE_BONUS if _new_names(sentence, question) else 0.0
    if kind == "where":
        return CUE_BONUS if _PLACE_CUE.search(sentence) else 0.0
    return 0.0


def _combine(candidate: Candidate) -> float:
    if candidate.dense is None:
        relevance = candidate.lexical
    else:
        relevance = LEXICAL_WEIGHT * candidate.lexical + DENSE_WEIGHT * max(candidate.dense, 0.0)
    penalty = BOILERPLATE_PENALTY if candidate.boilerplate else 0.0
    return relevance + candidate.cue + RANK_PRIOR / candidate.number - penalty


def _choose(ranked: list[Candidate], query_stems: set[str]) -> list[Candidate]:
    """The best sentence, then those close to it, or answering a part of the question it leaves open."""
    chosen = [ranked[0]]
    covered = set(ranked[0].stems) & query_stems
    for candidate in ranked[1:]:
        if len(chosen) == MAX_SENTENCES or candidate.score < COVERAGE_SHARE * chosen[0].score:
            break
        if any(_jaccard(candidate.stems, c.stems) >= NEAR_DUPLICATE for c in chosen):
            continue
        adds = set(candidate.stems) & query_stems - covered
        close = candidate.score >= FOLLOW_UP_SHARE * chosen[0].score
        if candidate.negated or candidate.boilerplate:  # may answer first, never follow up
            continue
        if adds or (close and candidate.cue > 0):
            chosen.append(candidate)
            covered |= adds
    return chosen


def _jaccard(a: list[str], b: list[str]) -> float:
    sa, sb = set(a), set(b)
    return len(sa & sb) / len(sa | sb) if sa | sb else 1.0


def _new_names(sentence: str, question: str) -> list[str]:
    """Capitalised names in ``sentence`` that the question does not already say."""
    asked = {w.lower() for w in _WORD.findall(question)}
    names = []
    for match in _NAME.finditer(sentence):
        words = match.group().split()
        while words and (words[0].lower() in english_stopwords() or words[0].lower() in asked):
            words = words[1:]  # "The", "In", "It"... start sentences, not names
        words = [w for w in words if w.lower() not in asked]
        if words and words[0][0].isupper():
            names.append(" ".join(words).strip(".,;:"))
    return names


def short_answer(kind: str | None, sentence: str, question: str) -> str | None:
    """The year/date, number or name in ``sentence`` that answers a when/quantity/who question."""
    if kind == "when":
        match = _DATE.search(sentence)
        return match.group().strip() if match else None
    if kind == "quantity":
        asked = set(_WORD.findall(question.lower()))
        for match in _NUMBER.finditer(sentence):
            if match.group().strip().lower() not in asked:
                return match.group().strip()
        return None
    if kind == "who":
        names = _new_names(sentence, question)
        return names[0] if names else None
    return None
