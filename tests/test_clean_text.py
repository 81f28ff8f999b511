"""clean.text: the bounds and normalization behind C2, including their edge cases."""

from __future__ import annotations

import unicodedata

from cikb.clean.text import bound_bytes, normalize, strip_markdown, truncate
from hypothesis import given
from hypothesis import strategies as st


@given(st.text(), st.integers(min_value=0, max_value=200))
def test_bound_bytes_keeps_a_valid_prefix_within_the_bound(text: str, max_bytes: int) -> None:
    bounded = bound_bytes(text, max_bytes)
    assert len(bounded.encode("utf-8")) <= max_bytes
    assert text.startswith(bounded)


def test_bound_bytes_never_splits_a_character() -> None:
    assert bound_bytes("ab€", 4) == "ab"  # € is three bytes; half of it is dropped, not mangled


@given(st.text(alphabet=st.sampled_from("ab .\n"), max_size=400), st.integers(min_value=10, max_value=300))
def test_truncate_never_exceeds_max_chars_and_keeps_a_prefix(text: str, max_chars: int) -> None:
    cut = truncate(text, max_chars)
    assert len(cut) <= max_chars
    assert text.startswith(cut)


def test_truncate_prefers_a_paragraph_then_a_sentence_then_a_word() -> None:
    paragraphs = "First paragraph is here.\n\nSecond paragraph goes on and on"
    assert truncate(paragraphs, 45) == "First paragraph is here."
    sentences = "One sentence ends here. Another sentence keeps going without end"
    assert truncate(sentences, 44) == "One sentence ends here."
    one_sentence = "word " * 30
    assert truncate(one_sentence, 52) == ("word " * 10).strip()
    assert truncate("short", 50) == "short"


def test_normalize_composes_and_tidies() -> None:
    messy = "Cafe\u0301\r\n\r\n\r\n\r\n  Zu\u0308rich\t\u00a0 office\x00 "
    tidy = normalize(messy)
    assert tidy == "Café\n\nZürich office"
    assert unicodedata.is_normalized("NFC", tidy)


def test_strip_markdown_leaves_the_words() -> None:
    markdown = "## Board\n\n- **Wile E. Coyote**, *chief executive*\n\n| Year | Revenue |\n|---|---|\n| 2023 | [4.2 bn](https://x.example) |"
    assert strip_markdown(markdown).split() == ["Board", "Wile", "E.", "Coyote,", "chief", "executive", "Year", "Revenue", "2023", "4.2", "bn"]
