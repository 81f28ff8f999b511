"""The offline reader on plain, invented phrasings of common company facts: answered right, abstained, wrong.

    python bench/phrasings.py [--verbose] [--model]

Each case is one short passage from a made-up company's own pages ("Acme") and a question a user would
ask about it, phrased in other words than the passage where sites usually do ("established" / "founded",
"How many users" / "developers use"). Every sentence here was written for this bench; none is taken from
a shared corpus or a real site, so the figures say where the reader's general signals stop, not how well
it knows one site. The kinds of facts are the ones company sites usually state (and the shared
sites' README lists); places, names and numbers are made up. A second list is whole news items (a
title, a dateline, quotes, "About" paragraphs naming other bodies and their officers), and the last
is passages that do *not* state the asked fact (some written to mislead: the asked role or date named beside the
company's name, but another's): the reader must abstain. A fourth list asks one stated fact in the words users
ask it in ("Who runs Acme?", "How old is Acme?").

An answer is read through the same path as ``cikb ask`` without an LLM (:func:`extract_answer`), and counted
right when its first cited statement holds the expected text.

This is a list of gaps to work on, not a target: a rule added to pass one of these cases is tuning to
the bench. Judge a change on the held-out shared sites (``bench/ask.py``) first.
"""

from __future__ import annotations

import argparse
from datetime import datetime, timezone
from typing import Any

from cikb.answer.extractive import extract_answer
from cikb.core.config import Settings
from cikb.embed import CloseInMeaning, load_embedder
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
    ("What does Acme do?", "We are hiring engineers in Leeds. Acme is a payroll service for small restaurants. Our office "
     "dog is called Biscuit.", "payroll service"),
    ("What kind of company is Acme?", "Acme, a maker of solar-powered water pumps, was founded by two engineers.", "water pumps"),
    ("What is Acme?", "Description: Acme is an online marketplace for second-hand lab equipment.", "marketplace"),
    ("What is the legal name of the company behind Acme?", "This privacy policy explains how Acme Ltd (\u201cwe\u201d, "
     "\u201cus\u201d) operates acme.example.", "Acme Ltd"),
    ("When was Acme established?", "Acme was founded in 2018 in Leeds.", "2018"),
    ("How many hours per month does Acme's free plan include?", "Free: 30 hours per month, public repositories.", "30 hours"),
    ("Which award was Acme nominated for?", "We are proud to be nominated for the Regional Innovation Award 2018.", "Regional Innovation Award"),
    ("Who joined Acme's board?", "Jane Roe of Northwind Capital joins Acme's board of directors.", "Jane Roe"),
    # Postal addresses in the forms of other countries than the US.
    ("What is Acme's address?", "Acme GmbH, Hafenstraße 12, 20457 Hamburg, Germany", "Hafenstraße 12"),
    ("Where is Acme's office?", "Acme B.V.\nOudegracht 45\n3511 AB Utrecht\nThe Netherlands", "Oudegracht 45"),
    ("Where is Acme located?", "Acme SAS, 12 rue de la Paix, 75002 Paris, France", "12 rue de la Paix"),
    ("What is Acme's office address?", "Acme S.r.l., Via Giuseppe Verdi 5, 20121 Milano, Italia", "Via Giuseppe Verdi 5"),
    ("Where is Acme headquartered?", "Acme S.L. has its headquarters at Calle de Alcalá 50, 28014 Madrid.", "Calle de Alcalá 50"),
    # Officers as news items name them.
    ("Who is Acme's CEO?", "Acme appoints Jane Roe as Chief Executive Officer", "Jane Roe"),
    ("Who is Acme's CEO?", "Jane Roe has been appointed CEO of Acme, effective today.", "Jane Roe"),
    ("Who is the CEO of Acme?", "“We are thrilled with the result,” said Jane Roe, CEO and co-founder of Acme.", "Jane Roe"),
    ("Who co-founded Acme?", "Jane Roe, who co-founded Acme with John Doe in 2014, now leads its research.", "Jane Roe"),
    ("Who founded Acme?", "Jane Roe (CEO) and John Doe (CTO) founded Acme in 2014.", "Jane Roe"),
    ("Who is Acme's CTO?", "John Doe joins Acme as CTO from Globex.", "John Doe"),
    ("Who is Acme's CEO?", "Jane Roe takes over as CEO of Acme from founder John Doe.", "Jane Roe"),
    ("Who is Acme's CEO?", "Acme CEO Jane Roe opened the conference on Tuesday.", "Jane Roe"),
    ("Who are Acme's co-founders?", "Acme was co-founded in 2014 by Jane Roe and John Doe.", "Jane Roe"),
    ("Who is Acme's CTO?", "Our CTO, John Doe, will present the roadmap.", "John Doe"),
    ("Who joined Acme's board of directors?", "Acme also welcomes Jane Roe, partner at Northwind Capital, to its board "
     "of directors.", "Jane Roe"),
]

