"""R2: which company the question names; R3: names the knowledge base does not mention."""

from __future__ import annotations

import pytest
from cikb.retrieve.companies import (
    candidate_names,
    coordinated_companies,
    infer_company,
    name_variants,
    unmentioned_names,
)

KB = {"acme-corp": "Acme Corp", "general-electric": "General Electric Company", "ge-healthcare": None, "3m": "3M"}


def test_name_variants_drop_legal_forms_and_use_slug_words():
    assert name_variants("acme-corp", "Acme Corp") == {"acme corp", "acme"}
    assert name_variants("sky-united-kingdom", "Sky (United Kingdom)") == {"sky united kingdom", "sky"}
    assert name_variants("arsenal-f-c", "Arsenal F.C.") == {"arsenal f c", "arsenal fc", "arsenal"}
    assert name_variants("fc-barcelona", "FC Barcelona") == {"fc barcelona", "barcelona"}
    assert "ipcc" in name_variants("ipcc", "Intergovernmental Panel on Climate Change")
    assert "abc" in name_variants("american-broadcasting-company", "American Broadcasting Company")
    assert name_variants("university-of-chicago", "University of Chicago") == {"university of chicago"}  # no 2-letter acronym
    assert name_variants("general-electric", "General Electric Company") == {"general electric company", "general electric", "gec"}


@pytest.mark.parametrize(
    ("question", "slug"),
    [("Who founded Acme?", "acme-corp"), ("what is ACME CORP's revenue", "acme-corp"),
     ("When did General Electric start?", "general-electric"), ("Who runs GE Healthcare?", "ge-healthcare"),
     ("Where is 3M based?", "3m"), ("Tell me about acmeville", None), ("Is Globex hiring?", None)],
)
def test_infer_company(question, slug):
    assert infer_company(question, KB).slug == slug


def test_longest_name_wins():
    companies = {"apple": "Apple", "apple-records": "Apple Records"}
    choice = infer_company("Who founded Apple Records?", companies)
    assert (choice.slug, choice.source, choice.matched) == ("apple-records", "inferred", "apple records")


@pytest.mark.parametrize(("question", "slug"), [
    ("What is the notion of privacy at Acme?", "acme"),  # was notion: the longer match, though written as a word
    ("Does Acme have a notion of teams?", "acme"),
    ("When was Notion founded?", "notion"),
    ("when was notion founded", "notion"),  # nothing else named: written in lower case, it is still the name
    ("who founded acme", "acme"),
    ("When was 37signals founded?", "37signals"),
])
def test_a_name_written_as_a_name_wins_over_a_common_word(question, slug):
    companies = {"notion": "Notion", "acme": "Acme", "37signals": "37signals"}
    assert infer_company(question, companies).slug == slug


def test_a_name_its_company_writes_in_lower_case_is_a_name_in_lower_case():
    companies = {"acme": "Acme", "teenage-engineering": "teenage engineering"}
    assert infer_company("Does Acme sell teenage engineering synths?", companies).slug == "teenage-engineering"


def test_candidate_names_skip_question_words_and_business_terms():
    assert candidate_names("Who is the CEO of Initech?") == ["Initech"]
    assert candidate_names("When did Jane Doe join Globex Corp?") == ["Jane Doe", "Globex Corp"]
    assert candidate_names("what does it sell") == []
    # A yes/no question opened by a form of "have" or a modal ("Has Skylight ...?" was read as a company "Has
    # Skylight", which no source mentions: ask abstained for that reason).
    assert candidate_names("Has Skylight raised venture capital?") == ["Skylight"]
    assert candidate_names("Have Acme Corp and Globex merged?") == ["Acme Corp", "Globex"]
    assert candidate_names("May Initech use Stripe?") == ["Initech", "Stripe"]
    # A role's plural is the role ("Who are the CEOs of Initech?" abstained: "no retrieved source mentions CEOs").
    assert candidate_names("Who are the CEOs of Initech?") == ["Initech"]
    assert candidate_names("Which CTOs has Globex had?") == ["Globex"]
    assert candidate_names("How many ASICs does Globex make?") == ["ASICs", "Globex"]
    # A name written with a capital inside it is a name ("When was eBay founded?" answered another company's year).
    assert candidate_names("When was eBay founded?") == ["eBay"]
    assert candidate_names("Who is the CEO of iRobot or ownCloud?") == ["iRobot", "ownCloud"]


def test_unmentioned_names():
    texts = ["Jane Doe founded Acme in Springfield.", "Acme's products"]
    assert unmentioned_names("Did Jane Doe found Acme?", texts) == []
    assert unmentioned_names("Did Jane Doe found Globex?", texts) == ["Globex"]
    # The inferred company's own name is accounted for, even in a longer form than the text uses.
    assert unmentioned_names("Did Jane Doe found Acme Corporation?", texts, known={"acme corporation", "acme"}) == []
    assert unmentioned_names("Did Acme Widgets ship?", texts, known={"acme"}) == ["Acme Widgets"]


COMPANIES = {"acme-corp": "Acme Corp", "zentra": "Zentra", "globex": "Globex"}


@pytest.mark.parametrize(("question", "asked"), [
    ("When were Zentra and Acme Corp founded?",
     [("zentra", "Zentra", "When were Zentra founded?"), ("acme-corp", "Acme Corp", "When were Acme Corp founded?")]),
    ("Who founded Acme, Globex or Zentra?",
     [("acme-corp", "Acme", "Who founded Acme?"), ("globex", "Globex", "Who founded Globex?"),
      ("zentra", "Zentra", "Who founded Zentra?")]),
    ("What are Zentra's and Acme's phone numbers?",
     [("zentra", "Zentra", "What are Zentra's phone numbers?"), ("acme-corp", "Acme", "What are Acme's phone numbers?")]),
    ("Compare Acme Corp, Inc. & Globex",
     [("acme-corp", "Acme Corp", "Compare Acme Corp"), ("globex", "Globex", "Compare Globex")]),
    # A name the knowledge base does not hold is asked of too (and answered as such: not Acme Corp's "Acme Robotics").
    ("When were Zentra and Initech founded?",
     [("zentra", "Zentra", "When were Zentra founded?"), (None, "Initech", "When were Initech founded?")]),
    ("When were Acme Robotics and Zentra founded?",
     [(None, "Acme Robotics", "When were Acme Robotics founded?"), ("zentra", "Zentra", "When were Zentra founded?")]),
])
def test_a_question_asking_the_same_of_several_companies_is_asked_of_each(question, asked):
    assert [(one.slug, one.name, one.question) for one in coordinated_companies(question, COMPANIES)] == asked


@pytest.mark.parametrize("question", [
    "When was Zentra founded?",
    "Did Zentra acquire Acme?",  # one company a thing asked about: one question, as before
    "Did Zentra and Globex merge?",  # a predicate relating them
    "What do Acme and Zentra have in common?",
    "When were Initech and Hooli founded?",  # no company of the knowledge base
    "When were Acme and Acme Corp founded?",  # one company twice
    "Did Acme and Globex sue Zentra?",
    "Who led Zentra's Series A and Series B?",
])
def test_a_question_not_asking_the_same_of_several_companies_is_one_question(question):
    assert coordinated_companies(question, COMPANIES) == []
