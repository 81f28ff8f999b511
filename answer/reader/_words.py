"""The words the reader reads: tokens and their Snowball stems (the stems BM25 uses), the sentences of a
passage (:func:`split_sentences`), each sentence as the reader reads it (:func:`plain`), and the word lists
and date patterns the question, the subject and the spans share."""

from __future__ import annotations

import re
from functools import cache, lru_cache

from cikb.answer.entities import irregular_base
from cikb.core import sentences as sentence_splitter
from cikb.core.vocabulary import CHIEF_TITLES, OFFICE_WORD as _OFFICE_WORD
from breame.spelling import get_american_spelling
from py_rust_stemmers import SnowballStemmer

MIN_WORDS = 4  # a shorter piece of prose ("Read more", a lone label) is no sentence to weigh

_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9&'’\-]*")

# Legal forms a name may carry (American, British and European): "Acme GmbH", "Acme B.V.", "Acme Lda." are Acme.
# The verbs that link a subject to what it is ("Our main product is Basecamp", "What is the annual revenue ...").
COPULAS = frozenset("is was are were as became becomes remains remained".split())
LEGAL_SUFFIXES = frozenset({"inc", "ltd", "llc", "corp", "plc", "co", "gmbh", "ag", "sa", "limited", "corporation",
                            "bv", "nv", "sas", "sarl", "srl", "spa", "lda", "sl", "slu", "oy", "ab", "aps", "asa", "kg",
                            "ug", "se", "bvba", "sprl", "pty", "pte", "ev", "ggmbh", "oü", "oyj", "sro", "kft", "zrt",
                            "doo"})  # e.V.: a German association; OÜ: Estonian; s.r.o.: Czech, Slovak; Kft.: Hungarian

# Words Snowball merges with a different word: "can be found" is not "founded", "the club's form" is not "formed",
# "our contracting officer" is not an office.
_STEM_EXCEPTIONS = {"found": "find", "form": "form-noun", "forms": "form-noun", "officer": "officer",
                    "officers": "officer"}


