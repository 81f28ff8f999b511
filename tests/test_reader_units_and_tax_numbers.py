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



def test_a_vat_number_is_read_whole_in_its_national_grouping_and_after_its_countrys_name() -> None:
    # A British VAT number is grouped 3-4-2: the last two digits are the number's (it gave "GB 142 6628" at medium).
    for line, code in (("VAT number: GB 142 6628 31", "GB 142 6628 31"),
                       ("VAT: FR 40 303 265 045", "FR 40 303 265 045"),
                       ("Acme Ltd is registered for VAT in the United Kingdom under number GB 142 6628 31.",
                        "GB 142 6628 31"),
                       ("Acme AB is registered for VAT in Sweden under number SE556865881401.", "SE556865881401")):
        answer = _read("What is Acme's VAT number?", line, title="Imprint").answer
        assert answer is not None and answer.value == code, (line, answer)
    # Two digits after a code that go on into the sentence are not the code's.
    said = _read("What is Acme's VAT number?", "VAT number GB 123 4567 89 20 staff", title="Imprint")
    assert (said.answer or said.unsure) is None or (said.answer or said.unsure).value != "GB 123 4567 89 20"
