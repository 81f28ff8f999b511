"""Extractive mode: the best sentences of the context, each cited, and a line saying it is extractive (A3)."""

from __future__ import annotations

import numpy as np
from answer_helpers import retrieval
from cikb.answer import ABSTENTION, EXTRACTIVE_NOTE, Answerer
from cikb.answer.reader import Passage, read, read_question, split_sentences

ABOUT = """# About Acme Corp

Acme Corp. is a maker of desert equipment based in Springfield, Ohio. The company employs about 1,200 people.

## History

Acme was founded in 1949 by Wile E. Coyote and Jane Doe. It began as a workshop selling anvils by mail order.
In 1987 Acme opened its first factory outside the United States, in Mexico."""

PRODUCTS = """# Products

- Acme sells anvils, rockets and giant magnets.
- Its best-selling product is the Acme Rocket Skate, launched in 1962.

Read our [catalogue](https://acme.example/catalogue) for **prices**."""

NEWS = """Acme Corp reported revenue of $3.2 billion for 2025. The chief executive is Maria Lopez, who took over in 2019.
Acme was founded in 1949 by Wile E. Coyote and Jane Doe."""


def _answer(question: str, texts: list[str], **kwargs):
    return Answerer(**kwargs).answer(question, retrieval(question, texts))


def test_when_question_picks_the_dated_sentence_with_its_citation():
    answer = _answer("When was Acme founded?", [PRODUCTS, ABOUT])
    assert answer.mode == "extractive" and answer.grounded and answer.note == EXTRACTIVE_NOTE
    assert answer.answer.startswith("Acme was founded in 1949 by Wile E. Coyote and Jane Doe. [2]")
    assert answer.short_answer == "1949"
    assert answer.citations[0] == 2 and answer.sources[0].url == "https://acme.example/page-2"


def test_who_question_prefers_a_sentence_naming_a_person():
    # "The chief executive is Maria Lopez" does not say whose: related reading, not the answer (issue 23).
    answer = _answer("Who is the chief executive of Acme?", [ABOUT, NEWS])
    assert answer.abstained and answer.related[0].text.startswith("The chief executive is Maria Lopez, who took over in 2019.")
    named = NEWS.replace("The chief executive is", "Acme's chief executive is")
    answer = _answer("Who is the chief executive of Acme?", [ABOUT, named])
    assert answer.answer.startswith("Acme's chief executive is Maria Lopez, who took over in 2019. [2]")
    assert answer.short_answer == "Maria Lopez"


def test_how_many_question_finds_the_number():
    answer = _answer("How many people does Acme employ?", [ABOUT])
    assert answer.answer.startswith("The company employs about 1,200 people. [1]")
    assert answer.short_answer == "1,200"


def test_every_quoted_sentence_is_in_its_cited_source_and_duplicates_are_dropped():
    texts = [ABOUT, PRODUCTS, NEWS]
    answer = _answer("Who founded Acme and what does it sell?", texts)
    sentences = [s for s in answer.answer.split(" [") if s]
    assert 1 <= len(answer.citations) <= 3
    body = answer.answer
    for number in answer.citations:
        assert f"[{number}]" in body
    # The founding sentence appears in two sources but is quoted once, from the better-ranked one.
    assert body.count("founded in 1949") == 1
    assert "sell" in body and "founded" in body  # both parts of the question are answered
    for quoted in split_sentences(body.replace("[1]", "\n\n").replace("[2]", "\n\n").replace("[3]", "\n\n")):
        assert any(quoted.strip() in " ".join(split_sentences(t)) for t in texts), quoted
    assert sentences


def test_markdown_is_read_as_prose():
    sentences = split_sentences(PRODUCTS)
    assert sentences == [
        "Acme sells anvils, rockets and giant magnets.",
        "Its best-selling product is the Acme Rocket Skate, launched in 1962.",
        "Read our catalogue for prices.",
    ]
    assert "Acme Corp. is a maker of desert equipment based in Springfield, Ohio." in split_sentences(ABOUT)


class MeaningEmbedder:
    """Says a sentence holding ``word`` means the question; every other sentence does not."""

    def __init__(self, word: str):
        self.word = word

    def embed_query(self, text):
        return np.array([1.0, 0.0])

    def embed_documents(self, sentences):
        return np.array([[1.0, 0.0] if self.word in s else [0.0, 1.0] for s in sentences])


