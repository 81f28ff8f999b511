"""Query expansion (retrieve.expansion): the relation words of cikb.core.vocabulary added to the BM25 query."""

from __future__ import annotations

from cikb.embed import Bm25Encoder
from cikb.embed.bm25 import token_id
from cikb.retrieve.expansion import expand_query

from cikb.core.vocabulary import RELATED_WEIGHT, expansions, match_weight, relation

BM25 = Bm25Encoder()


def _weights(question: str, weight: float) -> tuple[dict[int, float], list[str]]:
    vector, added = expand_query(BM25.encode_query(question), BM25.tokenize(question), weight)
    return dict(zip(vector.indices, vector.values)), added


def test_relation_words_join_the_query_at_the_weight_and_the_questions_own_keep_theirs() -> None:
    weights, added = _weights("When was Acme founded and who is its CEO?", 0.5)
    assert {"establish", "incorpor", "launch", "chief", "execut"} <= set(added)  # the group and its related words
    assert all(weights[token_id(stem)] == 0.5 for stem in added)
    assert weights[token_id("found")] == weights[token_id("acm")] == weights[token_id("ceo")] == 1.0
    assert "found" not in added and "acm" not in added and added == sorted(added)


def test_a_question_word_also_added_by_another_keeps_its_own_weight() -> None:
    # "chief" is the CEO's relation word, and the question's own word here.
    weights, added = _weights("Who is the chief executive of Acme?", 0.5)
    assert weights[token_id("chief")] == 1.0 and "chief" not in added and "ceo" in added


def test_a_chief_officers_acronym_adds_the_words_of_its_title() -> None:
    # A team card writes "Chief Financial Officer" where the question asks for the CFO.
    added = _weights("Who is the CFO of Acme?", 0.5)[1]
    assert {"chief", "financi", "offic"} <= set(added) and "execut" not in added
    assert {"technolog", "technic"} <= expansions("cto")


def test_weight_zero_or_words_without_relations_add_nothing() -> None:
    query = BM25.encode_query("When was Acme founded?")
    assert expand_query(query, BM25.tokenize("When was Acme founded?"), 0.0) == (query, [])
    assert _weights("Does Acme sell anvils?", 0.5)[1] == sorted(expansions("sell"))
    assert _weights("Anvils rockets magnets", 0.5)[1] == []


def test_the_vocabulary_matches_a_relation_fully_and_a_related_word_by_half() -> None:
    assert relation("establish") == relation("found")
    assert match_weight("found", {"establish", "1949"}) == 1.0
    assert match_weight("found", {"launch"}) == RELATED_WEIGHT
    # Incorporation neighbours founding (a company is often incorporated years after it started): half.
    assert match_weight("found", {"incorpor"}) == match_weight("incorpor", {"found"}) == RELATED_WEIGHT
    assert match_weight("found", {"anvil"}) == 0.0
    assert relation("anvil") == frozenset({"anvil"}) and expansions("anvil") == frozenset()


def test_everyday_synonyms_join_the_query() -> None:
    # A contact page's structured facts say "Telephone: (919) 432-4660"; a sponsor page "$1M in annual sponsorship".
    assert "telephon" in _weights("What phone number can I call to reach them?", 0.5)[1]
    assert "annual" in _weights("How much yearly sponsorship does Acme get?", 0.5)[1]
