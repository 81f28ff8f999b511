"""The question: :func:`read_question` types it (:data:`Kind`), keeps its key terms as Snowball stems, the
subject's own words left out, and notes what else it asks: a share, an officer, one side of a directed
predicate, a running total, which contact."""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from cikb.answer.entities import (
    Relation, asked_noun, asked_relation, aspect_verbs, noun_describers, common_nouns, descriptive_words, entities,
    predicate_subjects, told_in_the_past,
)
from cikb.core.vocabulary import CHIEF_TITLES, match_weight, relation
from cikb.embed.bm25 import english_stopwords
from number_parser import parse_number
from cikb.answer.reader._words import (
    COPULAS, IDENTIFIER_NAME, IDENTIFIER_NAMES, LEGAL_SUFFIXES, MONTHS, SELF_NOUNS, YEAR_RE, seat_as_headquarters,
    short_titles, stem, stems_of, tokens_of,
)

Kind = Literal["year", "date", "duration", "number", "money", "person", "org", "place", "contact", "identifier",
               "licence", "option", "boolean", "text"]

TYPED_KINDS = frozenset({"year", "date", "duration", "number", "money", "person", "org", "place", "contact",
                         "identifier", "licence", "option"})
# What a reader calls the value a question of each kind wants (for "no sentence states ...").
KIND_NOUNS = {"year": "a year", "date": "a date", "duration": "a length of time", "number": "a number",
              "money": "an amount of money", "person": "a name", "org": "an organisation's name", "place": "a place",
              "contact": "an e-mail address, a phone number or a web address",
              "identifier": "a registry or tax identifier", "licence": "a licence", "option": "one of the options",
              "boolean": "a yes or no", "text": "an answer"}

# Asked how long something takes or lasts, these words ask only for the length ("How long does the application
# take?", "How long does a tour usually last?"): what takes or lasts it is the question's other words.
_DURATION_FILLER = frozenset(
    "long take takes took taken last lasts lasted usually typically normally generally".split()
)

_WH_WORDS = frozenset({"who", "whom", "whose", "when", "where", "what", "which", "how", "why"})
# Words a question asks with that say nothing about the answer's content.
_QUESTION_FILLER = frozenset(
    """company companies organisation organization firm business year years name named date kind type status many much
    number currently current today ever also tell give know often""".split()
)
# Words that hedge or name what a quantity is measured in: "Roughly how much money ...", "How big a grant ...".
_QUANTITY_FILLER = frozenset("roughly approximately approximate about around nearly almost big large size money".split())
# "What city is Acme in?" asks where it is, as "Where is Acme?" does: the noun says how precisely, as "year" does of
# a date. (A word of the question still: as filler it cost SQuAD's place questions a right value and two wrong
# ones, "In what city was the Institute located?" read "Portland Place" at high.)
_PLACE_GRAINS = frozenset("city cities country countries town towns state states region county province".split())


def names_written(words: list[str]) -> frozenset[str]:
    """Filler words the question capitalises inside a sentence-cased question: names, not filler ("the Business
    plan", "the Company Builder programme"). A title-cased header capitalises every word, names or not."""
    inner = [w for w in words[1:] if w[:1].isalpha()]
    if sum(w[:1].isupper() for w in inner) * 2 > len(inner):
        return frozenset()
    return frozenset(w.lower() for w in inner if w[:1].isupper())


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
    defining: bool = False  # asks what the subject is or does: "What does Acme do?", "What kind of company is Acme?"
    legal_name: bool = False  # asks for the subject's legal (registered, official) name
    identifier: tuple[str, ...] = ()  # the names of the registry or tax identifier asked for: ("ein", "employer ...")
    choice: bool = False  # offers its answers as ``options``: "Does Acme work from offices or remotely?"
    relation: Relation | None = None  # asked for a body by its relation to the subject: "Acme's parent company"
    former_name: bool = False  # asks for a name the subject had before: "What was Acme previously called?"
    investors: str | None = None  # asks who invested ("all") or who besides the lead ("others"), else None
    customers: bool = False  # asks who uses the company's products: "Which companies use Acme?"
    board: bool = False  # asks who joined or sits on the company's board: "Who joined Acme's board?"
    worked_before: str = ""  # the officer whose earlier employers are asked: "Where did Acme's CEO work before?"
    thing: str = ""  # a named thing, not the subject, whose definition is asked: "What is Acme Pay?"
    legal_form: bool = False  # asks what kind of legal entity the subject is: "What legal form does Acme have?"
    # The subject's name and the other names its own pages give it ("rami.io GmbH" for pretix): a sentence naming it
    # by one of those is read as naming it by its name.
    subject_name: str = ""
    other_names: tuple[str, ...] = ()
    receives: bool = False  # a value asked of a verb the subject receives: "When was Acme acquired?"
    designated: tuple[tuple[str, str], ...] = ()  # names with a letter or a number that tells one from others
    funding: bool = False  # asks what the subject raised from investors, or whether it did: "Is Acme VC-backed?"

    @property
    def by_form(self) -> bool:
        """Answered by the ways English states it (a renaming, investors or customers named as such, a seat on the
        board, an earlier employer), or not at all."""
        return self.former_name or bool(self.investors) or self.customers or self.board or bool(self.worked_before)


_MONEY_WORDS = frozenset(
    "revenue revenues turnover sales price prices cost costs funding fund raise raised valuation valued worth income "
    "profit profits budget salary capital spend spent pay paid fee fees donation donations donated grant grants gift "
    "gifts dollars sponsorship sponsorships".split()
)
_ORG_WORDS = frozenset("organisation organization organisations organizations company companies institution "
                       "agency firm group body society foundation government unit units subsidiary subsidiaries "
                       "department departments".split())
_FUNDS = ("fund",)  # a body when asked for as such ("Which fund finances Acme?"), not "What funds were raised?"
_PLACE_WORDS = frozenset("city country state place address town region county headquarters headquartered based "
                         "located location continent".split())
# Roles only a person holds (an owner or a founder may be an organisation).
_OFFICER_ROLES = frozenset("ceo cto cfo coo cmo cpo cro cio clo cdo cso cco president chair chairman chairwoman "
                           "chairperson director executive chief head manager editor leader counsel secretary "
                           "treasurer".split())
_CONTACT_WORDS = frozenset("email e-mail phone telephone fax website url homepage".split())
# Which contact a question asks for, by its words; a sentence holding one counts as holding them.
CONTACT_ASKED = {"email": frozenset("email e-mail mail address".split()),
                 "phone": frozenset("phone telephone fax number".split()),
                 "web": frozenset("website url homepage web address site".split())}

# A question whose key terms are all of these asks what the subject is or does; a sentence that says what it is
# answers it ("Acme is a robotics manufacturer"), one that merely mentions it does not.
_DEFINING_WORDS = ("main primary core product products service services business sell sells offer offers provide "
                   "kind type sort")
_DEFINING_STEMS = frozenset(stem(w) for w in _DEFINING_WORDS.split())

_KIND_WORDS = ("kind", "type", "sort")  # "What kind of company is Acme?" asks what it is, not for an organisation

