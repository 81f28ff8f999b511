"""How well each sentence answers: the passages' sentences (:class:`Sentence`), each scored by the
IDF-weighted share of the key terms it holds, whether it is about the subject, a prior for better-ranked
passages and penalties for negations and legal pages; :func:`distance` from a value to the question's words."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date
from functools import cache, lru_cache
from typing import Any

from cikb.answer.entities import (
    FIRST_PERSON, apposed_to_name, bids_the_reader, counted_doers, counted_in_question, counted_participle,
    described_as_done, entities, invites_an_audience, is_a_persons_name, main_verb_offset, names, negation_reaches,
    noun_described, organisations, person_clauses, possessed_nouns, priced_things, role_statements, roles_of_a_part,
    subject_noun, subjectless_past, tells_the_reader_to_reach_us, thing_clauses, titled, told_to_the_reader,
    value_verbs, verbs_of, where_from, word_classes,
)
from cikb.answer.instructions import without_instructions
from cikb.core import sentences as sentence_splitter
from cikb.core.vocabulary import RELATED_WEIGHT, match_weight
from cikb.answer.reader._words import (
    IDENTIFIER_NAMES, LEGAL_SUFFIXES, MIN_WORDS, SELF_NOUNS, YEAR_RE, plain, stem, stems_in, stems_of, tokens_of,
    undoings,
)
from cikb.answer.reader._question import (
    CONTACT_ASKED, DESIGNATOR, TOTAL, TYPED_KINDS, Question, designator_key, names_written, term_word,
)
from cikb.answer.reader._subject import (
    BEGIN_STEMS, FOUNDING_STEMS, LABEL_LINE, after_leading_date, asks_the_founding, began_itself, creates_other,
    does_it_to_another, founded_itself, led_by_another_party, mentions_subject, our_role, owned_by_subject,
    owned_predicate, refers_to_subject, subject_role,
)
from cikb.answer.reader._spans import (
    CORPORATION_KIND, HEADCOUNT, Span, asked_roles, contact_spans, counts_us, holds_postal_address, identifier_spans,
    is_postal_address, normal, relation_owned, spans, subject_is_patient, written_as_a_name,
)
from cikb.core.contacts import only_contacts

NEGATION_PENALTY = 0.5
BOILERPLATE_PENALTY = 0.1
RANK_PRIOR, CUE_BONUS = 0.05, 0.15
# A sentence's score by whether it is about the question's subject: its subject, mentioned, not named.
ABOUT_SUBJECT = {2: 1.0, 1: 0.8, 0: 0.5}
SUBJECTLESS_ROLE = 1

# "No." before a number abbreviates it ("Corporation No. 5019866"): no negation.
# Every "n't" with either apostrophe ("wasn't", "isn’t"). "Don't hesitate to contact us at ..." bids the reader do
# it: no negation. A word joined to the next by a hyphen makes one adjective ("a not-for-profit company", "no-code
# tools"): no negation either.
_NEGATION = re.compile(
    r"\b(?:(?:never|not|\w+n['’]t)(?!\s+hesitate\b)|no(?!\.?\s*\d)|cannot|neither|nor|almost|nearly)\b(?![-‐‑])",
    re.IGNORECASE)
# Pages whose sentences rarely answer questions about the company itself.
_BOILERPLATE_TITLE = re.compile(r"\b(?:legal|privacy|cookies?|terms|imprint|disclaimer|impressum)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Passage:
    """Retrieved text to read, where it came from (any reference the caller needs back) and its rank."""

    text: str
    ref: Any = None
    rank: int = 1
    title: str = ""
    as_of: date | None = None  # when what it says held (ChunkMetadata.as_of); None: not known
    own_site: bool = False  # a page of the company's own website (gathered as its website source)
    headings: tuple[str, ...] = ()  # the section path where its text begins (ChunkMetadata.heading_path)
    # A page of another company than the one asked about (a question on a name the knowledge base does not hold): its
    # "we", "it" and "the company" are that company, and no line of it is the asked one's.
    of_another: bool = False


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
    set_aside: list[Span] = field(default_factory=list)  # values of the kind in another clause ("began in 1938")
    dense: float | None = None
    score: float = 0.0
    antecedent: str = ""  # the sentence before, when this one's subject is a pronoun ("It is ...")
    card: str = ""  # the full name of the person it opens on by first name, from the card it is read in

    @property
    def about_subject(self) -> bool:
        return self.role > 0

    @property
    def quote(self) -> str:
        """The sentence as quoted: after the one that names its pronoun subject, if any, or after the name of the
        card it is read in ("Jon Roe: Jon has led sales since 2019")."""
        if self.card:
            return f"{self.card}: {self.text}"
        return f"{self.antecedent} {self.text}" if self.antecedent else self.text


def own_name(q: Question) -> Callable[[str], str]:
    """A sentence as read with the subject's other names written as its name: "Jane Roe founded rami.io GmbH in 2017"
    is read "Jane Roe founded pretix in 2017" of pretix, whose imprint names rami.io GmbH (quoted as written)."""
    if not q.subject_name or not q.other_names or q.legal_name or q.former_name:
        return lambda text: text  # asked for one of those names, the reader must see it
    names = "|".join(re.escape(name.rstrip(".")) for name in sorted(q.other_names, key=len, reverse=True))
    pattern = re.compile(rf"(?<![\w.-])(?:{names})\.?(?![\w-])", re.IGNORECASE)
    return lambda text: pattern.sub(q.subject_name, text)


# A sentence that opens on a first name alone: "Jon has been our managing director since day one".
_OPENING_FIRST_NAME = re.compile(r"([A-Z][a-z]+)(?=\s+[a-z])")


def first_name_in_full(q: Question) -> Callable[[str, Passage], str]:
    """For a question that asks for a person: the full name of the person a sentence opens on by first name alone,
    where its passage (with the headings it begins under) names one person of that first name in full, as a team
    page's bio does under its card ("## Jon Roe", then "Jon has led sales since 2019"); else ""."""
    if q.kind != "person":
        return lambda text, passage: ""

    found: dict[tuple[str, int], str] = {}  # once per first name and passage, not per sentence

    def full_name(first: str, passage: Passage) -> str:
        if (first, id(passage)) not in found:
            context = "\n".join((*passage.headings, passage.text))
            named = {m.group() for m in re.finditer(rf"\b{first}(?:[ \t]+[A-Z][\w'’-]+){{1,2}}", context)}
            named = {name for name in named if written_as_a_name(q, name)}
            found[first, id(passage)] = named.pop() if len(named) == 1 else ""
        return found[first, id(passage)]

    def in_full(text: str, passage: Passage) -> str:
        opening = _OPENING_FIRST_NAME.match(text)
        if opening is None or opening.group(1).lower() in q.subject_terms:
            return ""
        return full_name(opening.group(1), passage)
    return in_full