# (question, passage that does not state it)
NOT_STATED = [
    ("What does Acme build?", "Acme is a Portuguese company founded in 2014 in Lisbon."),
    ("What products does Acme offer?", "Acme is a small team based in Leeds, England."),
    ("What does Acme do?", "Acme is a small team based in Leeds, England."),
    ("What does Acme do?", "We spent a week in the hills. It was a vital reminder that while we write code, people matter."),
    ("What is Acme?", "Acme is proud to sponsor the Leeds marathon again this year."),
    ("What is Acme's legal name?", "This year we incorporated new reporting features into the Acme dashboard."),
    ("What does Acme build?", "Globex is a platform for builders, and Acme uses it."),
    ("Where is Acme located?", "Visitors based in the EEA may ask us for a copy of their data."),
    ("Who is Acme's CEO?", "We are proud to partner with Globex, whose CEO Jane Roe spoke at our event."),
    ("When was Acme founded?", "Globex was founded in 1999 and bought its first Acme licence in 2016."),
    ("How many employees does Acme have?", "Acme customers operate in 34 countries."),
    ("Who founded Acme?", "Read the interview with Jane Roe, founder of Globex, on our blog."),
    ("What is Acme's phone number?", "Globex support: +1 555 0100. Acme is a Globex partner."),
    ("How much funding has Acme raised?", "Our customers saved $2 million last year with Acme."),
    ("Where is Acme located?", "Join our meetup at Oudegracht 45, 3511 AB Utrecht, hosted by Globex."),
    ("What is Acme's address?", "Globex GmbH, Hafenstraße 12, 20457 Hamburg, is an Acme partner."),
    ("Who is Acme's CEO?", "Globex appoints Jane Roe as Chief Executive Officer; Acme congratulates her."),
    ("Who is Acme's CEO?", "“Acme made this easy,” said Jane Roe, CEO of Globex."),
    ("Who is Acme's CTO?", "John Doe joins Globex as CTO after five years at Acme."),
    ("Who founded Acme?", "Jane Roe, who founded Globex in 2009, is an Acme customer."),
    ("Who is Acme's CEO?", "Globex CEO Jane Roe opened the Acme conference on Tuesday."),
    # Written to mislead: the asked role, date, place, count or amount is named beside a name of the company, but
    # said of another person, body or thing, or of another relation to it.
    ("Who is Acme's CEO?", "Jane Roe interviewed Acme's CEO about the company's plans."),
    ("Who is Acme's CEO?", "Acme's board appointed a new CEO, replacing Jane Roe."),
    ("Who is Acme's CEO?", "Our CEO search continues; Jane Roe is interim CFO."),
    ("What is Acme's phone number?", "Call Globex at +1 415 555 0100 for Acme support."),
    ("When was Acme founded?", "The Acme Foundation, a separate charity, was established in 2015."),
    ("When was Acme founded?", "In 2015 Acme's founders were still at university."),
    ("Where is Acme headquartered?", "Acme's servers are located in Frankfurt."),
    ("How many employees does Acme have?", "More than 10,000 people use Acme every day."),
    ("How much funding has Acme raised?", "Acme helped its customers raise $50 million."),
    ("How much funding has Acme raised?", "Globex, an Acme customer, raised $20 million."),
    ("What is Acme's annual revenue?", "Acme saves its customers $5 million a year."),
    ("Who acquired Acme?", "Microsoft acquired Initech, a rival of Acme, in 2020."),
    ("What is Acme's parent company?", "Initech is a subsidiary of Acme."),
    ("What is Acme's parent company?", "Acme works with Initech, a subsidiary of Globex."),
    ("Who is Acme's CEO?", "Acme's CEO thanked Jane Roe, our longtime customer."),
    ("Who is Acme's CTO?", "Acme's CTO position is vacant; Jane Roe is our VP of Engineering."),
    ("Who is Acme's CEO?", "Jane Roe is not the CEO of Acme."),
    ("Who acquired Acme?", "Acme was almost acquired by Globex in 2020, but the deal fell through."),
    ("Where is Acme headquartered?", "Acme moved out of its Boston headquarters in 2019."),
    ("Who founded Acme?", "Jane Roe founded the Acme user group in 2016."),
    ("When was Acme founded?", "Jane Roe, who founded Acme's Berlin office in 2018, now leads sales."),
    ("How many customers does Acme have?", "Globex, an Acme partner, serves 3,000 customers."),
]

