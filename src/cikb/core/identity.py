"""A company's identity: which names and which website are one knowledge-base company (issue 23, item 4).

Sharing a word is not identity: "X Labs" is not "X", "Acme Robotics" is not "Acme Corp". A name is a
company's when, legal form, case and punctuation aside, it is the company's slug, its display name, or
a name the company's own pages give it (schema.org ``legalName``/``alternateName``, "formerly X", the
legal name its terms define): "Acme", "ACME Corp.", "acme-corp" and "Acme Corporation" are all Acme Corp.
A website is a company's when it is on the registered domain the company was gathered from.

The stages share this so that what a gather records (cikb.clean.facts) and what a reader resolves
(cikb.retrieve.companies) compare names the same way.
"""

from __future__ import annotations

import ipaddress
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import urlsplit

from cikb.core.slug import spelt_in_ascii, strip_legal_forms

# Legal forms (and the words that stand for the whole group of companies) carry no identity:
# "Acme Corp", "Acme, Inc." and "Acme Corporation" are one company. Only at the end of a name.
LEGAL_FORMS = frozenset(
    """inc incorporated corp corporation co company ltd limited llc llp lp plc gmbh ag kg sa sas sarl se nv bv
    pty pte srl spa oy ab kk group holdings fc afc""".split()
)
_INNER_DOT = re.compile(r"(?<=\b\w)\.")  # "A.C.M.E." -> "ACME", "F.C." -> "FC"
_POSSESSIVE = re.compile(r"['’]s\b", re.IGNORECASE)
_APOSTROPHE = re.compile("['’ʼ`´]")
# "+" and "#" name another thing: C, C++ and C# are three languages (and their foundations three
# companies), so they stay in a name's words where other punctuation goes.
NAMING_SYMBOLS = "+#"
_NON_WORD = re.compile(r"[^\w+#]+")
QUALIFIER = re.compile(r"\s*\([^)]*\)")  # "Sky (United Kingdom)": a qualifier, not part of the name people type
# Small words a name's initials skip: "Intergovernmental Panel on Climate Change" is IPCC.
_INITIALS_SKIP = frozenset("of and the on for in at to de &".split())


def initials(words: list[str]) -> tuple[str, int]:
    """The initials of a name's words, lower-cased, and how many words gave them (small words skipped):
    ["Panel", "on", "Climate", "Change"] -> ("pcc", 3)."""
    named = [w for w in words if w.lower() not in _INITIALS_SKIP]
    return "".join(w[0] for w in named).lower(), len(named)


_JOINERS = frozenset({"and", "the"})  # "Barnes & Noble" = "Barnes and Noble"; "The Coca-Cola Company" = "Coca-Cola"


@lru_cache(maxsize=16384)  # every command matches each company's names again: with 1,000 companies, seconds a row
def name_keys(name: str) -> frozenset[str]:
    """The forms of ``name`` that identify a company: lower-case words, punctuation, "&"/"and", a leading
    "the" and trailing legal forms dropped; possessives folded ("Acme's") and apostrophes dropped as in
    a slug ("Let's Go" -> "lets go"); "+" and "#" kept ("C++" is not "C"); each form also without
    the accents of its Latin letters ("Société" -> "societe"). Two names are one company's when their keys meet."""
    text = _INNER_DOT.sub("", strip_legal_forms(unicodedata.normalize("NFKC", name or "")))
    keys = set()
    forms = (_POSSESSIVE.sub("", text), _APOSTROPHE.sub("", text))
    for form in {*forms, *map(_without_accents, forms)}:
        words = _NON_WORD.sub(" ", form).replace("_", " ").lower().split()
        words = [w for w in words if w not in _JOINERS] or words
        while len(words) > 1 and words[-1] in LEGAL_FORMS:
            words.pop()
        if words:
            keys.add(" ".join(words))
    return frozenset(keys)


def _without_accents(text: str) -> str:
    """Latin letters without their accents ("Société Générale" -> "Societe Generale"): people type a name either
    way. A mark on a letter of another script stays, since there it makes another letter (ガ is not カ)."""
    return "".join(_base_letter(char) for char in text)


def _base_letter(char: str) -> str:
    decomposed = unicodedata.normalize("NFD", char)
    if len(decomposed) > 1 and decomposed[0].isascii() and all(unicodedata.combining(mark) for mark in decomposed[1:]):
        return decomposed[0]
    return char