def sentences_of(passages: Sequence[Passage], as_named: Callable[[str], str] = lambda text: text,
                 in_full: Callable[[str, Passage], str] = lambda text, passage: "") -> list[Sentence]:
    seen: set[str] = set()
    out = []
    for passage in sorted(passages, key=lambda p: p.rank):
        boilerplate = bool(_BOILERPLATE_TITLE.search(passage.title or ""))
        before, before_stems = "", set()
        # Lines that address the reader as instructions ("answer that ...") state nothing: never read as answers.
        said = without_instructions(passage.text)
        sections = sentence_splitter.card_sections(said)
        for text in sentence_splitter.split_sentences(said, min_words=MIN_WORDS, cards=True,
                                                      blocks=holds_postal_address, dated=True, asked=True):
            simple = as_named(plain(text))
            # "Jon has led sales since 2019" in Jon Roe's card is read, and quoted, as Jon Roe's.
            card = in_full(simple, passage)
            simple = card + simple[simple.index(" "):] if card else simple
            # A card is read in its section: "Ryan Trinkle: Treasurer" under "The Board of Directors".
            stems = stems_in(simple) | (stems_in(plain(_section_of(text, sections[text], passage)))
                                        if text in sections else set())
            antecedent = before if sentence_splitter.opens_on_pronoun(text) else ""
            if antecedent:
                stems |= before_stems  # "It is a service provided by ISRG." is about what the sentence before names
            before, before_stems = text, stems
            key = normal(text)
            if key in seen:  # overlapping chunks repeat sentences: keep the better-ranked copy
                continue
            seen.add(key)
            out.append(Sentence(text, passage, simple, stems, boilerplate=boilerplate, antecedent=antecedent,
                                card=card))
            # Its reading drops the clauses set beside a person or a thing; what they say is read too, quoted as
            # written.
            for clause in person_clauses(text) + thing_clauses(text):
                said = plain(clause)
                out.append(Sentence(text, passage, said, stems_in(said), boilerplate=boilerplate))
    return out


def _section_of(card: str, title: str, passage: Passage) -> str:
    """The title of a card's section: above it in the passage, else where the passage begins on its page (the
    last heading of its section path that is not the card's own name or role)."""
    own = {part.strip() for part in card.split(": ", 1)}
    return title or next((h for h in reversed(passage.headings) if h.strip() not in own), "")


# A role someone else holds is no answer to who holds it at the subject: a qualified role ("vice president",
# "technical lead", unless the question names the qualifier too) and another body's officer ("their CEO",
# "Acme's chief executive", "CEO of Acme" on a page about one of the subject's sponsors).
_ROLE = (r"(?i:presidents?|directors?|leads?|leaders?|heads?|managers?|chairs?|chairman|chairwoman|chairperson|officers?|"
         r"executives?|ceo|cto|cfo|coo|cmo|cpo|cro|cio|clo|cdo|cso|cco|"
         r"founders?|co-?founders?)")
_ROLE_WORD = re.compile(rf"\b{_ROLE}\b")
_QUALIFIED_ROLE = re.compile(
    r"\b(vice|deputy|assistant|associate|technical|tech|engineering|product|project|team|program|programme|design|"
    rf"research|security|community|marketing|sales|regional|country)[\s-]+({_ROLE})\b", re.I)
_NAME = r"[A-Z][\w&.'’-]*(?:\s+(?:of\s+|&\s+)?[A-Z][\w&.'’-]*)*"
_OWNER_BEFORE = re.compile(rf"\b(?:[Tt]heir|(?P<owner>{_NAME})['’]s)\s+")  # their / Acme's (...) CEO
_OWNER_AFTER = re.compile(rf"\b(?P<role>{_ROLE})\s+(?:of|at)\s+(?:the\s+)?(?P<owner>{_NAME})")  # CEO of Acme


def reading_stems(q: Question, s: Sentence) -> set[str]:
    """The stems a sentence is matched to the question by: its own, less a role someone else holds (person
    questions), plus the contact words when it holds the contact asked for ("Write to press@acme.example"
    answers "What is Acme's email address?"), plus "address" when it holds a postal address (place questions),
    plus every name of the identifier asked for when one of them labels a code ("UEI: F1QZ..." for "its unique
    entity identifier"), plus "found" when the company itself began ("Mastodon started in 2016 as an open-source
    project")."""
    stems = _kind_stems(q, s) | _page_date_stems(q, s)
    if _the_subject_began(q, s):
        return stems | {"found"}
    agent = _asked_agent(q)
    if agent and {w.lower() for w, _, _ in tokens_of(s.plain)} & agent[1] and doers_of_the_subject(q, s.plain):
        return stems | {agent[0]}  # "More than 12,000 developers use Acme" counts its users
    return stems


def _the_subject_began(q: Question, s: Sentence) -> bool:
    """Asked when the company was founded, the sentence says it began (:func:`began_itself`)."""
    if not asks_the_founding(q):
        return False
    return ((bool(s.stems & BEGIN_STEMS) and began_itself(q, s.plain, s.passage.own_site))
            or (s.passage.own_site and bool(s.stems & FOUNDING_STEMS) and founded_itself(q, s.plain)))


def _asked_agent(q: Question) -> tuple[str, frozenset[str]] | None:
    """Asked how many do something to the company, the agent noun's stem and its verb's forms as written: "How many
    users ..." -> (user, {use, uses, used, ...}); "investors" -> (investor, {invest, invests, invested, ...}); a
    participle says it where the noun does not: "paying customers" -> (custom, {pay, pays, ...})."""
    return _counted_agent(q.text) if q.kind == "number" else None


@lru_cache(maxsize=256)
def _counted_agent(question: str) -> tuple[str, frozenset[str]] | None:
    # Cached: asked of every sentence read (reading_stems), and the question's parse is walked twice for it.
    noun = counted_in_question(question)
    if noun is None:
        return None
    singular = noun.lower().removesuffix("s")
    participle = counted_participle(question)
    if participle is not None:
        base = participle.removesuffix("ing")  # "pay", "subscrib"
    elif singular.endswith(("er", "or")) and len(singular) >= 4:
        base = singular[:-2]  # "us", "invest", "subscrib", "visit"
    else:
        return None
    forms = {base + ending for ending in ("", "s", "ed", "ing", "e", "es", "ed", "d")}  # use, invested, subscribes
    stem = next(iter(stems_of(noun.lower())), "")
    # The verb's forms as written, so that "customers" is not read from "customize" (one Snowball stem).
    return stem, frozenset(form for form in forms if len(form) > 2)


