"""Which company a question is about (spec R2), and whether it names one the knowledge base lacks (R3).

A company is named in a question by its display name ("Acme Corp"), that name
without its legal suffix ("Acme"), a name its own pages give it, or its slug's words ("acme corp")
where they spell one of those names (:meth:`CompanyIdentity.names`: "c-foundation" is no name of a
"C++ Foundation"); "+" and "#" stay in a name's words ("C++" is not "C"); matching
is on whole words, case-insensitive, possessives folded ("Acme's" -> "acme"),
and apostrophes inside a name dropped as in its slug ("Let's Encrypt" -> "lets encrypt").
A name in a script written without spaces ("株式会社メルカリ", or "メルカリ" without
its legal form) is found anywhere in the question, since no space marks its ends.

A name given on its own (``--company``, a table row's company cell) is resolved by identity only
(:func:`resolve_company`, cikb.core.identity): the company's slug, display name or a name its own
pages give it, legal form, case and punctuation aside, or a website on its gathered domain; a row whose
website is on another domain than the company's gathered ones is not that company, whatever its name. Sharing a
word is not identity: "X Labs" is not "X", "Acme Robotics" is not "Acme Corp". A question naming
such a lookalike is about another company unless the retrieved text names it too (:func:`unmentioned_names`).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from difflib import SequenceMatcher

from cikb.core.errors import UnknownCompanyError
from cikb.core.identity import NAMING_SYMBOLS, CompanyIdentity, initials, name_keys, site_key
from cikb.core.slug import strip_legal_forms, written_without_spaces
from cikb.retrieve.models import AskedOf, CompanyChoice

# Legal-form words dropped to get the name people actually type.
LEGAL_SUFFIXES = frozenset(
    "inc incorporated corp corporation co company ltd limited llc plc gmbh ag sa se nv bv group holdings fc afc".split()
)
LEGAL_PREFIXES = frozenset({"fc", "afc"})
# Capitalised words that start questions or are everyday business terms, never company names.
NOT_NAMES = frozenset(
    """a an the what who whom whose when where which why how is are was were do does did has have had can could
    should would will may might must shall tell list give show name describe explain compare please i its it their
    they this that
    ceo cfo cto coo cmo ipo hq ai us usa uk eu ok q1 q2 q3 q4 fy""".split()
)
# Words that end one name and start another when they stand inside a capitalised run.
_INNER_BREAKS = frozenset(
    """what who whom whose when where which why how is are was were do does did has have had can could should would
    will may might must shall ceo cfo cto coo cmo""".split()
)
_INNER_DOT = re.compile(r"(?<=\b\w)\.")
_QUALIFIER = re.compile(r"\s*\([^)]*\)")
# Initials that are everyday words: never taken as a company's name.
_COMMON_SHORT_WORDS = frozenset("and are but can did for had has her his how its may not our out she the was who why you all any".split())
_POSSESSIVE = re.compile(r"['’]s\b", re.IGNORECASE)
_APOSTROPHE = re.compile("['’ʼ]")
# "+" and "#" name another thing ("C++", "C#" are not "C"), as in cikb.core.identity.NAMING_SYMBOLS.
_NON_WORD = re.compile(rf"[^\w&{re.escape(NAMING_SYMBOLS)}]+")
# A run of capitalised words (or acronyms), allowing inner "&", "-", "." like "AT&T", "Coca-Cola", "Amazon.com",
# and "+"/"#" like "C++ Foundation", "C#", "Disney+": a name, not "C" followed by "Foundation".
# A word written as a name starts with a capital or holds one after lower-case letters ("eBay", "iRobot", "ownCloud").
_NAME_WORD = rf"(?:[A-Z]|[a-z]+[A-Z])[\w&.\-{re.escape(NAMING_SYMBOLS)}]*"
_CAPITALISED_RUN = re.compile(rf"\b{_NAME_WORD}(?:\s+{_NAME_WORD})*")


def normalize(text: str) -> str:
    """Lower-case words separated by single spaces, possessives and punctuation removed."""
    text = unicodedata.normalize("NFKC", text)
    return " ".join(_NON_WORD.sub(" ", _POSSESSIVE.sub("", text)).lower().split())


def _unpossessive(text: str) -> str:
    """``normalize`` with apostrophes dropped instead of read as possessives: "Let's Encrypt" -> "lets encrypt"."""
    return normalize(_APOSTROPHE.sub("", text))


def name_variants(slug: str, name: str | None) -> set[str]:
    """The normalised ways a question may name a company.

    "Acme Corp" -> {"acme corp", "acme"}; "Sky (United Kingdom)" -> also "sky";
    "Arsenal F.C." -> also "arsenal"; "Central Intelligence Agency" -> also "cia".
    """
    return company_variants(slug, name)


def company_variants(slug: str, name: str | None, aliases: Iterable[str] = ()) -> set[str]:
    """The variants of each name of the company: its display name, each name its own pages give it, and its
    slug's words only where they spell one of those (CompanyIdentity.names, as a name given alone resolves):
    "c foundation" is no name of a "C++ Foundation" kept as c-foundation, but another company's."""
    return set(_company_variants(slug, name, tuple(aliases)))


