"""Spec N5: the coercion table, row by row."""

from __future__ import annotations

import pytest
from cikb.enrich.coerce import (
    MAX_TEXT_CHARS,
    coerce_value,
    is_not_found,
    strip_preamble,
)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("Based on my research, 2010", "2010"),
        ("According to the website, Acme Corp", "Acme Corp"),
        ("Based on the search results: San Francisco", "San Francisco"),
        ("After reviewing the sources, 42", "42"),
        ("Answer: Based on the context, 1999", "1999"),
        ('"Acme Corp"', "Acme Corp"),
        ("“Acme Corp”", "Acme Corp"),
        ("'B2B'", "B2B"),
        ("Acme Corp", "Acme Corp"),  # nothing to strip
        ("Based in Berlin", "Based in Berlin"),  # 'based' alone is not a preamble
        ("The answer is 2010", "2010"),
        ("Value: 3", "3"),
        ("Answer Inc", "Answer Inc"),  # a name, not a preamble
        ("value 0", "value 0"),
    ],
)
def test_preambles_and_wrapping_quotes_are_stripped(raw: str, expected: str) -> None:
    assert strip_preamble(raw) == expected


@pytest.mark.parametrize(
    "raw",
    ["n/a", "N/A", "Unknown", "unknown.", "not available", "Not Available.", "none", "None", "not found", "Not found.",
     "", "   ", "null", "-", "Could not determine an answer.", "Based on my research, unknown", '"N/A"',
     "I don't have enough information about that.", "Not stated in the sources", "None disclosed.", "None stated",
     "This is not mentioned in the context.", "Not explicitly given in the sources"],  # a model's words: each was a cell
)
def test_not_found_sentinels_leave_the_cell_empty(raw: str) -> None:
    for column_type in ("text", "number", "boolean", "select"):
        assert coerce_value(raw, column_type, ["a", "b"]) == (None, "none")


def test_a_real_answer_is_not_a_sentinel() -> None:
    assert not is_not_found("None of the above applies: 12")
    assert not is_not_found("Not for profit") and not is_not_found("Never Settle Labs")  # a value that starts with a no
    assert coerce_value("Nonesuch Ltd", "text") == ("Nonesuch Ltd", "high")


@pytest.mark.parametrize(
    ("raw", "value", "confidence"),
    [
        ("2010", "2010", "high"),
        ("3.5", "3.5", "high"),
        ("-12", "-12", "high"),
        ("$1,234", "1234", "medium"),
        ("€5", "5", "medium"),
        ("£2,500,000", "2500000", "medium"),
        ("¥300", "300", "medium"),
        ("₹99.50", "99.5", "medium"),
        ("1,234,567", "1234567", "medium"),
        ("Founded in 2010, incorporated 2012", "2010", "medium"),  # the first number
        ("about 250 employees", "250", "medium"),
        ("$1.2 billion", "1200000000", "medium"),
        ("Based on my research, 2010", "2010", "high"),  # the preamble goes first, then it is clean
        ("no digits here", None, "none"),
    ],
)
def test_number_coercion(raw: str, value: str | None, confidence: str) -> None:
    assert coerce_value(raw, "number") == (value, confidence)


@pytest.mark.parametrize(
    ("raw", "value", "confidence"),
    [
        ("yes", "true", "high"), ("Yes", "true", "high"), ("true", "true", "high"), ("1", "true", "high"), ("y", "true", "high"),
        ("no", "false", "high"), ("No.", "false", "high"), ("false", "false", "high"), ("0", "false", "high"), ("n", "false", "high"),
        ("Yes, it offers a free tier.", "true", "medium"),
        ("No, it does not.", "false", "medium"),
        ("It is possible", "It is possible", "low"),  # ambiguous: as-is, low
        ("maybe", "maybe", "low"),
    ],
)
def test_boolean_coercion(raw: str, value: str, confidence: str) -> None:
    assert coerce_value(raw, "boolean") == (value, confidence)


OPTIONS = ["B2B", "B2C", "Marketplace"]


@pytest.mark.parametrize(
    ("raw", "value", "confidence"),
    [
        ("B2B", "B2B", "high"),
        ("b2b", "B2B", "high"),  # exact, case-insensitive
        ("marketplace.", "Marketplace", "high"),
        ("It is mostly a B2C business", "B2C", "medium"),  # fuzzy: the option inside the answer
        ("Market", "Marketplace", "medium"),  # fuzzy: the answer inside one option
        ("Marketplase", "Marketplace", "medium"),  # fuzzy: a near spelling
        ("Government", "Government", "low"),  # no match: as-is, low
        ("Both B2B and B2C", "Both B2B and B2C", "low"),  # two options: ambiguous
    ],
)
def test_select_coercion(raw: str, value: str, confidence: str) -> None:
    assert coerce_value(raw, "select", OPTIONS) == (value, confidence)


def test_text_is_kept_up_to_2000_characters_and_truncated_beyond() -> None:
    assert coerce_value("A short answer", "text") == ("A short answer", "high")
    exactly = "x" * MAX_TEXT_CHARS
    assert coerce_value(exactly, "text") == (exactly, "high")
    value, confidence = coerce_value("y" * (MAX_TEXT_CHARS + 500), "text")
    assert MAX_TEXT_CHARS == 2000
    assert value == "y" * 2000 and confidence == "medium"


def test_a_paragraph_in_a_select_column_never_comes_out_high() -> None:
    paragraph = "Based on my research, the company sells to businesses and consumers alike through many channels. " * 5
    value, confidence = coerce_value(paragraph, "select", OPTIONS)
    assert confidence in ("low", "medium")