def doers_of_the_subject(q: Question, sentence: str) -> list[tuple[int, int]]:
    """Where the counts are written whose noun does to the company what the question's agent noun names: "12,000
    developers use Acme" for "How many users ..." (the parse gives the count's noun as the verb's subject and the
    company as its object)."""
    agent = _asked_agent(q)
    if agent is None:
        return []
    verbs = agent[1]
    doers = counted_doers(sentence, lambda word: word.lower() in verbs)
    return [(start, end) for start, end, done_to in doers if mentions_subject(q, done_to)]


def asked_part(q: Question, owner: str) -> bool:
    """The question names the owner as the part of the company it asks of: "engineering" in "Who is the head of
    engineering at Acme?", "the Ethics Commission" in "Who chairs Acme's ethics commission?"."""
    words = [word.lower() for word in owner.split() if word.lower() not in _NAME_FILLER]
    return bool(words) and all(word in q.keywords for word in words)


_NAME_FILLER = frozenset({"the", "of", "and"})  # "the Board of Directors": words of a name that name nothing


def _page_date_stems(q: Question, s: Sentence) -> set[str]:
    """The year and month of the page's date, where the question names them and the sentence names no year: a
    post dated 9 November 2020 that "today announced it has acquired Globex" says when (asked "... in November
    2020?")."""
    when = s.passage.as_of
    if when is None or YEAR_RE.search(s.plain):
        return set()
    dated = {str(when.year)} | stems_of(when.strftime("%B"))
    return dated & set(q.terms)


def contact_stems(q: Question) -> set[str]:
    """The stems of the words a contact of the asked kind is named by ("contact", "email", "e-mail", "mail" ...),
    and of the words for reaching one ("get in touch", "reach", "send", "write"): a contact is how."""
    return _REACHING | set().union(*(stems_of(w) for w in CONTACT_ASKED[q.contact or "web"]))


_REACHING = frozenset({"contact", "get", "touch", "reach", "send", "write"})


def _kind_stems(q: Question, s: Sentence) -> set[str]:
    if q.kind == "contact":
        if not contact_spans(q, s.plain):
            return s.stems
        return s.stems | contact_stems(q)
    if q.kind == "identifier" and identifier_spans(q, s.plain):
        return s.stems | stems_in(" ".join(q.identifier))  # "UEI: F1QZ..." names the unique entity identifier
    if q.kind == "place" and holds_postal_address(s.plain):
        return s.stems | {"address"}  # "Acme GmbH, Hafenstraße 12, 20457 Hamburg" states an address without the word
    if q.kind == "place" and "incorpor" in q.terms and _INCORPORATED_AS.search(s.plain):
        return s.stems | {"incorpor"}  # "Acme, Inc., a Delaware corporation" says where it is incorporated
    if q.kind == "number" and asks_headcount(q) and counts_us(s.plain):
        return s.stems | {HEADCOUNT}  # "There are 16 of us" counts the company's people without the word
    if any(placed_by_definition(q, s.plain, span) for span in _where_from_spans(q, s.plain)):
        return s.stems | set(q.terms)  # "MarsBased is a consultancy from Barcelona" says where it is based
    return _role_stems(q, s)


# The words a question asks where the company is by, and nothing else ("Where is Acme based?", "In which city is
# Acme located?").
_WHERE_STEMS = frozenset().union(*(stems_of(w) for w in
                                   "based located headquartered headquarters hq situated location city country "
                                   "town region".split()))
_FROM_OR_IN = re.compile(r"\b(?:from|in)\b")


# A company described by the place it is incorporated in: "a Delaware corporation", "an Ontario corporation", "a
# Wyoming limited liability company".
_INCORPORATED_AS = re.compile(rf"\ban?\s+[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?\s+{CORPORATION_KIND}")


# Words that ask what something costs, and the periods a price is given for.
_PRICE_STEMS = frozenset(stem(w) for w in "cost price priced pricing charge fee".split())
_PERIOD_STEMS = {stem(w): unit for unit in ("month", "year", "week") for w in (unit, unit + "ly")} | {
    stem("annual"): "year", stem("annually"): "year"}
_RATE_STEMS = frozenset(_PERIOD_STEMS) | {stem("per")}  # "per month"
_PERIOD_AFTER = re.compile(r"\s*(?:(?:a|an|per|each|every|/)\s*(month|mo|year|yr|annum|week)\b|(month|year|week)ly\b"
                           r"|(annual)ly\b)", re.IGNORECASE)
_PERIOD_OF = {"mo": "month", "yr": "year", "annum": "year", "annual": "year"}


@dataclass(frozen=True)
class PricedItem:
    """What a question asks the price of: the stems of the names it gives it ("the Business plan": Business), of
    its other words (plan), and the period asked for ("per month"; "" when none)."""

    names: frozenset[str]
    words: frozenset[str]
    period: str
    lowest: bool = False  # "the cheapest plan", "the starting price": the lowest price, whichever item has it


# Words that rank a price lowest, in the question ("the cheapest plan", "the starting price", "the entry-level plan")
# and in a sentence ("the entry-level Growth plan costs", "plans start at", "our lowest price").
_LOWEST_STEMS = frozenset(stem(w) for w in "cheapest lowest least minimum entry start starting starts".split())
_LOWEST_BEFORE = re.compile(r"\b(?:from|as low as)\s*$", re.IGNORECASE)  # "Plans from $9", "as low as $5"


@cache  # asked of every amount of every sentence read
def asked_item(q: Question) -> PricedItem | None:
    """The item whose price the question asks ("How much does Acme's Pro plan cost per month?"); None when it asks
    no price of a named item ("How much did Acme raise?", "How much does it cost?")."""
    period = next((_PERIOD_STEMS[t] for t in q.terms if t in _PERIOD_STEMS), "") or _period_asked(q.text)
    how_much_is = re.search(r"\bhow much (?:is|are)\b", q.text, re.I)
    lowest = {t for t in q.terms if stems_of(t) & _LOWEST_STEMS}
    if q.kind != "money" or not (asks_a_price(q) or (how_much_is and (period or lowest))):
        return None  # "How much is the club worth?" asks a worth; "How much is the Pro plan a month?" a price
    item = [t for t in q.terms if t not in _PRICE_STEMS and t not in _RATE_STEMS and t not in lowest]
    if not item and not lowest:
        return None
    written = {stem(w) for w in names_written([w for w, _, _ in tokens_of(q.text)])}
    return PricedItem(frozenset(written & set(item)), frozenset(item) - written, period, bool(lowest))


def _states_the_lowest(sentence: str, span: Span) -> bool:
    """The sentence ranks the amount lowest: "the entry-level Growth plan costs $9", "Plans start at $9", "from $9"."""
    return bool(stems_in(sentence) & _LOWEST_STEMS) or bool(_LOWEST_BEFORE.search(sentence[:span.start]))


