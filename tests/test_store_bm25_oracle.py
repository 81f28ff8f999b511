"""E3: the embedded store's BM25 ranking is rank-bm25's, made exact, on real text (SQuAD paragraphs).

rank-bm25 becomes an oracle for Qdrant's sparse search with the IDF modifier when it
uses Qdrant's IDF ln((N - n + 0.5) / (n + 0.5) + 1), the same stems
(``Bm25Encoder.tokenize``), the same k1, b and avg_len, and de-duplicated query
terms. Stock BM25Okapi (another IDF, avgdl from the corpus) reorders results.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
from _store_corpus import SQUAD_DIM, model, settings, squad_chunks, squad_questions
from cikb.embed import Bm25Encoder
from cikb.store import open_store
from rank_bm25 import BM25Okapi

TOP = 10


class QdrantIdfBM25(BM25Okapi):
    """BM25Okapi with Qdrant's IDF, a fixed avg_len, and each query term counted once."""

    def __init__(self, corpus: list[list[str]], avg_len: float, k1: float, b: float) -> None:
        super().__init__(corpus, k1=k1, b=b)
        self.avgdl = avg_len

    def _calc_idf(self, nd: dict[str, int]) -> None:
        for word, n in nd.items():
            self.idf[word] = math.log((self.corpus_size - n + 0.5) / (n + 0.5) + 1)

    def get_scores(self, query: list[str]) -> np.ndarray:
        return super().get_scores(list(dict.fromkeys(query)))


def test_store_bm25_top10_equals_the_exact_rank_bm25_oracle(corpora: Path, tmp_path: Path) -> None:
    chunks = squad_chunks(corpora)
    encoder = Bm25Encoder()
    tokens = [encoder.tokenize(c.text) for c in chunks]
    bm25 = Bm25Encoder(avg_len=sum(map(len, tokens)) / len(tokens))
    oracle = QdrantIdfBM25(tokens, avg_len=bm25.avg_len, k1=bm25.k1, b=bm25.b)
    dense = np.random.default_rng(0).standard_normal((len(chunks), SQUAD_DIM)).astype(np.float32)
    questions = [q for q, _ in squad_questions(corpora, per_article=10) if bm25.tokenize(q)]
    assert len(questions) >= 200

    with open_store(settings(tmp_path / "data", "embedded")) as store:
        store.ensure_collection(model(dim=SQUAD_DIM), bm25_avg_len=bm25.avg_len)
        store.upsert(chunks, dense, bm25.encode_documents(c.text for c in chunks))
        equal = tie_equal = 0
        score_error = 0.0
        for question in questions:
            scores = oracle.get_scores(bm25.tokenize(question))
            expected = [chunks[i].id for i in np.argsort(-scores, kind="stable")[:TOP] if scores[i] > 0]
            hits = store.sparse_search(bm25.encode_query(question), limit=TOP)
            got = [h.chunk.id for h in hits]
            equal += got == expected
            by_id = {c.id: scores[i] for i, c in enumerate(chunks)}
            # equal up to exact ties: at every rank the store's chunk has the oracle's score for that rank
            tie_equal += len(got) == len(expected) and all(abs(by_id[g] - by_id[e]) < 1e-5 for g, e in zip(got, expected))
            score_error = max([score_error] + [abs(h.score - by_id[h.chunk.id]) / by_id[h.chunk.id] for h in hits])

    print(f"top-{TOP} equal {equal}/{len(questions)}, up to ties {tie_equal}, max relative score error {score_error:.1e}")
    assert equal / len(questions) >= 0.95, f"top-{TOP} equal for {equal}/{len(questions)}"
    assert tie_equal == len(questions), f"{len(questions) - tie_equal} rankings differ beyond ties"
    assert score_error < 1e-4
