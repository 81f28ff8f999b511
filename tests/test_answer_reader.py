"""The one reader (cikb.answer.reader): question types, typed spans, sentence choice and an honest confidence,
on sentences written for these tests; and ask and enrich giving the same answer from the same chunks."""

from __future__ import annotations

from collections import Counter
from datetime import date

import pytest
from answer_helpers import retrieval, scored_chunk
from cikb.answer import ABSTENTION, Answerer, entities
from cikb.answer.entities import Relation, asked_relation
from cikb.answer.reader import (
    Passage, normal_date, number_value, plain, read, read_asked, read_question, spans, split_sentences, states_question,
)
from cikb.enrich.evidence import passages_from_chunks
from cikb.enrich.extract import extract_answer


def answer(question: str, *texts: str, company: str = "Brightwater Labs", column_type: str | None = None):
    """The value the reader reads and how sure it is; one read with low confidence is related reading to ask and
    enrich (tests/test_reader_gate.py), but it is still the reader's choice among the sentences."""
    reading = read(read_question(question, column_type, company), [Passage(t, i, i + 1) for i, t in enumerate(texts)])
    return reading.answer or reading.unsure


def given(question: str, text: str) -> str | None:
    """The value the reader gives for ``question`` from ``text`` on a page about the company (not one it holds back)."""
    reading = read(read_question(question, None, "Brightwater Labs"), [Passage(text, 0, 1, "About Brightwater Labs")])
    return reading.answer.value if reading.answer else None


def kind_of(question: str) -> str:
    return read_question(question, None, "Brightwater Labs").kind


@pytest.mark.parametrize(
    ("question", "column_type", "kind"),
    [
        ("What year did Brightwater Labs open its first lab?", None, "year"),
        ("When was Brightwater Labs registered?", None, "date"),
        ("When was Brightwater Labs founded?", "number", "year"),
        ("How many engineers does Brightwater Labs employ?", None, "number"),
        ("How much funding has Brightwater Labs raised?", None, "money"),
        ("What was Brightwater Labs' revenue in 2024?", "number", "money"),
        ("Who runs Brightwater Labs?", None, "person"),
        ("Which organisation owns Brightwater Labs?", None, "org"),
        ("In what city is Brightwater Labs based?", None, "place"),
        ("Where is Brightwater Labs headquartered?", None, "place"),
        ("What does Brightwater Labs make?", None, "text"),
        ("Is Brightwater Labs profitable?", "boolean", "boolean"),
        ("What is the email address of Brightwater Labs?", None, "contact"),  # not a place
        ("What is Brightwater Labs' phone number?", None, "contact"),  # not a quantity
        ("How many phone lines does Brightwater Labs run?", None, "number"),
        ("What is Brightwater Labs' EIN?", None, "identifier"),  # not free text
        ("What is the registration number of Brightwater Labs?", None, "identifier"),  # not a count
        ("How many VAT numbers does Brightwater Labs hold?", None, "number"),  # a count of them
        ("What EIN number does Brightwater Labs file under?", None, "identifier"),
        ("Brightwater Labs' DUNS number", "number", "number"),  # a number column stays one
        ("In which city is the commercial register of Brightwater Labs kept?", None, "place"),
        ("What is the parent company of Brightwater Labs?", None, "org"),  # as "Brightwater Labs' parent company"
        ("What is the fiscal host of Brightwater Labs?", None, "text"),  # a host need not be a body
        ("How can journalists contact Brightwater Labs?", None, "contact"),  # not in what manner
        ("How do I get in touch with Brightwater Labs?", None, "contact"),
        ("Where should I send a sales enquiry for Brightwater Labs?", None, "contact"),  # not a place
        ("Where did Brightwater Labs send its first product?", None, "place"),
    ],
)
def test_the_question_is_typed(question: str, column_type: str | None, kind: str) -> None:
    assert read_question(question, column_type, "Brightwater Labs").kind == kind


@pytest.mark.parametrize("company", ["Brightwater Labs", ""])
def test_a_possessive_before_the_noun_asked_does_not_hide_it(company: str) -> None:
    # Asked of a company the knowledge base does not know (no subject named), the name's possessive still stands
    # before the noun: "What is Kestrel's annual revenue?" asks an amount, as "What is its annual revenue?" does.
    assert read_question("What is Kestrel's annual revenue?", None, company).kind == "money"
    assert read_question("What was Kestrel’s first year of profit?", None, company).kind == "year"


@pytest.mark.parametrize("company", ["Brightwater Labs", ""])
@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("What is the annual revenue of Brightwater Labs?", "money"),
        ("What were the net profits of Brightwater Labs in 2023?", "money"),
        ("What was the first year Brightwater Labs made a profit?", "year"),
        ("What is the exact date of Brightwater Labs' listing?", "date"),
        ("What is the maximum number of seats in the Brightwater Labs plan?", "number"),
        # After "what" as a determiner the noun it names is asked: a newspaper, a report, not a number or a date.
        ("What newspaper has the highest number of readers?", "text"),
        ("What report had the correct date?", "text"),
        # A participle used as an adjective describes the noun as one does: "starting", "estimated".
        ("What is the starting price of a Brightwater Labs plan?", "money"),
        ("What is the estimated cost of the Brightwater Labs plant?", "money"),
    ],
)
def test_an_adjective_after_what_is_does_not_hide_the_noun_asked(question: str, kind: str, company: str) -> None:
    assert read_question(question, None, company).kind == kind


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        # What a thing is "how much", or what it "costs", is its price, whatever the noun.
        ("How much is the cheapest Acme plan?", "money"),
        ("How much was the signing payment for Jane Roe?", "money"),
        ("What does the cheapest Acme plan cost?", "money"),
        ("What do Acme's kits cost per month?", "money"),
        # What a company earns, and what is only counted in money.
        ("How much does Acme earn?", "money"),
        ("How much investment has Acme received?", "money"),
        # Not a count after a noun that is measured: how much of it there is.
        ("How much storage does the free plan include?", "number"),
        ("How much paid annual leave do Acme employees get?", "number"),
    ],
)
def test_how_much_a_thing_is_or_what_it_costs_asks_its_price(question: str, kind: str) -> None:
    assert read_question(question, None, "Acme").kind == kind


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        # A column's heading or a search asks what "What is the ...?" asks.
        ("Acme founding date?", "date"),
        ("Acme headcount", "number"),
        ("What is Acme's headcount?", "number"),
        # A number to call is a phone number, as a call is made to one.
        ("What number can I call to reach Acme?", "contact"),
        ("How can I call Acme?", "contact"),
        # Not a heading: a question asked yes or no is read as one ("Is Acme a public company?" asks no company).
        ("Is Acme a public company?", "text"),
    ],
)
def test_a_heading_a_count_and_a_number_to_call_are_typed(question: str, kind: str) -> None:
    assert read_question(question, None, "Acme").kind == kind


def test_the_subject_is_never_a_key_term_and_exclusions_are_dropped() -> None:
    q = read_question("What other products does Brightwater Labs sell besides its water filters?", None, "Brightwater Labs")
    assert "brightwat" not in q.terms and "lab" not in q.terms
    assert "filter" not in q.terms and "other" in q.terms


def test_a_name_given_beside_the_subject_with_a_slash_is_the_subject_too() -> None:
    q = read_question("Who is the chief scientist of Brightwater Labs / Clearflow?", None, "Brightwater Labs")
    assert q.terms == ("chief", "scientist") and "clearflow" in q.subject_terms
    # The other name is no key term: the sentence naming the role wins over one that repeats the other name.
    found = answer("Who is the chief scientist of Brightwater Labs / Clearflow?",
                   "Clearflow and Brightwater Labs both sell Clearflow filters, says Marta Silva.",
                   "Our chief scientist, Ana Ruiz, joined in 2017.")
    assert found is not None and found.value == "Ana Ruiz"


def test_its_founding_in_a_sentence_led_by_another_body_is_not_high() -> None:
    # "its" is the main clause's subject, "Kestrel's Clearflow service": Kestrel is another body.
    text = "Since its founding in 2013, Kestrel’s Clearflow service has come to filter water for ten million homes."
    other = answer("What year was Clearflow founded?", text, company="Clearflow", column_type="number")
    assert other is not None and other.value == "2013" and other.confidence != "high"
    own = answer("What year was Clearflow founded?", "Since its founding in 2013, Clearflow has grown to 40 people.",
                 company="Clearflow", column_type="number")
    assert own is not None and (own.value, own.confidence) == ("2013", "high")


def test_a_related_word_just_before_the_year_answers_at_low_confidence_only() -> None:
    began = answer("What year was Brightwater Labs founded?", "Brightwater Labs began operations in 2016 in Porto.",
                   column_type="number")
    assert began is not None and (began.value, began.confidence) == ("2016", "low")
    assert answer("What year was Brightwater Labs founded?", "Brightwater Labs opened an office in Lisbon in 2019.",
                  column_type="number") is None


def test_a_timeline_line_is_about_the_subject_it_names_after_the_date() -> None:
    found = answer("When was Brightwater Labs incorporated?", "March 3, 2016: Brightwater Labs is incorporated in Porto")
    assert found is not None and (found.value, found.confidence) == ("March 3, 2016", "high")


def test_a_founder_named_with_a_descriptor_after_by_is_stated_directly() -> None:
    found = answer("Who founded Brightwater Labs?", "Brightwater Labs was founded by chemist Ana Ruiz in 2016 as Clearwater.",
                   column_type="text")
    assert found is not None and (found.value, found.confidence) == ("Ana Ruiz", "high")


def test_a_name_with_an_apostrophe_is_the_subject_in_either_spelling() -> None:
    q = read_question("What year was Let’s Filter founded?", "number", "Let's Filter")
    assert {"let", "let's", "filter"} <= set(q.subject_terms) and q.terms == ("found",)
    found = answer("What year was Let’s Filter founded?", "Let’s Filter was founded in 2019 by Ana Ruiz.",
                   company="Let's Filter", column_type="number")
    assert found is not None and (found.value, found.confidence) == ("2019", "high")


def test_dates_numbers_and_money_are_read_by_their_libraries() -> None:
    assert normal_date("March 3, 1987") == normal_date("3 March 1987") == "1987-03-03"
    assert normal_date("Sept. 2015") == "2015-09"
    assert number_value("twenty-five") == 25 and number_value("1,250") == 1250 and number_value("3.5 million") == 3_500_000
    raised = answer("How much funding has Brightwater Labs raised?",
                    "Brightwater Labs raised €12.5 million from two investors in 2021.")
    assert raised is not None and raised.value == "€12.5 million"


def test_one_splitter_reads_markdown_as_prose() -> None:
    sentences = split_sentences("We build water filters for homes. Dr. Ana Ruiz leads the research team.\n\n"
                                "## [Read more](https://example.test)\n\nFounded: 2016 in Porto, Portugal")
    assert sentences == ["We build water filters for homes.", "Dr. Ana Ruiz leads the research team.",
                         "Founded: 2016 in Porto, Portugal"]


def test_a_direct_statement_about_the_subject_is_high() -> None:
    found = answer("What year was Brightwater Labs founded?", "Brightwater Labs was founded in 2016 by Ana Ruiz and Tomas Berg.",
                   column_type="number")
    assert (found.value, found.confidence) == ("2016", "high")


def test_a_founding_of_something_else_is_not_the_subjects() -> None:
    texts = ["In 2022 Brightwater Labs established the Brightwater Prize for young chemists.",
             "Brightwater Labs, a maker of water filters, was formed in 2016 in Porto."]
    found = answer("When was Brightwater Labs founded?", *texts)
    assert found.value == "2016"
    # "a founding member of", "can be found", "the team's form" are not foundings either
    look_alikes = answer("When was Brightwater Labs founded?",
                         "Brightwater Labs became a founding member of the Clean Water Alliance in 2019.",
                         "Our reports can be found online since 2018.", "The team's form improved in 2020.")
    assert look_alikes is None


def test_a_body_said_to_be_newly_founded_is_not_who_founded_the_subject() -> None:
    handed = ("Brightwater Labs has transferred ownership of its sensor projects to the Open Water Foundation, a newly "
              "founded non-profit organisation based in Switzerland.")
    q = read_question("Who founded Brightwater Labs?", None, "Brightwater Labs")
    alone = read(q, [Passage(handed, 0, 1)])
    assert alone.answer is None and alone.unsure is None  # the foundation was founded; it founded nothing
    founded = read(q, [Passage(handed, 0, 1), Passage("Brightwater Labs was founded in 2018 by Jane Roe.", 1, 2)])
    assert founded.answer is not None and founded.answer.value == "Jane Roe"


def test_an_officer_is_not_an_office() -> None:
    # Snowball stems both "officer" and "office" to "offic": a sentence about a contracting officer says nothing
    # of where the company's office is.
    assert answer("Where is Brightwater Labs' office?",
                  "We worked closely with people at Globex's Southeast Region, including our contracting officer.") is None
    assert answer("Where is Brightwater Labs' office?", "Brightwater Labs' office is in Porto.").value == "Porto"


def test_an_address_is_a_street_or_a_postcode_not_a_town() -> None:
    # Asked for an address, a town alone is where the address is: no answer to paste into an "Address" column.
    q = "What is Brightwater Labs' mailing address?"
    town = answer(q, "We use our business office address in San Francisco to provide a mailing address, for "
                     "corporate filings, and on-site workplaces as legally required.")
    assert town is not None and town.confidence == "low"  # related reading, not an answer
    street = answer(q, "Brightwater Labs' mailing address is 12 Harbour Street, Porto 4000-123, Portugal.")
    assert street is not None and street.confidence != "low"
    # A labelled address is given whole, and judged whole: its postcode is in the value, not in the town read.
    labelled = read(read_question("What is Brightwater Labs' address?", None, "Brightwater Labs"),
                    [Passage("Address: Porto, 4000-123, Portugal", 0, 1, "About Brightwater Labs")]).answer
    assert labelled is not None and labelled.value == "Porto, 4000-123, Portugal"


def test_a_clause_about_another_noun_does_not_answer() -> None:
    texts = ["Brightwater Labs uses the Kestrel membrane, created by Halvard Industries in 1994, in every filter.",
             "Brightwater Labs was created in 2016."]
    assert answer("What year was Brightwater Labs created?", *texts).value == "2016"


def test_people_and_organisations_that_founded_it() -> None:
    people = answer("Who founded Brightwater Labs?", "Ana Ruiz, Tomas Berg and Lena Hoff founded Brightwater Labs in a garage in Porto.")
    assert people.value == "Ana Ruiz, Tomas Berg and Lena Hoff" and people.confidence == "high"
    body = answer("Who founded Brightwater Labs?",
                  "Brightwater Labs was set up in 2016 by the Porto Water Research Society with a grant from the city.")
    assert body.value == "Porto Water Research Society"
    led = answer("Who founded Brightwater Labs?",
                 "Founded in 2016 by a group of chemists and engineers led by Ana Ruiz, the company now sells in 30 countries.")
    assert led.value == "Ana Ruiz" and led.confidence != "high"


def test_a_name_the_question_gives_is_no_answer() -> None:
    found = answer("Who founded Brightwater Labs besides Ana Ruiz?", "Ana Ruiz and Tomas Berg founded Brightwater Labs in 2016.")
    assert found is not None and "Tomas Berg" in found.value and found.value != "Ana Ruiz"


def test_places() -> None:
    hq = answer("Where is Brightwater Labs headquartered?", "Brightwater Labs is headquartered in Porto, Portugal, with a sales office in Lyon.")
    assert hq.value == "Porto, Portugal" and hq.confidence == "high"
    # "based on" is no location
    assert answer("Where is Brightwater Labs based?", "The filter design is based on Kestrel Membranes research.") is None


def test_conflicting_statements_are_not_high_and_other_subjects_never_are() -> None:
    two = answer("What year was Brightwater Labs founded?", "Brightwater Labs was founded in 2016.",
                 "Brightwater Labs was founded in 2015, its filings say.", column_type="number")
    assert two.confidence != "high"
    other = answer("What year was Brightwater Labs founded?", "Kestrel Membranes was founded in 1994.", column_type="number")
    assert other is None or other.confidence != "high"


def test_nothing_of_the_kind_asked_is_no_answer_and_free_text_is_low() -> None:
    assert answer("What year was Brightwater Labs founded?", "Brightwater Labs builds water filters for homes and clinics.") is None
    text = answer("What does Brightwater Labs make?", "Brightwater Labs makes water filters for homes and clinics.")
    assert text.confidence == "low"


@pytest.mark.parametrize(
    ("question", "text", "value"),
    [
        ("What is Brightwater Labs' main product?", "Our main product is Clearflow, a filter for clinics.", "Clearflow, a filter for clinics"),
        ("What is Brightwater Labs' flagship product?", "The flagship product of Brightwater Labs is the Clearflow 3.",
         "the Clearflow 3"),
        ("What is Brightwater Labs' mission?", "Our mission is to make clean water cheap.", "to make clean water cheap"),
        # No linking verb just after the key term: the clause stays as it is.
        ("What does Brightwater Labs make?", "Brightwater Labs makes water filters for homes and clinics.",
         "water filters for homes and clinics"),
        ("What is Brightwater Labs' mission?", "Our mission statement says it all: water is a right.",
         "statement says it all: water is a right"),
        ("What is the name of Brightwater Labs' check-in app?", "Our check-in app is called Scanly and runs on Android.",
         "Scanly and runs on Android"),
        # Asked for the name of a thing in so many words, the name written before the noun, as for "which app".
        ("What is the name of the Brightwater Labs configuration app?", "Every filter can be set up with our free Clearview app.",
         "Clearview app"),
        ("What is Brightwater Labs' configuration app called?", "Every filter can be set up with our free Clearview app.",
         "Clearview app"),
    ],
)
def test_a_free_text_value_is_the_value_alone_without_the_verb_that_links_it(question: str, text: str, value: str) -> None:
    # A table cell holds "Clearflow", not "is Clearflow"; asked for the name of a thing, the name.
    assert answer(question, text).value == value


ABOUT = ("# About Brightwater Labs\n\nBrightwater Labs builds water filters for homes and clinics. "
         "The company was founded in 2016 by Ana Ruiz and Tomas Berg. It is headquartered in Porto, Portugal. "
         "Brightwater Labs (VAT number PT 509876543) files its accounts in Porto.")
NEWS = ("# Brightwater opens a plant\n\nBrightwater Labs opened a second plant in Braga in 2023. "
        "The plant employs 85 people.")


@pytest.mark.parametrize(
    ("question", "column_type"),
    [("What year was Brightwater Labs founded?", "text"), ("Who founded Brightwater Labs?", "text"),
     ("Where is Brightwater Labs headquartered?", "text"),
     ("How many people does the Braga plant of Brightwater Labs employ?", "text"),
     ("What is the VAT number of Brightwater Labs?", "text")],
)
def test_ask_and_enrich_give_the_same_answer_from_the_same_chunks(question: str, column_type: str) -> None:
    result = retrieval(question, [NEWS, ABOUT], company="brightwater-labs")
    result.trace.company.matched = "Brightwater Labs"
    asked = Answerer().answer(question, result)
    cell = extract_answer(question, column_type, passages_from_chunks(result.context), company="Brightwater Labs")
    assert asked.short_answer == cell.value
    if cell.value is None:  # "The plant employs 85 people": the plant, not the company; both abstain
        assert asked.abstained and "85 people" in asked.related[0].text and "85 people" in cell.note
    else:
        assert asked.answer.startswith(cell.evidence)


def test_a_frequently_asked_questions_answer_is_read_with_its_question() -> None:
    # "In the old harbour of Porto" holds no word of the question; under its question heading it is the answer.
    faq = ("# Brightwater Labs FAQ\n\n### Where is Brightwater Labs based?\n\nIn the old harbour of Porto, since 2016."
           "\n\n### Do you sponsor visas?\n\nNo, we do not sponsor work visas at this time.")
    question = "Where is Brightwater Labs headquartered?"
    result = retrieval(question, [faq], company="brightwater-labs")
    result.trace.company.matched = "Brightwater Labs"
    asked = Answerer().answer(question, result)
    read_with_its_question = "Where is Brightwater Labs based? In the old harbour of Porto, since 2016."
    assert asked.related and asked.related[0].text == read_with_its_question


def test_a_question_headings_verb_makes_nothing_of_the_answer_after_it() -> None:
    # "founded? In 2016": the clause ends at the question mark; "In" is no name of something else founded.
    faq = "# FAQ\n\n### When were you founded?\n\nIn 2016, by two friends from Porto."
    reading = read(read_question("What year was Brightwater Labs founded?", None, "Brightwater Labs"), [Passage(faq)])
    assert not reading.sentences[0].creates_other and reading.unsure.value == "2016"


def test_an_abstention_on_a_value_read_unsurely_says_so_and_names_it() -> None:
    # A year is read, but not as the founding's: the warning says the sources do not state it surely (not that none
    # states a year), and the sentence it was read from leads the related reading.
    question = "What year was Brightwater Labs founded?"
    said = "In 2015 the founders of Brightwater Labs were still at university."
    asked = Answerer().answer(question, retrieval(question, [f"# About\n\n{said}"]))
    assert asked.answer == ABSTENTION and asked.short_answer is None
    assert asked.warnings == ["none of the 1 retrieved source(s) states a year for this question surely: '2015' is "
                              "the closest reading, shown first as related reading"]
    assert asked.related and asked.related[0].text == said


def test_an_abstention_on_a_free_text_reading_names_no_fragment_of_it() -> None:
    question = "What does Brightwater Labs offer?"
    said = "We will send you an offer and, if needed, our data processing agreement."
    asked = Answerer().answer(question, retrieval(question, [f"# Contact Brightwater Labs\n\n{said}"]))
    assert asked.answer == ABSTENTION
    assert asked.warnings == ["none of the 1 retrieved source(s) has a sentence that states an answer for this "
                              "question"]
    assert asked.related and asked.related[0].text == said


def test_ask_says_plainly_when_no_sentence_states_what_was_asked() -> None:
    question = "What year was Brightwater Labs founded?"
    unrelated = retrieval(question, ["# Certificates\n\nEvery certificate is checked by the policy authority before it is used."])
    asked = Answerer().answer(question, unrelated)
    assert asked.answer == ABSTENTION and asked.abstained and not asked.citations and not asked.sources
    assert asked.short_answer is None and "states a year" in asked.warnings[0]
    empty = Answerer().answer(question, retrieval(question, []))  # R3: nothing retrieved
    assert empty.answer == ABSTENTION and empty.warnings == []


def test_scored_chunk_helper_is_what_enrich_reads() -> None:
    chunk = scored_chunk(ABOUT, 1)
    assert passages_from_chunks([chunk])[0].text == ABOUT


def test_capitalised_words_after_an_article_are_no_persons_name() -> None:
    # A blog listing glues a title to its summary: "the Engineering Culture" is capitalised, not a person.
    title_and_summary = ("A Look into the Engineering Culture at Brightwater Labs Brightwater Labs has implemented practices "
                         "that aim to create a workplace where engineers can thrive.")
    assert answer("Who founded Brightwater Labs?", title_and_summary, column_type="text") is None
    found = answer("Who founded Brightwater Labs?", title_and_summary, "Brightwater Labs was founded by Ana Ruiz in 2016.", column_type="text")
    assert found is not None and (found.value, found.confidence) == ("Ana Ruiz", "high")
    # "that" before a name is a relative pronoun, not an article.
    found = answer("Who founded Brightwater Labs?", "Brightwater Labs is a company that Ana Ruiz founded in 2016.", column_type="text")
    assert found is not None and found.value == "Ana Ruiz"