def test_dense_similarity_breaks_lexical_ties():
    texts = ["Acme makes things for coyotes. Acme ships things to coyotes."]
    answer = _answer("Acme things coyotes", texts, embedder=MeaningEmbedder("ships"))
    assert answer.answer.startswith("Acme ships things to coyotes. [1]")


def test_an_unanswered_value_question_lists_first_the_related_sentence_closest_in_meaning():
    # No sentence states a headcount; of two that share the question's words alike, the one the embedder reads as
    # meaning the question comes first in the related reading (where the user looks for the answer).
    texts = ["Acme has employees in sales. Acme has employees who like the team."]
    for embedder, first in ((MeaningEmbedder("team"), "who like the team"), (None, "in sales")):
        answer = _answer("How many employees does Acme have?", texts, **({"embedder": embedder} if embedder else {}))
        assert answer.abstained and answer.related, answer
        assert first in answer.related[0].text, answer.related


def test_empty_context_abstains():
    answer = _answer("When was Acme founded?", [])
    assert answer.answer == ABSTENTION and answer.abstained and not answer.grounded


def test_answer_types_and_short_answers():
    # The question typing and short answers are the reader's (cikb.answer.reader), shared with enrich.
    assert read_question("In what year did Acme open a factory?").kind == "year"
    assert read_question("What does Acme sell?").kind == "text"
    assert read_question("What year did Acme open a factory?").kind == "year"
    assert read_question("How much revenue did Acme report?").kind == "money"
    assert read_question("Where is Acme based?").kind == "place"
    opened = read(read_question("When did it open?"), [Passage("It opened on March 3, 1987 in Mexico.")])
    assert opened.answer is not None and opened.answer.value == "March 3, 1987"
    revenue = read(read_question("How much revenue?"), [Passage("Revenue was $3.2 billion in 2025.")])
    assert revenue.answer is not None and revenue.answer.value == "$3.2 billion"


def test_negated_and_legal_sentences_do_not_answer_what_is_sold():
    legal = "# Legal notice\n\nThis website is operated by Acme Corp. We process personal data and we never sell it."
    about = "# About\n\nAcme Corp makes autonomous delivery robots for warehouses and hospitals."
    answer = Answerer().answer("What does Acme sell?", retrieval("What does Acme sell?", [legal, about]))
    assert answer.answer == "Acme Corp makes autonomous delivery robots for warehouses and hospitals. [2]"


def test_label_lines_stand_alone():
    facts = "Founded: 2011, in Portland, Oregon\nEmployees: about 420 (2024)\nRevenue: $38 million in 2023"
    assert split_sentences(facts) == ["Founded: 2011, in Portland, Oregon", "Employees: about 420 (2024)", "Revenue: $38 million in 2023"]
    answer = Answerer().answer("What was Acme's revenue in 2023?", retrieval("q", [facts]))
    assert answer.answer.startswith("Revenue: $38 million in 2023 [1]")


def test_the_chunk_with_a_sure_answer_moves_first_and_the_rest_keep_their_order() -> None:
    from answer_helpers import scored_chunk
    from cikb.answer import sure_answer_first

    texts = ["Acme Corp makes anvils and rockets for desert customers.", PRODUCTS, "Acme Corp was founded in 1949 in Springfield, Ohio."]
    chunks = [scored_chunk(text, rank) for rank, text in enumerate(texts, start=1)]
    moved = sure_answer_first("When was Acme Corp founded?", "Acme Corp", chunks)
    assert [c.chunk.id for c in moved] == [chunks[2].chunk.id, chunks[0].chunk.id, chunks[1].chunk.id]
    assert [c.rank for c in moved] == [1, 2, 3] and moved[0].score >= moved[1].score
    # Free text, no typed value at all, or one read without high confidence: the fused order stands.
    assert sure_answer_first("What does Acme Corp sell?", "Acme Corp", chunks) == chunks
    assert sure_answer_first("Who is the chief executive of Acme Corp?", "Acme Corp", chunks) == chunks
    hedged = [scored_chunk(text, rank) for rank, text in enumerate(
        [texts[0], "Acme Corp was probably not founded in 1949; some say 1951.", "Globex was founded in 1990."], start=1)]
    assert sure_answer_first("When was Acme Corp founded?", "Acme Corp", hedged) == hedged