@functools.lru_cache(maxsize=16384)  # each question is matched against every company: computed once per company
def _company_variants(slug: str, name: str | None, aliases: tuple[str, ...]) -> frozenset[str]:
    slug_words = slug.replace("-", " ")
    variants: set[str] = set()
    for form in CompanyIdentity(slug, name, tuple(aliases)).names():
        variants |= _form_variants(form, acronym=form != slug_words)  # a slug's initials are nobody's name
    return frozenset(variants)


def _form_variants(name: str, acronym: bool = True) -> set[str]:
    """One name's normalised forms: as written, undotted, without a qualifier, apostrophes dropped, legal forms dropped."""
    undotted = _INNER_DOT.sub("", name)  # "F.C." -> "FC", "U.S." -> "US"
    forms = [name, undotted, _QUALIFIER.sub("", undotted)]
    forms += [_APOSTROPHE.sub("", form) for form in forms if _APOSTROPHE.search(form)]  # "Let's" -> "Lets", as the slug
    forms += [strip_legal_forms(unicodedata.normalize("NFKC", name))]  # "株式会社メルカリ" -> "メルカリ"
    variants = set()
    for form in forms:
        words = normalize(form).split()
        if words:
            variants.add(" ".join(words))
        while words and words[-1] in LEGAL_SUFFIXES:
            words = words[:-1]
        while len(words) > 1 and words[0] in LEGAL_PREFIXES:  # "FC Barcelona" -> "barcelona"
            words = words[1:]
        if words:
            variants.add(" ".join(words))
    if acronym:
        variants |= _acronyms(_QUALIFIER.sub("", undotted))
    return variants


def _acronyms(name: str) -> set[str]:
    """Initials of a name of three or more words ("Intergovernmental Panel on Climate Change" -> "ipcc")."""
    spelt, count = initials(normalize(name).split())
    if count >= 3 and spelt.isalpha() and spelt not in _COMMON_SHORT_WORDS:
        return {spelt}
    return set()


def infer_company(question: str, companies: Mapping[str, str | None],
                  aliases: Mapping[str, Iterable[str]] | None = None) -> CompanyChoice:
    """The knowledge-base company the question names (longest match wins), or no filter.

    ``companies`` maps each slug the knowledge base holds to its display name (or None);
    ``aliases`` each slug to the other names its own pages give it ("formerly Acme Widgets").
    """
    texts = {f" {normalize(question)} ", f" {_unpossessive(question)} "}
    best: tuple[int, str, str] | None = None
    for slug, name in sorted(companies.items()):
        for variant in company_variants(slug, name, (aliases or {}).get(slug, ())):
            found = any(
                (variant in text) if len(variant) > 1 and written_without_spaces(variant) else (f" {variant} " in text) for text in texts
            )
            # A name the company writes in lower case ("npm") is written as a name in lower case too.
            rank = (_written_as_a_name(question, variant) or (name or slug) == (name or slug).lower(), len(variant))
            if found and (best is None or rank > best[0]):
                best = (rank, slug, variant)
    if best is None:
        return CompanyChoice(source="none")
    return CompanyChoice(slug=best[1], source="inferred", matched=best[2])


