"""Benchmark the clean stage on real article pages, against plain trafilatura in the same run.

    python bench/clean.py            # the table
    python bench/clean.py --sweep    # also: trafilatura option variants of our extraction

Corpus: ../shared/corpora/extraction (74 news/blog pages, their true
``articleBody`` and ``lang``), read in place.

Extraction quality, on the English pages, is the article-extraction-benchmark's
method (scrapinghub/article-extraction-benchmark, evaluate.py), with one
explicit difference:

- tokens are ``\\w+`` matches of the **lowercased** text (the original
  matches case-sensitively); shingles are 4 consecutive tokens, counted as a
  multiset;
- per page: tp = sum of min(true count, predicted count) over shingles,
  fp = predicted surplus, fn = true surplus, all divided by tp + fp + fn so
  long pages weigh no more than short ones;
- precision is the mean over pages with tp + fp > 0 (a page with no output
  has no precision), recall the mean over pages with tp + fn > 0, and
  F1 = 2PR / (P + R) of those means.

Our text is what :func:`clean.clean_page` stores, with its Markdown markup
stripped (``clean.strip_markdown``) so that ``#`` and ``**`` cost nothing; a
page our stage drops (too short, wrong language) counts as empty output.
The baseline is ``trafilatura.extract(html)`` with its defaults (plain text).

Language filter: over all 74 pages, a page is judged right when it is kept if
and only if its ``lang`` is ``en``. Ours is the clean stage's decision
(``clean_page`` returns a document); the comparison runs the same seeded
langdetect on the baseline's text.
"""

from __future__ import annotations

import argparse
import json
import logging
import statistics
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

import trafilatura
from trafilatura.utils import decode_file

from cikb.clean import (
    EXTRACT_OPTIONS,
    clean_page,
    clean_text,
    detect_language,
    extract,
    strip_markdown,
)
from cikb.core.shingles import words
from cikb.core.config import CleanSettings
from cikb.core.models import FetchedPage, RawDocument

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "extraction"
SHINGLE_TOKENS = 4
FETCHED_AT = datetime(2024, 1, 1, tzinfo=timezone.utc)
CLEAN_SETTINGS = CleanSettings()


@dataclass(frozen=True)
class Page:
    id: str
    url: str
    lang: str
    html: str
    article_body: str


@dataclass(frozen=True)
class Scores:
    precision: float
    recall: float
    f1: float


def load_corpus(corpus: Path = CORPUS) -> list[Page]:
    """Every page of the corpus, decoded once, in id order."""
    truth = json.loads((corpus / "ground_truth.json").read_text(encoding="utf-8"))
    return [
        Page(id=key, url=item["url"], lang=item["lang"], html=decode_file((corpus / item["file"]).read_bytes()), article_body=item["articleBody"])
        for key, item in sorted(truth.items())
    ]


def shingle_counts(text: str) -> Counter[tuple[str, ...]]:
    tokens = words(text)
    return Counter(tuple(tokens[i : i + SHINGLE_TOKENS]) for i in range(len(tokens) - SHINGLE_TOKENS + 1))


def page_tp_fp_fn(true: str, predicted: str) -> tuple[float, float, float]:
    """Shingle matches of one page, normalized to sum to 1 (0s for two empty texts)."""
    true_counts, predicted_counts = shingle_counts(true), shingle_counts(predicted)
    tp = sum((true_counts & predicted_counts).values())
    fp = sum((predicted_counts - true_counts).values())
    fn = sum((true_counts - predicted_counts).values())
    total = tp + fp + fn
    return (tp / total, fp / total, fn / total) if total else (0.0, 0.0, 0.0)


def score(pairs: list[tuple[str, str]]) -> Scores:
    """Benchmark P/R/F1 over (true, predicted) text pairs."""
    counts = [page_tp_fp_fn(true, predicted) for true, predicted in pairs]
    precision = statistics.mean(tp / (tp + fp) for tp, fp, fn in counts if tp + fp > 0)
    recall = statistics.mean(tp / (tp + fn) for tp, fp, fn in counts if tp + fn > 0)
    return Scores(precision, recall, 2 * precision * recall / (precision + recall))


def baseline_text(page: Page) -> str:
    return trafilatura.extract(page.html) or ""