@pytest.mark.parametrize(
    ("question", "statement", "value"),
    [
        ("What is Brightwater Labs' tax status?", "Brightwater Labs is a 501(c)(3) organisation supported by its donors.",
         "a 501(c)(3) organisation"),
        ("What kind of legal entity is Brightwater Labs?", "Brightwater Labs is a Delaware corporation owned by its staff.",
         "a Delaware corporation"),
        ("What is the legal form of Brightwater Labs?", "Brightwater Labs is registered as a GmbH in Vienna.", "a GmbH"),
    ],
)
def test_a_legal_form_or_tax_status_is_read_from_the_sentence_stating_its_kind(question: str, statement: str, value: str) -> None:
    # Such a sentence holds none of the question's words ("tax", "legal", "entity"), only the form itself.
    other = "Brightwater Labs hosts an open day for local schools every spring."
    found = answer(question, other, statement)
    assert found is not None and found.value.startswith(value) and found.confidence == "low"


def test_a_legal_form_the_subject_was_incorporated_as_states_its_kind() -> None:
    # "is incorporated as a ..." says what the subject was made, as "is a ..." says what it is.
    question = "What kind of legal entity is Brightwater Labs?"
    made = "Brightwater Labs is incorporated as a Delaware 501(c)(6) nonprofit corporation."
    result = retrieval(question, [made, "Brightwater Labs hosts an open day for local schools every spring."],
                       company="brightwater-labs")
    result.trace.company.matched = "Brightwater Labs"
    asked = Answerer().answer(question, result)
    assert not asked.abstained and asked.answer.startswith(made), asked.answer


def test_the_subjects_possessive_is_no_key_term() -> None:
    assert read_question("What is Brightwater Labs' revenue?", None, "Brightwater Labs").terms == ("revenu",)
    assert read_question("Who is Acme's CEO?", None, "Acme").terms == ("ceo",)


def test_a_date_question_gets_the_day_a_year_elsewhere_agrees_with() -> None:
    # The better-scored sentence gives only the year; the day stated elsewhere is the answer to "when".
    found = answer("When was Brightwater Labs incorporated?",
                   "Since its incorporation in 2013, Brightwater Labs has grown to 85 staff.",
                   "May 24, 2013: Brightwater Labs is incorporated in Porto.")
    assert found.value == "May 24, 2013"
    assert answer("What year was Brightwater Labs incorporated?",
                  "Since its incorporation in 2013, Brightwater Labs has grown to 85 staff.",
                  "May 24, 2013: Brightwater Labs is incorporated in Porto.").value == "2013"
    # The day must come from a sentence that holds as much of the question: another event of that year is not it.
    found = answer("When did Brightwater Labs start Tidepool?",
                   "Our Tidepool project started in 2020 to map the harbour.",
                   "December 18, 2020: Harbourwatch starts sending flood alerts")
    assert found.value == "2020"


def test_a_qualified_role_is_another_role() -> None:
    # A "technical lead" does not lead the company, a "vice president" is not its president.
    texts = ("Our technical lead, Tomas Berg, played a big role in the release.",
             "Brightwater Labs is led by Ana Ruiz, its executive director.",
             "Vice President Lena Holt wrote this year's letter.")
    assert answer("Who leads Brightwater Labs?", *texts).value == "Ana Ruiz"
    assert answer("Who is the technical lead of Brightwater Labs?", *texts).value == "Tomas Berg"
    assert answer("Who is the vice president of Brightwater Labs?", *texts).value == "Lena Holt"


def test_another_bodys_officer_is_not_the_subjects() -> None:
    # A sponsor's announcement on the subject's site quotes the sponsor's chief executive.
    question = "Who is the CEO of Brightwater Labs?"
    assert answer(question, "Their co-founder and CEO, Markus Weber, commented on the grant.") is None
    assert answer(question, "Kestrel Group's CEO Jane Roe said the grant will help.") is None
    assert answer(question, "“We are proud to help,” said Jane Roe, CEO of Kestrel Group.") is None
    assert answer(question, "“We are proud to help,” said Jane Roe, CEO of Kestrel Group.",
                  "Ana Ruiz, CEO of Brightwater Labs, thanked the donors.").value == "Ana Ruiz"
    assert answer(question, "Brightwater Labs’ CEO, Ana Ruiz, thanked the donors.").value == "Ana Ruiz"


def test_a_chief_executive_is_a_person_never_an_organisation() -> None:
    # "Who founded it?" may be answered by a body; "Who is its CEO?" only by a person.
    assert answer("Who is the CEO of Brightwater Labs?", "The chief executive of Brightwater Labs is appointed by Kestrel Group.") is None
    assert answer("Who founded Brightwater Labs?", "Brightwater Labs was founded by Kestrel Group in 2016.").value == "Kestrel Group"
    found = answer("Who is the leader of Brightwater Labs?", "Letter from our Executive Director: Brightwater Labs had a good year.",
                   "Ana Ruiz, Executive Director of Brightwater Labs, opened the plant.")
    assert found.value == "Ana Ruiz"


def test_based_and_located_take_the_related_words_of_headquartered() -> None:
    found = answer("Where is Brightwater Labs based?", "Brightwater Labs has its head office in Porto, Portugal.")
    assert found is not None and found.value.startswith("Porto")


def test_an_address_or_an_office_is_where_the_company_is_headquartered_or_located() -> None:
    # "What is its address?" is answered by the sentence that says where it is headquartered; "Where are its
    # offices?" by its "Address:" line. Stated by a related word, the answer is never high confidence.
    seat = "Brightwater Labs is headquartered at 12 Quay Street, Porto, Portugal."
    for question in ("What is Brightwater Labs' address?", "What is the street address of Brightwater Labs?"):
        found = answer(question, seat)
        assert found is not None and found.value == "12 Quay Street, Porto, Portugal" and found.confidence != "high"
    q = read_question("Where are Brightwater Labs' offices?", None, "Brightwater Labs")
    line = read(q, [Passage("Address: 48 Harbour Street, Portland, OR 97201, USA", 1, 1, "Facts about Brightwater Labs")])
    assert line.answer is not None and line.answer.value.startswith("48 Harbour Street")


def test_a_label_line_on_a_page_about_the_subject_is_about_the_subject() -> None:
    # "Address: ..." names no one; on the company's own contact page it is the company's address.
    q = read_question("Where is Brightwater Labs located?", None, "Brightwater Labs")
    passages = [Passage("Visitors based in the EEA may ask us for a copy of their data.", 1, 1, "Privacy policy"),
                Passage("Address: 48 Harbour Street, Portland, OR 97201, USA", 2, 2, "Contact Brightwater Labs")]
    assert read(q, passages).answer.value.startswith("48 Harbour Street")
    elsewhere = [passages[0], Passage(passages[1].text, 2, 2, "Contact Kestrel Group")]
    assert read(q, elsewhere).answer is None  # another body's address, not the subject's


def test_the_date_another_thing_was_launched_is_no_date_of_the_subjects_launch() -> None:
    launched_other = "We launched our Kestrel project in late 2020."
    assert answer("When did Brightwater Labs launch?", launched_other) is None
    found = answer("When did Brightwater Labs launch?", launched_other, "Since it launched in 2016, Brightwater Labs has sold 1,000 filters.")
    assert found.value == "2016"


@pytest.mark.parametrize(
    "sentence",
    ["Kestrel Water was founded in 1999 and bought its first Brightwater Labs filter in 2016.",
     "Kestrel Water, founded in 1999, is a long-time Brightwater Labs customer."],
)
def test_another_bodys_predicate_in_a_sentence_that_mentions_the_subject_is_no_answer(sentence: str) -> None:
    # The trained parser reads Kestrel Water as what "founded" happened to: the year is Kestrel's. Read with low
    # confidence, it is related reading, never the answer.
    reading = read(read_question("When was Brightwater Labs founded?", None, "Brightwater Labs"), [Passage(sentence, 0, 1)])
    assert reading.answer is None
    assert reading.unsure is None or reading.unsure.confidence == "low"


@pytest.mark.parametrize(
    "sentence",
    ["Jane Roe and I founded Brightwater Labs in 2013, after ten years at Kestrel Water.",
     "The BL was founded in 2013 by two engineers from Porto.",  # the initials of its name
     "In 2013, two engineers founded the company that became Brightwater Labs."],
)
def test_the_subject_founded_or_founding_it_is_still_an_answer(sentence: str) -> None:
    reading = read(read_question("When was Brightwater Labs founded?", None, "Brightwater Labs"), [Passage(sentence, 0, 1)])
    assert reading.answer is not None and reading.answer.value == "2013", (sentence, reading.answer, reading.unsure)


def test_a_teams_name_is_no_persons_name() -> None:
    assert answer("Who runs the plant of Brightwater Labs?",
                  "I have run the Brand & Donor Development team at Brightwater Labs since 2016.") is None


def test_founding_something_else_with_a_number_or_possessive_is_not_the_subjects_founding() -> None:
    assert answer("When was Brightwater Labs founded?", "In 2001 Brightwater Labs founded two new subsidiaries in Porto.") is None
    assert answer("When was Brightwater Labs founded?", "In 2004 Brightwater Labs founded her sister lab in Braga.") is None


def test_a_share_answers_a_percentage_question_and_never_a_count() -> None:
    text = "Over 19% of visitors from partner sites go to pages that use Brightwater Labs sensors."
    assert answer("How many pages use Brightwater Labs sensors?", text) is None
    assert answer("What percentage of visitors go to pages that use Brightwater Labs sensors?", text).value == "19%"
    assert answer("What percentage of staff work remotely at Brightwater Labs?",
                  "About 40 percent of Brightwater Labs staff work remotely.").value == "40 percent"


def test_a_contact_question_is_answered_by_the_address_or_number_itself() -> None:
    contact = ("Press inquiries: please write to press@brightwater.example.",
               "Call us on +44 20 7946 0958 or visit https://www.brightwater.example/contact.",
               "We may use your email address to send you our newsletter.",
               "Brightwater Labs ran trials in 2019-2021 and 2022-2024.")
    assert answer("What is the email address of Brightwater Labs?", *contact).value == "press@brightwater.example"
    assert answer("What is Brightwater Labs' phone number?", *contact).value == "+44 20 7946 0958"
    assert answer("What is Brightwater Labs' website?", *contact).value == "https://www.brightwater.example/contact"
    # A run of years is no phone number, and a page that states none gives none.
    assert answer("What is Brightwater Labs' phone number?", contact[3]) is None
    assert answer("What is the email address of Brightwater Labs?", contact[2]) is None


def test_a_line_of_contacts_alone_on_the_companys_own_about_page_is_its_contact() -> None:
    # The last line of a contact block under its address: the page's company's, as a "Tel.: ..." line there is.
    block = ("Castellastraat 26", "6512 EX Nijmegen", "The Netherlands", "+31 24 30 10 484 · mail@nijmegen.example")
    about = Passage("\n\n".join(("### Contact us", *block)), 1, 1, "About us", own_site=True)
    reading = read(read_question("What is the phone number of Brightwater Labs?", None, "Brightwater Labs"), [about])
    assert reading.answer is not None
    assert (reading.answer.value, reading.answer.confidence) == ("+31 24 30 10 484", "medium")
    # On another site's page (a directory listing many bodies), the same line is nobody's in particular.
    listing = Passage(about.text, 1, 1, "About us", own_site=False)
    reading = read(read_question("What is the phone number of Brightwater Labs?", None, "Brightwater Labs"), [listing])
    assert reading.answer is None


def test_an_identifier_line_on_the_companys_own_about_page_is_its_identifier() -> None:
    # The recogniser reads "VAT" as an organisation, and "(KvK)" names the code after it: neither is an aside.
    imprint = Passage("### Information\n\nChamber of Commerce Registration (KvK): 93645546\n\nVAT ID: NL866479004B01",
                      1, 1, "About us", own_site=True)
    for question, code in (("What VAT number does Brightwater Labs use?", "NL866479004B01"),
                           ("What is Brightwater Labs' Dutch Chamber of Commerce (KvK) number?", "93645546")):
        reading = read_asked(question, [imprint], company="Brightwater Labs")
        assert reading.answer is not None and (reading.answer.value, reading.answer.confidence) == (code, "medium")


def test_an_office_on_a_card_is_no_persons_name() -> None:
    card = "Nick Roe: Elected Delegate, TSC Chair, GitHub: nroe"
    assert answer("Who is the chair of the TSC?", card).value == "Nick Roe"
    assert answer("Who is the chair of the Brightwater Labs TSC?", card).value == "Nick Roe"


def test_whom_an_adverbial_participle_names_with_a_preposition_did_not_do_it() -> None:
    # "Starting with ...": the participle's doer is the clause's subject (we), not the bodies it starts with.
    welcome = ("Starting with Arm, Globex Foundation, Initech and Hooli, we are excited to welcome new members to "
               "Brightwater Labs.")
    assert answer("Which companies started Brightwater Labs?", welcome) is None
    founded = "Arm and Globex Foundation started Brightwater Labs in 2019 and now welcome new members."
    assert answer("Which companies started Brightwater Labs?", founded).value.startswith("Arm")


def test_asked_how_to_reach_the_company_for_a_purpose_its_contact_for_that_purpose_answers() -> None:
    page = [Passage(text, i, i, "Contact", own_site=True) for i, text in enumerate((
        "support@brightwater.example - for general inquiries & support",
        "For press inquiries, please visit our contact page or email press@brightwater.example.",
        "If your company might be interested in sponsoring Brightwater Labs, please contact us at "
        "sponsorship@brightwater.example to start the conversation."), 1)]
    for question, contact in (("How can journalists contact Brightwater Labs?", "press@brightwater.example"),
                              ("How can a company get in touch about sponsoring Brightwater Labs?",
                               "sponsorship@brightwater.example")):
        found = read_asked(question, page, company="Brightwater Labs").answer
        assert found is not None and found.value == contact and found.confidence == "medium", question


def test_a_registry_or_tax_identifier_is_the_code_its_name_labels() -> None:
    page = ("Brightwater Labs, Inc. (EIN 12-3456789) is a 501(c)(3) nonprofit founded in 2015.",
            "Call us on +1 415 555 0100 between 9am and 5pm.",
            "Brightwater Labs' UEI is F1QZXZNLZJF2 and its DUNS number: 117775232.")
    ein = answer("What is the EIN of Brightwater Labs?", *page)
    assert (ein.value, ein.confidence) == ("12-3456789", "medium")  # the bracketed identifier is no aside
    # The acronym on the page answers the name in full in the question, and the other way round.
    assert answer("What is Brightwater Labs' unique entity identifier?", *page).value == "F1QZXZNLZJF2"
    assert answer("What is the D-U-N-S number of Brightwater Labs?", *page).value == "117775232"
    # A number that no name of the identifier labels (a phone number, a founding year) is no identifier.
    assert answer("What is the VAT number of Brightwater Labs?", *page) is None
    filed = "Brightwater Labs filed its first EIN form in 2015."
    assert answer("What is Brightwater Labs' EIN?", page[1], filed) is None
    # Kept beside the name, an identifier's name is no organisation's.
    assert answer("Which organisation is Brightwater Labs' fiscal host?",
                  "The fiscal host of Brightwater Labs is Brightwater Labs, Inc. (EIN 12-3456789).") is None
    # Two codes for one identifier of the subject: neither is stated surely.
    both = answer("What is Brightwater Labs' EIN?", page[0], "Brightwater Labs' EIN: 98-7654321")
    assert both.confidence == "low"


def test_a_question_for_an_identifier_no_line_labels_is_read_by_its_other_words() -> None:
    question = "What is the VAT number of Brightwater Labs?"
    unlabelled = [Passage("Brightwater Labs prints its VAT number on every invoice it sends.")]
    reading = read_asked(question, unlabelled, company="Brightwater Labs")
    assert reading.question.kind == "text" and reading.relevant  # the free-text reading and its related reading
    labelled = read_asked(question, [Passage("Brightwater Labs' VAT number: PT 509876543")], company="Brightwater Labs")
    assert labelled.question.kind == "identifier" and labelled.answer.value == "PT 509876543"


def test_a_principal_place_of_business_is_the_seat_and_another_bodys_seat_is_not() -> None:
    # Filings and legal pages name the headquarters so; ", headquartered in ..." after another name is that one's.
    seat = "Brightwater Labs, Inc. has its principal place of business at 12 Quay Street, Porto, Portugal."
    partner = "Brightwater Labs will merge with Kestrel Systems, headquartered in San Jose, California, next year."
    assert answer("Where is Brightwater Labs headquartered?", partner, seat).value == "12 Quay Street, Porto, Portugal"
    assert answer("Where is Brightwater Labs headquartered?", partner) is None
    assert answer("Where is Brightwater Labs headquartered?",
                  "Brightwater Labs, headquartered in Porto, makes sensors.").value == "Porto"


def test_who_operates_or_runs_the_company_is_the_agent_of_a_sentence_the_company_receives() -> None:
    # "Kestrel Group ... operates Brightwater Labs" is about who operates Brightwater Labs, though the company is
    # not its subject; an earlier sentence on operating something else ("how to operate a CA") is not the answer.
    texts = ("It meant hiring a dozen people and learning how to operate a CA.", "Kestrel Group is the nonprofit that operates Brightwater Labs.")
    for question in ("Who operates Brightwater Labs?", "Who runs Brightwater Labs?"):
        found = answer(question, *texts)
        assert found is not None and found.value == "Kestrel Group", question
    # A name before an active predicate acts on the company only when the company receives it.
    sponsors = "We depend on support from sponsors like Tidewater Group to continue operating."
    assert answer("Who operates Brightwater Labs?", sponsors) is None
    assert answer("Who operates Brightwater Labs?", sponsors, texts[1]).value == "Kestrel Group"
    # "who provides it" asks for the agent though the company is named earlier in the question: it stands
    # between the question word and the predicate only in "What does ... provide?".
    both = "What is Brightwater Labs and who provides it?"
    assert read_question(both, None, "Brightwater Labs").wants == "agent"
    hosting = "More and more hosting providers run their own sites on Brightwater Labs with one click."
    found = answer(both, hosting, "Brightwater Labs is a free sensor network. It is provided by Kestrel Group.")
    assert found is not None and found.value == "Kestrel Group"


def test_who_acquired_whom_keeps_its_direction() -> None:
    news = ("Brightwater Labs agreed to be acquired by Kestrel Corporation for $1.2 billion.",
            "In 2019, Brightwater Labs acquired Initrode, a maker of data pipelines.")
    assert read_question("Who acquired Brightwater Labs?", None, "Brightwater Labs").wants == "agent"
    assert read_question("What companies has Brightwater Labs acquired?", None, "Brightwater Labs").wants == "patient"
    assert read_question("Which company was Brightwater Labs acquired by?", None, "Brightwater Labs").wants == "agent"
    assert answer("Who acquired Brightwater Labs?", *news).value == "Kestrel Corporation"
    assert answer("What companies has Brightwater Labs acquired?", *news).value == "Initrode"
    assert answer("What companies has Brightwater Labs acquired?", news[0]) is None
    assert answer("Which companies has Brightwater Labs invested in?",
                  "Brightwater Labs invested in Tidewater Analytics in 2021.").value == "Tidewater Analytics"


def test_an_amount_asked_with_no_one_event_named_is_the_running_total() -> None:
    news = ("Brightwater Labs today announced it has raised $45 million in Series C funding led by Kestrel Capital.",
            "Brightwater Labs has raised a total of $120 million from investors.")
    assert answer("How much funding has Brightwater Labs raised?", *news).value == "$120 million"
    assert answer("How much did Brightwater Labs raise in its Series C?", *news).value == "$45 million"
    # "funding" and "raised" name one relation: a sentence with either states it.
    assert answer("How much funding has Brightwater Labs raised?", news[1]).value == "$120 million"


def test_chief_officers_are_told_apart_and_a_bracketed_title_is_read() -> None:
    texts = ("Brightwater Labs was co-founded by Ana Ruiz (CEO) and Tomas Berg (CTO).",
             "Lena Holt joined Brightwater Labs as Chief Financial Officer in 2020.")
    assert answer("Who is the CTO of Brightwater Labs?", *texts).value == "Tomas Berg"
    assert answer("Who is Brightwater Labs' CFO?", *texts).value == "Lena Holt"
    assert answer("Who is the CEO of Brightwater Labs?", *texts).value == "Ana Ruiz"  # not the chief financial officer
    assert answer("Who is the CEO of Brightwater Labs?", texts[1]) is None


def test_an_amount_with_its_currency_sign_is_money_whatever_the_recogniser_reads() -> None:
    # The small recogniser reads "60/year" as a date; the euro sign says it is money. A fee is a price paid.
    text = "The current fee for a standard Brightwater Labs subscription is €60/year."
    read = answer("How much is Brightwater Labs' subscription fee?", text)
    assert read.value == "€60" and read.confidence in ("high", "medium")
    assert answer("How much does a regular subscription to Brightwater Labs cost?", text).value == "€60"


def test_who_chairs_is_answered_by_the_chairperson_or_chairman() -> None:
    # "chair", "chairperson", "chairman", "chairwoman": one office, as English writes it.
    board = "Chairperson: Ana Ruiz (Springfield University)\n\nTreasurer: Lena Holt (Shelbyville Lab)"
    assert answer("Who chairs Brightwater Labs?", board).value == "Ana Ruiz"
    chair = "Ana Ruiz is chair of Brightwater Labs."
    assert answer("Who is the chairwoman of Brightwater Labs?", chair).value == "Ana Ruiz"
    assert answer("Who chairs Brightwater Labs?", "Treasurer: Lena Holt (Shelbyville Lab)") is None


def test_a_chief_officer_with_no_common_acronym_is_not_the_ceo() -> None:
    # "Chief" names the chief executive only in "Chief Executive (Officer)": a growth officer is not the CEO.
    text = "In this spotlight we sit down with Josh Lund, the Chief Growth Officer at Brightwater Labs."
    assert answer("Who is the CEO of Brightwater Labs?", text) is None
    assert answer("Who is Brightwater Labs' chief growth officer?", text).value == "Josh Lund"


@pytest.mark.parametrize(
    ("question", "text", "name"),
    [("Who is Brightwater Labs' Head of Engineering?", "Sam Park (Head of Engineering) joined Brightwater Labs in 2020.",
      "Sam Park"),
     ("Who is Brightwater Labs' general counsel?", "Brightwater Labs' legal team is led by Dana Wu (General Counsel).",
      "Dana Wu"),
     # A title set in the past, or at another body, stays an aside: it does not make the name another's officer.
     ("Who is the CEO of Brightwater Labs?",
      "Jane Roe (formerly Head of Sales at Globex) is the CEO of Brightwater Labs.", "Jane Roe")],
)
def test_any_short_bracketed_title_is_set_beside_its_name(question: str, text: str, name: str) -> None:
    # Not only the chief officers' acronyms: any short phrase with a word of an office ("Head of", "Counsel").
    assert answer(question, text).value == name


