"""Test data for the store tests: exact-cosine toy points and the SQuAD articles as chunks.

Dense vectors here never come from the embedding model (slow to load): toy
points get vectors with a chosen cosine to the query, and SQuAD paragraphs get
a deterministic bag-of-stems projection (each stem a fixed random direction),
so lexically close texts have a high cosine, like a real (weak) model.
"""

from __future__ import annotations

import json
import math
import uuid
from datetime import datetime, timezone
from functools import cache
from pathlib import Path

import numpy as np
from cikb.embed import Bm25Encoder

from cikb.core.config import Settings
from cikb.core.models import Chunk, ChunkMetadata, ModelInfo, SparseVector
from cikb.core.slug import slugify

SCRAPED = datetime(2026, 1, 2, 3, 4, 5, tzinfo=timezone.utc)
TOY_DIM = 8
SQUAD_DIM = 64


def model(dim: int = TOY_DIM, name: str = "test/model", variant: str = "onnx-fp32") -> ModelInfo:
    return ModelInfo(name=name, dim=dim, backend="fastembed", variant=variant, pooling="cls")


def settings(data_dir: Path, mode: str) -> Settings:
    return Settings(data_dir=data_dir, store={"mode": mode, "lock_timeout": 0})


def chunk(key: str, company: str = "acme", source_type: str = "website", text: str | None = None, index: int = 0) -> Chunk:
    url = f"https://{company}.example/{key}"
    return Chunk(
        id=str(uuid.uuid5(uuid.NAMESPACE_URL, f"{url}#{index}")),
        text=text or f"text of {key}",
        token_count=5,
        metadata=ChunkMetadata(url=url, title=key, company=company, source_type=source_type, chunk_index=index, scraped_at=SCRAPED, heading_path=["H", key]),
    )


def with_cosine(cos: float, axis: int) -> list[float]:
    """A unit vector whose cosine with the query ``e0`` is ``cos`` (its other part on ``axis`` > 0)."""
    vector = [0.0] * TOY_DIM
    vector[0] = cos
    vector[axis] = math.sqrt(1 - cos * cos)
    return vector


QUERY = [1.0] + [0.0] * (TOY_DIM - 1)


def sparse(term_weights: dict[int, float]) -> SparseVector:
    ids = sorted(term_weights)
    return SparseVector(indices=ids, values=[term_weights[i] for i in ids])


# -- SQuAD -------------------------------------------------------------------------------------


@cache
def squad_articles(corpora: Path) -> list[dict]:
    return json.loads((corpora / "squad" / "companies.json").read_text(encoding="utf-8"))


@cache
def _stem_direction(stem: str) -> np.ndarray:
    seed = int.from_bytes(uuid.uuid5(uuid.NAMESPACE_OID, stem).bytes[:8], "little")
    return np.random.default_rng(seed).standard_normal(SQUAD_DIM)


def pseudo_embedding(bm25: Bm25Encoder, text: str) -> np.ndarray:
    """A deterministic stand-in for a sentence embedding: the normalized sum of stem directions."""
    stems = bm25.tokenize(text) or ["empty"]
    vector = np.sum([_stem_direction(s) for s in stems], axis=0)
    return (vector / np.linalg.norm(vector)).astype(np.float32)


def squad_chunks(corpora: Path, articles: int | None = None) -> list[Chunk]:
    """Every paragraph of the first ``articles`` SQuAD articles as a chunk of its article's company."""
    chunks = []
    for article in squad_articles(corpora)[:articles]:
        for index, paragraph in enumerate(article["paragraphs"]):
            chunks.append(chunk(article["title"], company=slugify(article["title"]), source_type="wikipedia", text=paragraph["context"], index=index))
    return chunks


def squad_questions(corpora: Path, articles: int | None = None, per_article: int = 10) -> list[tuple[str, str]]:
    """(question, company slug): the first ``per_article`` questions of each article, spread over its paragraphs."""
    questions = []
    for article in squad_articles(corpora)[:articles]:
        qas = [qa["question"] for p in article["paragraphs"] for qa in p["qas"][:1]]
        step = max(1, len(qas) // per_article)
        questions += [(q, slugify(article["title"])) for q in qas[::step][:per_article]]
    return questions
