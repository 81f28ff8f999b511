"""Best-first crawl order for a company's website: which page to fetch next, within a small page budget.

A page is worth fetching when it is likely to state facts about the company: who it is
(about, team, contact, pricing, legal, press, open-source, licence or self-hosting, warranty and shipping
pages) and what happened to it (posts that announce funding, an acquisition, a rename, an
anniversary, a partnership, an award, an appointment, or an annual letter). Listing pages
(author, category, tag, archive, page/N) and generic articles (tutorials, how-tos, docs,
changelogs, transparency reports) are not, nor is one job opening (what it says of the company, the careers page
says).

The shape follows Crawl4AI's ``BestFirstCrawlingStrategy`` with a composite scorer: every
candidate URL gets a score from general signals, and a priority queue hands out the best
one next. The signals, all words any company site uses (none are taken from one site):

- the URL's path: its last segment names the page near the site's root (``/about/``,
  ``/company/leadership``, ``/support/warranty`` right under a help section; not
  ``/work/toolkits/guide/definition-of-terms`` or ``/docs/guides/team``);
  a slug's words name the post (``/2024/03/acme-raises-series-b``); a section above it
  (``/press/...``) says the post is company news; a query string (``?page=2``) or a
  listing segment (``/tag/``, ``/page/3/``) marks a listing;
- the anchor texts of the links to it (nav labels such as "About us", post titles on an
  index page such as "Acme raises $20M Series B");
- whether the site's sitemap lists it, and the title of the page that linked to it;
- how many of the pages fetched link to it: a link in the site's navigation or footer, on every page, is one the
  company itself holds up (``/contracting/``, ``/press/``), unlike a link from one post to another;
- freshness: among equal scores, the newer year in the URL first (the latest annual
  letter states the current facts), then the order of discovery (breadth-first).

Scores are tiers plus weights (larger first): pages named by the URL as fact pages
(``core``), then ones whose short nav label names one, then one section index (``/blog/``,
``/news/``: its post titles become anchor texts for the rest), then announcement posts,
then everything else, then job openings, then generic articles and listings, then other languages.
Coverage over depth: each further page of a category already fetched (a third annual
letter, a second privacy page) counts for less (``DECAY``), so a small budget is spread
over kinds of facts instead of spent on one kind.
"""

from __future__ import annotations

import heapq
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from urllib.parse import parse_qsl, urlsplit

from cikb.gather.urls import language_prefix

from cikb.core.models import PageKind, SourceType

# --- vocabulary -------------------------------------------------------------------------------
# Each category: a weight, single words, and phrases (space-separated words, matched in order).


@dataclass(frozen=True)
class Category:
    name: str
    weight: float
    words: frozenset[str] = frozenset()
    phrases: tuple[str, ...] = ()
    pattern: re.Pattern[str] | None = None  # on the words joined by single spaces


def _category(name: str, weight: float, words: str = "", phrases: Iterable[str] = (), pattern: str = "") -> Category:
    return Category(name, weight, frozenset(words.split()), tuple(phrases), re.compile(pattern) if pattern else None)


# Pages that say who the company is. A URL's last segment or a short nav label names them.
CORE_CATEGORIES: tuple[Category, ...] = (
    _category(
        "about", 10, "about company history mission vision values story purpose unternehmen",
        ["about us", "who we are", "our story", "what we do", "ueber uns", "uber uns", "a propos", "qui sommes nous"],
    ),
    _category(
        "team", 9, "team leadership management people founders founder board executives directors governance",
        ["our team", "meet the team", "board of directors"],
    ),
    _category("contact", 8, "contact kontakt offices locations headquarters", ["contact us", "get in touch", "our offices"]),
    _category("pricing", 7, "pricing prices plans", ["plans and pricing"]),
    _category(
        "press", 7, "press presse newsroom news media investors investor",
        ["press releases", "press release", "press room", "press kit", "media kit", "investor relations", "in the news"],
    ),
    # Who pays for it: a foundation's or a cooperative's sponsors, donors and members (a company's investors are
    # press above).
    _category(
        "funding", 6, "donate donations donors sponsors sponsorship supporters funders funding membership",
        ["support us", "become a member", "become member", "become a sponsor", "our sponsors", "our funders"],
    ),
    _category(
        "legal", 5, "legal imprint impressum terms tos privacy trademarks trademark datenschutz agb",
        ["terms of service", "terms of use", "terms and conditions", "privacy policy", "legal notice", "mentions legales"],
    ),
    # What the company publishes its code or designs under: a licence is a fact of an open-source company.
    # A self-hosted edition's page says what its code may be run under.
    _category("open source", 5, "opensource license licence licenses licences licensing",
              ["open source", "self hosted", "self hosting", "on premise", "on premises"]),
    # What a customer is promised: a seller's warranty, shipping and returns terms.
    _category("warranty", 5, "warranty warranties guarantee shipping returns"),
    _category("careers", 4, "careers jobs karriere", ["work with us", "join us"]),
)

