"""Who holds an officer's role, where the sentence names the role and a person near it who does not hold it: one who
acts on the role's holder, one who leaves the post or is made to, one who holds another office. Sentences written for
these tests, none from a corpus."""

from __future__ import annotations

import pytest
from cikb.answer.reader import Passage, read_asked

CEO = "Who is Acme's CEO?"


def _value(question: str, said: str) -> str | None:
    answer = read_asked(question, [Passage(said, 0, 1, "", own_site=True)], company="Acme").answer
    return answer.value if answer is not None else None


@pytest.mark.parametrize("said", [
    "Jane Roe interviewed Acme's CEO about the company's plans.",
    "Jane Roe met Acme's CEO in Berlin.",
    "Jane Roe reports to Acme's CEO.",
    "Acme's board appointed a new CEO, replacing Jane Roe.",
    "Our CEO search continues; Jane Roe is interim CFO.",
])
def test_a_person_the_parse_sets_apart_from_the_role_is_not_its_holder(said: str) -> None:
    # Jane Roe acts on the CEO, is replaced, or holds another office: the role is named and no one holds it.
    assert _value(CEO, said) is None


@pytest.mark.parametrize(("said", "holder"), [
    ("Jane Roe took the CEO role at Acme in 2019.", "Jane Roe"),  # a post taken is held
    ("Jane Roe leads Acme as CEO.", "Jane Roe"),
    ("Jane Roe joined Acme as CEO in 2019.", "Jane Roe"),
    ("Jane Roe co-founded Acme with CEO John Doe.", "John Doe"),
    ("John Doe thanked Acme CEO Jane Roe for her work.", "Jane Roe"),
    ("Jane Roe, CTO, and John Doe, CEO, founded Acme.", "John Doe"),
])
def test_who_takes_or_holds_the_role_is_still_its_holder(said: str, holder: str) -> None:
    assert _value(CEO, said) == holder