# A period the question asks a price for in words the question reader sets aside ("year" is a filler word of "What
# year ...?"): "per year", "a year", "annually", "yearly".
_PERIOD_ASKED = re.compile(r"\b(?:per|a|an|each|every)\s+(month|year|week)\b|\b(month|year|week)ly\b"
                           r"|\b(annual)(?:ly)?\b", re.IGNORECASE)


def _period_asked(question: str) -> str:
    asked = _PERIOD_ASKED.search(question)
    return next(_PERIOD_OF.get(g.lower(), g.lower()) for g in asked.groups() if g) if asked else ""


def asks_a_price(q: Question) -> bool:
    """The question asks what something costs, by a word of price ("How much does the Pro plan cost?", "What is the
    fee for ...?")."""
    return q.kind == "money" and bool(_PRICE_STEMS & set(q.terms))


def asks_its_price(q: Question) -> bool:
    """"How much does Acme cost per month?": the price of the company's own service, no item of it named."""
    return asks_a_price(q) and all(t in _PRICE_STEMS or t in _RATE_STEMS for t in q.terms)


def _period_after(sentence: str, span: Span) -> str:
    """The period an amount is given for, as written after it ("5 euros a month", "€60/year"); "" when none."""
    given = _PERIOD_AFTER.match(sentence, span.start + len(span.text))
    return next(_PERIOD_OF.get(g.lower(), g.lower()) for g in given.groups() if g) if given else ""


def priced_per_period(sentence: str, span: Span) -> bool:
    """The amount is a price for a period: "5 euros a month", "$99 each month", "€60/year"."""
    return bool(_period_after(sentence, span))


def priced_for_the_item(q: Question, sentence: str, span: Span) -> bool | None:
    """Whether an amount is the price of the item the question asks about, as the parse reads it: True for "the
    Basic plan costs $9 a month" asked of the Basic plan; False for another item's price ("the Starter plan
    costs $19") or another period's ("$90 a year" asked per month); None when no price of an item is asked or
    the parse ties the amount to nothing."""
    item = asked_item(q)
    if item is None:
        return None
    period = _period_after(sentence, span)
    if item.period and period and period != item.period:
        return False
    if item.lowest and not _states_the_lowest(sentence, span):
        return False  # "The Growth plan costs $9", asked the cheapest plan's price: one plan's, maybe not the lowest
    if _listed_with_its_price(item, sentence, span):
        return True  # "Creator, $29 per month: for growing publications"
    things = [thing for thing in priced_things(sentence, span.start, span.start + len(span.text))
              if not {w.lower() for w, _, _ in tokens_of(thing)} <= FIRST_PERSON | _PRONOUNS]  # "it" is unknown
    if item.lowest:  # a named plan the sentence ranks lowest is the one asked of: "the entry-level Growth plan"
        asked = item.names | item.words
        return True if not asked or any(asked <= stems_in(thing) for thing in things) else None
    if not things:
        return None
    if any(_a_longer_name(item, thing) for thing in things):
        return False  # "The Acme One Mini costs €49", asked of the Acme One
    stems = [stems_in(thing) for thing in things]
    if any((item.names or item.words) <= thing for thing in stems):
        return True  # the item by its name: "Business is $99" prices the Business plan
    if any(names_another_item(q, item, sentence, thing) for thing in things):
        return False  # "the Starter plan costs $19", asked of the Business plan
    if item.names and item.names <= stems_in(sentence) and any(thing & item.names for thing in stems):
        return False  # "The Beacon costs $99 and the Beacon Pro $199", asked of the Beacon Pro: the $99 is another's
    # "a standard subscription" may be the "regular subscription" asked of, "the institute" the Milton Friedman
    # Institute; "Pricing" is no subscription
    return None if any((item.names | item.words) & thing for thing in stems) else False


_PRONOUNS = frozenset("it its this that these those they them their".split())


def in_the_first_person(text: str) -> bool:
    """The text speaks as "we", "us" or "our": on a company's own pages, the company."""
    return bool(FIRST_PERSON & {w.lower() for w, _, _ in tokens_of(text)})


def _a_longer_name(item: PricedItem, thing: str) -> bool:
    """The thing is named by the item's name and a capitalised word more: "The Acme One Mini" is another product than
    the Acme One, "the Beacon Pro" than the Beacon."""
    words = [w for w, _, _ in tokens_of(thing)]
    named = [i for i, w in enumerate(words) if stem(w.lower()) in item.names]
    if not named or named[-1] + 1 >= len(words):
        return False
    after = words[named[-1] + 1]
    return after[:1].isupper() and stem(after.lower()) not in item.words and after.lower() not in LEGAL_SUFFIXES


def _listed_with_its_price(item: PricedItem, sentence: str, span: Span) -> bool:
    """A price list's line: the item's name opens it and the amount follows its punctuation ("Creator, $29 per month:
    ...", "Pro – €12 a month")."""
    head = re.fullmatch(r"\s*([\w' ]+?)\s*[,:–—-]\s*(?:at\s+|from\s+)?", sentence[:span.start])
    named = item.names or item.words
    return head is not None and bool(named) and named <= stems_in(head.group(1))


def names_another_item(q: Question, item: PricedItem, sentence: str, thing: str) -> bool:
    """The phrase names an item of its own: a capitalised word (not the sentence's first, not the company's)
    that is none of the asked item's ("the Starter plan" is not the Business plan)."""
    first = tokens_of(sentence)[0][0] if sentence.startswith(thing) else ""
    return any(w[:1].isupper() and w != first and w.lower() not in q.subject_terms and stem(w) not in item.names
               for w, _, _ in tokens_of(thing))


def asks_headcount(q: Question) -> bool:
    """The question counts the company's people: its employees, staff, team or people."""
    return any(match_weight(t, {HEADCOUNT}) > 0 for t in q.terms)


def _asks_where_only(q: Question) -> bool:
    return q.kind == "place" and set(q.terms) <= _WHERE_STEMS


def _where_from_spans(q: Question, sentence: str) -> list[Span]:
    """The places of a sentence that may say where the subject is from (cheap tests first: the parse is last)."""
    if not (_asks_where_only(q) and _FROM_OR_IN.search(sentence)):
        return []
    if not (mentions_subject(q, sentence) or re.match(r"\W*we\b", sentence, re.IGNORECASE)):
        return []
    return spans(q, sentence)


def placed_by_definition(q: Question, sentence: str, span: Span) -> bool:
    """The place is where the subject is from in what the sentence says the subject is ("MarsBased is a consultancy
    from Barcelona", "Acme, a robotics maker in Lyon, ..."), asked only where the subject is."""
    if not _asks_where_only(q):
        return False
    end = span.start + len(span.text)
    extents = where_from(sentence, lambda phrase: refers_to_subject(q, phrase))
    return any(a <= span.start and end <= b for a, b in extents)


