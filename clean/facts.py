"""Site facts: a company's schema.org data and its site-wide footer, kept once per site (issue 10, item 2).

    document = site_facts(pages, company)   # RawDocument | None

The clean stage keeps a page's main text. What a site says about its owner in markup (schema.org
JSON-LD, microdata and RDFa: Organization and its kinds, PostalAddress, ContactPoint, founder,
foundingDate, numberOfEmployees, sameAs...) and in the footer that repeats on every page (address
lines, telephone, e-mail) is not main text, so trafilatura drops it; nor is the home page's own
description of the site (its meta description: most often one sentence on what the company does).
This module reads them from the fetched HTML and writes them as one Markdown document of "Label:
value" lines. The document's URL is the page most of its lines come from; a line from another
page names it:

    # Facts about Acme Corp

    ## schema.org data

    ### Acme Corp

    - Name: Acme Corp (Corporation)
    - Address: 1 Main St, Portland, OR 97201, US (from https://acme.example/about/)

    ## Site footer (the same on the site's pages)

    - Send all mail to: PO Box 1, Portland, OR 97201

(here the document is https://acme.example/#facts). A URL on every line would put the same
tokens into each line's chunk, for BM25 and the embedding alike, and into every answer that
quotes the line, which already cites the document.

Only general signals are read: schema.org types and properties, and for the footer, text blocks
inside footer, address and contact elements that repeat across the site's pages (kept once).
Values are the pages' own, never completed or guessed. The same pages in the same order give the
same document; its URL carries the fragment ``#facts``, so its file name and chunk ids never
collide with the page's own.

:func:`own_names` reads the other names the same pages give the company (issue 23, item 4), for
the gather to record beside its display name: a row or a ``--company`` naming it so is the company.
"""

from __future__ import annotations

import html as html_lib
import json
import logging
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Union
from urllib.parse import urljoin, urlsplit

from lxml.html import HtmlElement

from cikb.clean.text import normalize, truncate
from cikb.gather.scoring import page_kind

from cikb.core.identity import LEGAL_FORMS, initials, name_keys, site_key
from cikb.core.models import Company, FetchedPage, RawDocument
from cikb.core.sentences import split_sentences
from cikb.core.shingles import words

__all__ = ["FRAGMENT", "MIN_PROSE_WORDS", "DefinitionGroup", "article_footer_lines", "definition_groups",
           "footer_lines", "own_names", "schema_items", "site_facts", "text_lines"]

log = logging.getLogger(__name__)

FRAGMENT = "#facts"

# A schema.org node: property -> values, "@type" -> schema.org type names, "@id" -> its id.
Node = dict[str, list["Value"]]
Value = Union[str, Node]
_CitedLine = tuple[tuple[str, str], str]  # ((label, value), the URL of the page that states it)


def load_html(html: str | bytes) -> HtmlElement | None:
    """trafilatura's HTML parser (its tolerance of broken pages and encodings), imported when a page is first parsed.

    libxml2 ends the document at an ``</html>`` that comes too early (a theme that closes it after ``</head>``, then
    writes ``<body>``): the tree holds the head alone, and the page would have no text. Browsers follow the HTML5
    parsing rules, which keep what follows in the body; such a page is parsed again by html5lib, which follows them.
    """
    from trafilatura.utils import load_html as trafilatura_load_html

    tree = trafilatura_load_html(html)
    if tree is not None and tree.find("body") is None and _BODY_START.search(_as_text(html)):
        reparsed = trafilatura_load_html(_html5_serialized(html))
        tree = reparsed if reparsed is not None else tree
    return tree


_BODY_START = re.compile(r"<body[\s>]", re.IGNORECASE)


def _as_text(html: str | bytes) -> str:
    return html if isinstance(html, str) else html.decode("utf-8", errors="replace")


def _html5_serialized(html: str | bytes) -> str:
    """The page as an HTML5 parser (html5lib, as a browser would) builds it, written out again as HTML."""
    import html5lib
    from lxml.html import tostring

    document = html5lib.parse(html, treebuilder="lxml", namespaceHTMLElements=False)
    return tostring(document, encoding="unicode")


_MAX_DEPTH = 8
_MAX_VALUE_CHARS = 500
_MAX_VALUES = 10  # values of one property (employees, sameAs...)
_MAX_ENTITY_LINES = 40
_MAX_ENTITIES = 12
_MAX_LOOSE_LINES = 20
_MAX_FOOTER_LINES = 30
_MAX_FOOTER_LINE_CHARS = 600

# --- schema.org data ----------------------------------------------------------------------------

_SCHEMA_IRI = re.compile(r"^(?:https?://(?:www\.)?schema\.org/|schema:)", re.IGNORECASE)
_TERM = re.compile(r"[A-Za-z][A-Za-z0-9]*")
_TAG = re.compile(r"<[^>]{0,200}>")
# <!-- ... --> or //<![CDATA[ ... //]]> around a script's JSON (old pages)
_WRAPPER_START = re.compile(r"^\s*(?://\s*)?(?:<!--|<!\[CDATA\[)")
_WRAPPER_END = re.compile(r"(?://\s*)?(?:-->|\]\]>)\s*$")


def schema_items(html: str, url: str) -> list[Node]:
    """The schema.org items of one page (JSON-LD, microdata, RDFa) as plain nodes; [] when it has none.

    A syntax that cannot be read (garbled JSON, broken markup) is skipped; the others still count.
    """
    tree = load_html(html) if html else None
    return _schema_items(tree, html, url) if tree is not None else []


def _schema_items(tree: HtmlElement, html: str, url: str) -> list[Node]:
    items = _json_ld(tree)
    if re.search(r"\bitemscope\b", html, re.IGNORECASE):
        items += _guarded(_microdata, tree, url)
    if re.search(r"\btypeof\s*=", html, re.IGNORECASE):
        items += _guarded(_rdfa, html, url)
    return items


def _guarded(reader, source, url: str) -> list[Node]:  # noqa: ANN001 -- one of the readers below
    try:
        return reader(source, url)
    except Exception as error:  # noqa: BLE001 -- a page's broken markup costs its items, never the gather
        log.debug("schema.org %s unreadable on %s: %s", reader.__name__.strip("_"), url, error)
        return []


