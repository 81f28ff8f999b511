"""R1's last step: the fused top candidates reordered by their best sentence (``retrieve.rerank = "sentences"``).

A question is usually answered by one sentence, and a chunk's whole-text scores
(BM25 over ~400 tokens, one mean-pooled vector) blur where its words sit: a
chunk that repeats the question's common words in many sentences can outscore
the one holding a sentence with all of them. Passage-level evidence (Callan,
SIGIR 1994) puts that back: each candidate chunk gets the score of its best
sentence, the IDF-weighted share of the question's stems it holds,

    evidence(c) = max over sentences s of c:  SUM_{t in q} idf(t) * held(t, s) / SUM_{t in q} idf(t)
    held(t, s)  = 1 when s holds t; w when s holds one of t's relation words; else 0
    idf(t)      = ln((n - n(t) + 0.5) / (n(t) + 0.5) + 1)

over the ``n`` sentences of the candidates (``n(t)`` of them hold ``t``): a
stem every candidate sentence repeats, such as the company's name, counts
little. The relation words are the ones the BM25 query was widened with
(``retrieve.expansion_weight`` is ``w``, ``cikb.core.vocabulary``): the
sentence that found a chunk by "a 501(c)(3) nonprofit" for "What is its tax
status?" is the one that states the fact, and it counts, at that lower weight.
A sentence whose subject is a pronoun ("It is a service provided by ...") is
read with the one before it, which names what "it" is. The fused
score and the evidence are each min-max normalised over the candidates and
mixed,

    score(c) = (1 - weight) * fused_norm(c) + weight * evidence_norm(c)

ties broken by the fused order. Cheap: a few ms for 10 chunks (stems from the
BM25 tokenizer, no model). It reorders the candidates, never adds or drops one,
so recall at the depth it reranks is unchanged.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence

from cikb.core.models import ScoredChunk
from cikb.core.sentences import opens_on_pronoun, split_sentences
from cikb.core.vocabulary import expansions

Tokenize = Callable[[str], list[str]]


def sentence_stems(text: str, tokenize: Tokenize) -> list[set[str]]:
    """The stems of each sentence of ``text``; one whose subject is a pronoun also holds its predecessor's."""
    stems: list[set[str]] = []
    for sentence in split_sentences(text, headings=True):
        own = set(tokenize(sentence))
        stems.append(own | stems[-1] if stems and opens_on_pronoun(sentence) else own)
    return stems


def sentence_evidence(question_stems: set[str], candidates: Sequence[Sequence[set[str]]], expansion_weight: float = 0.0) -> list[float]:
    """Each candidate's best-sentence score, in [0, 1]: the IDF-weighted share of ``question_stems`` one sentence holds.

    ``candidates`` holds each candidate's sentences as sets of stems; the IDF is
    taken over all of them. A question stem a sentence states by one of its relation
    words counts ``expansion_weight`` of its IDF (0: the question's own words only).
    """
    if not question_stems:
        return [0.0] * len(candidates)
    n = sum(len(sentences) for sentences in candidates)
    holding = Counter(stem for sentences in candidates for sentence in sentences for stem in sentence & question_stems)
    idf = {stem: math.log((n - holding[stem] + 0.5) / (holding[stem] + 0.5) + 1) for stem in question_stems}
    related = {stem: expansions(stem) if expansion_weight > 0 else frozenset() for stem in question_stems}
    total = sum(idf.values()) or 1.0

    def held(sentence: set[str]) -> float:
        return sum(idf[t] if t in sentence else expansion_weight * idf[t] if related[t] & sentence else 0.0 for t in question_stems)

    return [max((held(sentence) for sentence in sentences), default=0.0) / total for sentences in candidates]


def rerank_by_sentences(question: str, chunks: Sequence[ScoredChunk], tokenize: Tokenize, weight: float = 0.5,
                        expansion_weight: float = 0.0) -> list[ScoredChunk]:
    """``chunks`` (fused, best first) reordered by ``(1 - weight) * fused + weight * best-sentence evidence``, both min-max normalised.

    The evidence credits a question word's relation words at ``expansion_weight``. The new ``score``
    is the mix, in [0, 1]; ``rank`` is renumbered from 1.
    """
    if not chunks:
        return []
    if not 0.0 <= weight <= 1.0:
        raise ValueError(f"the rerank weight must be within [0, 1], got {weight}")
    stems = [sentence_stems(c.chunk.text, tokenize) for c in chunks]
    evidence = _min_max(sentence_evidence(set(tokenize(question)), stems, expansion_weight))
    fused = _min_max([c.score for c in chunks])
    mixed = [(1 - weight) * f + weight * e for f, e in zip(fused, evidence)]
    order = sorted(range(len(chunks)), key=lambda i: (-round(mixed[i], 12), i))
    return [chunks[i].model_copy(update={"score": mixed[i], "rank": rank}) for rank, i in enumerate(order, start=1)]


def _min_max(values: list[float]) -> list[float]:
    low, high = min(values), max(values)
    if high - low <= 1e-12:
        return [0.0] * len(values)  # no spread: this signal cannot tell the candidates apart
    return [(v - low) / (high - low) for v in values]