_LEGAL_NAME = re.compile(r"\b(?:legal|registered|official|incorporated)(?:\s+(?:company|entity|business))?\s+name\b",
                         re.I)
# "What is Acme's legal company name?" asks for its legal name, not for a company: the noun only says whose name.
_LEGAL_NOUN_NAME = re.compile(r"\b(legal|registered|official|incorporated)\s+(?:company|entity|business)\s+(name)\b",
                              re.I)
# "What is Acme's legal entity?" asks for its name; "What kind of legal entity is Acme?" for its form.
_LEGAL_ENTITY = re.compile(r"\blegal\s+entity\b", re.I)
_ENTITY_FORM = re.compile(r"\b(?:kind|type|form|sort)\s+of\s+(?:\w+\s+)?legal\s+(?:entity|body|organi[sz]ation)\b"
                          r"|\blegal\s+entity\s+type\b|\blegal\s+(?:form|structure|status)\b", re.I)

# A name had before: "former (legal) name", "previously called", "used to be known as", "What was Acme called
# before?", "What was its legal name before it was renamed?".
_FORMER_NAME = re.compile(
    r"\b(?:former|previous|old|original|earlier|prior)\s+(?:(?:legal|registered|official)\s+)?(?:company\s+)?names?\b"
    r"|\bbefore\s+(?:it|the\s+company)\s+(?:was\s+renamed|changed\s+its\s+name)\b"
    r"|\b(?:previously|formerly|originally|once)\s+(?:called|known|named)\b"
    r"|\bused\s+to\s+be\s+(?:called|known|named)\b|\b(?:called|named|known(?:\s+as)?)\s+before\b"
    r"|\bname\s+before\b", re.I)
# A name asked of something of the company's, not of the company: its parent, a product.
_ANOTHER_THING = re.compile(r"\b(?:parent|subsidiary|product|products|app|service|brand|competitor|founder)\b", re.I)

# Who invested in the company, or took part in one of its rounds (not who led one: "Who led Acme's Series A?"
# asks the lead alone, read by the doer of "led").
_INVESTOR_WORDS = re.compile(r"\b(?:co-?)?investors?\b|\bbackers?\b", re.I)
_FUNDED = re.compile(r"\b(?:invest|invested|invests|fund|funded|funds|backed|backs)\b", re.I)
_JOINED_A_ROUND = re.compile(r"\b(?:participat\w*|took\s+part|joined|contributed)\b", re.I)
_A_ROUND = re.compile(r"\b(?:rounds?|series\s+[a-h]|seed|funding|financing|investment)\b", re.I)
_LEAD = re.compile(r"\b(?:led|leads?|co-led)\b", re.I)
_BESIDES_THE_LEAD = re.compile(r"\b(?:other|co-?investors?|besides|apart\s+from|alongside|also)\b", re.I)

# Who uses the company's products: "Who are Acme's customers?", "Which enterprises rely on Acme?".
_CUSTOMER_WORDS = re.compile(r"^\s*(?:who\s+(?:are|were)|name|list)\b.*\b(?:customers|clients)\b(?!\s+success)", re.I)
_CUSTOMER_NOUNS = frozenset("customers clients".split())
# One customer singled out, or another body's: not the list the ways of naming customers give.
_ONE_OR_ANOTHERS = re.compile(r"\b(?:largest|biggest|main|top|first|earliest|latest|newest|oldest|leading|most|lost"
                              r"|former|competitors?|rivals?|partners?)\b", re.I)
_USES = re.compile(r"\b(?:use|uses|used|rely|relies|trust|trusts|choose|chose|deploy|deploys|depend|depends)\b", re.I)
_USER_NOUNS = frozenset("companies enterprises organizations organisations businesses brands firms teams".split())

_YES_NO = re.compile(r"\s*(?:is|are|was|were|do|does|did|can|could|has|have|had|will|would|should)\b", re.I)

# Who took a seat on the company's board (not who chairs it, nor an officer the board named).
_BOARD_JOIN = re.compile(
    r"\b(?:join\w*|added|appointed|elected|named|seat|members?|on)\b.*\bboard\b|\bboard\s+members?\b", re.I)

# Where an officer worked before: "Where did Acme's CEO work before?", "What are the CTO's previous employers?".
_WORKED_BEFORE = re.compile(
    r"\b(?:work|worked|employed)\b.*\b(?:before|previously|prior)\b|\b(?:before|previously)\b.*\bwork"
    r"|\b(?:previous|former|past|prior|earlier)\s+(?:employers?|companies|jobs?|roles?|positions?)\b", re.I)

_PERSON_ROLES = frozenset("ceo founder founders president chairman chairwoman chair director executive chief "
                          "head leader owner cto cfo coo manager editor".split())


_WH_CONTRACTION = re.compile(r"\b(who|what|where|when|how)['’]s\b", re.I)