# Overview pages of what the company sells: first among the pages that are neither facts nor news.
OVERVIEW_WORDS = frozenset("products services solutions platform customers".split())

# A count of years written as a word ("ten years of Acme"), as most style guides write the small ones.
_YEARS_IN_WORDS = "two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|twenty five|thirty|fifty"

# Posts that announce what happened to the company, judged by slug and anchor words.
EVENT_CATEGORIES: tuple[Category, ...] = (
    _category(
        "funding", 8, "funding funded financing raises raised investment invests grant grants valuation ipo",
        ["funding round", "seed round", "goes public", "public offering", "backed by"],
        r"\bseries [a-h]\b",
    ),
    _category(  # not bare "acquisition" or "merge": customer acquisition, merge conflicts
        "acquisition", 8, "acquires acquired merger mergers",
        ["joins forces", "to acquire", "acquisition of", "completes acquisition", "announces acquisition", "merges with", "merged with"],
    ),
    _category(  # "/blog/change-company-name-...", "Change of name", "Changing our name"
        "rename", 7, "rename renamed renames rebrand rebrands rebranded rebranding",
        ["new name", "name change", "changes its name", "changes name", "new brand"],
        r"\bchang(?:e|es|ed|ing) (?:of )?(?:(?:its|our) )?(?:(?:the )?company |legal |business )?name\b",
    ),
    _category(  # a number of years in digits or in words: "/blog/5-years-of-acme", "/blog/ten-years"
        "anniversary", 7, "anniversary birthday founded founding", ["decade of"],
        rf"\b(turns|celebrates|celebrating) (\d+|{_YEARS_IN_WORDS})\b|\b(\d+|{_YEARS_IN_WORDS}) years\b"
        r"|\b\d+(st|nd|rd|th) (year|birthday)\b",
    ),
    _category(
        "people", 6, "appoints appointed appointment hires ceo cfo cto coo cmo chief chairman chairwoman chairperson president cofounder",
        ["joins as", "named ceo", "names new", "new ceo", "chief executive", "executive director", "co founder", "joins the board", "joins board"],
    ),
    _category("announce", 6, "announcing announces announced announcement", ["press release"]),
    _category(
        "partnership", 5, "partnership partnerships partnering collaboration collaborate collaborates collaborating alliance",
        ["partners with", "teams up", "team up"],
    ),
    _category("award", 5, "award awards awarded prize honored honoured", ["named a leader", "named to", "recognized as", "recognized in"]),
    _category(
        "letter", 5, "letter shareholders",
        ["annual report", "annual letter", "year in review", "in review", "year end", "end of year", "state of the company", "letter from"],
        r"\b(19|20)\d\d (recap|retrospective)\b",
    ),
)

# Words that may stand beside a core word in a page's name: /about-us, /terms-of-service, /investor-relations.
FILLER_WORDS = frozenset(
    """a an and the of to for with in on at by our us we who are what do get touch work join meet page pages policy
    policies notice info information overview relations releases release kit room center centre service use conditions
    statement sales general corporate global""".split()
)

_CORE_VOCABULARY = FILLER_WORDS.union(
    *(c.words for c in CORE_CATEGORIES), *(phrase.split() for c in CORE_CATEGORIES for phrase in c.phrases)
)

# Blog-like sections: a page under them is a post, whatever its slug says (/blog/about-time).
POST_SECTIONS = frozenset("blog blogs posts post articles stories journal insights updates".split())