@dataclass(frozen=True)
class CompanyIdentity:
    """What says a name or a website is this company: its slug, display name, the names its own pages
    give it (``aliases``) and the websites it was gathered from."""

    slug: str
    name: str | None = None
    aliases: tuple[str, ...] = ()
    websites: tuple[str, ...] = ()

    def names(self) -> list[str]:
        """Its slug's words (where they spell a name), display name and aliases, and each without a qualifier in parentheses."""
        forms = [n for n in (self.name, *self.aliases) if n]
        if self._slug_spells_a_name(forms):
            forms.insert(0, self.slug.replace("-", " "))
        return list(dict.fromkeys([*forms, *(QUALIFIER.sub("", f) for f in forms if QUALIFIER.search(f))]))

    def _slug_spells_a_name(self, names: list[str]) -> bool:
        """Whether the slug's words are one of ``names`` as ASCII spells it ("societe-generale" for
        "Société Générale", "merukari" for "株式会社メルカリ"). A slug holds letters and digits only, so
        "c-foundation" for "C++ Foundation" is no name of it: it is another company's ("C Foundation")."""
        if not names:
            return True
        slug_keys = name_keys(self.slug.replace("-", " "))
        return any(slug_keys & name_keys(spelt_in_ascii(name, keep=NAMING_SYMBOLS)) for name in names)

    def keys(self) -> frozenset[str]:
        return _identity_keys(self)

    def own_keys(self) -> frozenset[str]:
        """The keys of the names it goes by itself (slug and display name), not those only its pages give it."""
        return _identity_keys(CompanyIdentity(self.slug, self.name))

    def sites(self) -> frozenset[str]:
        return frozenset(site for url in self.websites if (site := site_key(url)))

    def domains(self) -> frozenset[str]:
        """The registered domains (or IP addresses) its websites were gathered from, port aside (:func:`domain_key`)."""
        return frozenset(domain for url in self.websites if (domain := domain_key(url)))

    def gathered_elsewhere_than(self, website: str) -> bool:
        """Whether ``website`` is on none of the domains the company was gathered from (False when either has
        none): then a row or a gather naming it is another company of that name. The same domain over http or
        https, with www or not, or on another port of its host is the company's."""
        domain = domain_key(website)
        return bool(domain) and bool(self.domains()) and domain not in self.domains()

    def label(self) -> str:
        """How an error line names it: ``acme-corp (Acme Corp)``, or the slug alone when the name says no more."""
        return f"{self.slug} ({self.name})" if self.name and self.name != self.slug else self.slug


@lru_cache(maxsize=16384)
def _identity_keys(identity: CompanyIdentity) -> frozenset[str]:
    return frozenset(key for form in identity.names() for key in name_keys(form))


@lru_cache(maxsize=1)
def _extractor():  # noqa: ANN202 -- tldextract loads only when a website is compared
    import tldextract

    # The bundled public-suffix snapshot only (never the network); private suffixes count, so
    # acme.github.io and globex.github.io are two sites, not one "github.io".
    return tldextract.TLDExtract(suffix_list_urls=(), include_psl_private_domains=True)


def site_key(url: str) -> str:
    """The registered domain of a URL or a bare host ("https://blog.acme.co.uk/x" -> "acme.co.uk");
    for an IP address or a single-label host (localhost), which have none, the host and port; '' when there is no host."""
    text = (url or "").strip()
    if not text:
        return ""
    parts = urlsplit(text if "://" in text else f"http://{text}")
    host = (parts.hostname or "").rstrip(".").lower()
    if not host:
        return ""
    try:
        port = parts.port
    except ValueError:
        port = None
    if _is_ip(host) or "." not in host:
        return f"{host}:{port}" if port else host  # one machine's sites differ by port (127.0.0.1:8001, :8002)
    # A name under no known suffix (acme.example, a company's .internal) is taken as name.suffix.
    return _extractor()(host).top_domain_under_public_suffix or ".".join(host.split(".")[-2:])


def domain_key(url: str) -> str:
    """The registered domain of a URL or a bare host (:func:`site_key`) without a port: "http://127.0.0.1:8001/" ->
    "127.0.0.1"; '' for none or a URL that cannot be read."""
    text = (url or "").strip()
    try:
        host = urlsplit(text if "://" in text else f"http://{text}").hostname if text else None
    except ValueError:  # "http://[bad"
        return ""
    return site_key(f"[{host}]" if host and ":" in host else host or "")


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True