def test_a_parent_company_is_an_organisation() -> None:
    assert read_question("What is Brightwater Labs' parent company?", None, "Brightwater Labs").kind == "org"
    assert answer("What is Brightwater Labs' parent company?",
                  "Brightwater Labs, a subsidiary of Kestrel Holdings, makes sensors.").value == "Kestrel Holdings"


def test_a_fund_asked_for_is_a_body_and_funds_raised_are_money() -> None:
    question = "Which fund finances the projects Brightwater Labs coordinates?"
    assert read_question(question, None, "Brightwater Labs").kind == "org"
    assert answer(question, "This page lists the projects funded by the Sovereign Tech Fund and coordinated by "
                            "Brightwater Labs.").value == "Sovereign Tech Fund"
    assert read_question("What funds did Brightwater Labs raise in 2020?", None, "Brightwater Labs").kind == "money"
    assert read_question("What is the fund size of Brightwater Labs?", None, "Brightwater Labs").kind == "money"


def test_the_subjects_words_do_not_hide_what_a_question_asks_for() -> None:
    assert read_question("What was Brightwater Labs' revenue in 2023?", None, "Brightwater Labs").kind == "money"
    assert read_question("What is Royal Institute of British Architects' headquarters city?", None,
                         "Royal Institute of British Architects").kind == "place"
    # A word of the name that says what is asked stays; "based on" names no place.
    assert read_question("What company owns the American Broadcasting Company?", None, "American Broadcasting Company").kind == "org"
    assert read_question("What was ABC's logo based on?", None, "American Broadcasting Company (ABC)").kind == "text"


def test_a_change_states_its_newer_value() -> None:
    assert answer("How many employees does Brightwater Labs have?",
                  "Brightwater Labs went from four full-time employees to nine last year.").value == "nine"
    assert answer("What was Brightwater Labs' revenue in 2023?",
                  "Brightwater Labs' revenue rose from $10 million to $14 million in 2023.").value == "$14 million"
    assert answer("How many employees does Brightwater Labs have?",
                  "Brightwater Labs has 120 employees, up from 80 a year ago.").value == "120"


def test_a_move_states_where_it_went() -> None:
    moved = "To save costs, Brightwater Labs migrated its checker servers from Hetzner to Fly.io in 2024."
    went = answer("Where did Brightwater Labs move its checker servers?", moved)
    assert (went.value, went.confidence) == ("Fly.io", "medium")
    assert answer("Where did Brightwater Labs move its checker servers from?", moved).value == "Hetzner"
    # Where it went is not a name here: the place it left is no answer.
    left = answer("Where is Brightwater Labs headquartered?",
                  "Brightwater Labs moved its headquarters from Boston to a larger office last year.")
    assert left is None or "Boston" not in left.value


def test_a_sentence_whose_subject_is_a_pronoun_is_read_with_the_one_before() -> None:
    # "It is ... provided by Kestrel Group" names Brightwater Labs only through the sentence before it.
    about = "Brightwater Labs is a free water-testing service for clinics. It is a service provided by Kestrel Group."
    rival = "Brightwater Labs provided filters to Tidewater Analytics in 2019."
    assert answer("Who provides Brightwater Labs?", about, rival).value == "Kestrel Group"
    reading = read(read_question("Who provides Brightwater Labs?", None, "Brightwater Labs"), [Passage(about, 0, 1)])
    pronoun = next(s for s in reading.sentences if s.text.startswith("It is"))
    assert pronoun.antecedent.startswith("Brightwater Labs is a free") and {"brightwat", "provid"} <= pronoun.stems
    named = read(read_question("Who provides Brightwater Labs?", None, "Brightwater Labs"),
                 [Passage("Brightwater Labs is a free service. Kestrel Group provides it.", 0, 1)]).sentences
    assert all(not s.antecedent for s in named)  # a named subject borrows nothing


def test_a_passage_repeating_a_value_is_one_voice() -> None:
    # One news post names its partner four times; the about page states the fact once. Each passage votes once.
    about = "Brightwater Labs is a water-testing service. It is a service provided by Kestrel Group."
    post = ("Brightwater Labs thanks hosting providers like Tidewater Group for their help. Tidewater Group provided the "
            "servers Brightwater Labs runs on. Tidewater Group provides backups for Brightwater Labs. Tidewater Group "
            "provides support for Brightwater Labs.")
    assert answer("Who provides Brightwater Labs?", about, post).value == "Kestrel Group"
    # Two passages that agree still outvote a better-ranked rival of the same strength.
    second = "Brightwater Labs is a service provided by Tidewater Group."
    rival = "Brightwater Labs is a service provided by Kestrel Group."
    assert answer("Who provides Brightwater Labs?", rival, second, second.replace("a service", "a tool")).value == "Tidewater Group"


def test_the_subject_spelled_out_is_no_answer_about_it() -> None:
    # Asked of as "KSG", the company's full name is the subject itself, not who funds it.
    funding = "As a project of the Kestrel Security Group (KSG), most of our funding comes from the Tidewater Foundation."
    assert answer("Who funds KSG?", funding, company="KSG").value == "Tidewater Foundation"
    # A question that does not name the subject may be answered by it ("Who provides Let's Encrypt?").
    assert answer("Who provides Brightwater Labs?", "Brightwater Labs is a service provided by the Kestrel Security Group.",
                  company="KSG").value == "Kestrel Security Group"


def test_the_evidence_states_the_value_in_the_questions_own_word() -> None:
    # Both sentences state 2013 about the subject; the earlier-ranked one says it with another word of the
    # question's relation ("incorporated" for "founded"). The one in the question's own word is the evidence.
    incorporated = "March 2, 2013: Brightwater Labs is incorporated in Porto."
    founded = "Brightwater Labs was founded in 2013 to map the harbour."
    found = answer("What year was Brightwater Labs founded?", incorporated, founded)
    assert (found.value, found.confidence, found.sentence.text) == ("2013", "high", founded)
    # Asked in the other word, the other sentence is the evidence: the order of the passages does not decide it.
    found = answer("What year was Brightwater Labs incorporated?", founded, incorporated)
    assert (found.value, found.sentence.text) == ("2013", incorporated)


def test_a_team_card_names_who_holds_a_role() -> None:
    # "### Jane Roe" / "#### Chief Executive Officer" on the company's own page: no verb, yet a statement.
    page = "## Leadership\n\n### Jane Roe\n\n#### Chief Executive Officer\n\nJane has led teams for years.\n\n" \
           "### Kim Lee\n\n#### Head of Design\n\nKim draws."
    reading = read(read_question("Who is Brightwater Labs' chief executive?", None, "Brightwater Labs"),
                   [Passage(page, 0, 1, "About Brightwater Labs")])
    assert reading.answer is not None and reading.answer.value == "Jane Roe"
    assert reading.answer.confidence in ("medium", "high")


@pytest.mark.parametrize("question, holder", [
    ("Who is the CFO of Brightwater Labs?", "Kim Lee"),
    ("Who is Brightwater Labs' chief financial officer?", "Kim Lee"),  # the title written out, as the card has it
    ("Who is Brightwater Labs' Chief Information Officer?", "Ola Berg"),
    ("Who is the CIO of Brightwater Labs?", "Ola Berg"),
    ("Who is the CEO of Brightwater Labs?", "Jane Roe"),
])
def test_a_team_card_of_any_chief_officer_names_its_holder(question: str, holder: str) -> None:
    # Each C-suite title is read as its acronym in the card and in the question alike; the recogniser's reading of
    # "CFO" as an organisation does not make the card another body's.
    page = ("## Leadership\n\n### Jane Roe\n\n#### Chief Executive Officer\n\nJane has led teams for years.\n\n"
            "### Kim Lee\n\n#### Chief Financial Officer\n\nKim keeps the books.\n\n"
            "### Ola Berg\n\n#### Chief Information Officer\n\nOla runs our systems.")
    reading = read(read_question(question, None, "Brightwater Labs"), [Passage(page, 0, 1, "Team", own_site=True)])
    assert reading.answer is not None and reading.answer.value == holder


def test_a_name_set_beside_a_role_on_the_companys_own_site_holds_it() -> None:
    q = read_question("Who is the CFO of Brightwater Labs?", None, "Brightwater Labs")
    said = "The following agreements may also be signed by the CFO, Kim Lee."
    reading = read(q, [Passage(said, 0, 1, "Company Agreements", own_site=True)])
    assert reading.answer is not None and reading.answer.value == "Kim Lee"
    # Off the company's site, on a page that does not name it, the CFO may be anyone's.
    assert read(q, [Passage(said, 0, 1, "Company Agreements")]).answer is None
    # A full name in brackets after the office says who holds it (it is no aside to drop).
    bracketed = read(q, [Passage("Budgets are approved by the CFO (Kim Lee).", 0, 1, "Finance", own_site=True)])
    assert bracketed.answer is not None and bracketed.answer.value == "Kim Lee"


@pytest.mark.parametrize("question", ["Who is Brightwater Labs' chief of staff?",
                                      "Who was Brightwater Labs' first CEO?"])
def test_a_card_naming_another_role_is_no_answer(question: str) -> None:
    # "Jane Roe: CEO" says who the CEO is now, not who the chief of staff ("chief" is a word of the CEO's) or the
    # first CEO was.
    page = "### Jane Roe\n\n#### Chief Executive Officer\n\nJane has led teams for years."
    reading = read(read_question(question, None, "Brightwater Labs"), [Passage(page, 0, 1, "Team", own_site=True)])
    assert reading.answer is None


def test_plural_role_words_name_no_person() -> None:
    q = read_question("Who chairs the board of Brightwater Labs?", None, "Brightwater Labs")
    line = "Board of Directors Officers — Chair: Phil Brooks; Members: Nisha Ghatak (Chair-Elect)"
    assert [span.text for span in spans(q, line)] == ["Phil Brooks", "Nisha Ghatak"]


def test_a_job_title_names_no_person_and_no_body() -> None:
    # "Head Systems Administrator at ..." and "Software Engineering Intern at Globex" are jobs, not who holds one; a
    # head of a department is a person, so the bodies named beside them (Globex) are no answer either.
    q = read_question("Who is the head of engineering at Brightwater Labs?", None, "Brightwater Labs")
    assert q.officer
    bio = ("Previously he was a Software Engineering Intern at Globex, and Head Systems Administrator at the "
           "Harbour Radio Society.")
    assert read(q, [Passage(bio, 0, 1, "Team | Brightwater Labs", own_site=True)]).answer is None
    card = read(q, [Passage("### Ana Ruiz\n\n#### Head of Engineering\n\nAna builds filters.", 0, 1, "Team",
                            own_site=True)])
    assert card.answer is not None and card.answer.value == "Ana Ruiz"


def test_the_head_of_a_part_at_another_body_is_that_bodys() -> None:
    q = read_question("Who is Brightwater Labs' head of design?", None, "Brightwater Labs")
    other = read(q, [Passage("Jane Roe, Head of Design at Globex, spoke at our conference.", 0, 1, "Blog",
                             own_site=True)])
    assert other.answer is None  # it was read at medium
    for line in ("Jane Roe, Head of Design at Brightwater Labs, spoke at the conference.",
                 "Jane Roe, our Head of Design, spoke at a conference at Globex."):
        own = read(q, [Passage(line, 0, 1, "Blog", own_site=True)])
        assert own.answer is not None and own.answer.value == "Jane Roe", line


def test_a_counsel_is_a_person_not_the_body_whose_name_shares_a_word() -> None:
    q = read_question("Who is Brightwater Labs' general counsel?", None, "Brightwater Labs")
    said = "Brightwater Labs is a team of designers and engineers within the General Services Administration."
    assert read(q, [Passage(said, 0, 1, "About Brightwater Labs", own_site=True)]).answer is None


def test_a_chief_officer_written_out_in_the_question_is_asked_by_its_acronym() -> None:
    q = read_question("Who is Brightwater Labs' Chief Operating Officer?", None, "Brightwater Labs")
    assert q.terms == ("coo",) and q.officer


def test_a_count_states_a_headcount_by_the_noun_it_counts() -> None:
    q = read_question("How many employees does Brightwater Labs have?", None, "Brightwater Labs")
    reading = read(q, [Passage("We’re currently made up of 164 people, and one cat.", 0, 1, "About Brightwater Labs")])
    assert reading.answer is not None and reading.answer.value == "164"
    # A number that counts something else is no headcount, however close to the company's people it stands.
    other = read(q, [Passage("Our people are spread across 34 different states.", 0, 1, "About Brightwater Labs")])
    assert other.answer is None
    # Nor one written "200+", or set before nouns that name what it counts ("200 user research sessions").
    people = read_question("How many people work at Brightwater Labs?", None, "Brightwater Labs")
    for text in ("Worked on: Ran 200+ user research sessions that shaped the redesign.",
                 "Worked on: Ran 200 user research sessions that shaped the redesign."):
        assert read(people, [Passage(text, 0, 1, "People | Brightwater Labs")]).answer is None
    plus = read(q, [Passage("Brightwater Labs has 200+ employees across three offices.", 0, 1)])
    assert plus.answer is not None and plus.answer.value == "200"


def test_an_address_for_another_purpose_is_no_answer_where_the_company_gives_several() -> None:
    q = read_question("What is the email address of Brightwater Labs' legal team?", None, "Brightwater Labs")
    people = ("If you have questions for the People Team, email people@brightwater.example, and for the Talent Team, "
              "email talent@brightwater.example.")
    reading = read(q, [Passage(people, 0, 1, "Handbook | Brightwater Labs", own_site=True)])
    assert reading.answer is None and reading.unsure is not None  # related reading, not the legal team's address
    legal = "Questions for the legal team go to legal@brightwater.example."
    reading = read(q, [Passage(people + " " + legal, 0, 1, "Handbook | Brightwater Labs", own_site=True)])
    assert reading.answer is not None and reading.answer.value == "legal@brightwater.example"
    # Where the company gives one address, it serves every purpose: the question's purpose need not be repeated.
    one = read(q, [Passage("Email: hello@brightwater.example", 0, 1, "Contact | Brightwater Labs", own_site=True)])
    assert one.answer is not None and one.answer.value == "hello@brightwater.example"


def test_a_mailbox_named_for_another_purpose_is_no_answer_for_the_purpose_asked() -> None:
    q = read_question("What is Brightwater Labs' support email address?", None, "Brightwater Labs")
    # The sentence before it ("Questions about your invoice?") says what it is for; alone, its name does.
    billing = read(q, [Passage("Email billing@brightwater.example.", 0, 1, "Contact", own_site=True)])
    assert billing.answer is None and billing.unsure is not None  # it was read at medium
    for line in ("Email support@brightwater.example.", "Email hello@brightwater.example."):  # asked, or no purpose
        found = read(q, [Passage(line, 0, 1, "Contact", own_site=True)])
        assert found.answer is not None and found.answer.confidence == "medium", line


def test_a_mailbox_named_for_the_purpose_asked_says_the_purpose_the_sentence_leaves_out() -> None:
    # "customer support": the sentence says "our support team" only, among several addresses; its mailbox names it.
    q = read_question("What is Brightwater Labs' customer support email address?", None, "Brightwater Labs")
    lines = ("The quickest way to reach our support team is by email at support@brightwater.example.",
             "Email press@brightwater.example for interviews.", "Email jobs@brightwater.example to apply.")
    reading = read(q, [Passage(line, rank, rank + 1, "Contact", own_site=True) for rank, line in enumerate(lines)])
    assert reading.answer is not None and reading.answer.value == "support@brightwater.example"
    # A mailbox named otherwise says nothing of the purpose: among several, the sentence has to.
    team = "The quickest way to reach our team is by email at hello@brightwater.example."
    others = (team, *lines[1:])
    reading = read(q, [Passage(line, rank, rank + 1, "Contact", own_site=True) for rank, line in enumerate(others)])
    assert reading.answer is None


def test_questions_and_inquiries_are_what_any_contact_receives_not_its_purpose() -> None:
    # "general support questions": the purpose is general support, which "for general inquiries & support" states.
    q = read_question("What email address handles Brightwater Labs' general support questions?", None,
                      "Brightwater Labs")
    lines = ("- support@brightwater.example - for general inquiries & support\n"
             "- press@brightwater.example - for any press inquiries")
    reading = read(q, [Passage(lines, 0, 1, "Contact | Brightwater Labs", own_site=True)])
    assert reading.answer is not None and reading.answer.value == "support@brightwater.example"


def test_a_name_written_apart_is_the_subjects() -> None:
    # "Brightwater" written "Bright Water" in the company's own legal line.
    line = "Bright Water Initiative, Inc. (EIN 85-2722249) is a 501(c)(3) public charity that funds open projects."
    passages = [Passage(line, 0, 1, "About | Brightwater", own_site=True)]
    ein = read(read_question("What is Brightwater's US tax identification number?", None, "Brightwater"), passages)
    assert ein.answer is not None and ein.answer.value == "85-2722249"
    legal = read(read_question("What is the legal name of the organisation behind Brightwater?", None, "Brightwater"),
                 passages)
    assert legal.answer is not None and legal.answer.value == "Bright Water Initiative, Inc."
    other = read(read_question("What is Brightwater's US tax identification number?", None, "Brightwater"),
                 [Passage(line.replace("Bright Water", "Clear Harbour"), 0, 1, "Partners | Brightwater")])
    assert other.answer is None


def test_a_card_is_read_in_its_section_above_it_or_where_its_chunk_begins() -> None:
    q = read_question("Who is the treasurer on the Brightwater Labs board?", None, "Brightwater Labs")
    cards = ("### Jane Roe\n\n#### Chair\n\nJane joined in 2017.\n\n"
             "### Richard Miles\n\n#### Treasurer\n\nHe keeps the books.")
    titled = read(q, [Passage(f"## The Board of Directors\n\n{cards}", 0, 1, "Who we are", own_site=True)])
    assert titled.answer is not None and titled.answer.value == "Richard Miles"
    # The chunk begins inside the section: its heading path names it.
    path = ("Who we are", "The Board of Directors")
    pathed = read(q, [Passage(cards, 0, 1, "Who we are", own_site=True, headings=path)])
    assert pathed.answer is not None and pathed.answer.value == "Richard Miles"
    # Under another section, a treasurer is not the board's.
    other = read(q, [Passage(cards, 0, 1, "Who we are", own_site=True, headings=("Who we are", "Book club"))])
    assert other.answer is None


def test_a_card_of_a_list_of_holders_does_not_say_which_was_the_first() -> None:
    q = read_question("Who was Brightwater Labs' first executive director and when did he start?", None,
                      "Brightwater Labs")
    cards = "### Jose Calderon\n\n#### Executive Director 2023-11-09 - 2026-06-30\n\nJose taught at Maryland."
    reading = read(q, [Passage(cards, 0, 1, "Past boards | Brightwater Labs", own_site=True)])
    assert reading.answer is None or reading.answer.confidence == "low"
    first = cards.replace("#### Executive Director", "#### First Executive Director")
    reading = read(q, [Passage(first, 0, 1, "Past boards | Brightwater Labs", own_site=True)])
    assert reading.answer is not None and reading.answer.value == "2023-11-09" and reading.answer.confidence != "low"


def test_how_big_names_the_measure_not_a_word_the_sentence_must_hold() -> None:
    q = read_question("How big a grant did Brightwater Labs give the Harbour Water Trust?", None, "Brightwater Labs")
    assert "big" not in q.terms and q.kind == "money"
    given = "In sum we have sent $2M to our grantees, in addition to a $1M grant given to the Harbour Water Trust."
    reading = read(q, [Passage(given, 0, 1, "Blog | Brightwater Labs", own_site=True)])
    assert reading.answer is not None and reading.answer.value == "$1M"


@pytest.mark.parametrize("line", [
    "Our data centre is run by Hetzner Online GmbH, Industriestr. 25, 91710 Gunzenhausen, Germany.",  # its holder's
    "Our old office at 5 Mill Lane, Leeds LS2 3AB, closed in 2019.",  # premises it had before
])
def test_an_address_another_body_holds_or_the_company_held_before_is_not_its_address(line: str) -> None:
    q = read_question("What is Brightwater Labs' street address?", None, "Brightwater Labs")
    reading = read(q, [Passage(line, 0, 1, "Contact", own_site=True)])
    assert reading.answer is None and reading.unsure is not None, line  # both were read at medium
    own = read(q, [Passage("Brightwater Labs GmbH, Hafenstraße 12, 20457 Hamburg", 0, 1, "Contact", own_site=True)])
    assert own.answer is not None and own.answer.value == "Hafenstraße 12, 20457 Hamburg"


@pytest.mark.parametrize("line", ["In 2016 Brightwater Labs moved into its first office at the harbour.",
                                  "In 2016 we moved into a bigger office at the harbour."])
def test_asked_of_its_current_office_another_office_is_no_answer(line: str) -> None:
    # "its current office" places the office in a series; "its first office" is another of its kind (read at medium).
    q = read_question("When did Brightwater Labs move into its current office?", None, "Brightwater Labs")
    reading = read(q, [Passage(line, 0, 1, "About Brightwater Labs", own_site=True)])
    assert reading.answer is None and reading.unsure is not None, line
    moved = read(q, [Passage("In 2021 Brightwater Labs moved into its current office on Mill Lane.", 0, 1,
                             "About Brightwater Labs", own_site=True)])
    assert moved.answer is not None and moved.answer.value == "2021"


def test_an_identifier_after_another_bodys_legal_name_is_that_bodys() -> None:
    q = read_question("What is Brightwater Labs' company registration number?", None, "Brightwater Labs")
    distributor = "Brightwater Labs is distributed in Germany by Globex GmbH, HRB 12345, Amtsgericht Hamburg."
    reading = read(q, [Passage(distributor, 0, 1, "Contact", own_site=True)])
    assert reading.answer is None and reading.unsure is not None  # it was read at medium
    own = read(q, [Passage("Brightwater Labs GmbH, HRB 12345, Amtsgericht Hamburg.", 0, 1, "Imprint", own_site=True)])
    assert own.answer is not None and own.answer.value == "HRB 12345"


def test_asked_for_an_address_the_street_outvotes_the_town_said_more_often() -> None:
    # A town is where the address is, never the address: "Palo Alto, California" said twice does not win over the
    # one street address (written with a comma before its ZIP code, as many US addresses are).
    q = read_question("What is Brightwater Labs' office address?", None, "Brightwater Labs")
    passages = [Passage("Brightwater Labs is based in Palo Alto, California and works remotely.", 0, 1),
                Passage("The mailing address for Brightwater Labs is in Palo Alto, California.", 1, 2),
                Passage("Brightwater Labs, Inc. 530 Harbour Avenue, 2nd Floor Palo Alto, CA, 94301", 2, 3,
                        "Office | Brightwater Labs", own_site=True)]
    reading = read(q, passages)
    assert reading.answer is not None and reading.answer.value == "530 Harbour Avenue, 2nd Floor Palo Alto, CA, 94301"


def test_a_count_of_the_asked_noun_without_the_noun_that_narrows_it_is_no_answer() -> None:
    q = read_question("How many vacation days do Brightwater Labs employees get?", None, "Brightwater Labs")
    trial = "Brightwater Labs employees get a 30-day trial key to test the Pro plan."  # days, of no vacation
    assert read(q, [Passage(trial, 0, 1, "About Brightwater Labs")]).answer is None
    stated = read(q, [Passage("Brightwater Labs employees get 25 vacation days a year.", 0, 1,
                              "About Brightwater Labs")])
    assert stated.answer is not None and stated.answer.value == "25"