def read_question(question: str, column_type: str | None = None, company: str = "",
                  options: Sequence[str] = (), aliases: Sequence[str] = (), identifiers: bool = True) -> Question:
    """Type ``question`` and keep its key terms. ``column_type`` (number, boolean, select, text) narrows
    the type; ``company`` is the subject, whose own words are never key terms, and so are those of each of
    its other names (``aliases``: "formerly Bluebird Social") that the question uses. Without ``identifiers``, a
    question for a registry or tax identifier is typed by its other words."""
    question = _WH_CONTRACTION.sub(r"\1 is", question)  # "Who's Acme's CEO?" asks what "Who is ...?" asks
    titled = short_titles(question)  # "Who is Acme's Chief Financial Officer?" asks for its CFO, as sentences say
    chief_officer, question = titled != question, seat_as_headquarters(titled)  # a CGO is an officer too
    question = _LEGAL_NOUN_NAME.sub(r"\1 \2", question)
    question, given = _names_given_in(question, company)
    aliases = (*aliases, *given)
    words = [w for w, _, _ in tokens_of(question)]
    lower = [w.lower() for w in words]
    # A name is written with or without its legal form: "Adafruit Industries" is "Adafruit Industries LLC".
    named = [alias for alias in dict.fromkeys(n for name in aliases for n in (name, without_legal_form(name)) if n)
             if re.search(rf"(?<!\w){re.escape(alias)}(?!\w)", question, re.IGNORECASE)]
    subject_words, acronyms = _name_parts(company) if company else ((), ())
    for alias in named:  # asked by another of its names, the company is still the subject
        alias_words, alias_acronyms = _name_parts(alias)
        subject_words, acronyms = (*subject_words, *alias_words), (*acronyms, *alias_acronyms)
    own = set(subject_words) | set(acronyms) | {w.lower() for name in (company, *named) for w, _, _ in tokens_of(name)}
    own |= _without_possessive(own)  # "Let's Encrypt" is named "Let’s Encrypt" and "Let"
    referring = _refers_to_subject(lower)
    # A capital names something else, but an officer's or an identifier's acronym does not ("Who is the company's
    # COO?", "What is the company's EIN?").
    names_another = any(w[:1].isupper() for w in words[1:] if w != "I" and w.lower() not in _KNOWN_ACRONYMS)
    thing = ""
    if company and referring and not names_another:
        own |= referring  # "the company's legal name", "its address": the subject, named another way
    elif not own & (set(lower) | {bare(w) for w in lower}):
        # The question names something else ("When did Let's Encrypt issue ..."): its words are the key
        # terms, and the evidence need not name the row's company.
        subject_words, acronyms, own = (), (), set()
        thing = _thing_defined(question)
    kind = _kind(_typing_words(lower, own), column_type, noun_describers(question))
    # "What is Acme's EIN?", "What VAT number does Acme use?": asked what the identifier is, not where, when, how
    # many.
    asks_what = kind in ("text", "org") or (kind == "number" and "how" not in lower and column_type is None)
    identifier = identifier_asked(question) if asks_what and identifiers else ()
    kind = "identifier" if identifier else kind
    offered = choices_offered(lower, own) if kind == "text" and column_type is None else ()
    if offered:  # as the question writes them: "Boston", "for-profit"
        kind = "option"
        options = tuple(m.group() if (m := re.search(re.escape(o), question, re.I)) else o for o in offered)
    stop = english_stopwords() - {"other"}  # "what other projects": the answer is an other one
    filler = (_QUESTION_FILLER | (_DURATION_FILLER if kind == "duration" else frozenset())
              | (_QUANTITY_FILLER if kind in ("money", "number") else frozenset())) - names_written(words)
    kept = _without_exclusions(lower)
    # "When did Acme start offering X?" asks when it first offered X: "start" only says the offering began.
    filler |= aspect_verbs(question, _BEGIN_WORDS)
    keywords = tuple(dict.fromkeys(
        w for w in kept
        if w not in stop and w not in _WH_WORDS and w not in filler and (len(w) > 1 or w.isdigit())
        and not is_own(w, own)
    ))
    described = descriptive_words(question)  # "the ORM company Prisma": no key term, though the search uses it
    terms = tuple(dict.fromkeys(stem(w) for w in keywords if not _describes(w, described)))
    if _asks_its_start(kind, own, question):
        terms = tuple(dict.fromkeys("found" if t in _BEGIN_TERMS | {"old"} else t for t in terms))
    if kind == "place" and own:
        # "In which city is Acme headquartered?": the city is the value's grain, a word the answer need not hold ("Our
        # headquarters is in San Mateo"); "Where is Acme?", "What city is Acme in?" ask where it is located.
        grains = {stem(w) for w in _place_grain_asked(lower)}
        terms = tuple(t for t in terms if t not in grains) or ("locat",)
    percent = (any(w in ("percent", "percentage", "share", "proportion", "portion", "fraction") for w in lower)
               or "much of" in " ".join(lower))  # "How much of its revenue ...": a share
    officer = chief_officer or _names_an_office(lower)
    wants = _wanted_role(lower, own, common_nouns(question)) if kind in ("person", "org") else None
    receives = kind in ("year", "date", "money") and _receives(lower, own, terms, common_nouns(question))
    cumulative = kind in ("money", "number") and not _ONE_EVENT.search(question) and not YEAR_RE.search(question)
    contact = _contact_asked(lower) if kind == "contact" else None
    # "What kind of business was Acme in 2003?": a year says when, and the sentence must hold it (a term still).
    defining = kind == "text" and bool(own) and all(t in _DEFINING_STEMS or YEAR_RE.fullmatch(t) for t in terms)
    # Its own legal name, not a name it had before nor that of another thing ("Which legal entity publishes the Acme
    # app?", "the legal name of Acme's parent").
    legal_name = kind == "text" and bool(own) and bool(
        _LEGAL_NAME.search(question) or (_LEGAL_ENTITY.search(question) and not _ENTITY_FORM.search(question))
    ) and not _FORMER_NAME.search(question) and not _ANOTHER_THING.search(question)
    legal_form = kind == "text" and bool(own) and bool(_ENTITY_FORM.search(question))
    relation_asked = (asked_relation(question, lambda name: any(is_own(w, own) for w in name.lower().split()))
                      if kind in ("org", "text", "person") and own else None)
    if kind in ("text", "person") and relation_asked is not None and relation_asked.noun in _ORG_WORDS:
        # "What is the parent company of Acme?": the noun is too far from "what" for the words to say; "Who is
        # Acme's parent company?" asks for a body, though "who" asks for a person mostly
        kind = "org"
    elif kind in ("text", "person"):
        relation_asked = None
    former_name = (kind in ("text", "org") and bool(own) and bool(_FORMER_NAME.search(question))
                   and not _ANOTHER_THING.search(question))
    board = (kind == "person" and bool(own) and bool(_BOARD_JOIN.search(question)) and "chair" not in question.lower()
             and not officer)
    # Who joined the board in a round ("... as part of its Series A?") is not who invested in it: the round's
    # investors' sentences do not say who took the seat.
    investors = _investors_asked(question, own) if kind in ("text", "person", "org") and own and not board else None
    customers = kind in ("text", "person", "org") and bool(own) and _customers_asked(question, own)
    asks_where = kind in ("place", "org", "text")  # not "When did Acme's CEO work at Globex?"
    worked_before = _officer_asked(question) if own and asks_where and _WORKED_BEFORE.search(question) else ""
    return Question(question, kind, terms, keywords, tuple(sorted(own)), subject_words, acronyms, tuple(options), percent,
                    officer, wants, cumulative, contact, defining, legal_name, identifier, bool(offered),
                    relation_asked, former_name, investors, customers, board, worked_before,
                    thing if kind == "text" else "", legal_form, company if subject_words else "",
                    tuple(aliases) if subject_words else (), receives, designations(question),
                    _funding_asked(question, kind, cumulative) and bool(own))


# Words that ask for money raised from investors: "How much venture capital has Acme raised?", "Is Acme bootstrapped?".
# (Not "How much did Acme invest in research?": what it spent. Nor one campaign, round or grant: how much a
# crowdfunding campaign raised is not answered by "we are self-funded".)
_FUNDING_ASKED = re.compile(r"\b(?:rais\w*|funding|funded|venture\s+capital|VC|investors?|investments?|"
                            r"bootstrapp\w*|backed|self-funded)\b", re.IGNORECASE)
_ONE_FUNDING_EVENT = re.compile(r"\b(?:campaign|round|grant|kickstarter|crowd\w*|series|seed|ipo|sponsor\w*|"
                                r"donat\w*)\b", re.IGNORECASE)
_YES_OR_NO = re.compile(r"^\s*(?:has|have|had|is|was|are|did|does|do)\b", re.IGNORECASE)


def _funding_asked(question: str, kind: Kind, cumulative: bool) -> bool:
    """How much the subject raised in all ("How much funding has Acme raised?", not one round's amount), or whether
    it raised any ("Has Acme raised venture capital?", "Is Acme bootstrapped?")."""
    if not _FUNDING_ASKED.search(question) or _ONE_FUNDING_EVENT.search(question):
        return False
    return (kind == "money" and cumulative) or (kind == "text" and bool(_YES_OR_NO.match(question)))


# "What is Acme Pay?", "What are Globex Rails?": a question for what a named thing is, and nothing more.
_WHAT_IS_A_NAME = re.compile(r"^\s*what\s+(?:is|are|was|were)\s+(?:the\s+)?"
                             r"(?P<name>[A-Z][\w.&'’-]*(?:\s+[A-Z0-9][\w.&'’-]*){0,5})\s*\?\s*$", re.IGNORECASE)


