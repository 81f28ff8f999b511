"""R1's sentence rerank (retrieve.rerank): a hand-computed example, its edges, and the Retriever's settings."""

from __future__ import annotations

import math
from datetime import datetime, timezone

import pytest
from cikb.embed import Bm25Encoder
from cikb.core.sentences import split_sentences
from cikb.retrieve.rerank import rerank_by_sentences, sentence_evidence, sentence_stems

from cikb.core.models import Chunk, ChunkMetadata, ScoredChunk

TOKENIZE = Bm25Encoder().tokenize
WHEN = datetime(2026, 3, 1, tzinfo=timezone.utc)


def _scored(name: str, text: str, score: float, rank: int) -> ScoredChunk:
    meta = ChunkMetadata(url=f"https://acme.example/{name}", title=name, company="acme", source_type="website", chunk_index=0, scraped_at=WHEN)
    chunk = Chunk(id=f"00000000-0000-4000-8000-{rank:012d}", text=text, token_count=10, metadata=meta)
    return ScoredChunk(chunk=chunk, score=score, dense_score=0.5, rank=rank)


def _leader_runner_up(leader: tuple[str, str], runner_up: tuple[str, str]) -> list[ScoredChunk]:
    """A fused leader (0.9), a runner-up (0.8) and an unrelated chunk (0.1), each given as (title, text)."""
    return [_scored(*leader, 0.9, 1), _scored(*runner_up, 0.8, 2), _scored("unrelated", "The weather was fine.", 0.1, 3)]


def _order(question: str, chunks: list[ScoredChunk], **options: float) -> list[str]:
    return [c.chunk.metadata.title for c in rerank_by_sentences(question, chunks, TOKENIZE, **options)]


FUSED = [  # the fused order: c1 leads on whole-chunk scores, c2 holds the sentence that answers
    _scored("c1", "Acme sells anvils. Acme ships rockets.", 0.9, 1),
    _scored("c2", "Acme was founded in 1949. The firm sells anvils.", 0.5, 2),
    _scored("c3", "The weather was fine.", 0.1, 3),
]
QUESTION = "When was Acme founded?"


def test_the_rerank_matches_the_hand_computed_example() -> None:
    # Question stems {acm, found}. Sentences (stems): c1 {acm sell anvil} {acm ship rocket}; c2 {acm found 1949}
    # {firm sell anvil}; c3 {weather fine}: n = 5, acm in 3, found in 1.
    #   idf(acm)   = ln((5 - 3 + .5) / (3 + .5) + 1) = ln(12/7) = .538997
    #   idf(found) = ln((5 - 1 + .5) / (1 + .5) + 1) = ln 4     = 1.386294
    # best sentence / (idf sum 1.925291): c1 .279955, c2 1, c3 0 (already min 0, max 1)
    # fused min-max: c1 (.9 - .1) / .8 = 1, c2 .5, c3 0
    # weight .5:     c1 .5 + .5 x .279955 = .639978   c2 .25 + .5 = .75   c3 0
    idf_acm, idf_found = math.log(12 / 7), math.log(4)
    evidence = sentence_evidence({"acm", "found"}, [[set(TOKENIZE(s)) for s in split_sentences(c.chunk.text, headings=True)] for c in FUSED])
    assert evidence == pytest.approx([idf_acm / (idf_acm + idf_found), 1.0, 0.0])
    reranked = rerank_by_sentences(QUESTION, FUSED, TOKENIZE, weight=0.5)
    assert [c.chunk.metadata.title for c in reranked] == ["c2", "c1", "c3"]
    assert [c.score for c in reranked] == pytest.approx([0.75, 0.5 + 0.5 * idf_acm / (idf_acm + idf_found), 0.0])
    assert [c.rank for c in reranked] == [1, 2, 3]
    assert [c.dense_score for c in reranked] == [0.5, 0.5, 0.5]  # the cosine is kept
    assert [c.rank for c in FUSED] == [1, 2, 3]  # the input is not modified


