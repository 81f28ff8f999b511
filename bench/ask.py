"""Offline answers to the facts of the shared company sites: right, abstained, wrong (issue 23, item 1).

    python bench/ask.py [--sites NAME ...] [--pages N] [--data-dir DIR] [--reuse] [--verbose]
                        [--extra COMPANY SITE_DIR FACTS_JSON ...] [--written] [--by-kind]

Each site of ``../shared/corpora`` that has a facts file is served on 127.0.0.1, gathered under the
name a user would give it through the real pipeline with the default page budget (20; ``--pages``),
and each fact's question is asked with ``cikb ask``'s code in extractive mode (no LLM).

A fact is scored as ``../shared/tools/score_facts.py`` scores it, so the figures compare with it:

- right: the answer's first cited statement (the text before its first ``[n]``) holds the fact's
  answer (its part before the first comma, first 30 characters; case and spacing aside);
- abstained: the answer is the abstention sentence (counted apart: those whose related reading, the
  sentences listed after it, holds the answer, so that a user reads it there);
- wrong: any other answer (a confident, cited sentence that does not state the fact).

Where an answer has a short value (what ``cikb enrich`` writes in a cell), the value is scored apart, by confidence
(``cells``): its numbers agree with the fact's answer's, or without numbers its words do (:func:`cell_verdict`).

Retrieval is scored on the same questions: the rank of the first retrieved chunk holding the
evidence sentence's first 50 characters or the answer's first 40 (R@1, R@10); and the crawl apart from it: the
facts whose evidence page the gather kept, and of those the facts whose evidence is in the top 10 (what retrieval
finds where the crawl did its part, within the page budget of spec G3).

The sites are split: the reader was tuned on ``tuned`` sites; ``held-out`` sites are a check that
is never looked at, fact by fact, while changing the reader. Both are reported apart. A site with a
``note`` trap counts the trap's outdated value as wrong.

``--extra`` adds a site outside ``../shared`` (a folder of HTML served as it is, and a facts file in the
shared format), reported apart as ``extra``: a site never seen, to measure once before changing anything.

``--written`` adds the sites of ``bench/sites`` (see its README): sites written for this project in the manner of
real companies' sites, not their own pages. Some were tuned on (``written``), others are kept held out (``written
held-out``: totals only, as the shared held-out sites).

``--by-kind`` prints, after each group's totals, its verdicts by the kind of value the question asks for (a date, a
place, a licence ...), with the facts whose evidence is in the top 10 and whose evidence page the crawl kept: where a
group loses, and whether the crawl, retrieval or the reader loses it, still in totals only.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from cikb.answer.reader import read_question
from cikb.app.pipeline import gather_company
from cikb.app.reading import ask, open_retriever
from cikb.app.sample_site import serve_sample_site
from cikb.core.config import Settings
from cikb.core.slug import company_from_name

ROOT = Path(__file__).resolve().parents[1]
CORPORA = ROOT.parent / "shared" / "corpora"
WRITTEN_SITES = Path(__file__).resolve().parent / "sites"
ABSTAINS = "don't have enough information"


@dataclass(frozen=True)
class Site:
    """A shared company site with its facts file, the name it is gathered under and its role in tuning."""

    name: str
    company: str
    role: str  # "tuned", "held-out", "written", "written held-out" or "extra"
    path: Path | None = None  # an extra site's folder (default: ../shared/corpora/site_<name>)
    facts_path: Path | None = None  # an extra site's facts file (default: ../shared/corpora/<name>_facts.json)

    @property
    def folder(self) -> Path:
        return self.path or CORPORA / f"site_{self.name}"

    @property
    def slug(self) -> str:
        return company_from_name(self.company).slug

    def facts(self) -> list[dict]:
        data = json.loads((self.facts_path or CORPORA / f"{self.name}_facts.json").read_text())
        return data.get("facts", data) if isinstance(data, dict) else data


# Chosen before any rule was changed against them: vamp and gitpod stay held out.
SITES = {
    "letsencrypt": Site("letsencrypt", "ISRG", "tuned"),
    "skylight": Site("skylight", "Skylight", "tuned"),
    "vamp": Site("vamp", "Vamp", "held-out"),
    "gitpod": Site("gitpod", "Gitpod", "held-out"),
}
HELD_OUT = ("held-out", "written held-out")  # read by their totals only while changing the reader


def written_site(name: str, company: str, role: str) -> Site:
    folder = WRITTEN_SITES / name
    return Site(name, company, role, folder / "site", folder / "facts.json")


# Written in sessions 61 to 66, 82, 83 and 96 to 108, each pair measured once before anything was changed against it
# (bench/sites/README.md); ten pairs and twenty sites tuned on since, six pairs and twenty sites held out.
WRITTEN = {site.name: site for site in (
    written_site("fairphone", "Fairphone", "written"), written_site("buttondown", "Buttondown", "written"),
    written_site("plausible", "Plausible Analytics", "written"), written_site("keyboardio", "Keyboardio", "written"),
    written_site("nitrokey", "Nitrokey", "written"), written_site("transistor", "Transistor.fm", "written"),
    written_site("mullvad", "Mullvad", "written"), written_site("ghost", "Ghost", "written"),
    written_site("calcom", "Cal.com", "written"), written_site("mastodon", "Mastodon", "written"),
    written_site("olimex", "Olimex", "written"), written_site("pretix", "pretix", "written"),
    written_site("adafruit", "Adafruit", "written"), written_site("librespace", "Libre Space Foundation", "written"),
    written_site("pimoroni", "Pimoroni", "written"), written_site("zulip", "Zulip", "written"),
    written_site("mnt", "MNT Research", "written"), written_site("healthchecks", "Healthchecks.io", "written"),
    written_site("nextcloud", "Nextcloud", "written"), written_site("teenage", "teenage engineering", "written"),
    written_site("zammad", "Zammad", "written held-out"), written_site("system76", "System76", "written held-out"),
    written_site("codeberg", "Codeberg", "written held-out"),
    written_site("framework", "Framework Computer", "written held-out"),
    written_site("purism", "Purism", "written held-out"), written_site("kagi", "Kagi", "written held-out"),
    written_site("igalia", "Igalia", "written held-out"), written_site("fastmail", "Fastmail", "written held-out"),
    written_site("prusa", "Prusa Research", "written held-out"),
    written_site("tailscale", "Tailscale", "written held-out"),
    written_site("tuta", "Tuta", "written"), written_site("signals37", "37signals", "written held-out"),
    written_site("infomaniak", "Infomaniak", "written held-out"),
    written_site("bitwarden", "Bitwarden", "written held-out"),
    written_site("posthog", "PostHog", "written held-out"), written_site("fathom", "Fathom Analytics", "written"),
    written_site("hetzner", "Hetzner Online", "written held-out"), written_site("supabase", "Supabase", "written"),
    written_site("backblaze", "Backblaze", "written"), written_site("element", "Element", "written held-out"),
    written_site("ecosia", "Ecosia", "written"), written_site("sentry", "Sentry", "written held-out"),
    written_site("nabucasa", "Nabu Casa", "written"), written_site("bunny", "bunny.net", "written held-out"),
    written_site("simpleanalytics", "Simple Analytics", "written"),
    written_site("tuxedo", "TUXEDO Computers", "written held-out"),
    written_site("posteo", "Posteo", "written"), written_site("sparkfun", "SparkFun Electronics", "written held-out"),
    written_site("matomo", "Matomo", "written"), written_site("raspberrypi", "Raspberry Pi", "written held-out"),
    written_site("pine64", "Pine64", "written"), written_site("threema", "Threema", "written held-out"),
    written_site("mailboxorg", "mailbox.org", "written"), written_site("murena", "Murena", "written held-out"),
    written_site("mythicbeasts", "Mythic Beasts", "written"), written_site("gandi", "Gandi", "written held-out"),
    written_site("obsidian", "Obsidian", "written"), written_site("vivaldi", "Vivaldi", "written held-out"),
    written_site("sourcehut", "SourceHut", "written"), written_site("discourse", "Discourse", "written held-out"),
    written_site("jolla", "Jolla", "written"), written_site("mojeek", "Mojeek", "written held-out"),
    written_site("sipgate", "sipgate", "written"), written_site("scaleway", "Scaleway", "written held-out"),
    written_site("collabora", "Collabora", "written"), written_site("netgate", "Netgate", "written held-out"),
    written_site("uberspace", "Uberspace", "written"), written_site("datawrapper", "Datawrapper", "written held-out"),
    written_site("netcup", "netcup", "written"), written_site("xwiki", "XWiki", "written held-out"),
    written_site("mailfence", "Mailfence", "written"), written_site("seeed", "Seeed Studio", "written held-out"),
)}


@dataclass
class Scores:
    """Of a site's facts: right, abstained and wrong first statements; evidence ranks."""

    facts: int = 0
    right: int = 0
    abstained: int = 0
    shown: int = 0  # abstentions whose related reading holds the answer: the user reads it there
    wrong: int = 0
    top1: int = 0
    top10: int = 0
    pages: int = 0  # facts whose evidence page the crawl kept
    pages_top10: int = 0  # ... and whose evidence is in the top 10: retrieval's recall where the crawl did its part
    verdicts: dict[str, str] = field(default_factory=dict)
    high: list[str] = field(default_factory=list)  # the verdicts of answers given with high confidence
    medium: list[str] = field(default_factory=list)  # ... with medium confidence
    low: list[str] = field(default_factory=list)  # ... with low confidence (a free-text sentence that states the terms)
    cells: dict[str, list[str]] = field(default_factory=lambda: {"high": [], "medium": []})  # short values, by confidence
    kinds: dict[str, Counter] = field(default_factory=dict)  # verdicts by the kind of value the question asks for

    def add(self, other: Scores) -> None:
        for name in ("facts", "right", "abstained", "shown", "wrong", "top1", "top10", "pages", "pages_top10",
                     "high", "medium", "low"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for confidence, verdicts in other.cells.items():
            self.cells[confidence] += verdicts
        for kind, verdicts in other.kinds.items():
            self.kinds.setdefault(kind, Counter()).update(verdicts)

    def kind_lines(self) -> list[str]:
        """Right / abstained / wrong by the kind of value asked for: where a group of sites loses, in totals only."""
        return [f"  {kind:11} right {c['right']:3}  abstained {c['abstain']:3}  wrong {c['wrong']:2}  of {c['facts']:3}"
                f"  evidence in the top 10 {c['top10']:3}  evidence page gathered {c['page']:3}"
                for kind, c in sorted(self.kinds.items(), key=lambda item: -item[1]["facts"])]

    def line(self) -> str:
        n = self.facts or 1
        return (f"right {self.right}/{self.facts} ({self.right / n:.0%})  abstained {self.abstained} "
                f"(answer in the related reading: {self.shown})  "
                f"wrong {self.wrong} ({self.wrong / n:.0%})  evidence R@1 {self.top1}  R@10 {self.top10}/{self.facts} "
                f"({self.top10 / n:.0%})  evidence page gathered {self.pages}/{self.facts} (in the top 10: {self.pages_top10})  high confidence: {self.high.count('right')}/{len(self.high)} right"
                f"  medium: {self.medium.count('right')}/{len(self.medium)} right"
                f"  low: {self.low.count('right')}/{len(self.low)} right"
                + "  cells: " + "  ".join(f"{confidence} {verdicts.count('right')}/{len(verdicts)}"
                                          for confidence, verdicts in self.cells.items()))


def norm(text: str) -> str:
    """score_facts.py's normalisation: lower case, spaces collapsed, typographic quotes plain."""
    return re.sub(r"\s+", " ", text.lower()).replace("\u2019", "'").replace("\u201c", '"').replace("\u201d", '"')


def verdict(answer: str, truth: str) -> str:
    """``right``, ``abstain`` or ``wrong``, as score_facts.py decides it."""
    if not answer.strip() or ABSTAINS in norm(answer):
        return "abstain"
    head = re.split(r"\[\d+\]", answer, maxsplit=1)[0]
    return "right" if holds_answer(head, truth) else "wrong"


def holds_answer(text: str, truth: str) -> bool:
    """Whether ``text`` holds the fact's answer, as :func:`verdict` reads a first statement."""
    return norm(truth.split(",")[0][:30]) in norm(text)


def cell_verdict(value: str, truth: str) -> str:
    """``right`` or ``wrong`` for a short answer as a table cell would hold it, the way ``bench/enrich.py`` scores
    cells: where the fact's answer holds numbers, the value's numbers and the answer's agree (one set within the
    other: "$9" for "$9 a month", "2 June 2016" for "2016"; "$200" is not "$20"); where it holds an e-mail address,
    the value holds that address ("jobs@acme.example" is not "support@acme.example", two words of three alike);
    otherwise the value holds every word of the answer ("Textilgatan 31, 120 30 Stockholm" for "Stockholm") or their
    words overlap (SQuAD's token F1 >= 0.5).
    The first statement's verdict reads a whole sentence; a cell is the value alone."""
    def numbers(text: str) -> set[str]:
        return set(re.findall(r"\d+(?:\.\d+)?", text.replace(",", "")))

    def words(text: str) -> list[str]:
        return re.findall(r"\w+", re.sub(r"\b(?:a|an|the)\b", " ", norm(text)))

    def mailboxes(text: str) -> set[str]:
        return set(re.findall(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", norm(text)))

    if mailboxes(truth):  # right or not as a whole: "jobs@acme.example" shares two of three words with "support@"
        return "right" if mailboxes(value) & mailboxes(truth) else "wrong"
    if numbers(truth):
        said, true = numbers(value), numbers(truth)
        return "right" if said and (said <= true or true <= said) else "wrong"
    said, true = words(value), words(truth)
    if true and set(true) <= set(said):
        return "right"
    common = sum((Counter(said) & Counter(true)).values())
    f1 = 2 * common / (len(said) + len(true)) if common else 0.0
    return "right" if f1 >= 0.5 else "wrong"


def evidence_rank(texts: list[str], fact: dict) -> int | None:
    """1-based rank of the first text holding the fact's evidence (first 50 characters) or answer (first 40)."""
    keys = [norm(fact["evidence"])[:50], norm(fact["answer"])[:40]]
    return next((n for n, text in enumerate(texts, 1) if any(k in norm(text) for k in keys)), None)


def gathered_paths(folder: Path) -> set[str]:
    """The URL paths of the documents a gather kept (their front matter's ``url``)."""
    paths = set()
    for document in (folder / "raw").glob("*.md"):
        head = document.read_text(encoding="utf-8").split("\n---", 1)[0]
        url = re.search(r'^url: "([^"]+)"', head, re.M)
        if url:
            paths.add(urlsplit(url.group(1)).path)
    return paths


def bench_settings(data_dir: Path, pages: int = 20) -> Settings:
    settings = Settings(data_dir=data_dir)
    settings.gather.download_delay = 0  # politeness toward our own loopback server only costs time
    settings.gather.max_pages_per_source = pages
    return settings


def gather_site(settings: Settings, site: Site, company: str | None = None) -> None:
    """Gather ``site``'s folder, served on 127.0.0.1, as ``company`` (its website source)."""
    company = company or site.company
    with serve_sample_site(site.folder) as url:
        started = time.perf_counter()
        summary = gather_company(settings, company, {"website": [url + "/"]})
        print(f"gathered {company}: {summary.documents} documents, {summary.chunks} chunks, "
              f"{time.perf_counter() - started:.0f} s", file=sys.stderr)


def measure(settings: Settings, site: Site, slug: str | None = None, verbose: bool = False) -> Scores:
    """Ask every fact's question of the gathered company, extractively; score answers and retrieval."""
    slug = slug or site.slug
    scores = Scores()
    gathered = gathered_paths(settings.data_dir / slug)
    with open_retriever(settings) as retriever, retriever.session():
        for fact in site.facts():
            chunks = retriever.search(fact["question"], company=slug).chunks
            rank = evidence_rank([c.chunk.text for c in chunks], fact)
            answer = ask(settings, fact["question"], company=slug, retriever=retriever)
            said = verdict(answer.answer, fact["answer"])
            scores.facts += 1
            scores.right += said == "right"
            scores.abstained += said == "abstain"
            scores.shown += said == "abstain" and any(holds_answer(r.text, fact["answer"]) for r in answer.related)
            scores.wrong += said == "wrong"
            in_top10, page_kept = rank is not None and rank <= 10, fact.get("page", "") in gathered
            scores.top1 += rank == 1
            scores.top10 += in_top10
            scores.pages += page_kept
            scores.pages_top10 += page_kept and in_top10
            scores.verdicts[fact["id"]] = said
            kind = scores.kinds.setdefault(read_question(fact["question"], company=site.company).kind, Counter())
            kind.update({said: 1, "facts": 1, "top10": in_top10, "page": page_kept})
            if answer.confidence in ("high", "medium", "low"):
                getattr(scores, answer.confidence).append(said)
            if answer.confidence in scores.cells and answer.short_answer:
                scores.cells[answer.confidence].append(cell_verdict(answer.short_answer, fact["answer"]))
            if verbose:
                print(f"{said:8} {fact['id']} {fact['question']}\n   truth: {fact['answer']}\n"
                      f"   evidence rank: {rank or '-'}  short: {answer.short_answer}"
                      f"  confidence: {answer.confidence}\n"
                      f"   answer: {answer.answer[:300]}")
                for related in answer.related if said == "abstain" else ():
                    print(f"   related: {related.text[:200]}")
    return scores


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sites", nargs="+", choices=sorted(SITES), default=list(SITES), help="Sites to measure (default: all).")
    parser.add_argument("--pages", type=int, default=20, help="Page budget of the crawl (default 20, the product's default).")
    parser.add_argument("--data-dir", type=Path, help="Knowledge base directory (default: a temporary one).")
    parser.add_argument("--reuse", action="store_true", help="Skip a site's gather when --data-dir already holds it.")
    parser.add_argument("--verbose", action="store_true", help="Print every answer (not the held-out sites', unless --held-out-too).")
    parser.add_argument("--held-out-too", action="store_true", help="With --verbose, print the held-out sites' answers as well.")
    parser.add_argument("--extra", nargs=3, action="append", default=[], metavar=("COMPANY", "SITE_DIR", "FACTS_JSON"),
                        help="A site outside ../shared and its facts file, gathered under COMPANY (repeatable).")
    parser.add_argument("--written", action="store_true", help="Also the sites of bench/sites (see its README).")
    parser.add_argument("--by-kind", action="store_true",
                        help="After each group's totals, its verdicts by the kind of value the question asks for.")
    args = parser.parse_args()

    data_dir = args.data_dir or Path(tempfile.mkdtemp(prefix="cikb-bench-ask-"))
    settings = bench_settings(data_dir, args.pages)
    totals = {"tuned": Scores(), "held-out": Scores(), "written": Scores(), "written held-out": Scores(),
              "extra": Scores()}
    # An extra site is reported by its company's name: its folder may be named like another's ("acme/site").
    extras = [Site(company, company, "extra", Path(folder), Path(facts)) for company, folder, facts in args.extra]
    written = list(WRITTEN.values()) if args.written else []
    lines = []
    sites = [*(SITES[name] for name in args.sites), *written, *extras]
    # Every site is gathered before any is measured: the store's BM25 IDF spans all its companies, so a site measured
    # between two gathers would score otherwise than in a --reuse run of the same knowledge base.
    for site in sites:
        if not (args.reuse and (data_dir / site.slug).exists()):
            gather_site(settings, site)
    for site in sites:
        name = site.name
        verbose = args.verbose and (site.role not in HELD_OUT or args.held_out_too)
        scores = measure(settings, site, verbose=verbose)
        totals[site.role].add(scores)
        lines.append(f"{name:12} {site.role:16} {scores.line()}")
    print()
    print("\n".join(lines))
    for role, scores in totals.items():
        if scores.facts:
            print(f"{'all ' + role:22} {scores.line()}")
            if args.by_kind:
                print("\n".join(scores.kind_lines()))


if __name__ == "__main__":
    main()