def _thing_defined(question: str) -> str:
    """The name a question asks what it is ("What is Acme Pay?" -> Acme Pay), or ""."""
    match = _WHAT_IS_A_NAME.match(question)
    name = match.group("name") if match else ""
    return name if all(w[:1].isupper() or w[:1].isdigit() for w in name.split()) else ""


def _officer_asked(question: str) -> str:
    """The role a question names, in its short form: "Chief Technology Officer" -> cto; "" without one."""
    lower = question.lower()
    for title, short in _CHIEF_TITLES.items():
        if title in lower:
            return short
    return next((w for w in re.findall(r"[\w-]+", lower)
                 if (w in _OFFICER_ROLES and w not in ("chief", "executive")) or w in _FOUNDER_WORDS), "")


_KNOWN_ACRONYMS = frozenset(CHIEF_TITLES.values()) | {w for names in IDENTIFIER_NAMES for n in names for w in n.split()}
_CHIEF_TITLES = ({f"chief {word}": acronym for word, acronym in CHIEF_TITLES.items()}
                 | {"managing director": "managing director"})
_FOUNDER_WORDS = frozenset("founder cofounder co-founder".split())


def _customers_asked(question: str, own: set[str]) -> bool:
    """"Who are Acme's customers?", "Which companies use Acme?"; not "Which tools does Acme use?" (the parse makes
    the company the user)."""
    noun = (asked_noun(question) or "").lower()  # "Which enterprise customers ...", not "What allows customers ..."
    users = noun in _USER_NOUNS or (question.lower().startswith("who ") and "who" not in question.lower()[4:])
    if not (_CUSTOMER_WORDS.search(question) or noun in _CUSTOMER_NOUNS or (users and _USES.search(question))):
        return False
    if _ONE_OR_ANOTHERS.search(question):
        return False  # "Who is Acme's largest customer?", "Who are the customers of Acme's competitors?"
    users = predicate_subjects(question, lambda word: bool(_USES.fullmatch(word))) or []
    return not any(is_own(word.lower(), own) for user, _ in users for word in user.split())


def _investors_asked(question: str, own: set[str]) -> str | None:
    """"all" for "Who invested in Acme?", "Which investors took part in its Series A?"; "others" for "Which other
    investors joined the round?"; None for any other question, for "Who led its Series A?", and for "Which
    startups has Acme invested in?" (the parse gives the company as the doer: it asks whom the company funds)."""
    asked = (_INVESTOR_WORDS.search(question) or _FUNDED.search(question)
             or (_JOINED_A_ROUND.search(question) and _A_ROUND.search(question)))
    if not asked or _LEAD.search(question) or _ONE_OR_ANOTHERS.search(question) or _YES_NO.match(question):
        return None  # "Who is Acme's largest investor?", "Does Acme offer services to investors?"
    if re.search(r"\binvestor\s+relations\b", question, re.I):
        return None
    doers = predicate_subjects(question, lambda word: bool(_FUNDED.fullmatch(word))) or []
    if any(is_own(word.lower(), own) for doer, _ in doers for word in doer.split()):
        return None
    return "others" if _BESIDES_THE_LEAD.search(question) else "all"


# A question offers its answers after an auxiliary ("Is Acme public or private?", "Does Acme work from offices or
# remotely?"); each alternative runs back from "or" to a preposition, a determiner or the subject.
_AUXILIARIES = frozenset("is are was were do does did has have had can could will would should".split())
_BEFORE_AN_ALTERNATIVE = frozenset("a an the in at from on by with for to as into via of or".split())


def choices_offered(lower: list[str], own: set[str]) -> tuple[str, ...]:
    """The two alternatives a question offers with "or" ("work from offices or remotely" -> offices, remotely; "a
    public or a private company" -> public, private), or () when it offers none: not a wh-question, nor "... or
    not", nor numbers ("in 2010 or 2011" asks for a year)."""
    words = [w for w in lower if w not in ("?", ",")]
    if not words or words[0] not in _AUXILIARIES or words.count("or") != 1:
        return ()
    at = words.index("or")
    after = list(words[at + 1:])
    while after and after[0] in _BEFORE_AN_ALTERNATIVE:
        after.pop(0)
    right: list[str] = []
    for word in after:  # "unpopular in Western countries" offers "unpopular"
        if word in _BEFORE_AN_ALTERNATIVE or len(right) == 3:
            break
        right.append(word)
    left: list[str] = []
    for word in reversed(words[:at]):  # as many words as the right one, no further than its phrase's start
        if word in _BEFORE_AN_ALTERNATIVE or word in _AUXILIARIES or is_own(word, own) or len(left) == len(right):
            break
        left.insert(0, word)
    right = right[:len(left)]
    if not left or "not" in right or any(w[:1].isdigit() for w in left + right):
        return ()
    return " ".join(left), " ".join(right)


def term_word(q: Question, *, exact: bool = False) -> Callable[[str], bool]:
    """A test of a sentence's word: is it one of the question's key terms, in its own stem (``exact``) or also by a
    word of a term's relation? What the trained parser's helpers are given to find the question's predicate."""
    if exact:
        begun = _BEGIN_TERMS if _asks_its_start(q.kind, set(q.subject_terms), q.text) else frozenset()
        return lambda word: any(match_weight(t, stems_of(word)) == 1.0 for t in q.terms) or bool(stems_of(word) & begun)
    return lambda word: any(match_weight(t, stems_of(word)) > 0 for t in q.terms)


def asks_present(q: Question) -> bool:
    """The question asks how things are, not how they were: "Who is Acme's CEO?", "How many people does Acme
    employ?"; not "When was Acme founded?", "Who led the 2019 round?"."""
    return not YEAR_RE.search(q.text) and not told_in_the_past(q.text)


def identifier_asked(question: str) -> tuple[str, ...]:
    """The names of the registry or tax identifier a question asks for ("What is Acme's EIN?" -> ein, employer
    identification number, ...), of each one it names ("its SIREN company number": the SIREN's and a company
    number's); () when it asks for none. A name is read whole, the longest first: "its GST/HST registration number"
    asks for the GST account's number, not a company registration number."""
    written = _IDENTIFIER_NAMED.finditer(" ".join(question.lower().split()))
    named = dict.fromkeys(_IDENTIFIER_OF[m.group()] for m in written)
    return tuple(name for names in named for name in names)


# Any identifier's name, the longest first, so that a match is a whole name ("gst/hst registration number", not its
# "registration number"), and the names each name is one of.
_IDENTIFIER_NAMED = re.compile(rf"(?<![\w/-])(?:{IDENTIFIER_NAME})(?![\w/-])")
_IDENTIFIER_OF = {name: names for names in IDENTIFIER_NAMES for name in names}


def _describes(word: str, described: frozenset[str]) -> bool:
    """Whether ``word`` (hyphenated parts and all) is one of the ``described`` words of the question."""
    return bool(described) and all(part in described for part in re.split(r"[-'’]", word) if part)