def _written_as_a_name(question: str, variant: str) -> bool:
    """Whether the question writes ``variant`` as a name is written, with a capital or a digit, or in a script without
    case: "What is the notion of privacy at Acme?" names Acme, not a company called Notion (whose name is the longer
    match), while "when was notion founded" still names Notion where nothing else is named. True where the variant is
    not found word for word (a form ``normalize`` made: "lets encrypt")."""
    written = [m.group() for m in _written_forms(unicodedata.normalize("NFKC", question), variant)]
    return not written or any(text != text.lower() or any(c.isdigit() for c in text) or text.lower() == text.upper()
                              for text in written)


def _written_forms(text: str, variant: str) -> Iterator[re.Match[str]]:
    """Where ``text`` writes ``variant``'s words, case aside and any spaces or punctuation between them: as whole words,
    or anywhere for a name in a script written without spaces."""
    pattern = r"\W+".join(map(re.escape, variant.split()))
    if not written_without_spaces(variant):
        pattern = r"(?<!\w)" + pattern + r"(?!\w)"
    return re.finditer(pattern, text, re.IGNORECASE)


# What stands between two company names a question asks the same of: "Acme and Globex", "Acme's, Globex's or
# Initech's", "Acme vs. Globex"; a legal form may end a name first ("Acme, Inc. and Globex").
_LEGAL_FORM = r"(?:\s*,?\s*(?:" + "|".join(sorted(LEGAL_SUFFIXES)) + r")\b\.?)*"
_COORDINATION = re.compile(_LEGAL_FORM + r"(?:['’]s)?\s*(?:,\s*(?:and|or|&)?|and|or|&|vs\.?|versus)\s*", re.IGNORECASE)
# A predicate that relates the names it joins ("Did Acme and Globex merge?", "What do Acme and Globex have in common?"):
# one question about them together, not the same question of each.
_RECIPROCAL = re.compile(r"\b(?:merg\w*|partner\w*|collaborat\w*|compet\w*|rival\w*|sue[sd]?|suing|join(?:ed|s)? forces|"
                         r"team(?:ed|s)? up|between|each other|one another|together|joint(?:ly)?|in common|relat\w*|"
                         r"connect\w*|link\w*|deal|agreement)\b", re.IGNORECASE)


def coordinated_companies(question: str, companies: Mapping[str, str | None],
                          aliases: Mapping[str, Iterable[str]] | None = None) -> list[AskedOf]:
    """The names a question asks the same thing of, when it joins two or more as equals and one of them is a company
    the knowledge base holds ("When were Acme and Globex founded?"), each with the question asked of it alone ("When
    were Acme founded?"); else none. A question relating them ("Did Acme acquire Globex?", "Did Acme and Globex
    merge?") stays one question (:func:`infer_company`); so does one naming a company twice."""
    text = unicodedata.normalize("NFKC", question)
    if _RECIPROCAL.search(text):
        return []
    mentions = _mentions(text, companies, aliases or {})
    slugs = [slug for _, _, slug in mentions if slug is not None]
    if len(mentions) < 2 or not slugs or len(set(slugs)) < len(slugs):
        return []
    if not all(_COORDINATION.fullmatch(text[end:start]) for (_, end, _), (start, _, _) in zip(mentions, mentions[1:])):
        return []
    first, last = mentions[0][0], mentions[-1][1]
    return [AskedOf(slug=slug, name=text[start:end], question=text[:first] + text[start:end] + text[last:])
            for start, end, slug in mentions]