# Section indexes whose links carry post titles: one of them is worth a page early.
HUB_WORDS = frozenset("blog news newsroom press updates stories insights articles announcements posts journal".split())
HUB_PHRASES = ("press releases", "press room", "latest news")

# Sections that hold company news or people: a page under them is more likely a fact page.
FACT_SECTIONS = frozenset("press newsroom news announcements investors investor media company about team leadership people".split())

# Sections of job openings: a posting under them describes one role; what it says of the company (its size, its
# offices) the careers page itself says.
JOB_SECTIONS = frozenset("careers career jobs job karriere vacancies openings positions".split())

# Generic articles: any company publishes them, few state facts about it.
GENERIC_SECTIONS = frozenset(
    """docs doc documentation developers developer api apis reference kb help support tutorials tutorial guides
    guide learn academy webinars webinar ebooks ebook whitepapers podcasts podcast glossary changelog changelogs
    integrations integration templates examples forum forums community status downloads download""".split()
)
GENERIC_WORDS = frozenset(
    """tutorial tutorials howto guide guides docs documentation changelog changelogs api apis sdk glossary
    webinar webinars ebook whitepaper podcast tips tricks cheatsheet checklist troubleshooting explained strategies
    template templates""".split()
)
GENERIC_PHRASES = (
    "how to", "transparency report", "release notes", "release note", "deep dive", "best practices",
    "step by step", "getting started", "get started", "what is", "introduction to", "case study", "case studies",
    "cheat sheet", "engineering blog", "under the hood",
)

# Listing pages: they list other pages and state nothing of their own.
LISTING_SEGMENTS = frozenset(
    """author authors category categories tag tags topic topics archive archives page search feed feeds rss atom
    login signin signup register cart checkout account comments share print wp-json xmlrpc attachment""".split()
)
LISTING_WORDS = frozenset("author authors category categories tag tags topic topics archive archives".split())
LISTING_QUERY_KEYS = frozenset("page paged pg offset start s q query search sort order orderby filter tag category author".split())

# --- weights ----------------------------------------------------------------------------------

CORE_URL_TIER = 100.0  # the URL's last segment names a fact page
CORE_ANCHOR_TIER = 80.0  # a short link label names one
HUB_TIER = 60.0  # the first section index (blog, news); later ones get HUB_TIER * HUB_DECAY
EVENT_TIER = 40.0  # announcement posts
LISTING_PENALTY = -200.0
GENERIC_PENALTY = -45.0
JOB_POSTING_PENALTY = -20.0  # after every unnamed page, before generic articles
OTHER_LANGUAGE_PENALTY = -1000.0
QUERY_PENALTY = -3.0  # ?ref=footer and the like: usually a copy of a page without the query
FACT_SECTION_BONUS = 3.0
OVERVIEW_BONUS = 5.0  # /products/, /services/: what the company does
SITEMAP_BONUS = 1.0
PARENT_BONUS = 1.0  # a link found on a fact page
INBOUND_BONUS = 0.5  # per page fetched that links to it, up to INBOUND_CAP pages (site-wide links first)
INBOUND_CAP = 4
DEPTH_COST = 0.3  # per path segment beyond the first (numbers such as dates not counted)
EXTRA_CATEGORY_BONUS = 0.5  # per further category an announcement matches (at most two)
DECAY = 0.5  # a category's weight is multiplied by this for each page of it already taken
SIBLING_COST = 1.0  # an unnamed page loses this for each page already taken from its folder (/policies/a, /policies/b)
HUB_DECAY = 0.0
CORE_MAX_WORDS = 4  # a page's name or nav label ("Meet the team"), not a post title
CORE_MAX_OTHER_WORDS = 1  # "About Acme" and "Contact sales", not "Dashboards people actually read"
CORE_MAX_DEPTH = 2  # /about, /company/leadership (one folder more under a fact section: /company/policies/privacy)

_TOKEN = re.compile(r"[^\W_]+", re.UNICODE)
_EXTENSION = re.compile(r"\.(html?|php|aspx?|jsp|cfm|shtml)$")
_YEAR = re.compile(r"(?<!\d)(19[89]\d|20\d\d)(?!\d)")