def _json_ld(tree: HtmlElement) -> list[Node]:
    nodes: list[Node] = []
    for script in tree.iter("script"):
        if (script.get("type") or "").split(";")[0].strip().lower() != "application/ld+json":
            continue
        text = _WRAPPER_END.sub("", _WRAPPER_START.sub("", script.text or ""))
        try:
            data = json.loads(text, strict=False)  # strict=False: raw newlines inside strings are common
        except ValueError:
            continue  # garbled JSON-LD: ignored
        found: list[Node] = []
        _json_ld_nodes(data, None, found)
        nodes += _resolve_ids(found)
    return nodes


def _json_ld_nodes(data: object, context: object, out: list[Node]) -> None:
    if isinstance(data, list):
        for item in data:
            _json_ld_nodes(item, context, out)
        return
    if not isinstance(data, dict):
        return
    context = data.get("@context", context)
    if "@graph" in data:
        _json_ld_nodes(data["@graph"], context, out)
        return
    if context is not None and "schema.org" not in json.dumps(context):
        return  # another vocabulary
    node = _json_node(data, 0)
    if node:
        out.append(node)


def _json_node(data: dict, depth: int) -> Node:
    node: Node = {}
    for key, raw in data.items():
        if key == "@type":
            types = [name for name in (_schema_name(t) for t in _as_list(raw)) if name]
            if types:
                node["@type"] = list(types)
        elif key == "@id":
            if isinstance(raw, str) and raw.strip():
                node["@id"] = [raw.strip()]
        elif not key.startswith("@"):
            name = _schema_name(key)
            values = [v for v in (_json_value(item, depth + 1) for item in _as_list(raw)) if v]
            if name and values:
                node[name] = values
    return node


def _json_value(raw: object, depth: int) -> Value | None:
    if isinstance(raw, dict):
        if "@value" in raw:
            return _json_value(raw["@value"], depth)
        return _json_node(raw, depth) if depth <= _MAX_DEPTH else None
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int | float):
        return str(int(raw)) if float(raw).is_integer() else str(raw)
    if isinstance(raw, str):
        return _text(raw)
    return None


def _resolve_ids(nodes: list[Node]) -> list[Node]:
    """A JSON-LD graph names its nodes by @id ({"publisher": {"@id": "#org"}}): references become the nodes."""
    by_id = {node["@id"][0]: node for node in nodes if "@id" in node and len(node) > 1}

    def resolve(value: Value, seen: frozenset[str], depth: int) -> Value:
        if isinstance(value, str):
            return value
        ref = value.get("@id", [""])[0]
        if len(value) == 1 and ref in by_id and ref not in seen and depth <= _MAX_DEPTH:
            value, seen = by_id[ref], seen | {ref}
        return {key: [resolve(v, seen, depth + 1) for v in values] if not key.startswith("@") else values for key, values in value.items()}

    return [resolve(node, frozenset(node.get("@id", [])), 0) for node in nodes]  # type: ignore[misc]


def _microdata(tree: HtmlElement, url: str) -> list[Node]:
    from extruct.w3cmicrodata import MicrodataExtractor

    items = MicrodataExtractor().extract_items(tree, url)
    return [node for node in (_microdata_node(item, 0) for item in items) if node]


def _microdata_node(item: dict, depth: int) -> Node:
    types = [str(t) for t in _as_list(item.get("type"))]
    if types and not any(_SCHEMA_IRI.match(t) for t in types):
        return {}  # another vocabulary
    node: Node = {}
    if types:
        node["@type"] = [name for name in (_schema_name(t) for t in types) if name]
    for key, raw in (item.get("properties") or {}).items():
        name = _schema_name(key)
        values: list[Value] = []
        for value in _as_list(raw):
            if isinstance(value, dict) and depth < _MAX_DEPTH:
                nested = _microdata_node(value, depth + 1)
                if nested:
                    values.append(nested)
            elif isinstance(value, str) and _text(value):
                values.append(_text(value))
        if name and values:
            node[name] = values
    return node


def _rdfa(html: str, url: str) -> list[Node]:
    from extruct.rdfa import RDFaExtractor

    graph = [n for n in RDFaExtractor().extract(html, base_url=url) if isinstance(n, dict)]
    by_id = {n.get("@id"): n for n in graph}
    referenced = {v.get("@id") for n in graph for key, vs in n.items() if not key.startswith("@") for v in _as_list(vs) if isinstance(v, dict)}

    def convert(raw: dict, seen: frozenset[str]) -> Node:
        node: Node = {}
        types = [name for name in (_schema_name(t) for t in _as_list(raw.get("@type")) if _SCHEMA_IRI.match(str(t))) if name]
        if types:
            node["@type"] = sorted(types)
        for key, values in raw.items():
            if key.startswith("@") or not _SCHEMA_IRI.match(key):
                continue
            out: list[Value] = []
            for value in _as_list(values):
                if not isinstance(value, dict):
                    continue
                if "@value" in value and _text(str(value["@value"])):
                    out.append(_text(str(value["@value"])))
                elif (ref := value.get("@id")) in by_id and ref not in seen and len(seen) < _MAX_DEPTH:
                    nested = convert(by_id[ref], seen | {ref})
                    if nested:
                        out.append(nested)
                elif isinstance(ref, str) and not ref.startswith("_:"):
                    out.append(ref)
            if out:  # an RDF graph has no order: sorted, so a re-gather writes the same lines
                node[_schema_name(key)] = sorted(out, key=lambda v: json.dumps(v, sort_keys=True))
        return node

    roots = [convert(n, frozenset({n.get("@id")})) for n in graph if n.get("@type") and n.get("@id") not in referenced]
    return sorted((r for r in roots if r.get("@type")), key=lambda r: json.dumps(r, sort_keys=True))


def _schema_name(term: object) -> str:
    """"https://schema.org/Organization", "schema:Organization" or "Organization" -> "Organization"; else ""."""
    text = str(term).strip()
    bare = _SCHEMA_IRI.sub("", text)
    return bare if _TERM.fullmatch(bare) else ""


def _as_list(value: object) -> list:
    if value is None:
        return []
    return list(value) if isinstance(value, list | tuple) else [value]


def _text(value: str) -> str:
    text = " ".join(_TAG.sub(" ", html_lib.unescape(value)).split())
    return re.sub(r"\s+([,.;:])", r"\1", text)


