"""Enrichment quality from the knowledge base, offline (issue 5, item 9).

    python bench/enrich.py [--data-dir DIR] [--reuse] [--verbose]

1. Serves the shared corpora on 127.0.0.1: the letsencrypt.org build (ISRG's
   website) and each SQuAD article as a Wikipedia-like page.
2. Gathers every company that has a known answer through the real pipeline
   (``cikb.app.pipeline.gather_company``: crawl, clean, chunk, embed, store).
3. Enriches a table of those companies column by column with ``lookup``,
   no LLM, no web search: the knowledge base alone, extractively.
4. Scores each cell whose true value is known (``letsencrypt_facts.json``;
   SQuAD questions about founding, headquarters and founders): fill rate,
   accuracy of filled cells, accuracy per confidence level; and, measured in
   the same run on the same retrieved chunks, a baseline that takes the first
   value of the wanted kind in the top-ranked chunk.

A cell is right when its value matches a true answer: the same number for
number columns; a SQuAD-style token F1 >= 0.5 for text. Target: high-confidence
cells >= 95% right. Retries of weak cells (``[enrich] retry_threshold``, ``max_attempts``)
are part of enrichment: the last table says, per column, how many cells they rescued.
"""

from __future__ import annotations

import argparse
import csv
import html
import json
import re
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

from cikb.app.pipeline import gather_company
from cikb.app.reading import enrich_table, open_retriever
from cikb.app.sample_site import serve_sample_site
from cikb.core.config import Settings
from cikb.core.slug import slugify
from cikb.answer.reader import plain, read_question, spans, split_sentences
from cikb.enrich.kb import LazyKnowledgeBase
from cikb.enrich.models import RowLog

ROOT = Path(__file__).resolve().parents[1]
CORPORA = ROOT.parent / "shared" / "corpora"
ISRG = "ISRG"


@dataclass(frozen=True)
class Column:
    name: str
    question: str
    type: str


COLUMNS = [
    Column("Founded", "What year was {Company} founded?", "number"),
    Column("Headquarters", "Where is {Company} headquartered?", "text"),
    Column("Founders", "Who founded {Company}?", "text"),
    Column("Executive Director", "Who is the Executive Director of {Company}?", "text"),
    Column("Incorporated", "When was {Company} incorporated?", "text"),
    Column("Legal form", "What kind of legal entity is {Company}?", "text"),
    Column("Other projects", "What other projects does {Company} run besides Let's Encrypt?", "text"),
    Column("First certificate", "When did Let's Encrypt issue its first certificate?", "text"),
]

# (company, column) -> true answers. ISRG's come from letsencrypt_facts.json (by fact id), the rest
# from SQuAD questions about the company itself (quoted beside each).
ISRG_FACTS = {"Founded": "le-02", "Founders": "le-03", "Executive Director": "le-08", "Incorporated": "le-01",
              "Legal form": "le-06", "Other projects": "le-12", "First certificate": "le-09"}