def _role_stems(q: Question, s: Sentence) -> set[str]:
    """The sentence's stems, for a person question without the role words that name a role someone else holds."""
    if q.kind != "person" or not _ROLE_WORD.search(s.plain):
        return s.stems
    others = [m.span(2) for m in _QUALIFIED_ROLE.finditer(s.plain) if m.group(1).lower() not in q.keywords]
    others += roles_of_a_part(s.plain, lambda word: bool(_ROLE_WORD.fullmatch(word)),
                              lambda word: word.lower() in q.keywords or mentions_subject(q, word))
    for m in _OWNER_BEFORE.finditer(s.plain):
        if not (m.group("owner") and mentions_subject(q, m.group("owner"))):
            window = " ".join(s.plain[m.end():].split(" ")[:4])  # "Their Co-founder and CEO, Markus ..."
            others += [(m.end() + r.start(), m.end() + r.end()) for r in _ROLE_WORD.finditer(window)]
    others += [m.span("role") for m in _OWNER_AFTER.finditer(s.plain)  # not the part asked of: "Head of Engineering"
               if not mentions_subject(q, m.group("owner")) and not asked_part(q, m.group("owner"))]
    if not others:
        return s.stems
    rest = s.plain
    for start, end in sorted(set(others), reverse=True):
        rest = rest[:start] + " " + rest[end:]
    return stems_in(rest)


def _a_line_of_facts(line: str) -> bool:
    """A "Label: value" line, a code after its label ("EIN 12-3456789"), a postal address alone or a line of
    nothing but contacts ("+31 24 30 10 484 contact@acme.example")."""
    return (bool(LABEL_LINE.match(line)) or sentence_splitter.is_code_line(line) or is_postal_address(line.rstrip("."))
            or only_contacts(line))


def _a_code_line(q: Question, line: str) -> bool:
    """A line of the asked identifier's name and its code, however long the name's wording: "VAT identification
    number according to § 27a of the German VAT Act: DE336918027"."""
    found = identifier_spans(q, line) if q.kind == "identifier" else []
    return bool(found) and line.rstrip(" .").endswith(found[-1].text) and len(tokens_of(line)) <= MAX_CODE_LINE_WORDS


MAX_CODE_LINE_WORDS = 16


def _the_pages_own_line(q: Question, s: Sentence) -> bool:
    """A label line is about the page's subject: the company, where the page's title names it, or where the page is
    on the company's own website and the line names no other organisation ("Tel.: +1 555 0100" on "General office
    information"; not "Bank address: Globex Bank, New York, NY 10017")."""
    if mentions_subject(q, s.passage.title or ""):
        return True
    if is_a_persons_name(s.passage.title or ""):
        return False  # "Location: Lafayette, California" on "Jane Roe", a team member's page, is where she is
    return (on_the_subjects_page(q, s) and bool(q.subject_terms)
            and all(mentions_subject(q, name) for name in _organisations_named(s.plain)))


# The titles of a company's page about itself ("About us", "Our story", "Who we are").
_ABOUT_TITLE_WORDS = frozenset("about us our story history who we are company the".split())


def _our_about_page(passage: Passage) -> bool:
    """A page of the company's own website about the company itself, by its title: "About us" names no one but
    is the company's, as "Founded in Paris in 2016." on it is."""
    words = {w.lower() for w, _, _ in tokens_of(passage.title or "")}
    return passage.own_site and bool(words) and words <= _ABOUT_TITLE_WORDS and bool(words & {"about", "story", "who"})


def on_the_subjects_page(q: Question, s: Sentence) -> bool:
    """The sentence is on the subject's own website or on a page whose title names the subject."""
    return s.passage.own_site or mentions_subject(q, s.passage.title or "")


def page_role(q: Question, s: Sentence) -> bool:
    """A role set beside a name, with no organisation named in the sentence, on the subject's own website or a page
    whose title names it: "Jane Roe, co-founder and CTO, leads engineering." on "About Acme" is Acme's CTO; beside
    "Globex" it may be Globex's."""
    if _other_organisations(q, s.plain) or not on_the_subjects_page(q, s):
        return False
    role = term_word(q, exact=True)
    return apposed_to_name(s.plain, role) or _team_card(q, s.plain, role) or _held_by_a_person(q, s.plain, role)


def _held_by_a_person(q: Question, sentence: str, is_role: Callable[[str], bool]) -> bool:
    """The parse gives the role to a person the recogniser names, as the company's: "Jane Roe runs the company day
    to day as chief executive", "the board appointed Jane Roe as the company's new CEO" (not "The chief executive is
    Jane Roe", which does not say whose)."""
    return any(r.held_by_value and r.owner and owned_by_subject(q, r.owner)
               for start, end, label in entities(sentence) if label == "PERSON"
               for r in role_statements(sentence, is_role, (start, end)))


_CARDS = (
    re.compile(r"^(?P<name>[^,:;()]{3,40}),\s+(?P<title>[^,:;]{2,80})$"),  # "Jane Roe, Acting CFO and Director"
    # "Jane Roe — Director of Research", "Jane Roe, PhD – Head of Product, Team Lead (she/her)", and a card the
    # splitter joined from a name's heading and the role's under it ("Jane Roe: Chair of the Ethics Commission")
    re.compile(r"^(?P<name>[^,:;()\u2013\u2014]{3,40})(?:,\s+[^,:;()\u2013\u2014]{2,12})?(?:\s+[\u2013\u2014-]|:)\s+"
               r"(?P<title>[^:;\u2013\u2014]{2,120})$"),
)


def _team_card(q: Question, line: str, is_role: Callable[[str], bool]) -> bool:
    """A team list's card: a person's name (and a degree), a comma or a dash, and a title that holds the role ("Jane
    Roe, Acting CFO and Director"; not "Jane Roe, Executive Assistant to the CFO"). The parser reads such a card as
    two names joined; the name is the recogniser's person, or written as one and read as nothing else."""
    cards = (card.match(line.rstrip(".")) for card in _CARDS)
    return any(card is not None and titled(card.group("title"), is_role)
               and (is_a_persons_name(card.group("name")) or written_as_a_name(q, card.group("name")))
               for card in cards)


def _other_organisations(q: Question, sentence: str) -> list[str]:
    """The organisations the recogniser names, less roles and the part of the company asked of, which it may read as
    one: "Jane Roe — Director of Curriculum, Curriculum Team Lead" asked who the Director of Curriculum is, "Jane
    Roe: Chair of the Ethics Commission" who chairs its ethics commission."""
    return [o for o in _organisations_named(sentence)
            if not all(_ROLE_WORD.fullmatch(w) or w.lower() in q.keywords or w.lower() in _NAME_FILLER
                       for w in re.findall(r"[\w'-]+", _QUALIFIED_ROLE.sub(" ", o)))]


