"""Clean stage: a fetched HTML page -> one clean English Markdown document, or the reason it is not one.

    page --extract (trafilatura, banner/ad passes)--> title + Markdown
         --normalize (NFC, whitespace)--> bound to max_raw_bytes
         --too short? (min_chars)--> DropReason.too_short
         --not the configured language? (langdetect, seeded)--> DropReason.language
         --truncate at max_chars (paragraph, else sentence boundary)--> RawDocument

Then :class:`Deduplicator` keeps one copy of exact and near-exact duplicates
(spec C1-C4). Same HTML in, same document out.

:func:`site_facts` reads what the main text leaves out, from a company site's pages together:
schema.org data (JSON-LD, microdata, RDFa) and the footer lines that repeat across its pages,
as one facts document per company (see cikb.clean.facts).
"""

from __future__ import annotations

from urllib.parse import urlsplit

from cikb.clean.dedupe import Deduplicator, canonical_order, jaccard
from cikb.clean.extraction import EXTRACT_OPTIONS, Extracted, extract
from cikb.clean.facts import site_facts
from cikb.clean.language import detect_language
from cikb.clean.text import bound_bytes, normalize, strip_markdown, truncate
from cikb.gather.scoring import is_post, page_kind

from cikb.core.config import CleanSettings
from cikb.core.models import DropReason, FetchedPage, RawDocument

__all__ = [
    "EXTRACT_OPTIONS",
    "Deduplicator",
    "Extracted",
    "canonical_order",
    "clean_page",
    "clean_text",
    "detect_language",
    "extract",
    "jaccard",
    "site_facts",
    "strip_markdown",
]

_MAX_TITLE_CHARS = 300


def clean_page(
    page: FetchedPage,
    company_slug: str,
    settings: CleanSettings,
    *,
    max_raw_bytes: int | None = None,
) -> RawDocument | DropReason:
    """Turn one fetched page into a clean document, or say why it was dropped.

    ``max_raw_bytes`` is the gather bound on a document's raw text (spec G3,
    ``GatherSettings.max_raw_bytes``): the extracted text is cut to it before
    anything else reads it. ``scraped_at`` is the page's ``fetched_at``.
    """
    extracted = extract(page.html, page.url)
    if extracted is None:
        return DropReason.too_short
    content = clean_text(extracted.markdown, max_raw_bytes)
    if len(content) < settings.min_chars:
        return DropReason.too_short
    if detect_language(strip_markdown(content)) != settings.language:
        return DropReason.language
    title = _title(extracted, content, page.url)
    kind = page_kind(page.url, title, page.source_type)
    return RawDocument(
        url=page.url,
        title=title,
        content=truncate(content, settings.max_chars),
        source_type=page.source_type,
        company=company_slug,
        scraped_at=page.fetched_at,
        page_kind=kind,
        published=extracted.published if _dated(page, kind) else None,
    )


def _dated(page: FetchedPage, kind: str) -> bool:
    """Whether the date a page's markup gives is when its statements held: an announcement's or a post's. A fact
    page (about, team, pricing) tells how the company is when it is read, a listing holds posts of many dates, and
    on other pages the markup's date is often the site's launch or a template's (every page may carry it)."""
    return kind == "news" or (kind in ("page", "generic") and is_post(page.url))


def clean_text(markdown: str, max_raw_bytes: int | None = None) -> str:
    """Normalized (NFC, tidy whitespace) Markdown, at most ``max_raw_bytes`` of UTF-8."""
    content = normalize(markdown)
    if max_raw_bytes is not None:
        # Cutting may leave a dangling space or half a line; normalize again.
        content = normalize(bound_bytes(content, max_raw_bytes))
    return content


def _title(extracted: Extracted, content: str, url: str) -> str:
    """The page's title (og:title, <title> or h1, as trafilatura found it), else its first heading, else its URL path."""
    title = normalize(extracted.title).replace("\n", " ")
    if not title:
        first_heading = next((line for line in content.split("\n") if line.startswith("#")), "")
        title = first_heading.lstrip("#").strip()
    if not title:
        title = urlsplit(url).path.strip("/") or urlsplit(url).netloc
    return title[:_MAX_TITLE_CHARS]
