"""Which company a question is about (spec R2), and whether it names one the knowledge base lacks (R3).

A company is named in a question by its display name ("Acme Corp"), that name
without its legal suffix ("Acme"), or its slug's words ("acme corp"); matching
is on whole words, case-insensitive, possessives folded ("Acme's" -> "acme"),
and apostrophes inside a name dropped as in its slug ("Let's Encrypt" -> "lets encrypt").
A name in a script written without spaces ("株式会社メルカリ", or "メルカリ" without
its legal form) is found anywhere in the question, since no space marks its ends.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping

from cikb.core.slug import strip_legal_forms, written_without_spaces
from cikb.retrieve.models import CompanyChoice

# Legal-form words dropped to get the name people actually type.
LEGAL_SUFFIXES = frozenset(
    "inc incorporated corp corporation co company ltd limited llc plc gmbh ag sa se nv bv group holdings fc afc".split()
)
LEGAL_PREFIXES = frozenset({"fc", "afc"})
# Capitalised words that start questions or are everyday business terms, never company names.
NOT_NAMES = frozenset(
    """a an the what who whom whose when where which why how is are was were do does did can could
    should would will tell list give show name describe explain please i its it their they this that
    ceo cfo cto coo cmo ipo hq ai us usa uk eu ok q1 q2 q3 q4 fy""".split()
)
_INNER_DOT = re.compile(r"(?<=\b\w)\.")
_QUALIFIER = re.compile(r"\s*\([^)]*\)")
_ACRONYM_SKIP = frozenset("of and the on for in at to de".split())
# Initials that are everyday words: never taken as a company's name.
_COMMON_SHORT_WORDS = frozenset("and are but can did for had has her his how its may not our out she the was who why you all any".split())
_POSSESSIVE = re.compile(r"['’]s\b", re.IGNORECASE)
_APOSTROPHE = re.compile("['’ʼ]")
_NON_WORD = re.compile(r"[^\w&]+")
# A run of capitalised words (or acronyms), allowing inner "&", "-", "." like "AT&T", "Coca-Cola", "Amazon.com".
_CAPITALISED_RUN = re.compile(r"\b[A-Z][\w&.\-]*(?:\s+[A-Z][\w&.\-]*)*")


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
    forms = [slug.replace("-", " ")]
    if name:
        undotted = _INNER_DOT.sub("", name)  # "F.C." -> "FC", "U.S." -> "US"
        forms += [name, undotted, _QUALIFIER.sub("", undotted)]
        forms += [_APOSTROPHE.sub("", form) for form in forms[1:] if _APOSTROPHE.search(form)]  # "Let's" -> "Lets", as the slug
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
    if name:
        variants |= _acronyms(_QUALIFIER.sub("", _INNER_DOT.sub("", name)))
    return variants


def _acronyms(name: str) -> set[str]:
    """Initials of a name of three or more words ("Intergovernmental Panel on Climate Change" -> "ipcc")."""
    words = [w for w in normalize(name).split() if w not in _ACRONYM_SKIP]
    initials = "".join(w[0] for w in words)
    if len(words) >= 3 and initials.isalpha() and initials not in _COMMON_SHORT_WORDS:
        return {initials}
    return set()


def infer_company(question: str, companies: Mapping[str, str | None]) -> CompanyChoice:
    """The knowledge-base company the question names (longest match wins), or no filter.

    ``companies`` maps each slug the knowledge base holds to its display name (or None).
    """
    texts = {f" {normalize(question)} ", f" {_unpossessive(question)} "}
    best: tuple[int, str, str] | None = None
    for slug, name in sorted(companies.items()):
        for variant in name_variants(slug, name):
            found = any(
                (variant in text) if len(variant) > 1 and written_without_spaces(variant) else (f" {variant} " in text) for text in texts
            )
            if found and (best is None or len(variant) > best[0]):
                best = (len(variant), slug, variant)
    if best is None:
        return CompanyChoice(source="none")
    return CompanyChoice(slug=best[1], source="inferred", matched=best[2])


def candidate_names(question: str) -> list[str]:
    """Capitalised word runs of the question that could name a company or a person ("Globex", "Jane Doe")."""
    names = []
    for match in _CAPITALISED_RUN.finditer(question):
        words = [w.strip(".-") for w in match.group().split()]
        while words and words[0].lower() in NOT_NAMES:  # "What", "Does", "CEO"...
            words = words[1:]
        while words and words[-1].lower() in NOT_NAMES:
            words = words[:-1]
        if words:
            names.append(" ".join(words))
    return names


def unmentioned_names(question: str, texts: Iterable[str], known: Iterable[str] = ()) -> list[str]:
    """Names in the question that none of ``texts`` mentions: the question is about something else.

    ``known`` are normalised names already accounted for (the inferred company's variants):
    they are taken out of each candidate first, so "Acme Corporation" passes when "Acme" was matched.
    """
    haystack = f" {normalize(' '.join(texts))} "
    variants = sorted(known, key=len, reverse=True)
    missing = []
    for name in candidate_names(question):
        rest = f" {normalize(name)} "
        for variant in variants:
            rest = rest.replace(f" {variant} ", " ")
        words = [w for w in rest.split() if w not in LEGAL_SUFFIXES]
        if words and f" {' '.join(words)} " not in haystack:
            missing.append(name)
    return missing