def test_a_name_written_with_an_apostrophe_is_the_subject_not_a_key_term() -> None:
    # "Where is Let's Encrypt headquartered?" asked of a company inferred as "lets encrypt": with the
    # display name as the subject, "Let's" is not a word every sentence about the company would match.
    from answer_helpers import retrieval
    from cikb.answer import Answerer

    question = "Where is Let's Encrypt headquartered?"
    texts = ["The goal of Let's Encrypt is to make turning on HTTPS as easy as possible.", "Address: 548 Market St, San Francisco, CA 94104, USA"]
    result = retrieval(question, texts, company="lets-encrypt")
    result.trace.company = result.trace.company.model_copy(update={"matched": "lets encrypt", "name": "Let's Encrypt"})
    # The address line is on a news page not titled for the company: related reading, read for the right place.
    result.context[1].chunk.metadata.source_type = "news"
    answer = Answerer().answer(question, result)
    assert answer.abstained and answer.related[0].text == "Address: 548 Market St, San Francisco, CA 94104, USA"
    result.context[1].chunk.metadata.title = "Contact Let's Encrypt"
    assert Answerer().answer(question, result).short_answer == "548 Market St, San Francisco, CA 94104, USA"
    # On the company's own website the line is the company's whatever the page's title (it names no one else).
    result.context[1].chunk.metadata.source_type = "website"
    result.context[1].chunk.metadata.title = "Contact"
    assert Answerer().answer(question, result).short_answer == "548 Market St, San Francisco, CA 94104, USA"


def test_a_question_word_the_first_sentence_states_by_its_kind_brings_no_follow_up() -> None:
    # "501(c)(3)" answers "tax status"; a sentence holding the word "status" about something else adds nothing.
    texts = ["Acme Foundation is a 501(c)(3) charity funded by its members.",
             "Acme Foundation publishes the status of every grant application online."]
    answer = _answer("What is Acme Foundation's tax status?", texts)
    assert answer.answer == "Acme Foundation is a 501(c)(3) charity funded by its members. [1]"


def test_a_contact_answer_quotes_the_contact_and_no_postal_address_line() -> None:
    # "address" is the rarer word of "email address": a postal "Address: ..." line on a page about Acme adds it
    # and used to follow the e-mail address up.
    texts = ["To sponsor Acme, please email us at sponsor@acme.example.",
             "Acme may email you about your order. Email is how our team works. We answer email within a day.",
             "Address: 12 Quay Street, Porto, Portugal"]
    answer = _answer("What is the email address of Acme?", texts)
    assert answer.short_answer == "sponsor@acme.example"
    assert answer.answer == "To sponsor Acme, please email us at sponsor@acme.example. [1]"


def test_a_quoted_sentence_whose_subject_is_a_pronoun_comes_with_the_sentence_naming_it() -> None:
    text = "Acme runs a free certificate service. It is a service provided by Zeta Group. The weather was fine."
    answer = _answer("Who provides Acme?", [text])
    assert answer.answer.startswith("Acme runs a free certificate service. It is a service provided by Zeta Group. [1]")
    assert answer.short_answer == "Zeta Group"


def test_the_chunk_stating_the_fact_in_the_questions_own_word_moves_first() -> None:
    from answer_helpers import scored_chunk
    from cikb.answer import sure_answer_first

    texts = ["March 2, 2013: Acme Corp is incorporated in Springfield.", PRODUCTS, "Acme Corp was founded in 2013 to make anvils."]
    chunks = [scored_chunk(text, rank) for rank, text in enumerate(texts, start=1)]
    moved = sure_answer_first("What year was Acme Corp founded?", "Acme Corp", chunks)
    assert [c.chunk.id for c in moved] == [chunks[2].chunk.id, chunks[0].chunk.id, chunks[1].chunk.id]


def test_a_follow_up_to_a_value_holds_a_value():
    # The first sentence names the founders; a sentence that holds "founders" in another sense adds none.
    quote = "At Tidewater, we build the open-source CRM used by everyone from solo founders to public institutions."
    answer = _answer("Who are the founders of Acme?", [ABOUT, quote])
    assert answer.answer.startswith("Acme was founded in 1949 by Wile E. Coyote and Jane Doe. [1]")
    assert "Tidewater" not in answer.answer and answer.citations == [1]
    # A part of the question the first sentence leaves open still gets its sentence.
    both = _answer("Who founded Acme and what does it sell?", [ABOUT, PRODUCTS])
    assert "founded in 1949" in both.answer and "selling anvils" in both.answer


