"""Company names -> safe slugs (spec G1): the `company` key everywhere.

Names in any script get a readable ASCII slug by transliteration (anyascii):
"Société Générale" -> ``societe-generale``, "Яндекс" -> ``yandeks``,
"株式会社メルカリ" -> ``merukari`` (the legal form 株式会社 dropped like "Inc.").
Apostrophes join their word ("Let's Encrypt" -> ``lets-encrypt``). A name with no
letter or digit at all (only symbols or emoji) gets ``company-`` and a short hash of
the name, so distinct names keep distinct slugs.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata

from anyascii import anyascii

from cikb.core.errors import BadInputError
from cikb.core.models import Company

# Legal-form suffixes carry no identity: "Acme Corp, Inc." and "Acme Corp" are one company.
_LEGAL_SUFFIXES = {"inc", "incorporated", "llc", "ltd", "limited", "plc", "gmbh", "ag", "sa", "sas", "bv", "nv", "co"}
# The same for scripts written without spaces, dropped at either end of the name
# (Japanese kabushiki kaisha and its kin, Chinese limited company, Korean jusik hoesa).
LEGAL_FORMS_CJK = ("株式会社", "有限会社", "合同会社", "合資会社", "合名会社", "(株)", "(有)",
                   "股份有限公司", "有限责任公司", "有限責任公司", "有限公司", "주식회사", "(주)")
_APOSTROPHES = re.compile("['\u2019\u02bc\u2018`\u00b4]")
_MAX_SLUG = 64
_HASH_PREFIX = "company"


def slugify(name: str) -> str:
    """`Acme Corp, Inc.` -> `acme-corp`. Raises BadInputError for an empty or path-like name."""
    if not isinstance(name, str) or not name.strip():
        raise BadInputError("company name is empty")
    if "/" in name or "\\" in name or "\x00" in name or name.strip().startswith("."):
        raise BadInputError(f"company name looks like a path, not a name: {name!r}")
    text = strip_legal_forms(unicodedata.normalize("NFKC", name))
    words = re.findall(r"[a-z0-9]+", _APOSTROPHES.sub("", _transliterate(text)).lower())  # anyascii may write ' too
    while len(words) > 1 and words[-1] in _LEGAL_SUFFIXES:
        words.pop()
    slug = "-".join(words)[:_MAX_SLUG].strip("-")
    if not slug:  # only symbols, punctuation or emoji: nothing to read, so a stable hash of the name
        digest = hashlib.sha256(" ".join(unicodedata.normalize("NFC", name).split()).encode()).hexdigest()[:8]
        slug = f"{_HASH_PREFIX}-{digest}"
    return slug


def strip_legal_forms(name: str) -> str:
    """The name without a CJK legal form at its start or end ("株式会社メルカリ" -> "メルカリ"), if anything is left."""
    text = name.strip()
    for form in LEGAL_FORMS_CJK:
        for rest in (text.removeprefix(form), text.removesuffix(form)):
            if rest != text and rest.strip():
                return rest.strip()
    return text


def _transliterate(text: str, keep: str = "") -> str:
    """ASCII for letters, digits and marks of any script; apostrophes dropped; the characters in ``keep``
    kept as they are; any other character a space.

    Runs of scripts written without spaces (Han, kana, Hangul...) are transliterated
    as one word each, and separated from their neighbours: "トヨタ自動車" -> "toyota zidongche".
    """
    pieces: list[str] = []
    previous = ""
    for char in text:
        category = unicodedata.category(char)
        if category == "Cf" or _APOSTROPHES.match(char):  # "Let's" -> "Lets"; zero-width joiners, direction marks
            continue
        if char in keep:
            pieces.append(char)
            previous = ""
            continue
        if not category.startswith(("L", "N", "M")):
            pieces.append(" ")
            previous = ""
            continue
        group = _script_group(char)
        if previous and group != previous and _UNSPACED & {group, previous}:
            pieces.append(" ")
        pieces.append(anyascii(char))
        previous = group
    return "".join(pieces)


def spelt_in_ascii(name: str, keep: str = "") -> str:
    """The name as its slug spells it, words kept apart ("Société Générale" -> "Societe Generale",
    "株式会社メルカリ" -> "merukari"), with the characters in ``keep`` left in ("C++")."""
    return _transliterate(strip_legal_forms(unicodedata.normalize("NFKC", name)), keep)


_UNSPACED = {"han", "kana", "hangul", "thai", "lao", "khmer", "myanmar"}


def written_without_spaces(text: str) -> bool:
    """True when ``text`` has letters of a script that does not separate words by spaces (Han, kana, Thai...).

    Such a name is found inside a sentence as a substring, not as whole words.
    """
    return any(_script_group(char) in _UNSPACED for char in text if not char.isascii())


def _script_group(char: str) -> str:
    """A coarse script of a letter or digit: which neighbours it may share a word with."""
    if char.isascii():
        return "latin"
    name = unicodedata.name(char, "")
    for prefix, group in (("CJK", "han"), ("HIRAGANA", "kana"), ("KATAKANA", "kana"), ("HANGUL", "hangul"),
                          ("THAI", "thai"), ("LAO", "lao"), ("KHMER", "khmer"), ("MYANMAR", "myanmar")):
        if name.startswith(prefix):
            return group
    return "latin"


def company_from_name(name: str) -> Company:
    """The company as named, whitespace collapsed and control characters (ESC, BEL...) dropped: a name is text."""
    slug = slugify(name)
    shown = "".join(c for c in name if c.isspace() or c in "\u200c\u200d" or unicodedata.category(c) not in ("Cc", "Cf"))
    return Company(name=" ".join(shown.split()), slug=slug)


def check_slug(slug: str) -> str:
    """Accept an existing slug (e.g. `cikb forget acme-corp`) only if it is already canonical."""
    if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", slug or "") or len(slug) > _MAX_SLUG:
        raise BadInputError(f"not a company slug: {slug!r}")
    return slug