def test_a_partner_named_after_with_or_from_is_tied_to_the_predicate() -> None:
    # The question's date is not in the sentence (the post's date says it), so only the tie to the predicate answers.
    q = read_question("Which organisation did Brightwater Labs announce a collaboration with in April 2015?", None,
                      "Brightwater Labs")
    announced = "Brightwater Labs is pleased to announce our collaboration with the Harbour Water Trust."
    reading = read(q, [Passage(announced, 0, 1, as_of=date(2015, 4, 21))])
    assert reading.answer is not None and reading.answer.value.endswith("Harbour Water Trust")


@pytest.mark.parametrize("as_of", [None, date(2023, 3, 1)])
def test_a_sentence_that_names_no_year_answers_for_the_year_asked_only_on_a_page_dated_then(as_of: date | None) -> None:
    # Undated, or a 2023 post: the $10 million came some other time, as far as the page tells.
    q = read_question("How much did Brightwater Labs receive in donations in 2024?", None, "Brightwater Labs")
    gift = "Brightwater Labs has received a generous donation of $10 million from the Harbour Water Trust."
    assert read(q, [Passage(gift, 0, 1, as_of=as_of)]).answer is None
    reading = read(q, [Passage(gift, 0, 1, as_of=date(2024, 6, 3))])
    assert reading.answer is not None and reading.answer.value == "$10 million"
    total = read(q, [Passage("In 2024 we received 929 donations for a total sum of $23.6M.", 0, 1, own_site=True)])
    assert total.answer is not None and total.answer.value == "$23.6M"


FACTS = ("# Facts about Brightwater Labs\n\nLegal name: Brightwater Labs Lda.\n\nRegistered office: Rua Nova 12, Porto\n\n"
         "VAT ID: PT501234567\n\nNote: figures as of 2024\n\n## Team\n\n### Ana Ruiz\n\n#### Chief Technology Officer\n\nAna builds filters.")


def facts_page(question: str):
    """The facts page retrieved for ``question``, titled as the company's own page (its lines are about it)."""
    result = retrieval(question, [FACTS], company="brightwater-labs")
    result.trace.company.matched = "Brightwater Labs"
    result.context[0].chunk.metadata.title = "About Brightwater Labs"
    return result


@pytest.mark.parametrize(
    ("question", "stated"),
    [("What is the company's official legal name?", "Legal name: Brightwater Labs Lda."),
     ("What is Ana Ruiz's current title at Brightwater Labs?", "Ana Ruiz: Chief Technology Officer"),
     ("What is Brightwater Labs' VAT ID?", "VAT ID: PT501234567")],  # a label line of three words
)
def test_a_label_the_question_names_word_for_word_states_the_answer(question: str, stated: str) -> None:
    asked = Answerer().answer(question, facts_page(question))
    assert not asked.abstained and asked.answer.startswith(stated), asked.answer


def test_a_label_the_question_does_not_name_whole_is_no_answer() -> None:
    # "Registered office" is not named by a question about the legal form; a one-word label ("Note") names too little.
    for question in ("What kind of office does Brightwater Labs rent?", "What note did Brightwater Labs publish?"):
        asked = Answerer().answer(question, facts_page(question))
        assert asked.abstained, (question, asked.answer)


def test_a_label_does_not_state_what_the_question_asks_its_thing_to_do() -> None:
    plans = "# Plans of Brightwater Labs\n\nPrivate plans: Free\n\nBusiness plans: Team"

    def asked(question: str):
        result = retrieval(question, [plans], company="brightwater-labs")
        result.trace.company.matched = "Brightwater Labs"
        result.context[0].chunk.metadata.title = "About Brightwater Labs"
        return Answerer().answer(question, result)

    # The label names the plans; it says nothing of which one lets a customer use a domain of their own.
    assert asked("Which private plan of Brightwater Labs lets me use my own domain?").abstained
    stated = asked("What are the private plans of Brightwater Labs?")
    assert not stated.abstained and stated.answer.startswith("Private plans: Free"), stated.answer


def test_a_related_word_of_the_subjects_own_passive_predicate_names_its_agent() -> None:
    q = read_question("Who founded Brightwater Labs?", None, "Brightwater Labs")
    reading = read(q, [Passage("Brightwater Labs was started by Ana Ruiz and Tom Berg in a garage in 2015.", 0, 1)])
    assert reading.answer is not None and "Ana Ruiz" in reading.answer.value
    # Another body's start is not the company's founding.
    other = read(q, [Passage("The Porto office of Brightwater Labs was started by Ana Ruiz in 2019.", 0, 1)])
    assert other.answer is None


def test_our_role_on_the_companys_pages_is_the_companys() -> None:
    q = read_question("Who is Brightwater Labs' CEO?", None, "Brightwater Labs")
    reading = read(q, [Passage("Today we welcome Ana Ruiz as our new Chief Executive Officer.", 0, 1)])
    assert reading.answer is not None and reading.answer.value == "Ana Ruiz"
    other = read(q, [Passage("Tom Berg, our partner’s new Chief Executive Officer, opened the event.", 0, 1)])
    assert other.answer is None


def test_a_role_beside_a_name_on_the_companys_page_is_the_companys() -> None:
    q = read_question("Who is Brightwater Labs' CTO?", None, "Brightwater Labs")
    sentence = "Ana Ruiz, co-founder and CTO, leads engineering."
    reading = read(q, [Passage(sentence, 0, 1, "About Brightwater Labs")])
    assert reading.answer is not None and reading.answer.value == "Ana Ruiz"
    # On a page about someone else, or beside another organisation, the role may be theirs.
    assert read(q, [Passage(sentence, 0, 1, "Globex joins the Harbour alliance")]).answer is None
    assert read(q, [Passage("Ana Ruiz, co-founder and CTO at Globex, spoke first.", 0, 1, "About Brightwater Labs")]).answer is None


def test_a_count_of_something_else_is_no_candidate() -> None:
    q = read_question("How many employees does Brightwater Labs have?", None, "Brightwater Labs")
    passages = [Passage("Brightwater Labs is based in Porto, though we’re a remote team spread across more than 34 different "
                        "states.", 0, 1, "About Brightwater Labs"),
                Passage("We’re currently made up of 164 people — and one ferret.", 1, 2, "About Brightwater Labs")]
    reading = read(q, passages)
    assert reading.answer is not None and reading.answer.value == "164"


@pytest.mark.parametrize(
    ("sentence", "officer"),
    [("Globex appoints Ana Ruiz as Chief Executive Officer; Brightwater Labs congratulates her.", None),
     ("Ana Ruiz joins Globex as CEO after five years at Brightwater Labs.", None),
     ("Globex CEO Ana Ruiz opened the Brightwater Labs conference on Tuesday.", None),
     ("Our partner Globex welcomed Ana Ruiz as its new CEO.", None),  # "its" is the clause's subject's
     ("Brightwater Labs announced that Ana Ruiz is its new CEO.", "Ana Ruiz"),
     ("Brightwater Labs appoints Ana Ruiz as Chief Executive Officer", "Ana Ruiz"),
     ("Ana Ruiz joins Brightwater Labs as CEO from Globex.", "Ana Ruiz"),
     ("“We are thrilled,” said Ana Ruiz, CEO and co-founder of Brightwater Labs.", "Ana Ruiz"),
     # The role's own holder and owner, where the sentence names two: the one the value holds counts.
     ("Our CTO John Doe thanked Ana Ruiz, Globex's CEO, for the partnership.", None),
     ("Our CEO John Doe thanked Ana Ruiz, Globex's CEO, for the partnership.", "John Doe"),
     ("Our CTO Ana Ruiz and our CEO John Doe founded the company in 2010.", "John Doe"),
     # One of a series the question does not ask of is not who holds the role now.
     ("Brightwater Labs' first CEO was Ana Ruiz.", None),
     ("Ana Ruiz was the first CEO of Brightwater Labs.", None),
     # A body named by its tie to the company is another body ("the CEO of Acme's parent company").
     ("Ana Ruiz, the CEO of Brightwater Labs' parent company Globex, spoke at the event.", None)],
)
def test_whose_role_it_is_as_the_parse_reads_it(sentence: str, officer: str | None) -> None:
    # The role's owner: the verb's other party ("appoints", "joins ... as"), a name before it, "of".
    reading = read(read_question("Who is Brightwater Labs' CEO?", None, "Brightwater Labs"), [Passage(sentence, 0, 1)])
    assert (reading.answer.value if reading.answer else None) == officer


@pytest.mark.parametrize(
    ("question", "sentence", "officer"),
    [("Who leads Brightwater Labs?", "Geoff Mulligan: IoT Practice Lead", None),  # a practice's lead
     ("Who is Brightwater Labs' director?", "Jane Roe, Senior Director of Product, joined Brightwater Labs in May.", None),
     # A title-cased word of the title is no owner: "Executive" is not a body whose director Josh Aas is.
     ("Who is Brightwater Labs' executive director?", "Josh Aas is the Executive Director of Brightwater Labs.",
      "Josh Aas"),
     ("Who is Brightwater Labs' managing director?",
      "Jane Roe, Managing Director of Brightwater Labs, said the plant would open in May.", "Jane Roe")],
)
def test_a_role_of_a_part_is_not_the_bodys(question: str, sentence: str, officer: str | None) -> None:
    # A noun before a role gives it to a part of the body ("Practice Lead", "Senior Director"), as the parse reads
    # it, unless it is a word of the whole body's office ("Executive", "Managing") or of the question.
    reading = read(read_question(question, None, "Brightwater Labs"), [Passage(sentence, 0, 1, "Our team")])
    assert (reading.answer.value if reading.answer else None) == officer


def test_a_title_no_one_owns_is_the_subjects_only_in_a_sentence_it_leads() -> None:
    # "President Obama founds Brightwater Labs": a title before a name, owned by no one in the sentence, is not
    # the subject's office when the subject is only mentioned (here it is what the titled person founds).
    q = read_question("Who is the president of Brightwater Labs?", None, "Brightwater Labs")
    assert read(q, [Passage("2014: President Obama founds Brightwater Labs in August.", 0, 1)]).answer is None
    led = read(q, [Passage("Brightwater Labs was founded in 2010; President Jane Roe leads it today.", 0, 1)])
    assert led.answer is not None and led.answer.value == "Jane Roe"


PARENT = "What is Brightwater Labs' parent company?"
HOST = "Which organisation is Brightwater Labs' fiscal host?"


@pytest.mark.parametrize(
    ("question", "sentence", "body"),
    [(PARENT, "Brightwater Labs is the parent company of Initech Systems.", None),  # the relation the other way
     (PARENT, "Brightwater Labs Group is the parent organization of Initech Systems and Vandelay.", None),
     ("Which company is Brightwater Labs' biggest customer?",
      "Someone will connect you with our custom swag vendor, Telescope, who ships the order.", None),  # no customer
     (PARENT, "Globex Corporation, Brightwater Labs' parent company, reported record sales.", "Globex Corporation"),
     (PARENT, "Globex Corporation is our parent company.", "Globex Corporation"),
     ("What is Brightwater Labs' sister organization?",
      "Brightwater Labs worked with its sister offices within the Kestrel Institute on this.", None),  # not the holder
     (HOST, "Kestrel Trust is the fiscal host of Initech Systems and other projects.", None),  # another's host
     (HOST, "Make a one-time donation through Kestrel gGmbH, our fiscal host.", "Kestrel gGmbH"),
     (HOST, "The Open Collective Foundation is our fiscal host.", "Open Collective Foundation")],
)
def test_a_relation_between_bodies_is_read_in_its_direction(question: str, sentence: str, body: str | None) -> None:
    # Asked for the body that stands in a relation to the subject ("Acme's parent company"), the parse says who
    # holds the relation's noun and whose it is: the holder, and only when it is the subject's ("our").
    reading = read(read_question(question, None, "Brightwater Labs"), [Passage(sentence, 0, 1, "About Brightwater Labs")])
    assert (reading.answer.value if reading.answer else None) == body


def test_the_relation_the_question_asks_for() -> None:
    def subject(name: str) -> bool:
        return "acme" in name.lower()

    assert asked_relation("What is Acme's parent company?", subject) == Relation("company", frozenset({"parent"}))
    assert asked_relation("Which organisation is the fiscal host of Acme?", subject) == Relation("host", frozenset())
    assert asked_relation("Which bank does Acme use?", subject) is None
    assert asked_relation("Acme's deal with what company ended in 2013?", subject) is None  # a deal, not the body


CEO_NOW = "Who is Brightwater Labs' CEO?"
HQ_NOW = "Where is Brightwater Labs headquartered?"


@pytest.mark.parametrize(
    ("question", "text", "value"),
    [(CEO_NOW, "Ana Ruiz stepped down as CEO of Brightwater Labs in March.", None),
     (CEO_NOW, "Brightwater Labs' former CEO Ana Ruiz joined the board of Globex.", None),
     (CEO_NOW, "Ana Ruiz, the former CEO of Brightwater Labs, now advises start-ups.", None),
     (CEO_NOW, "Brightwater Labs' ex-CEO Ana Ruiz spoke first.", None),
     (CEO_NOW, "Ana Ruiz resigned as CEO of Brightwater Labs.", None),
     (HQ_NOW, "Brightwater Labs was previously headquartered in Boston.", None),
     (HQ_NOW, "Brightwater Labs' former headquarters in Boston is now a museum.", None),
     (HQ_NOW, "Brightwater Labs was headquartered in Boston until 2019.", None),
     (HQ_NOW, "Brightwater Labs used to be headquartered in Boston.", None),
     # Who stays or comes in is named as ever; a move, or another thing "formerly" said, still tells where it is.
     (CEO_NOW, "Tom Berg succeeded Ana Ruiz as CEO of Brightwater Labs.", "Tom Berg"),
     (CEO_NOW, "Ana Ruiz was replaced as CEO of Brightwater Labs by Tom Berg.", "Tom Berg"),
     (CEO_NOW, "Ana Ruiz stepped up as CEO of Brightwater Labs in March.", "Ana Ruiz"),
     (HQ_NOW, "Brightwater Labs previously moved its headquarters to Austin.", "Austin"),
     (HQ_NOW, "Brightwater Labs, formerly known as Globex, is headquartered in Austin.", "Austin"),
     (HQ_NOW, "Brightwater Labs was previously headquartered in Boston. Today Brightwater Labs is headquartered in "
              "Austin.", "Austin"),
     # Asked how things were, what was is the answer.
     ("Who was Brightwater Labs' CEO?", "Ana Ruiz stepped down as CEO of Brightwater Labs in March.", "Ana Ruiz"),
     ("Where was Brightwater Labs headquartered?", "Brightwater Labs was previously headquartered in Boston.",
      "Boston")],
)
def test_what_was_is_not_what_is(question: str, text: str, value: str | None) -> None:
    # Asked how things are, a name the parse sets in the asked role only in the past ("former CEO"), or a sentence
    # that sets the question's predicate in the past ("was previously headquartered"), is no answer.
    reading = read(read_question(question, None, "Brightwater Labs"), [Passage(text, 0, 1)])
    assert (reading.answer.value if reading.answer else None) == value


@pytest.mark.parametrize(
    ("question", "options"),
    [("Does Brightwater Labs work from offices or remotely?", ("offices", "remotely")),
     ("Do Brightwater Labs employees work in an office or remotely?", ("office", "remotely")),
     ("Is Brightwater Labs a nonprofit or a for-profit company?", ("nonprofit", "for-profit")),
     ("Is Brightwater Labs publicly traded or privately held?", ("publicly traded", "privately held")),
     ("Is Brightwater Labs based in Porto or Lisbon?", ("Porto", "Lisbon")),
     ("Was the launch popular or unpopular with customers?", ("popular", "unpopular")),
     # Not a choice: a wh-question, "or not", years.
     ("Who founded Brightwater Labs or its parent?", ()),
     ("Is Brightwater Labs profitable or not?", ()),
     ("Was Brightwater Labs founded in 2010 or 2011?", ())],
)
def test_a_question_that_offers_its_answers(question: str, options: tuple[str, ...]) -> None:
    q = read_question(question, None, "Brightwater Labs")
    assert q.options == options and q.choice == bool(options) and (q.kind == "option") == bool(options)


@pytest.mark.parametrize(
    ("text", "said"),
    [("Brightwater Labs is an all-remote company.", "remotely"),
     ("We work remotely, from 30 countries.", "remotely"),
     # Named in passing, both named, or denied: no answer.
     ("Brightwater Labs helps remote teams ship code.", None),
     ("Since you work remotely, we want your home office to be comfortable.", None),
     ("Brightwater Labs is not a remote company.", None)],
)
def test_an_offered_answer_is_one_said_of_the_subject(text: str, said: str | None) -> None:
    q = read_question("Does Brightwater Labs work from offices or remotely?", None, "Brightwater Labs")
    reading = read(q, [Passage(text, 0, 1, "About Brightwater Labs")])
    assert (reading.answer.value if reading.answer else None) == said


def test_an_offered_answer_is_not_read_inside_another_phrase() -> None:
    # "public benefit corporation" is no public company; "went public" is.
    q = read_question("Is Brightwater Labs public or private?", None, "Brightwater Labs")
    assert read(q, [Passage("Brightwater Labs is a California public benefit corporation.", 0, 1)]).answer is None
    went = read(q, [Passage("Brightwater Labs went public in 2019.", 0, 1)]).answer
    assert went is not None and went.value == "public"
    # Two sentences that say different ones leave it to the reader.
    both = read(q, [Passage("Brightwater Labs went public in 2019.", 0, 1),
                    Passage("Brightwater Labs is a privately held company.", 1, 2)])
    assert both.answer is None and both.unsure is not None


@pytest.mark.parametrize(
    ("question", "text", "value"),
    [("How many employees does Brightwater Labs have?", "We planned to hire ten people for three projects.", None),
     ("How many employees does Brightwater Labs have?", "We worried if ten people would even apply.", None),
     ("How many customers does Brightwater Labs have?", "Brightwater Labs aims to reach 500 customers by 2026.", None),
     ("Where is Brightwater Labs' office?", "Our goal is to open an office in Berlin.", None),
     ("How much revenue does Brightwater Labs make?", "Brightwater Labs expects revenue of $10 million.", None),
     ("How much did Brightwater Labs raise in its Series B?",  # it was read at high confidence
      "Brightwater Labs is looking to raise $30 million in its Series B.", None),
     ("How much does a Brightwater Labs membership cost?",
      "If Brightwater Labs asked me today, I would be ready to pay a fee of $10 per month for membership.", None),
     # Stated as done, or asked what was planned, it answers.
     ("How many customers does Brightwater Labs have?", "Brightwater Labs is looking for 50 more customers this year.",
      None),
     ("How many people does Brightwater Labs employ?", "Brightwater Labs employs 164 people.", "164"),
     # "look" that tends, not seeks: "we look after" customers is how many it has.
     ("How many customers does Brightwater Labs have?",
      "Today Brightwater Labs looks after over 11,000 customers, from one-person blogs to national charities.",
      "11,000"),
     ("How much does a Brightwater Labs membership cost?", "A Brightwater Labs membership costs $60 per year.", "$60"),
     ("How many people did Brightwater Labs plan to hire?", "We planned to hire ten people for three projects.",
      "ten"),
     # Asked when something happened: what is to happen, was planned or only tried did not (each was read at
     # medium or high confidence); asked when it will, the future answers.
     ("When did Brightwater Labs launch the Tidemark?", "Brightwater Labs will launch the Tidemark in spring 2027.",
      None),
     ("When did Brightwater Labs go public?", "Brightwater Labs has no plans to go public before 2030.", None),
     ("When was Brightwater Labs acquired?",
      "Globex tried to acquire Brightwater Labs in 2020, but the deal fell through.", None),
     ("When will Brightwater Labs launch the Tidemark 3?", "Brightwater Labs will launch the Tidemark 3 in 2027.",
      "2027"),
     ("When did Brightwater Labs launch the Tidemark?", "Brightwater Labs launched the Tidemark in 2021.", "2021"),
     ("When was Brightwater Labs acquired?", "Globex acquired Brightwater Labs in 2020.", "2020"),
     # Nor what was only weighed, denied or reported (the first two were read at high confidence), unless it is told.
     ("When did Brightwater Labs go public?", "Brightwater Labs considered going public in 2021 but stayed private.",
      None),
     ("When was Brightwater Labs acquired?",
      "Brightwater Labs denied reports that it was acquired by Globex in 2020.", None),
     ("When was Brightwater Labs acquired?", "Rumours that Globex acquired Brightwater Labs in 2020 spread quickly.",
      None),
     ("When did Brightwater Labs go public?", "After considering its options, Brightwater Labs went public in 2021.",
      "2021"),
     ("When was Brightwater Labs acquired?", "Reports confirmed that Globex acquired Brightwater Labs in 2020.",
      "2020"),
     ("How many employees does Brightwater Labs have?",
      "Brightwater Labs, which considers itself a small company, has 50 employees.", "50"),
     # Nor is it what is now (both were read at high confidence), but a cost told ahead is the cost.
     ("How much funding has Brightwater Labs raised?", "Brightwater Labs will raise $20 million in its Series A.",
      None),
     ("How many employees does Brightwater Labs have?", "Brightwater Labs will have 60 employees by the end of 2026.",
      None),
     ("How much did the Brightwater Labs workshop cost?", "Brightwater Labs' new workshop will cost around $2 million.",
      "$2 million")],
)
def test_what_is_planned_or_supposed_is_not_what_is(question: str, text: str, value: str | None) -> None:
    assert given(question, text) == value


@pytest.mark.parametrize(
    ("question", "text", "value"),
    # A value of the deed that undoes the one asked of (each was read at medium confidence, the Canada one at high)...
    [("When did Brightwater Labs open its Berlin office?", "Brightwater Labs closed its Berlin office in 2022.", None),
     ("When did Brightwater Labs close its Berlin office?", "Brightwater Labs opened its Berlin office in 2015.",
      None),
     ("When did Jane Roe become CEO of Brightwater Labs?", "Jane Roe stepped down as CEO of Brightwater Labs in 2020.",
      None),
     ("How many employees did Brightwater Labs hire in 2020?", "Brightwater Labs laid off 50 employees in 2020.", None),
     ("When did Brightwater Labs start selling in Canada?", "Brightwater Labs stopped selling in Canada in 2020.",
      None),
     ("When did Brightwater Labs launch the Tidemark?", "Brightwater Labs discontinued the Tidemark in 2018.", None),
     ("When did Brightwater Labs raise its prices?", "Brightwater Labs cut its prices in 2019.", None),
     # ...is no answer; the deed's own value, beside its undoing, is.
     ("When did Brightwater Labs open its Berlin office?",
      "Brightwater Labs opened its Berlin office in 2015 and closed it in 2022.", "2015"),
     ("When did Jane Roe become CEO of Brightwater Labs?",
      "Jane Roe became CEO of Brightwater Labs in 2015 and stepped down in 2020.", "2015"),
     ("When did Brightwater Labs step up production?", "Brightwater Labs stepped up production in 2019.", "2019")],
)
def test_the_undoing_of_a_deed_does_not_date_the_deed(question: str, text: str, value: str | None) -> None:
    assert given(question, text) == value


