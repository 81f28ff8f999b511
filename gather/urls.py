"""URL facts the spiders and the caller share: validation, sites, languages, fact pages.

Nothing here touches the network or imports Scrapy, so the caller can validate its
input before a crawler process is started.
"""

from __future__ import annotations

import re
from functools import lru_cache
from urllib.parse import quote, urldefrag, urlsplit

import tldextract
from w3lib.url import canonicalize_url

from cikb.core.config import GatherSettings
from cikb.core.errors import BadInputError
from cikb.core.models import SOURCE_TYPES, SourceRequest, SourceType

ALLOWED_SCHEMES = ("http", "https")

# ISO 639-1 codes: a first path segment like /de/ or /pt-br/ marks a translated copy of the site.
_LANGUAGE_CODES = frozenset(
    """aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy
    da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy
    hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li
    ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa
    pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th
    ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu""".split()
)
_LANGUAGE_SEGMENT = re.compile(r"^([a-z]{2})(?:[-_][a-z]{2,4})?$")


# A folder's index file: web servers answer /about/ with /about/index.html, so a link to either is one page.
_INDEX_FILE = re.compile(r"(?<=/)index\.html?(?=$|[?#])")


def page_key(url: str) -> str:
    """The key by which a crawl knows a page: the canonical URL (w3lib: sorted query, no fragment), its folder's
    index file named or not (``/about/index.html`` is ``/about/``)."""
    return _INDEX_FILE.sub("", canonicalize_url(url), count=1)


def validate_url(url: str) -> str:
    """Return ``url`` stripped and without its fragment, or raise BadInputError saying what is wrong."""
    text = url.strip()
    if not text:
        raise BadInputError("empty URL")
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 -- raises ValueError on a malformed port
    except ValueError as error:
        raise BadInputError(f"malformed URL {text!r}: {error}") from None
    if "://" not in text and (not parts.scheme or "." in parts.scheme):  # "acme.example", "acme.example:8000": a host read as a scheme
        spaced = any(c.isspace() for c in text)
        hint = "give a web address, with https://" if spaced else f"give it with its scheme, e.g. https://{text.lstrip('/')}/"
        raise BadInputError(f"{text!r} is not a whole URL: {hint}")
    if parts.scheme.lower() not in ALLOWED_SCHEMES:
        shown = parts.scheme or "none"
        raise BadInputError(f"unsupported URL scheme {shown!r} in {text!r}: only http and https are fetched")
    if not parts.hostname or any(ch.isspace() for ch in text):
        raise BadInputError(f"malformed URL {text!r}: expected http(s)://host/path")
    return urldefrag(text)[0]


def resolve_source(source_type: str, values: str | list[str], settings: GatherSettings) -> SourceRequest:
    """Turn what the user typed for one source into a validated SourceRequest.

    ``wikipedia`` and ``crunchbase`` accept a full URL or a name looked up under
    ``settings.wikipedia_base_url`` / ``settings.crunchbase_base_url``; ``website``
    and ``news`` (RSS/Atom feeds or article pages) need URLs.
    """
    if source_type not in SOURCE_TYPES:
        raise BadInputError(f"unknown source {source_type!r}: choose from {', '.join(SOURCE_TYPES)}")
    items = [values] if isinstance(values, str) else list(values)
    if not items:
        raise BadInputError(f"no URL given for the {source_type} source")
    urls = [validate_url(_name_to_url(source_type, item, settings)) for item in items]
    return SourceRequest(source_type=source_type, start_urls=list(dict.fromkeys(urls)))


def _name_to_url(source_type: SourceType, value: str, settings: GatherSettings) -> str:
    text = value.strip()
    if "://" in text or source_type in ("website", "news"):
        return text
    if not text:
        raise BadInputError(f"empty {source_type} name")
    if source_type == "wikipedia":
        return _folder(settings.wikipedia_base_url) + quote(text.replace(" ", "_"))
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    if not slug:
        raise BadInputError(f"cannot make a crunchbase name of {text!r}")
    return _folder(settings.crunchbase_base_url) + slug


def _folder(base_url: str) -> str:
    """A base URL as the folder names go into: ".../wiki" is ".../wiki/" (".../wikiAcme_Corp" was asked for, and
    ".../organizationacme" passed a robots.txt that disallows /organization/)."""
    return base_url if base_url.endswith("/") else base_url + "/"


@lru_cache(maxsize=1)
def _extractor() -> tldextract.TLDExtract:
    # The bundled public-suffix snapshot only: never fetch the list from the network.
    return tldextract.TLDExtract(suffix_list_urls=())


def host_of(url: str) -> str:
    """The lowercased host name of ``url`` ('' when it has none)."""
    return (urlsplit(url).hostname or "").lower()


def site_of(url: str) -> str:
    """The registered domain of ``url`` (``blog.acme.co.uk`` -> ``acme.co.uk``); the host for IPs and ``localhost``."""
    host = host_of(url)
    parts = _extractor()(host)
    return parts.top_domain_under_public_suffix or host


_DEFAULT_PORTS = {"http": 80, "https": 443}
Origin = tuple[str, str, int]  # scheme, host, port


def origin_of(url: str) -> Origin:
    """(scheme, host, port) of ``url``, the port made explicit (``http://a.example`` -> ('http', 'a.example', 80))."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    return scheme, host_of(url), parts.port or _DEFAULT_PORTS.get(scheme, 0)


def same_site_origin(url: str, starts: set[Origin]) -> bool:
    """Whether ``url``, on one of the start URLs' sites, may be crawled for its origin.

    On a start URL's host, another port or scheme is another origin (another server, with its own
    robots.txt): only the start URLs' origins, and the https upgrade of one on the default port,
    which nearly every site redirects to. Another host of the site (blog.acme.example): its default port.
    """
    origin = origin_of(url)
    if origin in starts:
        return True
    scheme, host, port = origin
    if port != _DEFAULT_PORTS.get(scheme):
        return False
    if not any(h == host for _, h, _ in starts):
        return True
    return origin == ("https", host, 443) and ("http", host, 80) in starts


def language_prefix(url: str) -> str | None:
    """The language code of the first path segment (``/de/ueber-uns`` -> ``de``), or None."""
    segments = [s for s in urlsplit(url).path.lower().split("/") if s]
    if not segments:
        return None
    match = _LANGUAGE_SEGMENT.match(segments[0])
    if match and match.group(1) in _LANGUAGE_CODES:
        return match.group(1)
    return None


def is_other_language(url: str, language: str) -> bool:
    """True when ``url`` sits under another language's path prefix than ``language``."""
    prefix = language_prefix(url)
    return prefix is not None and prefix != language.lower()


def is_fact_page(url: str) -> bool:
    """True when the URL names a page that usually holds company facts: its last path segment says
    about, company, team, leadership, contact, pricing, press, legal, imprint, careers... (see gather.scoring)."""
    from cikb.gather.scoring import is_core_url  # scoring builds on this module

    return is_core_url(url)
