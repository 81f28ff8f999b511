"""Typed spans: the values of the kind a question asks for in a sentence (:func:`spans`). Dates are validated
and normalised with ``dateparser``, money read with ``price-parser``, numbers written as words with
``number-parser``, phone numbers with ``phonenumbers``, names and places from capitalisation and the words
around them; a name's side of a directed predicate says whether it acquired or was acquired. The entity
recogniser's people, organisations and places (:mod:`cikb.answer.entities`) are candidates too."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import cache, lru_cache
from typing import Literal
from urllib.parse import urlsplit

from cikb.answer.entities import (
    KIND_LABELS, RoleStatement, asked_noun, asked_party, entities, instances_named, modifies_a_noun, named_noun,
    named_parties, patients, relation_holders, relation_statements, role_statements, set_apart_from_the_role,
    stranded_preposition,
)
from cikb.core.vocabulary import CHIEF_TITLES, match_weight, relation
from cikb.embed.bm25 import english_stopwords
from dateparser.date import DateDataParser
import phonenumbers
import regex
from number_parser import parse_number
from price_parser import Price
from cikb.answer.reader._words import (
    COPULAS, DATE_RE, IDENTIFIER_CODE, IDENTIFIER_NAMES, LEGAL_SUFFIXES, MONTHS, POSTAL_RE, YEAR_RE, stem, stems_of,
    tokens_of,
)
from cikb.answer.reader._licence import licences
from cikb.answer.reader._question import DIRECTED_STEMS, PASSIVE, Question, asks_present, bare, is_own, term_word
from cikb.answer.reader._subject import GENERIC_NAME_WORDS, mentions_subject, owned_by_subject
from cikb.core.contacts import AT as _AT, DOT as _DOT, EMAIL_RE as _EMAIL_RE, WEB_RE as _WEB_RE
from cikb.core.contacts import WRITTEN_EMAIL_RE as _WRITTEN_EMAIL_RE

_MULTIPLIERS = {"thousand": 10**3, "k": 10**3, "million": 10**6, "mn": 10**6, "m": 10**6,
                "billion": 10**9, "bn": 10**9, "b": 10**9, "trillion": 10**12, "tn": 10**12}
_MULTIPLIER = r"(?:\s?(?:thousand|million|billion|trillion|mn|bn|tn|[kmb])\b)"
CURRENCY_SIGNS = "$€£¥₹"
_CURRENCY = rf"(?:[{re.escape(CURRENCY_SIGNS)}]|US\$|USD|EUR|GBP|CHF|JPY)"
_AMOUNT = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_MONEY_RE = re.compile(
    rf"(?<![\w.]){_CURRENCY}\s?(?:{_AMOUNT}){_MULTIPLIER}?"
    # after the amount ("150 €"): no word boundary follows a sign
    rf"|(?<![\w.])(?:{_AMOUNT}){_MULTIPLIER}?\s?(?:{_CURRENCY}(?!\w)|(?:dollars?|euros?|pounds?)\b)",
    re.IGNORECASE,
)
_NUMBER_WORD = (r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|"
                r"seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|dozen)")
_NUMBER_RE = re.compile(
    # "19% of": no word boundary after %; "a 50-employee firm" counts employees (a measure), "555-0100" nothing
    rf"(?<![\w.,/-])(?:{_AMOUNT})(?:{_MULTIPLIER}|\s?(?:%|percent\b))?(?![\w/]|-(?![a-z]{{2}}))"
    rf"|\b{_NUMBER_WORD}(?:[\s-]+(?:and\s+)?{_NUMBER_WORD})*\b(?:\s(?:million|billion)\b)?",
    re.IGNORECASE,
)
# A name's words are capitalised in any alphabet's letters: "Pēteris Caune", "Jürgen Müller", "Ana Ćosić".
_NAME_WORD = r"\p{Lu}[\p{L}'’\-]+"
_NAME_PART = rf"(?:{_NAME_WORD}|\p{{Lu}}\.)"
# A nickname in quotes between the names ("Frederick “Trey” Coleman"), a generation after them ("Coleman III").
_NICKNAME = rf"(?:[“\"‘]{_NAME_WORD}[”\"’])"
_GENERATION = r"(?:,?\s+(?:Jr\.|Sr\.|II|III|IV)(?!\w))"
_NAME_RE = regex.compile(rf"\b{_NAME_PART}(?:\s+(?:{_NAME_PART}|{_NICKNAME}|de|van|von|der|da|di|la|le|du|bin|al))*"
                         rf"\s+{_NAME_WORD}\b{_GENERATION}?")
_ORG_RE = re.compile(
    r"\b(?:[A-Z][\w'’&.\-]*|[A-Z]{2,})(?:\s+(?:of|for|and|on|the|de|&)?\s*(?:[A-Z][\w'’&.\-]*|[A-Z]{2,}))*"
)
_ADDRESS_RE = re.compile(  # a comma may stand before the ZIP code: "Palo Alto, CA, 94301"
    r"\b(?:PO Box|P\.O\. Box|\d{1,5})\s+[A-Z0-9][^.;:\n]{3,80}?,\s*[A-Z]{2},?\s+\d{5}(?:-\d{4})?"
    r"(?:,\s*(?:United States(?: of America)?|U\.S\.A\.|[A-Z][A-Za-z]+))?")  # the country, of one word or the long name
_STREET_RE = re.compile(r"\b\d{1,5}\s+(?:[A-Z][\w'’.\-]*\s+){1,4}(?:Street|St|Avenue|Ave|Road|Rd|Place|Boulevard|Blvd|Lane|Way|Drive|Square|Plaza)\b\.?(?:,\s*[A-Z][\w'’\-]*(?:\s+[A-Z][\w'’\-]*)*)?")


# The British and Canadian forms, the postcode last: "7 Hills Road, Cambridge, CB2 1GE, UK", "150 Elgin Street,
# Ottawa, ON K2P 1L4", "Lytchett House, 13 Freeland Park, Wareham Road, Poole, Dorset, BH16 6FA" (a building's
# name may come first, and the parts of the address stand in comma-separated runs of capitalised words).
_BUILDING = (r"(?:[A-Z][\w'’.\-]*\s+){0,3}(?:House|Building|Buildings|Court|Centre|Center|Hall|Tower|Works|Mill|"
             r"Chambers|Studios?|Lodge|Barn|Farm|Yard|Exchange|Hub),\s+")
# the street's number, or a unit on an estate or a park ("Unit 3, Holbrook Park, Sheffield, S20 3FJ")
_PREMISES = r"(?:\d{1,5}[A-Za-z]?\s+|(?:Unit|Units|Suite|Flat|Block)\s+\d{1,5}[A-Za-z]?,\s+)"
_POSTCODE_LAST = re.compile(
    # a building's name may stand for the street number: "Platinum Building, Cowley Road, Cambridge, CB4 0DS"
    rf"\b(?:{_BUILDING}{_PREMISES}?|{_PREMISES})"
    r"[A-Z][\w'’.\-]*(?:\s+[A-Z][\w'’.\-]*){0,4}"
    r"(?:,\s+(?:Unit|Suite|Floor|Flat)\s+\d{1,5}[A-Za-z]?)?"  # a unit after the street: "1012 Fort Street, Suite 300"
    r"(?:,\s+[A-Z][\w'’.\-]*(?:\s+[A-Z][\w'’.\-]*){0,3}){0,5},?\s+(?:[A-Z]{2}\s+)?"
    r"(?:[A-Z]{1,2}\d[A-Z\d]?|[A-Z]\d[A-Z])\s?\d[A-Z\d][A-Z\d]\b"
    r"(?:,?\s+(?:UK|United Kingdom|England|Scotland|Wales|Northern Ireland|Canada)\b)?")


# The Australian form, the number first and a state and four-digit postcode after the town: "Level 2, 114 William
# Street, Melbourne VIC 3000" (New Zealand's, with no state, only with its country: a year may follow a town).
_AUSTRALIAN = re.compile(
    r"\b(?:(?:Level|Suite|Unit|Floor|Shop)\s+\d{1,3}[A-Za-z]?,?\s+)?\d{1,5}[A-Za-z]?(?:[-/]\d{1,5})?\s+"
    r"[A-Z][\w'’.\-]*(?:\s+[A-Z][\w'’.\-]*){0,4},\s+[A-Z][\w'’\-]*(?:\s+[A-Z][\w'’\-]*){0,2}"
    r"(?:,?\s+(?:NSW|VIC|QLD|SA|WA|TAS|NT|ACT),?\s+\d{4}(?!\d)(?:,\s+Australia\b)?|,?\s+\d{4},\s+New Zealand\b)")


# Every country's form of a whole postal address the reader knows, one place to add one.
_POSTAL_FORMS = (POSTAL_RE, _ADDRESS_RE, _POSTCODE_LAST, _AUSTRALIAN)


def holds_postal_address(sentence: str) -> bool:
    return any(pattern.search(sentence) for pattern in _POSTAL_FORMS)


def is_postal_address(text: str) -> bool:
    """A whole postal address (a street, its number and a town with its postcode or state), in any country's form."""
    return any(pattern.fullmatch(text.strip()) for pattern in _POSTAL_FORMS)


# A town's name may hold a lowercase word before its river or region: "Newcastle upon Tyne", "Frankfurt am Main",
# "Mülheim an der Ruhr", "Rothenburg ob der Tauber", "Alphen aan den Rijn".
_PLACE_JOINER = r"(?:of\s+|and\s+|the\s+|upon\s+|am\s+|an\s+der\s+|ob\s+der\s+|aan\s+(?:de\s+|den\s+)?)"
_PLACE_AFTER_RE = re.compile(
    r"\b(?:in|at|(?<!based )on|near|from)\s+((?:the\s+)?(?:\d{1,5}\s+)?[A-Z][\w'’.&\-]*"
    rf"(?:(?:\s+|,\s*){_PLACE_JOINER}?[A-Z0-9][\w'’.&\-]*){{0,6}})"
)
_AREA_OF = re.compile(
    r" (?:district|borough|neighbou?rhood|area|region|county|suburb|quarter) of (?:the )?"
    r"[A-Z][\w'’.&\-]*(?:\s+(?:of\s+|and\s+|the\s+)?[A-Z][\w'’.&\-]*){0,6}"
)
_NON_NAMES = frozenset(
    {"The", "In", "On", "At", "By", "For", "From", "It", "Its", "This", "That", "These", "Those", "After", "Before", "During",
     "When", "While", "Since", "As", "A", "An", "And", "But", "Our", "We", "They", "He", "She", "His", "Her", "Their",
     "Executive", "Director", "Chief", "Officer", "President", "Chairman", "Chairwoman", "Founder", "Co-founder",
     "CEO", "CTO", "CFO", "COO", "Head", "Vice", "Senior", "General", "Manager", "Editor", "Board", "Mr", "Mrs", "Ms",
     "Dr", "Sir", "Prime", "Minister", "Pope", "King", "Queen", "Prince", "Princess", "Lord", "Lady", "Saint", "St",
     "Professor", "Prof", "Colonel", "Captain", "Lieutenant", "Admiral", "Sergeant", "Commander", "Former", "Founded", "Established", "Formed", "According", "Today", "Yesterday", "However",
     "Also", "Then", "Now", "Here", "There", "If", "Although", "Because", "Many", "Some", "All", "Each", "Every",
     "Read", "See", "Learn", "More", "Please", "Thank", "Thanks", "Donate", "Sponsor", "Support", "Like", "With"}
    | set(MONTHS.split("|")) | {"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"}
)


