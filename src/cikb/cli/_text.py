"""Names are text: what the web or a user wrote is shown as written, never obeyed by the terminal.

A company name, page title, URL or answer may hold Rich markup (``[bold red]x[/]``) or
terminal control sequences (``\\x1b[31m``, OSC 8 hyperlinks, ``\\r`` that overwrites the
line, bidirectional overrides). ``plain()`` drops the control characters; ``safe()`` also
escapes markup, for strings that go into markup-enabled Rich output (``console.print``,
table cells, titles). Use ``plain()`` where Rich does not read markup (``Text``, ``markup=False``).
"""

from __future__ import annotations

import re

from rich.markup import escape

# C0 and C1 controls (ESC, CSI, BEL, BS, CR...) and the invisible bidirectional
# overrides/isolates that reorder what a terminal shows.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_LINE_BREAKS = re.compile("[\t\n\r\u2028\u2029]+")
_NEWLINE = re.compile("\r\n?|[\u2028\u2029]")


def plain(value: object, *, multiline: bool = False) -> str:
    """``value`` as printable text: control characters removed, line breaks as spaces (kept as newlines if ``multiline``).

    A carriage return is a line break, never a way to overwrite what was printed.
    """
    text = "" if value is None else str(value)
    text = _NEWLINE.sub("\n", text) if multiline else _LINE_BREAKS.sub(" ", text)
    return _CONTROL.sub("", text)


def safe(value: object, *, multiline: bool = False) -> str:
    """``plain(value)`` with Rich markup escaped: for markup-enabled output."""
    return escape(plain(value, multiline=multiline))