# --- what the items say -------------------------------------------------------------------------

_ORG_TYPES = frozenset(
    "Organization Corporation LocalBusiness NGO OnlineBusiness OnlineStore EducationalOrganization "
    "GovernmentOrganization MedicalOrganization NewsMediaOrganization PerformingGroup ResearchOrganization "
    "SportsOrganization WorkersUnion Consortium FundingScheme LibrarySystem Airline CollegeOrUniversity School "
    "Store ProfessionalService FinancialService LegalService Project ResearchProject".split()
)
# Properties only an organization has (a typed LocalBusiness subtype such as Dentist is one by them).
_ORG_PROPERTIES = frozenset(
    "foundingDate founder founders numberOfEmployees legalName leiCode taxID vatID duns naics isicV4 "
    "iso6523Code parentOrganization subOrganization foundingLocation dissolutionDate employee employees".split()
)
# Where an organization sits inside another item and is still the site's own (a WebSite's publisher,
# an AboutPage's mainEntity); "mentions", "about" of a post and the like name others.
_FOLLOW = frozenset(
    "publisher author creator provider copyrightHolder sourceOrganization mainEntity isPartOf owner "
    "producer manufacturer worksFor affiliation".split()
)
# (property, label): the order of an organization's lines.
_LABELS: tuple[tuple[str, str], ...] = (
    ("legalName", "Legal name"),
    ("alternateName", "Also known as"),
    ("description", "Description"),
    ("slogan", "Slogan"),
    ("foundingDate", "Founded"),
    ("foundingLocation", "Founding location"),
    ("founder", "Founder"),
    ("founders", "Founder"),
    ("dissolutionDate", "Dissolved"),
    ("numberOfEmployees", "Number of employees"),
    ("address", "Address"),
    ("location", "Location"),
    ("areaServed", "Area served"),
    ("telephone", "Telephone"),
    ("faxNumber", "Fax"),
    ("email", "Email"),
    ("contactPoint", "Contact"),
    ("url", "Website"),
    ("sameAs", "Same as"),
    ("logo", "Logo"),
    ("parentOrganization", "Parent organization"),
    ("subOrganization", "Sub-organization"),
    ("department", "Department"),
    ("memberOf", "Member of"),
    ("brand", "Brand"),
    ("award", "Award"),
    ("awards", "Award"),
    ("employee", "Employee"),
    ("employees", "Employee"),
    ("taxID", "Tax ID"),
    ("vatID", "VAT ID"),
    ("leiCode", "LEI code"),
    ("duns", "DUNS number"),
    ("naics", "NAICS code"),
    ("isicV4", "ISIC code"),
    ("iso6523Code", "ISO 6523 code"),
    ("globalLocationNumber", "Global Location Number"),
    ("openingHours", "Opening hours"),
    ("geo", "Coordinates"),
)
# Values long enough to stand on a line of their own each; others share one line ("a; b; c").
_LINE_EACH = frozenset("address location contactPoint department subOrganization".split())


@dataclass
class _Lines:
    """Label: value lines, each with the first page that said it; a repeat adds nothing."""

    cited: dict[tuple[str, str], str] = field(default_factory=dict)

    def add(self, label: str, value: str, url: str) -> None:
        if value:
            self.cited.setdefault((label, value), url)


@dataclass
class _Facts:
    entities: dict[str, tuple[str, _Lines]] = field(default_factory=dict)  # key -> (display name, lines)
    loose: _Lines = field(default_factory=_Lines)  # addresses, contacts, places, people on their own

    def values(self) -> set[str]:
        every = [self.loose, *(lines for _, lines in self.entities.values())]
        return {_key(value) for lines in every for (_, value) in lines.cited}


def _collect(node: Node, url: str, facts: _Facts, top: bool = True, depth: int = 0) -> None:
    types = set(_strings(node, "@type"))
    if _is_organization(node, types):
        _add_organization(node, types, url, facts)
        return
    if top and "Person" in types and _first(node, "jobTitle"):
        facts.loose.add("Person", _person(node, with_employer=True), url)
    elif top and "PostalAddress" in types:
        facts.loose.add("Address", _address(node), url)
    elif top and "ContactPoint" in types:
        facts.loose.add("Contact", _contact(node), url)
    elif top and "Place" in types and "address" in node:
        name = _first(node, "name")
        facts.loose.add(f"Place{' ' + name if name else ''}, address", "; ".join(_render(v, "address") for v in node["address"]), url)
    if depth >= _MAX_DEPTH:
        return
    for prop, values in node.items():
        if prop in _FOLLOW:
            for value in values:
                if isinstance(value, dict):
                    _collect(value, url, facts, top=False, depth=depth + 1)


def _is_organization(node: Node, types: set[str]) -> bool:
    if "Person" in types:
        return False
    return bool(types & _ORG_TYPES) or any(t.endswith(("Organization", "Business")) for t in types) or not _ORG_PROPERTIES.isdisjoint(node)


def _add_organization(node: Node, types: set[str], url: str, facts: _Facts) -> None:
    name = _first(node, "name") or _first(node, "legalName") or _first(node, "url")
    key = _key(name) or (node.get("@id") or [""])[0]
    if not key:
        return
    if key not in facts.entities:
        if len(facts.entities) >= _MAX_ENTITIES:
            return
        facts.entities[key] = (name or key, _Lines())
    display, lines = facts.entities[key]
    kinds = ", ".join(sorted(types))
    if name:
        lines.add("Name", f"{name} ({kinds})" if kinds else name, url)
    for prop, label in _LABELS:
        rendered = [r for r in (_render(v, prop) for v in node.get(prop, [])[:_MAX_VALUES]) if r]
        if prop in _LINE_EACH:
            for value in rendered:
                lines.add(label, value, url)
        elif rendered:
            lines.add(label, "; ".join(dict.fromkeys(rendered)), url)