@dataclass(frozen=True)
class Span:
    """A typed value in a sentence: its text as written, where it starts, and its normal form for voting."""

    text: str
    start: int
    key: str


def spans(q: Question, sentence: str) -> list[Span]:
    """The values of the kind ``q`` asks for in ``sentence``, in order; never one the question itself names
    ("Who founded Acme, besides Jane Doe?" is not answered by Jane Doe)."""
    return filtered(q, sentence, _spans(q, sentence))


def filtered(q: Question, sentence: str, found: list[Span]) -> list[Span]:
    """``found`` less the values the question names and those on the wrong side of a directed predicate."""
    if q.kind in ("person", "org", "place", "text"):
        # "Turner Broadcasting Systems" names Turner Broadcasting System; "Globex" names Globex Inc; "EIN" names a code
        asked = {stem(w) for w in normal(q.text).split()}
        found = [s for s in found if not {stem(w) for w in s.key.split() if w not in LEGAL_SUFFIXES} <= asked
                 and s.key not in _IDENTIFIER_KEYS]
    if q.kind in ("year", "date"):  # "the first day of the 2015 season" is no answer of "2015"
        named = set(YEAR_RE.findall(q.text))
        found = [s for s in found if s.key not in named]
    if q.kind in ("org", "place"):
        found = _moved_to(q, sentence, found)
    if q.kind in ("person", "org", "place"):
        found = _object_of_stranded(q, sentence, found)
    if q.officer and asks_present(q):  # "Who is Acme's CEO?": not who was
        found = [s for s in found if not left_the_role(q, sentence, s)]
    if q.relation is not None:  # "Acme is the parent company of Initech" does not name Acme's parent company
        found = [s for s in found if not _holds_anothers(q, sentence, s)]
    if q.wants is not None:  # "Acme agreed to be acquired by Globex" does not say what Acme acquired
        sides = [(s, *_side_of_predicate(sentence, s)) for s in found]
        # A name before an active predicate acts on the subject only when the subject receives it: "Globex
        # operates Acme", not "we depend on sponsors like OVH to continue operating".
        receives = (q.wants == "agent" and any(role == "agent" and not after for _, role, after in sides)
                    and subject_is_patient(q, sentence))
        found = [s for s, role, after in sides if role is None or (role == q.wants and (role == "patient" or after or receives))]
    return found


def asked_roles(q: Question, sentence: str, span: Span) -> list[RoleStatement]:
    """The roles the question asks about ("CEO", "chief executive"; "parent company", "fiscal host" of a body)
    that ``sentence`` names, as the parse reads them for the value ``span``: held by it or not, whose, now or
    before."""
    extent = (span.start, span.start + len(span.text))
    if q.relation is not None:
        return relation_statements(sentence, _relation_noun(q), q.relation, extent)
    if not q.officer:
        return []
    return role_statements(sentence, term_word(q, exact=True), extent)


# The officers' acronyms: one names one office only ("CFO" is never the CEO), as "director" or "head" may not.
_OFFICER_ACRONYMS = frozenset(CHIEF_TITLES.values()) | {"vp", "svp", "evp"}


def apart_from_the_asked_role(q: Question, sentence: str, span: Span) -> bool:
    """The sentence names the asked officer's role, the parse gives it to no one, and sets the value apart from it
    ("Jane Roe interviewed Acme's CEO", "Acme appointed a new CEO, replacing Jane Roe": :func:`set_apart_from_the_role`)
    or gives the value another office ("Our CEO search continues; Jane Roe is interim CFO")."""
    roles = asked_roles(q, sentence, span)
    if not q.officer or not roles or any(r.held_by_value for r in roles):
        return False
    extent, asked = (span.start, span.start + len(span.text)), term_word(q, exact=True)
    if set_apart_from_the_role(sentence, asked, extent):
        return True
    another = term_word(q)  # a word the question's terms relate to is no other office

    def another_office(word: str) -> bool:
        return word.lower() in _OFFICER_ACRONYMS and not another(word)
    return any(r.held_by_value for r in role_statements(sentence, another_office, extent))


def _relation_noun(q: Question) -> Callable[[str], bool]:
    noun = stem(q.relation.noun) if q.relation is not None else ""
    return lambda word: stem(word) == noun


def relation_owned(q: Question, sentence: str) -> bool:
    """The parse gives the asked relation's noun to the subject: "Globex, our fiscal host" (not "our custom swag
    vendor" for a customer)."""
    if q.relation is None:
        return False
    statements = relation_statements(sentence, _relation_noun(q), q.relation, (0, 0))
    return any(owned_by_subject(q, r.owner) for r in statements if r.owner)


def _relation_holder_spans(q: Question, sentence: str) -> list[Span]:
    """The names the parse sets beside the asked relation's noun or says are it ("WE AID gGmbH, our German fiscal
    host"), which the name patterns may not read as organisations."""
    if q.relation is None:
        return []
    found = []
    for start, end in relation_holders(sentence, _relation_noun(q), q.relation):
        span = Span(sentence[start:end], start, normal(sentence[start:end]))
        if not is_subject(q, span):
            found.append(span)
    return found


def _holds_anothers(q: Question, sentence: str, span: Span) -> bool:
    """The sentence names the asked relation, and the value does not hold it ("Acme is the parent company of
    [Initech]", "its sister offices within [Globex]"), or holds it for another named body ("[Globex] is the fiscal
    host of Initech")."""
    statements = asked_roles(q, sentence, span)
    held = [r for r in statements if r.held_by_value]
    return bool(statements) and (not held or any(r.owner and not owned_by_subject(q, r.owner) for r in held))


def left_the_role(q: Question, sentence: str, span: Span) -> bool:
    """The parse sets the value in the asked role only in the past: "former CEO Jane Roe", "Jane Roe stepped down
    as CEO", "Tom Berg succeeded Jane Roe as CEO" name who held it (Jane Roe), not who holds it; nor does one of a
    series the question does not ask of ("Acme's first CEO was Jane Roe")."""
    roles = asked_roles(q, sentence, span)
    held = [r for r in roles if r.held_by_value]
    asked = {w.lower() for w, _, _ in tokens_of(q.text)}
    # Where the parse finds no holder ("Acme's first CEO was Jane Roe"), every role word told is a former one or one
    # of a series.
    return bool(held or roles) and all(r.former or (r.series and r.series not in asked) for r in held or roles)


def subject_is_patient(q: Question, sentence: str) -> bool:
    """Whether the sentence's first mention of the subject receives a directed predicate ("Globex acquired Acme")."""
    own = set(q.subject_terms)
    for word, start, _ in tokens_of(sentence):
        if is_own(word.lower(), own) and bare(word.lower()) not in GENERIC_NAME_WORDS:
            return (_role_in_sentence(sentence, Span(word, start, word.lower())) == "patient"
                    and _named_as_patient(q, sentence))
    return False


def _named_as_patient(q: Question, sentence: str) -> bool:
    """The parse, where it finds what the directed predicate acts on, finds the subject there, not only set beside it:
    "Globex acquired Initech, a rival of Acme" acquired Initech."""
    undergoing = patients(sentence, lambda word: stem(word) in DIRECTED_STEMS)
    own = set(q.subject_terms)
    return undergoing is None or any(is_own(w.lower(), own) and bare(w.lower()) not in GENERIC_NAME_WORDS
                                     for phrase in undergoing for w, _, _ in tokens_of(phrase))


def _role_in_sentence(sentence: str, span: Span) -> Literal["agent", "patient"] | None:
    """Which side of the nearest directed predicate a name stands on: "Globex acquired Acme" (Globex the agent,
    Acme the patient), "Acme was acquired by Globex" (the same), "the acquisition of Acme"; None without one."""
    return _side_of_predicate(sentence, span)[0]


def _side_of_predicate(sentence: str, span: Span) -> tuple[Literal["agent", "patient"] | None, bool]:
    """The name's side of the nearest directed predicate (as :func:`_role_in_sentence`), and whether the name
    stands after it: an agent after the predicate is the agent of its by-phrase."""
    tokens = tokens_of(sentence)
    # A participle that describes a noun is no predicate: "a wholly owned subsidiary of Globex" (the parse reads it,
    # asked of participles only: this runs for every sentence read).
    predicates = [i for i, (w, a, b) in enumerate(tokens) if stem(w) in DIRECTED_STEMS
                  and not (w.lower().endswith(("ed", "ing")) and modifies_a_noun(sentence, a, b))]
    if not predicates:
        return None, False
    at = next((i for i, (_, a, _) in enumerate(tokens) if a >= span.start), len(tokens))
    nearest = min(predicates, key=lambda i: abs(i - at))
    if at > nearest:  # after the predicate: the object, or the agent of a by-phrase
        between = {w.lower() for w, _, _ in tokens[nearest + 1:at]}
        return ("agent" if "by" in between else "patient"), True
    before = {w.lower() for w, _, _ in tokens[max(0, nearest - 2):nearest]}
    return ("patient" if before & PASSIVE else "agent"), False


def _spans(q: Question, sentence: str) -> list[Span]:
    kind = q.kind
    if kind == "year":
        return [Span(m.group(), m.start(), m.group()) for m in YEAR_RE.finditer(sentence)]
    if kind == "date":
        return _date_spans(sentence)
    if kind == "money":
        return _latest(sentence, _money_spans(sentence) or [s for s in _number_spans(q, sentence) if _has_multiplier(s.text)])
    if kind == "duration":
        return _duration_spans(sentence) + (_since_spans(sentence) if _asks_how_long_so_far(q) else [])
    if kind == "number":
        # "How much" asks for an amount of something uncounted, often written in money: "How much fraud has
        # Acme found?" -> "identified over $4 billion in fraud".
        # "How much leave ..." is measured in time: "30 days' paid annual leave" (the count with its unit).
        amount_asked = bool(_AMOUNT_ASKED.search(q.text))
        measures = (_money_spans(sentence) + _duration_spans(sentence)) if amount_asked else []
        counts = [s for s in _number_spans(q, sentence) if not any(overlap(s, m) for m in measures)]
        return _latest(sentence, sorted(counts + measures, key=lambda s: s.start))
    if kind == "person":  # people, or the organisation that did it ("founded by the Baptist Education Society")
        people = _person_spans(q, sentence)
        if q.officer:
            return people  # a chief executive or a director is a person, never an organisation
        bodies = [o for o in _org_spans(q, sentence) if not any(overlap(o, p) for p in people)]
        return sorted(people + bodies, key=lambda s: s.start)
    if kind == "org":
        found = _org_spans(q, sentence)
        return found + [h for h in _relation_holder_spans(q, sentence) if not any(overlap(h, o) for o in found)]
    if kind == "place":
        return _place_spans(q, sentence)
    if kind == "contact":
        return contact_spans(q, sentence)
    if kind == "identifier":
        return identifier_spans(q, sentence)
    if kind == "licence":
        return licence_spans(sentence)
    if kind == "option":
        found = []
        for option in q.options:
            match = re.search(r"(?<!\w)" + re.escape(option.strip()) + r"(?!\w)", sentence, re.I)
            if match:
                found.append(Span(option, match.start(), normal(option)))
        return found
    if kind == "boolean":
        value = "no" if re.search(r"\b(?:not|never|no longer)\b", sentence, re.I) else "yes"
        return [Span(value, 0, value)]
    return _text_spans(q, sentence)


