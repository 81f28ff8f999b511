"""clean_page on real article pages (../shared/corpora/extraction), and a quality gate on the whole corpus.

The gate, in the style of trafilatura's eval gate: floors measured with
bench/clean.py (which also runs the plain-trafilatura baseline), pinned with
a small epsilon, and the corpus digest pinned beside them, so a changed
corpus asks for a new measurement instead of silently moving the floor.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime, timezone
from pathlib import Path

import pytest
from bench_loader import load_bench

from cikb.clean import clean_page
from cikb.core.config import CleanSettings
from cikb.core.models import DropReason, FetchedPage, RawDocument

FETCHED_AT = datetime(2024, 1, 1, tzinfo=timezone.utc)

# Measured 2024 with trafilatura 2.3.1 (bench/clean.py): ours P 0.929 R 0.980
# F1 0.954 (baseline trafilatura.extract F1 0.945); language accuracy 74/74.
CORPUS_SHA256 = "87c0697c8412c592e13f62df931ff3fb505820807d61445b507c6846bcb0a117"
EPSILON = 0.005
F1_FLOOR = 0.954 - EPSILON
RECALL_FLOOR = 0.980 - EPSILON
LANGUAGE_ACCURACY_FLOOR = 1.0


@pytest.fixture(scope="module")
def truth(corpora: Path) -> dict[str, dict]:
    return json.loads((corpora / "extraction" / "ground_truth.json").read_text(encoding="utf-8"))


def clean_corpus_page(corpora: Path, truth: dict[str, dict], prefix: str) -> tuple[dict, RawDocument | DropReason]:
    (key,) = [key for key in truth if key.startswith(prefix)]
    item = truth[key]
    html = (corpora / "extraction" / item["file"]).read_bytes().decode("utf-8", errors="replace")
    page = FetchedPage(url=item["url"], source_type="news", html=html, fetched_at=FETCHED_AT)
    return item, clean_page(page, "corpus", CleanSettings())


@pytest.mark.parametrize("prefix", ["06e5123e4ef7", "232a43fb15ab"])  # venturebeat (WeWork), macrumors
def test_real_english_articles_are_kept_with_their_text(corpora: Path, truth: dict[str, dict], prefix: str) -> None:
    item, result = clean_corpus_page(corpora, truth, prefix)
    assert isinstance(result, RawDocument)
    longest_paragraph = max(item["articleBody"].split("\n"), key=len).strip()
    assert longest_paragraph in result.content.replace("*", "")
    assert result.title


@pytest.mark.parametrize("prefix", ["57b4dafd18cf", "ba07d1e64775", "c82b3d1d540b", "85439e26c41c", "11ea381ad92b"])  # de, de, ru, ja, pt
def test_real_non_english_articles_are_dropped(corpora: Path, truth: dict[str, dict], prefix: str) -> None:
    item, result = clean_corpus_page(corpora, truth, prefix)
    assert item["lang"] != "en"
    assert result is DropReason.language


@pytest.mark.slow
def test_quality_gate_on_the_extraction_corpus(corpora: Path) -> None:
    digest = hashlib.sha256((corpora / "extraction" / "ground_truth.json").read_bytes()).hexdigest()
    assert digest == CORPUS_SHA256, "the extraction corpus changed: re-run bench/clean.py and re-pin the floors"
    bench = load_bench("clean")
    pages = bench.load_corpus(corpora / "extraction")
    docs = [bench.clean_stage(page) for page in pages]
    texts = [bench.strip_markdown(doc.content) if doc else "" for doc in docs]
    scores = bench.score([(page.article_body, text) for page, text in zip(pages, texts, strict=True) if page.lang == "en"])
    accuracy, wrong = bench.language_accuracy(pages, [doc is not None for doc in docs])
    assert scores.f1 >= F1_FLOOR, scores
    assert scores.recall >= RECALL_FLOOR, scores
    assert accuracy >= LANGUAGE_ACCURACY_FLOOR, wrong