@pytest.mark.parametrize(
    ("question", "text", "value"),
    # A change's count or amount is not how many there are or how much it is (the first two were read at high
    # confidence, the third at medium)...
    [("How many customers does Brightwater Labs have?", "Brightwater Labs lost 500 customers last year.", None),
     ("How many employees does Brightwater Labs have?", "Brightwater Labs hired 20 employees last year.", None),
     ("What is Brightwater Labs' revenue?", "Brightwater Labs' revenue fell by $2 million in 2023.", None),
     # ...unless the change is asked of; the level itself answers.
     ("How many employees did Brightwater Labs hire last year?", "Brightwater Labs hired 20 employees last year.",
      "20"),
     ("By how much did Brightwater Labs' revenue fall in 2023?",
      "Brightwater Labs' revenue fell by $2 million in 2023.", "$2 million"),
     ("How many employees does Brightwater Labs have?",
      "After the acquisition, which added 20 engineers, Brightwater Labs has 120 employees.", "120")],
)
def test_a_change_is_not_the_level(question: str, text: str, value: str | None) -> None:
    assert given(question, text) == value


@pytest.mark.parametrize(
    ("question", "text", "value"),
    # Another deed than the one asked of, each read at medium or high confidence: the subject acquiring another body
    # in a noun of the deed, a move that went the other way, its founders starting another body, a thing or person
    # of its founded or born...
    [("When was Brightwater Labs acquired?", "Brightwater Labs completed the acquisition of Initech in 2019.", None),
     ("When was Brightwater Labs acquired?", "Brightwater Labs announced the acquisition of Initech in 2019.", None),
     ("When did Brightwater Labs move its headquarters to Berlin?",
      "Brightwater Labs moved its headquarters from Berlin to Munich in 2019.", None),
     ("When did Brightwater Labs switch to Hetzner?", "Brightwater Labs switched from Hetzner to AWS in 2020.", None),
     ("When was Brightwater Labs founded?", "The founders of Brightwater Labs previously started Globex in 2005.",
      None),
     ("When was Brightwater Labs founded?", "Brightwater Labs' Berlin office was founded in 2019.", None),
     ("When was Brightwater Labs founded?",
      "Brightwater Labs' founder Jane Roe was born in 1980 and started coding in 1995.", None),
     # ...where the deed asked of is told, it answers.
     ("When was Brightwater Labs acquired?", "Globex completed the acquisition of Brightwater Labs in 2019.", "2019"),
     ("When was Brightwater Labs founded?", "Jane Roe started Brightwater Labs in 2016.", "2016"),
     ("When did Brightwater Labs open its Berlin office?", "Brightwater Labs' Berlin office opened in 2019.", "2019"),
     ("When did Brightwater Labs move its headquarters to Munich?",
      "Brightwater Labs moved its headquarters from Berlin to Munich in 2019.", "2019")],
)
def test_another_deed_is_no_answer(question: str, text: str, value: str | None) -> None:
    assert given(question, text) == value


def test_a_first_holder_is_asked_by_first() -> None:
    first = "Ana Ruiz was the first CEO of Brightwater Labs."
    assert given("Who was Brightwater Labs' first CEO?", first) == "Ana Ruiz"


@pytest.mark.parametrize(
    ("question", "text", "value"),
    [("How much funding has Brightwater Labs raised?", "Brightwater Labs helped Deutsche Bahn raise $20 million.",
      None),
     ("How many employees does Brightwater Labs have?",
      "Brightwater Labs helps Deutsche Telekom, a company with 5,000 employees, ship faster.", None),
     ("How many employees does Brightwater Labs have?",
      "Brightwater Labs was founded by former Google engineers; Google has 180,000 employees.", None),
     ("What is Brightwater Labs' phone number?",
      "Brightwater Labs resells Siemens hardware; Siemens support can be reached at +49 89 636 00.", None),
     # The subject's own, what is done to it, the body the question names, and its people stay its answers.
     ("How much funding has Brightwater Labs raised?", "Brightwater Labs raised $20 million from Siemens.",
      "$20 million"),
     ("When was Brightwater Labs acquired?", "Siemens acquired Brightwater Labs in 2019.", "2019"),
     ("How much did Siemens pay for Brightwater Labs?", "Siemens paid $20 million for Brightwater Labs.",
      "$20 million"),
     ("How many customers does Brightwater Labs have?", "Siemens and 300 other customers rely on Brightwater Labs.",
      "300"),
     ("How many employees does Brightwater Labs have?",
      "Brightwater Labs is built by Ana and Tom, a bootstrapped two-person team.", "two")],
)
def test_a_value_the_parse_tells_of_another_named_body_is_no_answer(question: str, text: str,
                                                                     value: str | None) -> None:
    # Each of the first three was read at medium or high confidence as Brightwater Labs' own.
    assert given(question, text) == value


@pytest.mark.parametrize(
    ("text", "value"),
    [("Founded in 1998, Globex is our biggest customer and has used Brightwater Labs sensors since 2012.", None),
     ("Founded in 2013, Brightwater Labs makes water sensors for farms.", "2013")],
)
def test_an_opening_participle_is_the_main_clauses_subjects(text: str, value: str | None) -> None:
    # "Founded in 1998" is Globex's founding, not Brightwater Labs' (it was read at medium confidence).
    reading = read(read_question("When was Brightwater Labs founded?", None, "Brightwater Labs"),
                   [Passage(text, 0, 1, "About Brightwater Labs", own_site=True)])
    assert (reading.answer.value if reading.answer else None) == value


def test_where_the_reader_is_is_not_where_the_company_is() -> None:
    q = read_question("Where is Brightwater Labs headquartered?", None, "Brightwater Labs")
    offer = "We can offer work contracts through a payroll provider or directly if you're based in Germany."
    assert read(q, [Passage(offer, 0, 1, "Careers at Brightwater Labs")]).answer is None
    both = [Passage(offer, 0, 1, "Careers at Brightwater Labs"),
            Passage("Brightwater Labs is headquartered in Porto.", 1, 2)]
    found = read(q, both).answer
    assert found is not None and found.value == "Porto"


def test_a_street_number_is_no_count() -> None:
    line = "Address (for all mail): 548 Market St PMB 20739, San Francisco, CA 94104-5401"
    q = read_question("How many offices does Brightwater Labs have?", None, "Brightwater Labs")
    assert read(q, [Passage(line, 0, 1, "About Brightwater Labs")]).answer is None
    three = read(q, [Passage("Brightwater Labs has 3 offices.", 0, 1)]).answer
    assert three is not None and three.value == "3"


def test_a_sentence_about_the_subject_by_a_pronoun_may_date_another_bodys_predicate() -> None:
    # "it" is the page's subject, but "launched in 2013" is Healthcare.gov's launch.
    q = read_question("What year did Brightwater Labs launch?", None, "Brightwater Labs")
    other = "When Healthcare.gov launched in 2013, it crashed under load."
    assert read(q, [Passage(other, 0, 1, "About Brightwater Labs")]).answer is None
    # The company's own doer ("our ...") and the company by name still date it.
    for text in ("Our team launched the service in 2015.", "It launched in 2015.",
                 "Brightwater Labs launched in 2015."):
        reading = read(q, [Passage(text, 0, 1, "About Brightwater Labs")])
        assert reading.answer is not None and reading.answer.value == "2015", text


PROFILES = "Same as: https://twitter.com/brightwater; https://github.com/brightwater-labs"
FOUR_THEN = "In 2003, Brightwater Labs was a web design firm made up of 4 people."


@pytest.mark.parametrize(
    ("question", "texts", "value"),
    [# A profile on another site is not the website, unless asked for.
     ("What is Brightwater Labs' website?", [PROFILES], None),
     ("What is Brightwater Labs' website?", [PROFILES, "Website: https://brightwater.example"],
      "https://brightwater.example"),
     ("What is Brightwater Labs' GitHub website?", [PROFILES], "https://github.com/brightwater-labs"),
     ("What is the website of Brightwater Labs for experts?", ["Same as: https://x.com/brightwater"], None),
     # Asked how many there are now, a past count dated by a year is how many there were.
     ("How many people work at Brightwater Labs?", [FOUR_THEN], None),
     ("How many customers does Brightwater Labs have?", ["Brightwater Labs had 1,200 customers that year."], None),
     ("How many customers does Brightwater Labs have?", ["Brightwater Labs had 300 customers last year."], None),
     # The small parser hangs this one on "By", no verb: the tense is the first verb's.
     ("How many customers does Brightwater Labs have?",
      ["By the end of the year Brightwater Labs had around 300 paying customers."], None),
     ("How many customers does Brightwater Labs have?",
      ["By the end of the year Brightwater Labs has around 300 paying customers."], "300"),
     ("How many people work at Brightwater Labs?", ["Brightwater Labs is made up of 164 people."], "164"),
     ("How many people worked at Brightwater Labs in 2003?", [FOUR_THEN], "4"),
     # Beside a count told as now, a dated past count does not vote: it would out-vote it, or make it unsure.
     ("How many employees does Brightwater Labs have?",
      ["Brightwater Labs started in 2018 when two people who had never met began swapping messages about sensors.",
       "Today Brightwater Labs is a team of 14 people working remotely from Canada and Europe."], "14")],
)
def test_a_value_of_another_site_or_time_is_no_answer(question: str, texts: list[str], value: str | None) -> None:
    passages = [Passage(text, n, n + 1, "About Brightwater Labs") for n, text in enumerate(texts)]
    reading = read(read_question(question, None, "Brightwater Labs"), passages)
    assert (reading.answer.value if reading.answer else None) == value


def test_a_name_ends_at_its_comma() -> None:
    # "Brightwater Labs, the Porto-based ..., has closed": the sentence is led by the company, so the round it
    # closed is its own and the round's lead is the answer.
    q = read_question("Who led Brightwater Labs' Series A?", None, "Brightwater Labs")
    reading = read(q, [Passage("Brightwater Labs, the Porto-based water analytics startup, has closed a €3 million Series A "
                               "round led by Northwind Capital, with participation from Fabrikam Ventures.", 0, 1)])
    assert reading.answer is not None and reading.answer.value == "Northwind Capital"


@pytest.mark.parametrize(
    ("line", "street"),
    [("Brightwater Labs GmbH, Hafenstraße 12, 20457 Hamburg, Germany", "Hafenstraße 12"),
     ("Brightwater Labs B.V.\nOudegracht 45\n3511 AB Utrecht\nThe Netherlands", "Oudegracht 45"),
     ("Brightwater Labs SAS, 12 rue de la Paix, 75002 Paris, France", "12 rue de la Paix"),
     ("Brightwater Labs Lda., Rua Augusta 12, 1100-053 Lisboa, Portugal", "Rua Augusta 12"),
     # An imprint's address block, one line to a paragraph as extractors write it.
     ("Brightwater Labs GmbH\n\nHafenstraße 12\n\n20457 Hamburg\n\nGermany", "Hafenstraße 12"),
     # "us" is the page's own company in a sentence bidding the reader come.
     ("Visit us at Rua Augusta 12, 1100-053 Lisboa, Portugal.", "Rua Augusta 12"),
     ("Write to us at Rua Augusta 12, 1100-053 Lisboa, Portugal.", "Rua Augusta 12")],
)
def test_a_postal_address_in_another_countrys_form_states_where_the_company_is(line: str, street: str) -> None:
    reading = read(read_question("What is Brightwater Labs' address?", None, "Brightwater Labs"), [Passage(line, 0, 1)])
    assert reading.answer is not None and reading.answer.value.startswith(street)


def test_another_bodys_address_or_a_date_is_no_address_of_the_company() -> None:
    q = read_question("What is Brightwater Labs' address?", None, "Brightwater Labs")
    assert read(q, [Passage("Globex GmbH\n\nHafenstraße 12\n\n20457 Hamburg\n\nGermany", 0, 1)]).answer is None
    assert read(q, [Passage("Globex helps us reach Hafenstraße 12, 20457 Hamburg, in a day.", 0, 1)]).answer is None
    assert read(q, [Passage("Globex GmbH, Hafenstraße 12, 20457 Hamburg, is a Brightwater Labs partner.", 0, 1)]).answer is None
    assert read(q, [Passage("On March 12, 2019 Brightwater Labs opened its second lab.", 0, 1)]).answer is None
    # Two addresses of the company (an old office and a new one): neither is stated as the address.
    two = [Passage("Brightwater Labs GmbH, Hafenstraße 12, 20457 Hamburg", 0, 1),
           Passage("Brightwater Labs GmbH, Kaiserstraße 5, 60311 Frankfurt", 1, 2)]
    assert read(q, two).answer is None


def test_a_british_spelling_is_the_american_word() -> None:
    q = read_question("What licence is Brightwater Labs distributed under?", None, "Brightwater Labs")
    reading = read(q, [Passage("Brightwater Labs is offered under the Mozilla Public License.", 0, 1)])
    assert reading.answer is not None and "Mozilla Public License" in reading.answer.sentence.text


def test_which_noun_is_asked_a_sentence_must_name_one() -> None:
    # "Under which licence ...": a sentence about the design system without a licence names none, and the
    # company's own licence is another thing's.
    q = read_question("Under which licence did Brightwater Labs open-source its design system?", None, "Brightwater Labs")
    passages = [Passage("We're open-sourcing this design system so you can see how we build the product and think about "
                        "design as a whole.", 0, 1),
                Passage("Brightwater Labs is offered under the Mozilla Public License.", 1, 2)]
    assert read(q, passages).answer is None
    stated = read(q, [Passage("Brightwater Labs open-sourced its design system under the MIT licence.", 0, 1)])
    assert stated.answer is not None and "MIT" in stated.answer.sentence.text


@pytest.mark.parametrize(
    ("question", "sentence", "value"),
    [("Which open source projects does Brightwater Labs contribute to?",
      "We’re prolific open source contributors through Ruby on Rails, Trix, Stimulus, and many other projects.",
      "Ruby on Rails, Trix, Stimulus"),
     ("Which open source projects does Brightwater Labs sponsor?",
      "Brightwater Labs sponsors open source projects such as Django and Celery.", "Django and Celery"),
     ("Which hospitals does Brightwater Labs sell to?",
      "Brightwater Labs sells to hospitals, including Mercy Health and Kaiser Permanente.",
      "Mercy Health and Kaiser Permanente"),
     ("Which editor does Brightwater Labs use?", "Our editor of choice is Trix.", "Trix")],
)
def test_the_names_a_sentence_gives_as_what_is_asked(question: str, sentence: str, value: str) -> None:
    # Asked "which projects", the names the parse lists as projects ("such as", "including", "and other
    # projects") or says are one ("Our editor is Trix") are the answer, however far from the noun.
    reading = read(read_question(question, None, "Brightwater Labs"), [Passage(sentence, 0, 1)])
    assert reading.answer is not None and reading.answer.value == value


def test_the_instance_the_question_names_or_owns_is_not_the_answer() -> None:
    # "What other projects ... besides Let's Encrypt?": the project the question names is no answer, nor is the
    # owner's possessive a project's name ("ISRG's first project"), nor a capitalised "Our".
    q = read_question("What other projects does Kestrel run besides Brightwater?", None, "Brightwater Labs")
    for text in ("Kestrel’s first project, Brightwater, has been wildly successful.",
                 "Our next project after Brightwater is going live shortly."):
        assert read(q, [Passage(text, 0, 1)]).answer is None, text
    assert answer("Which award did Brightwater Labs win in 2010?",
                  "Brightwater Labs won the Queen's Award for Enterprise in 2010.").value == "Queen's Award"


def test_a_related_verb_states_the_fact_only_as_the_subjects_main_verb() -> None:
    q = read_question("What does Brightwater Labs sell?", None, "Brightwater Labs")
    made = read(q, [Passage("Brightwater Labs makes water quality sensors for city utilities.", 0, 1)])
    assert made.answer is not None
    aside = read(q, [Passage("Brightwater Labs had a year of shipping, learning, and making hard decisions.", 0, 1),
                     Passage("It was a reminder that while we build software, people keep the momentum.", 1, 2)])
    assert aside.answer is None


def test_an_irregular_verb_form_is_its_verb() -> None:
    # "went through" for "go through", read from the entity model's own table of irregular forms.
    q = read_question("When did Brightwater Labs go through an acquisition process?", None, "Brightwater Labs")
    reading = read(q, [Passage("In 2025, Brightwater Labs went through an acquisition process.", 0, 1)])
    assert reading.answer is not None and reading.answer.value == "2025"


def test_a_measure_of_people_is_a_headcount() -> None:
    q = read_question("How many employees does Brightwater Labs have?", None, "Brightwater Labs")
    reading = read(q, [Passage("Brightwater Labs is built by Ana and Tom, a bootstrapped two-person team.", 0, 1)])
    assert reading.answer is not None and reading.answer.value == "two"


def test_a_related_noun_is_the_subjects_only_in_a_clause_it_leads() -> None:
    # "services" is a word of "sell"'s relation, but what is monitored is not what is sold.
    q = read_question("What does Brightwater Labs sell?", None, "Brightwater Labs")
    monitored = read(q, [Passage("Brightwater Labs launched the ability to monitor internal services from your own network.", 0, 1)])
    assert monitored.answer is None
    shipped = read(q, [Passage("Brightwater Labs helps teams to ship products faster.", 0, 1)])
    assert shipped.answer is None
    provided = read(q, [Passage("Brightwater Labs provides testing services to city utilities.", 0, 1)])
    assert provided.answer is not None
    announced = read(q, [Passage("Brightwater Labs is happy to announce that it now provides testing services to city utilities.", 0, 1)])
    assert announced.answer is not None


def test_what_another_body_does_with_the_company_needs_that_verb() -> None:
    # Asked what Globex uses the company for, a sentence on Globex's own product answers nothing, though it holds
    # the question's rarer words; the one that says what Globex uses it for does.
    q = read_question("What does the parcel company Globex use Brightwater Labs for?", None, "Brightwater Labs")
    story = Passage("Brightwater Labs has a new customer.\n\nTheir flagship product, the Globex parcel arm, provides a safe "
                    "way to sort parcels.", 0, 1, "Customer story: why Globex chose Brightwater Labs")
    common = Passage("Teams use our sensors daily. You can use them anywhere. We use plain tools.", 1, 2)
    assert not any(states_question(q, s) for s in read(q, [story, common]).sentences)
    stated = Passage("The parcel company Globex uses Brightwater Labs for testing its water supply.", 2, 3)
    assert [s.plain for s in read(q, [story, common, stated]).sentences if states_question(q, s)] == [stated.text]


def test_what_the_company_is_or_does_is_answered_by_a_sentence_that_says_what_it_is() -> None:
    page = Passage("We are hiring engineers in Leeds. Brightwater Labs is a maker of water quality sensors for city "
                   "utilities. Our office dog is called Biscuit.", 0, 1)
    for question in ("What does Brightwater Labs do?", "What is Brightwater Labs?", "What kind of company is Brightwater Labs?"):
        q = read_question(question, None, "Brightwater Labs")
        assert q.kind == "text" and q.defining, question
        assert [s.plain for s in read(q, [page]).sentences if states_question(q, s)] == [
            "Brightwater Labs is a maker of water quality sensors for city utilities."], question
    q = read_question("What does Brightwater Labs do?", None, "Brightwater Labs")
    described = read(q, [Passage("Description: Brightwater Labs is an online marketplace for lab equipment.", 0, 1)])
    assert any(states_question(q, s) for s in described.sentences)
    # Not a noun that says nothing of what it does, nor "it" standing for something else.
    for text in ("Brightwater Labs is a small team based in Leeds, England.",
                 "We spent a week in the hills. It was a vital reminder that while we write code, people matter.",
                 "Brightwater Labs is proud to sponsor the Leeds marathon again this year."):
        assert not any(states_question(q, s) for s in read(q, [Passage(text, 0, 1)]).sentences), text



def test_a_legal_name_is_the_companys_name_with_its_legal_form_even_in_legal_text() -> None:
    q = read_question("What is the legal name of the company behind Brightwater Labs?", None, "Brightwater Labs")
    assert q.kind == "text" and q.legal_name
    policy = Passage("This privacy policy explains how we handle your data. Brightwater Labs Ltd (\u201cwe\u201d, \u201cus\u201d) "
                     "operates brightwater.example.", 0, 1, "Privacy Policy")
    stating = [s.plain for s in read(q, [policy]).sentences if states_question(q, s)]
    assert len(stating) == 1 and stating[0].startswith("Brightwater Labs Ltd")
    # Its words alone state nothing: "incorporated" is a word of a legal form's relation, not a legal name.
    own = read_question("What is Brightwater Labs' legal name?", None, "Brightwater Labs")
    features = Passage("Brightwater Labs incorporated new reporting features into its dashboard.", 0, 1)
    assert not any(states_question(own, s) for s in read(own, [features]).sentences)
    # Nor does another company's legal name.
    other = Passage("Brightwater Labs was acquired by Globex Ltd in 2024.", 0, 1)
    assert not any(states_question(q, s) for s in read(q, [other]).sentences)


@pytest.mark.parametrize(("question", "legal_name"), [
    ("What is the name of Brightwater Labs' company (legal entity)?", True),
    ("Which legal entity operates Brightwater Labs?", True),
    ("What kind of legal entity is Brightwater Labs?", False),  # its form, not its name
    ("What type of legal entity is Brightwater Labs?", False),
])
def test_a_legal_entity_asked_for_is_a_legal_name_and_its_kind_is_not(question: str, legal_name: bool) -> None:
    assert read_question(question, None, "Brightwater Labs").legal_name is legal_name
    if legal_name:
        found = answer(question, "We view partnerships as long-term relationships built on trust.",
                       "Brightwater Labs AB, Storgatan 1, Malmö")
        assert found is not None and found.value == "Brightwater Labs AB"


def test_a_legal_name_in_a_sentence_without_the_questions_words_states_it() -> None:
    q = read_question("What is Brightwater Labs' legal entity?", None, "Brightwater Labs")
    told = Passage("Our sensor has become his livelihood in his co-founded company Brightwater Labs AB.", 0, 1)
    assert [s.plain for s in read(q, [told]).sentences if states_question(q, s)] == [told.text]
    denied = Passage("His co-founded company was never Brightwater Labs AB.", 0, 1)
    assert not any(states_question(q, s) for s in read(q, [denied]).sentences)


