"""One reader for offline answers: the question's type, the sentences that answer it, the typed span.

``cikb ask`` (extractive mode) and ``cikb enrich`` (lookup and research without an LLM) both read
retrieved text through this module, so the same chunks give the same answer to the same question.

1. :func:`read_question` types the question — ``year``, ``date``, ``number``, ``money``, ``person``,
   ``org``, ``place`` or free ``text`` (a column may also ask for an ``option`` of a select or a
   ``boolean``) — and keeps its key terms as Snowball stems (the stems BM25 uses), the subject's own
   words left out.
2. :func:`split_sentences`: the sentences to weigh, cut by the one splitter (:mod:`cikb.core.sentences`).
3. Each sentence is scored: the IDF-weighted share of the key terms it holds (one table of
   relation words, :mod:`cikb.core.vocabulary`, which retrieval widens its BM25 query with:
   founded ~ established ~ formed, headquartered ~ based ~ located ...; related words count half;
   a sentence whose subject is a pronoun also holds the words of the one before it), whether it is about the subject (named as the subject, or mentioned), a
   prior for better-ranked passages, and penalties for negations and legal pages. Lines that address
   the reader as instructions (:mod:`cikb.answer.instructions`) are not read at all.
4. Typed spans are read from the best sentences: dates validated and normalised with ``dateparser``,
   money with ``price-parser``, numbers written as words with ``number-parser``, names and places
   from capitalisation and the words around them (spaCy's ``en_core_web_sm`` was measured for
   this and not adopted: see the README's *Ask* section).
5. :func:`read` votes among the best sentences' values and says how sure it is: ``high`` needs the
   sentence to hold every key term, be about the subject, tie the value tightly to the question's
   predicate ("was founded in 2013"), hold no negation and no equally strong sentence to propose another value. Free
   text is never more than ``low``, a boolean never more than ``medium``.

When no sentence holds a value of the kind asked, :class:`Reading` has no answer: callers say so
rather than quote unrelated sentences.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from functools import cache, lru_cache
from typing import Any, Literal

from cikb.answer.entities import KIND_LABELS, KIND_VETOES, entities, vetoed
from cikb.answer.instructions import without_instructions
from cikb.core import sentences as sentence_splitter
from cikb.core.vocabulary import RELATED_WEIGHT, match_weight, relation
from cikb.embed.bm25 import english_stopwords
from dateparser.date import DateDataParser
import phonenumbers
from number_parser import parse_number
from price_parser import Price
from py_rust_stemmers import SnowballStemmer

Kind = Literal["year", "date", "number", "money", "person", "org", "place", "contact", "option", "boolean", "text"]
Confidence = Literal["high", "medium", "low", "none"]
TYPED_KINDS = frozenset({"year", "date", "number", "money", "person", "org", "place", "contact", "option"})
# What a reader calls the value a question of each kind wants (for "no sentence states ...").
KIND_NOUNS = {"year": "a year", "date": "a date", "number": "a number", "money": "an amount of money",
              "person": "a name", "org": "an organisation's name", "place": "a place",
              "contact": "an e-mail address, a phone number or a web address", "option": "one of the options",
              "boolean": "a yes or no", "text": "an answer"}

MIN_WORDS = 4  # a shorter piece of prose ("Read more", a lone label) is no sentence to weigh
MAX_SENTENCES = 8  # the best sentences that vote on a typed value
MAX_PARSED = 16  # the best sentences the entity recogniser reads for a typed value (about 7 ms each)
FREE_TEXT_SHARE = 0.6  # of the question's key terms (IDF-weighted) that a free-text answer must hold
NAME_KINDS = frozenset({"person", "org", "place"})  # values the entity recogniser finds, not only confirms
NEGATION_PENALTY = 0.5
BOILERPLATE_PENALTY = 0.1
RANK_PRIOR, CUE_BONUS = 0.05, 0.15
# A sentence's score by whether it is about the question's subject: its subject, mentioned, not named.
ABOUT_SUBJECT = {2: 1.0, 1: 0.8, 0: 0.5}
AGREEMENT_WEIGHT = 0.15
RIVAL_DISTANCE = 12  # a sentence about the subject proposing another value this close to the predicate is a rival
NEAR = 8  # tokens between a value and the question's predicate that still tie them

# --- words ------------------------------------------------------------------------------------

_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9&'’\-]*")
_WH_WORDS = frozenset({"who", "whom", "whose", "when", "where", "what", "which", "how", "why"})
# Words a question asks with that say nothing about the answer's content.
_QUESTION_FILLER = frozenset(
    """company companies organisation organization firm business year years name named date kind type status many much
    number currently current today ever also tell give know""".split()
)
_LEGAL_SUFFIXES = frozenset({"inc", "ltd", "llc", "corp", "plc", "co", "gmbh", "ag", "sa", "limited", "corporation"})

# Words Snowball merges with a different word: "can be found" is not "founded", "the club's form" is not "formed".
_STEM_EXCEPTIONS = {"found": "find", "form": "form-noun", "forms": "form-noun"}

_NEGATION = re.compile(r"\b(?:never|not|no|don't|doesn't|didn't|won't|cannot|can't|neither|nor)\b", re.IGNORECASE)
# Pages whose sentences rarely answer questions about the company itself.
_BOILERPLATE_TITLE = re.compile(r"\b(?:legal|privacy|cookies?|terms|imprint|disclaimer|impressum)\b", re.IGNORECASE)


@cache
def _stemmer() -> SnowballStemmer:
    return SnowballStemmer("english")


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A word's Snowball stem (the stems BM25 uses), lowercased; 'found' alone is the past of 'find'."""
    lower = word.lower().strip("'’").replace("’", "'")
    if lower.endswith("'s"):
        lower = lower[:-2]
    return _STEM_EXCEPTIONS.get(lower) or _stemmer().stem_word(lower)


def _tokens(text: str) -> list[tuple[str, int, int]]:
    return [(m.group(), m.start(), m.end()) for m in _WORD.finditer(text)]


def _stems_of(word: str) -> set[str]:
    """The stems of a word and of its hyphenated parts ("co-founded" -> co-found, co, found)."""
    stems = {stem(word)}
    if "-" in word:
        stems.update(stem(part) for part in word.split("-") if part)
    return stems


# --- the question -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Question:
    """What a question asks for, as far as plain text analysis can tell."""

    text: str
    kind: Kind
    terms: tuple[str, ...]  # the key terms' stems; the subject's own words are never key terms
    keywords: tuple[str, ...]  # the key words as written (for search queries)
    subject_terms: tuple[str, ...] = ()  # every word and acronym of the subject's name, lowercased
    subject_words: tuple[str, ...] = ()  # the name's distinctive words
    subject_acronyms: tuple[str, ...] = ()
    options: tuple[str, ...] = ()
    percent: bool = False  # a number question that asks for a share
    officer: bool = False  # a person question about a role only a person holds (CEO, director...)
    wants: Literal["agent", "patient"] | None = None  # of a directed predicate: who acquired Acme / what Acme acquired
    cumulative: bool = False  # an amount or a count with no one event named: "How much funding has Acme raised?"
    contact: Literal["email", "phone", "web"] | None = None  # what a contact question asks for


_MONEY_WORDS = frozenset(
    "revenue revenues turnover sales price prices cost costs funding fund raise raised valuation valued worth income "
    "profit profits budget salary capital spend spent pay paid fee fees".split()
)
_ORG_WORDS = frozenset("organisation organization organisations organizations company companies institution "
                       "agency firm group body society foundation government".split())
_PLACE_WORDS = frozenset("city country state place address town region county headquarters headquartered based "
                         "located location continent".split())
# Roles only a person holds (an owner or a founder may be an organisation).
_OFFICER_ROLES = frozenset("ceo cto cfo coo president chairman chairwoman chairperson director executive chief manager editor leader".split())
_CONTACT_WORDS = frozenset("email e-mail phone telephone fax website url homepage".split())
# Which contact a question asks for, by its words; a sentence holding one counts as holding them.
_CONTACT_ASKED = {"email": frozenset("email e-mail mail address".split()),
                  "phone": frozenset("phone telephone fax number".split()),
                  "web": frozenset("website url homepage web address site".split())}