# (passage, questions asking what it states in other words, text the first statement must hold): one fact, as
# users word it ("Who runs Acme?", "How old is Acme?", "What city is Acme in?"); each wording is one case.
WORDINGS = [
    ("Jane Roe is the CEO of Acme.", ("Who is Acme's CEO?", "Who is the chief executive of Acme?", "Who runs Acme?",
                                      "Who leads Acme?", "Who heads Acme?", "Who is in charge of Acme?",
                                      "Who is the boss of Acme?", "Who's Acme's CEO?"), "Jane Roe"),
    ("Acme was founded by Jane Roe in 2015.", ("Who founded Acme?", "Who started Acme?", "Who created Acme?",
                                               "When was Acme founded?", "When did Acme start?", "How old is Acme?",
                                               "What year was Acme established?", "When did Acme get started?"),
     "Jane Roe|2015"),
    ("Acme is headquartered in Leeds, England.", ("Where is Acme headquartered?", "Where is Acme?",
                                                  "Where is Acme based?", "What city is Acme in?",
                                                  "In which country is Acme based?", "Where is Acme located?"), "Leeds"),
    ("Acme has 250 employees.", ("How many employees does Acme have?", "How many people work at Acme?",
                                 "How many staff does Acme have?", "What is Acme's headcount?",
                                 "How big is Acme's team?", "What is the size of Acme's team?",
                                 "How many workers does Acme have?", "Acme employee count"), "250"),
    ("Acme raised a $5 million Series A in 2019.", ("How much did Acme raise in its Series A?",
                                                    "How big was Acme's Series A?",
                                                    "What was the size of Acme's Series A?",
                                                    "What was the amount of Acme's Series A?"), "5 million"),
    ("Globex acquired Acme in 2020.", ("Who acquired Acme?", "Who bought Acme?", "Which company acquired Acme?",
                                       "Who owns Acme?", "When was Acme acquired?"), "Globex|2020"),
    ("Acme is a subsidiary of Globex.", ("What is Acme's parent company?", "Who is Acme's parent company?",
                                         "Who owns Acme?"), "Globex"),
]

# News items as company sites publish them: a title, a dateline, quotes, and "About" paragraphs of other bodies.
PR1 = """# Acme appoints Jane Roe as Chief Executive Officer

LEEDS, March 3, 2019 — Acme, the release automation company, today announced the appointment of Jane Roe as Chief Executive Officer. Roe joins from Globex, where she was Vice President of Sales. She succeeds co-founder John Doe, who will remain with the company as CTO.

“Jane brings twenty years of experience in enterprise software,” said John Doe. “I look forward to focusing on the product.”

## About Acme

Acme helps teams release software safely with canary releases. Founded in 2014 by John Doe and Tom Berg, Acme is headquartered in Leeds.

## About Globex

Initech, led by CEO Mary Major, is a software company in Berlin."""

PR2 = """# Acme raises €3 million Series A led by Northwind Capital

Acme, the Leeds-based release automation startup, has closed a €3 million Series A round led by Northwind Capital, with participation from Fabrikam Ventures and existing investor Contoso Partners. The funding will be used to expand the sales team.

“This round lets us grow in Europe and the US,” says Jane Roe, CEO of Acme. As part of the investment, Tom Berg of Northwind Capital joins Acme's board of directors."""

PR3 = """# Globex Labs is now Acme

We have changed our name! Globex Labs, the company behind the open-source Acme platform, will from now on be called Acme. Our team of 25 people in Leeds stays the same.

Acme was founded in 2014 by John Doe and Tom Berg. John Doe is our CEO and Tom Berg is our CTO."""