@pytest.mark.parametrize(("question", "text", "expected"), [
    ("What is the legal name of the company behind Brightwater?",
     "Brightwater is developed and maintained by Kandra Labs, Inc. in Chicago.", "Kandra Labs, Inc."),
    ("What is the legal entity that operates Brightwater.io?",
     "Brightwater.io is operated by SIA Monkey See, Brivibas iela 68-12, Riga, LV-1011, Latvia.", "SIA Monkey See"),
    # The small parser hangs the clause on the apposition, or finds no doer: the name with its form stands before it.
    ("What is the legal name of the company behind Brightwater?",
     "This agreement is between you and Kandra Labs, Inc., a Delaware corporation, which operates Brightwater Cloud.",
     "Kandra Labs, Inc."),
    ("What is the legal name of the company behind Brightwater?",
     "To offer support, we have founded a company: rami.io GmbH, based in Heidelberg, now operates Brightwater Hosted.",
     "rami.io GmbH"),
    # A body the sentence names otherwise is not the one behind the subject.
    ("What is the legal name of the company behind Brightwater?",
     "Brightwater Cloud is hosted on servers operated by Hetzner Online GmbH in Germany.", None),
    ("What is the legal name of the company behind Brightwater?",
     "Our partner Globex GmbH operates Brightwater's servers in Frankfurt.", None),
    ("What is the legal name of the company behind Brightwater?",
     "Globex GmbH, our hosting partner, runs the servers for Brightwater.", None),
    ("What is the legal name of the company behind Brightwater?",
     "Brightwater was not developed by Globex GmbH.", None),
    # Asked for its own legal name, the body that runs it is its owner, not its name.
    ("What is Brightwater's legal name?", "Brightwater is run by Globex Ltd, a company registered in England.", None),
])
def test_the_legal_name_of_the_body_behind_the_subject_is_the_name_with_a_form_of_its_operator(
        question: str, text: str, expected: str | None) -> None:
    q = read_question(question, None, "Brightwater")
    assert q.legal_name
    reading = read(q, [Passage(text, 0, 1, "About", own_site=True)])
    assert (reading.answer and reading.answer.value) == expected
    assert any(states_question(q, s) for s in reading.sentences) is (expected is not None)


def test_ask_and_enrich_read_the_same_legal_name_and_two_legal_names_are_no_answer() -> None:
    question = "What is Brightwater Labs' legal name?"
    policy = ("# Privacy Policy\n\nBrightwater Labs Ltd (\u201cwe\u201d, \u201cus\u201d) operates brightwater.example. "
              "We keep your data for two years.")
    duties = "# Our values\n\nBrightwater Labs takes its legal duties to every customer seriously."
    result = retrieval(question, [ABOUT, policy, duties], company="brightwater-labs")
    result.trace.company.matched = "Brightwater Labs"
    asked = Answerer().answer(question, result)
    cell = extract_answer(question, "text", passages_from_chunks(result.context), company="Brightwater Labs")
    assert asked.short_answer == cell.value == "Brightwater Labs Ltd" and cell.confidence == "medium"
    assert asked.answer.startswith("Brightwater Labs Ltd (")
    assert asked.citations == [2] and "duties" not in asked.answer  # stated by its form, the sentence is the whole answer
    # A GmbH and an Inc. of the same name are for a reader to tell apart: no cell.
    two = retrieval(question, [policy, "# Imprint\n\nBrightwater Labs GmbH, Hafenweg 3, 20457 Hamburg."], company="brightwater-labs")
    two.trace.company.matched = "Brightwater Labs"
    assert extract_answer(question, "text", passages_from_chunks(two.context), company="Brightwater Labs").value is None
    both = Answerer().answer(question, two)
    assert both.abstained and {"Brightwater Labs Ltd", "Brightwater Labs GmbH"} <= {
        name for r in both.related for name in ("Brightwater Labs Ltd", "Brightwater Labs GmbH") if name in r.text}


def test_the_address_of_a_mailing_list_is_an_email_address_a_mailing_address_a_place() -> None:
    assert kind_of("What is the address of the community mailing list?") == "contact"
    assert read_question("What is the address of the mailing list?", None, "Brightwater Labs").contact == "email"
    assert kind_of("What is the mailing address of Brightwater Labs?") == "place"
    stated = "Berlin, Germany: Brightwater Labs, Hafenweg 3. Subscribe to the mailing list at list@brightwater.example."
    assert answer("What is the address of the Brightwater Labs mailing list?", stated).value == "list@brightwater.example"


def test_when_after_another_question_word_dates_the_question_and_asks_nothing():
    assert kind_of("Which small-business program was Brightwater Labs certified under when it started out?") == "text"
    assert kind_of("Who led Brightwater Labs when it was founded?") == "person"
    assert kind_of("Where was Brightwater Labs based when it started?") == "place"
    assert kind_of("When was Brightwater Labs founded?") == "date"
    assert kind_of("Who founded Brightwater Labs, and when?") == "date"  # a part joined by "and" is asked
    # The date of the clause is not the answer to who led it.
    led = answer("Who led Brightwater Labs when it was founded?",
                 "Brightwater Labs was founded in 2019; its first chief executive was Jane Roe.")
    assert led is None or "2019" not in led.value


def test_a_clause_set_beside_a_person_is_read_as_what_it_says_of_them():
    said = answer("Who co-founded Brightwater Labs?",
                  "Jane Roe, who co-founded Brightwater Labs with John Doe in 2014, now leads its research team.")
    assert (said.value, said.confidence, said.sentence.text) == (
        "Jane Roe", "medium", "Jane Roe, who co-founded Brightwater Labs with John Doe in 2014, now leads its research team.")
    # What the clause says of another company states nothing of this one.
    other = answer("Who founded Brightwater Labs?", "Jane Roe, who founded Tidewater Analytics in 2009, is a Brightwater Labs customer.")
    assert other is None or other.confidence == "low"
    assert answer("When was Brightwater Labs founded?",
                  "Jane Roe, who founded Tidewater Analytics in 2009, is a Brightwater Labs customer.") is None


def test_it_is_the_company_only_when_the_sentence_before_is_about_the_company():
    q = read_question("Where is Brightwater Labs based?", None, "Brightwater Labs")
    about = "Brightwater Labs was founded in 2014 by Jane Roe. It is based in Austin, Texas."
    other = "Getting water testing right is not about the lab alone. It is based in Austin, Texas, like most of the field."
    roles = {s.plain: s.role for s in read(q, [Passage(about, 0, 1), Passage(other, 1, 2)]).sentences}
    assert roles["It is based in Austin, Texas."] == 2
    assert roles["It is based in Austin, Texas, like most of the field."] == 0
    said = answer("Where is Brightwater Labs based?", other)
    assert said is None or said.confidence == "low"


def test_a_question_on_one_year_is_not_answered_by_a_sentence_on_another():
    asked = "How many employees did Brightwater Labs have in 2020?"
    same = answer(asked, "Brightwater Labs had 120 employees in 2020.")
    assert (same.value, same.confidence) == ("120", "high")
    other = answer(asked, "Brightwater Labs had 120 employees in 2018.")
    assert other is None or other.confidence == "low"
    # The value's own year is not another time.
    before = answer("In what year before 2020 did Brightwater Labs open its first lab?", "Brightwater Labs opened its first lab in 2016.")
    assert (before.value, before.confidence) == ("2016", "medium")


def test_a_year_in_a_name_or_a_period_does_not_ask_for_a_year():
    assert kind_of("Who was Brightwater Labs' Employee of the Year in 2019?") == "person"
    assert kind_of("What was Brightwater Labs' revenue for the financial year that ended in March 2024?") == "money"
    assert kind_of("In what year was Brightwater Labs founded?") == "year"
    assert kind_of("Which decade saw Brightwater Labs grow fastest?") == "year"
    assert kind_of("Year founded") == "year"  # a column's label asks with no question word
    # A date is asked for when the question's wh-word asks for it, not when the word is elsewhere.
    assert kind_of("What is the exact date of Brightwater Labs' founding?") == "date"
    assert kind_of("On what day did Brightwater Labs open?") == "date"
    assert kind_of("Which report gave the founding date of Brightwater Labs?") != "date"
    named = answer("Who was Brightwater Labs' Employee of the Year in 2019?",
                   "Jane Roe was named Brightwater Labs' Employee of the Year in 2019.")
    assert named is not None and named.value == "Jane Roe"


def test_a_question_ending_on_a_preposition_asks_for_its_object():
    sold = "In 1997 Brightwater Labs sold the newspapers it had run under Kestrel Group to Tidewater Media for $1.6 billion."
    assert answer("Who did Brightwater Labs sell the newspapers to?", sold).value == "Tidewater Media"
    assert answer("To whom did Brightwater Labs sell the newspapers?", sold).value == "Tidewater Media"
    # Without a name after the preposition, every name is still a candidate.
    assert answer("Who did Brightwater Labs sell the newspapers to?",
                  "Tidewater Media bought the newspapers of Brightwater Labs in 1997.").value == "Tidewater Media"


def test_a_name_is_written_with_capitals_and_address_as_a_verb_asks_no_place():
    # The recogniser may call a lowercase phrase a person; a name to put in a table has capitals.
    starred = answer("Who starred in The Harbour Light?",
                     "In 1931 Brightwater Labs remade their 1925 horror melodrama, The Harbour Light, with Jane Roe and John Doe.")
    assert starred is None or "melodrama" not in starred.value
    assert read_question("What problem does Brightwater Labs address?", None, "Brightwater Labs").kind == "text"
    assert read_question("What did the accord try to address?", None, "Brightwater Labs").kind == "text"
    assert read_question("What is Brightwater Labs' address?", None, "Brightwater Labs").kind == "place"


def test_of_several_counts_the_one_of_the_noun_asked_about():
    both = "By 2019 Brightwater Labs had 23 laboratories, each run by a chemist, and 90 employees in Portugal."
    assert answer("How many employees worked in Brightwater Labs' laboratories in Portugal?", both).value == "90"
    assert answer("How many laboratories did Brightwater Labs have?", both).value == "23"


def test_of_several_values_the_one_in_the_question_s_clause_as_the_parse_reads_it():
    both = ("In 2009, Brightwater Labs began a study of river pollution in the region and published its report on "
            "the state of the estuary in 2012.")
    # 2009 dates the beginning: the publication is dated by 2012 or by nothing, never by the nearer year.
    published = answer("In what year did Brightwater Labs publish its report?", both)
    assert published is None or published.value == "2012"
    assert answer("In what year did Brightwater Labs begin its study?", both).value == "2009"
    taken = answer("When did Brightwater Labs take over Kestrel Films?",
                   "Brightwater Labs bought a stake in Kestrel Films in 1947, and took the company over in 1951.")
    # The other date is set aside by a judgement of the parse: the value it leaves is not stated beyond doubt.
    assert taken.value == "1951" and taken.confidence != "high"
    # Without the question's verb, the clause holding more of its key terms: "based in Leeds", not "employs".
    staff = answer("How many of Brightwater Labs' staff are located in Leeds?",
                   "Brightwater Labs employs over 250 staff, approximately 180 of whom are based in Leeds.")
    assert staff.value == "180" and staff.confidence != "high"
    # A place too: where the lab opened, not where the offices moved.
    lab = answer("Where did Brightwater Labs open its second lab?",
                 "In 2019 Brightwater Labs moved its offices to Leeds and opened its second lab in Porto.")
    assert lab.value == "Porto"


def test_a_date_written_without_its_year_answers_when_but_never_at_high():
    began = answer("When did Brightwater Labs begin writing code?",
                   "In late June, we began writing the first line of code for Brightwater Labs.")
    assert (began.value, began.confidence) == ("late June", "medium")
    # A date with its year is read whole, as before; a month alone is no date of another event.
    dated = answer("When was Brightwater Labs founded?", "Brightwater Labs was founded on June 3, 2015, in Leeds.")
    assert (dated.value, dated.confidence) == ("June 3, 2015", "high")
    moved = answer("When was Brightwater Labs founded?", "In June, Brightwater Labs moved into a larger office in Leeds.")
    assert moved is None or moved.confidence == "low"
    assert answer("When was Brightwater Labs founded?", "Last week Brightwater Labs opened a second office.") is None


def test_what_another_body_uses_the_company_for_is_what_follows_the_preposition():
    asked = "What does the ORM company Globex use Brightwater Labs for?"
    q = read_question(asked, None, "Brightwater Labs")
    # "ORM company" describes a body the question names: a sentence naming Globex need not repeat it.
    assert "orm" in q.keywords and "orm" not in q.terms
    # A description of the body asked for narrows the answer down, and stays a term.
    assert "dutch" in read_question("Which Dutch artist painted Brightwater Labs' logo?", None, "Brightwater Labs").terms
    using = Passage("TLDR; Globex is now using Brightwater Labs, and we added visibility scopes.", 0, 1)
    stated = Passage("Globex uses Brightwater Labs for collaborative team signing.", 1, 2)
    product = Passage("Their flagship product, Globex ORM, provides a type-safe way to query databases.", 2, 3)
    reading = read(q, [using, product, stated])
    assert [s.plain for s in reading.sentences if states_question(q, s)] == [stated.text]
    assert reading.answer is not None and reading.answer.value == "collaborative team signing"


def test_the_company_behind_a_name_is_that_names_company_and_behind_no_key_term():
    asked = "In what year was the company behind Brightwater Labs founded?"
    q = read_question(asked, None, "Brightwater Labs")
    assert q.terms == ("found",)
    # The founding told without the word "behind" is as full an answer, and a sentence on what stands behind a product
    # says nothing of when.
    said = Passage("Brightwater Labs was founded in Leeds in 2015.", 0, 1)
    behind = Passage("The company behind it, Brightwater Labs, remains unchanged.", 1, 2)
    reading = read(q, [behind, said])
    assert reading.answer is not None and reading.answer.value == "2015"
    assert reading.sentences[0].plain == said.text
    # Asked who the people behind it are, "behind" is what is asked.
    assert "behind" in read_question("Who are the people behind Brightwater Labs?", None, "Brightwater Labs").keywords


def test_a_past_tense_sentence_is_no_certain_answer_to_what_holds_now():
    led = answer("Who is the current CEO of Brightwater Labs?", "Brightwater Labs was led by CEO Jane Roe.")
    assert led.value == "Jane Roe" and led.confidence != "high"
    # A sentence that says when it stopped ("until 2019") says it no longer holds: no answer at all.
    until = answer("Who is the current CEO of Brightwater Labs?", "Brightwater Labs was led by CEO Jane Roe until 2019.")
    assert until is None
    # Nor does one that gives the time it held between two years (each was read at medium confidence).
    for ended in ("Jane Roe was CEO of Brightwater Labs from 2014 to 2019.",
                  "Jane Roe served as CEO of Brightwater Labs between 2014 and 2019."):
        assert answer("Who is the CEO of Brightwater Labs?", ended) is None, ended
    since = answer("Who is the CEO of Brightwater Labs?", "Jane Roe has been CEO of Brightwater Labs since 2014.")
    assert since is not None and since.value == "Jane Roe"
    asked_then = answer("Who was the CEO of Brightwater Labs from 2014 to 2019?",
                        "Jane Roe was CEO of Brightwater Labs from 2014 to 2019.")
    assert asked_then is not None and asked_then.value == "Jane Roe"


def test_a_name_the_question_itself_gives_is_no_answer_in_another_number():
    merged = answer("With what company did Kestrel Media Systems merge in 2019?",
                    "In 2019, Kestrel Media System merged with Globex, which placed Brightwater Labs and Northwind Films "
                    "under one owner.")
    assert merged is None or merged.value == "Globex"  # never the merging body itself, named in the singular
    made = answer("Who was made head of research at Kestrel Media?",
                  "In 2019 Brightwater Labs' founder was made head of research at the renamed Kestrel Media Inc.")
    assert made is None  # nor with its legal form


def test_a_name_that_only_describes_a_noun_after_it_is_no_party():
    # "the first Kestrel Group member" names a member, not Kestrel Group.
    certified = answer("Who was the first company to certify Brightwater Labs?",
                       "Brightwater Labs became the first Kestrel Group member certified by the Harbour Standards Board.")
    assert certified.value == "Harbour Standards Board"


def test_who_did_something_is_the_doer_of_its_verb_as_the_parse_reads_it():
    owned = "Kestrel Studios owned the rights to the Harbour Rabbit character, although Jane Roe and John Doe had created it."
    found = answer("Who owned the rights to Harbour Rabbit?", owned)
    assert found is not None and found.value == "Kestrel Studios"
    assert answer("Who created Harbour Rabbit?", owned).value == "Jane Roe and John Doe"
    # A doer the sentence names only as "he" leaves no name to give; a by-phrase names the doer.
    moved = "Jane Roe moved to Kestrel Studios, where he produced several films, among them John Doe's Harbour Nights."
    said = answer("Who produced Harbour Nights?", moved)
    assert said is None or said.value != "John Doe"
    assert answer("Who produced Harbour Nights?", "Harbour Nights was produced by Jane Roe in 1969.").value == "Jane Roe"
    # A question that asks for no doer keeps every name: "Who did ... talk to?", "Who became ...?"
    talks = "In 2006 Brightwater Labs entered into talks with Kestrel Council over a new site."
    assert answer("Who did Brightwater Labs enter talks with?", talks).value == "Kestrel Council"


def test_whom_something_was_done_to_is_the_object_of_its_verb():
    hired = "In 2021 Brightwater Labs, advised by Kestrel Partners, hired Initrode Systems to audit its sensors."
    assert answer("Which firm did Brightwater Labs hire in 2021?", hired).value == "Initrode Systems"
    passive = "Initrode Systems was hired by Brightwater Labs in 2021, with Kestrel Partners advising."
    assert answer("Which firm did Brightwater Labs hire in 2021?", passive).value == "Initrode Systems"


def test_a_name_written_with_initials_is_asked_about_by_its_acronym():
    # "U.S. Harbour Service" is USHS: its initials count though "S" alone reads as a stop word.
    q = read_question("Who founded USHS?", None, "U.S. Harbour Service")
    assert "ushs" in q.subject_acronyms and q.terms == ("found",)
    found = answer("Who founded USHS?", "Jane Roe founded USHS in 2014.", company="U.S. Harbour Service")
    assert found.value == "Jane Roe" and found.confidence == "high"


def test_a_surname_after_a_title_names_one_person():
    found = answer("Who founded Brightwater Labs?", "President Okafor founded Brightwater Labs in August.")
    assert found.value == "President Okafor"
    # A title alone names no one.
    assert answer("Who founded Brightwater Labs?", "The President founded Brightwater Labs in August.") is None


def test_a_place_span_starts_where_its_text_stands():
    # A place read after "at the" starts at its own first word, so its distance to the asked noun is measured
    # from there: "the Washington, D.C. office" is beside "office", not four characters before it.
    from cikb.answer.reader import spans
    q = read_question("Where is Brightwater Labs's office located?", None, "Brightwater Labs")
    sentence = "Staff work at the Washington, D.C. office and at a partner office in the D.C.-Maryland-Virginia area."
    found = spans(q, sentence)
    assert found and all(sentence[s.start:s.start + len(s.text)] == s.text for s in found)
    hq = answer("Where is Brightwater Labs's office located?", "Brightwater Labs s" + sentence[1:])
    assert hq.value.startswith("Washington")


def test_how_much_of_something_uncounted_may_be_an_amount_of_money():
    found = answer("How much fraud has Brightwater Labs identified?",
                   "Our audits have identified over $4 billion in fraud.")
    assert found.value == "$4 billion"
    many = answer("How many audits has Brightwater Labs run?", "Our audits have identified over $4 billion in fraud.")
    assert many is None  # a count is never an amount of money


def test_a_month_without_its_year_gives_way_to_the_same_month_with_it():
    found = answer("When was the U.S. Harbour Service established?", "Jane Roe founds USHS in August.",
                   "Founded by Jane Roe in August of 2014, the U.S. Harbour Service hired the best engineers.",
                   company="U.S. Harbour Service")
    assert found.value == "August of 2014"


def test_a_fact_sheet_line_without_a_doer_is_about_the_page_subject():
    def on_page(question: str, text: str, title: str):
        reading = read(read_question(question, None, "Brightwater Labs"), [Passage(text, 0, 1, title)])
        return reading.answer

    about = "About us | Brightwater Labs"
    assert on_page("When was Brightwater Labs founded?", "Founded in 2014 in Porto, Portugal.", about).value == "2014"
    where = on_page("Where is Brightwater Labs headquartered?", "Headquartered in Porto, Portugal.", about)
    assert where.value == "Porto, Portugal"
    # Only on the subject's own page, and only a line that names no doer.
    assert on_page("When was Brightwater Labs founded?", "Founded in 2014 in Porto, Portugal.", "Kestrel Group news") is None
    assert on_page("When was Brightwater Labs founded?", "Founded in 2010, Globex is a partner of ours.", about) is None


def test_a_timeline_year_dates_what_its_line_says():
    timeline = ("## Milestones\n\n2014\n\nJane Roe founds Brightwater Labs in August.\n\n"
                "2022\n\nCodified into the harbour statutes by the city council.")
    title = "History | Brightwater Labs"

    def read_timeline(question: str):
        reading = read(read_question(question, None, "Brightwater Labs"), [Passage(timeline, 0, 1, title)])
        return reading.answer

    assert read_timeline("When was Brightwater Labs founded?").value == "2014"  # not "August" alone
    assert read_timeline("In what year was Brightwater Labs codified into the harbour statutes?").value == "2022"


def test_a_year_the_question_names_is_not_its_answer():
    found = answer("When did the 2015 Brightwater Labs season start?",
                   "The 2015 season of Brightwater Labs started with twelve teams.")
    assert found is None or found.value != "2015"


def test_a_count_written_with_a_plus_is_no_date():
    # The small recogniser reads "30+" here as a DATE; a plus after a number says at least that many.
    found = answer("How many water utilities trust Brightwater Labs?",
                   "Brightwater Labs is trusted by 30+ water utilities across Europe.")
    assert found is not None and found.value == "30"


def test_a_number_in_the_question_is_a_key_term():
    # "Widget 4" names the fourth version: a sentence on another version does not state its release.
    other = "In 2012, Brightwater Labs released the second version of Widget, called Widget X."
    found = answer("In what year did Brightwater Labs release Widget 4?", other)
    assert found is None or found.confidence != "high"
    assert read_question("In what year did Brightwater Labs release Widget 4?", None, "Brightwater Labs").terms[-1] == "4"


def test_a_product_launched_is_a_product_released():
    found = answer("In what year did Brightwater Labs release Widget 4?",
                   "In 2012, Brightwater Labs released the second version of Widget, called Widget X.",
                   "In 2015 we launched the third version, and in 2022, Brightwater Labs launched Widget 4.")
    assert found.value == "2022"


def test_what_share_of_a_whole_asks_for_a_percentage():
    found = answer("What portion of its yearly profits does Brightwater Labs share with its staff?",
                   "Brightwater Labs shares 10% of its annual profits with staff.")
    assert found is not None and found.value == "10%"
    assert kind_of("What does Brightwater Labs share with its staff?") == "text"


def test_launching_the_product_the_question_names_is_no_other_creation():
    # "we launched Harbour" makes something else for "When was Brightwater Labs founded?", but it is what
    # "When did Brightwater Labs launch Harbour?" asks about; "Harbour 4" is another version of it.
    launched = "After two years of work, we launched Harbour in June 2020."
    found = answer("When did Brightwater Labs launch Harbour?", launched)
    assert found.value == "June 2020" and found.confidence != "low"
    founded = answer("When was Brightwater Labs founded?", launched)
    assert founded is None or founded.confidence == "low"
    version = answer("When did Brightwater Labs launch Harbour?", "In 2022, we launched Harbour 4 for larger teams.")
    assert version is None or version.confidence == "low"


def test_an_incorporation_years_later_is_no_founding_date_to_be_sure_of():
    found = answer("When was Brightwater Labs established?",
                   "Brightwater Labs started in 2016 as an open-source project by Jane Roe.",
                   "The project was officially incorporated as a GmbH in 2021.")
    assert found is None or found.confidence != "high"
    # Asked for its incorporation, the incorporation states it.
    incorporated = answer("When was Brightwater Labs incorporated?", "Brightwater Labs was incorporated as a GmbH in 2021.")
    assert incorporated.value == "2021" and incorporated.confidence == "high"