SQUAD_TRUTH: dict[tuple[str, str], tuple[str, str]] = {
    # (article title, column): (company name in the table, the SQuAD question(s), '|'-separated, whose answers are the truth)
    ("FC_Barcelona", "Founded"): ("FC Barcelona", "When was Barcelona founded?"),
    ("FC_Barcelona", "Founders"): ("FC Barcelona", "Who led the founders of the Barcelona football club?"),
    ("Everton_F.C.", "Founded"): ("Everton", "When was the Everton club founded?"),
    ("Royal_Institute_of_British_Architects", "Founded"): ("Royal Institute of British Architects", "When was RIBA founded?"),
    ("Royal_Institute_of_British_Architects", "Headquarters"): ("Royal Institute of British Architects", "Where is the Royal Institute of British Architects located?"),
    ("Victoria_and_Albert_Museum", "Founded"): ("Victoria and Albert Museum", "when was the Victoria and Albert museum founded?"),
    ("Victoria_and_Albert_Museum", "Headquarters"): ("Victoria and Albert Museum", "where is the Victoria and Albert Museum located?"),
    ("Arsenal_F.C.", "Founded"): ("Arsenal", "When was Arsenal originally formed?"),
    ("Universal_Studios", "Founded"): ("Universal Studios", "When was Universal Studios created?"),
    ("Universal_Studios", "Headquarters"): ("Universal Studios", "In what city are Universal Studios' corporate offices located?"),
    ("The_Times", "Founded"): ("The Times", "What year did the initial incarnation of The Times start?"),
    ("The_Times", "Headquarters"): ("The Times", "The Times is based in what major British city?"),
    ("The_Times", "Founders"): ("The Times", "The Times was founded by what publisher who also was the editor?"),
    ("American_Broadcasting_Company", "Founded"): ("American Broadcasting Company", "When did ABC first start?"),
    ("American_Broadcasting_Company", "Headquarters"): ("American Broadcasting Company", "In what borough of New York City is ABC headquartered?|On what streets is the ABC headquarters located"),
    ("East_India_Company", "Headquarters"): ("East India Company", "Where were the EIC  headquarters located?"),
    ("BBC_Television", "Headquarters"): ("BBC Television", "In what country is the BBC headquartered?"),
    ("Harvard_University", "Headquarters"): ("Harvard University", "What is the major US city that the is the university located?"),
    ("Harvard_University", "Founders"): ("Harvard University", "What organization arranged to founding of school?"),
    ("United_Nations_Population_Fund", "Founded"): ("United Nations Population Fund", "When did UNFPA begin its work?"),
    ("National_Archives_and_Records_Administration", "Founded"): ("National Archives and Records Administration", "What year was the National Archives Establishment established in?"),
    ("Arena_Football_League", "Founded"): ("Arena Football League", "In what year was the AFL founded?"),
    ("Arena_Football_League", "Founders"): ("Arena Football League", "Who was the founder of the Arena Football League?"),
    ("University_of_Chicago", "Founded"): ("University of Chicago", "When was the University of Chicago established?"),
    ("University_of_Chicago", "Founders"): ("University of Chicago", "What society founded the University of Chicago?"),
    ("Intergovernmental_Panel_on_Climate_Change", "Founders"): ("Intergovernmental Panel on Climate Change", "What UN organizations established the IPCC?"),
    ("Premier_League", "Founded"): ("Premier League", "When was the Premier League originally formed?"),
}


# --- the truth -------------------------------------------------------------------


def load_truth() -> tuple[dict[str, str], dict[tuple[str, str], list[str]]]:
    """(company -> SQuAD article title or '' for ISRG, (company, column) -> true answers)."""
    facts = {f["id"]: f for f in json.loads((CORPORA / "letsencrypt_facts.json").read_text())["facts"]}
    truth = {(ISRG, column): [facts[fact_id]["answer"]] for column, fact_id in ISRG_FACTS.items()}
    articles = {a["title"]: a for a in json.loads((CORPORA / "squad" / "companies.json").read_text())}
    companies = {ISRG: ""}
    for (title, column), (company, question) in SQUAD_TRUTH.items():
        wanted = question.split("|")
        answers = [a for p in articles[title]["paragraphs"] for qa in p["qas"] if qa["question"] in wanted for a in qa["answers"]]
        if not answers:
            raise SystemExit(f"SQuAD question not found: {title}: {question}")
        truth[(company, column)] = list(dict.fromkeys(answers))
        companies[company] = title
    return companies, truth


# --- serving the corpora ---------------------------------------------------------


def squad_page(article: dict) -> bytes:
    title = article["title"].replace("_", " ")
    body = "\n".join(f"<p>{html.escape(p['context'])}</p>" for p in article["paragraphs"])
    return (f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{html.escape(title)}</title></head>"
            f"<body><nav><a href='/'>Main page</a> <a href='/random'>Random article</a></nav>"
            f"<main><h1>{html.escape(title)}</h1>{body}</main>"
            f"<footer>Text from Wikipedia via SQuAD v1.1, CC BY-SA 4.0.</footer></body></html>").encode()


def write_squad_site(root: Path) -> Path:
    """Each SQuAD article as ``root/wiki/<title>``: extensionless, so serve_sample_site serves it as text/html."""
    wiki = root / "wiki"
    wiki.mkdir(parents=True, exist_ok=True)
    for article in json.loads((CORPORA / "squad" / "companies.json").read_text()):
        (wiki / article["title"]).write_bytes(squad_page(article))
    return root


# --- gather, enrich, score --------------------------------------------------------------