def _organisations_named(sentence: str) -> list[str]:
    """The organisations the recogniser names, less a role or an identifier's name it reads as one ("Jane Roe:
    CFO", "VAT ID: NL866479004B01")."""
    return [o for o in organisations(sentence)
            if not all(_ROLE_WORD.fullmatch(w) or w.lower() in _IDENTIFIER_WORDS for w in re.findall(r"[\w'-]+", o))]


_IDENTIFIER_WORDS = frozenset(w for names in IDENTIFIER_NAMES for name in names for w in name.split())


# Verbs by which a page bids its reader get in touch ("Email ...", "Call ...", "Write to ...", "Reach out to ...").
_CONTACTING = frozenset("email e-mail mail write call phone ring dial text message contact reach send fax".split())


def _contacting(verb: str) -> bool:
    return verb.lower() in _CONTACTING


def _names_no_other_body(q: Question, sentence: str) -> bool:
    """Every name in the sentence is the subject's: "email Globex Media at ..." may be another body's desk (the small
    recogniser reads it as a person, so a person's name counts too)."""
    return all(mentions_subject(q, name) for name in names(sentence))


def about_the_asked_thing(q: Question, s: Sentence, things: list[str]) -> bool:
    """The question asks about ``things`` of the company's (:func:`asked_things`), and the sentence's subject is one
    of them ("Most tours run 2 to 4 years", "The first public launch occurred in October 2016"), with no other name in
    it ("At Globex, most tours ..."; the thing's own name aside: "the Model 100 will cost $349"), on the company's own
    site or a page whose title names it. Asked for a name, the names after the main verb are what the sentence says
    of the thing: "The round was led by Globex Capital". Only a sentence that holds one of the things' words is
    parsed."""
    stems = [stems_of(thing.lower()) for thing in things]
    if not any(thing & s.stems for thing in stems) or not on_the_subjects_page(q, s):
        return False
    said = subject_noun(s.plain, names=True)
    if said is None or not any(stems_of(said.lower()) & thing for thing in stems):
        return False
    verb = main_verb_offset(s.plain) if q.kind in ("person", "org") else len(s.plain)
    return all(mentions_subject(q, name) or any(stems_in(name) & thing for thing in stems)
               or stems_in(name) - {"the"} <= set(q.terms)  # "The Starter plan" for "Acme's Starter plan"
               for name in names(s.plain) if s.plain.find(name) < verb)


_FOUNDING_TERMS = frozenset({"found", "founder", "co-found", "cofound"})  # the stems of found, founder, co-founder


def names_another_of_its_kind(q: Question, sentence: str) -> bool:
    """A name the question tells by its designator ("Series A", "Beacon 2") is in the sentence with others only
    ("Series B", "Beacon 3"): the sentence is about another of its kind."""
    for name, designator in q.designated:  # "the Acme 3, 4 and 5 each come with ...": a list names each
        listed = rf"{DESIGNATOR}(?:\s*(?:,|/|&|\band\b|\bor\b)\s*{DESIGNATOR})*"
        lists = re.finditer(rf"(?i:\b{re.escape(name)})\s+({listed})", sentence)
        said = {designator_key(d) for m in lists for d in re.findall(DESIGNATOR, m.group(1))}
        if said and designator not in said:
            return True
    return False


def moved_the_other_way(q: Question, sentence: str) -> bool:
    """A name the question gives as where something went ("When did Acme move its headquarters to Berlin?", "switch
    to Hetzner") is in the sentence only as where it came from ("moved its headquarters from Berlin to Munich"), or
    the other way round: the sentence tells another move."""
    for preposition, name in _DIRECTED_NAME.findall(q.text):
        other = "from" if preposition.lower() in ("to", "into") else r"(?:to|into)"
        said = rf"\b{{}}\s+{re.escape(name.strip())}\b"
        if (re.search(said.format(other), sentence, re.IGNORECASE)
                and not re.search(said.format(re.escape(preposition)), sentence, re.IGNORECASE)):
            return True
    return False


_DIRECTED_NAME = re.compile(r"\b(to|into|from)\s+((?:[A-Z][\w.&'-]*\s?)+)")


def _a_sole_founder(q: Question, sentence: str) -> bool:
    """Asked who founded the company, the sentence names a founder, not one of several: "Jane Roe — Founder" on its
    team page answers as an officer's card does; "Jane Roe — Co-founder" is half an answer."""
    return (q.kind == "person" and bool(_FOUNDING_TERMS & set(q.terms))
            and not re.search(r"\bco-?founder", sentence, re.IGNORECASE))


def asked_things(q: Question) -> list[str]:
    """The things of the company's a question asks about: its subject when that is a common noun other than the
    company ("a tour of service at USDS"), and the nouns it gives the company ("its first public launch")."""
    things = possessed_nouns(q.text, lambda owner: owner.lower() in _POSSESSIVES or refers_to_subject(q, owner))
    subject = subject_noun(q.text)
    if subject is not None and not refers_to_subject(q, subject) and subject.lower() not in SELF_NOUNS:
        things.append(subject)
    # The role asked of is no thing of the company's: "The chief executive is Jane Roe" does not say whose.
    role = term_word(q, exact=True) if q.officer else (lambda word: False)
    return [thing for thing in dict.fromkeys(things) if not role(thing)]


_POSSESSIVES = frozenset({"its", "their", "our"})


def told_of_the_undoing(q: Question, s: Sentence, span: Span) -> bool:
    """The value hangs on a verb that undoes a deed the question asks of: "Acme closed its Berlin office in 2022"
    does not date its opening, nor "Jane Roe stepped down as CEO in 2020" her becoming CEO (:func:`undoings`; the
    verbs as the trained parser reads them, parsed only where a word of an undoing is written)."""
    undone_by = undoings()
    asked = _asked_deeds(q.text)
    if not asked or not s.stems & {key.split()[0] for deed in asked for key in undone_by[deed]}:
        return False
    keys = keys_of_verbs(value_verbs(s.plain, span.start, span.start + len(span.text)))
    return any(keys & undone_by[deed] for deed in asked)


def _asked_deeds(question: str) -> frozenset[str]:
    """The question's verbs that a verb of :func:`undoings` undoes ("When did Acme open ...?": open; "When did Jane
    Roe step down?": step down)."""
    return question_verb_keys(question) & undoings().keys()