def words(text: str) -> list[str]:
    """Lowercased words of ``text`` (letters and digits; ``about-us_page`` -> about, us, page)."""
    return _TOKEN.findall(text.lower())


def _segments(url: str) -> list[str]:
    """Path segments without a file extension and without a leading language prefix."""
    parts = urlsplit(url)
    segments = [s for s in parts.path.lower().split("/") if s]
    if segments and language_prefix(url) is not None:
        segments = segments[1:]
    if segments:
        segments[-1] = _EXTENSION.sub("", segments[-1])
    return [s for s in segments if s and s != "index"]


def _matches(category: Category, tokens: list[str], text: str) -> bool:
    singular = [t[:-1] for t in tokens if len(t) > 3 and t.endswith("s") and not t.endswith("ss")]  # cofounders, partners
    if category.words.intersection(tokens) or category.words.intersection(singular) or any(f" {phrase} " in text for phrase in category.phrases):
        return True
    return bool(category.pattern and category.pattern.search(text))


def _matched(categories: Iterable[Category], tokens: list[str]) -> list[Category]:
    text = f" {' '.join(tokens)} "
    return [c for c in categories if _matches(c, tokens, text)]


def _has_any(tokens: list[str], vocabulary: frozenset[str], phrases: tuple[str, ...] = ()) -> bool:
    text = f" {' '.join(tokens)} "
    return bool(vocabulary.intersection(tokens)) or any(f" {phrase} " in text for phrase in phrases)


def is_listing(url: str) -> bool:
    """True for pages that list other pages: author, category, tag, archive, page/N, search, date archives, ?page=."""
    segments = _segments(url)
    if any(s in LISTING_SEGMENTS for s in segments):
        return True
    if any(len(w := words(s)) <= 2 and LISTING_WORDS.intersection(w) for s in segments):
        return True  # /blog-categories/product, /post-tags/security
    if any(re.fullmatch(r"page-?\d+", s) for s in segments):
        return True
    if len(segments) >= 2 and segments[-1].isdigit() and int(segments[-1]) < 1000 and segments[-2] in HUB_WORDS:
        return True  # /blog/2/: page 2 of the blog
    if segments and all(s.isdigit() for s in segments) and len(segments) <= 3 and _YEAR.fullmatch(segments[0]):
        return True  # /2024/ or /2024/05/: a date archive
    keys = {key.lower() for key, _ in parse_qsl(urlsplit(url).query, keep_blank_values=True)}
    return bool(keys & LISTING_QUERY_KEYS)


def is_generic(url: str, anchor: str = "") -> bool:
    """True for generic articles: tutorials, how-tos, docs, changelogs, transparency reports..."""
    segments = _segments(url)
    if any(s in GENERIC_SECTIONS for s in segments):
        return True
    slug = words(segments[-1]) if segments else []
    return is_generic_text(" ".join(slug)) or is_generic_text(anchor)


def is_generic_text(text: str) -> bool:
    """True when a slug, anchor or title names a generic article (a how-to, a guide, a transparency report...)."""
    return _has_any(words(text), GENERIC_WORDS, GENERIC_PHRASES)


def _core_name(tokens: list[str]) -> list[Category]:
    """Core categories of a page name or nav label: a few words, a core word, at most one other word."""
    if not tokens or len(tokens) > CORE_MAX_WORDS:
        return []
    found = _matched(CORE_CATEGORIES, tokens)
    if not found:
        return []
    return found if sum(t not in _CORE_VOCABULARY for t in tokens) <= CORE_MAX_OTHER_WORDS else []


def core_categories(url: str) -> list[Category]:
    """Fact-page categories the URL's last segment names (``/company/leadership`` -> team), or []."""
    segments = _segments(url)
    if not segments or is_listing(url) or year_of(url) or is_generic_text(" ".join(words(segments[-1]))):
        return []  # a dated path is a post (/2019/05/about-time), not a page of the site
    if any(s in GENERIC_SECTIONS for s in segments[:-2]):
        return []  # deep in the docs (/docs/guides/team): a guide's page; /support/warranty names the site's own
    if any(s in POST_SECTIONS for s in segments[:-1]):
        return []  # so is a page under /blog/
    if len(segments) > CORE_MAX_DEPTH + (segments[0] in FACT_SECTIONS):
        return []  # a site's fact pages sit near its root: /work/toolkits/content-guide/definition-of-terms is a guide's
    return _core_name(words(segments[-1]))


