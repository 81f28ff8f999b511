"""The one sentence splitter: Markdown-aware and abbreviation-aware.

Every stage that reads sentences uses it: retrieval's sentence rerank (chunk text), the
answer reader (chunk text), and the citation check (an LLM's answer). Markdown is read as
prose: a table's cells of prose are read as sentences (and a two-cell row whose value says its own kind, a code,
a phone number or an e-mail address, as "Label: value"), rules and code fences are skipped, headings are kept
only when asked for, links and emphasis marks are undone, the lines of a paragraph are joined, and list items
and "Label: value" lines stand alone.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from cikb.core.contacts import WEB_RE, only_contacts
from cikb.core.vocabulary import OFFICE_WORD

# A sentence ends at . ! ? (a closing quote or bracket stays with it) before white space and a
# capital, a digit, an opening quote or a citation "[n]".
_SENTENCE_END = re.compile(r"(?:(?<=[.!?])|(?<=[.!?][\"'”’)\]]))\s+(?=[\"'“(\[]?[A-Z0-9])")
# Abbreviations that end in a dot without ending a sentence (legal forms too: "Acme, Lda. (VAT ...)"; a German
# street name's "-str.": "Hauptstr. 5"), and a single letter, an initial or one of an abbreviation written with
# spaces ("J. R. Smith", "Acme e. V.", "z. B.").
_ABBREVIATION = re.compile(
    r"(?:\b(?:Inc|Corp|Co|Ltd|Lda|Ltda|Pty|Pte|Mr|Mrs|Ms|Dr|Prof|St|Jr|Sr|vs|etc|e\.g|i\.e|approx|No|U\.S|U\.K"
    r"|\w+str|Str"
    r"|a\.m|p\.m"
    r"|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)|\b[A-Za-z])\.$"
)
_MARKDOWN_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_MARKDOWN_MARKS = re.compile(r"(?<!\\)(\*\*|__|\*|`)")
# A character the Markdown writer escaped ("We are \~30 engineers"): the character itself.
_MARKDOWN_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!~|>])")
_LABEL = re.compile(r"^\s*[*_]*[A-Z][\w \-]{0,30}[*_]*:\s")  # "Employees: about 420", "E-mail: ..."
_DASHED_LABEL = re.compile(r"^\s*[A-Z][\w .’'-]{0,40}?\s[—–]\s")  # a team list's "Jane Roe — President"
_PERSON_NAME = r"[A-Z][\w.’'-]*(?:\s+[A-Z][\w.’'-]*){1,3}"  # a person's name: two to four capitalised words
# A team list's "Jane Roe (President)": a name of up to four capitalised words, its role in brackets closing the line.
_BRACKETED_LABEL = re.compile(rf"^\s*{_PERSON_NAME}"
                             r"\s+\([A-Za-z][\w .,&’'/-]{0,40}\)\s*$")
_LIST_MARKER = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
_INLINE_HEADING = re.compile(r"(?:^|\s)#{1,6}\s+")
_HEADING = re.compile(r"^\s*#{1,6}\s+")
_WORD = re.compile(r"[^\W_][\w&'’\-]*")  # letters of any alphabet: "Södra" is one word, not "S" and "dra"


def split_sentences(text: str, *, min_words: int = 1, headings: bool = False, cards: bool = False,
                    blocks: Callable[[str], bool] | None = None, dated: bool = False, asked: bool = False) -> list[str]:
    """The sentences of Markdown or plain text, in order.

    ``min_words`` drops shorter pieces, but not a "Label: value" line ("VAT ID: DE123456789" states a fact
    in three words); ``headings`` keeps each heading's text as a sentence of its own;
    ``cards`` reads a heading followed directly by a deeper one as one "Label: value" line, as team and
    profile pages label a name with a role ("### Jane Roe" then "#### Chief Executive Officer" is
    "Jane Roe: Chief Executive Officer"), whatever its length, a heading below the page's title that is such a line
    itself as one ("## Jane Roe – Founder and CEO"), and a short heading over a value alone as one
    too (a fact box's "#### Founded" over "2014" is "Founded: 2014"); ``blocks`` reads a run of short lines as one
    line, their parts set apart by commas, where it accepts the run so read: an address block ("Acme GmbH",
    "Hafenstraße 12", "20457 Hamburg"), which extractors write one line to a paragraph; ``dated`` reads a line
    that is only a date ("2016", "May 2013"), as a timeline writes one above each event, with the sentence after
    it: "2016: Launched the Harbour Service inside the port."; ``asked`` reads a heading that asks a question, as
    a page of frequently asked questions writes one above each answer, with the answer's first sentence: "What does
    Acme mean? Our name is short for ..."
    """
    pieces = _sentences(text, lines=blocks is not None)
    if asked:
        pieces = _with_questions(pieces)
    if cards:
        pieces = _with_cards(pieces)
    if dated:
        pieces = _with_dates(pieces)
    if blocks is not None:
        pieces = _with_blocks(pieces, blocks)
    return [s for s, level in pieces
            if level == _CARD or ((headings or not level) and (_has_words(s, min_words) or _is_label_line(s)))]


_CARD = -1  # the level of a card read from two headings
CARD_MAX_WORDS = 8  # a heading of more words is a section's title, not a name or a role
VALUE_LABEL_MAX_WORDS = 3
_VALUE = re.compile(r"\S*\d\S*(?:\s+\S+){0,2}")  # a value of three words at most, one with a digit


def card_sections(text: str) -> dict[str, str]:
    """Each card that :func:`split_sentences` reads from two headings ("Jane Roe: Chair"), with the title of the
    section it sits in: the nearest heading above the card's that is less deep ("The Board of Directors"), "" when
    the text holds none. A card says what the role is of: the chair of that board."""
    pieces = _sentences(text)
    sections: dict[str, str] = {}
    for i, (_, level) in enumerate(pieces):
        card = _card_at(pieces, i)
        if card:
            sections.setdefault(card, next((t for t, above in reversed(pieces[:i]) if 0 < above < level), ""))
    return sections


def _card_at(pieces: list[tuple[str, int]], i: int) -> str | None:
    """The card that the heading at ``i`` and the deeper one after it make ("### Jane Roe", "#### CEO"), or None."""
    text, level = pieces[i]
    if level <= 0 or i + 1 >= len(pieces):
        return None
    nxt, deeper = pieces[i + 1]
    # A chain of headings ("## Leadership", "### Jane Roe", "#### CEO"): the last two are the card.
    chained = i + 2 < len(pieces) and pieces[i + 2][1] > deeper
    if deeper > level and not chained and all(0 < len(_WORD.findall(t)) <= CARD_MAX_WORDS for t in (text, nxt)):
        return f"{text.rstrip(' :')}: {nxt}"
    return None


def _is_dashed_card(heading: str) -> bool:
    """A heading that labels a name with what it is, as a team page's card does in one line: "Jane Roe – CEO"."""
    label = _DASHED_LABEL.match(heading)
    return bool(label) and all(0 < len(_WORD.findall(part)) <= CARD_MAX_WORDS
                               for part in (heading[:label.end()], heading[label.end():]))


def _person_card(name: str, office: str) -> str | None:
    """The card of a person's name and a short office ("Jane Roe — Chief Technology Officer"), as a team page writes
    them apart (a table's row, a name's heading over its first line); None when they are no name and office."""
    if re.fullmatch(_PERSON_NAME, name) and _OFFICE.search(office) and not _has_words(office, CARD_MAX_WORDS + 1):
        return f"{name} — {office}"
    return None


_TITLE_JOINERS = frozenset({"and", "of", "for", "the", "&"})  # "Co-founder and Head of Hardware"


def _written_as_title(line: str) -> bool:
    """Every word capitalised but the joiners, no clause after a comma: "Co-founder and Executive Director." (not
    "Every plan includes a named support lead." under "## Support Plans")."""
    return not re.search(r"[,;:]", line) and all(w[0].isupper() or w.lower() in _TITLE_JOINERS
                                                 for w in _WORD.findall(line))


def _with_cards(pieces: list[tuple[str, int]]) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    i = 0
    while i < len(pieces):
        text, level = pieces[i]
        card = _card_at(pieces, i)
        if card is not None:
            out.append((card, _CARD))
            i += 2
            continue
        if level > 1 and _is_dashed_card(text):
            out.append((text, _CARD))  # one heading that is the card: "## Jane Roe – Founder and CEO"
            i += 1
            continue
        if level > 0 and i + 1 < len(pieces):
            nxt, deeper = pieces[i + 1]
            card = _person_card(text.strip(), nxt.strip()) if deeper == 0 and _written_as_title(nxt) else None
            if card:  # "## Jane Roe" then "Co-founder and CEO." alone
                out.append((card, _CARD))
                i += 2
                continue
            # A fact box: a short heading over its value alone ("#### Founded" then "2014", "### Employees" then
            # "250+"), the next heading after it (a timeline's year is followed by what happened then).
            boxed = i + 2 == len(pieces) or pieces[i + 2][1] != 0
            short = len(_WORD.findall(text)) <= VALUE_LABEL_MAX_WORDS
            if deeper == 0 and boxed and short and _VALUE.fullmatch(nxt.strip()):
                out.append((f"{text.rstrip(' :')}: {nxt.strip()}", _CARD))
                i += 2
                continue
        out.append((text, level))
        i += 1
    return out


# A month's name, whole or shortened ("Sept."): the one pattern the reader's dates are written with too.
MONTH_PATTERN = (r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?"
                 r"|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?")
_DATE_LINE = re.compile(rf"(?:{MONTH_PATTERN}\s+(?:\d{{1,2}}(?:st|nd|rd|th)?,?\s+)?)?(?:1[89]\d\d|20\d\d)")


def _with_dates(pieces: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """Each line that is only a date (a heading or not), joined to the sentence after it with a colon."""
    return _joined_to_next(pieces, lambda text, level: level >= 0 and bool(_DATE_LINE.fullmatch(text.strip())), ": ")


def _with_questions(pieces: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """Each heading that asks a question joined to the sentence after it (its answer's first)."""
    return _joined_to_next(pieces, lambda text, level: level > 0 and text.rstrip().endswith("?"), " ")


def _joined_to_next(pieces: list[tuple[str, int]], opens: Callable[[str, int], bool],
                    separator: str) -> list[tuple[str, int]]:
    """Each piece that ``opens`` takes joined to the sentence (not a heading) right after it."""
    out: list[tuple[str, int]] = []
    i = 0
    while i < len(pieces):
        text, level = pieces[i]
        if opens(text, level) and i + 1 < len(pieces) and pieces[i + 1][1] == 0:
            out.append((f"{text.strip()}{separator}{pieces[i + 1][0]}", 0))
            i += 2
            continue
        out.append((text, level))
        i += 1
    return out


BLOCK_MAX_WORDS = 5  # a line of an address block: a name, a street, a town; not a sentence


def _with_blocks(pieces: list[tuple[str, int]], accepts: Callable[[str], bool]) -> list[tuple[str, int]]:
    """Each run of two or more short lines (no heading, no "Label: value" line) joined by commas where ``accepts``
    takes the joined run, else left as it was. A line that ``accepts`` alone and ends no sentence is short enough: a
    footer's "20791 Three Oaks Pkwy, #980, Estero, FL 33929" between the company's name and its e-mail address."""
    out: list[tuple[str, int]] = []
    run: list[str] = []
    for text, level in [*pieces, ("", 1)]:  # a heading ends a run; so does the end
        if not level and _has_words(text, 1) and not _LABEL.match(text) and _block_line(text, accepts):
            run.append(text)
            continue
        joined = ", ".join(line.rstrip(" ,") for line in run)
        out.extend([(joined, 0)] if len(run) > 1 and accepts(joined) else [(line, 0) for line in run])
        run = []
        if text:
            out.append((text, level))
    return out


def _block_line(text: str, accepts: Callable[[str], bool]) -> bool:
    return not _has_words(text, BLOCK_MAX_WORDS + 1) or (not text.rstrip().endswith((".", "!", "?")) and accepts(text))


def _is_label_line(sentence: str) -> bool:
    """A label and a value after it: "Tel.: +1 555 0100", "Jane Roe — President", "Jane Roe (President)", or a code
    after a label of a word or two with no colon ("EIN 12-3456789", "Company number 01234567"); not a lone "Note:"."""
    label = _LABEL.match(sentence) or _DASHED_LABEL.match(sentence)
    return ((bool(label) and _has_words(sentence[label.end():], 1)) or is_code_line(sentence)
            or bool(_BRACKETED_LABEL.match(sentence)))


def is_code_line(sentence: str) -> bool:
    """A code after a label of a word or two, with no colon: "EIN 12-3456789", "Company number 01234567"."""
    return bool(_CODE_LINE.fullmatch(sentence.strip()))


_CODE_LINE = re.compile(r"[A-Z][A-Za-z]*(?:\s+[A-Za-z]+)?\s+#?(?=[A-Z0-9-]*\d)[A-Z0-9][A-Z0-9-]{3,}")


def _has_words(sentence: str, count: int) -> bool:
    return len(_WORD.findall(sentence)) >= count


def _sentences(text: str, lines: bool = False) -> list[tuple[str, int]]:
    """Every sentence and heading of ``text`` in order, each with its heading level (0: not a heading); with
    ``lines``, short lines a paragraph breaks apart are set apart by commas (:func:`_pieces`)."""
    sentences: list[tuple[str, int]] = []
    for block in re.split(r"\n\s*\n", text):
        kept: list[str] = []
        rows = [line for line in block.splitlines() if line.strip()]
        for i, line in enumerate(rows):
            if _HEADING.match(line) or _is_table_row(line):
                sentences.extend((s, 0) for s in _split_prose(_plain(_pieces(kept, lines))))
                kept = []
            if _HEADING.match(line):
                level = len(line.strip()) - len(line.strip().lstrip("#"))
                sentences.append((_plain([_HEADING.sub("", line)])[0].strip(), level))
            elif _is_table_row(line):
                header = i + 1 < len(rows) and bool(_TABLE_RULE.match(rows[i + 1]))
                sentences.extend((s, 0) for s in (_header_sentences(line) if header else _table_sentences(line)))
            elif not _is_markup_line(line):
                kept.append(line)
        sentences.extend((s, 0) for s in _split_prose(_plain(_pieces(kept, lines))))
    return sentences


_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$")
PROSE_CELL_WORDS = 4  # a cell of this many words may say something; "$60/hour" alone says of what only in its row


def _is_table_row(line: str) -> bool:
    return line.strip().startswith("|") and not _TABLE_RULE.match(line)


def _table_sentences(row: str) -> list[str]:
    """A table row's cells of prose, as sentences ("| Employees | $154,263 | ZSF has one employee ... |"). A short
    cell says nothing alone: "| Past Month | 2 months |" is a label line only to a reader of the table's header,
    which says what the months count (measured: read as "Past Month: 2 months", such rows gave wrong answers)."""
    cells = _cells(row)
    card = _person_card(cells[0], cells[1]) if len(cells) == 2 else None
    if card:
        return [card]  # a team table's row: "| Jane Roe | Chief Technology Officer |"
    labelled = _self_typed_cells(cells)
    if labelled:
        return [labelled]  # an imprint's row: "| VAT number | LV40103980741 |"
    return [s for cell in cells if _has_words(cell, PROSE_CELL_WORDS) for s in _split_prose(_plain([cell]))]


def _header_sentences(row: str) -> list[str]:
    """A table's first row, which Markdown makes its header whatever it holds: a column's title says nothing, but a
    two-cell row whose value says its own kind is a row of data ("| General enquiries | info@acme.example |" above
    the table's rule, as trafilatura writes a table without a header)."""
    labelled = _self_typed_cells(_cells(row))
    return [labelled] if labelled else []


def _cells(row: str) -> list[str]:
    return [cell.strip() for cell in row.strip().strip("|").split("|")]


def _self_typed_cells(cells: list[str]) -> str | None:
    return _self_typed_row(cells[0], cells[1]) if len(cells) == 2 else None


_ROW_LABEL = re.compile(r"[A-Za-z][A-Za-z .’'/-]{0,30}")  # "VAT number", "E-mail", "USt-IdNr.": no digits
_CODE_CELL = re.compile(r"[A-Z0-9](?:[A-Z0-9./-]|\s(?=[A-Z0-9]))*[A-Z0-9]")  # "LV40103980741", "HRB 198435 B"


def _self_typed_row(label: str, value: str) -> str | None:
    """A two-cell row read as "label: value" where the value says its own kind, whatever the table's header: an
    e-mail address, a phone number, or a code of capitals and digits (a registry or tax number). A value that needs
    the header to be read ("| Past Month | 2 months |" under "| Period | Runway |") stays unread."""
    label, value = _plain([label])[0].strip(), _plain([value])[0].strip()
    if not _ROW_LABEL.fullmatch(label) or len(label.split()) > VALUE_LABEL_MAX_WORDS:
        return None
    digits = sum(c.isdigit() for c in value)
    code = bool(_CODE_CELL.fullmatch(value)) and (digits >= 6 or (digits > 0 and any(c.isalpha() for c in value)))
    contact = only_contacts(value) and not WEB_RE.search(value)  # e-mail addresses and valid phone numbers
    return f"{label}: {value}" if contact or code else None


_OFFICE = re.compile(rf"(?<![\w-])(?i:{OFFICE_WORD})(?![\w-])")


def _plain(pieces: list[str]) -> list[str]:
    plain = []
    for piece in pieces:
        prose = _MARKDOWN_MARKS.sub("", _MARKDOWN_LINK.sub(r"\1", piece))
        prose = _INLINE_HEADING.sub(" ", prose)  # "[## Title](url)" in listings leaves heading marks inside a line
        plain.append(_MARKDOWN_ESCAPE.sub(r"\1", prose))
    return plain


def _pieces(lines: list[str], apart: bool = False) -> list[str]:
    pieces: list[str] = []
    joinable = labelled = False
    before = ""
    for line in lines:
        standalone = bool(_LIST_MARKER.match(line) or _LABEL.match(line))
        text = _LIST_MARKER.sub("", line).strip()
        if joinable and not standalone:
            # With ``apart``, a break between two short lines without a sentence's end is a <br> of an address
            # block ("Acme AB", "Storgatan 4"): a comma, so that the name stays the line's subject.
            pieces[-1] = f"{pieces[-1]}{', ' if apart and _short_lines(before, text) else ' '}{text}"
        elif labelled and _LIST_MARKER.match(line):
            pieces[-1] = f"{pieces[-1]} {text}"  # a definition list's term and its value: "- Founded:", "- 2014"
        else:
            pieces.append(text)
        # A list item's next unmarked line continues it (Markdown's lazy continuation: an extractor writes
        # <br> inside an item as a line break); a "Label: value" line's does not.
        joinable = not standalone or bool(_LIST_MARKER.match(line))
        labelled = bool(_LIST_MARKER.match(line)) and bool(_LABEL_ONLY.fullmatch(text)) and not labelled
        before = text
    return pieces


def _short_lines(first: str, second: str) -> bool:
    """Two lines of a name, a street or a town: a line of a wrapped sentence ends in a small word ("founded in")."""
    short = all(_has_words(line, 1) and not _has_words(line, BLOCK_MAX_WORDS + 1) for line in (first, second))
    last = first.split()[-1] if first.split() else ""
    ends = first.endswith(("!", "?", ",", ";", ":")) or (first.endswith(".") and not _ABBREVIATION.search(first))
    return short and not ends and all(word[:1].isupper() or word[:1].isdigit() for word in (last, second))


_LABEL_ONLY = re.compile(r"[A-Z][\w .\-]{0,30}:")  # a list item that is a term waiting for its value


def _is_markup_line(line: str) -> bool:
    stripped = line.strip()
    return stripped.startswith(("|", "---", "===", "```", ">")) and not stripped.startswith("> ")


def _split_prose(pieces: list[str]) -> list[str]:
    sentences: list[str] = []
    for prose in pieces:
        pending: list[str] = []
        for piece in _SENTENCE_END.split(" ".join(prose.split())):
            if pending and _ABBREVIATION.search(pending[-1]):
                pending[-1] = f"{pending[-1]} {piece}"  # "Acme Corp. was founded..." is one sentence
            else:
                pending.append(piece.strip())
        sentences.extend(s for s in pending if s)
    return sentences


# A sentence whose subject is a personal pronoun ("It is a service provided by ...") names what it is
# about in the sentence before; readers that weigh one sentence at a time read the two together.
_PRONOUN_SUBJECT = re.compile(r"^[\"'“(]?(?:It|They|He|She)\b")


def opens_on_pronoun(sentence: str) -> bool:
    """Whether ``sentence`` opens on a personal pronoun as its subject (It, They, He, She)."""
    return bool(_PRONOUN_SUBJECT.match(sentence))