# (page, question, text the first statement must hold): whole news items, with the other bodies they name
PAGES = [
 (PR1, "Who is Acme's CEO?", "Jane Roe"),
 (PR1, "Who is Acme's CTO?", "John Doe"),
 (PR1, "Who co-founded Acme?", "John Doe"),
 (PR1, "Where is Acme headquartered?", "Leeds"),
 (PR1, "When was Acme founded?", "2014"),
 (PR1, "Where did Acme's CEO work before?", "Globex"),
 (PR2, "How much did Acme raise in its Series A?", "3 million"),
 (PR2, "Who led Acme's Series A?", "Northwind Capital"),
 (PR2, "Which investors took part in Acme's Series A?", "Fabrikam"),
 (PR2, "Who is Acme's CEO?", "Jane Roe"),
 (PR2, "Who joined Acme's board?", "Tom Berg"),
 (PR3, "What was Acme's former name?", "Globex Labs"),
 (PR3, "What was Acme called before?", "Globex Labs"),
 (PR3, "How many employees does Acme have?", "25"),
 (PR3, "Who is Acme's CTO?", "Tom Berg"),
 (PR3, "Who founded Acme?", "John Doe"),
]

CRAWLED = datetime(2026, 1, 1, tzinfo=timezone.utc)


def context(passage: str) -> list[ScoredChunk]:
    """The passage as the one retrieved chunk of Acme's about page."""
    meta = ChunkMetadata(url="https://acme.example/about/", title="About Acme", company="acme", source_type="website",
                         chunk_index=0, scraped_at=CRAWLED)
    chunk = Chunk(id="00000000-0000-0000-0000-000000000001", text=passage, token_count=len(passage.split()), metadata=meta)
    return [ScoredChunk(chunk=chunk, score=1.0, dense_score=0.5, rank=1)]


def first_statement(question: str, passage: str, judge: CloseInMeaning | None = None) -> str | None:
    """The answer's first cited statement, or None when the reader abstains (with ``judge``, read as ``cikb ask``
    reads with the judge's dense model)."""
    dense: dict[str, Any] = {}
    if judge is not None:
        model = judge.embedder
        dense = {"embed_sentences": model.embed_documents, "query_vector": model.embed_query(question),
                 "close_in_meaning": judge}
    answer = extract_answer(question, context(passage), company=COMPANY, **dense)
    return answer.sentences[0].text if answer.sentences else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--verbose", action="store_true", help="print every case")
    parser.add_argument("--model", action="store_true",
                        help="read with the offline dense model, as `cikb ask` does (free-text order, meaning judge)")
    args = parser.parse_args()
    judge = CloseInMeaning(load_embedder(Settings().embed)) if args.model else None  # one model, loaded once
    right = wrong = abstained = 0
    for question, passage, expected in STATED:
        stated = first_statement(question, passage, judge)
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
    page_right = page_wrong = 0
    for page, question, expected in PAGES:
        stated = first_statement(question, page, judge)
        verdict = "abstain" if stated is None else "right" if expected.lower() in stated.lower() else "wrong"
        page_right += verdict == "right"
        page_wrong += verdict == "wrong"
        if args.verbose:
            print(f"{verdict:8s} {question}  <- a news item: {page.splitlines()[0]!r}")
    worded = {"right": 0, "abstain": 0, "wrong": 0}
    for passage, questions, expected in WORDINGS:
        for question in questions:
            stated = first_statement(question, passage, judge)
            verdict = "abstain" if stated is None else "right" if any(
                e.lower() in stated.lower() for e in expected.split("|")) else "wrong"
            worded[verdict] += 1
            if args.verbose:
                print(f"{verdict:8s} {question}  <- {passage!r} (in other words)")
    answered = 0
    for question, passage in NOT_STATED:
        stated = first_statement(question, passage, judge)
        answered += stated is not None
        if args.verbose:
            print(f"{'ANSWERED' if stated else 'abstain':8s} {question}  <- {passage[:70]!r} (not stated)")
    print(f"stated in other words: {len(STATED)} cases: right {right}, abstained {abstained}, wrong {wrong}")
    print(f"news items: {len(PAGES)} cases: right {page_right}, abstained {len(PAGES) - page_right - page_wrong}, "
          f"wrong {page_wrong}")
    print(f"asked in other words: {sum(worded.values())} cases: right {worded['right']}, abstained "
          f"{worded['abstain']}, wrong {worded['wrong']}")
    print(f"not stated: {len(NOT_STATED)} cases: abstained {len(NOT_STATED) - answered}, answered (wrong) {answered}")


if __name__ == "__main__":
    main()
