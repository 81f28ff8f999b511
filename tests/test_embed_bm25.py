"""BM25 encoder: fastembed's token ids and weights, stop words really loaded, the formula."""

from __future__ import annotations

import json
import math
from importlib import resources
from pathlib import Path

import mmh3
import pytest
from cikb.embed import Bm25Encoder
from cikb.embed.bm25 import english_stopwords, token_id


@pytest.fixture(scope="module")
def squad_paragraphs(corpora: Path) -> list[str]:
    articles = json.loads((corpora / "squad" / "companies.json").read_text(encoding="utf-8"))
    return [p["context"] for article in articles[:3] for p in article["paragraphs"][:10]]


def test_stop_words_are_loaded_and_get_no_weight() -> None:
    encoder = Bm25Encoder()
    assert {"the", "and", "of", "is", "which"} <= encoder.stopwords
    assert len(encoder.stopwords) == 179
    vector = encoder.encode_document("The company and its founders")
    assert token_id("the") not in vector.indices
    assert token_id("and") not in vector.indices
    assert token_id("compani") in vector.indices
    assert encoder.tokenize("The and of is which") == []


def test_tokenize_lowercases_stems_and_splits_punctuation() -> None:
    encoder = Bm25Encoder()
    assert encoder.tokenize("Running COMPANIES, e-mail_x; don't!") == ["run", "compani", "e", "mail_x"]
    assert token_id("run") == abs(mmh3.hash("run"))


def test_document_weight_follows_the_formula() -> None:
    encoder = Bm25Encoder(avg_len=4.0)
    vector = encoder.encode_document("apple apple banana cherry cherry cherry")
    weights = dict(zip(vector.indices, vector.values))
    doc_len, k1, b = 6, 1.2, 0.75
    for stem, count in {"appl": 2, "banana": 1, "cherri": 3}.items():
        expected = count * (k1 + 1) / (count + k1 * (1 - b + b * doc_len / 4.0))
        assert weights[token_id(stem)] == pytest.approx(expected, rel=1e-12)
    assert vector.indices == sorted(vector.indices)


def test_query_weights_are_one_per_distinct_stem() -> None:
    vector = Bm25Encoder().encode_query("Who founded the company? The company's founders!")
    assert sorted(vector.indices) == sorted({token_id(s) for s in ("found", "compani", "founder")})
    assert vector.values == [1.0] * len(vector.indices)


def test_avg_len_changes_document_weights_and_is_measured_in_stems() -> None:
    text = "one two three four five six seven eight"
    short, long = Bm25Encoder(avg_len=4), Bm25Encoder(avg_len=64)
    assert short.encode_document(text).values[0] < long.encode_document(text).values[0]
    assert Bm25Encoder().average_length(["the apple", "apples and pears grow"]) == pytest.approx(2.0)
    with pytest.raises(ValueError):
        Bm25Encoder(avg_len=0)


def test_matches_fastembed_bm25_with_the_same_stop_words(tmp_path: Path, squad_paragraphs: list[str]) -> None:
    from fastembed import SparseTextEmbedding

    # fastembed reads stop words only from <dir>/english.txt: give it our list.
    ours = resources.files("cikb.embed").joinpath("stopwords_english.txt").read_text(encoding="utf-8")
    (tmp_path / "english.txt").write_text(ours, encoding="utf-8")
    (tmp_path / "config.json").write_text("{}", encoding="utf-8")
    reference = SparseTextEmbedding("Qdrant/bm25", specific_model_path=str(tmp_path), avg_len=87.0)
    encoder = Bm25Encoder(avg_len=87.0)
    assert encoder.stopwords == english_stopwords()

    texts = squad_paragraphs + ["Hello, world_ _ naïve café — ÉCOLE déjà-vu 3.14 x" * 3]
    for text, theirs in zip(texts, reference.embed(texts)):
        mine = encoder.encode_document(text)
        expected = dict(zip(theirs.indices.tolist(), theirs.values.tolist()))
        assert dict(zip(mine.indices, mine.values)) == pytest.approx(expected, rel=1e-6)
    for text, theirs in zip(texts[:5], reference.query_embed(texts[:5])):
        assert sorted(encoder.encode_query(text).indices) == sorted(theirs.indices.tolist())


def test_encoding_is_deterministic(squad_paragraphs: list[str]) -> None:
    first = Bm25Encoder(avg_len=90).encode_documents(squad_paragraphs)
    again = Bm25Encoder(avg_len=90).encode_documents(squad_paragraphs)
    assert first == again
    assert all(math.isfinite(v) and v > 0 for vec in first for v in vec.values)