@cache
def _stemmer() -> SnowballStemmer:
    return SnowballStemmer("english")


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A word's Snowball stem (the stems BM25 uses), lowercased, of its American spelling ("licence" and "license"
    are one word); 'found' alone is the past of 'find'."""
    lower = word.lower().strip("'’").replace("’", "'")
    if lower.endswith("'s"):
        lower = lower[:-2]
    return _STEM_EXCEPTIONS.get(lower) or _stemmer().stem_word(get_american_spelling(lower))


def tokens_of(text: str) -> list[tuple[str, int, int]]:
    return [(m.group(), m.start(), m.end()) for m in _WORD.finditer(text)]


# Determiners before which "own" is the adjective ("our own servers"), never the verb a question asks by it.
_POSSESSIVES = frozenset("my your his her its our their one's".split())


def stems_in(text: str) -> set[str]:
    """The stems of every word of ``text`` (:func:`stems_of`). "Own" as an adjective ("our own servers", "our first
    own-brand phone") holds no stem "own": a question keeps that stem only for the verb ("Who owns Acme?"), and the
    adjective says nothing of who owns what."""
    words = [w for w, _, _ in tokens_of(text)]
    stems = set().union(*(stems_of(w) for w in words))
    if "own" in stems and all(_own_adjective(w, words[i - 1] if i else "") for i, w in enumerate(words)
                              if "own" in stems_of(w)):
        stems.discard("own")
    return stems


def _own_adjective(word: str, before: str) -> bool:
    lower = word.lower()
    return lower.startswith("own-") or (lower == "own" and before.lower().replace("’", "'") in _POSSESSIVES)


@lru_cache(maxsize=65536)
def stems_of(word: str) -> frozenset[str]:
    """The stems of a word and of its hyphenated parts ("co-founded" -> co-found, co, found), and of the base of an
    irregular verb form ("went" -> go)."""
    stems = {stem(word)}
    base = irregular_base(word) if word.isalpha() else None
    if base:
        stems.add(stem(base))
    if "-" in word:
        stems.update(stem(part) for part in word.split("-") if part)
    return frozenset(stems)


def split_sentences(markdown: str) -> list[str]:
    """The sentences the reader weighs: prose of four words or more (the one splitter, cikb.core.sentences)."""
    return sentence_splitter.split_sentences(markdown, min_words=MIN_WORDS)


# Registry and tax identifiers a company is known by, each under the names it is written with (its acronym and in
# full; US and European registries): "UEI: F1QZXZNLZJF2" answers "What is its unique entity identifier?".
IDENTIFIER_NAMES: tuple[tuple[str, ...], ...] = (
    ("ein", "employer identification number", "federal tax id", "tax id", "tax identification number", "fein",
     "tax number"),
    ("duns", "d-u-n-s", "duns number"),
    ("uei", "unique entity identifier", "unique entity id"),
    ("cage code",),
    ("lei", "legal entity identifier"),
    ("vat number", "vat id", "vat identification number", "vat registration number"),
    ("company number", "company registration number", "registration number", "registered number",
     "commercial register number", "commercial register", "register number", "registry number", "corporation number",
     "incorporation number", "organisation number", "organization number", "corporate identity number",
     "uen", "unique entity number", "file number", "registry code", "business id", "y-tunnus", "cvr number",
     "cro number"),  # Sweden's organisation number, Singapore's UEN, Delaware's file number, Estonia's registry code,
    # Finland's Business ID (Y-tunnus), Denmark's CVR number, Ireland's CRO number: the register's own numbers
    ("kvk number", "kvk", "chamber of commerce number"),
    ("charity number", "registered charity number", "charity registration number"),  # the Charity Commission's
    ("siren",), ("siret",), ("eori", "eori number"), ("abn", "australian business number"),
    # Canada's business number and the GST/HST account under it ("123456789 RT0001"), Australia's and New
    # Zealand's GST numbers
    ("business number",), ("gst number", "gst/hst number", "hst number", "gst registration number",
                           "gst/hst registration number"),
    ("isin",), ("cik", "central index key"),
)
IDENTIFIER_NAME = "|".join(sorted((re.escape(n) for names in IDENTIFIER_NAMES for n in names), key=len, reverse=True))
# The code an identifier's name labels: capitals and digits, at least one digit, hyphens, dots or slashes within
# ("92-3333630", "F1QZXZNLZJF2"), after a register's letters ("HRB 230086"), and with the court's letter after it
# where a line or clause ends there ("VR 37779 B", "HRB 12345 B" in Berlin), or a Canadian program account after the
# business number ("123456789 RT0001").
IDENTIFIER_CODE = (r"(?:[A-Z]{2,4}\s)?[A-Z0-9](?:[A-Z0-9./-]|\s(?=\d{3})|(?<=\d{3})\s(?=\d{2}(?![\w-])(?!\s\w))"
                   r"|(?<=\d)\s(?=R[CMPRTZ]\d{4}(?![\w-])))*"
                   r"[A-Z0-9](?![\w-])"
                   r"(?:\s[A-Z](?=\s*(?:$|[.,;)])))?")
# An identifier in brackets after a name is no aside: "Acme, Inc. (EIN 12-3456789) is ...".
_BRACKETED_IDENTIFIER = re.compile(rf"\s*\(((?i:{IDENTIFIER_NAME})(?:\s*(?i:number|no\.))?[\s:#]*{IDENTIFIER_CODE})\)")

# An aside opens after a space; a parenthesis inside a word is part of it ("501(c)(3)", "Yahoo!(R)"), and so is
# one of digits only: the area or trunk code of a phone number ("+1 (415) 555-0100", "+31 (0)20 ..."), and an
# identifier's name, which names the code after it ("Chamber of Commerce Registration (KvK): 93645546").
_PARENTHESIS = re.compile(rf"(?:\s+|^)\((?![\d\s]+\))(?!\s*(?i:{IDENTIFIER_NAME})\s*\))[^()]*\)")
# ", which was originally founded in 1888" describes the noun before it, not the sentence's subject.
# A clause ends at a comma, semicolon or full stop, but not at one inside a number (", which costs €2.17 per month").
_CLAUSE_TEXT = r"(?:[^,;.]|(?<=\d)[.,](?=\d))*"
_RELATIVE_CLAUSE = re.compile(r",\s+(?:which|who|whose)\b" + _CLAUSE_TEXT
                              + r"|\s+(?:that|which|who)\s+(?:had |has |have )?(?:been|was|were)\b" + _CLAUSE_TEXT)
# Unless the noun is what the sentence says its subject is: "Acme is a nonprofit that was founded in 2021" says when
# Acme was founded (the sentence opens on its subject, then "is a" and a noun of at most four words).
_CLASSIFIED = re.compile(r"^[^,;:]*?\b(?:is|was|are|were)\s+(?:a|an)\s+(?:\S+\s+){0,3}\S+$")
# Only a company has a registered office: ", whose registered office is at ..." is the company's, however long the
# description before it ("a company registered in England under number 01234567, whose registered office is ...").
_OF_A_COMPANY = re.compile(r",\s+whose\s+registered\s+(?:office|address)\b", re.I)
# ", created by Victor Lardent at Monotype" and ", headquartered in San Jose" describe the noun before them,
# unless that noun is the subject ("The University, founded in 1890, is ...").
_REDUCED_RELATIVE = re.compile(r",\s+(?:created|founded|established|formed|built|designed|developed|launched|started|owned|"
                               r"headquartered|based|located)"
                               r"\s+(?:by|in|on|at)\b" + _CLAUSE_TEXT)


def _names_only(text: str) -> bool:
    """Only a name before this point: 'The University of Chicago', 'Acme Corp.'."""
    words = [w for w, _, _ in tokens_of(text)]
    return bool(words) and all(w[0].isupper() or w.lower() in ("of", "and", "the", "&") for w in words)


# Phrases the reader reads in other words: those that look like a founding and are not, and a price said to be the
# lowest in other words than "cheapest", the word questions ask it by.
_REWORDINGS = [
    (re.compile(r"\b(?:found(?:ing|er)|charter)\s+(members?|clubs?|partners?|signator(?:y|ies))\b", re.I), r"charter \1"),
    (re.compile(r"\bincorporated\s+(into|with)\b", re.I), r"merged \1"),
    (re.compile(r"\bbased\s+(on|upon)\b", re.I), r"drawn \1"),  # "based on the Latham Loop" is no location
    (re.compile(r"\bset\s+up\b", re.I), "set-up"),
    (re.compile(r"\bform(?:s|ed|ing)?\s+(?:a\s+|an\s+|the\s+)?(part|basis|backbone|core)\b", re.I), r"made \1"),
    (re.compile(r"\b(?:well[- ])?established\s+(broadcast|networks?|brands?|players?|teams?|firms?|companies|practices?|procedures?)\b", re.I), r"older \1"),
    # "the least expensive device", "the most affordable way to run it"
    (re.compile(r"\b(?:least\s+(?:expensive|costly)|most\s+(?:affordable|economical|inexpensive)|lowest[- ]priced)\b",
                re.I), "cheapest"),
]


# C-suite titles in full are their acronyms: "Chief Financial Officer" is the CFO, never the CEO ("chief"). A title
# with no common acronym ("Chief Growth Officer", "Chief Customer Experience Officer") is its office without "Chief".
_CHIEF_OFFICER = re.compile(r"\bchief\s+((?:[a-z&-]+\s+){0,2}?[a-z-]+)\s+officer\b", re.I)
# A title in brackets after a name is no aside: "Jane Smith (CEO) and Raj Patel (CTO)", "Jo Lee (Chief of Staff)",
# "Sam Park (Head of Engineering)": a phrase of a few words, without digits, that holds a word of an office
# (Not one set in the past or at another body: "(formerly Head of Sales at Globex)" stays an aside.)
_BRACKETED_TITLE = re.compile(rf"\s*\((?![^()]*\b(?:formerly|previously|former|ex|at)\b)"
                              rf"((?:[A-Za-z&/-]+\s+){{0,4}}?{_OFFICE_WORD}(?:\s+[A-Za-z&/-]+){{0,4}}?)\)", re.I)

# A name in parentheses after a personal pronoun says who the pronoun is, not an aside: "I (Jane Roe) am the CEO".
_BRACKETED_NAME_OF_PRONOUN = re.compile(
    r"\b(I|[Ww]e|[Hh]e|[Ss]he)\s+\(([A-Z][\w.'’-]*(?:\s+[A-Z][\w.'’-]*){0,3})\)")
# So does a full name in parentheses after an office: "the CEO (Jane Roe) and CFO (John Doe) approve it".
_BRACKETED_NAME_OF_OFFICE = re.compile(
    rf"\b((?i:{_OFFICE_WORD}))\s+\(([A-Z][\w.'’-]*(?:\s+[A-Z][\w.'’-]*){{1,3}})\)")


def short_titles(text: str) -> str:
    """C-suite titles written in full as their acronyms ("Chief Financial Officer" -> "CFO"): a question and the
    sentences it is matched to are read in the same words."""
    return _CHIEF_OFFICER.sub(_short_title, text)


def _short_title(match: re.Match[str]) -> str:
    office = match.group(1)
    acronym = CHIEF_TITLES.get(office.lower())
    return acronym.upper() if acronym else f"{office} {match.group()[-7:]}"  # "Growth Officer", as written


def plain(sentence: str) -> str:
    """The sentence as the reader reads it: asides in parentheses and relative clauses dropped (they are about
    something else: "its sister paper (founded in 1821)"), look-alike phrases ("founding member of") reworded, a
    price said to be the lowest in other words ("least expensive") said as "cheapest"."""
    text = _imprint_label_in_english(_LINE_SEPARATOR.sub(", ", sentence))
    text = _BRACKETED_TITLE.sub(r", \1,", text)
    text = _BRACKETED_NAME_OF_PRONOUN.sub(r"\1, \2,", text)
    text = _BRACKETED_NAME_OF_OFFICE.sub(r"\1, \2,", text)
    text = _BRACKETED_IDENTIFIER.sub(r", \1,", text)
    text = short_titles(text)
    text = _PARENTHESIS.sub("", text)
    text = _RELATIVE_CLAUSE.sub(lambda m: m.group() if _CLASSIFIED.search(text[:m.start()])
                                or _OF_A_COMPANY.match(m.group()) else "", text)
    text = _REDUCED_RELATIVE.sub(lambda m: m.group() if _names_only(text[:m.start()]) else "", text)
    for pattern, replacement in _REWORDINGS:
        text = pattern.sub(replacement, text)
    return seat_as_headquarters(text)


# A footer's or a card's separator between the items of one line: "Acme LLC · 1 Main St · Springfield" lists them.
# (Not "|": a table's cells and a breadcrumb's steps are no one line of items.)
_LINE_SEPARATOR = re.compile(r"\s+[·•]\s+")

# The labels of a German-language imprint (Impressum), which German, Austrian and Swiss companies must publish
# (§ 5 DDG, § 25 MedienG, Art. 3 UWG), in the English words a question uses.
_IMPRINT_LABELS = {
    "firmenname": "Company name", "firma": "Company name", "anschrift": "Address", "adresse": "Address",
    "postanschrift": "Postal address", "sitz": "Registered office", "sitz der gesellschaft": "Registered office",
    "handelsregister": "Commercial register", "registernummer": "Commercial register number",
    "handelsregisternummer": "Commercial register number", "registergericht": "Register court",
    "ust-id": "VAT identification number", "ust-idnr": "VAT identification number",
    "umsatzsteuer-id": "VAT identification number", "umsatzsteuer-identifikationsnummer": "VAT identification number",
    "vertretungsberechtigt": "Managing directors", "vertretungsberechtigte": "Managing directors",
    "vertreten durch": "Managing directors", "geschäftsführer": "Managing directors",
    "geschäftsführung": "Managing directors", "telefon": "Phone", "kontakt": "Contact",
}
_IMPRINT_LABEL = re.compile(r"^(\W*)([A-Za-zÄÖÜäöüß .\-]{3,40}?)\.?:\s+")


def _imprint_label_in_english(sentence: str) -> str:
    """"Handelsregister: HRB 230086 B" -> "Commercial register: HRB 230086 B"; any other line as it is."""
    match = _IMPRINT_LABEL.match(sentence)
    english = _IMPRINT_LABELS.get(match.group(2).strip().lower()) if match else None
    return f"{match.group(1)}{english}: {sentence[match.end():]}" if english else sentence


# What filings and legal pages call a company's seat: read as its headquarters ("registered business address" too;
# a registered agent's office is the agent's).
_SEAT = re.compile(r"\b(?:principal\s+place\s+of\s+business|principal\s+(?:executive\s+)?offices?"
                   r"|registered\s+(?:(?!agent\b)[a-z]+\s+)?(?:office|address)|head\s+office)\b", re.I)


def seat_as_headquarters(text: str) -> str:
    """"registered office", "principal place of business" -> "headquarters": a question and the sentences it is
    matched to are read in the same words. A "registered address" is still an address: "headquarters address"."""
    return _SEAT.sub(_as_headquarters, text)


def _as_headquarters(match: re.Match[str]) -> str:
    said = "headquarters address" if match.group().lower().endswith("address") else "headquarters"
    return said.capitalize() if match.group()[0].isupper() else said  # "Registered office: ..." is still a label


# Deeds and the deeds that undo them, in the words English says them in (a phrasal verb with its particle). A
# sentence that tells only the undoing ("Acme closed its Berlin office in 2022", "Jane Roe stepped down as CEO in
# 2020") does not say when or how the deed was done ("When did Acme open its Berlin office?", "When did Jane Roe
# become CEO?"). Each pair reads both ways: asked when it closed, the opening is no answer either.
_UNDOINGS = (
    ("open", "close shut shutter|shut down|wind down"),
    ("join enter", "leave quit exit depart withdraw resign retire|step down|pull out"),
    ("become appoint name elect promote hire recruit", "leave quit depart resign retire dismiss fire oust"
     "|step down|lay off"),
    ("start begin launch introduce enable add resume founded establish",
     "stop end cease discontinue retire drop halt sunset terminate disable remove suspend abandon dissolve close"
     "|shut down|wind down|phase out"),
    ("raise increase grow rise expand", "lower reduce cut decrease fall drop decline shrink"),
    ("gain win", "lose"),
    ("sign", "terminate cancel"),
)


# Deeds that change how many there are, by the count they take ("hired 20 employees", "lost 500 customers"; not a
# tally, as "has won five titles" or "has acquired three companies" may be), and
# verbs of a level that changes by an amount ("revenue fell by $2 million"): the count or amount of the change, not
# how many there are or how much it is.
_CHANGES = "hire recruit add gain lose cut shed welcome sign onboard attract|lay off"
_LEVEL_CHANGES = "rise grow increase expand climb jump fall drop decline decrease shrink"


def _verb_keys(words: str) -> frozenset[str]:
    """"close shut|shut down" -> the stems of each verb, a phrasal one as its stem and particle ("shut down")."""
    single, *phrasal = words.split("|")
    return frozenset({stem(w) for w in single.split()} | {f"{stem(p.split()[0])} {p.split()[1]}" for p in phrasal})


@cache
def undoings() -> dict[str, frozenset[str]]:
    """Each deed's stem, and each undoing's, with the verb keys (:func:`_verb_keys`) of what undoes it."""
    found: dict[str, set[str]] = {}
    for deeds, undone in _UNDOINGS:
        deed_keys, undoing_keys = _verb_keys(deeds), _verb_keys(undone)
        for key in deed_keys:
            found.setdefault(key, set()).update(undoing_keys)
        for key in undoing_keys:
            found.setdefault(key, set()).update(deed_keys)
    return {key: frozenset(keys) for key, keys in found.items()}


@cache
def changes() -> tuple[frozenset[str], frozenset[str]]:
    """The verb keys (:func:`_verb_keys`) of the deeds that change a count, and of a level's change."""
    return _verb_keys(_CHANGES), _verb_keys(_LEVEL_CHANGES)


# Nouns an organisation names itself by: "the company", "this firm's", "The club has".
SELF_NOUNS = frozenset(
    """company firm club organisation organization group network museum institute university college paper newspaper
    league agency corporation society team studio studios party fund foundation nonprofit non-profit charity
    association bank school startup business competition broadcaster channel station publisher brand chain retailer
    manufacturer maker operator provider body authority institution academy service platform""".split()
)

# Years and dates as written: "2013", "May 24, 2013", "24 May 2013", "September 2015", "2013-05-24".
MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"

# A postal address in the forms most countries outside the US write it: the street before its number (a letter may
# follow it) and the postcode before its town ("Hafenstraße 12, 20457 Hamburg", "Rheinstraße 10 C, 14513 Teltow",
# "Oudegracht 45 3511 AB Utrecht", "Rua Augusta 12, 1100-053 Lisboa", the Swedish, Czech and Greek "Storgatan 4, SE –
# 212 22 Malmö"), or the number first ("12 rue de la Paix, 75002 Paris").
_STREET_THEN_NUMBER = (r"(?:(?:[A-ZÀ-Þ][\w'’.\-]*|de|del|della|la|da|do|dos|das|van|von|der|di|du|des|le)\s+){0,5}"
                       rf"(?!(?:{MONTHS}|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)\b)[A-Za-zÀ-ÿß][\w'’.\-]*"
                       r"\s+\d{1,4}(?:\s?[a-zA-Z](?!\w))?(?:\s?[-/]\s?\d{1,4}[a-zA-Z]?)?")
_NUMBER_THEN_STREET = r"\d{1,4}(?:\s?(?:bis|ter))?,?\s+(?:[Rr]ue|[Aa]venue|[Bb]oulevard|[Pp]lace|[Qq]uai|[Cc]hemin|[Aa]llée|[Cc]ours|[Rr]oute)\s+[^,\n\d]{2,40}?"
_POSTCODE_TOWN = r"(?:[A-Z]{1,2}(?:-|\s?–\s?)?)?(?:\d{4,5}|\d{3}\s\d{2})(?:-\d{3,4})?" + \
    r"(?:\s?[A-Z]{2}(?=\s))?\s+[A-ZÀ-Þ][\w'’\-]+(?:(?:-|\s(?!The\b))[A-ZÀ-Þ][\w'’\-]+)?"
POSTAL_RE = re.compile(rf"\b(?:{_STREET_THEN_NUMBER}|{_NUMBER_THEN_STREET}),?\s+{_POSTCODE_TOWN}")
_MONTH = sentence_splitter.MONTH_PATTERN
_YEAR = r"(?:1[5-9]\d\d|20\d\d)"
YEAR_RE = re.compile(rf"(?<![\d$€£.,/-]){_YEAR}(?![\d%/])")
DATE_RE = re.compile(
    rf"\b(?:{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+{_YEAR}"
    rf"|\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH},?\s+{_YEAR}"
    rf"|{_MONTH}\s+(?:of\s+)?{_YEAR}"
    rf"|{_YEAR}-\d\d-\d\d)\b"
)