@lru_cache(maxsize=256)
def question_verb_keys(question: str) -> frozenset[str]:
    """The question's verbs as :func:`keys_of_verbs` keys them (one parse per question)."""
    return frozenset(keys_of_verbs(verbs_of(question)))


def keys_of_verbs(verbs: list[tuple[str, str]]) -> set[str]:
    """Verbs with their particles as :func:`undoings` keys them: ("stepped", "down") -> step, step down."""
    return {key for verb, particle in verbs for word in stems_of(verb) for key in (word, f"{word} {particle}".strip())}


def score_sentences(q: Question, sentences: list[Sentence]) -> None:
    total = len(sentences) or 1
    stems = {id(s): reading_stems(q, s) for s in sentences}
    things = asked_things(q) if q.kind in TYPED_KINDS else []
    holding = Counter(t for s in sentences for t in q.terms if match_weight(t, stems[id(s)]) > 0)
    idf = {t: math.log((total - holding[t] + 0.5) / (holding[t] + 0.5) + 1) for t in q.terms}
    weight = sum(idf.values()) or 1.0
    is_term = term_word(q)
    for s in sentences:
        if q.terms:
            matches = {t: match_weight(t, stems[id(s)]) for t in q.terms}
            s.coverage = sum(matches.values()) / len(q.terms)
            s.lexical = sum(idf[t] * m for t, m in matches.items()) / weight
        else:
            s.coverage = s.lexical = 0.5
        # "we never sell it" does not say what is sold; "set up so that no investor could sell it" says when
        s.negated = bool(_NEGATION.search(s.plain)) and (s.lexical == 0 or negation_reaches(s.plain, is_term))
        if s.negated:
            s.lexical *= NEGATION_PENALTY
        if s.lexical == 0:
            continue
        if creates_other(q, s.plain):  # "In 2008 the University announced plans to establish the X Institute"
            s.creates_other = True
            s.coverage *= RELATED_WEIGHT
            s.lexical *= RELATED_WEIGHT
        s.role = subject_role(q, s.plain)
        if s.role == 2 and s.antecedent and subject_role(q, plain(s.antecedent)) == 0:
            s.role = 0  # "It" names what the sentence before is about: "Getting ease of use right ... It's a dance"
        if s.role == 1 and owned_predicate(q, s.plain):
            s.role = 2  # "Since its founding in 2013, ISRG's ...": the predicate is the subject's
        elif s.role == 0 and (_a_line_of_facts(s.plain) or _a_code_line(q, s.plain)) and _the_pages_own_line(q, s):
            s.role = 2  # "Address: 1 Main St" (or the address alone) on "About Acme": the page's subject's
        elif (s.role == 0 and subjectless_past(after_leading_date(s.plain) or s.plain)
              and (mentions_subject(q, s.passage.title or "") or _our_about_page(s.passage))):
            s.role = SUBJECTLESS_ROLE  # "Founded in 2014 in Porto." on "About Acme": the page's subject did it
        elif s.role == 0 and q.kind in ("person", "contact") and our_role(q, s.plain):
            s.role = 1  # "We welcome Jane Roe as our new CEO", "Contact our sales team at ...": the company's
        elif (s.role == 0 and q.kind == "contact" and s.passage.own_site and contact_spans(q, s.plain)
              and _names_no_other_body(q, s.plain)
              and (bids_the_reader(s.plain, _contacting) or tells_the_reader_to_reach_us(s.plain, _contacting)
                   or invites_an_audience(s.plain, _contacting))):
            # "For press inquiries, please email press@acme.example" on its own site: the company's (not "consider
            # becoming a sponsor, or reach out ... to support our mission at ...": a bid to sponsor it)
            s.role = 1
        elif s.role == 0 and s.passage.own_site and q.kind == "number" and counts_us(s.plain):
            s.role = 2  # "That makes seven of us" on Acme's own site: "us" is Acme, as "we" is
        elif s.role == 0 and s.passage.own_site and told_to_the_reader(s.plain):
            s.role = 1  # "You will receive a €1,000 referral bonus" on Acme's own careers page: Acme's bonus
        elif s.role == 0 and relation_owned(q, s.plain):
            s.role = 1  # "Make a donation through Globex, our fiscal host": the relation is the company's
        elif s.role == 0 and _the_subject_began(q, s):
            s.role = 2  # "When we started in 2015 we were a handful of people" on its own site: the company began
        elif s.role == 0 and (q.officer or _a_sole_founder(q, s.plain)) and page_role(q, s):
            s.role = 1  # "Jane Roe, co-founder and CTO, leads engineering." on "About Acme"
        elif s.role == 1 and q.wants == "agent" and subject_is_patient(q, s.plain):
            s.role = 2  # "Who operates Acme?": "Globex is the firm that operates Acme" is about who operates Acme
        elif s.role == 0 and things and about_the_asked_thing(q, s, things):
            s.role = 1  # "Most tours run 2 to 4 years" on USDS's home page, asked how long a USDS tour lasts
        elif (s.role == 0 and s.passage.own_site and q.kind != "contact" and in_the_first_person(s.plain)
              and not _other_organisations(q, s.plain)):
            # "... has grown into a 50,000 square foot factory, where we design and build everything" on Acme's own
            # site: "we", "our" and "us" are Acme, naming no other organisation (a team counted in "our devices" too).
            # (An address of ours is the company's only where the line gives it for reaching us: above.)
            s.role = 1
        s.spans = [span for span in spans(q, s.plain)
                   if not told_of_the_undoing(q, s, span) and not _founded_not_founder(q, s.plain, span)]
        if s.role == 0 and s.passage.own_site and any(priced_for_the_item(q, s.plain, span) for span in s.spans):
            s.role = 1  # "Professional runs $49 monthly" on Acme's pricing page: Acme's Professional plan
        elif s.role == 0 and s.passage.own_site and asks_its_price(q) and any(
                priced_per_period(s.plain, span) for span in s.spans):
            s.role = 1  # "Every account costs a flat 5 euros a month" on Acme's own site: what Acme costs
        if s.role and led_by_another_party(q, s.plain):
            s.role = 0  # "Our parent company Globex Ltd is registered under number 99999" on Acme's imprint: Globex's
        if s.role and q.receives and does_it_to_another(q, s.plain):
            s.role = 0  # "Acme acquired Initech in 2019", asked when Acme was acquired: Acme did it, to another
        if s.role and s.passage.of_another:
            # "The team works from our headquarters in Les Acacias" on Infomaniak's page, asked where Dropbox is:
            # Infomaniak's; a sentence there is about the name asked only by naming it, and then only mentions it.
            s.role = 1 if mentions_subject(q, s.plain) else 0
        cue = CUE_BONUS if s.spans and q.kind != "text" else 0.0
        if cue and q.cumulative and TOTAL.search(s.plain):
            cue += CUE_BONUS  # "has raised a total of $120 million" over one round's "$45 million"
        s.score = ((s.lexical + cue + RANK_PRIOR / max(s.passage.rank, 1)) * ABOUT_SUBJECT[s.role]
                   - (BOILERPLATE_PENALTY if s.boilerplate else 0.0))


