"""Extract a typed cell value from retrieved text without an LLM (issue 5, item 8).

The knowledge-base path must answer offline. Given a question, the column's
type and passages (KB chunks, web snippets or pages), this module:

1. splits passages into sentences and scores each by how many of the
   question's key terms it contains (with light stemming and a few synonym
   groups: founded ~ established ~ incorporated, headquartered ~ based ...);
2. pulls candidate values of the wanted shape out of the best sentences: a
   year or date for "when / what year", a number with its unit, one of a
   select's options, a person's name for "who", a place for "where", else a
   short span after the matched terms;
3. states its confidence honestly. ``high`` needs all of: every key term in
   the evidence sentence, the company named there (or the sentence's subject
   is a pronoun), exactly one candidate of the wanted shape in it, and no
   other equally strong sentence proposing a different value. A generic text
   span is never more than ``low``; booleans never more than ``medium``.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field

from cikb.enrich.models import ColumnType, Confidence, EnrichSource

_STOPWORDS = frozenset(
    """a an the of in on at to for from by with and or but is are was were be been being do does did done
    has have had having it its this that these those what which who whom whose when where why how
    there their they them he she his her we our you your i me my as into about than then so such
    can could would should will shall may might must not no yes any all some each other also just
    s t company companies organisation organization firm business year years name named date kind
    type many much number currently current today ever first""".split()
)
_WH_WORDS = {"who", "whom", "whose", "when", "where", "what", "which", "how", "why"}
_SYNONYMS = [
    {"found", "establish", "incorporat", "creat", "form"},
    {"headquarter", "hq", "based", "locat", "head", "offic", "seat"},
    {"ceo", "chief", "execut", "director", "president", "chairman", "lead", "head"},
    {"employ", "staff", "workforc", "employe", "people", "worker"},
    {"revenu", "sales", "turnover", "income"},
    {"own", "owner", "parent", "subsidiar", "acquir", "bought"},
]
_MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
_YEAR_RE = re.compile(r"(?<![\d$€£.,])(1[5-9]\d\d|20\d\d)(?![\d%])")
_DATE_RE = re.compile(
    rf"\b(?:(?:{_MONTHS})\.? \d{{1,2}}(?:st|nd|rd|th)?,? (?:1[5-9]\d\d|20\d\d)"
    rf"|\d{{1,2}}(?:st|nd|rd|th)? (?:{_MONTHS}),? (?:1[5-9]\d\d|20\d\d)"
    rf"|(?:{_MONTHS}) (?:1[5-9]\d\d|20\d\d))\b"
)
_NUMBER_RE = re.compile(
    r"(?<![\w.])[$€£¥₹]?\s?\d{1,3}(?:,\d{3})+(?:\.\d+)?(?:\s?(?:thousand|million|billion|trillion|%|percent))?"
    r"|(?<![\w.])[$€£¥₹]?\s?\d+(?:\.\d+)?(?:\s?(?:thousand|million|billion|trillion|%|percent))?"
    r"|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred)\b",
    re.IGNORECASE,
)
_NAME_PART = r"(?:[A-Z][a-zA-Z'’\-]+|[A-Z]\.)"
_NAME_RE = re.compile(rf"\b{_NAME_PART}(?:\s+(?:{_NAME_PART}|de|van|von|der|da|di|la|le|du|bin|al))*\s+[A-Z][a-zA-Z'’\-]+\b")
_ADDRESS_RE = re.compile(r"\b(?:PO Box|P\.O\. Box|\d{1,5})\s+[A-Z0-9][^.;:\n]{3,80}?,\s*[A-Z]{2}\s+\d{5}(?:-\d{4})?(?:,\s*[A-Z][A-Za-z]+)?")
_PLACE_AFTER_RE = re.compile(
    r"\b(?:in|at|(?<!based )on|near)\s+((?:the\s+)?(?:\d{1,5}\s+)?[A-Z][\w'’.&\-]*(?:(?:\s+|,\s*)(?:of\s+|and\s+|the\s+)?[A-Z0-9][\w'’.&\-]*){0,6})"
)
_AREA_OF = re.compile(
    r" (?:district|borough|neighbou?rhood|area|region|county|suburb|quarter) of (?:the )?"
    r"[A-Z][\w'’.&\-]*(?:\s+(?:of\s+|and\s+|the\s+)?[A-Z][\w'’.&\-]*){0,6}"
)
_SENTENCE_SPLIT = re.compile(r"(?<=[.!?])[\"”’)]?\s+(?=[\"“(]?[A-Z0-9])|\n+")
_PRONOUN_START = re.compile(r"^it\b", re.I)
# "Founded in 1899 by ..., the club has become ...": the organisation named by what it is.
# Only as the subject: at the start, or right after an opening phrase ("Founded in 1899 by ..., the club").
_SELF_REFERENCE = re.compile(r"^(?:[^;]{0,200}?,\s+)?the (?:company|firm|club|organi[sz]ation|group|network|museum|institute|"
                             r"university|college|paper|newspaper|league|agency|corporation|society|team|studio|party|fund)\b", re.I)
# Words of organisation names that name no one in particular ("Harvard University": Harvard names it).
_GENERIC_NAME_WORDS = frozenset(
    """university college school company club museum party league group corporation institute agency fund
    administration television studios studio national united royal british american international football fc
    association society foundation bank records archives panel council network newspaper times
    new north south east west""".split()
)
_CAPITALISED_NON_NAMES = frozenset(
    {"The", "In", "On", "At", "By", "For", "From", "It", "Its", "This", "That", "After", "Before", "During", "When",
     "While", "Since", "As", "A", "An", "And", "But", "Our", "We", "They", "He", "She", "His", "Her",
     "Executive", "Director", "Chief", "Officer", "President", "Chairman", "Chairwoman", "Founder", "Co-founder",
     "CEO", "CTO", "CFO", "COO", "Head", "Vice", "Senior", "General", "Manager", "Editor", "Board", "Mr", "Mrs", "Ms", "Dr", "Sir"}
    | set(_MONTHS.split("|"))
)
_NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
                 "ten": 10, "eleven": 11, "twelve": 12, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "hundred": 100}


# Words the suffix rules would merge with a different word: "Ford Foundation" and "can be found"
# are not "founded".
_STEM_EXCEPTIONS = {"found": "find", "foundation": "foundation", "foundations": "foundation", "formation": "formation",
                    "information": "information", "station": "station", "stations": "station"}


@dataclass(frozen=True)
class Passage:
    """A piece of retrieved text and where it came from."""

    text: str
    source: EnrichSource
    rank: int = 1


@dataclass
class Candidate:
    """A value a strategy proposes for a cell, with its evidence."""

    value: str | None
    confidence: Confidence
    sources: list[EnrichSource] = field(default_factory=list)
    evidence: str = ""
    note: str = ""


@dataclass(frozen=True)
class Question:
    """What the question asks for, as far as plain text analysis can tell."""

    text: str
    key_terms: tuple[str, ...]
    wants: str  # year | date | number | option | boolean | person | place | span
    company_terms: tuple[str, ...]  # every word and acronym of the company's name (never key terms or answers)
    company_words: tuple[str, ...] = ()  # the name's distinctive words
    company_acronyms: tuple[str, ...] = ()


def stem(word: str) -> str:
    """A deliberately light suffix stripper: founded/founding/founder -> found."""
    word = word.lower().strip("'’")
    if word in _STEM_EXCEPTIONS:
        return _STEM_EXCEPTIONS[word]
    for suffix in ("ations", "ation", "ions", "ion", "ings", "ing", "ers", "er", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            word = word[: -len(suffix)]
            break
    if word.endswith("e") and len(word) > 4:  # issue/issues, incorporate/incorporated
        word = word[:-1]
    return word


def _words(text: str) -> list[str]:
    return re.findall(r"[A-Za-z0-9][A-Za-z0-9&\-]*", text)


def _group_of(term: str) -> frozenset[str]:
    for group in _SYNONYMS:
        if term in group:
            return frozenset(group)
    return frozenset({term})


def _name_parts(label: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The distinctive words of a company's name and its acronyms: 'Royal Institute of British Architects (RIBA)'
    -> (royal, institute, british, architects), (riba,)."""
    legal = {"inc", "ltd", "llc", "corp", "plc", "co", "gmbh", "ag", "sa"}
    words = [w for w in _words(re.sub(r"\([^)]*\)", " ", label)) if w.lower() not in _STOPWORDS and w.lower() not in legal]
    distinctive = tuple(dict.fromkeys(w.lower() for w in words if len(w) > 1))
    acronyms = {m.lower() for m in re.findall(r"\(([A-Z][A-Za-z&]{1,9})\)", label)}
    capitals = [w[0] for w in words if w[0].isupper()]
    if len(capitals) >= 2:
        acronyms.add("".join(capitals).lower())
    if len(words) == 1 and words[0].isupper():
        acronyms.add(words[0].lower())
    return distinctive, tuple(sorted(acronyms))