def is_core_url(url: str) -> bool:
    """True when the URL names a page that usually holds company facts (about, team, contact, legal...)."""
    return bool(core_categories(url))


def is_job_posting(url: str) -> bool:
    """True for one job opening: a page under a careers section (/careers/backend-developer/, /jobs/42)."""
    return any(s in JOB_SECTIONS for s in _segments(url)[:-1])


def is_hub(url: str) -> bool:
    """True for a section index that lists posts by title: /blog/, /news/, /company/press/ (not /blog/page/2/)."""
    segments = _segments(url)
    if not segments or len(segments) > 2 or is_listing(url) or urlsplit(url).query:
        return False
    slug = words(segments[-1])
    return _has_any(slug, HUB_WORDS, HUB_PHRASES) and len(slug) <= 2


def is_post(url: str) -> bool:
    """True for a URL that names one dated post: a year in its path, or a slug under a blog or news section
    (/2019/05/acme-raises, /blog/why-we-started, /press/acme-joins-x; not /blog/ itself)."""
    segments = _segments(url)
    sections = {word for segment in segments[:-1] for word in words(segment)}
    return bool(year_of(url)) or (len(segments) >= 2 and bool(sections & (POST_SECTIONS | HUB_WORDS)))


def year_of(url: str) -> int:
    """The newest plausible year written in the URL's path (0 when none): a freshness hint."""
    years = [int(y) for y in _YEAR.findall(urlsplit(url).path)]
    return max(years, default=0)


# --- scoring ----------------------------------------------------------------------------------


@dataclass
class Candidate:
    """A URL the crawl knows of and has not requested yet, with what was learnt about it."""

    url: str
    key: str
    seq: int  # discovery order
    anchors: list[str] = field(default_factory=list)
    in_sitemap: bool = False
    from_fact_page: bool = False
    referrers: set[str] = field(default_factory=set)  # the pages fetched that link to it (up to INBOUND_CAP)
    version: int = 0  # bumped when the static score changes (a new anchor)
    static: float = 0.0
    core: list[Category] = field(default_factory=list)  # core categories (URL, else anchor)
    core_from_url: bool = False
    events: list[Category] = field(default_factory=list)
    hub: bool = False
    # Linked only from pages that declare another language (``<html lang="de">``): a page in that language too,
    # unless its path names the crawl's language ("/en/about/": the site's English version).
    from_other_language: bool = False

    @property
    def folder(self) -> str:
        """The kind key of the section the page sits in, two folders deep at most: ``folder:/company/brand`` for
        /company/brand/identity/colors/ and /company/brand/resources/emoji/. A date in the path is one folder, not
        one per day: the posts of /blog/2019/05/02/ and /blog/2024/10/08/ are ``folder:/blog/#``, those of
        /2019/05/02/ ``folder:/#`` (not the site's root pages)."""
        folders: list[str] = []
        for segment in _segments(self.url)[:-1]:
            folder = "#" if segment.isdigit() else segment
            if folder != "#" or folders[-1:] != ["#"]:
                folders.append(folder)
        return "folder:/" + "/".join(folders[:2])


@dataclass(frozen=True)
class Explanation:
    """Why a URL scored what it did (for benchmarks, tests and the curious)."""

    score: float
    tier: str
    categories: tuple[str, ...]


