"""The offline reader on plain, invented phrasings of common company facts: answered right, abstained, wrong.

    python bench/phrasings.py [--verbose]

Each case is one short passage from a made-up company's own pages ("Acme") and a question a user would
ask about it, phrased in other words than the passage where sites usually do ("established" / "founded",
"How many users" / "developers use"). Every sentence here was written for this bench; none is taken from
a shared corpus or a real site, so the figures say where the reader's general signals stop, not how well
it knows one site. The kinds of facts are the ones company sites usually state (and the shared
sites' README lists); places, names and numbers are made up. The second list is passages that do
*not* state the asked fact: the reader must abstain.

An answer is read through the same path as ``cikb ask`` without an LLM (:func:`extract_answer`), and counted
right when its first cited statement holds the expected text.

This is a list of gaps to work on, not a target: a rule added to pass one of these cases is tuning to
the bench. Judge a change on the held-out shared sites (``bench/ask.py``) first.
"""

from __future__ import annotations

import argparse
from datetime import datetime, timezone

from cikb.answer.extractive import extract_answer
from cikb.core.models import Chunk, ChunkMetadata, ScoredChunk

COMPANY = "Acme"

# (question, passage, text the first statement must hold)
STATED = [
    ("What does Acme build?", "Acme is an open-source platform for the continuous delivery of microservices.", "continuous delivery"),
    ("What is Acme's main product?", "Acme Deploy is our release automation platform for Kubernetes teams.", "Acme Deploy"),
    ("Who is Acme's CTO?", "Jane Roe, co-founder and CTO, leads engineering.", "Jane Roe"),
    ("Who is the CTO of Acme?", "Jane Roe is CTO at Acme and previously worked at Globex.", "Jane Roe"),
    ("Who is Acme's CEO?", "Today we welcome John Doe as our new Chief Executive Officer.", "John Doe"),
    ("Who founded Acme?", "Acme was started by Jane Roe and John Doe in a garage in 2015.", "Jane Roe"),
    ("Where is Acme's office?", "Visit us at Rua Augusta 12, 1100-053 Lisboa, Portugal.", "Rua Augusta 12"),
    ("What is Acme's office address?", "Acme Lda.\n\nRua Augusta 12\n\n1100-053 Lisboa\n\nPortugal", "Rua Augusta 12"),
    ("Where is Acme based?", "We are a remote-first team headquartered in Leeds, England.", "Leeds"),
    ("Where did Acme start?", "Acme started in Leeds, England and is now fully remote.", "Leeds"),
    ("What is Acme's phone number?", "Call us: +351 21 123 4567", "+351 21 123 4567"),
    ("What is Acme's email address?", "Questions? Write to us at hello@acme.example", "hello@acme.example"),
    ("What is Acme's VAT ID?", "VAT ID: PT501234567", "PT501234567"),
    ("How much did Acme raise in its Series A?", "Acme today announced it has closed a €3 million Series A round.", "3 million"),
    ("Who led Acme's Series A round?", "Acme today announced a $3 million Series A. The round was led by Northwind Capital, "
     "with participation from Fabrikam Ventures.", "Northwind Capital"),
    ("Which investors took part in Acme's Series A?", "The round was led by Northwind Capital, with participation from "
     "Fabrikam Ventures and Contoso Partners.", "Fabrikam"),
    ("What was Acme's former name?", "Acme, formerly known as Globex Labs, builds release tooling.", "Globex Labs"),
    ("What was Acme previously called?", "In 2017 Globex Labs changed its name to Acme.", "Globex Labs"),
    ("Which accelerator did Acme join?", "Acme was selected for the Harbour Works accelerator programme in 2015.", "Harbour Works"),
    ("Which companies use Acme?", "Enterprises such as Contoso, Fabrikam and Northwind rely on Acme every day.", "Contoso"),
    ("How many users does Acme have?", "More than 12,000 developers use Acme today.", "12,000"),
    ("How many people work at Acme?", "Our team of 45 engineers and designers works remotely.", "45"),
    ("Under which license is Acme released?", "Acme is open source and licensed under the MIT licence.", "MIT licence"),
    ("Who are the managing directors of Acme?", "Acme GmbH. Managing Directors: Jane Roe, John Doe. Register court: "
     "Leeds 01234567.", "Jane Roe"),
    ("In which year was Acme established?", "Founded in 2018, Acme helps teams ship faster.", "2018"),
    ("When was Acme established?", "Acme was founded in 2018 in Leeds.", "2018"),
    ("How many hours per month does Acme's free plan include?", "Free: 30 hours per month, public repositories.", "30 hours"),
    ("Which award was Acme nominated for?", "We are proud to be nominated for the Regional Innovation Award 2018.", "Regional Innovation Award"),
    ("Who joined Acme's board?", "Jane Roe of Northwind Capital joins Acme's board of directors.", "Jane Roe"),
]