def _mentions_company(q: Question, sentence: str) -> bool:
    """The sentence is about the company: its acronym, most of its name's words, or a pronoun subject ('It was ...')."""
    if not q.company_terms:
        return True
    lowered = {w.lower() for w in _words(sentence)}
    if lowered & set(q.company_acronyms) or _PRONOUN_START.match(sentence) or _SELF_REFERENCE.match(sentence):
        return True
    words = q.company_words
    if any(w in lowered for w in words if w not in _GENERIC_NAME_WORDS):
        return True
    return bool(words) and sum(w in lowered for w in words) / len(words) >= 0.6


def analyse_question(question: str, column_type: ColumnType, company: str = "") -> Question:
    """Key terms (stemmed, minus the company's own words) and the shape of the wanted answer."""
    lower = [w.lower() for w in _words(question)]
    words, acronyms = _name_parts(company) if company else ((), ())
    own = set(words) | set(acronyms) | {w.lower() for w in _words(company)}  # 'GmbH' is no key term either
    if not own & set(lower):
        # The question names something else ("When did Let's Encrypt issue ..."): its words are the key
        # terms, and the row's company need not appear in the evidence.
        words, acronyms, own = (), (), set()
    key_terms = tuple(dict.fromkeys(
        stem(w) for w in lower if w not in _STOPWORDS and w not in _WH_WORDS and w not in own and len(w) > 1
    ))
    return Question(question, key_terms, _wanted_shape(lower, column_type), tuple(sorted(own)), words, acronyms)