def _mentions(text: str, companies: Mapping[str, str | None],
              aliases: Mapping[str, Iterable[str]]) -> list[tuple[int, int, str | None]]:
    """Where ``text`` names each company, (start, end, slug) in order, the longer of two overlapping names kept; and
    the names it writes as names that are none of them (slug None: "Initech" in "When were Acme and Initech founded?",
    "Acme Robotics" with an Acme Corp held)."""
    found: list[tuple[int, int, str | None]] = []
    words = set(normalize(text).split()) | set(_unpossessive(text).split())
    for slug, name in sorted(companies.items()):
        for variant in company_variants(slug, name, aliases.get(slug, ())):
            if not written_without_spaces(variant) and variant.split()[0] not in words:
                continue  # most companies: not named at all (a set lookup, not a regex)
            found += [(m.start(), m.end(), slug) for m in _written_forms(text, variant)]
    kept: list[tuple[int, int, str | None]] = []
    for start, end, slug in sorted(found, key=lambda m: (m[0], m[0] - m[1])):
        if not kept or start >= kept[-1][1]:
            kept.append((start, end, slug))
    at = 0
    for name in candidate_names(text):
        start = text.find(name, at)
        if start < 0 or not _without_legal_suffixes(normalize(name).split()):  # "Inc." after "Acme Corp,"
            continue
        at = end = start + len(name)
        if not any(s <= start and end <= e for s, e, _ in kept):
            # A name that holds a company's and more ("Acme Robotics") is no company of the knowledge base.
            kept = [(s, e, slug) for s, e, slug in kept if not (s < end and start < e)] + [(start, end, None)]
    return sorted(kept)


def resolve_company(text: str, companies: Mapping[str, CompanyIdentity], website: str | None = None) -> str | None:
    """The slug of the one company ``text`` (a slug or a name) and ``website`` identify, or None.

    By the slug itself, else by name (:func:`cikb.core.identity.name_keys` meeting the company's:
    "ACME Corp." is Acme Corp, "Acme Robotics" is not), else by the website's registered domain.
    When a name fits two companies (an "Acme" and an "Acme Corp" gathered apart), the website
    decides, then the exact name; else it is no company: a guess would give one company's facts
    to the other. A website on another domain than all the company's gathered ones says the row is
    another company of that name (two "Nimbus"), which the knowledge base does not hold.
    """
    text = " ".join((text or "").split())
    by_name = [text] if text in companies else companies_named(text, companies)
    # A website on none of a company's gathered domains is another company of that name (a second "Nimbus").
    by_name = [slug for slug in by_name if not companies[slug].gathered_elsewhere_than(website or "")]
    if text in by_name:
        return text
    site = site_key(website or "")
    by_site = [slug for slug, identity in sorted(companies.items()) if site and site in identity.sites()]
    if len(by_name) == 1:
        return by_name[0]
    if by_name:
        both = [slug for slug in by_name if slug in by_site]
        # A company's own name before another's alias for it: two sites may both claim a name.
        own = [slug for slug in by_name if normalize(text) in {normalize(companies[slug].name or ""), normalize(slug)}]
        exact = own or [slug for slug in by_name if normalize(text) in {normalize(n) for n in companies[slug].names()}]
        chosen = both if len(both) == 1 else exact
        return chosen[0] if len(chosen) == 1 else None
    return by_site[0] if len(by_site) == 1 else None


def require_company(text: str, companies: Mapping[str, CompanyIdentity]) -> str:
    """The slug of the company ``text`` (a slug or a name) identifies; UnknownCompanyError otherwise, in one line
    naming the companies the name fits or the nearest ones (the line `--company` gives, Retriever.require_company)."""
    slug = resolve_company(text, companies)
    if slug is not None:
        return slug
    if not companies:
        raise UnknownCompanyError(f"no company {text!r} in the knowledge base: it is empty (gather one with `cikb gather`)")
    named = companies_named(text, companies)
    if len(named) > 1:  # not "no company": several answer to the name, and none is it more than the others
        which = ", ".join(companies[slug].label() for slug in named)
        raise UnknownCompanyError(f"{text!r} names {len(named)} companies of the knowledge base: {which}; give one's slug")
    nearest = ", ".join(identity.label() for identity in nearest_companies(text, companies))
    raise UnknownCompanyError(f"no company {text!r} in the knowledge base; nearest: {nearest} (see `cikb companies`)")


