"""The reader on what session 82's blind sites showed (Tuta and 37signals, written for the bench; Tuta tuned on since):
the fullest value the sources agree on, for the founders as for a date, and an exact count over a bound of it.
Sentences written for these tests."""

from __future__ import annotations

from cikb.answer.reader import Passage, read, read_question


def _read(question: str, *texts: str, company: str = "Acme", title: str = ""):
    q = read_question(question, None, company, (), ())
    return read(q, [Passage(t, i, i + 1, title, own_site=True) for i, t in enumerate(texts)])


TEAM_CARD = "## Team\n\nJane Roe – Co-founder and CEO\n\nLaura Ozola – Billing & Operations"


def test_every_founder_a_sentence_names_is_the_answer_over_one_co_founders_card() -> None:
    about = "Acme was founded in 2012 by Jane Roe and John Doe.\n\nManagement: Jane Roe – Co-founder and CEO"
    quote = "“Nobody could spell our old name,” says co-founder Jane Roe."  # another voice for her alone
    answer = _read("Who founded Acme?", about, quote, title="About Acme").answer
    assert answer is not None and answer.value == "Jane Roe and John Doe"


def test_a_list_of_other_founders_is_no_fuller_answer() -> None:
    # Only a list holding the name read is the fuller statement of it; another list is a rival, not a fuller form.
    other = "Globex was founded in 2003 by Mark Poe and Ann Lee."
    reading = _read("Who founded Acme?", TEAM_CARD, other, title="Team")
    given = reading.answer or reading.unsure
    assert given is not None and "Mark Poe" not in given.value


def test_an_exact_count_is_taken_over_a_bound_it_agrees_with() -> None:
    bound = "Acme employs more than thirty people, most of them at its office in Leeds."
    exact = "Acme employs 34 people from eleven countries."
    reading = _read("How many people does Acme employ?", bound, exact, title="About Acme")
    assert reading.answer is not None and reading.answer.value == "34"


def test_an_exact_count_beyond_the_bound_or_of_another_noun_is_not_taken() -> None:
    bound = "Acme employs more than thirty people, most of them at its office in Leeds."
    for other in ("Acme employs 24 people from eleven countries.", "Acme serves 34 customers from eleven countries."):
        reading = _read("How many people does Acme employ?", bound, other, title="About Acme")
        given = reading.answer or reading.unsure
        assert given is not None and given.value == "thirty", other