def _render(value: Value, prop: str = "") -> str:
    """A value as text: a string as written; an address, contact, quantity... in one line; else its name."""
    if isinstance(value, str):
        text = value
        if prop == "email":
            text = text.removeprefix("mailto:")
        elif prop in ("telephone", "faxNumber"):
            text = text.removeprefix("tel:")
        return _short(text)
    types = set(_strings(value, "@type"))
    if "PostalAddress" in types or (prop in ("address", "location") and not types and _address(value)):
        return _address(value)
    if "ContactPoint" in types or prop == "contactPoint":
        return _contact(value)
    if "QuantitativeValue" in types or prop == "numberOfEmployees":
        exact = _first(value, "value")
        low, high = _first(value, "minValue"), _first(value, "maxValue")
        return exact or (f"{low} to {high}" if low and high else f"at least {low}" if low else f"at most {high}" if high else "")
    if "GeoCoordinates" in types or prop == "geo":
        lat, lon = _first(value, "latitude"), _first(value, "longitude")
        return f"latitude {lat}, longitude {lon}" if lat and lon else ""
    if "ImageObject" in types or prop == "logo":
        return _first(value, "url") or _first(value, "contentUrl")
    if "Person" in types:
        return _person(value)
    if "Place" in types and not _first(value, "name") and "address" in value:
        return "; ".join(_render(v, "address") for v in value["address"])
    for key in ("name", "legalName", "alternateName", "url"):
        if found := _first(value, key):
            return found
    ref = (value.get("@id") or [""])[0]
    return ref if len(value) == 1 and isinstance(ref, str) and ref.startswith(("http://", "https://")) else ""  # a link


def _address(node: Node) -> str:
    parts = [_first(node, "streetAddress")]
    box = _first(node, "postOfficeBoxNumber")
    if box:
        parts.append(box if re.search(r"[A-Za-z]", box) else f"PO Box {box}")
    parts.append(_first(node, "addressLocality"))
    parts.append(" ".join(p for p in (_first(node, "addressRegion"), _first(node, "postalCode")) if p))
    parts.append(_first(node, "addressCountry"))
    text = ", ".join(dict.fromkeys(p for p in parts if p))
    return text or _first(node, "name")


def _contact(node: Node) -> str:
    details = []
    for prop, label in (("telephone", "telephone"), ("email", "email"), ("faxNumber", "fax"), ("url", "web"),
                        ("areaServed", "area served"), ("availableLanguage", "languages"), ("hoursAvailable", "hours")):
        values = [r for r in (_render(v, prop) for v in node.get(prop, [])[:_MAX_VALUES]) if r]
        if values:
            details.append(f"{label} {', '.join(values)}")
    kind = _first(node, "contactType") or _first(node, "name")
    text = ", ".join(details)
    return f"{kind}: {text}" if kind and text else text


def _person(node: Node, with_employer: bool = False) -> str:
    name = _first(node, "name") or " ".join(p for p in (_first(node, "givenName"), _first(node, "familyName")) if p)
    parts = [name, _first(node, "jobTitle")]
    if with_employer and (employer := _first(node, "worksFor")):
        parts.append(f"works for {employer}")
    return ", ".join(p for p in parts if p)


def _first(node: Node, prop: str) -> str:
    for value in node.get(prop, []):
        text = _render(value, prop)
        if text:
            return text
    return ""


def _strings(node: Node, prop: str) -> list[str]:
    return [v for v in node.get(prop, []) if isinstance(v, str)]


def _short(text: str) -> str:
    text = " ".join(text.split())
    if len(text) <= _MAX_VALUE_CHARS:
        return text
    cut = text[:_MAX_VALUE_CHARS]
    return cut[: cut.rfind(" ")] if " " in cut else cut


def _key(text: str) -> str:
    return " ".join(words(text))


# --- the site-wide footer -----------------------------------------------------------------------

_FOOTER_TOKENS = frozenset({"footer", "contentinfo", "contact", "contacts", "address", "vcard", "hcard", "adr"})
_NOT_CONTAINERS = frozenset({"html", "body", "main", "article", "head"})
_SKIP = frozenset(
    "script style noscript template svg form button select input textarea iframe nav option object embed canvas head".split()
)
_BLOCKS = frozenset(
    "p div li ul ol dl dt dd address section article aside header footer h1 h2 h3 h4 h5 h6 table tr td th "
    "blockquote figure figcaption main".split()
)
_HEADINGS = frozenset("h1 h2 h3 h4 h5 h6".split())
_TOKEN = re.compile(r"[^a-z0-9]+")
_COPYRIGHT = re.compile(r"©|&copy;|\(c\)\s*\d{4}|\bcopyright\b|\ball rights reserved\b", re.IGNORECASE)
_MAX_CONTAINER_CHARS = 5000  # larger is a page wrapper whose class mentions a footer, not a footer
MIN_PROSE_WORDS = 8  # a footer sentence of this many words says something ("Terms of Use." does not)


def footer_lines(html: str) -> list[str]:
    """The text lines of a page's footer, address and contact elements, navigation and link lists left out.

    A line is one block (paragraph, list item, cell...); lines within a block broken by <br> are
    joined; a label ending in ":" is joined to the line after it.
    """
    tree = load_html(html) if html else None
    return _footer_lines(tree) if tree is not None else []


def article_footer_lines(tree: HtmlElement) -> list[str]:
    """The text lines of the footer elements inside a page's one ``<article>``: the post's own closing block.

    Main-text extractors drop every footer, the article's own with the site's ("Support our work: Acme
    is a 501(c)(3) nonprofit ..." at the end of a post). A page of several articles (a listing's cards,
    each with a "posted by" footer) has no one article, and gives nothing.
    """
    articles = [a for a in tree.iter("article") if not any(p.tag == "article" for p in a.iterancestors())]
    return _footer_lines(articles[0]) if len(articles) == 1 else []


@dataclass(frozen=True)
class DefinitionGroup:
    """The term-value pairs of a page's main content under one heading."""

    heading: str  # the text of the nearest heading before the pairs ("" when none)
    pairs: tuple[tuple[str, str], ...]  # (term, value); a value's <br> breaks kept as "\n"


_MAX_TERM_WORDS = 12
_MAX_PAIRS = 40
_CHROME = frozenset({"nav", "header", "footer", "aside"})