def _refers_to_subject(lower: list[str]) -> set[str]:
    """The words by which a question that does not name its subject refers to it: a possessive or personal
    pronoun ("its", "they") or a determiner and a noun for an organisation ("the company", "this firm's")."""
    words = {w for w in lower if w in ("it", "its", "they", "their", "them")}
    for before, word in zip(lower, lower[1:]):
        noun = bare(word)
        if before in ("the", "this", "your", "that") and noun in SELF_NOUNS:
            words |= {word, noun}
    return words


# "When did Acme start?", "When was Acme started / ...": a begin verb with nothing begun after it asks when the company
# itself began, its founding (not "When did Acme start the podcast?"): the question's term is "found", and its begin
# verb in a sentence counts as the question's own word.
_STARTED_ITSELF = re.compile(r"\b(?:did|was|were|has|have)\s+(?P<who>[^?/,;]{1,60}?)\s+(?:first\s+|originally\s+)?"
                             r"(?:get\s+|got\s+)?(?:start|started|begin|began|begun)\s*(?:[?/,;.]|$|(?:in|on|at|as|out)\b)", re.I)
_BEGIN_TERMS = frozenset({"start", "began", "begin", "begun"})
_BEGIN_WORDS = frozenset({"start", "starts", "started", "begin", "begins", "began", "begun"})


# "Who started Acme?" asks who founded it; "How old is Acme?" since when it is, its founding year.
_STARTER_ASKED = re.compile(r"^\s*who\s+(?:first\s+|originally\s+)?(?:started|began|start)\s+(?P<who>[^?/,;]{1,60}?)"
                            r"\s*(?:[?/,;.]|$|(?:in|on|at|as)\b)", re.I)
_AGE_ASKED = re.compile(r"^\s*how\s+old\s+(?:is|was)\s+(?P<who>[^?/,;]{1,60}?)\s*\??\s*$", re.I)


def _asks_its_start(kind: str, own: set[str], question: str) -> bool:
    """The begin verb's subject (or object, asked who began it; or what is asked how old) is the company's name and
    nothing more: not "the Irish Times", not "the initial incarnation of The Times", not "Acme's CEO"."""
    pattern = {"date": _STARTED_ITSELF, "year": _AGE_ASKED if _AGE_ASKED.match(question) else _STARTED_ITSELF,
               "person": _STARTER_ASKED}.get(kind)
    match = pattern.search(question) if pattern is not None and own else None
    words = [w.lower() for w, _, _ in tokens_of(match.group("who"))] if match else []
    return bool(words) and all(is_own(w, own) or w == "the" for w in words)


# An amount asked with no one event named is the running total, where a sentence states one.
_ONE_EVENT = re.compile(r"\b(?:series|round|seed|ipo|last|latest|first|recent|most recent|per|each|annual|yearly|monthly)\b", re.I)
TOTAL = re.compile(r"\b(?:a total of|in total|total(?:ing)?|to date|so far|altogether|cumulative(?:ly)?)\b", re.I)


# Predicates with a direction: who acquired whom, who invested in whom, who operates, owns, runs or provides
# what. A question asks for one side.
DIRECTED_STEMS = relation("acquir") | {"invest", "oper", "own", "run", "provid"}
PASSIVE = frozenset("was were is are be been being get got gets".split())


def _names_an_office(lower: list[str]) -> bool:
    """A role only a person holds, as a noun or a verb, one or many ("Who chairs Acme's board?", "Who are Acme's
    directors?"); a "board of directors" is the body, not its members' office ("Who joined the board of directors?")."""
    return any((w in _OFFICER_ROLES or singular(w) in _OFFICER_ROLES)
               and not (w == "directors" and lower[max(i - 2, 0):i] == ["board", "of"]) for i, w in enumerate(lower))


_DETERMINERS = frozenset("the a an its their our his her".split())
_BEFORE_A_NOUN = _DETERMINERS | {"of"}


def _wanted_role(lower: list[str], own: set[str],
                 nouns: frozenset[str] = frozenset()) -> Literal["agent", "patient"] | None:
    """"Who acquired Acme?" wants the agent; "What companies has Acme acquired?" the patient; None without a
    directed predicate or without the subject. The subject asked about receives the predicate only when it
    stands between the question word and the predicate: "What is Acme and who provides it?" wants the agent."""
    # After "of" or a determiner the word is a noun, no predicate: "the vice president of operations"; and so is a
    # word the parser tags as a noun ``nouns``: "its 2023 investment round".
    predicate = next((i for i, w in enumerate(lower) if stem(w) in DIRECTED_STEMS and w not in nouns
                      and not (i and lower[i - 1] in _BEFORE_A_NOUN)), None)
    subject = next((i for i, w in enumerate(lower) if is_own(w, own)), None)
    if predicate is None or subject is None:
        return None
    if "by" in lower[predicate:] or (subject < predicate and PASSIVE & set(lower[subject:predicate])):
        return "agent"  # "Acme was acquired by whom?", "Which company was Acme acquired by?"
    asking = max((i for i in range(predicate) if lower[i] in _WH_WORDS), default=0)
    between = any(is_own(w, own) for w in lower[asking:predicate])
    return "patient" if between else "agent"


def _receives(lower: list[str], own: set[str], terms: Sequence[str], nouns: frozenset[str] = frozenset()) -> bool:
    """The subject receives the question's verb (a key term that is no noun): asked in the passive with the subject's
    name between the auxiliary and the verb ("When was Acme acquired?"), as the verb's object right after it ("When
    did Globex acquire Acme?") or with a reflexive ("When did Acme rename itself?"); not "When did Acme acquire
    Initech?" nor "When was Acme's first product released?"."""
    named = [i for i, w in enumerate(lower) if is_own(w, own)]
    if not named:
        return False
    first, last = named[0], named[-1]

    def is_verb(i: int) -> bool:
        return 0 <= i < len(lower) and stem(lower[i]) in terms and lower[i] not in nouns and not is_own(lower[i], own)
    possessive = lower[last].replace("’", "'").endswith(("'s", "'"))  # "was Acme's first product released"
    passive = (first > 0 and lower[first - 1 - (lower[first - 1] == "the")] in PASSIVE and is_verb(last + 1)
               and not possessive)
    before = first - 1 - (first > 0 and lower[first - 1] == "the")
    as_object = is_verb(before)
    reflexive = is_verb(last + 1) and last + 2 < len(lower) and lower[last + 2] in ("itself", "themselves")
    return passive or as_object or reflexive


# A name and the letter, Roman numeral or number that tells it from others of its kind: "Series A", "Beacon 2",
# "Mark III", "Model 100", "Beacon 3A" (not a word that goes on: "Series Alpha").
# A number may be written as a capitalised word: "the Brightwater One", "BBC Two" (the same one as "Brightwater 1").
_NUMBER_WORDS = "Zero One Two Three Four Five Six Seven Eight Nine Ten Eleven Twelve".split()
DESIGNATOR = rf"(?:[A-Z]|[IVX]{{2,4}}|\d+(?:\.\d+)?[A-Z]{{0,2}}|{'|'.join(_NUMBER_WORDS)})(?![\w-]|\.\d)"
_DESIGNATED = re.compile(rf"\b([A-Z][A-Za-z-]+)\s+({DESIGNATOR})")


