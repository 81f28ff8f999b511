"""BM25 sparse vectors with the token ids Qdrant and fastembed use (spec E3).

Tokens are produced exactly as fastembed's ``Qdrant/bm25`` model produces them
(``fastembed/sparse/bm25.py``): non-word characters become spaces, the text is
lowercased and split on whitespace, punctuation-only tokens, stop words and
tokens longer than 40 characters are dropped, the rest are Snowball-stemmed,
and a stem's id is ``abs(mmh3.hash(stem))`` (no vocabulary file). A test pins
this equivalence against fastembed itself.

fastembed reads its stop words only from ``<model dir>/english.txt``; an empty
directory silently means *no* stop words. cikb ships the list
(``stopwords_english.txt``, NLTK's English list, the one ``Qdrant/bm25`` ships)
inside this package so it is always loaded.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from functools import cache
from importlib import resources
from typing import Iterable

import mmh3
from py_rust_stemmers import SnowballStemmer

from cikb.core.models import SparseVector

STOPWORDS_FILE = "stopwords_english.txt"
_NON_WORD = re.compile(r"[^\w\s]", flags=re.UNICODE)
_NOT_WORD_CHAR = re.compile(r"[^\w]")


@cache
def english_stopwords() -> frozenset[str]:
    """The English stop words, read from the file shipped in this package."""
    text = resources.files(__package__).joinpath(STOPWORDS_FILE).read_text(encoding="utf-8")
    words = frozenset(line.strip().lower() for line in text.splitlines() if line.strip())
    if not words:  # never degrade silently to "no stop words"
        raise RuntimeError(f"{STOPWORDS_FILE} is empty: BM25 would run without stop words")
    return words


def token_id(stem: str) -> int:
    """A stem's sparse index: ``abs(mmh3.hash(stem))``, as fastembed and Qdrant compute it."""
    return abs(mmh3.hash(stem))


def _is_punctuation(token: str) -> bool:
    # fastembed drops a token equal to one punctuation character (e.g. "_", a word char).
    return len(token) == 1 and unicodedata.category(token).startswith("P")


class Bm25Encoder:
    """BM25 term weights per document; Qdrant's IDF modifier supplies the IDF at query time.

    Qdrant scores a document ``d`` for a query ``q`` as

        score(q, d) = SUM over distinct terms t of q:  IDF(t) * w(t, d)

        w(t, d)  = f(t, d) * (k1 + 1) / (f(t, d) + k1 * (1 - b + b * |d| / avg_len))
        IDF(t)   = ln((N - n(t) + 0.5) / (n(t) + 0.5) + 1)     (the collection's ``idf`` modifier)

    where ``f(t, d)`` is the count of stem ``t`` in ``d``, ``|d|`` the number of
    stems in ``d`` after stop-word removal, ``N`` the number of documents and
    ``n(t)`` the number holding ``t``. This class computes ``w(t, d)``
    (:meth:`encode_documents`); a query vector is 1.0 per distinct stem
    (:meth:`encode_query`). ``avg_len`` must be the mean ``|d|`` of the real
    chunks (see :meth:`average_length`), measured in the same stems.

    Defaults k1=1.2, b=0.75 are fastembed's and Qdrant's.
    """

    def __init__(self, avg_len: float = 256.0, k1: float = 1.2, b: float = 0.75, token_max_length: int = 40) -> None:
        if avg_len <= 0:
            raise ValueError(f"avg_len must be positive, got {avg_len}")
        if not 0.0 <= b <= 1.0 or k1 < 0:
            raise ValueError(f"need k1 >= 0 and 0 <= b <= 1, got k1={k1}, b={b}")
        self.avg_len = float(avg_len)
        self.k1 = float(k1)
        self.b = float(b)
        self.token_max_length = token_max_length
        self.stopwords = english_stopwords()
        self._stemmer = SnowballStemmer("english")

    def __repr__(self) -> str:
        return f"Bm25Encoder(avg_len={self.avg_len:g}, k1={self.k1:g}, b={self.b:g})"

    def tokenize(self, text: str) -> list[str]:
        """The stems BM25 counts, in order: the tokens an exact ``rank-bm25`` oracle must be fed."""
        # fastembed also collapses whitespace runs before splitting; str.split() does that already.
        words = _NOT_WORD_CHAR.sub(" ", _NON_WORD.sub(" ", text).lower()).split()
        stems: list[str] = []
        for word in words:
            if _is_punctuation(word) or word in self.stopwords or len(word) > self.token_max_length:
                continue
            stem = self._stemmer.stem_word(word)
            if stem:
                stems.append(stem)
        return stems

    def term_weights(self, stems: list[str]) -> dict[int, float]:
        """``w(t, d)`` for each distinct stem of one document, keyed by token id."""
        length_norm = self.k1 * (1 - self.b + self.b * len(stems) / self.avg_len)
        weights: dict[int, float] = {}
        for stem, count in Counter(stems).items():
            # Like fastembed, a (vanishingly rare) hash collision keeps the later stem's weight.
            weights[token_id(stem)] = count * (self.k1 + 1) / (count + length_norm)
        return weights

    def encode_document(self, text: str) -> SparseVector:
        """One document's BM25 term weights, indices sorted ascending."""
        return _sparse(self.term_weights(self.tokenize(text)))

    def encode_documents(self, texts: Iterable[str]) -> list[SparseVector]:
        """BM25 term weights for each document."""
        return [self.encode_document(text) for text in texts]

    def encode_query(self, text: str) -> SparseVector:
        """Weight 1.0 per distinct query stem: the IDF comes from the store's modifier."""
        return _sparse({token_id(stem): 1.0 for stem in set(self.tokenize(text))})

    def average_length(self, texts: Iterable[str]) -> float:
        """Mean number of stems per text: the ``avg_len`` to build an encoder with for these texts."""
        lengths = [len(self.tokenize(text)) for text in texts]
        if not lengths:
            raise ValueError("average_length needs at least one text")
        return max(sum(lengths) / len(lengths), 1.0)


def _sparse(weights: dict[int, float]) -> SparseVector:
    indices = sorted(weights)
    return SparseVector(indices=indices, values=[weights[i] for i in indices])