def definition_groups(tree: HtmlElement) -> list[DefinitionGroup]:
    """The page's definition terms and values (``<dt>``, ``<dd>``) outside its navigation, header, footer and
    sidebars, as term-value pairs grouped by the heading before them.

    Definition lists are how pages set out key facts ("Founded: 2016", an imprint's "Firmenname: Acme
    GmbH", a contact list's "Press: press@acme.example"). Main-text extractors drop the pairs whose value is
    a link, and with them often the whole group around it: an e-mail address, a register entry. Link values
    count when they are an address to write to or call (mailto:, tel:); a "More information" link does not.
    Pages write ``<dt>``/``<dd>`` outside a ``<dl>`` too; they are read the same, and so is a list whose items
    each open with a bold label ("<li><strong>Treasurer:</strong> Jane Roe (Acme University)</li>"), two or more
    of them: a board or a fact box written as a list. The site's footer is read apart (:func:`site_facts`).
    """
    groups: list[tuple[str, list[tuple[str, list[str]]]]] = []
    heading = ""
    for element in tree.iter():
        if not isinstance(element.tag, str):
            continue
        if element.tag in _HEADINGS:
            heading = " ".join(element.text_content().split())
            groups.append((heading, []))
        elif element.tag in ("dt", "dd") and not _in_chrome(element):
            if not groups:
                groups.append(("", []))
            pairs = groups[-1][1]
            if element.tag == "dt":
                pairs.append((" ".join(element.text_content().split()).rstrip(" :"), []))
            elif pairs and (value := _definition_value(element)):
                pairs[-1][1].append(value)
        elif element.tag in ("ul", "ol") and not _in_chrome(element) and (labelled := _labelled_items(element)):
            if not groups:
                groups.append(("", []))
            groups[-1][1].extend((label, [value]) for label, value in labelled)
    out = []
    for heading, pairs in groups:
        kept = tuple((term, "; ".join(values)) for term, values in pairs
                     if term and values and len(term.split()) <= _MAX_TERM_WORDS)
        if kept:
            out.append(DefinitionGroup(heading, kept[:_MAX_PAIRS]))
    return out


_MAX_LABEL_WORDS = 5


def _labelled_items(listing: HtmlElement) -> list[tuple[str, str]]:
    """A list's (label, value) pairs where two or more of its items open with a bold label ending in a colon
    ("<strong>Treasurer:</strong> Jane Roe"); [] for any other list. A value that is only a link (not an address
    to write to or call) is left out, as in a ``<dd>``."""
    pairs = []
    for item in listing.findall("li"):
        bold = next((child for child in item if isinstance(child.tag, str)), None)
        label = " ".join(bold.text_content().split()) if bold is not None and bold.tag in ("strong", "b") else ""
        if (bold is None or not label.endswith(":") or (item.text or "").strip()
                or len(label.split()) > _MAX_LABEL_WORDS):
            continue
        value = _definition_value(item, left_out=bold)
        if value:
            pairs.append((label.rstrip(" :"), value))
    return pairs if len(pairs) >= 2 else []


def _in_chrome(element: HtmlElement) -> bool:
    """Inside navigation, a header, footer or sidebar, or inside another term or value (a nested list)."""
    return any(a.tag in _CHROME or a.tag in ("dt", "dd")
               or (a.get("role") or "").lower() in ("navigation", "contentinfo") for a in element.iterancestors())


def _definition_value(dd: HtmlElement, left_out: HtmlElement | None = None) -> str:
    """A ``<dd>``'s text (without ``left_out``, a list item's label), its <br> breaks as new lines; "" when it is
    only a link that is not an address."""
    anchors = [a for a in dd.iter("a") if not any(p is left_out for p in a.iterancestors())]
    lines = text_lines(dd, left_out=left_out)
    if anchors and not any((a.get("href") or "").startswith(("mailto:", "tel:")) for a in anchors):
        link_text = "".join("".join(a.text_content().split()) for a in anchors)
        if len(link_text) * 2 >= len("".join("".join(lines).split())):
            return ""
    value = "\n".join(lines)
    return value if len(value) <= _MAX_FOOTER_LINE_CHARS else ""


def _lines_of(element: HtmlElement) -> str:
    """``element``'s text, a line for each line its ``<br>`` breaks make, spaces collapsed, empty lines left out."""
    return "\n".join(text_lines(element))


def text_lines(element: HtmlElement, *, left_out: HtmlElement | None = None, skipped: frozenset[str] = _SKIP,
               breaking: frozenset[str] = frozenset()) -> list[str]:
    """The lines of ``element``'s text: one for each ``<br>`` break and each ``breaking`` element inside it (the
    source's own line ends are spaces), spaces collapsed, empty ones left out; ``left_out`` and ``skipped``
    elements give no text."""
    lines = (" ".join(line.split()) for line in _text_with_breaks(element, left_out, skipped, breaking).split("\n"))
    return [line for line in lines if line]


def _text_with_breaks(element: HtmlElement, left_out: HtmlElement | None, skipped: frozenset[str],
                      breaking: frozenset[str]) -> str:
    parts = [(element.text or "").replace("\n", " ")]
    for child in element:
        if child is not left_out and isinstance(child.tag, str) and child.tag not in skipped:
            text = "\n" if child.tag == "br" else _text_with_breaks(child, left_out, skipped, breaking)
            parts.append(f"\n{text}\n" if child.tag in breaking else text)
        parts.append((child.tail or "").replace("\n", " "))
    return "".join(parts)


def _footer_lines(tree: HtmlElement) -> list[str]:
    lines: list[str] = []
    for container in _footer_containers(tree):
        lines += _merge_labels(_block_lines(container))
    return list(dict.fromkeys(lines))


def _footer_containers(tree: HtmlElement) -> Iterator[HtmlElement]:
    chosen: list[HtmlElement] = []
    for element in tree.iter():
        if not isinstance(element.tag, str) or element.tag in _NOT_CONTAINERS or element.tag in _SKIP:
            continue
        if not _is_footer(element) or any(a in chosen for a in element.iterancestors()):
            continue
        if len(element.text_content()) > _MAX_CONTAINER_CHARS:
            continue
        chosen.append(element)
        yield element