def contact_spans(q: Question, sentence: str) -> list[Span]:
    """The e-mail addresses, phone numbers or web addresses in ``sentence``, whichever the question asks for."""
    asked = q.contact
    if asked == "email":
        plain = [Span(m.group(), m.start(), m.group().lower()) for m in _EMAIL_RE.finditer(sentence)]
        written = [Span(m.group(), m.start(), _written_out(m.group())) for m in _WRITTEN_EMAIL_RE.finditer(sentence)]
        return sorted(plain + written, key=lambda span: span.start)
    if asked == "web":
        return [Span(m.group(), m.start(), m.group().lower().rstrip("/")) for m in _WEB_RE.finditer(sentence)
                if not _EMAIL_RE.search(sentence, max(0, m.start() - 64), m.end()) and not _elsewhere(q, m.group())]
    # Google's libphonenumber: numbers in international form from any country, national ones as American.
    fax = bool(re.search(r"\b(?:tele)?fax\b", q.text, re.IGNORECASE))
    return [Span(m.raw_string, m.start, phonenumbers.format_number(m.number, phonenumbers.PhoneNumberFormat.E164))
            for m in phonenumbers.PhoneNumberMatcher(sentence, "US", leniency=phonenumbers.Leniency.VALID)
            if _labelled_fax(sentence[max(0, m.start - 24):m.start]) in (None, fax)]


_NUMBER_LABEL = re.compile(r"\b(?:(?P<fax>(?:tele)?fax)|phone|telephone|tel|mobile|call(?:\s+us)?(?:\s+on|\s+at)?)"
                           r"\.?\s*(?:[:.]|\bno\.?)?\s*$", re.IGNORECASE)


def _labelled_fax(before: str) -> bool | None:
    """Whether the label just before a number says it is a fax number ("Fax: ...") or a telephone's ("Tel.: ...");
    None without a label: a fax number is no number to call, and a telephone's is none to fax to."""
    label = _NUMBER_LABEL.search(before)
    return None if label is None else label.group("fax") is not None


def _written_out(address: str) -> str:
    """A written-out e-mail address as it is sent to: "info [at] acme [dot] org" -> info@acme.org."""
    return re.sub(_DOT, ".", re.sub(_AT, "@", address, count=1, flags=re.I), flags=re.I).lower()


# Sites where a company has a profile, not its website ("Same as: https://twitter.com/acme; https://github.com/acme").
_PROFILE_SITES = ("twitter.com", "x.com", "facebook.com", "fb.com", "instagram.com", "linkedin.com", "youtube.com",
                  "youtu.be", "github.com", "gitlab.com", "medium.com", "tiktok.com", "threads.net", "bsky.app",
                  "pinterest.com", "reddit.com", "crunchbase.com", "wikipedia.org")


def _elsewhere(q: Question, url: str) -> bool:
    """A web address on a profile site, unless the question asks for that profile ("What is Acme's LinkedIn page?")."""
    host = urlsplit(url if "//" in url else "//" + url).hostname or ""
    site = next((s for s in _PROFILE_SITES if host == s or host.endswith("." + s)), None)
    return site is not None and not re.search(rf"\b{re.escape(site.split('.')[0])}\b", q.text, re.IGNORECASE)


_FROM = re.compile(r"\bfrom\s+(?:about\s+|around\s+|roughly\s+|just\s+|over\s+|under\s+|fewer than\s+|less than\s+)?$", re.I)
_TO = re.compile(r"\bto\s+(?:about\s+|around\s+|roughly\s+|just\s+|over\s+|more than\s+|nearly\s+|almost\s+)?$", re.I)


# "How much", "How big", "What was the size of ...": an amount or a magnitude, often written in money.
_AMOUNT_ASKED = re.compile(r"\bhow\s+(?:much|big|large)\b|\b(?:the|what)\s+size\b", re.I)


def identifier_spans(q: Question, sentence: str) -> list[Span]:
    """The codes that one of the asked identifier's names labels: "EIN 12-3456789", "DUNS number: 117775232", "Our
    UEI is F1QZXZNLZJF2". A code holds a digit and five letters or digits or more; a number the name does not label
    (a phone number, a year) is none."""
    if not q.identifier:
        return []
    found = []
    for m in _labelled_code(q.identifier).finditer(sentence):
        code = m.group("code")
        label = sentence[m.start():m.start("code")]
        if (re.search(r"\d", code) and len(re.sub(r"[\W_]", "", code)) >= 5 and not YEAR_RE.fullmatch(code)
                and not _names_another_identifier(q, label) and not _bracketed_after_another(q, sentence[:m.start()])
                and not _another_identifiers_name(q, sentence[:m.start()], label)
                and not _headed_by_another_identifier(q, sentence[:m.start()])):
            found.append(Span(code, m.start("code"), re.sub(r"\s+", " ", code.upper())))
    if "commercial register number" in q.identifier and not found:
        # A German register's number names its register by its letters, whatever words stand before it: "entered at
        # the local court of Stuttgart under HRB 738291" (HRA, HRB: the commercial register; VR: associations').
        found = [Span(m.group(), m.start(), re.sub(r"\s+", " ", m.group()))
                 for m in _GERMAN_REGISTER_CODE.finditer(sentence)]
    return found


_GERMAN_REGISTER_CODE = re.compile(r"(?<![\w-])(?:HRA|HRB|VR)\s?\d{2,7}(?:\s[A-Z](?=\s*(?:$|[.,;)])))?(?![\w-])")


def _bracketed_after_another(q: Question, before: str) -> bool:
    """The code is in brackets after another body's name: "held by Globex AB (corporate identity number 556865-8814)"
    is Globex's number."""
    named = re.search(r"([A-Z][\w&.'’-]*(?:\s+[A-Z][\w&.'’-]*)*)\s*[(,]\s*$", before)  # the reader's plain text
    words = normal(named.group(1)).split() if named else []                         # writes "(" as ","
    # A body's name ends on its legal form ("in Sweden, company number ..." is the place's clause); "Acme VPN AB (...)"
    # is Acme's.
    return (len(words) > 1 and words[-1] in LEGAL_SUFFIXES and not set(words) <= LEGAL_SUFFIXES
            and not set(words) & set(q.subject_terms))


def _headed_by_another_identifier(q: Question, before: str) -> bool:
    """The line's own label names another identifier: "EU VAT: Acme Ltd is registered for the OSS scheme under number
    EU123456789" is the VAT number, whatever the words beside the code say."""
    heading = re.match(r"\s*([^:]{1,30}):", before)
    return heading is not None and _names_another_identifier(q, heading.group(1))


def _names_another_identifier(q: Question, label: str) -> bool:
    """The words before the code name an identifier not asked for: "registered for VAT under number SE5591..." gives
    the VAT number, not the company registration number."""
    asked, others = _identifier_names(q.identifier)
    return bool(others.search(asked.sub(" ", label)))


@cache
def _another_identifiers_name(q: Question, before: str, label: str) -> bool:
    """The asked name is the end of another identifier's, with the words before it: "VAT registration number GB ..."
    is no company registration number."""
    _, others = _identifier_names(q.identifier)
    wider = " ".join(before.split()[-2:] + [label.strip()])
    opens = len(wider) - len(label.strip())  # where the asked name begins
    return any(m.start() < opens < m.end() for m in others.finditer(wider))


