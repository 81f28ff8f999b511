"""The reader on what session 65's blind sites showed (Adafruit, Libre Space Foundation, Pimoroni and Zulip, written
for the bench) that the held-out sites confirmed: a British address on an estate ("Unit 3, Holbrook Park, ..."), and
a company's tax number. Sentences written for these tests."""

from __future__ import annotations

from cikb.answer.reader import Passage, read, read_question
from cikb.answer.reader._spans import is_postal_address


def _read(question: str, *texts: str, company: str = "Acme", aliases: tuple[str, ...] = (), title: str = ""):
    q = read_question(question, None, company, (), aliases)
    return read(q, [Passage(t, i, i + 1, title, own_site=True) for i, t in enumerate(texts)])


def test_a_unit_on_an_estate_is_a_whole_british_address() -> None:
    assert is_postal_address("Unit 3, Holbrook Park, Sheffield, S20 3FJ")
    assert is_postal_address("Suite 12B, Harbour Exchange, London, E14 9GE")
    # A place and a postcode with no street or unit say where, not the address.
    assert not is_postal_address("Holbrook Park, Sheffield, S20 3FJ")
    said = "Our workshop, offices and warehouse are all under one roof at Unit 3, Holbrook Park, Sheffield, S20 3FJ."
    answer = _read("What is Acme's street address?", said, title="Contact").answer
    assert answer is not None and answer.value == "Unit 3, Holbrook Park, Sheffield, S20 3FJ"


def test_a_tax_number_is_an_identifier_the_company_is_known_by() -> None:
    q = read_question("What is Acme's tax number?", None, "Acme")
    assert q.kind == "identifier"
    answer = _read("What is Acme's tax number?", "Our tax number is 997143380, issued by the tax office of Athens.",
                   title="Legal notice").answer
    assert answer is not None and answer.value == "997143380"