def _wanted_shape(lower: list[str], column_type: ColumnType) -> str:
    asks_when = "when" in lower or "year" in lower or ("date" in lower and "what" in lower)
    if column_type == "select":
        return "option"
    if column_type == "boolean":
        return "boolean"
    if column_type == "number":
        return "year" if asks_when else "number"
    if asks_when:
        return "year" if "year" in lower else "date"
    if lower[:1] == ["who"] or "whom" in lower or any(w.startswith("founder") for w in lower):
        return "person"
    if "where" in lower or "address" in lower or "headquartered" in lower or "city" in lower or "country" in lower:
        return "place"
    if "how" in lower and ("many" in lower or "much" in lower):
        return "number"
    return "span"


def split_sentences(text: str) -> list[str]:
    """Sentences (and Markdown lines) of a passage, whitespace collapsed, headings' # removed."""
    sentences = []
    for piece in _SENTENCE_SPLIT.split(text):
        piece = " ".join(piece.replace("#", " ").split()).strip(" -*|")
        if len(piece) >= 12:
            sentences.append(piece)
    return sentences


@dataclass
class _Scored:
    sentence: str
    passage: Passage
    coverage: float
    mentions_company: bool
    candidates: list[tuple[str, int]]  # (value, token distance to the nearest key term)
    original: str = ""  # the sentence as the source has it (the evidence shown to users)

    @property
    def strength(self) -> float:
        return self.coverage + (0.25 if self.mentions_company else 0.0) + 0.05 / self.passage.rank


