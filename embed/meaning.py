"""Whether a sentence says what a question asks, in other words: the dense model's cosine of the two.

The offline reader ties a value to a question by the parse ("was founded in 2013"). Where the parse cannot, but
nothing it read speaks against the value either ("Olimex started life in 1991" for "When was Olimex founded?"), the
sentence's meaning may still be the question's: :class:`CloseInMeaning` says so when the model's cosine of the
question (as a query) and the sentence reaches the model's own ``statement_cosine``. A model without one (any but
the offline all-MiniLM-L6-v2, whose cosines were measured for it) never says so.
"""

from __future__ import annotations

import threading
from contextlib import AbstractContextManager, nullcontext
from typing import Any

import numpy as np


class CloseInMeaning:
    """``judge(question, sentence) -> bool``, over a loaded :class:`~cikb.embed.DenseEmbedder`.

    ``lock`` is held while embedding, where the embedder is shared with other threads."""

    def __init__(self, embedder: Any, lock: threading.Lock | None = None) -> None:
        self.embedder = embedder
        spec = getattr(embedder, "spec", None)
        self.threshold: float | None = getattr(spec, "statement_cosine", None)
        self._lock: AbstractContextManager = lock if lock is not None else nullcontext()
        self._query: tuple[str, np.ndarray] | None = None  # the last question's vector: asked of several sentences

    def __call__(self, question: str, sentence: str) -> bool:
        if self.threshold is None:
            return False
        with self._lock:
            last = self._query
            if last is None or last[0] != question:
                last = self._query = (question, np.asarray(self.embedder.embed_query(question), dtype=np.float64))
            vector = np.asarray(self.embedder.embed_documents([sentence])[0], dtype=np.float64)
        query = last[1]
        norms = float(np.linalg.norm(query) * np.linalg.norm(vector)) or 1.0
        return float(query @ vector) / norms >= self.threshold