_EMAIL_RE = re.compile(r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[A-Za-z]{2,}(?![\w-])")
_WEB_RE = re.compile(r"\bhttps?://[^\s<>()\[\]]*[^\s<>()\[\].,;:!?'\"]|\bwww\.[\w-]+(?:\.[\w-]+)+(?:/[^\s<>()\[\]]*[^\s<>()\[\].,;:!?'\"])?")
_PERSON_ROLES = frozenset("ceo founder founders president chairman chairwoman chair director executive chief "
                          "head leader owner cto cfo coo manager editor".split())


def read_question(question: str, column_type: str | None = None, company: str = "",
                  options: Sequence[str] = ()) -> Question:
    """Type ``question`` and keep its key terms. ``column_type`` (number, boolean, select, text) narrows
    the type; ``company`` is the subject, whose own words are never key terms."""
    words = [w for w, _, _ in _tokens(question)]
    lower = [w.lower() for w in words]
    subject_words, acronyms = _name_parts(company) if company else ((), ())
    own = set(subject_words) | set(acronyms) | {w.lower() for w, _, _ in _tokens(company)}
    own |= _without_possessive(own)  # "Let's Encrypt" is named "Let’s Encrypt" and "Let"
    own |= _aliases(question, own)
    referring = _refers_to_subject(lower)
    names_another = any(w[:1].isupper() for w in words[1:] if w != "I")
    if company and referring and not names_another:
        own |= referring  # "the company's legal name", "its address": the subject, named another way
    elif not own & (set(lower) | {_bare(w) for w in lower}):
        # The question names something else ("When did Let's Encrypt issue ..."): its words are the key
        # terms, and the evidence need not name the row's company.
        subject_words, acronyms, own = (), (), set()
    stop = english_stopwords() - {"other"}  # "what other projects": the answer is an other one
    kept = _without_exclusions(lower)
    keywords = tuple(dict.fromkeys(
        w for w in kept
        if w not in stop and w not in _WH_WORDS and w not in _QUESTION_FILLER and len(w) > 1
        and not _is_own(w, own)
    ))
    terms = tuple(dict.fromkeys(stem(w) for w in keywords))
    kind = _kind(_typing_words(lower, own), column_type)
    percent = any(w in ("percent", "percentage", "share", "proportion") for w in lower)
    officer = not _OFFICER_ROLES.isdisjoint(lower)
    wants = _wanted_role(lower, own) if kind in ("person", "org") else None
    cumulative = kind in ("money", "number") and not _ONE_EVENT.search(question) and not _YEAR_RE.search(question)
    contact = _contact_asked(lower) if kind == "contact" else None
    return Question(question, kind, terms, keywords, tuple(sorted(own)), subject_words, acronyms, tuple(options), percent,
                    officer, wants, cumulative, contact)


def _refers_to_subject(lower: list[str]) -> set[str]:
    """The words by which a question that does not name its subject refers to it: a possessive or personal
    pronoun ("its", "they") or a determiner and a noun for an organisation ("the company", "this firm's")."""
    words = {w for w in lower if w in ("it", "its", "they", "their", "them")}
    for before, word in zip(lower, lower[1:]):
        noun = _bare(word)
        if before in ("the", "this", "your", "that") and noun in _SELF_NOUNS:
            words |= {word, noun}
    return words


# An amount asked with no one event named is the running total, where a sentence states one.
_ONE_EVENT = re.compile(r"\b(?:series|round|seed|ipo|last|latest|first|recent|most recent|per|each|annual|yearly|monthly)\b", re.I)
_TOTAL = re.compile(r"\b(?:a total of|in total|total(?:ing)?|to date|so far|altogether|cumulative(?:ly)?)\b", re.I)


# Predicates with a direction: who acquired whom, who invested in whom, who operates, owns, runs or provides
# what. A question asks for one side.
_DIRECTED_STEMS = relation("acquir") | {"invest", "oper", "own", "run", "provid"}
_PASSIVE = frozenset("was were is are be been being get got gets".split())


def _wanted_role(lower: list[str], own: set[str]) -> Literal["agent", "patient"] | None:
    """"Who acquired Acme?" wants the agent; "What companies has Acme acquired?" the patient; None without a
    directed predicate or without the subject. The subject asked about receives the predicate only when it
    stands between the question word and the predicate: "What is Acme and who provides it?" wants the agent."""
    predicate = next((i for i, w in enumerate(lower) if stem(w) in _DIRECTED_STEMS), None)
    subject = next((i for i, w in enumerate(lower) if _is_own(w, own)), None)
    if predicate is None or subject is None:
        return None
    if "by" in lower[predicate:] or (subject < predicate and _PASSIVE & set(lower[subject:predicate])):
        return "agent"  # "Acme was acquired by whom?", "Which company was Acme acquired by?"
    asking = max((i for i in range(predicate) if lower[i] in _WH_WORDS), default=0)
    between = any(_is_own(w, own) for w in lower[asking:predicate])
    return "patient" if between else "agent"


def _subject_is_patient(q: Question, sentence: str) -> bool:
    """Whether the sentence's first mention of the subject receives a directed predicate ("Globex acquired Acme")."""
    own = set(q.subject_terms)
    for word, start, _ in _tokens(sentence):
        if _is_own(word.lower(), own) and _bare(word.lower()) not in _GENERIC_NAME_WORDS:
            return _role_in_sentence(sentence, Span(word, start, word.lower())) == "patient"
    return False


def _role_in_sentence(sentence: str, span: Span) -> Literal["agent", "patient"] | None:
    """Which side of the nearest directed predicate a name stands on: "Globex acquired Acme" (Globex the agent,
    Acme the patient), "Acme was acquired by Globex" (the same), "the acquisition of Acme"; None without one."""
    return _side_of_predicate(sentence, span)[0]


def _side_of_predicate(sentence: str, span: Span) -> tuple[Literal["agent", "patient"] | None, bool]:
    """The name's side of the nearest directed predicate (as :func:`_role_in_sentence`), and whether the name
    stands after it: an agent after the predicate is the agent of its by-phrase."""
    tokens = _tokens(sentence)
    predicates = [i for i, (w, _, _) in enumerate(tokens) if stem(w) in _DIRECTED_STEMS]
    if not predicates:
        return None, False
    at = next((i for i, (_, a, _) in enumerate(tokens) if a >= span.start), len(tokens))
    nearest = min(predicates, key=lambda i: abs(i - at))
    if at > nearest:  # after the predicate: the object, or the agent of a by-phrase
        between = {w.lower() for w, _, _ in tokens[nearest + 1:at]}
        return ("agent" if "by" in between else "patient"), True
    before = {w.lower() for w, _, _ in tokens[max(0, nearest - 2):nearest]}
    return ("patient" if before & _PASSIVE else "agent"), False


# "ISRG / Let's Encrypt", "Acme Corp / Acme Labs": names on either side of a slash name one subject.
_SLASHED_NAMES = re.compile(r"([A-Z][\w'’&.\-]*(?:\s+[A-Z][\w'’&.\-]*)*)\s*/\s*([A-Z][\w'’&.\-]*(?:\s+[A-Z][\w'’&.\-]*)*)")


def _aliases(question: str, own: set[str]) -> set[str]:
    """The words of a name the question gives as another name of the subject ("ISRG / Let's Encrypt"):
    they are the subject's own words, not key terms a sentence must hold."""
    aliases: set[str] = set()
    for match in _SLASHED_NAMES.finditer(question):
        sides = [{w.lower() for w, _, _ in _tokens(side)} for side in match.groups()]
        for this, other in (sides, sides[::-1]):
            if this & own:
                aliases |= other | _without_possessive(other)
    return aliases


def _bare(word: str) -> str:
    """A question's word without its possessive ending: "acme's" and "labs'" name the subject "Acme", "Labs"."""
    return word.replace("’", "'").removesuffix("'s").rstrip("'")


def _is_own(word: str, own: set[str]) -> bool:
    """Whether a question's word is a word of the subject's name, possessive or not."""
    return _bare(word) in own or word.replace("’", "'") in own


def _typing_words(lower: list[str], own: set[str]) -> list[str]:
    """The question's words its kind is read from: without the subject's name, so that "What was Brightwater
    Labs' revenue?" asks "what ... revenue" as "What was Acme's revenue?" does, though a word of the name that
    says what is asked stays ("What company owns the American Broadcasting Company?"); and without "based on",
    which names no place."""
    cues = _ORG_WORDS | _PLACE_WORDS | _MONEY_WORDS | _PERSON_ROLES | _CONTACT_WORDS
    kept = [w for w in lower if w in cues or not _is_own(w, own)] or lower
    return [w for i, w in enumerate(kept) if not (w == "based" and kept[i + 1:i + 2] in (["on"], ["upon"]))]


def _without_possessive(words: set[str]) -> set[str]:
    """Each word with a straight apostrophe and no possessive 's ("let’s" -> "let")."""
    return {_bare(w) for w in words}


_EXCLUDING = re.compile(r"\b(?:besides|except|excluding|other than|apart from|aside from|beyond)\b")


def _without_exclusions(lower: list[str]) -> list[str]:
    """The question's words without what it excludes: 'besides Let's Encrypt', 'other than its CEO'."""
    text = " ".join(lower)
    match = _EXCLUDING.search(text)
    if match is None:
        return lower
    return [w for w in text[:match.start()].split() if w != "other" or "other than" not in match.group()]


def _kind(lower: list[str], column_type: str | None) -> Kind:
    first = lower[0] if lower else ""
    asks_year = "year" in lower or "decade" in lower or "century" in lower
    asks_when = "when" in lower or asks_year or (("date" in lower or "day" in lower) and ("what" in lower or "which" in lower))
    if column_type == "select":
        return "option"
    if column_type == "boolean":
        return "boolean"
    if column_type == "number":
        if asks_when:
            return "year"
        return "money" if _MONEY_WORDS & set(lower) else "number"
    if asks_when:
        return "year" if asks_year else "date"
    if "how" in lower and ("many" in lower or "much" in lower):
        return "money" if "much" in lower and (_MONEY_WORDS & set(lower) or "cost" in lower) else "number"
    if _CONTACT_WORDS & set(lower):
        return "contact"  # "What is its email address / phone number?" asks for neither a place nor a quantity
    if _asks_for(lower, ("what", "which"), ("percentage", "percent", "number", "amount", "total")):
        return "money" if _MONEY_WORDS & set(lower) else "number"
    if _asks_for(lower, ("what", "which"), tuple(_MONEY_WORDS)):
        return "money"
    if first in ("who", "whom", "whose") or "whom" in lower or (first == "who"):
        return "person"
    if "who" in lower:  # "What is Acme and who runs it?": the name is the part a sentence can state
        return "person"
    if _asks_for(lower, ("what", "which"), tuple(_ORG_WORDS)):
        return "org"
    if "where" in lower or _asks_for(lower, ("what", "which", "in"), tuple(_PLACE_WORDS)) or "address" in lower:
        return "place"
    if _asks_for(lower, ("what", "which"), tuple(_PERSON_ROLES)) and "is" in lower:
        return "person"
    return "text"


def _asks_for(lower: list[str], wh: tuple[str, ...], nouns: tuple[str, ...]) -> bool:
    """'what city', 'which organisation', 'what is the revenue': a wh-word followed, within three words, by one of ``nouns``."""
    for i, word in enumerate(lower):
        if word in wh and any(w in nouns for w in lower[i + 1:i + 4]):
            return True
    return False


def _name_parts(label: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The distinctive words of a name and its acronyms: 'Royal Institute of British Architects (RIBA)'
    -> (royal, institute, british, architects), (riba,)."""
    stop = english_stopwords()
    words = [w for w, _, _ in _tokens(re.sub(r"\([^)]*\)", " ", label))
             if w.lower() not in stop and w.lower() not in _LEGAL_SUFFIXES]
    distinctive = tuple(dict.fromkeys(w.lower() for w in words if len(w) > 1))
    acronyms = {m.lower() for m in re.findall(r"\(([A-Z][A-Za-z&]{1,9})\)", label)}
    capitals = [w[0] for w in words if w[0].isupper()]
    if len(capitals) >= 2:
        acronyms.add("".join(capitals).lower())
    if len(words) == 1:  # "ISRG", or a slug's one word
        acronyms.add(words[0].lower())
    return distinctive, tuple(sorted(acronyms))


# --- sentences --------------------------------------------------------------------------------

def split_sentences(markdown: str) -> list[str]:
    """The sentences the reader weighs: prose of four words or more (the one splitter, cikb.core.sentences)."""
    return sentence_splitter.split_sentences(markdown, min_words=MIN_WORDS)


# --- what a sentence says ---------------------------------------------------------------------

# An aside opens after a space; a parenthesis inside a word is part of it ("501(c)(3)", "Yahoo!(R)"), and so is
# one of digits only: the area or trunk code of a phone number ("+1 (415) 555-0100", "+31 (0)20 ...").
_PARENTHESIS = re.compile(r"(?:\s+|^)\((?![\d\s]+\))[^()]*\)")
# ", which was originally founded in 1888" describes the noun before it, not the sentence's subject.
_RELATIVE_CLAUSE = re.compile(r",\s+(?:which|who|whose)\b[^,;.]*|\s+(?:that|which|who)\s+(?:had |has |have )?(?:been|was|were)\b[^,;.]*")
# ", created by Victor Lardent at Monotype" and ", headquartered in San Jose" describe the noun before them,
# unless that noun is the subject ("The University, founded in 1890, is ...").
_REDUCED_RELATIVE = re.compile(r",\s+(?:created|founded|established|formed|built|designed|developed|launched|started|owned|"
                               r"headquartered|based|located)"
                               r"\s+(?:by|in|on|at)\b[^,;.]*")


def _names_only(text: str) -> bool:
    """Only a name before this point: 'The University of Chicago', 'Acme Corp.'."""
    words = [w for w, _, _ in _tokens(text)]
    return bool(words) and all(w[0].isupper() or w.lower() in ("of", "and", "the", "&") for w in words)


# Phrases that look like a founding and are not.
_NOT_FOUNDING = [
    (re.compile(r"\b(?:found(?:ing|er)|charter)\s+(members?|clubs?|partners?|signator(?:y|ies))\b", re.I), r"charter \1"),
    (re.compile(r"\bincorporated\s+(into|with)\b", re.I), r"merged \1"),
    (re.compile(r"\bbased\s+(on|upon)\b", re.I), r"drawn \1"),  # "based on the Latham Loop" is no location
    (re.compile(r"\bset\s+up\b", re.I), "set-up"),
    (re.compile(r"\bform(?:s|ed|ing)?\s+(?:a\s+|an\s+|the\s+)?(part|basis|backbone|core)\b", re.I), r"made \1"),
    (re.compile(r"\b(?:well[- ])?established\s+(broadcast|networks?|brands?|players?|teams?|firms?|companies|practices?|procedures?)\b", re.I), r"older \1"),
]


# C-suite titles in full are their acronyms: "Chief Financial Officer" is the CFO, never the CEO ("chief").
_CHIEF_OFFICER = re.compile(r"\bchief\s+(executive|financial|technology|technical|operating|marketing|product|revenue|information|"
                            r"people|legal|data|security|commercial|strategy|customer)\s+officer\b", re.I)
_CHIEF_ACRONYMS = {"executive": "CEO", "financial": "CFO", "technology": "CTO", "technical": "CTO", "operating": "COO",
                   "marketing": "CMO", "product": "CPO", "revenue": "CRO", "information": "CIO", "people": "CPO",
                   "legal": "CLO", "data": "CDO", "security": "CSO", "commercial": "CCO", "strategy": "CSO", "customer": "CCO"}
# A title in brackets after a name is no aside: "Jane Smith (CEO) and Raj Patel (CTO)".
_BRACKETED_TITLE = re.compile(r"\s*\(((?:co-?)?(?:founder|ceo|cto|cfo|coo|cmo|cpo|cro|cio|president|chair(?:man|woman|person)?|"
                              r"managing director|executive director|chief [a-z]+ officer))\)", re.I)


def plain(sentence: str) -> str:
    """The sentence as the reader reads it: asides in parentheses and relative clauses dropped (they are about
    something else: "its sister paper (founded in 1821)"), look-alike phrases ("founding member of") reworded."""
    text = _BRACKETED_TITLE.sub(r", \1,", sentence)
    text = _CHIEF_OFFICER.sub(lambda m: _CHIEF_ACRONYMS[m.group(1).lower()], text)
    text = _PARENTHESIS.sub("", text)
    text = _RELATIVE_CLAUSE.sub("", text)
    text = _REDUCED_RELATIVE.sub(lambda m: m.group() if _names_only(text[:m.start()]) else "", text)
    for pattern, replacement in _NOT_FOUNDING:
        text = pattern.sub(replacement, text)
    return _SEAT.sub("headquarters", text)


# What filings and legal pages call a company's seat: read as its headquarters.
_SEAT = re.compile(r"\b(?:principal\s+place\s+of\s+business|principal\s+(?:executive\s+)?offices?|registered\s+office|head\s+office)\b", re.I)


_PRONOUN_SUBJECT = frozenset({"it", "its", "we", "our", "they", "their"})
_SELF_NOUNS = frozenset(
    """company firm club organisation organization group network museum institute university college paper newspaper
    league agency corporation society team studio studios party fund foundation nonprofit non-profit charity
    association bank school startup business competition broadcaster channel station publisher brand chain retailer
    manufacturer maker operator provider body authority institution academy project service platform""".split()
)
# Words of organisation names that name no one in particular ("Harvard University": Harvard names it).
_GENERIC_NAME_WORDS = frozenset(
    """university college school company club museum party league group corporation institute agency fund
    administration television studios studio national united royal british american international football fc
    association society foundation bank records archives panel council network newspaper times
    new north south east west""".split()
)


def subject_role(q: Question, sentence: str) -> int:
    """2 when the sentence's subject is the question's subject (its name, acronym, 'It', 'The company'),
    1 when it only mentions it, 0 when it does not. Without a subject every sentence counts as 2."""
    if not q.subject_terms:
        return 2
    mentioned = _mentions_subject(q, sentence) or _short_name(q, sentence)
    # The subject starts the sentence, or follows an opening phrase ("In 1934, it moved"; "Founded in 1899 by
    # Swiss, English and Catalan players, the club ...").
    commas = [m.end() for m in re.finditer(r",\s+", sentence[:200])][:3] if _opens_with_phrase(sentence) else []
    dated = _after_leading_date(sentence)  # a timeline line: "May 24, 2013: ISRG is incorporated"
    for text in (sentence, *(sentence[i:] for i in commas), *((dated,) if dated else ())):
        lead = _leading_name(text)
        if lead is None:
            continue
        words = [_bare(w.lower()) for w in lead]
        if words[0] in _PRONOUN_SUBJECT or (words[0] == "the" and len(words) > 1 and words[1] in _SELF_NOUNS):
            return 2
        named = [w for w in words if w not in ("the", "of", "and", "&")]
        # "Arsenal Football Club" for Arsenal; not "RIBA Enterprises" for RIBA (another body).
        if (named and any(w in q.subject_terms for w in named)
                and _only_subject(q, named)):
            return 2
        capitals = "".join(w[0] for w in lead if w[0].isupper()).lower()
        if len(capitals) >= 3 and capitals in q.subject_acronyms and capitals not in named:
            return 2  # "Internet Security Research Group, the ... behind Let's Encrypt, is pleased" for ISRG
    return 1 if mentioned else 0


# Words that complete a name without naming another body: "Arsenal Football Club" is Arsenal; "the FC Barcelona
# Foundation" and "RIBA Enterprises" are not FC Barcelona and RIBA.
_NAME_COMPLETIONS = frozenset("club football fc afc company corporation group holdings team".split())


_INTRODUCERS = frozenset("in on at after before since during when while although though as by with from for "
                         "following until unlike like despite under within throughout upon".split())


_CREATION = frozenset({"found", "cofound", "co-found", "establish", "creat", "form", "incorpor", "launch", "start", "set-up"})
_DETERMINERS = frozenset("the a an its their his her our another new two three several".split())


def _creates_other(q: Question, sentence: str) -> bool:
    """Every creation word of the question in the sentence is active with an object other than the subject:
    "the university announced plans to establish the Milton Friedman Institute" founds something else."""
    tokens = _tokens(sentence)
    found_any = False
    for i, (word, _, _) in enumerate(tokens):
        stems = _stems_of(word)
        if not (stems & _CREATION and any(match_weight(t, stems) == 1.0 for t in q.terms)):
            continue
        found_any = True
        after = [w for w, _, _ in tokens[i + 1:i + 6]]
        if not after or after[0].lower() not in _DETERMINERS and not after[0][0].isupper():
            return False  # "was founded in", "formed as", "founding of": not an active verb with an object
        if i > 0 and tokens[i - 1][0].lower() in ("was", "were", "is", "are", "been", "being", "be", "its", "their"):
            return False
        named = {w.lower().removesuffix("'s") for w in after}
        if not q.subject_terms or named & set(q.subject_terms) or (after[0].lower() == "the" and len(after) > 1 and after[1].lower() in _SELF_NOUNS):
            return False  # "Jane Doe and I founded ISRG", "established the company"
    return found_any


def _owned_predicate(q: Question, sentence: str) -> bool:
    """A predicate word of the question owned by the subject ("its founding", "ISRG's creation", "the club's founding")
    or with the subject as its object ("... and I founded ISRG")."""
    tokens = _tokens(sentence)
    owners = {"its", "their", "our"}
    for i, (word, _, _) in enumerate(tokens[1:], start=1):
        if not any(match_weight(t, _stems_of(word)) == 1.0 for t in q.terms):
            continue
        lead = _leading_name(sentence[tokens[i + 1][1]:]) if i + 1 < len(tokens) else None
        named = _name_words(lead)
        if named and _only_subject(q, named):
            return True  # "Jane Doe and I founded Acme": the subject is what was founded (not "formed Acme City Studios")
        before = tokens[i - 1][0].lower().replace("’", "'")
        if before in owners and _names_another(q, _main_subject(sentence)):
            continue  # "Since its founding in 2013, ISRG's Let's Encrypt ...": "its" is the clause's subject, named as another's
        if before in owners or (before.endswith("'s") and (before[:-2] in q.subject_terms or before[:-2] in _SELF_NOUNS)):
            return True
    return False


def _main_subject(sentence: str) -> list[str] | None:
    """The name the main clause starts with, after an opening phrase ("In 2013, ISRG's Let's Encrypt ..." -> ISRG's Let's Encrypt)."""
    if _opens_with_phrase(sentence):
        comma = re.search(r",\s+", sentence[:200])
        if comma:
            return _leading_name(sentence[comma.end():])
    return _leading_name(sentence)


def _opens_with_phrase(sentence: str) -> bool:
    """The sentence opens with a phrase before its subject: "In 1934, ...", "Founded in 1899 by ..., the club"."""
    first = sentence.split(maxsplit=1)[0].lower().strip(",") if sentence.strip() else ""
    return first in _INTRODUCERS or first.endswith(("ed", "ing", "ly"))


def _name_words(lead: list[str] | None) -> list[str]:
    """A leading name's words, lowercased, without a possessive 's and without the, of, and, &."""
    return [_bare(w.lower()) for w in lead or [] if w.lower() not in ("the", "of", "and", "&")]


def _only_subject(q: Question, named: list[str]) -> bool:
    """Every word names the subject, a legal form or a name completion ("Arsenal Football Club" for Arsenal)."""
    return all(w in q.subject_terms or w in _LEGAL_SUFFIXES or w in _NAME_COMPLETIONS for w in named)


def _names_another(q: Question, lead: list[str] | None) -> bool:
    """A leading name with a word that is not the subject's (nor a legal form or a name completion): another body's."""
    named = _name_words(lead)
    if not named or named[0] in _PRONOUN_SUBJECT or not q.subject_terms:
        return False
    return not _only_subject(q, named)


def _after_leading_date(sentence: str) -> str | None:
    """What follows a date that opens the sentence with a colon or a dash ("May 24, 2013: ISRG is ..."), else None."""
    date = _DATE_RE.match(sentence) or _YEAR_RE.match(sentence)
    if date is None:
        return None
    rest = re.match(r"\s*[:–—-]\s+", sentence[date.end():])
    return sentence[date.end() + rest.end():] if rest else None


# A label and its value, the way about pages, contact pages and facts documents state them ("Founded: 2013").
_LABEL_LINE = re.compile(r"^\W*[A-Z][A-Za-z’' ]{1,30}:\s+\S")


def _mentions_subject(q: Question, text: str) -> bool:
    """Whether ``text`` (a sentence, a page title) names the question's subject: its distinctive words or its acronym."""
    if not q.subject_terms:
        return False
    lowered = {_bare(w.lower()) for w, _, _ in _tokens(text)}
    return bool(lowered & set(q.subject_acronyms)) or _names_subject(q, lowered)


def _short_name(q: Question, sentence: str) -> bool:
    """The name's first two words, as a phrase: 'the National Archives' for the National Archives and Records Administration."""
    if len(q.subject_words) < 3:
        return False
    return bool(re.search(rf"\b{re.escape(q.subject_words[0])}\s+{re.escape(q.subject_words[1])}\b", sentence, re.I))


def _names_subject(q: Question, lowered: set[str]) -> bool:
    words = q.subject_words
    if any(w in lowered for w in words if w not in _GENERIC_NAME_WORDS):
        return True
    return bool(words) and sum(w in lowered for w in words) / len(words) >= 0.6


_CONTRACTION = re.compile(r"['’](?:re|ve|ll|d|s|m)$", re.IGNORECASE)


def _leading_name(text: str) -> list[str] | None:
    """The words a sentence starts with up to its first lowercase word (its subject's name part):
    'The Royal Institute of British Architects is' -> [The, Royal, Institute, of, British, Architects];
    'It was' -> [It]; 'The club has' -> [The, club]."""
    tokens = [w for w, _, _ in _tokens(text[:200])]
    if not tokens:
        return None
    first = _CONTRACTION.sub("", tokens[0])  # "We’re", "It's": the pronoun is the subject
    if first.lower() in _PRONOUN_SUBJECT:
        return [first]
    if tokens[0].lower() == "the" and len(tokens) > 1 and tokens[1].lower() in _SELF_NOUNS:
        return tokens[:2]
    lead = []
    for i, token in enumerate(tokens):
        if token[0].isupper() or token[0].isdigit() or (lead and token.lower() in ("of", "and", "&", "the") and i + 1 < len(tokens) and tokens[i + 1][0].isupper()):
            lead.append(token)
        else:
            break
    return lead or None


# --- typed spans ------------------------------------------------------------------------------

_MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
_MONTH = rf"(?:{_MONTHS}|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\.?"
_YEAR = r"(?:1[5-9]\d\d|20\d\d)"
_YEAR_RE = re.compile(rf"(?<![\d$€£.,/-]){_YEAR}(?![\d%/])")
_DATE_RE = re.compile(
    rf"\b(?:{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+{_YEAR}"
    rf"|\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH},?\s+{_YEAR}"
    rf"|{_MONTH}\s+(?:of\s+)?{_YEAR}"
    rf"|{_YEAR}-\d\d-\d\d)\b"
)
_MULTIPLIERS = {"thousand": 10**3, "k": 10**3, "million": 10**6, "mn": 10**6, "m": 10**6,
                "billion": 10**9, "bn": 10**9, "b": 10**9, "trillion": 10**12, "tn": 10**12}
_MULTIPLIER = r"(?:\s?(?:thousand|million|billion|trillion|mn|bn|tn|[kmb])\b)"
_CURRENCY = r"(?:[$€£¥₹]|US\$|USD|EUR|GBP|CHF|JPY)"
_AMOUNT = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_MONEY_RE = re.compile(
    rf"(?<![\w.]){_CURRENCY}\s?(?:{_AMOUNT}){_MULTIPLIER}?"
    rf"|(?<![\w.])(?:{_AMOUNT}){_MULTIPLIER}?\s?(?:{_CURRENCY}|dollars|euros|pounds)\b",
    re.IGNORECASE,
)
_NUMBER_WORD = (r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|"
                r"seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|dozen)")
_NUMBER_RE = re.compile(
    rf"(?<![\w.,/-])(?:{_AMOUNT})(?:{_MULTIPLIER}|\s?(?:%|percent\b))?(?![\w/-])"  # "19% of": no word boundary after %
    rf"|\b{_NUMBER_WORD}(?:[\s-]+(?:and\s+)?{_NUMBER_WORD})*\b(?:\s(?:million|billion)\b)?",
    re.IGNORECASE,
)
_NAME_PART = r"(?:[A-Z][a-zA-Z'’\-]+|[A-Z]\.)"
_NAME_RE = re.compile(rf"\b{_NAME_PART}(?:\s+(?:{_NAME_PART}|de|van|von|der|da|di|la|le|du|bin|al))*\s+[A-Z][a-zA-Z'’\-]+\b")
_ORG_RE = re.compile(
    r"\b(?:[A-Z][\w'’&.\-]*|[A-Z]{2,})(?:\s+(?:of|for|and|on|the|de|&)?\s*(?:[A-Z][\w'’&.\-]*|[A-Z]{2,}))*"
)
_ADDRESS_RE = re.compile(r"\b(?:PO Box|P\.O\. Box|\d{1,5})\s+[A-Z0-9][^.;:\n]{3,80}?,\s*[A-Z]{2}\s+\d{5}(?:-\d{4})?(?:,\s*[A-Z][A-Za-z]+)?")
_STREET_RE = re.compile(r"\b\d{1,5}\s+(?:[A-Z][\w'’.\-]*\s+){1,4}(?:Street|St|Avenue|Ave|Road|Rd|Place|Boulevard|Blvd|Lane|Way|Drive|Square|Plaza)\b\.?(?:,\s*[A-Z][\w'’\-]*(?:\s+[A-Z][\w'’\-]*)*)?")
_PLACE_AFTER_RE = re.compile(
    r"\b(?:in|at|(?<!based )on|near|from)\s+((?:the\s+)?(?:\d{1,5}\s+)?[A-Z][\w'’.&\-]*(?:(?:\s+|,\s*)(?:of\s+|and\s+|the\s+|upon\s+)?[A-Z0-9][\w'’.&\-]*){0,6})"
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
     "Professor", "Prof", "Former", "Founded", "Established", "Formed", "According", "Today", "Yesterday", "However",
     "Also", "Then", "Now", "Here", "There", "If", "Although", "Because", "Many", "Some", "All", "Each", "Every",
     "Read", "See", "Learn", "More", "Please", "Thank", "Thanks", "Donate", "Sponsor", "Support", "Like", "With"}
    | set(_MONTHS.split("|")) | {"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"}
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
    return _filtered(q, sentence, _spans(q, sentence))


def _filtered(q: Question, sentence: str, found: list[Span]) -> list[Span]:
    """``found`` less the values the question names and those on the wrong side of a directed predicate."""
    if q.kind in ("person", "org", "place", "text"):
        asked = set(_normal(q.text).split())
        found = [s for s in found if not set(s.key.split()) <= asked]
    if q.wants is not None:  # "Acme agreed to be acquired by Globex" does not say what Acme acquired
        sides = [(s, *_side_of_predicate(sentence, s)) for s in found]
        # A name before an active predicate acts on the subject only when the subject receives it: "Globex
        # operates Acme", not "we depend on sponsors like OVH to continue operating".
        receives = (q.wants == "agent" and any(role == "agent" and not after for _, role, after in sides)
                    and _subject_is_patient(q, sentence))
        found = [s for s, role, after in sides if role is None or (role == q.wants and (role == "patient" or after or receives))]
    return found


def _spans(q: Question, sentence: str) -> list[Span]:
    kind = q.kind
    if kind == "year":
        return [Span(m.group(), m.start(), m.group()) for m in _YEAR_RE.finditer(sentence)]
    if kind == "date":
        return _date_spans(sentence)
    if kind == "money":
        return _latest(sentence, _money_spans(sentence) or [s for s in _number_spans(q, sentence) if _has_multiplier(s.text)])
    if kind == "number":
        return _latest(sentence, _number_spans(q, sentence))
    if kind == "person":  # people, or the organisation that did it ("founded by the Baptist Education Society")
        people = _person_spans(q, sentence)
        if q.officer:
            return people  # a chief executive or a director is a person, never an organisation
        bodies = [o for o in _org_spans(q, sentence) if not any(_overlap(o, p) for p in people)]
        return sorted(people + bodies, key=lambda s: s.start)
    if kind == "org":
        return _org_spans(q, sentence)
    if kind == "place":
        return _place_spans(q, sentence)
    if kind == "contact":
        return _contact_spans(q, sentence)
    if kind == "option":
        found = []
        for option in q.options:
            match = re.search(r"(?<!\w)" + re.escape(option.strip()) + r"(?!\w)", sentence, re.I)
            if match:
                found.append(Span(option, match.start(), _normal(option)))
        return found
    if kind == "boolean":
        value = "no" if re.search(r"\b(?:not|never|no longer)\b", sentence, re.I) else "yes"
        return [Span(value, 0, value)]
    return _text_spans(q, sentence)


def _contact_asked(lower: list[str]) -> Literal["email", "phone", "web"]:
    """What a contact question asks for ("What is Acme's phone number?" -> phone)."""
    words = set(lower)
    if words & {"email", "e-mail", "mail"}:
        return "email"
    return "phone" if words & {"phone", "telephone", "fax"} else "web"


def _contact_spans(q: Question, sentence: str) -> list[Span]:
    """The e-mail addresses, phone numbers or web addresses in ``sentence``, whichever the question asks for."""
    asked = q.contact
    if asked == "email":
        return [Span(m.group(), m.start(), m.group().lower()) for m in _EMAIL_RE.finditer(sentence)]
    if asked == "web":
        return [Span(m.group(), m.start(), m.group().lower().rstrip("/")) for m in _WEB_RE.finditer(sentence)
                if not _EMAIL_RE.search(sentence, max(0, m.start() - 64), m.end())]
    # Google's libphonenumber: numbers in international form from any country, national ones as American.
    return [Span(m.raw_string, m.start, phonenumbers.format_number(m.number, phonenumbers.PhoneNumberFormat.E164))
            for m in phonenumbers.PhoneNumberMatcher(sentence, "US", leniency=phonenumbers.Leniency.VALID)]


_FROM = re.compile(r"\bfrom\s+(?:about\s+|around\s+|roughly\s+|just\s+|over\s+|under\s+|fewer than\s+|less than\s+)?$", re.I)
_TO = re.compile(r"\bto\s+(?:about\s+|around\s+|roughly\s+|just\s+|over\s+|more than\s+|nearly\s+|almost\s+)?$", re.I)


def _latest(sentence: str, found: list[Span]) -> list[Span]:
    """A change states its newer value: "went from four full-time employees to nine" answers nine, not four."""
    if len(found) < 2:
        return found
    ends = [b for b in found if _TO.search(sentence[max(0, b.start - 24):b.start])]
    return [a for a in found if not (_FROM.search(sentence[max(0, a.start - 24):a.start]) and any(b.start > a.start for b in ends))]


def _overlap(a: Span, b: Span) -> bool:
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
    for m in _DATE_RE.finditer(sentence):
        key = normal_date(m.group())
        if key is not None:
            found.append(Span(m.group(), m.start(), key))
            covered.append((m.start(), m.end()))
    for m in _YEAR_RE.finditer(sentence):
        if not any(a <= m.start() < b for a, b in covered):
            found.append(Span(m.group(), m.start(), m.group()))
    return sorted(found, key=lambda s: s.start)


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


def _number_spans(q: Question, sentence: str) -> list[Span]:
    money = [(m.start(), m.end()) for m in _MONEY_RE.finditer(sentence)]
    dates = [(m.start(), m.end()) for m in _DATE_RE.finditer(sentence)]
    found = []
    for m in _NUMBER_RE.finditer(sentence):
        text = m.group().strip()
        if _YEAR_RE.fullmatch(text) or any(a <= m.start() < b for a, b in money + dates):
            continue
        if ("%" in text or "percent" in text.lower()) != q.percent:
            continue
        value = number_value(text)
        if value is None:
            continue
        found.append(Span(text, m.start(), format_number(value)))
    return found


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
    return not any(w.lower() in stop or w.rstrip(".").lower() in _LEGAL_SUFFIXES for w in words)


def _person_spans(q: Question, sentence: str) -> list[Span]:
    found = []
    for match in _NAME_RE.finditer(sentence):
        words = match.group().split()
        start = match.start()
        while words and words[0] in _NON_NAMES:
            start = sentence.find(words[1], start + len(words[0])) if len(words) > 1 else start
            words = words[1:]
        while words and words[-1] in _NON_NAMES:
            words = words[:-1]
        if len(words) < 2 or not _name_words_ok(q, words):
            continue
        if any(w.isupper() and len(w) > 1 for w in words):  # acronyms belong to organisations
            continue
        if _word_before(sentence, start) in _ARTICLES:
            continue  # "the Engineering Culture", "our Year-End Letter": a person's name takes no article
        if any(w.lower() in _ORG_HEADS or w.lower() in _GENERIC_NAME_WORDS or w.lower() in _EVENT_WORDS
               or w.lower() in _DEPARTMENT_WORDS for w in words):
            continue  # "United Nations", "Spanish Civil War", "Donor Development" name no person
        name = " ".join(words)
        found.append(Span(name, start, _normal(name)))
    return _merge_list(sentence, found)


# Not "that": "the company that Jack Dorsey founded". (A name of its own: reusing _DETERMINERS shadowed
# _creates_other's longer list, so "founded two new subsidiaries" read as the subject's own founding.)
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
        if not words or {w.lower() for w in words} <= set(q.subject_terms) | _LEGAL_SUFFIXES:
            continue
        if set(q.subject_terms) and _spells_acronym(words, q.subject_acronyms):
            continue  # "Internet Security Research Group" asked of as "ISRG" is the subject, not who funds it
        is_org = len(words) >= 2 and any(w.lower() in _ORG_HEADS for w in words) or (len(words) == 1 and words[0].isupper() and len(words[0]) > 1)
        if not is_org and not _object_of_directed(sentence, start):
            continue
        name = " ".join(words).strip(".,")
        found.append(Span(name, start, _normal(name)))
    return _merge_list(sentence, found)


def _spells_acronym(words: list[str], acronyms: tuple[str, ...]) -> bool:
    """Whether a name is one of ``acronyms`` or spelled out by its capitals ("Internet Security Research Group")."""
    capitals = "".join(w[0] for w in words if w[0].isupper()).lower()
    return bool({w.lower() for w in words} & set(acronyms)) or (len(capitals) >= 2 and capitals in acronyms)


def _object_of_directed(sentence: str, start: int) -> bool:
    """A name right after an acquisition or an investment is a body: "acquired Initrode", "the acquisition of
    Initrode", "invested in Initrode"."""
    before = [w for w, _, _ in _tokens(sentence[:start])][-2:]
    return bool(before) and (stem(before[-1]) in _DIRECTED_STEMS
                             or (len(before) == 2 and before[-1].lower() in ("of", "in") and stem(before[0]) in _DIRECTED_STEMS))


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
        out.append(Span(text, group[0].start, _normal(text)))
    return out


def _place_spans(q: Question, sentence: str) -> list[Span]:
    found = [Span(m.group().strip(), m.start(), _normal(m.group())) for m in _ADDRESS_RE.finditer(sentence)]
    if found:
        return found
    streets = [Span(m.group().strip(" ,."), m.start(), _normal(m.group())) for m in _STREET_RE.finditer(sentence)]
    for match in _PLACE_AFTER_RE.finditer(sentence):
        place = re.sub(r"^the\s+", "", match.group(1).strip(" ,"))
        first = place.split()[0] if place.split() else ""
        if not place or first in _NON_NAMES or re.fullmatch(r"\d+", place) or _YEAR_RE.fullmatch(place):
            continue
        if re.match(r"\d", place) and not any(s.start <= match.start(1) < s.start + len(s.text) + 1 for s in streets):
            continue
        if {w.lower() for w, _, _ in _tokens(place)} & set(q.subject_terms):
            continue
        area = _AREA_OF.match(sentence, match.end(1))
        text = (place + (area.group() if area else "")).rstrip(".,;:")
        found.append(Span(text, match.start(1), _normal(text)))
    found += [s for s in streets if not any(f.start <= s.start < f.start + len(f.text) for f in found)]
    return sorted(found, key=lambda s: s.start)


def _text_spans(q: Question, sentence: str) -> list[Span]:
    """The clause after the last key term, else the phrase holding a related word ("a Delaware corporation" for
    a legal form): weak evidence, so its confidence stays low."""
    tokens = _tokens(sentence)
    positions = [i for i, (w, _, _) in enumerate(tokens) if any(match_weight(t, _stems_of(w)) == 1.0 for t in q.terms)]
    if positions:
        after = tokens[positions[-1]][2]
    else:
        related = [i for i, (w, _, _) in enumerate(tokens) if any(match_weight(t, _stems_of(w)) > 0 for t in q.terms)]
        if not related:
            return []
        after = _phrase_start(tokens, related[0])
    tail = sentence[after:].strip(" ,:;-")
    tail = re.split(r"[.;]\s", tail)[0].rstrip(".")
    if len(tail) < 3:
        return []
    text = " ".join(tail.split()[:12])
    return [Span(text, sentence.find(tail[:10]), _normal(text))]


_COPULAS = frozenset("is was are were as became becomes remains remained".split())


def _phrase_start(tokens: list[tuple[str, int, int]], i: int) -> int:
    """Where the phrase holding token ``i`` starts: after the nearest "is", "was", "as" ... up to four words
    before it ("is [a 501(c)(3) nonprofit]", "registered as [a GmbH]"), else at the token itself."""
    for j in range(i - 1, max(i - 5, -1), -1):
        if tokens[j][0].lower() in _COPULAS:
            return tokens[j][2]
    return tokens[i][1]


def _normal(value: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", value.lower()))


# --- reading ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Passage:
    """Retrieved text to read, where it came from (any reference the caller needs back) and its rank."""

    text: str
    ref: Any = None
    rank: int = 1
    title: str = ""


@dataclass
class Sentence:
    """One sentence of the passages and how well it answers."""

    text: str  # as the source has it
    passage: Passage
    plain: str
    stems: set[str]
    coverage: float = 0.0  # share of the key terms it holds (related words a half)
    lexical: float = 0.0  # the same, IDF-weighted over the sentences read
    role: int = 0  # subject_role
    negated: bool = False
    boilerplate: bool = False
    creates_other: bool = False  # its creation word makes something else ("we launched our X project in 2020")
    spans: list[Span] = field(default_factory=list)
    dense: float | None = None
    score: float = 0.0
    antecedent: str = ""  # the sentence before, when this one's subject is a pronoun ("It is ...")

    @property
    def about_subject(self) -> bool:
        return self.role > 0

    @property
    def quote(self) -> str:
        """The sentence as quoted: after the one that names its pronoun subject, if any."""
        return f"{self.antecedent} {self.text}" if self.antecedent else self.text


@dataclass(frozen=True)
class Answer:
    """A typed value, the sentence that states it, every passage that agrees, and how sure the reader is."""

    value: str
    confidence: Confidence
    sentence: Sentence
    support: list[Sentence]


@dataclass
class Reading:
    """What the reader made of the passages for one question."""

    question: Question
    sentences: list[Sentence]  # every sentence, best first
    answer: Answer | None = None  # a value stated with at least medium confidence, else None
    unsure: Answer | None = None  # the value read with low confidence: related reading, never an answer

    @property
    def relevant(self) -> list[Sentence]:
        return [s for s in self.sentences if s.lexical > 0]


def read(question: Question, passages: Sequence[Passage], *, max_sentences: int = MAX_SENTENCES) -> Reading:
    """Score every sentence of ``passages`` for ``question`` and pick the typed value it asks for."""
    sentences = _sentences(passages)
    _score(question, sentences)
    sentences.sort(key=lambda s: -s.score)
    reading = Reading(question, sentences)
    decided = _decide(question, sentences, max_sentences)
    # Wrong is worse than unknown: a value the reader cannot tie to the subject and the question's predicate
    # (low confidence) is shown as related reading by the callers, never given as the answer. Measured on
    # SQuAD's company articles (every 6th question): typed values read with low confidence were right for 67
    # of 203, and those among them that spaCy's dependency parse ties to a key term for 25 of 68: neither
    # is an answer to paste into a table.
    if decided is not None and (decided.confidence == "low" if question.kind != "text"
                                else not states_question(question, decided.sentence)):
        reading.unsure = decided
    else:
        reading.answer = decided
    return reading


def rerank(reading: Reading, dense: dict[int, float], dense_weight: float = 0.4) -> None:
    """Mix dense cosines (``id(sentence) -> cosine``) into the sentence order (free-text questions only)."""
    for s in reading.sentences:
        if id(s) in dense:
            s.dense = dense[id(s)]
            s.score = (1 - dense_weight) * s.score + dense_weight * max(s.dense, 0.0)
        else:
            s.score = (1 - dense_weight) * s.score
    reading.sentences.sort(key=lambda s: -s.score)


def _sentences(passages: Sequence[Passage]) -> list[Sentence]:
    seen: set[str] = set()
    out = []
    for passage in sorted(passages, key=lambda p: p.rank):
        boilerplate = bool(_BOILERPLATE_TITLE.search(passage.title or ""))
        before, before_stems = "", set()
        # Lines that address the reader as instructions ("answer that ...") state nothing: never read as answers.
        for text in sentence_splitter.split_sentences(without_instructions(passage.text), min_words=MIN_WORDS):
            simple = plain(text)
            stems = set().union(*(_stems_of(w) for w, _, _ in _tokens(simple))) if simple.strip() else set()
            antecedent = before if sentence_splitter.opens_on_pronoun(text) else ""
            if antecedent:
                stems |= before_stems  # "It is a service provided by ISRG." is about what the sentence before names
            before, before_stems = text, stems
            key = _normal(text)
            if key in seen:  # overlapping chunks repeat sentences: keep the better-ranked copy
                continue
            seen.add(key)
            out.append(Sentence(text, passage, simple, stems, boilerplate=boilerplate, antecedent=antecedent))
    return out


# A role someone else holds is no answer to who holds it at the subject: a qualified role ("vice president",
# "technical lead", unless the question names the qualifier too) and another body's officer ("their CEO",
# "Acme's chief executive", "CEO of Acme" on a page about one of the subject's sponsors).
_ROLE = (r"(?i:presidents?|directors?|leads?|leaders?|heads?|managers?|chairs?|chairman|chairwoman|chairperson|officers?|"
         r"executives?|ceo|cto|cfo|coo|founders?|co-?founders?)")
_ROLE_WORD = re.compile(rf"\b{_ROLE}\b")
_QUALIFIED_ROLE = re.compile(
    r"\b(vice|deputy|assistant|associate|technical|tech|engineering|product|project|team|program|programme|design|"
    rf"research|security|community|marketing|sales|regional|country)[\s-]+({_ROLE})\b", re.I)
_NAME = r"[A-Z][\w&.'’-]*(?:\s+(?:of\s+|&\s+)?[A-Z][\w&.'’-]*)*"
_OWNER_BEFORE = re.compile(rf"\b(?:[Tt]heir|(?P<owner>{_NAME})['’]s)\s+")  # their / Acme's (...) CEO
_OWNER_AFTER = re.compile(rf"\b(?P<role>{_ROLE})\s+(?:of|at)\s+(?:the\s+)?(?P<owner>{_NAME})")  # CEO of Acme


def _reading_stems(q: Question, s: Sentence) -> set[str]:
    """The stems a sentence is matched to the question by: its own, less a role someone else holds (person
    questions), plus the contact words when it holds the contact asked for ("Write to press@acme.example"
    answers "What is Acme's email address?")."""
    if q.kind == "contact":
        if not _contact_spans(q, s.plain):
            return s.stems
        return s.stems | set().union(*(_stems_of(w) for w in _CONTACT_ASKED[q.contact or "web"]))
    return _role_stems(q, s)


def _role_stems(q: Question, s: Sentence) -> set[str]:
    """The sentence's stems, for a person question without the role words that name a role someone else holds."""
    if q.kind != "person" or not _ROLE_WORD.search(s.plain):
        return s.stems
    others = [m.span(2) for m in _QUALIFIED_ROLE.finditer(s.plain) if m.group(1).lower() not in q.keywords]
    for m in _OWNER_BEFORE.finditer(s.plain):
        if not (m.group("owner") and _mentions_subject(q, m.group("owner"))):
            window = " ".join(s.plain[m.end():].split(" ")[:4])  # "Their Co-founder and CEO, Markus ..."
            others += [(m.end() + r.start(), m.end() + r.end()) for r in _ROLE_WORD.finditer(window)]
    others += [m.span("role") for m in _OWNER_AFTER.finditer(s.plain) if not _mentions_subject(q, m.group("owner"))]
    if not others:
        return s.stems
    rest = s.plain
    for start, end in sorted(set(others), reverse=True):
        rest = rest[:start] + " " + rest[end:]
    return set().union(*(_stems_of(w) for w, _, _ in _tokens(rest)))


def _score(q: Question, sentences: list[Sentence]) -> None:
    total = len(sentences) or 1
    stems = {id(s): _reading_stems(q, s) for s in sentences}
    holding = Counter(t for s in sentences for t in q.terms if match_weight(t, stems[id(s)]) > 0)
    idf = {t: math.log((total - holding[t] + 0.5) / (holding[t] + 0.5) + 1) for t in q.terms}
    weight = sum(idf.values()) or 1.0
    for s in sentences:
        if q.terms:
            matches = {t: match_weight(t, stems[id(s)]) for t in q.terms}
            s.coverage = sum(matches.values()) / len(q.terms)
            s.lexical = sum(idf[t] * m for t, m in matches.items()) / weight
        else:
            s.coverage = s.lexical = 0.5
        s.negated = bool(_NEGATION.search(s.plain))
        if s.negated:  # "we never sell it" does not say what is sold
            s.lexical *= NEGATION_PENALTY
        if s.lexical == 0:
            continue
        if _creates_other(q, s.plain):  # "In 2008 the University announced plans to establish the X Institute"
            s.creates_other = True
            s.coverage *= RELATED_WEIGHT
            s.lexical *= RELATED_WEIGHT
        s.role = subject_role(q, s.plain)
        if s.role == 1 and _owned_predicate(q, s.plain):
            s.role = 2  # "Since its founding in 2013, ISRG's ...": the predicate is the subject's
        elif (s.role == 0 and _LABEL_LINE.match(s.plain)
              and _mentions_subject(q, s.passage.title or "")):
            s.role = 2  # "Address: 548 Market St" on "About Acme" or under "Facts about Acme": the page's subject
        elif s.role == 1 and q.wants == "agent" and _subject_is_patient(q, s.plain):
            s.role = 2  # "Who operates Acme?": "Globex is the firm that operates Acme" is about who operates Acme
        s.spans = spans(q, s.plain)
        cue = CUE_BONUS if s.spans and q.kind != "text" else 0.0
        if cue and q.cumulative and _TOTAL.search(s.plain):
            cue += CUE_BONUS  # "has raised a total of $120 million" over one round's "$45 million"
        s.score = ((s.lexical + cue + RANK_PRIOR / max(s.passage.rank, 1)) * ABOUT_SUBJECT[s.role]
                   - (BOILERPLATE_PENALTY if s.boilerplate else 0.0))


def _nearest(q: Question, s: Sentence) -> tuple[Span, int]:
    """The span closest to a predicate word of the question, and its distance in tokens."""
    return min(((span, distance(q, s.plain, span)) for span in s.spans), key=lambda x: (x[1], x[0].start))


def distance(q: Question, sentence: str, span: Span, exact: bool = False) -> int:
    """Tokens between a span and the nearest word of the question's key terms (99 when none is there); with
    ``exact``, only a term in the question's own word counts (not another word of its relation)."""
    tokens = _tokens(sentence)
    inside = [i for i, (_, a, b) in enumerate(tokens) if a >= span.start and b <= span.start + len(span.text)]
    if not inside:
        inside = [min(range(len(tokens)), key=lambda i: abs(tokens[i][1] - span.start))] if tokens else [0]
    least = 1.0 if exact else 1e-9
    positions = [i for i, (w, _, _) in enumerate(tokens)
                 if i not in inside and any(match_weight(t, _stems_of(w)) >= least for t in q.terms)]
    if not positions:
        return 99
    return min(min(abs(i - p) for i in (inside[0], inside[-1])) for p in positions)


def _decide(q: Question, sentences: list[Sentence], max_sentences: int) -> Answer | None:
    # A date or an amount needs a sentence that holds one of the question's own terms (or a word of the
    # same relation): "opened offices in 2005" dates a related event, not the founding. A place may come
    # from a related word ("Address: ...", "head office in ...": still where the company is).
    candidates = [s for s in _confirmed(q, [s for s in sentences if s.lexical > 0][:MAX_PARSED])
                  if _states_a_term(q, s) and not (s.creates_other and q.kind in ("year", "date"))][:max_sentences]
    if not candidates:
        return None
    weights: dict[str, dict[int, float]] = defaultdict(dict)  # value -> passage -> its best statement there
    support: dict[str, list[Sentence]] = defaultdict(list)
    for s in candidates:
        span, far = _nearest(q, s)
        weight = s.score * (1.0 if far <= NEAR or _agent_of(q, s.plain, span) else 0.5)
        by_passage = weights[span.key]
        by_passage[id(s.passage)] = max(weight, by_passage.get(id(s.passage), 0.0))
        support[span.key].append(s)
    # The best statement of a value counts; other passages stating it add a little. A passage repeating a
    # value is one voice, and a value repeated in passing must not outvote the one sentence that states the fact.
    votes = {k: _vote(list(w.values())) for k, w in weights.items()}
    best_key = max(votes, key=lambda k: (votes[k], -candidates.index(support[k][0])))
    if q.kind == "date":
        best_key = _most_precise(best_key, votes, support)
    # The evidence: the supporting sentence that states the value most directly, in the question's own words
    # ("ISRG was founded in 2013" over "May 24, 2013: ISRG is incorporated" for "What year was ISRG founded?"),
    # then the best scored.
    best = max(support[best_key], key=lambda s: (s.coverage == 1.0 and s.role == 2 and tightly_linked(q, s.plain, _nearest(q, s)[0]),
                                                   len(own_terms(s, q.terms)), s.score))
    span, far = _nearest(q, best)
    value = span.text
    confidence = _confidence(q, best, span, far, candidates, best_key)
    return Answer(value, confidence, best, support[best_key])


def _confirmed(q: Question, sentences: list[Sentence]) -> list[Sentence]:
    """The sentences that hold a value of the asked kind, each with only such values: a value a trained entity
    recogniser reads as another kind is dropped ("2019" is no person, "Berlin" no headcount). For names and
    places the recogniser's entities are candidates too: "in sunny Sarasota, Florida" follows no pattern of
    capitals."""
    labels = _entity_labels(q)
    if labels is None:
        return [s for s in sentences if s.spans]
    vetoes = KIND_VETOES[q.kind] | (KIND_LABELS["org"] if q.kind == "person" and q.officer else frozenset())
    kept = []
    for s in sentences:
        confirmed = [span for span in s.spans if not vetoed(s.plain, span.start, span.start + len(span.text), labels, vetoes)]
        if q.kind in NAME_KINDS:
            # Candidates of the kind's own labels only: a person question takes the recogniser's people, not
            # every organisation it sees ("Ford" in a donor's quote is no founder).
            found = _entity_spans(s.plain, _CANDIDATE_LABELS[q.kind])
            named = [n for n in _filtered(q, s.plain, found) if not _is_subject(q, n)]
            confirmed += [n for n in named if not any(_overlap(n, c) for c in confirmed)]
        s.spans = sorted(confirmed, key=lambda span: span.start)
        if s.spans:
            kept.append(s)
    return kept


# The recogniser's entities taken as candidates: a place is a city, region or country (a building, "Harvard
# Stadium", is a facility on the campus, not where the organisation is based).
_CANDIDATE_LABELS = {"person": frozenset({"PERSON"}), "org": frozenset({"ORG"}), "place": frozenset({"GPE", "LOC"})}


def _is_subject(q: Question, span: Span) -> bool:
    """The subject itself, by its words or spelled out from its acronym ("Kestrel Security Group" for KSG)."""
    words = span.text.split()
    return set(span.key.split()) <= set(q.subject_terms) | _LEGAL_SUFFIXES or _spells_acronym(words, q.subject_acronyms)


def _entity_spans(sentence: str, labels: frozenset[str]) -> list[Span]:
    """The entities with one of ``labels``, a place's parts joined ("Sarasota, Florida")."""
    found: list[Span] = []
    for start, end, label in entities(sentence):
        if label not in labels:
            continue
        text = sentence[start:end]
        if text.lower().startswith("the "):
            start, text = start + 4, text[4:]
        last = found[-1] if found else None
        if last and re.fullmatch(r",\s*", sentence[last.start + len(last.text):start]) and label in KIND_LABELS["place"]:
            text = sentence[last.start:end]
            found[-1] = Span(text, last.start, _normal(text))
            continue
        found.append(Span(text, start, _normal(text)))
    return found


def _entity_labels(q: Question) -> frozenset[str] | None:
    """The entity labels that may state the value ``q`` asks for; None when no entity type decides it."""
    if q.kind == "person" and not q.officer:
        return KIND_LABELS["person"] | KIND_LABELS["org"]  # "founded by the Baptist Education Society"
    return KIND_LABELS.get(q.kind)


def states_question(q: Question, s: Sentence) -> bool:
    """A free-text answer's test: the sentence is about the subject, does not negate it, and holds most of the
    question's key terms (IDF-weighted; a word of a term's relation counts half), or is led by the subject and
    holds every term in some word. Anything less is related reading. On SQuAD's company articles (every 6th
    question) the best sentence passing the first test held a true answer for 121 of 143 questions, 85%."""
    if not s.about_subject or s.negated or s.boilerplate:
        return False
    stems = _reading_stems(q, s)
    # The subject's own sentence may state every term by a word of its relation ("Acme makes robots" for "sell").
    return s.lexical >= FREE_TEXT_SHARE or (s.role == 2 and all(match_weight(t, stems) > 0 for t in q.terms))


def own_terms(s: Sentence, terms: Iterable[str]) -> set[str]:
    """The terms the sentence states in the question's own word (not by another word of their relation)."""
    return {t for t in terms if t in s.stems}


def _vote(weights: list[float]) -> float:
    best = max(weights)
    return best + AGREEMENT_WEIGHT * (sum(weights) - best)


def _most_precise(key: str, votes: dict[str, float], support: dict[str, list[Sentence]]) -> str:
    """For a date: the fullest date the chosen one agrees with, from a sentence that holds as much of the
    question as the chosen one's. "When was it incorporated?" read "2013" in one sentence and "May 24, 2013:
    ISRG is incorporated" in another: both say 2013, and the question asks for the day. "When did ISRG start
    Prossimo?" read "Prossimo started in 2020": "December 18, 2020: Divvi Up starts ..." is another event."""
    coverage = max(s.coverage for s in support[key])
    finer = [k for k in votes if len(k) > len(key) and _same_value(k, key) and max(s.coverage for s in support[k]) >= coverage]
    return max(finer, key=lambda k: votes[k]) if finer else key


def _states_a_term(q: Question, s: Sentence) -> bool:
    if q.kind not in ("year", "date", "number", "money") or not q.terms:
        return True
    if any(match_weight(t, s.stems) == 1.0 for t in q.terms):
        return True
    # "UNFPA began operations in 1969", "ABC originally launched on October 12, 1943": a related word of the
    # question's predicate, in a sentence about the subject, just before the value (never more than low).
    return s.about_subject and any(_related_just_before(q, s.plain, span) for span in s.spans)


def _related_just_before(q: Question, sentence: str, span: Span, reach: int = 5) -> bool:
    before = [w for w, _, end in _tokens(sentence[:span.start])][-reach:]
    return any(match_weight(t, _stems_of(w)) == RELATED_WEIGHT for w in before for t in q.terms)


def _same_value(a: str, b: str) -> bool:
    """'portland place' and '66 portland place london' name one place; '2013-05-24' and '2013' one date."""
    wa, wb = set(re.split(r"[\s-]+", a)), set(re.split(r"[\s-]+", b))
    return wa <= wb or wb <= wa


def _agent_of(q: Question, sentence: str, span: Span) -> bool:
    """A name in the 'by ...' phrase of the question's predicate: "founded in 1899 by a group of players led by Jane Roe"."""
    if q.kind not in ("person", "org"):
        return False
    tokens = _tokens(sentence[:span.start])
    for i in range(len(tokens) - 1, max(-1, len(tokens) - 25), -1):
        if any(match_weight(t, _stems_of(tokens[i][0])) == 1.0 for t in q.terms):
            after = sentence[tokens[i][2]:span.start]
            return bool(re.search(r"\bby\b", after)) and not re.search(r"[.;:]", after)
    return False


def _confidence(q: Question, best: Sentence, span: Span, far: int, candidates: list[Sentence], best_key: str) -> Confidence:
    if q.kind == "text":
        return "low"
    # A rival: another sentence about the subject that states a different value as directly.
    rivals = {key for key in (_nearest(q, s)[0].key for s in candidates
                              if s.coverage == 1.0 and s.role == 2 and _nearest(q, s)[1] <= RIVAL_DISTANCE)
              if not _same_value(key, best_key)}
    direct = best.coverage == 1.0 and best.about_subject and bool(q.terms)
    tight = tightly_linked(q, best.plain, span)
    if q.kind == "boolean":
        return "medium" if direct and not rivals else "low"
    if q.kind == "contact":
        # An e-mail address or a phone number states its own kind: the question's other words ("use", "reach")
        # need not be there, only the subject, and no sentence about it may give another one.
        others = {s.spans[0].key for s in candidates if s.about_subject} - {best_key}
        return "medium" if best.about_subject and not others and not best.negated else "low"
    keys = {s.key for s in best.spans}
    unique = len(keys) == 1 or (tight and not any(tightly_linked(q, best.plain, s) for s in best.spans if s.key != span.key))
    if direct and unique and not rivals and tight and best.role == 2 and not best.negated:
        return "high"  # "was not founded in 1949" ties 1949 to the predicate too, to deny it
    if direct and (tight or far <= 4):
        return "medium"
    if _labelled(q, best, span) and not rivals and unique:
        return "medium"
    if best.coverage >= 0.5 and best.about_subject and tight and not rivals:
        return "medium"
    return "low"


def _labelled(q: Question, s: Sentence, span: Span) -> bool:
    """A "Label: value" line about the subject (on its own page) whose label is a key term or a word of its
    relation, with the value after it: "Address: 48 Harbour Street ..." states where the company is located."""
    label = _LABEL_LINE.match(s.plain)
    if label is None or s.role != 2:
        return False
    colon = s.plain.index(":")
    words = set().union(*(_stems_of(w) for w, _, _ in _tokens(s.plain[:colon])))
    return span.start > colon and any(match_weight(t, words) > 0 for t in q.terms)


# Words that may stand between a question's predicate and its answer in a sentence that states the fact
# directly: "was founded in 2013", "founded by Jane Doe", "Jane Doe and I founded", "headquartered at 100 Main St".
_CONNECTORS = frozenset(
    """in on at by the was were is are been has had have its their of a an and i we co since first originally
    officially formally jointly later initially currently now still""".split()
) | {m.lower() for m in _MONTHS.split("|")}


def tightly_linked(q: Question, sentence: str, span: Span) -> bool:
    """True when only connecting words (or the subject's own name, or date parts) separate the value from a
    predicate word of the question: the sentence states the fact, it does not merely contain both."""
    tokens = _tokens(sentence)
    inside = [i for i, (_, a, b) in enumerate(tokens) if a >= span.start and b <= span.start + len(span.text)]
    if not inside:
        return False
    predicates = [i for i, (w, _, _) in enumerate(tokens)
                  if i not in inside and any(match_weight(t, _stems_of(w)) == 1.0 for t in q.terms)
                  and not (i > 0 and tokens[i - 1][0].lower() == "to")]  # "to form" is no statement of fact
    own = set(q.subject_terms)
    for p in predicates:
        between = tokens[p + 1:inside[0]] if p < inside[0] else tokens[inside[-1] + 1:p]
        words = _without_agents([w.strip("'’") for w, _, _ in between])
        if p < inside[0] and q.kind in ("person", "org"):
            words = _without_agent_descriptor(words)  # "founded by publisher John Walter": the agent is the value
        if len(words) <= 5 and all(w in _CONNECTORS or w in own or w.isdigit() or w.rstrip("s") in own
                                   or w.removesuffix("'s").removesuffix("’s") in own for w in words):
            return True
    return False


def _without_agent_descriptor(words: list[str]) -> list[str]:
    """'by publisher', 'by the engineer' before a name that is the value: only 'by' is left (a connector)."""
    if words and words[0] == "by" and 1 < len(words) <= 4 and all(w.isalpha() and w.islower() for w in words[1:]):
        return ["by"]
    return words


def _without_agents(words: list[str]) -> list[str]:
    """Drop 'as Dial Square' (a former name) and 'by publisher John Walter' (the agent) from the words between a
    predicate and its value: "formed as Dial Square in 1886", "founded by John Walter on 1 January 1785"."""
    kept: list[str] = []
    i = 0
    while i < len(words):
        if words[i].lower() in ("as", "by"):
            j = i + 1
            while j < len(words) and (words[j].lower() in ("the", "a") or (j == i + 1 and words[j].islower())):
                j += 1
            k = j
            while k < len(words) and words[k][:1].isupper():
                k += 1
            if k > j:
                i = k
                continue
        kept.append(words[i].lower())
        i += 1
    return kept