class FactScorer:
    """Scores candidate URLs by the signals above; ``enabled=False`` scores every page alike (breadth-first)."""

    def __init__(self, language: str = "en", *, enabled: bool = True):
        self.language = language
        self.enabled = enabled
        # The site keeps its pages in the crawl's language under that language's prefix ("/en/...") and others
        # without one: learnt from an unprefixed page that declares another language (Frontier.unprefixed_elsewhere).
        self.unprefixed_other_language = False
        # Folders that look like another language's prefix but hold pages in the crawl's language: "uk" is Ukrainian
        # and the United Kingdom ("/uk/", lang="en-GB"); learnt from a start page (Frontier.own_language_prefix).
        self.own_prefixes: set[str] = set()

    def is_other_language(self, url: str) -> bool:
        """The URL sits under another language's prefix, as far as this site's pages have told."""
        prefix = language_prefix(url)
        return prefix is not None and not self._own(prefix)

    def _own(self, prefix: str | None) -> bool:
        return prefix == self.language.lower() or prefix in self.own_prefixes

    def analyse(self, candidate: Candidate) -> None:
        """Compute the candidate's static score and categories from its URL, anchors and sources."""
        url = candidate.url
        prefix = language_prefix(url)
        other_language = not self._own(prefix) and (
            prefix is not None or candidate.from_other_language or self.unprefixed_other_language)
        if not self.enabled:
            candidate.static = OTHER_LANGUAGE_PENALTY if other_language else 0.0
            candidate.core, candidate.events, candidate.hub = [], [], False
            return
        anchors = [a for a in candidate.anchors if a]
        anchor_tokens = [words(a) for a in anchors]
        segments = _segments(url)
        slug = words(segments[-1]) if segments else []
        listing = is_listing(url)
        core = core_categories(url)
        generic = not core and (is_generic(url) or any(is_generic_text(a) for a in anchors))
        candidate.core_from_url = bool(core)
        if not core and not listing and not generic:
            for tokens in anchor_tokens:
                core = core or _core_name(tokens)
        candidate.core = core
        candidate.hub = is_hub(url)
        events: list[Category] = []
        for tokens in [slug, *anchor_tokens]:
            events += [c for c in _matched(EVENT_CATEGORIES, tokens) if c not in events]
        candidate.events = [] if listing or generic else events

        score = 0.0
        if listing:
            score += LISTING_PENALTY
        elif generic:
            score += GENERIC_PENALTY
        if other_language:
            score += OTHER_LANGUAGE_PENALTY
        if urlsplit(url).query:
            score += QUERY_PENALTY
        if any(s in FACT_SECTIONS for s in segments[:-1]) and not core:
            score += FACT_SECTION_BONUS
        if is_job_posting(url) and not core:
            score += JOB_POSTING_PENALTY
        if not listing and not generic and 0 < len(slug) <= 2 and OVERVIEW_WORDS.intersection(slug) and not year_of(url):
            score += OVERVIEW_BONUS
        if candidate.in_sitemap:
            score += SITEMAP_BONUS
        if candidate.from_fact_page:
            score += PARENT_BONUS
        score += INBOUND_BONUS * len(candidate.referrers)
        score -= DEPTH_COST * max(0, len([s for s in segments if not s.isdigit()]) - 1)
        candidate.static = score

    def score(self, candidate: Candidate, taken: Counter[str]) -> float:
        """The candidate's score now, given how many pages of each category were already taken."""
        score = candidate.static
        if candidate.core:
            tier = CORE_URL_TIER if candidate.core_from_url else CORE_ANCHOR_TIER
            score += tier + max(c.weight * DECAY ** taken[c.name] for c in candidate.core)
        elif candidate.hub:
            score += HUB_TIER * HUB_DECAY ** taken["hub"]
        if candidate.events and not candidate.core:
            weights = sorted((c.weight * DECAY ** taken[c.name] for c in candidate.events), reverse=True)
            score += EVENT_TIER + weights[0] + EXTRA_CATEGORY_BONUS * min(2, len(weights) - 1)
        elif not candidate.core and not candidate.hub and self.enabled:
            # Coverage over depth among pages no signal names: a small budget is spread over the site's
            # folders instead of spent on one folder's pages (seven policies, forty docs pages).
            score -= SIBLING_COST * taken[candidate.folder]
        return score

    def explain(self, candidate: Candidate, taken: Counter[str] | None = None) -> Explanation:
        taken = taken or Counter()
        if candidate.static <= OTHER_LANGUAGE_PENALTY / 2:
            tier = "other-language"
        elif candidate.core:
            tier = "core" if candidate.core_from_url else "core-anchor"
        elif candidate.hub:
            tier = "hub"
        elif candidate.events:
            tier = "event"
        elif candidate.static <= LISTING_PENALTY / 2:
            tier = "listing"
        elif candidate.static <= GENERIC_PENALTY / 2:
            tier = "generic"
        else:
            tier = "other"
        names = tuple(c.name for c in candidate.core or candidate.events) + (("hub",) if candidate.hub else ())
        return Explanation(round(self.score(candidate, taken), 3), tier, names)