def companies_named(text: str, companies: Mapping[str, CompanyIdentity]) -> list[str]:
    """The slugs of the companies ``text`` names by identity (name keys that meet), in slug order."""
    keys = name_keys(" ".join((text or "").split())) if text else frozenset()
    return [slug for slug, identity in sorted(companies.items()) if keys & identity.keys()]


def nearest_companies(text: str, companies: Mapping[str, CompanyIdentity], limit: int = 3) -> list[CompanyIdentity]:
    """The companies whose names look most like ``text`` (for an error line), best first.

    By difflib's ratio between the name's key and each of the company's, a shared word counting
    as half a match: "x-labs" is nearest to X, though it is not X.
    """
    asked = name_keys(text) or {normalize(text)}
    asked_words = {w for key in asked for w in key.split()}

    def likeness(identity: CompanyIdentity) -> float:
        keys = identity.keys()
        ratio = max((SequenceMatcher(None, a, k).ratio() for a in asked for k in keys), default=0.0)
        shared = bool(asked_words & {w for k in keys for w in k.split()})
        return ratio + (0.5 if shared else 0.0)

    ranked = sorted(companies.values(), key=lambda identity: (-likeness(identity), identity.slug))
    return ranked[:limit]


def candidate_names(question: str) -> list[str]:
    """Capitalised word runs of the question that could name a company or a person ("Globex", "Jane Doe").

    A run is also cut at a question word or a role inside it: "Acme Corp CEO Jane Doe" names
    "Acme Corp" and "Jane Doe", not one "Acme Corp CEO Jane Doe" (while "Scale AI" stays one name).
    """
    names = []
    for match in _CAPITALISED_RUN.finditer(question):
        words = [w.strip(".-") for w in match.group().split()]
        run: list[str] = []
        for word in [*words, ""]:
            if word and _singular(word).lower() not in _INNER_BREAKS:
                run.append(word)
                continue
            while run and _singular(run[0]).lower() in NOT_NAMES:  # "What", "Does", "CEO", "CEOs"...
                run = run[1:]
            while run and _singular(run[-1]).lower() in NOT_NAMES:
                run = run[:-1]
            if run:
                names.append(" ".join(run))
            run = []
    return names


def _singular(word: str) -> str:
    """An acronym's plural as the acronym ("CEOs" -> "CEO", "IPOs" -> "IPO"); any other word as it is."""
    return word[:-1] if len(word) > 2 and word.endswith("s") and word[:-1].isupper() else word


def unmentioned_names(question: str, texts: Iterable[str], known: Iterable[str] = ()) -> list[str]:
    """Names in the question that none of ``texts`` mentions: the question is about something else.

    ``known`` are normalised names already accounted for (the inferred company's variants):
    they are taken out of each candidate first, so "Acme Corporation" passes when "Acme" was matched.
    A name that holds a known one and more ("Acme Robotics" when Acme Corp was matched) is another
    company's until the texts name it whole: that they mention "robotics" somewhere is not enough.
    """
    haystack = f" {normalize(' '.join(texts))} "
    variants = sorted(known, key=len, reverse=True)
    missing = []
    for name in candidate_names(question):
        whole = f" {normalize(name)} "
        rest = whole
        for variant in variants:
            rest = rest.replace(f" {variant} ", " ")
        words = _without_legal_suffixes(rest.split())
        if not words:
            continue
        wanted = " ".join(_without_legal_suffixes(whole.split())) if rest != whole else " ".join(words)
        if f" {wanted} " not in haystack:
            missing.append(name)
    return missing


def _without_legal_suffixes(words: list[str]) -> list[str]:
    return [w for w in words if w not in LEGAL_SUFFIXES]
