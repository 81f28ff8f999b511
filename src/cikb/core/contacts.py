"""E-mail, web addresses and phone numbers as written on pages: one set of patterns for the sentence splitter (a table
row whose value is one) and the answer reader (the contacts a question asks for)."""

from __future__ import annotations

import re

import phonenumbers

# Not a fediverse handle ("@dripline@hypha.coop"): that is an account, not a mailbox.
EMAIL_RE = re.compile(r"(?<![\w.+@-])[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[A-Za-z]{2,}(?![\w-])")
# An address written out against harvesters: "info [at] acme [dot] org", "info(at)acme.org". Brackets only: a bare
# "at" is a word of the sentence.
AT, DOT = r"\s*[\[(]\s*at\s*[\])]\s*", r"(?:\.|\s*[\[(]\s*dot\s*[\])]\s*)"
WRITTEN_EMAIL_RE = re.compile(rf"(?<![\w.+@-])[\w.+-]+{AT}[\w-]+(?:{DOT}[\w-]+)*{DOT}[A-Za-z]{{2,}}(?![\w-])", re.I)
WEB_RE = re.compile(r"\bhttps?://[^\s<>()\[\]]*[^\s<>()\[\].,;:!?'\"]|\bwww\.[\w-]+(?:\.[\w-]+)+(?:/[^\s<>()\[\]]*[^\s<>()\[\].,;:!?'\"])?")


def without_web_addresses(sentence: str) -> str:
    """The sentence with its e-mail and web addresses blanked out: the words it says them with."""
    return WEB_RE.sub(" ", EMAIL_RE.sub(" ", WRITTEN_EMAIL_RE.sub(" ", sentence)))


def only_contacts(line: str) -> bool:
    """A line of nothing but e-mail addresses, web addresses and phone numbers ("+31 24 30 10 484
    contact@acme.example"): a contact block's last line."""
    rest = without_web_addresses(line)
    found = list(phonenumbers.PhoneNumberMatcher(rest, "US", leniency=phonenumbers.Leniency.VALID))
    for match in reversed(found):
        rest = rest[:match.start] + " " + rest[match.end:]
    return (bool(found) or rest != line) and not re.search(r"\w", rest)