def test_a_definition_list_on_the_subjects_page_states_its_facts():
    facts = "## Facts\n\n- Founded:\n- 2014\n- Headquarters:\n- Porto, Portugal"
    reading = read(read_question("When was Brightwater Labs founded?", None, "Brightwater Labs"),
                   [Passage(facts, 0, 1, "About Brightwater Labs")])
    assert reading.answer is not None and reading.answer.value == "2014"


def test_a_german_imprints_labels_are_read_in_english():
    from cikb.answer.extractive import extract_answer
    imprint = "## Impressum\n\n- Handelsregister:\n- HRB 123456 B (Amtsgericht Charlottenburg)\n- USt-ID:\n- DE123456789"
    chunks = [scored_chunk(imprint, 1, title="About Brightwater Labs")]

    def said(question: str) -> str:
        return extract_answer(question, chunks, company="Brightwater Labs GmbH").text

    assert "HRB 123456 B" in said("Under which commercial register number is Brightwater Labs GmbH registered?")
    assert "DE123456789" in said("What is Brightwater Labs GmbH's VAT identification number?")


def test_the_line_labelled_as_the_companys_name_states_its_legal_name_over_names_in_passing() -> None:
    q = read_question("What is Brightwater Labs' legal name?", None, "Brightwater Labs")
    imprint = Passage("# Imprint\n\n- Firmenname: Brightwater Labs GmbH\n- Anschrift: Hafenweg 3 20457 Hamburg", 0, 1)
    passing = Passage("Donations to Brightwater Labs Inc. in the US are tax-deductible.", 1, 2)
    reading = read(q, [passing, imprint])
    assert reading.answer is not None and reading.answer.value == "Brightwater Labs GmbH"
    assert reading.answer.confidence == "medium" and reading.answer.sentence.text.startswith("Firmenname:")
    # Two lines labelled with two names are for a reader to tell apart.
    other = Passage("- Legal name: Brightwater Labs Inc.", 2, 3)
    assert read(q, [passing, imprint, other]).answer is None


def test_a_unit_subsidiary_or_department_asked_for_is_an_organisation() -> None:
    for noun in ("unit", "subsidiary", "department"):
        assert kind_of(f"What {noun} did Brightwater Labs launch inside the Pentagon?") == "org"
    got = answer("What unit did Brightwater Labs launch inside the Pentagon?",
                 "2016: Launched the Defense Digital Service inside the Pentagon.\n\nWe embed inside agencies.")
    assert got is not None and got.value == "Defense Digital Service"


def test_a_related_verb_dates_what_the_subject_did_to_the_thing_the_question_names() -> None:
    # "launched" is a word of release's relation: the subject launching Anvil 4 is its release, not the third
    # version's, which the same sentence dates too.
    both = "In 2015 we launched our third version of Anvil, called Forge, and in 2022, we launched Anvil 4."
    got = answer("In what year did Brightwater Labs release Anvil 4?", both)
    assert (got.value, got.confidence) == ("2022", "medium")
    # Releasing "our second version of Anvil" is not launching Anvil: the object is a version, not Anvil.
    second = answer("When did Brightwater Labs launch Anvil?", "In 2012, we released our second version of Anvil.")
    assert second is None or second.confidence == "low"


def test_an_organisations_name_is_the_recognisers_whole_name_not_a_patterns_part() -> None:
    # "General" opens people's titles ("General Manager"), so the capitals pattern starts after it.
    got = answer("Which federal agency is Brightwater Labs part of?",
                 "The General Services Administration (GSA), Brightwater Labs' parent office, serves other agencies.")
    assert got is not None and got.value == "General Services Administration"


def test_how_long_asks_for_a_length_of_time_and_a_frequency_or_an_age_is_none() -> None:
    assert kind_of("How long does the Brightwater Labs application take?") == "duration"
    assert kind_of("How long is the paid sabbatical at Brightwater Labs?") == "duration"
    assert kind_of("How long ago did Brightwater Labs open?") != "duration"
    got = answer("How long does the Brightwater Labs application take?",
                 "Filling in the Brightwater Labs application takes about 5 minutes, and we reply within two weeks.")
    assert got is not None and got.value == "about 5 minutes" and got.confidence in ("medium", "high")
    tours = answer("How long do Brightwater Labs tours of duty last?",
                   "Brightwater Labs tours of duty run 2 to 4 years.")
    assert tours is not None and tours.value == "2 to 4 years"
    sabbatical = answer("How long is the Brightwater Labs sabbatical?",
                        "Every three years Brightwater Labs staff may take a 30-day paid sabbatical.")
    assert sabbatical is not None and sabbatical.value == "30-day"  # "every three years" is how often, not how long
    for not_a_length in ("The Brightwater Labs team meets twice a year.", "Brightwater Labs' founder was 30 years old.",
                         "The Brightwater Labs sabbatical began three years ago."):
        assert answer("How long is the Brightwater Labs sabbatical?", not_a_length) is None, not_a_length


def test_a_sentence_about_the_thing_asked_of_is_the_companys_on_its_own_page() -> None:
    # The question's subject is a thing of the company's ("a tour at Brightwater Labs"); a sentence whose
    # subject is that thing, on a page whose title names the company, is about it.
    q = read_question("How long does a tour at Brightwater Labs usually last?", None, "Brightwater Labs")
    tours = "Most tours run 2 to 4 years and are structured for focused delivery."
    own = read(q, [Passage(tours, 0, 1, "Careers | Brightwater Labs")])
    assert own.answer is not None and (own.answer.value, own.answer.confidence) == ("2 to 4 years", "medium")
    # Not on a page that does not name it, nor beside another organisation.
    assert read(q, [Passage(tours, 0, 1, "Careers")]).answer is None
    other = "At Globex, most tours run 5 to 6 years."
    assert read(q, [Passage(other, 0, 1, "Careers | Brightwater Labs")]).answer is None
    # A thing the question gives the company ("its first public launch") is asked of too.
    launch = read_question("When did Brightwater Labs have its first public launch?", None, "Brightwater Labs")
    stated = read(launch, [Passage("The first public launch occurred in October 2016.", 0, 1,
                                   "About Brightwater Labs")])
    assert stated.answer is not None and stated.answer.value == "October 2016"


def test_the_company_itself_starting_is_its_founding() -> None:
    # Three years and a related word each: only the company's own start ("started in 2016", no object) is its founding.
    texts = ("Brightwater Labs started in 2016 as a student project by Ana Ruiz, a sailor since 2008.",
             "The project was incorporated as a cooperative in 2021.",
             "In 2023, the team began the move to a new lab in Porto.")
    started = answer("When was Brightwater Labs established?", *texts)
    assert started is not None and (started.value, started.confidence) == ("2016", "medium")
    begun = answer("When was Brightwater Labs established?", "Jane Roe started Brightwater Labs in 2015.")
    assert begun is not None and (begun.value, begun.confidence) == ("2015", "medium")
    # However far the year stands from the verb, it dates the start the parse hangs it on.
    begun = answer("When was Brightwater Labs established?",
                   "Jane Roe started Brightwater Labs with two friends in 2015.")
    assert begun is not None and (begun.value, begun.confidence) == ("2015", "medium")
    # What the company began is not the company's beginning.
    for other in ("In 2019, Brightwater Labs started a podcast about rivers.",
                  "In 2019, Brightwater Labs started using solar power in its lab.",
                  "In 2019, the Brightwater Labs podcast started."):
        begun = answer("When was Brightwater Labs established?", other)
        assert begun is None or begun.confidence == "low", (other, begun)



def test_a_count_joined_to_its_noun_by_a_hyphen_counts_it() -> None:
    # "a 50-employee firm" counts employees, as "a two-person team" counts people.
    firm = answer("How many employees does Brightwater Labs have?",
                  "Brightwater Labs is a 50-employee firm based in Porto.")
    assert firm is not None and firm.value == "50"
    # A measure of another unit, or a number joined by a hyphen to another number, counts no employees.
    for other in ("Brightwater Labs has a 5-year plan and a 24-hour hotline.",
                  "Call Brightwater Labs on 555-0100 for the 2015-16 report."):
        assert answer("How many employees does Brightwater Labs have?", other) is None


def test_the_questions_words_only_beside_the_main_clause_state_nothing() -> None:
    # The question's words in a phrase set before the subject or beside it, as the parse reads them: the sentence
    # asserts something else, and is related reading at most.
    def read_text(question: str, text: str):  # noqa: ANN202
        return read(read_question(question, None, "Brightwater Labs"), [Passage(text, 0, 1)])

    part = "Which part of the federal government does Brightwater Labs sit within?"
    aside = read_text(part, "As part of the federal government, Brightwater Labs is building a team that reflects "
                            "the country.")
    assert aside.answer is None and aside.relevant  # shown as related reading, not as the answer
    entity = "What kind of legal entity is Brightwater Labs?"
    beside = read_text(entity, "Brightwater Labs, a legal entity under Dutch law, is pleased to announce a new lab.")
    assert beside.answer is None
    stated = read_text(entity, "Brightwater Labs is a legal entity under Dutch law, a cooperative.")
    assert stated.answer is not None and "cooperative" in stated.answer.value


def test_a_label_line_on_the_companys_own_website_is_the_companys() -> None:
    # The page's title need not name the company: its own website's "Phone number:" line is its own phone number,
    # a line naming another organisation is not, and the same line found elsewhere is not about it.
    q = read_question("What is Brightwater Labs' phone number?", None, "Brightwater Labs")
    title = "Address, phone number and other office information"

    def read_line(line: str, own_site: bool):  # noqa: ANN202
        return read(q, [Passage(line, 0, 1, title, own_site=own_site)])

    own = read_line("Phone number: +1 650 273 5591", own_site=True)
    assert own.answer is not None and own.answer.value == "+1 650 273 5591"
    assert read_line("Phone number: +1 650 273 5591", own_site=False).answer is None
    assert read_line("Bank of Porto phone number: +1 650 273 5592", own_site=True).answer is None


def test_ask_and_enrich_read_the_companys_own_website_alike() -> None:
    question = "What is Brightwater Labs' phone number?"
    result = retrieval(question, ["Phone number: +1 650 273 5591"], company="brightwater-labs",
                       title="Office information")
    result.trace.company.matched = "Brightwater Labs"
    asked = Answerer().answer(question, result)
    cell = extract_answer(question, "text", passages_from_chunks(result.context), company="Brightwater Labs")
    assert asked.short_answer == cell.value == "+1 650 273 5591"


def test_a_name_in_parentheses_after_i_says_who_holds_the_role() -> None:
    # Not an aside dropped with the other parentheses; and a person, though the small recogniser reads the name
    # as a place.
    found = answer("Who is the CEO of Brightwater Labs?", "I (Quinn Harbor) am the CEO of Brightwater Labs.")
    assert found is not None and found.value == "Quinn Harbor" and found.confidence != "low"
    aside = answer("Who is the CEO of Brightwater Labs?", "The CEO (Quinn Harbor) of Brightwater Labs spoke.")
    assert aside is None or aside.confidence == "low"


def test_a_count_of_the_questions_own_unit_is_a_count_whatever_the_recogniser_reads() -> None:
    found = answer("How many hours a week do people at Brightwater Labs work?",
                   "We limit ourselves to a 40-hour work week at Brightwater Labs.")
    assert found is not None and found.value == "40" and found.confidence != "low"
    other = answer("How many hours a week do people at Brightwater Labs work?",
                   "Brightwater Labs opened its office 40 days ago.")
    assert other is None or other.value != "40" or other.confidence == "low"


@pytest.mark.parametrize("question", ["What is the parent company of Brightwater Labs?",
                                      "What is Brightwater Labs' parent company?"])
def test_a_relation_asked_with_of_reads_as_with_a_possessive(question: str) -> None:
    found = answer(question, "Globex Corp, the parent company of Brightwater Labs, announced a new lab.")
    assert found is not None and found.value == "Globex Corp" and found.confidence != "low"
    assert answer(question, "Brightwater Labs is the parent company of Initech Inc.") is None


@pytest.mark.parametrize(("question", "text", "value"), [
    ("How many users does Brightwater Labs have?", "More than 12,000 developers use Brightwater Labs today.", "12,000"),
    ("How many investors does Brightwater Labs have?", "Twelve firms have invested in Brightwater Labs.", "Twelve"),
    ("How many visitors does Brightwater Labs have?", "About 30,000 people visit Brightwater Labs each month.",
     "30,000"),
])
def test_a_count_of_those_who_do_it_to_the_company_counts_the_agent_noun(question: str, text: str, value: str) -> None:
    # "users" are those who use it, whatever noun the count is written with; the parse must give the count's noun
    # as the verb's subject and the company as its object.
    found = answer(question, text)
    assert found is not None and found.value == value and found.confidence != "low"


@pytest.mark.parametrize("text", ["More than 12,000 developers use Globex today.",
                                  "Brightwater Labs has 40 engineers who use Rust.",
                                  "Over 500 companies rely on Brightwater Labs."])
def test_a_count_of_those_who_do_it_to_another_or_something_else_is_no_count_of_users(text: str) -> None:
    found = answer("How many users does Brightwater Labs have?", text)
    assert found is None or found.confidence == "low"


@pytest.mark.parametrize("text", [
    "Brightwater Labs, formerly known as Globex Analytics, builds water sensors.",
    "Brightwater Labs (formerly Globex Analytics) builds water sensors.",
    "In 2017 Globex Analytics changed its name to Brightwater Labs.",
    "Globex Analytics is now Brightwater Labs.",
    "Globex Analytics was renamed Brightwater Labs in 2019.",
    "We renamed the company from Globex Analytics to Brightwater Labs in 2019.",
    "Globex Analytics, the company behind the Tidewater app, will from now on be called Brightwater Labs.",
])
def test_a_former_name_is_read_from_the_ways_of_saying_a_company_was_renamed(text: str) -> None:
    for question in ("What was Brightwater Labs' former name?", "What was Brightwater Labs previously called?"):
        found = answer(question, text)
        assert found is not None and found.value == "Globex Analytics" and found.confidence == "medium", question


@pytest.mark.parametrize("text", [
    "Brightwater Labs, previously CTO of Globex Analytics, spoke.",  # a role, not a name
    "Initech is now Globex Analytics, a partner of Brightwater Labs.",  # another body's renaming
    "Our team includes former engineers of Globex Analytics and Brightwater Labs.",
])
def test_a_former_name_question_without_a_renaming_of_the_company_is_not_answered(text: str) -> None:
    question = "What was Brightwater Labs' former name?"
    assert answer(question, text) is None
    cell = extract_answer(question, "text", passages_from_chunks([scored_chunk(text, 1)]), company="Brightwater Labs")
    assert cell.value is None


ROUND = ("Brightwater Labs has closed a $5 million Series A round led by Northwind Capital, with participation from "
         "Fabrikam Ventures and existing investor Contoso Partners.")


@pytest.mark.parametrize(("question", "text", "value"), [
    ("Which investors took part in Brightwater Labs' Series A?", ROUND,
     "Northwind Capital, Fabrikam Ventures, Contoso Partners"),
    ("Which other investors participated in Brightwater Labs' Series A?", ROUND, "Fabrikam Ventures, Contoso Partners"),
    ("Who invested in Brightwater Labs?", "Brightwater Labs is backed by Northwind Capital and Fabrikam Ventures.",
     "Northwind Capital, Fabrikam Ventures"),
    ("Who funds Brightwater Labs?", "Brightwater Labs runs on funding from the Kestrel Trust.", "Kestrel Trust"),
])
def test_investors_are_read_from_the_ways_of_naming_them(question: str, text: str, value: str) -> None:
    found = answer(question, text)
    assert found is not None and found.value == value and found.confidence == "medium"


@pytest.mark.parametrize(("question", "text"), [
    ("Which investors took part in Brightwater Labs' seed round?", ROUND),  # another round than the one asked
    ("Who invested in Brightwater Labs?", "Globex raised $5 million led by Northwind Capital."),  # another's round
    ("Which startups has Brightwater Labs invested in?", "Brightwater Labs is backed by Northwind Capital."),
])
def test_investors_of_another_round_or_company_or_the_other_way_are_no_answer(question: str, text: str) -> None:
    found = answer(question, text)
    assert found is None or "Northwind" not in found.value or found.confidence == "low"


@pytest.mark.parametrize(("question", "text", "value"), [
    ("Which companies use Brightwater Labs?", "Enterprises such as Contoso, Fabrikam and Northwind rely on "
     "Brightwater Labs every day.", "Contoso, Fabrikam, Northwind"),
    ("Who are Brightwater Labs' customers?", "Brightwater Labs' customers include Contoso and the Northwind Group.",
     "Contoso, Northwind Group"),
    ("Which enterprise customers does Brightwater Labs have?", "Brightwater Labs is trusted by Contoso, Fabrikam and "
     "Northwind.", "Contoso, Fabrikam, Northwind"),
])
def test_customers_are_read_from_the_ways_of_naming_them(question: str, text: str, value: str) -> None:
    found = answer(question, text)
    assert found is not None and found.value == value and found.confidence == "medium"


def test_customers_named_without_the_company_are_its_own_only_on_its_own_site() -> None:
    q = read_question("Who are Brightwater Labs' customers?", None, "Brightwater Labs")
    logos = "Trusted by Contoso, Fabrikam and Northwind."
    own = read(q, [Passage(logos, 0, 1, "Home", own_site=True)]).answer
    assert own is not None and own.value == "Contoso, Fabrikam, Northwind"
    assert read(q, [Passage(logos, 0, 1, "Globex partners", own_site=False)]).answer is None


@pytest.mark.parametrize(("question", "text"), [
    ("Which companies use Brightwater Labs?", "Contoso and Fabrikam use Globex to ship faster."),  # another's users
    ("Which tools does Brightwater Labs use?", "Brightwater Labs uses Contoso and Fabrikam for hosting."),
    ("Who are Brightwater Labs' clients?", "We handed our client software to the Kestrel Foundation."),  # a program
    ("Which companies use Brightwater Labs?", "Brightwater Labs welcomed Microsoft's use of its sensors."),
])
def test_others_users_what_the_company_uses_or_a_client_program_are_no_customers(question: str, text: str) -> None:
    found = answer(question, text)
    assert found is None or found.confidence == "low"


@pytest.mark.parametrize("text", [
    "Jane Roe of Northwind Capital joins Brightwater Labs' board of directors.",  # the person, not her firm
    "Brightwater Labs also welcomes Jane Roe, partner at Northwind Capital, to its board of directors.",
    "Jane Roe has been appointed to the board of Brightwater Labs.",
    "Jane Roe will join John Doe and Mary Major on Brightwater Labs' board.",  # the one joining, not the others
    "Jane Roe will join John Doe (Northwind Capital) on Brightwater Labs' board.",
])
def test_who_joined_the_board_is_read_from_the_ways_of_saying_so(text: str) -> None:
    found = answer("Who joined Brightwater Labs' board?", text)
    assert found is not None and found.value == "Jane Roe" and found.confidence == "medium"


def test_who_joined_the_board_in_a_round_is_no_investor_of_the_round() -> None:
    # The round's lead investor is not who took the board seat: asked who joined the board, read the board's words.
    question = "Who joined Brightwater Labs' board as part of the Series A deal?"
    typed = read_question(question, None, "Brightwater Labs")
    assert typed.board and typed.investors is None
    found = answer(question, "Brightwater Labs raised $7M in Series A funding led by Northwind Capital.")
    assert found is None or found.confidence == "low"
    found = answer(question, "Brightwater Labs raised $7M in Series A funding led by Northwind Capital.",
                   "Jane Roe of Northwind Capital joins Brightwater Labs' board of directors.")
    assert found is not None and found.value == "Jane Roe"


def test_a_seat_asked_for_by_another_noun_is_read_only_where_it_is_named() -> None:
    question = "Who is a community representative on Brightwater Labs' board?"
    found = answer(question, "John Doe has joined the board of Brightwater Labs.")
    assert found is None or found.confidence == "low"
    found = answer(question, "Jane Roe joins Brightwater Labs' board as its community representative.")
    assert found is not None and found.value == "Jane Roe"
    assert answer("Who are the members of Brightwater Labs' board?",
                  "Jane Roe has been appointed to the board of Brightwater Labs.").value == "Jane Roe"


def test_a_seat_on_another_companys_board_is_no_answer() -> None:
    found = answer("Who joined Brightwater Labs' board?", "Jane Roe of Brightwater Labs joined Globex's board in 2019.")
    assert found is None or found.confidence == "low"


def test_who_sits_on_the_board_is_read_from_a_board_list_and_a_job_board_names_no_one() -> None:
    found = answer("Who is on Brightwater Labs' board?", "Brightwater Labs' board of directors: Jane Roe, John Doe")
    assert found is not None and found.value == "Jane Roe, John Doe"
    assert answer("Who is on Brightwater Labs' board?", "In 2014 Brightwater Labs revamped its job board and "
                  "launched We Work Outdoors.") is None


WELCOME = ("Brightwater Labs today announced the appointment of Jane Roe as Chief Executive Officer. Roe joins from "
           "Globex, where she was Vice President of Sales. John Doe previously worked at Initech.")


@pytest.mark.parametrize("question", ["Where did Brightwater Labs' CEO work before?",
                                      "What are the previous employers of Brightwater Labs' CEO?"])
def test_where_the_officer_worked_before_is_read_for_the_person_who_holds_the_role(question: str) -> None:
    # First who the CEO is (Jane Roe), then where she worked: not where anyone else did (John Doe at Initech).
    found = answer(question, WELCOME)
    assert found is not None and found.value == "Globex" and found.confidence == "medium"


def test_without_a_known_holder_of_the_role_no_earlier_employer_is_given() -> None:
    assert answer("Where did Brightwater Labs' CTO work before?", WELCOME) is None


@pytest.mark.parametrize(("question", "text"), [
    ("What was Brightwater Labs' former name?", "Brightwater Labs Studio (formerly Widget Pro) is our editor."),
    ("What was Brightwater Labs' former name?", "Brightwater Labs, formerly VC-backed, now sells sensors."),
    ("Who invested in Brightwater Labs?", "Brightwater Labs got support from Globex Cloud experts."),
    ("Who invested in Brightwater Labs?", "Brightwater Labs and Globex invested in Initech."),
    ("Which companies use Brightwater Labs?", "Cookies used by Globex Analytics help Brightwater Labs."),
    ("Who joined Brightwater Labs' board?", "Jane Roe joins Brightwater Labs on board as VP of Sales."),
    ("Who joined Brightwater Labs' board?", "Jane Roe, Brightwater Labs' CEO, also sits on the board of Globex."),
    ("How many users does Brightwater Labs have?", "300 engineers use Globex, Brightwater Labs' main competitor."),
    ("How many customers does Brightwater Labs have?", "300 developers customize Brightwater Labs."),
])
def test_the_forms_read_no_lookalike_of_what_they_state(question: str, text: str) -> None:
    # A product's former name, an adjective, help that is no money, the company as the investor, a passive "used",
    # "on board", a seat on another's board, another's users, a verb sharing the agent noun's stem: none answers.
    found = answer(question, text)
    assert found is None or found.confidence == "low"