def _closing_block_lines(tree: HtmlElement) -> list[str]:
    """The lines of the block that closes the page (its body's last block with text, inside the wrappers around the
    whole page): a footer written without footer markup (a utility-class theme's ``<div class="mt-20 bg-gray-800">``
    with the postal address). Only lines that repeat across the site's pages are its footer's."""
    element = tree.find("body")
    while element is not None:
        blocks = [child for child in element if isinstance(child.tag, str) and child.tag not in _SKIP
                  and child.text_content().strip()]
        if not blocks or blocks[-1].tag in _CONTENT_TAGS or any(b.tag == "h1" for b in blocks):
            return []  # the content itself (<main>, or the block its title heads) closes the page
        last = blocks[-1]
        if (len(blocks) == 1 or len(last.text_content()) > _MAX_CONTAINER_CHARS
                or any(e.tag in _CONTENT_TAGS for e in last.iter())):
            element = last  # a wrapper around the page's content and its footer
            continue
        return _merge_labels(_block_lines(last))
    return []


_CONTENT_TAGS = frozenset({"main", "article", "h1"})


def _is_footer(element: HtmlElement) -> bool:
    if element.tag in ("footer", "address") or (element.get("role") or "").lower() == "contentinfo":
        return True
    marks = f"{element.get('class') or ''} {element.get('id') or ''}".lower()
    return not _FOOTER_TOKENS.isdisjoint(_TOKEN.split(marks))


@dataclass
class _Line:
    pieces: list[list[tuple[str, bool]]] = field(default_factory=lambda: [[]])  # <br>-separated runs of (text, in a link)
    heading: bool = False

    def text(self) -> tuple[str, int]:
        """The line's text and how many of its characters are link text."""
        runs, link_chars = [], 0
        for run in self.pieces:
            text = " ".join("".join(t for t, _ in run).split())
            link_chars += sum(len("".join(t.split())) for t, linked in run if linked)
            if text:
                runs.append(text)
        joined = ""
        for run in runs:
            joined = run if not joined else f"{joined}{' ' if joined[-1] in '.!?:;,' else ', '}{run}"
        return re.sub(r"\s+([,.;:!?])", r"\1", joined), link_chars


def _block_lines(container: HtmlElement) -> list[str]:
    out: list[_Line] = []
    current = _Line()

    def flush(heading: bool = False) -> None:
        nonlocal current
        current.heading = heading
        out.append(current)
        current = _Line()

    def visit(element: HtmlElement, linked: bool) -> None:
        tag = element.tag if isinstance(element.tag, str) else ""
        if not tag or tag in _SKIP or element.get("hidden") is not None:
            return
        if tag == "br":
            current.pieces.append([])
            return
        block = tag in _BLOCKS
        if block:
            flush()
        # An address to write to or call is the footer's fact, not a link away from it.
        linked = linked or (tag == "a" and not (element.get("href") or "").startswith(("mailto:", "tel:")))
        if element.text:
            current.pieces[-1].append((element.text, linked))
        for child in element:
            visit(child, linked)
            if child.tail:
                current.pieces[-1].append((child.tail, linked))
        if block:
            flush(heading=tag in _HEADINGS)

    visit(container, False)
    flush()
    lines = []
    for line in out:
        text, link_chars = line.text()
        letters = len("".join(text.split()))
        if not text or letters < 3 or len(text) > _MAX_FOOTER_LINE_CHARS:
            continue
        if link_chars * 2 >= letters:
            continue  # navigation, social links, a copyright link
        if _COPYRIGHT.search(text) and not (text := _beside_the_copyright(text)):
            continue  # the same boilerplate on every site
        if line.heading and not text.endswith(":"):
            continue  # "Contact us", "Subscribe": a heading says what follows, not a fact
        if len(text.split()) < 2 and not re.search(r"[\d@]", text):
            continue
        lines.append(text)
    return lines


def _beside_the_copyright(line: str) -> str:
    """What a copyright line says besides its boilerplate: its sentences of prose ("The text on this website is
    licensed under ..."); "" when nothing but "© 2024 Acme. All rights reserved." is left. (The notice itself stays
    out: a theme's leftover names another company as often as the site's owner.)"""
    return " ".join(sentence for sentence in split_sentences(line)
                    if not _COPYRIGHT.search(sentence) and len(sentence.split()) >= MIN_PROSE_WORDS)


def _merge_labels(lines: list[str]) -> list[str]:
    merged: list[str] = []
    for line in lines:
        if merged and merged[-1].endswith(":"):
            merged[-1] = f"{merged[-1]} {line}"
        else:
            merged.append(line)
    return [line for line in merged if not line.endswith(":")]


def _site_footer(pages: Sequence[tuple[FetchedPage, HtmlElement]]) -> list[tuple[str, str]]:
    """(line, first page's URL) for the footer lines that repeat across the site's pages, in page order."""
    first_seen: dict[str, str] = {}
    count: Counter[str] = Counter()
    for page, tree in pages:
        for line in _footer_lines(tree) or _closing_block_lines(tree):
            first_seen.setdefault(line, page.url)
            count[line] += 1
    if len(pages) == 1:
        return list(first_seen.items())  # a site of one page: nothing to compare with
    # Site-wide: on two pages or more (a site's sections may have footers of their own).
    return [(line, url) for line, url in first_seen.items() if count[line] >= 2]


# --- the document -------------------------------------------------------------------------------


def site_facts(pages: Sequence[FetchedPage], company: Company, *, max_chars: int = 50_000) -> RawDocument | None:
    """One facts document from a company site's pages (in crawl order), or None when they state none."""
    parsed = [(page, tree) for page in pages if page.html and (tree := load_html(page.html)) is not None]
    if not parsed:
        return None
    facts = _Facts()
    for page, tree in parsed:
        for item in _schema_items(tree, page.html, page.url):
            _collect(item, page.url, facts)
    known = facts.values()
    footer = [(line, url) for line, url in _site_footer(parsed) if _key(line) not in known][:_MAX_FOOTER_LINES]

    blocks: list[tuple[str, list[_CitedLine]]] = []  # (heading, lines) of the schema.org section
    if facts.loose.cited:
        blocks.append(("", list(facts.loose.cited.items())[:_MAX_LOOSE_LINES]))
    for display, lines in facts.entities.values():
        if all(label == "Name" for label, _ in lines.cited):
            continue  # a name alone (an employer, a publisher) says nothing more than the pages do
        blocks.append((f"### {display}", list(lines.cited.items())[:_MAX_ENTITY_LINES]))
    footer_lines: list[_CitedLine] = [(("", line), url) for line, url in footer]
    in_footer = {_key(line) for line, _ in footer}  # a theme's tagline is often its footer's blurb too: said once
    described = [(("Description", text), url) for text, url in _home_description(parsed)
                 if _key(text) not in known and _key(text) not in in_footer]
    cited = [url for _, lines in blocks for _, url in lines] + [url for _, url in footer_lines + described]
    if not cited:
        return None
    home = max(dict.fromkeys(cited), key=cited.count)  # the page most lines cite; the earliest on a tie
    sections = []
    if blocks:
        schema = (f"{heading}\n\n{_lines(lines, home)}" if heading else _lines(lines, home) for heading, lines in blocks)
        sections.append("## schema.org data\n\n" + "\n\n".join(schema))
    if described:
        sections.append("## The home page's description of the site\n\n" + _lines(described, home))
    if footer_lines:
        sections.append("## Site footer (the same on the site's pages)\n\n" + _lines(footer_lines, home))
    page = next(p for p, _ in parsed if p.url == home)
    title = f"Facts about {company.name}"
    content = truncate(normalize(f"# {title}\n\n" + "\n\n".join(sections)), max_chars)
    return RawDocument(
        url=home.split("#")[0] + FRAGMENT,
        title=title,
        content=content,
        source_type=page.source_type,
        company=company.slug,
        scraped_at=page.fetched_at,
        page_kind="company",
    )


