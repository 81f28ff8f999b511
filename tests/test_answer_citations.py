"""A2: citations are checked after generation."""

from __future__ import annotations

import pytest
from cikb.answer.citations import check_citations, cited_numbers, split_sentences


@pytest.mark.parametrize(
    ("group", "numbers"),
    [("1", [1]), ("1, 3", [1, 3]), ("2-4", [2, 3, 4]), ("1; 2 and 5", [1, 2, 5]), ("3–4", [3, 4])],
)
def test_cited_numbers(group, numbers):
    assert cited_numbers(group) == numbers


def test_valid_citations_are_kept_and_canonical():
    checked = check_citations("Acme was founded in 1999 [1, 2]. It sells anvils [Source 3].", available=3)
    assert checked.text == "Acme was founded in 1999 [1][2]. It sells anvils [3]."
    assert checked.valid == [1, 2, 3] and checked.removed == [] and checked.grounded


def test_numbers_outside_the_context_are_removed_and_reported():
    checked = check_citations("Acme was founded in 1999 [1][7]. It has 40 staff [9].", available=2)
    assert checked.text == "Acme was founded in 1999 [1]. It has 40 staff."
    assert checked.valid == [1] and checked.removed == [7, 9]
    assert checked.uncited == ["It has 40 staff."]
    assert not checked.grounded  # one claim is left without a source


def test_an_answer_without_any_valid_citation_is_not_grounded():
    for text in ("The answer is 42.", "The answer is 42 [0].", "The answer is 42 [4]."):
        checked = check_citations(text, available=3)
        assert checked.valid == [] and not checked.grounded
        assert "[" not in checked.text


def test_a_citation_after_the_full_stop_belongs_to_its_sentence():
    checked = check_citations("Acme makes anvils in Ohio. [2]\nIt was founded in 1999. [1]", available=2)
    assert checked.uncited == [] and checked.grounded


def test_short_lead_ins_need_no_citation():
    checked = check_citations("In short:\nAcme makes anvils in Ohio [1].", available=1)
    assert checked.grounded


def test_split_sentences_keeps_lines_apart():
    assert split_sentences("One claim here [1]. Two claim here [2].\n- a listed claim [3]") == [
        "One claim here [1].", "Two claim here [2].", "a listed claim [3]",
    ]