def clean_stage(page: Page) -> RawDocument | None:
    result = clean_page(FetchedPage(url=page.url, source_type="news", html=page.html, fetched_at=FETCHED_AT), "bench", CLEAN_SETTINGS)
    return result if isinstance(result, RawDocument) else None


def extraction_only(options: dict[str, object]) -> Callable[[Page], str]:
    """Our extraction with other trafilatura options, before the length and language filters."""

    def run(page: Page) -> str:
        extracted = extract(page.html, page.url, options)
        return strip_markdown(clean_text(extracted.markdown)) if extracted else ""

    return run


def timed(function: Callable[[Page], object], pages: list[Page]) -> tuple[list, float]:
    start = time.perf_counter()
    results = [function(page) for page in pages]
    return results, time.perf_counter() - start


def language_accuracy(pages: list[Page], kept: list[bool]) -> tuple[float, list[str]]:
    wrong = [f"{page.lang}:{page.id[:8]}" for page, keep in zip(pages, kept, strict=True) if keep != (page.lang == "en")]
    return 1 - len(wrong) / len(pages), wrong


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sweep", action="store_true", help="also score trafilatura option variants of our extraction")
    args = parser.parse_args()
    logging.disable(logging.WARNING)  # trafilatura warns on every page it finds thin

    pages = load_corpus()
    english = [page for page in pages if page.lang == "en"]
    baseline, baseline_seconds = timed(baseline_text, pages)
    ours, ours_seconds = timed(clean_stage, pages)
    ours_text = [strip_markdown(doc.content) if doc else "" for doc in ours]

    def english_pairs(texts: list[str]) -> list[tuple[str, str]]:
        return [(page.article_body, text) for page, text in zip(pages, texts, strict=True) if page.lang == "en"]

    base_scores, our_scores = score(english_pairs(baseline)), score(english_pairs(ours_text))
    base_lang, base_wrong = language_accuracy(pages, [detect_language(text) == "en" for text in baseline])
    our_lang, our_wrong = language_accuracy(pages, [doc is not None for doc in ours])

    print(f"clean stage on {CORPUS} ({len(pages)} pages, {len(english)} English)")
    print("4-gram word shingles (lowercased \\w+ tokens) against articleBody, English pages; language filter over all pages\n")
    print(f"{'extractor':<44} {'precision':>9} {'recall':>7} {'F1':>7} {'lang acc':>9} {'time':>6}")
    print(f"{'baseline: trafilatura.extract(html)':<44} {base_scores.precision:9.3f} {base_scores.recall:7.3f} {base_scores.f1:7.3f} {base_lang:9.3f} {1.0:5.2f}x")
    print(f"{'ours: clean.clean_page (Markdown stripped)':<44} {our_scores.precision:9.3f} {our_scores.recall:7.3f} {our_scores.f1:7.3f} {our_lang:9.3f} {ours_seconds / baseline_seconds:5.2f}x")
    print(f"\nF1 ours - baseline: {our_scores.f1 - base_scores.f1:+.3f}   (time is relative to the baseline's {baseline_seconds:.1f} s, which has no language step)")
    print(f"language errors, baseline text + langdetect: {base_wrong or 'none'}")
    print(f"language errors, ours: {our_wrong or 'none'}")
    print(f"our options: {EXTRACT_OPTIONS}")
    if args.sweep:
        sweep(pages, english_pairs)


def sweep(pages: list[Page], english_pairs: Callable[[list[str]], list[tuple[str, str]]]) -> None:
    """F1 of our extraction (no length/language filter) under trafilatura option variants."""
    variants = {
        "ours as configured": {},
        "favor_precision": {"favor_precision": True},
        "favor_recall": {"favor_recall": True},
        "include_comments": {"include_comments": True},
        "no tables": {"include_tables": False},
        "fast (no fallbacks)": {"fast": True},
        "no formatting (plain text)": {"include_formatting": False},
    }
    print(f"\n{'sweep: extraction variant':<44} {'precision':>9} {'recall':>7} {'F1':>7}")
    for name, change in variants.items():
        variant = extraction_only({**EXTRACT_OPTIONS, **change})
        texts = [variant(page) for page in pages]
        result = score(english_pairs(texts))
        print(f"{name:<44} {result.precision:9.3f} {result.recall:7.3f} {result.f1:7.3f}")


if __name__ == "__main__":
    main()