def score_url(url: str, anchors: Iterable[str] = (), *, language: str = "en", in_sitemap: bool = False) -> Explanation:
    """Score one URL with its anchor texts, as the first pick of a fresh crawl would."""
    candidate = Candidate(url=url, key=url, seq=0, anchors=list(anchors), in_sitemap=in_sitemap)
    scorer = FactScorer(language)
    scorer.analyse(candidate)
    return scorer.explain(candidate)


class Frontier:
    """The crawl's to-do list: a best-first priority queue of candidate URLs.

    ``add`` records a URL (again: one more anchor text or source for it); ``pop`` hands out
    the best one and counts its categories as taken, which lowers the score of others of the
    same kind. Scores only fall when a category is taken, so a lazily re-checked heap is exact;
    a new anchor that raises a score pushes a fresh entry (the stale one is skipped).
    """

    def __init__(self, scorer: FactScorer | None = None):
        self.scorer = scorer or FactScorer()
        self.taken: Counter[str] = Counter()
        self._candidates: dict[str, Candidate] = {}
        self._heap: list[tuple[float, int, int, int, str]] = []
        self._seq = 0

    def __len__(self) -> int:
        return len(self._candidates)

    def __contains__(self, key: str) -> bool:
        return key in self._candidates

    def add(self, url: str, key: str, *, anchor: str = "", in_sitemap: bool = False, from_fact_page: bool = False,
            referrer: str = "", other_language: bool = False) -> None:
        """Record ``url`` (canonical ``key``) as a candidate, or what is new about it (``referrer``: the page
        that links to it; ``other_language``: that page declares another language than the crawl's)."""
        anchor = " ".join(anchor.split())[:200]
        candidate = self._candidates.get(key)
        if candidate is None:
            self._seq += 1
            candidate = Candidate(url=url, key=key, seq=self._seq, from_other_language=other_language)
            self._candidates[key] = candidate
            changed = True
        else:
            changed = candidate.from_other_language and not other_language  # now linked in the crawl's language
            candidate.from_other_language = candidate.from_other_language and other_language
        if anchor and anchor not in candidate.anchors and len(candidate.anchors) < 10:
            candidate.anchors.append(anchor)
            changed = True
        if in_sitemap and not candidate.in_sitemap:
            candidate.in_sitemap = changed = True
        if from_fact_page and not candidate.from_fact_page:
            candidate.from_fact_page = changed = True
        if referrer and referrer not in candidate.referrers and len(candidate.referrers) < INBOUND_CAP:
            candidate.referrers.add(referrer)
            changed = True
        if changed:
            candidate.version += 1
            self.scorer.analyse(candidate)
            self._push(candidate)

    def _push(self, candidate: Candidate) -> None:
        score = self.scorer.score(candidate, self.taken)
        year = year_of(candidate.url) if self.scorer.enabled else 0
        entry = (-score, -year, candidate.seq, candidate.version, candidate.key)
        heapq.heappush(self._heap, entry)

    def pop(self) -> Candidate | None:
        """The best candidate now (removed from the frontier), its categories counted as taken; None when empty."""
        while self._heap:
            neg_score, neg_year, seq, version, key = heapq.heappop(self._heap)
            candidate = self._candidates.get(key)
            if candidate is None or candidate.version != version:
                continue  # taken already, or superseded by a newer entry
            current = -self.scorer.score(candidate, self.taken)
            if current > neg_score and self._heap and (current, neg_year, seq) > self._heap[0][:3]:
                heapq.heappush(self._heap, (current, neg_year, seq, version, key))  # fell behind: re-queue
                continue
            del self._candidates[key]
            self.take(candidate)
            return candidate
        return None

    def take(self, candidate: Candidate) -> None:
        """Count the candidate's categories as taken (``pop`` does; a page that failed is given back with ``untake``)."""
        self.taken.update(self._kinds(candidate))

    def untake(self, candidate: Candidate) -> None:
        """Give back what ``take`` counted; others' scores may rise, so the queue is rebuilt."""
        self.taken.subtract(self._kinds(candidate))
        self._rebuild()

    def unprefixed_elsewhere(self) -> None:
        """An unprefixed page declared another language, and pages under the crawl's language prefix are known
        ("/" is German, "/en/" English): every unprefixed URL is presumed to be in another language from now on."""
        language = self.scorer.language
        if self.scorer.unprefixed_other_language or not any(
                language_prefix(c.url) == language for c in self._candidates.values()):
            return
        self.scorer.unprefixed_other_language = True
        self._reanalyse()

    def own_language_prefix(self, url: str) -> None:
        """``url`` is under a language's prefix and in the crawl's language ("/uk/", lang="en-GB"): that folder holds
        this site's pages in the crawl's language, and its URLs are scored as such from now on."""
        prefix = language_prefix(url)
        if prefix is None or prefix == self.scorer.language.lower() or prefix in self.scorer.own_prefixes:
            return
        self.scorer.own_prefixes.add(prefix)
        self._reanalyse()

    def _reanalyse(self) -> None:
        """Every candidate scored again, after the scorer learnt something of the site's languages."""
        for candidate in self._candidates.values():
            candidate.version += 1
            self.scorer.analyse(candidate)
        self._rebuild()

    def _rebuild(self) -> None:
        self._heap = []
        for candidate in self._candidates.values():
            self._push(candidate)

    @staticmethod
    def _kinds(candidate: Candidate) -> set[str]:
        kinds = {c.name for c in candidate.core} | {c.name for c in candidate.events} | {candidate.folder}
        return kinds | ({"hub"} if candidate.hub else set())

    def remaining(self) -> Iterator[Candidate]:
        """Candidates never handed out, best first."""
        entries = sorted(
            (-self.scorer.score(c, self.taken), -(year_of(c.url) if self.scorer.enabled else 0), c.seq, c.key)
            for c in self._candidates.values()
        )
        for *_, key in entries:
            yield self._candidates[key]