def gather_all(settings: Settings, companies: dict[str, str], squad_url: str, le_url: str, reuse: bool) -> float:
    started = time.perf_counter()
    facts = json.loads((CORPORA / "letsencrypt_facts.json").read_text())["facts"]
    for company, title in companies.items():
        if reuse and (settings.data_dir / slugify(company)).exists():
            continue
        if company == ISRG:
            # The site's front page plus the pages the facts sit on: the bench measures enrichment,
            # not how well a 20-page crawl picks blog posts.
            start = [le_url + "/"] + sorted({le_url + f["page"] for f in facts})
            summary = gather_company(settings, company, {"website": start})
        else:
            summary = gather_company(settings, company, {"wikipedia": [f"{squad_url}/wiki/{title}"]})
        print(f"  gathered {company}: {summary.documents} document(s), {summary.chunks} chunks", file=sys.stderr)
    return time.perf_counter() - started


def normalise(text: str) -> list[str]:
    text = re.sub(r"\b(a|an|the)\b", " ", text.lower())
    return re.findall(r"[a-z0-9]+", text)


def token_f1(prediction: str, truth: str) -> float:
    p, t = normalise(prediction), normalise(truth)
    common = sum((Counter(p) & Counter(t)).values())
    if not common:
        return 0.0
    precision, recall = common / len(p), common / len(t)
    return 2 * precision * recall / (precision + recall)


def is_right(value: str, truths: list[str], column_type: str) -> bool:
    if column_type == "number":
        years = [re.findall(r"\d{4}", t) for t in truths]
        return any(value in y for y in years)
    return max(token_f1(value, t) for t in truths) >= 0.5


def baseline(settings: Settings, cells: list[tuple[str, Column]]) -> dict[tuple[str, str], str | None]:
    """The first value of the wanted kind in the top-ranked chunk, no sentence scoring, no confidence."""
    kb = LazyKnowledgeBase(lambda: open_retriever(settings))
    values: dict[tuple[str, str], str | None] = {}
    try:
        for company, column in cells:
            question = column.question.replace("{Company}", company)
            chunks = kb.search(question, slugify(company))
            q = read_question(question, column.type, company)
            found = [span for sentence in split_sentences(chunks[0].chunk.text) for span in spans(q, plain(sentence))] if chunks else []
            values[(company, column.name)] = found[0].text if found else None
    finally:
        kb.close()
    return values


def score(rows: list[tuple[str, Column, str | None, str, bool | None]]) -> dict[str, tuple[int, int]]:
    """confidence -> (cells, right)."""
    by_level: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for _, _, value, confidence, right in rows:
        if value is not None:
            by_level[confidence][0] += 1
            by_level[confidence][1] += int(bool(right))
    return {k: (v[0], v[1]) for k, v in by_level.items()}


def pct(right: int, total: int) -> str:
    return f"{right}/{total} = {100 * right / total:5.1f}%" if total else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data-dir", type=Path, help="Knowledge base directory (default: a temporary one).")
    parser.add_argument("--reuse", action="store_true", help="Skip companies already gathered in --data-dir.")
    parser.add_argument("--verbose", action="store_true", help="Print every scored cell.")
    args = parser.parse_args()

    companies, truth = load_truth()
    data_dir = args.data_dir or Path(tempfile.mkdtemp(prefix="cikb-bench-enrich-"))
    settings = Settings(data_dir=data_dir)
    settings.gather.download_delay = 0
    with (tempfile.TemporaryDirectory(prefix="cikb-bench-squad-") as squad_dir,
          serve_sample_site(write_squad_site(Path(squad_dir))) as squad_url,
          serve_sample_site(CORPORA / "site_letsencrypt") as le_url):
        print(f"gathering {len(companies)} companies into {data_dir} ...", file=sys.stderr)
        gather_seconds = gather_all(settings, companies, squad_url, le_url, args.reuse)
        table = data_dir / "bench-companies.csv"
        with table.open("w", newline="", encoding="utf-8") as handle:
            csv.writer(handle).writerows([["Company"], *[[c] for c in companies]])

        cells: list[tuple[str, Column, str | None, str, bool | None]] = []
        retried: list[tuple[Column, RowLog, list[str]]] = []
        evidence: dict[tuple[str, str], str] = {}
        started = time.perf_counter()
        for column in COLUMNS:
            proposal = enrich_table(table, column.name, question=column.question, column_type=column.type,
                                    settings=settings, web=None, llm=None)
            for log in proposal.research_log:
                known = truth.get((log.label, column.name))
                if known is None:
                    continue
                right = is_right(log.value, known, column.type) if log.value is not None else None
                cells.append((log.label, column, log.value, log.confidence, right))
                if log.attempts:
                    retried.append((column, log, known))
                evidence[(log.label, column.name)] = next((st.data.get("evidence", "") for st in log.steps if st.type == "answer"), "")
        enrich_seconds = time.perf_counter() - started
        base = baseline(settings, [(c, col) for c, col, *_ in cells])
    report(cells, base, truth, gather_seconds, enrich_seconds, evidence if args.verbose else None)
    retry_report(cells, retried, settings)