# (question, passage that does not state it)
NOT_STATED = [
    ("What does Acme build?", "Acme is a Portuguese company founded in 2014 in Lisbon."),
    ("What products does Acme offer?", "Acme is a small team based in Leeds, England."),
    ("What does Acme build?", "Globex is a platform for builders, and Acme uses it."),
    ("Where is Acme located?", "Visitors based in the EEA may ask us for a copy of their data."),
    ("Who is Acme's CEO?", "We are proud to partner with Globex, whose CEO Jane Roe spoke at our event."),
    ("When was Acme founded?", "Globex was founded in 1999 and bought its first Acme licence in 2016."),
    ("How many employees does Acme have?", "Acme customers operate in 34 countries."),
    ("Who founded Acme?", "Read the interview with Jane Roe, founder of Globex, on our blog."),
    ("What is Acme's phone number?", "Globex support: +1 555 0100. Acme is a Globex partner."),
    ("How much funding has Acme raised?", "Our customers saved $2 million last year with Acme."),
]

CRAWLED = datetime(2026, 1, 1, tzinfo=timezone.utc)


def context(passage: str) -> list[ScoredChunk]:
    """The passage as the one retrieved chunk of Acme's about page."""
    meta = ChunkMetadata(url="https://acme.example/about/", title="About Acme", company="acme", source_type="website",
                         chunk_index=0, scraped_at=CRAWLED)
    chunk = Chunk(id="00000000-0000-0000-0000-000000000001", text=passage, token_count=len(passage.split()), metadata=meta)
    return [ScoredChunk(chunk=chunk, score=1.0, dense_score=0.5, rank=1)]


def first_statement(question: str, passage: str) -> str | None:
    """The answer's first cited statement, or None when the reader abstains."""
    answer = extract_answer(question, context(passage), company=COMPANY)
    return answer.sentences[0].text if answer.sentences else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--verbose", action="store_true", help="print every case")
    args = parser.parse_args()
    right = wrong = abstained = 0
    for question, passage, expected in STATED:
        stated = first_statement(question, passage)
        if stated is None:
            abstained += 1
            verdict = "abstain"
        elif expected.lower() in stated.lower():
            right += 1
            verdict = "right"
        else:
            wrong += 1
            verdict = "wrong"
        if args.verbose:
            print(f"{verdict:8s} {question}  <- {passage[:70]!r}")
    answered = 0
    for question, passage in NOT_STATED:
        stated = first_statement(question, passage)
        answered += stated is not None
        if args.verbose:
            print(f"{'ANSWERED' if stated else 'abstain':8s} {question}  <- {passage[:70]!r} (not stated)")
    print(f"stated in other words: {len(STATED)} cases: right {right}, abstained {abstained}, wrong {wrong}")
    print(f"not stated: {len(NOT_STATED)} cases: abstained {len(NOT_STATED) - answered}, answered (wrong) {answered}")


if __name__ == "__main__":
    main()