# The page's meta description first, else its Open Graph one.
_DESCRIPTION_XPATHS = ('//meta[@name="description" or @name="Description"]/@content',
                       '//meta[@property="og:description"]/@content')
_MIN_DESCRIPTION_CHARS = 20


def _home_description(pages: Sequence[tuple[FetchedPage, HtmlElement]]) -> list[tuple[str, str]]:
    """The home page's own summary of the site (its meta or Open Graph description): on a company's site, most
    often one sentence on what the company is or does, which the page's main text may not repeat. [] if none."""
    home = next(((page, tree) for page, tree in pages if urlsplit(page.url).path in ("", "/")), None)
    if home is None:
        return []
    page, tree = home
    texts = [_text(value) for xpath in _DESCRIPTION_XPATHS for value in tree.xpath(xpath)]
    text = next((t for t in texts if len(t) >= _MIN_DESCRIPTION_CHARS), "")
    return [(_short(text), page.url)] if text else []


def _lines(items: Iterable[_CitedLine], home: str) -> str:
    """The lines as a Markdown list; one from another page than the document's own names that page."""
    return "\n".join(f"- {label + ': ' if label else ''}{value}" + ("" if url == home else f" (from {url})") for (label, value), url in items)


# --- the names the company's own pages give it ----------------------------------------------------

_MAX_NAMES = 20
_NAME_WORD = r"[A-Z0-9](?:[\w&\-]|['’](?!s\b)|\.(?=\w))*"  # "Amazon.com", "O'Reilly"; not "Globex's", not a full stop
_NAME = rf"{_NAME_WORD}(?:[^\S\n]+(?:&[^\S\n]+)?{_NAME_WORD}){{0,5}}"  # within a line: a name ends at a <br>
_LEGAL_FORM = "|".join(sorted((re.escape(form) for form in LEGAL_FORMS), key=len, reverse=True))
# "Acme Corp (formerly Acme Widgets)", "Acme Corp, previously known as Acme Widgets", "Acme Corp was
# formerly called Acme Widgets", "we were formerly known as Acme Widgets", "f/k/a Acme Widgets".
_FORMERLY = re.compile(
    rf"(?:\(|,|—|–|\s)\s*(?:(?:is|was|were|has been)\s+)?(?i:formerly|previously|f/k/a|fka)\b"
    rf"(?:\s+(?i:known\s+as|called|named))?\s+(?P<name>{_NAME})"
    # ...where the name ends the clause: "Acme, previously CTO of Globex" gives no name.
    r"(?=\s*(?:[),.;:!?]|$|\s(?:and|until|before|in|which|is|was|has|had)\b))"
)
# Terms that define the company's short name: 'Acme Widgets Holdings, Inc. ("Acme", "we", "us")'.
# A description set between them is no name: 'Acme Widgets, Inc., a Delaware corporation ("Acme")' defines Acme by
# Acme Widgets, Inc., and "a Delaware corporation" names nothing.
_DEFINED = re.compile(
    rf"(?<![Aa]\s)(?<![Aa]n\s)(?P<legal>{_NAME},?\s+(?i:{_LEGAL_FORM})\.?)(?:,\s+an?\s+[^()\"“”,]{{1,60}}?)?"
    rf"\s*\(\s*(?i:the\s+)?[\"“'‘](?P<short>[^\"”'’]{{1,60}})[\"”'’]"
)
# A name and the abbreviation it defines: "the Global Exchange Network (GEN)", "Acme Research Group (ARG)".
_ABBREVIATED = re.compile(r"\(\s*(?P<short>[A-Z][A-Za-z0-9&]{1,9})\s*\)")
_NAME_BEFORE = re.compile(r"(?:(?:[A-Z][\w&'’-]*|of|for|and|on|in|de|the|&)\s+)*[A-Z][\w&'’-]*\s*$")
# An imprint's or a legal page's "Legal name: Acme Widgets GmbH".
_LABELLED = re.compile(rf"\b(?i:legal|company|registered|corporate|official)\s+(?i:name)\s*:\s*(?P<name>{_NAME}(?:,?\s+(?i:{_LEGAL_FORM})\.?)?)")
# The page a European company must publish naming who runs the site (Impressum, legal notice): its first line that is
# a name with a legal form alone is that company's legal name ("rami.io GmbH" over its address).
_IMPRINT = re.compile(
    r"(?<![^\W_])(?:imprint|impressum|(?:legal|site)[\s_-]+notice|mentions[\s_-]+l[eé]gales)(?![^\W_])", re.I)
# (A name's words are written with a capital or a dot, "rami.io"; its form is a company's, not "Group" or "Company":
# "Our Company" names no one.)
_NAME_LINE_WORD = r"(?:[\w&'’-]*[A-Z0-9][\w&.'’-]*|[\w&'’-]+\.[\w&.'’-]+),?"
_COMPANY_FORMS = "|".join(sorted(
    (re.escape(f) for f in LEGAL_FORMS - {"co", "company", "group", "holdings", "fc", "afc"}), key=len, reverse=True))
