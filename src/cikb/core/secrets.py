"""Secrets are never shown: the one place that masks keys, tokens and URL credentials.

    mask_url("https://user:KEY@host/v1?api_key=KEY")  -> "https://****@host/v1?api_key=****"
    mask_secrets("... KEY ...", secrets={"KEY"})       -> "... **** ..."
    mask_tree({"llm": {"api_key": "KEY"}})            -> {"llm": {"api_key": "****"}}
    secrets_in({"llm": {"base_url": "https://u:KEY@h"}}) -> {"u", "KEY"}

Every output that may carry a configured value (``cikb config``, the LLM call log,
error messages) goes through here. A value counts as secret when its key's last word
is a secret word (``api_key``, ``access_token``, ``password``...; not ``max_tokens``),
when it is a URL's user information, or when it is a URL query parameter so named.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any
from urllib.parse import parse_qsl, urlsplit, urlunsplit

MASK = "****"
# Last word of a key name (split on _ - . and case) that makes its value a secret.
_SECRET_WORDS = frozenset(
    "key apikey token secret password passwd pwd pass credential credentials auth authorization sig signature".split()
)
# Known secret values shorter than this are not searched for in free text (they would mask ordinary words).
MIN_SECRET_LENGTH = 6
_URL = re.compile(r"""\b[a-zA-Z][a-zA-Z0-9+.\-]*://[^\s'"<>`]+""")
# Tokens that announce themselves, wherever they appear: an Authorization header's value,
# a bearer token, an OpenAI-style `sk-...` key.
_TOKENS = re.compile(r"(?i)(\bauthorization[\"']?\s*[:=]\s*[\"']?)(?:[A-Za-z]+ +)?[^\s\"',;}]+|(\bbearer\s+)[A-Za-z0-9._~+/=\-]{16,}|()\bsk-[A-Za-z0-9_\-]{16,}")


def is_secret_name(name: str) -> bool:
    """``api_key``, ``apiKey``, ``access-token``, ``X-Api-Key``: yes; ``max_tokens``, ``key_points``: no."""
    words = re.findall(r"[a-z0-9]+", re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name).lower())
    return bool(words) and words[-1] in _SECRET_WORDS


def mask_url(url: str) -> str:
    """The URL with its user information and secret query values replaced by ``****``."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return url
    netloc = parts.netloc
    if "@" in netloc:
        netloc = f"{MASK}@{netloc.rsplit('@', 1)[1]}"
    query = parts.query
    if query:
        query = "&".join(_mask_query_item(item) for item in query.split("&"))
    if (netloc, query) == (parts.netloc, parts.query):
        return url
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


def _mask_query_item(item: str) -> str:
    name, sep, value = item.partition("=")
    return f"{name}={MASK}" if sep and value and is_secret_name(name) else item


def secrets_in_url(url: str) -> set[str]:
    """The secret parts of one URL: user name and password, and secret query values."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return set()
    found: set[str] = set()
    if parts.username:
        found.add(parts.username)
    if parts.password:
        found.add(parts.password)
    found |= {value for name, value in parse_qsl(parts.query, keep_blank_values=False) if is_secret_name(name)}
    return found


def secrets_in(tree: Any, key: str = "") -> set[str]:
    """Every secret value in a nested structure of dicts, lists and strings (e.g. a settings dump)."""
    found: set[str] = set()
    if isinstance(tree, Mapping):
        for name, value in tree.items():
            found |= secrets_in(value, str(name))
    elif isinstance(tree, (list, tuple, set)):
        for value in tree:
            found |= secrets_in(value, key)
    elif isinstance(tree, str) and tree:
        if is_secret_name(key):
            found.add(tree)
        for match in _URL.finditer(tree):
            found |= secrets_in_url(match.group())
    return found


def mask_secrets(text: str, secrets: Iterable[str | None] = ()) -> str:
    """``text`` with each known secret, URL credentials and self-announcing tokens (bearer, ``sk-``) masked.

    Ordinary prose stays as it is: "the key: value" is not a secret, ``api_key=`` in a URL is.
    """
    if not text:
        return text
    for secret in sorted({s for s in secrets if s and len(s) >= MIN_SECRET_LENGTH}, key=len, reverse=True):
        text = text.replace(secret, MASK)
    text = _URL.sub(lambda m: mask_url(m.group()), text)
    return _TOKENS.sub(lambda m: (m.group(1) or m.group(2) or "") + MASK, text)


def mask_tree(tree: Any, secrets: Iterable[str | None] = (), key: str = "") -> Any:
    """A copy of a nested structure with secret-named values replaced by ``****`` and every string masked."""
    if isinstance(tree, Mapping):
        return {name: mask_tree(value, secrets, str(name)) for name, value in tree.items()}
    if isinstance(tree, list):
        return [mask_tree(value, secrets, key) for value in tree]
    if isinstance(tree, str):
        if is_secret_name(key) and tree:
            return MASK
        return mask_secrets(tree, secrets)
    if tree is not None and is_secret_name(key) and not isinstance(tree, (bool, int, float)):
        return MASK
    return tree