def designations(question: str) -> tuple[tuple[str, str], ...]:
    """Each name the question tells from others of its kind by a designator, lowercased: (("series", "a"),). A date
    ("April 2000", "September 18") is none: the date reader reads it, in whatever form a sentence writes it."""
    stop = english_stopwords()
    return tuple((m.group(1).lower(), designator_key(m.group(2))) for m in _DESIGNATED.finditer(question)
                 if m.group(1).lower() not in stop and not re.fullmatch(MONTHS, m.group(1), re.IGNORECASE))


def designator_key(designator: str) -> str:
    """A designator as compared: lowercased, a number word as its digits ("One" -> "1", by the number parser the
    reader reads counts with)."""
    return str(parse_number(designator.lower())) if designator in _NUMBER_WORDS else designator.lower()


def without_legal_form(name: str) -> str:
    """The name less the legal form it ends with ("Kandra Labs, Inc." -> "Kandra Labs"); "" when that is all."""
    words = name.split()
    while words and words[-1].lower().replace(".", "").strip(",") in LEGAL_SUFFIXES:
        words.pop()
    return " ".join(words).rstrip(",")


_PROPER_NAME = r"[A-Z][\w&.\-]*(?:\s+[A-Z][\w&.\-]*)*"
_NAME_WITH_APOSTROPHE = r"[A-Z][\w'’&.\-]*(?:\s+[A-Z][\w'’&.\-]*)*"  # "Joe's Widgets"
# Two names of one body, as a question gives them: "Globex Labs (Acme)", "Acme's (Globex Ltd)", "Acme / Globex Labs".
_BESIDE = {"(": re.compile(rf"({_PROPER_NAME})(?:['’]s)?\s*\(\s*({_PROPER_NAME})\s*\)"),
           "/": re.compile(rf"({_NAME_WITH_APOSTROPHE})\s+/\s+({_NAME_WITH_APOSTROPHE})")}  # "GST/HST": one tax
# "Acme's operator Globex SA": the body the question asks of, named by its tie to the subject.
_BEHIND = r"['’]s\s+(?:operator|operating\s+company|parent\s+company|parent)\s+"
_BODY_BEHIND = re.compile(rf"\b({_PROPER_NAME}){_BEHIND}(?=({_PROPER_NAME}))")


def _names_given_in(question: str, company: str) -> tuple[str, tuple[str, ...]]:
    """Names the question gives the subject beside its own, and the question as read with them: "Globex Labs
    (Acme)" and "Acme / Globex Labs" name one body twice; "Acme's operator Globex SA" asks of Globex SA, which the
    asker ties to Acme. A sentence on either name is then on the subject."""
    own = {w.lower() for w, _, _ in tokens_of(company)}
    if not own:
        return question, ()

    def names_own(name: str) -> bool:
        return bool({bare(w.lower()) for w, _, _ in tokens_of(name)} & own)

    # The patterns backtrack over every run of capitalised words: each is tried only where its mark is.
    names = [other for mark, pattern in _BESIDE.items() if mark in question for match in pattern.finditer(question)
             for this, other in (match.groups(), match.groups()[::-1])
             if names_own(this) and not names_own(other) and not _a_place(other)]
    if re.search(_BEHIND, question):
        behind = [m for m in _BODY_BEHIND.finditer(question) if names_own(m.group(1)) and not names_own(m.group(2))]
        for match in reversed(behind):  # "Who founded Acme's parent company Globex?" asks "Who founded Globex?"
            question = question[:match.start()] + question[match.end():]
            names.append(match.group(2))
    return question, tuple(names)


def _a_place(name: str) -> bool:
    """The recogniser reads ``name`` as a place: "Acme (Berlin)", "Acme (UK)" name where, not another name of Acme
    (read as one, every "Berlin" of an address would be read as the company's name)."""
    return any(label in ("GPE", "LOC", "FAC", "NORP") for _, _, label in entities(name))


def bare(word: str) -> str:
    """A question's word without its possessive ending: "acme's" and "labs'" name the subject "Acme", "Labs"."""
    return word.replace("’", "'").removesuffix("'s").rstrip("'")


# "Who runs Acme?", "Who is in charge of the company?": asked who leads the whole body, not a part of it.
_WHO_LEADS = re.compile(r"^\s*who\s+(?:runs|leads|heads|manages|is\s+(?:in\s+charge\s+of|at\s+the\s+helm\s+of|"
                        r"running|leading|heading))\s+(?P<led>[^?]+?)\s*\??\s*$", re.I)


def chief_question(q: Question) -> str | None:
    """"Who is the CEO of Acme?" for a question that asks who runs, leads or heads the subject itself ("Who runs
    Acme?", "Who is in charge of the company?"): a company is run by its chief executive, as its pages name one;
    None for any other question ("Who leads Acme's research team?", "Who runs the Acme Awards?")."""
    led = _WHO_LEADS.match(q.text)
    if led is None or not q.subject_words:
        return None
    words = [w.lower() for w, _, _ in tokens_of(led.group("led"))]
    own = set(q.subject_terms) | _refers_to_subject(words)
    if words and all(is_own(w, own) or w in _DETERMINERS for w in words):
        return f"Who is the CEO of {led.group('led')}?"
    return None


def is_own(word: str, own: set[str]) -> bool:
    """Whether a question's word is a word of the subject's name, possessive or not."""
    return bare(word) in own or word.replace("’", "'") in own


# Words after which "address" is a verb: "to address", "does it address", "help address".
_BEFORE_A_VERB = frozenset("to do does did will can could should would may might must help helps helped".split())


def _typing_words(lower: list[str], own: set[str]) -> list[str]:
    """The question's words its kind is read from: without the subject's name, so that "What was Brightwater
    Labs' revenue?" asks "what ... revenue" as "What was Acme's revenue?" does, though a word of the name that
    says what is asked stays ("What company owns the American Broadcasting Company?"); and without "based on",
    which names no place, nor "address" as a verb ("What did the treaty try to address?")."""
    cues = _ORG_WORDS | _PLACE_WORDS | _MONEY_WORDS | _PERSON_ROLES | _CONTACT_WORDS
    in_name = [is_own(w, own) for w in lower]
    # A cue word inside the name as written ("In which country is OpenHW Group based?") says nothing asked; alone it
    # may ("What company owns ...?" of a subject called "... Company").
    run_start = 0
    for i in range(len(lower) + 1):
        if i < len(lower) and in_name[i]:
            continue
        run = range(run_start, i)
        if not any(lower[j] not in cues for j in run):
            for j in run:
                in_name[j] = lower[j] not in cues
        run_start = i + 1
    kept = [w for w, own_word in zip(lower, in_name) if not own_word] or lower
    return [w for i, w in enumerate(kept) if not (w == "based" and kept[i + 1:i + 2] in (["on"], ["upon"]))
            and not (w == "address" and i > 0 and kept[i - 1] in _BEFORE_A_VERB)]


