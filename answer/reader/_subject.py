"""Whether a sentence is about the question's subject (:func:`subject_role`): named as its subject, only
mentioned, or not named; whether the question's predicate is the subject's own ("its founding") or makes
something else ("announced plans to establish the X Institute")."""

from __future__ import annotations

import re

from cikb.answer.entities import beginnings, deeds, imperative_on_us, main_subject
from cikb.core.vocabulary import match_weight, relation
from cikb.answer.reader._words import (
    DATE_RE, LEGAL_SUFFIXES, POSTAL_RE, SELF_NOUNS, YEAR_RE, stems_of, tokens_of,
)
from cikb.answer.reader._question import Question, bare

_PRONOUN_SUBJECT = frozenset({"it", "its", "we", "our", "they", "their"})

# Words of organisation names that name no one in particular ("Harvard University": Harvard names it).
GENERIC_NAME_WORDS = frozenset(
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
    mentioned = mentions_subject(q, sentence) or _short_name(q, sentence)
    # The subject starts the sentence, or follows an opening phrase ("In 1934, it moved"; "Founded in 1899 by
    # Swiss, English and Catalan players, the club ...").
    dated = after_leading_date(sentence)  # a timeline line: "May 24, 2013: ISRG is incorporated"
    # A list item ("Taking Holiday – We offer 30 days' paid leave"), or a question heading read with its answer
    # ("How to request days off? We officially have 24 days"): the item's or the answer's own subject.
    label = _LEADING_LABEL.match(sentence) or _LEADING_QUESTION.match(sentence)
    for text in (*_clause_openings(sentence), *((dated,) if dated else ()),
                 *((sentence[label.end():],) if label else ())):
        lead = _leading_name(text)
        if lead is None:
            continue
        if _another_party_led(q, text, lead):
            return 0  # "Acme's parent company was founded in 1990": about Globex, whoever owns it
        if _is_the_subject(q, lead):
            return 2
        capitals = "".join(w[0] for w in lead if w[0].isupper()).lower()
        if len(capitals) >= 3 and capitals in q.subject_acronyms and capitals not in _name_words(lead):
            return 2  # "Kestrel Security Group, the firm behind Clearflow, is pleased" for KSG
    # Where no comma ends the opening phrase, the parser finds the subject ("In 2024 we received ...", "In sum we've
    # sent ..., in addition to ...").
    if _opens_with_phrase(sentence) and _is_the_subject(q, _leading_name(main_subject(sentence) or "")):
        return 2
    if _BIDS_US.match(sentence) and imperative_on_us(sentence):
        return 2  # "Visit us at ...": the page's own company, as "we" is
    return 1 if mentioned else 0


def _clause_openings(sentence: str) -> list[str]:
    """The sentence, and where it opens with a phrase ("In 1934, it moved"), the text after each of its first commas:
    where the main clause's subject may begin."""
    commas = [m.end() for m in re.finditer(r",\s+", sentence[:200])][:3] if _opens_with_phrase(sentence) else []
    return [sentence, *(sentence[i:] for i in commas)]


def _is_the_subject(q: Question, lead: list[str] | None) -> bool:
    """A leading name that is the subject: "we", "it" ..., "the company", or its own name ("Arsenal Football Club"
    for Arsenal; not "RIBA Enterprises" for RIBA, another body)."""
    if not lead:
        return False
    words = _spelt_together(q, [bare(w.lower()) for w in lead])
    if words[0] in _PRONOUN_SUBJECT or (words[0] == "the" and len(words) > 1 and words[1] in SELF_NOUNS):
        return True
    named = [w for w in words if w not in ("the", "of", "and", "&")]
    return bool(named) and any(w in q.subject_terms for w in named) and _only_subject(q, named)


# Bodies named by their tie to the company: "our partner Globex", "Acme's parent company", "its biggest customer".
_OTHER_PARTIES = frozenset("""parent parents partner partners customer customers client clients investor investors
    subsidiary subsidiaries competitor competitors rival rivals supplier suppliers sponsor sponsors distributor
    distributors reseller resellers affiliate affiliates owner owners acquirer vendor vendors representative
    representatives auditor auditors contractor contractors subcontractor subcontractors licensee licensees
    user users""".split())


def led_by_another_party(q: Question, sentence: str) -> bool:
    """The sentence (or its clause after an opening phrase) is led by a body named by its tie to the company: what
    it says is that body's, whatever the page ("Our parent company Globex Ltd is registered under number 99999" on
    Acme's imprint)."""
    for text in _clause_openings(sentence):
        lead = _leading_name(text)
        if lead is not None:
            return _another_party_led(q, text, lead)
    return False


_CLAUSE_WORDS = frozenset("is are was were has have had and or with will can may".split())


def _another_party_led(q: Question, text: str, lead: list[str]) -> bool:
    """The sentence's subject is another body named by its tie to the company ("Our partner Globex was founded in
    1990", "Acme's parent company is headquartered in Chicago", "Acme customer Globex appointed ..."): its owner
    leads, the tie follows within a few words. Not when the question asks for that tie ("Who are Acme's investors?")."""
    possessive = lead[-1].lower().replace("’", "'").endswith(("'s", "'")) or lead[0].lower() in ("our", "its", "their")
    after = [w for w, _, _ in tokens_of(text)][len(lead):len(lead) + 3]
    for i, word in enumerate(after):  # "Our partner Globex", "Our EU representative"
        if word.lower() in _CLAUSE_WORDS:
            break  # "Our team and partners ...", "Acme is a partner of ...": the tie is no longer the subject's head
        if _an_unasked_tie(q, word.lower()):
            # The company's bare name before the tie only with a name after it: "Acme partners with Globex" is
            # Acme's verb, "To sponsor Acme, ..." a bid.
            named = any(bare(w.lower()) in q.subject_terms for w in lead)
            return possessive or (named and i + 1 < len(after) and after[i + 1][0].isupper())
    return False


# A short label before a dash or a colon, as a list of benefits or features writes its items.
_LEADING_LABEL = re.compile(r"[^.!?:–—]{1,40}?(?:\s[–—-]|:)\s+(?=\S)")
_LEADING_QUESTION = re.compile(r"[^.!?]{1,150}\?\s+(?=\S)")
_BIDS_US = re.compile(r"[\"'“(]?[A-Z][a-z]+(?:\s+(?:to|with))?\s+us\b")  # "Visit us", "Write to us": parsed only then


# Words that complete a name without naming another body: "Arsenal Football Club" is Arsenal; "the FC Barcelona
# Foundation" and "RIBA Enterprises" are not FC Barcelona and RIBA.
_NAME_COMPLETIONS = frozenset("club football fc afc company corporation group holdings team".split())


# Prepositions and subordinating conjunctions that open a phrase before the subject ("Once a year, we hold ...",
# "If you join, we pay ..."), and the determiners of a time phrase ("Every year, we ...").
_INTRODUCERS = frozenset("in on at after before since during when while although though as by with from for "
                         "following until unlike like despite under within throughout upon if once because "
                         "whenever unless every each today now nowadays yesterday meanwhile later soon".split())


_CREATION = frozenset({"found", "cofound", "co-found", "establish", "creat", "form", "incorpor", "launch", "start", "set-up"})
_DETERMINERS = frozenset("the a an its their his her our another new two three several".split())


def creates_other(q: Question, sentence: str) -> bool:
    """Every creation word of the question in the sentence is active with an object other than the subject:
    "the university announced plans to establish the Milton Friedman Institute" founds something else."""
    tokens = tokens_of(sentence)
    found_any = False
    for i, (word, _, _) in enumerate(tokens):
        stems = stems_of(word)
        # Asked when it was founded, a start is a founding too: "its founders previously started Globex in 2005".
        asked = any(match_weight(t, stems) == 1.0 for t in q.terms) or (stems & BEGIN_STEMS and asks_the_founding(q))
        if not (stems & _CREATION and asked):
            continue
        found_any = True
        if re.match(r"\s*[.?!;:]", sentence[tokens[i][2]:]):
            return False  # "When were you founded? In 2016": the clause ends there, with nothing made
        after = [w for w, _, _ in tokens[i + 1:i + 6]]
        if not after or after[0].lower() not in _DETERMINERS and not after[0][0].isupper():
            return False  # "was founded in", "formed as", "founding of": not an active verb with an object
        if i > 0 and tokens[i - 1][0].lower() in ("was", "were", "is", "are", "been", "being", "be", "its", "their"):
            return False
        named = {w.lower().removesuffix("'s") for w in after}
        if not q.subject_terms or named & set(q.subject_terms) or (after[0].lower() == "the" and len(after) > 1 and after[1].lower() in SELF_NOUNS):
            return False  # "Jane Doe and I founded ISRG", "established the company"
        if _names_the_asked(q, after):
            return False  # what the question asks about: "we launched HEY in June 2020" for "When did Acme launch HEY?"
    return found_any


# The words "found" is related to that say something began: the company's own start is its founding.
BEGIN_STEMS = frozenset({"start", "began", "begin", "launch"})


def asks_the_founding(q: Question) -> bool:
    """The question asks when (or by whom) the company was founded, in a word of the founding's relation."""
    return any("found" in relation(t) for t in q.terms)


def began_itself(q: Question, sentence: str, own_site: bool = False, verb: str = "") -> bool:
    """The company itself began ("Mastodon started in 2016 as an open-source project", "Acme was launched in 2015";
    on its own site "When we started in 2015, ...") or was begun ("Jane Roe started Acme in 1999"): the parse gives a
    start, begin or launch verb the company's bare name (or "we" on its own pages) as its subject and nothing begun,
    or the name as what it began. "We started a podcast", "the team began the process" and "Acme started using Rust"
    begin something else; "it started" may be anything. Parsed: callers ask only of a sentence holding one of
    :data:`BEGIN_STEMS`. ``verb``: that verb only (the one a value hangs on)."""
    parties = beginnings(sentence, lambda word: word == verb if verb else bool(stems_of(word.lower()) & BEGIN_STEMS))
    return any(((_is_bare_name(q, doer) or (own_site and doer.lower() == "we")) and not begun)
               or _is_bare_name(q, begun) for doer, begun in parties)


FOUNDING_STEMS = frozenset({"found", "establish", "form", "incorpor"})


def founded_itself(q: Question, sentence: str) -> bool:
    """On the company's own site, "we" founded, formed, established or incorporated "the company" (or named it):
    "... and we formed the company together that summer". Not "we formed a partnership"."""
    parties = beginnings(sentence, lambda word: bool(stems_of(word.lower()) & FOUNDING_STEMS))
    return any(doer.lower() == "we" and (_is_bare_name(q, begun) or _is_self_noun(begun)) for doer, begun in parties)


_REFLEXIVES = frozenset({"itself", "ourselves", "themselves"})


def does_it_to_another(q: Question, sentence: str) -> bool:
    """The subject (its name, "we" or "it") does the question's verb to something else: "Acme acquired Initech in
    2019", "Acme renamed its product line", "its acquisition of Initech", asked when Acme was acquired or renamed
    (:attr:`Question.receives`).
    Not "we renamed the company" nor "Acme renamed itself"."""
    def is_verb(word: str) -> bool:
        return any(match_weight(t, stems_of(word.lower())) == 1.0 for t in q.terms)
    def names_the_asked(done: str) -> bool:  # "NARA opened Archives II", asked when Archives II was opened
        return any(match_weight(t, stems_of(w.lower())) == 1.0 for t in q.terms for w, _, _ in tokens_of(done))
    def is_itself(done: str) -> bool:  # "itself", "the company", "the company Acme", "Acme Inc."
        words = {bare(w.lower()) for w, _, _ in tokens_of(done)} - {"the", "a", "an", "our", "its"}
        own = set(q.subject_words) | set(q.subject_acronyms) | set(q.subject_terms) | LEGAL_SUFFIXES | SELF_NOUNS
        return done.lower() in _REFLEXIVES or bool(words) and words <= own
    return any((_is_bare_name(q, doer) or doer.lower() in ("we", "it", "its", "our"))
               and not (is_itself(done) or names_the_asked(done)) for doer, done in deeds(sentence, is_verb))


def _is_self_noun(phrase: str) -> bool:
    """"the company", "our business": the writer's own company, named by its kind."""
    words = [w.lower() for w, _, _ in tokens_of(phrase)]
    return len(words) == 2 and words[0] in ("the", "our") and words[1] in SELF_NOUNS


def _is_bare_name(q: Question, phrase: str) -> bool:
    """The phrase is the subject's name and nothing more ("Mastodon", "the Acme Corporation"; not "a new Acme
    podcast")."""
    words = [bare(w.lower()) for w, _, _ in tokens_of(phrase) if w.lower() not in ("the", "a", "an")]
    own = set(q.subject_words) | set(q.subject_acronyms) | set(q.subject_terms)
    return bool(words) and all(w in own or w in LEGAL_SUFFIXES for w in words)


def _names_the_asked(q: Question, after: list[str]) -> bool:
    """The object after a creation word is a name the question asks about, in full: "HEY" for "When did Acme launch
    HEY?"; not "Widget 4" for "When did Acme launch Widget?" (another version), nor "our third version"."""
    words = [w for w in after if w.lower() not in _DETERMINERS]
    name = []
    for word in words:
        if not (word[0].isupper() or word.isdigit()):
            break
        name.append(word.lower())
    return bool(name) and all(w in q.keywords for w in name)


def owned_predicate(q: Question, sentence: str) -> bool:
    """A predicate word of the question owned by the subject ("its founding", "ISRG's creation", "the club's founding")
    or with the subject as its object ("... and I founded ISRG")."""
    tokens = tokens_of(sentence)
    owners = {"its", "their", "our"}
    for i, (word, _, _) in enumerate(tokens[1:], start=1):
        if not any(match_weight(t, stems_of(word)) == 1.0 for t in q.terms):
            continue
        lead = _leading_name(sentence[tokens[i + 1][1]:]) if i + 1 < len(tokens) else None
        named = _name_words(lead)
        if named and _only_subject(q, named):
            return True  # "Jane Doe and I founded Acme": the subject is what was founded (not "formed Acme City Studios")
        before = tokens[i - 1][0].lower().replace("’", "'")
        if before in owners and _names_another(q, _main_subject(sentence)):
            continue  # "Since its founding in 2013, ISRG's Let's Encrypt ...": "its" is the clause's subject, named as another's
        if before in owners or (before.endswith("'s") and (before[:-2] in q.subject_terms or before[:-2] in SELF_NOUNS)):
            return True
    return False


OUR_REACH = 3  # "our CEO", "our new CEO", "our co-founder and CTO": the role "our" owns follows it closely


def our_role(q: Question, sentence: str) -> bool:
    """A role of the question named as the writer's own ("we welcome Jane Roe as our new CEO"): on the company's
    pages, "our" is the company, as a possessive of the role asked about (not "us" anywhere in the sentence)."""
    tokens = tokens_of(sentence)
    for i, (word, _, _) in enumerate(tokens):
        if word.lower() != "our":
            continue
        reach = tokens[i + 1:i + 1 + OUR_REACH]
        end = next((k for k, (_, a, _) in enumerate(reach) if re.search(r"[,;:.]", sentence[tokens[i][2]:a])), len(reach))
        for word, _, _ in reach[:end]:
            if any(match_weight(t, stems_of(word)) == 1.0 for t in q.terms):
                return True
            if word.lower().endswith(("'s", "’s")):
                break  # "our partner's CEO" is the partner's
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
    return [bare(w.lower()) for w in lead or [] if w.lower() not in ("the", "of", "and", "&")]


def _only_subject(q: Question, named: list[str]) -> bool:
    """Every word names the subject, a legal form or a name completion ("Arsenal Football Club" for Arsenal)."""
    return all(w in q.subject_terms or w in LEGAL_SUFFIXES or w in _NAME_COMPLETIONS for w in named)


def _names_another(q: Question, lead: list[str] | None) -> bool:
    """A leading name with a word that is not the subject's (nor a legal form or a name completion): another body's."""
    named = _name_words(lead)
    if not named or named[0] in _PRONOUN_SUBJECT or not q.subject_terms:
        return False
    return not _only_subject(q, named)


def led_by_a_namesake(q: Question, sentence: str) -> bool:
    """The sentence opens on a legal name, no possessive, that holds the subject's words and others:
    another body named after it ("Acme Productivity Ltd, registered in England, company number ..." on Acme Ltd's
    imprint, a subsidiary's; not "Acme's EIN: ...")."""
    # (The subject's other names are already written as its name in the sentence read: ``_scoring.own_name``.)
    lead = _leading_name(sentence)
    if not lead or bare(lead[-1].lower()) not in LEGAL_SUFFIXES or any(bare(w) != w.replace("’", "'") for w in lead):
        return False
    return mentions_subject(q, " ".join(lead)) and _names_another(q, lead)


def after_leading_date(sentence: str) -> str | None:
    """What follows a date that opens the sentence with a colon or a dash ("May 24, 2013: ISRG is ..."), else None."""
    date = DATE_RE.match(sentence) or YEAR_RE.match(sentence)
    if date is None:
        return None
    rest = re.match(r"\s*[:–—-]\s+", sentence[date.end():])
    return sentence[date.end() + rest.end():] if rest else None


# A label and its value, the way about pages, contact pages and facts documents state them ("Founded: 2013").
# "30+ vacation days: ...", "Taxpayer Identification Number (EIN): 92-..."
LABEL_LINE = re.compile(r"^\W*(?:[A-Z]|\d+[A-Za-z+%]*\s+[A-Za-z])[A-Za-z’'() ]{1,40}:\s+\S")


def mentions_subject(q: Question, text: str) -> bool:
    """Whether ``text`` (a sentence, a page title) names the question's subject: its distinctive words or its acronym."""
    if not q.subject_terms:
        return False
    lowered = set(_spelt_together(q, [bare(w.lower()) for w, _, _ in tokens_of(text)]))
    return bool(lowered & set(q.subject_acronyms)) or _names_subject(q, lowered)


def _spelt_together(q: Question, words: list[str]) -> list[str]:
    """``words`` with each run of two or three that writes one of the subject's words apart ("open sats" for
    OpenSats, "bright water" for Brightwater) as that word."""
    terms, out, i = set(q.subject_terms), [], 0
    while i < len(words):
        run = next((n for n in (3, 2) if i + n <= len(words) and "".join(words[i:i + n]) in terms), 1)
        out.append("".join(words[i:i + run]))
        i += run
    return out


# A parsed subject or object that names no one by itself: it may be the question's subject ("Acme, which was
# founded in 2013"; "Jane Roe and I founded it").
_PRONOUNS = frozenset("i we it they he she you this that which who".split())


def refers_to_subject(q: Question, phrase: str) -> bool:
    """A phrase that is or may be the question's subject: a pronoun, "the company", or one of its names (its
    words, its acronym, the first two words of a long name, "the National Archives", or its initials, "the
    V&A" for the Victoria and Albert Museum)."""
    words = phrase.lower().split()
    return (phrase.lower() in _PRONOUNS or (len(words) == 2 and words[0] == "the" and words[1] in SELF_NOUNS)
            or mentions_subject(q, phrase) or _short_name(q, phrase) or _abbreviates(q, phrase))


def owned_by_subject(q: Question, owner: str) -> bool:
    """A role's or a relation's owner is the subject: one of its names, or "our", "its", "their" (on the company's
    pages the company's own, or unclear)."""
    if ties_another_party(q, owner):
        return False  # "the CEO of Acme's parent company": the parent's role, not Acme's
    return refers_to_subject(q, owner) or owner.lower() in _OWN_POSSESSIVES


def ties_another_party(q: Question, owner: str) -> bool:
    """The owner is a body named by its tie to the company ("Acme parent company", "our partner Globex"), a tie
    the question does not ask of."""
    return any(_an_unasked_tie(q, bare(w.lower())) for w, _, _ in tokens_of(owner))


def _an_unasked_tie(q: Question, word: str) -> bool:
    """The lowercase word names a body by its tie to the company ("parent", "partner"), a tie the question does not
    ask of ("Who are Acme's investors?" asks of it)."""
    return word in _OTHER_PARTIES and not any(match_weight(t, stems_of(word)) > 0 for t in q.terms)


_OWN_POSSESSIVES = frozenset({"our", "its", "their"})


def _abbreviates(q: Question, phrase: str) -> bool:
    capitals = "".join(c for c in re.sub(r"^(?:The|A|An)\s+", "", phrase) if c.isupper()).lower()
    initials = "".join(w[0] for w in q.subject_words)
    if len(capitals) < 2 or not initials:
        return False
    rest = iter(initials)
    return all(letter in rest for letter in capitals)  # in order, as a subsequence


def _short_name(q: Question, sentence: str) -> bool:
    """The name's first two words, as a phrase: 'the National Archives' for the National Archives and Records Administration."""
    if len(q.subject_words) < 3:
        return False
    return bool(re.search(rf"\b{re.escape(q.subject_words[0])}\s+{re.escape(q.subject_words[1])}\b", sentence, re.I))


def _names_subject(q: Question, lowered: set[str]) -> bool:
    words = q.subject_words
    if any(w in lowered for w in words if w not in GENERIC_NAME_WORDS):
        return True
    return bool(words) and sum(w in lowered for w in words) / len(words) >= 0.6


_CONTRACTION = re.compile(r"['’](?:re|ve|ll|d|s|m)$", re.IGNORECASE)


_DOTTED = re.compile(r"\b(?:[A-Za-z]\.){2,4}")


def _leading_name(text: str) -> list[str] | None:
    """The words a sentence starts with up to its first lowercase word (its subject's name part):
    'The Royal Institute of British Architects is' -> [The, Royal, Institute, of, British, Architects];
    'It was' -> [It]; 'The club has' -> [The, club]."""
    # A name ends at its comma ("Acme, the Leeds-based startup, has" is led by Acme) and before an address on
    # the same line ("Acme B.V. Oudegracht 45 3511 AB Utrecht"); "B.V." is one word, a legal form.
    head = _DOTTED.sub(lambda m: m.group().replace(".", ""), text[:200].split(",", 1)[0])
    tokens = [w for w, _, _ in tokens_of(head)]
    if POSTAL_RE.search(head):  # the street is the word before the first number
        number = next((i for i, w in enumerate(tokens) if w[0].isdigit()), len(tokens))
        tokens = tokens[:max(number - 1, 0)]
    if not tokens:
        return None
    first = _CONTRACTION.sub("", tokens[0])  # "We’re", "It's": the pronoun is the subject
    if first.lower() in _PRONOUN_SUBJECT:
        return [first]
    if tokens[0].lower() == "the" and len(tokens) > 1 and bare(tokens[1].lower()) in SELF_NOUNS:
        return tokens[:2]
    lead = []
    for i, token in enumerate(tokens):
        if token[0].isupper() or token[0].isdigit() or (lead and token.lower() in ("of", "and", "&", "the") and i + 1 < len(tokens) and tokens[i + 1][0].isupper()):
            lead.append(token)
        else:
            break
    return lead or None