@pytest.mark.parametrize(("question", "flag", "value"), [
    ("Who is Brightwater Labs' head of customer success?", "customers", False),  # a job title
    ("Who is Brightwater Labs' largest customer?", "customers", False),  # one customer, not the list
    ("Who are Brightwater Labs' investor relations contacts?", "investors", None),
    ("Does Brightwater Labs offer services to investors?", "investors", None),
    ("Who is the CEO named by Brightwater Labs' board?", "board", False),  # an officer, not a board seat
    ("What is the former name of Brightwater Labs' parent company?", "former_name", False),
    ("Where did Brightwater Labs' Chief Technology Officer work before?", "worked_before", "cto"),
    ("When did Brightwater Labs' CEO work at Globex before joining?", "worked_before", ""),  # asks a date
])
def test_the_forms_are_asked_only_by_the_questions_they_answer(question: str, flag: str, value: object) -> None:
    assert getattr(read_question(question, None, "Brightwater Labs"), flag) == value


def test_a_pronoun_opening_a_sentence_is_no_customer() -> None:
    found = answer("Which companies use Brightwater Labs?", "You use your relationships across Brightwater Labs to help.")
    assert found is None or found.confidence == "low"


@pytest.mark.parametrize(("question", "company", "kind"), [
    ("In which country is Globex Group based?", "Globex Group", "place"),  # "Group" is part of the name asked of
    ("Which city is the Initech Foundation headquartered in?", "Initech Foundation", "place"),
    ("Which group funds the Globex Group?", "Globex Group", "org"),  # a body asked for, beside the name
    ("What company owns the Initech Company?", "Initech Company", "org"),
])
def test_a_word_of_the_subjects_name_does_not_type_the_question(question: str, company: str, kind: str) -> None:
    assert read_question(question, None, company).kind == kind


def test_who_is_responsible_for_a_thing_is_who_heads_it() -> None:
    found = answer("Who is responsible for delivery at Brightwater Labs?",
                   "Jane Roe is Head of Delivery at Brightwater Labs.")
    assert (found.value, found.confidence) == ("Jane Roe", "medium")


@pytest.mark.parametrize(("question", "value"), [
    ("How long has Brightwater Labs been remote?", "since 2016"),
    ("Does Brightwater Labs work remotely, and for how long?", "since 2016"),
])
def test_how_long_a_thing_has_gone_on_is_answered_by_its_start(question: str, value: str) -> None:
    # "so we expect nothing less" follows as a clause of its own: the start is stated, not intended.
    found = answer(question, "We’ve been working remotely since 2016, so we expect nothing less.")
    assert found is not None and found.value == value and found.confidence != "low"


def test_how_long_a_thing_lasts_is_not_answered_by_its_start() -> None:
    assert answer("How long is the Brightwater Labs sabbatical?",
                  "Brightwater Labs has offered a sabbatical since 2016.") is None


def test_what_the_company_created_is_not_who_founded_it() -> None:
    # "created" is a word of founding's relation: its object is what was founded, not a founder.
    found = answer("Who founded Brightwater Labs?",
                   "At Brightwater Labs we created Community Work Orders to let companies sponsor the features they need.")
    assert found is None or found.confidence == "low"
    found = answer("Who founded Brightwater Labs?", "Brightwater Labs was created in 2016 by Jane Roe, a chemist.")
    assert found is not None and found.value == "Jane Roe" and found.confidence != "low"


def test_asked_how_a_thing_is_done_a_line_without_its_verb_is_no_answer() -> None:
    question = "How was Jane Roe's 300k USD pledge to Brightwater Labs to be paid out?"
    heading = "300k USD Donation to Brightwater Labs Pledged by Jane Roe: October 01, 2024"
    reading = read(read_question(question, None, "Brightwater Labs"), [Passage(heading, 1, 1)])
    assert not [s for s in reading.sentences if states_question(reading.question, s)]
    stated = "Jane Roe's pledge to Brightwater Labs is paid out in two 150k USD payments, one each year."
    reading = read(read_question(question, None, "Brightwater Labs"), [Passage(heading, 1, 1), Passage(stated, 2, 2)])
    assert [s.text for s in reading.sentences if states_question(reading.question, s)] == [stated]


def test_a_read_parses_each_text_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # A read asks of one sentence, and of the question, a dozen things (who did it, of what kind, what its value
    # hangs on); each trained-model pass costs milliseconds, so a second pass over the same text is waste that CI's
    # SQuAD floors time out on.
    passes: Counter[tuple[str, tuple[str, ...]]] = Counter()
    model = entities._nlp()

    def counting(text: str, disable: list[str]):  # noqa: ANN202 - a spaCy Doc
        passes[text, tuple(disable)] += 1
        return model(text, disable=disable)

    monkeypatch.setattr(entities, "_nlp", lambda: counting)
    entities._parsed.cache_clear()
    entities.entities.cache_clear()
    try:
        found = answer("Who founded Brightwater Labs?", "Brightwater Labs was created in 2016 by Jane Roe, a chemist.",
                       "Brightwater Labs makes water filters for farms.")
    finally:
        entities._parsed.cache_clear()
        entities.entities.cache_clear()
    assert found is not None and found.value == "Jane Roe"
    assert passes and max(passes.values()) == 1, passes.most_common(3)


def test_an_officer_or_identifier_asked_by_its_acronym_is_asked_of_the_subject() -> None:
    # "COO" is a capital word, but it names the office, not another company: "the company" is still the subject.
    stated = "Person: Ben Eckerson, COO, works for Brightwater Labs"
    for question in ("Who is the company's chief operating officer?", "Who is the company's COO?"):
        found = answer(question, stated)
        assert found is not None and found.value == "Ben Eckerson" and found.confidence != "low", question
    assert read_question("What is the company's EIN?", None, "Brightwater Labs").terms == ("ein",)


def test_sponsorship_is_money_and_yearly_is_annual() -> None:
    stated = "Brightwater Labs enjoys $1M in annual sponsorship from Kestrel Water Inc. and support from 25 sponsors."
    assert kind_of("How much sponsorship does Kestrel Water give Brightwater Labs?") == "money"
    found = answer("How much yearly sponsorship does Kestrel Water give Brightwater Labs?", stated)
    assert found is not None and found.value == "$1M" and found.confidence != "low"



def test_a_name_after_an_as_that_opens_a_clause_is_no_capacity() -> None:
    # "volunteered as Accounting Clerk" names a capacity; "As Jane Roe ... puts it" names who says it.
    found = answer("Who chairs Brightwater Labs?",
                   "The event aims, as Jane Roe, chair of Brightwater Labs, puts it, to grow the open-source community.")
    assert found is not None and found.value == "Jane Roe"


def test_a_relative_clause_on_what_the_subject_is_is_about_the_subject() -> None:
    # "that was founded" describes the noun before it; when that noun is what the company is, it describes the company.
    found = answer("When was Brightwater Labs founded?",
                   "Brightwater Labs is a 501(c)(6) that was founded in March of 2021 to own and manage the project.")
    assert found is not None and found.value == "March of 2021" and found.confidence != "low"
    found = answer("When was Brightwater Labs founded?", "Brightwater Labs bought Globex, a firm that was founded in 1950.")
    assert found is None or found.confidence == "low"


def test_who_runs_the_company_is_its_chief_executive_where_no_one_is_said_to_run_it() -> None:
    stated = Passage("Person: Chris Russo, CEO, works for Brightwater Labs", 1, 1)
    part = Passage("At Brightwater Labs, Ben leads business development and marketing.", 2, 2)
    for question in ("Who runs Brightwater Labs?", "Who leads the company?", "Who is in charge of Brightwater Labs?"):
        found = read_asked(question, [stated, part], company="Brightwater Labs").answer
        assert found is not None and found.value == "Chris Russo" and found.confidence != "low", question
    # Who runs it, said so, comes first: an operating body.
    operated = Passage("Brightwater Labs is run by Globex Foundation, a nonprofit in Denver.", 1, 1)
    found = read_asked("Who runs Brightwater Labs?", [operated, stated], company="Brightwater Labs").answer
    assert found is not None and found.value == "Globex Foundation"
    # Leading a part of the company is not running it.
    assert read_asked("Who leads Brightwater Labs' research team?", [stated], company="Brightwater Labs").answer is None


def test_asked_who_did_something_a_sentence_without_the_deed_names_no_one_surely() -> None:
    asked = "Who leads the Brightwater Labs steering committee?"
    governed = "Its projects are governed by the Globex Board and the Brightwater Labs steering committee."
    found = answer(asked, governed)
    assert found is None or found.confidence == "low"
    led = answer(asked, "Jane Roe leads the Brightwater Labs steering committee, elected in 2023.")
    assert led is not None and led.value == "Jane Roe" and led.confidence != "low"
    # Of a question with two deeds, a sentence holding either answers it.
    owned = answer("Who runs Brightwater Labs and who owns the company?", "Formally, Jane Roe owns 100% of Brightwater Labs.")
    assert owned is not None and owned.value == "Jane Roe" and owned.confidence != "low"


def test_how_often_asks_a_frequency_its_often_is_no_key_term() -> None:
    # "often" asks how frequently, as "many" asks how much: a sentence that says "often" states no frequency.
    question = "How often does the Brightwater Labs board meet?"
    assert "often" not in read_question(question, None, "Brightwater Labs").terms
    found = answer(question,
                   "When Jane Roe joined the board, customers chose Brightwater Labs often, and her support was vital.")
    assert found is None or found.confidence == "low" and not states_question(
        read_question(question, None, "Brightwater Labs"), found.sentence)


def test_of_several_amounts_or_dates_in_a_sentence_the_one_beside_what_sets_the_asked_thing_apart() -> None:
    # The verb "raised" is shared by both amounts; "Series A", "seed round" and "in total" say which is asked.
    line = ("Brightwater Labs raised $5 million in its seed round in 2019 and $20 million in its Series A in 2021, "
            "$25 million in total.")
    for question, value in (("How much did Brightwater Labs raise in its Series A?", "$20 million"),
                            ("How much did Brightwater Labs raise in its seed round?", "$5 million"),
                            ("How much did Brightwater Labs raise in total?", "$25 million")):
        found = read(read_question(question, None, "Brightwater Labs"), [Passage(line, 0, 1, "About Brightwater Labs")])
        assert found.answer is not None and found.answer.value == value, question
    markets = ("Brightwater Labs has sold its robots in Portugal since 2015 and in the United States and Canada "
               "since 2019.")
    for question, value in (("Since what year has Brightwater Labs sold its robots in the United States?", "2019"),
                            ("Since what year has Brightwater Labs sold its robots in Portugal?", "2015")):
        found = read(read_question(question, None, "Brightwater Labs"), [Passage(markets, 0, 1, "About Brightwater")])
        assert found.answer is not None and found.answer.value == value, question
    # Asked how much in all, the total where the sentence tells one ("raised" is no more the first amount's than
    # the others'; both were read at medium confidence as $5 million or at low as $20 million).
    for total in ("Brightwater Labs raised $5 million in 2018 and $20 million in 2020, for a total of $25 million.",
                  "A $20 million Series A in 2020 brought Brightwater Labs' total funding to $25 million."):
        found = read(read_question("How much funding has Brightwater Labs raised?", None, "Brightwater Labs"),
                     [Passage(total, 0, 1, "About Brightwater Labs")])
        assert found.answer is not None and found.answer.value == "$25 million", total
    staff = "Brightwater Labs has 40 employees in 3 offices."
    for question, value in (("How many employees does Brightwater Labs have?", "40"),
                            ("How many offices does Brightwater Labs have?", "3")):
        found = read(read_question(question, None, "Brightwater Labs"), [Passage(staff, 0, 1)])
        assert found.answer is not None and found.answer.value == value, question


def test_a_count_of_each_of_many_is_never_the_subjects_count_with_confidence() -> None:
    q = read_question("How many employees does Brightwater Labs have?", None, "Brightwater Labs")
    customers = "Our customers include companies with more than 10,000 employees."
    assert read(q, [Passage(customers, 0, 1, "About Brightwater Labs", own_site=True)]).answer is None
    own = read(q, [Passage("Brightwater Labs now has 50 employees.", 0, 1, "About Brightwater Labs", own_site=True)])
    assert own.answer is not None and own.answer.value == "50"
    # However the parse hangs the counted noun (here as the subject of the clause after it; read at high before).
    helped = "Brightwater Labs helps companies with more than 500 employees manage their water."
    assert read(q, [Passage(helped, 0, 1, "About Brightwater Labs", own_site=True)]).answer is None


def test_a_headcount_of_a_named_part_of_the_company_is_not_the_companys() -> None:
    q = read_question("How many employees does Brightwater Labs have?", None, "Brightwater Labs")
    for office in ("Our Berlin office has 25 employees.", "The Munich team employs 12 people."):  # read at high before
        assert read(q, [Passage(office, 0, 1, "About Brightwater Labs", own_site=True)]).answer is None, office
    asked = read_question("How many employees does Brightwater Labs' Berlin office have?", None, "Brightwater Labs")
    found = read(asked, [Passage("Our Berlin office has 25 employees.", 0, 1, "About Brightwater Labs", own_site=True)])
    assert found.answer is not None and found.answer.value == "25"


@pytest.mark.parametrize(
    ("question", "sentence"),
    [("When was Brightwater Labs founded?", "Brightwater Labs' parent company was founded in 1990."),
     ("When was Brightwater Labs founded?", "Our partner Kestrel Water was founded in 1990."),
     ("Who founded Brightwater Labs?", "Our parent company Kestrel Water was founded by John Smith."),
     ("Where is Brightwater Labs headquartered?", "Our biggest customer is headquartered in Chicago."),
     ("Who is the CEO of Brightwater Labs?", "Brightwater Labs customer Kestrel Water appointed John Smith as CEO.")],
)
def test_a_body_named_by_its_tie_to_the_subject_is_another_body(question: str, sentence: str) -> None:
    # The subject owns the tie ("our", "Brightwater Labs'"), not the deed: the sentence is about its parent, partner
    # or customer. Each was read as the subject's own at high or medium confidence.
    reading = read(read_question(question, None, "Brightwater Labs"), [Passage(sentence, 0, 1)])
    assert reading.answer is None, (sentence, reading.answer)
    assert reading.unsure is None or reading.unsure.confidence == "low"


def test_a_tie_the_question_asks_for_is_still_the_subjects() -> None:
    found = answer("Who is the parent company of Brightwater Labs?", "Our parent company is Kestrel Water.")
    assert found is not None and found.value == "Kestrel Water"


def test_what_the_subject_did_to_another_is_no_date_of_it_being_done_to() -> None:
    # "When was Brightwater Labs acquired?": Brightwater Labs receives the acquisition; a sentence where it acquires
    # another company says when it bought, not when it was bought (this was read at high confidence).
    question = "When was Brightwater Labs acquired?"
    bought = read(read_question(question, None, "Brightwater Labs"), [Passage("Brightwater Labs acquired Initech in 2019.", 0, 1)])
    assert bought.answer is None and (bought.unsure is None or bought.unsure.confidence == "low")
    assert answer(question, "Kestrel Water acquired Brightwater Labs in 2019.").value == "2019"
    assert answer("When did Brightwater Labs acquire Initech?", "Brightwater Labs acquired Initech in 2019.").value == "2019"


@pytest.mark.parametrize(
    ("question", "sentence", "value"),
    [("When did Brightwater Labs rename itself?", "Brightwater Labs renamed its product line in 2019.", None),
     ("When did Brightwater Labs rename itself?", "In 2019 we renamed the company Brightwater Labs.", "2019"),
     ("When did Kestrel Water acquire Brightwater Labs?", "Brightwater Labs acquired Initech in 2019.", None),
     # An active verb conjoined to a passive one: the subject of both did the acquiring (this was read at medium).
     ("When was Brightwater Labs acquired?", "Brightwater Labs was founded in 2013 and acquired Initech in 2019.",
      None),
     ("When was Brightwater Labs acquired?", "Brightwater Labs was founded in 2013 and acquired by Initech in 2019.",
      "2019"),
     ("When was Brightwater Labs' first product released?", "Brightwater Labs released its first product in 2014.",
      "2014")],
)
def test_a_verb_the_subject_receives_is_not_answered_by_the_subject_doing_it_to_another(
        question: str, sentence: str, value: str | None) -> None:
    reading = read(read_question(question, None, "Brightwater Labs"), [Passage(sentence, 0, 1)])
    if value is None:
        assert reading.answer is None and (reading.unsure is None or reading.unsure.confidence == "low"), reading
    else:
        assert reading.answer is not None and reading.answer.value == value, (sentence, reading.answer)


def test_a_name_told_by_its_designator_is_not_another_of_its_kind() -> None:
    # "Series A" and "Series B" share every word but the letter the question's reader would drop as a stop word.
    question = read_question("When did Brightwater Labs raise its Series A?", None, "Brightwater Labs")
    assert question.designated == (("series", "a"),)
    other = read(question, [Passage("Brightwater Labs raised a $20 million Series B in 2021.", 0, 1)])
    assert other.answer is None and (other.unsure is None or other.unsure.confidence == "low")  # it was high
    own = answer("When did Brightwater Labs raise its Series A?", "Brightwater Labs raised its Series A in 2019.")
    assert own.value == "2019"
    cost = "How much does the Brightwater Beacon 5 cost?"
    assert answer(cost, "The Brightwater Beacon 4 costs €579.") is None
    assert answer(cost, "The Brightwater Beacon 5 costs €699, the Brightwater Beacon 4 €579.").value == "€699"
    assert answer("How much does the Brightwater Beacon 3A cost?", "The Brightwater Beacon 3C costs €59.") is None
    # A longer name is another product (this was read at medium).
    assert answer("How much does the Brightwater One cost?", "The Brightwater One Mini costs €49.") is None
    assert answer("How much does the Brightwater One cost?", "The Brightwater One costs €99.").value == "€99"
    # A number written as a word is a designator too, and the same one as its digits (this was read at medium).
    warranty = "How long is the Brightwater One warranty?"
    assert answer(warranty, "The Brightwater Two comes with a three-year warranty.") is None
    assert answer(warranty, "The Brightwater 1 comes with a two-year warranty.").value == "two-year"


def test_a_name_its_pages_give_it_is_the_subject_without_its_legal_form_too() -> None:
    # Its pages call it "Brightwater Industries LLC"; the question says "Brightwater Industries": "Industries" is its
    # name, not a key term a sentence must hold.
    question = read_question("Who founded Brightwater Industries?", None, "Brightwater",
                             aliases=["Brightwater Industries LLC"])
    assert question.terms == ("found",)
    reading = read(question, [Passage("Brightwater was founded in 2005 by engineer Limor Fried.", 0, 1)])
    assert reading.answer is not None and reading.answer.value == "Limor Fried"
    other = read_question("Who founded Brightwater Robotics?", None, "Brightwater", aliases=["Brightwater Industries LLC"])
    assert "robot" in other.terms  # another name is still no name of it


def test_an_amount_that_describes_another_noun_is_not_the_amount_raised() -> None:
    # "$100 million" describes the valuation; the $20 million is what was raised (the valuation was read at medium).
    said = "Brightwater Labs raised $20 million at a $100 million valuation in its Series A."
    assert answer("How much did Brightwater Labs raise in its Series A?", said).value == "$20 million"
    assert answer("What is Brightwater Labs' valuation?", said).value == "$100 million"


def test_one_round_is_not_the_total_raised() -> None:
    # Asked the total in so many words, one round's amount is related reading at most (it was read at medium).
    question = read_question("How much funding has Brightwater Labs raised in total?", None, "Brightwater Labs")
    one = read(question, [Passage("Brightwater Labs raised $5 million in seed funding in 2019.", 0, 1)])
    assert one.answer is None and (one.unsure is None or one.unsure.confidence == "low")
    total = read(question, [Passage("Brightwater Labs has raised a total of $25 million in seed funding and its "
                                    "Series A.", 0, 1)])
    assert total.answer is not None and total.answer.value == "$25 million"


@pytest.mark.parametrize(("question", "text", "value"), [
    ("How much venture capital has Brightwater Labs raised?",
     "Perhaps the thing we're proudest of: Brightwater Labs has never raised a single dollar of venture capital.",
     "never raised a single dollar of venture capital"),
    ("How much funding has Brightwater Labs raised?", "We got here without any outside investment.",
     "without any outside investment"),
    ("Has Brightwater Labs raised venture capital?", "Brightwater Labs has never raised outside funding.",
     "never raised outside funding"),
    ("Is Brightwater Labs bootstrapped?", "We are entirely self-funded and profitable.", "self-funded"),
])
def test_a_company_that_raised_no_money_from_investors_says_so_in_ways_read_as_the_answer(
        question: str, text: str, value: str) -> None:
    reading = read(read_question(question, None, "Brightwater Labs"), [Passage(text, 0, 1, "About", own_site=True)])
    assert reading.answer is not None and (reading.answer.value, reading.answer.confidence) == (value, "medium")


@pytest.mark.parametrize(("question", "texts"), [
    # Another company's, or money from elsewhere: "without funding from the EU" says it was funded.
    ("How much funding has Brightwater Labs raised?", ["Globex has never raised outside funding."]),
    ("How much funding has Brightwater Labs raised?", ["Without funding from the EU, the project would not exist."]),
    # A question on one campaign or on what it spent is no question on its investors.
    ("How much did Brightwater Labs raise in its Kickstarter campaign?", ["We are entirely self-funded."]),
    ("How much did Brightwater Labs invest in research?", ["We are entirely self-funded."]),
])
def test_no_money_from_investors_answers_only_what_the_company_raised_from_them(question: str,
                                                                              texts: list[str]) -> None:
    reading = read(read_question(question, None, "Brightwater Labs"),
                   [Passage(t, i, i + 1, "About", own_site=True) for i, t in enumerate(texts)])
    assert reading.answer is None


def test_a_raise_told_beside_a_company_calling_itself_self_funded_is_the_answer() -> None:
    question = read_question("How much funding has Brightwater Labs raised?", None, "Brightwater Labs")
    raise_told = "Brightwater Labs raised $5 million in a seed round led by Globex Ventures."
    reading = read(question, [Passage("We are entirely self-funded and profitable.", 0, 1, "About", own_site=True),
                              Passage(raise_told, 1, 2, "News", own_site=True)])
    assert reading.answer is not None and reading.answer.value == "$5 million"


def test_ask_answers_whether_it_raised_venture_capital_with_the_sentence_that_says_it_raised_none() -> None:
    question = "Has Brightwater Labs raised venture capital?"
    about = ("# About Brightwater Labs\n\nWe're still self-funded, still small and still answering every email. "
             "Brightwater Labs has never raised outside funding, and we have no plans to.")
    result = retrieval(question, [about], company="brightwater-labs")
    result.trace.company.matched = "Brightwater Labs"
    asked = Answerer().answer(question, result)
    assert asked.short_answer == "never raised outside funding" and asked.confidence == "medium"
    assert asked.answer.startswith("Brightwater Labs has never raised outside funding")


def test_a_relative_clause_ends_at_its_comma_not_at_one_inside_a_number() -> None:
    # The clause about another body is dropped whole: no part of its number is left to be read as the subject's.
    assert plain("Acme Corp bought Globex, which had 3.5 million users, in 2019.") == "Acme Corp bought Globex, in 2019."
    assert plain("Acme Corp merged with Globex, which employed 1,500 people.") == "Acme Corp merged with Globex."