def _place_grain_asked(lower: list[str]) -> frozenset[str]:
    """The noun right after "what" or "which" that says how precisely a place is asked: "What city is Acme in?"."""
    return frozenset(w for before, w in itertools.pairwise(lower) if before in ("what", "which") and w in _PLACE_GRAINS)


def _without_possessive(words: set[str]) -> set[str]:
    """Each word with a straight apostrophe and no possessive 's ("let’s" -> "let")."""
    return {bare(w) for w in words}


_EXCLUDING = re.compile(r"\b(?:besides|except|excluding|other than|apart from|aside from|beyond)\b")


def _without_exclusions(lower: list[str]) -> list[str]:
    """The question's words without what it excludes: 'besides Let's Encrypt', 'other than its CEO'."""
    text = " ".join(lower)
    match = _EXCLUDING.search(text)
    if match is None:
        return lower
    return [w for w in text[:match.start()].split() if w != "other" or "other than" not in match.group()]


# A year is asked for as "what/which year" ("In what year ...", "Which decade ..."), or as a label without a
# question word ("Year founded"); not by a year in a name or a period ("Rookie of the Year", "the financial year").
_YEAR_WORDS = ("year", "decade", "century")


def _kind(lower: list[str], column_type: str | None, described: frozenset[str] = frozenset()) -> Kind:
    """The kind of value asked for (:func:`_kind_asked`); a question written as a column's heading or a search ("Acme
    founding date?", "Employee count of Acme?") asks what "What is the ...?" asks of it."""
    kind = _kind_asked(lower, column_type, described)
    if kind == "text" and lower and lower[0] not in _AUXILIARIES and not _WH_WORDS & set(lower):
        return _kind_asked(["what", "is", *lower], column_type, described)
    return kind


def _kind_asked(lower: list[str], column_type: str | None, described: frozenset[str] = frozenset()) -> Kind:
    """The kind of value asked for; ``described`` are the adjectives that only describe a noun ("annual" in "What is
    the annual revenue of Acme?"), no word of the reach from a wh-word to the noun it asks for."""
    _asks_for = functools.partial(_asks_for_noun, described=described)
    first = lower[0] if lower else ""
    asks_year = (_asks_for(lower, ("what", "which"), _YEAR_WORDS)
                 or (bool(set(_YEAR_WORDS) & set(lower)) and not _WH_WORDS & set(lower)))
    # "On what day ...", "What is the exact date of ..." (read without "exact"), not "What report had the correct
    # date?" (asking for a report)
    asks_when = _asks_when(lower) or asks_year or _asks_for(lower, ("what", "which"), ("date", "day"))
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
    if _asks_for(lower, ("what", "which"), _LICENCE_NOUNS):  # "Under what licence is ...", "Which license does ..."
        return "licence"
    if _asks_how_long(lower) or _asks_for_noun(lower, ("what", "which"), _TERM_NOUNS):
        return "duration"  # "What warranty does Acme give?": a warranty is given for a length of time
    if lower[:2] == ["how", "old"] and set(lower[2:]) <= {"is", "was", "the", "company"}:
        return "year"  # "How old is Acme?" (its name left out): since when it is
    if "how" in lower and "much" in lower:
        return _how_much_kind(lower)
    if _asks_how_big(lower):  # "How big is its market?", "How large was the award?": a magnitude
        return "money" if _MONEY_WORDS & set(lower) else "number"
    if "how" in lower and "many" in lower:
        return "number"
    if (_CONTACT_WORDS & set(lower) and not _asks_another_noun(lower)) or _asks_how_to_reach(lower) or (
            "address" in lower and _names_a_mailing_list(lower)) or ("number" in lower and _CALLING & set(lower)):
        return "contact"  # "What is its email address / phone number?" asks for neither a place nor a quantity
    if (_asks_for(lower, ("what", "which"), ("percentage", "percent", "number", "amount", "total", "count", "headcount",
                                              "size"))
            or _asks_share(lower)):
        return "money" if _MONEY_WORDS & set(lower) and not _asks_share(lower) else "number"
    if _asks_what_it_costs(lower):
        return "money"
    if _head_of_what_is(lower) in _MONEY_WORDS - set(_FUNDS):
        return "money"  # "What is the cheapest Acme Online subscription price?": a price, however many words before it
    if (_asks_for(lower, ("what", "which"), tuple(_MONEY_WORDS)) and not _asks_for(lower, ("what", "which"), _FUNDS, 1)
            and not _asks_for(lower, ("what", "which"), _KIND_WORDS, 1)):
        return "money"  # not "Which fund finances Acme?" (a body) nor "What sort of donations ...?" (a kind)
    if first in ("who", "whom", "whose") or "whom" in lower or (first == "who"):
        return "person"
    if "who" in lower:  # "What is Acme and who runs it?": the name is the part a sentence can state
        return "person"
    asks_a_body = _asks_for(lower, ("what", "which"), tuple(_ORG_WORDS) + _FUNDS)
    if asks_a_body and not _asks_for(lower, ("what", "which"), _KIND_WORDS):
        return "org"  # not "What kind of company is Acme?", which asks what it is
    if ("where" in lower or "address" in lower
            or _asks_for(lower, ("what", "which", "in"), tuple(_PLACE_WORDS), many=True)):
        return "place"
    if _asks_for(lower, ("what", "which"), tuple(_PERSON_ROLES)) and "is" in lower:
        return "person"
    return "text"


_CONTACT_NOUNS = _CONTACT_WORDS | frozenset("address addresses number numbers mail contact contacts".split())
_NOT_A_NOUN = _AUXILIARIES | _DETERMINERS | frozenset(_KIND_WORDS)


def _asks_another_noun(lower: list[str]) -> bool:
    """"What" or "which" asks for a noun that is no contact: "Under which licence is the text on Acme's website
    published?" asks for a licence, whatever website it names ("Which email address ..." asks for a contact)."""
    return any(w in ("what", "which") and i + 1 < len(lower) and lower[i + 1] not in _NOT_A_NOUN
               and lower[i + 1] not in _CONTACT_NOUNS for i, w in enumerate(lower))


_LICENCE_NOUNS = ("licence", "license", "licences", "licenses")


def _how_much_kind(lower: list[str]) -> Kind:
    """"How much funding ..." asks for money; "How much paid annual leave ..." for an amount of leave (the phrase's
    last word names what is measured, "paid" only describes it) and "How much of its premiums ..." for a share;
    after a verb ("How much does it cost?", "How much is the fee?", "How much is the Pro plan per month?") the
    question's other words decide."""
    phrase = list(itertools.takewhile(lambda w: w not in _AUXILIARIES, lower[lower.index("much") + 1:]))
    if phrase and phrase[0] == "of":
        return "number"
    if phrase:
        return "money" if phrase[-1] in _MONEY_WORDS | _MONEY_MASS_NOUNS else "number"
    # "How much is the cheapest plan?", "How much was the signing payment?": what a thing is, in money, is its price
    if lower[lower.index("much") + 1:][:1] in (["is"], ["are"], ["was"], ["were"]):
        return "money"
    # "How much is the Pro plan per month?": a rate of time asks a price
    return "money" if (_MONEY_WORDS | _PER_PERIOD | _EARNING_VERBS) & set(lower) or "cost" in lower else "number"