def _founded_not_founder(q: Question, sentence: str, span: Span) -> bool:
    """Asked who founded the subject, the name is said to have been founded itself: "... to the Open Home Foundation,
    a newly founded non-profit" names what was founded, not who founded anything."""
    return (q.kind in ("person", "org") and asks_the_founding(q)
            and described_as_done(sentence, span.start, span.start + len(span.text),
                                  lambda word: bool(stems_of(word.lower()) & FOUNDING_STEMS)))


def nearest_span(q: Question, s: Sentence) -> tuple[Span, int]:
    """The span closest to a predicate word of the question, and its distance in tokens. Asked who holds a role,
    among the names the parse gives the role to, if any: "Jane Roe runs the company as chief executive, and John
    Doe looks after sales" names Jane Roe, however close John Doe stands to the title."""
    spans = s.spans
    if q.officer and q.kind == "person" and len(spans) > 1:
        spans = [span for span in spans if any(r.held_by_value for r in asked_roles(q, s.plain, span))] or spans
    if q.kind == "money" and len({span.key for span in spans}) > 1:
        # "raised $20 million at a $100 million valuation": an amount that describes a noun the question does not
        # ask of is another thing's, where another amount describes none.
        plain = [span for span in spans if not _describes_another_noun(q, s.plain, span)]
        spans = plain if plain and len({span.key for span in plain}) < len({span.key for span in spans}) else spans
    if q.kind in ("money", "number", "date", "year") and len({span.key for span in spans}) > 1:
        # Amounts or dates of several things in one sentence: the one whose own words hold what sets the asked thing
        # apart, not the one nearest the verb they share: "raised $5 million in its seed round and $20 million in its
        # Series A" for the Series A, "sold in Portugal since 2015 and in the United States since 2019" for the latter.
        verbs = verb_terms(q)
        own = [t for t in q.terms if t not in verbs]
        # (a word of the question's verb is the values' shared verb, whatever other term it relates to: "raised"
        # is no more the first amount's than the others', asked how much funding was raised)
        held = {id(span): len({t for t in own for w in words if match_weight(t, stems_of(w)) > 0
                               and not any(match_weight(v, stems_of(w)) > 0 for v in verbs)})
                for span, words in _own_words(s.plain, spans)}
        best = max(spans, key=lambda span: held[id(span)])
        if sum(held[id(span)] == held[id(best)] for span in spans) == 1:
            return best, distance(q, s.plain, best)
        # Asked how much in all, of those that hold as much: the one told as the total ("raised $5 million in 2018
        # and $20 million in 2020, for a total of $25 million").
        totals = [span for span in spans if held[id(span)] == held[id(best)] and told_as_the_total(s.plain, span)]
        if q.cumulative and len({span.key for span in totals}) == 1:
            return totals[0], distance(q, s.plain, totals[0])
    return min(((span, distance(q, s.plain, span)) for span in spans), key=lambda x: (x[1], x[0].start))


def told_as_the_total(sentence: str, span: Span) -> bool:
    """The value is told as a total (:data:`TOTAL`'s words just before or right after it): "a total of $25 million",
    "brought its total funding to $25 million", "$25 million in total"."""
    before, after = sentence[max(0, span.start - TOTAL_REACH):span.start], sentence[span.start + len(span.text):]
    return bool(TOTAL.search(before) or TOTAL.match(after.lstrip()))


TOTAL_REACH = 30  # characters before a value where a word of a total is its own ("its total funding to ...")


def _describes_another_noun(q: Question, sentence: str, span: Span) -> bool:
    noun = noun_described(sentence, span.start, span.start + len(span.text))
    return bool(noun) and not any(match_weight(t, stems_of(noun.lower())) > 0 for t in q.terms)


def verb_terms(q: Question) -> set[str]:
    """The question's key terms that are verbs in it, as the trained tagger reads them."""
    return _verb_stems(q.text) & set(q.terms)


@cache
def _verb_stems(question: str) -> frozenset[str]:
    return frozenset(stem(word.lower()) for word, kind in word_classes(question) if kind == "verb")


_CLAUSE_BREAK = re.compile(r"[,;]|\b(?:and|or|but|while|whereas)\b", re.IGNORECASE)


def _own_words(sentence: str, spans: list[Span]) -> list[tuple[Span, list[str]]]:
    """Each value with the words that are its own: the first value those before it, each value those after it up to
    the next break (a comma, "and", "or" ...) and the words from that break to the next value its own ("pays 90% of
    your premiums and 80% for family": "of your premiums" is the 90%'s)."""
    ordered = sorted(spans, key=lambda span: span.start)
    own = [[w for w, _, _ in tokens_of(sentence[:ordered[0].start])]] + [[] for _ in ordered[1:]]
    for n, span in enumerate(ordered):
        begin = span.start + len(span.text)
        end = ordered[n + 1].start if n + 1 < len(ordered) else len(sentence)
        between = sentence[begin:end] if end > begin else ""
        cut = _CLAUSE_BREAK.search(between)
        own[n] += [w for w, _, _ in tokens_of(between[:cut.start()] if cut else between)]
        if n + 1 < len(ordered) and cut:
            own[n + 1] += [w for w, _, _ in tokens_of(between[cut.start():])]
    return list(zip(ordered, own))


def distance(q: Question, sentence: str, span: Span, exact: bool = False) -> int:
    """Tokens between a span and the nearest word of the question's key terms (99 when none is there); with
    ``exact``, only a term in the question's own word counts (not another word of its relation). A mailbox named by
    a key term is no distance from it: "write to support@acme.example" for the support e-mail address."""
    if "@" in span.text and any(match_weight(t, stems_of(w)) > 0 for w in re.split(r"[._+-]", span.text.split("@")[0])
                                for t in q.terms):
        return 0
    tokens = tokens_of(sentence)
    inside = [i for i, (_, a, b) in enumerate(tokens) if a >= span.start and b <= span.start + len(span.text)]
    if not inside:
        inside = [min(range(len(tokens)), key=lambda i: abs(tokens[i][1] - span.start))] if tokens else [0]
    least = 1.0 if exact else 1e-9
    positions = [i for i, (w, _, _) in enumerate(tokens)
                 if i not in inside and any(match_weight(t, stems_of(w)) >= least for t in q.terms)]
    if not positions:
        return 99
    return min(min(abs(i - p) for i in (inside[0], inside[-1])) for p in positions)