def test_a_question_that_offers_its_answers_gets_one_with_the_sentence_that_says_it():
    remote = "# About Acme\n\nAcme is an all-remote company. Our engineers work on anvils and rockets."
    answer = _answer("Does Acme work from offices or remotely?", [ABOUT, remote])
    assert answer.short_answer == "remotely" and answer.answer.startswith("Acme is an all-remote company. [2]")
    # Neither said of Acme: the abstention, with what was found as related reading.
    answer = _answer("Does Acme work from offices or remotely?", [ABOUT])
    assert answer.abstained and answer.answer == ABSTENTION


def _asked_about(question: str, name: str, texts: list[str]):
    """A retrieval over every company (no company of the knowledge base named) asked about ``name``."""
    found = retrieval(question, texts, company=None)
    found.trace.company = found.trace.company.model_copy(update={"asked_about": name})
    for chunk in found.context:
        chunk.chunk.metadata.company = "infomaniak"
    return Answerer().answer(question, found)


def test_a_name_the_knowledge_base_lacks_is_not_answered_by_another_companys_we_or_facts_lines():
    # Asked where Dropbox is (no company of the knowledge base), another company's page answered "Les Acacias" with
    # medium confidence: "the team" and "our" there are that company, and its "Founded: 2014" line is its own.
    team = "Backups once went to Dropbox. Today the team works from our headquarters in Les Acacias, Geneva."
    assert _asked_about("Where is Dropbox headquartered?", "Dropbox", [team]).answer == ABSTENTION
    facts = "# Facts\n\nFounded: 2014\n\nPayments are handled by Stripe."
    assert _asked_about("When was Stripe founded?", "Stripe", [facts]).answer == ABSTENTION
    # A sentence that names the name asked about still answers.
    named = _asked_about("Where is Dropbox headquartered?", "Dropbox", [team, "Dropbox is headquartered in San Francisco."])
    assert named.short_answer == "San Francisco", named
    # Asked of the company whose pages they are, the same lines answer.
    own = retrieval("Where is Infomaniak headquartered?", [team], company="infomaniak")
    own.trace.company = own.trace.company.model_copy(update={"name": "Infomaniak"})
    assert "Les Acacias" in (Answerer().answer("Where is Infomaniak headquartered?", own).short_answer or "")


def test_a_question_asked_of_no_company_about_a_word_no_source_holds_abstains():
    # "when was figma founded" in lower case names no company the retriever sees, and a knowledge base holding one
    # company (a shared site's, in a new user's check) answered it with that company's year: the word no source holds is what the question asks about.
    facts = "# About Acme\n\nFounded: 2017\n\nAcme makes delivery robots. It has 120 employees in Portland."
    lowercase = Answerer().answer("when was figma founded", retrieval("when was figma founded", [facts], company=None))
    assert lowercase.answer == ABSTENTION and lowercase.warnings == ["no retrieved source mentions 'figma'"], lowercase
    assert any("2017" in related.text for related in lowercase.related)  # related reading, not its answer
    ebay = Answerer().answer("how many employees does ebay have", retrieval("how many employees does ebay have", [facts], company=None))
    assert ebay.answer == ABSTENTION and ebay.warnings == ["no retrieved source mentions 'ebay'"], ebay
    # Every word held, the same sources answer; and asked of a company, nothing changes.
    assert Answerer().answer("when was the company founded", retrieval("when was the company founded", [facts], company=None)).short_answer == "2017"
    assert Answerer().answer("How many employees does it have?", retrieval("How many employees does it have?", [facts], company=None)).short_answer == "120"


def test_what_the_company_makes_is_not_answered_by_who_makes_it():
    # The passive's subject undergoes the verb: "Acme is made by Globex Inc." says who makes Acme, not what Acme makes.
    made = "Acme is made by Globex Inc., a small, independent software company."
    assert _answer("What does Acme make?", [made]).abstained
    answer = _answer("What does Acme make?", [made, "Acme was founded in 2020 and makes a note-taking app."])
    assert not answer.abstained and answer.answer.startswith("Acme was founded in 2020 and makes a note-taking app.")


def test_what_the_company_makes_is_not_what_its_page_says_you_make():
    # "You" on a company's page is its reader: "you make calls" is what the customer does with Acme, not what it makes.
    yours = "With Acme you make calls from any device, and your colleagues can make calls from desk phones."
    assert _answer("What does Acme make?", [yours]).abstained
    answer = _answer("What does Acme make?", [yours, "We make cloud telephony for businesses."])
    assert not answer.abstained and answer.answer.startswith("We make cloud telephony for businesses.")
