"""Many small company sites on distinct loopback addresses, for `cikb gather --from-csv` (tests and bench).

    with serve_companies(30) as sites:      # 127.0.0.2, 127.0.0.3, ... one host (one domain) per company
        csv_text = companies_csv(sites)     # Company,Website rows
        ...
        min(gaps(sites[0].server.times()))  # politeness, from the server's side

Each site has a home page linking to three more (about, team, contact): four English pages
with made-up, distinct facts; no robots.txt or sitemap, and four links to missing pages
(404s, as on many small sites).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass

from sites import Behaviour, SiteServer, page, paragraphs

PAGES = ("/", "/about/", "/team/", "/contact/")
# Linked from the home page but missing (404), as on many small sites: requests that cost the
# crawl its politeness delay but no cleaning or embedding.
MISSING = ("/careers/", "/press/", "/partners/", "/history/")
_CITIES = ("Tampere", "Porto", "Leeds", "Gdansk", "Rosario", "Kumamoto", "Ghent", "Halifax", "Brno", "Dunedin")
_PRODUCTS = ("ferry engines", "beekeeping tools", "cold storage racks", "tidal sensors", "bakery ovens",
             "solar roof tiles", "wool insulation", "bicycle frames", "water meters", "printing presses")
_FIRST = ("Ada", "Bruno", "Chiara", "Dmitri", "Elif", "Farid", "Greta", "Hugo", "Ines", "Jonas")
_LAST = ("Lindqvist", "Moreau", "Okafor", "Petrova", "Quintero", "Rasmussen", "Sato", "Tanaka", "Urquhart", "Varga")


@dataclass(frozen=True)
class CompanySite:
    name: str
    server: SiteServer

    @property
    def url(self) -> str:
        return self.server.url + "/"


def company_name(n: int) -> str:
    return f"Testco {n:02d} {_CITIES[n % 10]}"


def company_routes(n: int) -> dict[str, Behaviour]:
    """Company ``n``'s four pages: each over 100 characters of text, none like another."""
    name, city, product = company_name(n), _CITIES[n % 10], _PRODUCTS[(n * 3) % 10]
    chief, engineer = f"{_FIRST[n % 10]} {_LAST[(n // 10) % 10]}", f"{_FIRST[(n + 4) % 10]} {_LAST[(n + 7) % 10]}"
    return {
        "/": page(name, paragraphs(f"{name} designs and sells {product} from its workshop in {city}, and has done so for {n + 5} years."),
                  links=[*PAGES[1:], *MISSING]),
        "/about/": page(f"About {name}", paragraphs(
            f"{name} was founded in {1950 + n} in {city} by {chief}.",
            f"It makes {product} for customers in {n + 3} countries and employs {100 * n + 7} people.",
        )),
        "/team/": page("Our team", paragraphs(
            f"{chief} is the chief executive officer of {name}.",
            f"{engineer} leads engineering and the {product} product line.",
        )),
        "/contact/": page(f"Contact {name}", paragraphs(
            f"Write to {name} at {n + 10} Harbour Road, {city}, or call +1 555 {1000 + n}; the office answers on weekdays.",
        )),
    }


@contextmanager
def serve_companies(count: int, first_host: int = 2) -> Iterator[list[CompanySite]]:
    """``count`` company sites, company n on 127.0.0.<first_host + n>."""
    with ExitStack() as stack:
        sites = []
        for n in range(count):
            server = stack.enter_context(SiteServer(company_routes(n), host=f"127.0.0.{first_host + n}"))
            sites.append(CompanySite(company_name(n), server))
        yield sites


def companies_csv(sites: list[CompanySite], extra_rows: list[tuple[str, str]] = ()) -> str:
    """The list builder's shape: Company,Website (plus ``extra_rows`` as (company, website))."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(["Company", "Website"])
    writer.writerows([(site.name, site.url) for site in sites] + list(extra_rows))
    return buffer.getvalue()
