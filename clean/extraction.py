"""HTML -> title and Markdown main text, with trafilatura (spec C1).

trafilatura already drops navigation, headers, footers, sidebars and most
cookie notices. Targeted steps cover what it keeps, and what it loses, on real pages:

- before it: elements whose class or id marks them as a cookie/consent
  banner or an ad slot are removed from the tree (trafilatura keeps an ad box
  that sits inside the article, and consent banners without the usual ids);
- around it: where its metadata step gives up on a page (htmldate raises on some dates), the page is read
  without it, title from <title> or <h1>;
- after it: short paragraphs that read as a cookie notice are dropped, for
  banners marked by nothing but their wording; <sup>/<sub> tags go;
- instead of it: where its output is its whole-page fallback (navigation
  lines and all, on short pages), its precision mode is asked again;
- after it: the headings it dropped come back before the paragraph that follows each in its section or card
  (a utility-class theme's "## Sponsorship"; a team card's name over its role, "### Jane Roe" / "#### Chair");
- after it: the article's own footer (a post's closing "support our work"
  block, an author's note) comes back: trafilatura drops it with the site's
  footer, yet it is the page's text, not the site's boilerplate;
- after it: a definition list's pairs it dropped come back as "- Term: value" items under their
  heading: it drops a pair whose value is a link (an e-mail address) and often the group around it;
- after it: an e-mail address or phone number whose link block it dropped ("please email us:" then a button
  ">> contact@acme.example") comes back at the end of the paragraph that introduces it.

Beside the text, the page's own publication date, as htmldate reads it from the
page's markup and URL only (its markup's dates, a ``/2019/05/`` path), else from
its dateline (a whole date on one of the first lines under its heading, at most a
place before it: "*Lisbon, 12 January 2023*"), never from a guess over the
text: the year in a copyright footer is no post's date.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING
from urllib.parse import unquote

from lxml.html import HtmlElement

from cikb.clean.facts import (
    MIN_PROSE_WORDS, DefinitionGroup, article_footer_lines, definition_groups, load_html, text_lines,
)
from cikb.core.shingles import words

if TYPE_CHECKING:
    from trafilatura.settings import Document

# How trafilatura is asked to extract, chosen with `python bench/clean.py --sweep`
# (extraction corpus, 60 English pages; F1 of 4-gram shingles): these options
# 0.954, plain trafilatura.extract() 0.945. favor_precision scores 0.964 there,
# but on letsencrypt.org it drops section headings and contact e-mail lines,
# so it only serves pages where the balanced mode falls back to the whole page.
EXTRACT_OPTIONS: dict[str, object] = {
    "include_formatting": True,  # headings come out as "#" lines, emphasis as ** / *
    "include_tables": True,
    "include_links": False,  # link targets are noise for chunks and embeddings
    "include_images": False,
    "include_comments": False,  # reader comments are not what a company page says
    "favor_precision": False,
    "favor_recall": False,
    "fast": False,  # keep trafilatura's readability/jusText fallbacks
}

_COOKIE_MARKERS = ("cookie", "consent", "gdpr", "onetrust", "cc-window", "cc-banner", "cmp-container")
_AD_TOKENS = frozenset(
    {"ad", "ads", "advert", "adverts", "advertisement", "advertising", "adsbygoogle", "adslot", "adunit", "sponsored", "dfp"}
)
_TOKEN_SPLIT = re.compile(r"[\s_-]+")
# A banner or an ad box is small. Anything larger, or anything holding the
# page's main content, is never removed, whatever its class says (a <body
# class="cookie-consent-open"> must survive).
_MAX_REMOVED_CHARS = 1500
_PROTECTED_TAGS = frozenset({"html", "body", "main", "article"})

_COOKIE_WORD = re.compile(r"\bcookies?\b", re.IGNORECASE)
_COOKIE_NOTICE = re.compile(
    r"\b(?:we|this (?:web)?site|our (?:web)?site|site) (?:\w+ )?uses?\b|\baccept\b|\bconsent\b|\bprivacy (?:policy|settings)\b",
    re.IGNORECASE,
)
_MAX_NOTICE_CHARS = 400
_NOTICE_REACH = 2  # lines of prose at each end of the text where a banner's sentence is looked for
_PRIVACY_TITLE = re.compile(r"\bcookies?\b|\bprivacy\b", re.IGNORECASE)
# trafilatura's Markdown writes superscripts and subscripts as inline HTML
# ("shift<sup>[1]</sup>"); the tags are noise to chunks and embeddings.
_SUP_SUB_TAG = re.compile(r"</?su[bp]>")
_CITATION_MARK_CLASSES = frozenset({"reference", "noprint"})  # MediaWiki's <sup> of a footnote or a "citation needed"
_WIKI_APPARATUS_CLASSES = frozenset({"mw-editsection", "mw-references-wrap", "reflist"})  # edit links, the footnotes' list
_FALLBACK_MIN_LINES = 3


@dataclass(frozen=True)
class Extracted:
    """What trafilatura found on a page: its title and its main text as Markdown."""

    title: str
    markdown: str
    published: date | None = None  # the page's own publication date, when its markup, URL or dateline states one


def extract(html: str, url: str | None = None, options: Mapping[str, object] = EXTRACT_OPTIONS) -> Extracted | None:
    """The page's title and main text as Markdown, or None when it has no main text.

    ``options`` are trafilatura's (``extract()`` keyword arguments); the
    benchmark passes others to compare them.
    """
    tree = load_html(html)
    if tree is None:
        return None
    published = publication_date(tree, url)
    _unwrap_times(tree)
    _remove_banners_and_ads(tree)
    _remove_edit_links_and_citation_marks(tree)
    document = _trafilatura(tree, url, options)
    # Only Markdown output tells blocks apart by blank lines (plain text does not).
    if document is not None and options.get("include_formatting") and _is_whole_page_fallback(document.text):
        document = _trafilatura(tree, url, {**options, "favor_precision": True})
    if document is None or not document.text:
        return None
    # The headings first: each goes before a paragraph trafilatura kept, not one the later steps bring back.
    markdown = _with_card_headings(_drop_cookie_notices(_SUP_SUB_TAG.sub("", document.text), document.title or ""), tree)
    markdown = _with_card_galleries(markdown, tree)
    markdown = _with_article_footer(markdown, tree)
    markdown = _with_definitions(markdown, tree)
    markdown = _with_main_prose(markdown, tree)
    markdown = _with_contact_links(markdown, tree)
    return Extracted(title=document.title or "", markdown=markdown, published=published or dateline(markdown))


def _unwrap_times(tree: HtmlElement) -> None:
    """Keep the text of each ``<time>`` element, without the element: trafilatura deletes the element with its text
    ("founded in <time>2013</time>" would read "founded in"), and the publication date has been read from it by now."""
    for element in list(tree.iter("time")):
        element.drop_tag()


def publication_date(tree: HtmlElement, url: str | None = None) -> date | None:
    """When the page says it was first published: its markup (meta tags, JSON-LD, ``<time>``) or its URL.

    htmldate's extensive search (dates anywhere in the text) is off: on a company's evergreen pages it
    finds the copyright footer's year or a date the text mentions.
    """
    from htmldate import find_date  # trafilatura's own date library: loaded with it, not at import

    found = find_date(tree, extensive_search=False, original_date=True, url=url)
    return date.fromisoformat(found) if found else None


# A dateline, the line under an announcement's heading that dates it: "*Lisbon, 12 January 2023*", "Oakland, CA,
# May 4, 2015", "Posted on 2021-03-03", "Berlin, 3 March 2016 – Acme today announced". Nothing else stands on that
# line (no colon: "Last updated: ..." dates an edit).
_DATELINE_OPENING = re.compile(r"^(?i:(?:published|posted)(?:\s+on)?\s+)?")
_PLACE = re.compile(r"[A-Z][\w.' -]{1,40}")
_DATE_TEXT = re.compile(r"[\w ,./-]{6,30}?\.?")
_DATELINE_YEAR = re.compile(r"\b(?:19|20)\d\d\b")
_DATELINE_LINES = 2  # the first lines of text under the heading
_DATELINE_DASH = re.compile(r"\s+[–—-]{1,2}\s+")


def dateline(markdown: str) -> date | None:
    """The date of the page's dateline, where one of its first lines of text is a whole date (day, month and
    year, as ``dateparser`` reads them strictly) with at most a place before it; else None."""
    lines = [line.strip().strip("*_").strip() for line in markdown.splitlines()
             if line.strip() and not line.lstrip().startswith("#")][:_DATELINE_LINES]
    # A release's first paragraph may open on its dateline: "Leeds, 3 March 2016 – Acme Ltd today announced ...".
    lines = [head for line in lines for head in dict.fromkeys((line, _DATELINE_DASH.split(line, maxsplit=1)[0]))]
    for line in lines:
        parts = _DATELINE_OPENING.sub("", line).split(", ")
        for places in range(min(3, len(parts))):  # "Oakland, CA, May 4, 2015": two places, then the date
            written = ", ".join(parts[places:])
            if (all(_PLACE.fullmatch(p) for p in parts[:places]) and _DATE_TEXT.fullmatch(written)
                    and _DATELINE_YEAR.search(written) and (found := _whole_date(written.rstrip(".")))):
                return found
    return None


def _whole_date(text: str) -> date | None:
    import dateparser  # here, not at the top: only a page with a line like a dateline loads it

    parsed = dateparser.parse(text, languages=["en"], settings={
        "STRICT_PARSING": True, "REQUIRE_PARTS": ["day", "month", "year"]})
    return parsed.date() if parsed is not None else None


def _trafilatura(tree: HtmlElement, url: str | None, options: Mapping[str, object]) -> Document | None:
    # bare_extraction works on a copy of the tree, so it can run twice on one.
    import trafilatura  # here, not at the top: a re-gather whose pages are all cleaned already never loads it (0.1 s)

    document = trafilatura.bare_extraction(tree, url=url, with_metadata=True, **options)
    if document is None:
        # Its metadata step gives up on the whole page where htmldate raises on a date it cannot place (a time
        # zone offset of a day: "offset must be a timedelta strictly between ..."): the text, and the <title>.
        from trafilatura.metadata import extract_title

        document = trafilatura.bare_extraction(tree, url=url, with_metadata=False, **options)
        if document is not None:
            document.title = extract_title(tree) or ""
    return document


def _with_article_footer(markdown: str, tree: HtmlElement) -> str:
    """``markdown`` and, as paragraphs after it, the prose of the article's own footer it does not hold yet.

    Prose: a line of ``MIN_PROSE_WORDS`` words or more ending a sentence. A footer's
    other lines are bylines, dates and link rows ("Published 7:07 PM", "Privacy Policy | Terms").
    """
    held = _word_run(markdown)
    prose = [line for line in article_footer_lines(tree)
             if len(line.split()) >= MIN_PROSE_WORDS and line.rstrip("\"'”’)").endswith((".", "!", "?"))]
    missing = [line for line in prose if _word_run(line) not in held]
    return "\n\n".join([markdown.rstrip(), *missing]) if missing else markdown


def _with_definitions(markdown: str, tree: HtmlElement) -> str:
    """``markdown`` and the definition lists' pairs it does not hold, each group at the end of its heading's section.

    A group whose heading is not in ``markdown`` goes at the end, under that heading.
    """
    held = _word_run(markdown)
    lines = markdown.rstrip().split("\n")
    for group in definition_groups(tree):
        missing = [f"- {term}: {value}" for term, value in group.pairs
                   if _word_run(f"{term} {value}") not in held]
        if missing:
            lines = _in_section(lines, group.heading, missing)
    return "\n".join(lines)


_CONTACT_LINKS = "//a[starts-with(@href, 'mailto:') or starts-with(@href, 'tel:')]"
_PAGE_FRAME = "ancestor::header or ancestor::footer or ancestor::nav or ancestor::aside"
_MAX_SECTION_CHARS = 1500  # a link's section: a card or a block, not the whole page


_BLOCKS = ("p", "div", "li", "dd", "blockquote", "td")
_INNER_BLOCKS = frozenset({"p", "div", "li", "ul", "ol", "dl", "table", "section", "article", "blockquote", "form",
                           "h1", "h2", "h3", "h4", "h5", "h6", "header", "footer", "nav", "aside"})


def _with_main_prose(markdown: str, tree: HtmlElement) -> str:
    """``markdown`` with the prose of the page's ``<main>`` element that it lost, each block at the end of the section
    of the heading before it. trafilatura keeps one container of a page made of several (a team section of an
    about page, without the section on whom the company supports); the page marks them all as its main content.
    Not on a page with an ``<article>``: that is its main text, and the rest of ``<main>`` teasers of other pages
    (bench/clean.py: F1 0.952 -> 0.938 on news pages were they read).
    Prose: a block of text (no blocks inside) of ``MIN_PROSE_WORDS`` words or more that ends a sentence."""
    main = tree.find(".//main")
    if main is None or tree.find(".//article") is not None:  # an article is the main text; the rest is its teasers
        return markdown
    held = _word_run(markdown)
    lines = markdown.rstrip().split("\n")
    heading = ""
    for element in main.iter(*_BLOCKS, *_CARD_HEADINGS, "h1"):
        text = " ".join(element.text_content().split())
        if element.tag in _CARD_HEADINGS or element.tag == "h1":
            heading = text
            continue
        if (len(text.split()) < MIN_PROSE_WORDS or not text.rstrip("\"'”’)").endswith((".", "!", "?"))
                or any(isinstance(c.tag, str) and c.tag in _INNER_BLOCKS for c in element.iter() if c is not element)
                or element.xpath(_PAGE_FRAME) or _word_run(text) in held):
            continue
        lines = _in_section(lines, heading, [text])
        held += _word_run(text)
    return "\n".join(lines).rstrip() + "\n" if markdown.endswith("\n") else "\n".join(lines).rstrip()


def _with_contact_links(markdown: str, tree: HtmlElement) -> str:
    """``markdown`` with the main content's e-mail addresses and phone numbers that it lost, each after the
    paragraph that introduces its link in the same section: at the end of its line ("For general information,
    please email us: contact@acme.example"), or as a paragraph of their own after one written over several lines
    (an address whose lines the Markdown keeps apart). trafilatura drops a block that holds nothing but links, and
    the contacts with it."""
    lines = markdown.split("\n")
    inline: dict[int, list[str]] = {}
    below: dict[int, list[str]] = {}
    for link in tree.xpath(_CONTACT_LINKS):
        scheme, _, target = (link.get("href") or "").partition(":")
        contact = _as_written(link, scheme.lower(), unquote(target.split("?")[0]).strip())
        added = " ".join(c for found in (*inline.values(), *below.values()) for c in found)
        if (not contact or link.xpath(_PAGE_FRAME) or _holds_contact(markdown, scheme.lower(), contact)
                or _holds_contact(added, scheme.lower(), contact)):
            continue
        written = _lines_holding(lines, _introduction(link))
        if written is not None:
            first, last = written
            (inline if first == last else below).setdefault(last, []).append(contact)
    for at in sorted({*inline, *below}, reverse=True):
        if at in inline:
            lines[at] = f"{lines[at].rstrip()} {' '.join(inline[at])}"
        if at in below:
            lines[at + 1:at + 1] = ["", " ".join(below[at])]
    return "\n".join(lines)


_MAX_PARAGRAPH_LINES = 12  # the lines one paragraph's line breaks make: an address, a card's lines


def _lines_holding(lines: list[str], run: str) -> tuple[int, int] | None:
    """The first and last of the fewest lines, in one section, whose words hold the word run ``run``; None when
    none do."""
    if not run.strip():
        return None
    for last in range(len(lines)):
        held: list[str] = []
        for first in range(last, max(-1, last - _MAX_PARAGRAPH_LINES), -1):
            if first < last and _HEADING_LINE.match(lines[first]):
                break
            held = words(lines[first]) + held
            if run in f" {' '.join(held)} ":
                return first, last
    return None


def _as_written(link: HtmlElement, scheme: str, contact: str) -> str:
    """The contact as the link's text writes it ("+31 24 30 10 484" for tel:+31243010484), else as its target."""
    text = " ".join(link.text_content().split())
    same = (re.sub(r"\D", "", text) == re.sub(r"\D", "", contact) if scheme == "tel"
            else text.lower() == contact.lower())
    return text if text and same else contact


def _holds_contact(markdown: str, scheme: str, contact: str) -> bool:
    if scheme == "tel":  # "+1 555 0100" is written many ways: its digits say whether it is there
        digits = re.sub(r"\D", "", contact)
        return len(digits) < 6 or digits in re.sub(r"\D", "", markdown)
    return contact.lower() in markdown.lower()


def _introduction(link: HtmlElement) -> str:
    """The word run of the last paragraph before ``link`` in its section (its nearest ancestor holding a paragraph,
    if that is small), or ""."""
    section = next((a for a in link.iterancestors() if a.find(".//p") is not None), None)
    if section is None or len(section.text_content()) > _MAX_SECTION_CHARS:
        return ""
    last = None
    for element in section.iter():  # document order: the paragraphs before the link, the nearest last
        if element is link:
            break
        if element.tag == "p" and link not in element.iterdescendants():  # not the paragraph of links it is in
            last = element
    return _word_run(" ".join(last.itertext())) if last is not None else ""  # a line break parts words too


_CARD_HEADINGS = ("h2", "h3", "h4", "h5", "h6")
_MAX_CARD_LINE_WORDS = 8  # a name, a role, a term of office; more is a paragraph of its own
_CARD_DEPTH = 3  # a card: its header's block, the row beside the photo, the card


def _with_card_headings(markdown: str, tree: HtmlElement) -> str:
    """``markdown`` with the headings it lost, each before the paragraph that follows it in its section or card:
    a section's title ("## Sponsorship" over "Does your company use Haskell? Email us ..."), or a card's header (a
    heading in a block with no paragraph: the name, then its short lines, "Chair" or "Executive Director" and
    "2021-02-22 - 2022-03-31"), which comes back as "### Jane Roe" over "#### Chair ...", the way team pages that it
    keeps are written."""
    lines = markdown.split("\n")
    runs = [_word_run(line) for line in lines]
    for heading in tree.iter(*_CARD_HEADINGS):
        name = " ".join(heading.text_content().split())
        header = heading.getparent()
        if (not name or len(name.split()) > _MAX_CARD_LINE_WORDS or header is None or heading.xpath(_PAGE_FRAME)
                or _word_run(name) in runs):
            continue
        # Its paragraph: the first after it, in the same section or card (a block at most three levels up).
        section = set(list(heading.iterancestors())[:_CARD_DEPTH])
        following = [p for p in heading.xpath("following::p[1]") if section & set(p.iterancestors())]
        text_after = _word_run(following[0].text_content()) if following else ""
        at = next((i for i, run in enumerate(runs) if text_after.strip() and text_after in run), None)
        if at is None:
            continue
        level = int(heading.tag[1])
        beside = [] if header.find(".//p") is not None else [
            text for text in (" ".join(e.text_content().split()) for e in heading.itersiblings() if isinstance(e.tag, str))
            if text and len(text.split()) <= _MAX_CARD_LINE_WORDS]
        card = [f"{'#' * level} {name}", ""] + ([f"{'#' * min(level + 1, 6)} {' '.join(beside)}", ""] if beside else [])
        lines[at:at] = card
        runs[at:at] = [_word_run(line) for line in card]
    return "\n".join(lines)


_MAX_CARD_LINES = 4  # a role, a body, a term of office, a profile handle
_GALLERY_REACH = 3  # levels above a card's block where the gallery holding its sibling cards may sit


def _with_card_galleries(markdown: str, tree: HtmlElement) -> str:
    """``markdown`` with the cards of a gallery that it lost, at the end of the gallery's section: a team page's
    run of two or more blocks, each a heading with a name over a few short lines and no paragraph ("Jane Roe",
    "Member Director (Globex)", "Board Chair"), which trafilatura drops whole, as it drops a list of links. Each
    comes back as "#### Jane Roe" over "##### Member Director (Globex), Board Chair", the way team pages that it
    keeps are written."""
    lines = markdown.split("\n")
    held = _word_run(markdown)
    for section, cards in _card_galleries(tree).items():
        missing = [(level, name, said) for level, name, said in cards
                   if _word_run(f"{name} {' '.join(said)}") not in held]
        if len(missing) < 2:
            continue
        items: list[str] = []
        for level, name, said in missing:
            items += [f"{'#' * level} {name}", "", f"{'#' * min(level + 1, 6)} {', '.join(said)}", ""]
        lines = _in_section(lines, section, items[:-1])
        held += " ".join(_word_run(item) for item in items)
    return "\n".join(lines)


def _card_galleries(tree: HtmlElement) -> dict[str, list[tuple[int, str, list[str]]]]:
    """The cards of the page's galleries (level, name, lines), by the title of the section each gallery is in."""
    cards = {}
    for heading in tree.iter(*_CARD_HEADINGS):
        block = heading.getparent()
        name = " ".join(heading.text_content().split())
        if (block is None or not name or len(name.split()) > _MAX_CARD_LINE_WORDS or heading.xpath(_PAGE_FRAME)
                or block.find(".//p") is not None or len(list(block.iter(*_CARD_HEADINGS))) > 1):
            continue
        said = _lines_beside(block, heading)
        if 1 <= len(said) <= _MAX_CARD_LINES and all(len(line.split()) <= _MAX_CARD_LINE_WORDS for line in said):
            cards[heading] = (int(heading.tag[1]), name, said)
    galleries: dict[str, list[tuple[int, str, list[str]]]] = {}
    for heading, card in cards.items():
        frame = next((a for a in list(heading.getparent().iterancestors())[:_GALLERY_REACH]
                      if sum(h in cards for h in a.iter(heading.tag)) >= 2), None)
        if frame is not None:
            above = frame.xpath("preceding::*[self::h1 or self::h2 or self::h3 or self::h4 or self::h5][1]")
            galleries.setdefault(" ".join(above[0].text_content().split()) if above else "", []).append(card)
    return galleries


def _lines_beside(block: HtmlElement, heading: HtmlElement) -> list[str]:
    """The lines of a card's block other than its heading and its links: one for each ``<br>`` break or inner
    block. A link is where to go, not what the card says ("GitHub: jroe"; a sidebar's "Apps", "RSS")."""
    lines = text_lines(block, left_out=heading, skipped=_NOT_SAID_ON_A_CARD, breaking=_INNER_BLOCKS)
    # "GitHub:" is a link's label; "[]" what is left of a heading's bracketed link ("[edit]"), no line of a card.
    return [line for line in lines if not line.endswith(":") and re.search(r"\w", line)]


_NOT_SAID_ON_A_CARD = frozenset({"a", "script", "style", "svg", "img", "button"})


_HEADING_LINE = re.compile(r"^#{1,6}\s+(.*)$")


def _in_section(lines: list[str], heading: str, items: list[str]) -> list[str]:
    """``lines`` with ``items`` at the end of the section under ``heading``, or at the end under it when ``lines``
    lack it."""
    run = _word_run(heading)
    start = next((i for i, line in enumerate(lines)
                  if heading and (m := _HEADING_LINE.match(line)) and _word_run(m.group(1)) == run), None)
    if start is None:
        return [*lines, "", *([f"## {heading}", ""] if heading else []), *items]
    end = next((i for i in range(start + 1, len(lines)) if _HEADING_LINE.match(lines[i])), len(lines))
    while end > start + 1 and not lines[end - 1].strip():
        end -= 1
    return [*lines[:end], "", *items, *([""] if end < len(lines) and lines[end].strip() else []), *lines[end:]]


def _word_run(text: str) -> str:
    """``text``'s words, lowercased and space-separated, with a space at each end: one text holds another's words in
    order when its run holds the other's, whatever the Markdown and punctuation between them."""
    return f" {' '.join(words(text))} "


def _is_whole_page_fallback(markdown: str | None) -> bool:
    """Whether trafilatura found no main text and fell back to every line of the page.

    Its Markdown separates blocks with blank lines; its last-resort fallback
    is one line per text node, navigation included ("Home", "About", ...).
    That happens on short pages (a contact page, a blog index) and on link
    lists; precision mode then finds their short main text, or nothing.
    """
    text = (markdown or "").strip()
    return "\n\n" not in text and text.count("\n") >= _FALLBACK_MIN_LINES - 1


def _remove_edit_links_and_citation_marks(tree: HtmlElement) -> None:
    """Without a wiki's apparatus around its prose (MediaWiki's markup: Wikipedia and every wiki on its engine):
    a section's "[edit]" link, a sentence's citation marks ("[1]", "[citation needed]") and the list of the
    footnotes they point to, which are no text of the article and cut its sentences ("since 2021.[2] The ...")."""
    doomed = [element for element in tree.iter() if isinstance(element.tag, str) and _is_wiki_apparatus(element)]
    for element in doomed:
        if element.getparent() is not None:
            element.drop_tree()


def _is_wiki_apparatus(element: HtmlElement) -> bool:
    classes = set((element.get("class") or "").split())
    return (not classes.isdisjoint(_WIKI_APPARATUS_CLASSES)
            or (element.tag == "sup" and not classes.isdisjoint(_CITATION_MARK_CLASSES)))


def _remove_banners_and_ads(tree: HtmlElement) -> None:
    doomed = [element for element in tree.iter() if _is_banner_or_ad(element)]
    for element in doomed:
        parent = element.getparent()
        if parent is not None:  # an ancestor may have gone already
            element.drop_tree()


def _is_banner_or_ad(element: HtmlElement) -> bool:
    if not isinstance(element.tag, str) or element.tag in _PROTECTED_TAGS:
        return False
    marks = " ".join(element.get(name, "") for name in ("class", "id", "aria-label")).lower()
    if not marks.strip():
        return False
    is_cookie = any(marker in marks for marker in _COOKIE_MARKERS)
    is_ad = not is_cookie and not _AD_TOKENS.isdisjoint(_TOKEN_SPLIT.split(marks))
    if not (is_cookie or is_ad):
        return False
    if element.find(".//article") is not None or element.find(".//main") is not None:
        return False
    return len(element.text_content()) <= _MAX_REMOVED_CHARS


def _drop_cookie_notices(markdown: str, title: str = "") -> str:
    """Without a banner's sentence that trafilatura kept: a short line on cookies and consent among the text's first or
    last lines, where a leftover banner sits; never a heading or a table row, and nothing on a page about cookies or
    privacy, whose own text it is ("Our site uses a single session cookie ...")."""
    if _PRIVACY_TITLE.search(title):
        return markdown
    lines = markdown.split("\n")
    prose = [i for i, line in enumerate(lines) if line.strip() and not line.lstrip().startswith(("#", "|"))]
    edges = set(prose[:_NOTICE_REACH] + prose[-_NOTICE_REACH:])
    return "\n".join(line for i, line in enumerate(lines) if i not in edges or not _is_cookie_notice(line))


def _is_cookie_notice(line: str) -> bool:
    return (
        len(line) <= _MAX_NOTICE_CHARS
        and _COOKIE_WORD.search(line) is not None
        and _COOKIE_NOTICE.search(line) is not None
    )