def fact_page_title(title: str) -> bool:
    """True when a page's title names a fact page or an announcement (its links then get a small bonus)."""
    tokens = words(title)
    if not tokens or is_generic_text(title):
        return False
    return any(_core_name(words(part)) for part in _title_parts(title)) or bool(_matched(EVENT_CATEGORIES, tokens))


def _title_parts(title: str) -> list[str]:
    """A title's parts, the page's own name first: "About Acme | Acme" -> "About Acme", "Acme"."""
    return re.split(r"\s[|\-\u2013\u2014:\u00b7]\s|\|", title)


# Sources other than the website are about the company as a whole (an encyclopedia article, a
# company profile) or are news about it.
_SOURCE_KINDS: dict[str, PageKind] = {"wikipedia": "company", "crunchbase": "company", "news": "news"}


def page_kind(url: str, title: str = "", source_type: SourceType = "website") -> PageKind:
    """What a fetched page is to a question about the company, by the signals the crawl orders pages by.

    ``company``: the home page, a page the URL or the title's own name calls a fact page (about,
    team, contact, pricing, press, legal, open source, warranty), an overview of what the company sells, or a non-website
    source about the company; ``news``: an announcement post (funding, acquisition, anniversary...)
    or a news source's article; ``generic``: a how-to, docs, a report; ``listing``: a page listing
    others (a blog index, a tag or archive page); ``page``: anything else.
    """
    if source_type != "website":
        return _SOURCE_KINDS.get(source_type, "page")
    if is_listing(url):
        return "listing"
    own_name = _title_parts(title)[0]
    if core_categories(url) or (_core_name(words(own_name)) and not is_hub(url)):
        return "company"
    if is_hub(url):
        return "listing"
    if is_generic(url, title):
        return "generic"
    segments = _segments(url)
    # "/customers/" is an overview of whom it sells to; "/blog/200000-customers/" is a post, dated, however named.
    if not segments or (len(segments) <= 2 and OVERVIEW_WORDS.intersection(words(segments[-1])) and not is_post(url)):
        return "company"
    if _matched(EVENT_CATEGORIES, words(segments[-1])) or _matched(EVENT_CATEGORIES, words(title)):
        return "news"
    return "page"