def _identifier_names(asked: tuple[str, ...]) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The names of the identifier asked, and those of the others (compiled once per identifier asked)."""
    def any_of(names: Iterable[str]) -> re.Pattern[str]:
        # The longest first: "Unique Entity ID" holds no other's "unique entity".
        written = "|".join(re.escape(name) for name in sorted(set(names), key=len, reverse=True)) or "(?!)"
        return re.compile(rf"(?<![\w-])(?:{written})(?![\w-])", re.IGNORECASE)
    others = [name for names in IDENTIFIER_NAMES if not set(names) & set(asked)
              for name in names + tuple(n.removesuffix(" number") for n in names if n.endswith(" number"))]
    return any_of(asked), any_of(others)


@cache
def _labelled_code(names: tuple[str, ...]) -> re.Pattern[str]:
    """A code that one of ``names`` labels (compiled once per identifier: every sentence read is matched)."""
    written = [re.escape(n) for n in names]
    # "Company No. 11076587", "Corporation No. 5019866": a number's name abbreviated.
    written += [re.escape(n.removesuffix(" number")) + r"\s*(?:no\.|nr\.|#)" for n in names if n.endswith(" number")]
    # "registered for VAT in the United Kingdom under number GB ...", "VAT: FR 40 303 265 045": a number's name
    # without "number", where "under number" follows, or a colon after a short name.
    for name in (n.removesuffix(" number") for n in names if n.endswith(" number")):
        written.append(re.escape(name) + r"(?=(?:\s+in(?:\s+the)?(?:\s+[A-Z][\w.'-]*){1,3})?\s+under\s+number\b)")
        if len(name) <= 4:
            written.append(re.escape(name) + r"(?=\s*:)")
    if "company number" in names:  # "a registered company in England & Wales with number: 11076587"
        written.append(r"registered(?:\s+(?!number\b)[\w&,'-]+){1,8}?\s+(?:number|no\.)")
    alternatives = "|".join(sorted(written, key=len, reverse=True))
    # Right after the name: "EIN 12-3456789", "DUNS number: 117775232", "Our UEI is F1QZ...", "Number (EIN): 92-...",
    # "SIREN (Company ID): 820 717 668"; after the register's court ("the commercial register of the Local Court of
    # Leipzig under HRB 12345") or the law it is given under ("Our VAT identification number under § 27a of the
    # German VAT Act is DE...", "... under Section 27a of ...", "VAT ID according to § 27a UStG: DE..."); after "under",
    # or "with" a number: "registered with the Chamber of Commerce (KvK) under number 55061605", "entered in the
    # Commercial Register under registry code 14709274".
    return re.compile(rf"(?<![\w-])(?i:{alternatives})\)?(?:\s*\([^()]{{1,30}}\))?"
                      rf"(?:\s+(?i:of|at|in)\s+(?i:the\s+)?(?:[A-Z][\w.'-]*\s+(?:of\s+)?){{0,3}}[A-Z][\w.'-]*)?"
                      rf"(?:\s+(?i:under|according\s+to|pursuant\s+to)\s+(?:§|(?i:section|sec\.|article|art\.))\s*\w+"
                      rf"(?:\s+(?!is\b)[\w.]+){{0,6}}?(?=\s+is\b|\s*:))?"
                      rf"(?:\s+(?i:under)(?:\s+(?i:the|its))?(?:\s+(?i:company|registration|registry|register))?"
                      rf"|\s+(?i:with)(?:\s+(?i:the|its))?(?:\s+(?i:company|registration|registry|register))?"
                      rf"(?=\s*(?i:number|no\.|nr\.|id|code)))?"
                      rf"(?:\s*(?i:number|no\.|nr\.|id|code))?\s*"
                      rf"(?:[:#=]|\bis\b|\bwas\b)?\s*(?<![\w-])(?P<code>{IDENTIFIER_CODE})")


def _latest(sentence: str, found: list[Span]) -> list[Span]:
    """A change states its newer value: "went from four full-time employees to nine" answers nine, not four."""
    if len(found) < 2:
        return found
    ends = [b for b in found if _TO.search(sentence[max(0, b.start - 24):b.start])]
    return [a for a in found if not (_FROM.search(sentence[max(0, a.start - 24):a.start]) and any(b.start > a.start for b in ends))]


_ONWARD = re.compile(r"\s+(?:to|into)\s+(?:the\s+)?")


def _moved_to(q: Question, sentence: str, found: list[Span]) -> list[Span]:
    """A name or a place in "from A to B" is where something was, B where it is: "migrated our checkers from
    Vercel to Fly.io" answers Fly.io (B is read by its capitals when no pattern found it), and a B written in
    lower case ("to our own servers") leaves no answer; unless the question asks where from."""
    if stranded_preposition(q.text) == "from":
        return found
    out: list[Span] = []
    for span in found:
        onward = _ONWARD.match(sentence, span.start + len(span.text))
        if not _FROM.search(sentence[max(0, span.start - 24):span.start]) or onward is None:
            out.append(span)
            continue
        name = _ORG_RE.match(sentence, onward.end())
        text = name.group().rstrip(".,;:") if name else ""
        if text and not any(s.start == name.start() for s in found):
            out.append(Span(text, name.start(), normal(text)))
    return sorted(out, key=lambda s: s.start)


def _object_of_stranded(q: Question, sentence: str, found: list[Span]) -> list[Span]:
    """Asked "Who did Acme sell its newspapers to?", the names right after "to" ("sold them to Knight Ridder"),
    when the sentence has one there; else every name."""
    preposition = stranded_preposition(q.text)
    if preposition is None or len(found) < 2:
        return found
    after = re.compile(rf"\b{preposition}\s+(?:the\s+)?$", re.I)
    objects = [s for s in found if after.search(sentence[max(0, s.start - 24):s.start])]
    return objects or found


def overlap(a: Span, b: Span) -> bool:
    return a.start < b.start + len(b.text) and b.start < a.start + len(a.text)


@cache
def _date_parser() -> DateDataParser:
    return DateDataParser(languages=["en"], settings={"PREFER_DAY_OF_MONTH": "first", "REQUIRE_PARTS": ["year"]})


@lru_cache(maxsize=4096)
def normal_date(text: str) -> str | None:
    """'May 24, 2013' and '24 May 2013' -> '2013-05-24'; 'September 2015' -> '2015-09'; None when no such date."""
    data = _date_parser().get_date_data(text)
    if data.date_obj is None:
        return None
    if data.period == "day":
        return data.date_obj.strftime("%Y-%m-%d")
    if data.period == "month":
        return data.date_obj.strftime("%Y-%m")
    return data.date_obj.strftime("%Y")


def _date_spans(sentence: str) -> list[Span]:
    found: list[Span] = []
    covered: list[tuple[int, int]] = []
    for m in DATE_RE.finditer(sentence):
        key = normal_date(m.group())
        if key is not None:
            found.append(Span(m.group(), m.start(), key))
            covered.append((m.start(), m.end()))
    for m in YEAR_RE.finditer(sentence):
        if not any(a <= m.start() < b for a, b in covered):
            found.append(Span(m.group(), m.start(), m.group()))
    return sorted(found, key=lambda s: s.start)


_MONTH_NAME = re.compile(rf"\b(?:{MONTHS})\b")


def yearless_dates(sentence: str, covered: list[Span]) -> list[Span]:
    """The dates the text writes without their year, as the recogniser reads them ("In late June, we began ...", "on
    Saturday, October 18th"), outside the ``covered`` dates: a month must be named, so "last week" and "recently"
    are no dates."""
    if not _MONTH_NAME.search(sentence):
        return []
    found = []
    for start, end, label in entities(sentence):
        text = sentence[start:end]
        if label != "DATE" or not _MONTH_NAME.search(text) or any(overlap(Span(text, start, ""), c) for c in covered):
            continue
        if text.lower().startswith("the "):
            start, text = start + 4, text[4:]
        found.append(Span(text, start, normal(text)))
    return found


def is_yearless(span: Span) -> bool:
    """A date span without its year ("late June"), an incomplete answer to when something happened."""
    return not YEAR_RE.search(span.text)


def _has_multiplier(text: str) -> bool:
    return bool(re.search(r"(?:thousand|million|billion|trillion)\b", text, re.I))


def _money_spans(sentence: str) -> list[Span]:
    found = []
    for m in _MONEY_RE.finditer(sentence):
        price = Price.fromstring(m.group())
        if price.amount is None:
            continue
        amount = price.amount * _multiplier(m.group())
        currency = (price.currency or "").strip() or "?"
        found.append(Span(m.group().strip(), m.start(), f"{currency} {format_number(amount)}"))
    return found


def _multiplier(text: str) -> int:
    match = re.search(r"\d\s?(thousand|million|billion|trillion|mn|bn|tn|[kmb])\b", text, re.I)
    return _MULTIPLIERS[match.group(1).lower()] if match else 1


_HOW_MANY = re.compile(r"\bhow\s+(?:many|much)\b", re.IGNORECASE)


def _number_spans(q: Question, sentence: str) -> list[Span]:
    money = [(m.start(), m.end()) for m in _MONEY_RE.finditer(sentence)]
    dates = [(m.start(), m.end()) for m in DATE_RE.finditer(sentence)]
    # A street number, a box or a postcode is no count: "12 Harbour Street" does not say how many offices.
    addresses = ([(m.start(), m.end()) for pattern in _POSTAL_FORMS for m in pattern.finditer(sentence)]
                 if _HOW_MANY.search(q.text) else [])
    found = []
    for m in _NUMBER_RE.finditer(sentence):
        text = m.group().strip()
        if YEAR_RE.fullmatch(text) or any(a <= m.start() < b for a, b in money + dates + addresses):
            continue
        if _is_version(sentence, m.start(), m.end()):
            continue  # "A 1.0 release ... after over 100,000,000 Docker pulls": a release counts nothing
        if _CURRENCY_AFTER.match(sentence, m.end()):
            continue  # "one euro a month" is an amount in words, no count
        if text.lower().startswith(_SCALE_WORDS) and _VAGUE_BEFORE.search(sentence, 0, m.start()):
            continue  # "several hundred employees" is no hundred, nor "a few thousand customers" a thousand
        if ("%" in text or "percent" in text.lower()) != q.percent:
            continue
        value = number_value(text)
        if value is None:
            continue
        found.append(Span(text, m.start(), format_number(value)))
    return found


def bounds_a_range(sentence: str, span: Span) -> bool:
    """The number is one end of a range ("between 50 and 60 people", "two to three days"): it states no one count.
    (Still read as a value, so that no other number of the sentence takes its place as the nearest.)"""
    return span.start in _range_ends(sentence, list(_NUMBER_RE.finditer(sentence)))


def _range_ends(sentence: str, matches: list[re.Match[str]]) -> set[int]:
    """Where the numbers that bound a range start: "between 10 and 500", "between one and several hundred",
    "50 to 60", "50–60". A change written "from 5 to 50" is no range: its newer value is the count (``_latest``)."""
    ends: set[int] = set()
    for i, a in enumerate(matches):
        b = matches[i + 1] if i + 1 < len(matches) else None
        joint = sentence[a.end():b.start()] if b else ""
        if _BETWEEN.search(sentence, 0, a.start()):
            if _AND.search(a.group()) or _AND.match(sentence, a.end()):
                ends.add(a.start())  # "between fifty and sixty" is read as one number; no count either way
            if b and _AND.fullmatch(joint):
                ends.add(b.start())
        elif b and _RANGE_JOINT.fullmatch(joint) and not _FROM.search(sentence, 0, a.start()):
            ends |= {a.start(), b.start()}
    return ends


_RANGE_JOINT = re.compile(r"\s*(?:[–—]|to)\s*", re.IGNORECASE)
_AND = re.compile(r"\s+and\s+(?:[a-z]+\s+)?", re.IGNORECASE)  # "and 60", "and several hundred"
_BETWEEN = re.compile(r"\bbetween\s+$", re.IGNORECASE)
_CURRENCY_AFTER = re.compile(r"\s*(?:euros?|dollars?|pounds?|cents?|pence)\b", re.IGNORECASE)
# A scale word after a vague quantifier counts no number of things.
_VAGUE_BEFORE = re.compile(r"\b(?:several|a\s+few|few|many|a\s+couple\s+of)\s+$", re.IGNORECASE)
_SCALE_WORDS = ("hundred", "thousand", "dozen")
_VERSION_WORD = r"(?:v|version|release|releases|update|edition|beta|alpha|rc)"
_VERSION_BEFORE = re.compile(rf"\b{_VERSION_WORD}\.?\s*$", re.IGNORECASE)
_VERSION_AFTER = re.compile(rf"^\s*{_VERSION_WORD}\b", re.IGNORECASE)
# A product's name before the number, not a quantifier opening the sentence ("Over 2.5 times", "About 1.5 FTE").
_NAME_BEFORE = re.compile(r"\b(?!(?:About|Over|Under|Around|Approximately|Nearly|Almost|Roughly|Some|Up|To|By|At|In|"
                          r"Of|With|For|From)\b)[A-Z][\w-]*\s+$")
_MAGNITUDE_AFTER = re.compile(r"^\s*(?:million|billion|thousand|trillion|[kmb]n?\b|%|percent\b)", re.IGNORECASE)


def _is_version(sentence: str, start: int, end: int) -> bool:
    """A software release's number, not a quantity: "version 2.3", "v1.4", "a 1.0 release", "1.2.3", "LocalStack
    3.0" (a dotted number after a name, unless a magnitude follows it: "Acme 1.5 million")."""
    text = sentence[start:end]
    if "." not in text or "," in text:
        return False
    before, after = sentence[:start], sentence[end:]
    return (text.count(".") >= 2 or bool(_VERSION_BEFORE.search(before)) or bool(_VERSION_AFTER.match(after))
            or (bool(_NAME_BEFORE.search(before)) and not _MAGNITUDE_AFTER.match(after)))


def versions_in(text: str) -> set[str]:
    """The release numbers ``text`` names ("LocalStack 2.0", "v1.4")."""
    return {m.group() for m in re.finditer(r"\d+(?:\.\d+)+", text) if _is_version(text, m.start(), m.end())}


_TIME_UNIT = r"(?:second|minute|hour|day|week|month|year|decade)s?"
_SPAN_NUMBER = rf"(?:{_AMOUNT}|{_NUMBER_WORD}(?:-{_NUMBER_WORD})?|a\s+few|several)"
# A length of time: "2 to 4 years", "about 5 minutes", "a 30-day sabbatical", "eight-week engagements"; not a
# frequency ("every three years", "twice a year"), an age ("30 years old") or a date ("three years ago").
_DURATION_RE = re.compile(
    rf"(?<![\w.,/-])(?:(?:about|around|approximately|roughly|nearly|almost|over|under|up\s+to|at\s+least|more\s+than|"
    rf"less\s+than)\s+)?{_SPAN_NUMBER}(?:\s*(?:to|-|–|or)\s*{_SPAN_NUMBER})?[\s-]+{_TIME_UNIT}\b"
    r"(?![\s-]+(?:old|ago)\b)",
    re.IGNORECASE,
)
_FREQUENCY_BEFORE = re.compile(r"\b(?:every|per|each|once|twice|times)\s+$", re.IGNORECASE)


def is_duration(text: str) -> bool:
    """Whether ``text`` is a length of time as a whole: "30 days", "about 5 minutes" (not "30")."""
    return _DURATION_RE.fullmatch(text.strip()) is not None


def _duration_spans(sentence: str) -> list[Span]:
    return [Span(m.group(), m.start(), normal(m.group())) for m in _DURATION_RE.finditer(sentence)
            if not _FREQUENCY_BEFORE.search(sentence[max(0, m.start() - 8):m.start()])]


# "since 2016", "since March 2019": how long a thing has gone on, from when it began.
_SINCE_RE = re.compile(rf"\bsince\s+(?:(?:early|mid|late)\s+)?(?:{DATE_RE.pattern}|{YEAR_RE.pattern})")
_SO_FAR = re.compile(r"\b(?:has|have|been|for\s+how\s+long)\b", re.IGNORECASE)


def _asks_how_long_so_far(q: Question) -> bool:
    """Asked how long a thing has gone on ("How long has Acme been remote?", "... and for how long?"), which a
    start answers ("since 2016"); not how long a thing lasts ("How long is the sabbatical?")."""
    return _SO_FAR.search(q.text) is not None


def _since_spans(sentence: str) -> list[Span]:
    return [Span(m.group(), m.start(), normal(m.group())) for m in _SINCE_RE.finditer(sentence)]


# The kinds of corporation a place names the law of: "a Delaware corporation", "a Wyoming limited liability company".
CORPORATION_KIND = (r"(?:(?:public\s+benefit|nonprofit|non-profit)\s+)?"
                    r"(?:corporation|limited\s+liability\s+company|LLC)\b")

# "There are 16 of us", "That makes seven of us": a count of the writers, the company's people on its own pages.
_COUNT_OF_US = re.compile(r"([\w,.-]+)\s+of\s+us\b", re.IGNORECASE)
HEADCOUNT = "employ"  # the stem whose relation (employees, staff; people, team) a count of us answers


def counts_us(sentence: str) -> bool:
    """The sentence counts "us", its writers: "Altogether there are 16 of us" (not "many of us", "one of us")."""
    return any((value := number_value(m.group(1))) is not None and value > 1 for m in _COUNT_OF_US.finditer(sentence))


def count_of_us(sentence: str, span: Span) -> bool:
    """The count ``span`` is one of "us": "16 of us"."""
    return bool(re.match(r"\s+of\s+us\b", sentence[span.start + len(span.text):], re.IGNORECASE))


def number_value(text: str) -> Decimal | None:
    """'1,250' -> 1250, '3.2 million' -> 3200000, 'twenty-five' -> 25, '40%' -> 40; None when no number."""
    digits = re.search(rf"(?<![\w-])-?(?:{_AMOUNT})", text)  # "-12" is a negative number, "2005-2011" two years
    if digits:
        try:
            value = Decimal(digits.group().replace(",", ""))
        except InvalidOperation:
            return None
        return value * _multiplier(text)
    words = re.sub(r"\s(?:million|billion)\b", "", text, flags=re.I)
    parsed = parse_number(words.lower().replace("-", " "))
    if parsed is None:
        return None
    return Decimal(parsed) * _multiplier_word(text)


def _multiplier_word(text: str) -> int:
    match = re.search(r"\b(million|billion)\b", text, re.I)
    return _MULTIPLIERS[match.group(1).lower()] if match else 1


def format_number(number: Decimal) -> str:
    """1250 -> '1250', 3.20 -> '3.2', -0 -> '0': a number as a cell holds it."""
    try:
        text = format(number.normalize(), "f")
    except InvalidOperation:
        return str(number)
    return "0" if text in ("-0", "") else text


def _name_words_ok(q: Question, words: list[str]) -> bool:
    stop = english_stopwords()
    if any(w in _NON_NAMES or "’s" in w or "'s" in w for w in words):
        return False
    if {w.lower() for w in words} & set(q.subject_terms):
        return False
    return not any(w.lower() in stop or w.rstrip(".").lower() in LEGAL_SUFFIXES for w in words)


def _person_spans(q: Question, sentence: str) -> list[Span]:
    found = []
    for match in _NAME_RE.finditer(sentence):
        words = match.group().split()
        start = match.start()
        title = None
        while words and _no_name(words[0]):
            title = (words[0], start) if words[0].rstrip(".") in _HONORIFICS else None
            start = sentence.find(words[1], start + len(words[0])) if len(words) > 1 else start
            words = words[1:]
        while words and _no_name(words[-1]):
            words = words[:-1]
        if len(words) == 1 and title and _name_words_ok(q, words):
            words, start = [title[0], *words], title[1]  # "President Obama": a surname after a title names one person
        elif len(words) < 2 or not _name_words_ok(q, words):
            continue
        if any(w.isupper() and len(w) > 1 and not re.fullmatch(_GENERATION, f" {w}") for w in words):
            # acronyms belong to organisations
            continue
        if _word_before(sentence, start) in _ARTICLES:
            continue  # "the Engineering Culture", "our Year-End Letter": a person's name takes no article
        if any(w.lower() in _ORG_HEADS or w.lower() in GENERIC_NAME_WORDS or w.lower() in _EVENT_WORDS
               or w.lower() in _DEPARTMENT_WORDS or _is_occupation(w) for w in words):
            continue  # "United Nations", "Spanish Civil War", "Donor Development", "Data Engineer" name no person
        name = " ".join(words)
        found.append(Span(name, start, normal(name)))
    return _merge_list(sentence, found)


def written_as_a_name(q: Question, text: str) -> bool:
    """``text`` is a person's name by how it is written (two to four capitalised words, none of an organisation, a
    department, an event or an occupation) and the recogniser reads it as no other kind of name: the small model
    leaves many names unlabelled ("Renaud Chaput" on a team card)."""
    text = text.strip()
    return (any(span.text == text for span in _person_spans(q, text))
            and not any(label in _NOT_A_PERSON for _, _, label in entities(text)))


_NOT_A_PERSON = frozenset("ORG GPE LOC FAC PRODUCT EVENT WORK_OF_ART LAW NORP DATE CARDINAL MONEY".split())


def _no_name(word: str) -> bool:
    """A word of no person's name, or its plural: "Board of Directors Officers — Chair: ..." names no "Directors
    Officers"."""
    return word in _NON_NAMES or (word.endswith("s") and word[:-1] in _NON_NAMES)


# Titles written before a surname alone: the two words name one person.
# (Not "General" nor "Major": "General Counsel" is no one, and Major is a surname too.)
_HONORIFICS = frozenset("President Mr Mrs Ms Dr Sir Professor Prof Pope King Queen Prince Princess Lord Lady "
                        "Colonel Captain Lieutenant Admiral Sergeant Commander".split())


# Not "that": "the company that Jack Dorsey founded". (A name of its own: reusing _DETERMINERS shadowed
# creates_other's longer list, so "founded two new subsidiaries" read as the subject's own founding.)
_ARTICLES = frozenset("the a an our your their its".split())


def _word_before(sentence: str, start: int) -> str:
    """The word just before ``start``, lower-cased ('' at the sentence's start)."""
    before = sentence[:start].split()
    return before[-1].lower() if before else ""


_ORG_HEADS = frozenset(
    """organization organisation organizations organisations society association foundation institute institution
    university college school council committee board commission agency administration department ministry
    programme program fund bank company corporation group network league union court colony government
    assembly parliament congress church order trust partnership consortium federation alliance
    inc ltd llc corp plc gmbh ag technologies systems software labs networks holdings ventures capital partners
    solutions industries enterprises""".split()
)


_EVENT_WORDS = frozenset("war wars cup championship championships games olympics award awards prize festival "
                         "conference summit act treaty agreement revolution crisis".split())
# A team's or a department's name is no one's: "the Brand & Donor Development team".
_DEPARTMENT_WORDS = frozenset("development marketing sales engineering operations communications partnerships "
                              "relations resources support research product products design finance legal "
                              "team teams department division office".split())
# Occupations and offices: a job title on a team card ("Staff User Researcher", "Head Systems Administrator",
# "Elected Delegate") names no person.
_OCCUPATION_WORDS = frozenset(
    "administrator analyst architect assistant associate consultant coordinator designer developer engineer intern "
    "programmer recruiter researcher scientist specialist strategist technician writer accountant attorney "
    "lawyer advisor adviser delegate representative trustee treasurer secretary member maintainer contributor "
    "fellow volunteer".split())


def _is_occupation(word: str) -> bool:
    return word.lower().removesuffix("s") in _OCCUPATION_WORDS


def _org_spans(q: Question, sentence: str) -> list[Span]:
    found = []
    for match in _ORG_RE.finditer(sentence):
        words = [w.rstrip(".,") for w in match.group().split()]
        start = match.start()
        while words and (words[0] in _NON_NAMES or words[0].lower() in ("of", "and", "the", "for", "on", "&")
                         or words[0].lower() in q.subject_terms):  # "ISRG and The Linux Foundation" -> The Linux Foundation
            start += len(words[0]) + 1
            words = words[1:]
        while words and words[-1].lower() in ("of", "and", "the", "for", "on", "&"):
            words = words[:-1]
        if not words or {w.lower() for w in words} <= set(q.subject_terms) | LEGAL_SUFFIXES:
            continue
        if _is_occupation(words[-1]):
            continue  # "Head Systems Administrator", "Software Engineering Intern": a job title, no body
        if set(q.subject_terms) and _spells_acronym(words, q.subject_acronyms):
            continue  # "Internet Security Research Group" asked of as "ISRG" is the subject, not who funds it
        is_org = len(words) >= 2 and any(w.lower() in _ORG_HEADS for w in words) or (len(words) == 1 and words[0].isupper() and len(words[0]) > 1)
        name = " ".join(words).strip(".,")
        if not is_org and not _party_of_directed(sentence, start, start + len(name), q.wants == "agent"):
            continue
        found.append(Span(name, start, normal(name)))
    return _merge_list(sentence, found)


def _spells_acronym(words: list[str], acronyms: tuple[str, ...]) -> bool:
    """Whether a name is one of ``acronyms`` or spelled out by its capitals ("Internet Security Research Group")."""
    capitals = "".join(w[0] for w in words if w[0].isupper()).lower()
    return bool({w.lower() for w in words} & set(acronyms)) or (len(capitals) >= 2 and capitals in acronyms)


_OWNING = relation("own")  # own, owner, parent, subsidiary: the body "of" names is one


def _party_of_directed(sentence: str, start: int, end: int, agent: bool) -> bool:
    """A name right after an acquisition or an investment is a body: "acquired Initrode", "the acquisition of
    Initrode", "invested in Initrode"; and, asked for the ``agent``, a name that does one: "Initrode acquired ...",
    "Initrode has acquired ...", "acquired by Initrode", "owned by Initrode"."""
    before = [w for w, _, _ in tokens_of(sentence[:start])][-2:]
    if before and (stem(before[-1]) in DIRECTED_STEMS or (len(before) == 2 and before[-1].lower() in ("of", "in")
                                                          and stem(before[0]) in DIRECTED_STEMS | _OWNING)):
        return True  # ... and "a subsidiary of Initrode", "the parent of Initrode"
    if not agent:
        return False
    after = [w.lower() for w, _, _ in tokens_of(sentence[end:])][:2]
    if after[:1] in (["has"], ["have"], ["had"]):
        after = after[1:]
    return ((len(before) == 2 and before[-1].lower() == "by" and stem(before[0]) in DIRECTED_STEMS)
            or (bool(after) and stem(after[0]) in DIRECTED_STEMS and not after[0].endswith("ing")))


def _merge_list(sentence: str, found: list[Span]) -> list[Span]:
    """'Eric Rescorla, Alex Halderman, Peter Eckersley and I founded' is one answer: the list of names."""
    if len(found) < 2:
        return found
    merged: list[list[Span]] = [[found[0]]]
    for span in found[1:]:
        last = merged[-1][-1]
        gap = sentence[last.start + len(last.text):span.start]
        if re.fullmatch(r"\s*(?:,|and|,\s*and|&)\s*(?:the\s+)?", gap):
            merged[-1].append(span)
        else:
            merged.append([span])
    out = []
    for group in merged:
        if len(group) == 1:
            out.append(group[0])
            continue
        text = ", ".join(s.text for s in group)
        if re.search(r"\band\s+(?:the\s+)?$", sentence[:group[-1].start]):
            text = ", ".join(s.text for s in group[:-1]) + " and " + group[-1].text
        out.append(Span(text, group[0].start, normal(text)))
    return out


def _place_spans(q: Question, sentence: str) -> list[Span]:
    found = [Span(m.group().strip(), m.start(), normal(m.group()))
             for pattern in (_ADDRESS_RE, _POSTCODE_LAST, _AUSTRALIAN) for m in pattern.finditer(sentence)]
    found += [Span(text, m.start() + m.group().index(text), normal(text)) for m in POSTAL_RE.finditer(sentence)
              if (text := _without_names(m.group()).strip())]
    if found:
        return sorted(found, key=lambda s: s.start)
    streets = [Span(m.group().strip(" ,."), m.start(), normal(m.group())) for m in _STREET_RE.finditer(sentence)]
    for match in _PLACE_AFTER_RE.finditer(sentence):
        place = re.sub(r"^the\s+", "", match.group(1).strip(" ,"))
        first = place.split()[0] if place.split() else ""
        if not place or first in _NON_NAMES or re.fullmatch(r"\d+", place) or YEAR_RE.fullmatch(place):
            continue
        if re.match(r"\d", place) and not any(s.start <= match.start(1) < s.start + len(s.text) + 1 for s in streets):
            continue
        if {bare(w.lower()) for w, _, _ in tokens_of(place)} & set(q.subject_terms):
            continue  # the subject's own name ("at the RIBA's headquarters")
        area = _AREA_OF.match(sentence, match.end(1))
        text = (place + (area.group() if area else "")).rstrip(".,;:")
        found.append(Span(text, match.start(1) + match.group(1).find(place), normal(text)))  # after "the "
    found += [s for s in streets if not any(f.start <= s.start < f.start + len(f.text) for f in found)]
    return sorted(found, key=lambda s: s.start)


def _without_names(address: str) -> str:
    """An address match without a company or a legal form glued before its street ("Acme B.V. Oudegracht 45 ..."
    -> "Oudegracht 45 ..."): the street is the last run of words before the number."""
    m = re.match(r"(?:.*?\b(?:[A-Z]\.){1,3}\s+|.*?\b(?:GmbH|AG|Ltd|Lda|SAS|SA|SL|S\.L\.|BV|NV|Inc|LLC|S\.r\.l\.|Srl)\.?,?\s+)(?=\S)", address)
    return address[m.end():] if m and POSTAL_RE.match(address[m.end():]) else address


INSTANCE_MODIFIERS = 3  # lowercase words between a name and the noun it names one of ("BSD open source licence")
INSTANCE_NAME_WORDS = 5


def instance_spans(q: Question, sentence: str) -> list[Span]:
    """A name of the kind the question asks "which" or "what" of, written before that noun: "licensed under the MIT
    licence" for "Under which licence ...", "the Harbour Works accelerator programme" for "Which accelerator ...";
    or one the parse gives as an instance of it (:func:`~cikb.answer.entities.instances_named`)."""
    noun = asked_noun(q.text) or named_noun(q.text)
    if noun is None:
        return []
    wanted = stems_of(noun)
    tokens = tokens_of(sentence)
    found = []
    for i, (word, _, end) in enumerate(tokens):
        if not stems_of(word) & wanted:
            continue
        j = i - 1
        while j >= 0 and i - j <= INSTANCE_MODIFIERS and tokens[j][0].islower():
            j -= 1
        k = j
        while k >= 0 and j - k < INSTANCE_NAME_WORDS and _instance_name_word(q, tokens[k][0]):
            k -= 1
        if k < j and sentence[tokens[j][2]:tokens[i][1]].strip(" -") == " ".join(w for w, _, _ in tokens[j + 1:i]):
            text = sentence[tokens[k + 1][1]:end]
            found.append(Span(text, tokens[k + 1][1], normal(text)))
    # Names the parse gives as the noun's instances: "Trix, our editor", "projects such as Trix and Stimulus".
    for start, end in instances_named(sentence, lambda word: bool(stems_of(word) & wanted)):
        span = Span(sentence[start:end], start, normal(sentence[start:end]))
        if not is_subject(q, span) and not any(overlap(span, f) for f in found):
            found.append(span)
    return sorted(found, key=lambda span: span.start)


def _instance_name_word(q: Question, word: str) -> bool:
    """A word of a name written before the asked noun: capitalised, not the subject's, not a function word ("Our
    next project" names none), nor the possessive of a name the question names ("Globex's first project", asked
    what projects Globex runs: Globex owns it; "the Queen's Award" is a name)."""
    if not word[:1].isupper() or is_own(word.lower(), set(q.subject_terms)) or word.lower() in english_stopwords():
        return False
    named = set(normal(q.text).split()) | set(q.subject_terms)
    return not (word.endswith(("'s", "’s")) and bare(word.lower()) in named)


def _text_spans(q: Question, sentence: str) -> list[Span]:
    """A name of the kind asked ("the MIT licence"), else the clause after the last key term, else the phrase
    holding a related word ("a Delaware corporation" for a legal form): weak evidence, so its confidence stays low."""
    named = instance_spans(q, sentence) or doers_named(q, sentence)
    if named:
        return named
    tokens = tokens_of(sentence)
    predicate = term_word(q, exact=True)
    positions = [i for i, (w, _, _) in enumerate(tokens) if predicate(w)]
    if positions:
        after = tokens[positions[-1]][2]
        preposition = stranded_preposition(q.text)
        if preposition is not None:  # "What does Globex use Acme for?": what follows "for" after the last term
            found = re.compile(rf"\b{preposition}\s+", re.I).search(sentence, after)
            if found is None:
                return []  # "Globex is now using Acme" says nothing of what for
            after = found.end()
    else:
        related = [i for i, (w, _, _) in enumerate(tokens) if any(match_weight(t, stems_of(w)) > 0 for t in q.terms)]
        if not related:
            return []
        after = _phrase_start(tokens, related[0])
    tail = _after_the_copula(q, sentence[after:].strip(" ,:;-"))
    tail = re.split(r"[.;]\s", tail)[0].rstrip(".")
    if len(tail) < 3:
        return []
    text = " ".join(tail.split()[:12])
    return [Span(text, sentence.find(tail[:10]), normal(text))]


def _after_the_copula(q: Question, tail: str) -> str:
    """The clause after the key term without the verb that links it to the value: "[product] is Basecamp" ->
    "Basecamp", "[flagship product] of Acme is the Anvil" -> "the Anvil" (a copula after a phrase of the subject's
    words), "[mission] is to make ..." -> "to make ...", "[app] is called Scanly" -> "Scanly"; a tail with no such
    verb first stays as it is."""
    words = tail.split()
    for i, word in enumerate(words[:4]):
        if word.lower() in COPULAS:
            before = {normal(w) for w in words[:i]}
            if not before <= _LINKING_LEAD | set(q.subject_terms):
                return tail
            rest = words[i + 1:]
            return " ".join(rest[1:] if rest[:1] and rest[0].lower() in _NAMING_VERBS else rest)  # "is called Scanly"
    return tail


_LINKING_LEAD = frozenset("of at for the".split())
_NAMING_VERBS = frozenset("called named".split())


def doers_named(q: Question, sentence: str) -> list[Span]:
    """Asked which one of a kind did something ("Which Acme customer deploys AI analytics into oil and gas
    companies?"), the name that does it in the sentence, as the parse reads it ("Corva deploys AI analytics ...");
    a pronoun or a common noun ("our team") names none, nor does the subject."""
    asked = asked_party(q.text) if asked_noun(q.text) is not None else None
    if asked is None:
        return []
    verb, party = asked
    wanted = {t for t in stems_of(verb) if len(t) > 2}
    found = [Span(sentence[start:end], start, normal(sentence[start:end]))
             for start, end in named_parties(sentence, lambda word: bool(stems_of(word) & wanted), party)]
    return [span for span in found if len(span.text.split()) <= NAME_MAX_WORDS and not is_subject(q, span)]


NAME_MAX_WORDS = 6  # "the company founded by Jane Roe in 2010 after leaving Globex" is a clause, not a name


def _phrase_start(tokens: list[tuple[str, int, int]], i: int) -> int:
    """Where the phrase holding token ``i`` starts: after the nearest "is", "was", "as" ... up to four words
    before it ("is [a 501(c)(3) nonprofit]", "registered as [a GmbH]"), else at the token itself."""
    for j in range(i - 1, max(i - 5, -1), -1):
        if tokens[j][0].lower() in COPULAS:
            return tokens[j][2]
    return tokens[i][1]


def normal(value: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", value.lower()))


_IDENTIFIER_KEYS = frozenset(normal(name) for names in IDENTIFIER_NAMES for name in names)


# The recogniser's entities taken as candidates: a place is a city, region or country (a building, "Harvard
# Stadium", is a facility on the campus, not where the organisation is based).
CANDIDATE_LABELS = {"person": frozenset({"PERSON"}), "org": frozenset({"ORG"}), "place": frozenset({"GPE", "LOC"})}


def is_subject(q: Question, span: Span) -> bool:
    """The subject itself, by its words or spelled out from its acronym ("Kestrel Security Group" for KSG)."""
    words = span.text.split()
    return set(span.key.split()) <= set(q.subject_terms) | LEGAL_SUFFIXES or _spells_acronym(words, q.subject_acronyms)


# --- names with a legal form ----------------------------------------------------------------------

# A word of a body's name: capitalised ("Kandra", "Labs", "&") or a web address ("rami.io").
_NAME_WORD = re.compile(r"(?:[A-Z&][\w&'’.-]*|[a-z][\w-]*\.[a-z]{2,})")
# Forms written before the name in some jurisdictions: "SIA Monkey See" (Latvia), "UAB Acme" (Lithuania).
_PREFIX_FORMS = frozenset({"SIA", "UAB", "OOO"})
DOTTED_FORMS = frozenset({"inc", "ltd", "corp", "co"})  # legal forms written with their full stop ("Acme Inc.")
MAX_NAME_WORDS = 5


def legal_names(sentence: str) -> list[Span]:
    """The names of bodies written with a legal form, any body's: "Kandra Labs, Inc.", "rami.io GmbH", "Acme
    e.V.", "SIA Monkey See Monkey Do". A form is a word of :data:`LEGAL_SUFFIXES` written as forms are, with a
    capital or a full stop ("co" and "se" in prose are none), after a run of name words, or one of the few forms
    written before the name."""
    words = list(re.finditer(r"\S+", sentence))
    found = []
    for i, word in enumerate(words):
        form = word.group().rstrip(",;:)")
        if form in _PREFIX_FORMS:
            run = _name_after(words[i + 1:i + 1 + MAX_NAME_WORDS])
            if run:
                text = sentence[word.start():run[-1].start()] + run[-1].group().rstrip(",;:)")
                found.append(Span(text, word.start(), normal(text)))
        elif (form[:1].isupper() or "." in form) and form.lower().replace(".", "") in LEGAL_SUFFIXES:
            run = _name_before(words[max(0, i - MAX_NAME_WORDS):i])
            if run:
                bare = form.rstrip(".")  # a full stop after "GmbH" ends the sentence; "Inc." and "B.V." keep theirs
                text = sentence[run[0].start():word.start()] + (form if "." in bare or bare.lower() in DOTTED_FORMS
                                                                 else bare)
                found.append(Span(text, run[0].start(), normal(text)))
    return found


def _name_after(words: list[re.Match]) -> list[re.Match]:
    """The name words that open ``words``, up to the first that is none or that a comma ends."""
    run = []
    for word in words:
        bare = word.group().rstrip(",;:)")
        if not _NAME_WORD.fullmatch(bare):
            break
        run.append(word)
        if bare != word.group():
            break
    return run


def _name_before(words: list[re.Match]) -> list[re.Match]:
    """The name words that close ``words``; only the last may end in a comma ("Kandra Labs, Inc."), and a leading
    "The" is not the name's."""
    run: list[re.Match] = []
    for n, word in enumerate(reversed(words)):
        text = word.group().removesuffix(",") if n == 0 else word.group()
        if not _NAME_WORD.fullmatch(text):
            break
        run.insert(0, word)
    return run[1:] if run and run[0].group() == "The" else run


# --- no outside funding ---------------------------------------------------------------------------

_OUTSIDE_FUNDS = (r"(?:venture\s+capital|VC\b(?:\s+(?:funding|money|investment))?|investors|"
                  r"(?:outside|external|institutional)\s+(?:funding|investment|investors|capital|money))")
_ANY_FUNDS = rf"(?:{_OUTSIDE_FUNDS}|funding|investment)"
_NOT_A_CENT = r"(?:(?:a\s+single|one|a)\s+(?:dollar|euro|pound|penny|cent)\s+(?:of|in)\s+|any\s+)"
# Ways of saying that a company took no money from investors: "has never raised a single dollar of venture capital",
# "We got here without any outside investment", "No venture capital on our cap table", "We are self-funded".
# ("without funding from the EU, the project would not exist" says it was funded: without only before investors'
# money.)
_UNFUNDED = re.compile(
    rf"(?:\bnever|\bnot|n['’]t)\s+(?:\w+\s+){{0,2}}?(?:raised?|taken|take|took|accepted?|received?|sought|needed|had)"
    rf"\s+{_NOT_A_CENT}?{_ANY_FUNDS}\b"
    rf"|\bwithout\s+(?:{_NOT_A_CENT}?{_OUTSIDE_FUNDS}|{_NOT_A_CENT}{_ANY_FUNDS})\b"
    rf"|\bno\s+{_OUTSIDE_FUNDS}"
    r"|\b(?:self-funded|self-financed|bootstrapped|founder-funded|customer-funded)\b", re.IGNORECASE)


def unfunded_spans(sentence: str) -> list[Span]:
    """Where a sentence says a company took no money from investors, as written: "never raised outside funding"."""
    return [Span(m.group(), m.start(), "no outside funding") for m in _UNFUNDED.finditer(sentence)]


def entity_spans(sentence: str, labels: frozenset[str]) -> list[Span]:
    """The entities with one of ``labels``, a place's parts joined ("Sarasota, Florida")."""
    found: list[Span] = []
    for start, end, label in entities(sentence):
        if label not in labels:
            continue
        text = sentence[start:end]
        if text.lower().startswith("the "):
            start, text = start + 4, text[4:]
        if label == "PERSON" and len(text.split()) < 2:
            continue  # a first name alone ("Maria Lopez, our CFO, Tom, and I") names no one to put in a table
        if text.islower():
            continue  # a name is written with capitals: the recogniser's "their 1925 horror melodrama" is no person
        last = found[-1] if found else None
        if last and re.fullmatch(r",\s*", sentence[last.start + len(last.text):start]) and label in KIND_LABELS["place"]:
            text = sentence[last.start:end]
            found[-1] = Span(text, last.start, normal(text))
            continue
        found.append(Span(text, start, normal(text)))
    return found


def entity_labels(q: Question) -> frozenset[str] | None:
    """The entity labels that may state the value ``q`` asks for; None when no entity type decides it."""
    if q.kind == "person" and not q.officer:
        return KIND_LABELS["person"] | KIND_LABELS["org"]  # "founded by the Baptist Education Society"
    return KIND_LABELS.get(q.kind)


# --- licences -------------------------------------------------------------------------------------

# Licences offered together: "either the Apache 2.0 or the MIT licence", "MIT and Apache 2.0".
_LICENCE_CHOICE = re.compile(r"\s*(?:,|/|\bor\b|\band\b)\s*(?:the\s+)?")


def licence_spans(sentence: str) -> list[Span]:
    """The licences a sentence names (:mod:`._licence`); those offered together are one value, as written."""
    found: list[Span] = []
    for licence in licences(sentence):
        last = found[-1] if found else None
        if last is not None and _LICENCE_CHOICE.fullmatch(sentence[last.start + len(last.text):licence.start]):
            text = sentence[last.start:licence.start + len(licence.text)]
            found[-1] = Span(text, last.start, f"{last.key} | {licence.key}")
        else:
            found.append(Span(licence.text, licence.start, licence.key))
    return found


# --- a name the subject had before ----------------------------------------------------------------

_RENAME_NAME = r"[A-Z0-9][\w&'’-]*(?:\.[\w-]+)*(?:\s+(?:&\s+)?[A-Z0-9][\w&'’-]*(?:\.[\w-]+)*){0,5}"
# The English ways of saying that a body took a new name, with the old one and the new one.
_RENAMES = tuple(re.compile(pattern) for pattern in (
    # "Acme, formerly known as Globex Labs", "Acme (formerly Globex Labs)", "we were previously called Globex"
    (rf"(?P<new>{_RENAME_NAME}|[Ww]e)\.?(?:,?\s+|\s+\()(?:(?:is|was|were|has been|have been)\s+)?"
    rf"(?:formerly|previously|f/k/a|fka)"
    rf"\s+(?:known\s+as\s+|called\s+)?(?P<old>{_RENAME_NAME})"
    # ...where the name ends the clause: "Acme, previously CTO of Globex" names no former name.
    r"(?=\s*(?:[),.;:!?]|$|\s(?:and|until|before|in|which|is|was|has|had)\b))"),
    # "Globex Labs changed its name to Acme", "Globex Labs was renamed Acme", "Globex Labs rebranded as Acme"
    # (or "will from now on be called Acme"), with a phrase set beside the old name ("Globex Labs, the company
    # behind Widget, ...")
    (rf"(?P<old>{_RENAME_NAME})(?:,\s+[^,]{{1,80}},)?\s+(?:has\s+|have\s+)?(?:officially\s+)?"
    rf"(?:changed\s+(?:its|their)\s+name\s+to|(?:was|has\s+been|is\s+being)\s+renamed(?:\s+to|\s+as)?"
    rf"|rebranded(?:\s+itself)?\s+(?:as|to)|renamed\s+itself|is\s+now(?:\s+called|\s+known\s+as)?"
    rf"|will\s+(?:now\s+|from\s+now\s+on\s+|henceforth\s+)?be\s+(?:called|known\s+as|named))"
    rf"\s+(?P<new>{_RENAME_NAME})"),
    # "renamed the company from Globex Labs to Acme", "the rebrand from Globex Labs to Acme", "we changed the name of
    # the company operating Widget from Globex Labs to Acme"
    (rf"(?:renamed|rebranded|rebrand|name\s+change)(?:\s+(?:the\s+)?(?:company|business|firm|organi[sz]ation))?"
    rf"\s+from\s+(?P<old>{_RENAME_NAME})\s+to\s+(?P<new>{_RENAME_NAME})"),
    (rf"changed\s+(?:the|its|our|their)\s+name(?:\s+of\s+the\s+(?:company|business|firm|organi[sz]ation)"
    rf"(?:\s+\w+){{0,3}})?\s+from\s+(?P<old>{_RENAME_NAME})\s+to\s+(?P<new>{_RENAME_NAME})"),
))


_WEB_SUFFIX = re.compile(r"\.(?:com|io|ai|co|net|org|app|dev)$", re.I)  # "Acme.io" is Acme


def former_names(q: Question, sentence: str, ours: bool = False) -> list[Span]:
    """The names ``sentence`` says the subject had before taking its present one, as the English ways of saying
    so write them: "Acme, formerly known as Globex Labs"; "Globex Labs changed its name to Acme"; "Globex Labs is
    now Acme"; "renamed from Globex Labs to Acme" (the new name must be the subject's, or "we" where ``ours``: on
    the subject's own site or page)."""
    found = []
    for pattern in _RENAMES:
        for match in pattern.finditer(sentence):
            new, old = _WEB_SUFFIX.sub("", match.group("new")), _without_lead_words(match.group("old"))
            renamed = (ours and new.lower() == "we") or _only_the_subject(q, new)
            if not old or re.search(r"-[a-z]", old) or not renamed:
                continue  # "Acme, formerly VC-backed": no name; "Acme Studio (formerly Widget Pro)": a product's
            if is_subject(q, Span(old, 0, normal(old))):
                continue  # "Acme was renamed Acme Robotics": the old name is the subject's own
            start = match.start("old") + max(match.group("old").find(old.split()[0]), 0)
            found.append(Span(old, start, normal(old)))
    return sorted(found, key=lambda span: span.start)


def _only_the_subject(q: Question, name: str) -> bool:
    """The name is the subject's and nothing more: "Acme", "Acme Inc.", "ACME" (not "Acme Studio", a product)."""
    words = set(normal(name).split()) - LEGAL_SUFFIXES
    return bool(words) and words <= set(q.subject_terms) | set(q.subject_acronyms)


def _without_lead_words(name: str) -> str:
    """A name without the words a sentence opens with before it ("In 2017 Globex Labs", "In March 2019 Globex
    Labs" -> Globex Labs; not the "The" of "The Browser Company" or the "May" of "May Mobility") or a trailing full
    stop."""
    words = name.rstrip(".").split()
    months = {month.lower() for month in MONTHS.split("|")}
    while len(words) > 1 and (words[0].lower() in _OPENING_WORDS or words[0].isdigit() or words[0] == "the"
                              or (words[0].lower() in months and words[1].isdigit())):
        words = words[1:]  # an article written in lower case is no part of the name ("the Kestrel Trust")
    return "" if words and words[0].lower() in ("the", "a", "an") and len(words) == 1 else " ".join(words)


_OPENING_WORDS = frozenset("in on at since after before by from during and but then today also when while as".split())


# --- names listed by the English ways of naming investors and customers ----------------------------

_LISTED_NAME = (r"(?<![\w'’.-])(?:the\s+)?[A-Z][\w&'’.-]*"
                r"(?:\s+(?:&\s+|of\s+|de\s+|van\s+|von\s+)?[A-Z0-9][\w&'’.-]*){0,5}")
_NAME_LIST = (rf"(?P<names>{_LISTED_NAME}(?:\s*,\s*(?:and\s+)?{_LISTED_NAME}|\s+and\s+{_LISTED_NAME}"
              rf"|\s*,?\s+as\s+well\s+as\s+{_LISTED_NAME})*)")
_NOT_NAMES = frozenset("series seed round".split())
# After a name: a noun it describes ("Google Cloud infrastructure") or the verb of a quote ("Roe said").
_MODIFIES_OR_SPEAKS = re.compile(r"\s+(?:said|says|added|adds|noted|told|explained|infrastructure|platform|services?"
                                 r"|experts?|team|teams|engineers?|companies|products?|tools?)\b")


def _listed_names(q: Question, match: re.Match) -> list[Span]:
    """The names of a list a pattern matched (its ``names`` group), each as written; never the subject."""
    text, start = match.group("names"), match.start("names")
    found = []
    for name in re.finditer(_LISTED_NAME, text):
        text_of_name = _without_lead_words(name.group())
        words = text_of_name.split()
        if not words or all(w.lower() in _NOT_NAMES or w.lower() in english_stopwords() for w in words):
            continue  # "You use your relationships across Acme": a pronoun opening a sentence names no one
        if re.search(r"['’]s$", words[-1]):
            continue  # "Microsoft's use of the term": a possessive names no one listed
        if _MODIFIES_OR_SPEAKS.match(match.string, start + name.end()):
            continue  # "backed by Google Cloud infrastructure", "led by Northwind Capital, Roe said"
        at = start + name.start() + name.group().index(words[0])
        span = Span(text_of_name, at, normal(text_of_name))
        if not is_subject(q, span) and not mentions_subject(q, span.text):
            found.append(span)
    return found


def _distinct(spans: list[Span]) -> list[Span]:
    return sorted({span.key: span for span in spans}.values(), key=lambda span: span.start)


# The English ways of naming who invests: "led by", "with participation from", "funding from", "an investment by",
# "joined by", "backed by", "existing investors X and Y", "investors include X"; and "X and Y also participated".
_LED_BY = re.compile(rf"\b(?:co-)?led\s+by\s+{_NAME_LIST}")
_JOINED_BY = tuple(re.compile(pattern) for pattern in (
    (rf"\b(?:participation|support|funding|grants?|investment|donations?)"
    rf"(?:\s+(?:comes?|came|mostly|primarily|mainly|largely))*\s+(?:from|of|by)\s+"
    rf"(?:(?:existing|new|returning)\s+investors?\s+)?{_NAME_LIST}"),
    rf"\b(?:joined|backed|funded|supported)\s+by\s+(?:(?:existing|new|returning)\s+investors?\s+)?{_NAME_LIST}",
    rf"\balongside\s+(?:(?:existing|new|returning)\s+investors?\s+)?{_NAME_LIST}",
    rf"\b(?:existing|new|returning|other|previous)\s+investors?,?\s+(?:including\s+|such\s+as\s+)?{_NAME_LIST}",
    rf"\binvestors?\s+(?:include|included|including|such\s+as|like)\s+{_NAME_LIST}",
))
# "Fabrikam and Contoso also participated in the round": what they took part in must be the subject's.
_INVESTED_IN = re.compile(rf"{_NAME_LIST}\s+(?:also\s+)?(?:participated|invested|joined|took\s+part)\b(?P<what>[^.;]*)")
# A sentence that names investors speaks of money: "support from Globex experts" and "exhibited alongside Globex"
# name none.
_FUNDING = re.compile(r"\b(?:rounds?|financing|investments?|invest\w*|funding|funded|raised?|raises|series\s+[a-h]"
                      r"|seed|backed|grants?|donations?|capital)\b", re.I)


def investor_names(q: Question, sentence: str) -> tuple[list[Span], list[Span]]:
    """The investors ``sentence`` names, as the English ways of saying so write them: those that led a round ("led
    by Northwind Capital") and the others ("with participation from the Fabrikam Fund and Contoso Group",
    "backed by ...", "existing investor Contoso Group"); never the subject itself."""
    if not _FUNDING.search(sentence):
        return [], []
    led = [span for match in _LED_BY.finditer(sentence) for span in _listed_names(q, match)]
    others = [span for pattern in _JOINED_BY for match in pattern.finditer(sentence)
              for span in _listed_names(q, match)]
    others += [span for match in _INVESTED_IN.finditer(sentence)
               if mentions_subject(q, match.group("what")) or re.search(r"\bround\b", match.group("what"))
               for span in _listed_names(q, match)]
    return led, _distinct([span for span in others if not any(span.key == lead.key for lead in led)])


# The English ways of naming a company's customers: "customers include X", "trusted by X and Y", "used by teams
# at X", "companies such as X and Y rely on Acme", "X and Y use Acme".
_USING = r"(?:use|uses|used|rely\s+on|relies\s+on|trust|trusts|run\s+on|runs\s+on|chose|choose|deploy|depend\s+on)"
_CUSTOMERS_LISTED = tuple(re.compile(pattern) for pattern in (
    rf"\b(?:customers?|clients?|users?)\s+(?:include|included|including|such\s+as|like)\s+{_NAME_LIST}",
    (rf"\b(?i:trusted|loved|chosen|relied\s+on)\s+by\s+(?:(?:companies|teams|enterprises|organi[sz]ations|brands"
     rf"|customers|leaders|businesses)\s+(?:like|such\s+as|including|at)\s+)?{_NAME_LIST}"),
    # "used by" only with the users' noun: "cookies used by Google Analytics" names no customer
    (rf"\b(?i:used)\s+by\s+(?:companies|teams|enterprises|organi[sz]ations|brands|customers|leaders|businesses)"
     rf"\s+(?:like|such\s+as|including|at)\s+{_NAME_LIST}"),
))
_CUSTOMERS_DOING = re.compile(
    rf"(?:\b(?:companies|enterprises|organi[sz]ations|businesses|brands|teams|customers|clients)\s+(?:such\s+as|like"
    rf"|including)\s+)?{_NAME_LIST},?\s+(?:all\s+|also\s+|already\s+)?{_USING}\b(?!\s+(?:of|by)\b)(?P<used>[^.;]*)")


def customer_names(q: Question, sentence: str) -> list[Span]:
    """The customers ``sentence`` names as the subject's, as the English ways of saying so write them: "our
    customers include Contoso and Fabrikam", "trusted by Contoso", "enterprises such as Contoso and Fabrikam rely
    on Acme" (the subject must be what they use); never the subject itself."""
    found = [span for pattern in _CUSTOMERS_LISTED for match in pattern.finditer(sentence)
             for span in _listed_names(q, match)]
    found += [span for match in _CUSTOMERS_DOING.finditer(sentence) if mentions_subject(q, match.group("used"))
              for span in _listed_names(q, match)]
    return _distinct(found)


# --- who joined the board ---------------------------------------------------------------------------

_JOINER = r"(?P<name>[A-Z][\w'’.-]+(?:\s+(?:de\s+|van\s+|von\s+|der\s+|da\s+)?[A-Z][\w'’.-]+){1,3})"
_BESIDE = r"(?:,[^,.;]{1,80},|\s+(?:of|from|at)\s+[A-Z][^,.;]{0,40}?)?"  # "Jane Roe, partner at Globex," / "of Globex"
# "Acme's board", "its board of directors", "the supervisory board"; not "joins Acme on board", nor an advisory board.
_A_BOARD = (r"(?P<board>(?:the|its|our|their|his|her|(?:[A-Z][\w&.-]*\s+){0,3}[A-Z][\w&.-]*(?:['’]s|(?<=s)['’]))"
            r"\s+(?:(?!advisory\b)[a-z]+\s+)?board"
            r"(?:\s+of\s+(?:directors\s+of\s+)?[A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*)*)?)\b")
_JOINING = rf"{_JOINER}{_BESIDE}\s+(?:has\s+|have\s+|will\s+|is\s+set\s+to\s+|also\s+)?(?:joins?|joined|joining)"
# The English ways of saying someone took a seat on a board.
_BOARD_JOINS = tuple(re.compile(pattern) for pattern in (
    rf"{_JOINING}\s+{_A_BOARD}",
    # "Jane Roe will join John Doe on our board": the one joining, beside those who sit on it
    rf"{_JOINING}\s+(?:[A-Z][\w'’.-]*(?:\s+\([^()]{{1,60}}\))?(?:\s+|,\s+|\s+and\s+)){{1,8}}?on\s+{_A_BOARD}",
    (rf"\b(?i:welcome[sd]?|appoint(?:s|ed)?|elect(?:s|ed)?|add(?:s|ed)?|name[sd]?)\s+{_JOINER}{_BESIDE}"
    rf"\s+to\s+{_A_BOARD}"),
    (rf"{_JOINER}{_BESIDE}\s+(?:has\s+been|have\s+been|was|is|will\s+be)\s+(?:appointed|elected|named|added)"
    rf"\s+to\s+{_A_BOARD}"),
    rf"{_JOINER}{_BESIDE}\s+(?:takes?|took|will\s+take|holds?|has)\s+a\s+seat\s+on\s+{_A_BOARD}",
    rf"{_JOINER}{_BESIDE}\s+(?:also\s+)?(?:sits?|serves?|served)\s+on\s+{_A_BOARD}",
))
# "Board of directors: Jane Roe, John Doe", "Our board members include Jane Roe and John Doe".
_BOARD_LISTED = re.compile(rf"(?P<board>\b(?i:board)(?:\s+(?:of\s+directors|members?))?)"
                           rf"(?:\s*:|\s+(?:include|includes|are))\s+{_NAME_LIST}")


def board_joiners(q: Question, sentence: str) -> list[Span]:
    """The people ``sentence`` says took or hold a seat on a board, as the English ways of saying so write them: "Jane
    Roe of Northwind Capital joins Acme's board" (Jane Roe, not Northwind Capital); "Acme welcomes Jane Roe, partner
    at Northwind Capital, to its board"; "Jane Roe has been appointed to the board"; "Jane Roe sits on the board";
    "Board of directors: Jane Roe, John Doe"."""
    found = []
    for pattern in _BOARD_JOINS:
        for match in pattern.finditer(sentence):
            owner = re.search(r"^([A-Z].*?)(?:['’]s|(?<=s)['’])\s|\bof\s+(?!directors\b)(.+)$",
                              match.group("board"))
            if owner and not mentions_subject(q, owner.group(1) or owner.group(2)):
                continue  # "Jane Roe joined Globex's board", "... sits on the board of Globex"
            people = _person_spans(q, match.group("name"))
            if people and not is_subject(q, people[0]):
                found.append(Span(people[0].text, match.start("name") + people[0].start, people[0].key))
    for match in _BOARD_LISTED.finditer(sentence):
        found += [Span(person.text, name.start + person.start, person.key) for name in _listed_names(q, match)
                  for person in _person_spans(q, name.text)[:1] if not is_subject(q, person)]
    return _distinct(found)


# --- where someone worked before ----------------------------------------------------------------------

# The English ways of naming where someone worked before: "joins from Globex", "previously at Globex", "was
# formerly VP of Sales at Globex", "spent ten years at Globex", "before joining Acme, she led sales at Globex", "has
# held senior roles at Globex and Initech".
_WORKED_AT = tuple(re.compile(pattern) for pattern in (
    rf"\b(?:joins|joined|joining|comes|came|moves|moved|arrives|arrived)\s+(?:\S+\s+){{0,2}}?from\s+{_NAME_LIST}",
    (rf"\b(?:previously|formerly|earlier|before\s+that|prior\s+to\s+that)\b[^.;]{{0,80}}?\b(?:at|with|for)"
    rf"\s+{_NAME_LIST}"),
    rf"\b(?:spent|after)\s+[^.;]{{0,40}}?\b(?:years?|months?|decades?)\s+(?:at|with)\s+{_NAME_LIST}",
    (rf"\b(?i:before|prior\s+to)\s+(?:joining|coming\s+to)\s+[^,]{{1,40}},\s+[^.;]{{0,80}}?\b(?:at|with|for)"
    rf"\s+{_NAME_LIST}"),
    rf"\b(?:held|holding)\s+[^.;]{{0,60}}?\b(?:positions?|roles?)\s+(?:at|with)\s+{_NAME_LIST}",
))


def former_employers(q: Question, sentence: str) -> list[Span]:
    """The organisations ``sentence`` says someone worked at before, as the English ways of saying so write them;
    never the subject itself."""
    return _distinct([span for pattern in _WORKED_AT for match in pattern.finditer(sentence)
                      for span in _listed_names(q, match)])
