"""Company names -> safe slugs (spec G1): the `company` key everywhere."""

from __future__ import annotations

import re
import unicodedata

from cikb.core.errors import BadInputError
from cikb.core.models import Company

# Legal-form suffixes carry no identity: "Acme Corp, Inc." and "Acme Corp" are one company.
_LEGAL_SUFFIXES = {"inc", "incorporated", "llc", "ltd", "limited", "plc", "gmbh", "ag", "sa", "sas", "bv", "nv", "co"}
_MAX_SLUG = 64


def slugify(name: str) -> str:
    """`Acme Corp, Inc.` -> `acme-corp`. Raises BadInputError when nothing usable is left."""
    if not isinstance(name, str) or not name.strip():
        raise BadInputError("company name is empty")
    if "/" in name or "\\" in name or "\x00" in name or name.strip().startswith("."):
        raise BadInputError(f"company name looks like a path, not a name: {name!r}")
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    words = re.findall(r"[a-z0-9]+", ascii_name.lower())
    while len(words) > 1 and words[-1] in _LEGAL_SUFFIXES:
        words.pop()
    slug = "-".join(words)[:_MAX_SLUG].strip("-")
    if not slug:
        raise BadInputError(f"company name has no letters or digits: {name!r}")
    return slug


def company_from_name(name: str) -> Company:
    return Company(name=" ".join(name.split()), slug=slugify(name))


def check_slug(slug: str) -> str:
    """Accept an existing slug (e.g. `cikb forget acme-corp`) only if it is already canonical."""
    if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", slug or "") or len(slug) > _MAX_SLUG:
        raise BadInputError(f"not a company slug: {slug!r}")
    return slug
