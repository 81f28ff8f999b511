"""One vocabulary of relation words, as Snowball stems (the stems BM25 and the reader use).

Words in one group name the same relation ("founded" ~ "established" ~ "formed"); a
related word names a neighbouring one and counts half ("launched" or "incorporated" for "founded"). Retrieval
widens the BM25 query with them and the answer reader weighs a sentence's words through them,
so a chunk is found by the words the reader will accept as stating the fact ("Address: ..."
for "Where is Acme headquartered?").
"""

from __future__ import annotations

from functools import cache, lru_cache

from py_rust_stemmers import SnowballStemmer

RELATED_WEIGHT = 0.5

# C-suite titles by the word after "Chief", and their acronyms (English usage): a team card writes "Chief Financial
# Officer" where a question asks for the CFO. The reader reads the title as its acronym; retrieval adds the title's
# words to a question that asks by the acronym.
CHIEF_TITLES = {"executive": "ceo", "financial": "cfo", "technology": "cto", "technical": "cto", "operating": "coo",
                "marketing": "cmo", "product": "cpo", "revenue": "cro", "information": "cio", "people": "cpo",
                "legal": "clo", "data": "cdo", "security": "cso", "commercial": "cco", "strategy": "cso",
                "customer": "cco"}

# A word of an office a person holds, as a pattern: a team card's role ("Founder and CEO", "Head of Community").
OFFICE_WORD = (r"(?:co-?)?(?:founder|ceo|cto|cfo|coo|cmo|cpo|cro|cio|president|vp|chair(?:man|woman|person)?|director|"
               r"chief|head|lead|manager|officer|executive|counsel|secretary|treasurer|partner)s?")

EQUIVALENT_STEMS = (
    frozenset({"found", "founder", "cofound", "co-found", "establish", "form", "creat", "set-up"}),
    frozenset({"headquart", "hq", "base", "locat"}),
    frozenset({"employ", "employe", "staff", "workforc", "worker", "headcount"}),
    frozenset({"revenu", "sale", "turnov"}),
    frozenset({"own", "owner", "parent", "subsidiari"}),
    frozenset({"acquir", "acquisit", "bought", "purchas", "buy"}),
    frozenset({"fund", "rais", "financ"}),  # "How much funding has it raised?": "raised $20M", "$20M in funding"
    frozenset({"ceo", "chief"}),
    frozenset({"chair", "chairman", "chairwoman", "chairperson"}),  # "Who chairs the board?": "Chairperson: Jane Roe"
    frozenset({"cost", "price", "fee"}),  # "How much does Acme Pro cost?": "$300/month is the starting price"
    frozenset({"cheapest", "lowest", "entry-level"}),  # "the cheapest plan": "the entry-level Growth plan costs $9"
    frozenset({"phone", "telephon"}),  # "What is its phone number?": "Telephone: (919) 432-4660"
    frozenset({"registr", "regist", "registri"}),  # one word family, stemmed apart: registration, register, registry
    frozenset({"year", "annual", "annum"}),  # "yearly sponsorship": "$1M in annual sponsorship", "per annum"
)
LEGAL_FORM_STEMS = frozenset({"corpor", "incorpor", "llc", "inc", "ltd", "limit", "plc", "gmbh", "partnership",
                              "cooper", "nonprofit", "non-profit", "not-for-profit", "foundat", "chariti"})