def extract_answer(question: str, column_type: ColumnType, passages: list[Passage], *, company: str = "",
                   options: list[str] | None = None, max_sentences: int = 8) -> Candidate:
    """The best value of the column's type in ``passages``, with an honest confidence."""
    q = analyse_question(question, column_type, company)
    scored = [s for s in (_score(q, sent, p, options or []) for p in passages for sent in split_sentences(p.text)) if s]
    scored.sort(key=lambda s: s.strength, reverse=True)
    scored = [s for s in scored[:max_sentences] if s.candidates]
    if not scored:
        return Candidate(None, "none", note="no sentence of the retrieved text holds a value of the wanted kind")
    return _decide(q, scored)


_PARENTHESIS = re.compile(r"\s*\([^()]*\)")
# ", which was originally founded in 1888" describes the noun before it, not the sentence's subject.
# So does "the School of Design that had been founded in 1837".
_RELATIVE_CLAUSE = re.compile(r",\s+(?:which|who|whose)\b[^,;.]*|\s+(?:that|which|who)\s+(?:had |has |have )?(?:been|was|were)\b[^,;.]*")
_NOT_FOUNDING = [
    (re.compile(r"\b(?:found(?:ing|er)|charter)\s+(members?|clubs?|partners?|signator(?:y|ies))\b", re.I), r"charter \1"),
    (re.compile(r"\bincorporated\s+(into|with)\b", re.I), r"merged \1"),
    (re.compile(r"\bestablished\s+(broadcast|networks?|brands?|players?|teams?|firms?|companies)\b", re.I), r"older \1"),
]


def _plain(sentence: str) -> str:
    """The sentence as the scorer reads it: asides in parentheses dropped (they are about something
    else: "The Sunday Times (founded in 1821)"), and phrases that look like founding but are not
    ("founding member of", "incorporated into", "established networks") reworded."""
    text = _PARENTHESIS.sub("", sentence)
    text = _RELATIVE_CLAUSE.sub("", text)
    for pattern, replacement in _NOT_FOUNDING:
        text = pattern.sub(replacement, text)
    return text


def _score(q: Question, original: str, passage: Passage, options: list[str]) -> _Scored | None:
    sentence = _plain(original)
    stems = {stem(w) for w in _words(sentence)}
    if q.key_terms:
        hits = sum(1 for term in q.key_terms if _group_of(term) & stems)
        coverage = hits / len(q.key_terms)
    else:
        coverage = 0.5
    if coverage == 0:
        return None
    mentions = _mentions_company(q, sentence)
    candidates = _candidates(q, sentence, options)
    return _Scored(sentence, passage, coverage, mentions, candidates, original)


def _candidates(q: Question, sentence: str, options: list[str]) -> list[tuple[str, int]]:
    found: list[tuple[str, int]] = []
    if q.wants == "option":
        for option in options:
            match = re.search(r"(?<!\w)" + re.escape(option.strip()) + r"(?!\w)", sentence, re.I)
            if match:
                found.append((option, _distance(q, sentence, match.start())))
        return found
    if q.wants == "boolean":
        return [("no" if re.search(r"\b(?:not|never|no longer)\b", sentence, re.I) else "yes", 0)]
    spans = _shape_spans(q, sentence)
    return [(value, _distance(q, sentence, start)) for value, start in spans]


def _shape_spans(q: Question, sentence: str) -> list[tuple[str, int]]:
    if q.wants in ("year", "date"):
        regex = _YEAR_RE if q.wants == "year" else _DATE_RE
        spans = [(m.group(), m.start()) for m in regex.finditer(sentence)]
        if q.wants == "date" and not spans:
            spans = [(m.group(), m.start()) for m in _YEAR_RE.finditer(sentence)]
        return spans
    if q.wants == "number":
        return [(_number_word_value(m.group().strip()), m.start()) for m in _NUMBER_RE.finditer(sentence)
                if not _YEAR_RE.fullmatch(m.group().strip())]
    if q.wants == "person":
        return _person_spans(q, sentence)
    if q.wants == "place":
        return _place_spans(q, sentence)
    return _generic_span(q, sentence)