_LEGAL_NAME_LINE = re.compile(rf"{_NAME_LINE_WORD}(?:[^\S\n]+{_NAME_LINE_WORD}){{0,4}}[^\S\n]+(?i:{_COMPANY_FORMS})\.?")
_TEXT_BLOCKS = frozenset("p li td th dd dt address h1 h2 h3 h4 h5 h6 blockquote figcaption caption".split())
_WORD_BEFORE = re.compile(r"[\w&'’.\-]+")


def own_names(pages: Sequence[FetchedPage], company: Company) -> list[str]:
    """The other names a company's own pages (its website's, in crawl order) give it, as written; [] when none.

    Only what the site says of itself: the schema.org name, ``legalName`` and ``alternateName`` of an
    organization that is the company (one of its names is the company's, or its URL is on the page's own
    site: a site's ``publisher``, not an organization it mentions); a name the company is said to have
    had ("Acme Corp (formerly Acme Widgets)", the sentence naming the company); the legal name its terms
    define its short name by ('Acme Widgets Holdings, Inc. ("Acme")'); and a "Legal name:" line of
    its about, contact or legal pages. A name the company already answers to (legal form aside) is not
    repeated.
    """
    known = set(name_keys(company.name)) | set(name_keys(company.slug.replace("-", " ")))
    found: list[str] = []

    def add(name: str) -> None:
        name = " ".join(name.split()).strip(" ,;:")
        if name.endswith(".") and name.split()[-1].replace(".", "").lower() not in LEGAL_FORMS:
            name = name.rstrip(" ,;:.")  # a sentence's full stop, not the abbreviation's: "Acme, Inc." keeps its dot
        keys = name_keys(name)
        if len(found) < _MAX_NAMES and keys and not keys <= known and max(len(k) for k in keys) > 1:
            found.append(name)
            known.update(keys)

    parsed = [(page, tree) for page in pages if page.html and (tree := load_html(page.html)) is not None]
    for page, tree in parsed:  # the structured data first: it also says which names to look for in the text
        for item in _schema_items(tree, page.html, page.url):
            for node in _own_organizations(item, page.url, known):
                for prop in ("name", "legalName", "alternateName"):
                    for value in node.get(prop, [])[:_MAX_VALUES]:
                        if isinstance(value, str):
                            add(value)
    for page, tree in parsed:
        about_itself = page_kind(page.url, _first_text(tree, "title"), page.source_type) == "company"
        for text in _block_texts(tree):
            for match in _FORMERLY.finditer(text):
                if _names_company_before(text[: match.start()], known):
                    add(match.group("name"))
            for match in _DEFINED.finditer(text):
                if name_keys(match.group("short")) & known:
                    add(match.group("legal"))
            for full, short in _abbreviations(text):
                if name_keys(short) & known:
                    add(full)  # asked of "the Global Exchange Network", GEN is the company
                elif name_keys(full) & known:
                    add(short)
            if about_itself:
                for match in _LABELLED.finditer(text):
                    add(match.group("name"))
        if _IMPRINT.search(urlsplit(page.url).path) or _IMPRINT.search(_first_text(tree, "title")):
            name = next((line.strip() for text in _block_texts(tree) for line in text.splitlines()
                         if _LEGAL_NAME_LINE.fullmatch(line.strip())), None)
            if name:
                add(name)
    return found


def _abbreviations(text: str) -> Iterator[tuple[str, str]]:
    """Each name and the abbreviation it defines, where the abbreviation is the name's initials: "the Global Exchange
    Network (GEN)" -> ("Global Exchange Network", "GEN"); not "Acme Inc. (NASDAQ)"."""
    for match in _ABBREVIATED.finditer(text):
        short = match.group("short")
        before = _NAME_BEFORE.search(text[max(0, match.start() - 200):match.start()])
        words = before.group().split() if before else []
        for start in range(len(words) - 1, -1, -1):  # the shortest run of words whose initials spell it
            spelt, count = initials(words[start:])
            if count > len(short):
                break
            if count == len(short) >= 2 and spelt == short.lower():
                if words[start][0].isupper():
                    yield " ".join(words[start:]), short
                break


def _own_organizations(node: Node, url: str, known: set[str], depth: int = 0) -> Iterator[Node]:
    """The organizations of an item that are the site's own: by one of their names, or their URL on the page's site."""
    types = set(_strings(node, "@type"))
    if _is_organization(node, types):
        names = [v for prop in ("name", "legalName", "alternateName") for v in _strings(node, prop)]
        # A url written from the site's root ("/") is the page's site too; an @id is an identifier, only ever absolute here.
        links = [v for v in _strings(node, "@id") if v.startswith(("http://", "https://"))]
        links += [urljoin(url, v) for v in _strings(node, "url") if v.startswith(("http://", "https://", "/"))]
        if any(name_keys(name) & known for name in names) or any(site_key(link) == site_key(url) for link in links):
            yield node
        return
    if depth >= _MAX_DEPTH:
        return
    for prop, values in node.items():
        if prop in _FOLLOW:  # a page's publisher, an about page's main entity: never the organizations it mentions
            for value in values:
                if isinstance(value, dict):
                    yield from _own_organizations(value, url, known, depth + 1)


def _block_texts(tree: HtmlElement) -> Iterator[str]:
    """The text of each paragraph-like element (a sentence never runs across two of them), its line breaks
    (``<br>``) kept as newlines: "Legal name: Acme GmbH<br>Registry: ..." names no "Acme GmbH Registry"."""
    for element in tree.iter(*_TEXT_BLOCKS):
        if any(isinstance(a.tag, str) and a.tag in _SKIP for a in element.iterancestors()):
            continue
        text = _lines_of(element)
        if text:
            yield text


def _names_company_before(text: str, known: set[str]) -> bool:
    """Whether the words just before a "formerly" name the company ("... Acme Corporation (") or are "we"."""
    words = _WORD_BEFORE.findall(text[-200:])[-8:]
    if words and words[-1].lower() in ("is", "was", "were"):
        words = words[:-1]
    if words and words[-1].lower() == "we":
        return True
    return any(name_keys(" ".join(words[i:])) & known for i in range(len(words)))


def _first_text(tree: HtmlElement, tag: str) -> str:
    element = next(tree.iter(tag), None)
    return " ".join(element.text_content().split()) if element is not None else ""
