"""The decision: the best sentences' values, each confirmed by the entity recogniser, vote (:func:`decide`),
and the reader says how sure it is (:class:`Answer`). ``high`` needs the sentence to hold every key term, be
about the subject and tie the value tightly to the question's predicate (:func:`tightly_linked`), with no
negation and no rival; :func:`states_question` is a free-text answer's test."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from functools import partial
from typing import Literal

from cikb.answer.entities import (
    FIRST_PERSON, KIND_LABELS, KIND_VETOES, RoleStatement, asked_noun, asked_party, asked_verb, clause_of,
    coordinated_names, counted_doers, counted_group, counted_in_question, counted_noun, counts_each_of_many, defines, defining_words,
    denied, described_as, described_body, described_nouns, governing_parties, in_the_predicate, kind_of_counted, modifies_a_noun, names_a_person,
    nominal_words, noun_modifiers, only_beside_the_main_clause, only_intended, party_extents, predicate_subjects,
    person_noun, quantified_noun, said_of_the_past, said_of_the_reader, set_up_as_words, stated_as_own,
    stranded_preposition, told_as_to_come, told_in_the_past, value_verbs, vetoed, word_classes, in_capacity,
    after_by, owned_doer, taken_by_verb, named_body_told_of, extraposed, left_behind,
)
from cikb.core.identity import name_keys
from cikb.core.vocabulary import LEGAL_FORM_STEMS, RELATED_WEIGHT, match_weight, relation
from cikb.answer.reader._words import (
    DATE_RE, LEGAL_SUFFIXES, MONTHS, SELF_NOUNS, YEAR_RE, changes, plain, stem, stems_in, stems_of, tokens_of,
)
from cikb.answer.reader._question import TOTAL, Question, asks_present, bare, singular, term_word
from cikb.answer.reader._subject import (
    BEGIN_STEMS, LABEL_LINE, after_leading_date, asks_the_founding, began_itself, led_by_a_namesake, mentions_subject,
    owned_by_subject, refers_to_subject, ties_another_party,
)
from cikb.answer.reader._spans import (
    CANDIDATE_LABELS, CORPORATION_KIND, CURRENCY_SIGNS, Span, board_joiners, bounds_a_range, count_of_us,
    customer_names, doers_named, entity_labels, entity_spans, filtered, former_employers, former_names,
    holds_postal_address, instance_spans, investor_names, is_duration, is_postal_address, is_subject, is_yearless,
    legal_names, normal,
    apart_from_the_asked_role, asked_roles, unfunded_spans, DOTTED_FORMS,
    normal_date, number_value, overlap, spans, versions_in,
    yearless_dates,
)
from cikb.core.contacts import without_web_addresses
from cikb.answer.reader._scoring import (
    Sentence, asked_item, asked_part, asked_things, asks_a_price, asks_headcount, asks_its_price, contact_stems,
    doers_of_the_subject, in_the_first_person, moved_the_other_way, names_another_item, names_another_of_its_kind,
    keys_of_verbs, nearest_span, on_the_subjects_page, placed_by_definition, priced_for_the_item, priced_per_period,
    question_verb_keys, reading_stems, verb_terms,
)

Confidence = Literal["high", "medium", "low", "none"]
# How the reader judges a value: a confidence, or "untied": low only because the parse does not tie the value to the
# question, though it sits near the question's words and nothing read speaks against it (another time, another
# body's, a rival...).
Judgement = Literal["high", "medium", "low", "untied"]

MAX_PARSED = 16  # the best sentences the entity recogniser reads for a typed value (about 7 ms each)
FREE_TEXT_SHARE = 0.6  # of the question's key terms (IDF-weighted) that a free-text answer must hold
INSTANCE_SHARE = 0.5  # of the key terms a sentence naming one of what is asked must hold ("its design system's licence")
NAME_KINDS = frozenset({"person", "org", "place"})  # values the entity recogniser finds, not only confirms
# Values a clause of the sentence holds.
CLAUSE_KINDS = frozenset({"year", "date", "duration", "money", "number", "place"})

AGREEMENT_WEIGHT = 0.15
RIVAL_DISTANCE = 12  # a sentence about the subject proposing another value this close to the predicate is a rival
NEAR = 8  # tokens between a value and the question's predicate that still tie them


@dataclass(frozen=True)
class Answer:
    """A typed value, the sentence that states it, every passage that agrees, and how sure the reader is."""

    value: str
    confidence: Confidence
    sentence: Sentence
    support: list[Sentence]
    untied: bool = False  # low only because the parse does not tie it to the question: nothing read speaks against it


def decide(q: Question, sentences: list[Sentence], max_sentences: int) -> Answer | None:
    # A date or an amount needs a sentence that holds one of the question's own terms (or a word of the
    # same relation): "opened offices in 2005" dates a related event, not the founding. A place may come
    # from a related word ("Address: ...", "head office in ...": still where the company is).
    now = asks_present(q)
    candidates = [s for s in _confirmed(q, [s for s in sentences if s.lexical > 0][:MAX_PARSED])
                  if _states_a_term(q, s) and _holds_the_place_verb(q, s)
                  and not (s.creates_other and q.kind in ("year", "date"))
                  and not (now and _said_of_the_past(q, s)) and not _undated_for_the_year_asked(q, s)
                  and not names_another_of_its_kind(q, s.plain) and not moved_the_other_way(q, s.plain)][:max_sentences]
    if not candidates:
        return None
    # Asked how things are, a post dated long before the pages read today states how they were: "more than thirty
    # employees" in a 2015 press release, "Jane Roe, our CTO" in a 2016 one. Where newer statements hold a value,
    # they alone vote (an old value stays a rival: the newer one is never given as high); where none does, the old
    # posts' value is given, never as high. (Reading the old posts again where the newer value is unsure gained one
    # right answer and one wrong one on the tuning sites: "said Jane Roe, CEO of Acme" still true, "said John Doe,
    # our CTO" no longer.)
    dates_an_event = q.kind in ("year", "date")  # "When did Acme launch?" asks when it happened, then
    newest = max((s.passage.as_of for s in sentences if s.passage.as_of is not None), default=None)
    # So does a count told in the past and dated ("Acme started in 2018 when two people began ...") beside one told
    # as now: it says how many there were then.
    current = [s for s in candidates
               if not (now and not dates_an_event and (_stale(s, newest) or _then_not_now(q, s)))]
    answer = _vote_and_weigh(q, current or candidates, candidates, now)
    if not current and answer.confidence == "high":
        return Answer(answer.value, "medium", answer.sentence, answer.support)
    return answer


def _vote_and_weigh(q: Question, candidates: list[Sentence], read: list[Sentence], now: bool) -> Answer:
    """The value the candidates' statements vote for, its best statement and how sure the reader is of it (against
    the rivals among ``read``)."""
    weights: dict[str, dict[int, float]] = defaultdict(dict)  # value -> passage -> its best statement there
    support: dict[str, list[Sentence]] = defaultdict(list)
    nearest: dict[int, tuple[Span, int]] = {}  # each candidate's value and its distance, read once
    for s in candidates:
        span, far = nearest[id(s)] = nearest_span(q, s)
        weight = s.score * (1.0 if far <= NEAR or _agent_of(q, s.plain, span) else 0.5)
        by_passage = weights[span.key]
        by_passage[id(s.passage)] = max(weight, by_passage.get(id(s.passage), 0.0))
        support[span.key].append(s)
    # The best statement of a value counts; other passages stating it add a little. A passage repeating a
    # value is one voice, and a value repeated in passing must not outvote the one sentence that states the fact.
    votes = {k: _vote(list(w.values())) for k, w in weights.items()}
    if _asks_an_address(q):  # a town is where the address is, never the address: the values with a number vote
        votes = {k: v for k, v in votes.items() if any(c.isdigit() for c in k)} or votes
    # Of values voted for alike, one stated in the question's own word: "founded rami.io GmbH in 2017" over "pretix
    # began in 2014" for when the company was founded.
    best_key = max(votes, key=lambda k: (votes[k], any(own_terms(s, q.terms) for s in support[k]),
                                         -candidates.index(support[k][0])))
    if q.kind == "date" or (q.kind == "person" and asks_the_founding(q)):
        best_key = _most_precise(best_key, votes, support)  # the fullest date, or every founder, the sources agree on
    if q.kind == "number":
        best_key = _exact_within_the_bound(best_key, votes, support, nearest)
    if q.kind != "text" and now:
        best_key = _newest_statement(q, best_key, candidates, support)
    # The evidence: the supporting sentence that states the value most directly, in the question's own words
    # ("ISRG was founded in 2013" over "May 24, 2013: ISRG is incorporated" for "What year was ISRG founded?"; "Jane
    # Roe is the founder and CEO of Acme" over "An interview with Jane Roe, founder of Acme" for its CEO), then the best
    # scored.
    ranked = sorted(support[best_key], reverse=True,
                    key=lambda s: (_ties_value_to_question(q, s), len(own_terms(s, q.terms)), s.score))
    best, judged = _surest_statement(q, ranked, nearest, read, best_key)
    span, far = nearest[id(best)]
    value = _given(q, best, span)
    if judged in ("high", "medium") and _one_of_the_founders(q, value, support[best_key]):
        judged = "low"  # "Hannah co-founded Ghost": one of its founders, not who founded it
    if judged == "untied":
        return Answer(value, "low", best, support[best_key], untied=True)
    if judged == "high" and best.card and span.text not in plain(best.text):
        judged = "medium"  # a name read in full from its card ("Jon has ..." under "Jon Roe"): the quote lacks it
    return Answer(value, judged, best, support[best_key])


def _surest_statement(q: Question, ranked: list[Sentence], nearest: dict[int, tuple[Span, int]], read: list[Sentence],
                      key: str) -> tuple[Sentence, Judgement]:
    """The first of the value's statements (best first) that states it with more than low confidence, and how; else
    the best one. Asked who, where or how to reach, a sentence read as not stating it ("Priya Roe, Managing Director,
    Gareth Lowe, Technical Director": whose title is whose?) says nothing against another that does ("Priya Roe is our
    Managing Director"). A date, an amount or a body's name is not judged again: in a history, a second sentence
    holding the same year or name tells of another event (measured on SQuAD's company articles, bench/reader_squad.py:
    judged again, those gave 1 more right value and 4 more wrong ones; names, places and contacts none wrong)."""
    count = _STATEMENTS_JUDGED if q.kind in ("person", "place", "contact") else 1
    first = None
    for s in ranked[:count]:  # judged one by one: each judgement parses its sentence
        judged = (s, _confidence(q, s, *nearest[id(s)], read, key))
        if judged[1] in ("high", "medium"):
            return judged
        first = first or judged
    return first


_STATEMENTS_JUDGED = 4  # each judgement parses the sentence: a value said on every page is judged on its best few


_CO_FOUNDING = re.compile(r"\bco-?found", re.IGNORECASE)


def _one_of_the_founders(q: Question, value: str, support: list[Sentence]) -> bool:
    """Asked who founded the company, one name said only to have co-founded it ("Jane co-founded Acme", "Jane Roe,
    co-founder of Acme"): a co-founder is one of several, and the answer names the others too or is not given.
    (Asked who co-founded it, the question knows there were several: one of them is what it has always been given.)"""
    return (q.kind == "person" and asks_the_founding(q) and not _CO_FOUNDING.search(q.text)
            and not re.search(r",|&|\band\b", value)
            and all(_CO_FOUNDING.search(s.plain) for s in support))


STALE_AFTER = timedelta(days=730)  # a post this much older than the newest page read no longer says how things are


def _stale(s: Sentence, newest: date | None) -> bool:
    """The sentence is dated STALE_AFTER or more before ``newest``, the newest page read (a fact page is dated the day
    it was read): how things were, not how they are."""
    said = said_on(s)
    return said is not None and newest is not None and newest - said >= STALE_AFTER


def said_on(s: Sentence) -> date | None:
    """When the sentence said what it says: the date that opens its line ("9 September 2020: Acme passes 60
    employees", a news index's item, on a page dated the day it was read), else its page's date."""
    lead = DATE_RE.match(s.plain) if after_leading_date(s.plain) is not None else None
    day = normal_date(lead.group()) if lead else None
    if day is None or len(day) < 7:
        return s.passage.as_of
    return date.fromisoformat(day if len(day) == 10 else f"{day}-01")


def _ties_value_to_question(q: Question, s: Sentence) -> bool:
    """The sentence, about the subject, ties the value to every key term; or, naming the subject, the parse sets
    the value in the asked role, no one else's ("Jane Roe is the founder and CEO of Acme")."""
    span = nearest_span(q, s)[0]
    return ((s.coverage == 1.0 and s.role == 2 and tightly_linked(q, s.plain, span))
            or (q.officer and s.about_subject and any(r.held_by_value and not r.former and (
                not r.owner or owned_by_subject(q, r.owner)) for r in asked_roles(q, s.plain, span))))


def _given(q: Question, best: Sentence, span: Span) -> str:
    """The value as the answer gives it: a labelled address is the whole value after its label, whatever country's
    form it takes ("Address: 48 Quay Street, Bristol, BS1 4DJ, United Kingdom"), not the part a pattern recognised."""
    if q.kind == "place" and _labelled(q, best, span):
        value = best.plain[best.plain.index(":") + 1:].strip(" .;")
        # Less the holder's name it may open with: "Registered address: Acme GmbH, Schinkestraße 9, 12047 Berlin".
        holder = next((name for name in legal_names(value) if name.start == 0), None)
        rest = value[len(holder.text):].lstrip(" ,") if holder is not None else value
        return rest if span.text in rest else value
    return span.text


def _confirmed(q: Question, sentences: list[Sentence]) -> list[Sentence]:
    """The sentences that hold a value of the asked kind, each with only such values: a value a trained entity
    recogniser reads as another kind is dropped ("2019" is no person, "Berlin" no headcount). For names and
    places the recogniser's entities are candidates too: "in sunny Sarasota, Florida" follows no pattern of
    capitals."""
    labels = entity_labels(q)
    if labels is None:
        return [s for s in sentences if s.spans]
    vetoes = KIND_VETOES[q.kind] | (KIND_LABELS["org"] if q.kind == "person" and q.officer else frozenset())
    if q.kind == "person" and q.wants == "agent" and not q.officer:
        # "Who acquired (owns, operates) Acme?" is answered by a body as often as by a person: the recogniser's
        # confusions between kinds of names ("Atlassian" read as a place) are no veto, as they are none for "org".
        vetoes = KIND_VETOES["org"]
    kept = []
    for s in sentences:
        confirmed = [span for span in s.spans if _of_the_kind(q, s.plain, span, labels, vetoes)]
        if q.kind in NAME_KINDS:
            # Candidates of the kind's own labels only: a person question takes the recogniser's people, not
            # every organisation it sees ("Ford" in a donor's quote is no founder).
            found = entity_spans(s.plain, CANDIDATE_LABELS[q.kind])
            named = [n for n in filtered(q, s.plain, found) if not is_subject(q, n)]
            if q.kind == "org":  # the recogniser's whole name over a pattern's part: "General Services Administration"
                confirmed = [next((n for n in named if _holds(n, c)), c) for c in confirmed]
            confirmed += [n for n in named if not any(overlap(n, c) for c in confirmed)]
            if q.kind == "org":  # the bodies asked of are all those listed: "Fastly, Intel, Mozilla and Microsoft"
                confirmed = _whole_lists(s.plain, confirmed)
        if q.kind == "date":  # read by the recogniser, so only in the sentences it reads
            confirmed += yearless_dates(s.plain, confirmed)
        if q.kind in ("person", "org"):
            confirmed = _doing_what_is_asked(q, s.plain, confirmed)
        if q.kind == "person":  # "volunteered as Accounting Clerk": a capacity, whatever the recogniser reads
            confirmed = [span for span in confirmed if not (s.plain[:span.start].rstrip().lower().endswith(" as")
                                                            and in_capacity(s.plain, span.start))]
            confirmed = [span for span in confirmed
                         if not modifies_a_noun(s.plain, span.start, span.start + len(span.text))]
        if q.kind == "number":
            confirmed = _counting_the_asked_noun(q, s.plain, [span for span in confirmed if _counts_what_is_asked(q, s.plain, span)])
        if q.kind not in ("contact", "identifier") and not _INTENT_WORDS & set(q.terms):  # "we planned to hire ten
            # people" is no headcount, unless the question asks what was planned
            confirmed = [span for span in confirmed
                         if not only_intended(s.plain, span.start, span.start + len(span.text))]
        if _asks_what_is_or_was(q):  # "will launch in 2027" does not say when it launched, "will have 60 employees"
            # how many it has (a price to come is the price: "the Model 100 will cost $349")
            confirmed = [span for span in confirmed
                         if not told_as_to_come(s.plain, span.start, span.start + len(span.text))]
        if q.kind in ("year", "date") and asks_the_founding(q):  # "Acme's founder Jane Roe was born in 1980"
            confirmed = [span for span in confirmed if not _dates_a_thing_of_its(q, s, span)]
        if q.kind in ("number", "money") and not _asks_a_change(q):  # "hired 20 employees" is no headcount
            confirmed = [span for span in confirmed if not _counts_a_change(q, s, span)]
        if q.kind == "place":  # "if you're based in Germany" says where the reader is ("you can find us at" does not)
            confirmed = [span for span in confirmed
                         if not said_of_the_reader(s.plain, span.start, span.start + len(span.text))]
        if q.kind == "money":  # asked the Business plan's price: "the Starter plan costs $19" gives another's
            confirmed = [span for span in confirmed if priced_for_the_item(q, s.plain, span) is not False]
            if _priced_on_anothers_page(q, s):
                confirmed = []
        if q.kind in CLAUSE_KINDS:
            asked = _in_the_asked_clause(q, s.plain, confirmed)
            s.set_aside, confirmed = [span for span in confirmed if span not in asked], asked
        s.spans = sorted(confirmed, key=lambda span: span.start)
        if s.spans:
            kept.append(s)
    return kept


def _priced_on_anothers_page(q: Question, s: Sentence) -> bool:
    """Asked the price of an item by its name ("the Nitrokey 3A NFC"), the sentence does not name it and its page on
    the company's site is titled or headed by another item: "Price: €59.00" under "Nitrokey Pro 2" is that product's
    price. (An article's title names what the article is about, no product.)"""
    item = asked_item(q)
    if item is None or not item.names or not s.passage.own_site or item.names <= stems_in(s.plain):
        return False
    names = [s.passage.title.split("|")[0].strip(), *s.passage.headings]
    return any(names_another_item(q, item, name, name) for name in names if name) and not any(
        item.names <= stems_in(name) for name in names)


_ONE_ROUND = re.compile(r"\b(?:series [a-h]|rounds?|seed|ipo|pre-seed)\b", re.IGNORECASE)  # one of the raises
_INTENT_WORDS = frozenset(stem(w) for w in
                          "plan aim hope want intend expect seek strive aspire wish goal target".split())


def _holds(outer: Span, inner: Span) -> bool:
    """``outer`` holds ``inner`` and more."""
    return (outer.start <= inner.start and inner.start + len(inner.text) <= outer.start + len(outer.text)
            and len(outer.text) > len(inner.text))


def _of_the_kind(q: Question, sentence: str, span: Span, labels: frozenset[str], vetoes: frozenset[str]) -> bool:
    """The recogniser does not read the value as another kind, or the parse says it is one ("I, Jane Roe, am the
    CEO": the small model reads some names as places), or its currency sign does ("€60/year", which the small
    recogniser reads as a date)."""
    end = span.start + len(span.text)
    if q.kind == "number" and is_duration(span.text):
        vetoes = KIND_VETOES["duration"]  # "How much leave ...?" -> "30 days", which the recogniser reads as a date
    return (not vetoed(sentence, span.start, end, labels, _vetoes_of(sentence, span, vetoes))
            or (q.kind == "money" and span.text[:1] in CURRENCY_SIGNS)
            or (q.kind == "person" and names_a_person(sentence, span.start, end))
            or (q.kind == "number" and _counts_the_questions_noun(q, sentence, span)))


def _counts_the_questions_noun(q: Question, sentence: str, span: Span) -> bool:
    """The parse reads the count as one of the noun the question counts: "a 40-hour week" for "How many hours",
    which the small recogniser reads as a time, not a count."""
    asked = counted_in_question(q.text)
    noun = counted_noun(sentence, span.start, span.start + len(span.text))
    return bool(asked and noun and stems_of(noun) & stems_of(asked))


def _vetoes_of(sentence: str, span: Span, vetoes: frozenset[str]) -> frozenset[str]:
    """A count written with a plus ("30+ agencies", "1,000+ customers") is at least that many, never a date, whatever
    the small recogniser reads."""
    return vetoes - {"DATE"} if _with_a_plus(sentence, span) else vetoes


def _with_a_plus(sentence: str, span: Span) -> bool:
    """The count at ``span`` is written with a plus after it: "30+ agencies" (at least 30)."""
    return sentence[span.start + len(span.text):].startswith("+")


def _counts_asked(q: Question, sentence: str, span: Span) -> bool | None:
    """Whether the noun a count counts, as the trained parser reads it, is a word of the question's terms ("made up
    of 164 people" for employees) or not ("spread across 34 different states"); None when it counts no noun."""
    if is_duration(span.text):
        return True  # "30 days' paid leave" measures what "How much paid leave ...?" asks: no count of a noun
    noun = counted_noun(sentence, span.start, span.start + len(span.text))
    if noun is None:
        return None
    if asks_headcount(q) and _counts_those_acting_on_the_subject(q, sentence, span):
        return False  # "More than 10,000 people use Acme every day": its users, not its people
    group = counted_group(sentence, span.start, span.start + len(span.text)) or ""  # "a team of 200+ humans"
    return (any(_counts_the_term(q, t, noun) or match_weight(t, stems_of(group)) > 0 for t in q.terms)
            or _counts_the_asked_doers(q, sentence, span))


def _counts_the_asked_doers(q: Question, sentence: str, span: Span) -> bool:
    """The count is of those who do to the company what the question counts them by ("12,000 developers use Acme")."""
    return any(start <= span.start < end for start, end in doers_of_the_subject(q, sentence))


def _counts_those_acting_on_the_subject(q: Question, sentence: str, span: Span) -> bool:
    """The count's noun is the subject of a verb whose object is the company, as the parse reads it: "10,000 people
    use Acme", "Millions of people trust us" count those who do something to it, from outside; so do those who act
    through a preposition, unless the verb is of the question's terms ("20 million people search with Acme", but
    "70 people work at Acme")."""
    end = span.start + len(span.text)

    def unasked(verb: str) -> bool:  # a relation either way: "work" is a neighbour of "employees", and they of it
        return not any(match_weight(t, stems_of(verb)) > 0 or match_weight(v, {t}) > 0
                       for t in q.terms for v in stems_of(verb))

    doers = counted_doers(sentence, lambda word: True, direct_only=True) + counted_doers(sentence, unasked)
    return any(start < end and span.start < stop and (refers_to_subject(q, done_to) or done_to.lower() == "us")
               for start, stop, done_to in doers if done_to)


_GROUP_NOUNS = frozenset("team group crew squad unit".split())


def _counts_the_term(q: Question, term: str, noun: str) -> bool:
    """The counted noun is the term's word, or one of its relation: not the agent noun its stem shares ("200
    podcasters" counts people, "How many podcasts" asks for shows; Snowball stems both "podcast")."""
    weight = match_weight(term, stems_of(noun))
    if weight == 0:
        return False
    one = singular(noun.lower())
    if one != noun.lower() and one in _GROUP_NOUNS and weight < 1.0:
        return False  # "40,000 paying teams" counts teams, not employees (a team of 30 counts people: counted_group)
    if term not in stems_of(noun):
        return True  # another word of the term's relation ("employees" for "workers"): no agent noun of its stem
    agent = one.endswith("er")
    return not any(stem(k) == term and agent != singular(k).endswith("er") for k in q.keywords)


def _whole_lists(sentence: str, found: list[Span]) -> list[Span]:
    """Each name widened to the coordinated list it stands in, each list once."""
    widened: list[Span] = []
    for span in found:
        extent = coordinated_names(sentence, span.start, span.start + len(span.text))
        if extent:
            text = sentence[extent[0]:extent[1]]
            span = Span(text, extent[0], normal(text))
        if not any(overlap(span, kept) for kept in widened):
            widened.append(span)
    return widened


def _doing_what_is_asked(q: Question, sentence: str, found: list[Span]) -> list[Span]:
    """Asked who did something ("Who owned the rights to Oswald?") or to whom it was done ("Which firm did Acme
    hire?"), the names in that verb's doer or object, as the parse reads them: "Universal owned the rights, although
    Walt Disney and Ub Iwerks had created Oswald" answers Universal; a sentence whose verb has another doer ("he",
    "the studio") names none."""
    asked = asked_party(q.text)
    if asked is None:
        return found
    verb, party = asked
    # The verb's own stem, not the "co" of "co-founded", or a word of its relation: "we created Community Work
    # Orders" makes them no founders of ours.
    wanted = {w for t in stems_of(verb) if len(t) > 2 for w in relation(t)}
    own = {t for t in stems_of(verb) if len(t) > 2}  # "an audit of its apps" for who audited them: the same word only
    where = party_extents(sentence, lambda word: bool(stems_of(word) & wanted), party,
                          is_noun=lambda word: bool(stems_of(word) & own))
    if where is None:
        return found
    if q.kind == "person" and not q.officer:  # an organisation that did it is the answer too: "Globex owned the rights"
        bodies = filtered(q, sentence, entity_spans(sentence, CANDIDATE_LABELS["org"]))
        found = found + [b for b in bodies if not is_subject(q, b) and not any(overlap(b, f) for f in found)]
    return sorted((span for span in found if any(a <= span.start < b for a, b in where)), key=lambda span: span.start)


def _in_the_asked_clause(q: Question, sentence: str, found: list[Span]) -> list[Span]:
    """Of several values (dates, amounts, counts, places), those of the question's own clause, as the parse reads
    it: those hanging on the question's verb where one does ("began its investigations in 1938 and published its
    report in 1940" answers "In what year did the FCC publish its report?" with 1940), else those whose clause holds
    the most of its key terms ("It employs over 250 staff, approximately 180 of whom are based in Newcastle")."""
    if len(found) < 2:
        return found
    # A timeline's date dates every clause of its line: "2014: Jane Roe founds Acme in August".
    dated = after_leading_date(sentence) is not None
    timeline = [span for span in found if dated and span.start == 0]
    return timeline + [span for span in _of_the_asked_clause(q, sentence, found) if span not in timeline]


def _of_the_asked_clause(q: Question, sentence: str, found: list[Span]) -> list[Span]:
    clauses = [clause_of(sentence, span.start, span.start + len(span.text)) for span in found]
    asked = asked_verb(q.text)
    wanted = {t for t in stems_of(asked[0]) if len(t) > 2} if asked else set()
    on_verb = [c is not None and bool(stems_of(c.verb) & wanted) for c in clauses]
    kept = [span for span, c, on in zip(found, clauses, on_verb) if on or c is None]
    if any(on_verb) and len(kept) < len(found):
        return kept
    held = [sum(match_weight(t, _stems_besides(c.words if c else (), span.text)) == 1.0 for t in q.terms)
            for span, c in zip(found, clauses)]
    if max(held) == min(held):
        return found
    return [span for span, n in zip(found, held) if n == max(held)]


def _stems_besides(words: Iterable[str], value: str) -> set[str]:
    """The stems of a clause's words other than the value's own."""
    own = set(value.split())
    return set().union(*(stems_of(w) for w in words if w not in own))


def _counting_the_asked_noun(q: Question, sentence: str, found: list[Span]) -> list[Span]:
    """Of several counts, those of the noun the question counts, where one is: "23 factories ... and 90 employees"
    answers "How many employees were in the factories?" with 90."""
    asked = counted_in_question(q.text)
    if asked is None or len(found) < 2:
        return found
    wanted = stems_of(asked)
    nouns = [counted_noun(sentence, span.start, span.start + len(span.text)) for span in found]
    if not any(noun and stems_of(noun) & wanted for noun in nouns):
        return found
    return [span for span, noun in zip(found, nouns) if not noun or stems_of(noun) & wanted]  # not "23 factories"


def _counts_what_is_asked(q: Question, sentence: str, span: Span) -> bool:
    """A count of something the question does not ask about is no answer to it, nor one in a sentence without the
    noun that narrows what is counted ("a 30-day trial" for "How many vacation days ...")."""
    kinds = kind_of_counted(q.text)
    stems = stems_in(sentence) if kinds else set()  # most questions count a bare noun: no sentence stems needed
    narrowed = all(any(match_weight(t, stems) > 0 for t in stems_of(kind)) for kind in kinds)
    return narrowed and _counts_asked(q, sentence, span) is not False


def _counts_a_related_word(q: Question, sentence: str, span: Span) -> bool:
    return _counts_asked(q, sentence, span) is True


def states_question(q: Question, s: Sentence) -> bool:
    """A free-text answer's test: the sentence is about the subject, does not negate it, and holds most of the
    question's key terms (IDF-weighted; a word of a term's relation counts half), or is led by the subject and
    holds every term in some word. Anything less is related reading. On SQuAD's company articles (every 6th
    question) the best sentence passing the first test held a true answer for 121 of 143 questions, 85%.
    A sentence on another of the kind the question names ("the Series A" for its Series B) states none of it."""
    if names_another_of_its_kind(q, s.plain):
        return False
    if q.former_name and not s.negated and former_names(q, s.text, _said_of_the_subject(q, s)):
        return True  # "Globex Labs is now Acme": the renaming names the subject, whatever words the question used
    if q.investors and not s.negated and _names_investors(q, s):
        return True  # "The round was led by Northwind Capital, with participation from ..." on Acme's page
    if q.customers and _names_customers(q, s):
        return True  # "Trusted by Contoso, Fabrikam and Northwind" on Acme's home page
    if q.board and _names_board_joiners(q, s):
        return True  # "Acme welcomes Jane Roe, partner at Globex, to its board"
    if q.worked_before and not s.negated and former_employers(q, s.text):
        return True  # "Roe joins from Globex": an answer read for the officer the reader found (reader.read)
    if _names_the_doer_asked(q, s):
        return True  # "Corva deploys AI analytics ..." on Acme's page, asked which Acme customer does
    if q.legal_name and not s.negated and _writes_legal_name(q, s):
        # The terms' or the imprint's own line ("Acme Inc. operates acme.example"), legal text or not, or any line
        # that names it so ("his co-founded company Acme AB"), or the body behind it ("Acme is operated by Globex
        # GmbH"): the name with its form says what it is, in no word of the question's.
        return True
    if not s.about_subject or s.negated:
        return False
    if q.thing:  # "What is Acme Pay?": "Acme Pay is a payments app", not "Jane Roe, Head of Acme Pay"
        return defines(_value_of_line(s.plain), lambda phrase: _names_the_thing(q, phrase))
    if q.legal_form:  # legal pages state it too: their sentences count here, and so does its name with its form
        return _defined_by_legal_form(q, s) or _names_legal_form(q, s)
    if s.boilerplate:
        return False
    if defines_subject(q, s):
        return True
    if names_the_label(q, s):
        return True
    if q.legal_name:
        return False  # stated by its form or its label only: "We incorporated new features" names no legal name
    if not _holds_asked_noun(q, s):
        return False  # "Under which licence ...": a sentence without a licence names none
    if only_beside_the_main_clause(s.plain, term_word(q)):
        return False  # "As part of the federal government, we are building a team": it says what they build
    if _asked_nouns_only_described(q, s):
        return False  # "What is Acme's purpose?": "purposeful sessions" are not a purpose
    if _asked_adjectives_on_other_nouns(q, s):
        return False  # "Is Acme a public company?": "helps agencies deliver better public services" says not
    if s.role == 2 and s.coverage >= INSTANCE_SHARE and filtered(q, s.plain, instance_spans(q, s.plain)):
        # Led by the subject, it names one of what is asked ("Acme is offered under the MIT licence"), and not one
        # the question names ("What other projects ... besides Widget?": "our first project, Widget").
        return True
    stems = reading_stems(q, s)
    done = _done_by_the_subject(q)
    if q.defining:  # its words (product, services, main) are in many a sentence that does not say what Acme sells
        return (bool(q.terms) and s.role == 2 and all(match_weight(t, stems) > 0 for t in q.terms)
                and _related_words_are_the_subjects(q, s) and (not (done & s.stems) or _its_own_deed(q, s, done)))
    if not _holds_asked_verb(q, stems):
        return False  # "What does Globex use Acme for?": a sentence on Globex that says nothing of using Acme
    if not _holds_the_verbs_asked_how(q, stems):
        return False  # "How was the pledge to be paid out?": "Donation Pledged by Jane Roe: October 1" says no how
    if stranded_preposition(q.text) is not None and not spans(q, s.plain):
        return False  # nor one on using Acme that says nothing of what for ("Globex is now using Acme")
    if done and not _its_own_deed(q, s, done):
        return False  # "What does Acme make?": not "a hiring process that makes it easy for people to ..."
    # The subject's own sentence may state every term by a word of its relation ("Acme makes robots" for "sell"),
    # when the parse makes the subject that word's own ("a year of making hard decisions" sells nothing).
    return s.lexical >= FREE_TEXT_SHARE or (s.role == 2 and all(match_weight(t, stems) > 0 for t in q.terms)
                                            and _related_words_are_the_subjects(q, s))


def _defined_by_legal_form(q: Question, s: Sentence) -> bool:
    """Asked what kind of legal entity the subject is, the sentence says the subject is one, or was made one, in a
    legal form's words ("Acme is a California public benefit corporation", "a private company limited by guarantee",
    "Acme is incorporated as a Delaware nonprofit corporation"); "Acme works with corporate partners" or "the
    non-profit behind Acme" says nothing of the subject's form."""
    is_subject = partial(_names_subject, q)
    said = defining_words(s.plain, is_subject) + set_up_as_words(s.plain, is_subject)
    phrase = re.sub(r"\s*-\s*", "-", " ".join(said))  # the parse's tokens of "non-profit": "non", "-", "profit"
    return any(stems_of(word) & LEGAL_FORM_STEMS for word in phrase.lower().split())


def _asked_nouns_only_described(q: Question, s: Sentence) -> bool:
    """A noun the question asks of is in the sentence only as a modifier, as the trained parser reads it: an
    adjective or an adverb made from it ("purposeful sessions" are no purpose), or the noun before another one
    ("office materials" are no office). The noun a question asks "which" of is named by what comes before it
    ("Which accelerator ...": "the Harbour Works accelerator programme"), and a question's own modifier ("the
    vacation policy") may be one in the sentence too."""
    which = asked_noun(q.text)
    nouns = {word for word, kind in word_classes(q.text) if kind == "noun" and word != which}
    asked = {stem(noun) for noun in nouns} & set(q.terms)
    held: dict[str, set[str]] = defaultdict(set)
    for word, kind in word_classes(s.plain):
        for term in stems_of(word) & asked:
            held[term].add(kind)
    return any(kinds == {"modifier"} for kinds in held.values())


def _asked_adjectives_on_other_nouns(q: Question, s: Sentence) -> bool:
    """An adjective of the question's terms that describes the subject's kind there ("a public company", "a
    family-owned business") describes, wherever the sentence has it, other nouns than a word for a body ("better
    public services"), as the trained parser reads them: the sentence says something else is so, not the subject. (Of
    another noun the sentence may use a word of its own: "our first handheld computer" for "first device".)"""
    for adjective, noun in described_nouns(q.text):
        term = stem(adjective)
        if term not in q.terms or noun not in SELF_NOUNS:
            continue
        places = [n for a, n in described_nouns(s.plain) if term in stems_of(a)]
        said = sum(1 for word, _, _ in tokens_of(s.plain) if term in stems_of(word))
        if places and len(places) == said and not any(n in SELF_NOUNS for n in places):
            return True
    return False


# Nouns a question may ask "which" of that a stating sentence need not repeat ("What type of company ...").
_GENERIC_ASKED = frozenset({"type", "kind", "sort", "name", "way", "part", "one", "ones"})


def states_by_form(q: Question, s: Sentence) -> bool:
    """The sentence states what is asked by its form, whatever its words: what the subject is (:func:`defines_subject`),
    or its legal name, the subject's name with a legal form after it ("Acme Inc. operates acme.example"), or a name it
    had, said of its renaming ("Globex Labs is now Acme"), or what the thing asked is, in the question's words as
    the sentence's subject ("Our core product is the Acme cloud emulator" for "What is Acme's core product?")."""
    return (defines_subject(q, s) or (q.legal_name and _writes_legal_name(q, s))
            or (q.former_name and bool(former_names(q, s.text, _said_of_the_subject(q, s))))
            or (bool(q.investors) and _names_investors(q, s))
            or (q.customers and _names_customers(q, s)) or (q.board and _names_board_joiners(q, s))
            or (bool(q.worked_before) and bool(former_employers(q, s.text))) or _defines_the_asked(q, s))


def _defines_the_asked(q: Question, s: Sentence) -> bool:
    """The sentence's subject holds every key term, and the sentence says what it is ("Our core product is ...")."""
    if q.kind != "text" or not q.terms:
        return False
    return defines(s.plain, lambda phrase: all(match_weight(t, stems_in(phrase)) == 1.0 for t in q.terms))


def _names_the_doer_asked(q: Question, s: Sentence) -> bool:
    """Asked which one of the subject's own kind (a customer, a partner, a member) did something, a line of the
    subject's own site that names who does it, in every other word of the question: "Corva deploys AI analytics into
    oil and gas companies" on Acme's home page answers "Which Acme customer deploys AI analytics into oil and gas
    companies?"."""
    noun = asked_noun(q.text)
    if noun is None or not q.subject_terms or not s.passage.own_site or s.negated or s.boilerplate:
        return False
    stems = reading_stems(q, s)
    rest = [t for t in q.terms if t not in stems_of(noun)]
    return bool(rest) and all(match_weight(t, stems) == 1.0 for t in rest) and bool(doers_named(q, s.plain))


def _names_investors(q: Question, s: Sentence) -> bool:
    return bool(_investors_asked_of(q, s))


def _investors_asked_of(q: Question, s: Sentence) -> list[Span]:
    """The investors the sentence names that the question asks for (the lead left out for "the other investors"),
    where it is about the subject's funding; [] otherwise."""
    if s.negated:
        return []
    led, others = investor_names(q, s.text)
    names = others if q.investors == "others" else led + others
    return names if names and _about_the_subjects_funding(q, s) else []


def _writes_legal_name(q: Question, s: Sentence) -> bool:
    """The subject's name with its form, or the name with its form of the body that operates the subject."""
    return _names_legal_form(q, s) or (bool(_ASKS_THE_BODY_BEHIND.search(q.text))
                                       and _operator_named(q, s.text) is not None)


def _names_legal_form(q: Question, s: Sentence) -> bool:
    return _legal_name_in(q, s.plain, own_site=s.passage.own_site) is not None


def _legal_name_in(q: Question, text: str, *, own_site: bool = False) -> str | None:
    """The subject's name with a legal form right after it, as the text writes it ("Acme Ltd"), or None. On the
    company's own website a word or two may come between ("Acme Software Ltd" in its imprint or copyright line: the
    site's owner); elsewhere "Acme Robotics Inc." may be another company."""
    # A word of the name may be written apart ("Open Sats Initiative, Inc." is OpenSats's) or as a web address
    # ("Keyboard.io, Inc." is Keyboardio's). On its own site, the first word may stand for the whole name: "Acme
    # Insights OÜ" runs Acme Analytics.
    names = [r"\W+".join(r"[\s.]?".join(re.escape(c) for c in w) for w in q.subject_words)]
    if own_site and len(q.subject_words) > 1:
        names.append(r"[\s.]?".join(re.escape(c) for c in q.subject_words[0]))
    return next((found for name in names if name and (found := _with_legal_form(name, text, own_site))), None)


def _with_legal_form(name: str, text: str, own_site: bool) -> str | None:
    """The name matched by the pattern ``name`` with a legal form after it, as ``text`` writes it, else None."""
    for between in range(3 if own_site else 1):
        words = rf"(?-i:(?:\s+[A-Z][\w&'-]*){{{between}}})"
        # Not a word the form only opens: "Co-founder", "Co-op".
        for m in re.finditer(rf"(?<!\w){name}{words},?\s+([^\W\d_][\w.]*)(?!-\w)", text, re.IGNORECASE):
            written = m.group(1)
            if written.lower().replace(".", "") not in LEGAL_SUFFIXES:
                continue
            bare = written.rstrip(".")  # a full stop after "GmbH" ends the sentence; "Inc." and "B.V." keep theirs
            form = written if "." in bare or bare.lower() in DOTTED_FORMS else bare
            return text[m.start():m.start(1)] + form
    return None


_NAME_LABEL = re.compile(r"^\W*(?:(?:legal|registered|official|corporate|company|business)\s+)+name\s*:", re.IGNORECASE)


def choice_answer(q: Question, sentences: list[Sentence]) -> Answer | None:
    """For a question that offers its answers ("Does Acme work from offices or remotely?"): the best sentence about
    the subject that says one of them, and only one, of it (:func:`in_the_predicate`: "Acme is an all-remote
    company"); ``medium`` when every such sentence says the same one, else ``low``. A sentence that names one in
    passing ("Acme helps remote teams") says nothing of the subject."""
    found = []
    for s in sentences[:MAX_PARSED]:
        if s.role != 2 or s.negated:
            continue
        said = [option for option in q.options if _says_of_the_subject(option, s)]
        if len(said) == 1:
            found.append((s, said[0]))
    if not found:
        return None
    best, value = found[0]
    support = [s for s, option in found if option == value]
    return Answer(value, "medium" if len(support) == len(found) else "low", best, support)


def _says_of_the_subject(option: str, s: Sentence) -> bool:
    wanted = stems_in(option)
    return (bool(wanted) and wanted <= s.stems
            and in_the_predicate(s.plain, lambda word: bool(stems_of(word.lower()) & wanted)))


def legal_name_answer(q: Question, sentences: list[Sentence]) -> Answer | None:
    """For a question on the subject's legal name: the best sentence that writes its name with a legal form, that
    name as the value; ``medium`` when every such sentence gives the same one, else ``low`` (two legal names, a
    GmbH and an Inc., are for a reader to tell apart)."""
    found = [(s, name) for s in sentences
             if not s.negated and (name := _legal_name_in(q, s.plain, own_site=s.passage.own_site))]
    if not found:
        return _operators_legal_name(q, sentences)
    # The line a facts box or an imprint labels as the company's name ("Legal name: Acme Inc.", "Firmenname:
    # Acme GmbH") states it by its label: other legal names in passing (a US Inc. beside a GmbH) do not rival it.
    labelled = [(s, name) for s, name in found if _NAME_LABEL.match(s.plain)]
    if labelled and len({normal(name) for _, name in labelled}) == 1:
        found = labelled
    best, value = found[0]
    keys = {normal(name) for _, name in found}
    support = [s for s, name in found if normal(name) == normal(value)]
    return Answer(value, "medium" if len(keys) == 1 else "low", best, support)


def _opens_with_the_subject(q: Question, phrase: str) -> bool:
    """The phrase is the subject or one of its own ("Acme Cloud", "the Acme app"), not another thing that names it
    ("the servers for Acme", "Acme's servers")."""
    words = phrase.split()
    while words and words[0].lower() in ("the", "its", "our", "their"):
        words = words[1:]
    return bool(words) and not re.search(r"['’]s?$", words[0]) and mentions_subject(q, " ".join(words[:2]))


# Verbs by which a body is the one behind a product or service: "Acme GmbH operates Acme Cloud", "Acme is developed
# by Globex, Inc.".
_OPERATOR_VERBS = """operates operated runs ran develops developed maintains maintained publishes published builds built
    makes made""".split()
# A question on the body behind the subject, not on the subject's own name: "the company behind pretix", "the legal
# entity that operates Acme.io". Asked "What is Acme's legal name?", "Acme is run by Globex Ltd" names its owner.
_ASKS_THE_BODY_BEHIND = re.compile(r"\bbehind\b|\b(?:operat|runs?\b|develop|maintain|publish|builds?\b|makes?\b)",
                                   re.IGNORECASE)
_OPERATOR_STEMS = frozenset(stem(w) for w in _OPERATOR_VERBS)
# What a name with its form is followed by when it is the doer, whatever the small parser makes of the clause: "Globex
# GmbH, now operates Acme", "Globex, Inc., a Delaware corporation, which operates Acme".
_THEN_OPERATES = re.compile(rf",?\s*(?:[^,.;:]{{1,60}},\s*)?(?:(?:which|that|now|also|still)\s+)?"
                            rf"(?:{'|'.join(_OPERATOR_VERBS)})\b(?!\s+by\b)", re.IGNORECASE)


def _operators_legal_name(q: Question, sentences: list[Sentence]) -> Answer | None:
    """For a question on the legal name of the body behind the subject ("the company behind pretix", "the legal
    entity that operates Acme.io"), when no sentence writes the subject's own name with a form: the name with a legal
    form of the body a sentence says operates, develops, runs, publishes or makes the subject (the parse's doer
    of such a verb whose object or passive subject names the subject); ``medium`` when every such sentence names
    the same body, else ``low``. A body the sentence names otherwise ("hosted on servers operated by Globex GmbH")
    is not the subject's."""
    if not _ASKS_THE_BODY_BEHIND.search(q.text):
        return None
    found = [(s, name) for s in sentences[:MAX_PARSED] if not s.negated and (name := _operator_named(q, s.text))]
    if not found:
        return None
    best, value = found[0]
    support = [s for s, name in found if name.key == value.key]
    return Answer(value.text, "medium" if len(support) == len(found) else "low", best, support)


def _operator_named(q: Question, sentence: str) -> Span | None:
    named = legal_names(sentence)
    if not named:
        return None
    is_operator = lambda word: stem(word.lower()) in _OPERATOR_STEMS  # noqa: E731 - a predicate for the parse
    objects = party_extents(sentence, is_operator, "object") or []
    if not any(_opens_with_the_subject(q, sentence[start:end]) for start, end in objects):
        return None
    doers = party_extents(sentence, is_operator, "doer") or []
    for name in named:
        end = name.start + len(name.text)
        if any(start < end and name.start < stop for start, stop in doers) or _THEN_OPERATES.match(sentence, end):
            return name
    return None


def unfunded_answer(q: Question, sentences: list[Sentence]) -> Answer | None:
    """Asked what the subject raised from investors, or whether it raised any: the best sentence about the subject
    that says it took no such money (:func:`unfunded_spans`: "Acme has never raised outside funding", "We are
    self-funded" on its own site), those words as the value, at ``medium``; None where a sentence about the subject
    names money it raised or a round (an amount is then the answer, or a contradiction for a reader to settle)."""
    read = [s for s in sentences[:MAX_PARSED] if _said_of_the_subject(q, s)]
    if any(_tells_a_raise(s) for s in read):
        return None
    found = [(s, spans[0]) for s in read if (spans := unfunded_spans(s.text))
             and (s.role == 2 or mentions_subject(q, s.text) or in_the_first_person(s.text))]
    if not found:
        return None
    # The statement in the question's own words first: "has never raised outside funding" over "we're still
    # self-funded" for "Has Acme raised venture capital?".
    best, span = max(found, key=lambda pair: len(own_terms(pair[0], q.terms)))
    return Answer(span.text, "medium", best, [s for s, _ in found])


_RAISE = re.compile(r"\b(?:rais(?:ed|es|ing)|closed|secured|led\s+by|series\s+[a-h]|seed\s+round|funding\s+round)\b",
                    re.IGNORECASE)


def _tells_a_raise(s: Sentence) -> bool:
    """The sentence names an amount with a word of raising it, or a funding round: "Acme raised $5 million"."""
    return bool(_RAISE.search(s.text)) and (bool(re.search(r"[$€£]\s?\d|\d\s?(?:million|billion|[mMkK]\b)", s.text))
                                           or bool(re.search(r"\b(?:series\s+[a-h]|seed|round)\b", s.text, re.I)))


def former_name_answer(q: Question, sentences: list[Sentence]) -> Answer | None:
    """For a question on a name the subject had before: the best sentence that says it took its name in place of
    another (:func:`former_names`), that other name as the value; ``medium`` when every such sentence gives the
    same one, else ``low`` (a company renamed twice is for a reader to tell apart)."""
    found = [(s, names[0]) for s in sentences
             if not s.negated and (names := former_names(q, s.text, _said_of_the_subject(q, s)))]
    if not found:
        return None
    best, value = found[0]
    support = [s for s, name in found if name.key == value.key]
    same = len({name.key for _, name in found}) == 1
    return Answer(value.text, "medium" if same else "low", best, support)


def investors_answer(q: Question, sentences: list[Sentence]) -> Answer | None:
    """For a question on who invested in the subject: the best sentence that names investors by the ways of saying
    so (:func:`investor_names`) and is about the subject's funding (it names the subject, or a round on the
    subject's own site or page), those investors as the value, at ``medium``; the lead left out when the question
    asks for the others. A round the question names ("its Series A") must not be another round."""
    asked_round = _ROUND_NAME.search(q.text)
    found = []
    for s in sentences:
        names = _investors_asked_of(q, s)
        if not names:
            continue
        named_round = _ROUND_NAME.search(s.text)
        if asked_round and named_round and named_round.group().lower() != asked_round.group().lower():
            continue  # "its seed round" asked, "the Series A" stated
        found.append((s, names))
    return _listed_answer(found)


def customers_answer(q: Question, sentences: list[Sentence]) -> Answer | None:
    """For a question on who uses the subject: the best sentence that names its customers by the ways of saying so
    (:func:`customer_names`), in a sentence that names the subject or on its own site or page, those names as the
    value, at ``medium``."""
    return _listed_answer([(s, names) for s in sentences if _names_customers(q, s)
                           and (names := customer_names(q, s.text))])


def _names_customers(q: Question, s: Sentence) -> bool:
    return not s.negated and bool(customer_names(q, s.text)) and _said_of_the_subject(q, s)


def board_answer(q: Question, sentences: list[Sentence]) -> Answer | None:
    """For a question on who joined the subject's board: the best sentence that says someone took a seat on it
    (:func:`board_joiners`), in a sentence that names the subject or on its own site or page, that person at
    ``medium`` (several people: all of them)."""
    return _listed_answer([(s, people) for s in sentences if _names_board_joiners(q, s)
                           and (people := board_joiners(q, s.text))])


def _names_board_joiners(q: Question, s: Sentence) -> bool:
    return (not s.negated and bool(board_joiners(q, s.text)) and _said_of_the_subject(q, s)
            and _holds_the_seat_asked(q, s))


def _holds_the_seat_asked(q: Question, s: Sentence) -> bool:
    """Asked for a board's members by another noun, the sentence holds it: "Who is a community representative on
    Acme's board?" is not answered by "Globex has joined the board"."""
    noun = person_noun(q.text)
    return noun is None or stem(noun) in _SEATS or match_weight(stem(noun), s.stems) > 0


_SEATS = frozenset(stem(w) for w in "member director trustee governor".split())  # what a seat on a board is called


def _said_of_the_subject(q: Question, s: Sentence) -> bool:
    """The sentence names the subject, or is on the subject's own site or on a page whose title names it."""
    return mentions_subject(q, s.text) or on_the_subjects_page(q, s)


def _listed_answer(found: list[tuple[Sentence, list[Span]]]) -> Answer | None:
    """The names the best of ``found`` lists, as one value at ``medium``, the others as its support."""
    if not found:
        return None
    best, names = found[0]
    return Answer(", ".join(span.text for span in names), "medium", best, [s for s, _ in found])


def worked_before_answer(q: Question, sentences: list[Sentence], holder: str) -> Answer | None:
    """For a question on where the subject's officer worked before: the best sentence on ``holder`` (the officer, as
    the reader read it) that says where they worked before (:func:`former_employers`), those organisations at
    ``medium``."""
    return _listed_answer([(s, employers) for s in sentences if not s.negated and _on_the_person(s, holder)
                           and (employers := former_employers(q, s.text))])


def _on_the_person(s: Sentence, person: str) -> bool:
    """The sentence names the person by surname ("Roe joins from Globex"), by first name in a passage that gives the
    full one (a team page's bio: "Jane has led sales at Globex"), or as "he"/"she" right after a sentence naming
    them."""
    # As written: a name is capitalised ("Acme has long worked with Globex" is not on Jane Long).
    names = {person.split()[-1]} | ({person.split()[0]} if person in s.passage.text else set())
    if {w for w, _, _ in tokens_of(s.text)} & names:
        return True
    return bool(s.antecedent and _PERSONAL.match(s.text) and {w for w, _, _ in tokens_of(s.antecedent)} & names)


_PERSONAL = re.compile(r"[\"'“(]?(?:He|She)\b")


_ROUND_NAME = re.compile(r"\b(?:series\s+[a-h]|pre-seed|seed)\b", re.I)
_FUNDING_WORDS = re.compile(r"\b(?:round|financing|investment|funding|raised|raises|series\s+[a-h]|seed)\b", re.I)


def _about_the_subjects_funding(q: Question, s: Sentence) -> bool:
    return mentions_subject(q, s.text) or (_said_of_the_subject(q, s) and bool(_FUNDING_WORDS.search(s.text)))


def defines_subject(q: Question, s: Sentence) -> bool:
    """For a question on what the subject is or does: the sentence says what it is ("Acme is a robotics
    manufacturer", or a "Description: ..." line saying so)."""
    if not q.defining or not all(match_weight(t, reading_stems(q, s)) > 0 for t in q.terms if YEAR_RE.fullmatch(t)):
        return False  # "What kind of business was Acme in 2003?": what it is now does not say
    return defines(_value_of_line(s.plain), lambda phrase: _names_subject(q, phrase) and _headed_by_subject(q, phrase))


# Pronouns that may stand for anything before them ("It was a vital reminder that ..."); "we" is the company's own.
_VAGUE_PRONOUNS = frozenset("it this that they he she i you which who".split())


def _names_subject(q: Question, phrase: str) -> bool:
    return phrase.lower() not in _VAGUE_PRONOUNS and refers_to_subject(q, phrase)


def _headed_by_subject(q: Question, phrase: str) -> bool:
    """The phrase's last word, its head, is the subject's: a word of its name, a pronoun or "the company"; "OLS-2
    mentor" is a mentor, though it holds the subject's name."""
    words = [re.sub(r"['’]s$", "", w.lower()) for w, _, _ in tokens_of(phrase)]
    return bool(words) and (words[-1] in q.subject_terms or words[-1] == "we" or words[-1] in SELF_NOUNS
                            or words[-1] in LEGAL_SUFFIXES)


def _names_the_thing(q: Question, phrase: str) -> bool:
    """The phrase names the thing, as written or with more words ("The Acme Pay app"), apostrophes folded."""
    return any(f" {thing} " in f" {named} " for thing in name_keys(q.thing) for named in name_keys(phrase))


def _value_of_line(text: str) -> str:
    """A "Label: value" line's value; any other sentence as it is."""
    return text.split(":", 1)[1].strip() if LABEL_LINE.match(text) else text


# "What does Acme make?", "What did Acme build?": asked what the subject does, and the verb is all it asks.
_WHAT_IT_DOES = re.compile(r"^\s*what\s+(?:does|do|did)\s+(?P<doer>.+?)\s+(?P<verb>[a-z]+)\s*\?\s*$", re.IGNORECASE)


def _done_by_the_subject(q: Question) -> set[str]:
    """The stems of the verb a question asks the subject's object of ("What does Acme make?" -> make), or none."""
    asked = _WHAT_IT_DOES.match(q.text)
    if asked is None or not refers_to_subject(q, asked.group("doer")) or not _a_doers_words(asked.group("doer")):
        return set()
    return stems_of(asked.group("verb").lower()) & set(q.terms)


def _its_own_deed(q: Question, s: Sentence, done: set[str]) -> bool:
    """The subject does the asked verb in the sentence, or owns it as a noun ("Our offer includes ..."): "What does
    Acme offer?" is not answered by "We will send you an offer", nor "What does Acme make?" by "a hiring process that
    makes it easy for people to ..."."""
    # A labelled line's clause is parsed alone: "Description: Acme makes robots" ("Description" is no doer). "You" is
    # the reader a company's page addresses, never the company: "you make calls from any device" is the customer's deed.
    return stated_as_own(_value_of_line(s.plain), lambda word: bool(done & stems_of(word.lower())),
                         lambda phrase: phrase.lower() != "you" and refers_to_subject(q, phrase), deed=True)


def _a_doers_words(phrase: str) -> bool:
    """The words of a name, a pronoun or "the company": not "CBC air during the NHL", which the pattern takes for the
    doer of "What did CBC air during the NHL lockout?" (a verb and its phrase after the doer)."""
    words = phrase.split()
    return len(words) == 1 or all(w[:1].isupper() or w.lower() in ("the", "of", "and", "&")
                                  or bare(w.lower()) in SELF_NOUNS for w in words)


def _related_words_are_the_subjects(q: Question, s: Sentence) -> bool:
    """The terms the sentence states only by related words are the subject's: a noun or an adjective, or a main verb
    the subject does ("Acme makes robots"; not "while we build software")."""
    related = [t for t in q.terms if match_weight(t, s.stems) == RELATED_WEIGHT]
    if not related:
        return True
    return stated_as_own(s.plain, lambda word: any(match_weight(t, stems_of(word)) > 0 for t in related),
                         lambda phrase: refers_to_subject(q, phrase))


def _holds_asked_verb(q: Question, stems: set[str]) -> bool:
    """When the question asks what another body does with the subject ("What does Globex use Acme for?"), the
    sentence holds that verb (or a word of its relation): one on Globex alone says nothing of its use of Acme."""
    asked = asked_verb(q.text)
    if asked is None or not asked[1] or refers_to_subject(q, asked[1]):
        return True
    terms = [t for t in stems_of(asked[0]) if t in q.terms]
    return not terms or any(match_weight(t, stems) > 0 for t in terms)


def _holds_the_deed_asked(q: Question, stems: set[str]) -> bool:
    """Asked who did something ("Who leads the steering committee?"), the sentence holds that verb or another verb of
    the question (or a word of their relations): one that names the committee and a body beside it says nothing of
    who leads it; "Who runs Acme and who owns it?" is answered by who owns it."""
    if asked_party(q.text) is None:
        return True
    verbs = verb_terms(q)
    return not verbs or any(match_weight(t, stems) > 0 for t in verbs)


def _holds_the_place_verb(q: Question, s: Sentence) -> bool:
    """Asked where something other than being there happened ("In which state is Acme incorporated?", "Where was Acme
    founded?"), a postal address answers only in a sentence with that verb or a word of its relation: an address
    says where the company is, not where it was incorporated."""
    if q.kind != "place" or not holds_postal_address(s.plain):
        return True
    verbs = verb_terms(q) - _BEING_THERE
    return not verbs or any(match_weight(t, reading_stems(q, s)) > 0 for t in verbs)


_BEING_THERE = frozenset(stem(w) for w in "based headquartered located situated housed hq".split())


def _holds_the_verbs_asked_how(q: Question, stems: set[str]) -> bool:
    """Asked how something is done, the sentence holds the question's verbs that are key terms (or words of their
    relation), as the trained tagger reads them: the manner of paying is said where paying is."""
    if not q.text.lower().startswith("how "):
        return True
    verbs = verb_terms(q)
    return all(match_weight(t, stems) > 0 for t in verbs)


def _holds_asked_noun(q: Question, s: Sentence) -> bool:
    """The sentence holds the noun the question asks "which" or "what" of (or a word of its relation)."""
    noun = asked_noun(q.text)
    if noun is None or noun.lower() in _GENERIC_ASKED or stem(noun) in q.subject_terms:
        return True
    return any(match_weight(term, reading_stems(q, s)) > 0 for term in stems_of(noun))


LABEL_MIN_WORDS = 2  # "Legal name", "Jane Roe": a one-word label ("Note", "Acme") names too little


def names_the_label(q: Question, s: Sentence) -> bool:
    """A "Label: value" line (a facts list, an imprint, a team card) whose label the question names word for word
    ("What is the company's official legal name?" and "Legal name: Acme Inc."; "What is Jane Roe's title?" and
    "Jane Roe: Chief Executive Officer"): its value is what is asked. A value that ends in a colon is one more label,
    of a list that follows ("Acme Apps: Implementing solutions for:"), and states nothing."""
    label = LABEL_LINE.match(s.plain)
    if label is None:
        return False
    colon = s.plain.index(":")
    words = [w for w, _, _ in tokens_of(s.plain[:colon])]
    asked = stems_in(q.text)
    value = s.plain[colon + 1:].strip(" .;")
    # Asked what something does ("Which plan lets me use my own domain?"), the label alone ("Private plans: Free")
    # does not say it: the line holds the question's verbs too.
    verbs = verb_terms(q)
    return (len(words) >= LABEL_MIN_WORDS and all(stems_of(w) & asked for w in words)
            and bool(value) and not value.endswith(":") and all(match_weight(t, s.stems) > 0 for t in verbs))


def own_terms(s: Sentence, terms: Iterable[str]) -> set[str]:
    """The terms the sentence states in the question's own word (not by another word of their relation)."""
    return {t for t in terms if t in s.stems}


def _vote(weights: list[float]) -> float:
    best = max(weights)
    return best + AGREEMENT_WEIGHT * (sum(weights) - best)


def _dates_a_thing_of_its(q: Question, s: Sentence, span: Span) -> bool:
    """Asked when the company was founded, the date's verb has a thing or a person of the company's as its subject:
    "Acme's Berlin office was founded in 2019", "Acme's founder Jane Roe was born in 1980" (not "Acme's founding was
    in 2015"). Asked of other deeds, a thing of its may stand for the company ("our quality management system was
    certified in March 2024")."""
    doer = owned_doer(s.plain, span.start, span.start + len(span.text))
    if doer is None:
        return False
    head, owner = doer
    owners = {bare(w.lower()) for w, _, _ in tokens_of(owner)}
    own = set(q.subject_words) | set(q.subject_terms) | {"our"}  # ("its" may be another body's)
    return owners <= own and not any(match_weight(t, stems_of(head.lower())) > 0 for t in q.terms)


def _founds_a_thing_of_its(q: Question, s: Sentence) -> bool:
    """Asked of the company's founding, what the sentence's founding verb founds is a thing of the company's, as the
    parse reads its object: a phrase naming it (or "its", "our") whose head is a common noun that names no body
    ("Acme's Berlin office", "its first store"; not "Acme", "Acme Labs", "the company")."""
    founded = [obj for _, obj in predicate_subjects(s.plain, term_word(q, exact=True)) or [] if obj]
    return bool(founded) and all(_a_thing_of_the_subjects(q, obj) for obj in founded)


def _a_thing_of_the_subjects(q: Question, phrase: str) -> bool:
    words = [w for w, _, _ in tokens_of(phrase)]
    head = words[-1] if words else ""
    owned = mentions_subject(q, phrase) or bool({w.lower() for w in words} & {"its", "our"})
    return owned and head.islower() and head not in SELF_NOUNS and not refers_to_subject(q, head)


def _asks_a_change(q: Question) -> bool:
    """The question asks of a change in a count or an amount: by its verb ("How many people did Acme hire?", "How
    many customers did Acme gain?") or by how much."""
    counted, level = changes()
    return bool(question_verb_keys(q.text) & (counted | level)) or bool(_CHANGE_ASKED.search(q.text))


_CHANGE_ASKED = re.compile(r"\bby how (?:much|many)\b|\bhow many more\b|\bhow much more\b", re.IGNORECASE)


def _counts_a_change(q: Question, s: Sentence, span: Span) -> bool:
    """The count or amount is a change's: a count is the object of a deed that changes a count ("Acme hired 20
    employees last year", "lost 500 customers"; an amount may be a deed's price: "acquired Initech for $5 million"),
    or an amount or count follows "by" after a level's change ("revenue fell by $2 million"), as the trained parser
    reads it; not how many there are or how much it is."""
    counted, level = changes()
    counted = counted if q.kind == "number" else frozenset()
    if not s.stems & {key.split()[0] for key in counted | level}:
        return False  # (the parse only where a word of a change is written)
    end = span.start + len(span.text)
    taker = taken_by_verb(s.plain, span.start, end)
    if taker is not None and keys_of_verbs([taker]) & counted:
        return True
    return bool(keys_of_verbs(value_verbs(s.plain, span.start, end)) & level) and after_by(s.plain, span.start, end)


def _asks_what_is_or_was(q: Question) -> bool:
    """The question asks what is or what happened ("When did Acme launch ...?", "How many people does Acme
    employ?"), not what will be, nor a price, a cost, a hire or a contact (told as well ahead: "will cost $349")."""
    return q.kind not in _TOLD_AHEAD and not asks_a_price(q) and not _FUTURE_QUESTION.search(q.text)


# Kinds whose values are stated ahead as facts: a contact, an identifier, and a hire ("Jane Roe will join Acme as
# its first CPO" announces who was hired).
_TOLD_AHEAD = frozenset({"contact", "identifier", "person"})


_FUTURE_QUESTION = re.compile(r"\b(?:will|shall|going\s+to)\b", re.IGNORECASE)


def _said_of_the_past(q: Question, s: Sentence) -> bool:
    """The sentence sets the question's predicate in the past ("was previously headquartered in Boston", "our former
    office at ..."): asked how things are, it says how they were."""
    return said_of_the_past(s.plain, term_word(q))


def _states_directly(q: Question, s: Sentence) -> bool:
    """The sentence holds every key term, its subject is the question's, and a value sits near the predicate."""
    return s.coverage == 1.0 and s.role == 2 and nearest_span(q, s)[1] <= RIVAL_DISTANCE


def _outdated_by_a_later_page(q: Question, best: Sentence, span: Span, candidates: list[Sentence]) -> bool:
    """The chosen sentence is on a dated page, and another sentence about the subject holding every key term gives
    another value near them on a newer page (a later post, or a fact page read as it stands now): asked how things
    are, the older one most likely holds no longer. (:func:`_newest_statement` gives the newer one where it is
    stated as directly; this withholds the older one where the newer only mentions the subject: "480,000 customers
    use Acme".)"""
    said = said_on(best)
    if said is None:
        return False
    return any(s.coverage == 1.0 and s.about_subject and (said_on(s) or date.min) > said
               and (nearest := nearest_span(q, s))[1] <= RIVAL_DISTANCE and not _same_value(nearest[0].key, span.key)
               for s in candidates if s.spans)


def _newest_statement(q: Question, best_key: str, candidates: list[Sentence], support: dict[str, list[Sentence]]) -> str:
    """Of two values stated as directly, the one a newer page states: a 2021 press item's "our CEO, Jane Roe" says
    who led the company then, the about page read today (or a 2024 post) who leads it now. Only where every
    statement of the chosen value is dated (:func:`said_on`) and older; the older value stays a rival, so
    the newer one is never given with ``high`` confidence."""
    held = [said_on(s) for s in support[best_key]]
    dated = [when for when in held if when is not None]
    if not dated or len(dated) < len(held):
        return best_key
    newer = [s for s in candidates if (said_on(s) or date.min) > max(dated)
             and _states_directly(q, s) and not _same_value(nearest_span(q, s)[0].key, best_key)]
    if not newer:
        return best_key
    return nearest_span(q, max(newer, key=lambda s: (said_on(s), s.score)))[0].key


def _current(q: Question, keys: set[str], best: Sentence, candidates: list[Sentence]) -> set[str]:
    """The values of ``keys`` that still rival the chosen sentence's: asked how things are, not those only outdated
    statements give (:func:`_outdated`)."""
    return {key for key in keys if not _outdated(key, best, candidates)} if asks_present(q) else keys


def _outdated(key: str, best: Sentence, candidates: list[Sentence]) -> bool:
    """Every statement of the value ``key`` is dated before the chosen sentence's page: "From this month, the team can
    be found at ..." in a 2016 post, beside the contact page read today (asked how things are, a past address)."""
    dated = [s.passage.as_of for s in candidates if any(span.key == key for span in s.spans)]
    return (best.passage.as_of is not None and bool(dated)
            and all(when is not None and when < best.passage.as_of for when in dated))


def _most_precise(key: str, votes: dict[str, float], support: dict[str, list[Sentence]]) -> str:
    """For a date: the fullest date the chosen one agrees with, from a sentence that holds as much of the
    question as the chosen one's. "When was it incorporated?" read "2013" in one sentence and "May 24, 2013:
    Acme is incorporated" in another: both say 2013, and the question asks for the day. "When did Acme start
    Widget?" read "Widget started in 2020": "December 18, 2020: Gadget starts ..." is another event.
    For the founders, the fullest list: "Jane Roe - Co-founder and CEO" names one of them, "Acme was founded in
    2011 by Jane Roe and John Doe" both."""
    coverage = max(s.coverage for s in support[key])
    finer = [k for k in votes if len(k) > len(key) and _same_value(k, key) and max(s.coverage for s in support[k]) >= coverage]
    if not finer and _month_of(key):  # "founds USDS in August" and "in August of 2014": the same month, with its year
        finer = [k for k in votes if k[:4].isdigit() and k[5:7] == f"{_month_of(key):02d}"]
    return max(finer, key=lambda k: votes[k]) if finer else key


_MONTH_NUMBERS = {name.lower(): number for number, name in enumerate(MONTHS.split("|"), start=1)}


# Words before a count that make it a bound or an estimate ("more than thirty people", "nearly 200 staff"), and the
# way each bounds the true count: above (+1), below (-1) or around it (0).
_BOUND_BEFORE = re.compile(
    r"\b(?:(?P<above>(?:more|greater)\s+than|over|at\s+least|upwards\s+of|well\s+over|in\s+excess\s+of)"
    r"|(?P<below>(?:fewer|less)\s+than|under|almost|nearly|up\s+to|just\s+under)"
    r"|(?P<around>about|around|approximately|roughly|some|close\s+to|an\s+estimated))\s+$", re.IGNORECASE)
ESTIMATE_SHARE = Decimal("0.2")  # how far from an estimate ("about 30") an exact count may be and still agree with it


def _bound_of(sentence: str, span: Span) -> int | None:
    """How the sentence bounds the count at ``span``: +1 for at least ("more than thirty", "30+"), -1 for at most
    ("nearly 40"), 0 for about ("around 30"); None for a count given exactly."""
    if _with_a_plus(sentence, span):
        return 1
    match = _BOUND_BEFORE.search(sentence[max(0, span.start - 24):span.start])
    if match is None:
        return None
    return 1 if match.group("above") else -1 if match.group("below") else 0


def _exact_within_the_bound(key: str, votes: dict[str, float], support: dict[str, list[Sentence]],
                            nearest: dict[int, tuple[Span, int]]) -> str:
    """For a count given as a bound or an estimate ("a team of more than thirty people"): an exact count of the same
    noun that agrees with it ("a team of 34 people"), as a date's fullest form is taken (:func:`_most_precise`).
    ``nearest``: each supporting sentence's value, as the vote read it."""
    bounded = _bounded_count(support[key], nearest)
    if bounded is None:
        return key
    exact = [other for other in votes if other != key
             and any(_agrees(s, nearest[id(s)][0], *bounded) for s in support[other])]
    return max(exact, key=lambda k: votes[k]) if exact else key


def _agrees(s: Sentence, span: Span, bound: Decimal, noun: frozenset[str], way: int) -> bool:
    """The sentence, about the subject, gives an exact count of ``noun`` at ``span`` within the bound ("34" for "more
    than 30")."""
    value = number_value(span.text)
    if value is None or _bound_of(s.plain, span) is not None or not s.about_subject:
        return False
    within = value >= bound if way > 0 else value <= bound if way < 0 else abs(value - bound) <= bound * ESTIMATE_SHARE
    return within and _counted_stems(s.plain, span) == noun


def _bounded_count(sentences: list[Sentence],
                   nearest: dict[int, tuple[Span, int]]) -> tuple[Decimal, frozenset[str], int] | None:
    """The bound, the stems of the noun it counts and its way, from the best statement of a value, if bounded."""
    for s in sentences:
        span = nearest[id(s)][0]
        way, value = _bound_of(s.plain, span), number_value(span.text)
        if way is not None and value is not None and (noun := _counted_stems(s.plain, span)):
            return value, noun, way
    return None


def _counted_stems(sentence: str, span: Span) -> frozenset[str]:
    noun = counted_noun(sentence, span.start, span.start + len(span.text))
    return frozenset(stems_of(noun)) if noun else frozenset()


def _month_of(key: str) -> int:
    """The month a yearless date's key names ("late june" -> 6), else 0."""
    return next((_MONTH_NUMBERS[w] for w in key.split() if w in _MONTH_NUMBERS), 0)


def _states_a_term(q: Question, s: Sentence) -> bool:
    if q.kind not in ("year", "date", "duration", "number", "money") or not q.terms:
        return True
    if any(match_weight(t, reading_stems(q, s)) == 1.0 for t in q.terms):
        return True  # in its own words, or so read ("Jane Roe started Acme in 2014" states when Acme was founded)
    # "UNFPA began operations in 1969", "ABC originally launched on October 12, 1943": a related word of the
    # question's predicate, in a sentence about the subject, just before the value (never more than low).
    # "made up of 164 people": for a count, the related word is the noun it counts.
    return s.about_subject and any(_related_just_before(q, s.plain, span)
                                   or (q.kind == "number" and _counts_a_related_word(q, s.plain, span)) for span in s.spans)


def _related_just_before(q: Question, sentence: str, span: Span, reach: int = 5) -> bool:
    before = [w for w, _, end in tokens_of(sentence[:span.start])][-reach:]
    return any(match_weight(t, stems_of(w)) == RELATED_WEIGHT for w in before for t in q.terms)


def _same_value(a: str, b: str) -> bool:
    """'portland place' and '66 portland place london' name one place; '2013-05-24' and '2013' one date."""
    wa, wb = set(re.split(r"[\s-]+", a)), set(re.split(r"[\s-]+", b))
    return wa <= wb or wb <= wa


def _agent_of(q: Question, sentence: str, span: Span, least: float = 1.0) -> bool:
    """A name in the 'by ...' phrase of the question's predicate: "founded in 1899 by a group of players led by Jane Roe";
    with ``least`` at the related weight, of a related word too ("was started by Jane Roe")."""
    if q.kind not in ("person", "org"):
        return False
    tokens = tokens_of(sentence[:span.start])
    for i in range(len(tokens) - 1, max(-1, len(tokens) - 25), -1):
        if any(match_weight(t, stems_of(tokens[i][0])) >= least for t in q.terms):
            after = sentence[tokens[i][2]:span.start]
            return bool(re.search(r"\bby\b", after)) and not re.search(r"[.;:]", after)
    return False


def _confidence(q: Question, best: Sentence, span: Span, far: int, candidates: list[Sentence], best_key: str) -> Judgement:
    if q.kind != "boolean" and denied(best.plain, span.start, span.start + len(span.text)):
        return "low"  # "Jane Roe is not the CEO of Acme", "Acme was almost acquired by Globex": the value denied
    if q.kind == "place" and asks_present(q) and left_behind(best.plain, span.start, span.start + len(span.text)):
        return "low"  # "Acme moved out of its Boston headquarters": where it was
    if (q.kind == "text" or _another_time(q, best.plain.replace(span.text, " ")) or _then_not_now(q, best)
            or _misses_the_ordinal(q, best) or _another_of_its_kind(q, best)):
        return "low"
    if q.kind == "number" and counts_each_of_many(best.plain, span.start, span.start + len(span.text)):
        return "low"  # "companies with more than 10,000 employees": each customer's staff, not the subject's
    if q.kind == "number" and bounds_a_range(best.plain, span):
        return "low"  # "between 50 and 60 people": either end given as the count would be wrong
    if q.kind == "number" and asks_headcount(q) and _held_by_a_named_part(q, best, span):
        return "low"  # "Our Berlin office has 25 employees": the office's staff, not the company's
    if asks_present(q) and _outdated_by_a_later_page(q, best, span, candidates):
        return "low"  # "Acme now has 200,000 customers" in a 2016 post, beside "480,000 customers use Acme" today
    if q.cumulative and TOTAL.search(q.text) and _ONE_ROUND.search(best.plain) and not TOTAL.search(best.plain):
        return "low"  # asked the total raised: "raised $5 million in seed funding in 2019" gives one round
    if q.kind in ("person", "org") and not _holds_the_deed_asked(q, best.stems):
        return "low"  # "Who leads the steering committee?": "governed by the Board and its steering committee"
    if q.kind in ("year", "date") and asks_the_founding(q) and _founders_only(best.plain):
        return "low"  # "In 2015 Acme's founders were still at university": the founders, not the founding, dated
    if asks_the_founding(q) and _founds_a_thing_of_its(q, best):
        return "low"  # "Jane Roe, who founded Acme's Berlin office in 2018": the office's founding
    if _asks_an_address(q) and not any(c.isdigit() for c in _given(q, best, span)):
        return "low"  # "San Francisco" is where the address is, not the address: a street or a postcode is asked
    if (asks_its_price(q) and best.passage.own_site and priced_per_period(best.plain, span)
            and all(t == "per" or match_weight(t, best.stems) > 0 for t in q.terms)  # "a month" for "per month"
            and not best.negated and not _another_price(q, best, span, candidates)):
        return "medium"  # "Every account costs a flat 5 euros a month" on Acme's site: what Acme costs, whoever "costs"
    roles = asked_roles(q, best.plain, span)
    # (Those counted do to the company what the question counts them by: "2,000 companies pay for Acme", asked its
    # paying customers, are no other body acting.)
    if ((best.role == 1 and another_acts(q, best) and not _counts_the_asked_doers(q, best.plain, span))
            or another_holds_role(roles, q) or _done_by_another(q, best, span)):
        return "low"
    if apart_from_the_asked_role(q, best.plain, span):
        return "low"  # "Jane Roe interviewed Acme's CEO", "..., replacing Jane Roe": not who holds the role
    if _the_owned_side(q, best.plain, span):
        return "low"  # "Initech is a subsidiary of Acme": Initech is owned, not the owner asked
    if q.kind == "place" and _places_a_thing_of_the_subject(q, best):
        return "low"  # "Acme's servers are located in Frankfurt": where its servers are, not where it is
    if _told_of_another_body(q, best, span) or _done_by_a_tied_party(q, best):
        return "low"  # "Acme helped Globex raise $20 million", "Acme helps Globex, a company with 5,000 employees"
    # A rival: another sentence about the subject that states a different value as directly.
    rivals = {key for key in (nearest_span(q, s)[0].key for s in candidates if _states_directly(q, s))
              if not _same_value(key, best_key)}
    direct = best.coverage == 1.0 and best.about_subject and bool(q.terms)
    # A body set in the asked relation as the subject's ("Globex, our fiscal host") is tied to it by the parse.
    tight = tightly_linked(q, best.plain, span) or (q.relation is not None and holds_subjects_role(roles, q, best))
    if q.kind == "boolean":  # "Is Acme a public company?": not "Acme helps agencies deliver better public services"
        return "medium" if direct and not rivals and not _asked_adjectives_on_other_nouns(q, best) else "low"
    if priced_for_the_item(q, best.plain, span) and best.about_subject and not rivals and not best.negated:
        return "medium"  # "Professional runs $49 monthly" on Acme's pricing page, asked for its Professional plan
    if q.kind == "identifier" and _another_bodys_value(q, best.plain, span):
        return "low"
    if q.kind in ("contact", "identifier"):
        # An e-mail address, a phone number or a labelled identifier ("EIN 12-3456789") states its own kind: the
        # question's other words ("use", "reach") need not be there, only the subject, and no sentence about it that
        # holds as much of the question may give another one (a contact page's addresses each serve a purpose: "the
        # business development team" picks one).
        # A namesake's identifier ("Acme Productivity Ltd, company number ...", a subsidiary's) is another body's.
        others = {s.spans[0].key for s in candidates
                  if s.about_subject and s.coverage >= best.coverage and _named_beyond_its_contacts(q, s)
                  and not (q.kind == "identifier" and led_by_a_namesake(q, s.plain))} - {best_key}
        several = {other.key for s in candidates if s.about_subject for other in s.spans} - {best_key}
        if (q.kind == "contact" and _purpose_unsaid(q, best) and not _mailbox_for_the_purpose(q, span)
                and (several or _given_for_another_thing(q, best) or _mailbox_for_another_purpose(q, span))):
            return "low"  # "the legal team's e-mail": "questions for the People Team: email people@..." is another's
        return "medium" if best.about_subject and not others and not best.negated else "low"
    if q.kind == "licence":
        # A licence's name states its own kind, like an e-mail address: the sentence need only be the subject's (or
        # the asked thing's), with no other licence said of it as directly, unless every statement of that one is
        # older than this one (the code was relicensed).
        licences = {other.key for s in candidates if s.about_subject and s.coverage >= best.coverage
                    for other in s.spans if not _same_value(other.key, best_key)}
        others = _current(q, licences, best, candidates)
        thing = _licensed_thing(q)  # "its design system": the company's own licence is another thing's
        holds_thing = all(match_weight(t, best.stems) > 0 for t in thing)
        return "medium" if best.about_subject and holds_thing and not others and not best.negated else "low"
    if q.kind == "place" and is_postal_address(span.text) and (_another_bodys_value(q, best.plain, span)
                                                                or _FORMER_PREMISES.search(best.plain[:span.start])):
        return "low"  # "run by Globex GmbH, Industriestr. 25, ...", "Our old office at 5 Mill Lane, ..."
    if q.kind == "place" and is_postal_address(span.text):
        # A whole postal address states its own kind, like an e-mail address: the sentence need only be the
        # subject's ("Acme GmbH, Hafenstraße 12, 20457 Hamburg"), with no other address of it among the candidates.
        addresses = {s.key for c in candidates if c.about_subject for s in c.spans
                     if is_postal_address(s.text) and not _same_value(s.key, best_key)}  # "..., USA" is the same one
        others = _current(q, addresses, best, candidates)
        if (best.role == 2 or _addressed_to_the_subject(q, best.plain, span)) and not others and not best.negated:
            return "medium"
    # Values the parse set aside still count here: that they sit in another clause is a judgement, not a certainty.
    every = best.spans + best.set_aside
    keys = {s.key for s in every}
    unique = len(keys) == 1 or (tight and not any(tightly_linked(q, best.plain, s) for s in every if s.key != span.key))
    if direct and unique and not rivals and tight and best.role == 2 and not best.negated:
        # "was not founded in 1949" ties 1949 to the predicate too, to deny it. A date without its year ("late
        # June") is half an answer: medium at most.
        if (q.kind == "date" and is_yearless(span)) or (_asks_now(q) and told_in_the_past(best.plain)):
            return "medium"  # a past-tense sentence says who held a role then, not who holds it now
        if count_of_us(best.plain, span):
            return "medium"  # "There are 16 of us" counts the writers: staff, most likely, not said to be
        if q.kind in ("year", "date") and _dated_by_reference(q, best.plain, span) and not _hangs_on_a_term(
                q, best.plain, span):
            return "medium"  # "... that summer": the date of another clause, read as this one's
        if q.kind == "place" and _another_address(best, span, candidates):
            return "medium"  # "Our head office is in Victoria" beside a postal address in Halifax: said, not alone
        return "high"
    if direct and not rivals and not best.negated and placed_by_definition(q, best.plain, span):
        return "medium"  # "MarsBased is a consultancy from Barcelona": where it is from, not said to be its base
    if direct and (tight or far <= 4 or (_agent_of(q, best.plain, span) and not rivals and not best.negated)
                   or (holds_subjects_role(roles, q, best) and not rivals and not best.negated)
                   or _dates_its_beginning(q, best.plain, span)):
        return "medium"  # the agent of a passive predicate: "was founded in 2011 in Portland, Oregon, by Jane Roe"
    if (best.role == 2 and not rivals and not best.negated and all(match_weight(t, best.stems) > 0 for t in q.terms)
            and _agent_of(q, best.plain, span, least=RELATED_WEIGHT)):
        return "medium"  # the subject's own passive predicate, in a related word: "Acme was started by Jane Roe"
    if q.kind == "place" and _another_address(best, span, candidates):
        return "low"
    if _labelled(q, best, span) and not rivals and (unique or q.kind == "place"):
        return "medium"  # a place's parts ("48 Quay Street, Bristol", "United Kingdom") are one labelled value
    if best.coverage >= 0.5 and best.about_subject and tight and not rivals and _holds_every_role_word(q, best):
        return "medium"
    # Near the question's words, with nothing read against it (no rival, no negation): whether the sentence says what
    # is asked is left to a judge of meaning (cikb.answer.reader.read). A value further away is more often another
    # clause's: on SQuAD's company articles (bench/reader_squad.py --meaning --every 2) the values the judge let
    # through were right 27 of 33 within NEAR tokens with no rival or negation (medium's own: 79%), 32 of 43 without
    # those conditions.
    return "untied" if far <= NEAR and not rivals and not best.negated else "low"


# Words of a licence question that name no licensed thing: the product's own code is the product ("What licence
# is the Acme source code released under?" is answered by "Acme is licensed under the AGPL").
_LICENSING_STEMS = frozenset(stem(w) for w in """licence license licensed released release published publish
    offered available distributed source code codebase software open""".split())


def _licensed_thing(q: Question) -> list[str]:
    """The question's words for the thing whose licence it asks ("design system", "client libraries")."""
    return [t for t in q.terms if t not in _LICENSING_STEMS]


def _another_price(q: Question, best: Sentence, span: Span, candidates: list[Sentence]) -> bool:
    """Another price for a period among the candidates (a second plan, an older price): which one is asked is not
    known."""
    return any(priced_per_period(s.plain, other) and not _same_value(other.key, span.key)
               for s in candidates for other in s.spans)


def _addressed_to_the_subject(q: Question, sentence: str, span: Span) -> bool:
    """The address follows the subject's own name, as a letter is addressed: "Paper mail reaches us at Acme, Inc.,
    1 Main St, Springfield, IL 62701"."""
    head = re.split(r"\b(?:at|to|is|are)\s|:", sentence[:span.start])[-1]
    words = [w.lower() for w, _, _ in tokens_of(head)]
    return bool(words) and all(w in q.subject_terms or w in LEGAL_SUFFIXES for w in words)


def _named_beyond_its_contacts(q: Question, s: Sentence) -> bool:
    """The sentence is the subject's in more than its contacts' domain, by its name or as "we"/"our":
    "+1 555 0100, jo.roe@acme.com" (a person's line in a press release) names Acme only in the address, and does
    not rival Acme's own "Tel.: ..." line."""
    if s.role == 2 or q.kind != "contact":
        return True
    words = without_web_addresses(s.plain)
    return in_the_first_person(words) or mentions_subject(q, words)


def _holds_every_role_word(q: Question, s: Sentence) -> bool:
    """Asked who holds a role, the sentence holds each of the question's words (or a word of its relation): "Jane
    Roe: CEO" does not say who the chief of staff is, nor who the first CEO was. (A year asked of may be the page's
    date: "Who was Acme's CEO in 2019?" is answered by a 2019 post that names no year.) Asked for a person by
    another noun, it holds that noun: "the first GPU-enabled hub" names no first engineer."""
    if q.kind != "person":
        return True
    if not q.officer:
        noun = person_noun(q.text)
        return noun is None or match_weight(stem(noun), s.stems) > 0
    words = [t for t in q.terms if not t.isdigit()]
    return all(match_weight(t, s.stems) > 0 for t in words)


def _given_for_another_thing(q: Question, s: Sentence) -> bool:
    """Besides the contact's own words, the subject and its addresses, the sentence names a thing the contact is
    for, as the trained tagger reads its nouns: "send a photo of the receipt to admin@..." is for receipts."""
    own = contact_stems(q) | {"us"}
    nouns = [w for w, kind in word_classes(without_web_addresses(s.plain)) if kind in ("noun", "modifier")
             and w[:1].islower() and not stems_of(w.lower()) & own and not mentions_subject(q, w)]
    return bool(nouns)


# Mailboxes named for what they serve: RFC 2142's role mailboxes and those companies commonly add.
_ROLE_MAILBOXES = frozenset("""billing accounts accounting invoices finance sales press media pr jobs careers hr
    recruiting privacy dpo gdpr legal security abuse support help helpdesk orders partners partnerships marketing
    webmaster postmaster hostmaster noc donations sponsors""".split())


def _mailbox_for_another_purpose(q: Question, span: Span) -> bool:
    """The e-mail address's mailbox is named for a purpose the question does not ask for: "billing@" asked for the
    support address."""
    box = _mailbox(span)
    return box in _ROLE_MAILBOXES and not any(match_weight(t, stems_of(box)) > 0 for t in q.terms)


def _mailbox(span: Span) -> str:
    """The mailbox of an e-mail address ("support" of support@acme.example), lowercased; "" for any other value."""
    return span.text.split("@")[0].lower() if "@" in span.text else ""


def _mailbox_for_the_purpose(q: Question, span: Span) -> bool:
    """The e-mail address's mailbox is named for a purpose the question names: "support@" asked for the customer
    support address, whatever words the sentence around it uses ("reach our support team at support@...")."""
    box = _mailbox(span)
    return bool(box) and any(match_weight(t, stems_of(box)) == 1.0 for t in _purpose_stems(q))


_REACHING = frozenset({"use", "send", "reach", "contact", "write", "call", "email", "e-mail"})
# What anyone sends to any contact: "general support questions" are for support, as "general inquiries" are.
_ASKING = frozenset(stem(w) for w in "question questions inquiry inquiries enquiry enquiries query queries".split())


def _purpose_unsaid(q: Question, s: Sentence) -> bool:
    """A contact question names what the contact is for by its nouns and adjectives besides the contact's own words
    ("the legal team's e-mail address", "the press contact"); the sentence does not hold one of them. (Where the
    company gives one address, that one serves every purpose.) A verb of reaching it names no purpose, where the
    tagger takes it for a noun ("What address should law enforcement use to send ...?")."""
    named = _purpose_stems(q)
    stems = reading_stems(q, s)
    return any(t in named and match_weight(t, stems) == 0 for t in q.terms)


def _purpose_stems(q: Question) -> set[str]:
    """The stems of the question's nouns and adjectives besides a contact's own words and a verb of reaching it."""
    return {t for word in nominal_words(q.text) for t in stems_of(word)} - _REACHING - _ASKING


_NOW = frozenset({"current", "currently", "now", "today", "presently"})


def _asks_now(q: Question) -> bool:
    """The question asks how things are now: "Who is the current head of ...?", "Where is Acme based now?"."""
    return bool(_NOW & {w.lower() for w, _, _ in tokens_of(q.text)})


def _then_not_now(q: Question, s: Sentence) -> bool:
    """Asked how many there are now, a sentence in the past tense dated by a year gives how many there were then:
    "In 2003, 37signals was a firm made up of 4 people", "Only about 1,200 customers signed up in that year". Not
    an amount: a year's revenue is told in the past ("Revenue was $3.2 billion in 2025") and is what is asked."""
    return (q.kind == "number" and asks_present(q) and told_in_the_past(s.plain)
            and bool(YEAR_RE.search(s.plain) or _THAT_YEAR.search(s.plain)))


# A year named without its number: "that year", "last year", "the same year", "by the end of the year".
_THAT_YEAR = re.compile(r"\b(?:that|last|the(?:\s+\w+)?)\s+year\b", re.IGNORECASE)


_ORDINALS = frozenset(stem(w) for w in "first last latest previous former original inaugural founding".split())
_SERIES_STEMS = _ORDINALS | {stem("current"), stem("new")}  # words placing a thing in a series: "its current office"


def _misses_the_ordinal(q: Question, s: Sentence) -> bool:
    """The question asks for one of a series by its place ("Who was Acme's first executive director?"); a card of
    a list of holders without that word tells one of them, not which ("Jose Calderon: Executive Director 2023-11-09
    - 2026-06-30"). (A sentence may still: "Acme launched in 2014" answers when it first launched, most often.)"""
    asked = _ORDINALS & set(q.terms)
    return (bool(asked) and bool(LABEL_LINE.match(s.plain))
            and not any(match_weight(t, reading_stems(q, s)) > 0 for t in asked))


def _another_of_its_kind(q: Question, s: Sentence) -> bool:
    """The question describes a thing of the subject's ("Acme's free plan") that the sentence names without the
    question's words: "the Basic plan covers up to 1,000 subscribers" tells of another plan, "Plans start at $19"
    of none in particular. Not an identifier's name: the identifier reader matched one of its names ("Unique Entity
    Number" is Singapore's company registration number)."""
    if q.kind == "identifier":
        return False
    said = {stem(noun): words for noun, words in noun_modifiers(s.plain).items()}
    things = {stem(thing.lower()) for thing in asked_things(q)}
    for noun, words in noun_modifiers(q.text).items():
        # The key terms among them ("free"; not "many", "Acme"), and a word placing it in a series ("its current
        # office": "its first office" is another).
        asked = stems_in(" ".join(words)) & (set(q.terms) | _SERIES_STEMS)
        if q.kind == "licence":  # "Acme's source code" names no one part of it: "its server code" is the same code
            asked -= _LICENSING_STEMS
        if stem(noun) not in things or not asked or any(match_weight(t, s.stems) > 0 for t in asked):
            continue
        other = said.get(stem(noun), frozenset())
        if (other and not any(refers_to_subject(q, w) for w in other)) or _only_in_plural(noun, s.plain):
            return True
    return False


def _only_in_plural(noun: str, sentence: str) -> bool:
    """Asked of one ("its Pro plan"), the sentence names the noun only in the plural: "Plans start at $19"."""
    written = {w.lower() for w, _, _ in tokens_of(sentence) if stem(w.lower()) == stem(noun)}
    return bool(written) and noun.lower() not in written and all(w.endswith("s") for w in written)


def _another_time(q: Question, sentence: str) -> bool:
    """A question that names a year asks about that year: a sentence dated only by other years (the value aside)
    is about another time ("Who did The Sun endorse in 2005?" is not answered by "It supported Labour in the 1970
    election")."""
    asked = set(YEAR_RE.findall(q.text))
    written = set(YEAR_RE.findall(sentence))
    # A release is a time too: "by the time of the 2.0 release" is not answered by "A 1.0 release ... after ...".
    releases, released = versions_in(q.text), versions_in(sentence)
    return bool(asked and written and not asked & written) or bool(releases and released and not releases & released)


def _undated_for_the_year_asked(q: Question, s: Sentence) -> bool:
    """A question that names a year asks how things were then ("How much did Acme receive in donations in 2024?"):
    a sentence naming no year is dated by the last year its passage names before it (the paragraph's time: "In
    1949 ... . It had nine affiliates"), else by its page's date in the markup; dated otherwise, or not at all, it
    does not say that its value held then (a 2023 post's "$10 million donation"). A sentence naming other years is
    read with low confidence (_another_time)."""
    asked = set(YEAR_RE.findall(q.text))
    if not asked or q.kind in ("year", "date", "duration") or YEAR_RE.search(s.plain):
        return False
    at = s.passage.text.find(s.text[:80])
    earlier = YEAR_RE.findall(s.passage.text[:at]) if at > 0 else []
    if earlier:
        return earlier[-1] not in asked
    return s.passage.as_of is None or str(s.passage.as_of.year) not in asked


def another_acts(q: Question, s: Sentence) -> bool:
    """Each verb of the question's predicate in the sentence has another body as its subject, as the trained parser
    reads it, and the question's subject neither acts nor undergoes it: "Globex was founded in 1999 and bought its
    first Acme licence in 2016" mentions Acme but dates Globex's founding."""
    found = predicate_subjects(s.plain, term_word(q, exact=True))
    if not found or any(refers_to_subject(q, subject) or refers_to_subject(q, obj) for subject, obj in found):
        return False
    if any(_is_the_asked_thing(q, subject) for subject, _ in found):
        return False  # "The round was led by ..." asked who led Acme's round: the round is Acme's
    # Unless the question asks what others did ("How many people have contributed to Acme?"): its own verb's
    # subject is not the company either.
    asked = predicate_subjects(q.text, term_word(q, exact=True))
    if asked and _the_asked_part(q, [subject for subject, _ in asked], [subject for subject, _ in found]):
        return False
    return not asked or any(refers_to_subject(q, subject) for subject, _ in asked)


_OWN_POSSESSIVE_WORDS = frozenset({"our", "its", "their"})


def _places_a_thing_of_the_subject(q: Question, s: Sentence) -> bool:
    """Each verb of the question's predicate ("located", "based") has for its subject a thing the company owns, named
    by a noun that is none of the question's words: "Acme's servers are located in Frankfurt", "Our warehouse is
    based in Leeds" place them, not the company ("Acme's headquarters are located in Chicago" places what is asked)."""
    found = predicate_subjects(s.plain, term_word(q, exact=True))
    return bool(found) and all(_a_thing_of_the_subject(q, subject) for subject, _ in found)


def _a_thing_of_the_subject(q: Question, phrase: str) -> bool:
    words = [w for w, _, _ in tokens_of(phrase)]
    if len(words) < 2:
        return False
    owner, head = words[0].lower(), words[-1].lower()
    owned = owner in _OWN_POSSESSIVE_WORDS or (owner.endswith(("'s", "’s")) and refers_to_subject(q, bare(owner)))
    return (owned and bare(head) not in SELF_NOUNS and not refers_to_subject(q, head)
            and not any(match_weight(t, stems_of(head)) > 0 for t in q.terms))


_FOUNDERS = re.compile(r"^(?:co-?)?founders?$", re.IGNORECASE)


def _founders_only(sentence: str) -> bool:
    """The sentence's only word of founding (or of a beginning: "started the company") names the people who founded
    ("founder", "co-founders"), no founding."""
    founding = [w for w, _, _ in tokens_of(sentence) if match_weight("found", stems_of(w.lower())) > 0]
    return bool(founding) and all(_FOUNDERS.match(w) for w in founding)


def _done_by_a_tied_party(q: Question, s: Sentence) -> bool:
    """Each verb of the question's predicate has for its subject a body named by its tie to the company, as the
    parse reads it: "Acme helped its customers raise $50 million", "Acme's users have raised $100 million for
    charity" tell what they did, not the company (unless the question asks of them)."""
    found = predicate_subjects(s.plain, term_word(q, exact=True))
    return bool(found) and all(ties_another_party(q, subject) for subject, _ in found)


def _the_asked_part(q: Question, asked: list[str], found: list[str]) -> bool:
    """The question asks of a part of the subject ("Where is the Acme engineering team based?") and the sentence's
    doer is that part by its head noun ("Acme has an engineering team based in Leeds"): the subject's, not another's."""
    heads = {words[-1].lower() for subject in asked if (words := subject.split())
             and not refers_to_subject(q, words[-1])}
    return any(subject.split()[-1].lower() in heads for subject in found if subject.strip())


def _done_by_another(q: Question, s: Sentence, span: Span) -> bool:
    """In a sentence that does not name the subject (about it by a pronoun, or by its page), the verb the value
    modifies is the question's predicate and the parse names another body as its doer, the subject neither doing
    nor undergoing it: "When Healthcare.gov launched in 2013, it crashed" dates Healthcare.gov's launch."""
    if not q.subject_words or mentions_subject(q, s.plain):
        return False
    parties = governing_parties(s.plain, span.start, span.start + len(span.text))
    if parties is None or not parties[1]:
        return False
    verb, doer, done = parties
    ours = doer.lower().split()[0] in FIRST_PERSON  # "our data pipelines have identified ...": the company's own
    return (any(match_weight(t, stems_of(verb.lower())) == 1.0 for t in q.terms) and not ours
            and not refers_to_subject(q, doer) and not (done and refers_to_subject(q, done))
            and not _is_the_asked_thing(q, doer))  # "The Growth plan costs $9": the plan asked of


# Kinds whose value is itself a body or is read by rules of its own (a role's holder, an identifier's name).
_BODY_KINDS = frozenset({"person", "org", "text", "identifier", "licence", "boolean"})


def _told_of_another_body(q: Question, s: Sentence, span: Span) -> bool:
    """The parse tells the value of another body by its name (:func:`named_body_told_of`), which is neither the
    subject (nor its legal form alone: "run by Acme Corp, Inc., a Delaware corporation") nor the thing or body the
    question names, in words that do not name the subject; unless the question asks what others do."""
    if not q.subject_terms or q.kind in _BODY_KINDS:
        return False
    body, told = named_body_told_of(s.plain, span.start, span.start + len(span.text))
    if not body:
        return False
    legal_form = all(bare(w.lower().strip(".,")) in LEGAL_SUFFIXES for w in body.split())
    # "Globex acquired Acme in 2019", "Jane co-founded Acme in 2009": the subject takes part in what is told;
    # "How much did Globex pay for Acme?" asks Globex's deed.
    if (refers_to_subject(q, body) or mentions_subject(q, told) or _is_the_asked_thing(q, body)
            or _names_a_name_asked(q, f"{body} {told}") or legal_form):
        return False
    # Unless the question asks what others do: "How many viewers watched the Premier League?"
    asked = predicate_subjects(q.text, term_word(q, exact=True))
    return not ((asked and not any(refers_to_subject(q, subject) for subject, _ in asked)) or extraposed(q.text))


def _names_a_name_asked(q: Question, text: str) -> bool:
    """The text holds a capitalised word the question writes after its first word: the body or thing it asks of
    ("Congress established the National Archives Establishment in 1934", asked when that was established)."""
    asked = {w for w, _, _ in tokens_of(q.text)[1:] if w[:1].isupper() and w != "I"}
    return bool(asked & {w for w, _, _ in tokens_of(text)})


def _is_the_asked_thing(q: Question, phrase: str) -> bool:
    """The phrase names a thing the question gives the subject (:func:`asked_things`): "the entry-level Growth plan"
    for "How much does the cheapest Acme plan cost?", "the Model 100" for "the Acme Model 100"; the item whose price
    is asked, by its name ("Cloud Plus" for "How much does Acme Cloud Plus cost?")."""
    stems = stems_in(phrase)
    item = asked_item(q)
    return bool(stems & {stem(thing.lower()) for thing in asked_things(q)}) or (
        item is not None and bool(item.names) and item.names <= stems)


_OWNER_STEMS = relation("own") - {"subsidiari"}  # the owning side of the vocabulary's ownership relation


def _the_owned_side(q: Question, sentence: str, span: Span) -> bool:
    """Asked who owns the subject (its parent, its owner), the value is the one a "subsidiary" noun is said of: the
    owned side of the relation its words share ("subsidiary" is of the owning words' relation, the other way round)."""
    return (q.kind in ("org", "person", "text") and bool(_OWNER_STEMS & set(q.terms))
            and described_as(sentence, lambda word: stem(word) == "subsidiari", (span.start, span.start + len(span.text))))


def another_holds_role(roles: list[RoleStatement], q: Question) -> bool:
    """An officer's role that the parse gives to another body and never to the subject: "Globex appoints Jane Roe
    as CEO", "Jane Roe joins Globex as CTO", "Globex CEO Jane Roe" do not name the subject's officer."""
    # Not "Head of Engineering": that part's owner is the one beyond it ("Head of Design at Globex").
    owners = [owner for r in roles if (owner := _owner_beyond_the_part(q, r)) and not asked_part(q, owner)]
    # The role the value holds is the one that counts: "Our CEO John Doe thanked Jane Roe, Globex's CEO".
    held = [owner for r in roles if r.held_by_value and (owner := _owner_beyond_the_part(q, r))
            and not asked_part(q, owner)]
    return any(not any(owned_by_subject(q, o) for o in found) for found in (owners, held) if found)


def holds_subjects_role(roles: list[RoleStatement], q: Question, s: Sentence) -> bool:
    """The parse sets the value in the subject's role: "Jane Roe joins Acme as CEO", "Acme CEO Jane Roe", "Jane
    Roe, our CTO"; or in a role no one owns, in a sentence the subject leads ("Acme was founded in 2010; CEO Jane
    Roe leads it"), not one that only mentions it ("2014: President Obama founds USDS")."""
    return any(r.held_by_value and (owned_by_subject(q, owner) if (owner := _owner_beyond_the_part(q, r))
                                    else s.role == 2) for r in roles)


def _owner_beyond_the_part(q: Question, r: RoleStatement) -> str:
    """Whose role it is, where the owner the parse reads is the part the question asks of ("senior vice president
    of operations"): the party the holder joins or is appointed by ("joined the company's leadership team as ...")."""
    return r.party if r.owner and asked_part(q, r.owner) else r.owner


def _held_by_a_named_part(q: Question, s: Sentence, span: Span) -> bool:
    """The parse's holder of the count is a part of the company told by a name of its own, a place's or a unit's
    ("Our Berlin office has 25 employees", "the Munich team employs 12 people"), and the question does not ask of
    that part."""
    parties = governing_parties(s.plain, span.start, span.start + len(span.text))
    holder = parties[1] if parties is not None else ""
    words = re.findall(r"[\w'’]+", holder)
    named = [w for w in words[1:-1] if w[:1].isupper() and not refers_to_subject(q, w)]
    part = " ".join(w for w in words if w.lower() not in ("our", "its", "their", "the"))
    return (len(words) >= 2 and words[-1].islower() and bool(named) and not refers_to_subject(q, holder)
            and not asked_part(q, part))


def _another_bodys_value(q: Question, sentence: str, span: Span) -> bool:
    """The address or identifier follows another body's name with its legal form, as a value follows its holder:
    "Our data centre is run by Globex GmbH, Industriestr. 25, 91710 Gunzenhausen" is Globex's address, "distributed
    by Globex GmbH, HRB 12345" Globex's register number."""
    return any(re.fullmatch(r"\s*[,·•|]?\s*", sentence[name.start + len(name.text):span.start])
               and not mentions_subject(q, name.text) for name in legal_names(sentence[:span.start]))


# Premises the company had before: "Our old office at 5 Mill Lane", "its former headquarters at ...".
_FORMER_PREMISES = re.compile(r"\b(?:old|former|previous|first|original)\s+(?:office|offices|address|headquarters|"
                              r"premises|home|location|site|studio|workshop|factory|warehouse)\b", re.IGNORECASE)


def _asks_an_address(q: Question) -> bool:
    """A place question for an address ("What is Acme's mailing address?"), not only where the company is."""
    return q.kind == "place" and "address" in q.keywords


def _another_address(best: Sentence, value: Span, candidates: list[Sentence]) -> bool:
    """Another sentence about the subject holds a postal address of the same form (a street, or a post office box)
    that the best one does not: a legal notice's "Address:" lines may be the company's and its web host's, and the
    line alone does not say which. (A street address and a box for mail are two addresses of one company; an address
    in the town the best sentence gives is in that town: "Our head office is in Victoria" and "1012 Fort Street,
    Suite 300, Victoria, BC ...".)"""
    box = bool(_PO_BOX.search(best.plain))
    given = value.text.split(",")[0].strip()  # the town the value names, or an address's street
    return any(c is not best and c.about_subject and is_postal_address(span.text) and span.text not in best.plain
               and given not in span.text and bool(_PO_BOX.search(span.text)) == box
               for c in candidates for span in c.spans)


_PO_BOX = re.compile(r"\b(?:P\.?\s?O\.?\s?Box|Post\s+Office\s+Box|Postfach)\b", re.IGNORECASE)


def _labelled(q: Question, s: Sentence, span: Span) -> bool:
    """A "Label: value" line about the subject (on its own page) whose label is a key term or a word of its
    relation, with the value after it: "Address: 48 Harbour Street ..." states where the company is located."""
    label = LABEL_LINE.match(s.plain)
    if label is None or s.role != 2:
        return False
    colon = s.plain.index(":")
    words = stems_in(s.plain[:colon])
    return span.start > colon and any(match_weight(t, words) > 0 for t in q.terms)


# Words that may stand between a question's predicate and its answer in a sentence that states the fact
# directly: "was founded in 2013", "founded by Jane Doe", "Jane Doe and I founded", "headquartered at 100 Main St",
# "a collaboration with the Harbour Water Trust", "a grant from a state research fund".
_CONNECTORS = frozenset(
    """in on at by with from the was were is are been has had have its their of a an and i we co since first originally
    officially formally jointly later initially currently now still""".split()
) | {m.lower() for m in MONTHS.split("|")}


def tightly_linked(q: Question, sentence: str, span: Span) -> bool:
    """True when only connecting words (or the subject's own name, or date parts) separate the value from a
    predicate word of the question: the sentence states the fact, it does not merely contain both."""
    tokens = tokens_of(sentence)
    inside = [i for i, (_, a, b) in enumerate(tokens) if a >= span.start and b <= span.start + len(span.text)]
    if q.kind == "number" and _counts_a_related_word(q, sentence, span):
        return True  # "made up of 164 people", "a two-person team": the noun it counts, as the parse reads it
    if q.kind == "number" and count_of_us(sentence, span) and asks_headcount(q):
        return True  # "There are 16 of us" counts the company's people
    if not inside:
        return False
    if q.kind == "number" and _counts_a_term(q, tokens[inside[-1] + 1:inside[-1] + 1 + COUNTED_REACH]):
        return True
    if q.kind in ("year", "date", "duration", "money", "number") and _hangs_on_a_term(q, sentence, span):
        return True
    if q.kind in ("year", "date") and _dated_by_reference(q, sentence, span):
        return True
    predicate = _predicate_word(q)
    if q.kind in ("money", "number") and predicate(quantified_noun(sentence, span.start, span.start + len(span.text))):
        return True  # "closed a €49 million equity round": the round's amount, however many words come between
    if q.kind == "place" and "incorpor" in q.terms and _incorporated_as(q, sentence, span):
        return True  # "Acme, Inc., a Delaware corporation": incorporated in Delaware
    predicates = [i for i, (w, _, _) in enumerate(tokens)
                  if i not in inside and predicate(w)
                  and not (i > 0 and tokens[i - 1][0].lower() == "to")]  # "to form" is no statement of fact
    own = set(q.subject_terms)
    for p in predicates:
        between = tokens[p + 1:inside[0]] if p < inside[0] else tokens[inside[-1] + 1:p]
        words = _without_agents([w.strip("'’") for w, _, _ in between])
        if p < inside[0] and q.kind in ("person", "org"):
            words = _without_agent_descriptor(words)  # "founded by publisher John Walter": the agent is the value
        named = any(bare(w.lower()) in own for w in words)  # a legal form then stands for the name it follows
        if len(words) <= 5 and all(w in _CONNECTORS or _of_its_name(w, own, named) or w.isdigit()
                                   or _of_the_predicate(q, w) for w in words):
            return True
    return False


def _of_its_name(word: str, own: set[str], named: bool) -> bool:
    """The word is of the subject's name, in any case, or, where the name is ``named``, the legal form written after
    it: "the registered office of Acme GmbH is at ...", "Acme, Inc.'s office"."""
    word = bare(word.lower())
    return word in own or word.rstrip("s") in own or (named and word.replace(".", "") in LEGAL_SUFFIXES)


# The period an amount is given for: "annual revenue" asks revenue by the year, "$5 million a year" may be any amount's.
_PERIOD_WORDS = frozenset(stem(w) for w in "year yearly annual annually annum month monthly week weekly".split())


def _predicate_word(q: Question) -> Callable[[str], bool]:
    """A word of the question's predicate, to tie a value to: not the period an amount or a count is asked for
    ("What is Acme's annual revenue?" ties "$5 million a year" to no revenue), unless the question asks nothing else."""
    word = term_word(q, exact=True)
    if q.kind not in ("money", "number") or all(t in _PERIOD_WORDS for t in q.terms):
        return word
    return lambda w: word(w) and not stems_of(w.lower()) & _PERIOD_WORDS


def _incorporated_as(q: Question, sentence: str, span: Span) -> bool:
    """The place names the kind of corporation the subject is said to be: "Acme, Inc., a Delaware corporation";
    not Globex's in "Globex, a Delaware corporation, bought Acme"."""
    after = sentence[span.start + len(span.text):]
    return (bool(re.match(rf"\s+{CORPORATION_KIND}", after))
            and refers_to_subject(q, described_body(sentence, span.start, span.start + len(span.text),
                                                    lambda word: word.lower().replace(".", "") in LEGAL_SUFFIXES)))


def _of_the_predicate(q: Question, word: str) -> bool:
    """A word of the question's predicate, or of its relation: "Jane Roe is Head of Delivery" ties the name to
    "delivery" through "head", a word of being responsible for it."""
    return any(match_weight(t, {stem(word.lower())}) > 0 for t in q.terms)


def _dates_its_beginning(q: Question, sentence: str, span: Span) -> bool:
    """Asked when the company was founded, the date hangs on a verb that begins it, as the trained parser reads
    it (:func:`began_itself`), however far apart: "Jane Roe started Acme Data Science in 2006". A related word of
    the founding: medium at most."""
    parsed = governing_parties(sentence, span.start, span.start + len(span.text))
    if parsed is None or not stems_of(parsed[0].lower()) & BEGIN_STEMS:
        return False
    return asks_the_founding(q) and began_itself(q, sentence, verb=parsed[0])


def _hangs_on_a_term(q: Question, sentence: str, span: Span) -> bool:
    """The value hangs on a verb of the question's predicate whose doer or object is the subject, as the trained
    parser reads it, however far apart the words stand: "In March 2014, a group of engineers founded Acme" dates the
    founding; "the logo bug was incorporated into promotions until 2011" dates nothing of the company's. A verb of the
    predicate's relation counts when the subject does it to what the question names: "in 2022, we launched Basecamp
    4" dates the release of Basecamp 4, where "in 2012, we released our second version of Basecamp" does not date the
    launch of Basecamp."""
    parsed = governing_parties(sentence, span.start, span.start + len(span.text))
    if parsed is None or not q.terms:
        return False
    verb, doer, obj = parsed
    weights = {t: match_weight(t, stems_of(verb)) for t in q.terms}
    if term_word(q, exact=True)(verb):  # a term's own word (or the begin verb of "When did Acme start?")
        parties = predicate_subjects(sentence, lambda word: word == verb) or []
        return any(refers_to_subject(q, d) or refers_to_subject(q, o) for d, o in parties)
    named = [t for t, weight in weights.items() if not weight]
    return (max(weights.values()) > 0 and bool(named) and refers_to_subject(q, doer)
            and all(t in stems_in(obj) for t in named))


# A later clause that dates its event by an earlier one's date: "... and we formed the company that summer".
_TIME_REFERENCE = re.compile(
    r"\b(?:(?:later|earlier) )?(?:that|the same) (?:same )?(?:year|summer|spring|autumn|fall|winter|month)\b", re.I)


def _dated_by_reference(q: Question, sentence: str, span: Span) -> bool:
    """A clause after the date refers back to it ("that summer", "later that year") and is the question's predicate
    done by or to the subject: "I joined him in the spring of 2019, and we formed the company together that summer"
    dates the founding 2019. Not past another date ("in 2008 ..., and in 2015 ... that year")."""
    end = span.start + len(span.text)
    for match in _TIME_REFERENCE.finditer(sentence, end):
        if YEAR_RE.search(sentence[end:match.start()]):
            return False
        if _hangs_on_a_term(q, sentence, Span(match.group(), match.start(), match.group().lower())):
            return True
    return False


COUNTED_REACH = 2  # "164 people", "1,200 full-time employees": the noun a count counts follows it closely


def _counts_a_term(q: Question, after: list[tuple[str, int, int]]) -> bool:
    """The words just after a count name what it counts, in a word of the question's relation ("made up of 164
    people" counts employees; "across 34 states" does not)."""
    return any(match_weight(t, stems_of(w)) > 0 for w, _, _ in after for t in q.terms)


def _without_agent_descriptor(words: list[str]) -> list[str]:
    """'by publisher', 'by the engineer' before a name that is the value: only 'by' is left (a connector)."""
    if words and words[0] == "by" and 1 < len(words) <= 4 and all(w.isalpha() and w.islower() for w in words[1:]):
        return ["by"]
    return words


def _without_agents(words: list[str]) -> list[str]:
    """Drop 'as Dial Square' (a former name), 'by publisher John Walter' (the agent) and 'from Boston to' (where
    it was) from the words between a predicate and its value: "formed as Dial Square in 1886", "founded by John
    Walter on 1 January 1785", "moved its offices from Boston to Austin"."""
    kept: list[str] = []
    i = 0
    while i < len(words):
        if words[i].lower() == "from":
            k = i + 1
            while k < len(words) and words[k][:1].isupper():
                k += 1
            if i + 1 < k < len(words) and words[k].lower() in ("to", "into"):
                i = k + 1
                continue
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