def _person_spans(q: Question, sentence: str) -> list[tuple[str, int]]:
    spans = []
    for match in _NAME_RE.finditer(sentence):
        words = match.group().split()
        while words and words[0] in _CAPITALISED_NON_NAMES:
            words = words[1:]
        while words and words[-1] in _CAPITALISED_NON_NAMES:
            words = words[:-1]
        if any(w in _CAPITALISED_NON_NAMES or "’s" in w or "'s" in w for w in words):
            continue
        if len(words) < 2 or {w.lower() for w in words} & set(q.company_terms):
            continue
        if any(w.lower() in _STOPWORDS or w.rstrip(".").lower() in {"inc", "corp", "ltd"} for w in words):
            continue
        spans.append((" ".join(words), match.start()))
    return _merge_name_list(sentence, spans)


def _merge_name_list(sentence: str, spans: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """'Eric Rescorla, Alex Halderman, Peter Eckersley and I founded' is one answer: the list of names."""
    if len(spans) < 2:
        return spans
    merged: list[tuple[list[str], int]] = [([spans[0][0]], spans[0][1])]
    for name, start in spans[1:]:
        previous_names, previous_start = merged[-1]
        gap = sentence[sentence.find(previous_names[-1], previous_start) + len(previous_names[-1]):start]
        if re.fullmatch(r"\s*(?:,|and|,\s*and|&)\s*", gap):
            previous_names.append(name)
        else:
            merged.append(([name], start))
    return [(", ".join(names), start) for names, start in merged]


def _place_spans(q: Question, sentence: str) -> list[tuple[str, int]]:
    spans = [(m.group().strip(), m.start()) for m in _ADDRESS_RE.finditer(sentence)]
    if spans:
        return spans
    for match in _PLACE_AFTER_RE.finditer(sentence):
        place = match.group(1).strip(" ,")
        place = re.sub(r"^the\s+", "", place)
        first = place.split()[0] if place.split() else ""
        if not place or first in _CAPITALISED_NON_NAMES or re.fullmatch(r"\d+", place) or _YEAR_RE.fullmatch(place):
            continue
        if {w.lower() for w in _words(place)} & set(q.company_terms):
            continue
        area = _AREA_OF.match(sentence, match.end(1))
        spans.append((place + (area.group() if area else ""), match.start(1)))
    return spans


def _generic_span(q: Question, sentence: str) -> list[tuple[str, int]]:
    """The clause after the last key term: weak evidence, so callers keep its confidence low."""
    words = sentence.split()
    positions = [i for i, w in enumerate(words) if any(_group_of(t) & {stem(w.strip(",.;:()"))} for t in q.key_terms)]
    if not positions:
        return []
    tail = " ".join(words[positions[-1] + 1:]).strip(" ,:;-")
    tail = re.split(r"[.;]\s", tail)[0]
    if not tail or len(tail) < 3:
        return []
    return [(" ".join(tail.split()[:12]), sentence.find(tail[:10]))]


def _distance(q: Question, sentence: str, char_start: int) -> int:
    """Tokens between a candidate and the nearest key term (how directly the sentence ties them)."""
    token_index = len(sentence[:char_start].split())
    positions = [i for i, w in enumerate(sentence.split()) if any(_group_of(t) & {stem(w.strip(",.;:()\"“”"))} for t in q.key_terms)]
    if not positions:
        return 99
    return min(abs(token_index - p) for p in positions)


def _decide(q: Question, scored: list[_Scored]) -> Candidate:
    votes: dict[str, float] = defaultdict(float)
    support: dict[str, list[_Scored]] = defaultdict(list)
    for s in scored:
        value, distance = min(s.candidates, key=lambda c: c[1])
        key = _normal(value)
        votes[key] += s.strength * (1.0 if distance <= 8 else 0.5)
        support[key].append(s)
    best_key = max(votes, key=lambda k: (votes[k], -scored.index(support[k][0])))
    best = support[best_key][0]
    value, distance = min(best.candidates, key=lambda c: c[1])
    confidence = _confidence(q, best, distance, scored, best_key)
    sources = _dedupe_sources([s.passage.source for s in support[best_key]])
    return Candidate(value, confidence, sources, evidence=best.original or best.sentence)


def _confidence(q: Question, best: _Scored, distance: int, scored: list[_Scored], best_key: str) -> Confidence:
    strong = [s for s in scored if s.coverage == 1.0 and s.mentions_company and min(c[1] for c in s.candidates) <= 8]
    rivals = {_normal(min(s.candidates, key=lambda c: c[1])[0]) for s in strong} - {best_key}
    typed = q.wants in ("year", "date", "number", "option", "person", "place")
    if not typed:
        return "low"
    direct = best.coverage == 1.0 and best.mentions_company and bool(q.key_terms)
    unique = len({_normal(v) for v, _ in best.candidates}) == 1
    value = min(best.candidates, key=lambda c: c[1])[0]
    tight = _tightly_linked(q, best.sentence, value)
    if direct and unique and not rivals and tight:
        return "high"
    if direct and (tight or distance <= 4):
        return "medium"
    if best.coverage >= 0.5 and best.mentions_company and tight and not rivals:
        return "medium"
    return "low"


# Words that may stand between a question's predicate and its answer in a sentence that states
# the fact directly: "was founded in 2013", "founded by Jane Doe", "Jane Doe and I founded",
# "headquartered at 100 Main St", "May 24, 2013: ISRG is incorporated".
_CONNECTORS = frozenset(
    """in on at by the was were is are been has had have its their of a an and i we co since first originally
    officially formally jointly later initially currently now still""".split()
) | {m.lower() for m in _MONTHS.split("|")}


def _tightly_linked(q: Question, sentence: str, value: str) -> bool:
    """True when only connecting words (or the company's own name, or date parts) separate the answer from a
    predicate word of the question: the sentence states the fact, it does not merely contain both."""
    tokens = [(m.group(), m.start(), m.end()) for m in re.finditer(r"[A-Za-z0-9][A-Za-z0-9&'’\-]*", sentence)]
    start = sentence.find(value)
    if start < 0:
        return False
    inside = [i for i, (_, a, b) in enumerate(tokens) if a >= start and b <= start + len(value)]
    if not inside:
        return False
    predicates = [i for i, (w, _, _) in enumerate(tokens)
                  if any(_group_of(t) & {stem(w)} for t in q.key_terms) and i not in inside
                  and not (i > 0 and tokens[i - 1][0].lower() == "to")]  # "to form" is no statement of fact
    own = set(q.company_terms)
    for p in predicates:
        between = tokens[p + 1:inside[0]] if p < inside[0] else tokens[inside[-1] + 1:p]
        words = _without_names_after_as_or_by([w.strip("'’") for w, _, _ in between])
        if len(words) <= 5 and all(w in _CONNECTORS or w in own or w.isdigit() or w.rstrip("s") in own for w in words):
            return True
    return False


def _without_names_after_as_or_by(words: list[str]) -> list[str]:
    """Drop 'as Dial Square' (a former name) and 'by publisher John Walter' (the agent) from the words between a
    predicate and its answer: "formed as Dial Square in 1886", "founded by John Walter on 1 January 1785"."""
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


def _normal(value: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", value.lower()))


def _dedupe_sources(sources: list[EnrichSource]) -> list[EnrichSource]:
    seen: dict[tuple[str, str | None], EnrichSource] = {}
    for source in sources:
        seen.setdefault((source.url, source.chunk_id), source)
    return list(seen.values())[:5]


def _number_word_value(text: str) -> str:
    """'eight' -> '8': numbers written as words become digits a number column can hold."""
    return str(_NUMBER_WORDS.get(text.lower(), text))