RELATED_STEMS = {
    # A company is often incorporated years after it was founded (started in 2016, incorporated in 2021): a
    # neighbouring relation, not the same one.
    "found": ("launch", "start", "began", "begin", "incorpor"),
    "incorpor": ("found", "establish", "form", "creat"),
    "headquart": ("offic", "head", "address", "hous"),
    # An address or an office is stated where the company is headquartered or located: "Acme is
    # headquartered at 1 Main St" answers "What is Acme's address?" and "Where are its offices?".
    "address": ("headquart", "hq", "locat", "offic"),
    "offic": ("headquart", "hq", "locat", "address"),
    "ceo": ("execut", "director", "presid", "chairman", "head", "leader", "lead"),
    "execut": ("ceo", "chief", "director", "presid", "head", "leader", "lead"),
    "director": ("ceo", "chief", "execut", "presid", "head", "leader", "lead"),
    "presid": ("ceo", "chief", "execut", "director", "chairman"),
    "lead": ("ceo", "chief", "execut", "director", "presid", "chairman", "head"),  # "Who leads Acme?"
    "leader": ("ceo", "chief", "execut", "director", "presid", "chairman", "head"),
    # Who is responsible for a thing heads, leads or manages it: "Who is responsible for delivery at Acme?" is
    # answered by "Jane Roe is Head of Delivery at Acme".
    # Journalists reach a company through its press contact: "For press inquiries, email press@acme.example".
    "journalist": ("press", "media"),
    "respons": ("head", "lead", "leader", "manag", "manager", "director", "overse", "oversee"),
    "employ": ("peopl", "person", "team", "member"),
    "work": ("employ", "employe", "staff"),  # "How many people work at Acme?": "Acme has 250 employees"
    "revenu": ("incom", "earn"),
    "sell": ("make", "build", "offer", "product", "provid", "produc", "manufactur", "design", "develop", "servic"),
    "make": ("build", "produc", "manufactur", "design", "sell", "offer", "product"),
    "product": ("make", "sell", "offer", "servic"),
    "run": ("oper", "manag"),
    # A product is released, launched or shipped: "Acme launched Widget 4 in 2022" answers when it was released.
    "releas": ("launch", "ship", "introduc", "unveil", "debut"),
    "launch": ("releas", "ship", "introduc", "unveil", "debut"),
    "cheapest": ("start",),  # the cheapest plan's price is what "plans start at"
    "project": ("program", "initi", "servic"),
    # A legal form or a tax status is stated by its kind, not by these words: "a Delaware corporation",
    # "a 501(c)(3) nonprofit", "a GmbH" (the words of the US and European forms, no site's own).
    "legal": LEGAL_FORM_STEMS,
    "entiti": LEGAL_FORM_STEMS,
    "tax": ("501", "exempt", "nonprofit", "non-profit", "charit", "chariti"),
}


@cache
def _groups() -> dict[str, frozenset[str]]:
    return {term: group for group in EQUIVALENT_STEMS for term in group}


@lru_cache(maxsize=65536)
def relation(term: str) -> frozenset[str]:
    """The relation group of a stem (the stem alone when it is in none)."""
    return _groups().get(term) or frozenset({term})


@cache
def related_stems(term: str) -> frozenset[str]:
    """The related words of a term's whole relation: "based" and "located" have the related words of
    "headquartered" ("Address: ...", "head office")."""
    return frozenset(word for member in relation(term) for word in RELATED_STEMS.get(member, ()))


def match_weight(term: str, stems: set[str] | frozenset[str]) -> float:
    """1 when ``stems`` hold the term (or a word of its relation), ``RELATED_WEIGHT`` for a related word, else 0."""
    if relation(term) & stems:
        return 1.0
    if stems & related_stems(term):
        return RELATED_WEIGHT
    return 0.0


def expansions(term: str) -> frozenset[str]:
    """The other words that state a term's relation: its group's other words, its related words and, for a C-suite
    acronym, the words of its title written out ("cfo": chief, financi, offic)."""
    return (relation(term) | related_stems(term) | _title_stems().get(term, frozenset())) - {term}


@cache
def _title_stems() -> dict[str, frozenset[str]]:
    stemmer = SnowballStemmer("english")
    titles: dict[str, set[str]] = {}
    for word, acronym in CHIEF_TITLES.items():
        titles.setdefault(acronym, {"chief", stemmer.stem_word("officer")}).add(stemmer.stem_word(word))
    return {acronym: frozenset(stems) for acronym, stems in titles.items()}