def test_weight_zero_keeps_the_fused_order_and_weight_one_is_the_evidence_alone() -> None:
    assert [c.chunk.metadata.title for c in rerank_by_sentences(QUESTION, FUSED, TOKENIZE, weight=0.0)] == ["c1", "c2", "c3"]
    assert [c.chunk.metadata.title for c in rerank_by_sentences(QUESTION, FUSED, TOKENIZE, weight=1.0)] == ["c2", "c1", "c3"]
    with pytest.raises(ValueError):
        rerank_by_sentences(QUESTION, FUSED, TOKENIZE, weight=1.5)


def test_no_evidence_to_tell_apart_keeps_the_fused_order() -> None:
    # Only stop words in the question, and equal evidence: the fused order decides, ties by it too.
    assert [c.chunk.metadata.title for c in rerank_by_sentences("What was it?", FUSED, TOKENIZE)] == ["c1", "c2", "c3"]
    same = [_scored(f"s{i}", "Acme was founded in 1949.", 0.3, i) for i in (1, 2)]
    assert [c.chunk.metadata.title for c in rerank_by_sentences(QUESTION, same, TOKENIZE)] == ["s1", "s2"]
    assert rerank_by_sentences(QUESTION, [], TOKENIZE) == []


def test_a_word_every_sentence_repeats_counts_little() -> None:
    # "acme" is in every sentence: a sentence with "acme" only beats none of those with the rarer word.
    chunks = _leader_runner_up(("name-only", "Acme is big. Acme is old. Acme is here."), ("rare-word", "Acme opened a factory in Ohio."))
    assert _order("Where did Acme open a factory?", chunks)[0] == "rare-word"


def test_a_sentence_opening_on_a_pronoun_is_read_with_the_one_before() -> None:
    # "It is provided by Zeta Group." says who provides Acme only with the sentence before it. Read alone, the
    # fused leader's best sentence holds half the question and the runner-up's "Acme provided" all of it, and the
    # rerank would put the runner-up first.
    chunks = _leader_runner_up(("anaphor", "Acme is a free service. It is provided by Zeta Group."),
                               ("other", "In 2016 Acme provided client software. The weather was fine."))
    assert _order("Who provides Acme?", chunks) == ["anaphor", "other", "unrelated"]
    assert sentence_stems("Acme is a free service. It is provided by Zeta Group.", TOKENIZE)[1] >= {"acm", "servic", "provid", "zeta"}
    # Only a pronoun subject borrows: a named subject ("Italy") or a pronoun later in the sentence does not.
    assert "acm" not in sentence_stems("Acme is a service. Italy provides it.", TOKENIZE)[1]
    assert "acm" not in sentence_stems("Acme is a service. Zeta provides it.", TOKENIZE)[1]


def test_a_relation_word_counts_at_the_expansion_weight() -> None:
    # "a 501(c)(3) nonprofit" states a tax status without the question's words: the BM25 query found the chunk
    # by those relation words, and the rerank credits them at the same lower weight. With weight 0 only the
    # question's own words count, both best sentences hold one of them, and the fused leader stays first.
    question = "What is Acme's tax status?"
    chunks = _leader_runner_up(("status", "The status page is updated daily. The weather was fine."),
                               ("nonprofit", "Acme is a 501(c)(3) nonprofit organization."))
    assert _order(question, chunks) == ["status", "nonprofit", "unrelated"]
    assert _order(question, chunks, expansion_weight=0.5) == ["nonprofit", "status", "unrelated"]
    # Hand-computed: 4 sentences; acm and status each in 1 (idf ln(3.5/1.5 + 1)), tax in none (idf ln 10).
    # "nonprofit" stands for "tax" at .5: evidence status 1.204/4.711, nonprofit (1.204 + .5 x 2.303)/4.711.
    one, none = math.log(3.5 / 1.5 + 1), math.log(10)
    stems = [[set(TOKENIZE(s)) for s in split_sentences(c.chunk.text, headings=True)] for c in chunks]
    assert sentence_evidence({"acm", "tax", "status"}, stems, 0.5) == pytest.approx(
        [one / (2 * one + none), (one + 0.5 * none) / (2 * one + none), 0.0])


def test_sentences_split_at_ends_and_lines() -> None:
    assert split_sentences('# Title\n\nA first one (see it). "Quoted." Next line\n- item one\n- item two? Yes! 3.5 percent.', headings=True) == [
        "Title", "A first one (see it).", '"Quoted."', "Next line", "item one", "item two?", "Yes!", "3.5 percent.",
    ]
