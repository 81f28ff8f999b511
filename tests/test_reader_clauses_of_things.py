"""Session 87: what a ", which ..." clause says of the thing it is set beside is read as a sentence of its own, and a
priced item named without the company's name is the item asked of. Sentences written for these tests."""

from __future__ import annotations

import pytest
from cikb.answer.entities import thing_clauses
from cikb.answer.reader import Passage, read_asked


def _answer(question: str, said: str):  # noqa: ANN202
    return read_asked(question, [Passage(said, 0, 1, "", own_site=True)], company="Acme").answer


@pytest.mark.parametrize(("said", "clauses"), [
    ("Teams can upgrade to Acme Pro, which costs $29 a month.", ["Acme Pro costs $29 a month."]),
    ("Jane Roe founded Acme, which now employs 250 people.", ["Acme now employs 250 people."]),
    ("Acme acquired Initech, which was founded in 1990.", ["Initech was founded in 1990."]),
    ("Acme, whose staff is small, sells widgets.", []),  # no "which" clause
    ("The plan which we sell costs $9.", []),  # no comma: a restrictive clause, kept in the sentence
])
def test_a_which_clause_is_said_of_its_noun(said: str, clauses: list[str]) -> None:
    assert thing_clauses(said) == clauses


@pytest.mark.parametrize(("question", "said", "value"), [
    ("How much does Acme Pro cost?", "Teams can move to Acme Pro, which costs $29 a month.", "$29"),
    ("How much does Acme Cloud Plus cost?",
     "Teams that need single sign-on can upgrade to Cloud Plus, which costs $10 per user per month.", "$10"),
    ("How many employees does Acme have?", "Jane Roe founded Acme, which now employs 250 people.", "250"),
])
def test_the_value_a_which_clause_states_is_read(question: str, said: str, value: str) -> None:
    answer = _answer(question, said)
    assert answer is not None and answer.value == value


@pytest.mark.parametrize(("question", "said"), [
    ("How much does Acme Pro cost?", "Teams can move to the Basic plan, which costs $9 a month."),  # another plan
    ("When was Acme founded?", "Acme acquired Initech, which was founded in 1990."),  # another body's founding
])
def test_a_which_clause_of_another_thing_is_no_answer(question: str, said: str) -> None:
    assert _answer(question, said) is None