def retry_report(cells, retried: list[tuple[Column, RowLog, list[str]]], settings: Settings) -> None:
    """What the retries (spec Q2) did, per column: cells retried, improved, rescued (first attempt not right,
    kept value right) and harmed (first attempt right, kept value wrong)."""
    print(f"\nretries (threshold {settings.enrich.retry_threshold}, at most {settings.enrich.max_attempts} attempts): "
          f"{len(retried)} of {len(cells)} scored cells were weak and retried")
    print(f"{'column':<20}{'cells':>6}{'retried':>9}{'improved':>10}{'rescued':>9}{'harmed':>8}{'attempts':>10}")
    for name in dict.fromkeys(c.name for _, c, *_ in cells):
        logs = [(col, log, known) for col, log, known in retried if col.name == name]
        improved = [(col, log, known) for col, log, known in logs if not log.attempts[0].kept]
        first_right = [bool(log.attempts[0].value) and is_right(log.attempts[0].value, known, col.type) for col, log, known in improved]
        kept_right = [bool(log.value) and is_right(log.value, known, col.type) for col, log, known in improved]
        rescued = sum(1 for f, k in zip(first_right, kept_right) if k and not f)
        harmed = sum(1 for f, k in zip(first_right, kept_right) if f and not k)
        print(f"{name:<20}{sum(1 for _, c, *_ in cells if c.name == name):>6}{len(logs):>9}{len(improved):>10}{rescued:>9}{harmed:>8}"
              f"{sum(len(log.attempts) for _, log, _ in logs):>10}")


def report(cells, base, truth, gather_seconds: float, enrich_seconds: float, evidence: dict | None) -> None:
    total = len(cells)
    filled = [c for c in cells if c[2] is not None]
    right = sum(1 for c in filled if c[4])
    base_filled = [(k, v) for k, v in base.items() if v is not None]
    base_right = sum(1 for (company, column), v in base_filled
                     if is_right(v, truth[(company, column)], next(c.type for c in COLUMNS if c.name == column)))
    print(f"\nEnrichment from the knowledge base, offline (lookup, no LLM, no web): {total} cells with a known answer")
    print(f"gather {gather_seconds:.0f} s; enrich {enrich_seconds:.1f} s ({enrich_seconds / max(total, 1) * 1000:.0f} ms per scored cell)\n")
    print(f"{'method':<34}{'filled':>16}{'right of filled':>24}{'right of all':>22}")
    print(f"{'baseline: first value, top chunk':<34}{pct(len(base_filled), total):>16}{pct(base_right, len(base_filled)):>24}{pct(base_right, total):>22}")
    print(f"{'cikb enrich (extractive)':<34}{pct(len(filled), total):>16}{pct(right, len(filled)):>24}{pct(right, total):>22}")
    print(f"\n{'confidence':<12}{'cells':>8}{'right':>22}")
    levels = score(cells)
    for level in ("high", "medium", "low"):
        n, r = levels.get(level, (0, 0))
        print(f"{level:<12}{n:>8}{pct(r, n):>22}")
    high_n, high_r = levels.get("high", (0, 0))
    verdict = "met" if high_n and high_r / high_n >= 0.95 else "NOT met"
    print(f"\ntarget high-confidence >= 95% right: {verdict}")
    by_column: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for company, column, value, confidence, ok in cells:
        by_column[column.name][0] += 1
        by_column[column.name][1] += value is not None
        by_column[column.name][2] += bool(ok)
    print(f"\n{'column':<20}{'cells':>6}{'filled':>8}{'right':>7}")
    for name, (n, f, r) in by_column.items():
        print(f"{name:<20}{n:>6}{f:>8}{r:>7}")
    if evidence is not None:
        print()
        for company, column, value, confidence, ok in cells:
            mark = "ok " if ok else ("-- " if value is None else "XX ")
            print(f"{mark}{company[:28]:<28} {column.name:<18} {confidence:<7} {str(value)[:40]:<40} truth: {truth[(company, column.name)][0][:40]}")
            if evidence.get((company, column.name)):
                print(f"      evidence: {evidence[(company, column.name)][:160]}")


if __name__ == "__main__":
    main()
