"""clean.Deduplicator: exact and near-exact duplicates stored once, the same copy kept whatever the order (C4, G4)."""

from __future__ import annotations

import itertools
from datetime import datetime, timezone

import pytest
from cikb.clean import Deduplicator, clean_page

from cikb.core.config import CleanSettings
from cikb.core.models import FetchedPage, RawDocument

SCRAPED_AT = datetime(2024, 5, 1, tzinfo=timezone.utc)

STORY = (
    "Acme Corporation announced on Monday that it will open a new research centre in Dayton, Ohio, next spring. "
    "The centre will employ about three hundred engineers working on safer anvils and lighter rocket skates. "
    "Chief executive Wile E. Coyote said the investment of 120 million dollars reflects strong demand in North America. "
    "Construction starts in January, and the first teams are expected to move in by the end of the year."
)
OTHER_STORY = (
    "Acme Corporation reported third-quarter revenue of 1.1 billion dollars, up nine percent from a year earlier. "
    "Sales of portable holes rose sharply in Europe, while demand for giant magnets was flat in every region. "
    "The board confirmed its full-year outlook and approved a dividend of forty cents per share, payable in December. "
    "Shares rose three percent in early trading after the results were published on the company's website."
)


def doc(url: str, content: str) -> RawDocument:
    return RawDocument(url=url, title="Acme news", content=content, source_type="website", company="acme-corp", scraped_at=SCRAPED_AT)


def test_the_same_text_under_two_urls_is_stored_once() -> None:
    kept, dropped = Deduplicator().dedupe([doc("https://acme.example/news/?utm_source=x", STORY), doc("https://acme.example/news/", STORY)])
    assert [d.url for d in kept] == ["https://acme.example/news/"]
    assert [d.url for d in dropped] == ["https://acme.example/news/?utm_source=x"]


def test_exact_duplicates_ignore_case_whitespace_and_markup() -> None:
    dedupe = Deduplicator()
    assert dedupe.add(doc("https://acme.example/a", STORY))
    assert not dedupe.add(doc("https://acme.example/b", "## " + STORY.upper().replace(". ", ".\n\n")))
    assert dedupe.duplicate_of == {"https://acme.example/b": "https://acme.example/a"}


def test_a_printer_version_with_an_extra_line_is_a_near_duplicate() -> None:
    long_story = " ".join([STORY, OTHER_STORY, STORY.replace("Monday", "Tuesday")])
    printer = long_story + " Printed from acme.example on 1 May 2024."
    kept, dropped = Deduplicator(threshold=0.9).dedupe([doc("https://acme.example/news/print/", printer), doc("https://acme.example/news/", long_story)])
    assert [d.url for d in kept] == ["https://acme.example/news/"]
    assert [d.url for d in dropped] == ["https://acme.example/news/print/"]


def test_different_documents_are_all_kept() -> None:
    kept, dropped = Deduplicator().dedupe([doc("https://acme.example/a", STORY), doc("https://acme.example/b", OTHER_STORY)])
    assert len(kept) == 2 and dropped == []


def test_the_threshold_decides_what_is_near() -> None:
    # One story, and the same story followed by another of the same length: Jaccard ~0.48.
    pair = [doc("https://a.example/1", STORY), doc("https://a.example/2", STORY + " " + OTHER_STORY)]
    assert len(Deduplicator(threshold=0.4).dedupe(pair)[0]) == 1
    assert len(Deduplicator(threshold=0.9).dedupe(pair)[0]) == 2


@pytest.mark.parametrize("threshold", [0, 1.5])
def test_a_threshold_outside_0_to_1_is_refused(threshold: float) -> None:
    with pytest.raises(ValueError):
        Deduplicator(threshold=threshold)


def test_the_kept_copy_does_not_depend_on_the_order() -> None:
    copies = [
        doc("https://acme.example/news/?utm_campaign=spring", STORY),
        doc("https://acme.example/news", STORY),
        doc("https://acme.example/news/", STORY),
        doc("https://acme.example/news/#top", STORY),
        doc("https://acme.example/results/", OTHER_STORY),
    ]
    outcomes = {tuple(d.url for d in Deduplicator().dedupe(order)[0]) for order in itertools.permutations(copies)}
    assert outcomes == {("https://acme.example/news", "https://acme.example/results/")}


def test_one_page_fetched_under_two_urls_is_cleaned_and_stored_once() -> None:
    html = f"<html><head><title>Acme opens a research centre</title></head><body><article><h1>Research centre</h1><p>{STORY}</p><p>{OTHER_STORY}</p></article></body></html>"
    pages = [FetchedPage(url=url, source_type="website", html=html, fetched_at=SCRAPED_AT) for url in ("https://acme.example/news/centre/", "https://acme.example/news/centre")]
    docs = [clean_page(page, "acme-corp", CleanSettings()) for page in pages]
    assert all(isinstance(d, RawDocument) for d in docs)
    kept, dropped = Deduplicator(CleanSettings().near_duplicate_threshold).dedupe(docs)  # type: ignore[arg-type]
    assert [d.url for d in kept] == ["https://acme.example/news/centre"]
    assert len(dropped) == 1