# What is only counted in money: "How much money / investment ...?"; and the verbs of earning it: "How much does Acme
# earn / make?" (a company "makes" money; what it makes is asked by "what").
_MONEY_MASS_NOUNS = frozenset("money cash investment investments financing earnings".split())
_EARNING_VERBS = frozenset("earn earns earned make makes made charge charges".split())


_PER_PERIOD = frozenset("monthly yearly annually month year".split())  # after "per", "a", "each"


def _asks_what_it_costs(lower: list[str]) -> bool:
    """"What does the cheapest plan cost?", "What do Acme's kits cost per month?": "what" is the object of "cost"."""
    return (len(lower) > 2 and lower[0] == "what" and lower[1] in ("do", "does", "did", "will", "would")
            and bool({"cost", "costs"} & set(lower[2:])))


def _head_of_what_is(lower: list[str]) -> str:
    """The noun "What is the ...?" asks for: the last word of the phrase after the copula, up to a preposition or a
    clause (English writes a compound's head last: "the cheapest Acme Online subscription price" is a price)."""
    if len(lower) < 3 or lower[0] not in ("what", "which") or lower[1] not in COPULAS:
        return ""
    phrase = list(itertools.takewhile(lambda w: w not in _PHRASE_ENDS, lower[2:]))
    return phrase[-1] if phrase else ""


_PHRASE_ENDS = frozenset("of for in on at to with by from under over per that which who whose whom and or when where "
                         "since as if than".split())


def _asks_how_big(lower: list[str]) -> bool:
    return any(a == "how" and b in ("big", "large") for a, b in zip(lower, lower[1:]))


def _asks_how_long(lower: list[str]) -> bool:
    """"How long does it take ...", "How long is the sabbatical?": a length of time; not "How long ago ..." (a date)."""
    return any(a == "how" and b == "long" and c != "ago" for a, b, c in zip(lower, lower[1:], [*lower[2:], ""]))


# Nouns of a promise that lasts a term: asked "what" or "which" one, its length is asked.
_TERM_NOUNS = ("warranty", "warranties", "guarantee")

_SHARE_NOUNS = frozenset({"share", "portion", "proportion", "fraction"})


def _asks_share(lower: list[str]) -> bool:
    """"What share of its profits ...", "Which portion of the staff ...": a part of a whole, a percentage."""
    return any(a in ("what", "which") and b in _SHARE_NOUNS and c == "of" for a, b, c in zip(lower, lower[1:], lower[2:]))


def _asks_when(lower: list[str]) -> bool:
    """"When" asks for a date as the question's first wh-word, or a part joined by "and" ("Who founded Acme, and
    when?"); after another, it opens a clause that dates what is asked ("Which program was Acme certified under
    when it started?", "Who led Acme when it was founded?")."""
    for i, word in enumerate(lower):
        if word == "when":
            return i == 0 or lower[i - 1] == "and" or not _WH_WORDS.intersection(lower[:i])
    return False


def _asks_for_noun(lower: list[str], wh: tuple[str, ...], nouns: tuple[str, ...], reach: int = 3,
                   many: bool = False, described: frozenset[str] = frozenset()) -> bool:
    """'what city', 'which organisation', 'what is the revenue': a wh-word followed, within ``reach`` words, by one of
    ``nouns``, or with ``many`` by their plurals: "In which cities ...?" is answered by a list of places, as a place
    is read ("London, Bristol and Swansea"); "Between what years ...?" asks for a span, not a year."""
    for i, word in enumerate(lower):
        if word not in wh:
            continue
        # A possessive before the noun is no word of the reach, nor an adjective after "what is": "what is Acme's
        # annual revenue" asks as "what is the revenue" does, whether or not Acme is the subject named ("What
        # newspaper has the highest number ...?" still asks for a newspaper, "Which league has ..." for a league).
        skipped = described if word == "what" and lower[i + 1:i + 2] and lower[i + 1] in COPULAS else frozenset()
        after = [w for w in lower[i + 1:] if bare(w) == w.replace("’", "'") and (w in nouns or w not in skipped)]
        if any(w in nouns or (many and singular(w) in nouns) for w in after[:reach]):
            return True
    return False


def singular(word: str) -> str:
    """A plural noun's singular, by the regular rules ("cities" -> city, "states" -> state)."""
    return word[:-3] + "y" if word.endswith("ies") else word.removesuffix("s")


def _name_parts(label: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The distinctive words of a name and its acronyms: 'Royal Institute of British Architects (RIBA)'
    -> (royal, institute, british, architects), (riba,)."""
    stop = english_stopwords()
    tokens = [w for w, _, _ in tokens_of(re.sub(r"\([^)]*\)", " ", label)) if w.lower() not in LEGAL_SUFFIXES]
    words = [w for w in tokens if w.lower() not in stop]
    distinctive = tuple(dict.fromkeys(w.lower() for w in words if len(w) > 1))
    acronyms = {m.lower() for m in re.findall(r"\(([A-Z][A-Za-z&]{1,9})\)", label)}
    # An initial is a capital of its own, even one that spells a stop word: "U.S. Digital Service" is USDS.
    capitals = [w[0] for w in tokens if w[0].isupper() and (w.lower() not in stop or len(w) == 1)]
    if len(capitals) >= 2:
        acronyms.add("".join(capitals).lower())
    if len(words) == 1:  # "ISRG", or a slug's one word
        acronyms.add(words[0].lower())
    return distinctive, tuple(sorted(acronyms))


def _contact_asked(lower: list[str]) -> Literal["email", "phone", "web"]:
    """What a contact question asks for ("What is Acme's phone number?" -> phone; "How can journalists contact
    Acme?" -> an e-mail address, the contact a page gives for a purpose)."""
    words = set(lower)
    if words & {"email", "e-mail", "mail"} or _names_a_mailing_list(lower):
        return "email"
    if words & ({"telephone", "fax"} | _CALLING):
        return "phone"
    return "email" if _asks_how_to_reach(lower) else "web"


def _names_a_mailing_list(lower: list[str]) -> bool:
    """"the address of the mailing list" is an e-mail address ("a mailing address" is a postal one)."""
    return any(word == "mailing" and after in ("list", "lists") for word, after in zip(lower, lower[1:]))


# "How can journalists contact Acme?", "How do I get in touch with Acme?", "Where should I send a sales enquiry?":
# asked how to reach the company (for a purpose), not in what manner or where a place is.
_REACH_VERBS = frozenset("contact email e-mail call phone".split())  # not "reach": "How did Acme reach profitability?"
_CALLING = frozenset("call phone dial ring".split())  # "What number can I call to reach Acme?" asks its phone number
_SENT_NOUNS = frozenset("enquiry enquiries inquiry inquiries question questions request requests".split())


def _asks_how_to_reach(lower: list[str]) -> bool:
    first = lower[0] if lower else ""
    if first == "how" and len(lower) > 2 and lower[1] in _AUXILIARIES:
        return bool(_REACH_VERBS & set(lower)) or "get in touch" in " ".join(lower)
    return first == "where" and bool({"send", "direct", "write"} & set(lower)) and bool(_SENT_NOUNS & set(lower))
